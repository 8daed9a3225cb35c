"""The camera every layerwise scene draws with."""

from __future__ import annotations

from manim import MovingCamera, config

from .drawing import CachedDrawing
from .manim_patches import blank_canvas


class KitCamera(CachedDrawing, MovingCamera):
    """A moving camera whose strokes keep their on-screen width when it zooms (manim's Cairo
    camera scales line widths with the frame): a zoom shows more detail, not fatter lines.
    It draws what did not change since the last frame from a copy (`drawing.CachedDrawing`)."""

    @property
    def cairo_line_width_multiple(self) -> float:
        return 0.01 * float(self.frame.width) / config.frame_width

    @cairo_line_width_multiple.setter
    def cairo_line_width_multiple(self, value) -> None:
        pass

    def display_image_mobject(self, image_mobject, pixel_array) -> None:
        """An ImageMobject drawn on a canvas Pillow accepts (`manim_patches.blank_canvas`)."""
        with blank_canvas():
            super().display_image_mobject(image_mobject, pixel_array)
