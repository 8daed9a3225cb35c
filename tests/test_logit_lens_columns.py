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
