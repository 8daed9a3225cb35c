"""The snapshot comparison must fail for real changes: prove it by mutating one thing.

Each test changes one value in a plan (or one colour or position in the scene), renders the
affected beat and asserts that the frame comparison and the state comparison both fail, while
the unmutated render passes both.
"""

from __future__ import annotations

import copy
import json

import pytest

import framecheck as fc

pytestmark = pytest.mark.render


@pytest.fixture(scope="module")
def toy_plan(cache_dir):
    from layerwise_core.plans import build_plan
    from layerwise_core.storyboard.schema import load_storyboard
    return build_plan(load_storyboard(fc.ROOT / "layerwise_templates/toy_loop/toy_loop.yaml"), cache_dir)


def render_beat(plan, stem, tmp_path):
    from layerwise_pipeline.scene_render import render
    render(plan, preview=True, media_dir=tmp_path, frames=tmp_path / "frames",
           until=stem.split("_", 1)[1])
    folder = tmp_path / "frames" / plan["storyboard"]["name"]
    return fc.load_png(folder / f"{stem}.png"), json.loads((folder / f"{stem}.json").read_text())


def golden(name, stem):
    return (fc.load_png(fc.GOLDEN / "frames" / name / f"{stem}.png"),
            fc.load_json(fc.GOLDEN / "state" / name / f"{stem}.json"))


def assert_detected(plan, stem, tmp_path):
    frame, state = render_beat(plan, stem, tmp_path)
    g_frame, g_state = golden(plan["storyboard"]["name"], stem)
    diff = fc.frame_difference(frame, g_frame)
    assert not fc.frames_match(diff), f"frame mutation not detected: {diff}"
    assert fc.state_differences(state, g_state), "state mutation not detected"
    return diff


def test_unmutated_render_matches(toy_plan, tmp_path):
    frame, state = render_beat(toy_plan, "03_layer1", tmp_path)
    g_frame, g_state = golden("toy_loop", "03_layer1")
    assert fc.frames_match(fc.frame_difference(frame, g_frame))
    assert not fc.state_differences(state, g_state)


def test_changed_number_text_is_detected(toy_plan, tmp_path):
    """0.1 V^(1) shown as [-0.25 0.06]: make it [-0.26 0.06]; only that text changes."""
    plan = copy.deepcopy(toy_plan)
    lay = plan["data"]["layers"][1]
    assert f"{lay['update'][0]:.2f}" == "-0.25"
    lay["update"][0] -= 0.01
    diff = assert_detected(plan, "03_layer1", tmp_path)
    print("number text change:", diff)


def test_moved_vector_is_detected(toy_plan, tmp_path):
    """V^(0) 10 % longer: the arrow's tip moves a few pixels (and its number changes)."""
    plan = copy.deepcopy(toy_plan)
    v = plan["data"]["layers"][0]["v"]
    plan["data"]["layers"][0]["v"] = [c * 1.1 for c in v]
    print("10% longer arrow:", assert_detected(plan, "01_layer0_qkv", tmp_path))


def test_object_moved_three_pixels_is_detected(toy_plan, tmp_path, monkeypatch):
    from manim import RIGHT

    from layerwise_templates.toy_loop.scene import ToyLoopScene
    layout = ToyLoopScene.layout

    def shifted(self):
        layout(self)
        self.code.shift(RIGHT * 3 / 60)               # 60 px per unit at 480p
    monkeypatch.setattr(ToyLoopScene, "layout", shifted)
    print("code block 3 px right:", assert_detected(toy_plan, "00_code", tmp_path))


def test_changed_colour_is_detected(toy_plan, tmp_path, monkeypatch):
    from manim import ManimColor

    from scenes import theme
    monkeypatch.setattr(theme, "X", ManimColor("#5D8DE2"))   # stream blue, a shade darker
    monkeypatch.setitem(theme.COLOR_OF, "x", ManimColor("#5D8DE2"))
    print("X colour shade:", assert_detected(toy_plan, "03_layer1", tmp_path))


def test_bar_ten_percent_longer_is_detected(cache_dir, tmp_path):
    """The logit lens's top probability bar at the last layer, 10 % longer."""
    from layerwise_core.plans import build_plan
    from layerwise_core.storyboard.schema import load_storyboard
    plan = build_plan(load_storyboard(fc.ROOT / "layerwise_templates/logit_lens/logit_lens.yaml"), cache_dir)
    top = plan["data"]["layers"][29]["top"][0]
    assert top["display"] == "␣Paris"
    top["prob"] *= 1.1
    stem = next(f"{i:02d}_{b['id']}" for i, b in enumerate(plan["beats"]) if b["layer"] == 29)
    print("bar +10%:", assert_detected(plan, stem, tmp_path))
