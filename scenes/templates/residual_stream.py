"""The residual stream: one token's X as a vector being added to, layer by layer.

Top: the sentence as tokens (the space mark explained), the followed token marked. Left: the
vectors as short columns of real numbers, X^(l) + Delta = the new X. Right: the same addition tip
to tail on one PCA plane through the origin, fitted once to this token's states, with its own
camera (it glides out when X outgrows the view) and a faint trail of earlier X's; the share of
each arrow the plane captures is said. Bottom: honest bars of |X^(l)|, |Delta_attn^(l)| and
|Delta_FFN^(l)| on one linear axis that grows with the story (never clipped).

Beats: `tokens`, `x` (X entering the beat's layer), `attn_out`, `mlp_out` (one update added),
`journey` (every remaining layer), `sizes` (the lengths, the outlier token), `identity`
(X^(L) = X^(0) + every update). Every number is a `Num` bound to its plan path. What the
narration names is drawn, ringed, lit or pointed at when it is spoken (`hold_until_cue`,
`hold_until_said`), so a voiced beat does not sit still while its words go by.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Animation, Circumscribe, Create, CurvedArrow, FadeIn,
                   Indicate, Rectangle, RoundedRectangle, VGroup, VMobject, Write, smooth,
                   squish_rate_func, there_and_back)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..base import StoryboardScene
from ..mobjects import Num, inline, math, txt
from ..mobjects.numbers import bracket
from ..motion.tip_to_tail import PlaneStep, TipToTail

S = T.TYPE.small
KIND_COLOR = {"embed": T.X, "attn": T.ATTN, "ffn": T.FFN, "ln": T.LN}
KIND_WORD = {"attn": "attention", "ffn": "FFN", "ln": "LayerNorm"}
PLANE_H = 2.9
CHART_W, CHART_H = 11.6, 1.35
BAR_W = 0.085


class ResidualStreamScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.L = d["n_layers"]
        self.stages, self.step_rows = d["stages"], d["steps"]
        self.plane = None
        self.progress = -1                   # last stage drawn on the plane
        self.x_arrow = None
        self.bars: dict = {}
        self.chart = None

    # --- pieces -------------------------------------------------------------------------------
    def sym(self, kind: str, l) -> str:
        return {"x": T.X_l(l), "attn": f"Delta_\"attn\"^(({l}))",
                "ffn": f"Delta_\"FFN\"^(({l}))"}[kind]

    def column(self, path: str, decimals: int, color, label: str, norm_path: str) -> VGroup:
        """A vector as a column: its first entries (Nums), ⋮, and its length."""
        vals = self.value(path)
        nums = VGroup(*[Num(v, f"{path}[{i}]", decimals, S, color) for i, v in enumerate(vals)])
        nums.arrange(DOWN, buff=0.1, aligned_edge=RIGHT)
        dots = txt("\u22ee", S, color).next_to(nums, DOWN, buff=0.08)
        body = VGroup(nums, dots)
        h = body.height + 0.14
        col = VGroup(bracket(h, -1).next_to(body, LEFT, 0.08), body,
                     bracket(h, 1).next_to(body, RIGHT, 0.08))
        head = math(label, T.TYPE.math_label, color).next_to(col, UP, buff=0.12)
        n = self.value(norm_path)
        length = Num(n["value"], f"{norm_path}.value", n["decimals"], S, color,
                     prefix="|\u00b7| = ").next_to(col, DOWN, buff=0.12)
        return VGroup(head, col, length)

    def stage_col(self, i: int, decimals: int, label: str) -> VGroup:
        return self.column(f"data.stages[{i}].head", decimals, T.X, label,
                           f"data.stages[{i}].norm")

    def step_col(self, j: int, label: str) -> VGroup:
        s = self.step_rows[j]
        return self.column(f"data.steps[{j}].head", s["decimals"], KIND_COLOR[s["kind"]], label,
                           f"data.steps[{j}].norm")

    def n(self, path: str, color=T.TEXT, size=S, prefix="", suffix="") -> Num:
        v = self.value(path)
        return Num(v["value"], f"{path}.value", v["decimals"], size, color, prefix, suffix)

    # --- timing and pointing -------------------------------------------------------------------
    def one_by_one(self, make, ms, lag: float, run_time: float) -> None:
        """`make(m, a, b)` (an animation of m over the share a..b of `run_time`) for each of
        `ms`, each starting `lag` of an animation's time after the one before (a LaggedStart would add its own group to the scene, taking the
        pieces out of the groups they are drawn in)."""
        n = len(ms)
        d = 1.0 / (1.0 + lag * (n - 1))
        self.play(*[make(m, k * lag * d, k * lag * d + d) for k, m in enumerate(ms)],
                  run_time=run_time)

    def flash(self, ms, scale: float, lag: float, run_time: float) -> None:
        """Light up each of `ms` in turn (yellow and back), one after another."""
        self.one_by_one(lambda m, a, b: Indicate(m, scale_factor=scale, color=T.HIGHLIGHT,
                                                 rate_func=squish_rate_func(there_and_back, a, b)),
                        ms, lag, run_time)

    # --- the plane ----------------------------------------------------------------------------
    def ensure_plane(self) -> None:
        if self.plane is not None:
            return
        d = self.data
        self.plane = TipToTail(PLANE_H * d["plane"]["aspect"], PLANE_H, d["plane"]["views"][0])
        self.plane.move_to(RIGHT * 4.35 + UP * 0.55)
        head = inline(txt("PCA plane of \u201c" + d["focus"]["word"] + "\u201d's", S, T.MUTED),
                      Num(d["plane"]["n_points"], "data.plane.n_points", 0, S, T.MUTED),
                      txt("states (fit once)", S, T.MUTED))
        head.next_to(self.plane, UP, buff=0.08)
        self.plane_head = head
        self.scale = self.scale_bar(0)
        self.add(self.plane, head)
        self.play(FadeInPlace(self.plane), FadeInPlace(head), FadeInPlace(self.scale),
                  run_time=self.quick())

    def scale_bar(self, k: int) -> VGroup:
        v = self.data["plane"]["views"][k]
        length = v["scale"] / v["width"] * self.plane.w
        line = VMobject(stroke_color=T.TEXT, stroke_width=3)
        line.set_points_as_corners([LEFT * length / 2, RIGHT * length / 2])
        label = Num(v["scale"], f"data.plane.views[{k}].scale", v["scale_decimals"], S, T.MUTED,
                    suffix=" units")
        g = VGroup(line, label.next_to(line, LEFT, buff=0.1))
        return g.next_to(self.plane, DOWN, buff=0.12).align_to(self.plane, RIGHT)

    def advance(self, k: int, run_time: float) -> None:
        """Draw the steps up to stage k, tip to tail, the view gliding when it must."""
        views = self.data["plane"]["views"]
        while self.progress < k:
            if self.progress < 0:
                s0 = self.stages[0]["xy"]
                self.x_arrow = self.plane.arrow((0, 0), s0, T.X, 5)
                self.progress = 0
                self.play(PlaneStep(self.plane, [self.x_arrow], views[0]), run_time=run_time)
                continue
            i = self.progress + 1
            s = self.step_rows[i - 1]
            a = self.plane.arrow(self.stages[i - 1]["xy"], self.stages[i]["xy"],
                                 KIND_COLOR[s["kind"]], 3.5)
            anims = [PlaneStep(self.plane, [a], views[i])]
            new_bar = self.bar_for_step(i - 1)
            if new_bar is not None:
                anims.append(new_bar)
            if i in self.data["x_stages"]:       # a layer finished: the old X becomes a ghost
                new_x = self.plane.arrow((0, 0), self.stages[i]["xy"], T.X, 5)
                old = self.x_arrow
                old.set_opacity(0.25)
                self.x_arrow = new_x
                anims[0].grow.append(new_x)
                xb = self.bar_for_x(self.data["x_stages"].index(i))
                if xb is not None:
                    anims.append(xb)
            self.progress = i
            self.play(*anims, run_time=run_time)
            if views[i] != views[i - 1]:          # the scale bar of the new view (a true Num)
                self.remove(self.scale)
                self.scale = self.scale_bar(i)
                self.add(self.scale)

    # --- the bars -----------------------------------------------------------------------------
    def ensure_chart(self) -> None:
        if self.chart is not None:
            return
        base = VMobject(stroke_color=T.MUTED, stroke_width=2)
        x0 = -CHART_W / 2 + 0.6
        y0 = -3.05 + 0.35
        base.set_points_as_corners([[x0 - 0.1, y0, 0], [x0 + CHART_W - 0.4, y0, 0]])
        self.chart_origin = np.array([x0, y0, 0.0])
        self.slot = (CHART_W - 0.6) / (self.L + 1)
        ax = self.data["bars"]["linear"][0]
        self.bar_max = ax["max"]
        grid = VGroup()
        for frac in (0.5, 1.0):
            g = VMobject(stroke_color=T.FAINT, stroke_width=1)
            g.set_points_as_corners([[x0 - 0.1, y0 + frac * CHART_H, 0],
                                     [x0 + CHART_W - 0.4, y0 + frac * CHART_H, 0]])
            grid.add(g)
        self.tick_labels = self.ticks(0)
        layer_labels = VGroup(*[Num(l, f"data.layers[{l}].layer", 0, S, T.MUTED).move_to(
            self.bar_x(l) + DOWN * 0.2) for l in range(0, self.L, 5)])
        key = VGroup(*[VGroup(Rectangle(width=0.16, height=0.16, stroke_width=0,
                                        fill_color=c, fill_opacity=1),
                              math(lab, T.TYPE.math_label, c)).arrange(RIGHT, buff=0.08)
                       for c, lab in ((T.X, "|X^((l))|"), (T.ATTN, "|Delta_\"attn\"^((l))|"),
                                      (T.FFN, "|Delta_\"FFN\"^((l))|"))]).arrange(RIGHT, buff=0.3)
        key.next_to(self.chart_origin + UP * (CHART_H + 0.05), UP, buff=0.04)
        key.shift(RIGHT * 1.4)
        word = txt("layer l", S, T.MUTED).next_to(layer_labels, LEFT, buff=0.15)
        self.chart = VGroup(grid, base, layer_labels, word, key)
        self.chart_key = key
        self.bar_group = VGroup()
        self.add(self.bar_group)
        self.play(FadeInPlace(self.chart), FadeInPlace(self.tick_labels), run_time=self.quick())

    def ticks(self, k: int) -> VGroup:
        ax = self.data["bars"]["linear"][k]
        out = VGroup()
        for i, (frac, t) in enumerate(zip((0.5, 1.0), ax["ticks"])):
            out.add(Num(t["value"], f"data.bars.linear[{k}].ticks[{i}].value", t["decimals"], S,
                        T.MUTED).next_to(self.chart_origin + UP * frac * CHART_H, LEFT, 0.12))
        return out

    def bar_x(self, l: int, which: str = "x") -> np.ndarray:
        off = {"x": -BAR_W, "attn": 0.0, "ffn": BAR_W}[which]
        return self.chart_origin + RIGHT * ((l + 0.5) * self.slot + off)

    def new_bar(self, key, l: int, which: str, value: float) -> Rectangle:
        r = Rectangle(width=BAR_W, height=0.001, stroke_width=0, fill_opacity=1,
                      fill_color={"x": T.X, "attn": T.ATTN, "ffn": T.FFN}[which])
        r.value = value
        r.move_to(self.bar_x(l, which), aligned_edge=DOWN)
        self.bars[key] = r
        self.bar_group.add(r)
        return r

    def bar_for_step(self, j: int):
        s = self.step_rows[j]
        if s["kind"] not in ("attn", "ffn") or self.chart is None:
            return None
        r = self.new_bar(("step", j), s["layer"], s["kind"], s["norm"]["value"])
        return BarsTo(self, [r], self.data["bars"]["linear"][j + 1]["max"], j + 1)

    def bar_for_x(self, j: int):
        if self.chart is None:
            return None
        r = self.new_bar(("x", j), j, "x", self.data["x_norms"][j]["value"])
        k = self.data["x_stages"][j]
        return BarsTo(self, [r], self.data["bars"]["linear"][k]["max"], k)

    def set_ticks(self, k: int) -> None:
        if getattr(self, "tick_k", 0) != k:
            new = self.ticks(k)
            self.remove(self.tick_labels)
            self.tick_labels = new
            self.add(new)
            self.tick_k = k

    # --- beats --------------------------------------------------------------------------------
    def beat_tokens(self, beat) -> None:
        d = self.data
        boxes = VGroup()
        for tok in d["tokens"]:
            focus = tok["index"] == d["focus"]["token"]
            t = txt(tok["text"], T.TYPE.label, T.HIGHLIGHT if focus else T.TEXT)
            box = RoundedRectangle(corner_radius=0.08, width=t.width + 0.24, height=0.5,
                                   stroke_color=T.HIGHLIGHT if focus else T.FAINT,
                                   stroke_width=2.5 if focus else 1.5)
            boxes.add(VGroup(box, t.move_to(box)))
        boxes.arrange(RIGHT, buff=0.1).move_to(UP * 2.85)
        self.token_row = boxes
        self.play(*[FadeIn(b, shift=0.1 * DOWN) for b in boxes], run_time=self.quick(0.2, 1.2))
        m = d["model"]
        info = VGroup(
            inline(txt(m["display"] + ":", T.TYPE.label, T.TEXT),
                   Num(m["n_layers"], "data.model.n_layers", 0, T.TYPE.label), txt(
                       "layers, pre-norm decoder (X is never re-normalised)", T.TYPE.label)),
            inline(Num(d["n_tokens"], "data.n_tokens", 0, T.TYPE.label),
                   txt("tokens;", T.TYPE.label),
                   txt(d["space_mark"] + " marks the space that belongs to a token",
                       T.TYPE.label, T.MUTED)),
            inline(txt("we follow", T.TYPE.label),
                   txt(d["focus"]["token_text"], T.TYPE.label, T.HIGHLIGHT),
                   txt("(token", T.TYPE.label),
                   Num(d["focus"]["token"], "data.focus.token", 0, T.TYPE.label, suffix=")")),
        ).arrange(DOWN, buff=0.25, aligned_edge=LEFT).move_to(UP * 0.6)
        # "a decoder with 30 layers": the model line
        self.put("info", info[0], run_time=self.quick(0.15, 0.8))
        # "... as 7 tokens": each token gets its index, one after another (a count to 7)
        self.hold_until_cue(1)
        idx = VGroup(*[Num(tok["index"], f"data.tokens[{i}].index", 0, S, T.MUTED)
                       .next_to(boxes[i], DOWN, buff=0.1) for i, tok in enumerate(d["tokens"])])
        self.put("info1", info[1], run_time=0.5)
        self.shown["idx"] = idx
        self.one_by_one(lambda n, a, b: FadeIn(n, shift=0.15 * DOWN,
                                               rate_func=squish_rate_func(smooth, a, b)),
                        list(idx), 0.5, 1.4)
        # "the mark before a word is the space that belongs to it": every such mark lights up
        marks = [boxes[i][1][0] for i, tok in enumerate(d["tokens"])
                 if tok["text"].startswith(d["space_mark"])]
        if marks:
            self.hold_until_said(1, "the mark")
            self.flash(marks + [info[1][2][0]], 1.6, 0.3, 1.6)
        # "We follow one token, bank": its box, its index, the line saying so
        self.hold_until_cue(2)
        f = d["focus"]["token"]
        self.put("info2", info[2], run_time=0.4)
        self.play(Indicate(boxes[f], scale_factor=1.15, color=T.HIGHLIGHT),
                  Indicate(idx[f], scale_factor=1.3, color=T.HIGHLIGHT),
                  Indicate(info[2][3], scale_factor=1.3, color=T.HIGHLIGHT), run_time=1.0)

    def beat_x(self, beat) -> None:
        l = self.layer
        lay = self.data["layers"][l]
        self.drop("info", "info1", "info2", "idx")
        col = self.stage_col(lay["stage_in"], lay["entry_decimals"], T.X_l(l))
        col.move_to(LEFT * 5.6 + UP * 0.6)
        self.put("a", col, run_time=self.quick(0.12, 0.8))
        self.ensure_plane()
        self.ensure_chart()
        self.advance(lay["stage_in"], self.quick(0.15, 1.0))
        self.play(self.bar_for_x(l), run_time=self.quick(0.1, 0.8))
        # "... its embedding: 576 numbers": the column's dots are the rest of them
        self.hold_until_said(0, "numbers")
        dims = self.num("data.d_model", 0, S, T.X, suffix=" numbers")
        dims.next_to(col[1], RIGHT, buff=0.2).align_to(col[1][1][1], DOWN)
        self.put("dims", dims, anim=Write(dims), run_time=0.8)
        # "with a length of only 2.18": the length as a number, an arrow and a bar
        self.hold_until_said(0, "length")
        xbar = self.bars.get(("x", l))
        self.emphasize(col[2], *([xbar] if xbar is not None else []), run_time=1.0,
                       extra=[Indicate(self.x_arrow, scale_factor=1.0, color=T.HIGHLIGHT)])
        # "Layer l reads X of l and writes X of l plus one": the rule is written, its parts named
        self.hold_until_cue(1)
        x_in, x_out = "X\u207d\u02e1\u207e", "X\u207d\u02e1\u207a\u00b9\u207e"
        words = f"layer l reads {x_in} and writes {x_out}"
        rule = txt(words, T.TYPE.label, T.TEXT).move_to(LEFT * 4.2 + UP * 2.25)
        self.put("rule", rule, anim=Write(rule), run_time=1.0)
        self.hold_until_said(1, "reads")
        self.emphasize(glyphs(rule, words, x_in), col[0], run_time=0.8)
        self.hold_until_said(1, "writes")
        self.emphasize(glyphs(rule, words, x_out, last=True), run_time=0.8)

    def add_step(self, which: str) -> None:
        l = self.layer
        lay = self.data["layers"][l]
        j = lay["step_attn" if which == "attn" else "step_ffn"]
        s = self.step_rows[j]
        dec = lay["entry_decimals"]
        before = s["from"]
        if "a" not in self.shown or getattr(self.shown["a"], "stage", None) != before:
            label = T.X_l(l) if before == lay["stage_in"] else \
                f"{T.X_l(l)} + Delta_\"attn\"^(({l}))"
            a = self.stage_col(before, dec, label).move_to(LEFT * 5.6 + UP * 0.6)
            a.stage = before
            self.drop("b", "c", "plus", "eq")
            self.put("a", a)
        self.drop("dims")
        a = self.shown["a"]
        b = self.step_col(j, self.sym(which, l)).next_to(a, RIGHT, buff=0.55)
        plus = txt("+", T.TYPE.heading).move_to((a[1].get_right() + b[1].get_left()) / 2)
        self.put("plus", plus, run_time=0.3)
        self.put("b", b)
        out_label = T.X_l(l + 1) if s["to"] == lay["stage_out"] else \
            f"{T.X_l(l)} + Delta_\"attn\"^(({l}))"
        c = self.stage_col(s["to"], dec, out_label).next_to(b, RIGHT, buff=0.55)
        c.stage = s["to"]
        eq = txt("=", T.TYPE.heading).move_to((b[1].get_right() + c[1].get_left()) / 2)
        self.put("eq", eq, run_time=0.3)
        self.put("c", c)
        note = inline(txt("the plane shows", S, T.MUTED),
                      self.n(f"data.steps[{j}].captured_pct", T.MUTED, suffix="%"),
                      txt("of this arrow's length", S, T.MUTED))
        note.next_to(self.scale, LEFT, buff=0.4)
        self.put("note", note, run_time=0.3)
        self.advance(s["to"], self.quick(0.2, 1.6))
        self.emphasize(c[2], run_time=0.8)
        # the result becomes the next input (a cross-fade would draw both)
        self.drop("a", "b", "plus", "eq")
        self.play(self.shown["c"].animate.move_to(LEFT * 5.6 + UP * 0.6), run_time=0.5)
        self.shown["a"] = self.shown.pop("c")

    def beat_attn_out(self, beat) -> None:
        self.ensure_plane()
        self.ensure_chart()
        self.add_step("attn")

    def beat_mlp_out(self, beat) -> None:
        self.ensure_plane()
        self.ensure_chart()
        self.add_step("ffn")

    def beat_journey(self, beat) -> None:
        self.ensure_plane()
        self.ensure_chart()
        self.drop("a", "note", "rule", "dims")
        d = self.data
        start = self.stages[self.progress]["layer"]
        first = 0 if start is None else start + 1
        left = d["layers"][first:]
        per = max(0.25, min(0.6, 0.8 * beat["duration"] / (2 * max(1, len(left)))))
        for lay in left:
            l = lay["layer"]
            new_tag = inline(txt("layer", T.TYPE.label),
                             Num(l, f"data.layers[{l}].layer", 0, T.TYPE.label),
                             txt("|X| =", T.TYPE.label, T.X),
                             self.n(f"data.layers[{l}].norm_x", T.X, T.TYPE.label))
            new_tag.move_to(LEFT * 4.2 + UP * 0.8)
            self.set_slot("tag", new_tag)
            self.advance(lay["stage_out"], per)
        share = inline(txt("the plane shows", S, T.MUTED),
                       self.n("data.plane.captured_total_pct", T.MUTED, suffix="%"),
                       txt("of the updates' total length", S, T.MUTED))
        share.move_to(LEFT * 4.2 + DOWN * 0.2)
        self.put("note", self.keep_inside(share))

    def beat_sizes(self, beat) -> None:
        self.ensure_plane()
        self.ensure_chart()
        d, s = self.data, self.data["summary"]
        rows = [inline(txt("|X| grows", T.TYPE.label),
                       self.n("data.summary.norm_first", T.X, T.TYPE.label),
                       txt("\u2192", T.TYPE.label),
                       self.n("data.summary.norm_last", T.X, T.TYPE.label),
                       txt("(\u00d7", T.TYPE.label),
                       self.n("data.summary.growth", T.TEXT, T.TYPE.label, suffix=")")),
                inline(txt("typical update / |X|:", T.TYPE.label),
                       self.n("data.summary.median_rel_attn", T.ATTN, T.TYPE.label),
                       txt("attention,", T.TYPE.label),
                       self.n("data.summary.median_rel_mlp", T.FFN, T.TYPE.label),
                       txt("FFN", T.TYPE.label))]
        o = d.get("outlier")
        if o:
            rows.append(inline(txt("not drawn: token", S, T.MUTED), txt(o["token"], S, T.TEXT),
                               txt("reaches |X| \u2248", S, T.MUTED),
                               self.n("data.outlier.max_norm", T.TEXT)))
            if o["is_sink"]:
                rows.append(inline(txt("an attention sink:", S, T.MUTED),
                                   txt(d["focus"]["word"], S, T.HIGHLIGHT),
                                   txt("gives it", S, T.MUTED),
                                   self.n("data.outlier.attention_pct", T.TEXT, suffix="%"),
                                   txt("of its attention", S, T.MUTED)))
        box = VGroup(*rows).arrange(DOWN, buff=0.18, aligned_edge=LEFT).move_to(LEFT * 3.6 +
                                                                                UP * 0.6)
        self.drop("tag", "note")
        # "The bars give the lengths."
        self.emphasize(self.chart, run_time=1.0)
        # "X grows from 2.18 to 870, about four hundred times": each number and its bar
        self.hold_until_cue(1)
        self.put("summary", box[:2])
        grow = rows[0]
        first, last = self.bars.get(("x", 0)), self.bars.get(("x", len(d["x_stages"]) - 1))
        self.hold_until_said(1, "from")
        self.emphasize(grow[1], *([first] if first is not None else []), run_time=0.8)
        self.hold_until_said(1, "to ")
        self.emphasize(grow[3], *([last] if last is not None else []), run_time=0.8)
        self.hold_until_said(1, "about")
        self.emphasize(grow[5], run_time=0.8)
        if len(rows) > 2:
            tok = self.token_row[o["position"]]
            # "One token is different: the first, I, grows to 24,100."
            self.hold_until_cue(2)
            self.put("outlier", box[2], run_time=0.5)
            self.hold_until_said(2, "the first")
            self.point_at(tok, run_time=1.0)
            self.hold_until_said(2, "grows")
            self.emphasize(box[2][3], run_time=0.8)
        if len(rows) > 3:
            # "It is an attention sink": bank's attention goes to it (an arrow between the two)
            self.hold_until_cue(3)
            focus = self.token_row[d["focus"]["token"]]
            arc = CurvedArrow(focus.get_corner(DOWN + LEFT) + RIGHT * 0.15 + DOWN * 0.04,
                              tok.get_bottom() + DOWN * 0.04, angle=-0.8, color=T.ATTN,
                              stroke_width=3, tip_length=0.16)
            self.put("sink", box[3], run_time=0.5)
            self.put("sink_arc", arc, anim=Create(arc), run_time=1.0)
            self.emphasize(box[3][3], run_time=0.8)
            # "... and we leave it out of these pictures"
            self.hold_until_said(3, "leave")
            self.emphasize(box[2], run_time=1.0,
                       extra=[Circumscribe(self.plane, Rectangle, color=T.HIGHLIGHT, buff=0.0,
                                           stroke_width=3, fade_out=True)])

    def beat_identity(self, beat) -> None:
        self.ensure_plane()
        self.drop("summary", "outlier", "sink", "sink_arc")
        d = self.data
        ident = d["identity"]
        if ident is None:
            c = d["check"]
            msg = inline(txt("each LayerNorm moves X by", T.TYPE.label),
                         Num(c["min_ln_change"], "data.check.min_ln_change", 2, T.TYPE.label),
                         txt("to", T.TYPE.label),
                         Num(c["max_ln_change"], "data.check.max_ln_change", 2, T.TYPE.label))
            self.put("id", msg.move_to(LEFT * 3.6 + UP * 0.6))
            return
        L, dec = self.L, ident["decimals"]
        if self.chart is not None and self.chart_key in self.chart.submobjects:
            # the columns reach down to the bars' colour key: the key has done its job
            self.play(FadeOutPlace(self.chart_key), run_time=0.3)
            self.chart.remove(self.chart_key)
        eq = math(f"{T.X_l(L)} = {T.X_l(0)} + sum_(l=0)^({L - 1}) (Delta_\"attn\"^((l)) + "
                  f"Delta_\"FFN\"^((l)))", T.TYPE.math_label).move_to(LEFT * 3.5 + UP * 2.15)
        lhs = self.column("data.identity.sum_head", dec, T.TEXT,
                          f"{T.X_l(0)} + sum Delta", "data.summary.norm_last")
        rhs = self.column("data.identity.x_head", dec, T.X, T.X_l(L), "data.summary.norm_last")
        lhs.move_to(LEFT * 4.6 + DOWN * 0.03)        # clear of the bar chart's tick labels
        rhs.next_to(lhs, RIGHT, buff=0.9)
        mid = txt("=", T.TYPE.heading).move_to((lhs[1].get_right() + rhs[1].get_left()) / 2)
        bound = inline(txt("every entry within", S, T.MUTED),
                       Num(ident["bound"]["bound"], "data.identity.bound.bound",
                           ident["bound"]["decimals"], S, T.HIGHLIGHT, prefix="< "),
                       txt("(float32 rounding)", S, T.MUTED)).next_to(eq, DOWN, buff=0.25)
        # "And nothing else ever changes X": the identity
        self.put("eq", eq)
        # "The embedding plus the 60 updates": the sum, and every update's bar in turn
        self.hold_until_cue(1)
        self.put("lhs", lhs, run_time=0.5)
        steps = [r for k, r in self.bars.items() if k[0] == "step"]
        if steps:
            self.hold_until_said(1, "the " + str(d["check"]["n_updates"]))
            self.flash(steps, 1.0, 0.05, 1.5)
        # "is X of 30": the same column, and on the plane the sum lands on X's tip
        self.hold_until_said(1, "is X")
        total = self.plane.arrow((0, 0), self.stages[-1]["xy"], T.HIGHLIGHT, 3)
        self.play(FadeInPlace(mid), FadeInPlace(rhs), PlaneStep(self.plane, [total]),
                  run_time=self.quick(0.12, 1.2))
        self.shown["mid"], self.shown["rhs"] = mid, rhs
        # "within 0.0001 in every entry"
        self.hold_until_said(1, "within")
        self.put("bound", bound, run_time=0.5)
        self.emphasize(bound[1], run_time=0.9)
        self.hold_until_said(1, "every entry")
        self.emphasize(lhs[1][1], rhs[1][1], run_time=0.8, buff=0.03)


def glyphs(text, source: str, part: str, last: bool = False) -> VGroup:
    """The glyphs of `part` inside a `Text` made from `source` (a Text has one glyph per
    character that is not white space)."""
    at = source.rfind(part) if last else source.find(part)
    start = len("".join(source[:at].split()))
    return VGroup(*text[start:start + len("".join(part.split()))])


class BarsTo(Animation):
    """New bars grow while the chart's linear axis glides to `top` (every bar rescales)."""

    def __init__(self, scene: ResidualStreamScene, new, top: float, k: int, **kw):
        self.scene_, self.new, self.top, self.k = scene, list(new), float(top), k
        self.top0 = scene.bar_max
        super().__init__(scene.bar_group, **kw)

    def create_starting_mobject(self):
        return self.mobject

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        top = self.top0 + a * (self.top - self.top0)
        for r in self.scene_.bars.values():
            share = a if r in self.new else 1.0
            h = max(0.001, share * r.value / top * CHART_H)
            bottom = r.get_bottom()
            r.stretch_to_fit_height(h).move_to(bottom, aligned_edge=DOWN)

    def finish(self) -> None:
        super().finish()
        self.scene_.bar_max = self.top
        self.scene_.set_ticks(self.k)
