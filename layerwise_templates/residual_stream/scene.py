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
narration names is drawn, ringed, lit or pointed at when it is spoken (`hold_until_cue`, and
`hold_until_moment` for the moments its storyboard names: `moments:`, declared per handler in
its spec.py), so a voiced beat does not sit still while its words go by.

This file: the scene and its beats up to `journey`. `scene_parts`: the pieces (the
vector columns, the plane, the bars). `scene_summary`: the beats `sizes` and
`identity`.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, FadeIn, Indicate, RoundedRectangle, VGroup, Write,
                   config, smooth, squish_rate_func)

from scenes import theme as T
from scenes.base import StoryboardScene
from scenes.mobjects import Num, inline, txt
from .scene_parts import S, StreamPanels
from .scene_summary import SummaryBeats

JOURNEY_EASE = (2.5, 1.7, 1.2)      # the journey's first layers: their share of the pace
NOTE_TIME = 0.4


class ResidualStreamScene(SummaryBeats, StreamPanels, StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.L = d["n_layers"]
        self.stages, self.step_rows = d["stages"], d["steps"]
        self.plane = None
        self.progress = -1                   # last stage drawn on the plane
        self.x_arrow = None
        self.bars: dict = {}
        self.chart = None

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
            self.hold_until_moment("space_mark")
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
        self.hold_until_moment("numbers")
        dims = self.num("data.d_model", 0, S, T.X, suffix=" numbers")
        dims.next_to(col[1], RIGHT, buff=0.2).align_to(col[1][1][1], DOWN)
        self.put("dims", dims, anim=Write(dims), run_time=0.8)
        # "with a length of only 2.18": the length as a number, an arrow and a bar
        self.hold_until_moment("length")
        xbar = self.bars.get(("x", l))
        self.emphasize(col[2], *([xbar] if xbar is not None else []), run_time=1.0,
                       extra=[Indicate(self.x_arrow, scale_factor=1.0, color=T.HIGHLIGHT)])
        # "Layer l reads X of l and writes X of l plus one": the rule is written, its parts named
        self.hold_until_cue(1)
        x_in, x_out = "X\u207d\u02e1\u207e", "X\u207d\u02e1\u207a\u00b9\u207e"
        words = f"layer l reads {x_in} and writes {x_out}"
        rule = txt(words, T.TYPE.label, T.TEXT).move_to(LEFT * 4.2 + UP * 2.25)
        self.put("rule", rule, anim=Write(rule), run_time=1.0)
        self.hold_until_moment("reads")
        self.emphasize(glyphs(rule, words, x_in), col[0], run_time=0.8)
        self.hold_until_moment("writes")
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
        # the step's plays keep their proportions; voiced, one scale makes them end by the
        # next keyed step or the beat's end (layer 1: two steps in one beat), never slower than
        # silent (cap 1); each play may round up to a frame: half a frame each is set aside
        q = self.quick()
        run = {"plus": 0.3, "b": q, "eq": 0.3, "c": q, "note": 0.3, "grow": self.quick(0.2, 1.6),
               "ring": 0.8, "drop": q, "move": 0.5}                 # the plays' silent times
        end = self.next_reveal() - 0.5 * len(run) / config.frame_rate
        k = self.pace(end, sum(run.values()), 1.0, cap=1.0)
        a = self.shown["a"]
        b = self.step_col(j, self.sym(which, l)).next_to(a, RIGHT, buff=0.55)
        plus = txt("+", T.TYPE.heading).move_to((a[1].get_right() + b[1].get_left()) / 2)
        self.put("plus", plus, run_time=run["plus"] * k)
        self.put("b", b, run_time=run["b"] * k)
        out_label = T.X_l(l + 1) if s["to"] == lay["stage_out"] else \
            f"{T.X_l(l)} + Delta_\"attn\"^(({l}))"
        c = self.stage_col(s["to"], dec, out_label).next_to(b, RIGHT, buff=0.55)
        c.stage = s["to"]
        eq = txt("=", T.TYPE.heading).move_to((b[1].get_right() + c[1].get_left()) / 2)
        self.put("eq", eq, run_time=run["eq"] * k)
        self.put("c", c, run_time=run["c"] * k)
        note = inline(txt("the plane shows", S, T.MUTED),
                      self.n(f"data.steps[{j}].captured_pct", T.MUTED, suffix="%"),
                      txt("of this arrow's length", S, T.MUTED))
        note.next_to(self.scale, LEFT, buff=0.4)
        self.put("note", note, run_time=run["note"] * k)
        self.advance(s["to"], run["grow"] * k)
        self.emphasize(c[2], run_time=run["ring"] * k)
        # the result becomes the next input (a cross-fade would draw both)
        self.drop("a", "b", "plus", "eq", run_time=run["drop"] * k)
        self.play(self.shown["c"].animate.move_to(LEFT * 5.6 + UP * 0.6),
                  run_time=run["move"] * k)
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
        share = inline(txt("the plane shows", S, T.MUTED),
                       self.n("data.plane.captured_total_pct", T.MUTED, suffix="%"),
                       txt("of the updates' total length", S, T.MUTED))
        share.move_to(LEFT * 4.2 + DOWN * 0.2)
        self.keep_inside(share)
        # one play per layer (its two additions in turn), paced to end with the beat: the
        # first layers slower, so the recipe is seen before the rest speed by
        weights = [JOURNEY_EASE[k] if k < len(JOURNEY_EASE) else 1.0 for k in range(len(left))]
        default = max(0.25, min(1.0, 0.8 * beat["duration"] / max(1.0, sum(weights))))
        end = self.cue_at(self.n_cues()) - 0.25
        # "The plane shows only part of each update": the note, when it is said
        said = self.said("plane_note") if self.beat.get("cues") else None
        for k, lay in enumerate(left):
            if said is not None and "note" not in self.shown and self.time >= said - 0.2:
                self.put("note", share, run_time=NOTE_TIME)
            l = lay["layer"]
            new_tag = inline(txt("layer", T.TYPE.label),
                             Num(l, f"data.layers[{l}].layer", 0, T.TYPE.label),
                             txt("|X| =", T.TYPE.label, T.X),
                             self.n(f"data.layers[{l}].norm_x", T.X, T.TYPE.label))
            new_tag.move_to(LEFT * 4.2 + UP * 0.8)
            self.set_slot("tag", new_tag)
            reserve = 0.0 if "note" in self.shown else NOTE_TIME
            unit = self.pace(end - reserve, sum(weights[k:]), default, cap=1.0)
            self.advance_together(lay["stage_out"], weights[k] * unit)
        if "note" not in self.shown:
            self.put("note", share, run_time=NOTE_TIME)

def glyphs(text, source: str, part: str, last: bool = False) -> VGroup:
    """The glyphs of `part` inside a `Text` made from `source` (a Text has one glyph per
    character that is not white space)."""
    at = source.rfind(part) if last else source.find(part)
    start = len("".join(source[:at].split()))
    return VGroup(*text[start:start + len("".join(part.split()))])

