"""Tip-to-tail addition on a 2-d plane of real data, with its own camera: the panel's view (a
centre and a width in data units) glides smoothly when the scale must change, while the rest of
the scene stays put (the scene camera would zoom every panel at once).

    plane = TipToTail(width=4.2, height=3.36, view=plan_view)       # a framed panel
    x = plane.arrow((0, 0), xy0, T.X)                               # X: an arrow from the origin
    scene.play(PlaneStep(plane, grow=[plane.arrow(xy0, xy1, T.ATTN)], view=next_view))
    plane.ghost(x)                                                  # an earlier X stays, faint

Every drawn piece remembers its data coordinates; `PlaneStep` interpolates the view (width on a
log scale, so a 100x zoom-out is as smooth as a 2x one), grows the new arrows tip to tail and
redraws everything for the view of each frame. Nothing is ever outside the frame: the plan's views
frame every point drawn so far. The scale bar (a `Num` bound to its plan path) is swapped when a
move ends.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Animation, Line, Rectangle, VGroup, VMobject)

from .. import theme as T
from .plane import geometric_view

TIP = 0.16                  # tip length on screen (scene units), shrinks for short arrows


class FlatArrow(VGroup):
    """A straight arrow (a line and a filled tip) whose ends can be reset cheaply."""

    def __init__(self, color, width: float = 4.0, opacity: float = 1.0):
        self.line = VMobject(stroke_color=color, stroke_width=width, stroke_opacity=opacity)
        self.tip = VMobject(stroke_width=0, fill_color=color, fill_opacity=opacity)
        super().__init__(self.line, self.tip)

    def set_ends(self, a, b) -> "FlatArrow":
        a, b = np.asarray(a, float), np.asarray(b, float)
        d = b - a
        n = float(np.linalg.norm(d[:2]))
        if n < 1e-9:
            self.line.set_points_as_corners([a, a + 1e-6 * RIGHT])
            self.tip.set_points_as_corners([b, b, b, b])
            return self
        u = d / n
        tip = min(TIP, 0.4 * n)
        perp = np.array([-u[1], u[0], 0.0])
        base = b - tip * u
        self.line.set_points_as_corners([a, base + 0.2 * tip * u])
        self.tip.set_points_as_corners([b, base + 0.45 * tip * perp, base - 0.45 * tip * perp, b])
        return self


class TipToTail(VGroup):
    """A framed panel showing data coordinates through a movable view."""

    def __init__(self, width: float, height: float, view: dict):
        self.w, self.h = width, height
        self.frame = Rectangle(width=width, height=height, stroke_color=T.FAINT, stroke_width=1.5)
        self.axes = VGroup(Line(LEFT, RIGHT, stroke_color=T.FAINT, stroke_width=1),
                           Line(DOWN, UP, stroke_color=T.FAINT, stroke_width=1))
        super().__init__(self.frame, self.axes)
        self.view = {"center": list(view["center"]), "width": float(view["width"])}
        self.items: list[tuple[FlatArrow, tuple, tuple]] = []      # arrow, start, end (data)
        self.redraw()

    def to_screen(self, xy, view: dict | None = None, center=None) -> np.ndarray:
        """`xy` (data) on screen; `center`: the frame's centre when the caller has it (the
        same array `self.frame.get_center()` gives while the frame stays put)."""
        v = view or self.view
        k = self.w / v["width"]
        c = self.frame.get_center() if center is None else center
        return c + RIGHT * (xy[0] - v["center"][0]) * k + UP * (xy[1] - v["center"][1]) * k

    def arrow(self, start, end, color, width: float = 4.0, opacity: float = 1.0) -> FlatArrow:
        a = FlatArrow(color, width, opacity)
        self.items.append((a, tuple(start), tuple(end)))
        a.set_ends(self.to_screen(start), self.to_screen(end))
        self.add(a)                      # drawn with the panel; later arrows on top
        return a

    def forget(self, arrow: FlatArrow) -> None:
        self.items = [it for it in self.items if it[0] is not arrow]

    def redraw(self, grow: dict | None = None) -> None:
        """Place every piece for the current view; arrows in `grow` drawn to that share."""
        grow = grow or {}
        c = self.frame.get_center()          # the frame does not move while arrows are placed
        for a, s, e in self.items:
            p, q = self.to_screen(s, center=c), self.to_screen(e, center=c)
            a.set_ends(p, p + grow.get(id(a), 1.0) * (q - p))
        o = self.to_screen((0.0, 0.0), center=c)
        fl, fr = self.frame.get_left()[0], self.frame.get_right()[0]
        fb, ft = self.frame.get_bottom()[1], self.frame.get_top()[1]
        x = min(max(o[0], fl), fr)
        y = min(max(o[1], fb), ft)
        self.axes[0].put_start_and_end_on(np.array([fl, y, 0]), np.array([fr, y, 0]))
        self.axes[1].put_start_and_end_on(np.array([x, fb, 0]), np.array([x, ft, 0]))
        op = 1.0 if (fl <= o[0] <= fr and fb <= o[1] <= ft) else 0.0
        self.axes.set_stroke(opacity=op)


class PlaneStep(Animation):
    """Glide `plane`'s view to `view` (log-interpolated width) while arrows in `grow` grow from
    their tails; everything is redrawn for each frame's view. `turns` (one int per arrow in
    `grow`): arrows grow one turn after another, each turn an equal share of the run time
    (several steps tip to tail in one play); None: all grow together."""

    def __init__(self, plane: TipToTail, grow=(), view: dict | None = None,
                 turns=None, **kwargs):
        self.plane, self.grow = plane, list(grow)
        self.turns = list(turns) if turns is not None else None
        self.v0 = {"center": list(plane.view["center"]), "width": plane.view["width"]}
        self.v1 = ({"center": list(view["center"]), "width": float(view["width"])}
                   if view else self.v0)
        super().__init__(plane, **kwargs)

    def create_starting_mobject(self):
        return self.mobject

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        w, c = geometric_view(self.v0["width"], self.v1["width"], self.v0["center"],
                              self.v1["center"], a)
        self.plane.view = {"center": c.tolist(), "width": w}
        if self.turns is None:
            self.plane.redraw({id(g): a for g in self.grow})
            return
        n = max(self.turns, default=0) + 1
        self.plane.redraw({id(g): min(1.0, max(0.0, a * n - t))
                           for g, t in zip(self.grow, self.turns)})


__all__ = ["FlatArrow", "TipToTail", "PlaneStep"]
