"""Every lens beat's column stays on screen. Fading the lens steps (or an old column) out of the
panel once took the whole panel off the scene (Manim's `Scene.remove` dissolves any scene entry
whose family holds what it removes), so a second lens beat's column, added to that panel, was
never drawn: its numbers were missing from the frame."""

from __future__ import annotations

import subprocess
import sys

import pytest

import framecheck as fc

pytestmark = pytest.mark.render

LAYERS = (6, 14, 22, 26, 29)   # five beats, four column places: the fifth replaces the first


def preview(cache_dir, tmp_path, name: str, title: str, beats: list[dict]):
    """Plan a logit_lens storyboard of `beats` on the shipped prompt and render its per-beat
    preview states; returns the folder of those states."""
    import yaml
    from layerwise_core.plans import build_plan, write_plan
    from layerwise_core.storyboard.schema import load_storyboard
    board = tmp_path / f"{name}.yaml"
    board.write_text(yaml.safe_dump({
        "template": "logit_lens", "title": title, "model": "smollm2-135m",
        "sentences": ["The capital of France is"], "focus": "is", "layers": "all",
        "beats": beats}, sort_keys=False))
    media = tmp_path / "media"
    write_plan(build_plan(load_storyboard(board), cache_dir), media / "plans" / f"{name}.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--preview",
                        "--media", str(media), str(board)], cwd=fc.ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    return media / "frames" / name


def test_each_lens_beat_keeps_its_column(cache_dir, tmp_path):
    frames = preview(cache_dir, tmp_path, "lenses", "Five lens beats", [
        {"id": f"after{l}", "show": ["lens"], "layer": l, "caption": f"Layer {l}.",
         "narration": f"The stream after layer {l}."} for l in LAYERS])
    for i, l in enumerate(LAYERS):
        state = fc.load_json(frames / f"{i:02d}_after{l}.json")
        shown = {n["source"] for n in fc.numbers(state)}
        on = LAYERS[max(0, i - 3): i + 1]        # this beat's column and up to 3 before it
        for k in on:
            assert {f"data.layers[{k}].top[0].prob", f"data.layers[{k}].rank"} <= shown, \
                f"beat after{l}: the column of layer {k} is not on screen"
        for k in set(LAYERS) - set(on):
            assert f"data.layers[{k}].rank" not in shown, \
                f"beat after{l}: the replaced column of layer {k} is still on screen"


@pytest.mark.parametrize("then_grid", [False, True])
def test_the_rank_plot_is_centred_when_nothing_comes_beside_it(cache_dir, tmp_path, then_grid):
    """A draft for a sentence too long for the grid shows the rank plot with nothing in the
    left slot: it goes in the middle, not in the right half beside an empty left half."""
    grid = [{"id": "grid", "show": ["grid"], "caption": "The grid.",
             "narration": "The grid."}] if then_grid else []
    frames = preview(cache_dir, tmp_path, "rank", "Rank", [
        {"id": "rank", "show": ["rank"], "caption": "The rank.",
         "narration": "The rank after every layer."}] + grid)
    state = fc.load_json(frames / "00_rank.json")
    x = [m["center"][0] for m in state["mobjects"]       # the plots: the one tall group
         if m["kind"] == "VGroup" and m["size"][1] > 3]
    assert len(x) == 1, "the rank plots"
    if then_grid:
        assert x[0] > 2.0                          # the right half: the grid comes on the left
    else:
        assert abs(x[0]) < 0.5                     # the middle
