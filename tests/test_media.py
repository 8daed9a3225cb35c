"""One media layout (`layerwise_core.media.Media`): every path under a media folder is named
there, and no other module joins a media folder name onto a path itself."""

from __future__ import annotations

import ast
from pathlib import Path

from layerwise_core.media import MANIM_DIRS, Media

ROOT = Path(__file__).resolve().parents[1]
NAMES = {"plans", "videos", "images", "frames", "review", "slides", "beats", "chapter",
         "sections"}
# scratch folders that are not the media layout (a beat run's own, the slides' assets cache)
NOT_MEDIA = {("layerwise_pipeline/beats.py", "beats"), ("layerwise_pipeline/slides.py", "slides")}


def test_the_layout():
    m = Media("course/media")
    assert m.plan("bank") == Path("course/media/plans/bank.json")
    assert m.video("bank", "480p15") == Path("course/media/videos/480p15/bank.mp4")
    assert m.subtitles("bank", "480p15").name == "bank.srt"
    assert m.manifest("bank", "480p15").name == "bank.manifest.json"
    assert m.section_index("bank", "480p15") == Path("course/media/videos/480p15/sections/bank.json")
    assert m.frames("bank") == Path("course/media/frames/bank")
    assert m.review("bank") == Path("course/media/review/bank.png")
    assert m.slides("bank") == Path("course/media/slides/bank.html")
    assert m.beats("l", "bank") == Path("course/media/beats/l/bank")
    assert m.chapter_part("l", "bank").video("bank", "480p15") == \
        Path("course/media/chapter/l/bank/videos/480p15/bank.mp4")
    assert MANIM_DIRS["video_dir"] == "{media_dir}/videos/{quality}"


def joins_of_media_names(path: Path) -> list[str]:
    """`file:line: name` for every `... / "videos"` (a media folder name joined onto a path)."""
    rel = str(path.relative_to(ROOT))
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and side.value in NAMES and \
                        (rel, side.value) not in NOT_MEDIA:
                    out.append(f"{rel}:{node.lineno}: {side.value}")
    return out


def test_no_module_builds_a_media_path_itself():
    modules = [p for d in ("layerwise_core", "layerwise_pipeline", "layerwise_render", "scenes")
               for p in sorted((ROOT / d).rglob("*.py")) if p.name != "media.py"]
    found = [hit for p in modules for hit in joins_of_media_names(p)]
    assert not found, found
