"""The residual stream: one token's X as a vector being added to, layer by layer.

Top: the sentence as tokens (the space mark explained), the followed token marked. Left: the
vectors as short columns of real numbers, X^(l) + Delta = the new X. Right: the same addition tip
to tail on one PCA plane through the origin, fitted once to this token's states, with its own
camera (it glides out when X outgrows the view) and a faint trail of earlier X's; the share of
each arrow the plane captures is said. Bottom: honest bars of |X^(l)|, |Delta_attn^(l)| and
|Delta_FFN^(l)| on one linear axis that grows with the story (never clipped).

Beats: `switch` (MiniLM's post-LN block beside SmolLM2's pre-norm block), `tokens`, `x` (X
entering the beat's layer), `plane` (what the PCA plane is), `attn_out`, `mlp_out` (one update
added), `journey` (every remaining layer; `journey_bars` a long stretch of them on the bars
alone; `journey_last` names the largest update on its bar, writes the last X, then the typical
update's share of |X|), `copies` (what W_Q, W_K, W_V read: RMSNorm(X)),
`sizes` (the lengths, the outlier token), `identity` (X^(L) = X^(0) + every update). Every number is a `Num` bound to its plan path. What the
narration names is drawn, ringed, lit or pointed at when it is spoken (`hold_until_cue`, and
`hold_until_moment` for the moments its storyboard names: `moments:`, declared per handler in
its spec.py), so a voiced beat does not sit still while its words go by.

This file: the scene and its beats up to `journey`. `scene_parts`: the pieces (the
vector columns, the plane, the bars). `scene_summary`: the beats `sizes` and
`identity`.
"""

from __future__ import annotations

import numpy as np

from manim import (DOWN, LEFT, RIGHT, UP, DashedLine, FadeIn, GrowFromEdge, Indicate, LaggedStart, Restore, Write,
                   Line, ManimColor, Rectangle, ReplacementTransform, RoundedRectangle, Transform,
                   UpdateFromAlphaFunc, VGroup, config, interpolate_color, smooth,
                   squish_rate_func, there_and_back)

from scenes import theme as T
from scenes.base import StoryboardScene
from scenes.animations import FadeOutPlace
from scenes.mobjects import Num, glyph_span, inline, math, txt
from . import moments as M
from .moments import DIVIDES, SHRINKS
from .plan import FOLD_COS
from .scene_intro import IntroBeats, _arrow, _box
from .scene_parts import (ASIDE, BAR_W, DIP, ML, S, TALL_H, BarsTo, GrowInTurn, StreamPanels,
                          X_l, appear)
from .scene_summary import SummaryBeats
from .view import Data

SHORT_LEG = 6          # a journey leg of at most this many layers lights all its FFN bars at its end
LAYER_TIME = 0.9        # the journey: at least this long a layer (its two additions)
LAYER_MAX = 3.2         # ... at most this long (a beat with few layers, e.g. the late ones)
TAG_AT = LEFT * 3.2 + UP * 1.75   # the journey's "layer l reads |X^(l)|", left of the plane
LAST_HOLD = 1.2         # voiced: the layer the sentence ends on is lit this long
CLOSE_NUM = 28         # a length written on its bar of the close chart (read at 480p)
COL_AT = LEFT * 5.6 + UP * 0.55   # the first column's bracket: its name clear of the note above, its length of the bars' key below


class ResidualStreamScene(IntroBeats, SummaryBeats, StreamPanels, StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.v = Data.at(self.plan)
        self.L = d["n_layers"]
        self.stages, self.step_rows = d["stages"], d["steps"]
        self.plane = None
        self.progress = -1                   # last stage drawn on the plane
        self.x_arrow = None
        self.bars: dict = {}
        self.chart = None
        self.token_row = None
        if self.plan.get("footer"):          # the weights measured, as the captions say them
            self.plan["footer"] = d["model"]["display"]

    def update_footer(self, beat: dict) -> None:
        """The kit's footer (the weights measured, the layer drawn), at the label size (round
        37: the small size read ~10 px)."""
        old = self.footer
        super().update_footer(beat)
        if self.footer is not None and self.footer is not old:
            self.footer.scale(T.TYPE.label / T.TYPE.small, about_edge=DOWN + RIGHT)

    def fill(self, until: float, default: float, share: float = 0.85) -> float:
        """A run time that fills `share` of the time left until scene time `until` (voiced:
        the picture moves while the sentence is said), `default` when silent."""
        if not self.beat.get("cues"):
            return default
        return max(default, share * (until - self.time))

    def to_cue(self, k: int, default: float, share: float = 0.85) -> float:
        return self.fill(self.cue_at(k), default, share)

    def to_moment(self, name: str, default: float, share: float = 0.85) -> float:
        return self.fill(self.said(name), default, share)

    def make_token_row(self, lit: bool = True) -> VGroup:
        """The sentence as token boxes along the top, the followed token lit (drawn once). A
        sentence too long for one row keeps the first token (the sink the `sizes` beat points
        at) and a window around the followed token, each cut marked by an ellipsis.
        `self.tok` maps a token's index to its box (the tokens shown)."""
        d = self.data
        f = d["focus"]["token"]
        boxes = []
        for tok in d["tokens"]:
            focus = lit and tok["index"] == f
            t = txt(tok["text"], T.TYPE.label, T.HIGHLIGHT if focus else T.TEXT)
            box = RoundedRectangle(corner_radius=0.08, width=t.width + 0.24, height=0.5,
                                   stroke_color=T.HIGHLIGHT if focus else T.FAINT,
                                   stroke_width=2.5 if focus else 1.5)
            boxes.append(VGroup(box, t.move_to(box)))
        room, gap = self.HOME_WIDTH - 2 * T.EDGE - 0.4, 0.1
        dots_w = txt("\u2026", T.TYPE.label).width + gap
        width = lambda idx: sum(boxes[i].width + gap for i in idx) + dots_w * (      # noqa
            sum(1 for a, b in zip(idx, idx[1:]) if b > a + 1) + (idx[-1] < len(boxes) - 1))
        keep = [f]
        lo, hi = f, f
        while True:
            grown = False
            for cand in (hi + 1, lo - 1):
                if 0 <= cand < len(boxes) and cand not in keep:
                    trial = sorted(set(keep) | {cand, 0})
                    if width(trial) <= room:
                        keep.append(cand)
                        lo, hi = min(lo, cand), max(hi, cand)
                        grown = True
            if not grown:
                break
        keep = sorted(set(keep) | ({0} if width(sorted(set(keep) | {0})) <= room else set()))
        row = VGroup()
        for a, i in enumerate(keep):
            if a and i > keep[a - 1] + 1:
                row.add(txt("\u2026", T.TYPE.label, T.MUTED))
            row.add(boxes[i])
        if keep[-1] < len(boxes) - 1:
            row.add(txt("\u2026", T.TYPE.label, T.MUTED))
        row.arrange(RIGHT, buff=gap).move_to(UP * 2.85)
        self.tok = {i: boxes[i] for i in keep}
        self.token_row = row
        return row

    def ensure_tokens(self) -> VGroup:
        if self.token_row is None:
            self.make_token_row()
            self.add(self.token_row)
        return self.token_row

    # --- beats --------------------------------------------------------------------------------
    def beat_tokens(self, beat) -> None:
        """The sentence as token boxes, each numbered as it is counted, every space mark lit
        when it is explained, the followed token ringed with the line that names it."""
        d = self.data
        self.clear_stage()
        if self.token_row is not None:
            self.remove(self.token_row)
        boxes = self.make_token_row(lit=False)      # the followed token is lit when named
        self.play(*[FadeIn(b, shift=0.1 * DOWN) for b in boxes], run_time=self.quick(0.2, 1.2))
        m, v = d["model"], self.v
        info = VGroup(
            inline(txt(m["display"] + ":", T.TYPE.label, T.TEXT),
                   Num(v.model.n_layers, decimals=0, size=T.TYPE.label),
                   txt("layers, " + ("pre-norm" if m["norm_placement"] == "pre" else
                                     "post-LN"), T.TYPE.label)),
            inline(Num(v.n_tokens, decimals=0, size=T.TYPE.label),
                   txt("tokens;", T.TYPE.label),
                   txt(d["space_mark"] + " = the space, part of the word's token",
                       T.TYPE.label, T.MUTED)),
            inline(txt("we follow", T.TYPE.label),
                   txt(d["focus"]["token_text"], T.TYPE.label, T.HIGHLIGHT),
                   txt("(token", T.TYPE.label),
                   Num(v.focus.token, decimals=0, size=T.TYPE.label, suffix=")")),
        ).arrange(DOWN, buff=0.25, aligned_edge=LEFT).move_to(UP * 0.6)
        # "a decoder with 30 layers": the model line
        self.put("info", info[0], run_time=self.quick(0.15, 0.8))
        # "... as 7 tokens": each token gets its index, one after another (a count to 7)
        self.hold_until_cue(1)
        idx = VGroup(*[Num(v.tokens[i].index, decimals=0, size=T.TYPE.label, color=T.MUTED)
                       .next_to(b, DOWN, buff=0.1) for i, b in self.tok.items()])
        self.put("info1", info[1], run_time=0.5)
        self.shown["idx"] = idx
        self.one_by_one(lambda n, a, b: FadeIn(n, shift=0.15 * DOWN,
                                               rate_func=squish_rate_func(smooth, a, b)),
                        list(idx), 0.5, 1.4)
        # "the mark before a word is the space that belongs to it": every such mark lights up
        marks = [b[1][0] for i, b in self.tok.items()
                 if d["tokens"][i]["text"].startswith(d["space_mark"])]
        if marks:
            self.hold_until_moment(M.SPACE_MARK)
            self.flash(marks + [info[1][2][0]], 1.6, 0.3, 1.6)
        # "We follow one token, bank": its box, its index, the line saying so
        self.hold_until_cue(2)
        f = d["focus"]["token"]
        self.put("info2", info[2], run_time=0.4)
        box = self.tok[f]
        self.play(box[0].animate.set_stroke(T.HIGHLIGHT, width=2.5),
                  box[1].animate.set_color(T.HIGHLIGHT), run_time=0.4)
        self.play(Indicate(self.tok[f], scale_factor=1.15, color=T.POINTER),
                  Indicate(idx[list(self.tok).index(f)], scale_factor=1.3, color=T.POINTER),
                  Indicate(info[2][3], scale_factor=1.3, color=T.POINTER), run_time=1.0)

    def beat_x(self, beat) -> None:
        """X entering the beat's layer as a column of its first numbers, how many it has, its
        length between bars, and that X^(0) is the token alone (position enters later)."""
        l = self.layer
        lay = self.data["layers"][l]
        self.ensure_tokens()
        self.clear_stage()
        col = self.stage_col(lay["stage_in"], lay["entry_decimals"], X_l(l))
        self.at_home(col)
        col[2].set_opacity(0)         # "|.| = 2.18" waits for "|X| = its length" (below)
        self.put("a", col, anim=appear(col), run_time=self.to_moment(M.NUMBERS, 0.8))
        # "... its embedding, X of zero: 576 numbers": the column's dots are the rest of them
        self.hold_until_moment(M.NUMBERS)
        dims = Num(self.v.d_model, decimals=0, size=T.TYPE.label, color=T.X,
                   suffix=" numbers")
        dims.next_to(col[1], RIGHT, buff=0.3).align_to(col[1][1][1], DOWN)
        self.put("dims", dims, anim=appear(dims), run_time=0.8)
        self.emphasize(col[1], run_time=self.to_moment(M.LENGTH, 0.8))
        # "Bars around a vector mean its length ... only 2.18 long"
        self.hold_until_moment(M.LENGTH)
        bars = inline(math("|" + X_l(l) + "|", ML, T.X),
                      txt("= its length", T.TYPE.label))
        # (round 31: the box round "|.| = 2.18" touched |X^(0)|) clear of the column's length
        bars.next_to(dims, DOWN, buff=0.45).align_to(dims, LEFT).shift(RIGHT * 0.2)
        # (round 37: "|.| = 2.18" came before what |.| means) the name first, then the number
        self.play(appear(bars), run_time=0.4)
        self.shown["bars_note"] = bars
        self.play(col[2].animate.set_opacity(1), run_time=0.4)
        # the number, then its name: one box at a time (two boxes side by side overlapped)
        t = self.to_moment(M.ALONE, 1.0)
        self.emphasize(col[2], run_time=max(0.4, t / 2), buff=0.04)
        self.emphasize(bars[0], run_time=max(0.4, t / 2))
        # "Here X of zero is the token alone; its position enters later, inside attention."
        self.hold_until_moment(M.ALONE)
        alone = VGroup(inline(math(X_l(l), ML, T.X),
                              txt("= the token alone", T.TYPE.label)),
                       txt("position enters inside attention", T.TYPE.label, T.TEXT)
                       ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        alone.next_to(bars, DOWN, buff=0.5).align_to(bars, LEFT)
        self.put("alone", alone, anim=appear(alone), run_time=1.2)
        self.ensure_tokens()
        self.emphasize(self.tok[self.data["focus"]["token"]],
                       run_time=self.fill(self.cue_at(self.n_cues()), 1.0))

    def named(self, name: str) -> bool:
        """The beat's narration says moment `name` (a moment set to 0 in the storyboard, i.e.
        not said in this beat, is planned at the beat's very start)."""
        m = (self.beat.get("moments") or {}).get(name)
        return bool(self.beat.get("cues")) and bool(m) and float(m.get("at", 0)) > 0

    def copy_note(self, which: str, l: int):
        """What the sublayer reads: a normalised copy, with its length."""
        c = self.data.get("copies")
        if c is None:
            return None
        if which == "attn":
            note = inline(txt("attention reads", T.TYPE.label),
                          math(f"\"RMSNorm\"({X_l(l)})", ML, T.LN),
                          txt(", a copy of length", T.TYPE.label),
                          self.n(self.v.copies.norm[l], T.LN, T.TYPE.label))
            note[-1].shift(RIGHT * 0.1)          # a space between "length" and its number
            return note
        # (round 35: attention's copy had its length, the FFN's none)
        note = inline(txt("the FFN reads", T.TYPE.label),
                      txt("its own normalised copy", T.TYPE.label, T.LN),
                      txt(", of length", T.TYPE.label),
                      self.n(self.v.copies.ffn_norm[l], T.LN, T.TYPE.label))
        note[2:].shift(LEFT * 0.08)             # the comma against "copy"
        note[-1].shift(RIGHT * 0.1)
        return note

    def add_step(self, which: str) -> None:
        l = self.layer
        lay = self.data["layers"][l]
        j = lay["step_attn" if which == "attn" else "step_ffn"]
        s = self.step_rows[j]
        dec = lay["entry_decimals"]
        before = s["from"]
        if "a" not in self.shown or getattr(self.shown["a"], "stage", None) != before:
            label = X_l(l) if before == lay["stage_in"] else self.mid_head(l)
            a = self.at_home(self.stage_col(before, dec, label))
            a.stage = before
            self.drop("b", "c", "plus", "eq")
            self.put("a", a)
        op = self.shown.pop("op_box", None)      # layer 0's attention box: the update leaves it
        if op is not None:
            self.add(op)
        self.drop("dims", "bars_note", "alone", "p0", "p1", "p2", "p3", "p4", "rms", "rms_bar")
        # the step's plays keep their proportions; voiced, one scale makes them end by the
        # next keyed step or the beat's end (layer 1: two steps in one beat), never slower than
        # silent (cap 1); each play may round up to a frame: half a frame each is set aside
        q = self.quick()
        run = {"plus": 0.3, "b": q, "eq": 0.3, "c": q, "grow": self.quick(0.2, 1.6),
               "ring": 0.8, "drop": q, "move": 0.5}                 # the plays' silent times
        end = self.next_reveal() - 0.5 * len(run) / config.frame_rate
        every = which == "ffn" and self.named(M.EVERY)
        if every and self.beat.get("cues"):
            # "From layer 2 on, every layer does the same two additions": said over this
            # layer's picture, so the step and its note are done by then
            end = min(end, self.said(M.EVERY) - 0.2)
        # layer 0's FFN: "lengths do not add" is said over the sum (2.90 + 61.4 = 61.4), so
        # the sum is drawn by then and cleared only after it
        moments = self.beat.get("moments") or {}
        lengths = which == "ffn" and bool(self.beat.get("cues")) and self.named(M.LENGTHS)
        # layer 0's FFN: "To fit it, the view zooms out": the step drawn first at the old
        # scale, then the view and the bar axis glide out while that is said
        zoom = which == "ffn" and bool(self.beat.get("cues")) and self.named(M.ZOOM)
        if zoom:
            k = self.pace(self.said(M.ZOOM), sum(run.values()) - run["drop"] - run["move"]
                          - run["ring"], 1.0, cap=2.0)
        elif lengths:
            k = self.pace(self.said(M.LENGTHS), sum(run.values()) - run["drop"] - run["move"],
                          1.0, cap=2.0)
        else:
            k = self.pace(end, sum(run.values()), 1.0, cap=2.0)
        a = self.shown["a"]
        b = self.beside(self.step_col(j, self.sym(which, l)), a)
        plus = txt("+", T.TYPE.heading).move_to((a[1].get_right() + b[1].get_left()) / 2)
        self.put("plus", plus, run_time=run["plus"] * k)
        if op is not None:
            # "Its output, the update delta attention": born small inside the attention box,
            # it travels out of it to its place beside X (round 28: it faded in beside X while
            # the box faded out); the box leaves once it is empty
            # (round 29: the box's word sat over the update's digits as it came out) the
            # word leaves first; the update comes out of the empty box at reading size
            seed = b.copy().move_to(op.get_center())
            self.play(Indicate(op[0], color=T.ATTN, scale_factor=1.1),
                      FadeOutPlace(op[1]), run_time=0.4)
            self.play(FadeIn(seed), run_time=0.3)
            self.remove(seed)
            self.shown["b"] = b
            self.play(Transform(seed, b), run_time=max(0.8, run["b"] * k))
            self.remove(seed)
            self.add(b)
            self.play(FadeOutPlace(op[0]), run_time=0.3)
        else:
            self.put("b", b, run_time=run["b"] * k)
        out_label = X_l(l + 1) if s["to"] == lay["stage_out"] else self.mid_head(l)
        c = self.beside(self.stage_col(s["to"], dec, out_label), b)
        c.stage = s["to"]
        ratio = self.data["summary"].get("ffn0_over_x0")
        if which == "ffn" and l == 0 and ratio is not None:
            # "61.4 long: 28 times the embedding": said beside the update's length
            times = inline(txt("=", S, T.FFN), self.n(self.v.summary.ffn0_over_x0, T.FFN),
                           math(f"\u00d7 |{X_l(0)}|", ML, T.FFN))
            times.next_to(b[2], RIGHT, buff=0.15)       # clear of the bars' key below
            b.add(times)
            self.beside(c, b)                           # the sum moves over to make room
        eq = txt("=", T.TYPE.heading).move_to((b[1].get_right() + c[1].get_left()) / 2)
        self.put("eq", eq, run_time=run["eq"] * k)
        # the sum as an operation (review 24: layer 0's addition was shown as its result only):
        # copies of X's and the update's columns travel over the "=" into the new column and
        # become it; its name and its length come with it
        # (round 27: the digits morphed into each other over the "=" for half a second) the
        # two columns travel into the "=" and shrink there, then the sum comes out of it
        # (round 29: the shrinking copies drew doubled, unreadable digits over the columns)
        # the two columns lit together, then the sum written where it goes, at reading size
        t_c = max(0.6, run["c"] * k)
        self.play(Indicate(a[1], color=T.POINTER, scale_factor=1.05),
                  Indicate(b[1], color=T.POINTER, scale_factor=1.05), run_time=0.45 * t_c)
        self.play(Write(c[1]), FadeIn(c[0]), run_time=0.55 * t_c)
        self.add(c[0], c[1])
        if True:
            # the entries are rounded: the shown ones need not add up in the last digit; said
            # at every sum, right of it (round 28: under the columns, on the bars' key; round
            # 29: layer 1's sums had no note and did not add up as shown)
            r = VGroup(txt("entries", ASIDE, T.TEXT),
                       txt("rounded", ASIDE, T.TEXT)).arrange(DOWN, buff=0.06,
                                                                      aligned_edge=LEFT)
            r.next_to(c[1], RIGHT, buff=0.2)
            self.keep_inside(r)
            self.put("rounded", r, anim=appear(r), run_time=0.3)
        self.shown["c"] = c
        self.play(FadeIn(c[2]), run_time=0.3)
        if getattr(self, "plane_hidden", False) or getattr(self, "chart_hidden", False):
            # the RMSNorm explanation had the stage to itself: the plane and the bars come
            # back for the step, tip to tail
            self.ensure_plane()
            self.ensure_chart()
        if zoom:
            tail = run["ring"] + run["drop"] + run["move"]
            self.advance(s["to"], run["grow"] * k, zoom_at=self.said(M.ZOOM),
                         zoom_end=end - tail - 0.8)
            k = self.pace(end, tail, 1.0, cap=2.0)
        else:
            self.advance(s["to"], run["grow"] * k)
        self.emphasize(c[2], run_time=run["ring"] * k)
        if lengths:
            self.lengths_note(a, b, c, end)
            k = self.pace(end, run["drop"] + run["move"], 1.0, cap=2.0)
        # the result becomes the next input (a cross-fade would draw both)
        self.drop("a", "b", "plus", "eq", "lengths", "rounded", run_time=run["drop"] * k)
        c = self.shown["c"]
        home = self.at_home(c.copy())[1].get_center()
        self.play(c.animate.shift(home - c[1].get_center()),
                  run_time=run["move"] * k)
        self.shown["a"] = self.shown.pop("c")
        if every:
            self.every_layer()

    def at_home(self, col: VGroup) -> VGroup:
        """Column `col` at the left, its bracket centred on COL_AT (its name, above it, may be
        wider, X^(l) + Δ attention: then the column moves right to keep it in the frame)."""
        return self.keep_inside(col.shift(COL_AT - col[1].get_center()))

    @staticmethod
    def beside(col: VGroup, ref: VGroup) -> VGroup:
        """Column `col` right of column `ref` (its bracket, length and any note beside it),
        their brackets level; the names above may overhang, never into each other (round
        35: names in words, wider than the old scripts, pushed the sum into the plane)."""
        ref_right = max(m.get_right()[0] for m in ref[1:])
        col_left = min(m.get_left()[0] for m in col[1:])
        dx = max(ref_right + 0.55 - col_left,
                 ref[0].get_right()[0] + 0.3 - col[0].get_left()[0])
        return col.shift(RIGHT * dx + UP * (ref[1].get_center()[1] - col[1].get_center()[1]))

    def every_layer(self) -> None:
        """"From layer 2 on, every layer does the same two additions": layer 1's picture stays
        (its two arrows on the plane, its bars) and is stamped "+ attention + FFN, x layers
        2...29" in the free middle of the stage, its two bars lit (round 31: the stage stood
        empty for 4.5 s while this was said at the start of the zoom beat)."""
        self.hold_until_moment(M.EVERY)
        last = int(self.data["n_layers"]) - 1
        row = inline(txt("+ attention", T.TYPE.label, T.ATTN), txt("+ FFN", T.TYPE.label, T.FFN),
                     buff=0.3)
        times = txt(f"\u00d7 layers 2\u2026{last}", T.TYPE.heading)
        stamp = VGroup(row, times).arrange(DOWN, buff=0.2)
        stamp.move_to(LEFT * 1.1 + UP * 1.0)
        self.keep_inside(stamp)
        end = self.beat_start + self.beat_end(self.beat)
        self.put("every", stamp, anim=appear(stamp), run_time=0.6)
        self.emphasize(times, run_time=max(0.8, min(2.0, end - self.time - 0.2)))

    def lengths_note(self, a, b, c, end: float) -> None:
        """"Lengths do not add: X of one is 61.4 long": the note (and why) takes the place of
        the copy's (said at the beat's start), the three lengths boxed while it is said."""
        self.hold_until_moment(M.LENGTHS)
        v = self.v.layers[self.layer]
        # "76.6 plus 18.4 would be 95.0, but X of two is 82.3": the sum, set against X's length
        note = inline(txt("lengths do not add:", T.TYPE.label),
                      self.n(v.norm_mid, T.X, T.TYPE.label), txt("+", T.TYPE.label),
                      self.n(v.norm_mlp, T.FFN, T.TYPE.label), txt("=", T.TYPE.label),
                      self.n(v.sum_ffn, T.TEXT, T.TYPE.label),
                      txt("≠", T.TYPE.label, T.POINTER),
                      self.n(self.v.x_norms[self.layer + 1], T.X, T.TYPE.label))
        old = self.shown.get("copy")
        if old is not None:
            note.move_to(old).align_to(old, RIGHT)
        else:
            note.move_to(UP * 2.1)
        head = getattr(self, "plane_head", None)
        if head is not None and note.get_right()[0] > head.get_left()[0] - 0.3:
            # clear of the plane's heading (the sum makes it longer than the copy's note)
            note.shift(LEFT * (note.get_right()[0] - head.get_left()[0] + 0.3))
        self.keep_inside(note)
        self.drop("copy", run_time=0.3)
        self.put("lengths", note, anim=appear(note), run_time=0.8)
        share = max(0.8, 0.375 * (end - self.time - 1.2))
        self.emphasize(a[2], b[2], note[5], run_time=share)     # "... would be 95.0"
        self.emphasize(c[2], note[7], run_time=share)           # "but X of two is 82.3 long"

    def beat_attn_out(self, beat) -> None:
        """Attention's update added to X: the copy it reads (alone in its beat), X + Delta =
        the new X as columns, tip to tail on the plane, its bar on the chart."""
        self.sublayer(beat, "attn")

    def beat_mlp_out(self, beat) -> None:
        """The FFN's update added the same way (layer 0: how many times the embedding it is)."""
        self.sublayer(beat, "ffn")

    def sublayer(self, beat, which: str) -> None:
        alone = len(beat["show"]) == 1
        self.ensure_tokens()
        # a beat that first explains RMSNorm (the stage its own) brings the plane back only
        # for the step (add_step): no plane on stage for the seconds before
        if not (which == "attn" and alone and self.named(SHRINKS)):
            self.ensure_plane()
        self.chart_home()
        self.ensure_chart()
        self.clear_stage(keep=("a",))
        note = self.copy_note(which, self.layer) if alone else None
        if note is not None:
            # "... does not read X itself. It reads a normalised copy, RMSNorm of X, 1.32 long."
            # left of the plane's heading at home (where the plane comes back for the step),
            # clear of the token row
            note.move_to(UP * 2.1).shift(RIGHT * (self.home_head_left() - 0.7
                                                  - note.get_right()[0]))
            self.keep_inside(note)
            # the update is drawn when it is named ("... and adds its update"), else by cue 1
            has = M.UPDATE in (self.beat.get("moments") or {})
            until = self.said(M.UPDATE) if has else self.cue_at(1)
            # the copy's length is written when the voice says it (rms_defined), not before
            later = which == "attn" and M.SHRINKS in (self.beat.get("moments") or {})
            if later:
                # ", a copy of length 1.32" is written whole, when the shrink gives it
                note[-1].set_opacity(0)
                note[-2].set_opacity(0)
            part = VGroup(*note[:-2]) if later else note
            self.put("copy", note, anim=appear(part), run_time=self.fill(until, 0.8, 0.5))
            if later:
                self.remove(part)
                self.add(note)
            self.emphasize(note[1], run_time=self.fill(until, 1.0))
            self.hold_until(until)
            if which == "attn" and M.SHRINKS in (self.beat.get("moments") or {}):
                self.rms_defined(note)
            elif which == "attn" and self.n_cues() > 2:
                self.hold_until_cue(1)
                self.emphasize(note[-1], run_time=self.to_cue(2, 0.8))
                self.hold_until_cue(2)
        self.add_step(which)

    def rms_defined(self, note) -> None:
        """"RMSNorm of X: X divided by its root mean square, then multiplied by a learned gain"
        written where it is first needed; "that turns 2.18 into 1.32": X's length bar, lifted
        from its column, shrinks to the copy's length and becomes the note's |.| = 1.32."""
        l, v = self.layer, self.v
        moments = self.beat.get("moments") or {}
        note[-1].set_opacity(0)                     # the copy's length waits for the shrink
        defn = VGroup(
            math(f"\"RMSNorm\"({X_l(l)}) = {X_l(l)} / \"rms\"({X_l(l)}) dot g",
                 ML, T.TEXT).scale(1.2),
            txt("rms: root mean square;  g: a learned gain", T.TYPE.label, T.TEXT),
        ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        col = self.shown.get("a")             # X's column, when an earlier beat drew it
        if col is not None:
            defn.next_to(col, RIGHT, buff=0.6).align_to(col, UP)
        else:
            defn.move_to([0, 1.2, 0]).align_to([-4.2, 0, 0], LEFT)
        self.keep_inside(defn)
        if DIVIDES in moments:
            self.hold_until_moment(DIVIDES)
        # (round 28: the formula shared the stage with the plane and the bars) the plane and
        # the bars leave while RMSNorm is explained; they come back for the step (add_step)
        self.hide_plane()
        self.hide_chart()
        self.put("rms", defn, anim=appear(defn), run_time=self.to_moment(SHRINKS, 1.2, 0.6))
        self.hold_until_moment(SHRINKS)
        unit = 1.6                                   # scene units per unit of length
        x_len = self.data["x_norms"][l]["value"]
        c_len = self.data["copies"]["norm"][l]["value"]
        left = defn.get_left() + DOWN * (defn.height / 2 + 0.55)
        bar = Rectangle(width=unit * x_len, height=0.22, stroke_width=0, fill_color=T.X,
                        fill_opacity=1).move_to(left, aligned_edge=LEFT)
        x_num = self.n(v.x_norms[l], T.X, T.TYPE.label).next_to(bar, RIGHT, buff=0.15)
        # (round 37: "|.| = 2.18" morphing into "2.18" printed both for half a second) the
        # length's digits travel from the column to the bar's end
        if col is not None:
            fly = x_num.copy().move_to(col[2]).align_to(col[2], RIGHT)
            self.play(fly.animate.move_to(x_num), GrowFromEdge(bar, LEFT), run_time=0.6)
            self.remove(fly)
            self.add(x_num)
        else:
            self.play(FadeIn(x_num), GrowFromEdge(bar, LEFT), run_time=0.6)
        # the copy: X's bar (kept) divided down to the copy's length, in the row under it
        short = Rectangle(width=unit * c_len, height=0.22, stroke_width=0, fill_color=T.LN,
                          fill_opacity=1).move_to(left + DOWN * 0.5, aligned_edge=LEFT)
        c_num = self.n(v.copies.norm[l], T.LN, T.TYPE.label).next_to(short, RIGHT, buff=0.15)
        moving = bar.copy()
        self.shown["rms_bar"] = VGroup(bar, x_num, moving, c_num)
        self.play(Transform(moving, short), ReplacementTransform(x_num.copy(), c_num),
                  run_time=self.to_cue(self.n_cues() - 1, 1.0, 0.4))
        # the copy's length goes up into the note that names it
        # (round 31: the flying copy faded out over the note's own 1.32 fading in) one readable
        # copy moves into the note's place and is swapped for it there
        # (review 31b: its straight path crossed the formula) round it: right, clear of the
        # formula, up to the note's row, then left into its place
        fly = c_num.copy()
        side = max(defn.get_right()[0], note[-1].get_right()[0]) + 0.5
        self.play(fly.animate.move_to([side, c_num.get_center()[1], 0]), run_time=0.3)
        self.play(fly.animate.move_to([side, note[-1].get_center()[1], 0]), run_time=0.3)
        self.play(fly.animate.move_to(note[-1]), note[-2].animate.set_opacity(1), run_time=0.4)
        note[-1].set_opacity(1)
        self.remove(fly)
        # the operation, not only its result: the copy goes into attention (a box right of
        # it); the update comes out of that box when it is named ("Its output ...")
        box = _box("attention", T.ATTN)
        box.next_to(c_num, RIGHT, buff=0.9)
        into = _arrow(c_num.get_right() + RIGHT * 0.1, box.get_left() + LEFT * 0.05, T.LN)
        self.play(appear(VGroup(into, box)), run_time=0.5)
        self.shown["rms_bar"].add(into)          # the arrow leaves with the copy's bars
        self.shown["op_box"] = box
        self.play(moving.animate.move_to(box).stretch_to_fit_width(0.2).set_opacity(0),
                  Indicate(box[0], color=T.ATTN, scale_factor=1.1), run_time=0.9)
        self.hold_until_cue(self.n_cues() - 1)

    def beat_zoom(self, beat) -> None:
        """One middle layer to scale (plan `zoom`): the plane and the bars leave; X^(l) is a
        long arrow from the origin; attention's step grows from its tip, then the FFN's from
        the new tip (each with its name and true length), each at its true angle to the X it
        is added to (two true triangles, unfolded flat: said on screen); then X^(l+1) from the
        origin to the last tip. Each piece is drawn as the voice names it."""
        from manim import Arrow, GrowArrow
        self.ensure_tokens()
        self.clear_all()
        z, v = self.data["zoom"], self.v.zoom
        l, n = z["layer"], z["next_layer"]
        pts = [list(map(float, q)) for q in z["pts"]]
        # X^(l) 8.6 units long from the origin at the left: every arrow at that scale
        o = LEFT * 5.0 + DOWN * 1.5
        k = 8.6 / max(pts[1][0], 1e-9)
        ys = [q[1] for q in pts]
        if max(ys) * k > 2.9:                     # a tall picture: the scale shrinks to fit
            k = 2.9 / max(ys)
        at = [o + RIGHT * q[0] * k + UP * q[1] * k for q in pts]

        def arrow(a, b, color, w=5):
            return Arrow(a, b, buff=0.0, stroke_width=w, color=color, tip_length=0.2,
                         max_tip_length_to_length_ratio=0.3, max_stroke_width_to_length_ratio=20)

        x_ar = arrow(at[0], at[1], T.X, 6)
        # (round 28: the FFN's step, back along nearly the same line, hid attention's) the
        # first step wide, the second thin over it: both seen where they run together
        # (round 36: the plan unfolds the FFN's step to the side where it does not fold back;
        # only when both sides fold, the thin-over-wide pair)
        da, df = at[2] - at[1], at[3] - at[2]
        folds = float(da @ df) < FOLD_COS * float(np.linalg.norm(da) * np.linalg.norm(df))
        a_ar = arrow(at[1], at[2], T.ATTN, 8 if folds else 6)
        f_ar = arrow(at[2], at[3], T.FFN, 3 if folds else 6)
        y_ar = arrow(at[0], at[3], T.X, 4)
        tag = inline(txt("layer", T.TYPE.label), Num(v.layer, decimals=0, size=T.TYPE.label),
                     txt("reads", T.TYPE.label), math(f"|{X_l(l)}| =", ML, T.X),
                     self.n(v.norm_x, T.X, T.TYPE.label))
        tag.move_to(UP * 1.75).align_to(LEFT * 6.4, LEFT)
        below = at[3][1] < at[1][1]          # X^(l+1) ends below X^(l): labels swap sides
        x_lab = math(X_l(l), ML, T.X).next_to(x_ar, UP if below else DOWN, buff=0.15)
        note = VGroup(txt("to scale: every length true;", T.TYPE.label, T.TEXT),
                      txt("each step at its true angle", T.TYPE.label, T.TEXT),
                      txt("to the X it is added to", T.TYPE.label, T.TEXT)
                      ).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        note.next_to(tag, DOWN, buff=0.3).align_to(tag, LEFT)
        # (round 28: X's arrow stood still for 9 s before attention's step) X's arrow grows
        # while "It reads X of 15, 202 long" is said; its length is boxed as it is said
        # (round 29: the tag came 5 s before "It reads X of 15, 202 long") the arrow grows as
        # the layer is introduced, the tag with its length when it is said
        reads = self.named(M.Z_READS)
        if not reads:
            self.put("ztag", tag, anim=appear(tag), run_time=0.5)
        if self.named(M.Z_X):
            self.hold_until_moment(M.Z_X)
        nxt = M.Z_READS if reads else M.Z_ATTN
        grow = self.to_moment(nxt, 1.0, 0.6) if self.named(nxt) else 1.0
        self.put("zx", VGroup(x_ar, x_lab), anim=GrowArrow(x_ar), run_time=max(1.0, grow))
        self.add(x_lab)
        self.play(FadeIn(x_lab), run_time=0.3)
        if reads:
            self.hold_until_moment(M.Z_READS)
            self.put("ztag", tag, anim=appear(tag), run_time=0.5)
        if self.named(M.Z_ATTN):
            self.emphasize(tag[-1], run_time=max(0.6, min(1.5, self.said(M.Z_ATTN)
                                                            - self.time - 0.1)))

        def step_label(ar, name, shown, color):
            # in words, as the voice says it (round 35: Delta_attn^(15)'s scripts ~8 px)
            lab = inline(txt(name + " adds", T.TYPE.label, color),
                         self.n(shown, color, T.TYPE.label))
            lab.next_to(ar, RIGHT, buff=0.2)
            return self.keep_inside(lab)

        a_lab = step_label(a_ar, "attention", v.norm_attn, T.ATTN)
        f_lab = step_label(f_ar, "FFN", v.norm_mlp, T.FFN)
        # each label at its own arrow's far end: attention's left of its tip, the FFN's right
        # of its own (round 28: stacked in the opposite order to the arrows)
        a_lab.next_to(a_ar.get_end(), LEFT, buff=0.25)
        f_lab.next_to(f_ar, RIGHT, buff=0.2)
        if a_lab.get_right()[0] > min(a_ar.get_left()[0], f_ar.get_left()[0]) - 0.1:
            a_lab.shift(LEFT * (a_lab.get_right()[0] - min(a_ar.get_left()[0],
                                                           f_ar.get_left()[0]) + 0.15))
        self.keep_inside(a_lab)
        self.keep_inside(f_lab)
        self.hold_until_moment(M.Z_ATTN)
        self.put("za", a_ar, anim=GrowArrow(a_ar), run_time=self.to_moment(M.Z_FFN, 1.0, 0.4))
        self.put("zal", a_lab, anim=appear(a_lab), run_time=0.5)
        self.hold_until_moment(M.Z_FFN)
        self.put("zf", f_ar, anim=GrowArrow(f_ar), run_time=self.to_moment(M.Z_ANGLE, 1.0, 0.4))
        self.put("zfl", f_lab, anim=appear(f_lab), run_time=0.5)
        self.hold_until_moment(M.Z_ANGLE)
        self.put("znote", note, anim=appear(note), run_time=0.6)
        self.emphasize(a_ar, f_ar, run_time=self.to_moment(M.Z_NEXT, 1.0, 0.6))
        self.hold_until_moment(M.Z_NEXT)
        y_lab = inline(math(f"|{X_l(n)}| =", ML, T.X), self.n(v.norm_out, T.X, T.TYPE.label))
        # beside its own slanted arrow, clear of it (round 36: its box crossed the rising
        # X^(16)) and of the notes and step labels: the first such place along the arrow, on
        # its outer side, else on its inner side
        slope = (at[3][1] - at[0][1]) / max(at[3][0] - at[0][0], 1e-9)
        others = [tag, note, a_lab, f_lab, x_lab]
        for under, frac in [(u, f) for u in (below, not below)
                            for f in (0.45, 0.35, 0.55, 0.65, 0.25)]:
            y_lab.next_to(at[0] + (at[3] - at[0]) * frac, DOWN if under else UP, buff=0.35)
            for x_edge in (y_lab.get_left()[0], y_lab.get_right()[0]):
                y_line = at[0][1] + slope * (x_edge - at[0][0])
                if under and y_lab.get_top()[1] > y_line - 0.22:
                    y_lab.shift(DOWN * (y_lab.get_top()[1] - y_line + 0.22))
                elif not under and y_lab.get_bottom()[1] < y_line + 0.22:
                    y_lab.shift(UP * (y_line + 0.22 - y_lab.get_bottom()[1]))
            if not any(_overlap(y_lab, m) for m in others):
                break
        self.keep_inside(y_lab)
        self.put("zy", y_ar, anim=GrowArrow(y_ar), run_time=1.0)
        self.put("zyl", y_lab, anim=appear(y_lab), run_time=0.5)
        end = self.cue_at(self.n_cues()) if self.beat.get("cues") else self.time + 1.0
        self.emphasize(VGroup(tag[-2:]), y_lab, run_time=max(1.0, min(2.5, end - self.time)))

    def beat_journey_last(self, beat) -> None:
        """`journey` to the last layer, then its largest update named on its bar and the last
        X's length written (`largest_and_last`), then the medians of the updates' shares of
        |X| over the layers, as the voice says them. After a leg drawn up close on the bars
        (`close_walk`), the last layer is drawn there too."""
        self.beat_journey(beat, ending=True, bars_only=getattr(self, "chart_closed", False))

    def beat_journey_bars(self, beat) -> None:
        """The layers up to the beat's `layer` on the bars alone (round 35: 21 layers in 4 s on
        the plane, their arrows a few pixels long): the plane leaves, its path drawn while it
        is away (it comes back zoomed out once to the whole path, one scale from then on);
        "layers a to b" named once, each layer's two update bars and X's new bar grow in one
        sweep, left to right; then the length X reached (`reach`) and the updates' shares on a
        chart of their own (`medians`). A short leg whose FFN lengths are read, one sentence a
        layer (`ffn_read`, "Layer 24's FFN adds 122."), is drawn up close instead: the chart
        closes in on its layers and each FFN length lands on its bar as it is said
        (`close_walk`)."""
        self.beat_journey(beat, bars_only=True)

    def beat_journey(self, beat, ending: bool = False, bars_only: bool = False) -> None:
        """The layers from the last one drawn up to the beat's `layer` (else the last), at
        least LAYER_TIME a layer: each layer's two additions in one play, tip to tail, the
        earlier X's a faint trail, the view and the bar axis gliding out when X outgrows them.
        A leg that names `close` turns the plane's camera to the close-up of the newest states
        (plane.close_views) as it is said; the last leg zooms back out to the whole path.
        The walk keeps one pace; the bar axis is set once with the camera's move and kept.
        A leg that names where X shrinks (`dips`) marks each such layer under its bars as it
        is drawn (those drawn before the words, when they are said). A short leg whose FFN
        lengths are read (`ffn_read`) starts its walk there, each layer's FFN length written
        as it is drawn."""
        start = self.stages[self.progress]["layer"] if self.progress > 0 else None
        d = self.data
        first = 0 if start is None else start + 1
        upto = beat.get("layer")
        last = len(d["layers"]) - 1 if upto is None else int(upto)
        left = d["layers"][first:last + 1]
        if start is not None and start + 1 < self.L:
            self.update_footer({"layer": start + 1})  # the first layer this beat draws
        if left and "tag" in self.shown and not bars_only:
            # the tag names this beat's first layer from its first frame (round 35: "layer 28
            # reads" stayed up while the voice said "Then layer 29")
            self.set_slot("tag", self.layer_tag(left[0]["layer"]))
        self.ensure_tokens()
        if left and self.chart is not None and getattr(self, "chart_hidden", False):
            self.axis_unseen(left[-1]["stage_out"])     # the bars come back on the leg's axis
        if not bars_only:
            self.chart_home()                 # (a bars-only leg before it made them taller)
            # the last beat's pieces leave as the plane and the bars come back, in one play
            # (round 35: the stage stood empty ~1.5 s after the shares' chart)
            gone = [FadeOutPlace(self.shown.pop(k)) for k in list(self.shown) if k != "tag"]
            back = self.plane_returns(True) + self.chart_returns()
            if gone or back:
                self.play(*gone, *back, run_time=0.6)
        self.clear_stage(keep=() if bars_only else ("tag",))
        if bars_only:                        # the bars alone: the plane waits off stage
            if self.plane is None:
                self.ensure_plane(big=True, show=False)
            self.hide_plane()
        else:
            self.ensure_plane(big=True)      # centre stage: the columns have left
        self.ensure_chart()
        for lab in getattr(self, "dimmed_labels", []):   # a leg before hid them beside its marks
            lab.set_opacity(1)
        self.dimmed_labels = []
        self.dip_lines = []
        if not left:
            if ending:
                self.largest_and_last(len(d["x_stages"]) - 1)
            return
        voiced = bool(self.beat.get("cues"))
        said_close = float(((self.beat.get("moments") or {}).get(M.CLOSE) or {}).get("at", 0)) > 0
        # the bar axis is set once per camera move and kept through the leg (the walk's bars
        # never rescale while layers go by): at the close-up, to the leg's top; at the zoom
        # out, to the whole walk's; a leg that still outgrows it rescales once, before it starts
        dips = self.dips_in(left[:-1]) if voiced and not ending and self.named(M.DIPS) else []
        axis = []
        if bars_only:
            pass                             # the plane is away: no camera to move
        elif getattr(self, "close_up", False) and (ending or said_close):
            # "Layers 23 to 28: the view zooms out to the whole path": once, to the whole
            # finished path, kept to the end (no rescale after it)
            if self.named(M.CLOSE):
                self.hold_until_moment(M.CLOSE)
            axis = self.axis_to(len(self.stages) - 1)
            self.set_close_up(False, 1.6, whole=True, extra=axis)
        elif not getattr(self, "whole_final", False) and (
                self.named(M.CLOSE) or (not voiced and first >= 2)):
            # "The plane follows the newest part of the path, close up": X's tip stays in view,
            # the origin leaves it (X's arrow comes in from the frame's edge)
            if voiced:
                self.hold_until_moment(M.CLOSE)
            self.fix_close_scale(left[-1]["stage_out"])
            axis = self.axis_to(left[-1]["stage_out"]) + self.dim_beside(dips)
            self.set_close_up(True, 1.3, extra=axis)
            if first > 1:
                # "... close up: X's own arrow starts at the origin, off the view": said and
                # written, left of the plane under the layer's tag (round 23: X's arrow ran in
                # from the frame's edge unexplained)
                note = VGroup(txt("close up:", T.TYPE.label),
                              txt("the origin, where", T.TYPE.label),
                              txt("X's arrows start,", T.TYPE.label),
                              txt("is off this view", T.TYPE.label)
                              ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
                # beside the plane, under its heading (the plane's own caveat)
                note.next_to(self.plane_head, DOWN, buff=0.35).align_to(self.plane_head, LEFT)
                self.keep_inside(note)
                self.put("close_note", note, anim=appear(note), run_time=0.5)
        elif getattr(self, "close_up", False):
            # a later close-up leg (a draft's): one scale for this leg too, wide enough for it
            self.fix_close_scale(left[-1]["stage_out"])
        if not axis and self.chart is not None:
            late = self.axis_to(left[-1]["stage_out"])
            if late:
                self.play(*late, run_time=0.8)
        end = self.cue_at(self.n_cues()) - 0.25 if voiced else self.time + LAYER_TIME * len(left)
        sweep_end = end - LAST_HOLD if voiced else end
        lit = {}
        ffn_cue = next((i for i, c in enumerate(self.beat.get("cues") or [])
                        if "feed-forward update grows" in c.get("text", "")), None)
        rising = voiced and ffn_cue is not None and not ending and len(left) <= SHORT_LEG
        has = ending
        att_cue = next((i for i, c in enumerate(self.beat.get("cues") or [])
                        if "attention adds a step longer" in c.get("text", "")), None)
        att_pick = next((a["layer"] for a in left[:-1]
                         if f"layer {a['layer']}," in ((self.beat.get("cues") or [{}])
                                                      [att_cue].get("text", "")
                                                      if att_cue is not None else "")), None)
        if att_pick is None:
            att_cue = None
        # "... grows at every layer. And X more than doubles.": the walk ends so that the
        # FFN bars are lit while the growth is said, X's new length at the next sentence
        then_x = ffn_cue + 1 if rising and ffn_cue + 1 < len(self.beat.get("cues") or []) \
            else None
        watch = self.cue_with("orange bars") if rising else None
        if watch is not None and watch < ffn_cue:
            # "Watch the orange bars: layer 23 adds 116; layer 24, 122; ...": the eye led
            # before the walk, each layer drawn as its FFN length is read, then "... grows at
            # each layer" over the finished leg (round 35: 1.3 s a layer, the words after it)
            if self.named(M.FFN_READ):
                self.hold_until_moment(M.FFN_READ)
            else:
                self.hold_until_cue(watch)
            sweep_end = min(end - LAST_HOLD, self.cue_at(ffn_cue) - 0.3)
        elif then_x is not None:
            sweep_end = min(sweep_end, self.cue_at(then_x) - 1.8)
        rows = self.ffn_rows(left) if watch is not None else {}
        if voiced and att_cue is not None and not ending:
            # "One step stands out: in layer 24, attention adds a step longer than ...": said
            # after the walk, over the finished leg (round 27: said while layers 25-26 were
            # drawn), its two bars boxed then
            sweep_end = min(sweep_end, self.cue_at(att_cue) - (2.6 if rising else 0.3))
        # "Where a step shortens X by more than 2, its layer is lit below": the walk keeps one
        # pace; each dip's layer is marked under its bars as the walk draws it, never before
        # it is drawn nor before the words (the dips drawn before them are marked then)
        dips_at = self.said(M.DIPS) + 0.3 if dips else None
        marked: set = set()
        # a long leg names fewer layers: the tag changes at its first and last layer and at
        # each marked one (the footer still names every layer drawn)
        # (no dips said: every layer is named, the tag a counter kept in step with the footer;
        # round 23's tag said "layer 2" while layer 11 was drawn)
        named = ({left[0]["layer"], left[-1]["layer"], *dips} if voiced and dips
                 and len(left) > SHORT_LEG else {a["layer"] for a in left})
        if bars_only and (getattr(self, "chart_closed", False) or
                          (len(left) <= SHORT_LEG and self.named(M.FFN_READ))):
            self.close_walk(left, ending)
            return
        if len(left) > SHORT_LEG or bars_only:
            self.sweep(left, end, ending, bars_only)
            return
        for k, lay in enumerate(left):
            l = lay["layer"]
            new_tag = self.layer_tag(l)
            if l in named or "tag" not in self.shown:
                self.set_slot("tag", new_tag)
            self.update_footer({"layer": l})         # the footer names the layer being drawn
            unit = max(LAYER_TIME, min(LAYER_MAX, (sweep_end - self.time) / (len(left) - k)))
            if has and voiced:                  # the last step is drawn as it is named
                unit = max(LAYER_TIME, (self.said(M.LARGEST) - self.time) / (len(left) - k))
            extra = []
            for at in [t for t in lit if t <= self.time + unit - 1.0]:
                # at its words, not before: the flash starts that far into this layer's play
                # (at least 1 s of it left, else it waits for the next layer's)
                extra += lit.pop(at)(max(0.0, (at - self.time) / unit))
            due = [d for d in dips if d <= l and d not in marked]
            if due and self.time + unit - 0.6 >= dips_at:
                a0 = min(0.6, max(0.0, (dips_at - self.time) / unit))
                for d_ in due:
                    extra = [*extra, *self.dip_mark(d_, a0)]
                    marked.add(d_)
            if l in rows:                        # its FFN length written as it is read
                extra = [*extra, appear(rows[l])]
                self.shown[f"ffn_row{l}"] = rows[l]
            self.advance_together(lay["stage_out"], unit, extra)
        late = [d_ for d_ in dips if d_ not in marked]
        if late:
            self.hold_until(dips_at)
            self.play(*[a for d_ in late for a in self.dip_mark(d_)], run_time=0.8)
        if lit:
            self.hold_until(min(lit))
            self.play(*[a for at in sorted(lit) for a in lit[at](0.0)], run_time=1.0)
        if rising:
            # "the feed-forward update grows at every layer" (round 28: taken on trust, the
            # layers 1.2 s each): once the leg is drawn, its FFN bars lit one after another,
            # left to right, each taller than the one before (with their written lengths)
            if watch is not None:
                self.hold_until_cue(ffn_cue)
            self.play(*self.light_ffn(left, stagger=True), run_time=1.6)
            if rows:
                self.emphasize(VGroup(*rows.values()), run_time=1.0)
        if has:
            self.largest_and_last(left[-1]["layer"] + 1)
            if self.named(M.MEDIANS):
                self.medians_after(end, drop=("tag", "end_tag", "off_plane"))
            return
        # the layer the sentence ends on: its bars and the length it left X at, written, lit
        lay = left[-1]
        l = lay["layer"]
        if then_x is not None:
            self.hold_until_cue(then_x)
        # the FFN lengths have made their point: X's new length takes their place
        self.drop(*[k for k in self.shown if k.startswith("ffn_row")], run_time=0.3)
        after = self.x_after(l + 1)
        if voiced and att_cue is not None:
            pick = d["layers"][att_pick]
            two = [self.bars[("step", pick[k])] for k in ("step_attn", "step_ffn")
                   if ("step", pick[k]) in self.bars]
            self.emphasize(after, *([self.bars[("x", l + 1)]] if ("x", l + 1) in self.bars
                                    else []),
                           run_time=max(0.8, min(1.5, self.cue_at(att_cue) - self.time - 0.1)))
            self.hold_until_cue(att_cue)
            word = inline(txt("layer", T.TYPE.label), Num(self.v.layers[att_pick].layer,
                                                          decimals=0, size=T.TYPE.label),
                          txt(": attention", T.TYPE.label, T.ATTN), txt(">", T.TYPE.label),
                          txt("FFN", T.TYPE.label, T.FFN))
            word.next_to(after, DOWN, buff=0.3).align_to(after, LEFT)
            self.put("pick", word, anim=appear(word), run_time=0.5)
            if two:
                self.emphasize(VGroup(*two), word,
                               run_time=max(1.0, min(3.0, end - self.time)))
            return
        lit_bars = [self.bars[k] for k in (("x", first), ("x", l), ("x", l + 1),
                                           ("step", lay["step_attn"]), ("step", lay["step_ffn"]))
                    if k in self.bars and (k != ("x", first) or first < l)]
        if len(left) <= SHORT_LEG:          # a leg walked one layer at a time: all its FFN bars
            lit_bars += [self.bars[k] for k in (("step", a["step_ffn"]) for a in left[:-1])
                         if k in self.bars]
        # the lit bars side by side get one box (boxes of neighbours would overlap)
        near = [b for b in lit_bars if abs(b.get_x() - self.bar_x(l, "mid")[0]) < 1.2 * self.slot
                or abs(b.get_x() - self.bar_x(l + 1, "mid")[0]) < 0.6 * self.slot]
        far = [b for b in lit_bars if not any(b is n for n in near)]
        lit_bars = ([VGroup(*lit_bars)] if len(left) <= SHORT_LEG else
                    ([VGroup(*near)] if near else []) + ([VGroup(*far)] if far else []))
        if voiced and end - self.time > 0.6:
            self.emphasize(self.shown["tag"], after, *lit_bars,
                           run_time=min(2.0, end - self.time))

    def close_walk(self, left, ending: bool = False) -> None:
        """A short leg on the bars alone, up close (round 37: the late walk's small plane, a list
        of its FFN lengths and the bars at once were three views of one thing, the list 2 s
        behind the voice): the chart closes in on the leg's layers (`chart_close`, once); each
        layer's attention bar grows, its FFN bar lifts, lit, and its length lands on it as its
        sentence says it ("Layer 24's FFN adds 122."), then X's new bar grows; "... grows at
        each layer" lights the FFN bars in turn; "X more than doubles, from 320 to 782.5"
        writes the leg's first and last X on their bars. The leg that ends the walk
        (`ending`): `close_last`."""
        voiced = bool(self.beat.get("cues"))
        if not getattr(self, "chart_closed", False):
            until = self.said(M.FFN_READ) if voiced else self.time + 1.5
            self.chart_close(max(0, left[0]["layer"] - 1),
                             run_time=min(2.5, max(1.2, 0.8 * (until - self.time))))
        if ending:
            self.close_last(left)
            return
        labels = []
        for lay in left:
            l = lay["layer"]
            self.update_footer({"layer": l})
            k = self.cue_with(f"Layer {l}'s")
            if k is not None:
                self.hold_until_cue(k)
                dur = float(self.beat["cues"][k]["duration"])
            else:
                dur = 2.0
            labels.append(self.close_layer(lay, dur))
        self.update_footer({"layer": left[-1]["layer"]})
        grows = self.cue_with("grows at each layer")
        if grows is not None:
            # "Over layers 23 to 28, the feed-forward update grows at each layer"
            self.hold_until_cue(grows)
            self.play(*self.light_ffn(left, stagger=True), run_time=1.6)
            self.emphasize(VGroup(*labels), run_time=max(0.8, min(
                1.5, self.cue_at(grows + 1) - self.time - 0.2)))
        doubles = self.cue_with("more than doubles")
        if doubles is None:
            return
        # "And X more than doubles, from 320 to 782.5": the two X's on their bars
        self.hold_until_cue(doubles)
        a, b = left[0]["layer"], left[-1]["layer"] + 1
        dur = float(self.beat["cues"][doubles]["duration"])
        t0 = self.time
        marks = []
        for j, at in ((a, 0.45), (b, 0.7)):
            self.hold_until(t0 + at * dur - 0.3)
            lab = self.bar_label(("x", j), self.v.x_norms[j], T.X, centre=True)
            self.put(f"xlab{j}", lab, anim=FadeIn(lab, shift=0.25 * DOWN, scale=1.3),
                     run_time=0.45)
            marks += [self.bars[("x", j)], lab]
        self.emphasize(VGroup(*marks[:2]), VGroup(*marks[2:]), run_time=max(
            0.8, min(2.0, self.cue_at(self.n_cues()) - self.time - 0.3)))

    def close_layer(self, lay: dict, dur: float):
        """One layer of a close leg in `dur` seconds (its sentence): its attention bar grows,
        its FFN bar lifts, lit, its length lands on it (the sentence's last words), then X's new
        bar grows. Returns the FFN length's label."""
        l = lay["layer"]
        kinds = ((lay["step_attn"], "attn"), (lay["step_ffn"], "ffn"))
        a_bar, f_bar = (self.new_bar(("step", j), l, kind, self.step_rows[j]["norm"]["value"])
                        for j, kind in kinds)
        reveal = self.key_reveals(["attn", "ffn"])
        self.play(GrowInTurn(self, [a_bar]), *reveal, run_time=max(0.35, 0.25 * dur))
        lit = lambda m, t: m.set_fill(interpolate_color(                            # noqa
            ManimColor(T.FFN), ManimColor(T.POINTER), there_and_back(t)))
        self.play(GrowInTurn(self, [f_bar]), UpdateFromAlphaFunc(f_bar, lit),
                  run_time=max(0.45, 0.3 * dur))
        lab = self.bar_label(("step", lay["step_ffn"]), self.v.layers[l].norm_mlp, T.FFN)
        self.put(f"ffn_lab{l}", lab, anim=FadeIn(lab, shift=0.25 * DOWN, scale=1.3),
                 run_time=max(0.4, 0.25 * dur))
        j = lay["layer"] + 1
        x_bar = self.new_bar(("x", j), j, "x", self.data["x_norms"][j]["value"])
        self.play(GrowInTurn(self, [x_bar]), run_time=max(0.3, 0.15 * dur))
        self.draw_unseen(lay["stage_out"])          # the plane, off stage, keeps up
        return lab

    def bar_label(self, key, shown, color, centre: bool = False) -> Num:
        """A length written on its bar of the close chart, large: over the bar, starting at
        its left edge (clear of the bar on its left, reaching into the gap on its right), or
        `centre`d on it."""
        bar = self.bars[key]
        lab = self.n(shown, color, CLOSE_NUM).next_to(bar, UP, buff=0.1)
        if not centre:
            lab.align_to(bar, LEFT).shift(RIGHT * 0.04)
        return self.keep_inside(lab)

    def close_last(self, left) -> None:
        """The last layer, up close: its attention bar, then ("The largest of all 60 updates
        is its FFN update, 462 long") its FFN bar lifted and its length landing on it, boxed;
        ("Bank's X ends 870 long") X's last bar with its length; then ("about 400 times as
        long as X of zero") the labels leave and the chart opens out to every layer, X^(0)'s
        bar and the last one lit, the growth written above."""
        d, v = self.data, self.v
        lay = left[-1]
        l = lay["layer"]
        self.update_footer({"layer": l})
        a_bar = self.new_bar(("step", lay["step_attn"]), l, "attn",
                             self.step_rows[lay["step_attn"]]["norm"]["value"])
        f_bar = self.new_bar(("step", lay["step_ffn"]), l, "ffn",
                             self.step_rows[lay["step_ffn"]]["norm"]["value"])
        self.play(GrowInTurn(self, [a_bar]), run_time=0.6)
        self.hold_until_moment(M.LARGEST)
        self.play(GrowInTurn(self, [f_bar]), run_time=1.0)
        lab = self.bar_label(("step", lay["step_ffn"]), v.summary.largest_update, T.FFN)
        k = self.cue_with("The largest")
        if k is not None:
            c = self.beat["cues"][k]
            self.hold_until(self.cue_at(k) + 0.75 * float(c["duration"]) - 0.3)
        self.put("largest", lab, anim=FadeIn(lab, shift=0.25 * DOWN, scale=1.3), run_time=0.45)
        self.emphasize(f_bar, lab, buff=0.06,
                       run_time=self.fill(self.said(M.X_ENDS), 1.0, 0.7))
        self.hold_until_moment(M.X_ENDS)
        n = l + 1
        x_bar = self.new_bar(("x", n), n, "x", d["x_norms"][n]["value"])
        self.play(GrowInTurn(self, [x_bar]), run_time=0.8)
        end_lab = self.bar_label(("x", n), v.x_norms[n], T.X, centre=True)
        self.put("xlab_end", end_lab, anim=FadeIn(end_lab, shift=0.25 * DOWN, scale=1.3),
                 run_time=0.45)
        self.draw_unseen(lay["stage_out"])
        about = self.cue_with("times as long")
        if about is None:
            self.emphasize(x_bar, end_lab, run_time=self.fill(self.cue_at(self.n_cues()), 1.0))
            return
        # "That is about 400 times as long as X of zero": the labels leave and the chart opens
        # out to every layer as the sentence starts (X^(0)'s bar, 2.18, a sliver on the left)
        self.emphasize(x_bar, end_lab, run_time=max(0.8, min(1.2, self.cue_at(about)
                                                              - self.time - 1.6)))
        self.drop(*[s_ for s_ in self.shown if s_.startswith(("ffn_lab", "xlab", "largest"))],
                  run_time=0.3)
        self.chart_close(0, run_time=1.3, back=True)
        self.hold_until_cue(about)
        tag = self.growth_tag(n).move_to(UP * 0.6)
        self.put("end_tag", tag, anim=appear(tag), run_time=0.6)
        first = self.bars.get(("x", 0))
        self.emphasize(tag, *([first] if first is not None else []), x_bar,
                       run_time=self.fill(self.cue_at(self.n_cues()), 1.0))

    def ffn_rows(self, left) -> dict:
        """"the FFN adds" over "layer 23: 116" ..., one entry per layer of a short leg, three
        to a column, left of the plane under its tag (and the X length written under it at the
        leg's end), clear of the bars' key: each written as its layer is drawn (the heading
        with the first)."""
        lab = T.TYPE.label
        rows = {a["layer"]: inline(txt("layer", lab), Num(self.v.layers[a["layer"]].layer,
                                                           decimals=0, size=lab),
                                   txt(":", lab),
                                   self.n(self.v.layers[a["layer"]].norm_mlp, T.FFN, lab))
                for a in left}
        for r in rows.values():
            r[-1].shift(RIGHT * 0.1)
        grid = VGroup(*rows.values()).arrange_in_grid(rows=min(3, len(rows)), flow_order="dr",
                                                        buff=(0.5, 0.1), col_alignments="l" * 2
                                                        if len(rows) > 3 else None)
        head = txt("the FFN adds", lab, T.FFN)
        col = VGroup(head, grid).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        col.move_to(TAG_AT + DOWN * 1.55).align_to(TAG_AT + LEFT * 1.6, LEFT)
        self.keep_inside(col)
        first = rows[left[0]["layer"]]
        rows[left[0]["layer"]] = VGroup(head, first)       # the heading comes with the first
        return rows

    def layer_tag(self, l: int) -> VGroup:
        """"layer l reads |X^(l)| = ...", left of the plane; a counter: the left edge of the
        tag it replaces kept (no jitter)."""
        tag = inline(txt("layer", T.TYPE.label),
                     Num(self.v.layers[l].layer, decimals=0, size=T.TYPE.label),
                     txt("reads", T.TYPE.label), *self.x_len(l))
        tag.move_to(TAG_AT)
        if "tag" in self.shown:
            tag.align_to(self.shown["tag"], LEFT)
        return tag

    def sweep(self, left, end: float, ending: bool = False, bars_only: bool = False) -> None:
        """A long leg summarised (round 28: 21 layers at 1.5 s each were a rushed montage; one
        middle layer was shown to scale before): "layers a to b" named once, their steps drawn
        in one continuous sweep on the plane while their bars grow below; then the length X
        reached ("After layer 22, X is 320 long", `reach`) and the medians (`medians`)."""
        a, b = left[0]["layer"], left[-1]["layer"]
        tag = inline(txt("layers", T.TYPE.label), Num(self.v.layers[a].layer, decimals=0,
                                                      size=T.TYPE.label),
                     txt("to", T.TYPE.label), Num(self.v.layers[b].layer, decimals=0,
                                                  size=T.TYPE.label))
        if bars_only:           # the stage above the bars is free: the tag over them
            tag.move_to(UP * 2.15)
        else:
            tag.move_to(TAG_AT).align_to(TAG_AT + LEFT * 1.3, LEFT)
        # (a bars-only leg's tag is its own slot: the plane's legs after it start their own
        # counter "layer l reads ..." left of the plane)
        slot = "leg_tag" if bars_only else "tag"
        self.put(slot, tag, anim=appear(tag), run_time=0.4)
        self.update_footer({"layer": b})
        draw = self.sweep_bars if bars_only else self.advance_together
        if bars_only and self.chart is not None and self.chart_h < TALL_H:
            # (round 37: the bars 1.5 high under an empty upper half) taller, every layer
            self.chart_close(0, run_time=1.0, h=TALL_H)
        if ending:          # the leg with the largest update (a draft's): named after it
            until = self.said(M.LARGEST) if self.named(M.LARGEST) else \
                (end - LAST_HOLD if self.beat.get("cues") else self.time + 4.0)
            draw(left[-1]["stage_out"], max(3.0, until - self.time - 0.3))
            self.largest_and_last(b + 1)
            if self.named(M.MEDIANS):
                self.medians_after(end, drop=(slot, "end_tag", "off_plane"))
            return
        until = self.said(M.REACH) if self.named(M.REACH) else \
            (end - LAST_HOLD if self.beat.get("cues") else self.time + 4.0)
        among = self.named(M.AMONG) and not bars_only    # (its arrows are on the plane)
        if among:
            until = min(until, self.said(M.AMONG))
        draw(left[-1]["stage_out"], max(3.0, until - self.time - 0.3))
        if among:
            self.among(left)
        if self.named(M.REACH):
            self.hold_until_moment(M.REACH)
        after = inline(math(f"|{X_l(b + 1)}| =", ML, T.X),
                       self.n(self.v.x_norms[b + 1], T.X, T.TYPE.label))
        after.next_to(tag, DOWN, buff=0.25)
        if not bars_only:
            after.align_to(tag, LEFT)
        self.put("after", after, anim=appear(after), run_time=0.5)
        last = self.bars.get(("x", b + 1))
        until = self.said(M.MEDIANS) if self.named(M.MEDIANS) else end
        self.emphasize(after, *([last] if last is not None else []),
                       run_time=max(0.8, min(2.0, until - self.time - 0.2)))
        if self.named(M.MEDIANS):
            self.medians_after(end, drop=(slot, "after", "close_note"))

    def among(self, left) -> None:
        """"Layer 15's two steps are among them": the close-up's layer found in the sweep, its
        two step shadows on the plane and its two bars lit, its number written over its bars
        (round 28: said, nothing marked it)."""
        z = self.data.get("zoom") or {}
        lay = next((a for a in left if a["layer"] == z.get("layer")), None)
        if lay is None:
            return
        self.hold_until_moment(M.AMONG)
        js = (lay["step_attn"], lay["step_ffn"])
        keyed = [("step", js[0], T.ATTN), ("step", js[1], T.FFN)]
        bars = [self.bars[("step", j)] for j in js if ("step", j) in self.bars]
        arrows = [self.step_arrows[j] for j in js if j in getattr(self, "step_arrows", {})]
        lab = inline(txt("layer", T.TYPE.label, T.POINTER),
                     Num(self.v.layers[lay["layer"]].layer, decimals=0, size=T.TYPE.label,
                         color=T.POINTER))
        if bars:
            # over the layer's own bars and X's beside them (round 29 draft: on X's bars)
            near = bars + [self.bars[("x", j)] for j in (lay["layer"], lay["layer"] + 1)
                           if ("x", j) in self.bars]
            lab.next_to(VGroup(*bars), UP, buff=0.2)
            lab.set_y(max(m.get_top()[1] for m in near) + 0.08 + lab.height / 2)
        self.keep_inside(lab)
        widths = [a.get_stroke_width() for a in arrows]
        self.play(*self.light_bars(keyed), appear(lab),
                  *[a.animate.set_stroke(width=3 * w) for a, w in zip(arrows, widths)],
                  run_time=0.8)
        self.emphasize(*bars, *arrows, run_time=1.2)
        self.play(*[a.animate.set_stroke(width=w) for a, w in zip(arrows, widths)],
                  FadeOutPlace(lab), run_time=0.5)

    def dips_in(self, layers) -> list:
        """The layers (of `layers`) one of whose sublayers shortens X by more than DIP."""
        st = self.stages
        out = []
        for lay in layers:
            mid = self.step_rows[lay["step_attn"]]["to"]
            a, m, b = (st[i]["norm"]["value"] for i in (lay["stage_in"], mid, lay["stage_out"]))
            if m < a - DIP or b < m - DIP:
                out.append(lay["layer"])
        return out

    def dip_mark(self, l: int, a0: float = 0.0) -> list:
        """Layer l's number lit under its slot (where the chart's layer numbers are): a layer
        the voice names as one where X got shorter, marked as the walk draws it (fading in
        from share `a0` of the play). The marks stay for the rest of the leg."""
        num = Num(self.v.layers[l].layer, decimals=0, size=S, color=T.POINTER)
        # exactly over the chart's own (muted) number where it has one: that number turns lit;
        # a thick bar under the layer's own three bars, on the axis, says which bars it names
        num.move_to(self.bar_x(l, "mid") + DOWN * 0.2)
        c = self.bar_x(l, "mid")
        half = 0.5 * sum(BAR_W.values()) + 0.02
        under = Line(c + LEFT * half + DOWN * 0.05, c + RIGHT * half + DOWN * 0.05,
                     stroke_width=7, color=T.POINTER)
        mark = VGroup(under, num)
        self.shown[f"dip{l}"] = mark
        late = squish_rate_func(smooth, a0, 1.0)        # from share a0 of the play on
        return [FadeIn(under, rate_func=late), FadeIn(num, scale=1.4, rate_func=late)]

    def dim_beside(self, dips) -> list:
        """A chart layer number next to a two-digit dip mark would touch it ("1011"): those
        numbers fade as the leg starts (with the camera's move), before any mark is drawn."""
        out = []
        labels = self.chart[2]
        for l in dips:
            for nb in (l - 1, l + 1):
                if l % 5 and nb % 5 == 0 and 0 <= nb < self.L and nb // 5 < len(labels):
                    lab = labels[nb // 5]
                    self.dimmed_labels = [*getattr(self, "dimmed_labels", []), lab]
                    out.append(lab.animate.set_opacity(0))
        return out

    def axis_to(self, stage: int) -> list:
        """The bar axis set to the plan's axis after `stage` and kept there (`axis_k`: the walk
        draws its bars on it, no rescale per layer); [] when it is already that tall."""
        if self.chart is None:
            return []
        axes = self.data["bars"]["linear"]
        if axes[stage]["max"] <= getattr(self, "bar_max", 0.0) + 1e-9:
            return []
        self.axis_k = stage
        return [BarsTo(self, [], axes[stage]["max"], stage)]

    def light_bars(self, keyed, a0: float = 0.0) -> list:
        """Bars (key, colour) flash the pointer colour from share `a0` of the play on."""
        out = []
        ramp = lambda t: there_and_back(min(1.0, max(0.0, (t - a0) / (1 - a0))))     # noqa
        for kind, j, color in keyed:
            bar = self.bars.get((kind, j))
            if bar is not None:
                out.append(UpdateFromAlphaFunc(
                    bar, lambda m, t, c=color: m.set_fill(interpolate_color(
                        ManimColor(c), ManimColor(T.POINTER), ramp(t)))))
        return out

    def light_ffn(self, left, a0: float = 0.0, stagger: bool = False) -> list:
        """"the feed-forward update grows at every layer": the leg's FFN bars drawn so far
        flash the pointer colour (a colour change: heights untouched), from share `a0` of the
        play on (the play started before the words); `stagger`: one after another, in order."""
        out = []
        n = len(left)
        for k, a in enumerate(left):
            lo, w = (k / (n + 2), 3 / (n + 2)) if stagger else (a0, 1 - a0)
            ramp = lambda t, lo=lo, w=w: there_and_back(min(1.0, max(0.0, (t - lo) / w)))  # noqa
            bar = self.bars.get(("step", a["step_ffn"]))
            if bar is not None:
                out.append(UpdateFromAlphaFunc(
                    bar, lambda m, t, r=ramp: m.set_fill(interpolate_color(
                        ManimColor(T.FFN), ManimColor(T.POINTER), r(t)))))
        return out

    def medians_after(self, end: float, drop) -> None:
        """"... the median attention update is 0.15 of the length of X ...": the walk's
        labels, the plane and the |X| bars leave (round 35: the shares stood over the dimmed
        bars, on their layer axis: one chart at a time); every update of layers 1 to L-1 drawn
        as its share of the X it is added to, on a chart of its own with both axes named,
        attention's then the FFN's, each median a dashed line written as it is said."""
        self.hold_until_moment(M.MEDIANS)
        self.drop(*drop, run_time=0.3)
        fades = self.plane_fades() + self.chart_fades()
        # the bars' caption ("Layers 2 to 22, on the bars") and the footer's layer leave with
        # them (round 35: both stood over the layers 1-29 chart); the chart's heading says it
        if self.caption is not None and self.caption in self.mobjects:
            fades.append(FadeOutPlace(self.caption))
        if fades:
            self.play(*fades, run_time=0.5)
        self.update_footer({})
        head, attn, ffn, a_line, f_line, axes = self.share_panel()
        self.play(FadeIn(head), FadeIn(axes), run_time=0.6)
        for r in [*attn, *ffn]:          # each bar grows up from the floor, at its own width
            r.save_state()
            r.stretch_to_fit_height(0.002, about_edge=DOWN)
        half = self.time + (end - self.time) * 0.45 if self.beat.get("cues") else None
        self.play(LaggedStart(*[Restore(r) for r in attn], lag_ratio=0.03),
                  run_time=self.fill(half, 1.2, 0.5) if half else 1.2)
        self.play(FadeIn(a_line), run_time=0.5)
        if half:
            self.hold_until(half)
        self.play(LaggedStart(*[Restore(r) for r in ffn], lag_ratio=0.03),
                  run_time=self.fill(end, 1.2, 0.4))
        self.play(FadeIn(f_line), run_time=0.5)
        self.emphasize(a_line[-1], f_line[-1], run_time=self.fill(end, 1.0))

    def x_len(self, n: int) -> list:
        """"|X^(n)| = 703": X's length as the plan keeps it (round 37: 782.5 was written
        "≈ 780" here and "=" everywhere else)."""
        return [math(f"|{X_l(n)}| =", ML, T.X), self.n(self.v.x_norms[n], T.X, T.TYPE.label)]

    def x_after(self, n: int):
        """"|X^(n)| = ..." under the journey's tag: the length the last layer drawn left X at."""
        after = inline(*self.x_len(n))
        lines = [k for k in self.shown if k.startswith("dipline")]
        if lines:                   # the dips were said: the leg's end takes their place
            self.drop(*lines, run_time=0.3)
            self.dip_lines = []
        after.next_to(self.shown["tag"], DOWN, buff=0.25).align_to(self.shown["tag"], LEFT)
        self.put("after", after, anim=appear(after), run_time=0.5)
        return after

    def share_panel(self) -> VGroup:
        """Each update's length over the length of the X it is added to (the plan's rel_attn,
        rel_mlp), layers 1 to L-1, a pair of bars per layer on a chart of its own: a layer
        axis (numbered, named) and a share axis (ticks every 0.25, named), where the |X| bars
        were; the two medians the voice says as dashed lines, each value at its line's
        right end."""
        v, d = self.v, self.data
        lab = T.TYPE.label
        y0, top = -2.05, 1.4                 # the floor (the |X| chart has left) and the top
        lays = d["layers"][1:self.L]
        peak = max(max(a["rel_attn"]["value"], a["rel_mlp"]["value"]) for a in lays)
        unit = (top - y0) / peak
        w = 0.12
        attn, ffn = VGroup(), VGroup()
        for a in lays:
            x = self.bar_x(a["layer"], "mid")[0]
            for grp, key, color, dx in ((attn, "rel_attn", T.ATTN, -w / 2 - 0.01),
                                        (ffn, "rel_mlp", T.FFN, w / 2 + 0.01)):
                r = Rectangle(width=w, height=max(0.02, unit * a[key]["value"]), stroke_width=0,
                              fill_color=color, fill_opacity=1)
                grp.add(r.move_to([x + dx, y0, 0], aligned_edge=DOWN))
        x_l = self.bar_x(1, "mid")[0] - 0.25
        x_r = self.bar_x(self.L - 1, "mid")[0] + 0.25
        lines = []
        for shown, key, color in ((v.summary.median_rel_attn, "median_rel_attn", T.ATTN),
                                  (v.summary.median_rel_mlp, "median_rel_mlp", T.FFN)):
            y = y0 + unit * d["summary"][key]["value"]
            ln = DashedLine([x_l, y, 0], [x_r, y, 0], color=color, stroke_width=3,
                            dash_length=0.12)
            # right of the last layer's bars, on its line's level
            word = self.n(shown, color, lab).next_to(ln, RIGHT, buff=0.1)
            lines.append(VGroup(ln, word))
        if lines[1][1].get_bottom()[1] < lines[0][1].get_top()[1] + 0.06:   # labels apart
            lines[1][1].shift(UP * (lines[0][1].get_top()[1] + 0.06 - lines[1][1].get_bottom()[1]))
        word = d["focus"]["token_text"].lstrip(d["space_mark"])
        head = inline(txt(f"each of {word}'s updates as a share of the X it is added to, layers",
                          lab),
                      Num(v.layers[1].layer, decimals=0, size=lab),
                      txt("to", lab), Num(v.layers[self.L - 1].layer, decimals=0, size=lab),
                      txt("; dashed: medians", lab), buff=0.14)
        head[-1].shift(LEFT * 0.1)
        head.move_to([0, top + 0.45, 0])
        # the share axis on the left, ticks every 0.25 from 0, named "share"
        axes = VGroup(Line([x_l, y0, 0], [x_l, top, 0], color=T.MUTED, stroke_width=2),
                      Line([x_l, y0, 0], [x_r, y0, 0], color=T.MUTED, stroke_width=2))
        step = 0.25
        for k in range(int(peak / step + 1e-9) + 1):
            y = y0 + unit * step * k
            axes.add(Line([x_l - 0.1, y, 0], [x_l, y, 0], color=T.MUTED, stroke_width=2))
            axes.add(txt("0" if k == 0 else f"{step * k:g}", lab, T.TEXT)
                     .next_to([x_l - 0.1, y, 0], LEFT, buff=0.08))
        tick_w = max(m.width for m in axes[3::2])
        axes.add(txt("share", lab, T.TEXT).next_to([x_l - 0.2 - tick_w, (y0 + top) / 2, 0],
                                                    LEFT, buff=0.12))
        # the layer axis: every fifth layer and the first and last, under its pair of bars
        for l in sorted({1, *range(5, self.L - 1, 5), self.L - 1}):
            axes.add(Num(v.layers[l].layer, decimals=0, size=lab, color=T.TEXT)
                     .move_to([self.bar_x(l, "mid")[0], y0 - 0.25, 0]))
        axes.add(txt("layer", lab, T.TEXT).move_to([(x_l + x_r) / 2, y0 - 0.6, 0]))
        # (round 37: no colour key) which bar is which, under the chart's right end
        key = VGroup(*[VGroup(Rectangle(width=0.2, height=0.2, stroke_width=0, fill_color=c,
                                        fill_opacity=1), txt(word, lab, c)
                              ).arrange(RIGHT, buff=0.1)
                       for c, word in ((T.ATTN, "attention"), (T.FFN, "FFN"))]
                     ).arrange(RIGHT, buff=0.4)
        key.move_to([0, y0 - 0.6, 0]).align_to([x_r, 0, 0], RIGHT)
        axes.add(key)
        panel = VGroup(head, attn, ffn, *lines, axes)
        self.keep_inside(head)
        self.keep_inside(panel)
        self.shown["med"] = panel
        return head, attn, ffn, lines[0], lines[1], axes

    def largest_and_last(self, n: int) -> None:
        """"The largest of all 60 updates is its feed-forward update, 462 long": that bar lit,
        its length written on it; "X ends 870 long": X^(n)'s length (the leg's end) and bar."""
        d, v = self.data, self.v
        s = d["summary"]
        lay = d["layers"][s["largest_update_layer"]]
        j = lay["step_ffn" if s["largest_update_kind"] == "ffn" else "step_attn"]
        bar = self.bars.get(("step", j))
        color = T.FFN if s["largest_update_kind"] == "ffn" else T.ATTN
        self.hold_until_moment(M.LARGEST)
        lab = self.n(v.summary.largest_update, color, T.TYPE.label)
        if bar is not None:
            # right of the last X's bar (which stands beside it), level with the bar's top
            beside = self.bars.get(("x", len(d["x_stages"]) - 1), bar)
            lab.next_to(beside, RIGHT, buff=0.12).align_to(bar, UP)
            self.keep_inside(lab)
            # (round 27: one box round the bar and its label also took in X's last bar, so
            # 462 read as the blue bar's) X's last bar dims while 462 is said; the bar and
            # its label get a box each
            dim = [beside.animate.set_opacity(0.25)] if beside is not bar else []
            self.put("largest", lab, run_time=0.5)
            self.play(Indicate(bar, color=color, scale_factor=1.3), *dim, run_time=0.6)
            self.emphasize(bar, lab, run_time=self.fill(self.said(M.X_ENDS), 1.0, 0.6),
                           buff=0.04)
            if dim:
                self.play(beside.animate.set_opacity(1), run_time=0.3)
        self.hold_until_moment(M.X_ENDS)
        end_tag = self.growth_tag(n, self.cue_with("times as long") is not None
                                  and bool(s.get("growth_about")))
        tag = self.shown.get("tag")
        if tag is not None:
            end_tag.next_to(tag, DOWN, buff=0.45).align_to(tag, LEFT)
        else:
            end_tag.move_to(TAG_AT)
        self.put("end_tag", end_tag, anim=appear(end_tag), run_time=0.8)
        last = self.bars.get(("x", n))
        until = self.said(M.MEDIANS) if self.named(M.MEDIANS) \
            else self.cue_at(self.n_cues())
        self.emphasize(end_tag, *([last] if last is not None else []),
                       run_time=self.fill(until, 1.0))


    def growth_tag(self, n: int, about: bool = True) -> VGroup:
        """"|X^(n)| = 870", and under it (`about`) "about 400 × |X^(0)|"."""
        tag = inline(math(f"|{X_l(n)}| =", ML, T.X), self.n(self.v.x_norms[n], T.X,
                                                             T.TYPE.label))
        if not about:
            return tag
        # "... about 400 times as long as X of zero": under the length, said with it
        return VGroup(tag, inline(
            txt("about", T.TYPE.label), self.n(self.v.summary.growth_about, T.TEXT,
                                               T.TYPE.label),
            math(f"\u00d7 |{X_l(0)}|", ML, T.X))).arrange(DOWN, buff=0.15, aligned_edge=LEFT)

    def off_plane_note(self, j: int, color) -> VGroup:
        """"mostly out of the plane (30 %)" beside step j's arrow on the plane: the share of
        its length the plane keeps (steps[j].captured_pct)."""
        note = VGroup(txt("mostly out of the plane:", T.TYPE.label, color),
                      self.n(self.v.steps[j].captured_pct, color, T.TYPE.label,
                             suffix=" % in it")).arrange(DOWN, buff=0.12)
        # two lines, so it fits inside the plane's box; the plane's axes pass behind it
        note.add_background_rectangle(color=T.BACKGROUND, opacity=0.9, buff=0.06)
        c = self.plane.frame.get_center()
        p = self.plane.to_screen(self.stages[j]["xy"], center=c)
        q = self.plane.to_screen(self.stages[j + 1]["xy"], center=c)
        note.next_to((p + q) / 2, DOWN, buff=0.2)
        fr = self.plane.frame
        note.shift(RIGHT * max(0, fr.get_left()[0] + 0.1 - note.get_left()[0])
                   + LEFT * max(0, note.get_right()[0] - fr.get_right()[0] + 0.1)
                   + UP * max(0, fr.get_bottom()[1] + 0.1 - note.get_bottom()[1]))
        return note


def _overlap(a, b, pad: float = 0.08) -> bool:
    """Whether the boxes of `a` and `b` (grown by `pad`) overlap."""
    return (a.get_left()[0] - pad < b.get_right()[0] and b.get_left()[0] < a.get_right()[0] + pad
            and a.get_bottom()[1] - pad < b.get_top()[1] and b.get_bottom()[1] < a.get_top()[1] + pad)


def glyphs(text, source: str, part: str, last: bool = False) -> VGroup:
    """The glyphs of `part` inside a `Text` made from `source` (a Text has one glyph per
    character that is not white space)."""
    at = source.rfind(part) if last else source.find(part)
    return glyph_span(text, source, at, at + len(part))

