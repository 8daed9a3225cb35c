"""A template's scene as a manim-slides presentation: one slide per beat, its narration as the
slide's speaker notes.

The scene is the video's own (same plan, same handlers, same timing); only the beat boundary
differs: where the video opens a Manim section, the presentation opens a slide
(`Slide.next_slide`, which opens the section too). manim-slides (MIT) writes each slide's
animations as one video plus a JSON description; `layerwise_pipeline.slides` converts them.
The scene class is any `scenes.base.StoryboardScene` subclass (this package does not import it).
"""

from __future__ import annotations

from html import escape

from manim import Scene
from manim_slides import Slide
from manim_slides.slide.base import BaseSlide

from .manim_patches import check_versions, keeping_partial_movies


class Manim022Slide(Slide):
    """manim-slides 5.7's `Slide` on manim 0.22: its `__init__` sets `config["write_to_movie"]`
    and its `render` reads `config["flush_cache"]`, options manim 0.22 no longer has (it
    always writes the movie; there is no cache to flush with `disable_caching`). These two do
    the rest of what Slide's do: count animations (BaseSlide), keep every partial movie,
    render the scene and save the slides."""

    def __init__(self, *args, **kwargs):
        check_versions("manim", "manim_slides")
        with keeping_partial_movies():      # the slides are cut from the partial movies
            BaseSlide.__init__(self, *args, **kwargs)

    def render(self, *args, **kwargs) -> None:
        Scene.render(self, *args, **kwargs)
        self._save_slides(use_cache=False, flush_cache=False, skip_reversing=True)


class BeatSlides:
    """Mixed in before a template's scene class, with manim-slides' Slide after it."""

    skip_reversing = True       # a talk steps forward: no reversed videos (they double the work)

    def open_section(self, beat: dict) -> None:
        # notes land in the reveal.js page as HTML: escape "<" and "&" of the narration
        self.next_slide(beat["id"], notes=escape(beat.get("narration") or "", quote=False))


def slides_class(scene: type) -> type:
    """`scene` (a template's StoryboardScene subclass) as a presentation scene; its class
    name (`<Scene>Slides`) names the slides' JSON file."""
    return type(f"{scene.__name__}Slides", (BeatSlides, scene, Manim022Slide), {})
