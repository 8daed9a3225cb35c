"""Vectors on a 2-d plane of real data (the toy's own plane, or a PCA plane fitted once by the
plan): arrows from the origin and tip to tail, a ghost trail of earlier X's, and smooth camera
zooms (never cuts) that bring a scale bar sized for the zoom.

    p = VectorPlane(extent=1.5, step=0.5, size=4.6)
    x = p.arrow(xy, T.X)                     # origin -> xy
    d = p.arrow(xy2, T.V, start=xy)          # tip to tail
    bar = zoom_to(scene, p, center_xy, width_units=0.4)   # camera glides in, bar fades in
    zoom_out(scene, bar)
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Dot, Line, NumberPlane, UpdateFromAlphaFunc,
                   VGroup)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..mobjects.text import txt


class VectorPlane(NumberPlane):
    """A square plane of half-width `extent` data units drawn `size` scene units wide."""

    def __init__(self, extent: float = 1.5, step: float = 0.5, size: float = 4.6,
                 center=(0.0, 0.0)):
        cx, cy = center
        super().__init__(x_range=[cx - extent, cx + extent, step],
                         y_range=[cy - extent, cy + extent, step], x_length=size,
                         y_length=size,
                         background_line_style={"stroke_color": T.FAINT, "stroke_width": 1,
                                                "stroke_opacity": 0.6},
                         axis_config={"stroke_color": T.MUTED})
        self.units = size / (2 * extent)           # scene units per data unit

    def p(self, xy):
        return self.c2p(float(xy[0]), float(xy[1]))

    def arrow(self, xy, color, start=(0.0, 0.0), width: float = 4.0,
              zoom: float = 1.0) -> Arrow:
        """An arrow from `start` to `xy` (data coordinates); tips shrink with short arrows.
        `zoom`: drawn for a camera frame that many times smaller than the home frame, so
        its tip has the on-screen size of an unzoomed arrow's."""
        a, b = self.p(start), self.p(xy)
        length = float(np.linalg.norm(b - a))
        tip = min(0.18 / zoom, 0.35 * length) if length > 0 else 0.01 / zoom
        return Arrow(a, b, buff=0, color=color, stroke_width=width, tip_length=tip,
                     max_tip_length_to_length_ratio=0.5,
                     max_stroke_width_to_length_ratio=5 * zoom)

    def dot(self, xy, color=T.X, radius: float = 0.05) -> Dot:
        return Dot(self.p(xy), radius=radius, color=color)


def zoom_of(scene, width_units: float, plane: VectorPlane) -> float:
    """How many times smaller than the home frame a frame `width_units` data units wide is."""
    return scene.HOME_WIDTH / (width_units * plane.units)


class ScaleBarAt(VGroup):
    """A bar `units` data units long in `plane`, labelled (e.g. "0.05"), drawn for a camera
    frame `zoom` times smaller than the home frame so its label reads at TYPE.small (strokes
    keep their on-screen width under the kit's camera, so they are not rescaled)."""

    def __init__(self, plane: VectorPlane, units: float, label: str, zoom: float = 1.0,
                 color=T.TEXT):
        length = units * plane.units
        bar = Line(LEFT * length / 2, RIGHT * length / 2, color=color, stroke_width=3)
        ends = VGroup(*[Line(UP * 0.06, DOWN * 0.06, color=color, stroke_width=3)
                        .scale(1 / zoom).move_to(bar.get_end() if i else bar.get_start())
                        for i in (0, 1)])
        text = txt(label, T.TYPE.small, color).scale(1 / zoom)
        text.next_to(bar, UP, buff=0.06 / zoom)
        super().__init__(bar, ends, text)


def zoom_to(scene, plane: VectorPlane, center_xy, width_units: float, bar_units: float,
            bar_label: str, run_time: float | None = None, corner=(DOWN + LEFT)):
    """Glide the camera so `width_units` data units of `plane` around `center_xy` fill the
    frame's width; a scale bar (`bar_units` long, labelled `bar_label`) fades in near the
    frame's lower-left corner. Returns the bar (pass it to `zoom_out`)."""
    frame = scene.camera.frame
    new_w = width_units * plane.units
    zoom = zoom_of(scene, width_units, plane)
    t = run_time or scene.quick(0.25, 1.5)
    center = plane.p(center_xy)
    scene.play(glide(frame, new_w, center), run_time=t)
    bar = ScaleBarAt(plane, bar_units, bar_label, zoom)
    h = float(frame.height)
    bar.move_to(center + corner * np.array([0.36 * new_w, 0.30 * h, 0]))
    scene.play(FadeInPlace(bar), run_time=0.3 * t)
    return bar


def geometric_view(w0: float, w1: float, c0, c1, a: float) -> tuple[float, np.ndarray]:
    """The view (width, centre) a share `a` of the way through one steady zoom from (w0, c0)
    to (w1, c1): the width changes geometrically (each moment zooms by the same factor, so a
    40x zoom does not spend most of its time barely moving) and the centre moves with the
    zoom, so the point that stays put on screen is the zoom's fixed point."""
    c0, c1 = np.asarray(c0, dtype=float), np.asarray(c1, dtype=float)
    w = w0 * (w1 / w0) ** a
    share = (w - w0) / (w1 - w0) if abs(w1 - w0) > 1e-9 else a
    return w, c0 + (c1 - c0) * share


def glide(frame, width: float, center):
    """Move the camera frame to `width` and `center` as one steady zoom (`geometric_view`)."""
    w0, c0 = float(frame.width), np.array(frame.get_center(), dtype=float)

    def update(m, alpha):
        w, c = geometric_view(w0, width, c0, center, alpha)
        m.scale_to_fit_width(w).move_to(c)

    return UpdateFromAlphaFunc(frame, update)


def zoom_out(scene, bar=None, run_time: float | None = None) -> None:
    """Glide the camera back to the home frame, fading the zoom's scale bar out."""
    frame = scene.camera.frame
    t = run_time or scene.quick(0.25, 1.5)
    anims = [glide(frame, scene.HOME_WIDTH, np.zeros(3))]
    if bar is not None:
        anims.append(FadeOutPlace(bar))
    scene.play(*anims, run_time=t)


def broken_axis(start, end, gap_at: float = 0.5, color=T.MUTED) -> VGroup:
    """An axis line from `start` to `end` with a break (two short slashes) at `gap_at` of its
    length: draw it whenever a scale jumps (e.g. a bar that would run off the chart)."""
    start, end = np.array(start, dtype=float), np.array(end, dtype=float)
    d = end - start
    u = d / (np.linalg.norm(d) or 1.0)
    mid = start + gap_at * d
    g = 0.08
    normal = np.array([-u[1], u[0], 0.0])
    parts = VGroup(Line(start, mid - g * u, color=color), Line(mid + g * u, end, color=color))
    for s in (-1, 1):
        c = mid + s * g * u
        parts.add(Line(c - 0.1 * normal - 0.05 * u, c + 0.1 * normal + 0.05 * u, color=color))
    return parts


__all__ = ["VectorPlane", "ScaleBarAt", "zoom_to", "zoom_of", "zoom_out", "glide",
           "geometric_view", "broken_axis"]
