"""The chapter's toy loop, faithfully: the code, and on a plane the 2-d X, Q, K, V of each pass.

Beats (each optional, in storyboard order): `code` (the loop on screen), `x` (the current X),
`q`/`k`/`v` (this layer's fresh projections, with its W), `update` (X moves by 0.1 V),
`note` (Q and K go unused: the toy omits attention).
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Dot, FadeIn, GrowArrow, NumberPlane,
                   SurroundingRectangle, Transform, VGroup)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..base import StoryboardScene
from ..mobjects import NumberGrid, code_block, math, txt, wrapped

PLANE_SIZE = 4.6
ZOOM_SIZE = 2.6
CODE_SIZE = 15


def plane(x_range, y_range, step: float, size: float) -> NumberPlane:
    return NumberPlane(x_range=[*x_range, step], y_range=[*y_range, step], x_length=size,
                       y_length=size, background_line_style={"stroke_color": T.FAINT,
                                                            "stroke_width": 1,
                                                            "stroke_opacity": 0.6},
                       axis_config={"stroke_color": T.MUTED})


class ToyLoopScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.layers = d["layers"]
        self.code_lines = code_block(d["code"])
        self.code = self.code_lines.next_to(self.title, DOWN, buff=T.GAP)
        self.code.to_edge(LEFT, buff=T.EDGE + 0.3)
        self.cursor = None

        e = d["extent"]
        self.plane = plane((-e, e), (-e, e), 0.5, PLANE_SIZE)
        z = d["zoom"]
        (cx, cy), h = z["center"], z["half"]
        self.zoom = plane((cx - h, cx + h), (cy - h, cy + h), h / 4, ZOOM_SIZE)
        zoom_title = txt("close-up of X", T.SMALL_SIZE, T.MUTED).next_to(self.zoom, UP, T.TIGHT)
        unit = txt("grid: 0.5", T.TINY_SIZE, T.MUTED).next_to(self.plane, UP, T.TIGHT)
        unit.align_to(self.plane, RIGHT)
        views = VGroup(self.plane, self.zoom).arrange(RIGHT, buff=T.GAP, aligned_edge=UP)
        views.next_to(self.title, DOWN, buff=T.GAP).to_edge(RIGHT, buff=T.EDGE)
        zoom_title.next_to(self.zoom, UP, T.TIGHT)
        unit.next_to(self.plane, UP, T.TIGHT).align_to(self.plane, RIGHT)
        self.add(views, zoom_title, unit)
        self.panel = VGroup()                 # the numbers of the current layer
        self.arrows: dict[str, VGroup] = {}
        self.trail = VGroup()
        self.zoom_trail = VGroup()
        self.computed: list[str] = []         # which of this layer's Q, K, V are shown
        self.layer_tag = None
        self.x_arrow = None

    # --- helpers ------------------------------------------------------------------------
    def point(self, xy):
        return self.plane.c2p(xy[0], xy[1])

    def vector_arrow(self, xy, color, label: str, faded: bool = False) -> VGroup:
        """An arrow from the origin to `xy` with its Typst label; `faded` for unused Q, K."""
        arrow = Arrow(self.plane.c2p(0, 0), self.point(xy), buff=0, color=color,
                      stroke_width=4, max_tip_length_to_length_ratio=0.15, tip_length=0.18)
        if faded:
            arrow.set_opacity(0.55)
        tag = math(label, T.MATH_SIZE - 6, color).next_to(arrow.get_end(), UP + RIGHT,
                                                          buff=T.TIGHT)
        return VGroup(arrow, tag)

    def zoom_dot(self, xy, l: int) -> VGroup:
        """X^(l) as a dot in the close-up, labelled on alternating sides so labels don't collide."""
        dot = Dot(self.zoom.c2p(*xy), radius=0.06, color=T.X)
        side = UP if l % 2 == 0 else DOWN
        return VGroup(dot, math(f"X^(({l}))", T.MATH_SIZE - 12, T.X).next_to(dot, side, 0.05))

    def point_at_line(self, numbers: list[int]) -> None:
        rows = VGroup(*[self.code_lines[n - 1] for n in numbers])
        box = SurroundingRectangle(rows, color=T.HIGHLIGHT, buff=0.06, stroke_width=2,
                                   corner_radius=0.04)
        self.cursor = self.swap(self.cursor, box)

    def layer(self) -> dict:
        return self.layers[self.beat["layer"] if self.beat["layer"] is not None else 0]

    def show_layer_tag(self) -> None:
        l = self.layer()["layer"]
        tag = txt(f"layer {l}  (pass {l + 1} of {len(self.layers)})", T.SMALL_SIZE, T.HIGHLIGHT)
        tag.next_to(self.plane, UP, buff=T.TIGHT).align_to(self.plane, LEFT)
        if self.layer_tag is None or self.layer_tag.text != tag.text:
            self.layer_tag = self.swap(self.layer_tag, tag)

    def set_panel(self, rows: list[VGroup]) -> None:
        panel = VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
        panel.next_to(self.code, DOWN, buff=T.GAP).align_to(self.code, LEFT)
        self.panel = self.swap(self.panel, panel)

    def row(self, label: str, values, source: str, color) -> VGroup:
        grid = NumberGrid(values if isinstance(values[0], list) else [values], source, color)
        return VGroup(math(label, T.MATH_SIZE - 4, color), grid).arrange(RIGHT, buff=T.BUFF)

    # --- beats --------------------------------------------------------------------------
    def beat_code(self, beat) -> None:
        self.play(FadeIn(self.code, shift=0.2 * RIGHT), run_time=self.quick(0.25, 1.0))
        self.point_at_line([self.data["lines"]["x0"]])

    def beat_x(self, beat) -> None:
        lay = self.layer()
        l = lay["layer"]
        self.show_layer_tag()
        arrow = self.vector_arrow(lay["x_in"], T.X, f"X^(({l}))")
        src = f"data.layers[{l}].x_in"
        self.set_panel([self.row(f"X^(({l})) =", lay["x_in"], src, T.X)])
        self.computed = []
        if self.x_arrow is None:
            self.zoom_trail.add(self.zoom_dot(lay["x_in"], l))
            self.play(GrowArrow(arrow[0]), FadeInPlace(arrow[1]), FadeInPlace(self.zoom_trail),
                      run_time=self.quick(0.25, 1.0))
            self.x_arrow = arrow
        else:
            self.play(Transform(self.x_arrow, arrow), run_time=self.quick())

    def _projection(self, key: str, color) -> None:
        lay = self.layer()
        l = lay["layer"]
        self.show_layer_tag()
        lines = self.data["lines"]
        self.point_at_line([lines["weights"]["QKV".index(key.upper())], lines["qkv"]])
        label = {"q": "Q", "k": "K", "v": "V"}[key]
        unused = key in "qk"
        arrow = self.vector_arrow(lay[key], color, f"{label}^(({l}))", faded=unused)
        self.computed = [k for k in self.computed if k != key] + [key]
        weights = self.row(f"W_{label}^(({l})) =", lay[f"W_{label}"], f"data.layers[{l}].W_{label}",
                           color)
        self.set_panel([weights] + [self.projection_row(k) for k in self.computed])
        old = self.arrows.pop(key, None)
        if old is not None:
            self.play(FadeOutPlace(old), run_time=self.quick(0.1, 0.3))
        self.play(GrowArrow(arrow[0]), FadeInPlace(arrow[1]), run_time=self.quick(0.2, 0.8))
        self.arrows[key] = arrow

    def projection_row(self, key: str) -> VGroup:
        lay = self.layer()
        l, label = lay["layer"], key.upper()
        return self.row(f"{label}^(({l})) = X^(({l})) W_{label}^(({l})) =", lay[key],
                        f"data.layers[{l}].{key}", T.COLOR_OF[key])

    def beat_q(self, beat) -> None:
        self._projection("q", T.Q)

    def beat_k(self, beat) -> None:
        self._projection("k", T.K)

    def beat_v(self, beat) -> None:
        self._projection("v", T.V)

    def beat_update(self, beat) -> None:
        lay = self.layer()
        l = lay["layer"]
        self.show_layer_tag()
        self.point_at_line([self.data["lines"]["update"]])
        if self.x_arrow is None:
            self.x_arrow = self.vector_arrow(lay["x_in"], T.X, f"X^(({l}))")
            self.add(self.x_arrow)
        step = Arrow(self.point(lay["x_in"]), self.point(lay["x_out"]), buff=0, color=T.V,
                     stroke_width=5, max_tip_length_to_length_ratio=0.5, tip_length=0.12)
        self.set_panel([
            self.row(f"0.1 V^(({l})) =", lay["update"], f"data.layers[{l}].update", T.V),
            self.row(f"X^(({l + 1})) = X^(({l})) + 0.1 V^(({l})) =", lay["x_out"],
                     f"data.layers[{l}].x_out", T.X)])
        self.play(GrowArrow(step), run_time=self.quick(0.2, 0.8))
        self.trail.add(Dot(self.point(lay["x_in"]), radius=0.05, color=T.X).set_opacity(0.5))
        if not self.zoom_trail:
            self.zoom_trail.add(self.zoom_dot(lay["x_in"], l))
        self.computed = []
        zoom_step = Arrow(self.zoom.c2p(*lay["x_in"]), self.zoom.c2p(*lay["x_out"]), buff=0.05,
                          color=T.V, stroke_width=3, max_tip_length_to_length_ratio=0.25,
                          tip_length=0.12)
        self.play(GrowArrow(zoom_step), run_time=self.quick(0.15, 0.6))
        self.zoom_trail.add(zoom_step, self.zoom_dot(lay["x_out"], l + 1))
        self.add(self.zoom_trail)
        new_x = self.vector_arrow(lay["x_out"], T.X, f"X^(({l + 1}))")
        self.add(self.trail)
        self.trail.add(step.set_opacity(0.6))
        self.play(Transform(self.x_arrow, new_x),
                  *[FadeOutPlace(a) for a in self.arrows.values()], run_time=self.quick(0.25, 1.0))
        self.arrows.clear()

    def beat_note(self, beat) -> None:
        note = wrapped("Q and K are computed at every pass but never used: the toy leaves out "
                       "attention, so the update uses V alone. Only X carries over.", 44,
                       T.LABEL_SIZE, T.TEXT, max_width=4.4)
        box = SurroundingRectangle(note, color=T.MUTED, buff=T.BUFF, corner_radius=0.1)
        group = VGroup(box, note).next_to(self.code, DOWN, buff=T.GAP).align_to(self.code, LEFT)
        self.panel = self.swap(self.panel, group)
