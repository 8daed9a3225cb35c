"""The residual_stream scene's closing beats (`SummaryBeats`, a mixin of ResidualStreamScene):
`sizes` (the lengths on the bars, the outlier token, the attention sink) and `identity`
(X^(L) = X^(0) + every update, the two columns equal within float32 rounding).
"""

from __future__ import annotations

import math as _m

import numpy as np

from manim import (DOWN, LEFT, RIGHT, UP, Circumscribe, Create, CurvedArrow, FadeIn, Line, Rectangle,
                   UpdateFromAlphaFunc, VGroup)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.mobjects import Num, inline, math, txt
from . import moments as M
from .scene_parts import COL_ENTRIES, COL_SIZE, ML, S, X_l, appear


math_log10 = _m.log10


class SummaryBeats:
    def beat_sizes(self, beat) -> None:
        """|X|'s growth from the first to the last state, each number with its bar. The plane
        stays away (nothing here is on it); the outlier token is the next beat's (`sink`)."""
        self.ensure_tokens()
        self.hide_plane()
        self.clear_stage()             # the last beat's pieces leave before the bars return
        self.chart_home()
        self.ensure_chart()
        d, v = self.data, self.v
        L_ = T.TYPE.label
        focus_word = d["focus"]["token_text"].lstrip(d["space_mark"])
        grow = inline(math(f"|X|", ML, T.X), txt("of " + focus_word, L_, T.X),
                      txt("goes", L_),
                      self.n(v.summary.norm_first, T.X, L_), txt("\u2192", L_),
                      self.n(v.summary.norm_last, T.X, L_), txt("(about \u00d7", L_),
                      self.n(v.summary.growth_about, T.TEXT, L_, suffix=")"))
        grow.move_to(UP * 1.0)
        # "X of bank goes from 2.18 to 870, about 400 times as long": each number and its bar
        self.put("summary", grow)
        first, last = self.bars.get(("x", 0)), self.bars.get(("x", len(d["x_stages"]) - 1))
        self.hold_until_moment(M.NORM_FIRST)
        self.emphasize(grow[3], *([first] if first is not None else []), run_time=0.8)
        self.hold_until_moment(M.NORM_LAST)
        self.emphasize(grow[5], *([last] if last is not None else []), run_time=0.8)
        self.hold_until_moment(M.GROWTH)
        other = self.n_cues() >= 2 and v.outlier is not None
        self.emphasize(grow[7], run_time=self.to_cue(1 if other else self.n_cues(), 0.8, 0.6))
        if other:
            # "That is bank alone: ... the first token, I, reaches about 24,100" (round 29:
            # the video never said that other tokens differ): written under bank's line
            self.hold_until_cue(1)
            tok = d["outlier"]["token"]
            note = inline(txt(focus_word + " alone; the first token,", L_),
                          txt(tok, L_, T.POINTER), txt(", reaches", L_), math("|X|", ML),
                          txt("\u2248", L_), self.n(v.outlier.max_norm, T.POINTER, L_))
            # a word space after "token,", the comma after the I close to it but not on it
            # (round 31: 'token,I reaches', the second comma shifted onto the I)
            note[2].shift(LEFT * 0.04)
            note[1:].shift(RIGHT * 0.1)
            note.next_to(grow, DOWN, buff=0.3).align_to(grow, LEFT)
            self.keep_inside(note)
            self.put("other", note, anim=appear(note), run_time=0.5)
            self.emphasize(note[1], note[5], run_time=self.to_cue(self.n_cues(), 0.8, 0.6))
        # a breath after the result, then the stage cleared before the next caption comes
        self.wait(0.6)
        self.drop("summary", "other", run_time=0.4)
        self.hide_chart()

    def beat_sink(self, beat) -> None:
        """The outlier first token (against the largest |X| of every other token) and, when it
        is a sink, the share of attention the followed token gives it: its own beat, the
        stage cleared of bank's growth; the bars stay (bank's last, the 870 it is set
        against, is their last)."""
        self.ensure_tokens()
        self.hide_plane()
        self.clear_stage()
        self.hide_chart()         # the inset has its own scale: one |X| scale on screen at a time
        d, v = self.data, self.v
        o = d.get("outlier")
        if not o:
            return
        L_ = T.TYPE.label
        focus_word = d["focus"]["token_text"].lstrip(d["space_mark"])
        rows = []
        if o["is_sink"]:
            lay = v.outlier.attention_layers
            rows.append(inline(self.n(v.outlier.attention_pct, T.TEXT, L_, suffix="%"),
                               txt("of", L_, T.TEXT), txt(focus_word + "'s", L_, T.HIGHLIGHT),
                               txt("attention goes to", L_, T.TEXT),
                               txt(o["token"], L_, T.TEXT)))
            # two short lines: one long line ran into the inset's row names ("...29) I")
            rows.append(VGroup(txt("one query only: " + focus_word + "'s", L_, T.TEXT),
                               inline(txt("(all heads, layers", L_, T.TEXT),
                                      Num(lay[0], decimals=0, size=L_, color=T.TEXT),
                                      txt("to", L_, T.TEXT),
                                      Num(lay[1], decimals=0, size=L_, color=T.TEXT,
                                          suffix=")"))
                               ).arrange(DOWN, buff=0.12, aligned_edge=LEFT))
        box = VGroup(*rows).arrange(DOWN, buff=0.22, aligned_edge=LEFT) if rows else VGroup()
        if rows:
            box.move_to(UP * 0.9).align_to(LEFT * 5.9, LEFT)
            self.keep_inside(box)
        tok = self.tok.get(o["position"], self.token_row)
        inset = self.sink_inset(o["max_layer"])
        # the lengths first alone, centre stage (round 23: the left half stood empty ~10 s);
        # they move over to the right when the key's formula and the share come
        dx = inset.get_center()[0]
        inset.shift(LEFT * dx)
        slid = []

        def slide():
            if not slid:
                slid.append(True)
                self.play(*[m.animate.shift(RIGHT * dx) for m in
                            (inset.head, inset.others, inset.big, inset.focus)], run_time=0.6)
        # "No other token's X ever passes 870": the inset's scale and that row
        self.hold_until_moment(M.OTHERS)
        self.put("inset_head", inset.head, run_time=0.5)
        self.put("inset_others", inset.others, anim=self.grow_row(inset.others), run_time=0.8)
        self.emphasize(inset.others[2], run_time=0.8)      # bank's last length, 870
        # "... but the first, I: it grows to 24,100 at X of 12": its token, its bar
        self.hold_until_moment(M.FIRST_TOKEN)
        self.point_at(tok, run_time=0.9)
        self.hold_until_moment(M.OUTLIER_NORM)
        self.put("inset_big", inset.big, anim=self.grow_row(inset.big), run_time=1.0)
        # "... while bank is 158 there": a sliver on the same scale
        self.put("inset_focus", inset.focus, anim=self.grow_row(inset.focus),
                 run_time=self.to_cue(1, 0.8, 0.5))
        if len(rows) < 2:
            return
        share_cue = 1
        if d.get("copies") is not None and self.n_cues() >= 3:
            # "That length never reaches W K: I's keys ... are made from its normalised copy":
            # the key's formula, under where the share will go (length and share kept apart)
            self.hold_until_cue(1)
            slide()
            note = VGroup(math('K = "RMSNorm"(X) W_K', ML),
                          txt("length and attention: link not measured", L_, T.TEXT))
            note.arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            note.move_to(DOWN * 0.9).align_to(LEFT * 5.9, LEFT)
            self.keep_inside(note)
            self.put("sink_key", note, run_time=0.8)
            share_cue = 2
            # "That length never reaches W K": I's long bar and the key's formula, lit together
            self.emphasize(inset.big[1], note, run_time=self.to_cue(share_cue, 1.0))
        # "Bank gives it 67 percent of its attention: an attention sink": an arrow from bank
        # to the sink, the share, the name and the layers it is averaged over
        self.hold_until_cue(share_cue)
        slide()
        focus = self.tok[d["focus"]["token"]]
        start = focus.get_corner(DOWN + LEFT) + RIGHT * 0.15 + DOWN * 0.04
        end = tok.get_bottom() + DOWN * 0.04
        # a long sentence: a flatter arc, so its dip (about chord x angle / 8) stays above
        # the inset's heading; a short one keeps 0.8
        chord = float(np.linalg.norm(end - start))
        arc = CurvedArrow(start, end, angle=-min(0.8, 3.6 / max(chord, 1e-6)), color=T.ATTN,
                          stroke_width=3, tip_length=0.16)
        self.put("sink", rows[0], run_time=0.6)
        # the arc drawn from bank to the sink while "averaged over all heads ..." is said
        self.put("sink_arc", arc, anim=Create(arc), run_time=self.to_moment(M.SHARE, 0.8, 0.8))
        self.hold_until_moment(M.SHARE)
        self.emphasize(rows[0][0], run_time=0.8)
        self.put("sink_layers", rows[1], run_time=0.6)
        self.emphasize(rows[1], tok, run_time=self.to_cue(self.n_cues(), 1.0))

    @staticmethod
    def grow_row(row):
        """A row of the inset: its name and number fade in while its bar grows from the left."""
        from manim import AnimationGroup, FadeIn, GrowFromEdge
        return AnimationGroup(FadeIn(row[0]), GrowFromEdge(row[1], LEFT), FadeIn(row[2]))

    def sink_inset(self, j: int) -> VGroup:
        """Lengths on one linear scale, where the plane was: the outlier token's |X^(j)|, the
        followed token's |X^(j)| (a sliver) and the largest |X| of any other token at any
        layer; a baseline and the scale's two ends (0 and the outlier's length) below."""
        d, v = self.data, self.v
        lab = T.TYPE.label
        o = d["outlier"]
        o_norm, f_norm = o["max_norm"]["value"], d["x_norms"][j]["value"]
        others = o["others_max_norm"]["value"]
        top = max(o_norm, f_norm, others)
        w = 2.4
        focus_word = d["focus"]["token_text"].lstrip(d["space_mark"])
        rows = VGroup()
        for name, value, shown, color, prefix in (
                (o["token"], o_norm, v.outlier.max_norm, T.TEXT, ""),
                (focus_word, f_norm, v.x_norms[j], T.HIGHLIGHT, ""),
                ("any other", others, v.outlier.others_max_norm, T.MUTED, "\u2264 ")):
            word = txt(name, lab, color)
            bar = Rectangle(width=max(0.03, w * value / top), height=0.3, stroke_width=0,
                            fill_color=T.X, fill_opacity=1)
            rows.add(VGroup(word, bar, self.n(shown, T.X, lab, prefix=prefix)))
        name_w = max(r[0].width for r in rows)
        for k, r in enumerate(rows):
            r[0].move_to([0, -0.6 * k, 0], aligned_edge=LEFT)
            r[1].move_to([name_w + 0.2, -0.6 * k, 0], aligned_edge=LEFT)
            r[2].next_to(r[1], RIGHT, buff=0.12)
        x0 = name_w + 0.2
        base = Line([x0, 0.3, 0], [x0, -1.5, 0], stroke_width=2, color=T.MUTED)
        head = VGroup(inline(math("|X|", ML, T.X),
                             txt("on one linear scale", lab, T.MUTED)),
                      inline(txt(o["token"] + ", " + focus_word + ":", lab, T.TEXT),
                             math(f"\"at\" {X_l(j)}", ML, T.TEXT),
                             txt("; others: any layer", lab, T.TEXT))
                      ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        head.next_to(VGroup(rows, base), UP, buff=0.3).align_to(rows, LEFT)
        g = VGroup(VGroup(head, base), rows).move_to(RIGHT * 3.9 + UP * 0.6)
        self.keep_inside(g)
        g.head, g.big, g.focus, g.others = VGroup(head, base), rows[0], rows[1], rows[2]
        return g

    def running_entries(self, k: int, nums, count) -> VGroup:
        """X after k updates (the plan's stage k): its first entries where the sum's column
        has them (`nums`), and the count k where the sum's name has it (`count`)."""
        dec = int(self.data["identity"]["decimals"])
        st = self.v.stages[k]
        col = VGroup(*[Num(x, decimals=dec, size=COL_SIZE, color=T.TEXT)
                       for x in list(st.head)[:COL_ENTRIES]])
        col.arrange(DOWN, buff=0.1, aligned_edge=RIGHT).align_to(nums, UP).align_to(nums, RIGHT)
        k_num = Num(st.index, decimals=0, size=T.TYPE.label).move_to(count)
        out = VGroup(col, k_num)
        out.k = k
        return out

    def beat_identity(self, beat) -> None:
        """X^(L) = X^(0) + every update: every update's bar flies into the sum's column, whose
        entries run from X^(0)'s through X after each update while its count steps to 60; then
        X^(L)'s equal column, and the float32 bound with where it comes from (post-LN: how far
        each LayerNorm moves X)."""
        self.ensure_tokens()
        self.hide_plane()          # the columns say it; the plane left with the journey
        self.clear_stage()
        self.chart_home()
        self.ensure_chart()
        d, v = self.data, self.v
        ident = d["identity"]
        if ident is None:
            msg = inline(txt("each LayerNorm moves X by", T.TYPE.label),
                         Num(v["check"].min_ln_change, decimals=2, size=T.TYPE.label),
                         txt("to", T.TYPE.label),
                         Num(v["check"].max_ln_change, decimals=2, size=T.TYPE.label))
            self.put("id", msg.move_to(LEFT * 3.6 + UP * 0.6))
            return
        L, dec = self.L, ident["decimals"]
        if self.chart is not None and self.chart_key[0] in self.chart.submobjects:
            # the columns reach down to the bars' colour key: the key has done its job
            shown = [e for e in self.chart_key if e not in getattr(self, "key_for", {}).values()]
            self.play(*[FadeOutPlace(e) for e in shown], run_time=0.3)
            self.chart.remove(self.chart_key[0])
            self.remove(*shown)
        # in words (round 35: the sum's Delta_attn^(l) scripts were ~8 px at 480p): X^(L) =
        # X^(0) + L attention updates + L FFN updates, each count the plan's
        lab = T.TYPE.label
        eq = inline(math(f"{X_l(L)} = {X_l(0)} +", ML, T.TEXT).scale(1.2),
                    Num(v.model.n_layers, decimals=0, size=lab, color=T.ATTN),
                    txt("attention updates", lab, T.ATTN), txt("+", lab),
                    Num(v.model.n_layers, decimals=0, size=lab, color=T.FFN),
                    txt("FFN updates", lab, T.FFN), buff=0.15).move_to(LEFT * 0.5 + UP * 1.9)
        self.keep_inside(eq)
        iv = v.identity
        lhs = self.column(iv.sum_head, dec, T.TEXT,
                          inline(math(f"{X_l(0)} +", ML, T.TEXT),
                                 Num(v["check"].n_updates, decimals=0, size=lab),
                                 txt("updates", lab), buff=0.15), v.summary.norm_last)
        rhs = self.column(iv.x_head, dec, T.X, X_l(L), v.summary.norm_last)
        lhs.move_to(LEFT * 2.0 + UP * 0.07)        # centre stage: the plane has left
        rhs.next_to(lhs, RIGHT, buff=0.9)
        mid = txt("=", T.TYPE.heading).move_to((lhs[1].get_right() + rhs[1].get_left()) / 2)
        # (the largest error measured is float noise itself, different on every CPU: only the
        # fixed bound is written; test_cross_machine caught 0.000024 vs 0.000028)
        # where the bound comes from (round 35: "never explained"): each float32 sum keeps
        # about 7 significant digits
        keeps = inline(txt("each sum keeps about", T.TYPE.label, T.TEXT),
                       Num(iv.digits, decimals=0,
                           size=T.TYPE.label),
                       txt("digits:", T.TYPE.label, T.TEXT))
        bound = VGroup(VGroup(keeps, txt("rounding adds at most", T.TYPE.label, T.TEXT)
                              ).arrange(DOWN, buff=0.12, aligned_edge=LEFT),
                       Num(iv.bound.bound, decimals=int(iv.bound.decimals), size=T.TYPE.label,
                           color=T.TEXT),
                       txt("measured, every entry:", T.TYPE.label, T.TEXT),
                       inline(txt("below", T.TYPE.label, T.TEXT),
                              Num(iv.measured.bound, decimals=int(iv.measured.decimals),
                                  size=T.TYPE.label, color=T.TEXT))
                       ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        bound[2].shift(DOWN * 0.15)
        bound[3].shift(DOWN * 0.15)
        bound.next_to(rhs[1], RIGHT, buff=0.6)        # beside the columns it is about
        # "And nothing else ever changes X": the identity
        self.put("eq", eq)
        # "The embedding plus the 60 updates": the sum, and every update's bar in turn
        self.hold_until_cue(1)
        steps = [r for k, r in self.bars.items() if k[0] == "step"]
        # the sum's name first; its entries come only once the updates have flown into it
        # (round 28: the sum was there before the bars reached it)
        self.put("lhs", lhs, anim=FadeInPlace(VGroup(lhs[0])) if steps else None,
                 run_time=0.5)
        if steps:
            # "plus the 60 updates": a copy of every update's bar, in order, travels up into
            # the sum's column (review 26: the sum was a still equation)
            self.hold_until_moment(M.UPDATES)
            flying = [r.copy() for r in steps]
            self.add(*flying)
            target = lhs[1].get_center()
            run = max(1.5, min(5.0, self.said(M.IS_X) - self.time - 0.2))
            # the sum happening (round 35: "stated, not shown"): the column starts as X^(0)'s
            # entries and the count at 0; as each update lands, the entries become X after
            # that many updates (the plan's stages) and the count steps up, to 60
            nums, count = lhs[1][1][0], lhs[0][1]
            shell = VGroup(lhs[1][0], lhs[1][1][1], lhs[1][2])
            ticking = self.running_entries(0, nums, count)
            count.set_opacity(0)                   # the count counts up in its place
            self.play(FadeIn(shell), FadeIn(ticking), run_time=0.3)
            n = len(steps)

            def tick(m, a):
                k = min(n, int(a * (n + 1)))
                if k != m.k:
                    m.become(self.running_entries(k, nums, count))
                    m.k = k

            def fly(m, a, b):
                from manim import rate_functions
                return m.animate(rate_func=rate_functions.squish_rate_func(
                    rate_functions.smooth, a, b)).move_to(target).scale(0.3).set_opacity(0)
            self.one_by_one(fly, flying, 0.08, run,
                            extra=[UpdateFromAlphaFunc(ticking, tick)])
            self.remove(*flying, ticking, shell)
            count.set_opacity(1)
            self.add(lhs[1])
            self.play(FadeIn(lhs[2:]), run_time=0.4)
        # "is X of 30": the same column
        self.hold_until_moment(M.IS_X)
        self.play(FadeInPlace(mid), FadeInPlace(rhs), run_time=self.quick(0.12, 1.2))
        self.shown["mid"], self.shown["rhs"] = mid, rhs
        # "within 0.0001 in every entry"
        # "Each sum keeps about 7 significant digits": written as that sentence starts
        digits = self.cue_with("digits")
        if digits is not None:
            self.hold_until_cue(digits)
            self.put("keeps", bound[0][0], run_time=0.5)
            # (round 37: a 4.9 s still while the rounding was said) each clause lit while it
            # is said, then the entries compared pair by pair to the beat's end
            self.emphasize(bound[0][0][1], run_time=max(0.8, self.said(M.WITHIN) - self.time
                                                        - 0.1))
        self.hold_until_moment(M.WITHIN)
        self.put("bound", VGroup(*([] if digits is not None else [bound[0][0]]), bound[0][1],
                                 bound[1]), run_time=0.5)
        self.emphasize(bound[1], run_time=max(0.9, self.said(M.EVERY_ENTRY) - self.time - 0.1))
        self.hold_until_moment(M.EVERY_ENTRY)
        self.put("measured", bound[2:], run_time=0.5)
        self.emphasize(bound[3], run_time=0.8)
        pairs = list(zip(lhs[1][1][0], rhs[1][1][0]))
        end = self.cue_at(self.n_cues())
        for a, b in pairs:                   # "every entry": each pair of entries in turn
            self.emphasize(a, b, buff=0.03,
                           run_time=max(0.6, (end - self.time - 0.2) / len(pairs)))
