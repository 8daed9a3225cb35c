"""The chapter's toy loop, faithfully: the code with a cursor, and on a plane the 2-d X carried
through each pass's three random W's.

Beats (each optional, in storyboard order): `code` (the loop on screen), `x` (the current X as
numbers and as an arrow; the last pass's Q, K, V arrows stay as dimmed ghosts), `q`/`k`/`v`
(a copy of X flies into this pass's W, the product's entries appear one by one, the result's
arrow grows), `update` (V's numbers shrink into 0.1 V, X's and 0.1 V's numbers fly together
into the new X; on the plane the camera glides in until the step is readable, with a round
scale bar, draws 0.1 V tip to tail from X, glides back; the step stays as a trail), `note`
(Q and K go unused: the toy omits attention).
Every number is a `Num` bound to its plan path (`self.num`, `WeightBlock`, `matvec`).
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, GrowArrow, ReplacementTransform, SurroundingRectangle,
                   Transform, TransformFromCopy, VGroup)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import NumberGrid, code_block, math, wrapped
from scenes.motion import VectorPlane, WeightBlock, ghost, matvec, zoom_out, zoom_to
from scenes.motion.plane import zoom_of

PLANE_SIZE = 4.6
NAMES = {"q": "Q", "k": "K", "v": "V"}


class ToyLoopScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.code_lines = code_block(d["code"], size=T.TYPE.code, line_height=0.32)
        self.code = self.code_lines.next_to(self.title, DOWN, buff=T.GAP)
        self.code.to_edge(LEFT, buff=T.EDGE + 0.2)
        e = d["extent"]
        self.plane = VectorPlane(e, 0.5, PLANE_SIZE)
        self.plane.next_to(self.title, DOWN, buff=T.GAP).to_edge(RIGHT, buff=T.EDGE)
        self.add(self.plane)
        self.panel_top = self.code.get_bottom() + DOWN * 0.3
        self.results_x = self.code.get_left()[0] + 4.6     # the column of Q, K, V rows
        self.x_arrow = None
        self.trail = VGroup()
        self.ghosts: list = []
        self.trail_dots: list = []          # earlier X's, as dots sized for the home view

    # --- helpers ------------------------------------------------------------------------
    def lay(self, l: int | None = None) -> tuple[dict, str]:
        l = self.layer if l is None else l
        return self.data["layers"][l], f"data.layers[{l}]"

    def cursor(self, numbers: list[int]) -> None:
        rows = VGroup(*[self.code_lines[n - 1] for n in numbers])
        box = SurroundingRectangle(rows, color=T.HIGHLIGHT, buff=0.06, stroke_width=2,
                                   corner_radius=0.04)
        self.put("cursor", box)

    def row(self, label: str, path: str, color, y: int) -> VGroup:
        grid = NumberGrid([self.value(path)], path, color, T.TYPE.label)
        r = VGroup(math(label, T.TYPE.math_label, color), grid).arrange(RIGHT, buff=T.BUFF)
        return r.move_to(self.panel_top + DOWN * 0.6 * y, aligned_edge=UP + LEFT) \
            .align_to(self.code, LEFT)

    def tag(self, key: str, color, xy) -> VGroup:
        """A label at an arrow's tip, pushed out along the arrow (never on the other tips)."""
        m = math(T.X_l(self.layer, NAMES.get(key, "X")), T.TYPE.math_label, color)
        tip = self.plane.p(xy)
        out = tip - self.plane.p((0, 0))
        n = max(1e-6, float((out[0] ** 2 + out[1] ** 2) ** 0.5))
        m.move_to(tip + out / n * 0.35)
        others = [t[1] for t in [self.x_arrow] + [self.shown.get(f"p{c}") for c in "qkv"]
                  if t is not None and t[1] is not m]
        for _ in range(6):                  # step aside until it touches no other label
            hit = [o for o in others if abs(o.get_x() - m.get_x()) < (o.width + m.width) / 2
                   and abs(o.get_y() - m.get_y()) < (o.height + m.height) / 2 + 0.04]
            if not hit:
                break
            m.shift(DOWN * (m.height + 0.08) if m.get_y() <= hit[0].get_y()
                    else UP * (m.height + 0.08))
        return m

    def marker(self, xy, label: str, side, zoom: float) -> VGroup:
        """X as a dot with its label, drawn for a camera frame `zoom` times smaller than home
        (so both have their usual on-screen size in the close-up)."""
        dot = self.plane.dot(xy, T.X, 0.06 / zoom)
        tag = math(label, T.TYPE.math, T.X).scale(1 / zoom)
        return VGroup(dot, tag.next_to(dot, side, buff=0.05 / zoom))

    def layer_tag(self) -> None:
        l = self.layer
        tag = math(f"\"pass {l + 1} of {len(self.data['layers'])}: layer {l} reads \" "
                   f"{T.X_l(l)}", T.TYPE.math_label, T.HIGHLIGHT)
        tag.next_to(self.plane, UP, buff=0.12).align_to(self.plane, RIGHT)
        if getattr(self, "_tag_layer", None) != l:
            self._tag_layer = l
            self.put("layer", tag)

    # --- beats --------------------------------------------------------------------------
    def beat_code(self, beat) -> None:
        self.play(FadeInPlace(self.code), run_time=self.quick(0.2, 0.8))
        self.cursor([self.data["lines"]["x0"]])

    def beat_x(self, beat) -> None:
        lay, src = self.lay()
        self.layer_tag()
        self.drop("w", "q", "k", "v", "upd")
        self.ghost_previous()
        self.put("x", self.row(f"{T.X_l(self.layer)} =", f"{src}.x_in", T.X, 0))
        arrow = self.plane.arrow(lay["x_in"], T.X, width=5)
        label = self.tag("x", T.X, lay["x_in"])
        if self.x_arrow is None:
            self.x_arrow = VGroup(arrow, label)
            self.play(GrowArrow(arrow), FadeInPlace(label), run_time=self.quick(0.2, 0.8))
            self.set_slot("x_arrow", self.x_arrow)
        self.emphasize(self.shown["x"])

    def ghost_previous(self) -> None:
        """The last pass's Q, K, V arrows stay, dimmed and unlabelled, so the new ones are
        seen to differ; ghosts from earlier passes go."""
        anims = [FadeOutPlace(g) for g in self.ghosts]
        self.ghosts = []
        for c in "qkv":
            a = self.shown.pop(f"p{c}", None)
            if a is not None:
                anims += [ghost(a[0]), ghost(a[1], 0.0)]
                self.ghosts.append(a)
        if anims:
            self.play(*anims, run_time=self.quick(0.1, 0.6))

    def _projection(self, key: str) -> None:
        lay, src = self.lay()
        l, name, color = self.layer, NAMES[key], T.QUANTITY[key]
        self.layer_tag()
        lines = self.data["lines"]
        self.cursor([lines["weights"]["qkv".index(key)], lines["qkv"]])
        if "x" not in self.shown:
            self.put("x", self.row(f"{T.X_l(l)} =", f"{src}.x_in", T.X, 0))
        W = WeightBlock.from_plan(self.plan, f"{src}.W_{name}", color=color, size=T.TYPE.label)
        w_row = VGroup(math(f"× {T.X_l(l, 'W_' + name)} =", T.TYPE.math_label, color), W)
        w_row.arrange(RIGHT, buff=T.BUFF)
        w_row.move_to(self.panel_top + DOWN * 1.15, aligned_edge=UP + LEFT)
        w_row.align_to(self.code, LEFT).shift(RIGHT * 0.3)
        self.put("w", w_row)
        label = math(f"{T.X_l(l, name)} =", T.TYPE.math_label, color)
        label.move_to(self.panel_top + DOWN * 0.6 * "qkv".index(key), aligned_edge=UP + LEFT)
        label.set_x(self.results_x, direction=LEFT)
        result_at = label.get_right() + RIGHT * 1.2
        x_grid = self.shown["x"][1]
        result = matvec(self, x_grid, W, f"{src}.{key}", color, result_at=result_at,
                        size=T.TYPE.label, x_side=UP)
        result.next_to(label, RIGHT, buff=T.BUFF)
        self.add(label)
        self.set_slot(key, VGroup(label, result))
        old = self.shown.get(f"p{key}")
        arrow = VGroup(self.plane.arrow(lay[key], color), self.tag(key, color, lay[key]))
        anims = [GrowArrow(arrow[0]), FadeInPlace(arrow[1])]
        if old is not None:
            anims.append(ghost(old[0]))
            anims.append(ghost(old[1], 0.0))
            self.ghosts.append(old)
            self.shown.pop(f"p{key}")
        self.play(*anims, run_time=self.quick(0.15, 0.7))
        self.shown[f"p{key}"] = arrow

    def beat_q(self, beat) -> None:
        self._projection("q")

    def beat_k(self, beat) -> None:
        self._projection("k")

    def beat_v(self, beat) -> None:
        self._projection("v")

    def beat_update(self, beat) -> None:
        lay, src = self.lay()
        l = self.layer
        self.layer_tag()
        self.cursor([self.data["lines"]["update"]])
        self.drop("w", "q", "k")
        # V becomes 0.1 V (its numbers shrink in place), then X + 0.1 V becomes the new X
        x_row = self.shown["x"]
        v_row = self.shown.pop("v", None)
        step_row = self.row(f"0.1 {T.X_l(l, 'V')} =", f"{src}.update", T.V, 1)
        if v_row is not None:
            self.remove(v_row)
            self.play(ReplacementTransform(v_row, step_row), run_time=self.quick(0.12, 0.9))
        else:
            self.play(FadeInPlace(step_row), run_time=self.quick(0.1, 0.6))
        new_row = self.row(f"{T.X_l(l + 1)} = {T.X_l(l)} + 0.1 {T.X_l(l, 'V')} =",
                           f"{src}.x_out", T.X, 2)
        flying = []
        for j, num in enumerate(new_row[1].nums):
            flying.append(TransformFromCopy(x_row[1].nums[j], num))
            flying.append(step_row[1].nums[j].copy().animate.move_to(num).set_opacity(0))
        rest = VGroup(new_row[0], new_row[1][0], new_row[1][2])     # label and brackets
        self.play(FadeInPlace(rest), *flying, run_time=self.quick(0.15, 1.2))
        self.remove(*[a.mobject for a in flying[1::2]], *rest, *new_row[1].nums, step_row)
        self.set_slot("upd", VGroup(step_row, new_row))
        self.emphasize(new_row[1])
        # on the plane: the camera glides in until 0.1 V is readable, the step is drawn tip
        # to tail from X, and X moves; then back out
        z = lay["zoom"]
        x0, x1 = lay["x_in"], lay["x_out"]
        big = [m for m in [self.x_arrow] + [self.shown.get(f"p{c}") for c in "qkv"]
               + self.ghosts + self.trail_dots if m is not None]   # drawn for the home view
        self.play(*[FadeOutPlace(m) for m in big], run_time=self.quick(0.05, 0.3))
        zoom = zoom_of(self, z["width"], self.plane)
        bar = zoom_to(self, self.plane, z["center"], z["width"], z["bar"], f"{z['bar']:g}",
                      run_time=self.quick(0.18, 1.4))
        here = self.marker(x0, T.X_l(l), DOWN + LEFT, zoom)
        self.play(FadeInPlace(here), run_time=self.quick(0.05, 0.4))
        step = self.plane.arrow(x1, T.V, start=x0, width=5, zoom=zoom)
        step_label = math(f"0.1 {T.X_l(l, 'V')}", T.TYPE.math, T.V).scale(1 / zoom)
        step_label.next_to(step.get_center(), UP + RIGHT, buff=0.08 / zoom)
        self.play(GrowArrow(step), FadeInPlace(step_label), run_time=self.quick(0.15, 1.0))
        there = self.marker(x1, T.X_l(l + 1), DOWN + RIGHT, zoom)
        self.play(FadeInPlace(there), run_time=self.quick(0.05, 0.4))
        self.wait(self.quick(0.08, 0.6))
        self.trail.add(step.set_opacity(0.7))
        self.add(self.trail)
        self.play(FadeOutPlace(VGroup(here, there, step_label)), run_time=self.quick(0.05, 0.3))
        zoom_out(self, bar, run_time=self.quick(0.18, 1.4))
        dot = self.plane.dot(x0, T.X, 0.04).set_opacity(0.6)
        self.trail_dots.append(dot)
        self.add(dot)
        self.play(*[FadeInPlace(m) for m in big], run_time=self.quick(0.05, 0.3))
        new_arrow = VGroup(self.plane.arrow(x1, T.X, width=5), self.tag("x", T.X, x1))
        new_arrow[1].become(math(T.X_l(l + 1), T.TYPE.math_label, T.X).move_to(new_arrow[1]))
        self.play(Transform(self.x_arrow, new_arrow), run_time=self.quick(0.15, 0.8))
        # the sum stays on screen until the next pass begins

    def beat_note(self, beat) -> None:
        note = wrapped("Q and K are computed at every pass but never used: the toy leaves out "
                       "attention, so the update uses V alone. Only X carries over.", 40,
                       T.TYPE.label, T.TEXT, max_width=6.0)
        box = SurroundingRectangle(note, color=T.MUTED, buff=T.BUFF, corner_radius=0.1)
        group = VGroup(box, note).move_to(self.panel_top, aligned_edge=UP).align_to(self.code,
                                                                                    LEFT)
        self.drop("x", "upd", "w", "q", "k", "v")
        self.put("note", group)
        for key in ("pq", "pk"):
            if key in self.shown:
                self.emphasize(self.shown[key])
