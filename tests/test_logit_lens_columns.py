"""Every lens beat's column stays on screen. Fading the lens steps (or an old column) out of the
panel once took the whole panel off the scene (Manim's `Scene.remove` dissolves any scene entry
whose family holds what it removes), so a second lens beat's column, added to that panel, was
never drawn: its numbers were missing from the frame."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import framecheck as fc

pytestmark = pytest.mark.render

LAYERS = (6, 14, 22, 26, 29)   # five beats, four column places: the fifth replaces the first


def test_each_lens_beat_keeps_its_column(cache_dir, tmp_path):
    from layerwise_core.plans import build_plan, write_plan
    from layerwise_core.storyboard.schema import load_storyboard
    beats = "".join(f"""
          - id: after{l}
            show: [lens]
            layer: {l}
            caption: "Layer {l}."
            narration: "The stream after layer {l}."
        """ for l in LAYERS)
    board = tmp_path / "lenses.yaml"
    board.write_text(textwrap.dedent("""\
        template: logit_lens
        title: "Five lens beats"
        model: smollm2-135m
        sentences: ["The capital of France is"]
        focus: is
        layers: all
        beats:""") + textwrap.dedent(beats))
    media = tmp_path / "media"
    write_plan(build_plan(load_storyboard(board), cache_dir), media / "plans" / "lenses.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline.render", "--preview",
                        "--media", str(media), str(board)], cwd=fc.ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    for i, l in enumerate(LAYERS):
        state = fc.load_json(media / "frames" / "lenses" / f"{i:02d}_after{l}.json")
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
    from layerwise_core.plans import build_plan, write_plan
    from layerwise_core.storyboard.schema import load_storyboard
    grid = ("  - id: grid\n    show: [grid]\n    caption: \"The grid.\"\n"
            "    narration: \"The grid.\"\n") if then_grid else ""
    board = tmp_path / "rank.yaml"
    board.write_text(textwrap.dedent("""\
        template: logit_lens
        title: "Rank"
        model: smollm2-135m
        sentences: ["The capital of France is"]
        focus: is
        layers: all
        beats:
          - id: rank
            show: [rank]
            caption: "The rank."
            narration: "The rank after every layer."
        """) + grid)
    media = tmp_path / "media"
    write_plan(build_plan(load_storyboard(board), cache_dir), media / "plans" / "rank.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline.render", "--preview",
                        "--media", str(media), str(board)], cwd=fc.ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    state = fc.load_json(media / "frames" / "rank" / "00_rank.json")
    x = [m["center"][0] for m in state["mobjects"]       # the plots: the one tall group
         if m["kind"] == "VGroup" and m["size"][1] > 3]
    assert len(x) == 1, "the rank plots"
    if then_grid:
        assert x[0] > 2.0                          # the right half: the grid comes on the left
    else:
        assert abs(x[0]) < 0.5                     # the middle
