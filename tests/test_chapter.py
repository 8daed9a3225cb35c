"""The chapter: ordered parts joined with markers and merged subtitles, cached, parallel."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys

import pytest

import framecheck as fc

DATA = fc.ROOT / "tests" / "data"
pytestmark = pytest.mark.render


def decoded_frames_digest(path) -> str:
    import av
    h = hashlib.sha256()
    with av.open(str(path)) as c:
        for frame in c.decode(video=0):
            h.update(frame.to_ndarray(format="rgb24").tobytes())
    return h.hexdigest()


def chapter_cmd(media, *extra) -> list[str]:
    return [sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
            str(DATA / "chapter_small.yaml"), "--media", str(media), *extra]


def run_chapter(media, *extra):
    return subprocess.run(chapter_cmd(media, *extra), cwd=fc.ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    media = tmp_path_factory.mktemp("chapter-media")
    r = run_chapter(media, "--jobs", "2")
    assert r.returncode == 0, r.stderr
    return media, media / "videos" / "480p15"


def test_joined_video_has_parts_markers_and_subtitles(built):
    import av
    import srt
    _, out = built
    record = json.loads((out / "chapter_small.manifest.json").read_text())
    parts = record["parts"]
    durations = []
    for p in parts:
        with av.open(str(out.parents[1] / "chapter" / "l" / p["storyboard"]["name"] / "videos"
                         / "480p15" / p["video"])) as c:
            durations.append(c.streams.video[0].frames / 15)
    with av.open(str(out / "chapter_small.mp4")) as c:
        frames = c.streams.video[0].frames
        marks = [(ch["metadata"]["title"], float(ch["start"] * ch["time_base"]))
                 for ch in c.chapters()]
    assert frames / 15 == pytest.approx(sum(durations), abs=1 / 15)
    assert marks == [("Part A", 0.0), ("Part B", pytest.approx(durations[0], abs=1e-3))]
    cues = list(srt.parse((out / "chapter_small.srt").read_text()))
    assert len(cues) == 4
    assert cues[2].start.total_seconds() == pytest.approx(durations[0], abs=0.01)
    assert "part b" in cues[2].content
    assert [c.index for c in cues] == [1, 2, 3, 4]
    # "may I publish this?" from the chapter's own manifest: the weights and voices of its parts
    lic = record["licences"]
    assert lic["complete"] and [m["model"] for m in lic["models"]] == ["toy-2d"]
    assert [v["name"] for v in lic["voices"]] == ["none"]


def test_second_run_renders_nothing(built):
    media, out = built
    before = (out / "chapter_small.manifest.json").read_text()
    parts_before = [p["render_seconds"] for p in json.loads(before)["parts"]]
    r = run_chapter(media)
    assert r.returncode == 0, r.stderr
    record = json.loads((out / "chapter_small.manifest.json").read_text())
    assert record["rendered"] == {"toy_a": False, "toy_b": False}
    assert [p["render_seconds"] for p in record["parts"]] == parts_before
    assert "rendered 0" in r.stdout


def test_parallel_equals_serial(built, tmp_path):
    _, out = built
    r = run_chapter(tmp_path, "--jobs", "1")
    assert r.returncode == 0, r.stderr
    serial = tmp_path / "videos" / "480p15" / "chapter_small.mp4"
    assert decoded_frames_digest(serial) == decoded_frames_digest(out / "chapter_small.mp4")


@pytest.mark.parametrize("change,message", [
    (("toy_b.yaml", "missing.yaml"), "storyboards[1].file: no storyboard"),
    (("toy_b.yaml", "toy_a.yaml"), "storyboards[1].file: toy_a.yaml is listed twice"),
])
def test_bad_chapter_file_keeps_previous_video(built, tmp_path, change, message):
    media, out = built
    bad_dir = tmp_path / "boards"
    shutil.copytree(DATA, bad_dir)
    text = (bad_dir / "chapter_small.yaml").read_text().replace(*change)
    (bad_dir / "chapter_small.yaml").write_text(text)
    before = (out / "chapter_small.mp4").read_bytes()
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
                        str(bad_dir / "chapter_small.yaml"), "--media", str(media)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {bad_dir / 'chapter_small.yaml'}:")
    assert (out / "chapter_small.mp4").read_bytes() == before
