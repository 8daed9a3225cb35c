"""Context enters Q, K, V: one word in two sentences, the same W at every layer, different X.

Left: a chart of cosines between the word's two vectors, layer by layer (X blue, Q yellow, K
teal, V red; Q, K, V with all heads concatenated); right: the first few numbers of the word's X
and Q in both sentences, and the same W between them.

Beats (storyboard `show` names):
- `sentences` the two sentences are written, the focus word boxed and ringed in both; a table
              of its token, token id and position in each, and what that means for layer 0
              (one X, or X already differs); the empty chart is drawn
- `same`      layer 0: the two X rows come out of the boxes, "=" between them; the same W_Q;
              the two Q rows appear, "="; the four cosines land on 1.00 as one point
- `layers`    layer 1, 2, ...: the rows change to that layer's numbers ("≠" now), the W label
              says its layer, and the chart grows one segment per quantity
- `compare`   the lowest Q/K/V cosine and X's lowest are ringed and quoted from the plan; the
              rows show that quantity at that layer; "same W, different X" is pointed at

Every number drawn is a `Num` bound to its plan path; the scene does no model arithmetic.
"""

from __future__ import annotations

from manim import (DOWN, DR, LEFT, RIGHT, UP, UR, Arrow, Circle, Create, DashedLine, Dot,
                   LaggedStart, Line, SurroundingRectangle, VGroup, Write)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, TickAxes, bracket, inline, math, txt
from scenes.motion import point_at

S = T.TYPE.small
QKV = ("q", "k", "v")
NAME = {"x": "X", "in": "LN(X)", "q": "Q", "k": "K", "v": "V"}
COLOR = {"x": T.X, "in": T.LN, "q": T.Q, "k": T.K, "v": T.V}
DOT = {"v": 0.12, "k": 0.095, "q": 0.07, "in": 0.055, "x": 0.045}   # concentric where equal
PLOT = (5.2, 2.9)                   # chart axes width, height
PANEL_X = 0.15                      # left edge of the numbers panel
ROW_GAP = 0.74
ROWS_INSET = 0.6                    # the rows' left edge, right of the panel's (room for names)


class ContextQKVScene(StoryboardScene):

    def layout(self) -> None:
        d = self.data
        self.keys = ["x"] + ([] if d["reads"]["same_as_x"] else ["in"]) + list(QKV)
        self.drawn = {k: VGroup() for k in self.keys}      # dots per quantity, by layer
        self.rows_layer = None

    # --- pacing ---------------------------------------------------------------------------
    def paced(self, steps: list) -> None:
        """Run `steps` [(weight, fn(run_time))] over 90 % of what is left of the beat."""
        self.fill_to(self.beat_start + float(self.beat["duration"]), steps, fill=0.9)

    # --- pieces ---------------------------------------------------------------------------
    def sentence(self, i: int) -> VGroup:
        c = self.data["contexts"][i]
        word, sent = self.data["word"], c["sentence"]
        text = txt(sent, T.TYPE.label)
        start = sent.lower().find(word.lower())
        # the word's glyphs (Text drops spaces from its submobjects)
        before = len(sent[:start].replace(" ", ""))
        glyphs = text[before:before + len(word.replace(" ", ""))]
        glyphs.set_color(T.TEXT).set_stroke(T.TEXT, 0.6)
        tag = txt(str(i + 1), T.TYPE.label, T.MUTED).next_to(text, LEFT, buff=0.25)
        box = SurroundingRectangle(glyphs, color=T.TEXT, buff=0.06, stroke_width=2)
        pos = inline(txt("position", S, T.MUTED),
                     Num(c["positions"][0], f"data.contexts[{i}].positions[0]", 0, S, T.MUTED))
        pos.next_to(box, DOWN, buff=0.1)
        g = VGroup(tag, text, box, pos)
        g.text, g.box, g.pos = text, box, pos
        return g

    def token_table(self) -> VGroup:
        """Sentence, token, token id, position of the word in both sentences, and what that
        means for layer 0 (from the plan's `match`)."""
        d, size = self.data, T.TYPE.label
        cells = [txt(h, S, T.MUTED) for h in ("sentence", "token", "token id", "position")]
        for i, c in enumerate(d["contexts"]):
            cells += [txt(str(i + 1), size, T.MUTED), txt(" ".join(c["tokens"]), size, mono=True),
                      Num(c["token_ids"][0], f"data.contexts[{i}].token_ids[0]", 0, size),
                      Num(c["positions"][0], f"data.contexts[{i}].positions[0]", 0, size)]
        grid = VGroup(*cells).arrange_in_grid(rows=3, cols=4, buff=(0.5, 0.22))
        m = d["match"]
        if m["identical"]:
            lines = ["same token, same position:", "at layer 0 both start from one X"]
        elif m["same_token"]:
            lines = ["same token, different positions:", "X already differs at layer 0"]
        else:
            lines = ["different tokens:", "X differs from layer 0 on"]
        note = VGroup(*[txt(t, S, T.TEXT) for t in lines]).arrange(DOWN, buff=0.08)
        return VGroup(grid, note).arrange(DOWN, buff=0.35)

    def make_chart(self) -> VGroup:
        d = self.data
        lo, hi = d["axes"]["y_range"]
        L = len(d["layers"])
        self.ax = TickAxes(
            [0, L - 1, 1], [lo, hi, hi - lo], *PLOT,
            x_ticks=[(l, f"data.layers[{l}]") for l in d["layers"]
                     if L <= 12 or l % 5 == 0 or l == L - 1],      # deep models: every 5th
            y_ticks=[(v, f"data.axes.y_ticks[{i}]") for i, v in enumerate(d["axes"]["y_ticks"])])
        a = self.ax.axes
        xname = txt("layer", S, T.MUTED).next_to(self.ax.x_labels, DOWN, buff=0.08)
        head = txt(f"cosine of the two \"{d['word']}\" vectors", S)
        legend = VGroup(*[VGroup(Line(LEFT * 0.15, RIGHT * 0.15, color=COLOR[k], stroke_width=5),
                                 txt(NAME[k], S, COLOR[k])).arrange(RIGHT, buff=0.08)
                          for k in self.keys]).arrange(RIGHT, buff=0.3)
        h = d["heads"]
        note = txt(f"Q, K, V: all {h['n_heads']} heads together ({h['q_width']} numbers)"
                   if h["kv_width"] == h["q_width"] else
                   f"all heads together: Q {h['q_width']} numbers, K and V {h['kv_width']}",
                   S, T.MUTED)
        top = VGroup(head, legend, note).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        top.next_to(a, UP, buff=0.2).align_to(self.ax, LEFT)
        chart = VGroup(top, self.ax, xname)
        chart.to_edge(LEFT, buff=T.EDGE).set_y(-0.25)
        self.chart_head = top
        return chart

    def row(self, key: str, l: int, i: int) -> VGroup:
        """Sentence i's first numbers of `key` at layer l: "1 [a b c d …]"."""
        vals = self.data["first"][key][l][i]
        d = self.data["first"]["decimals"][key][l]
        nums = VGroup(*[Num(v, f"data.first.{key}[{l}][{i}][{j}]", d, T.TYPE.label, COLOR[key])
                        for j, v in enumerate(vals)])
        for j, n in enumerate(nums):            # fixed columns, right-aligned
            n.move_to(RIGHT * (1.12 + 0.16 * (d - 2)) * j, aligned_edge=RIGHT)
        more = txt("…", T.TYPE.label, COLOR[key]).next_to(nums, RIGHT, buff=0.12)
        body = VGroup(nums, more)
        br = VGroup(bracket(0.42, -1).next_to(body, LEFT, buff=0.1),
                    bracket(0.42, +1).next_to(body, RIGHT, buff=0.1))
        tag = txt(str(i + 1), S, T.MUTED).next_to(br[0], LEFT, buff=0.15)
        g = VGroup(tag, br, body)
        g.nums = nums
        return g

    def rows_at(self, key: str, l: int, y: float) -> VGroup:
        r = VGroup(self.row(key, l, 0), self.row(key, l, 1))
        r[1].next_to(r[0], DOWN, buff=ROW_GAP - r[0].height).align_to(r[0], LEFT)
        name = math(T.X_l(l, NAME[key] if key != "in" else "\"LN\"(X)") if key != "x"
                    else T.X_l(l), T.TYPE.math_label, COLOR[key])
        name.next_to(r, LEFT, buff=0.25)
        g = VGroup(name, r)
        g.move_to([0, y, 0]).shift(RIGHT * (self.panel_left + ROWS_INSET - r.get_left()[0]))
        g.rows = r
        return g

    def marks(self, rows: VGroup, same: bool) -> VGroup:
        """"=" (or "≠") between the two rows, one under each shown number."""
        sign = "=" if same else "≠"
        top, bottom = rows.rows[0].nums, rows.rows[1].nums
        return VGroup(*[txt(sign, S, T.TEXT).move_to(
            (a.get_bottom() + b.get_top()) / 2) for a, b in zip(top, bottom)])

    def point(self, key: str, l: int) -> Dot:
        v = self.data["cos"][key][l]
        deep = len(self.data["layers"]) > 12                 # many layers: smaller dots
        return Dot(self.ax.axes.c2p(l, v), radius=DOT[key] * (0.5 if deep else 1.0),
                   color=COLOR[key])

    # --- beats ----------------------------------------------------------------------------
    def beat_sentences(self, beat) -> None:
        s = [self.sentence(0), self.sentence(1)]
        s[0].move_to([-3.55, 2.75, 0])
        s[1].move_to([3.55, 2.75, 0])
        for g in s:
            self.keep_inside(g)
        self.sents = s
        chart = self.make_chart()
        self.chart = chart
        self.panel_left = PANEL_X + 0.6
        self.why = self.token_table().move_to([3.6, 0.6, 0])
        grid = self.why[0]
        self.paced([
            (2, lambda t: self.play(Write(VGroup(s[0][0], s[0][1])), run_time=t)),
            (2, lambda t: self.play(Write(VGroup(s[1][0], s[1][1])), run_time=t)),
            (1, lambda t: self.play(Create(s[0].box), Create(s[1].box), run_time=t)),
            (1, lambda t: self.play(FadeInPlace(grid[0:4]), run_time=t)),
            (1, lambda t: self.play(FadeInPlace(s[0].pos), FadeInPlace(grid[4:8]), run_time=t)),
            (1, lambda t: self.emphasize(s[0].box, run_time=t)),
            (1, lambda t: self.play(FadeInPlace(s[1].pos), FadeInPlace(grid[8:12]), run_time=t)),
            (1, lambda t: self.emphasize(s[1].box, run_time=t)),
            (1, lambda t: self.play(Write(self.why[1]), run_time=t)),
            (3, lambda t: self.play(Create(self.ax), FadeInPlace(chart[0]),
                                    FadeInPlace(chart[2]), run_time=t)),
        ])
        self.add(*s, chart, self.why)

    def show_rows(self, l: int, same: bool | None, t: float, key: str = "q") -> None:
        """Put layer l's X rows, the W line and `key`'s rows in the panel (cross-fading the
        previous ones); marks "=" or "≠" between the two rows."""
        xk = "x" if self.data["reads"]["same_as_x"] else "in"
        xr = self.rows_at(xk, l, 1.4)
        qr = self.rows_at(key, l, -0.9)
        K = NAME[key]
        w = inline(txt("the same for both:", S, T.MUTED),
                   math(f"times W_{K}^(({l})) + b_{K}^(({l}))", T.TYPE.math_label, COLOR[key]),
                   buff=0.25)
        x_mid = xr.rows[1][2][0].get_x()          # under the middle of the numbers
        w.move_to([0, 0.25, 0]).shift(RIGHT * (x_mid - w[1].get_x()))
        arrows = VGroup(*[Arrow([x_mid, y0, 0], [x_mid, y1, 0], buff=0.06, color=T.MUTED,
                                stroke_width=3, max_tip_length_to_length_ratio=0.35)
                          for y0, y1 in ((xr.get_bottom()[1], w.get_top()[1]),
                                         (w.get_bottom()[1], qr.get_top()[1]))])
        mk = VGroup(self.marks(xr, same), self.marks(qr, same)) if same is not None else VGroup()
        head = inline(txt("layer", S), Num(l, f"data.layers[{l}]", 0, S),
                      txt(f"· the first {self.data['first']['dims']} numbers of "
                          f"\"{self.data['word']}\"", S, T.MUTED))
        head.move_to([0, 2.1, 0]).align_to([PANEL_X, 0, 0], LEFT)
        panel = VGroup(head, xr, w, arrows, qr, mk)
        old = self.shown.get("panel")
        if old is None:
            self.shown["panel"] = panel
            self.play(FadeOutPlace(self.why), run_time=0.08 * t)
            self.play(FadeInPlace(head), run_time=0.08 * t)
            # the X rows come out of the two boxed words
            for i in (0, 1):
                src = self.sents[i].box.copy()
                self.play(src.animate.become(SurroundingRectangle(xr.rows[i], color=T.X,
                                                                  buff=0.04)),
                          FadeInPlace(xr.rows[i]), run_time=0.15 * t)
                self.play(FadeOutPlace(src), run_time=0.04 * t)
            self.play(FadeInPlace(xr[0]), run_time=0.06 * t)
        else:
            self.shown["panel"] = panel
            self.play(FadeOutPlace(old), FadeInPlace(VGroup(head, xr)), run_time=0.3 * t)
        self.play(FadeInPlace(w), Create(arrows), run_time=0.12 * t)
        self.play(LaggedStart(FadeInPlace(qr[0]), *[FadeInPlace(r) for r in qr.rows],
                              lag_ratio=0.4), run_time=0.2 * t)
        if len(mk):
            self.play(LaggedStart(*[Write(m) for m in mk], lag_ratio=0.15), run_time=0.1 * t)
        self.rows_layer, self.panel = l, panel

    def beat_same(self, beat) -> None:
        dots = VGroup(*[self.point(k, 0) for k in reversed(self.keys)])
        if self.data["summary"]["layer0_equal"]:        # one number for the one point
            val = inline(txt(", ".join(NAME[k] for k in self.keys) + ":", S, T.MUTED),
                         Num(self.data["cos"]["x"][0], "data.cos.x[0]", 2, S))
        else:
            val = VGroup(*[inline(txt(NAME[k], S, COLOR[k]),
                                  Num(self.data["cos"][k][0], f"data.cos.{k}[0]", 2, S))
                           for k in self.keys]).arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        val.next_to(dots, DR, buff=0.05)
        identical = self.data["match"]["identical"]
        self.paced([
            (6, lambda t: self.show_rows(0, identical, t)),
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(d) for d in dots], lag_ratio=0.4),
                                    FadeInPlace(val), run_time=t)),
            (1, lambda t: point_at(self, dots, run_time=t, direction=DOWN)),
            (1, lambda t: self.emphasize(self.panel[4], run_time=t)),
        ])
        for k, dot in zip(reversed(self.keys), dots):
            self.drawn[k].add(dot)
        self.zero_label = val

    def grow(self, l: int, t: float) -> None:
        """One segment and dot per quantity, from layer l-1 to layer l."""
        segs, dots = [], []
        for k in self.keys:
            a = self.ax.axes.c2p(l - 1, self.data["cos"][k][l - 1])
            b = self.ax.axes.c2p(l, self.data["cos"][k][l])
            segs.append(Line(a, b, color=COLOR[k], stroke_width=3))
            dots.append(self.point(k, l))
        self.play(LaggedStart(*[Create(s) for s in segs], lag_ratio=0.25),
                  LaggedStart(*[FadeInPlace(d) for d in dots], lag_ratio=0.25), run_time=t)
        for k, d in zip(self.keys, dots):
            self.drawn[k].add(d)
        self.bring_to_front(*[self.drawn[k] for k in reversed(self.keys)])   # small on top

    def beat_layers(self, beat) -> None:
        layers = self.data["layers"][1:]
        reads = self.data["reads"]
        how = ([f"{self.data['model']} is post-LN: X arrives normalised,",
                "and the three projections read it as it is"] if reads["same_as_x"] else
               ["a pre-norm model: the projections read", "the normalised X, LN(X) (grey curve)"])
        claim = VGroup(txt("same W, different X", T.TYPE.label, T.HIGHLIGHT),
                       *[txt(line, S, T.MUTED) for line in how])
        claim.arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        claim.move_to([0, -2.2, 0]).align_to([PANEL_X, 0, 0], LEFT)
        steps = [(1, lambda t: self.play(FadeOutPlace(self.zero_label), run_time=t))]
        for l in layers:
            steps.append((3, lambda t, l=l: self.show_rows(l, False, t)))
            steps.append((2, lambda t, l=l: self.grow(l, t)))
            if l == layers[0]:
                steps.append((1, lambda t: self.put("claim", claim, run_time=t)))
                steps.append((1, lambda t: self.emphasize(claim[0], run_time=t)))
        self.paced(steps)

    def beat_compare(self, beat) -> None:
        sm = self.data["summary"]
        lo, xl = sm["lowest"], sm["x_lowest"]
        k, l = lo["key"], lo["layer"]

        def ring(m: dict) -> tuple:
            dot = self.drawn[m["key"]][m["layer"]]
            c = Circle(radius=0.17, color=T.HIGHLIGHT, stroke_width=2.5).move_to(dot)
            label = inline(txt(NAME[m["key"]], S, COLOR[m["key"]]),
                           Num(m["value"], f"data.summary.{path[m['key'] == 'x']}.value", 2, S),
                           txt("at layer", S, T.MUTED),
                           Num(m["layer"], f"data.summary.{path[m['key'] == 'x']}.layer", 0, S))
            return c, label

        path = {False: "lowest", True: "x_lowest"}
        c1, lab1 = ring(lo)
        c2, lab2 = ring(xl)
        labels = VGroup(lab1, lab2).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        labels.next_to(self.ax.axes.c2p(0, self.data["axes"]["y_range"][0]), UR, buff=0.15)
        gap = DashedLine(c2.get_bottom(), c1.get_top(), dash_length=0.06, color=T.HIGHLIGHT,
                         stroke_width=2)
        self.paced([
            (2, lambda t: self.play(Create(c1), FadeInPlace(lab1), run_time=t)),
            (1, lambda t: self.point_at(c1, run_time=t)),
            (2, lambda t: self.play(Create(c2), FadeInPlace(lab2), Create(gap), run_time=t)),
            (5, lambda t: self.show_rows(l, False, t, key=k)),
            (1, lambda t: self.emphasize(self.shown["claim"][0], run_time=t)),
        ])


__all__ = ["ContextQKVScene"]
