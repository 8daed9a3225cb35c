"""`captions:` in a storyboard: `subtitles` (default: the words go to the voice and the .srt; the
frame shows each beat's short caption) or `burned` (each spoken cue drawn at the bottom of the
frame while it is spoken, for platforms without subtitles)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import framecheck as fc
from layerwise_core.storyboard.schema import validate_text

BOARD = """\
template: toy_loop
title: Spoken toy
model: toy-2d
sentences: [bank]
focus: bank
{captions}beats:
  - id: code
    show: [code, x]
    layer: 0
    caption: The toy
    narration: "Here is the toy. X starts at one, zero."
  - id: step
    show: [v, update]
    layer: 0
    duration: 9
    caption: One step
    narration: "The update adds 0.1 V to X, e.g. a small step. Only the new X goes on."
"""
FPS = 15


def drawn(text: str) -> str:
    """A text as manim's Text records it (`Text.text` drops white space)."""
    return "".join(text.split())


def board(tmp_path, captions: str | None):
    path = tmp_path / "spoken.yaml"
    path.write_text(BOARD.format(captions=f"captions: {captions}\n" if captions else ""))
    return path


@pytest.mark.parametrize("value,shown", [("subtitle", "'subtitle'"), ("true", "True"),
                                         ("[burned]", "['burned']"), ("''", "''")])
def test_bad_captions_value_is_one_line_with_its_line(tmp_path, value, shown):
    path = board(tmp_path, value)
    r = subprocess.run([sys.executable, "-m", "layerwise_core", "validate", str(path)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        f"error: {path}:6: captions: must be one of subtitles, burned, got {shown}"]


def test_default_plans_do_not_change(tmp_path, cache_dir):
    """`captions: subtitles` (or nothing) leaves the plan as it was: goldens stay valid."""
    from layerwise_core.plans import build_plan
    plain = build_plan(validate_text(board(tmp_path, None).read_text(), tmp_path / "a.yaml"),
                       cache_dir)
    said = build_plan(validate_text(board(tmp_path, "subtitles").read_text(),
                                    tmp_path / "a.yaml"), cache_dir)
    burned = build_plan(validate_text(board(tmp_path, "burned").read_text(),
                                      tmp_path / "a.yaml"), cache_dir)
    assert "captions" not in plain and "captions" not in said
    assert burned["captions"] == "burned"


def frames(plan, media, until=None) -> list[dict]:
    """Render `plan` at 480p15 in this process; for every frame: its time, the beat, the
    beat's start and cue delays, the burned text and every text on screen."""
    from manim import Text, tempconfig

    from layerwise_pipeline.scene_render import scene_class
    seen = []

    class Recorded(scene_class(plan["template"])):
        def update_to_time(self, t):
            super().update_to_time(t)
            burned = self.burned
            seen.append({"time": self.time, "beat": self.beat_index,
                         "start": self.beat_start, "shift": list(self.cue_shift),
                         "burned": "".join(m.text for m in burned.submobjects)
                         if burned is not None else None,
                         "texts": [m.text for top in self.mobjects for m in top.get_family()
                                   if isinstance(m, Text)]})

    with tempconfig({"quality": "low_quality", "media_dir": str(media), "disable_caching": True,
                     "verbosity": "WARNING", "progress_bar": "none", "output_file": "x"}):
        scene = Recorded(plan, until=until)
        scene.render()
    return seen


@pytest.fixture(scope="module")
def voiced(tmp_path_factory, cache_dir):
    """The board with the piper voice (cues and their times), burned and not."""
    from layerwise_core.plans import build_plan
    from layerwise_core.storyboard.voice import with_voice
    root = tmp_path_factory.mktemp("captions")
    plans = {}
    for captions in ("burned", None):
        folder = root / (captions or "plain")
        folder.mkdir()
        path = board(folder, captions)
        (sb,), _ = with_voice([validate_text(path.read_text(), path)], "piper", cache_dir)
        plans[captions] = build_plan(sb, cache_dir)
    return root, plans


@pytest.mark.render
def test_burned_text_is_the_cue_spoken_at_that_frame(voiced):
    root, plans = voiced
    plan = plans["burned"]
    seen = frames(plan, root / "media-burned")
    shown = {}
    for f in seen:
        beat = plan["beats"][f["beat"]]
        t = f["time"] - f["start"]
        expected = ""
        for i, cue in enumerate(beat["cues"]):
            begin = cue["start"] + f["shift"][i]
            if begin + 1 / FPS <= t <= begin + cue["duration"] - 1 / FPS:
                expected = cue["text"]
            elif begin - 1 / FPS < t < begin + 1 / FPS or \
                    abs(t - begin - cue["duration"]) < 1 / FPS:
                expected = None                 # the frame at a cue's edge: either
        if expected is not None:
            assert f["burned"] == drawn(expected), (f["time"], t, f["burned"], expected)
            shown.setdefault(expected, 0)
            shown[expected] += 1
    cues = [c["text"] for b in plan["beats"] for c in b["cues"]]
    assert set(shown) == set(cues) | {""}       # every cue burned, and gaps without text
    assert all(shown[c] >= FPS // 2 for c in cues)
    # the burned words replace the beat's short caption: never both texts at once
    assert not any(drawn("The toy") in f["texts"] or drawn("One step") in f["texts"]
                   for f in seen)


@pytest.mark.render
def test_without_burned_captions_no_cue_text_is_drawn(voiced):
    root, plans = voiced
    plan = plans[None]
    seen = frames(plan, root / "media-plain", until="code")
    cues = [drawn(c["text"]) for c in plan["beats"][0]["cues"]]
    assert seen and all(f["burned"] is None for f in seen)
    assert not any(c in "".join(f["texts"]) for c in cues for f in seen)
    assert all(drawn("The toy") in f["texts"] for f in seen)   # the short caption instead
