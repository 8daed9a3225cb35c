"""Per-head detail of one layer: every head reads the same X with its own W_Q, W_K, W_V; one
head (the beat's `head`) worked through for the focus word with its real numbers; that head's
whole attention matrix; every head's matrix side by side.

Beats (storyboard `show` names):
- `heads`    the sentence; a card per head, its W_Q, W_K, W_V drawn to their d_model x d_head
             shape; the largest cosine between two heads' matrices (nothing is shared)
- `x`        the focus word's X (its first numbers) appears; a copy flies into every head
- `query`    the other cards leave; X goes through the head's W_Q and becomes its query
- `keys`     the query takes X's place; every token's key appears under the token
- `dots`     a copy of the query lands on each key, their dot product drops out below it
             (two one by one, then the rest together)
- `scale`    every dot product is divided by sqrt(d_head): the scores
- `softmax`  the scores turn into bars as high as their weight; the weights and their sum
- `values`   the keys give way to the values; copies shrink to their weights and add up to
             the head's output for the focus word
- `matrix`   the bars become the focus word's row of the head's whole matrix; the other rows
- `diagonal` the cells just below the diagonal ringed, their weights in them, the
             previous-token score from the plan
- `grid`     every head's matrix with its previous-token score; the strongest boxed
Every number drawn is a `Num` bound to its plan path; the scene does no model arithmetic.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Create, Indicate, LaggedStart, Line,
                   Rectangle, ReplacementTransform, SurroundingRectangle, Transform, VGroup,
                   Write)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, RampKey, highlighted, inline, math, txt
from scenes.mobjects.attention import AttentionMatrix, HeadCard, number_row
from scenes.mobjects.text import on_baseline
from scenes.motion.pointer import point_at
from scenes.motion.vector import VectorColumn
from scenes.motion.attention_steps import dot_products, weighted_sum

S = T.TYPE.small
PITCH, TOK_X0 = 1.15, -2.95         # the worked example: token spacing, first token's x
Y_TOK, COL_TOP = 2.6, 2.35          # token labels; top of the key and value columns
Y_DOT, Y_SCORE = 0.55, 0.0          # rows of dot products and scores
BASE, BAR_H, BAR_W = -2.15, 1.45, 0.6   # weight bars: baseline, height of weight 1, width
LEFT_X, LABEL_X = -6.0, -3.55       # query / output columns; right edge of the row labels
PANEL_X = 1.35                      # left edge of the text beside the matrix
EDGE_X = -6.75                      # the frame's left margin


class PerHeadScene(StoryboardScene):

    # --- data -------------------------------------------------------------------------------
    def lay(self) -> tuple[dict, str]:
        i = next(i for i, x in enumerate(self.data["layers"]) if x["layer"] == self.layer)
        return self.data["layers"][i], f"data.layers[{i}]"

    def head(self) -> tuple[dict, str]:
        lay, p = self.lay()
        j = next(j for j, h in enumerate(lay["heads"]) if h["head"] == self.beat["head"])
        return lay["heads"][j], f"{p}.heads[{j}]"

    def sup(self, base: str) -> str:
        """Typst math of a per-head quantity: Q^((0,2)) (layer 0, head 2)."""
        return f"{base}^(({self.layer},{self.beat['head']}))"

    def column(self, values, path: str, decimals: int, color, summary=False,
               length: int | None = None) -> VectorColumn:
        """A head's vector (d_head long, or `length`) as its first numbers and a ⋮."""
        d = self.data
        return VectorColumn(values, path, show=d["show"], decimals=decimals, color=color,
                            length=length or d["shape"]["d_head"], summary=summary)

    def xs(self, j: int | None = None):
        """x of token j (all tokens' without j)."""
        if j is None:
            return [self.xs(j) for j in range(len(self.data["tokens"]))]
        return TOK_X0 + PITCH * j

    def row_label(self, m, y: float):
        return m.move_to([0, y, 0]).align_to([LABEL_X, 0, 0], RIGHT)

    # --- heads and X ------------------------------------------------------------------------
    def beat_heads(self, beat) -> None:
        d, p = self.data, self.lay()[1]
        n, dm, dh = d["shape"]["n_heads"], d["shape"]["d_model"], d["shape"]["d_head"]
        sentence = highlighted(self.plan["sentences"][0], d["focus"]["word"], T.HIGHLIGHT, S)
        sentence.move_to([0, 3.0, 0]).align_to([EDGE_X, 0, 0], LEFT)
        cards = VGroup(*[HeadCard(h) for h in range(n)])
        cards.arrange_in_grid(rows=2, buff=(0.3, 0.3)).move_to([1.6, 0.6, 0])
        names = [math(f"W_{X}", T.TYPE.math_label, T.QUANTITY[X.lower()]) for X in "QKV"]
        legend = inline(*[m.copy() for m in names], txt(f"of every head: its own, {dm} × {dh} "
                                                        f"numbers each", S, T.MUTED))
        legend.next_to(cards, DOWN, buff=0.25).align_to(cards, LEFT)
        parts = [txt("largest |cosine| between two heads' matrices:", S, T.MUTED)]
        for X, m in zip("QKV", names):
            parts += [m, self.num(f"{p}.w_cos.{X}.max_abs", size=S)]
        cos_line = inline(*parts).next_to(legend, DOWN, buff=0.15).align_to(cards, LEFT)
        self.cards = cards
        self.fill_to(None, [
            (1, lambda t: self.put("sentence", sentence, run_time=min(t, 1.2))),
            (4, lambda t: self.play(LaggedStart(*[FadeInPlace(c) for c in cards],
                                                lag_ratio=0.15), run_time=t)),
            (2, lambda t: self.put("legend", VGroup(legend, cos_line), run_time=t)),
            (1, lambda t: self.emphasize(cos_line[2:], run_time=t))])

    def beat_x(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        word = d["focus"]["word"]
        x = T.X_l(self.layer) if d["reads_x"] else f"\"LN\"({T.X_l(self.layer)})"
        col = self.column(lay["x"], f"{p}.x", lay["x_decimals"], T.X, summary=True,
                          length=d["shape"]["d_model"])
        col.at(LEFT_X, 1.2)
        label = inline(math(x, T.TYPE.math_label, T.X), txt(f"of '{word}'", S, T.MUTED))
        label.next_to(col, UP, buff=0.2).align_to([EDGE_X, 0, 0], LEFT)
        group = VGroup(label, col)
        group.col = col
        copies = [col.nums.copy() for _ in self.cards]
        self.fill_to(None, [
            (2, lambda t: self.put("x", group, run_time=t)),
            (1, lambda t: self.emphasize(col, run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[
                c.animate.move_to(card.bars).scale(0.6).set_opacity(0.2)
                for c, card in zip(copies, self.cards)], lag_ratio=0.12), run_time=t)),
            (2, lambda t: self.play(LaggedStart(*[Indicate(c.bars, color=T.HIGHLIGHT,
                                                           scale_factor=1.15)
                                                  for c in self.cards], lag_ratio=0.1),
                                    run_time=t))])
        self.remove(*copies)

    # --- the worked example ---------------------------------------------------------------
    def beat_query(self, beat) -> None:
        h, p = self.head()
        i, x = self.beat["head"], self.shown["x"]
        card = self.cards[i]
        q = self.column(h["q"], f"{p}.q", h["decimals"]["q"], T.Q, summary=True)
        q.at(LEFT_X, -0.55)
        arrow = Arrow([LEFT_X, 0.75, 0], [LEFT_X, -0.45, 0], buff=0.05, color=T.Q,
                      stroke_width=3, max_tip_length_to_length_ratio=0.2)
        w = inline(txt("×", S, T.Q), math(self.sup("W_Q"), T.TYPE.math_label, T.Q),
                   txt("+ b", S, T.Q)).next_to(arrow, RIGHT, buff=0.12)
        note = txt(f"head {i} of layer {self.layer}: written ({self.layer},{i})", S, T.MUTED)
        note.move_to([0, 3.0, 0]).align_to([EDGE_X, 0, 0], LEFT)
        others = VGroup(*[c for c in self.cards if c is not card])
        self.fill_to(None, [
            (1, lambda t: self.emphasize(card, run_time=t)),
            (2, lambda t: self.play(FadeOutPlace(others), FadeOutPlace(self.shown.pop("legend")),
                                    FadeOutPlace(self.shown.pop("sentence")),
                                    card.animate.move_to(w).scale(0.4).set_opacity(0.0),
                                    x.animate.shift(UP * (COL_TOP - x.col.get_top()[1])),
                                    run_time=t)),
            (1, lambda t: self.play(FadeInPlace(note), Create(arrow), FadeInPlace(w),
                                    run_time=t)),
            (3, lambda t: self.play(ReplacementTransform(x.col.copy(), q), run_time=t)),
            (1, lambda t: self.emphasize(q.nums, color=T.Q, run_time=t))])
        self.remove(card)
        self.set_slot("note", note)
        self.arrow_w, self.q = VGroup(arrow, w), q

    def beat_keys(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        word = d["focus"]["word"]
        q, n = self.q, len(d["tokens"])
        tokens = on_baseline([txt(tok, S, T.HIGHLIGHT if j == d["focus"]["pos"] else T.TEXT)
                              .move_to([self.xs(j), 0, 0]) for j, tok in enumerate(d["tokens"])],
                             Y_TOK - 0.07)
        keys = VGroup(*[self.column(h["k"][j], f"{p}.k[{j}]", h["decimals"]["k"], T.K)
                        .move_to([self.xs(j), COL_TOP, 0], aligned_edge=UP) for j in range(n)])
        qlabel = inline(math(self.sup("Q"), T.TYPE.math_label, T.Q), txt(f"of '{word}'", S,
                                                                         T.MUTED))
        klabel = self.row_label(math(self.sup("K"), T.TYPE.math_label, T.K), keys.get_y())
        target = q.copy().shift(UP * (COL_TOP - q.get_top()[1]))
        qlabel.next_to(target, UP, buff=0.12).align_to([EDGE_X, 0, 0], LEFT)
        marks = txt("[CLS], [SEP]: marks the model adds at the start and the end", S, T.MUTED)
        marks.move_to([self.xs(4), Y_DOT, 0])
        specials = any(tok in ("[CLS]", "[SEP]") for tok in d["tokens"])
        self.fill_to(None, [
            (2, lambda t: self.play(FadeOutPlace(self.shown.pop("x")),
                                    FadeOutPlace(self.arrow_w), Transform(q, target),
                                    FadeInPlace(qlabel), run_time=t)),
            (2, lambda t: self.play(Write(tokens), *([FadeInPlace(marks)] if specials else []),
                                    run_time=t)),
            (4, lambda t: self.play(FadeInPlace(klabel), LaggedStart(*[
                FadeInPlace(k) for k in keys], lag_ratio=0.15), run_time=t)),
            (1, lambda t: self.emphasize(keys[d["focus"]["pos"]], color=T.K, run_time=t))])
        self.tokens, self.keys, self.qlabel, self.klabel = tokens, keys, qlabel, klabel
        if specials:
            self.set_slot("marks", marks)

    def beat_dots(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        n = len(d["tokens"])
        dots = number_row(h["dots"], f"{p}.dots", h["decimals"]["dots"], self.xs(), Y_DOT)
        label = self.row_label(math(f"{self.sup('Q')} dot K", T.TYPE.math_label), Y_DOT)
        meet = lambda js, t: dot_products(self, self.q, self.keys, dots, js, t)  # noqa: E731
        top = h["top"]["pos"]
        self.fill_to(None, [
            (1, lambda t: self.drop("marks", run_time=t)),
            (1, lambda t: self.play(FadeInPlace(label), run_time=t)),
            (2, lambda t: meet([0], t)), (2, lambda t: meet([1], t)),
            (3, lambda t: meet(list(range(2, n)), t)),
            (1, lambda t: point_at(self, dots[top], run_time=t, direction=DOWN))])
        self.dots, self.dot_label = dots, label

    def beat_scale(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        n = len(d["tokens"])
        scores = number_row(h["scores"], f"{p}.scores", h["decimals"]["scores"], self.xs(),
                            Y_SCORE, T.ATTN)
        label = self.row_label(inline(txt(f"÷ √{d['shape']['d_head']} =", S),
                                      self.num("data.scale", size=S)), Y_SCORE)
        self.fill_to(None, [
            (1, lambda t: self.play(FadeInPlace(label), run_time=t)),
            (1, lambda t: self.emphasize(label, run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[ReplacementTransform(self.dots[j].copy(),
                                                                       scores[j])
                                                  for j in range(n)], lag_ratio=0.12),
                                    run_time=t))])
        self.scores, self.score_label = scores, label

    def beat_softmax(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        n, top, second = len(d["tokens"]), h["top"]["pos"], h["second"]["pos"]
        bars = VGroup(*[Rectangle(width=BAR_W, height=max(0.01, BAR_H * w), stroke_width=0)
                        .set_fill(T.ATTN, 0.9).move_to([self.xs(j), BASE, 0], aligned_edge=DOWN)
                        for j, w in enumerate(h["weights"])])
        axis = Line([self.xs(0) - 0.5, BASE, 0], [self.xs(n - 1) + 0.5, BASE, 0],
                    color=T.MUTED, stroke_width=2)
        weights = number_row(h["weights"], f"{p}.weights", h["decimals"]["weights"], self.xs(),
                             BASE - 0.27, T.ATTN)
        label = self.row_label(txt("softmax", S, T.ATTN), BASE + 0.75)
        total = self.row_label(inline(txt("weights, sum =", S, T.MUTED),
                                      self.num(f"{p}.weights_sum", size=S)), BASE - 0.27)
        self.fill_to(None, [
            (1, lambda t: self.play(FadeInPlace(label), Create(axis), run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[ReplacementTransform(self.scores[j].copy(),
                                                                       bars[j])
                                                  for j in range(n)], lag_ratio=0.1),
                                    run_time=t)),
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(w) for w in weights],
                                                lag_ratio=0.1), run_time=t)),
            (1, lambda t: self.point_at(bars[top], run_time=t)),
            (1, lambda t: self.emphasize(weights[second], run_time=t)),
            (1, lambda t: self.play(FadeInPlace(total), run_time=t)),
            (1, lambda t: self.emphasize(total, run_time=t))])
        self.bars, self.weights = bars, weights
        self.softmax_rest = VGroup(label, total, axis)

    def beat_values(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        n, top, word = len(d["tokens"]), h["top"]["pos"], d["focus"]["word"]
        values = VGroup(*[self.column(h["v"][j], f"{p}.v[{j}]", h["decimals"]["v"], T.V)
                          .move_to(self.keys[j]) for j in range(n)])
        vlabel = self.row_label(math(self.sup("V"), T.TYPE.math_label, T.V), self.klabel.get_y())
        out = self.column(h["out"], f"{p}.out", h["decimals"]["out"], T.ATTN).at(LEFT_X, -0.85)
        olabel = inline(math("Sigma_j w_j V_j", T.TYPE.math_label, T.ATTN),
                        txt(f"for '{word}'", S, T.MUTED))
        olabel.next_to(out, UP, buff=0.12).align_to([EDGE_X, 0, 0], LEFT)
        self.fill_to(None, [
            (2, lambda t: self.play(ReplacementTransform(self.klabel, vlabel),
                                    LaggedStart(*[ReplacementTransform(k, v) for k, v in
                                                  zip(self.keys, values)], lag_ratio=0.1),
                                    run_time=t)),
            (1, lambda t: self.play(FadeInPlace(olabel), run_time=t)),
            (5, lambda t: weighted_sum(self, values, h["weights"], out, run_time=t)),
            (1, lambda t: self.emphasize(values[top], color=T.V, run_time=t)),
            (1, lambda t: self.emphasize(out, color=T.ATTN, run_time=t))])
        self.values, self.out = values, VGroup(olabel, out)
        self.klabel = vlabel

    # --- the whole matrix, every head -------------------------------------------------------
    def beat_matrix(self, beat) -> None:
        d, lay = self.data, self.lay()[0]
        i, f = self.beat["head"], d["focus"]["pos"]
        m = AttentionMatrix(lay["patterns"][i], d["tokens"])
        m.move_to([0, 0, 0]).align_to([EDGE_X, 0, 0], LEFT).shift(DOWN * 0.1)
        ring = SurroundingRectangle(m.rows[f], color=T.HIGHLIGHT, buff=0.03, stroke_width=2.5)
        ring.set_z_index(1)                     # over the rows that arrive after it
        rest = VGroup(*[r for q, r in enumerate(m.rows) if q != f])
        lines = VGroup(txt(f"head {i} of layer {self.layer}: its whole matrix", S),
                       txt("row: a token asking (its query)", S, T.MUTED),
                       txt("column: a token looked at (its key)", S, T.MUTED),
                       txt("every row adds up to 1", S, T.MUTED),
                       inline(txt("weight", S, T.MUTED),
                              RampKey(txt("0", S, T.MUTED), txt("1", S, T.MUTED), T.ATTN, 1.2,
                                      0.16)))
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.2).move_to([0, 1.6, 0])
        lines.align_to([PANEL_X, 0, 0], LEFT)
        old = VGroup(self.q, self.qlabel, self.tokens, self.values, self.klabel, self.dots,
                     self.dot_label, self.scores, self.score_label, self.weights,
                     self.softmax_rest, self.out)
        self.fill_to(None, [
            (2, lambda t: self.play(FadeOutPlace(old), run_time=t)),
            (2, lambda t: self.play(*[Transform(b, c) for b, c in zip(self.bars,
                                                                      m.rows[f].cells)],
                                    run_time=t)),
            (1, lambda t: self.play(Create(ring), run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[FadeInPlace(r) for r in rest],
                                                lag_ratio=0.15),
                                    FadeInPlace(m.row_labels), FadeInPlace(m.col_labels),
                                    run_time=t)),
            (3, lambda t: self.play(LaggedStart(*[FadeInPlace(x) for x in lines],
                                                lag_ratio=0.3), run_time=t))])
        self.remove(*self.bars, *rest, m.row_labels, m.col_labels)
        self.add(m)
        self.matrix, self.panel, self.ring = m, lines, ring

    def beat_diagonal(self, beat) -> None:
        (h, p), lp = self.head(), self.lay()[1]
        cells = self.matrix.below_diagonal()
        rings = VGroup(*[SurroundingRectangle(c, color=T.HIGHLIGHT, buff=0, stroke_width=2.5)
                         for c in cells])
        nums = VGroup(*[Num(h["below"][q], f"{p}.below[{q}]", h["decimals"]["below"], S,
                            T.BACKGROUND).move_to(c) for q, c in enumerate(cells, start=1)])
        claim = VGroup(txt("each token → the token just before it:", S, T.HIGHLIGHT),
                       inline(txt("mean weight over", S, T.HIGHLIGHT),
                              self.num(f"{lp}.prev.rows", decimals=0, size=S,
                                       color=T.HIGHLIGHT),
                              txt("rows =", S, T.HIGHLIGHT),
                              self.num(f"{lp}.prev.score", size=S, color=T.HIGHLIGHT)))
        claim.arrange(DOWN, aligned_edge=LEFT, buff=0.12).next_to(self.panel, DOWN, buff=0.4)
        claim.align_to(self.panel, LEFT)
        self.fill_to(None, [
            (3, lambda t: self.play(FadeOutPlace(self.ring), LaggedStart(*[Create(r) for r in rings],
                                                              lag_ratio=0.2), run_time=t)),
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(x) for x in nums],
                                                lag_ratio=0.15), run_time=t)),
            (1, lambda t: self.point_at(cells[len(cells) // 2], run_time=t)),
            (2, lambda t: self.play(FadeInPlace(claim), run_time=t)),
            (1, lambda t: self.emphasize(claim[1][-1], run_time=t))])
        self.diag, self.claim = VGroup(rings, nums), claim

    def beat_grid(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        best = lay["prev"]["head"]
        minis = VGroup()
        for h, pattern in enumerate(lay["patterns"]):
            m = AttentionMatrix(pattern, d["tokens"], 0.115, 0.1, labels=False)
            name = txt(f"head {h}", S, T.HIGHLIGHT if h == best else T.MUTED)
            score = self.num(f"{p}.prev_token[{h}]", size=S,
                             color=T.HIGHLIGHT if h == best else T.TEXT)
            minis.add(VGroup(name, m, score).arrange(DOWN, buff=0.06))
        minis.arrange_in_grid(rows=3, buff=(0.3, 0.16)).move_to([0, 0.05, 0])
        minis.align_to([PANEL_X, 0, 0], LEFT)
        head = VGroup(txt(f"every head of layer {self.layer}; under each, its mean", S,
                          T.MUTED),
                      txt("weight on the token just before", S, T.MUTED))
        head.arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        note = inline(txt(f"no other head of layer {self.layer} above", S),
                      self.num(f"{p}.prev.next_best", size=S, color=T.HIGHLIGHT))
        note.next_to(minis, DOWN, buff=0.2).align_to(minis, LEFT)
        head.next_to(minis, UP, buff=0.15).align_to(minis, LEFT)
        box = SurroundingRectangle(minis[best], color=T.HIGHLIGHT, buff=0.06, stroke_width=2.5)
        self.fill_to(None, [
            (2, lambda t: self.play(FadeOutPlace(VGroup(self.panel, self.claim)),
                                    run_time=t)),
            (1, lambda t: self.play(FadeInPlace(head), run_time=t)),
            (5, lambda t: self.play(LaggedStart(*[FadeInPlace(m) for m in minis],
                                                lag_ratio=0.12), run_time=t)),
            (1, lambda t: self.play(Create(box), run_time=t)),
            (2, lambda t: self.play(FadeInPlace(note), run_time=t)),
            (1, lambda t: self.emphasize(minis[lay["prev"]["next_head"]][2], run_time=t)),
            (1, lambda t: self.emphasize(note[-1], run_time=t))])


__all__ = ["PerHeadScene"]
