"""A whole layer, then the next (docs/chapter.md 4.3), shown on a few real numbers of one token.

Beats (storyboard `show` names):
- `x`       (the beat `recap`) the layer's diagram with its skip path (the stream line) and
            attention's side branch; when the voice says "goes straight on", X^(l) and
            Δattn^(l) as columns of their first numbers, both sliding under the ⊕, rising
            into it and absorbed, then the sum's column comes down out of it (no lengths: the
            voice reads none); otherwise ("as the last video left it") the diagram up to the
            ⊕ and the sum's column are there from the first frame; when the
            voice says "LayerNorm" (post-LN), the sum goes into the LN box the same way;
            when it says "subtracts the mean", out comes the sum centred and divided by its
            spread (plan `update.centred`), the mean and spread in the line under it, and at
            "gain" that column goes in again and LN(sum) comes out
- `ffn`     the FFN's side branch, Δffn^(l), the second ⊕ on the second skip path, LayerNorm
            again: the last column is X^(l+1)
- `project` layer l starts over: X^(l) (the column the diagram ended on: its own digits move
            into a row, each to its own x first, then up; in a post-LN model "= LayerNorm's
            output") times layer l's own W_Q,
            W_K, W_V, side by side (each comes into its own place; none replaces another),
            each result row under its matrix: W_Q column by column (X's numbers stand on each
            column, the result row clear of where they stand), W_K and W_V by the same recipe
            in one lit pass each (head 0); at "12 heads of 32" a strip of W_Q's columns cut
            into the heads, head 0's band lit
- `fresh`   why they are fresh, first: X is new. K, V and their matrices leave, W_Q and Q
            are parked, dimmed (the query under its W_Q), and lit again by `compare`; X^(l)'s formula (LN after each add), the pointer on Δattn and, beside it, the
            other word the focus word's attention gave most (layer l-1, mean of its heads);
            (only when the voice says "built from": the sentence's tokens with a bar each, the
            focus word's attention, mean of the heads; the first token's share pointed at too
            when the voice says the near-tie; the pick's word rises into X^(l) at "depend on
            context"), then on ΔFFN
            and the LNs; layer l-1's X comes in over the right-hand slot;
            cos(X^(l-1), X^(l)) with a labelled 2-D sketch turning to its true angle
- `matrices` the matrices are new too, every pair of heads drawn: W_Q^(l)'s heads as a column
            of bands, W_Q^(l-1)'s as a row over a grid of one cell per pair (plan
            `q_mixed.w_pairs`); what a cell compares written under it (two heads' blocks as
            lists of numbers, biases left out); each cell flies along its row onto a cosine
            axis from -1 to 1, to its pair's cosine (`q_mixed.w_cos_all`), the axis zooms in
            and a band holds them all, "|cos| ≤ w_cos_max" over it
- `compare` the new X alone, one test: the stage cleared but for X^(l); X^(l-1), W_Q^(l-1)
            and the Q^(l-1) they make on the right; X^(l)'s row goes onto W_Q^(l-1) and
            X^(l) W_Q^(l-1) + b_Q^(l-1) comes out on the left (new X, old matrix: one query
            space with Q^(l-1)), its cosine with Q^(l-1) over the head's entries under it; then
            the query's test becomes the first of three lines "cos(X^(l) W^(l-1) + b^(l-1),
            Q/K/V^(l-1)) = number" (its name, Q^(l-1) and its cosine move in), the key's and
            value's lines (plan `kv_mixed`) under it, each number as the voice says it
- `sweep`   "'word', layer by layer": the 2-D sketch of `fresh`, one step per layer: X^(l)'s
            arrow turns from X^(l-1)'s (a ghost) by the step's true angle, the step's cosine
            comes out at the angle and moves into a short "cos with previous X" list, the
            angle's mark and its degrees (plan `angle_steps`) beside it; before
            each step the arrow turns back to the base and dims (drawn from the X before,
            never a total); the recipe line under the list at the end
- `check`   the last layer's query recomputed as X W + b beside the model's, and the bound the recompute stays under for every token,
            head, layer and Q/K/V entry

Every number is a `Num` read through the plan's typed view (view.py), so it carries its plan
path; the scene does no model arithmetic. `Stage` is what an earlier beat left on screen: a
handler continues it when it is the diagram of its own layer, and otherwise clears the stage
and builds what it needs from the plan, so every arrangement of the beats renders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Arrow, Circle, Create, Dot, FadeIn, FadeOut,
                   DoubleArrow, GrowFromCenter, GrowFromEdge, LaggedStart, Line, MoveAlongPath, Rectangle, RoundedRectangle,
                   Indicate, ReplacementTransform, SurroundingRectangle, Transform, VGroup, VMobject,
                   interpolate_color, rate_functions)

from scenes import theme as T
from scenes.animations import DimPlace, FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, math, txt
from scenes.motion import VectorColumn, WeightBlock, matvec
from scenes.motion.matvec import row_of

from .view import Data

QKV = ("q", "k", "v")
NAME = {"q": "Q", "k": "K", "v": "V"}
COLOR = {"q": T.Q, "k": T.K, "v": T.V}
S = T.TYPE.label                 # 22 (review 29: 18 drew notes at 12-13 px): the smallest text
CL = T.TYPE.label                # 22: what the voice reads out of a chart (tokens, shares)
PS = 24                          # the projection and comparison beats: numbers ~14 px (review 26)
ML = 44                          # formulas with scripts: the layer index (a script) >= 14 px
GHOST = 0.75                     # the earlier layer's opacity (compared: it must read clearly)
PARK = 0.3                       # W_Q^(l) and its query while `fresh` talks of X (parked)
HL = T.POINTER                   # the chapter's pointer colour (white: Q is yellow)

# the diagram: the stream (skip path) runs along SY, side branches at BY, columns under the stream
# (review 24: the diagram sat small in the top third: it is lower, larger, its marks 22 px)
SY, BY, COL_TOP, NOTE_Y = 1.2, 2.3, 0.3, -2.15
NL = 27                          # (review 34b: 22-24 read small and grey) the pictures' names
CS = 26                          # the diagram's column digits (16 px at 480p)
NOTE_WIDTH = 13.0                # the widest a line of explanation may be
X_LEFT, X_RIGHT = -5.9, 5.3      # the first and last node's x (the columns apart)
UPDATE_COLOR = {"d_attn": T.ATTN, "d_ffn": T.FFN}
UPDATE_SUB = {"d_attn": "attn", "d_ffn": "FFN"}
BRANCH = {"d_attn": "attention", "d_ffn": "FFN"}

# project: X row on top, W below it, the layer's Q, K, V in the middle, layer l-1's on the right
PX, PW, PR, PG = -3.6, -3.4, 2.5, 5.15       # x of X row, W, result rows, ghost rows
PY_X, PY_W = 2.3, 0.05
ROW_Y = {"q": 1.05, "k": 0.05, "v": -0.95}
SLOT_Y = 0.35                    # the matrices side by side: their tops at SLOT_Y + 0.55
XDEC = 3                         # X's numbers: as the diagram's columns wrote them
MAX_ROWS = 8                     # the sweep's table: at most this many states


def sum_decimals(a, b, total, choices=(2, 3)) -> int:
    """The fewest decimals (of `choices`) at which the shown numbers of `a` + `b` add up to
    the shown `total`, entry by entry (the last choice when none does)."""
    for d in choices:
        if all(abs(round(float(x), d) + round(float(y), d) - round(float(t), d)) < 0.5 * 10 ** -d
               for x, y, t in zip(a, b, total)):
            return d
    return choices[-1]


def spoken_len(text: str) -> int:
    """About how long `text` is read aloud, in letters: a digit as its word, "." between
    digits as "point" (piper reads 0.93 as "zero point nine three")."""
    n = 0
    for i, ch in enumerate(text):
        if ch.isdigit():
            n += 5
        elif ch == "." and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
            n += 6
        else:
            n += 1
    return n


def pick_states(states: list[int], most: int) -> list[int]:
    """All states when they fit, else the first two, the last and evenly spaced ones between
    (a deep model's table keeps its ends and samples the middle; the labels show the jumps)."""
    if len(states) <= most:
        return states
    idx = {0, 1, len(states) - 1}
    idx |= {int(round(i)) for i in np.linspace(1, len(states) - 1, most - 1)}
    return [states[i] for i in sorted(idx)][:most - 1] + [states[-1]]


@dataclass
class Diagram:
    """One layer's diagram: per stage node i its marker on the stream or branch, the path that
    leads to it, its column (label, numbers, length) and how far it is drawn."""
    layer: int
    kinds: list[str]
    keys: list[str]
    xs: list[float]
    marks: list = field(default_factory=list)     # ⊕ / LN box / branch box / start dot
    paths: list = field(default_factory=list)     # stream segment or branch leading to node i
    cols: list = field(default_factory=list)      # VGroup(label?, column, length)
    drawn: int = 0                                # nodes 0..drawn-1 are on screen
    retired: set = field(default_factory=set)     # columns used up (faded out) by a later node

    def group(self) -> VGroup:
        return VGroup(*[VGroup(self.marks[i], self.paths[i],
                               *([] if i in self.retired else [self.cols[i]]))
                        for i in range(self.drawn)])


@dataclass
class Stage:
    """What is on screen between beats (handlers read and fill it; nothing else carries over)."""
    diagram: Diagram | None = None
    note: VGroup | None = None
    note_text: str = ""
    parts: list = field(default_factory=list)     # anything else: cleared with the stage
    proj_layer: int | None = None                 # the layer whose Q, K, V rows are shown
    proj_rows: dict = field(default_factory=dict)
    proj_x: object = None                         # the X row the Q, K, V were made from
    proj_label: object = None                     # its label
    proj_blocks: dict = field(default_factory=dict)   # W_Q, W_K, W_V blocks on screen
    proj_lay: dict = field(default_factory=dict)  # proj_layout's places
    proj_said: object = None                      # "= LayerNorm's output"
    prev: dict = field(default_factory=dict)      # layer l-1's X row, W_Q block, query row
    why: list = field(default_factory=list)       # the "why fresh" formula and cosine


class FreshQKVScene(StoryboardScene):

    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.stage = Stage()

    def cue_at(self, i: int) -> float:
        """(round 32: played without a voice, `why` and `check` waited for cues that do not
        exist, until the beat's end, then ran their animations past it) now, when the plan
        has no cues: a silent beat plays its steps back to back (as `said` does)."""
        if not (self.beat.get("cues") or []):
            return self.time
        return super().cue_at(i)

    # --- stage ------------------------------------------------------------------------------
    def clear_stage(self, keep=()) -> None:
        st = self.stage
        # (round 35 reviews: `fresh`'s X^(l-1), kept only in `prev`, stayed through two beats)
        # layer l-1's pieces too
        gone = [m for m in ([st.diagram.group()] if st.diagram else []) + [st.note] + st.parts
                + list(st.prev.values()) if m is not None and m not in keep]
        gone = [m for i, m in enumerate(gone) if all(m is not n for n in gone[:i])
                and (m in st.parts or self.on_screen(m))]
        self.vanish(*gone)
        self.stage = Stage()

    def vanish(self, *ms, run_time: float = 0.5) -> None:
        """Fade `ms` out and take every piece of them off the scene (a piece a transform
        added on its own would otherwise stay behind)."""
        ms = [m for m in ms if m is not None]
        if ms:
            self.play(*[FadeOutPlace(m) for m in ms], run_time=run_time)
            self.remove(*[f for m in ms for f in m.get_family()])

    def on_screen(self, m) -> bool:
        """Whether `m`'s pieces are drawn (they may sit in the scene inside another group)."""
        fam = {id(f) for top in self.mobjects for f in top.get_family()}
        return any(id(f) in fam for f in m.get_family() if len(f.points))

    def set_note(self, text, color=T.TEXT) -> None:
        """The one line of explanation under the picture (replaces the last); `text` may be
        a line already built (words and plan `Num`s)."""
        new = text if not isinstance(text, str) else txt(text, S, color)
        if isinstance(text, str) and new.width > NOTE_WIDTH:
            # (notes at 22 since review 29) too wide: two lines, split at the comma or colon
            # nearest the middle (show less per line, not smaller)
            cuts = [i + 1 for i, ch in enumerate(text) if ch in ",:;" and text[i + 1:i + 2] == " "]
            if cuts:
                c = min(cuts, key=lambda i: abs(i - len(text) / 2))
                new = VGroup(txt(text[:c].strip(), S, color), txt(text[c:].strip(), S, color)
                             ).arrange(DOWN, buff=0.12)
        new.move_to(UP * NOTE_Y)
        self.keep_inside(new)
        old, self.stage.note = self.stage.note, new
        self.stage.note_text = text if isinstance(text, str) else ""
        if old is not None:          # the old line leaves first: never two lines on each other
            self.play(FadeOutPlace(old), run_time=0.25)
        self.play(FadeIn(new, shift=0.1 * UP), run_time=0.35)

    def busy_until(self, t: float, m) -> None:
        """Point at what the voice is talking about until `t`: one steady box round `m`
        (drawn once, held, taken away), not a looping flash."""
        if t - self.time <= 1.0:
            return
        box = self.frame_of(m)
        self.play(FadeIn(box), run_time=0.4)
        self.hold_until(t - 0.3)
        self.play(FadeOut(box), run_time=0.3)

    def glide(self, box, m, at: float, run_time: float = 1.0, buff: float = 0.13) -> None:
        """The pointer goes onto `m` (a box fitted to it), there as the voice names it at
        `at`."""
        self.hold_until(at - run_time + 0.1)
        self.repoint(box, m, run_time, buff=buff)

    def repoint(self, box, m, run_time: float = 0.6, anims=(), buff: float = 0.13) -> None:
        """The pointer `box` leaves where it is and comes back fitted to `m`: it fades out
        and in (a box that slid or stretched would cut through the text on its way); `anims`
        play while it comes in."""
        self.play(FadeOut(box), run_time=0.35 * run_time)
        box.become(self.frame_of(m, buff=buff))
        self.play(FadeIn(box), *anims, run_time=0.65 * run_time)

    def glyphs(self, text_mob, text: str, part: str):
        """The glyphs of `part` inside a one-line `txt(text)` (its whitespace has no glyph);
        the whole line when they cannot be told apart."""
        flat = text.replace(" ", "")
        i = flat.find(part.replace(" ", ""))
        if i < 0 or len(text_mob) != len(flat):
            return text_mob
        return VGroup(*text_mob[i:i + len(part.replace(" ", ""))])

    def grid_cols(self, cells, buff: float) -> int:
        """Columns of a grid of `cells` (rows of equal length, one or two for a few cells)
        that fits the frame's width inside its margins: SmolLM2's 30 layers wrap to 4 rows."""
        room = self.HOME_WIDTH - 2 * T.EDGE
        fit = max(1, int((room + buff) // (max(c.width for c in cells) + buff)))
        rows = max(1 if len(cells) <= 3 else 2, -(-len(cells) // fit))
        return -(-len(cells) // rows)

    def frame_of(self, m, color=HL, buff: float = 0.13) -> Rectangle:
        """A pointer box sized to `m`'s drawn bounding box (its points, not its layout box)."""
        pts = np.concatenate([f.points for f in m.get_family() if len(f.points)])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        r = Rectangle(width=hi[0] - lo[0] + 2 * buff, height=hi[1] - lo[1] + 2 * buff,
                      color=color, stroke_width=2.5)
        return r.move_to((lo + hi) / 2)

    def update_footer(self, beat: dict) -> None:
        """The sweep and the check span every layer, the matrices' pairs and the new-X test
        two (round 35 reviews: "layer 1" over layer 0's matrices): the footer names no single layer
        then; the labels on screen carry theirs."""
        if (beat.get("show") or [None])[0] in ("matrices", "compare", "sweep", "check"):
            beat = {**beat, "layer": None}
        super().update_footer(beat)

    def word_note(self) -> str:
        f = self.v.focus
        name, _, nth = str(f.word).partition("#")
        word = f"'{name}' (occurrence {nth})" if nth else f"'{name}'"
        toks = " ".join(str(t) for t in f.tokens)
        which = (f"the tokens {toks} of {word}, averaged" if f.averaged
                 else f"the token {word}")
        sentence = str((self.plan.get("sentences") or [""])[0])
        text = (f"{word} in “{sentence}”: the first {int(self.v.show.dims)} of its "
                f"{int(self.v.shape.d_model)} numbers")
        if f.averaged or txt(text, S).width > NOTE_WIDTH:     # the sentence does not fit
            text = (f"{which}: the first {int(self.v.show.dims)} of its "
                    f"{int(self.v.shape.d_model)} numbers")
        if txt(text, S).width > NOTE_WIDTH:         # show less, not smaller
            which = (f"{word}, {len(f.tokens)} tokens averaged" if f.averaged else word)
            text = f"{which}: first {int(self.v.show.dims)} numbers of each vector"
        if txt(text, S).width > NOTE_WIDTH:
            text = f"first {int(self.v.show.dims)} numbers of each vector"
        return text

    # --- the diagram --------------------------------------------------------------------------
    def diagram_for(self, l: int, note: bool = True) -> Diagram:
        """The stage's diagram of layer l, or a fresh one (the stage cleared first)."""
        st = self.stage
        if st.diagram is not None and st.diagram.layer == l:
            return st.diagram
        self.clear_stage()
        u = self.v.layers[l].update
        stages = list(u.stages)
        kinds, keys = [str(s.kind) for s in stages], [str(s.key) for s in stages]
        n = len(stages)
        xs = list(np.linspace(X_LEFT, X_RIGHT, n))
        d = Diagram(l, kinds, keys, xs)
        # each ⊕'s two inputs and its sum with the digits at which the shown numbers add up
        dec = [2] * n
        for i in (j for j, k in enumerate(kinds) if k == "sum" and j >= 2):
            add = sum_decimals(stages[i - 2].first, stages[i - 1].first, stages[i].first)
            for j in (i - 2, i - 1, i):
                dec[j] = max(dec[j], add)
        # one convention for the whole row of columns, and 3 decimals at least: the last
        # column's numbers move as they are into the next layer's X row (no glyph changes)
        dec = [max(3, *dec)] * n
        for i, s in enumerate(stages):
            d.marks.append(self.mark(d, i))
            d.paths.append(self.path_to(d, i))
            d.cols.append(self.column(d, i, s, dec[i]))
        self.stage.diagram = d
        if note and self.stage.note is None:
            self.set_note(self.word_note(), T.TEXT)
        return d

    def mark(self, d: Diagram, i: int):
        """Node i's marker, drawn above every path (a line never crosses a box)."""
        return self._mark(d, i).set_z_index(2)

    def _mark(self, d: Diagram, i: int):
        kind, x = d.kinds[i], d.xs[i]
        if kind == "state":
            return Dot([x, SY, 0], radius=0.09, color=T.X)
        if kind == "sum":
            c = Circle(radius=0.26, color=T.TEXT, stroke_width=2.5).set_fill(T.BACKGROUND, 1)
            return VGroup(c, txt("+", CL, T.TEXT).move_to(c)).move_to([x, SY, 0])
        if kind == "norm":
            t = txt("LN", CL, T.LN)
            box = RoundedRectangle(width=0.9, height=0.55, corner_radius=0.08, color=T.LN,
                                   stroke_width=2.5).set_fill(T.BACKGROUND, 1)
            return VGroup(box, t.move_to(box)).move_to([x, SY, 0])
        key = d.keys[i]                       # an update: the side branch's box
        name = BRANCH[key] if str(self.v.layers[d.layer].norm.placement) != "pre" \
            else f"norm, {BRANCH[key]}"
        t = txt(name, CL, UPDATE_COLOR[key])
        box = RoundedRectangle(width=t.width + 0.35, height=0.6, corner_radius=0.1,
                               color=UPDATE_COLOR[key], stroke_width=2.5)
        return VGroup(box, t.move_to(box)).move_to([x, BY, 0])

    def path_to(self, d: Diagram, i: int) -> VMobject:
        """The stream segment into node i, or for an update the branch: up from the stream
        just after node i-1, into the box, out and down into the ⊕ after it (node i+1)."""
        x = d.xs[i]
        if d.kinds[i] == "state":
            return Line([x - 0.45, SY, 0], [x, SY, 0], color=T.X, stroke_width=4)
        if d.kinds[i] == "update":
            x0 = d.xs[i - 1] + 0.45
            box = d.marks[i]
            x1 = d.xs[i + 1]
            p = VMobject(color=UPDATE_COLOR[d.keys[i]], stroke_width=4)
            p.set_points_as_corners([[x0, SY, 0], [x0, BY, 0], [box.get_left()[0], BY, 0]])
            q = VMobject(color=UPDATE_COLOR[d.keys[i]], stroke_width=4)
            q.set_points_as_corners([[box.get_right()[0], BY, 0], [x1, BY, 0],
                                     [x1, SY + 0.27, 0]])
            if d.keys[i] != "d_attn":
                return VGroup(p, q)
            # (review 28: attention drawn fed by "bank" alone) faint lines into the box's top
            # from "every token's X": attention reads them all, the FFN only this token
            src = txt("every token's X", 24, T.LN)
            src.move_to([box.get_right()[0] + 0.45 + src.width / 2, BY + 0.62, 0])
            feed = VGroup(*[Line([src.get_left()[0] - 0.12, src.get_y() + dy, 0],
                                 box.get_top() + dx * RIGHT, color=T.ATTN, stroke_width=2,
                                 stroke_opacity=0.45)
                            for dx, dy in ((-0.4, 0.08), (0.0, 0.0), (0.4, -0.08))])
            return VGroup(p, q, VGroup(feed, src))

        prev = i - 1 if d.kinds[i - 1] != "update" else i - 2     # the stream skips the branch
        end = [x + (0.35 if i == len(d.xs) - 1 else 0), SY, 0]
        # the stream leaves a box from its right edge (never drawn through it)
        x0 = d.xs[prev] + (0.45 if d.kinds[prev] == "norm" else 0.0)
        seg = Line([x0, SY, 0], [x, SY, 0], color=T.X, stroke_width=4)
        if i == len(d.xs) - 1:                # the stream leaves the layer: an arrow onward
            tail = Arrow([x, SY, 0], [x + 1.25, SY, 0], buff=0, color=T.X, stroke_width=4,
                         tip_length=0.18, max_tip_length_to_length_ratio=0.3)
            return VGroup(seg, tail)
        del end
        return seg

    def column(self, d: Diagram, i: int, s, decimals: int = 2) -> VGroup:
        kind, key, l = d.kinds[i], d.keys[i], d.layer
        color = {"state": T.X, "update": UPDATE_COLOR.get(key, T.TEXT), "sum": T.TEXT,
                 "norm": T.X if i == len(d.kinds) - 1 else T.LN}[kind]
        if i == len(d.kinds) - 1:
            color = T.X
        col = VectorColumn(s.first.values, s.first.path, show=len(s.first),
                           length=int(self.v.shape.d_model), summary=False, color=color, size=CS,
                           decimals=decimals)
        col[0].shift(0.05 * LEFT)             # the brackets clear of a minus sign
        col[2].shift(0.05 * RIGHT)
        col.at(d.xs[i], COL_TOP)
        # no row of lengths: the voice never reads them (review 19: four lengths flashing by)
        label = None
        if kind == "state":
            label = math(T.X_l(l), ML, T.X)
        elif kind == "update":
            label = math(f"Δ\"{UPDATE_SUB[key]}\"^(({l}))", ML, color)   # no tiny subscript
        elif i == len(d.kinds) - 1:
            label = math(T.X_l(l + 1), ML, T.X)
        elif kind == "sum":
            label = txt("sum", CL, T.TEXT)
        else:
            label = txt("after LN", NL, T.LN)
        g = VGroup(col)
        g.col = col
        if label is not None:
            label.move_to([d.xs[i], (SY - 0.22 + COL_TOP) / 2, 0])
            if kind == "sum":
                # (review 31: "sum" sat under the wire and the ⊕ as it came in) under its
                # column, clear of the wiring; it comes in once the column has settled
                label.next_to(col, DOWN, buff=0.1)
            g.add(label)
        g.label = label
        return g

    def show_now(self, d: Diagram, upto: int) -> None:
        """Nodes before `upto` on screen at once (a beat that continues an earlier one whose
        beat was not shown)."""
        if d.drawn < upto:
            new = VGroup(*[VGroup(d.paths[i], d.marks[i], d.cols[i]) for i in range(d.drawn, upto)])
            self.play(FadeInPlace(new), run_time=0.6)
            d.drawn = upto

    def run_dot(self, path: VMobject, color=HL, run_time: float = 1.0) -> None:
        parts = [p for p in (path.submobjects if isinstance(path, VGroup) else [path])]
        dot = Dot(parts[0].get_start(), radius=0.08, color=color)
        for p in parts:
            self.play(MoveAlongPath(dot, p), run_time=run_time / len(parts))
        self.remove(dot)

    def draw_stream(self, d: Diagram, i: int, run_time: float) -> None:
        self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i], scale=0.8), run_time=run_time)

    def draw_branch(self, d: Diagram, i: int, run_time: float) -> None:
        """The update's branch: the path up, the box, the dot running through, the Δ column
        coming down out of the box."""
        up, down = d.paths[i][0], d.paths[i][1]
        feed = d.paths[i][2:]
        self.play(FadeIn(up), FadeIn(d.marks[i], shift=0.1 * DOWN), *[FadeIn(f) for f in feed],
                  run_time=0.4 * run_time)
        src = d.cols[i - 1] if i >= 1 else None
        if src is not None and self.on_screen(src.col.nums):
            # (review 33: "the input never travels into FFN") the stream's numbers go up the
            # branch into the box (the stream keeps its own: the skip path), the box works
            inp = src.col.nums.copy()
            dot = Dot(up.get_start(), radius=0.08, color=UPDATE_COLOR[d.keys[i]])
            self.play(MoveAlongPath(dot, up),
                      FadeOut(inp, target_position=d.marks[i].get_center(), scale=0.5),
                      run_time=0.7)
            self.remove(dot, *inp.get_family())
            self.play(Indicate(d.marks[i], scale_factor=1.12, color=UPDATE_COLOR[d.keys[i]]),
                      run_time=0.4)
        else:
            self.run_dot(up, UPDATE_COLOR[d.keys[i]], 0.25 * run_time)
        # (review 28: the update faded in below the path) the column comes out of the box's
        # bottom, small (its label never over the box's name), and grows on its way down
        # into its place under the branch
        # (review 30: it grew from ~6 px) at reading size the whole way: it comes down from
        # under the box, fading in as it travels (never smaller than where it lands)
        # (review 31: it appeared beside X, not out of the box) it leaves the box itself and
        # drops down under it into its place, at reading size the whole way
        # (review 32: ΔFFN "just appeared beside the LN output", nothing left the box) it
        # slides down out of the box itself (the box, filled, drawn over it: the column comes
        # out from behind it), fading in as it leaves, over a full second, its brackets as
        # drawn (no `.set_opacity(1)`: that filled them into thick bars)
        col = d.cols[i]
        box = d.marks[i]
        box[0].set_fill(T.BACKGROUND, 1)
        drop = max(0.0, box.get_center()[1] - col.get_top()[1])
        self.play(FadeIn(down), FadeIn(col, shift=drop * DOWN,
                                       rate_func=rate_functions.ease_out_sine),
                  run_time=max(1.0, 0.6 * run_time))

    def add_at_sum(self, d: Diagram, i: int, run_time: float) -> None:
        """Node i is a ⊕: the stream's column and the update's travel into the ⊕, a pause,
        and the sum comes out of it into its own column."""
        a, b = i - 2, i - 1                   # the stream's state before the branch, the update
        self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i], scale=0.8), run_time=0.2 * run_time)
        self.merge_at(d, [d.cols[a], d.cols[b]], d.marks[i], d.cols[i], 0.8 * run_time)

    def merge_at(self, d: Diagram, cols, mark, out, run_time: float) -> None:
        """(review 31b: the two columns morphed into the sum, digits over digits; review 31c:
        the new column's label hid under the LN box) the used columns' names leave and the
        columns slide (their spacing kept, nothing crosses) until they stand under `mark`
        (the ⊕ or the LN box); they rise a little, fading out, absorbed (never up through
        the stream line); only then does `out` come down into its place under `mark`,
        fading in, and its name follows: what goes in and what comes out are never on
        screen together, no digit is drawn over another, no name passes under a box."""
        mx = mark.get_center()[0]
        pair = VGroup(*cols)
        shift = np.array([mx - pair.get_center()[0], 0.0, 0.0])
        names = [c.label for c in cols if c.label is not None]
        for c in cols:
            if c.label is not None:
                c.remove(c.label)
        self.play(*[FadeOut(n) for n in names], *[c.animate.shift(shift) for c in cols],
                  run_time=0.35 * run_time)
        self.remove(*[m for n in names for m in n.get_family()])
        # (review 34b: the vector never went into the LN box) up into the mark, shrinking
        # into it (absorbed); the result comes out of the mark, growing into its place
        at = mark.get_center()
        self.play(*[c.animate.scale(0.15).move_to(at).set_opacity(0) for c in cols],
                  run_time=0.3 * run_time)
        self.remove(*[m for g in cols for m in g.get_family()])
        lab = out.label
        # (review 32: `.set_opacity(1)` filled the brackets' outlines into thick bars, like
        # |x|) the column fades in as drawn, coming down: its own styles kept
        if lab is not None:                   # (it comes in after, at its own place)
            out.remove(lab)
        self.play(FadeIn(out, target_position=at, scale=0.15), run_time=0.3 * run_time)
        if lab is not None:
            self.play(FadeIn(lab, shift=0.1 * UP), run_time=0.25)
            self.remove(lab)
            out.add(lab)
        for col in cols:
            if col in d.cols:
                d.retired.add(d.cols.index(col))

    def norm_at(self, d: Diagram, i: int, run_time: float) -> None:
        """Node i is LayerNorm: the sum's column goes under the box and into it, and LN(sum)'s
        comes out of it into its column (the same motion as at a ⊕)."""
        self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i], scale=0.8), run_time=0.2 * run_time)
        self.merge_at(d, [d.cols[i - 1]], d.marks[i], d.cols[i], 0.8 * run_time)

    def draw_node(self, d: Diagram, i: int, run_time: float) -> None:
        kind = d.kinds[i]
        if kind == "state":
            self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i]), FadeIn(d.cols[i], shift=0.1 * DOWN),
                      run_time=run_time)
        elif kind == "update":
            self.draw_branch(d, i, run_time)
        elif kind == "sum":
            self.add_at_sum(d, i, run_time)
        else:
            self.norm_at(d, i, run_time)
        d.drawn = i + 1

    def new_column(self, box, head, cells, col, run_time: float, at: tuple[float, float],
                   glide: float, low_first: bool = True) -> None:
        """A new column of the table comes in under `head` with the pointer `box` on it, joins
        the stage, then the pointer visits its lowest number at `at[0]`, its highest at
        `at[1]` (scene times)."""
        self.play(FadeIn(head, shift=0.1 * DOWN),
                  LaggedStart(*[FadeIn(c, shift=0.15 * DOWN) for c in cells], lag_ratio=0.3),
                  FadeOut(box), run_time=run_time)
        box.become(self.frame_of(col(cells)))
        self.play(FadeIn(box), run_time=0.3)
        self.stage.parts += [head, *cells]
        vals = sorted([c for c in cells if isinstance(c, Num)], key=lambda n: n.value)
        if not low_first:
            vals = vals[::-1]
        self.glide(box, vals[0], at[0], glide)
        self.glide(box, vals[-1], at[1], glide)

    def cue_text(self, k) -> str:
        """What cue k says ('' when there is no such cue: a preview has none)."""
        cues = self.beat.get("cues") or []
        return str(cues[k].get("text", "")) if k is not None and 0 <= k < len(cues) else ""

    def when(self, k: int, phrase: str) -> float:
        """Scene time when `phrase` of cue k is spoken (its place in the sentence's text, as a
        share of the sentence's audio); the cue's start when the phrase is not in it."""
        cues = self.beat.get("cues") or []
        if k >= len(cues):
            return self.cue_at(k)
        text = str(cues[k].get("text", ""))
        # (review 32b: "0.84" came 1.5 s after it was said) the share of the sentence read
        # before the phrase, counted on the words the voice reads (digits as words)
        f = (spoken_len(text[:text.find(phrase)]) / max(1, spoken_len(text))
             if phrase in text else 0.0)
        return self.cue_at(k) + f * float(cues[k].get("duration", 0.0))

    # --- recap: X^(l) + Δattn^(l) on the skip path ---------------------------------------------
    def beat_x(self, beat) -> None:
        d = self.diagram_for(self.layer, note=False)
        self.show_now(d, 0)
        first_sum = d.kinds.index("sum")
        if "goes straight on" not in self.cue_text(0) and self.time < 0.05:
            # (round 32: the add was per_head's, re-taught here) "as the last video left it":
            # the diagram up to the first ⊕ and the sum's column are there from the first
            # frame (the addends' columns already used up); the pointer on the sum
            # the sum's name says what it is the sum of (its addends are not drawn)
            sc = d.cols[first_sum]
            if sc.label is not None and d.kinds[first_sum - 1] == "update":
                key = d.keys[first_sum - 1]
                name = VGroup(math(T.X_l(self.layer), ML, T.X), math("+", ML, T.TEXT),
                              math(f"Δ\"{UPDATE_SUB[key]}\"^(({self.layer}))", ML,
                                   UPDATE_COLOR[key])).arrange(RIGHT, buff=0.12)
                # (review 33: the pointer's edge cut through the name under the column, the
                # line under the picture tight below) the name beside the column
                name.next_to(sc.col, RIGHT, buff=0.4)
                sc.remove(sc.label)
                sc.label = name
                sc.add(name)
            for i in range(first_sum + 1):
                if i in (first_sum - 2, first_sum - 1):
                    self.add(d.paths[i], d.marks[i])
                    d.retired.add(i)
                else:
                    self.add(d.paths[i], d.marks[i], d.cols[i])
            d.drawn = first_sum + 1
            self.set_note(self.word_note(), T.TEXT)
            self.busy_until(self.phrase_time("LayerNorm", self.time + 2.0) - 0.4,
                            d.cols[first_sum].col)
            nxt = first_sum + 1
        else:
            nxt = None
        if nxt is not None:
            pass
        elif self.time < 0.05:
            # (review 30: an empty stage under the title for 1.5 s) X^(l), its dot and its
            # column are there in the very first frame
            self.add(d.paths[0], d.marks[0], d.cols[0])
            d.drawn = 1
        else:
            self.draw_node(d, 0, 0.3)             # X^(l) and its column
        if self.stage.note is None:
            self.set_note(self.word_note(), T.TEXT)
        if nxt is None:
            self.hold_until(self.when(0, "goes straight on") - 0.2)
            self.play(FadeIn(d.paths[first_sum]), run_time=0.4)
            self.run_dot(d.paths[first_sum], T.X, 1.0)       # the skip path: X goes straight on
            self.hold_until(self.when(0, "attention's update") - 0.3)
            self.draw_node(d, 1, 1.6)
            self.hold_until(self.when(0, "added to it") - 0.2)
            self.draw_node(d, first_sum, 2.4)
            nxt = first_sum + 1
        kl = self.cue_with("subtracts")
        cen = self.centred_at(d, nxt) if nxt < len(d.kinds) else None
        if (nxt < len(d.kinds) and d.kinds[nxt] == "norm" and kl is not None
                and cen is not None):
            # (review 32: LayerNorm was a value swap under the LN box, what it does only
            # captioned) its two steps on the three numbers shown, each with its sentence:
            # "subtracts the mean of the 384 numbers and divides by their spread": the sum
            # goes into the LN box and comes out centred and scaled (the plan's numbers, the
            # mean and spread written in the line under the picture); "then a learned gain
            # and bias": that column goes into the box again and LN's output comes out
            self.hold_until(self.phrase_time("LayerNorm", self.time) - 0.3)
            self.play(FadeIn(d.paths[nxt]), FadeIn(d.marks[nxt], scale=0.8), run_time=0.4)
            std = self.centred_column(d, nxt, cen)
            self.hold_until(self.when(kl, "subtracts") - 0.3)
            n = int(self.v.shape.d_model)
            self.set_note(VGroup(
                txt(f"over all {n} numbers: minus their mean", S, T.TEXT),
                Num(cen.mean, decimals=3, size=S, color=T.TEXT),
                txt(", divided by their spread", S, T.TEXT),
                Num(cen.spread, decimals=3, size=S, color=T.TEXT)).arrange(RIGHT, buff=0.12))
            # (review 32b: the entries faded value to value, the mean and spread never seen
            # applied) the sum's column slides under the LN box; beside each entry "− mean
            # ÷ spread"; each tag slides into its entry and the entry becomes its result in
            # place; then "× gain + bias", each row its own pair
            src = d.cols[nxt - 1]
            tags = [self.op_tag([("−", cen.mean), ("÷", cen.spread)], paren=True)
                    for _ in src.col.nums]
            self.ln_morph(src, std, tags, 1.2, hold=0.5, into=d.marks[nxt])
            kg = self.cue_with("gain")
            # (the gain's sentence is short: its line comes in as the one before ends)
            self.hold_until((self.cue_at(kg) if kg is not None else self.time + 0.8) - 0.8)
            self.set_note("then times a learned gain, plus a learned bias: one pair per number")
            if len(cen.gain) >= len(std.col.nums) and len(cen.bias) >= len(std.col.nums):
                tags = [self.op_tag([("×", cen.gain[j]), ("+", cen.bias[j])])
                        for j in range(len(std.col.nums))]
                self.ln_morph(std, d.cols[nxt], tags, 1.0, hold=0.2)
            else:
                self.merge_at(d, [std], d.marks[nxt], d.cols[nxt], 1.6)
            d.retired.add(nxt - 1)
            d.drawn = nxt + 1
            self.busy_until(self.cue_at(99) - 0.6, d.cols[nxt])
            self.clear_note()
            return
        if (nxt < len(d.kinds) and d.kinds[nxt] == "norm"
                and self.cue_with("LayerNorm") is not None):
            # "Then LayerNorm": the sum goes into the LN box and comes out (no arithmetic)
            self.hold_until(self.phrase_time("LayerNorm", self.time) - 0.3)
            self.draw_node(d, nxt, 1.6)
            kl = self.cue_with("centres")
            if kl is not None:
                # "centres the sum's numbers and scales them to a fixed spread, then applies a
                # learned gain and bias": what it did, one line under the picture while the
                # LN box is pointed at; then the pointer on what came out
                box = self.frame_of(d.marks[nxt], buff=0.08)
                self.hold_until(self.when(kl, "centres") - 0.3)
                self.play(FadeIn(box), run_time=0.4)
                self.set_note(f"LayerNorm: the {int(self.v.shape.d_model)} numbers centred "
                              "(mean 0), scaled (spread 1), then a learned gain and bias")
                self.hold_until(self.when(kl, "applies") - 0.3)
                self.repoint(box, d.cols[nxt], 0.6)
                self.hold_until(self.cue_at(99) - 0.4)
                self.play(FadeOut(box), run_time=0.3)
                return
            self.busy_until(self.cue_at(99) - 0.2, d.cols[nxt])
            return
        self.busy_until(self.cue_at(99) - 0.2, d.cols[first_sum])

    def clear_note(self, run_time: float = 0.3) -> None:
        """(review 33: the gain's line stayed under the FFN's sentence) the line under the
        picture leaves with its sentence."""
        if self.stage.note is not None:
            self.vanish(self.stage.note, run_time=run_time)
            self.stage.note, self.stage.note_text = None, ""

    def op_tag(self, ops, paren: bool = False):
        """One row's operation as written around its entry: [("−", 0.009), ("÷", 0.657)],
        paren -> "(" before the entry and "− 0.009) ÷ 0.657 =" after it (review 33: "0.422 −
        0.009 ÷ 0.657" read as 0.422 − (0.009 ÷ 0.657)); without paren, "× 0.545 + (−0.015)
        =" after it. A negative number after + or − in brackets; the plan's numbers, at the
        columns' size, in LayerNorm's colour. Returns (the "(" or None, the rest)."""
        parts, tight = [], []
        for k, (sign, val) in enumerate(ops):
            neg = float(val) < 0 and sign in ("+", "−")
            parts.append(txt(sign, CS, T.LN))
            tight.append(False)
            if neg:
                parts.append(txt("(", CS, T.LN))
                tight.append(False)
            parts.append(Num(val, decimals=XDEC, size=CS, color=T.LN))
            tight.append(neg)
            if neg:
                parts.append(txt(")", CS, T.LN))
                tight.append(True)
            if paren and k == 0:
                parts.append(txt(")", CS, T.LN))
                tight.append(True)
        parts.append(txt("=", CS, T.LN))
        tight.append(False)
        rest = VGroup(parts[0])
        for m, t in zip(parts[1:], tight[1:]):
            m.next_to(rest, RIGHT, buff=0.05 if t else 0.14)
            rest.add(m)
        for m in rest:                     # one baseline: centred on the digits' height
            m.set_y(rest[0].get_y())
        opn = txt("(", CS, T.LN) if paren else None
        return (opn, rest)

    def slide_under(self, g, x: float, run_time: float) -> None:
        """A diagram column (`g.col`, `g.label`) slides sideways until its numbers stand at
        x; its label leaves first (it is renamed where it lands)."""
        lab = g.label
        if lab is not None:
            g.remove(lab)
            g.label = None
        self.play(*([FadeOut(lab)] if lab is not None else []),
                  g.animate.shift((x - g.col[1].get_x()) * RIGHT), run_time=run_time)
        if lab is not None:
            self.remove(*lab.get_family())

    def ln_morph(self, src, dst, tags, run_time: float, hold: float = 0.4,
                 left: bool = False, into=None) -> None:
        """LayerNorm's step written out on each entry (review 33: digits scrambled as they
        cross-faded in place): `src` slides left of `dst`'s place (under the LN box) by the
        width of the operation; its brackets go and each entry stands in its row's
        expression, "(0.422 − 0.009) ÷ 0.657 ="; after `hold` s each result comes out of its
        "=" into `dst`'s column, which stands under the box; then the expressions go, and
        `dst`'s name comes in under it. Nothing is drawn over anything else; `left` is
        kept for callers (the operation always reads left to right)."""
        del left
        col, out = src.col, dst.col
        gap = 0.3
        rest_w = max(r.width for _, r in tags)
        num_right = max(n.get_right()[0] for n in col.nums)
        target = out.get_left()[0] - gap - rest_w - 0.14
        dx = target - num_right
        gone = src.label
        if gone is not None:
            src.remove(gone)
            src.label = None
        frame = [m for m in col if m is not col[1]] + [m for m in col[1] if m is not col.nums]
        goal = [m for m in out if m is not out[1]] + [m for m in out[1] if m is not out.nums]
        pieces = [VGroup(*([o] if o is not None else []), r) for o, r in tags]
        if into is not None:
            # (review 34b: the vector never went into the LN box) the column goes up into
            # the box, shrinking into it; its entries come back out of the box, each into its
            # row's expression under it
            at = into.get_center()
            home = [n.get_center() + dx * RIGHT for n in col.nums]
            self.play(src.animate.scale(0.15).move_to(at).set_opacity(0),
                      *([FadeOut(gone)] if gone is not None else []), run_time=0.4)
            self.remove(*[f for m in frame for f in m.get_family()])
            if gone is not None:
                self.remove(*gone.get_family())
            nums = list(col.nums)
            self.remove(*[f for n in nums for f in n.get_family()])
            for n, h in zip(nums, home):
                n.scale(1 / 0.15).set_opacity(1).move_to(h)
            for (o, r), n in zip(tags, nums):
                r.move_to([target + 0.14 + r.width / 2, n.get_y(), 0])
                if o is not None:
                    o.next_to(n, LEFT, buff=0.05)
            rows = [VGroup(n, g) for n, g in zip(nums, pieces)]
            self.play(LaggedStart(*[FadeIn(g, target_position=at, scale=0.15) for g in rows],
                                  lag_ratio=0.2), run_time=0.6)
            for g in rows:
                self.remove(g)
            self.add(*nums, *pieces)
        else:
            self.play(src.animate.shift(dx * RIGHT),
                      *([FadeOut(gone)] if gone is not None else []), run_time=0.4)
            if gone is not None:
                self.remove(*gone.get_family())
            for (o, r), n in zip(tags, col.nums):
                r.move_to([target + 0.14 + r.width / 2, n.get_y(), 0])
                if o is not None:
                    o.next_to(n, LEFT, buff=0.05)
            self.play(*[FadeOut(m) for m in frame],
                      LaggedStart(*[FadeIn(g, shift=0.1 * LEFT) for g in pieces],
                                  lag_ratio=0.25),
                      run_time=0.6)
            self.remove(*[f for m in frame for f in m.get_family()])
        self.hold_until(self.time + hold)
        self.play(*[FadeIn(m) for m in goal],
                  LaggedStart(*[FadeIn(b, shift=0.35 * RIGHT) for b in out.nums],
                              lag_ratio=0.3),
                  run_time=run_time)
        self.hold_until(self.time + 0.2)
        lab = dst.label
        self.play(*[FadeOut(m) for m in (*col.nums, *pieces)],
                  *([FadeIn(lab, shift=0.1 * UP)] if lab is not None else []), run_time=0.4)
        self.remove(*[f for t in pieces for f in t.get_family()])
        self.remove(*[f for f in src.get_family()])
        self.add(out)
        self.add(dst)

    def centred_at(self, d: Diagram, i: int):
        """The plan's centred-and-scaled input of the LayerNorm at node i (None: none)."""
        u = self.v.layers[d.layer].update
        key = d.keys[i]
        for c in (u.centred if u is not None else []):
            if str(c.key) == key and len(c.first):
                return c
        return None

    def centred_column(self, d: Diagram, i: int, cen) -> VGroup:
        """The column of `cen`'s first numbers under node i (LayerNorm's first step), named
        "centred, scaled" under it: the same make as the diagram's columns."""
        col = VectorColumn(cen.first.values, cen.first.path, show=len(cen.first),
                           length=int(self.v.shape.d_model), summary=False, color=T.LN,
                           size=CS, decimals=XDEC)
        col[0].shift(0.05 * LEFT)
        col[2].shift(0.05 * RIGHT)
        col.at(d.xs[i], COL_TOP)
        label = txt("centred, scaled", NL, T.LN).next_to(col, DOWN, buff=0.05)
        g = VGroup(col, label)
        g.col, g.label = col, label
        return g

    # --- norm: LayerNorm after the add ----------------------------------------------------------
    def phrase_time(self, phrase: str, default: float) -> float:
        """Scene time when `phrase` is spoken in this beat (`default` when no sentence of
        this beat has it: a draft or another arrangement may say less)."""
        k = self.cue_with(phrase)
        return self.when(k, phrase) if k is not None else default

    # --- ffn: the second half, X^(l+1) -------------------------------------------------------------
    def beat_ffn(self, beat) -> None:
        d = self.diagram_for(self.layer)
        ffn = d.keys.index("d_ffn")
        self.show_now(d, ffn)
        extra = [m for m in self.stage.parts]              # the LN working of the last beat
        self.vanish(*extra, run_time=0.4)
        self.stage.parts = []
        # "the feed-forward network makes its own update": its branch, then its box pointed at
        self.hold_until(self.phrase_time("feed-forward", self.time) - 0.3)
        # (the LayerNorm's line stayed under the FFN's entrance) the FFN's line first
        sh = self.v.shape
        self.set_note(f"FFN: a {int(sh.d_model)} → {int(sh.d_mlp)} → {int(sh.d_model)} "
                      "network, applied to this token alone", T.TEXT)
        self.draw_node(d, ffn, 1.0)
        # "adds its own update" (or "Another skip path adds it"): the second skip path and ⊕
        k = self.cue_with("skip path")
        t_add = (self.cue_at(k) if k is not None
                 else self.phrase_time("adds its own", self.time))
        self.busy_until(t_add - 0.2, d.marks[ffn])
        self.run_dot(d.paths[ffn + 1], T.X, 0.45)             # the second skip path
        i = ffn + 1
        self.draw_node(d, i, 1.1)                            # the ⊕: the sum it makes
        box = None
        if i + 1 >= len(d.kinds):
            box = self.frame_of(d.cols[i].col)               # the sum it made
            self.play(FadeIn(box), run_time=0.3)
        if i + 1 < len(d.kinds):                             # post-LN: LayerNorm again
            # (its own sentence: the voice waits for the sum to be made)
            kln = self.cue_with("LayerNorm again")
            if kln is not None and self.time > self.cue_at(kln) - 0.3:
                self.pause_before(kln, 0.3)
            self.hold_until(self.phrase_time("LayerNorm again", self.time) - 0.3)
            n2 = i + 1
            cen = self.centred_at(d, n2) if d.kinds[n2] == "norm" else None
            km = self.cue_with("mean and spread")
            if (cen is not None and km is not None and len(cen.gain) >= len(cen.first)
                    and len(cen.bias) >= len(cen.first)):
                # (review 32b: the second LayerNorm faded 0.306 into 0.282, no mean or
                # spread) as at the first: the sum slides under the box, "− mean ÷ spread"
                # goes into each entry (from the left: the stream ends at the frame's right),
                # then each entry's own gain and bias
                std = self.centred_column(d, n2, cen)
                src = d.cols[i]
                lab = src.label
                if lab is not None:
                    src.remove(lab)
                    src.label = None
                self.play(FadeIn(d.paths[n2]), FadeIn(d.marks[n2], scale=0.8),
                          *([FadeOut(lab)] if lab is not None else []), run_time=0.4)
                self.hold_until(self.cue_at(km) - 0.2)
                self.set_note(VGroup(
                    txt("LayerNorm again: minus this sum's mean", S, T.TEXT),
                    Num(cen.mean, decimals=3, size=S, color=T.TEXT),
                    txt(", divided by its spread", S, T.TEXT),
                    Num(cen.spread, decimals=3, size=S, color=T.TEXT)).arrange(RIGHT, buff=0.12))
                tags = [self.op_tag([("−", cen.mean), ("÷", cen.spread)], paren=True)
                        for _ in src.col.nums]
                self.ln_morph(src, std, tags, 1.0, hold=0.2, into=d.marks[n2])
                # "Then its own gain and bias" (review 33: rushed, the line still said mean
                # and spread): its own sentence, which waits for the first step; its line
                kg = self.cue_with("gain and bias")
                if kg is not None and kg != km:
                    self.pause_before(kg, 0.2)
                    self.hold_until(self.cue_at(kg) - 0.3)
                else:
                    self.hold_until(self.phrase_time("gain and bias", self.time) - 1.0)
                self.set_note("then this LayerNorm's own learned gain and bias: one pair per number")
                tags = [self.op_tag([("×", cen.gain[j]), ("+", cen.bias[j])])
                        for j in range(len(std.col.nums))]
                self.ln_morph(std, d.cols[n2], tags, 1.0, hold=0.2)
                d.retired.add(i)
                d.drawn = n2 + 1
            else:
                self.draw_node(d, n2, 1.6)
            for j in range(d.drawn, len(d.kinds)):
                self.draw_node(d, j, 1.6)
        self.hold_until(self.phrase_time("reads", self.time) - 0.4)
        if box is not None:
            self.vanish(box, run_time=0.3)
        last = d.cols[-1]
        # "the state layer 1 reads": one box on it and its name (clear of the LN box)
        self.busy_until(self.cue_at(99) - 0.3, VGroup(last.col, *([last.label] if last.label
                                                                   else [])))

    # --- project: layer l starts over ---------------------------------------------------------------
    def matrix_block(self, lay, k: str, l: int, decimals: int = 3) -> VGroup:
        """W_K^(l) of head 0 as numbers (its first rows and columns), "⋮" under each column
        and the bias row under that, each labelled: one block, built at the origin."""
        K = NAME[k]
        w = getattr(lay, f"W_{K}")
        W = WeightBlock(w.values, w.path, color=COLOR[k], decimals=decimals, size=PS)
        wl = math(f"W_{K}^(({l}))", ML, COLOR[k]).next_to(W, LEFT, buff=0.2).align_to(W, UP)
        bias = getattr(lay, f"b_{K}")
        brow = VGroup(*[Num(bias[j], decimals=decimals, size=PS, color=COLOR[k])
                        for j in range(len(bias))])
        more = VGroup(*[txt("⋮", PS, COLOR[k]).next_to(c, DOWN, buff=0.08) for c in W.columns])
        for j, n in enumerate(brow):
            n.next_to(more[j], DOWN, buff=0.12).set_x(W.columns[j].get_x())
        bl = math(f"+ b_{K}^(({l}))", ML, COLOR[k]).next_to(brow, LEFT, buff=0.2)
        bl.align_to(wl, RIGHT)
        has_b = bool(lay.bias)
        g = VGroup(wl, W, more, *([bl, brow] if has_b else []))
        g.wl, g.W, g.more, g.bl, g.brow, g.has_b = wl, W, more, bl, brow, has_b
        return g

    def head_strip(self, key) -> VGroup:
        """W_Q's columns as one thin strip cut into its heads (n_heads bands), under `key`
        (the line naming which rows and columns the block shows); `.bands`, `.label` ("its
        columns: 12 heads of 32", right of the strip) and `.first` ("head 0" under band 0)."""
        nh, dh = int(self.v.shape.n_heads), int(self.v.shape.d_head)
        label = txt(f"its columns: {nh} heads of {dh}", PS, T.TEXT)
        room = self.HOME_WIDTH - 2 * T.EDGE - label.width - 0.3
        width = min(5.0, room)
        bands = VGroup(*[Rectangle(width=width / nh, height=0.24, stroke_width=1.5,
                                   stroke_color=T.MUTED).set_fill(T.MUTED, 0.35)
                         for _ in range(nh)]).arrange(RIGHT, buff=0)
        bands.next_to(key, DOWN, buff=0.3).align_to(key, LEFT)
        label.next_to(bands, RIGHT, buff=0.3)
        first = txt(f"head {int(self.v.show.head)}", PS, T.Q).next_to(bands[0], DOWN, buff=0.1)
        first.align_to(bands[0], LEFT)
        g = VGroup(bands, label, first)
        self.keep_inside(g)
        g.bands, g.label, g.first = bands, label, first
        return g

    def proj_layout(self, l: int) -> dict:
        """Where layer l's pieces sit: the X row on top; W_Q, W_K, W_V side by side (slots
        0, 1, 2), each result row under its own matrix; one line naming what the numbers are
        under the matrices. The later comparison puts layer l-1 in slot 2, under its X."""
        v = self.v.layers[l]
        pre = str(v.norm.placement) == "pre"
        row = row_of(v.in_first.values, v.in_first.path, T.X, PS, decimals=XDEC)
        row[2].shift(0.4 * RIGHT)                 # room for "…": X has d_model numbers
        row.add(txt("…", PS, T.X).next_to(row.nums, RIGHT, buff=0.12))
        label = math(f"\"norm\"({T.X_l(l)})" if pre else T.X_l(l), ML, T.X)
        room = self.HOME_WIDTH - 2 * T.EDGE
        for dec in (3, 2):                   # side by side at 3 decimals, else at 2
            blocks = {k: self.matrix_block(v, k, l, dec) for k in QKV}
            slots = VGroup(*blocks.values()).arrange(RIGHT, buff=0.45, aligned_edge=UP)
            side = slots.width <= room       # all three fit side by side
            if side:
                break
        # else one slot (each matrix in turn), at 2 decimals: the numbers large (review 26)
        self.wdec = dec
        if side:
            slots.move_to([0, SLOT_Y, 0]).align_to([0, SLOT_Y + 0.55, 0], UP)
        else:                                 # one slot: each matrix takes W_Q's place
            for b in blocks.values():
                b.move_to([PW, SLOT_Y, 0]).align_to([0, SLOT_Y + 0.55, 0], UP)
                self.keep_inside(b)
        low = min(b.get_bottom()[1] for b in blocks.values())
        w = v.W_Q
        key = txt(f"rows 1–{len(w)} of {int(self.v.shape.d_model)}, columns 1–{len(w[0])} "
                  f"of {int(self.v.shape.d_head)} (head {int(self.v.show.head)})",
                  PS, T.TEXT).move_to([0, low - 0.3, 0])
        key.align_to(blocks["q"], LEFT)
        self.keep_inside(key)
        res_y = low - 0.95
        at = {k: [b.W.get_x() if side else PR, res_y if side else ROW_Y[k], 0]
              for k, b in blocks.items()}
        # X^(l) over W_Q (its row begins where W_Q's label does)
        label.next_to(row, LEFT, buff=0.2)
        xg = VGroup(label, row)
        xg.move_to([0, PY_X, 0]).align_to(blocks["q"], LEFT)
        self.keep_inside(xg)
        return {"row": row, "label": label, "blocks": blocks, "key": key, "at": at,
                "side": side, "pre": pre, "wdec": self.wdec}

    def beat_project(self, beat) -> None:
        l = self.layer
        v = self.v.layers[l]
        st = self.stage
        d = st.diagram
        lay = self.proj_layout(l)
        row, label, pre = lay["row"], lay["label"], lay["pre"]
        carried = (d is not None and d.layer == l - 1 and d.drawn == len(d.kinds)
                   and not pre)
        if carried:
            src = d.cols[-1]
            rest = VGroup(*[VGroup(d.paths[i], d.marks[i],
                                   *([] if i in d.retired else [d.cols[i]]))
                            for i in range(len(d.kinds) - 1)], d.paths[-1], d.marks[-1],
                          *[m for m in src if m is not src.col and m is not src.label])
            # (review 34b: the whole diagram faded to a bare X^(l) column; layer l's
            # projections were never placed in layer l) the diagram slides left until X^(l)
            # stands where layer l starts, layer l-1's part fading as it goes, and layer l's
            # start is drawn on from it: its stream, its attention branch (fed by every
            # token's X) and its ⊕; that piece then shrinks to the top right, the attention
            # box pointed at, and stays there while its Q, K and V are made
            dx = d.xs[-1] - X_LEFT
            stub = self.layer_stub(l)
            gone = [m for m in (st.note, *st.parts) if m is not None]
            self.play(FadeOut(rest, shift=dx * LEFT), src.animate.shift(dx * LEFT),
                      *[FadeOut(m) for m in gone], run_time=0.8)
            self.remove(*[f for m in (rest, *gone) for f in m.get_family()])
            if stub is not None:
                self.play(Create(stub.stream), FadeIn(stub.rest), run_time=0.6)
                ka0 = self.cue_with("attention")
                if ka0 is not None and ka0 < 1:
                    self.hold_until(self.when(ka0, "attention") - 0.2)
                spot = self.frame_of(stub.box, buff=0.08)
                self.play(FadeIn(spot), run_time=0.3)
                # (its names keep their size: the piece moves, not shrinks; the feed's
                # "every token's X" leaves, the attention box stays pointed at)
                feed = stub.feed
                stub.remove(feed) if feed in stub else None
                stub.rest.remove(feed) if feed in stub.rest else None
                for part in stub.rest:
                    if feed in part:
                        part.remove(feed)
                stub.add(spot)
                dest = [6.85 - stub.get_right()[0], 3.1 - stub.get_top()[1], 0]
                stub_go = [stub.animate.shift(dest), FadeOut(feed)]
            else:
                stub_go = []
            # the column's own digits and label move into the row (the same glyphs: nothing
            # morphs); its brackets, dots and length go first, the row's brackets come last
            nums = list(src.col.nums)
            same = (len(nums) == len(row.nums)
                    and all(getattr(a, "decimals", None) == b.decimals
                            for a, b in zip(nums, row.nums)))
            brackets = VGroup(src.col[0], src.col[2], *src.col[1][1:])
            if stub_go:
                # (the layer's piece moves to the top right while X's column goes up)
                self.play(*stub_go, FadeOut(brackets), run_time=0.5)
                self.remove(*stub.feed.get_family(), *brackets.get_family())
            else:
                self.vanish(brackets, run_time=0.3)
            if same:
                # the label and its numbers travel as one piece (review 24: they flew apart),
                # the column keeping its shape, until its top number sits on the row's first
                # place; then each number slides across on its own line to its x (the label
                # to the row's left, above the numbers) and up into the row (the label down):
                # nothing ever passes over anything else
                k = row.nums[0].height / max(nums[0].height, 1e-6)
                here = nums[0].get_center()
                go = row.nums[0].get_center() - here
                lab_to = here + k * (src.label.get_center() - here) + go   # the label: its size
                self.play(VGroup(*nums).animate.scale(k, about_point=here).shift(go),
                          src.label.animate.move_to(lab_to), run_time=0.9)
                self.play(src.label.animate.set_x(label.get_x()),
                          *[n.animate.set_x(r.get_x()) for n, r in zip(nums, row.nums)],
                          run_time=0.4)
                self.play(src.label.animate.move_to(label.get_center()),
                          *[n.animate.move_to(r.get_center()) for n, r in zip(nums, row.nums)],
                          run_time=0.4)
            else:       # another decimals convention: the column leaves, the row comes in
                self.play(src.label.animate.move_to(label.get_center()),
                          FadeOut(VGroup(*nums)), run_time=0.5)
                self.remove(*VGroup(*nums).get_family())
                self.play(FadeIn(row.nums), run_time=0.6)
            link = None
            if stub is not None:
                # X's row feeds layer l's stream: a line from its end to the piece's start
                sx, sy = stub.stream[0].get_start()[:2]
                rx = row.get_right()[0] + 0.2
                if sx > rx + 0.4:
                    link = VMobject(color=T.X, stroke_width=4)
                    link.set_points_as_corners([[rx, row.get_y(), 0], [sx, row.get_y(), 0],
                                                [sx, sy, 0]])
            self.play(FadeIn(VGroup(row[0], row[2], row[3])),
                      *([Create(link)] if link is not None else []), run_time=0.5)
            self.remove(*src.get_family())
            self.add(row, label)
            self.stage = Stage()
            if stub is not None:
                if link is not None:
                    stub.add(link)
                self.stage.parts.append(stub)
        else:
            self.clear_stage()
            self.play(FadeIn(row), FadeIn(label), run_time=0.6)
        st = self.stage
        st.parts += [row, label]
        # "in MiniLM, X is already LayerNorm's output, so the matrices read X directly"
        ka = self.cue_with("already")
        said = None
        if ka is not None and not pre:
            self.hold_until(self.when(ka, "already") - 0.3)
            said = txt("= LayerNorm's output", PS, T.LN).next_to(row, RIGHT, buff=0.3)
            self.play(FadeIn(said, shift=0.1 * LEFT), run_time=0.6)
            st.parts.append(said)
            if "pre-LN" in str(self.beat["cues"][ka].get("text", "")):
                # "; a pre-LN model would normalise X here first": one line under it, the
                # pointer on the row and then on that line; it leaves when W_Q comes in
                box = self.frame_of(VGroup(label, row, said))
                self.play(FadeIn(box), run_time=0.4)
                pre_note = txt("in a pre-LN model: LN(X) would enter here", PS, T.TEXT)
                pre_note.next_to(said, DOWN, buff=0.25).align_to(said, LEFT)
                self.keep_inside(pre_note)
                self.hold_until(self.when(ka, "pre-LN") - 0.3)
                self.repoint(box, pre_note, 0.6, anims=[FadeIn(pre_note, shift=0.1 * UP)])
                if "here" in self.cue_text(ka):
                    # "would normalise X here, before the matrices": the pointer back on X
                    self.glide(box, VGroup(label, row), self.when(ka, "here") + 0.3, 0.6)
                self.hold_until(self.cue_end(ka) - 0.4)
                self.play(FadeOut(box), run_time=0.3)
                self.pre_note = pre_note
            else:
                self.busy_until(self.cue_end(ka) - 0.1, VGroup(label, row, said))
        rows = {}
        # each matrix on its own sentence (the cue that names it; else the next ones in turn)
        cue = {k: self.cue_with(f"{w} matrix") for k, w in (("q", "query"), ("k", "key"),
                                                             ("v", "value"))}
        cue = {k: (c if c is not None else i + 1) for i, (k, c) in enumerate(cue.items())}
        blocks, key = lay["blocks"], lay["key"]
        self.proj_key = key
        for i, k in enumerate(QKV):
            K = NAME[k]
            block = blocks[k]
            self.hold_until_cue(cue[k])
            if i and not lay["side"]:      # one slot: the last matrix leaves it first
                old = blocks[QKV[i - 1]]
                # (review 31b: head 0's yellow band stayed under W_K and W_V) the heads' strip
                # is W_Q's: it leaves with W_Q
                strip = getattr(self, "proj_strip", None)
                gone = [old] + ([strip] if strip is not None else [])
                self.play(*[FadeOutPlace(m) for m in gone], run_time=0.3)
                self.remove(*[f for m in gone for f in m.get_family()])
                st.parts = [m for m in st.parts if m not in gone]
                self.proj_strip = None
            # the matrix comes into its own place (the ones before stay where they are)
            shown = VGroup(block.wl, block.W, block.more)
            pre_note = getattr(self, "pre_note", None) if i == 0 else None
            self.pre_note = None
            self.play(FadeIn(shown, shift=0.2 * DOWN),
                      *([FadeIn(key)] if i == 0 else []),
                      *([FadeOutPlace(pre_note)] if pre_note is not None else []), run_time=0.5)
            if i == 0:
                st.parts.append(key)
                # "whose columns are 12 heads of 32": all of W_Q's columns as one strip cut
                # into the heads, head 0's band lit ("for head 0"), under the key line
                ks = cue[k]
                if "heads" in self.cue_text(ks) and not lay["side"]:
                    strip = self.head_strip(key)
                    self.hold_until(self.when(ks, "heads") - 0.5)
                    self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in strip.bands],
                                          lag_ratio=0.08),
                              FadeIn(strip.label, shift=0.1 * LEFT), run_time=0.9)
                    # (review 34b: one 11 s sentence) "For head 0, ..." may be its own
                    # sentence: the band lights as it starts
                    kf = self.cue_with("or head")
                    if kf is not None:
                        self.hold_until(self.when(kf, "or head") - 0.2)
                    self.play(strip.bands[0].animate.set_fill(T.Q, 1),
                              FadeIn(strip.first, shift=0.1 * DOWN), run_time=0.5)
                    self.add(strip)
                    st.parts.append(strip)
                    self.proj_strip = strip
            st.parts.append(block)
            # Q column by column; K and V, "the same", all three columns at once
            kpb = self.cue_with("plus a bias", cue["q"])
            per = (max(0.9, min(3.0, (self.when(kpb, "plus a bias") - self.time - 0.4) / 3))
                   if i == 0 else max(1.6, self.cue_end(cue[k]) - self.time - 0.1))
            name = math(f"{K}^(({l}))", ML, COLOR[k])
            # K's and V's rows start where Q's does (it may have moved right, clear of X)
            at = (np.array(lay["at"][k], dtype=float)
                  + (getattr(self, "res_dx", 0.0) if i and not lay["side"] else 0.0) * RIGHT)
            res = self.product(row, block.W, block.brow if block.has_b else None, block.bl,
                               getattr(v, k), at, COLOR[k], per, name,
                               together=i > 0)
            rows[k] = VGroup(name, res)
            st.parts.append(rows[k])
        st.proj_layer, st.proj_rows, st.proj_x = l, rows, row
        st.proj_label, st.proj_blocks, st.proj_lay = label, blocks, lay
        st.proj_said = said
        self.hold_until(self.cue_at(99) - 0.2)

    def layer_stub(self, l: int):
        """Layer l's diagram up to its first ⊕ (its X dot, stream, attention branch fed by
        every token's X, the ⊕), drawn at the diagram's place; None when layer l's first
        update is not attention's (another arrangement)."""
        u = self.v.layers[l].update
        stages = list(u.stages) if u is not None else []
        kinds, keys = [str(x.kind) for x in stages], [str(x.key) for x in stages]
        if len(kinds) < 3 or kinds[1] != "update" or keys[1] != "d_attn" or kinds[2] != "sum":
            return None
        d1 = Diagram(l, kinds, keys, list(np.linspace(X_LEFT, X_RIGHT, len(stages))))
        for i in range(3):
            d1.marks.append(self.mark(d1, i))
            d1.paths.append(self.path_to(d1, i))
        stream = VGroup(d1.paths[0], d1.paths[2])
        g = VGroup(stream, d1.paths[1], d1.marks[0], d1.marks[1], d1.marks[2])
        g.stream, g.rest, g.box = stream, VGroup(*g[1:]), d1.marks[1]
        g.feed = d1.paths[1][2]
        return g

    def ensure_proj(self, l: int) -> None:
        """Layer l's X row, W_Q and query on the stage (a beat shown without `project`
        before it builds them from the plan, at once)."""
        st = self.stage
        if st.proj_layer == l and st.proj_x is not None:
            return
        self.clear_stage()
        v = self.v.layers[l]
        lay = self.proj_layout(l)
        b = lay["blocks"]["q"]
        res = row_of(v.q.values, v.q.path, T.Q, PS).move_to(lay["at"]["q"])
        name = math(f"Q^(({l}))", ML, T.Q).next_to(res, LEFT, buff=0.2)
        rows = {"q": VGroup(name, res)}
        self.play(FadeIn(VGroup(lay["row"], lay["label"], b, rows["q"])), run_time=0.6)
        st = self.stage
        st.parts += [lay["row"], lay["label"], b, rows["q"]]
        st.proj_layer, st.proj_rows, st.proj_x = l, rows, lay["row"]
        st.proj_label, st.proj_blocks, st.proj_lay = lay["label"], {"q": b}, lay

    def prev_x(self, l: int):
        """Layer l-1's X row, dimmed, over slot 2 (where its W_Q comes later), named."""
        st = self.stage
        if "x" in st.prev:
            return st.prev["x"]
        g = self.v.layers[l - 1]
        lay = st.proj_lay
        gx = row_of(g.in_first.values, g.in_first.path, T.X, PS, decimals=XDEC)
        gx[2].shift(0.4 * RIGHT)
        gx.add(txt("…", PS, T.X).next_to(gx.nums, RIGHT, buff=0.12))
        gl = math(T.X_l(l - 1), ML, T.X).next_to(gx, LEFT, buff=0.2)
        grp = VGroup(gl, gx)
        slot = self.prev_slot(l)
        grp.move_to([0, lay["row"].get_y(), 0]).align_to(slot, LEFT)
        self.keep_inside(grp)
        grp.row, grp.label = gx, gl
        st.prev = {"x": grp}
        return grp

    def prev_slot(self, l: int) -> VGroup:
        """Layer l-1's W_Q block, placed in slot 2 (W_V's place) when the three fitted side
        by side, else on the right."""
        st = self.stage
        if "w" in st.prev:
            return st.prev["w"]
        lay = st.proj_lay
        g = self.matrix_block(self.v.layers[l - 1], "q", l - 1, lay["wdec"])
        ref = lay["blocks"]["v"]
        if lay["side"]:
            g.move_to(ref.get_center()).align_to(ref, UP).align_to(ref, RIGHT)
        else:                     # on the right, level with layer l's W_Q
            g.align_to(ref, UP).shift((self.HOME_WIDTH / 2 - T.EDGE - g.get_right()[0]) * RIGHT)
        self.keep_inside(g)
        st.prev = {**st.prev, "w": g}
        return g

    # --- fresh: why the new Q, K, V are fresh (1): X is new ------------------------------------
    def beat_fresh(self, beat) -> None:
        l = self.layer
        self.ensure_proj(l)
        st = self.stage
        pre = str(self.v.layers[l].norm.placement) == "pre"
        rows = st.proj_rows
        # "Why are these fresh?": the pointer on the new rows, then the stage cleared for the
        # answer: only X^(l), W_Q^(l) and the query stay (the comparison is about Q)
        box = self.frame_of(VGroup(*rows.values()))
        self.play(FadeIn(box), run_time=0.4)
        self.hold_until(self.cue_at(1) - 0.5)
        gone = [m for m in st.parts if m is not st.proj_x and m is not st.proj_label
                and m is not st.proj_blocks.get("q") and m is not rows["q"]]
        self.vanish(box, *gone, run_time=0.4)
        st.parts = [m for m in st.parts if m not in gone]
        st.proj_rows = {"q": rows["q"]}
        st.proj_blocks = {"q": st.proj_blocks["q"]}
        if l < 1:
            self.hold_until(self.cue_at(99) - 0.2)
            return
        # "X is new": the pointer on X^(l)
        box = self.frame_of(VGroup(st.proj_label, st.proj_x))
        self.play(FadeIn(box), run_time=0.4)
        st.parts.append(box)
        g = self.v.layers[l - 1]
        u = g.update
        made = (f"{T.X_l(l)} = \"LN\"(\"LN\"({T.X_l(l - 1)} + Δ\"attn\"^(({l - 1}))) "
                f"+ Δ\"FFN\"^(({l - 1})))" if not pre else
                f"{T.X_l(l)} = {T.X_l(l - 1)} + Δ\"attn\"^(({l - 1})) "
                f"+ Δ\"FFN\"^(({l - 1}))")
        made = math(made, ML, T.X)
        # between X^(l)'s row and the matrices, the width of the frame; W_Q^(l) and the
        # query step back (dimmed) while X is the subject
        wq = st.proj_blocks["q"]
        made.move_to([0, (st.proj_x.get_bottom()[1] + wq.get_top()[1]) / 2 + 0.05, 0])
        self.keep_inside(made)
        # its glyphs: X^(l-1), Δattn^(l-1), ΔFFN^(l-1) and the two LN (post: 34 glyphs)
        span = {34: {"x": (11, 15), "attn": (16, 24), "ffn": (26, 33), "ln": [(5, 7), (8, 10)]},
                26: {"x": (5, 9), "attn": (10, 18), "ffn": (19, 26), "ln": []}}.get(len(made))
        part = (lambda a, b: VGroup(*made[a:b])) if span else (lambda a, b: made)
        if span:
            part(*span["attn"]).set_color(T.ATTN)
            part(*span["ffn"]).set_color(T.FFN)
            for a, b in span["ln"]:
                part(a, b).set_color(T.LN)
        px = part(*span["x"]) if span else made
        pa = part(*span["attn"]) if span else made
        pf = part(*span["ffn"]) if span else made
        # "In layer l-1, attention's update was built from the other words too: ... 'bank' gave
        # 'river' 0.30 of its attention": the pointer on Δattn, the plan's pick under it
        cx = self.v.layers[l - 1].context
        # (round 32: where attention looked is context_qkv's and attention_depth's) the
        # tokens' chart only when the voice says attention's update was "built from" them
        kb = self.cue_with("built from")
        # (review 33: "X is new" cut; the sentence starts "Attention's update", capitalised:
        # the old lookup missed it and the formula came 5 s late)
        k2 = kb if kb is not None else self.cue_with("ttention's update")
        k2 = k2 if k2 is not None else min(2, max(0, len(self.beat.get("cues") or []) - 2))
        self.hold_until(self.cue_at(k2) - 0.2)
        # (review 32: W_Q^(l) and the query left and faded back 14 s later, the cosine
        # cross-fading over the returning matrix) they stay, parked: the query slides under
        # its own W_Q (where the comparison wants it) and both dim; the formula comes in only
        # once they have moved (no half-faded formula over the moving row)
        q = rows["q"]
        moves = []
        if not st.proj_lay.get("side", True) and self.on_screen(q):
            go = [wq.W.get_x() - q[1].get_x(), wq.get_bottom()[1] - 0.55 - q[1].get_y(), 0]
            moves.append(q.animate.shift(go))
        here = [m for m in (wq, q) if self.on_screen(m)]
        if here or moves:
            # (review 34b: a dim Q^(l) ghost stayed bottom-left for 15 s while the voice
            # talked only of X) they leave; `compare` brings them back where they were
            # when the matrices come up
            self.play(*[FadeOutPlace(m) for m in here], run_time=0.6)
            self.remove(*[f for m in here for f in m.get_family()])
        self.parked = []
        self.play(FadeIn(made, shift=0.15 * UP), run_time=0.5)
        st.parts.append(made)
        self.glide(box, pa, self.when(k2, "ttention's update") - 0.2, 0.8, buff=0.06)
        chart = None
        if kb is not None:
            # right of W_Q^(l)'s (dimmed) block, under the formula: the sentence's tokens, a
            # bar over each for the share of the focus word's attention it got (layer l-1,
            # mean of its heads), the plan's pick lit and its share written over its bar
            chart = self.context_chart(cx, made, wq)
            ctx = chart.pick_group
            # "averaged over its 12 heads": the second line first, from Δattn; "gave 'river' 0.30":
            # the first line, and the pointer on both
            # "built from the other words too": the sentence's words come in under the formula,
            # from Δattn; "averaged over its heads": whose attention it is, then the bars
            self.hold_until(self.when(k2, "built from") - 0.1)
            fly = max(1.2, min(3.0, self.when(k2, "averaged") - 0.5 - self.time))
            self.play(LaggedStart(*[FadeIn(t, target_position=pa.get_center(), scale=0.6)
                                    for t in chart.tokens], lag_ratio=0.3), run_time=fly)
            self.hold_until(self.when(k2, "averaged") - 0.4)
            self.play(FadeIn(chart.caption, shift=0.1 * UP), run_time=0.5)
            # the bars grow from the tokens, one after another, over "averaged over its heads,
            # 'bank' gave"
            grow = max(1.0, self.when(k2, "gave") - self.time - 0.3)
            self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in chart.bars], lag_ratio=0.15),
                      run_time=grow)
            st.parts.append(chart)
            self.repoint(box, ctx, 0.6, anims=[FadeIn(chart.weight, shift=0.1 * DOWN),
                                               chart.bars[chart.pick].animate.set_color(T.ATTN)])
            if "start token" in self.cue_text(k2) and chart.pick != 0:
                # "and nearly as much, 0.29, to the start token CLS": its share over its bar, the
                # pointer on it (a near tie, said as one)
                self.hold_until(self.when(k2, "nearly as much") - 0.2)
                self.repoint(box, chart.first_group, 0.6,
                             anims=[FadeIn(chart.first, shift=0.1 * DOWN)])
                chart.add(chart.first)
                self.glide(box, VGroup(chart.first_group, ctx), self.when(k2, "start token") + 0.4,
                           0.6)
            # "So layer l's query can depend on context": the pointer back on X^(l)
            kc = self.cue_with("depend on context")
            if kc is not None:
                # a copy of the picked word rises from its bar into X^(l)'s row: what attention
                # brought in is now part of the X layer l reads
                self.hold_until(self.cue_at(kc) - 0.4)
                # (review 27: the word flew across 'bank' and [SEP]) the rest of the chart, said
                # and done, leaves first, the pointer with it; the pick's word itself (no copy
                # sliding off its own glyphs) then travels into X^(l), its bar and share leaving
                pick_tok = chart.tokens[chart.pick]
                others = [m for i, m in enumerate(chart.tokens) if i != chart.pick] + \
                         [m for i, m in enumerate(chart.bars) if i != chart.pick] + \
                         [m for m in (chart.caption, chart.first) if m in chart.submobjects]
                self.play(FadeOut(box), *[FadeOut(m) for m in others], run_time=0.35)
                self.remove(*[f for m in others for f in m.get_family()])
                word = pick_tok
                out = {id(f) for m in others for f in m.get_family()} | \
                    {id(f) for f in word.get_family()}
                rest = VGroup(*[m for m in chart.get_family()
                                if not m.submobjects and len(m.points) and id(m) not in out])
                self.remove(*chart.get_family())
                self.add(rest, word)
                st.parts.remove(chart)
                chart = None
                # (review 26: the word flew through the formula and X's numbers) round the
                # formula's right end, then along X's line into its row from the right
                x_out = made.get_right()[0] + 0.25 + word.width / 2
                end = st.proj_x.get_right() + (0.15 + word.width / 2) * RIGHT
                if x_out + word.width / 2 < self.HOME_WIDTH / 2 - 0.1:
                    route = VMobject().set_points_as_corners(
                        [word.get_center(), [x_out, word.get_y(), 0],
                         [x_out, st.proj_x.get_y(), 0], end])
                    self.play(FadeOut(rest), MoveAlongPath(word, route), run_time=1.2)
                    self.play(FadeOut(word, scale=0.6, target_position=st.proj_x.get_right()),
                              run_time=0.4)
                else:
                    self.play(FadeOut(rest), word.animate.move_to(st.proj_x.get_center()),
                              run_time=1.0)
                    self.play(FadeOut(word, scale=0.6), run_time=0.4)
                self.remove(*word.get_family(), *rest.get_family())
                box.become(self.frame_of(VGroup(st.proj_label, st.proj_x)))
                self.play(FadeIn(box), run_time=0.4)
                if "query" in self.cue_text(kc):
                    # (review 28: "layer 1's query" said with no query on screen) the query comes
                    # back under the formula, written as made from this X; the pointer on both
                    q = rows["q"]
                    b = " + b_Q^((%d))" % l if bool(self.v.layers[l].bias) else ""
                    qline = VGroup(q.copy(), math(f"= {T.X_l(l)} W_Q^(({l})){b}", ML, T.Q)
                                   ).arrange(RIGHT, buff=0.25)
                    qline.next_to(made, DOWN, buff=0.7).set_x(0)
                    self.keep_inside(qline)
                    self.play(FadeIn(qline, shift=0.15 * DOWN), run_time=0.5)
                    # (the box round X and the query together cut through the formula) the
                    # pointer on the query alone, as the voice reaches "depend on context"
                    self.glide(box, qline, self.when(kc, "depend on") + 0.2, 0.5)
                    self.qline = qline
        # "With the feed-forward update, and LayerNorm after each": those parts in turn
        kf = self.cue_with("feed-forward")
        qline, self.qline = getattr(self, "qline", None), None
        if kf is not None:
            self.hold_until(self.when(kf, "feed-forward") - 0.8)
            if qline is not None:
                # (review 29: the pointer stayed round the query's empty place) it leaves with it
                self.vanish(qline, box, run_time=0.3)
                qline = None
                box.become(self.frame_of(pf, buff=0.06))
                self.play(FadeIn(box), run_time=0.3)
            else:
                self.repoint(box, pf, 0.5, buff=0.06)
            if chart is not None:
                self.vanish(chart, run_time=0.4)
                st.parts.remove(chart)
        elif chart is not None:             # no such sentence: the chart leaves all the same
            self.vanish(chart, run_time=0.4)
            st.parts.remove(chart)
        if qline is not None:
            self.vanish(qline, run_time=0.3)
        if span and span["ln"]:
            t_ln = (self.when(kf, "LayerNorm") if kf is not None
                    else self.time + 0.5)
            self.glide(box, VGroup(*[part(a, b) for a, b in span["ln"]]), t_ln - 0.1, 0.7,
                       buff=0.05)
        lens = {}
        # "So X turned: its cosine with layer l-1's X is 0.79, where one would mean the same
        # direction": layer l-1's X comes in over slot 2, the cosine of the two under the
        # formula
        k3 = self.cue_with("cosine")
        k3 = k3 if k3 is not None else k2 + 1
        gx = self.prev_x(l)
        cos = VGroup(math(f"\"cos\"({T.X_l(l - 1)}, {T.X_l(l)}) =", ML, T.TEXT),
                     Num(u.cos_x_next, decimals=2, size=ML, color=T.TEXT)
                     ).arrange(RIGHT, buff=0.2)
        # (review 33: the 0.79 named no token) whose X it is, and its reading
        fw = str(self.v.focus.word).partition("#")[0]
        gloss = VGroup(txt(f"for '{fw}'", PS, T.TEXT),
                       txt("1 would be the same direction", PS, T.TEXT)
                       ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        # (review 33y: on one line it ran through the sketch's X^(1) arrow) two lines
        # right of W_Q^(l)'s (dimmed) block, its reading under it, the sketch to the right
        # (own pass, round 34: its two-line reading touched the parked query) higher
        cos.move_to([0, 0.2, 0])
        parked = [m for m in getattr(self, "parked", []) if self.on_screen(m)]
        if self.on_screen(wq):
            # right of W_Q^(l) and of its parked query (side by side, the query under its
            # W_Q reaches past the block's right edge: SmolLM2's)
            cos.next_to(VGroup(wq, *parked), RIGHT, buff=0.8, coor_mask=np.array([1, 0, 0]))
        else:                      # W_Q^(l) has left: the cosine where it was
            cos.align_to(wq, LEFT)
        gloss.next_to(cos, DOWN, buff=0.25).align_to(cos, LEFT)
        self.keep_inside(VGroup(cos, gloss))
        # a parked query where the cosine and its reading go (SmolLM2's layout): it steps
        # down under them first
        said = VGroup(cos, gloss)
        for m in parked:
            if (m.get_left()[0] < said.get_right()[0] and said.get_left()[0] < m.get_right()[0]
                    and m.get_bottom()[1] < said.get_top()[1]
                    and said.get_bottom()[1] < m.get_top()[1]):
                self.play(m.animate.shift((m.get_top()[1] - said.get_bottom()[1] + 0.3)
                                          * DOWN), run_time=0.4)
        turn = self.turning(u.cos_x_next, l, [cos.get_right()[0] + 0.5, -1.5, 0],
                            (float(g.x_norm), float(u.x_next_norm)))
        # (review 29: ~7 s of the formula alone while the voice said X turned) "X turned":
        # layer l-1's X comes in beside X^(l) and the sketch's two arrows, together at first,
        # turn apart (a sketch of a direction, not of the 384-number vectors); the cosine
        # that measures it follows with the voice
        said3 = self.cue_text(k3)
        t_turn = (self.when(k3, "X turned") if "X turned" in said3
                  else self.when(k3, "its cosine"))
        self.hold_until(t_turn - 0.5)
        self.play(FadeIn(gx, shift=0.2 * LEFT), FadeIn(turn), run_time=0.5)
        self.play(DimPlace(gx, GHOST), run_time=0.3)
        self.repoint(box, VGroup(st.proj_x, gx), 0.5, buff=0.06)
        self.play(turn.angle.animate.set_value(turn.end), run_time=1.6)
        st.parts.append(turn)
        self.hold_until(self.when(k3, "is ") - 0.3)
        self.repoint(box, cos, 0.6, anims=[FadeIn(cos, shift=0.1 * UP),
                                           FadeIn(gloss[0], shift=0.1 * UP)])
        st.parts.append(cos)
        # "where one would mean the same direction": its reading under it
        self.hold_until(self.when(k3, "where one") - 0.2)
        self.play(FadeIn(gloss[1], shift=0.1 * LEFT), run_time=0.5)
        st.parts.append(gloss)
        st.why = [made, cos, gloss, turn, *lens.values()]
        self.hold_until(self.cue_at(99) - 0.2)

    def context_chart(self, cx, made, wq) -> VGroup:
        """The sentence's tokens in a row right of `wq` under the formula `made`, a bar over
        each for the share of the focus word's attention it got (`cx.weights`), a line under
        them saying whose attention and where; `.pick` the index of the plan's pick, `.weight`
        its share written over its bar, `.pick_group` its token, bar and share."""
        # a token that is only a space (SmolLM2's " " before digits) has no glyph: drawn "␣"
        toks = [str(t).strip() or "␣" for t in self.v.tokens]
        # (review 31: "." read as a middle dot) a punctuation token is drawn in quotes
        toks = [f"'{t}'" if not any(ch.isalnum() or ch in "[]<>␣" for ch in t) else t
                for t in toks]
        ws = [float(w) for w in cx.weights]
        focus = {int(p) for p in self.v.focus.positions}
        pick = int(cx.position)
        # W_Q^(l) has left the stage (review 26): the chart takes its place too
        left = (wq.get_right()[0] + 0.6 if self.on_screen(wq) else wq.get_left()[0])
        right = self.HOME_WIDTH / 2 - T.EDGE
        base = made.get_bottom()[1] - 1.25           # the tokens' line
        tall = 0.65                                   # the tallest bar
        top = max(ws) or 1.0
        # (review 29: "[SEP]" and the full stop were never introduced) greyed: the end
        # marker and punctuation (the start token, which the voice names, stays)
        def quiet(i):
            t = toks[i]
            return i > 0 and ((t.startswith("[") and t.endswith("]")) or
                              (t.startswith("<") and t.endswith(">")) or
                              not any(ch.isalnum() for ch in t))

        def row(keep, cut=None, buff=0.22):
            return VGroup(*[txt(toks[i][:cut] if cut else toks[i], CL,
                                T.X if i in focus else (T.ATTN if i == pick else
                                                        (T.MUTED if quiet(i) else T.TEXT)))
                            for i in keep]).arrange(RIGHT, buff=buff)
        keep = list(range(len(toks)))
        labels = row(keep)
        if labels.width > right - left:                 # a long sentence: show less, not smaller
            labels = row(keep, 6, 0.12)
        subset = False
        while labels.width > right - left and len(keep) > 3:
            # still too wide: only the tokens it gave most (and its own), in sentence order
            subset = True
            most = sorted(keep, key=lambda i: (i == pick or i in focus, ws[i]))
            keep = sorted(most[1:])
            labels = row(keep, 6, 0.12)
        labels.move_to([(left + right) / 2, base, 0])
        if labels.get_left()[0] < left:
            labels.align_to([left, 0, 0], LEFT)
        bars = VGroup()
        for t, i in zip(labels, keep):
            b = Rectangle(width=min(0.34, max(0.12, t.width * 0.8)),
                          height=max(0.02, tall * ws[i] / top),
                          stroke_width=0).set_fill(T.MUTED, 1)
            b.set_x(t.get_x()).align_to([0, base + 0.2, 0], DOWN)
            bars.add(b)
        pick = keep.index(pick)
        weight = Num(cx.weight, decimals=2, size=CL, color=T.ATTN).next_to(bars[pick], UP,
                                                                          buff=0.06)
        # the first token's share (MiniLM's [CLS], near river's): written when the voice says it
        first = Num(cx.weights[keep[0]], decimals=2, size=CL, color=T.TEXT).next_to(
            bars[0], UP, buff=0.06)
        caption = txt(f"how '{str(self.v.focus.word).partition('#')[0]}' spread its attention, "
                      f"layer {int(cx.layer)}, mean of its {int(cx.heads)} heads", CL, T.ATTN)
        caption.next_to(labels, DOWN, buff=0.18)
        if caption.width > right - left:
            caption = txt(f"attention of '{str(self.v.focus.word).partition('#')[0]}', "
                          f"layer {int(cx.layer)}, {int(cx.heads)} heads' mean", CL, T.ATTN)
            caption.next_to(labels, DOWN, buff=0.18)
        if subset:
            caption = txt(f"the {len(keep)} tokens '{str(self.v.focus.word).partition('#')[0]}' "
                          f"gave most, layer {int(cx.layer)}, {int(cx.heads)} heads' mean", CL,
                          T.ATTN).next_to(labels, DOWN, buff=0.18)
        caption.align_to(labels, LEFT)
        g = VGroup(bars, labels, weight, caption)
        self.keep_inside(g)
        first.next_to(bars[0], UP, buff=0.06)
        g.bars, g.tokens, g.weight, g.caption, g.pick = bars, labels, weight, caption, pick
        g.pick_group = VGroup(bars[pick], labels[pick], weight)
        g.first, g.first_group = first, VGroup(bars[0], labels[0], first)
        return g

    def turning(self, cos: float, l: int, at, norms=(1.0, 1.0)) -> VGroup:
        """Two arrows from `at`: X^(l-1)'s, dimmed, and X^(l)'s on it; `.angle` (a tracker)
        turns X^(l)'s up to `.end`, the angle whose cosine is `cos`. Each label rides at its
        arrow's tip (an updater)."""
        from manim import ValueTracker
        base = np.deg2rad(10.0)
        o = np.array(at, dtype=float)
        big = max(norms)
        length0, length = 1.6 * norms[0] / big, 1.6 * norms[1] / big   # lengths in proportion
        angle = ValueTracker(0.0)

        def tip(a, r=None):
            r = length if r is None else r
            return o + r * np.array([np.cos(base + a), np.sin(base + a), 0.0])
        a0 = Arrow(o, tip(0.0, length0), buff=0, color=T.X, stroke_width=3, tip_length=0.16,
                   max_tip_length_to_length_ratio=0.2).set_opacity(GHOST)
        a1 = Arrow(o, tip(0.0), buff=0, color=T.X, stroke_width=3, tip_length=0.16,
                   max_tip_length_to_length_ratio=0.2)
        a1.add_updater(lambda m: m.put_start_and_end_on(o, tip(angle.get_value())))
        # X^(l-1)'s name under its tip, X^(l)'s over its own: apart while the arrows coincide
        l0 = math(T.X_l(l - 1), ML, T.X).set_opacity(GHOST).next_to(a0.get_end(),
                                                                     DOWN + RIGHT, buff=0.1)
        l1 = math(T.X_l(l), ML, T.X)
        l1.add_updater(lambda m: m.next_to(tip(angle.get_value()), UP + RIGHT, buff=0.1))
        sk = txt("2-D sketch, true angle", NL, T.TEXT).next_to(o, DOWN, buff=0.15).align_to(
            o, LEFT)
        # X^(l-1)'s name under a short arrow's tip can reach down to this line: then it goes
        # under the name (another sentence's lengths). Glyph by glyph: the two boxes overlap a
        # little where no glyphs do (the shipped sentence's)
        def leaves(m):
            return [f for f in m.get_family() if len(f.points) and not f.submobjects]

        def hit(p, q):
            return (p.get_left()[0] < q.get_right()[0] and q.get_left()[0] < p.get_right()[0]
                    and p.get_bottom()[1] < q.get_top()[1] and q.get_bottom()[1] < p.get_top()[1])
        if any(hit(p, q) for p in leaves(l0) for q in leaves(sk)):
            sk.next_to(l0, DOWN, buff=0.1).align_to(o, LEFT)
        if sk.get_top()[1] > l0.get_bottom()[1] - 0.12:      # a clear gap, not a touch
            sk.shift((sk.get_top()[1] - l0.get_bottom()[1] + 0.12) * DOWN)
        g = VGroup(a0, l0, a1, l1, sk)
        g.angle, g.end = angle, float(np.arccos(np.clip(float(cos), -1.0, 1.0)))
        return g

    # --- matrices: why fresh (2): the matrices are new too -------------------------------------
    def beat_matrices(self, beat) -> None:
        """(round 35 reviews: "|cos| ≤ 0.04 over all 144 pairs" was only text, and the pointer took
        in b_Q while only W_Q was compared) the matrices are new too, every pair of heads drawn:
        W_Q^(l)'s heads as a column of bands (the grid's rows), W_Q^(l-1)'s as a row of bands
        (its columns); at "pairs" a grid of one cell per pair comes in, row by row, its count
        under it; at "cosine" what a cell compares is written under it (two heads' blocks as
        lists of numbers, biases left out), the cells fill and each flies along its row onto a
        cosine axis from -1 to 1, to its pair's cosine (plan `q_mixed.w_cos_all`); at "same
        direction" the pointer on the axis's 1; at "at most" the axis zooms in (the cells move
        apart with it) and a band from -w_cos_max to w_cos_max holds every cell, "|cos| ≤
        0.04" over it; at "not matched" the pointer on the two rows of bands, at "own effect"
        on W_Q^(l)'s."""
        from manim import Square, ValueTracker
        l = self.layer
        self.clear_stage()
        wm = self.mixed_at(l)
        if wm is None:
            self.hold_until(self.cue_at(99) - 0.2)
            return
        cos = [[float(c) for c in row] for row in wm.w_cos_all]
        na, nb = len(cos), len(cos[0])
        pitch = min(0.2, 2.4 / max(na, nb))
        gx0, gy0 = -4.0, 1.3                       # the grid's top left corner

        def cell_at(a, b):
            return np.array([gx0 + (b + 0.5) * pitch, gy0 - (a + 0.5) * pitch, 0.0])

        def bands(n, down):
            return VGroup(*[Rectangle(width=0.24 if down else pitch,
                                      height=pitch if down else 0.24, stroke_width=1.5,
                                      stroke_color=T.Q).set_fill(T.Q, 0.3)
                            for _ in range(n)]).arrange(DOWN if down else RIGHT, buff=0)
        rows = bands(na, True).next_to(cell_at(na / 2 - 0.5, 0) - [pitch / 2, 0, 0], LEFT,
                                       buff=0.08)
        cols = bands(nb, False).next_to(cell_at(0, nb / 2 - 0.5) + [0, pitch / 2, 0], UP,
                                        buff=0.08)
        rl = VGroup(math(f"W_Q^(({l}))", ML, T.Q), txt(f"{na} heads", S, T.Q)
                    ).arrange(DOWN, buff=0.12).next_to(rows, LEFT, buff=0.25)
        cl = VGroup(math(f"W_Q^(({l - 1}))", ML, T.Q), txt(f"{nb} heads", S, T.Q)
                    ).arrange(RIGHT, buff=0.25).next_to(cols, UP, buff=0.15)
        cells = VGroup(*[Square(side_length=0.8 * pitch, stroke_width=1.2, stroke_color=T.MUTED)
                         .move_to(cell_at(a, b)) for a in range(na) for b in range(nb)])
        fills = [Square(side_length=0.8 * pitch, stroke_width=0).set_fill(T.TEXT, 0.9)
                 .move_to(cell_at(a, b)) for a in range(na) for b in range(nb)]
        grid_bottom = gy0 - na * pitch
        count = VGroup(Num(wm.w_pairs, decimals=0, size=S, color=T.TEXT),
                       txt("pairs of heads", S, T.TEXT)).arrange(RIGHT, buff=0.15)
        count.next_to(cells, DOWN, buff=0.2)
        # a head's block: its d_head columns of W_Q, d_model numbers each
        sh = self.v.shape
        what = VGroup(txt("a cell: the cosine of two heads' blocks", S, T.TEXT),
                      VGroup(Num(sh.d_model, decimals=0, size=S, prefix="("),
                             txt("×", S, T.TEXT), Num(sh.d_head, decimals=0, size=S),
                             txt("=", S, T.TEXT), Num(wm.w_numbers, decimals=0, size=S),
                             txt("numbers each)" + (", biases left out"
                                                    if bool(self.v.layers[l].bias) else ""),
                                 S, T.TEXT)
                             ).arrange(RIGHT, buff=0.12)).arrange(DOWN, buff=0.1,
                                                                  aligned_edge=LEFT)
        what.next_to(count, DOWN, buff=0.2).align_to(rl, LEFT)
        # the cosine axis, right of the grid, under the rows the cells fly along
        ax_c, half, ay = 3.55, 2.85, grid_bottom - 0.2
        axis = Line([ax_c - half, ay, 0], [ax_c + half, ay, 0], color=T.MUTED, stroke_width=2)
        aname = txt("cos", S, T.TEXT).next_to(axis, LEFT, buff=0.2)
        big = max(abs(c) for row in cos for c in row)
        zoom = next((z for z in (50, 20, 10, 5, 2) if big * z <= 0.8), 1)
        s = ValueTracker(1.0)                      # the axis's magnification

        def tick(c, fine):
            lab = "−" + f"{-c:g}" if c < 0 else f"{c:g}"
            g = VGroup(Line([0, ay - 0.08, 0], [0, ay + 0.08, 0], color=T.MUTED, stroke_width=2),
                       txt(lab, S, T.TEXT).move_to([0, ay - 0.32, 0]))
            g.shift((ax_c + half * c) * RIGHT)

            def follow(m):
                x = c * s.get_value()
                op = float(np.clip((1.12 - abs(x)) / 0.12, 0, 1))
                if fine:            # the zoomed axis's ticks come in as it grows
                    op *= float(np.clip((s.get_value() - 1) / max(zoom - 1, 1e-9) * 2 - 1, 0, 1))
                m.set_x(ax_c + half * x).set_opacity(op)
            g.add_updater(follow)
            return g
        ticks = VGroup(*[tick(c, False) for c in (-1, -0.5, 0, 0.5, 1)])
        fine = VGroup(*[tick(c / zoom, True) for c in (-1, -0.5, 0.5, 1)]) if zoom > 1 else VGroup()
        one = ticks[-1]
        # (two lines, right-aligned on the 1: the pointer round it and the 1 keeps clear of
        # the 0.5)
        same = VGroup(txt("same", S, T.TEXT), txt("direction", S, T.TEXT)).arrange(
            DOWN, buff=0.08, aligned_edge=RIGHT).next_to(one[0], UP, buff=0.12).align_to(
            one[0], RIGHT)
        same.add_updater(lambda m: m.align_to(one[0], RIGHT).set_opacity(
            one[1].get_fill_opacity()))
        box = self.frame_of(VGroup(rl, rows))
        # "Layer l's query matrix is new too": its heads, a column of bands
        self.play(FadeIn(rl, shift=0.1 * RIGHT), LaggedStart(*[FadeIn(b) for b in rows],
                                                               lag_ratio=0.08), run_time=0.8)
        self.play(FadeIn(box), run_time=0.3)
        # "pair each of its 12 heads with each of layer l-1's": layer l-1's heads over them
        self.hold_until(self.phrase_time("each of layer", self.time + 0.3) - 0.3)
        self.repoint(box, VGroup(cl, cols), 0.6, anims=[
            FadeIn(cl, shift=0.1 * DOWN), LaggedStart(*[FadeIn(b) for b in cols], lag_ratio=0.08)])
        # "144 pairs": one cell per pair, row by row
        self.hold_until(self.phrase_time("pairs", self.time + 0.3) - 0.9)
        self.play(FadeOut(box), LaggedStart(*[FadeIn(VGroup(*cells[a * nb:(a + 1) * nb]))
                                              for a in range(na)], lag_ratio=0.25),
                  run_time=1.2)
        box = self.frame_of(VGroup(cells, count))
        self.play(FadeIn(count, shift=0.1 * UP), FadeIn(box), run_time=0.4)
        self.stage.parts += [rl, rows, cl, cols, cells, count]
        # "for each pair, the cosine of the heads' blocks, as lists of numbers, biases left out":
        # what a cell is, the cells filled, then each flies along its row onto the axis
        self.hold_until(self.phrase_time("cosine", self.time + 0.3) - 0.3)
        self.repoint(box, what[0], 0.5, anims=[FadeIn(what[0], shift=0.1 * UP)])
        self.play(Create(axis), FadeIn(aname), FadeIn(ticks), FadeIn(same), run_time=0.5)
        self.add(fine)
        self.play(LaggedStart(*[FadeIn(VGroup(*fills[a * nb:(a + 1) * nb]))
                                for a in range(na)], lag_ratio=0.15), run_time=0.8)
        self.play(LaggedStart(*[AnimationGroup(*[
            fills[a * nb + b].animate.scale(0.55).move_to([ax_c + half * cos[a][b],
                                                           cell_at(a, b)[1], 0])
            for b in range(nb)]) for a in range(na)], lag_ratio=0.12), run_time=1.6)
        for a in range(na):
            for b in range(nb):
                fills[a * nb + b].add_updater(
                    lambda m, c=cos[a][b]: m.set_x(ax_c + half * c * s.get_value()))
        self.hold_until(self.phrase_time("biases", self.phrase_time("lists", self.time)) - 0.3)
        self.repoint(box, what, 0.5, anims=[FadeIn(what[1], shift=0.1 * UP)])
        dots = VGroup(*fills)
        self.stage.parts += [what, axis, aname, ticks, fine, same, dots]
        # "where one would mean the same direction": the pointer on the axis's 1
        self.hold_until(self.phrase_time("same direction", self.time + 0.3) - 0.5)
        self.repoint(box, VGroup(one[0], same), 0.5, buff=0.06)
        # "all 144 are at most 0.04, either way": the axis zooms in, the cells move apart with it,
        # and a band from -max to +max holds them all, the bound written over it
        self.hold_until(self.phrase_time("at most", self.phrase_time("within", self.time + 0.3))
                        - 0.4)
        band_w = 2 * half * float(wm.w_cos_max) * zoom
        band = Rectangle(width=band_w, height=na * pitch + 0.1, stroke_width=0).set_fill(
            HL, 0.12).move_to([ax_c, gy0 - na * pitch / 2, 0])
        bound = VGroup(txt("|cos| ≤", 30, T.TEXT),
                       Num(wm.w_cos_max, decimals=2, size=36, color=T.TEXT)
                       ).arrange(RIGHT, buff=0.16).next_to(band, UP, buff=0.15)
        zl = txt(f"axis zoomed ×{zoom}", S, T.TEXT).next_to(axis, DOWN, buff=0.55).align_to(
            axis, RIGHT)
        self.play(FadeOut(box), run_time=0.3)
        if zoom > 1:
            self.play(s.animate.set_value(zoom), FadeIn(zl), run_time=1.6)
            self.stage.parts.append(zl)
        self.play(FadeIn(band), FadeIn(bound, shift=0.1 * DOWN), run_time=0.5)
        box = self.frame_of(bound, buff=0.1)
        self.play(FadeIn(box), run_time=0.3)
        self.stage.parts += [band, bound, box]
        # "Heads are not matched across layers": the pointer on the two rows of bands
        kn = self.cue_with("not matched")
        if kn is not None:
            self.hold_until(self.cue_at(kn) - 0.1)
            self.repoint(box, VGroup(rl, rows, cl, cols), 0.6)
            # "so the new matrix's own effect is not measured here": on the new matrix
            # (its right side between the bands and the grid's first column)
            self.hold_until(self.when(kn, "own effect") - 0.4)
            self.repoint(box, VGroup(rl, rows), 0.6, buff=0.04)
        self.hold_until(self.cue_at(99) - 0.2)

    # --- compare: the new X alone, through the old matrices --------------------------------------
    def mixed_at(self, l: int):
        """Layer l's `q_mixed` (the matrices' pairs and the new-X test), None when the plan has
        no layer l-1 to test against."""
        if not 0 < l < len(self.v.layers):
            return None
        m = self.v.layers[l].q_mixed
        return None if getattr(m, "value", 0) is None else m

    def x_only(self, l: int) -> None:
        """The stage cleared but for X^(l)'s row (kept where an earlier beat of this layer left
        it, else brought in at its place), and the layout `compare` places the rest by."""
        st = self.stage
        if st.proj_layer == l and st.proj_x is not None and self.on_screen(st.proj_x):
            keep = (st.proj_x, st.proj_label)
            lay = st.proj_lay
            self.clear_stage(keep=keep)
            self.stage.parts += list(keep)
        else:
            self.clear_stage()
            lay = self.proj_layout(l)
            self.play(FadeIn(VGroup(lay["label"], lay["row"])), run_time=0.5)
            self.stage.parts += [lay["label"], lay["row"]]
        st = self.stage
        st.proj_layer, st.proj_x, st.proj_label, st.proj_lay = l, lay["row"], lay["label"], lay

    def beat_compare(self, beat) -> None:
        """(round 35 reviews: one 40 s beat held the matrices, the new-X test and the later layers)
        the new X alone, one test: the stage cleared but for X^(l); at "keep layer l-1's",
        X^(l-1) and W_Q^(l-1) come in on the right and Q^(l-1) is made from them (its entries
        out of W_Q^(l-1)'s columns); at "give it", X^(l)'s numbers travel onto W_Q^(l-1) and
        X^(l) W_Q^(l-1) + b_Q^(l-1) comes out on the left; a double arrow joins it to Q^(l-1)
        and their cosine over the head's entries is written under it; at "key and value" what
        the voice is done with leaves and the test becomes the first of three lines, "cos(X^(l)
        W^(l-1) + b^(l-1), Q/K/V^(l-1)) = number" (its name, Q^(l-1) and its cosine move in),
        the key's and value's lines (plan `kv_mixed`) under it, each number as it is said."""
        l = self.layer
        mixed = self.mixed_at(l)
        if mixed is None:
            self.clear_stage()
            self.hold_until(self.cue_at(99) - 0.2)
            return
        self.x_only(l)
        st = self.stage
        lay = st.proj_lay
        box = self.frame_of(VGroup(st.proj_label, st.proj_x))
        # "To test the new X alone": the pointer on X^(l)
        self.hold_until(self.phrase_time("new X alone", self.time + 0.3) - 0.3)
        self.play(FadeIn(box), run_time=0.4)
        st.parts.append(box)
        # "keep layer l-1's query matrix": X^(l-1) and W_Q^(l-1) on the right, and the query
        # layer l-1 made from them (its entries come out of W_Q^(l-1)'s columns)
        km = self.cue_with("keep layer")
        self.hold_until((self.when(km, "keep layer") if km is not None else self.time) - 0.3)
        gx, gw = self.prev_x(l), self.prev_slot(l)
        self.play(FadeIn(gx, shift=0.2 * LEFT), FadeIn(gw, shift=0.2 * DOWN), run_time=0.6)
        st.parts += [gx, gw]
        g = self.v.layers[l - 1]
        qy = gw.get_bottom()[1] - 0.55
        gq = row_of(g.q.values, g.q.path, T.Q, PS).move_to([gw.W.get_x(), qy, 0])
        gql = math(f"Q^(({l - 1}))", ML, T.Q).next_to(gq, LEFT, buff=0.2)
        tgts = [gw.brow[j] if gw.has_b else gw.W.columns[j] for j in range(len(gq.nums))]
        xlight = SurroundingRectangle(gx.row.nums, color=HL, buff=0.06, stroke_width=2)
        wlight = SurroundingRectangle(VGroup(gw.W, *([gw.brow] if gw.has_b else [])),
                                      color=HL, buff=0.06, stroke_width=2)
        self.play(FadeOut(box), FadeIn(xlight), FadeIn(wlight), FadeIn(VGroup(gql, gq[0], gq[2])),
                  run_time=0.4)
        self.play(LaggedStart(*[FadeIn(n, target_position=t.get_center())
                                for n, t in zip(gq.nums, tgts)], lag_ratio=0.3), run_time=0.8)
        self.play(FadeOut(xlight), DimPlace(gx, GHOST), DimPlace(VGroup(gql, gq), GHOST),
                  run_time=0.3)
        gqg = VGroup(gql, gq)
        st.parts.append(gqg)
        # "and give it the new X": X^(l)'s numbers go down, across onto W_Q^(l-1) and sink into
        # it; the entries of X^(l) W_Q^(l-1) + b_Q^(l-1) come out on the left, where layer l's
        # own W_Q stood (new X, old matrix: one query space with Q^(l-1))
        mrow = row_of(mixed.first.values, mixed.first.path, T.Q, PS).move_to(
            [lay["blocks"]["q"].W.get_x(), qy, 0])
        bias = f" + b_Q^(({l - 1}))" if gw.has_b else ""
        mlab = math(f"{T.X_l(l)} W_Q^(({l - 1})){bias}", ML, T.Q)
        mlab.next_to(mrow, UP, buff=0.2).set_x(mrow.get_x())
        self.keep_inside(VGroup(mrow, mlab))
        xlight = SurroundingRectangle(st.proj_x.nums, color=HL, buff=0.06, stroke_width=2)
        self.play(FadeIn(xlight), run_time=0.3)
        self.hold_until((self.when(km, "give it") if km is not None else self.time) - 0.5)
        trav = st.proj_x.nums.copy()
        self.add(trav)
        y_over = gw.W.get_top()[1] + 0.22 + trav.height / 2
        self.play(trav.animate.set_y(y_over), run_time=0.4)
        self.play(trav.animate.set_x(gw.W.get_x()), run_time=0.7)
        self.play(FadeOut(trav, shift=0.15 * DOWN), FadeIn(VGroup(mrow[0], mrow[2], mlab)),
                  run_time=0.35)
        self.remove(*trav.get_family())
        self.play(LaggedStart(*[FadeIn(n, target_position=t.get_center())
                                for n, t in zip(mrow.nums, tgts)], lag_ratio=0.3), run_time=0.9)
        self.play(FadeOut(xlight), FadeOut(wlight), run_time=0.4)
        st.parts.append(VGroup(mrow, mlab))
        ko = self.cue_with("entries of head", km)
        if ko is not None and self.time > self.cue_at(ko) - 0.3:
            # (the travel ran into "Over all 32 entries ...") the voice waits for the row
            self.pause_before(ko, 0.3)
        # "Over all 32 entries of head 0, its cosine with layer l-1's query is 0.76": a double
        # arrow joins the two rows compared, the cosine under the new row
        cosl = VGroup(txt("cos with", PS, T.TEXT), math(f"Q^(({l - 1}))", ML, T.Q),
                      txt(f"over all {int(mixed.entries)} entries:", PS, T.TEXT),
                      Num(mixed.cos_old, decimals=2, size=ML, color=T.TEXT)
                      ).arrange(RIGHT, buff=0.15)
        cosl.next_to(mrow, DOWN, buff=0.35).set_x(mrow.get_x())
        self.keep_inside(cosl)
        box = self.frame_of(VGroup(mrow, gqg))
        self.hold_until((self.when(ko, "ver all") if ko is not None else self.time) - 0.2)
        self.play(FadeIn(box), DimPlace(gqg, 1 / GHOST), run_time=0.5)
        link = DoubleArrow([mrow.get_right()[0] + 0.08, qy, 0], [gql.get_left()[0] - 0.08, qy, 0],
                           buff=0, color=HL, stroke_width=2.5, tip_length=0.14,
                           max_tip_length_to_length_ratio=0.4)
        self.hold_until((self.when(ko, "cosine") if ko is not None else self.time) - 0.2)
        self.play(GrowFromCenter(link), run_time=0.6)
        self.hold_until((self.when(ko, "query is") if ko is not None else self.time) + 0.1)
        self.repoint(box, cosl, 0.6, anims=[FadeIn(cosl, shift=0.1 * UP)])
        st.parts += [cosl, link, box]
        # "The same test on head 0's key and value gives 0.84 and 0.79": what the voice is done
        # with leaves (X^(l-1), W_Q^(l-1), the rows compared); the query's test becomes the
        # first of three lines of one form, its name, Q^(l-1) and its number moving in; the
        # key's and value's lines come under it, each number as it is said
        kv = self.v.layers[l].kv_mixed
        kk = self.cue_with("key and value")
        if kk is not None and kv is not None and getattr(kv, "value", 0) is not None:
            self.qkv_lines(kk, dict(mixed=mixed, kv=kv, gw=gw, gx=gx, gq=gq, gql=gql,
                                    mrow=mrow, mlab=mlab, link=link, cosl=cosl, box=box))
        self.hold_until(self.cue_at(99) - 0.2)

    def qkv_lines(self, kk: int, m: dict) -> None:
        """The new-X test as three lines of one form, Q's (its parts moving in from the row
        test) then K's and V's, each number as cue kk says it."""
        st, l = self.stage, self.layer
        gw, mixed, kv, cosl = m["gw"], m["mixed"], m["kv"], m["cosl"]

        def test_line(K, num):
            bk = f" + b_{K}^(({l - 1}))" if gw.has_b else ""
            c = COLOR[K.lower()]
            # "cos(", the new query's name, ", K^(l-1)" (the comma on its baseline), ") =", the
            # number
            return VGroup(math("\"cos\"(", ML, T.TEXT),
                          math(f"{T.X_l(l)} W_{K}^(({l - 1})){bk}", ML, c),
                          math(f", {K}^(({l - 1}))", ML, c),
                          math(") =", ML, T.TEXT),
                          Num(num, decimals=2, size=ML, color=c)
                          ).arrange(RIGHT, buff=0.12)
        lines = VGroup(*[test_line(K, n) for K, n in (("Q", mixed.cos_old), ("K", kv.k),
                                                         ("V", kv.v))])
        lines.arrange(DOWN, buff=0.4, aligned_edge=LEFT)
        headl = txt(f"the new X with layer {l - 1}'s matrices (head {int(self.v.show.head)}, "
                    f"{int(mixed.entries)} entries each):", CL, T.TEXT)
        blk = VGroup(headl, lines).arrange(DOWN, buff=0.35, aligned_edge=LEFT)
        blk.move_to([0, 0, 0]).align_to([0, st.proj_x.get_bottom()[1] - 0.5, 0], UP)
        self.keep_inside(blk)
        self.hold_until(self.cue_at(kk) - 0.3)
        mlab, gql, num = m["mlab"], m["gql"], cosl[-1]
        keep = {id(f) for x in (mlab, gql, num) for f in x.get_family()}
        done = [x for x in (m["gw"], m["gx"], m["gq"], m["mrow"], m["link"], m["box"])
                if id(x) not in keep]
        self.vanish(*done, run_time=0.4)
        words = VGroup(*cosl[:-1])
        q_line = lines[0]
        # (review 31: a lone 0.76 floated mid-screen) the number leaves its line as that
        # line's words go, into the new line's place; then the two names come
        self.play(num.animate.move_to(q_line[4].get_center()).set_color(T.Q), FadeOut(words),
                  FadeIn(VGroup(q_line[0], q_line[2][0], q_line[3])),
                  FadeIn(headl, shift=0.1 * DOWN), run_time=0.6)
        self.remove(*words.get_family())
        self.play(mlab.animate.move_to(q_line[1].get_center()),
                  gql.animate.move_to(VGroup(*q_line[2][1:]).get_center()).set_opacity(1),
                  run_time=0.6)
        self.remove(*[f for x in (mlab, gql, num) for f in x.get_family()])
        gone = {id(f) for x in (*done, cosl, mlab, gql) for f in x.get_family()}
        st.parts = [x for x in st.parts if id(x) not in gone
                    and not any(id(f) in gone for f in x.get_family())]
        self.add(headl, q_line)
        box = self.frame_of(VGroup(*lines[1][:4], *lines[2][:4]))
        self.hold_until(self.when(kk, "key and value") - 0.3)
        self.play(FadeIn(VGroup(*lines[1][:4], *lines[2][:4]), shift=0.1 * UP), FadeIn(box),
                  run_time=0.5)
        names = self.cue_text(kk)
        self.hold_until(self.when(kk, "gives") + 0.1)
        self.repoint(box, lines[1], 0.5, anims=[FadeIn(lines[1][4], shift=0.1 * UP)])
        # the second number: where " and " follows "gives" in the sentence
        gv = names.find("gives")
        j = names.find(" and ", gv) if gv >= 0 else -1
        cues = self.beat.get("cues") or []
        dur = float(cues[kk].get("duration", 0.0)) if kk < len(cues) else 0.0
        t_v = (self.cue_at(kk) + spoken_len(names[:j]) / max(1, spoken_len(names)) * dur
               if j >= 0 else self.time + 0.6)
        self.hold_until(t_v - 0.1)
        self.repoint(box, lines[2], 0.5, anims=[FadeIn(lines[2][4], shift=0.1 * UP)])
        st.parts += [headl, lines, box]
        if "turn too" in names:
            self.glide(box, lines, self.when(kk, "turn too") + 0.2, 0.6)

    def product(self, x, W, brow, bl, out, at, color, per: float, name=None,
                together: bool = False):
        """x W (+ b), column by column: the x row, lit, travels down column j of W into its
        entry, the bias entry under the column is added, and the result entry moves to its row
        at `at`, labelled `name` from the start; under it, the sum written out with its first
        and last term. `per` seconds a column; `together`: every column at once in `per`
        seconds, the first column's sum written out. Returns the result row."""
        if together:
            return self.product_together(x, W, brow, bl, out, at, color, per, name)
        res = row_of(out.values, out.path, color, PS).move_to(at)
        heads = [res[0], res[2]]
        if name is not None:
            name.next_to(res, LEFT, buff=0.2)
            heads.append(name)
        # (review 27: the copy of X standing on W's last column ran into "Q^(1)") where the
        # travelling copies stand; the result row and its name keep clear of them (to the
        # right, else lower)
        hw, hh = x.nums.width / 2, x.nums.height / 2
        sx = [c.get_x() for c in W.columns]
        sy = [c.get_top()[1] + 0.22 + hh for c in W.columns]
        lo_x, hi_x, lo_y, hi_y = min(sx) - hw, max(sx) + hw, min(sy) - hh, max(sy) + hh
        rg = VGroup(res, *heads[2:])
        pad = 0.25
        self.res_dx = 0.0                 # how far right the row went (the later rows follow)
        if (rg.get_left()[0] < hi_x + pad and lo_x - pad < rg.get_right()[0]
                and rg.get_bottom()[1] < hi_y + pad and lo_y - pad < rg.get_top()[1]):
            dx = hi_x + pad - rg.get_left()[0]
            if rg.get_right()[0] + dx <= self.HOME_WIDTH / 2 - T.EDGE:
                rg.shift(dx * RIGHT)
                self.res_dx = dx
            else:
                rg.shift((rg.get_top()[1] - (lo_y - pad)) * DOWN)
        self.play(FadeIn(VGroup(*heads)), *([FadeIn(bl)] if brow is not None else []),
                  run_time=min(0.3, per / 2))
        n = int(self.v.shape.d_model)
        xn = x.nums
        for j, colj in enumerate(W.columns):
            light = SurroundingRectangle(colj, color=HL, buff=0.05, stroke_width=2)
            # the entry written out: x_1 w_1j + ... (n terms) + b_j = out_j, under the result
            w0 = colj[0] if len(colj) and isinstance(colj[0], Num) else None
            sum_ = None
            if w0 is not None:
                parts = [Num(xn[0].value, xn[0].source, decimals=xn[0].decimals, size=PS,
                             color=T.X),
                         txt("·", PS, T.TEXT)]
                wnum = Num(w0.value, w0.source, decimals=w0.decimals, size=PS, color=color)
                if T.fmt(w0.value, w0.decimals).startswith("-"):
                    # (review 33b: "0.335·-0.04", two operators side by side) in brackets
                    wnum = VGroup(txt("(", PS, T.TEXT), wnum, txt(")", PS, T.TEXT)
                                  ).arrange(RIGHT, buff=0.03)
                parts += [wnum, txt(f"+ … ({n} terms)", PS, T.TEXT)]
                if brow is not None:
                    # "+" unless the bias is written with a minus (-0.00014 is written 0.000)
                    shown = T.fmt(brow[j].value, brow[j].decimals)
                    parts += ([txt("+", PS, T.TEXT)] if not shown.startswith("-") else []) + [
                              Num(brow[j].value, brow[j].source, decimals=brow[j].decimals,
                                  size=PS, color=color)]
                parts += [txt("=", PS, T.TEXT),
                          Num(res.nums[j].value, res.nums[j].source, decimals=2, size=PS,
                              color=color)]
                sum_ = VGroup(*parts).arrange(RIGHT, buff=0.12)
                # right under the row it fills (the rows below come later): the eye stays there
                sum_.next_to(res, DOWN, buff=0.4).align_to(name if name is not None else res,
                                                           LEFT)
                # (review 28: it ran to the frame's edge, crowding Q's row) a margin on the
                # right: it moves left, as far as the matrix block's right edge allows
                over = sum_.get_right()[0] - (self.HOME_WIDTH / 2 - 0.55)
                if over > 0:
                    room = max(0.0, sum_.get_left()[0] - (W.get_right()[0] + 0.35))
                    sum_.shift(min(over, room) * LEFT)
                self.keep_inside(sum_)
            # X's numbers, at full size, come down as one row (they keep their order and
            # spacing: nothing crosses) onto W's column j, just above it, then sink into it
            # as the bias entry comes in
            trav = x.nums.copy()
            xlight = SurroundingRectangle(x.nums, color=HL, buff=0.06, stroke_width=2)
            stand = trav.copy().next_to(colj, UP, buff=0.22).set_x(colj.get_x())
            self.play(FadeIn(light), FadeIn(xlight), trav.animate.move_to(stand.get_center()),
                      *([FadeIn(sum_, shift=0.1 * UP)] if sum_ is not None else []),
                      run_time=0.45 * per)
            tgt = brow[j] if brow is not None else colj
            anims = [FadeOut(trav, shift=0.15 * DOWN)]
            if brow is not None:
                anims.append(FadeIn(brow[j]))
            self.play(*anims, run_time=0.3 * per)
            self.remove(*trav.get_family())
            if sum_ is not None:
                # the written-out sum leaves first, then its result moves up into the row
                # (review 24: the result crossed the sum's own digits on its way)
                self.play(FadeOut(VGroup(*sum_[:-1])), FadeOut(light), FadeOut(xlight),
                          run_time=0.1 * per)
                self.play(sum_[-1].animate.move_to(res.nums[j].get_center()),
                          run_time=0.15 * per)
                self.remove(*sum_.get_family())
                self.add(res.nums[j])
            else:
                self.play(FadeIn(res.nums[j], target_position=tgt.get_center()),
                          FadeOut(light), FadeOut(xlight), run_time=0.25 * per)
        self.remove(*heads)
        self.add(res, *heads[2:])
        return res

    def product_together(self, x, W, brow, bl, out, at, color, run_time: float, name=None):
        """x W (+ b) by the same recipe as the query, in one pass: the recipe written once
        under the result row ("same recipe: K = X W_K + b_K"), the x row and the whole
        matrix lit together, and the three result entries come out of their columns (the
        bias row under them) into the row at `at`. No digits travel: the query showed how."""
        res = row_of(out.values, out.path, color, PS).move_to(at)
        heads = [res[0], res[2]] + ([name.next_to(res, LEFT, buff=0.2)] if name is not None
                                    else [])
        K = "K" if color == T.K else "V"
        l = self.layer
        recipe = VGroup(txt("the same way:", PS, T.TEXT),
                        math(f"{K}^(({l})) = X^(({l})) W_{K}^(({l}))"
                             + (f" + b_{K}^(({l}))" if brow is not None else ""), ML, color)
                        ).arrange(RIGHT, buff=0.2)
        recipe.next_to(res, DOWN, buff=0.22).align_to(heads[-1], LEFT)   # under its row
        self.keep_inside(recipe)
        t0 = self.time
        # (review 31: a faint ghost of the recipe hung under the row) it comes and goes in
        # 0.25 s, so no half-faded copy stays on screen
        self.play(FadeIn(VGroup(*heads)), FadeIn(recipe),
                  *([FadeIn(bl), FadeIn(brow)] if brow is not None else []), run_time=0.25)
        xlight = SurroundingRectangle(x.nums, color=HL, buff=0.06, stroke_width=2)
        # (review 31b: the box covered W_K's bracket) padded clear of the brackets
        wlight = SurroundingRectangle(VGroup(W, *([brow] if brow is not None else [])),
                                      color=HL, buff=0.16, stroke_width=2)
        # the entries fly from the bias row down past the key line: it steps back meanwhile
        key = getattr(self, "proj_key", None)
        key = key if key is not None and key in self.mobjects else None
        # (review 24: a dimmed key left a ghost under W_K) the key, read with the query,
        # leaves for good; each entry comes down out of its own column
        self.play(FadeIn(xlight), FadeIn(wlight),
                  *([FadeOut(key)] if key is not None else []), run_time=0.4)
        if key is not None:
            self.remove(*key.get_family())
            if key in self.stage.parts:
                self.stage.parts.remove(key)
            self.proj_key = None
        strip = getattr(self, "proj_strip", None)
        if strip is not None:             # the heads' strip goes with the key line
            self.vanish(strip, run_time=0.3)
            if strip in self.stage.parts:
                self.stage.parts.remove(strip)
            self.proj_strip = None
        left = max(0.9, run_time - (self.time - t0) - 0.4)
        self.play(LaggedStart(*[FadeIn(n, shift=0.3 * DOWN) for n in res.nums],
                              lag_ratio=0.35), run_time=left)
        self.play(FadeOut(xlight), FadeOut(wlight), FadeOut(recipe), run_time=0.25)
        self.remove(*recipe.get_family(), *heads)
        self.add(res, *heads[2:])
        return res

    # --- sweep: every layer, one row each -------------------------------------------------------------
    def cue_end(self, k: int) -> float:
        """Scene time when the voice finishes cue k's sentence (its start plus its audio)."""
        cues = self.beat.get("cues") or []
        if k >= len(cues):
            return self.cue_at(k)
        return self.cue_at(k) + float(cues[k].get("duration", 0.0))

    def pause_before(self, k: int | None, seconds: float) -> None:
        """(review 31: 29 cues 0.25 s apart, no time to read a new column) the voice waits
        `seconds` before cue k (and every later one): a new column comes in in that quiet.
        Called late (the picture ran past the cue's planned start), the voice also waits for
        the picture: cue k then starts `seconds` from now."""
        cues = self.beat.get("cues") or []
        if k is None or k >= len(cues):
            return
        late = max(0.0, self.time - self.cue_at(k))
        for i in range(k, len(cues)):
            self.cue_shift[i] += seconds + late

    def sweep_caption(self, part: str) -> None:
        """(review 31: one caption for 50 s) the sweep's caption follows the voice: each
        analysis its own, from the sentence that starts it (none when captions are burned)."""
        if self.burned is not None or self.caption is None:
            return
        self.set_caption({"test": "At every layer: the layer before's query matrix, given "
                                  "the new X and the old X",
                          "recipe": "Each layer builds Q, K, V from its current X with its "
                                    "own matrices"}[part])

    def beat_sweep(self, beat) -> None:
        """(review 32: the sweep was a number table with highlight boxes, a dashboard) the 2-D
        sketch of `fresh`, one step per layer: X^(l)'s arrow turns away from X^(l-1)'s (a
        ghost) by the step's true angle, the step's cosine comes out at the angle and moves
        into a short list on the right ("cos with previous X"), the angle's mark shrunk
        beside it with its degrees (round 35 reviews: a turn of 0.93 and one of 0.96 looked alike,
        each seen alone); for the next step the arrow
        turns back to the sketch's base and dims into the ghost (the sketch is drawn from the
        X before: it says nothing about X^(0) against X^(6)). The voice's sentences lead:
        the first step, the middle steps, the last; the recipe line at the end."""
        from manim import Arc, ValueTracker
        v = self.v
        cos = [float(c) for c in v.cos_steps]
        l0 = int(v.layers[0].layer)
        steps = pick_states(list(range(1, len(cos) + 1)), MAX_ROWS - 2)   # state s: X^(l0+s)
        self.clear_stage()
        f = v.focus
        name = str(f.word).partition("#")[0]
        title = txt(f"'{name}', layer by layer" + (", its tokens averaged" if f.averaged else ""),
                    T.TYPE.label, T.TEXT).move_to([0, 2.85, 0])
        # the sketch: origin low left, the base direction 10° above the horizontal
        o = np.array([-4.4, -1.55, 0.0])
        R, base = 3.3, np.deg2rad(10.0)

        def tip(a, r=R):
            return o + r * np.array([np.cos(base + a), np.sin(base + a), 0.0])

        def arrow(tr, op):
            """An arrow from `o` at the angle `tr` holds, as opaque as `op` says (both
            trackers: an animation of the arrow itself would pause its updater)."""
            a = Arrow(o, tip(tr.get_value()), buff=0, color=T.X, stroke_width=3.5,
                      tip_length=0.2, max_tip_length_to_length_ratio=0.2)
            a.add_updater(lambda m: m.put_start_and_end_on(o, tip(tr.get_value()))
                          .set_opacity(op.get_value()))
            return a

        def label(s):
            return math(T.X_l(l0 + s), ML, T.X)

        sk = VGroup(txt("2-D sketch: each turn", NL, T.TEXT),
                    txt("at its true angle", NL, T.TEXT)).arrange(DOWN, buff=0.1,
                                                                  aligned_edge=LEFT)
        sk.next_to(o, DOWN, buff=0.3).align_to(o + 0.2 * LEFT, LEFT)
        self.keep_inside(sk)
        # the list: one row per step, filled as each step's cosine arrives; beside each cosine
        # its angle (round 35 reviews: 0.93 and 0.96 looked alike, each turn seen alone), the
        # sketch's own angle mark moved there, the same size in every row, and its degrees
        lx, top = 2.5, 2.05
        head = VGroup(txt("cos with previous X", CL, T.TEXT).move_to([lx, top, 0]),
                      txt("angle", CL, T.TEXT).move_to([lx + 2.3, top, 0]))
        dy = min(0.56, 3.5 / max(1, len(steps)))
        slots = [np.array([lx + 0.55, top - 0.6 - r * dy, 0.0]) for r in range(len(steps))]
        names = [label(s).move_to(slots[r] + 1.35 * LEFT) for r, s in enumerate(steps)]
        # the angle marks' vertex in each row, and how much smaller than the sketch's they are
        vertex = [sl + np.array([1.2, -0.17, 0.0]) for sl in slots]
        shrink = 0.5
        self.stage.parts += [title, head]
        # the state the steps start from: its arrow along the base, its name under its tip
        start = steps[0] - 1
        tr, op = ValueTracker(0.0), ValueTracker(1.0)
        cur = arrow(tr, op)
        cur_l = label(start).next_to(tip(0.0), DOWN + RIGHT, buff=0.1)
        self.play(FadeIn(title, shift=0.1 * DOWN), FadeIn(head, shift=0.1 * DOWN),
                  FadeIn(cur), FadeIn(cur_l), FadeIn(sk, shift=0.1 * UP), run_time=0.6)
        self.stage.parts.append(sk)
        ghost = []
        klast = self.cue_with("last step")
        kend = self.cue_with("builds")
        mid_steps = steps[1:-1]
        # (review 32b: X^(4) and X^(5) turned in 4.5 s of silence) each middle step's cosine
        # comes in as the voice says it ("...: 0.93, then 0.96. Next 0.96, then 0.95."); a
        # sentence that would start before its first number is on screen waits for it
        sync = {}
        kmid = self.cue_with("middle steps")
        if kmid is not None:
            k, at = kmid, self.cue_text(kmid).find(":")
            for s in mid_steps:
                f = f"{cos[s - 1]:.2f}"
                j = self.cue_text(k).find(f, at + 1)
                first = False
                if j < 0 and k + 1 < len(self.beat.get("cues") or []):
                    k, first = k + 1, True
                    j = self.cue_text(k).find(f)
                if j < 0:
                    break
                sync[s] = (k, j, first)
                at = j + len(f)
        for r, s in enumerate(steps):
            c = cos[s - 1]
            ang = float(np.arccos(np.clip(c, -1.0, 1.0)))
            # the steps one after another from the first sentence on (the middle ones under
            # "in the middle steps"), the last with its own (the voice waits for a late one)
            if s == steps[-1] and klast is not None and len(steps) > 1:
                self.pause_before(klast, 0.2)
                self.hold_until_cue(klast)
            if r:
                # what was the ghost leaves; the arrow now drawn turns back to the base and
                # dims: the new ghost, its name riding to under its tip
                self.play(*[FadeOut(m) for m in ghost], tr.animate.set_value(0.0),
                          op.animate.set_value(GHOST),
                          cur_l.animate.next_to(tip(0.0), DOWN + RIGHT, buff=0.1)
                          .set_opacity(GHOST), run_time=0.55 if s == steps[-1] else 0.4)
                self.remove(*[x for m in ghost for x in m.get_family()])
            else:
                self.play(op.animate.set_value(GHOST), DimPlace(cur_l, GHOST), run_time=0.3)
            ghost = [cur, cur_l]
            # the new state's arrow, on the ghost, turns by the step's angle; its name rides
            tr, op = ValueTracker(0.0), ValueTracker(1.0)
            cur = arrow(tr, op)
            cur_l = label(s)
            cur_l.add_updater(lambda m, tr=tr: m.next_to(tip(tr.get_value()), UP + RIGHT,
                                                         buff=0.1))
            self.add(cur, cur_l)
            turn = 1.2 if r == 0 or s == steps[-1] else 0.6
            self.play(tr.animate.set_value(ang), run_time=turn)
            cur_l.clear_updaters()
            arc = Arc(radius=1.1, start_angle=base, angle=ang, arc_center=o, color=HL,
                      stroke_width=2.5)
            num = Num(v.cos_steps[s - 1], decimals=2, size=ML, color=T.TEXT)
            # (review 34b: from inside the angle it crossed the arrows on its way to the
            # list) in the angle's opening, past the arrows' tips: its way to the list, up and
            # to the right, crosses nothing
            num.move_to(o + (R + 0.75 + num.width / 2) * np.array(
                [np.cos(base + ang / 2), np.sin(base + ang / 2), 0.0]))
            if s in sync:
                k, j, first = sync[s]
                if first and self.time > self.cue_at(k) + 0.2:
                    self.pause_before(k, 0.0)            # the voice waits for the picture
                cues = self.beat.get("cues") or []
                text = self.cue_text(k)
                # (the voice reads "0.93" as "zero point nine three": the share of the
                # sentence said is counted on the words read, not the characters written)
                said = self.cue_at(k) + spoken_len(text[:j]) / max(1, spoken_len(text)) * float(
                    cues[k].get("duration", 0.0))
                self.hold_until(said - 0.3)
            self.play(FadeIn(arc), FadeIn(num, scale=0.8),
                      run_time=0.4 if r == 0 or s == steps[-1] else 0.3)
            ghost.append(arc)
            self.hold_until(self.time + (0.5 if r == 0 or s == steps[-1] else 0.1))
            # the cosine moves into its row, the angle's mark (its two sides and the arc) with it
            # into the row's angle column, shrunk about its vertex; then the row's name and the
            # angle in degrees come in beside them (the number never passes over its name)
            mark = VGroup(Line(o, tip(0.0, 1.1), color=HL, stroke_width=2.5),
                          Line(o, tip(ang, 1.1), color=HL, stroke_width=2.5), arc.copy())
            deg = Num(v.angle_steps[s - 1], decimals=0, size=CL, color=T.TEXT, suffix="°")
            deg.move_to(vertex[r] + np.array([0.75 + deg.width / 2, 0.17, 0.0]))
            self.add(mark)
            self.play(num.animate.scale(0.75).move_to(slots[r]),
                      mark.animate.scale(shrink, about_point=o).shift(vertex[r] - o),
                      run_time=0.5 if r == 0 or s == steps[-1] else 0.4)
            self.play(FadeIn(names[r], shift=0.1 * RIGHT), FadeIn(deg, shift=0.1 * LEFT),
                      run_time=0.25)
            self.stage.parts += [num, names[r], mark, deg]
            if s == steps[-1]:
                break
        self.stage.parts += [cur, cur_l, *ghost]
        # "So each layer builds its Q, K and V from its current X and its own matrices": the
        # recipe under the list
        if kend is not None:
            self.hold_until(self.cue_at(kend) - 0.2)
            has_b = any(bool(x.bias) for x in v.layers)
            rec = VGroup(math("Q^((l)) = X^((l)) W_Q^((l))" + (" + b_Q^((l))" if has_b else ""),
                              ML, T.Q),
                         txt("K and V the same way, every layer l", S, T.TEXT)
                         ).arrange(DOWN, buff=0.12)
            rec.next_to(VGroup(*names), DOWN, buff=0.18).set_x(lx)
            # (review 33: its second line ~10 px above the caption) clear of the caption
            if self.caption is not None and rec.get_bottom()[1] < self.caption.get_top()[1] + 0.3:
                rec.shift((self.caption.get_top()[1] + 0.3 - rec.get_bottom()[1]) * UP)
            self.keep_inside(rec)
            # (no pointer round it: it sits between the list and the caption) the formula
            # first; "and its own matrices, ...": its second line, K and V, every layer l
            self.play(FadeIn(rec[0], shift=0.1 * UP), run_time=0.6)
            self.stage.parts.append(rec)
            self.hold_until(self.phrase_time("own matrices", self.time) - 0.2)
            self.play(FadeIn(rec[1], shift=0.1 * UP), run_time=0.5)
        self.hold_until(self.cue_at(99) - 0.2)

    def check_grid(self):
        """(review 30: the check read as a log) a grid, one row per layer and one cell per
        head, that fills as the voice says what was recomputed; its key under it; and the
        bound line. Placed in the middle of the stage."""
        c = self.v["check"]                   # what the plan's check covered (View.check is a method)
        b = c.bound
        n_l, n_h = int(c.layers), int(c.heads)
        w = min(0.6, 8.5 / max(1, n_h))
        h = min(0.45, 3.4 / max(1, n_l))
        cells = VGroup(*[VGroup(*[Rectangle(width=w * 0.86, height=h * 0.8, color=T.MUTED,
                                            stroke_width=1.5).set_fill(T.TEXT, 0)
                                  for _ in range(n_h)]).arrange(RIGHT, buff=w * 0.14)
                         for _ in range(n_l)]).arrange(DOWN, buff=h * 0.2)
        # the layer names on the left (every k-th when the rows are too thin for all)
        every = max(1, int(np.ceil(0.36 / h)))
        lays = [int(lay.layer) for lay in self.v.layers]
        names = VGroup(*[txt(f"layer {lays[r]}", S, T.TEXT).next_to(cells[r], LEFT, buff=0.25)
                         for r in range(n_l)
                         if r % every == 0 or (r == n_l - 1 and (r % every) * h >= 0.36)])
        heads = VGroup(txt("head 0", S, T.TEXT).next_to(cells[0][0], UP, buff=0.15),
                       txt(f"head {n_h - 1}", S, T.TEXT).next_to(cells[0][-1], UP, buff=0.15))
        if heads[0].get_right()[0] + 0.2 > heads[1].get_left()[0]:
            heads = VGroup(heads[0])
        key = txt(f"a cell: one head's Q, K and V ({int(c.entries)} entries each), "
                  f"for all {int(c.tokens)} tokens", S, T.TEXT)
        toks = [str(t) for t in self.v.tokens]
        marks = sum(1 for t in toks if t.startswith("[") and t.endswith("]"))
        if len(toks) == int(c.tokens) and marks == 2:
            # (review 34b: "all 9 tokens" while the sentence shows 7) what the 9 are, in
            # words (the markers' names are never said in this video)
            key = VGroup(key, txt(f"({len(toks) - 2} of the sentence, plus a start and an "
                                  "end marker the model adds)", S, T.TEXT)).arrange(
                DOWN, buff=0.1)
        bound = Num(b.bound, decimals=int(b.decimals), size=T.TYPE.label, color=HL,
                    prefix="every gap, model vs recomputed: < ")
        grid = VGroup(names, heads, cells)
        VGroup(grid, key, bound).arrange(DOWN, buff=0.3).move_to(DOWN * 0.1)
        return cells, names, heads, key, bound

    def beat_check(self, beat) -> None:
        self.clear_stage()
        l = self.layer
        v = self.v.layers[l]
        # (review 32b: only the two result rows were shown, the operation claimed) the
        # recipe of layer 1 again, on layer l: X^(l)'s row over W_Q^(l) (its first rows and
        # columns, head 0, and the bias), each entry made column by column as at layer 1,
        # the row named "recomputed"; then the model's own row comes in under it, the pointer
        # on the two
        name = str(self.v.focus.word).partition("#")[0]
        lay = self.proj_layout(l)
        row, label, block = lay["row"], lay["label"], lay["blocks"]["q"]
        head = txt(f"'{name}', layer {l}, head {int(self.v.show.head)}: the query redone",
                   S, T.TEXT).move_to([0, 2.75, 0])
        self.play(FadeIn(head, shift=0.1 * DOWN), FadeIn(VGroup(label, row)),
                  FadeIn(VGroup(block.wl, block.W, block.more)), FadeIn(lay["key"]),
                  run_time=0.8)
        k0 = 0 if "redone" in self.cue_text(0) else 1
        # (the model's row must stand beside the recomputed one before the voice moves on)
        # the product starts as "query for" is said; "redone as X times W" falls inside it
        # (own pass, round 34: the model's row then stood 0.3 s) the product starts as the
        # sentence does, so the two rows stand side by side before the voice moves on
        self.hold_until(self.cue_at(k0) + 0.2 if k0 == 0 else self.cue_at(1) - 0.1)
        kall = 1 if k0 == 0 else 2
        per = max(0.8, min(1.0, (self.cue_at(kall) - self.time - 2.4) / 3))
        rname = txt("recomputed", S, T.Q)
        res = self.product(row, block.W, block.brow if block.has_b else None, block.bl,
                           v.redo_q, lay["at"]["q"], T.Q, per, rname)
        model = row_of(v.q.values, v.q.path, T.Q, PS)
        model.next_to(res, DOWN, buff=0.3).align_to(res, LEFT)
        mname = txt("the model's", S, T.Q).next_to(model, LEFT, buff=0.2)
        mname.align_to(rname, RIGHT)
        box = self.frame_of(VGroup(res, model))
        self.play(FadeIn(VGroup(model, mname), shift=0.1 * UP), FadeIn(box), run_time=0.6)
        top = VGroup(head, label, row, block, lay["key"], rname, res, model, mname)
        # "Then every query, key and value ...": the one query leaves; the grid of every
        # layer and head comes in and fills, a layer at a time, as the voice goes on
        kall = 1 if k0 == 0 else 2
        # (own pass, round 34: the model's row was on screen 0.3 s before the grid took
        # over) the two rows stand side by side 1.5 s at least; the voice waits if need be
        need = self.time + 1.5 - (self.cue_at(kall) - 0.2)
        if need > 0:
            self.pause_before(kall, need)
        self.hold_until(self.cue_at(kall) - 0.2)
        cells, names, heads, key, bound = self.check_grid()
        self.vanish(top, box, run_time=0.4)
        self.play(FadeIn(VGroup(cells, names, heads), shift=0.1 * UP), run_time=0.5)
        self.play(FadeIn(key, shift=0.1 * UP), run_time=0.4)
        box = self.frame_of(key)
        self.play(FadeIn(box), run_time=0.3)
        kb = kall + 1
        step = max(0.25, (self.cue_at(kb) - self.time - 0.3) / max(1, len(cells)))
        for r, row in enumerate(cells):
            self.repoint(box, row, 0.5 * step,
                         anims=[LaggedStart(*[c.animate.set_fill(T.TEXT, 0.8) for c in row],
                                            lag_ratio=0.08)])
            self.hold_until(self.time + 0.5 * step)
        self.hold_until_cue(kb)
        # "Each matches the model's own to within <bound>": the bound line, then the pointer
        # on the whole grid
        self.repoint(box, bound, 0.7, anims=[FadeIn(bound, shift=0.1 * UP)])
        self.stage.parts += [cells, names, heads, key, bound, box]
        self.glide(box, VGroup(cells, names, heads), self.when(kb, "matches") + 0.8, 0.6)
        self.hold_until(self.cue_at(99) - 0.3)
