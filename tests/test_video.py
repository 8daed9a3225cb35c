"""End to end: one storyboard rendered to mp4 at low quality, checked with PyAV."""

from __future__ import annotations

import json
from fractions import Fraction
import subprocess
import sys

import pytest

import framecheck as fc
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_templates import storyboard_path

NAME = "toy_loop"
pytestmark = pytest.mark.render


@pytest.fixture(scope="module")
def video(cache_dir, tmp_path_factory):
    from layerwise_core.plans import build_plan, write_plan
    media = tmp_path_factory.mktemp("video-media")
    sb = load_storyboard(storyboard_path(NAME))
    write_plan(build_plan(sb, cache_dir), media / "plans" / f"{NAME}.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", "l", "--media",
                        str(media), str(sb.path)], cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    folder = media / "videos" / "480p15"
    return sb, folder


def srt_cues(path):
    import srt
    return list(srt.parse(path.read_text(encoding="utf-8")))


def test_video_stream(video):
    import av
    sb, folder = video
    with av.open(str(folder / f"{NAME}.mp4")) as f:
        s = f.streams.video[0]
        assert s.codec_context.name == "h264"
        assert (s.codec_context.width, s.codec_context.height) == (854, 480)
        # Manim's PyAV muxer times the last frame, so the mp4's average rate is 15 +- a hair
        assert float(s.average_rate) == pytest.approx(15, abs=0.01)
        assert s.guessed_rate == 15 or s.base_rate == 15
        frames = sum(1 for _ in f.decode(video=0))
    planned = sum(b.duration for b in sb.beats)
    sections = json.loads((folder / "sections" / f"{NAME}.json").read_text())
    section_frames = 0
    for sec in sections:
        with av.open(str(folder / "sections" / sec["video"])) as g:
            section_frames += sum(1 for _ in g.decode(video=0))
    assert frames == section_frames
    # every beat lasts at least its planned duration, and the whole is not much longer
    assert planned * 15 - 1e-6 <= frames <= (planned + 0.2 * len(sb.beats)) * 15 + 1   # float sums


def test_sections_are_the_beats(video):
    sb, folder = video
    sections = json.loads((folder / "sections" / f"{NAME}.json").read_text())
    assert [s["name"] for s in sections] == [b.id for b in sb.beats]
    for s, b in zip(sections, sb.beats):
        assert float(s["duration"]) >= b.duration - 1 / 15
        assert s["codec_name"] == "h264"
        assert float(Fraction(s["avg_frame_rate"])) == pytest.approx(15, abs=0.01)


def test_a_chapter_marker_per_beat_at_its_section(video):
    """A player's chapter list walks the video beat by beat: each marker titled by the beat's
    caption (its id without one), starting where the beat's section starts."""
    import av
    sb, folder = video
    plan = json.loads((folder.parent.parent / "plans" / f"{NAME}.json").read_text())
    sections = json.loads((folder / "sections" / f"{NAME}.json").read_text())
    with av.open(str(folder / f"{NAME}.mp4")) as f:
        marks = [(c["metadata"]["title"], float(c["start"] * c["time_base"]))
                 for c in f.chapters()]
        assert f.streams.video and f.streams.audio is not None
    starts = [sum(float(s["duration"]) for s in sections[:i]) for i in range(len(sections))]
    assert [t for t, _ in marks] == [b.get("caption") or b["id"] for b in plan["beats"]]
    assert [s for _, s in marks] == pytest.approx(starts, abs=1e-3)


def test_subtitles_one_cue_per_narrated_beat(video):
    sb, folder = video
    cues = srt_cues(folder / f"{NAME}.srt")
    plan = json.loads((folder.parent.parent / "plans" / f"{NAME}.json").read_text())
    narrated = [b for b in plan["beats"] if b["narration"]]     # placeholders filled
    assert [c.content.replace("\n", " ") for c in cues] == [b["narration"] for b in narrated]
    assert len(narrated) == len([b for b in sb.beats if b.narration])
    sections = json.loads((folder / "sections" / f"{NAME}.json").read_text())
    start = 0.0
    for cue, sec in zip(cues, sections):
        end = start + float(sec["duration"])
        assert cue.start.total_seconds() == pytest.approx(start, abs=0.07)
        assert cue.end.total_seconds() == pytest.approx(end, abs=0.07)
        start = end
