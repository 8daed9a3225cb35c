"""Beats in parallel: each beat rendered in its own process from the state at its start,
joined by stream copy, equals a whole (serial) render frame for frame; the beat cache
re-renders only the beat whose caption changed."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

import framecheck as fc
from conftest import STORYBOARDS

pytestmark = pytest.mark.render


def frame_digests(path) -> list[str]:
    import av
    with av.open(str(path)) as c:
        return [hashlib.sha256(f.to_ndarray(format="rgb24").tobytes()).hexdigest()
                for f in c.decode(video=0)]


def plan_into(media, storyboard, cache_dir):
    from layerwise_core.plans import build_plan, write_plan
    from layerwise_core.storyboard.schema import load_storyboard
    sb = load_storyboard(storyboard)
    write_plan(build_plan(sb, cache_dir), media / "plans" / f"{storyboard.stem}.json")


def render(media, storyboard, *extra):
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", "l",
                        "--media", str(media), *extra, str(storyboard)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return media / "videos" / "480p15"


def the_set(folder, name):
    """What a whole render and a beat-parallel one must agree on: sections, subtitles and
    the chapter markers (one a beat)."""
    import av
    import srt
    index = json.loads((folder / "sections" / f"{name}.json").read_text())
    cues = [(round(c.start.total_seconds(), 3), round(c.end.total_seconds(), 3), c.content)
            for c in srt.parse((folder / f"{name}.srt").read_text(encoding="utf-8"))]
    with av.open(str(folder / f"{name}.mp4")) as c:
        marks = [(m["metadata"]["title"], round(float(m["start"] * m["time_base"]), 2))
                 for m in c.chapters()]
    assert len(marks) == len(index)
    return index, cues, marks


@pytest.mark.parametrize("storyboard", STORYBOARDS, ids=lambda p: p.stem)
def test_beat_parallel_equals_serial(storyboard, cache_dir, tmp_path):
    """Identical decoded frames (no tolerance: each beat is encoded on its own in both, as
    Manim encodes every play on its own), the same sections and the same subtitles."""
    name = storyboard.stem
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    for m in (serial, parallel):
        plan_into(m, storyboard, cache_dir)
    a = render(serial, storyboard)
    b = render(parallel, storyboard, "--jobs", "2")
    assert frame_digests(a / f"{name}.mp4") == frame_digests(b / f"{name}.mp4")
    assert the_set(a, name) == the_set(b, name)
    for sec in json.loads((a / "sections" / f"{name}.json").read_text()):
        assert frame_digests(a / "sections" / sec["video"]) == \
            frame_digests(b / "sections" / sec["video"])
    record = json.loads((b / f"{name}.manifest.json").read_text())
    assert [x["id"] for x in record["beats"]] == [
        x["id"] for x in json.loads((serial / "plans" / f"{name}.json").read_text())["beats"]]
    assert not any(x["cached"] for x in record["beats"])


def test_changed_caption_renders_that_beat_only(cache_dir, tmp_path):
    storyboard = fc.ROOT / "layerwise_templates" / "per_head" / "per_head.yaml"
    name = storyboard.stem
    media = tmp_path / "media"
    plan_into(media, storyboard, cache_dir)
    out = render(media, storyboard, "--jobs", "2")
    before = json.loads((out / f"{name}.manifest.json").read_text())["beats"]
    again = render(media, storyboard, "--jobs", "2")            # nothing changed
    assert all(b["cached"] for b in json.loads((again / f"{name}.manifest.json").read_text())
               ["beats"])

    changed = tmp_path / "changed.yaml"
    text = storyboard.read_text()
    caption = [line for line in text.splitlines() if "caption:" in line][1]   # a middle beat
    beats_before = text[:text.index(caption)].count("- id:")
    changed.write_text(text.replace(caption, caption.split("caption:")[0]
                                    + 'caption: "A caption changed for this test"', 1))
    plan_into(media, changed, cache_dir)
    plan = json.loads((media / "plans" / "changed.json").read_text())
    plan["storyboard"]["name"] = name            # the same storyboard, one caption edited
    plan["storyboard"]["sha256"] = hashlib.sha256(storyboard.read_bytes()).hexdigest()
    (media / "plans" / f"{name}.json").write_text(json.dumps(plan))
    edited = beats_before - 1
    out = render(media, storyboard, "--jobs", "2")
    after = json.loads((out / f"{name}.manifest.json").read_text())["beats"]
    assert [b["cached"] for b in after] == [i != edited for i in range(len(after))]
    assert [b["key"] for i, b in enumerate(after) if i != edited] == \
        [b["key"] for i, b in enumerate(before) if i != edited]

    serial = tmp_path / "serial"
    (serial / "plans").mkdir(parents=True)
    (serial / "plans" / f"{name}.json").write_text(json.dumps(plan))
    whole = render(serial, storyboard)
    assert frame_digests(whole / f"{name}.mp4") == frame_digests(out / f"{name}.mp4")
    assert the_set(whole, name) == the_set(out, name)


def test_split_runs_balances_consecutive_beats():
    from layerwise_pipeline.beats import split_runs
    d = [10.0] * 8
    assert split_runs(list(range(8)), d, 1, 0.5) == [list(range(8))]
    runs = split_runs(list(range(8)), d, 2, 0.0)          # skipping free: halves
    assert runs == [[0, 1, 2, 3], [4, 5, 6, 7]]
    runs = split_runs(list(range(8)), d, 2, 0.6)          # skipping costs: the later run is shorter
    assert [i for r in runs for i in r] == list(range(8)) and len(runs) == 2
    assert len(runs[1]) < len(runs[0])
    # beats the cache holds split the rest: never a run across a gap
    assert split_runs([0, 1, 5, 6], d, 1, 0.5) == [[0, 1], [5, 6]]
    assert split_runs([3], d, 4, 0.5) == [[3]]


def test_a_beats_key_follows_the_encoder_settings(monkeypatch):
    """A beat encoded with other x264 settings is not taken from the cache: joined by stream
    copy with beats of other settings, it would make one video of two encodings."""
    from layerwise_pipeline import beats
    plan = {"storyboard": {"name": "x"}, "template": "t", "data": {},
            "beats": [{"id": "a", "duration": 1.0}]}
    key = beats.beat_key(plan, "l", 0)
    assert beats.beat_key(plan, "l", 0) == key
    monkeypatch.setattr(beats, "X264", {"crf": "23", "preset": "medium"})
    assert beats.beat_key(plan, "l", 0) != key


def test_a_beat_is_the_same_whichever_run_draws_it(cache_dir, tmp_path):
    """Beat 1 of toy_a drawn as the second beat of a run and drawn alone: the same frames,
    the same sound (its own, timed from its start), the same subtitles, the same key."""
    import av
    import numpy as np
    from test_narration import tone

    from layerwise_pipeline.beats import pack, render_run
    media = tmp_path / "media"
    plan_into(media, fc.ROOT / "tests" / "data" / "toy_a.yaml", cache_dir)
    plan = json.loads((media / "plans" / "toy_a.json").read_text())
    for i, beat in enumerate(plan["beats"][:2]):
        tone(tmp_path / f"{i}.wav", 0.8 + 0.3 * i)
        beat["audio"] = str(tmp_path / f"{i}.wav")
    # beat 1 speaks by cues, as a voiced plan does, its first at the beat's start
    plan["beats"][1]["cues"] = [{"start": 0.0, "duration": 1.1, "text": "the first cue",
                                 "audio": plan["beats"][1].pop("audio")}]
    both = render_run(pack(plan, "l", [0, 1]))
    alone = render_run(pack(plan, "l", [1]))
    assert [r["index"] for r in both] == [0, 1] and alone[0]["index"] == 1
    a, b = both[1], alone[0]
    assert a["key"] == b["key"] and a["srt"] == b["srt"] and a["srt"].strip()
    assert a["frames"] == b["frames"] > 0

    def decoded(data: bytes):
        path = tmp_path / f"{hashlib.sha256(data).hexdigest()}.mp4"
        path.write_bytes(data)
        with av.open(str(path)) as c:
            audio = np.concatenate([f.to_ndarray().ravel() for f in c.decode(audio=0)])
        return frame_digests(path), audio
    (fa, sa), (fb, sb) = decoded(a["mp4"]), decoded(b["mp4"])
    assert fa == fb
    assert len(sa) == len(sb) and np.allclose(sa, sb, atol=1e-6)
    head = sb[: len(sb) // 10]                     # its tone starts at the beat's start
    assert np.abs(head).max() > 0.05


def test_a_cue_at_a_beats_start_is_at_zero_in_the_beats_own_video(monkeypatch):
    """In a run, a beat's sound is timed from the beat's start (`origin`). A cue at that start
    came out at -3.6e-15 s (start + 0 - now, then - origin + now, in floats), which Manim
    refuses ("Adding sound at timestamp < 0"): logit_lens's second beat failed every voiced
    render in runs. These are the times of that failure."""
    from types import SimpleNamespace

    from manim.scene.scene import Scene

    from scenes.base import StoryboardScene
    got = []
    monkeypatch.setattr(Scene, "add_sound", lambda self, f, time_offset=0, gain=None, **kw:
                        got.append(self.time + time_offset))
    scene = object.__new__(StoryboardScene)
    scene._skipping, scene.origin = False, 13.666666666666648
    scene.renderer = SimpleNamespace(time=31.733333333333274)
    start = scene.origin
    scene.add_sound("cue.wav", time_offset=start + 0.0 - scene.time)
    scene.add_sound("cue.wav", time_offset=start + 4.619 - scene.time)
    assert got[0] == 0.0 and abs(got[1] - 4.619) < 1e-9
