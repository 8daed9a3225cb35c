"""The residual stream: one token's X as a bus through every layer, and each sublayer's add.

Top: the stream as a horizontal bus, one node per layer; above each node two bars, the sizes of
the attention and FFN updates relative to the X they join (one robust scale, clipped bars carry
their value). Bottom left: the current step as colour strips (X, the update, the sum). Bottom
right: the token's vector on one PCA plane; the point moves one step per sublayer, each step in
its sublayer's colour, and the view zooms out as the stream grows (a scale bar gives the units).

Beats (any order, each optional): `x` (X entering the beat's layer), `attn_out` (the attention
update added), `mlp_out` (the FFN update added), `sizes` (every layer's bars, with a summary),
`projection` (every remaining step to the last layer, then the check that X changed only by
additions, or for post-LN models how much each LayerNorm moves it).
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Circle, Dot, GrowFromEdge, MathTypst,
                   Rectangle, ReplacementTransform, Transform, VGroup, VMobject, config)

from layerwise_core.names import math_label

from .. import theme as T
from ..animations import FadeInPlace
from ..base import StoryboardScene
from ..mobjects import LayerBus, Num, ScaleBar, ValueStrip, inline, legend_item, math, txt

BUS_WIDTH = 12.0
BAR_MAX = 1.0            # height of a bar at the clipping limit
BAR_WIDTH = 0.13
CLIP_ROW = 0.3           # room above the bars for the values of clipped bars
PLANE_HEIGHT = 2.1
PANEL_STRIP = 3.5        # width of a colour strip in the step panel
STRIP_HEIGHT = 0.3
KIND_COLOR = {"embed": T.X, "attn": T.ATTN, "ffn": T.FFN, "ln": T.LN}
WORD_GAP = 0.14         # between the words and numbers of one sentence


def words(*parts) -> VGroup:
    return inline(*parts, buff=WORD_GAP)


class ResidualStreamScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.pre = d["norm_placement"] == "pre"
        self.n_layers = d["n_layers"]
        self.word = d["focus"]["word"]
        self.stages = d["stages"]
        self.views = d["projection"]["views"]

        # --- top: bar legend, bars above the bus, the bus ------------------------------------
        items = [legend_item(T.ATTN, "attention update"), legend_item(T.FFN, "FFN update")]
        key = txt("bar: |update| / |X it is added to|", T.SMALL_SIZE, T.MUTED)
        self.bar_legend = VGroup(*items, key).arrange(RIGHT, buff=T.GAP)
        self.bar_legend.next_to(self.title, DOWN, buff=0.35).to_edge(RIGHT, buff=T.EDGE)
        self.bus = LayerBus(self.n_layers, BUS_WIDTH, color=T.X, label_every=5)
        self.bus.next_to(self.bar_legend, DOWN, buff=BAR_MAX + CLIP_ROW + 0.05)
        self.bus.set_x(0)
        self.bus_label = math("X", T.MATH_SIZE - 4, T.X).next_to(self.bus.line, LEFT, T.TIGHT)
        layer_word = txt("layer", T.SMALL_SIZE, T.MUTED).next_to(self.bus.labels, LEFT, T.TIGHT)
        layer_word.align_to(self.bus_label, RIGHT)
        self.add(self.bus, self.bus_label, layer_word, self.bar_legend)
        self.bars: dict[tuple[int, str], VGroup] = {}
        self.band = None
        self.ticks = None

        # --- bottom right: the projection ------------------------------------------------------
        proj = d["projection"]
        self.plane_w, self.plane_h = PLANE_HEIGHT * proj["aspect"], PLANE_HEIGHT
        ex = proj["explained_pct"]
        head = inline(
            txt(f"\u201c{self.word}\u201d: its {proj['n_points']} states on one PCA plane",
                T.SMALL_SIZE),
            Num(ex[0], "data.projection.explained_pct[0]", 0, T.SMALL_SIZE, T.MUTED,
                prefix="(PC1 ", suffix="%,"),
            Num(ex[1], "data.projection.explained_pct[1]", 0, T.SMALL_SIZE, T.MUTED,
                prefix="PC2 ", suffix="%)"))
        start = VGroup(self.start_ring(), txt("start", T.SMALL_SIZE)).arrange(RIGHT, buff=0.08)
        steps = [legend_item(T.ATTN, "attention step", line=True),
                 legend_item(T.FFN, "FFN step", line=True)]
        if not self.pre:
            steps.append(legend_item(T.LN, "LayerNorm step", line=True))
        step_key = VGroup(*steps, start).arrange(RIGHT, buff=T.BUFF + 0.1)
        self.plane_frame = Rectangle(width=self.plane_w, height=self.plane_h,
                                     stroke_color=T.FAINT, stroke_width=1.5)
        self.proj_box = VGroup(head, step_key, self.plane_frame).arrange(DOWN, buff=T.TIGHT)
        self.proj_box.next_to(self.bus, DOWN, buff=T.BUFF).to_edge(RIGHT, buff=T.EDGE)
        self.panel_width = self.proj_box.get_left()[0] - T.GAP - (T.EDGE - config.frame_width / 2)
        self.add(self.proj_box)
        self.progress = 0                     # index of the last stage drawn on the plane
        self.path = None
        self.scalebar = None
        self.panel = None

    # --- geometry -----------------------------------------------------------------------------
    def to_plane(self, xy, view: dict):
        """A stage's plane coordinates inside the frame, for `view` (geometry only)."""
        (x0, x1), (y0, y1) = view["x_range"], view["y_range"]
        corner = self.plane_frame.get_corner(DOWN + LEFT)
        return corner + RIGHT * (xy[0] - x0) / (x1 - x0) * self.plane_w \
            + UP * (xy[1] - y0) / (y1 - y0) * self.plane_h

    def path_group(self, k: int) -> VGroup:
        """Every stage and step, those after stage `k` collapsed onto it and invisible, so two
        consecutive paths transform one-to-one (the new step grows, the view zooms)."""
        view = self.views[k]
        pts = [self.to_plane(s["xy"], view) for s in self.stages]
        segs, dots = VGroup(), VGroup()
        for i in range(1, len(pts)):
            a, b = (pts[i - 1], pts[i]) if i <= k else (pts[k], pts[k])
            seg = VMobject(stroke_color=KIND_COLOR[self.stages[i]["kind"]], stroke_width=3)
            seg.set_points_as_corners([a, b])
            segs.add(seg.set_stroke(opacity=1.0 if i <= k else 0.0))
        for i, p in enumerate(pts):
            dot = Dot(p if i <= k else pts[k], radius=0.028,
                      color=KIND_COLOR[self.stages[i]["kind"]])
            dots.add(dot.set_opacity(1.0 if i <= k else 0.0))
        here = Dot(pts[k], radius=0.075, color=T.X).set_stroke(T.TEXT, 1.5)
        return VGroup(segs, dots, self.start_ring().move_to(pts[0]), here)

    @staticmethod
    def start_ring() -> Circle:
        return Circle(radius=0.08, stroke_color=T.TEXT, stroke_width=2)

    def scale_bar(self, k: int) -> ScaleBar:
        view = self.views[k]
        length = view["scale"] / (view["x_range"][1] - view["x_range"][0]) * self.plane_w
        bar = ScaleBar(length, Num(view["scale"], f"data.projection.views[{k}].scale",
                                   view["scale_decimals"], T.SMALL_SIZE, T.MUTED,
                                   prefix="scale: "), side=LEFT)
        return bar.next_to(self.plane_frame, DOWN, buff=0.1).align_to(self.plane_frame, RIGHT)

    def advance(self, k: int, share: float = 0.12, cap: float = 0.6) -> None:
        """Draw the steps up to stage `k`, one at a time, zooming the view as needed."""
        if self.path is None:
            self.path, self.scalebar = self.path_group(self.progress), self.scale_bar(self.progress)
            self.play(FadeInPlace(self.path), FadeInPlace(self.scalebar), run_time=self.quick())
        while self.progress < k:
            self.progress += 1
            bar = self.scale_bar(self.progress)         # replaced, so its Num stays true
            self.play(Transform(self.path, self.path_group(self.progress)),
                      ReplacementTransform(self.scalebar, bar), run_time=self.quick(share, cap))
            self.scalebar = bar

    # --- bars and the layer band --------------------------------------------------------------
    def bar(self, l: int, which: str) -> VGroup:
        lay = self.data["layers"][l]
        key = {"attn": "attn", "ffn": "mlp"}[which]
        h = max(lay[f"bar_{key}"] * BAR_MAX, 0.01)
        rect = Rectangle(width=BAR_WIDTH, height=h, stroke_width=0, fill_opacity=1,
                         fill_color=KIND_COLOR[which])
        side = LEFT if which == "attn" else RIGHT
        rect.next_to(self.bus.node(l), UP, buff=0).shift(side * (BAR_WIDTH / 2 + 0.015))
        rect.align_to(self.bus.line, DOWN).shift(UP * self.bus.line.stroke_width / 200)
        group = VGroup(rect)
        if lay[f"clipped_{key}"]:
            cut = VMobject(stroke_color=T.BACKGROUND, stroke_width=3)     # the break mark
            cut.set_points_as_corners([rect.get_corner(UP + LEFT) + DOWN * 0.16,
                                       rect.get_corner(UP + RIGHT) + DOWN * 0.1])
            value = Num(lay[f"rel_{key}"], f"data.layers[{l}].rel_{key}", 2, T.SMALL_SIZE,
                        KIND_COLOR[which])
            value.next_to(self.bus.node(l).get_center(), side, buff=0.05)  # attn left, FFN right
            value.set_y(self.bus.line.get_y() + BAR_MAX + 0.08 + value.height / 2)
            group.add(cut, value)
        return group

    def show_bars(self, pairs: list[tuple[int, str]], run_time: float | None = None) -> None:
        new = [(l, w) for l, w in pairs if (l, w) not in self.bars]
        if not new:
            return
        for l, w in new:
            self.bars[(l, w)] = self.bar(l, w)
        self.play(*[GrowFromEdge(self.bars[p], DOWN) for p in new],
                  run_time=run_time or self.quick())

    def band_at(self, l: int) -> Rectangle:
        bottom = self.bus.labels.get_bottom()[1] - 0.06
        top = self.bus.line.get_y() + BAR_MAX + 0.04
        band = Rectangle(width=min(0.88 * self.bus.slot, 0.42), height=top - bottom,
                         stroke_color=T.HIGHLIGHT, stroke_width=1.5, fill_color=T.HIGHLIGHT,
                         fill_opacity=0.08)
        return band.move_to(self.bus.node(l)).set_y((top + bottom) / 2)

    def move_band(self, l: int, run_time: float | None = None) -> None:
        band = self.band_at(l)
        if self.band is None:
            self.band = band
            self.play(FadeInPlace(band), run_time=run_time or self.quick())
        else:
            self.play(self.band.animate.move_to(band), run_time=run_time or self.quick())

    # --- the step panel -----------------------------------------------------------------------
    def layer(self) -> int:
        l = self.beat["layer"]
        return l if l is not None else self.plan["layers"][0]

    def strip_row(self, label: str, values, number: Num | None, color) -> VGroup:
        strip = ValueStrip(values, width=PANEL_STRIP, height=STRIP_HEIGHT, outline=color)
        tag = math(label, T.MATH_SIZE - 4, color)
        tag.next_to(strip, LEFT, buff=T.BUFF)
        tag.shift(RIGHT * (strip.get_left()[0] - T.BUFF - tag.get_right()[0]))
        row = VGroup(tag, strip)
        if number is not None:
            row.add(number.next_to(strip, RIGHT, buff=T.BUFF))
        return row

    def stage_row(self, l: int, i: int, label: str) -> VGroup:
        s = self.stages[i]
        values = self.data["strips"][str(l)]["stages"][str(i)]
        norm = Num(s["norm"], f"data.stages[{i}].norm", 1, T.SMALL_SIZE, prefix="|X| = ")
        return self.strip_row(label, values, norm, KIND_COLOR["embed"] if s["kind"] != "ln"
                              else T.LN)

    def update_row(self, l: int, which: str) -> VGroup:
        key = {"attn": "attn", "ffn": "mlp"}[which]
        values = self.data["strips"][str(l)][f"{key}_out"]
        rel = Num(self.data["layers"][l][f"rel_{key}"], f"data.layers[{l}].rel_{key}", 2,
                  T.SMALL_SIZE, KIND_COLOR[which], prefix="|\u0394| = ", suffix=" |X|")
        return self.strip_row("+ " + math_label(f"{key}_out", l), values, rel, KIND_COLOR[which])

    def strip_key(self) -> VGroup:
        lim = self.data["strip_limit"]
        first = inline(txt("strip colour: value \u00f7", T.SMALL_SIZE, T.MUTED),
                       Num(lim["limit"], "data.strip_limit.limit", 1, T.SMALL_SIZE, T.MUTED),
                       txt("clipped to \u00b11 (one scale for every strip:", T.SMALL_SIZE,
                           T.MUTED))
        second = txt(f"the 99th percentile of |value| over all \u201c{self.word}\u201d vectors)",
                     T.SMALL_SIZE, T.MUTED)
        return VGroup(first, second).arrange(DOWN, buff=0.08, aligned_edge=LEFT)

    def set_panel(self, header: VGroup, rows: list[VGroup], key: bool = True) -> None:
        body = VGroup(*rows).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        strips = [r for r in rows if len(r) > 1 and isinstance(r[1], ValueStrip)]
        for r in strips:                                 # strips share one left edge
            r.shift(RIGHT * (strips[0][1].get_left()[0] - r[1].get_left()[0]))
        parts = [header, body] + ([self.strip_key()] if key else [])
        panel = VGroup(*parts).arrange(DOWN, buff=T.BUFF + 0.05, aligned_edge=LEFT)
        if panel.width > self.panel_width:
            panel.scale_to_fit_width(self.panel_width)
        panel.next_to(self.bus, DOWN, buff=T.BUFF + 0.1).to_edge(LEFT, buff=T.EDGE)
        self.panel = self.swap(self.panel, panel)

    def header(self, title: str, equation: str | None = None) -> VGroup:
        parts = [txt(title, T.LABEL_SIZE, T.HIGHLIGHT)]
        if equation:
            parts.append(math(equation, T.MATH_SIZE - 8))
        return VGroup(*parts).arrange(RIGHT, buff=T.GAP)

    # --- beats --------------------------------------------------------------------------------
    def beat_x(self, beat) -> None:
        l = self.layer()
        lay = self.data["layers"][l]
        self.move_band(l)
        what = f": the embedding of \u201c{self.word}\u201d" if l == 0 else ""
        self.set_panel(self.header(f"X entering layer {l}{what}"),
                       [self.stage_row(l, lay["stage_in"], math_label("x", l))])
        self.advance(lay["stage_in"])

    def beat_attn_out(self, beat) -> None:
        l = self.layer()
        lay = self.data["layers"][l]
        self.move_band(l)
        eq = ("X <- X + \"Attn\"(\"" + ("RMSNorm" if self.data["norm"] == "rmsnorm" else "LN")
              + "\"(X))") if self.pre else "X <- \"LN\"(X + \"Attn\"(X))"
        rows = [self.stage_row(l, lay["stage_in"], "X"),
                self.update_row(l, "attn"),
                self.stage_row(l, lay["stage_attn"], "= X + " + math_label("attn_out", l))]
        if not self.pre:
            rows.append(self.stage_row(l, lay["stage_attn"] + 1, "\"LN\"(dot)"))
        self.set_panel(self.header(f"Layer {l}, attention", eq), rows)
        self.show_bars([(l, "attn")])
        self.advance(lay["stage_attn"] + (0 if self.pre else 1))

    def beat_mlp_out(self, beat) -> None:
        l = self.layer()
        lay = self.data["layers"][l]
        self.move_band(l)
        norm = "RMSNorm" if self.data["norm"] == "rmsnorm" else "LN"
        eq = f"X <- X + \"FFN\"(\"{norm}\"(X))" if self.pre else "X <- \"LN\"(X + \"FFN\"(X))"
        before = lay["stage_ffn"] - 1
        out = math_label("x", l + 1) if self.pre else "X + " + math_label("mlp_out", l)
        rows = [self.stage_row(l, before, "X"), self.update_row(l, "ffn"),
                self.stage_row(l, lay["stage_ffn"], "= " + out)]
        if not self.pre:
            rows.append(self.stage_row(l, lay["stage_out"], "\"LN\"(dot)"))
        self.set_panel(self.header(f"Layer {l}, FFN", eq), rows)
        self.show_bars([(l, "ffn")])
        self.advance(lay["stage_out"])

    def beat_sizes(self, beat) -> None:
        d = self.data
        s, bars = d["summary"], d["bars"]
        ticks = VGroup()
        for i, tick in enumerate(bars["ticks"]):
            line = VMobject(stroke_color=T.FAINT, stroke_width=1)
            y = self.bus.line.get_center() + UP * tick["scaled"] * BAR_MAX
            line.set_points_as_corners([y + LEFT * BUS_WIDTH / 2, y + RIGHT * BUS_WIDTH / 2])
            value = Num(tick["value"], f"data.bars.ticks[{i}].value", 2, T.SMALL_SIZE, T.MUTED)
            ticks.add(VGroup(line, value.next_to(line, RIGHT, buff=0.08)))
        self.ticks = ticks
        self.play(FadeInPlace(ticks), run_time=self.quick())
        self.bring_to_back(ticks)
        self.show_bars([(l, w) for l in range(self.n_layers) for w in ("attn", "ffn")],
                       run_time=self.quick(0.2, 1.0))
        size = T.LABEL_SIZE - 2

        def n(key: str, decimals: int = 2, color=T.TEXT, suffix: str = " |X|") -> Num:
            return Num(s[key], f"data.summary.{key}", decimals, size, color, suffix=suffix)

        rows = [
            words(txt("typical attention update (median):", size),
                  n("median_rel_attn", color=T.ATTN)),
            words(txt("typical FFN update (median):", size), n("median_rel_mlp", color=T.FFN)),
            words(txt("after layer 0, every update is", size), n("min_rel_later", suffix=""),
                  txt("to", size), n("max_rel_later")),
            words(txt("meanwhile |X| itself:", size), n("norm_first", 1, T.X, ""),
                  txt("at the start,", size), n("norm_last", 1, T.X, ""), txt("at the end", size)),
        ]
        note = words(txt("bars are clipped at", T.SMALL_SIZE, T.MUTED),
                     Num(bars["limit"], "data.bars.limit", 2, T.SMALL_SIZE, T.MUTED,
                         suffix=" |X|;"),
                     txt("a clipped bar is cut and shows its value", T.SMALL_SIZE, T.MUTED))
        header = self.header(f"All {self.n_layers} layers: how big is each update?")
        self.set_panel(header, rows + [note], key=False)

    def sum_equation(self) -> MathTypst:
        L = self.n_layers
        return math(f"X^({L}) = X^(0) + sum_(l=0)^({L - 1}) (" + math_label("attn_out", "l")
                    + " + " + math_label("mlp_out", "l") + ")", T.MATH_SIZE - 6)

    def beat_projection(self, beat) -> None:
        d = self.data
        last = self.plan["layers"][-1]
        start = self.stages[self.progress]["layer"]
        first = 0 if start is None else start + (1 if self.progress == d["layers"][start]
                                                 ["stage_out"] else 0)
        title = f"Layers {first}\u2013{last}, one step per sublayer" if first < last \
            else f"Layer {last}"
        body = self.sum_equation() if self.pre else txt("X \u2190 LN(X + update), twice per "
                                                        "layer", T.LABEL_SIZE)
        self.set_panel(self.header(title), [body], key=False)
        for l in range(first, last + 1):
            lay = d["layers"][l]
            self.move_band(l, run_time=self.quick(0.01, 0.15))
            self.show_bars([(l, "attn"), (l, "ffn")], run_time=self.quick(0.01, 0.15))
            self.advance(lay["stage_out"], share=0.012, cap=0.2)
        self.show_check()

    def show_check(self) -> None:
        c = self.data["check"]
        size = T.LABEL_SIZE - 2

        def row(label: str, value: Num) -> VGroup:
            return words(txt(label, size), value)

        if c["kind"] == "additions":
            rows = [
                self.sum_equation(),
                txt(f"measured on \u201c{self.word}\u201d (float64 on the float32 trace):", size,
                    T.MUTED),
                row(f"largest error, whole stack ({c['n_updates']} updates):",
                    Num(c["bound_total"]["bound"], "data.check.bound_total.bound",
                        c["bound_total"]["decimals"], size, T.HIGHLIGHT, prefix="< ")),
                row("largest error, any single layer:",
                    Num(c["bound_layer"]["bound"], "data.check.bound_layer.bound",
                        c["bound_layer"]["decimals"], size, T.HIGHLIGHT, prefix="< ")),
                row(f"for scale, |X| after layer {self.n_layers - 1} =",
                    Num(c["final_norm"], "data.check.final_norm", 1, size, T.X)),
            ]
            header = self.header("X changes only by additions")
        else:
            rows = [
                words(txt("each LayerNorm moves X by", size),
                      Num(c["min_ln_change"], "data.check.min_ln_change", 2, size, T.LN),
                      txt("to", size),
                      Num(c["max_ln_change"], "data.check.max_ln_change", 2, size, T.LN,
                          suffix=" |X|")),
                row("X_out \u2212 (X_in + \u0394attn + \u0394FFN), largest entry:",
                    Num(c["max_error_layer"], "data.check.max_error_layer", 2, size,
                        T.HIGHLIGHT)),
            ]
            header = self.header("Here X changes by an add, then a LayerNorm")
        self.set_panel(header, rows, key=False)
