"""Fresh Q, K, V at every layer, shown happening on a few real numbers of one word.

Beats (storyboard `show` names):
- `x`       the sentence as the model's tokens ([CLS]/[SEP] explained), the focus word's X^(l) as a
            column of its first numbers, ⋮, "384 dims", |x|
- `norm`    where the norm sits: post-LN (this model: X arrives normalised, W_Q reads it directly)
            vs pre-norm, two small flow pictures with a dot running through them
- `project` a copy of X flies into W_Q^(l), then W_K^(l), W_V^(l); the entries of Q, K, V (head
            0) appear column by column; the previous layer's Q, K, V stay dimmed on the right
- `update`  the layer's update to X: + Δattn, LN, + ΔFFN, LN (sizes from the plan), then the
            X column becomes X^(l+1)
- `causes`  the camera glides to a panel: old X·new W, new X·new W, new X·old W, each as the
            focus word's attention over the tokens; what changed, measured (cosine within one
            W, total-variation distance of the attention); at a later layer the bars morph
- `check`   the recompute check: max |model - (X W + b)| < bound over every token, head, entry

Every number drawn is a `Num` bound to its plan path; the scene does no model arithmetic.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Arrow, Dot, FadeIn, Indicate,
                   LaggedStart, Line, MoveAlongPath, Rectangle, RoundedRectangle, Transform,
                   VGroup, VMobject)

from scenes import theme as T
from scenes.animations import DimPlace, FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, math, txt
from scenes.motion import VectorColumn, WeightBlock, emphasize, ghost, matvec
from scenes.motion.matvec import row_of

QKV = ("q", "k", "v")
NAME = {"q": "Q", "k": "K", "v": "V"}
COLOR = {"q": T.Q, "k": T.K, "v": T.V}
S = T.TYPE.small
X_AT = np.array([-5.75, 0.35, 0])          # the X column
W_AT = np.array([-2.15, 0.35, 0])         # the W block
QKV_AT = np.array([1.55, 0.35, 0])        # Q, K, V rows
GHOST_SHIFT = 3.05 * RIGHT                 # where the previous layer's Q, K, V go
CAUSES_DOWN = 8.5                          # the causes panel sits below; the camera glides there


SUP = str.maketrans("0123456789()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾")


def sup(base: str, l: int) -> str:
    """X⁽³⁾: the chapter's X^(l) notation in plain text (labels inside sentences)."""
    return base + f"({l})".translate(SUP)


class FreshQKVScene(StoryboardScene):

    def layout(self) -> None:
        self.row_y = {k: QKV_AT[1] + 1.0 - i * 1.0 for i, k in enumerate(QKV)}
        self.rows_layer = None

    def glide(self, to, run_time: float = 1.2) -> None:
        """Move the camera (the pinned chrome follows it)."""
        self.play(self.camera.frame.animate.move_to(to), run_time=run_time)

    # --- helpers ----------------------------------------------------------------------------
    def lp(self, l: int | None = None) -> str:
        return f"data.layers[{self.layer if l is None else l}]"

    def share(self, f: float, lo: float = 0.3) -> float:
        return max(lo, f * self.left())

    def x_column(self, path: str, norm_path: str, l: int) -> VGroup:
        col = VectorColumn(self.value(path), path, show=len(self.value(path)), color=T.X,
                           size=S)
        dots = txt("⋮", S, T.X).next_to(col, DOWN, buff=0.08)
        dims = txt(f"{self.data['shape']['d_model']} numbers", S, T.MUTED)
        norm = Num(float(self.value(norm_path)), norm_path, 2, S, T.MUTED, prefix="length ")
        label = math(T.X_l(l), T.TYPE.math, T.X)
        g = VGroup(label, col, dots, dims, norm)
        label.next_to(col, UP, buff=0.15)
        dims.next_to(dots, DOWN, buff=0.1)
        norm.next_to(dims, DOWN, buff=0.06)
        g.move_to(X_AT)
        g.col, g.label = col, label
        return g

    # --- x --------------------------------------------------------------------------------------
    def beat_x(self, beat) -> None:
        d = self.data
        focus = d["focus"]["positions"]
        toks = VGroup(*[txt(tok, S, T.X if i in focus else T.TEXT,
                            weight="BOLD" if i in focus else "NORMAL")
                        for i, tok in enumerate(d["tokens"])]).arrange(RIGHT, buff=0.28)
        toks.move_to(UP * 2.75)
        model = txt(f"model: {d['model']} (a small BERT; LayerNorm after each add)", S, T.MUTED)
        note = txt("[CLS], [SEP]: marks the model adds at the start and end", S, T.MUTED)
        VGroup(model, note).arrange(DOWN, buff=0.12, aligned_edge=LEFT).next_to(toks, DOWN, 0.2)
        self.tokens = toks
        self.play(LaggedStart(*[FadeIn(t, shift=0.2 * DOWN) for t in toks], lag_ratio=0.2),
                  run_time=self.share(0.18))
        self.play(FadeInPlace(model), run_time=0.6)
        self.play(FadeInPlace(note), Indicate(toks[0], color=T.HIGHLIGHT),
                  Indicate(toks[-1], color=T.HIGHLIGHT), run_time=self.share(0.15))
        self.shown["model"], self.shown["note"] = model, note
        bank = toks[focus[0]]
        self.emphasize(bank, run_time=1.0)
        g = self.x_column(f"{self.lp()}.x_first", f"{self.lp()}.x_norm", self.layer)
        self.play(FadeIn(g.label, target_position=bank), run_time=0.8)
        self.play(LaggedStart(*[FadeIn(n, shift=0.2 * RIGHT) for n in g.col.nums],
                              lag_ratio=0.4), FadeInPlace(VGroup(g.col[0], g.col[2])),
                  run_time=self.share(0.35))
        self.play(FadeInPlace(VGroup(*g[2:])), run_time=0.6)
        self.set_slot("x", g)
        self.point_at(g[4], run_time=self.share(0.6, 0.5))
        self.drop("note", "model", run_time=0.5)

    # --- norm -----------------------------------------------------------------------------------
    def flow(self, parts, y: float, title: str, read_at: int | None) -> VGroup:
        boxes = VGroup()
        for name, color in parts:
            t = txt(name, S, color)
            box = RoundedRectangle(width=max(0.75, t.width + 0.3), height=0.55, corner_radius=0.1,
                                   stroke_color=color, stroke_width=2)
            boxes.add(VGroup(box, t.move_to(box)))
        boxes.arrange(RIGHT, buff=0.32).move_to(RIGHT * 1.3 + UP * y)
        arrows = VGroup(*[Arrow(a.get_right(), b.get_left(), buff=0.04, stroke_width=2,
                                color=T.MUTED, tip_length=0.12, max_tip_length_to_length_ratio=0.5)
                          for a, b in zip(boxes, boxes[1:])])
        head = txt(title, S, T.TEXT).next_to(boxes, UP, buff=0.18, aligned_edge=LEFT)
        g = VGroup(head, boxes, arrows)
        g.boxes = boxes
        if read_at is not None:
            mark = txt("W_Q reads this", S, T.Q).next_to(boxes[read_at], DOWN, buff=0.12)
            g.add(mark)
            g.mark = mark
        return g

    def beat_norm(self, beat) -> None:
        LNc, A, F, Xc = T.LN, T.ATTN, T.FFN, T.X
        post = self.flow([("X", Xc), ("attention", A), ("+", T.TEXT), ("LN", LNc),
                          ("FFN", F), ("+", T.TEXT), ("LN", LNc), ("next X", Xc)], 1.3,
                         "post-LN: this model (MiniLM)", 0)
        pre = self.flow([("X", Xc), ("LN", LNc), ("attention", A), ("+", T.TEXT), ("LN", LNc),
                         ("FFN", F), ("+", T.TEXT), ("next X", Xc)], -1.25,
                        "pre-norm: most recent models (e.g. SmolLM2)", 1)
        pre.mark.become(txt("W_Q reads LN(X)", S, T.Q).next_to(pre.boxes[1], DOWN, buff=0.12))
        self.play(FadeInPlace(post[0]), LaggedStart(*[FadeIn(b, shift=0.15 * RIGHT)
                                                      for b in post.boxes], lag_ratio=0.25),
                  FadeInPlace(post[2]), run_time=self.share(0.2))
        path = VMobject().set_points_as_corners([b.get_center() for b in post.boxes])
        dot = Dot(post.boxes[0].get_center(), radius=0.09, color=T.HIGHLIGHT)
        self.play(MoveAlongPath(dot, path), run_time=self.share(0.25))
        self.remove(dot)
        self.play(*[Indicate(post.boxes[i], color=T.HIGHLIGHT) for i in (3, 6)], run_time=1.0)
        self.play(FadeInPlace(post.mark), run_time=0.5)
        self.point_at(self.shown["x"].label, run_time=1.0)
        self.play(FadeInPlace(pre[0]), LaggedStart(*[FadeIn(b, shift=0.15 * RIGHT)
                                                     for b in pre.boxes], lag_ratio=0.25),
                  FadeInPlace(pre[2]), run_time=self.share(0.35))
        self.play(FadeInPlace(pre.mark), *[Indicate(pre.boxes[i], color=T.HIGHLIGHT)
                                           for i in (1, 4)], run_time=self.share(0.5, 0.6))
        self.shown["norm"] = VGroup(post, pre)
        self.hold_until(self.beat_start + float(beat["duration"]) - 0.6)
        self.drop("norm", run_time=0.5)

    # --- project --------------------------------------------------------------------------------
    def beat_project(self, beat) -> None:
        l = self.layer
        lp = self.lp()
        # the previous layer's Q, K, V become ghosts on the right (kept until this layer's land)
        old = [self.shown.pop(f"row_{k}") for k in QKV if f"row_{k}" in self.shown]
        for m in [self.shown.pop("ghosts", None)]:
            if m is not None:
                self.play(FadeOutPlace(m), run_time=0.3)
        if old:
            nums = [m[1] for m in old]               # the numbers move aside, names fade
            tag = txt(f"layer {self.rows_layer} (earlier)", S, T.MUTED).next_to(nums[0], UP, 0.3)
            tag.shift(GHOST_SHIFT)
            self.play(*[FadeOutPlace(m[0]) for m in old], *[m.animate.shift(GHOST_SHIFT)
                                                           for m in nums], run_time=0.7)
            for m in old:
                self.remove(m[0])
            self.play(*[ghost(m) for m in nums], FadeInPlace(tag), run_time=0.5)
            self.shown["ghosts"] = VGroup(*nums, tag)
        # X: the column for this layer (same numbers the update drew, now read from layer l)
        cur = self.shown.get("x")
        g = self.x_column(f"{lp}.x_first", f"{lp}.x_norm", l)
        if cur is None or getattr(cur, "bound_to", None) != lp:
            if cur is not None:
                self.remove(cur)
            self.add(g)
            self.shown["x"] = g
        g.bound_to = lp
        x_col = self.shown["x"].col
        n = len(QKV)
        for i, k in enumerate(QKV):
            K = NAME[k]
            W = WeightBlock.from_plan(self.plan, f"{lp}.W_{K}", color=COLOR[k], decimals=3)
            label = math(f"W_{K}^(({l}))", T.TYPE.math, COLOR[k]).next_to(W, UP, 0.15)
            more = txt("⋮", S, T.MUTED).next_to(W, DOWN, buff=0.06)
            key = txt(f"{W_ROWS(self)} of {self.data['shape']['d_model']} rows, "
                      f"{W_COLS(self)} of {self.data['shape']['d_head']} cols, head "
                      f"{self.data['show']['head']}", S, T.MUTED).next_to(more, DOWN, 0.06)
            how = txt("each entry: all of X · one column, + a bias", S, T.MUTED).next_to(key, DOWN, 0.06)
            block = VGroup(label, W, more, key, how)
            block.move_to(W_AT)
            self.drop("W", run_time=0.3)
            self.put("W", block, run_time=0.4)
            per = self.share(0.85 / (n - i), 1.2) - 0.5
            at = QKV_AT.copy()
            at[1] = self.row_y[k]
            q = matvec(self, x_col, W, f"{lp}.{k}", color=COLOR[k], run_time=max(1.2, per),
                       result_at=at + 0.55 * RIGHT)
            name = math(f"{K}^(({l}))", T.TYPE.math, COLOR[k]).next_to(q, LEFT, 0.2)
            self.play(FadeIn(name, shift=0.1 * RIGHT), run_time=0.3)
            row = VGroup(name, q)
            self.remove(q)
            self.add(row)
            self.shown[f"row_{k}"] = row
        self.rows_layer = l
        self.emphasize(self.shown["row_q"], color=T.Q, run_time=min(1.0, self.share(0.4, 0.4)))
        self.drop("W", run_time=0.4)

    # --- update ---------------------------------------------------------------------------------
    def beat_update(self, beat) -> None:
        l, lp = self.layer, self.lp()
        u = f"{lp}.update.norms"
        items = [("X", "x", T.X), ("+ Δattn", "d_attn", T.ATTN), ("=", "mid", T.TEXT),
                 ("LN", "ln1", T.LN), ("+ ΔFFN", "d_ffn", T.FFN), ("=", "post", T.TEXT),
                 (f"LN = {sup('X', self.layer + 1)}", "ln2", T.LN)]
        cells = VGroup()
        for name, key, color in items:
            top = txt(name, S, color)
            val = Num(float(self.value(f"{u}.{key}")), f"{u}.{key}", 2, S, color)
            cells.add(VGroup(top, val).arrange(DOWN, buff=0.08))
        cells.arrange(RIGHT, buff=0.55).move_to(DOWN * 2.25 + RIGHT * 0.6)
        head = txt("length after each step:", S, T.MUTED).next_to(cells, LEFT, buff=0.3)
        head.shift(0.13 * DOWN)
        if head.get_left()[0] < -6.9:
            VGroup(head, cells).shift((-6.9 - head.get_left()[0]) * RIGHT)
        self.play(FadeInPlace(head), FadeIn(cells[0], shift=0.15 * UP), run_time=0.6)
        per = self.share(0.55) / (len(cells) - 1)
        for c in cells[1:]:
            self.play(FadeIn(c, shift=0.15 * UP), run_time=max(0.3, 0.5 * per))
            self.play(Indicate(c, color=T.HIGHLIGHT, scale_factor=1.1), run_time=max(0.3, 0.5 * per))
        self.shown["chain"] = VGroup(head, cells)
        # the X column becomes X^(l+1): the numbers the chain's last LN gave
        old = self.shown["x"]
        new = self.x_column(f"{lp}.update.x_next_first", f"{lp}.update.x_next_norm", l + 1)
        new.bound_to = None
        self.play(Transform(cells[-1][1].copy(), new.col.nums, remover=True),
                  DimPlace(old.col, 0.25), run_time=self.share(0.35, 0.8))
        self.play(FadeOutPlace(old), FadeInPlace(new), run_time=0.5)
        self.shown["x"] = new
        cos = VGroup(txt(f"direction: cos({sup('X', l + 1)}, {sup('X', l)}) =", S, T.MUTED),
                     Num(float(self.value(f"{lp}.update.cos_x_next")),
                         f"{lp}.update.cos_x_next", 2, S, T.MUTED)).arrange(RIGHT, buff=0.12)
        cos.next_to(cells, DOWN, buff=0.15)
        self.play(FadeInPlace(cos), run_time=0.4)
        self.shown["chain"].add(cos)
        self.point_at(new.label, run_time=self.share(0.5, 0.6))
        self.hold_until(self.beat_start + float(beat["duration"]) - 0.5)
        self.drop("chain", run_time=0.4)

    # --- causes ---------------------------------------------------------------------------------
    def bars(self, path: str, color, width: float = 0.68, height: float = 0.95) -> VGroup:
        vals = self.value(path)
        g = VGroup()
        for i, v in enumerate(vals):
            r = Rectangle(width=0.36, height=max(0.02, float(v) * height), stroke_width=0,
                          fill_color=color, fill_opacity=0.9)
            r.move_to(RIGHT * i * width, aligned_edge=DOWN)
            g.add(r)
        g.source = path
        return g

    def beat_causes(self, beat) -> None:
        l, lp = self.layer, self.lp()
        c = f"{lp}.causes"
        base = DOWN * CAUSES_DOWN
        rows = [("a", ("old X, new W", f"X^(({l - 1})) W_Q^(({l}))"), T.MUTED),
                ("b", ("model: new X, new W", f"X^(({l})) W_Q^(({l}))"), T.Q),
                ("c", ("new X, old W", f"X^(({l})) W_Q^(({l - 1}))"), T.MUTED)]
        ys = [1.55, 0.15, -1.25]
        panel = self.shown.get("causes")
        x0 = -0.5
        if panel is None:
            frame = self.camera.frame
            head = txt("attention of 'bank' (head 0) over the tokens", S, T.TEXT)
            head.move_to(base + UP * 2.75 + RIGHT * 0.8)
            toks = VGroup(*[txt(t, S, T.X if i in self.data["focus"]["positions"] else T.MUTED)
                            for i, t in enumerate(self.data["tokens"])])
            labels, charts = VGroup(), VGroup()
            for (n, text, color), y in zip(rows, ys):
                lab = self.row_label(text, n)
                lab.move_to(base + UP * (y + 0.4) + LEFT * 4.6)
                ch = self.bars(f"{c}.pattern.{n}", T.Q if n == "b" else T.LN)
                ch.move_to(base + UP * y + RIGHT * x0, aligned_edge=DOWN)
                ch.shift((base[1] + y - ch.get_bottom()[1]) * UP)
                labels.add(lab)
                charts.add(ch)
            axis = VGroup(*[Line(ch.get_corner(DOWN + LEFT) + 0.1 * LEFT,
                                 ch.get_corner(DOWN + RIGHT) + 0.1 * RIGHT, color=T.FAINT,
                                 stroke_width=1) for ch in charts])
            for i, t in enumerate(toks):
                t.move_to([charts[-1][i].get_center()[0], base[1] + ys[-1] - 0.28, 0])
            for lab, ch in zip(labels, charts):
                lab.next_to(ch, LEFT, buff=0.4)
            self.glide(base, 1.2)
            self.play(FadeInPlace(head), FadeInPlace(toks), FadeInPlace(axis), run_time=0.5)
            order = [1, 0, 2]                    # the model first, then each change alone
            for j in order:
                self.play(FadeInPlace(labels[j]),
                          LaggedStart(*[FadeIn(r, shift=0.1 * UP) for r in charts[j]],
                                      lag_ratio=0.15), run_time=self.share(0.12, 0.9))
            panel = VGroup(head, toks, axis, labels, charts)
            panel.labels, panel.charts = labels, charts
            self.shown["causes"] = panel
        else:
            labels, charts = panel.labels, panel.charts
            self.play(self.drop_measured(), run_time=0.4) if "measured" in self.shown else None
            new_labels = VGroup()
            for (n, text, color), lab in zip(rows, labels):
                nl = self.row_label(text, n).move_to(lab, aligned_edge=RIGHT)
                new_labels.add(nl)
            new_charts = VGroup()
            for (n, _, _), ch in zip(rows, charts):
                nc = self.bars(f"{c}.pattern.{n}", T.Q if n == "b" else T.LN)
                nc.shift(ch[0].get_corner(DOWN + LEFT) - nc[0].get_corner(DOWN + LEFT))
                new_charts.add(nc)
            self.play(*[Transform(a, b) for a, b in zip(labels, new_labels)],
                      *[Transform(a, b) for a, b in zip(charts, new_charts)],
                      run_time=self.share(0.25))
            for ch, nc in zip(charts, new_charts):
                ch.source = nc.source
        # what was measured, beside the rows it compares
        mx = VGroup(txt("new X alone moves it", S, T.TEXT),
                    Num(float(self.value(f"{c}.tv_new_x")), f"{c}.tv_new_x", 2, S,
                        T.HIGHLIGHT)).arrange(RIGHT, buff=0.12)
        mw = VGroup(txt("new W alone moves it", S, T.TEXT),
                    Num(float(self.value(f"{c}.tv_new_w")), f"{c}.tv_new_w", 2, S,
                        T.HIGHLIGHT)).arrange(RIGHT, buff=0.12)
        cq = VGroup(txt("(same W) cos of the Qs", S, T.MUTED),
                    Num(float(self.value(f"{c}.cos_new_x_same_w")), f"{c}.cos_new_x_same_w", 2,
                        S, T.MUTED)).arrange(RIGHT, buff=0.12)
        note = txt("moves it = half the summed |difference| of two rows of bars "
                   "(0 same, 1 disjoint)", S, T.MUTED)
        right = charts[0].get_right()[0] + 0.3
        mx.move_to([right, (charts[0].get_center()[1] + charts[1].get_center()[1]) / 2, 0],
                   aligned_edge=LEFT)
        mw.move_to([right, (charts[1].get_center()[1] + charts[2].get_center()[1]) / 2, 0],
                   aligned_edge=LEFT)
        cq.next_to(mx, DOWN, buff=0.08, aligned_edge=LEFT)
        note.move_to(DOWN * (CAUSES_DOWN + 2.05) + RIGHT * 0.2)
        brace_x = VGroup(Line(charts[0].get_right() + 0.1 * RIGHT, mx.get_left() + 0.05 * LEFT,
                              color=T.FAINT, stroke_width=1))
        self.hold_until_cue(2)
        self.play(FadeIn(mx, shift=0.1 * LEFT), FadeInPlace(cq), FadeInPlace(brace_x),
                  *[Indicate(r, color=T.HIGHLIGHT, scale_factor=1.05) for r in charts[0]],
                  run_time=self.share(0.3, 1.0))
        self.hold_until_cue(3)
        self.play(FadeIn(mw, shift=0.1 * LEFT),
                  *[Indicate(r, color=T.HIGHLIGHT, scale_factor=1.05) for r in charts[2]],
                  run_time=self.share(0.3, 1.0))
        self.play(FadeInPlace(note), run_time=0.5)
        self.emphasize(mw if l > 1 else mx, run_time=self.share(0.4, 0.6))
        self.shown["measured"] = VGroup(mx, mw, cq, note, brace_x)
        nxt = self.next_beat()
        if nxt is None or "causes" not in nxt.get("show", []):
            self.hold_until(self.beat_start + float(beat["duration"]) - 1.4)
            self.drop("measured", "causes", run_time=0.4)
            self.glide(np.zeros(3), 1.0)

    def row_label(self, text, n) -> VGroup:
        words, formula = text
        color = T.TEXT if n == "b" else T.MUTED
        return VGroup(txt(words, S, color), math(formula, T.TYPE.math_label, color)).arrange(
            DOWN, buff=0.06, aligned_edge=RIGHT)

    def drop_measured(self):
        m = self.shown.pop("measured")
        return FadeOutPlace(m)

    def next_beat(self):
        beats = self.plan["beats"]
        return beats[self.beat_index + 1] if self.beat_index + 1 < len(beats) else None

    # --- check ----------------------------------------------------------------------------------
    def beat_check(self, beat) -> None:
        lp = self.lp()
        path = f"{lp}.identity_bound.q"
        b = self.value(path)
        line1 = txt(f"redone here as X W + b for every token, head and entry of Q, K, V:", S,
                    T.TEXT)
        bound = Num(float(b["bound"]), f"{path}.bound", int(b["decimals"]), S, T.HIGHLIGHT,
                    prefix="max |model - redo| < ")
        g = VGroup(line1, bound).arrange(DOWN, buff=0.1).move_to(DOWN * 2.3)
        self.play(FadeInPlace(line1), run_time=0.5)
        self.play(FadeIn(bound, shift=0.1 * UP), run_time=0.6)
        self.shown["check"] = g
        self.emphasize(bound, run_time=self.share(0.5, 0.8))
        for k in QKV:
            self.play(Indicate(self.shown[f"row_{k}"], color=COLOR[k]), run_time=0.6)


def W_ROWS(scene) -> int:
    return int(scene.data["show"]["dims"])


def W_COLS(scene) -> int:
    return int(scene.data["show"]["out"])
