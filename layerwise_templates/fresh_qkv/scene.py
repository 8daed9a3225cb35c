"""A whole layer, then the next (docs/chapter.md 4.3), shown on a few real numbers of one token.

Beats (storyboard `show` names):
- `x`       (the beat `recap`) the layer's diagram with its skip path (the stream line) and
            attention's side branch; X^(l) and Δattn^(l) as columns of their first numbers;
            copies of both fly into the sum's column at ⊕; lengths under each column
- `norm`    the LayerNorm box after the add (post-LN), one step: the sum's numbers go in, the
            rescaled ones come out into its column, its length pointed at
- `ffn`     the FFN's side branch, Δffn^(l), the second ⊕ on the second skip path, LayerNorm
            again: the last column is X^(l+1)
- `project` layer l starts over: X^(l) (the column the diagram ended on: its own digits move
            into a row; in a post-LN model "= LayerNorm's output") times layer l's own W_Q
            column by column (X's numbers stand on each column), then W_K and W_V by the same
            recipe, one result entry at a time (head 0); then why they are fresh: what X^(l) is
            made of (a formula, Δattn and ΔFFN pointed at as named), its first number beside
            layer l-1's X (dimmed, on the right), W_Q^(l) beside layer l-1's, and last the two
            queries
- `sweep`   "'word', layer by layer": a table of X^(l) for every layer, its first numbers and
            the query Q^(l) made from it; rows arrive one layer at a time; then, as the voice
            names them, what X^(0) is made of (a footnote), the later X's (each a LayerNorm's
            output), cos with the state above as a new column (highest, then lowest pointed at),
            and last the W_Q^(l) each row's query was made with, row by row
- `check`   the last layer's query recomputed as X W + b beside the model's, the bound the
            recompute stays under for every token, head, layer and Q/K/V entry, and the largest
            gap measured (as the power of ten it stays under)

Every number is a `Num` read through the plan's typed view (view.py), so it carries its plan
path; the scene does no model arithmetic. `Stage` is what an earlier beat left on screen: a
handler continues it when it is the diagram of its own layer, and otherwise clears the stage
and builds what it needs from the plan, so every arrangement of the beats renders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Circle, Dot, FadeIn, FadeOut,
                   LaggedStart, Line, MoveAlongPath, Rectangle, RoundedRectangle,
                   SurroundingRectangle, Transform, TransformFromCopy, VGroup, VMobject)

from scenes import theme as T
from manim import Animation

from scenes.animations import DimPlace, FadeInPlace, FadeOutPlace, _Fade
from scenes.base import StoryboardScene
from scenes.mobjects import Num, math, txt
from scenes.motion import VectorColumn, WeightBlock, matvec
from scenes.motion.matvec import row_of

from .view import Data

QKV = ("q", "k", "v")
NAME = {"q": "Q", "k": "K", "v": "V"}
COLOR = {"q": T.Q, "k": T.K, "v": T.V}
S = T.TYPE.small                 # 18 px: the smallest text
ML = 44                          # formulas with scripts: the layer index (a script) >= 14 px
GHOST = 0.75                     # the earlier layer's opacity (compared: it must read clearly)
HL = T.POINTER                   # the chapter's pointer colour (white: Q is yellow)

# the diagram: the stream (skip path) runs along SY, side branches at BY, columns under the stream
SY, BY, COL_TOP, LEN_Y, NOTE_Y = 1.55, 2.5, 0.72, -0.75, -1.75
NOTE_WIDTH = 13.0                # the widest a line of explanation may be
X_LEFT, X_RIGHT = -6.1, 5.1      # the first and last node's x (the columns apart)
UPDATE_COLOR = {"d_attn": T.ATTN, "d_ffn": T.FFN}
UPDATE_SUB = {"d_attn": "attn", "d_ffn": "FFN"}
BRANCH = {"d_attn": "attention", "d_ffn": "FFN"}

# project: X row on top, W below it, the layer's Q, K, V in the middle, layer l-1's on the right
PX, PW, PR, PG = -3.6, -3.95, 0.8, 5.15       # x of X row, W, result rows, ghost rows
PY_X, PY_W = 2.3, 0.05
ROW_Y = {"q": 1.15, "k": 0.35, "v": -0.45}
XDEC = 3                         # X's numbers: as the diagram's columns wrote them
SOURCE_DIM = 0.3                 # a column whose copies are travelling, while they do
MAX_ROWS = 8                     # the sweep's table: at most this many states


class UnDim(_Fade):
    """Back from DimPlace(m, factor) to the opacities m had before it."""

    def __init__(self, mobject, factor: float, **kwargs):
        self.start, self.end = 1.0, 1.0 / factor
        super().__init__(mobject, **kwargs)

    def finish(self) -> None:
        Animation.finish(self)
        self.interpolate_mobject(1.0)


def sum_decimals(a, b, total, choices=(2, 3)) -> int:
    """The fewest decimals (of `choices`) at which the shown numbers of `a` + `b` add up to
    the shown `total`, entry by entry (the last choice when none does)."""
    for d in choices:
        if all(abs(round(float(x), d) + round(float(y), d) - round(float(t), d)) < 0.5 * 10 ** -d
               for x, y, t in zip(a, b, total)):
            return d
    return choices[-1]


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

    def group(self) -> VGroup:
        return VGroup(*[VGroup(self.marks[i], self.paths[i], self.cols[i])
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


class FreshQKVScene(StoryboardScene):

    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.stage = Stage()

    # --- stage ------------------------------------------------------------------------------
    def clear_stage(self, keep=()) -> None:
        st = self.stage
        gone = [m for m in ([st.diagram.group()] if st.diagram else []) + [st.note] + st.parts
                if m is not None and m not in keep]
        self.vanish(*gone)
        self.stage = Stage()

    def vanish(self, *ms, run_time: float = 0.5) -> None:
        """Fade `ms` out and take every piece of them off the scene (a piece a transform
        added on its own would otherwise stay behind)."""
        ms = [m for m in ms if m is not None]
        if ms:
            self.play(*[FadeOutPlace(m) for m in ms], run_time=run_time)
            self.remove(*[f for m in ms for f in m.get_family()])

    def set_note(self, text: str, color=T.TEXT) -> None:
        """The one line of explanation under the picture (replaces the last)."""
        new = txt(text, S, color).move_to(UP * NOTE_Y)
        self.keep_inside(new)
        old, self.stage.note = self.stage.note, new
        self.stage.note_text = text
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
        """The table and the check span every layer: the footer names no single layer then."""
        if (beat.get("show") or [None])[0] in ("sweep", "check"):
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
                f"{int(self.v.shape.d_model)} numbers; under each, its length")
        if f.averaged or txt(text, S).width > NOTE_WIDTH:     # the sentence does not fit
            text = (f"{which}: the first {int(self.v.show.dims)} of its "
                    f"{int(self.v.shape.d_model)} numbers; under each, its length")
        if txt(text, S).width > NOTE_WIDTH:         # show less, not smaller
            which = (f"{word}, {len(f.tokens)} tokens averaged" if f.averaged else word)
            text = f"{which}: first {int(self.v.show.dims)} numbers of each vector, its length"
        if txt(text, S).width > NOTE_WIDTH:
            text = f"first {int(self.v.show.dims)} numbers of each vector, its length"
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
            return Dot([x, SY, 0], radius=0.07, color=T.X)
        if kind == "sum":
            c = Circle(radius=0.2, color=T.TEXT, stroke_width=2).set_fill(T.BACKGROUND, 1)
            return VGroup(c, txt("+", S, T.TEXT).move_to(c)).move_to([x, SY, 0])
        if kind == "norm":
            t = txt("LN", S, T.LN)
            box = RoundedRectangle(width=0.75, height=0.45, corner_radius=0.08, color=T.LN,
                                   stroke_width=2).set_fill(T.BACKGROUND, 1)
            return VGroup(box, t.move_to(box)).move_to([x, SY, 0])
        key = d.keys[i]                       # an update: the side branch's box
        name = BRANCH[key] if str(self.v.layers[d.layer].norm.placement) != "pre" \
            else f"norm, {BRANCH[key]}"
        t = txt(name, S, UPDATE_COLOR[key])
        box = RoundedRectangle(width=t.width + 0.3, height=0.5, corner_radius=0.1,
                               color=UPDATE_COLOR[key], stroke_width=2)
        return VGroup(box, t.move_to(box)).move_to([x, BY, 0])

    def path_to(self, d: Diagram, i: int) -> VMobject:
        """The stream segment into node i, or for an update the branch: up from the stream
        just after node i-1, into the box, out and down into the ⊕ after it (node i+1)."""
        x = d.xs[i]
        if d.kinds[i] == "state":
            return Line([x - 0.45, SY, 0], [x, SY, 0], color=T.X, stroke_width=3)
        if d.kinds[i] == "update":
            x0 = d.xs[i - 1] + 0.45
            box = d.marks[i]
            x1 = d.xs[i + 1]
            p = VMobject(color=UPDATE_COLOR[d.keys[i]], stroke_width=3)
            p.set_points_as_corners([[x0, SY, 0], [x0, BY, 0], [box.get_left()[0], BY, 0]])
            q = VMobject(color=UPDATE_COLOR[d.keys[i]], stroke_width=3)
            q.set_points_as_corners([[box.get_right()[0], BY, 0], [x1, BY, 0],
                                     [x1, SY + 0.21, 0]])
            return VGroup(p, q)
        prev = i - 1 if d.kinds[i - 1] != "update" else i - 2     # the stream skips the branch
        end = [x + (0.35 if i == len(d.xs) - 1 else 0), SY, 0]
        # the stream leaves a box from its right edge (never drawn through it)
        x0 = d.xs[prev] + (0.38 if d.kinds[prev] == "norm" else 0.0)
        seg = Line([x0, SY, 0], [x, SY, 0], color=T.X, stroke_width=3)
        if i == len(d.xs) - 1:                # the stream leaves the layer: an arrow onward
            tail = Arrow([x, SY, 0], [x + 1.25, SY, 0], buff=0, color=T.X, stroke_width=3,
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
                           length=int(self.v.shape.d_model), summary=False, color=color, size=S,
                           decimals=decimals)
        col[0].shift(0.05 * LEFT)             # the brackets clear of a minus sign
        col[2].shift(0.05 * RIGHT)
        col.at(d.xs[i], COL_TOP)
        # the row of lengths: "|·|" once, on the first (seven "|·| 12.87" nearly touched)
        length = Num(s.length, decimals=2, size=T.TYPE.label, color=T.TEXT,
                     prefix="|·| " if i == 0 else "")
        length.next_to(col, DOWN, buff=0.12)
        length.set_y(LEN_Y)
        label = None
        if kind == "state":
            label = math(T.X_l(l), ML, T.X)
        elif kind == "update":
            label = math(f"Δ\"{UPDATE_SUB[key]}\"^(({l}))", ML, color)   # no tiny subscript
        elif i == len(d.kinds) - 1:
            label = math(T.X_l(l + 1), ML, T.X)
        elif kind == "sum":
            label = txt("sum", S, T.TEXT)
        else:
            label = txt("after LN", S, T.LN)
        g = VGroup(col, length)
        g.col, g.length = col, length
        if label is not None:
            label.move_to([d.xs[i], (SY - 0.22 + COL_TOP) / 2, 0])
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
        up, down = d.paths[i]
        self.play(FadeIn(up), FadeIn(d.marks[i], shift=0.1 * DOWN), run_time=0.4 * run_time)
        self.run_dot(up, UPDATE_COLOR[d.keys[i]], 0.25 * run_time)
        self.play(FadeIn(down), FadeIn(d.cols[i], target_position=d.marks[i]),
                  run_time=0.35 * run_time)

    def into_mark(self, nums, mark, run_time: float) -> None:
        """Copies of `nums` travel into `mark` (the ⊕ or the LN box) and are absorbed there."""
        copies = [n.copy() for n in nums]
        self.add(*copies)
        y = mark.get_center()[1]
        src = VGroup(*nums)
        # at full size (legible), out to the gap right of their column (the columns they pass
        # dimmed, so the bright travelling copies read on top), up it to the stream keeping
        # their spacing (not piled on each other), along the stream into the mark
        gap = [n.get_right()[0] + 0.45 for n in nums]
        low = min(c.get_y() for c in copies)
        self.play(*[c.animate.move_to([g, c.get_y(), 0]) for c, g in zip(copies, gap)],
                  DimPlace(src, SOURCE_DIM), run_time=0.3 * run_time)
        self.play(*[c.animate.move_to([g, c.get_y() - low + y - 0.1, 0])
                    for c, g in zip(copies, gap)], run_time=0.35 * run_time)
        self.play(*[c.animate.move_to(mark.get_center()).set_opacity(0.2) for c in copies],
                  UnDim(src, SOURCE_DIM), run_time=0.35 * run_time)
        self.remove(*copies)

    def out_of_mark(self, col: VGroup, mark, run_time: float) -> None:
        """A column's numbers come out of `mark` and drop into their places under it; its
        brackets, label and length come with them."""
        self.play(*[FadeIn(n, target_position=mark.get_center(), scale=0.5)
                    for n in col.col.nums],
                  FadeIn(VGroup(col.col[0], col.col[2], *col.col[1][1:])),
                  run_time=0.6 * run_time)
        self.play(FadeIn(VGroup(*[m for m in col if m is not col.col]), shift=0.1 * UP),
                  run_time=0.4 * run_time)

    def add_at_sum(self, d: Diagram, i: int, run_time: float) -> None:
        """Node i is a ⊕: the stream's column and the update's travel into the ⊕, a pause,
        and the sum comes out of it into its own column."""
        a, b = i - 2, i - 1                   # the stream's state before the branch, the update
        self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i], scale=0.8), run_time=0.2 * run_time)
        self.into_mark([*d.cols[a].col.nums, *d.cols[b].col.nums], d.marks[i], 0.35 * run_time)
        self.wait(0.15 * run_time)
        self.out_of_mark(d.cols[i], d.marks[i], 0.3 * run_time)

    def norm_at(self, d: Diagram, i: int, run_time: float) -> None:
        """Node i is LayerNorm: the sum's numbers travel into the box, a pause, LN(sum)'s come
        out of it into its column."""
        self.play(FadeIn(d.paths[i]), FadeIn(d.marks[i], scale=0.8), run_time=0.2 * run_time)
        self.into_mark(d.cols[i - 1].col.nums, d.marks[i], 0.35 * run_time)
        self.wait(0.15 * run_time)
        self.out_of_mark(d.cols[i], d.marks[i], 0.3 * run_time)

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

    def when(self, k: int, phrase: str) -> float:
        """Scene time when `phrase` of cue k is spoken (its place in the sentence's text, as a
        share of the sentence's audio); the cue's start when the phrase is not in it."""
        cues = self.beat.get("cues") or []
        if k >= len(cues):
            return self.cue_at(k)
        text = str(cues[k].get("text", ""))
        f = text.find(phrase) / max(1, len(text)) if phrase in text else 0.0
        return self.cue_at(k) + f * float(cues[k].get("duration", 0.0))

    # --- recap: X^(l) + Δattn^(l) on the skip path ---------------------------------------------
    def beat_x(self, beat) -> None:
        d = self.diagram_for(self.layer, note=False)
        self.show_now(d, 0)
        first_sum = d.kinds.index("sum")
        self.draw_node(d, 0, 0.8)                 # X^(l) and its column, from the first frame
        if self.stage.note is None:
            self.set_note(self.word_note(), T.TEXT)
        self.hold_until(self.when(0, "goes straight on") - 0.2)
        self.play(FadeIn(d.paths[first_sum]), run_time=0.4)
        self.run_dot(d.paths[first_sum], T.X, 1.0)           # the skip path: X goes straight on
        self.hold_until(self.when(0, "attention's update") - 0.3)
        self.draw_node(d, 1, 1.6)
        self.hold_until(self.when(0, "added to it") - 0.2)
        self.draw_node(d, first_sum, 2.4)
        self.busy_until(self.cue_at(99) - 0.2, d.cols[first_sum].length)

    # --- norm: LayerNorm after the add ----------------------------------------------------------
    def phrase_time(self, phrase: str, default: float) -> float:
        """Scene time when `phrase` is spoken in this beat (`default` when no sentence of
        this beat has it: a draft or another arrangement may say less)."""
        k = self.cue_with(phrase)
        return self.when(k, phrase) if k is not None else default

    def beat_norm(self, beat) -> None:
        d = self.diagram_for(self.layer)
        first_sum = d.kinds.index("sum")
        self.show_now(d, first_sum + 1)
        nxt = first_sum + 1
        if nxt < len(d.kinds) and d.kinds[nxt] == "norm":
            # one step: the sum's numbers go into the LN box, the rescaled ones come out into
            # its column; the pointer on the length the voice reads
            self.hold_until(self.phrase_time("LayerNorm", self.time) - 0.2)
            self.draw_node(d, nxt, 1.8)
            self.busy_until(self.cue_at(99) - 0.2, d.cols[nxt].length)
        else:                                   # pre-norm: the norm sits inside each branch
            self.emphasize(d.marks[1], run_time=1.0)
            self.set_note("this model normalises only the copy each branch reads; "
                          "X itself is never rescaled")
            self.busy_until(self.cue_at(99) - 0.3, d.marks[1])

    # --- ffn: the second half, X^(l+1) -------------------------------------------------------------
    def beat_ffn(self, beat) -> None:
        d = self.diagram_for(self.layer)
        ffn = d.keys.index("d_ffn")
        self.show_now(d, ffn)
        extra = [m for m in self.stage.parts]              # the LN working of the last beat
        self.vanish(*extra, run_time=0.4)
        self.stage.parts = []
        attn = d.keys.index("d_attn")
        # "the feed-forward network repeats that pattern": its branch, then the same shape lit
        self.hold_until(self.phrase_time("feed-forward", self.time) - 0.3)
        self.draw_node(d, ffn, 1.6)
        self.hold_until(self.phrase_time("its own update", self.time) - 0.3)
        self.emphasize(d.marks[attn], d.paths[attn], d.marks[ffn], d.paths[ffn], run_time=1.0)
        sh = self.v.shape
        self.set_note(f"FFN: a {int(sh.d_model)} → {int(sh.d_mlp)} → {int(sh.d_model)} "
                      "network, applied to this token alone", T.TEXT)
        k = self.cue_with("skip path")
        self.busy_until(self.cue_at(k if k is not None else 1), d.marks[ffn])
        self.run_dot(d.paths[ffn + 1], T.X, 0.8)             # the second skip path
        box = None
        for i in range(ffn + 1, len(d.kinds)):
            self.draw_node(d, i, 1.6)
            if box is None:                                # the length the voice reads
                box = self.frame_of(d.cols[i].length)
                self.play(FadeIn(box), run_time=0.3)
            else:
                self.repoint(box, d.cols[i].length, 0.5)
            self.hold_until(self.phrase_time("LayerNorm again", self.time) - 0.3)
        self.hold_until(self.phrase_time("reads", self.time) - 0.4)
        if box is not None:
            self.vanish(box, run_time=0.3)
        last = d.cols[-1]
        # "the state layer 1 reads": one box on its numbers and length (clear of the LN box)
        self.busy_until(self.cue_at(99) - 0.3, VGroup(last.col, last.length))

    # --- project: layer l starts over ---------------------------------------------------------------
    def beat_project(self, beat) -> None:
        l = self.layer
        v = self.v.layers[l]
        pre = str(v.norm.placement) == "pre"
        st = self.stage
        d = st.diagram
        # X^(l) as a row: from the column the diagram ended on when that is on screen
        row = row_of(v.in_first.values, v.in_first.path, T.X, S, decimals=XDEC)
        row.move_to([PX, PY_X, 0])
        row[2].shift(0.4 * RIGHT)                 # room for "…": X has d_model numbers
        row.add(txt("…", S, T.X).next_to(row.nums, RIGHT, buff=0.12))
        label = math(f"\"norm\"({T.X_l(l)})" if pre else T.X_l(l), ML, T.X)
        label.next_to(row, LEFT, buff=0.2)
        over = (-7.11 + T.EDGE) - label.get_left()[0]   # "norm(X^(l))" of a pre-norm model
        if over > 0:
            VGroup(row, label).shift(RIGHT * over)
        carried = (d is not None and d.layer == l - 1 and d.drawn == len(d.kinds)
                   and not pre)
        if carried:
            src = d.cols[-1]
            rest = VGroup(*[VGroup(d.paths[i], d.marks[i], d.cols[i])
                            for i in range(len(d.kinds) - 1)], d.paths[-1], d.marks[-1],
                          *[m for m in src if m is not src.col and m is not src.label])
            self.vanish(rest, st.note, run_time=0.6)
            # the column's own digits and label move into the row (the same glyphs: nothing
            # morphs); its brackets, dots and length go first, the row's brackets come last
            nums = list(src.col.nums)
            same = (len(nums) == len(row.nums)
                    and all(getattr(a, "decimals", None) == b.decimals
                            for a, b in zip(nums, row.nums)))
            self.vanish(VGroup(src.col[0], src.col[2], *src.col[1][1:],
                               *[m for m in src if m is not src.col and m is not src.label]),
                        run_time=0.3)
            if same:
                self.play(LaggedStart(*[n.animate.move_to(r.get_center())
                                        for n, r in zip(nums, row.nums)], lag_ratio=0.3),
                          src.label.animate.move_to(label.get_center()), run_time=1.2)
            else:       # another decimals convention: the column leaves, the row comes in
                self.vanish(VGroup(*nums), run_time=0.3)
                self.play(FadeIn(row.nums), src.label.animate.move_to(label.get_center()),
                          run_time=0.6)
            self.play(FadeIn(VGroup(row[0], row[2], row[3])), run_time=0.4)
            self.remove(*src.get_family())
            self.add(row, label)
            self.stage = Stage()
        else:
            self.clear_stage()
            self.play(FadeIn(row), FadeIn(label), run_time=0.6)
        st = self.stage
        st.parts += [row, label]
        # layer l-1, dimmed, on the right: its X and its Q, K, V
        ghosts = VGroup()
        if l >= 1:
            g = self.v.layers[l - 1]
            head = txt(f"the same, in layer {l - 1}", S, T.MUTED).move_to([PG, PY_X + 0.55, 0])
            gx = row_of(g.in_first.values, g.in_first.path, T.X, S, decimals=XDEC)
            gx.move_to([PG, PY_X, 0])
            ghosts.add(head, gx)
            for k in QKV:
                r = row_of(getattr(g, k).values, getattr(g, k).path, COLOR[k], S)
                ghosts.add(r.move_to([PG, ROW_Y[k], 0]))
            # each ghost row named: X^(l-1), Q^(l-1), K^(l-1), V^(l-1) (ghosts[5:9])
            for r, base, c in ((gx, "X", T.X), (ghosts[2], "Q", T.Q), (ghosts[3], "K", T.K),
                               (ghosts[4], "V", T.V)):
                ghosts.add(math(T.X_l(l - 1, base), ML, c).next_to(r, LEFT, buff=0.2))
            st.parts.append(ghosts)          # they come in when the voice says "where layer l-1's started"
        # "in MiniLM, X is already LayerNorm's output, so the matrices read X directly"
        ka = self.cue_with("already")
        if ka is not None and not pre:
            self.hold_until(self.when(ka, "already") - 0.3)
            said = txt("= LayerNorm's output", S, T.LN).next_to(row, RIGHT, buff=0.3)
            self.play(FadeIn(said, shift=0.1 * LEFT), run_time=0.6)
            st.parts.append(said)
            self.busy_until(self.cue_end(ka) - 0.1, VGroup(label, row, said))
        rows = {}
        # each matrix on its own sentence (the cue that names it; else the next ones in turn)
        cue = {k: self.cue_with(f"{w} matrix") for k, w in (("q", "query"), ("k", "key"),
                                                             ("v", "value"))}
        cue = {k: (c if c is not None else i + 1) for i, (k, c) in enumerate(cue.items())}
        for i, k in enumerate(QKV):
            K = NAME[k]
            w = getattr(v, f"W_{K}")
            W = WeightBlock(w.values, w.path, color=COLOR[k], decimals=3, size=S)
            W.move_to([PW, PY_W, 0])
            wl = math(f"W_{K}^(({l}))", ML, COLOR[k]).next_to(W, LEFT, buff=0.25).align_to(W, UP)
            bias = getattr(v, f"b_{K}")
            has_b = bool(v.bias)
            brow = VGroup(*[Num(bias[j], decimals=3, size=S, color=COLOR[k])
                            for j in range(len(bias))])
            more = VGroup(*[txt("⋮", S, COLOR[k]).next_to(c, DOWN, buff=0.08) for c in W.columns])
            for j, n in enumerate(brow):
                n.next_to(more[j], DOWN, buff=0.12).set_x(W.columns[j].get_x())
            bl = math(f"+ b_{K}^(({l}))", ML, COLOR[k]).next_to(brow, LEFT, buff=0.25)
            bl.align_to(wl, RIGHT)
            key = txt(f"rows 1–{len(w)} of {int(self.v.shape.d_model)}, columns 1–{len(w[0])} "
                      f"of {int(self.v.shape.d_head)} (head {int(self.v.show.head)})",
                      S, T.TEXT).next_to(VGroup(brow, bl), DOWN, buff=0.4).set_x(W.get_x())
            parts = [wl, W, more, key] + ([bl, brow] if has_b else [])
            block = VGroup(*parts)
            self.keep_inside(block)
            self.hold_until_cue(cue[k])
            if i:         # the last matrix slides out, this one in: quick, so V is done
                old = self.stage_block      # before the voice compares the queries
                self.play(FadeOut(old, shift=1.2 * LEFT), run_time=0.25)
                self.remove(*old.get_family())
                self.play(FadeIn(VGroup(wl, W, more, key), shift=1.2 * LEFT), run_time=0.25)
            else:
                self.play(FadeIn(VGroup(wl, W, more, key)), run_time=0.4)
            self.stage_block = block
            # Q column by column; K and V, "the same", all three columns at once, in the time
            # their sentence leaves (V's runs a little into the next: its product is seen)
            per = (max(0.9, min(2.2, (self.when(cue["q"], "plus a bias") - self.time - 0.6) / 3))
                   if i == 0 else max(1.6, self.cue_end(cue[k]) - self.time + 0.2))
            name = math(f"{K}^(({l}))", ML, COLOR[k])
            res = self.product(row, W, brow if has_b else None, bl, getattr(v, k),
                               [PR, ROW_Y[k], 0], COLOR[k], per, name, together=i > 0)
            rows[k] = VGroup(name, res)
        st.parts += [self.stage_block, *rows.values()]
        st.proj_layer, st.proj_rows = l, rows
        st.proj_x = row
        # "Why are these fresh?": the pointer on the three new rows
        kw = self.cue_with("Why")
        kc = self.cue_with("carries context")
        km = self.cue_with("same matrices")
        kn = self.cue_with("So the query")
        kc = kc if kc is not None else 4
        km = km if km is not None else kc + 1
        kn = kn if kn is not None else km + 1
        box = self.frame_of(VGroup(*rows.values()))
        self.hold_until(self.cue_at(kw if kw is not None else kc) - 0.1)
        old = self.stage_block              # W_V is done: it slides out, the rows pointed at
        st.parts.remove(old)
        self.play(FadeOut(old, shift=1.2 * LEFT), run_time=0.35)
        self.remove(*old.get_family())
        self.play(FadeIn(box), run_time=0.4)
        # "This X carries context now": the pointer on X^(l), what made it written under it
        self.hold_until(self.when(kc, "carries context") - 0.6)
        self.repoint(box, VGroup(label, row), 0.6)
        if l >= 1:
            made = (f"{T.X_l(l)} = \"LN\"(\"LN\"({T.X_l(l - 1)} + Δ\"attn\"^(({l - 1}))) "
                    f"+ Δ\"FFN\"^(({l - 1})))" if not pre else
                    f"{T.X_l(l)} = {T.X_l(l - 1)} + Δ\"attn\"^(({l - 1})) "
                    f"+ Δ\"FFN\"^(({l - 1}))")
            made = math(made, ML, T.X).move_to([0, -1.3, 0])     # where W_V was: free now
            self.keep_inside(made)
            # its glyphs: Δattn^(l-1) and ΔFFN^(l-1) (post: 34 glyphs, pre: 26); else all of it
            span = {34: ((16, 24), (26, 33)), 26: ((10, 18), (19, 26))}.get(len(made))
            parts = ([VGroup(*made[a:b]) for a, b in span] if span else [made, made])
            if span:          # each update in its own colour, as the diagram drew it
                parts[0].set_color(T.ATTN)
                parts[1].set_color(T.FFN)
            self.hold_until(self.when(kc, "attention's update") - 0.5)
            self.play(FadeIn(made, shift=0.15 * UP), run_time=0.5)
            # a tight box: the formula's brackets sit close to each part
            self.repoint(box, parts[0], 0.6, buff=0.05)
            # "a mix of the tokens' values, weighted by where bank looked": what the
            # formula's Δattn is, one line under it (per_head built it)
            name = str(self.v.focus.word).partition("#")[0]
            mix = txt(f"Δattn: the sentence's tokens' values, weighted by '{name}'s "
                      "attention, × W_O", S, T.ATTN).move_to([0, NOTE_Y - 0.3, 0])
            if mix.width > NOTE_WIDTH:
                mix = txt("Δattn: the tokens' values, weighted by attention, × W_O", S,
                          T.ATTN).move_to([0, NOTE_Y - 0.3, 0])
            self.keep_inside(mix)
            self.hold_until(self.when(kc, "a mix") - 0.2)
            self.play(FadeIn(mix, shift=0.1 * UP), run_time=0.4)
            k_ffn = self.when(kc, "feed-forward")
            if k_ffn > self.time + 0.8:
                self.glide(box, parts[1], k_ffn + 0.3, 0.6, buff=0.05)
            # "so X starts a": the pointer on its first number
            self.glide(box, row.nums[0], self.when(kc, "X starts") + 0.5, 0.8)
            # "where layer l-1's X started b": layer l-1's X, dimmed, comes in on the right
            self.hold_until(self.when(kc, "where layer") - 0.3)
            self.play(FadeIn(ghosts[0]), FadeIn(VGroup(ghosts[1], ghosts[5]), shift=0.2 * LEFT),
                      run_time=0.5)
            self.play(DimPlace(VGroup(ghosts[1], ghosts[5]), GHOST), run_time=0.3)
            self.glide(box, ghosts[1].nums[0], self.when(kc, "started") + 0.5, 0.8)
        # "Even the same matrices would multiply new numbers, and the matrices are new too":
        # W_Q^(l) back, layer l-1's W_Q dimmed beside it, each under its own X
        self.hold_until(self.cue_at(km) - 0.1)
        # the comparison is about Q alone: K and V of layer l leave with the formula
        kv = VGroup(rows["k"], rows["v"])
        self.play(FadeOut(box), *([FadeOutPlace(made), FadeOutPlace(mix)] if l >= 1 else []),
                  FadeOutPlace(kv), run_time=0.3)
        if l >= 1:
            self.remove(*made.get_family(), *mix.get_family())
        self.remove(*kv.get_family())
        st.parts = [m for m in st.parts if m is not rows["k"] and m is not rows["v"]]
        if l >= 1:
            g = self.v.layers[l - 1]
            wq = WeightBlock(v.W_Q.values, v.W_Q.path, color=T.Q, decimals=3, size=S)
            wq.move_to([PW, PY_W, 0])
            wql = math(f"W_Q^(({l}))", ML, T.Q).next_to(wq, LEFT, buff=0.25)
            gw = WeightBlock(g.W_Q.values, g.W_Q.path, color=T.Q, decimals=3, size=S)
            gw.move_to([PG, -1.55, 0])
            gwl = math(f"W_Q^(({l - 1}))", ML, T.Q).next_to(gw, LEFT, buff=0.25)
            self.play(FadeIn(VGroup(wql, wq), shift=1.2 * LEFT), run_time=0.35)  # W_Q^(l) back
            st.parts.append(VGroup(wql, wq))
            # "new numbers": both X rows pointed at, X^(l) and layer l-1's
            self.hold_until(self.when(km, "new numbers") - 0.4)
            self.emphasize(row.nums, ghosts[1].nums, run_time=1.0)
            # "the matrices are new too: layer l's own": layer l-1's W_Q comes in beside
            self.hold_until(self.when(km, "new too") - 0.4)
            self.play(FadeIn(VGroup(gwl, gw), shift=0.3 * LEFT), run_time=0.6)
            self.play(DimPlace(VGroup(gwl, gw), GHOST), run_time=0.3)
            st.parts.append(VGroup(gwl, gw))
            self.emphasize(wq, gw, run_time=1.0)
        # the query of head 0 starts ..., where layer l-1's started ...: point at each in turn
        self.hold_until(self.when(kn, "so the query") - 0.2)
        q = rows["q"][1]
        box.become(self.frame_of(rows["q"]))
        self.play(FadeIn(box), run_time=0.4)
        # "starts a, b": the pointer on each entry as it is read
        self.glide(box, q.nums[0], self.when(kn, "starts") + 0.3, 0.9)
        self.glide(box, q.nums[1], self.when(kn, ", where layer") - 0.4, 0.9)
        if l >= 1:
            self.hold_until(self.when(kn, "where layer") - 0.2)
            # only layer l-1's query: its K and V rows never come in (the voice compares Q)
            gone = [ghosts[3], ghosts[4], ghosts[7], ghosts[8]]
            self.play(*[FadeIn(r, shift=0.2 * LEFT) for r in (ghosts[2], ghosts[6])],
                      run_time=0.5)
            gq, gql = ghosts[2], ghosts[6]
            ghosts.remove(*gone)
            self.repoint(box, VGroup(gql, gq), 0.6)
            self.glide(box, gq.nums[0], self.when(kn, "started") + 0.3, 0.9)
            self.glide(box, gq.nums[1], self.cue_end(kn) - 0.2, 0.9)
        st.parts.append(box)
        self.hold_until(self.cue_at(99) - 0.2)

    def product(self, x, W, brow, bl, out, at, color, per: float, name=None,
                together: bool = False):
        """x W (+ b), column by column: the x row, lit, travels down column j of W into its
        entry, the bias entry under the column is added, and the result entry moves to its row
        at `at`, labelled `name` from the start; under it, the sum written out with its first
        and last term. `per` seconds a column; `together`: every column at once in `per`
        seconds, the first column's sum written out. Returns the result row."""
        if together:
            return self.product_together(x, W, brow, bl, out, at, color, per, name)
        res = row_of(out.values, out.path, color, S).move_to(at)
        heads = [res[0], res[2]]
        if name is not None:
            name.next_to(res, LEFT, buff=0.2)
            heads.append(name)
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
                parts = [Num(xn[0].value, xn[0].source, decimals=xn[0].decimals, size=S,
                             color=T.X),
                         txt("·", S, T.TEXT),
                         Num(w0.value, w0.source, decimals=3, size=S, color=color),
                         txt(f"+ … ({n} terms)", S, T.TEXT)]
                if brow is not None:
                    # "+" unless the bias is written with a minus (-0.00014 is written 0.000)
                    shown = T.fmt(brow[j].value, 3)
                    parts += ([txt("+", S, T.TEXT)] if not shown.startswith("-") else []) + [
                              Num(brow[j].value, brow[j].source, decimals=3, size=S,
                                  color=color)]
                parts += [txt("=", S, T.TEXT),
                          Num(res.nums[j].value, res.nums[j].source, decimals=2, size=S,
                              color=color)]
                sum_ = VGroup(*parts).arrange(RIGHT, buff=0.12)
                # right under the row it fills (the rows below come later): the eye stays there
                sum_.next_to(res, DOWN, buff=0.22).align_to(name if name is not None else res,
                                                            LEFT)
                self.keep_inside(sum_)
            # X's numbers, at full size, turn into a column standing on W's column j (above
            # it, never on its digits), then sink into it as the bias entry comes in
            trav = x.nums.copy()
            xlight = SurroundingRectangle(x.nums, color=HL, buff=0.06, stroke_width=2)
            stand = trav.copy().arrange(DOWN, buff=0.12).next_to(colj, UP, buff=0.2)
            self.play(FadeIn(light), FadeIn(xlight),
                      LaggedStart(*[t.animate.move_to(p.get_center())
                                    for t, p in zip(trav, stand)], lag_ratio=0.25),
                      *([FadeIn(sum_, shift=0.1 * UP)] if sum_ is not None else []),
                      run_time=0.45 * per)
            tgt = brow[j] if brow is not None else colj
            anims = [FadeOut(trav, shift=0.15 * DOWN)]
            if brow is not None:
                anims.append(FadeIn(brow[j]))
            self.play(*anims, run_time=0.3 * per)
            self.remove(*trav.get_family())
            src = sum_[-1] if sum_ is not None else tgt
            self.play(TransformFromCopy(src, res.nums[j]) if sum_ is not None
                      else FadeIn(res.nums[j], target_position=tgt.get_center()),
                      FadeOut(light), FadeOut(xlight), run_time=0.25 * per)
            if sum_ is not None:
                self.remove(*sum_.get_family())
        self.remove(*heads)
        self.add(res, *heads[2:])
        return res

    def product_together(self, x, W, brow, bl, out, at, color, run_time: float, name=None):
        """x W (+ b) by the same recipe as the query: the recipe written once under the
        results ("same recipe: K = X W_K + b_K"), then one column at a time the column and
        the x row are lit and the result entry comes out of the column's bias (or the column)
        into its row at `at`. No digits travel: the query showed how."""
        res = row_of(out.values, out.path, color, S).move_to(at)
        heads = [res[0], res[2]] + ([name.next_to(res, LEFT, buff=0.2)] if name is not None
                                    else [])
        cols = list(W.columns)
        K = "K" if color == T.K else "V"
        l = self.layer
        recipe = VGroup(txt("same recipe:", S, T.TEXT),
                        math(f"{K}^(({l})) = X^(({l})) W_{K}^(({l}))"
                             + (f" + b_{K}^(({l}))" if brow is not None else ""), ML, color)
                        ).arrange(RIGHT, buff=0.2)
        recipe.next_to(res, DOWN, buff=0.22).align_to(heads[-1], LEFT)   # under its row
        self.keep_inside(recipe)
        self.play(FadeIn(VGroup(*heads)), FadeIn(recipe, shift=0.1 * UP),
                  *([FadeIn(bl), FadeIn(brow)] if brow is not None else []),
                  run_time=min(0.6, 0.2 * run_time))
        xlight = SurroundingRectangle(x.nums, color=HL, buff=0.06, stroke_width=2)
        self.play(FadeIn(xlight), run_time=0.2)
        step = max(0.45, (run_time - 0.8 - 0.3) / max(1, len(cols) + 1))
        for j, c in enumerate(cols):
            tgt = brow[j] if brow is not None else c
            if j == 0:          # one quick sweep: X's numbers run down the first column
                light = SurroundingRectangle(VGroup(c, tgt), color=HL, buff=0.05,
                                             stroke_width=2)
                trav = x.nums.copy()          # standing on the column, as for the query
                stand = trav.copy().arrange(DOWN, buff=0.12).next_to(c, UP, buff=0.2)
                self.play(FadeIn(light), LaggedStart(*[t.animate.move_to(p.get_center())
                                                       for t, p in zip(trav, stand)],
                                                     lag_ratio=0.25), run_time=0.8 * step)
                self.play(FadeOut(trav, shift=0.15 * DOWN), run_time=0.5 * step)
                self.remove(*trav.get_family())
                self.play(FadeIn(res.nums[j], target_position=tgt.get_center()),
                          FadeOut(light), run_time=0.5 * step)
                continue
            light = SurroundingRectangle(VGroup(c, tgt), color=HL, buff=0.05, stroke_width=2)
            self.play(FadeIn(light), run_time=0.3 * step)
            self.play(FadeIn(res.nums[j], target_position=tgt.get_center()), run_time=0.45 * step)
            self.play(FadeOut(light), run_time=0.25 * step)
        self.play(FadeOut(xlight), FadeOut(recipe), run_time=0.3)
        self.remove(*recipe.get_family(), *heads)
        self.add(res, *heads[2:])
        return res

    # --- sweep: every layer, one row each -------------------------------------------------------------
    def cue_with(self, phrase: str) -> int | None:
        """The first cue of this beat whose sentence contains `phrase` (None when none does:
        a draft or another arrangement may say less)."""
        for k, c in enumerate(self.beat.get("cues") or []):
            if phrase in str(c.get("text", "")):
                return k
        return None

    def cue_end(self, k: int) -> float:
        """Scene time when the voice finishes cue k's sentence (its start plus its audio)."""
        cues = self.beat.get("cues") or []
        if k >= len(cues):
            return self.cue_at(k)
        return self.cue_at(k) + float(cues[k].get("duration", 0.0))

    def beat_sweep(self, beat) -> None:
        st = self.stage
        carry = {}                                  # X^(l), Q^(l) of the project beat travel in
        if st.proj_layer is not None and st.proj_x is not None and "q" in st.proj_rows:
            carry = {"layer": st.proj_layer, "x": st.proj_x, "q": st.proj_rows["q"][1]}
            st.proj_rows["q"].remove(carry["q"])       # its name goes with the stage
        self.clear_stage(keep=[m for m in (carry.get("x"), carry.get("q")) if m is not None]
                         + [m for m in st.parts if m is carry.get("x")])
        if carry:
            for m in (carry["x"], carry["q"]):
                self.add(m)
        v = self.v
        lays = list(v.layers)
        cos = list(v.cos_steps)
        # columns: state | first numbers | cos with the state above (comes in later) | the
        # query made from it | the layer's own W_Q it was made with (comes in last)
        xs = {"label": -5.6, "x": -3.4, "cos": -0.9, "q": 1.7, "w": 4.4}
        top = 2.35
        f = v.focus
        name = str(f.word).partition("#")[0]
        title = txt(f"'{name}', layer by layer" + (", its tokens averaged" if f.averaged else ""),
                    T.TYPE.label, T.TEXT).move_to([0, top + 0.5, 0])

        def head(text):
            return txt(text, S, T.MUTED)
        heads = VGroup(head("state").move_to([xs["label"], top, 0]),
                       head(f"its first {int(v.show.dims)} numbers").move_to([xs["x"], top, 0]),
                       head(f"head {int(v.show.head)}'s query").move_to([xs["q"], top, 0]))
        cos_head = head("cos with X above").move_to([xs["cos"], top, 0])
        w_head = head("made with").move_to([xs["w"], top, 0])
        rows, cos_cells, tags = [], [], []
        states = list(range(len(lays) + (1 if v.layers[-1].update is not None else 0)))
        shown = pick_states(states, MAX_ROWS)
        # rows clear of W_Q^(l)'s scripts; a deep model's table (8 rows, a skip line) closer
        dy = 0.55 if len(shown) < MAX_ROWS else 0.5
        y_top = top - 0.55
        lens = []                                  # each shown state's length (after its LN)
        for r, si in enumerate(shown):
            y = y_top - r * dy
            if si < len(lays):
                lay = lays[si]
                l = int(lay.layer)
                first, length = lay.x_first, lay.x_norm
            else:
                lay, l = None, int(lays[-1].layer) + 1
                first, length = lays[-1].update.x_next_first, lays[-1].update.x_next_norm
            lens.append(Num(length, decimals=2, size=S, color=T.X))
            lab = math(T.X_l(l), ML, T.X).move_to([xs["label"], y, 0])
            xn = VGroup(*[Num(first[j], decimals=XDEC, size=S, color=T.X)
                          for j in range(len(first))])
            xn.arrange(RIGHT, buff=0.25).move_to([xs["x"], y, 0])
            if lay is not None:
                qn = VGroup(*[Num(lay.q[j], decimals=2, size=S, color=T.Q)
                              for j in range(len(lay.q))]).arrange(RIGHT, buff=0.25)
                tag = math(f"W_Q \"\"^(({l}))", ML, T.Q)    # scripts side by side: stacked touched
            else:
                qn = txt("(the output)", S, T.MUTED)
                tag = txt("–", S, T.MUTED)
            qn.move_to([xs["q"], y, 0])
            tags.append(tag.move_to([xs["w"], y, 0]))
            rows.append(VGroup(lab, xn, qn))
            # cos(X^(l-1), X^(l)): between this row and the one above (X^(first) has none)
            cs = (Num(cos[si - 1], decimals=2, size=S, color=T.TEXT) if 1 <= si <= len(cos)
                  else txt("–", S, T.MUTED))
            cos_cells.append(cs.move_to([xs["cos"], y, 0]))
        bottom = y_top - len(shown) * dy
        if len(shown) < len(states):
            skip = txt(f"{len(shown)} of the {len(states)} states shown: the rest are skipped "
                       f"where the row labels jump", S, T.MUTED)
            skip.move_to([0, bottom - 0.05, 0])
            self.play(FadeIn(skip), run_time=0.4)
            self.stage.parts.append(skip)
            bottom -= 0.4
        foot_y = bottom - 0.15                 # the one line under the table
        table = VGroup(heads, *rows)
        self.stage.parts += [table, title]
        self.play(FadeIn(title, shift=0.1 * DOWN), run_time=0.5)
        # X^(0), X^(1): shown in the beats before; the project beat's X, Q rows move into theirs
        seen = min(2, len(rows))
        anims = []
        for r, si in enumerate(shown[:seen]):
            row = rows[r]
            if carry and si == carry["layer"]:
                # the same digits move into their cells (both written alike: nothing morphs)
                anims += [carry["x"].nums[j].animate.move_to(row[1][j].get_center())
                          for j in range(len(row[1]))]
                anims += [carry["q"].nums[j].animate.move_to(row[2][j].get_center())
                          for j in range(len(row[2]))]
                anims += [FadeOut(VGroup(*[m for m in carry["x"] if m is not carry["x"].nums])),
                          FadeOut(VGroup(carry["q"][0], carry["q"][2])),
                          FadeIn(row[0])]
            else:
                anims.append(FadeIn(row, shift=0.1 * UP))
        self.play(*anims, run_time=1.2)
        if carry:
            self.remove(*carry["x"].get_family(), *carry["q"].get_family())
            self.add(*rows[:seen])
        self.play(FadeIn(heads, shift=0.1 * DOWN), run_time=0.5)   # after the move: clear of it
        todo = rows[seen:]
        post = str(lays[0].norm.placement) == "post"
        k1 = self.cue_with("first row")
        first_row = self.cue_at(k1 if k1 is not None else 1)
        per = max(0.6, 0.92 * (first_row - 0.3 - self.time) / max(1, len(todo)))
        for r in todo:
            self.play(LaggedStart(*[FadeIn(p, shift=0.15 * RIGHT) for p in r], lag_ratio=0.2),
                      run_time=0.8 * per)
            self.wait(0.2 * per)
        box, note = None, None
        col = lambda cells: VGroup(*cells)                   # noqa: E731

        def point(m, run_time=0.6):
            nonlocal box
            if box is None:
                box = self.frame_of(m)
                self.play(FadeIn(box), run_time=run_time)
                self.stage.parts.append(box)
            else:
                self.repoint(box, m, run_time)

        def walk(cells, until: float, extra=None) -> None:
            """The pointer visits each cell in turn, arriving at the last by `until`; `extra`
            (one animation maker per cell) plays with each step."""
            step = max(0.3, (until - self.time) / max(1, len(cells)))
            for i, c in enumerate(cells):
                more = [extra(i)] if extra is not None else []
                self.repoint(box, c, 0.7 * step, anims=more)
                self.hold_until(self.time + 0.3 * step)

        def footnote(new) -> None:
            """The one line under the table: `new` replaces the last."""
            nonlocal note
            new.move_to([0, foot_y, 0])
            if new.width > NOTE_WIDTH:
                new.scale_to_fit_width(NOTE_WIDTH)
            self.keep_inside(new)
            gone = [FadeOutPlace(note)] if note is not None else []
            self.play(*gone, FadeIn(new, shift=0.1 * UP), run_time=0.6)
            if note is not None:
                self.remove(*note.get_family())
                self.stage.parts.remove(note)
            note = new
            self.stage.parts.append(new)

        if post and k1 is not None:
            # "the first row, X zero, is its embeddings added up
            # and put through the embedding LayerNorm": the row, and under the table what
            # it is made of, up for the whole sentence
            self.hold_until_cue(k1)
            point(VGroup(rows[0][0], rows[0][1]))
            foot_text = f"= LayerNorm of the {lays[0].norm.label}"
            foot = VGroup(math(T.X_l(int(lays[0].layer)), ML, T.X), txt(foot_text, S, T.TEXT)
                          ).arrange(RIGHT, buff=0.3)    # the box round foot[1] clear of X
            footnote(foot)
            self.glide(box, foot[1], self.when(k1, "embeddings") + 0.6, 0.8)
            # "put through LayerNorm": the pointer on that word of the footnote
            if "put through" in str(self.beat["cues"][k1].get("text", "")):
                self.glide(box, self.glyphs(foot[1], foot_text, "LayerNorm"),
                           self.when(k1, "put through") + 0.5, 0.6)
            if "later X" in str(self.beat["cues"][k1].get("text", "")) and len(rows) > 1:
                # "every later X is a LayerNorm's output too": the pointer on the rows below
                self.glide(box, col([r[1] for r in rows[1:]]), self.when(k1, "later X") + 0.3,
                           0.8)
            else:
                self.glide(box, VGroup(rows[0][0], rows[0][1]), self.cue_end(k1) - 0.2, 0.8)
        k = self.cue_with("cosine")
        if k is not None and cos:
            # "the direction turns": the numbers of each state; then "each state's cosine with
            # the one before": a new column, cell by cell
            self.hold_until_cue(k)
            if note is not None:
                self.play(FadeOutPlace(note), run_time=0.4)
                self.remove(*note.get_family())
                self.stage.parts.remove(note)
                note = None
            point(col([r[1] for r in rows]), 0.6)
            # the column comes in as "cosine" is spoken (no walk down the rows first: it made
            # the column late), its reading under the table
            self.hold_until(self.when(k, "cosine") - 0.8)
            gloss = txt("cos = 1: the same direction; lower: the direction turned", S,
                        T.TEXT).move_to([0, foot_y, 0])      # its text: gloss_text below
            self.play(FadeIn(gloss, shift=0.1 * UP), run_time=0.4)
            note = gloss
            self.stage.parts.append(gloss)
            gloss_text = "cos = 1: the same direction; lower: the direction turned"
            self.glide(box, self.glyphs(gloss, gloss_text, "cos = 1: the same direction"),
                       self.when(k, "one when") + 0.4, 0.6)
            self.glide(box, self.glyphs(gloss, gloss_text, "lower: the direction turned"),
                       self.when(k, "lower the") + 0.4, 0.6)
            # "is at most 0.96, and lowest, 0.74, into X 6": highest, then lowest
            self.new_column(box, cos_head, cos_cells, col, 1.0,
                            (self.when(k, "at most") + 0.6, self.when(k, "lowest") + 0.7),
                            0.5, low_first=False)
            if "into X" in str(self.beat["cues"][k].get("text", "")):
                # "into X 6": the lowest cosine's row, its state named
                nums = [c for c in cos_cells if isinstance(c, Num)]
                low = cos_cells.index(min(nums, key=lambda n: n.value))
                self.glide(box, VGroup(rows[low][0], rows[low][1], cos_cells[low]),
                           self.when(k, "into X") + 0.5, 0.6)
        k = self.cue_with("'s query")
        if k is not None:
            # "each layer builds a fresh query, key and value from its current X, with its own
            # matrices": each row's X and its query, then the W_Q it was made with comes in
            self.hold_until_cue(k)
            self.repoint(box, col([r[1] for r in rows]), 0.6,
                         anims=[FadeIn(w_head, shift=0.1 * DOWN)])
            self.stage.parts += [w_head, *tags]
            # the pointer on the row's X and query (its tag's scripts are taller than the
            # row: a box round them ran through the rows above and below)
            pairs = [VGroup(r[1], r[2]) for r in rows]
            walk(pairs, self.cue_end(k) - 0.4,
                 extra=lambda i: FadeIn(tags[i], shift=0.15 * LEFT))
        self.hold_until(self.cue_at(99) - 0.2)

    # --- check: recomputed as X W + b --------------------------------------------------------------
    def beat_check(self, beat) -> None:
        self.clear_stage()
        l = self.layer
        v = self.v.layers[l]
        model = row_of(v.q.values, v.q.path, T.Q, S)
        redo = row_of(v.redo_q.values, v.redo_q.path, T.Q, S)
        ml = txt(f"the model's query, layer {l}, head {int(self.v.show.head)}:", S, T.TEXT)
        rl = txt("recomputed here from X, W and the bias:" if bool(v.bias) else
                 "recomputed here from X and W:", S, T.TEXT)
        VGroup(ml, rl).arrange(DOWN, buff=0.55, aligned_edge=RIGHT).move_to([-2.2, 1.4, 0])
        model.next_to(ml, RIGHT, buff=0.3)
        redo.next_to(rl, RIGHT, buff=0.3)
        self.play(FadeIn(ml), FadeIn(model), run_time=0.8)
        box = self.frame_of(model)
        self.play(FadeIn(box), run_time=0.4)
        self.hold_until(self.cue_at(1) - 0.1)
        # "Redo ... as X times W plus the bias": each entry recomputed in turn, the pointer on
        # the model's entry and the recomputed one beside it
        self.play(FadeIn(rl), FadeIn(VGroup(redo[0], redo[2])), run_time=0.5)
        for j, n in enumerate(redo.nums):
            self.repoint(box, VGroup(model.nums[j], n), 0.7,
                         anims=[FadeIn(n, target_position=model.nums[j].get_center())])
        c = self.v["check"]                   # what the plan's check covered (View.check is a method)
        b = c.bound
        scope = txt(f"recomputed for all {int(c.tokens)} tokens, {int(c.heads)} heads "
                    f"× {int(c.entries)} entries of Q, K and V, in all {int(c.layers)} "
                    "layers; each layer checked:", S, T.TEXT)
        # Each layer's largest |model − recomputed| is float noise (its last digits change with
        # the CPU's kernels and thread count), so the frame says only that it is under the bound.
        gaps = VGroup(*[VGroup(txt(f"layer {int(lay.layer)}", S, T.MUTED), txt("✓", S, HL))
                        .arrange(RIGHT, buff=0.15) for lay in self.v.layers])
        gaps.arrange_in_grid(cols=self.grid_cols(gaps, 0.6), buff=(0.6, 0.2))
        bound = Num(b.bound, decimals=int(b.decimals), size=T.TYPE.label, color=HL,
                    prefix="every gap, model vs recomputed: < ")
        # the largest gap measured over all of them, as the power of ten it stays under
        big = Num(c.largest.bound, decimals=int(c.largest.decimals), size=T.TYPE.label,
                  color=HL, prefix="the largest gap measured: < ")
        VGroup(scope, gaps, bound, big).arrange(DOWN, buff=0.3).move_to(DOWN * 1.2)
        self.keep_inside(scope)
        self.stage.parts += [VGroup(ml, rl, model, redo)]
        self.repoint(box, scope, 0.8, anims=[FadeIn(scope, shift=0.1 * UP)])
        # each layer checked in turn: the pointer on its tick as it appears
        step = max(0.4, (self.cue_at(2) - self.time - 0.2) / max(1, len(gaps)))
        for g in gaps:
            self.repoint(box, g, 0.85 * step, anims=[FadeIn(g, shift=0.15 * UP)])
            self.hold_until(self.time + 0.15 * step)
        self.hold_until_cue(2)
        # "to within <bound>": the bound and, under it, the largest gap measured come in with
        # the sentence, so the last frame holds whole while the voice ends
        self.repoint(box, VGroup(bound, big), 0.8,
                     anims=[FadeIn(VGroup(bound, big), shift=0.1 * UP)])
        self.stage.parts += [scope, gaps, bound, big, box]
        self.glide(box, gaps, self.when(2, "in every layer") + 0.3, 1.0)
        self.hold_until(self.cue_at(99) - 0.3)
