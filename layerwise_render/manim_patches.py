"""Every place layerwise reaches into Manim (0.22.0) or manim-slides (5.7.0) beyond their
public API, in one module. Each patch says what it changes and why; `check_versions()` refuses
any other version once, before the first render in a process, since a patch may silently stop
matching the code it patches.

1. `SceneFileWriter._create_segment_encoder` -> `encoder.SegmentEncoder` (`use_segment_encoder`):
   the same packets with fewer colour conversions (encoder.py).
2. `manim.camera.camera.Image` swapped for the length of one `display_image_mobject` call
   (`blank_canvas`): Manim 0.22 starts an ImageMobject's canvas as `Image.fromarray(2-D
   float64 zeros, mode="RGBA")`, which Pillow >= 13 refuses.
3. `renderer.get_frame` set to the camera's `take_frame` (`frames_without_copies`): each frame
   goes to the encoder as drawn, not as a copy (drawing.py).
4. `renderer._original_skipping_status` set with `skip_animations` (`skip_animations`): Manim's
   own flag for -n / section skipping, so a beat-parallel run builds but does not draw the
   beats before its first.
5. `config["max_files_cached"]` held at -1 while manim-slides' `BaseSlide.__init__` runs
   (`keeping_partial_movies`): Manim 0.22 reads it when the scene is made and later prunes
   partial movies beyond it; the slides are cut from them.
"""

from __future__ import annotations

import contextlib

import numpy as np
from PIL import Image as _PIL_IMAGE

PINNED = {"manim": "0.22.0", "manim_slides": "5.7.0"}
_checked: set[str] = set()


class PatchedVersionError(RuntimeError):
    pass


def check_versions(*packages: str) -> None:
    """Refuse a Manim (or manim-slides) other than the one these patches were written for."""
    from importlib.metadata import version
    for package in packages or ("manim",):
        if package in _checked:
            continue
        found = version(package.replace("_", "-"))
        if found != PINNED[package]:
            raise PatchedVersionError(
                f"{package} {found} is installed; layerwise_render/manim_patches.py patches "
                f"{package} {PINNED[package]} (pyproject pins it): reinstall with make setup")
        _checked.add(package)


def use_segment_encoder() -> None:
    """Patch 1: every Manim render in this process encodes with `SegmentEncoder` (idempotent)."""
    from manim.scene.scene_file_writer import SceneFileWriter

    from .encoder import SegmentEncoder

    def _create_segment_encoder(self, target):
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return SegmentEncoder(target=target, spec=self.video_encoder)

    check_versions("manim")
    SceneFileWriter._create_segment_encoder = _create_segment_encoder


class _BlankCanvasImage:
    """PIL.Image, except that `fromarray(2-D zeros, mode="RGBA")` is a transparent image."""

    def __getattr__(self, name):
        return getattr(_PIL_IMAGE, name)

    @staticmethod
    def fromarray(obj, mode=None):
        a = np.asarray(obj)
        if mode == "RGBA" and a.ndim == 2 and not a.any():
            return _PIL_IMAGE.new("RGBA", (a.shape[1], a.shape[0]), (0, 0, 0, 0))
        return _PIL_IMAGE.fromarray(obj) if mode is None else _PIL_IMAGE.fromarray(obj, mode)


_BLANK_CANVAS_IMAGE = _BlankCanvasImage()


@contextlib.contextmanager
def blank_canvas():
    """Patch 2: the same canvas (all zero bytes, i.e. transparent), made the way Pillow
    accepts, for the length of the block."""
    import manim.camera.camera as cam
    cam.Image = _BLANK_CANVAS_IMAGE
    try:
        yield
    finally:
        cam.Image = _PIL_IMAGE


def frames_without_copies(renderer, camera) -> None:
    """Patch 3: the renderer hands out the camera's frame as drawn (`drawing.take_frame`)."""
    renderer.get_frame = camera.take_frame


def skip_animations(renderer, on: bool) -> None:
    """Patch 4: skip (or stop skipping) animations, as Manim's -n / section skipping does."""
    renderer._original_skipping_status = on
    renderer.skip_animations = on


@contextlib.contextmanager
def keeping_partial_movies():
    """Patch 5: no partial movie is pruned by a scene made inside the block."""
    from manim import config
    kept = config["max_files_cached"]
    config["max_files_cached"] = -1             # unlimited
    try:
        yield
    finally:
        config["max_files_cached"] = kept
