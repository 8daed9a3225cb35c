"""`make slides`: one storyboard as a manim-slides presentation in one HTML file, one slide per
beat with its narration as speaker notes; written atomically."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import pytest

import framecheck as fc
from layerwise_core import licences as L
from layerwise_core.storyboard.schema import load_storyboard

pytestmark = pytest.mark.render

BOARD = """\
template: toy_loop
title: Slides toy
model: toy-2d
sentences: [bank]
focus: bank
beats:
  - id: code
    show: [code, x]
    layer: 0
    caption: The toy
    narration: "Here is the toy. X starts at one, zero."
    duration: 2
  - id: step
    show: [v, update]
    layer: 0
    caption: One step
    narration: "X moves by 0.1 V: its length changes by < 5 % & its direction a little."
    duration: 2.4
  - id: quiet
    show: []
    caption: A beat without words
    duration: 1
"""


@pytest.fixture(scope="module")
def slides(tmp_path_factory, cache_dir):
    from layerwise_core.plans import build_plan, write_plan
    root = tmp_path_factory.mktemp("slides")
    path = root / "slides_toy.yaml"
    path.write_text(BOARD)
    sb = load_storyboard(path)
    media = root / "media"
    write_plan(build_plan(sb, cache_dir), media / "plans" / "slides_toy.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "slides", "--planned", "--quality", "l",
                        "--media", str(media), str(path)], cwd=fc.ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    out = media / "slides" / "slides_toy.html"
    assert r.stdout.strip() == str(out)
    return sb, out, media


def html_slides(path):
    from bs4 import BeautifulSoup
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    return soup, soup.select("div.reveal > div.slides > section")


def test_one_slide_per_beat_with_its_narration_as_notes(slides):
    sb, out, _ = slides
    _, sections = html_slides(out)
    assert len(sections) == len(sb.beats) == 3
    for section, beat in zip(sections, sb.beats):
        notes = section.select("aside.notes")
        if beat.narration:
            assert [n.get_text() for n in notes] == [beat.narration]
        else:
            assert notes == []


def test_the_html_is_self_contained(slides):
    """Every slide's video is inlined (a real mp4), reveal.js too: nothing is loaded from
    a network or another file when it is opened."""
    _, out, _ = slides
    soup, sections = html_slides(out)
    for section in sections:
        uri = section["data-background-video"]
        assert uri.startswith("data:video/mp4;base64,")
        assert base64.b64decode(uri.split(",", 1)[1][:64])[4:8] == b"ftyp"
    for tag, attr in (("script", "src"), ("link", "href"), ("img", "src"), ("video", "src")):
        assert not [t[attr] for t in soup.find_all(tag) if t.has_attr(attr)], tag
    assert any("reveal.js" in (s.string or "") and "MIT licensed" in (s.string or "")
               for s in soup.find_all("script"))


def test_reveal_js_licence_row_is_what_its_package_declares(slides):
    from layerwise_pipeline.slides import cache_dir, reveal_version
    package = json.loads((cache_dir() / "slides" / "manim-slides" / f"revealjs{reveal_version()}"
                          / "package.json").read_text())
    row = next(r for r in L.SYSTEM if r.name == "reveal.js")
    assert package["name"] == "reveal.js" and package["license"] == row.licence == "MIT"


def test_a_failed_build_keeps_the_previous_file(slides, monkeypatch):
    """A failure after rendering (here: the converter) leaves the previous HTML as it was
    and no temporary file beside it."""
    from layerwise_core.errors import LayerwiseError
    from layerwise_pipeline import scene_render as render, slides as S
    sb, out, media = slides
    before = out.read_bytes()

    def broken(scene, folder, dest, title, assets):
        dest.write_text("<html>half")
        raise render.RenderError("converter died")

    monkeypatch.setattr(S, "convert", broken)
    plan = render.load_plan(sb.path, media)
    plan["beats"] = plan["beats"][:1]               # a short render: one beat
    with pytest.raises((render.RenderError, LayerwiseError), match="converter died"):
        S.build(plan, "l", media)
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == [out.name]


def test_every_partial_movie_is_kept(tmp_path):
    """Slides are cut from the partial movies: manim 0.22 deletes all but the newest
    `max_files_cached` (100) after writing the movie, which lost the first slides of
    toy_loop (more than 100 animations). The slides scene keeps them all, and leaves the
    global setting as it was."""
    from manim import config, tempconfig

    from layerwise_pipeline.scene_render import scene_class
    from layerwise_render.slides import slides_class
    with tempconfig({"media_dir": str(tmp_path), "max_files_cached": 100}):
        scene = slides_class(scene_class("toy_loop"))({"storyboard": {"name": "toy_loop"}},
                                                       output_folder=tmp_path / "slides")
        assert scene.file_writer_settings.max_files_cached == -1
        assert config.max_files_cached == 100
