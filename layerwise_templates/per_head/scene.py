"""Inside one layer: how attention uses Q, K and V. MiniLM's tokens and bank's X; every head
reads the same X with its own W_Q, W_K, W_V; one head (the beat's `head`) worked through for the
focus token with its real numbers (query, keys, dot products, scaling, exp and divide, values);
that head's whole attention matrix; every head's matrix; the head outputs joined, times W_O:
the attention update; the update added to X on the skip path.

Beats (storyboard `show` names, moments.py):
- `tokens`   the model switch line; the sentence as tokens ([CLS]/[SEP] named); a window with
             a marked ellipsis when the sentence is longer than the columns
- `x`        the focus token's X (its first numbers, its length)
- `heads`    a card per head, its W_Q, W_K, W_V; two heads' W_Q laid flat, their first
             numbers as cells in the value colours; a dot of X flies into every card
- `query`    X × W_Q^(l,h) (a block the copy of X enters) = the head's query
- `keys`     the query moves up; every token's X (a blue column) into W_K, its key
             out as a teal strip along a lane under the columns and up into its place;
             only the top key's numbers are written (the others stay strips)
- `dots`     a copy of the query slides under every key; the top key's products worked in
             a table: each q_i, k_i pair travels down into it, its product beside them,
             the other products' sum, the total, which rises into the row; a copy of the
             query rides on under the other keys, their dot products appearing
- `scale`    the largest dot product boxed while said; every dot product ÷ √d_head:
             the scores (a short arrow per column, the new number at its tip)
- `exp`      e^(score − max score) under each score (why the shift cancels, one line), and
             their sum written out: the two largest terms and "the other n" (a row two steps
             old leaves: at most three rows of numbers on screen)
- `softmax`  a copy of the sum travels into the row's name (÷ sum), each exp ÷ the sum:
             the attention weights (3 decimals) and bars
- `values`   the rows above give way; every token's X into W_V, its value out as a red
             strip (the first alone, then the rest one by one; the top one's numbers
             written); the weights row moves down; the two heaviest weights rise into a
             written sum and their values come down into it as numbers, the other values,
             shrunk to their weights, into its "+ …", the head's output out of its "=",
             named only then; what the focus token takes in, one line
- `matrix`   the head's whole matrix (bank's row ringed); `diagonal` the cells just before
- `grid`     every head's matrix, its mean weight on the token just before; the two heads the
             voice names (the strongest, the next) grow into labelled matrices, the rest leave
- `join`     every head's output (d_head numbers) joined; W_O as a square with a band of rows
             per head: the joined row stands beside it, each piece runs across its band, the
             bands drop together into one row, + bias: Δ_attn (turned into its column), its
             length
- `add`      the diagram (X, attention, the plus), each column under its piece of it; X runs
             along the skip path and Δ_attn out of attention into the plus, the sum comes out
             of it, numbers added; a box for what follows in the model (post-LN: LayerNorm,
             FFN, LayerNorm), then layer l+1; the followed head's layer-(l+1) query beside
             its layer-l one (plan values)
The bottom caption is shown part by part (its "; " parts), each from the sentence that says
it (CAPTION_CUES); PAUSES and END_HOLD give key results a moment of quiet.
Every number drawn is a `Num` bound to its plan path; the scene does no model arithmetic.
Beat state lives in `Stage` (what `needs`/`builds` in spec.py name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from manim import (DOWN, LEFT, PI, RIGHT, UP, Arrow, Circle, Create, Dot, FadeIn,
                   FadeOut, GrowArrow, GrowFromCenter, GrowFromEdge, Indicate, LaggedStart, Line, ManimColor, Mobject, MoveAlongPath, Rectangle,
                   ReplacementTransform,
                   Succession, SurroundingRectangle, Transform, UpdateFromAlphaFunc, VGroup,
                   VMobject, Write)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, RampKey, inline, math, txt, wrapped
from scenes.mobjects.attention import AttentionMatrix, HeadCard
from scenes.mobjects.text import on_baseline
from scenes.motion.ghosts import ghost
from scenes.motion.pointer import point_at
from scenes.motion.vector import VectorColumn, signed_color, strip_scale

from . import moments as M
from .plan import EXP_SUM_DECIMALS
from .view import Data, Head, Layer

S = T.TYPE.label                    # secondary text (round 33b, two reviews: notes at the
                                    # small size read ~11 px while the bottom 40 % stood empty)
NUM = T.TYPE.body                   # the worked numbers (scores, weights, Q, X): a size up
                                    # from the labels (review 17: 11-12 px digits)
KV = T.TYPE.body                    # keys and values side by side, at NUM too: bare columns
                                    # (no brackets, which touched at this size; their label and
                                    # ⋮ say they are vectors)
READ = 28                           # round 35 (two reviews: nine columns of signed numbers ran
                                    # together at 0:43-1:31, ~14 px digits): the numbers the
                                    # voice works with (the query, the keys and values it reads,
                                    # the products, the head's output) at 22 px; every other key
                                    # and value is a strip of its colour
F = 36                              # formulas with scripts: a size over T.TYPE.math (review
                                    # 26: superscripts such as (0,2) ~7 px at 30)
PITCH, TOK_X0 = 1.14, -3.0         # the worked example: column spacing, first column's x
Y_TOK, COL_TOP = 2.6, 2.35          # token labels; top of the key and value columns
Y_DOT, Y_SCORE, Y_EXP = 0.5, -0.2, -0.9     # rows of dot products, scores, shifted scores
                                            # (review 26: spread into the empty bottom)
Y_E = -1.6                                  # the exps, under the shifted scores they come from
BASE, BAR_H, BAR_W = -2.6, 0.75, 0.6         # weight bars: baseline, height of weight 1, width
LEFT_X, LABEL_X = -6.0, -3.65       # query / output columns; right edge of the row labels
EDGE_X = -6.75                      # the frame's left margin
W_DROP = 0.4                        # W_K and W_V sit this much lower than W_Q did
# one meaning per colour: purple (T.ATTN) is the update Δ_attn only; attention weights get a
# the chapter's colour (T.WEIGHTS); a pointer, a ring or a box that says "this one" is the
# chapter's pointer white (T.POINTER), not Q's yellow
WEIGHT = T.WEIGHTS                  # attention weights (bars, numbers, matrix cells)
MARK = T.POINTER                    # highlights: rings, boxes, pointers, the followed token
BIG = 1.0                           # the numbers the voice reads are boxed, not grown
                                    # (review 20: a grown 0.999 touched its neighbours and the
                                    # box of 0.001; nine numbers in a row leave no room)
ZERO = 20                           # "<0.001" in a row of nine (at 22 they touched)
USED = 0.35                         # a row that has been used greys to this opacity
# the join beat's rows: the heads' outputs, the joined row (round 33, review 32b: both sat in
# the top half over an empty bottom 40 %)
Y_HEADS, Y_JOINED = 1.8, 0.35


def full_scripts(src: str) -> str:
    """Typst math with its scripts at the formula's own size (round 35, two reviews: the layer
    and head superscripts, `(0,2)`, read ~8 px): `X^((0))` -> `X^(display((0)))`; a capital
    subscript (`W_Q`) stays a script, it reads. Nested scripts are rewritten too."""
    out, i = [], 0
    while i < len(src):
        c = src[i]
        if c not in "^_" or i + 1 >= len(src):
            out.append(c)
            i += 1
            continue
        nxt = src[i + 1]
        if nxt == "(":
            depth, j = 0, i + 1
            while j < len(src):
                depth += {"(": 1, ")": -1}.get(src[j], 0)
                if depth == 0:
                    break
                j += 1
            arg, i = full_scripts(src[i + 2:j]), j + 1
        elif nxt == '"':
            j = src.index('"', i + 2)
            arg, i = src[i + 1:j + 1], j + 1
        elif c == "_" and nxt.isupper():
            out.append(src[i:i + 2])
            i += 2
            continue
        else:
            arg, i = nxt, i + 2
        out.append(f"{c}(display({arg}))")
    return "".join(out)


def sym(src: str, size: float, color=T.TEXT):
    """A formula of this video, its scripts at full size (`full_scripts`)."""
    return math(full_scripts(src), size, color)


def underline(m: Mobject) -> Mobject:
    """The followed token's label, underlined (a highlight in no quantity's colour)."""
    m.add(Line(m.get_corner(DOWN + LEFT) + DOWN * 0.07, m.get_corner(DOWN + RIGHT) + DOWN * 0.07,
               color=MARK, stroke_width=2))
    return m


def step_down(src, dst, lag: float = 0.1):
    """Each number of the row `src` gives its number of `dst`, the row under it: a short arrow
    grows in the gap between the two, the new number comes out of its tip, the arrow goes.
    Nothing travels through a row of numbers (review 20: copies sliding down overlapped the
    rows at 1:03, 1:24 and 1:37)."""
    anims = []
    for a, b in zip(src, dst):
        top, bottom = a.get_bottom()[1] - 0.05, b.get_top()[1] + 0.05
        if top - bottom < 0.12:             # rows too close for an arrow: the number only
            anims.append(FadeIn(b, shift=0.1 * DOWN, run_time=0.5))
            continue
        arrow = Arrow([a.get_x(), top, 0], [a.get_x(), bottom, 0], buff=0, color=T.MUTED,
                      stroke_width=2.5, tip_length=0.1, max_tip_length_to_length_ratio=0.6,
                      max_stroke_width_to_length_ratio=20)
        anims.append(Succession(GrowArrow(arrow, run_time=0.3),
                                FadeIn(b, shift=0.1 * DOWN, run_time=0.3),
                                FadeOut(arrow, run_time=0.2)))
    return LaggedStart(*anims, lag_ratio=lag)


def stagger(labels, width: float, rise: float = 0.28) -> None:
    """Labels in a row wider than their column: every other one a line higher, so none
    touches its neighbour (long or word-piece tokens of a teacher's sentence)."""
    if any(m.width > width for m in labels):
        for m in labels[1::2]:
            m.shift(UP * rise)


def upright(m, width: float) -> None:
    """A matrix's column labels, when any is wider than its column: each turned a quarter
    (read bottom to top), standing on the matrix (round 33b, review 33: two staggered tiers
    of labels were hard to read); its labels in the text colour (grey read dim)."""
    VGroup(m.row_labels, m.col_labels).set_color(T.TEXT)
    if not any(x.width > width for x in m.col_labels):
        return
    y = m.rows.get_top()[1] + 0.1
    for x in m.col_labels:
        if not len(x.get_all_points()):     # a token drawn as no glyph (a bare space)
            continue
        if x.width < 0.25:          # one narrow glyph (i, .): the same either way; turned,
            x.move_to([x.get_x(), y + x.height / 2, 0])     # its height would be ~2 px
            continue
        cx = x.get_x()
        x.rotate(PI / 2)
        x.move_to([cx, y + x.height / 2, 0])


@dataclass
class Stage:
    """What the handlers leave on stage for later ones (spec.py: needs / builds)."""
    tokens: Mobject | None = None
    tokens_small: Mobject | None = None     # the tokens' place over the worked example
    x: VGroup | None = None             # label + column; .col the column
    cards: VGroup | None = None
    q: VectorColumn | None = None
    qlabel: Mobject | None = None
    keys: VGroup | None = None          # one column per slot (None at an ellipsis)
    klabel: Mobject | None = None
    dots: VGroup | None = None
    ring: Mobject | None = None         # the box round the largest dot product (dots → scale)
    scores: VGroup | None = None
    exps: VGroup | None = None
    bars: list = field(default_factory=list)
    weights: VGroup | None = None
    wrest: object = None                # the weight bars, their axis, label and the exp sum
    axis: Mobject | None = None         # the bars' baseline (drawn with the exps' bars)
    rows: list = field(default_factory=list)    # (label, row) pairs of the worked rows
    matrix: AttentionMatrix | None = None
    panel: VGroup | None = None
    xdots: list = field(default_factory=list)   # the heads beat's dots of X and their key
    delta: VGroup | None = None         # Δ_attn's name, column and length (join → add)
    grid_rows: list = field(default_factory=list)   # the focus token's row in every tile
    on: list = field(default_factory=list)      # everything on stage, for `clear`


# The beat's caption in parts (split at "; "), each shown from the start of the sentence that
# says it: the caption never runs ahead of the voice (review 14: up to 10 s early). A beat not
# listed shows its caption from its first sentence.
CAPTION_CUES = {"model": (1, 2), "heads": (1, 2), "query": (1, 2), "scores": (0, 2),
                "softmax": (1, 2, 4), "values": (1, 2), "matrix": (1, 2), "grid": (0, 1),
                "join": (1,), "add": (1, 1, 2)}
CAPTIONS = False
# Seconds of quiet after a sentence (beat, sentence index): a key result lands before the
# next sentence, and an operation the voice has announced gets the time it needs on screen.
# round 32: the scores beat names river's key as its products are written (review 31b: a
# 4.25 s silent fill-in at 0:44-0:53, river named after it): short pauses after that sentence
# and after the other keys' dot products
PAUSES = {("scores", 0): 0.5, ("scores", 1): 0.7, ("scores", 2): 0.8, ("softmax", 3): 0.8,
          ("values", 0): 0.7, ("values", 1): 0.8,
          ("matrix", 2): 0.5, ("add", 0): 0.8}
# Seconds held after a beat's last sentence (its result stays before the next beat).
# round 32: the grid's last sentence names head 5; the two named heads then grow, labelled
END_HOLD = {"softmax": 0.3, "grid": 1.4, "join": 0.3, "add": 2.2}


class PerHeadScene(StoryboardScene):

    def setup(self) -> None:
        super().setup()
        self.st = Stage()
        self._cap_parts: list = []
        self._cap_shown = -1

    # --- the caption follows the voice; quiet after key results ------------------------------
    def update_footer(self, beat: dict) -> None:
        """Called at every beat's start, after its cue times are set: the beat's pauses go
        into the cues' delays (sound and subtitles follow them)."""
        super().update_footer(beat)
        cues = beat.get("cues") or []
        for (bid, c), secs in PAUSES.items():
            if bid == beat["id"]:
                for i in range(c + 1, len(cues)):
                    self.cue_shift[i] += secs

    def beat_end(self, beat: dict) -> float:
        return super().beat_end(beat) + (END_HOLD.get(beat["id"], 0.0)
                                         if beat.get("cues") else 0.0)

    def set_caption(self, text: str) -> None:
        """No beat caption on screen (review 17: a third text layer restating the voice): the
        title and the subtitles carry the words. The storyboard's captions stay for the page
        and slides; the holder machinery below shows them when CAPTIONS is True."""
        if not CAPTIONS:
            text = ""
        beat = self.beat
        parts = [x.strip() for x in text.split("; ")] if text else []
        parts = [x + (";" if i < len(parts) - 1 else "") for i, x in enumerate(parts)]
        at = list(CAPTION_CUES.get(beat["id"], ())) if beat else []
        at = (at + [at[-1] if at else 0] * len(parts))[:len(parts)]
        self._cap_parts = list(zip(at, parts))
        self._cap_shown = -1
        if self.caption is None:
            holder = self.pin(VGroup())
            holder.add_updater(lambda m, dt: self._caption_tick(m))
            self.add_foreground_mobject(holder)
            self.caption = holder
        self._caption_tick(self.caption)

    def _caption_tick(self, m: VGroup) -> None:
        cues = (self.beat or {}).get("cues") or []
        n = 0
        for c, _ in self._cap_parts:
            if cues and self.time + 1e-6 < self.cue_at(min(c, len(cues) - 1)):
                break
            n += 1
        if n == self._cap_shown:
            return
        self._cap_shown = n
        m.remove(*m.submobjects)
        text = " ".join(x for _, x in self._cap_parts[:n])
        if text:
            lines = wrapped(text, 90, T.CAPTION_SIZE).to_edge(DOWN, buff=T.EDGE + 0.15)
            w, c = m._frame_ref
            lines.scale(w / self.HOME_WIDTH, about_point=np.array([0.0, 0.0, 0.0])).shift(c)
            m.add(*lines.submobjects)

    # --- data -------------------------------------------------------------------------------
    @property
    def v(self) -> Data:
        """The plan's data through its typed view (view.py): values that carry their path."""
        return Data.at(self.plan)

    def lay(self) -> tuple[dict, Layer]:
        i = next(i for i, x in enumerate(self.data["layers"]) if x["layer"] == self.layer)
        return self.data["layers"][i], self.v.layers[i]

    def head(self) -> tuple[dict, Head]:
        lay, p = self.lay()
        want = self.beat.get("head")
        j = next((j for j, h in enumerate(lay["heads"]) if h["head"] == want), 0)
        return lay["heads"][j], p.heads[j]

    def hid(self) -> int:
        return self.head()[0]["head"]

    def bias(self) -> bool:
        """Whether the layer adds a bias to X W_Q, X W_K, X W_V (drawn as + b)."""
        return bool(self.lay()[0]["qkv_bias"])

    def plus_b(self, X: str) -> list:
        """'+ b_X^((l,h))' after a product, where the model has that bias."""
        return ([txt("+", T.TYPE.body, T.MUTED), sym(self.sup(f"b_{X}"), F, T.QUANTITY[X.lower()])]
                if self.bias() else [])

    def sup(self, base: str) -> str:
        """Typst math of a per-head quantity: Q^((0,2)) (layer 0, head 2)."""
        return f"{base}^(({self.layer},{self.hid()}))"

    def slots(self) -> list:
        return self.data["slots"]

    def xs(self, j: int) -> float:
        return TOK_X0 + PITCH * j

    def column(self, values, path: str, decimals: int, color, summary=False,
               length: int | None = None, size: float = NUM) -> VectorColumn:
        """A vector's first numbers at `size`; its "n dims" note stays at the label size."""
        d = self.data
        col = VectorColumn(values, path, show=d["show"], decimals=decimals, color=color,
                           length=length or d["shape"]["d_head"], summary=summary, size=size)
        if len(col.summary) and size != S:
            # "384 dims" at the label size (review 26: ~10 px grey at the small size); a
            # head's "32 dims" stays small (W_K's name passes beside the query's column)
            # review 28: "32 dims" and "384 dims" still small and grey: both at the label
            # size, in the text colour
            col.summary.scale(T.TYPE.label / size).set_color(T.TEXT).next_to(
                col[2], RIGHT, buff=0.12).align_to(col[2], DOWN)
        return col

    def bare(self, col: VectorColumn) -> VectorColumn:
        """A column of a row of columns without its brackets (nine side by side at NUM would
        touch): numbers and ⋮ only."""
        col.remove(col[0], col[2])
        return col

    def row(self, values, decimals: int, y: float, color=T.TEXT, size: float = NUM,
            zeros: bool = False) -> VGroup:
        """One number per column (a list view: each Num brings its plan path), '…' at an
        ellipsis. `zeros`: an entry that rounds to 0 at `decimals` is written "0", grey (review
        28: seven "0.000" in a row of nine, edge to edge)."""
        def num(p):
            if zeros and round(float(values.raw[p]), decimals) == 0:
                # review 29: "0" for 9.4e-5 read as exactly zero; the bound, compact
                # round 33b (two reviews: ~11 px grey): in the row's colour, at the largest
                # size at which nine of them still stand apart at the column pitch
                return txt(f"<{10 ** -decimals:.{decimals}f}", ZERO, color)
            return Num(values[p], None, decimals, size, color)
        return VGroup(*[(txt("…", S, T.MUTED) if p is None else
                         txt("–", S, T.MUTED) if values.raw[p] is None else  # masked key
                         num(p))
                        .move_to([self.xs(j), y, 0]) for j, p in enumerate(self.slots())])

    def label_at(self, m, y: float):
        return m.move_to([0, y, 0]).align_to([LABEL_X, 0, 0], RIGHT)

    def by_cue(self, groups: list) -> None:
        """groups: [(cue, steps)]. Each group waits for its narration cue (the sentence that
        names what it shows), then runs its steps [(weight, fn(run_time))] until the next
        group's cue (the last group: until the next sentence starts), so the picture lands
        when the voice names it instead of queueing behind it. Silent (no cues): the steps
        spread over the beat as before."""
        n = len(self.beat.get("cues") or [])
        if not n:
            # silent: each of the beat's handlers its share of the beat (round 33: the first
            # took 92 % of it and the keys, second, ran 0.5 s past the beat's duration)
            shows = self.steps(self.beat)
            k, m = self.step_index, max(1, len(shows))
            end = None
            if m > 1 and all(st.get("at") is None for st in shows):
                end = self.beat_start + float(self.beat["duration"]) * (k + 1) / m
            self.fill_to(end, [s for _, g in groups for s in g])
            return
        for k, (c, steps) in enumerate(groups):
            c = min(c, n - 1)
            self.hold_until_cue(c)
            nxt = groups[k + 1][0] if k + 1 < len(groups) else c + 1
            end = self.cue_at(min(max(nxt, c + 1), n))
            self.fill_to(end, steps, fill=0.9)

    def enlarge(self, m, run_time: float) -> None:
        """A number the voice reads grows (and stays larger), then a box says "this one"."""
        if BIG != 1.0:
            self.play(m.animate.scale(BIG), run_time=0.4 * run_time)
            self.emphasize(m, run_time=0.6 * run_time)
        else:
            self.point_below(m, run_time)

    def point_below(self, m, run_time: float) -> None:
        """A number of a row of nine the voice reads: it turns the pointer's colour (and stays
        so) as an arrow from below, where the row has room, points at it (review 20: a box
        round one of nine numbers touched its neighbours)."""
        self.play(m.animate.set_color(MARK), run_time=0.25 * run_time)
        point_at(self, m, MARK, run_time=0.75 * run_time, direction=DOWN)

    def emerge(self, box, cols: list, color, lane: float, t: float,
               lag: float = 0.35) -> None:
        """Vectors coming out of a matrix `box` into their columns `cols` (one per token): each
        as a strip of its colour (not a second set of its digits), out of the box's right
        side, along a lane under the columns to under its own, then up into its place, growing
        to its size; the numbers appear in the strips as they go (review 20: the key and value
        columns flew straight from the box and piled up on each other mid-flight)."""
        x0 = box.get_right()[0] + 0.25
        strips, anims = [], []
        for m in cols:
            full = Rectangle(width=0.34, height=m.height + 0.1, stroke_color=color,
                             stroke_width=1.5, fill_color=color, fill_opacity=0.3).move_to(m)
            start, mid, end = (np.array([x0, lane, 0.0]), np.array([m.get_x(), lane, 0.0]),
                               m.get_center())
            strip = full.copy()

            def at(mob, a, full=full, start=start, mid=mid, end=end):
                a = min(max(a, 0.0), 1.0)
                if a < 0.65:
                    pos, k = start + (mid - start) * (a / 0.65), 0.5
                else:
                    u = (a - 0.65) / 0.35
                    pos, k = mid + (end - mid) * u, 0.5 + 0.5 * u
                mob.become(full).scale(k).move_to(pos)
                f = min(1.0, a / 0.1)
                mob.set_fill(opacity=0.3 * f).set_stroke(opacity=f)

            at(strip, 0.0)
            strips.append(strip)
            anims.append(UpdateFromAlphaFunc(strip, at))
        self.add(*strips)
        self.play(LaggedStart(*anims, lag_ratio=lag), run_time=0.75 * t)
        self.play(*[FadeIn(m) for m in cols], *[FadeOut(x) for x in strips], run_time=0.25 * t)
        self.gone(*strips)

    def keep(self, *ms) -> None:
        self.st.on.extend(ms)

    def gone(self, *ms) -> None:
        """Take faded pieces off the scene with everything in them (a piece animated on its
        own sits in the scene by itself too)."""
        self.remove(*[x for m in ms for x in m.get_family()])

    def clear(self, run_time: float) -> None:
        """Everything on stage fades: the next picture starts on an empty stage."""
        gone = list(self.st.on)
        for slot in list(self.shown):
            gone.append(self.shown.pop(slot))
        self.st = Stage()
        if gone:
            self.play(*[FadeOutPlace(m) for m in gone], run_time=run_time)
        self.remove(*[x for m in gone for x in m.get_family()])

    # --- the model, its tokens, X -----------------------------------------------------------
    def beat_tokens(self, beat) -> None:
        d = self.data
        f = d["focus"]["pos"]
        switch = txt(f"MiniLM: a BERT encoder, {d['n_layers']} layers", T.TYPE.body, T.TEXT)
        toks = on_baseline([txt("…" if p is None else d["tokens"][p], S,
                                MARK if p == f else T.MUTED if p is None else T.TEXT)
                            .move_to([self.xs(j), 0, 0]) for j, p in enumerate(self.slots())],
                           Y_TOK - 0.07)
        notes = [txt("[CLS], [SEP]: start and end tokens the model adds", S, T.TEXT)]
        if d["windowed"]:
            notes.append(txt(f"… : tokens left out here ({len(d['window'])} of "
                             f"{d['n_tokens']} shown)", S, T.TEXT))
        if d["focus"]["n_parts"] > 1:
            notes.append(txt(f"'{d['focus']['word']}' is {d['focus']['n_parts']} tokens ("
                             + " ".join(d["focus"]["parts"]) + f"): we follow the last, "
                             f"{d['focus']['token']}", S, MARK))
        note = VGroup(*notes).arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        underline(toks[self.slots().index(f)])
        stagger(toks, PITCH - 0.1)
        big = toks.copy().scale(1.2).move_to([0, 1.3, 0])
        note.next_to(big, DOWN, buff=0.6).set_x(0)
        switch.next_to(note, DOWN, buff=0.35).set_x(0)
        ends = [big[j] for j, p in enumerate(self.slots()) if p in (0, d["n_tokens"] - 1)]
        self.st.tokens, self.st.tokens_small = big, toks
        self.keep(big)
        # the model's layers, one box each, under its name while the voice counts them; the
        # one this video opens (self.layer) ringed
        stack = VGroup(*[VGroup(Rectangle(width=1.35, height=0.7, stroke_width=2,
                                          stroke_color=MARK if l == self.layer else T.MUTED),
                                txt(f"layer {l}", S, MARK if l == self.layer else T.TEXT))
                         for l in range(d["n_layers"] if d["n_layers"] <= 8 else 0)])
        for b in stack:                 # more than 8 layers would not fit: no boxes
            b[1].move_to(b[0])
        # the chapter's claim, said from the first sentence (review 25: only in the last
        # 15 s): every layer makes fresh Q, K, V with its own matrices from the X it reads
        B = T.TYPE.body
        each = inline(txt("each layer: its own", B, T.TEXT),
                      *[sym(f"W_{X}", F, T.QUANTITY[X.lower()]) for X in "QKV"],
                      txt("times the X it reads:", B, T.TEXT), txt("fresh", B, MARK),
                      sym("Q, K, V", F, T.TEXT), buff=0.15)
        if len(stack):
            stack.arrange(RIGHT, buff=0.3).next_to(switch, DOWN, buff=0.5)
            each.next_to(stack, DOWN, buff=0.4).set_x(0)
            stack.add(each)
        def zoom_in(t):
            # round 33b (review 33: the stack stood still, then left; layer 0 never opened):
            # the other layers and the line under them leave, and layer 0's box grows past
            # the frame's edges as its outline fades: the video goes inside it
            me = stack[self.layer]
            rest = VGroup(*[b for k, b in enumerate(stack) if b is not me])
            self.play(FadeOutPlace(rest), run_time=0.3 * t)
            self.play(me[0].animate.scale(12).set_stroke(opacity=0),
                      me[1].animate.scale(3).set_opacity(0), run_time=0.7 * t)
            self.gone(stack)

        self.by_cue([
            # the switch line at once: no empty stage while the voice starts (review 25)
            (0, [(0.5, lambda t: self.put("switch", switch, run_time=min(t, 0.5))),
                 *([(2, lambda t: self.play(LaggedStart(*[FadeInPlace(b) for b in stack[:-1]],
                                                       lag_ratio=0.2), run_time=t)),
                    (2, lambda t: self.play(FadeInPlace(each), run_time=t)),
                    (1, lambda t: self.play(*[Indicate(b[0], color=MARK, scale_factor=1.05)
                                              for b in stack[:-1]], run_time=t))]
                   if len(stack) else [])]),
            (1, [*([(1.5, lambda t: zoom_in(t))] if len(stack) else []),
                 (3, lambda t: self.play(LaggedStart(*[FadeInPlace(m) for m in big],
                                                     lag_ratio=0.15), run_time=t)),
                 (2, lambda t: self.play(FadeInPlace(note), *([Indicate(e, color=MARK)
                                                               for e in ends]), run_time=t))])])
        self.set_slot("tokens_note", note)

    def beat_x(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        word = d["focus"]["token"]
        x = T.X_l(self.layer) if d["reads_x"] else f"\"LN\"({T.X_l(self.layer)})"
        col = self.column(lay["x"], p.x.path, lay["x_decimals"],
                          T.X, summary=True,
                          length=d["shape"]["d_model"])
        col.at(LEFT_X, 1.0)
        label = inline(sym(x, F, T.X), txt(f"of '{word}'", S, T.TEXT))
        label.next_to(col, UP, buff=0.15).align_to([EDGE_X, 0, 0], LEFT)
        group = VGroup(label, col)
        group.col = col
        self.st.x = group
        # X comes in on the sentence that names it, as the tokens move up out of its way
        # (review 17: X came ~3 s after "X is now ..." was said)
        drops = [s for s in ("tokens_note", "switch") if s in self.shown]
        steps = [(1, lambda t: self.drop(*drops, run_time=t))] if drops else []
        if self.st.tokens is not None and self.st.tokens_small is not None:
            big, small = self.st.tokens, self.st.tokens_small
            f = self.slots().index(d["focus"]["pos"])
            steps += [(2, lambda t: self.play(Transform(big, small), FadeInPlace(group),
                                              run_time=t)),
                      (1, lambda t: self.emphasize(col.summary, run_time=t)),
                      (1, lambda t: self.emphasize(big[f], label, run_time=t))]
        else:
            steps += [(2, lambda t: self.play(FadeInPlace(group), run_time=t)),
                      (1, lambda t: self.emphasize(col.summary, run_time=t))]
        self.by_cue([(2, steps)])
        self.keep(group)

    def beat_heads(self, beat) -> None:
        d = self.data
        # review 29: the title bar took ~50 px of every frame; it leaves after the opening
        if self.title in self.mobjects:
            self.play(FadeOutPlace(self.title), run_time=0.4)
            self.remove(self.title)
        n, dm, dh = d["shape"]["n_heads"], d["shape"]["d_model"], d["shape"]["d_head"]
        cards = VGroup(*[HeadCard(h, height=1.0) for h in range(n)])
        cards.arrange_in_grid(rows=2, buff=(0.3, 0.25)).move_to([1.5, 1.15, 0])
        B = T.TYPE.body
        names = inline(*[sym(f"W_{X}", F, T.QUANTITY[X.lower()]) for X in "QKV"], buff=0.25)
        legend = inline(txt("each head: its own", B, T.TEXT), names,
                        txt(f"({dm} × {dh})", B, T.TEXT), buff=0.15)
        legend.next_to(cards, DOWN, buff=0.15).align_to(cards, LEFT)
        lay, lp = self.lay()
        pr = lay["w_pair"]
        a, b = pr["a"], pr["b"]
        # one sentence, one quick picture (review 19: the histogram detour cost 20 s in small
        # print): two heads' W_Q laid out flat, one over the other, and the largest |cosine|
        # over every pair of the same kind, at the body size
        x_l, x_r = cards.get_left()[0] + 1.2, 1.6
        ys = [-1.42, -1.82]
        flats = VGroup(*[Rectangle(width=x_r - x_l, height=0.22, stroke_color=T.Q,
                                   stroke_width=1.5, fill_color=T.Q, fill_opacity=0.45)
                         .move_to([(x_l + x_r) / 2, y, 0]) for y in ys])
        fnames = VGroup(*[txt(f"head {h}", B, T.TEXT).next_to(f, LEFT, buff=0.15)
                          for h, f in zip((a, b), flats)])
        # each flat list's first numbers as cells in the value colours, one scale for both
        # (review 20: two identical plain bars while the voice said "unrelated directions")
        firsts = [pr.get("first_a") or [], pr.get("first_b") or []]
        cells = VGroup()
        if firsts[0] and firsts[1]:
            scaled, _ = strip_scale(firsts[0] + firsts[1])
            k = len(firsts[0])
            cw = (x_r - x_l) / k
            for r, (f, sc) in enumerate(zip(flats, (scaled[:k], scaled[k:]))):
                f.set_fill(opacity=0)
                cells.add(VGroup(*[Rectangle(width=cw, height=f.height, stroke_width=0)
                                   .set_fill(signed_color(v), 1)
                                   .move_to([x_l + cw * (i + 0.5), f.get_y(), 0])
                                   for i, v in enumerate(sc)]))
            fnote = VGroup(txt(f"first {k} of {pr['size']} numbers", B, T.TEXT),
                           inline(txt("green > 0,", B, T.VALUE_POS),
                                  txt("magenta < 0", B, T.VALUE_NEG), buff=0.15))
            fnote.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            fnote.next_to(flats, RIGHT, buff=0.3)
            fnames.add(fnote)
        # review 26: in two steps, each number where it belongs. First the pair's cosine, a
        # dot on a -1…1 axis (ends named: same direction, opposite); then every pair's cosine
        # (the plan's signed list), dots piling up around 0, and the plan's largest size
        ax_l, ax_r, ax_y = -3.6, 5.6, -2.75
        ax_c, ax_k = (ax_l + ax_r) / 2, (ax_r - ax_l) / 2
        axis = Line([ax_l, ax_y, 0], [ax_r, ax_y, 0], color=T.MUTED, stroke_width=2)
        ticks = VGroup(*[Line([ax_c + ax_k * u, ax_y - 0.08, 0], [ax_c + ax_k * u, ax_y + 0.08, 0],
                              color=T.MUTED, stroke_width=2) for u in (-1, 0, 1)])
        tlabels = VGroup(txt("−1: opposite", S, T.TEXT), txt("0: unrelated", S, T.TEXT),
                         txt("1: same direction", S, T.TEXT))
        for u, m in zip((-1, 0, 1), tlabels):
            m.next_to([ax_c + ax_k * u, ax_y - 0.1, 0], DOWN, buff=0.08)
        tlabels[0].align_to([ax_l - 0.3, 0, 0], LEFT)
        tlabels[2].align_to([ax_r + 0.3, 0, 0], RIGHT)
        aname = txt("cosine", B, T.TEXT).next_to(axis, LEFT, buff=0.2)
        cosnote = VGroup(axis, ticks, tlabels, aname)
        pdot = Dot([ax_c + ax_k * float(pr["cos"]), ax_y, 0], radius=0.07, color=MARK)
        plab = inline(txt(f"heads {a}, {b}:", B, MARK), Num(lp.w_pair.cos, None,
                                                             pr["decimals"], B, MARK), buff=0.15)
        plab.next_to(pdot, UP, buff=0.25).shift(RIGHT * 1.2)
        pline = Line(plab.get_bottom() + DOWN * 0.03, pdot.get_center(), color=MARK,
                     stroke_width=1.5, buff=0.08)
        pmark = VGroup(pline, plab)
        # every pair: a brick in its cosine's bin, stacked upwards (the bins a brick wide; a
        # bin's stack at most 1.2 units tall: bricks thin as the tallest stack needs)
        bw = 0.07
        bins = [int(round(ax_k * float(c) / bw)) for c in lay.get("w_all") or []]
        tallest = max((bins.count(k) for k in set(bins)), default=1)
        bh = min(0.08, 1.2 / tallest)
        counts: dict = {}
        pile = VGroup()
        for k in bins:
            n_k = counts.get(k, 0)
            counts[k] = n_k + 1
            pile.add(Rectangle(width=bw * 0.85, height=bh * 0.8, stroke_width=0)
                     .set_fill(T.TEXT, 0.9)
                     .move_to([ax_c + bw * k, ax_y + 0.03 + bh * (n_k + 0.5), 0]))
        # beside the pile, left-aligned lines (above it, it ran into the legend)
        # the baseline (review 28: "what unrelated directions give" had none): as many pairs
        # of random Gaussian matrices of the same shapes (plan: w_rand_max)
        rand = inline(txt("random matrices: up to", B, T.TEXT),
                      Num(lp.w_rand_max, None, 2, B, T.TEXT), buff=0.15)
        cos = VGroup(inline(txt(f"all {lay['w_pairs']} pairs: within", B, T.TEXT),
                            Num(lp.w_cos_max, None, 2, B, MARK), txt("of 0", B, T.TEXT),
                            buff=0.15),
                     txt("(each pair of heads, each kind)", B, T.TEXT), rand)
        cos.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        cos.next_to([ax_c + bw * (max(bins, default=0) + 1), ax_y + 0.75, 0], RIGHT, buff=0.45)
        if cos.get_right()[0] > 6.6:
            cos.shift(LEFT * (cos.get_right()[0] - 6.6))
        pair = VGroup(*[SurroundingRectangle(cards[h].bars[0], color=MARK, buff=0.06,
                                             stroke_width=2.5) for h in (a, b)])
        if self.st.tokens is not None:
            self.play(FadeOutPlace(self.st.tokens), run_time=self.quick())
            self.gone(self.st.tokens)
            self.st.on.remove(self.st.tokens)
            self.st.tokens = None

        def flatten(t):
            # copies of the two W_Q bars leave their cards, lie down (a quarter turn) at the
            # left end of their rows, then stretch out flat: one long list each
            copies = [cards[h].bars[0].copy() for h in (a, b)]
            lying = [c.copy().rotate(-PI / 2).stretch_to_fit_height(f.height)
                     .move_to(f.get_left(), aligned_edge=LEFT) for c, f in zip(copies, flats)]
            # the legend steps aside while the copies pass where it was (review 28: the
            # strips flew across it); it comes back when the strips leave
            self.play(Create(pair), FadeOutPlace(legend), run_time=0.2 * t)
            self.remove(legend)
            self.play(*[Transform(c, m, path_arc=-PI / 3) for c, m in zip(copies, lying)],
                      run_time=0.4 * t)
            self.play(*[ReplacementTransform(c, f) for c, f in zip(copies, flats)],
                      FadeInPlace(fnames), run_time=(0.2 if len(cells) else 0.4) * t)
            if len(cells):
                # the numbers fill in, left to right: two different patterns
                self.play(*[LaggedStart(*[FadeIn(c) for c in row], lag_ratio=0.05)
                            for row in cells], run_time=0.2 * t)
                self.add(flats)         # their outlines over the cells

        strips = VGroup(cells, flats, fnames)

        def pile_up(t):
            # the two strips leave (the pair is on the axis now); every pair's dot rises
            # from the axis into its stack, left to right
            self.play(FadeOutPlace(strips), FadeOutPlace(pmark), FadeInPlace(legend),
                      run_time=0.2 * t)
            self.gone(strips)
            if len(pile):
                self.play(LaggedStart(*[FadeIn(m, shift=0.15 * UP) for m in pile],
                                      lag_ratio=0.01), run_time=0.55 * t)
            else:
                self.wait(0.55 * t)
            self.play(FadeIn(cos[:2], shift=0.15 * UP), run_time=0.25 * t)

        # review 30: the cosine detour (0:27-0:56) asserted its measure and crowded the
        # frame; cut (chapter 4.2: "no two alike" belongs to 4.5). Its groups run only when
        # the voice says them (more than two sentences)
        detour = len(self.beat.get("cues") or []) > 2
        groups = [(0, [(1, lambda t: self.play(LaggedStart(*[FadeInPlace(c) for c in cards],
                                                           lag_ratio=0.1), run_time=t)),
                       (1, lambda t: self.play(FadeInPlace(legend), run_time=t))])]
        groups += [] if not detour else [
                  (1, [(3, flatten)]),
                  (2, [(1.2, lambda t: self.play(FadeInPlace(cosnote), run_time=t)),
                       (1.2, lambda t: self.play(GrowFromCenter(pdot), FadeInPlace(pmark),
                                                 run_time=t)),
                       (0.6, lambda t: self.play(FadeOutPlace(pair), run_time=t))]),
                  # the count on the words "within ... of zero" (a render: 3 s late), then
                  # the random baseline on its words
                  (3, [(2, pile_up), (1, lambda t: self.emphasize(cos[0][1], run_time=t)),
                       (1, lambda t: self.play(FadeIn(rand, shift=0.15 * UP), run_time=t)),
                       (0.5, lambda t: self.wait(t))])]
        dots = VGroup()
        if self.st.x is not None:
            # bank's X, as a blue dot, leaves its column for every card at once (all of them
            # read the same X) and stays in the card, left of its matrices, which light up
            src = self.st.x.col.get_right() + RIGHT * 0.1
            dots = VGroup(*[Dot(card.bars[0].get_left() + LEFT * 0.14, radius=0.075,
                                color=T.X) for card in cards])
            starts = [Dot(src, radius=0.075, color=T.X) for _ in cards]
            xkey = VGroup(txt("blue dot:", B, T.X), txt("the same X", B, T.X))
            xkey.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
            xkey.next_to(self.st.x, DOWN, buff=0.3).align_to([EDGE_X, 0, 0], LEFT)
            groups.append((6 if detour else 1, [
                (1, lambda t: self.play(Indicate(self.st.x.col, color=T.X, scale_factor=1.05),
                                        FadeInPlace(xkey), run_time=t)),
                (3, lambda t: self.fly_dots(starts, dots, cards, t)),
                (1, lambda t: self.play(*[Indicate(c.bars, color=MARK, scale_factor=1.05)
                                          for c in cards], run_time=t))]))
            self.keep(dots, xkey)
            self.st.xdots = [dots, xkey]
        self.by_cue(groups)
        self.gone(pair)
        self.drop("switch", run_time=self.quick())
        self.st.cards = cards
        self.st.panel = VGroup(legend, cos, cosnote, pdot, pile) if detour else VGroup(legend)
        self.keep(cards, self.st.panel)

    def fly_dots(self, starts, dots, cards, t: float) -> None:
        """X's dots fly to every card along the gap between the card rows (never over a card),
        one behind another at one speed, the farthest first: none piles up on another
        (review 32b: at 0:28 they crossed head 6's card together)."""
        gap_y = (cards[0].get_bottom()[1] + cards[-1].get_top()[1]) / 2
        gate_x = cards.get_left()[0] - 0.25
        paths = []
        for a, b in zip(starts, dots):
            p0, p3 = a.get_center(), b.get_center()
            pts = [p0, np.array([gate_x, gap_y, 0.0]), np.array([p3[0], gap_y, 0.0]), p3]
            segs = [np.linalg.norm(pts[i + 1] - pts[i]) for i in range(3)]
            paths.append((pts, segs, sum(segs)))
        order = sorted(range(len(paths)), key=lambda k: -paths[k][2])
        dt = 0.35 * t / max(1, len(paths))
        delay = {k: i * dt for i, k in enumerate(order)}
        v = max(paths[k][2] / max(0.05, t - delay[k]) for k in range(len(paths)))

        def place(m, pts, segs, s_):
            for i, L in enumerate(segs):
                if s_ <= L or i == 2:
                    u = min(1.0, s_ / L) if L > 1e-9 else 1.0
                    m.move_to(pts[i] + (pts[i + 1] - pts[i]) * u)
                    return
                s_ -= L

        movers = VGroup(*starts)
        for k, m in enumerate(starts):
            place(m, paths[k][0], paths[k][1], 0.0)

        def step(group, alpha):
            for k, m in enumerate(group):
                pts, segs, L = paths[k]
                place(m, pts, segs, min(L, max(0.0, v * (alpha * t - delay[k]))))
        self.add(movers)
        self.play(UpdateFromAlphaFunc(movers, step), run_time=t, rate_func=lambda x: x)
        self.remove(movers)
        self.add(*dots)

    # --- the worked example ---------------------------------------------------------------
    def beat_query(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        x, i = self.st.x, self.hid()
        leaving = [m for m in (self.st.cards, self.st.panel, *self.st.xdots) if m is not None]
        card = self.st.cards[i] if self.st.cards is not None else None
        # X's place: its label's left edge inside the frame (review 27: X^(0), its label and
        # bracket were cut at the left edge for 10 s); the product moves right as far
        x_to = np.array([LEFT_X + 0.3, 0.55, 0.0])
        dx = max(0.0, EDGE_X + 0.1 - (x_to[0] - x.width / 2))
        x_to[0] += dx
        block = Rectangle(width=0.5, height=1.7, stroke_color=T.Q, stroke_width=2,
                          fill_color=T.Q, fill_opacity=0.3).move_to([-3.6 + dx, 0.35, 0])
        wname = sym(self.sup("W_Q"), F, T.Q).next_to(block, UP, buff=0.12)
        wsize = txt(f"{d['shape']['d_model']} × {d['shape']['d_head']}", S, T.TEXT)
        wsize.next_to(block, DOWN, buff=0.12)
        times = txt("×", T.TYPE.body, T.MUTED).move_to([-4.65 + dx, 0.35, 0])
        b, shift = VGroup(), 0.0
        if self.bias():
            b = inline(*self.plus_b("Q"), buff=0.15).next_to(block, RIGHT, buff=0.25)
            b.set_y(0.35)
            shift = b.get_right()[0] + 0.1 - (-2.9 + dx)
        eq = txt("=", T.TYPE.body, T.MUTED).move_to([-2.7 + dx + shift, 0.35, 0])
        q = self.column(h["q"], p.q.path, h["decimals"]["q"], T.Q, summary=True, size=READ)
        q.move_to([-1.3 + dx + shift, 0.35, 0])
        qlabel = inline(sym(self.sup("Q"), F, T.Q), txt(f"of '{d['focus']['token']}'", S,
                                                         T.MUTED))
        qlabel.next_to(q, UP, buff=0.15).align_to(q, LEFT)
        note = txt(f"({self.layer},{i}): layer {self.layer}, head {i}", T.TYPE.label, T.TEXT)
        note.next_to(wsize, DOWN, buff=0.35).align_to(times, LEFT)
        xcopy = []                      # taken when it flies: X has moved by then
        first = []
        if card is not None:
            # the legend and the other heads leave first; the followed head is ringed, moves
            # and grows to where its W_Q will be, and its W_Q bar grows into the W_Q block
            ring = SurroundingRectangle(card, color=MARK, buff=0.05, stroke_width=3)
            others = [m for m in leaving if m is not self.st.cards] + \
                [c for c in self.st.cards if c is not card]
            held = VGroup(card, ring)
            grow = block.height / card.bars[0].height
            # the ring fades in whole (review 33x: Create drew a stray dash first, 0:30)
            first.append((2, lambda t: self.play(
                *[FadeOutPlace(m) for m in others], FadeIn(ring),
                card[1].animate.set_color(MARK), run_time=t)))
            first.append((2, lambda t: self.play(
                held.animate.scale(grow).shift(block.get_center()
                                               - card.bars[0].get_center()
                                               + (card.bars[0].get_center()
                                                  - held.get_center()) * (1 - grow)),
                x.animate.move_to(x_to), run_time=t)))
            # the card's frame and its other bars leave before the block's labels come (no
            # label fades in over the card)
            first.append((1, lambda t: (self.play(
                ReplacementTransform(card.bars[0], block),
                FadeOutPlace(VGroup(card[0], card[1], card.bars[1:], ring)), run_time=t),
                self.gone(card, ring))))
            first.append((1, lambda t: self.play(
                FadeInPlace(times), FadeInPlace(wname), FadeInPlace(b),
                FadeInPlace(wsize), FadeInPlace(note), run_time=t)))
        else:
            first += [(2, lambda t: self.play(*[FadeOutPlace(m) for m in leaving],
                                              x.animate.move_to(x_to),
                                              run_time=t)),
                      (2, lambda t: self.play(FadeInPlace(times), Create(block), FadeInPlace(b),
                                              FadeInPlace(wname), FadeInPlace(wsize),
                                              FadeInPlace(note), run_time=t))]
        self.by_cue([(0, first), (1, [
            # a blue strip standing for X (not a second set of its digits) goes into W_Q
            (2, lambda t: self.play(xcopy.append(
                Rectangle(width=0.3, height=x.col.height * 0.55, stroke_color=T.X,
                          stroke_width=1.5, fill_color=T.X, fill_opacity=0.3)
                .move_to(x.col[2].get_right() + RIGHT * 0.25).align_to(x.col[2], UP)) or xcopy[0].animate
                                    .move_to(block).scale(0.6).set_opacity(0),
                                    Indicate(block, color=T.Q, scale_factor=1.08),
                                    run_time=t)),
            # the copy of X was absorbed by the block (a transform from it would leave a speck);
            # Q slides out at reading size (grown from an edge, its digits were 7 px mid-way)
            (2, lambda t: (self.remove(*xcopy),
                           self.play(FadeInPlace(eq), FadeIn(q, shift=0.5 * RIGHT),
                                     FadeInPlace(qlabel), run_time=t))),
            (1, lambda t: self.emphasize(q.summary, color=T.Q, run_time=t))])])
        self.gone(*leaving)
        for m in leaving:
            self.st.on.remove(m)
        self.st.cards = self.st.panel = None
        self.st.xdots = []
        self.st.q, self.st.qlabel = q, qlabel
        self.set_slot("product", VGroup(times, block, wname, wsize, eq, note, b))
        self.keep(q, qlabel)

    def beat_keys(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        f = d["focus"]["pos"]
        q, qlabel = self.st.q, self.st.qlabel
        toks = on_baseline([txt("…" if t is None else d["tokens"][t], S,
                                MARK if t == f else T.MUTED if t is None else T.TEXT)
                            .move_to([self.xs(j), 0, 0]) for j, t in enumerate(self.slots())],
                           Y_TOK - 0.07)
        underline(toks[self.slots().index(f)])
        stagger(toks, PITCH - 0.1)
        keys = self.kv_row(h["k"], p.k, h["decimals"]["k"], T.K, {h["top"]["pos"]})
        klabel = self.label_at(sym(self.sup("K"), F, T.K), keys.get_y())
        target_q = q.copy().move_to([LEFT_X, 0, 0]).align_to([0, COL_TOP, 0], UP)
        target_q.align_to([EDGE_X + 0.05, 0, 0], LEFT)
        target_l = qlabel.copy().next_to(target_q, UP, buff=0.1).align_to(target_q, LEFT)
        # its "32 dims" leaves before it moves up (said already; at READ size the column
        # reaches the dot products' row, whose name would sit on it)
        target_q.remove(target_q.summary)
        qdims = q.summary
        old = [m for m in (self.st.x, self.st.tokens) if m is not None]
        how = inline(txt("each token's key:", S, T.TEXT), sym(T.X_l(self.layer), F, T.X),
                     txt("×", T.TYPE.body, T.MUTED), sym(self.sup("W_K"), F, T.K),
                     txt(f"({d['shape']['d_model']} × {d['shape']['d_head']})", S, T.TEXT),
                     *self.plus_b("K"))
        how.move_to([0, -1.3, 0])
        # each token's X, a blue column under its token, travels into W_K
        xs, xlabel = self.x_strips()
        first, rest = list(xs)[:1], list(xs)[1:]
        product = self.shown.pop("product")
        wq, wqname = product[1], product[2]
        # W_K sits a little left of and under where W_Q was: clear of the first key's column
        # and of the row label of the tokens' X
        # (at a fixed place: W_Q may have moved right to keep X in the frame)
        # (at a fixed place: W_Q may have moved right to keep X in the frame), low, its name
        # on its left, in the empty space under the query (review 27: crammed against the X
        # row's label and Q's "32 dims" at 1:09)
        drop = W_DROP + 0.35
        wk = wq.copy().set_stroke(T.K).set_fill(T.K, 0.3).move_to([-3.95, 0.35 - drop, 0])
        wkname = sym(self.sup("W_K"), F, T.K).next_to(wk, LEFT, buff=0.12)

        def into(js, t):
            self.play(LaggedStart(*[xs[j].animate.move_to(wk).scale(0.6).set_opacity(0)
                                    for j in js], lag_ratio=0.08),
                      Indicate(wk, color=T.K, scale_factor=1.08), run_time=t)
            self.gone(*[xs[j] for j in js])

        def out_of(js, t):
            cols = [keys[j] for j in js if self.slots()[j] is not None]
            dots = [keys[j] for j in js if self.slots()[j] is None]
            if dots:
                self.play(*[FadeInPlace(m) for m in dots], run_time=0.1 * t)
            self.emerge(wk, cols, T.K, Y_DOT - 0.05, (0.9 if dots else 1) * t)

        self.by_cue([(2, [
            # X, the tokens and the query's product leave first: nothing is left on the
            # query's way up (review 27: it crossed the fading W_Q, + b and =)
            (0.8, lambda t: (self.play(*[FadeOutPlace(m) for m in old],
                                       FadeOutPlace(product), FadeOutPlace(qdims), run_time=t),
                             q.remove(qdims), self.gone(product, qdims))),
            (1, lambda t: self.play(Transform(q, target_q), Transform(qlabel, target_l),
                                    run_time=t)),
            (1.5, lambda t: self.play(LaggedStart(*[FadeInPlace(m) for m in toks],
                                                  lag_ratio=0.1), FadeInPlace(how),
                                      FadeInPlace(VGroup(*xs.values())), FadeInPlace(xlabel),
                                      FadeInPlace(wk), FadeInPlace(wkname),
                                      run_time=t)),
            # each token's X (under it) travels into W_K; its key comes out and goes back
            # under the token (moves, no cross-fade): the first token's alone, then the rest
            (1.5, lambda t: into(first, t)),
            (1.5, lambda t: out_of(first, t)),
            (1.5, lambda t: into(rest, t)),
            (2, lambda t: out_of(rest + [j for j, tk in enumerate(self.slots()) if tk is None],
                                 t)),
            # W_K's name leaves before the keys' own label takes the row
            (1, lambda t: (self.play(FadeOutPlace(VGroup(wk, wkname, xlabel)),
                                     run_time=0.4 * t),
                           self.gone(wk, wkname, xlabel),
                           self.play(FadeInPlace(klabel), run_time=0.6 * t)))])])
        self.gone(*old)
        for m in old:
            self.st.on.remove(m)
        self.st.x = None
        self.st.tokens, self.st.keys, self.st.klabel = toks, keys, klabel
        self.set_slot("key_how", how)
        self.keep(toks, keys, klabel)

    def kv_row(self, vecs, views, decimals: int, color, read: set) -> VGroup:
        """Every token's key (or value) under its token, one per slot ('…' at an ellipsis):
        the ones the voice reads (`read`, token positions) as their first numbers at READ
        size, every other as a strip of its colour, as tall (round 35, two reviews: nine
        columns of signed numbers ran together)."""
        cols = {t: self.bare(self.column(vecs[t], views[t].path, decimals, color, size=READ))
                for t in read if t in self.slots()}
        tall = max((c.height for c in cols.values()), default=1.1)
        row = VGroup()
        for j, t in enumerate(self.slots()):
            if t is None:
                m = txt("…", S, T.MUTED).move_to([self.xs(j), COL_TOP - tall / 2, 0])
            elif t in cols:
                m = cols[t]
                m.move_to([self.xs(j), 0, 0]).align_to([0, COL_TOP, 0], UP)
            else:
                m = Rectangle(width=0.3, height=tall, stroke_color=color, stroke_width=1.5,
                              fill_color=color, fill_opacity=0.3)
                m.move_to([self.xs(j), COL_TOP - tall / 2, 0])
            row.add(m)
        return row

    def x_strips(self) -> tuple[dict, Mobject]:
        """Every token's X as a blue column under its token (where its key or value will be;
        its numbers are not shown), by column index, and the row's label."""
        y = COL_TOP - 0.6
        strips = {j: Rectangle(width=0.3, height=1.1, stroke_color=T.X, stroke_width=1.5,
                               fill_color=T.X, fill_opacity=0.3).move_to([self.xs(j), y, 0])
                  for j, t in enumerate(self.slots()) if t is not None}
        return strips, self.label_at(sym(T.X_l(self.layer), F, T.X), y)

    def beat_dots(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        dots = self.row(p.dots, h["decimals"]["dots"], Y_DOT)
        label = self.label_at(sym(f"{self.sup('Q')} dot K", F), Y_DOT)
        cols = [j for j, t in enumerate(self.slots()) if t is not None]
        gaps = [dots[j] for j, t in enumerate(self.slots()) if t is None]
        keys = {j: self.st.keys[j] for j in cols}
        # a copy of the query goes down, then right under the dot-product row (clear of every
        # key's digits and of the numbers already out) to just under key j: the key lights
        # up and their dot product appears between the two; the copy fades
        lane = Y_DOT - 0.3

        def qcopy():
            # round 33 (review 32b: a bare yellow rectangle swept the keys while Q stayed
            # put): a copy of the query's own numbers leaves its column, goes down into the
            # lane under the dot-product row and travels along it
            # (it comes in just under its column as the column flashes: sliding out of the
            # column, its digits ran through the original's for a few frames)
            c = self.st.q.nums.copy()
            c.move_to([c.get_x(), lane - c.height / 2, 0])
            return c

        def to_lane(c, x, t):
            self.play(FadeIn(c, shift=0.3 * DOWN),
                      Indicate(self.st.q.nums, color=T.Q, scale_factor=1.06), run_time=0.5 * t)
            self.play(c.animate.set_x(x), run_time=0.5 * t)

        def meet(js, t):
            for j in js:
                c = qcopy()
                to_lane(c, self.xs(j), 0.55 * t)
                self.play(Indicate(keys[j], color=T.Q, scale_factor=1.06),
                          FadeIn(dots[j], shift=0.2 * DOWN), run_time=0.3 * t)
                self.play(FadeOut(c), run_time=0.15 * t)
                self.gone(c)

        def meet_rest(js, t):
            # the worked table has done its part and leaves (the copy's lane crosses it); a
            # copy of the query goes on to every other key, left to right; each dot product
            # comes in as it passes under its key
            if len(worked):
                self.play(FadeOutPlace(worked), run_time=0.1 * t)
                self.gone(worked)
                t *= 0.9
            c = qcopy()
            to_lane(c, self.xs(js[0]) - 0.6, 0.2 * t)
            x0, x1 = c.get_x(), self.xs(js[-1])
            for j in js:
                dots[j].set_opacity(0)
            self.add(*[dots[j] for j in js])

            def ride(m, a):
                m.set_x(x0 + (x1 - x0) * a)
                for j in js:
                    u = min(1.0, max(0.0, (m.get_x() - self.xs(j) + 0.35) / 0.35))
                    dots[j].set_opacity(u)
            self.play(UpdateFromAlphaFunc(c, ride), LaggedStart(
                *[Indicate(keys[j], color=T.Q, scale_factor=1.06) for j in js],
                lag_ratio=4.0 / (len(js) - 1) if len(js) > 1 else 0),
                run_time=0.65 * t, rate_func=lambda x: x)
            for j in js:
                dots[j].set_opacity(1)
            self.play(FadeOut(c), run_time=0.15 * t)
            self.gone(c)
        top = self.slots().index(h["top"]["pos"]) if h["top"]["pos"] in self.slots() else None
        how = self.shown.pop("key_how", None)
        n_show, dh = d["show"], d["shape"]["d_head"]
        # one dot product worked, the top key's (review 27: the products the voice names never
        # appeared; round 35, two reviews: the products were written far from the numbers
        # they came from): copies of q_i and k_i travel down into a table in the free band,
        # side by side, and their product appears beside them; the other products' sum under
        # them, a rule, the total, which then rises into its place in the row
        worked = VGroup()
        if top is not None:
            tp, pd = h["top"]["pos"], h["products_decimals"]
            qx, kx, px, y0, dy = -2.3, -0.2, 2.5, -0.25, 0.48
            ys = [y0 - dy * i for i in range(n_show + 1)]
            terms = [Num(p.products[i], None, pd, READ) for i in range(n_show)]
            rest = Num(p.products_rest, None, pd, READ)
            total = Num(p.dots[tp], None, pd, READ, MARK)
            for i, m in enumerate([*terms, rest]):
                m.move_to([0, ys[i], 0]).align_to([px, 0, 0], RIGHT)
            sym_ = [VGroup(txt("×", READ, T.MUTED).move_to([(qx + kx) / 2, y, 0]),
                           txt("=", READ, T.MUTED).move_to([kx + 0.95, y, 0])) for y in ys[:-1]]
            more = VGroup(txt("⋮", READ, T.Q).move_to([qx, ys[-1], 0]),
                          txt("⋮", READ, T.K).move_to([kx, ys[-1], 0]))
            note = txt(f"the other {dh - n_show} products", S, T.TEXT)
            note.next_to(rest, RIGHT, buff=0.3)
            rule = Line([px - 1.5, ys[-1] - 0.3, 0], [px, ys[-1] - 0.3, 0], color=T.MUTED,
                        stroke_width=2)
            total.move_to([0, ys[-1] - 0.62, 0]).align_to([px, 0, 0], RIGHT)
            # all of them added ("≈" where the rounded terms do not add up as written)
            eq = inline(txt("added", S, T.TEXT),
                        txt("=" if h["products_add"] else "≈", READ, T.MUTED), buff=0.15)
            eq.next_to(total, LEFT, buff=0.2)
            worked = VGroup(*terms, *sym_, more, rest, note, rule, eq, total)
            worked.terms, worked.total, worked.ys = terms, total, ys
            worked.rows = [VGroup(terms[i], sym_[i]) for i in range(n_show)]
            worked.last = VGroup(more, rest, note)
            worked.sum = VGroup(rule, eq, total)
            worked.at = (qx, kx)

        def written_out(t):
            """The top key's products: each pair of entries travels down into the table and
            their product appears beside them; then the rest, the rule and the total."""
            tk, q = self.st.keys[top], self.st.q
            u = t / (n_show + 2)
            qx, kx = worked.at
            for i in range(n_show):
                pair = [q.nums[i].copy(), tk.nums[i].copy()]
                self.add(*pair)
                self.play(pair[0].animate.move_to([qx, worked.ys[i], 0]),
                          pair[1].animate.move_to([kx, worked.ys[i], 0]),
                          Indicate(q.nums[i], color=MARK, scale_factor=1.1),
                          Indicate(tk.nums[i], color=MARK, scale_factor=1.1),
                          run_time=0.55 * u)
                self.play(FadeInPlace(worked.rows[i]), run_time=0.35 * u)
                worked.add(*pair)
                self.wait(0.1 * u)
            self.play(FadeInPlace(worked.last), run_time=0.8 * u)
            self.play(Create(worked.sum[0]), FadeInPlace(worked.sum[1:]), run_time=0.6 * u)
            self.emphasize(worked.total, run_time=0.6 * u)

        def land(t):
            """The total rises from the table into its place in the row (the row writes it
            at its own decimals)."""
            c = worked.total.copy()
            self.add(c)
            self.play(c.animate.move_to(dots[top]), run_time=0.6 * t)
            self.play(FadeOut(c), FadeIn(dots[top]), Indicate(self.st.keys[top], color=T.Q,
                                                               scale_factor=1.06),
                      run_time=0.4 * t)
            self.gone(c)
        # the key's formula leaves before the dot product's takes its place (review 20: the
        # two cross-faded in place at 0:51, neither readable)
        def sweep(t):
            # round 32b (review 32: nothing moved on "bank's query meets every key"); round
            # 33: the query's own numbers (a copy) slide along under every key, each key
            # lighting up as they pass; the formula of one meeting comes after
            c = qcopy()
            self.play(*([FadeOutPlace(how)] if how is not None else []), run_time=0.1 * t)
            to_lane(c, self.xs(cols[0]), 0.4 * t)
            self.play(c.animate.set_x(self.xs(cols[-1])),
                      LaggedStart(*[Indicate(keys[j], color=T.Q, scale_factor=1.06)
                                    for j in cols], lag_ratio=0.25), run_time=0.35 * t)
            self.play(FadeOut(c), run_time=0.15 * t)
            self.gone(c)
            if how is not None:
                self.gone(how)

        steps = [(2, sweep),
                 (0.6, lambda t: self.play(FadeInPlace(label), *[FadeInPlace(g) for g in gaps],
                                         run_time=t))]
        order = cols
        if top is not None:
            order = [top] + [j for j in cols if j != top]
            steps += [(5, written_out), (1.5, land)]
        else:
            steps.append((2, lambda t: meet(order[:1], t)))
        # one key after another: each copy of the query fades before the next one flies
        # round 33 (review 32b: the box on "the largest" came 2 s late behind seven
        # one-by-one meetings): one copy of the query rides on under every other key
        rest = [(2.5, lambda t: meet_rest(order[1:], t))] if len(order) > 1 else []
        ring = None
        if top is not None:
            # on the word (review 26: 2.4 s late, spread over the whole sentence)
            # review 31: the arrow flicked by between frames and the number's colour did not
            # change (the pointer colour is the text's): a box that stays while it is said
            ring = SurroundingRectangle(dots[top], color=MARK, buff=0.06, stroke_width=3)
            self.st.ring = ring
        boxed = [(1, lambda t: self.play(Create(ring), run_time=t)),
                 (1.5, lambda t: self.wait(t))] if ring is not None else []
        if len(self.beat.get("cues") or []) >= 4 and top is not None:
            # round 32 (review 31b: river's products were written over 4 s of silence, river
            # named after): "Take river's key" is its own sentence, the products written on
            # it; the other keys on the next ("every key gets its dot product"), then the box
            # round the largest on "the largest"
            groups = [(0, steps[:2]), (1, steps[2:]), (2, rest + boxed)]
        else:
            # slack at the end: the row is complete before the voice says "the largest"
            # (review 24: it was said with six of nine on screen)
            groups = [(0, steps + rest + [(1.5, lambda t: None)])]
            if boxed:
                groups.append((1, boxed))
        self.by_cue(groups)
        self.st.dots = dots
        self.st.rows.append(label)
        self.keep(dots, label)

    def beat_scale(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        scores = self.row(p.scores, h["decimals"]["scores"], Y_SCORE)
        # the divisor at the worked numbers' size, the row's name under it (review 27:
        # "÷ √32 = 5.66" was ~10 px, a number the viewer must read)
        div = inline(txt(f"÷ √{d['shape']['d_head']} =", NUM),
                     Num(self.v.scale, None, 2, NUM, MARK), buff=0.15)
        # the row named at its left like the others (review 28: "scores" small, under 5.66)
        # review 31: on one line "… = 5.66" ran into the first score ("5.66 6.31"): the
        # name over the divisor, both well clear of the row
        # round 32b (review 32: "scores:" squeezed on the divisor read as its label): the row
        # named at its left like "score − largest"; the divisor, and why it is there, on a
        # line of its own in the empty band under the rows (the worked dot product leaves)
        label = self.label_at(txt("scores", T.TYPE.label, T.TEXT), Y_SCORE)
        # round 33b (two reviews: "keeps scores in range" asserted, while the scores reach
        # 22): the design's reason, said as one and labelled as not shown here
        why = VGroup(div, VGroup(txt("by design: the scores' typical size does not grow",
                                     T.TYPE.label, T.TEXT),
                                 txt("with the number of dimensions (not shown here)",
                                     T.TYPE.label, T.TEXT)).arrange(DOWN, buff=0.1))
        why.arrange(DOWN, buff=0.2).move_to([0.3, -1.75, 0])
        dots = VGroup(self.st.dots, self.st.rows[0])     # the dot products and their label
        ring = self.st.ring
        # the sentence after the dot products' (a fourth when river's key has its own)
        said = 3 if len(self.beat.get("cues") or []) >= 4 else 2
        self.by_cue([(said, [
            (1, lambda t: (self.play(*([FadeOut(ring)] if ring else []), run_time=0.4 * t),
                           self.play(FadeInPlace(div), run_time=0.6 * t))),
            (1, lambda t: self.emphasize(div, run_time=t)),
            (1.5, lambda t: self.play(FadeInPlace(why[1]), run_time=t)),
            (4, lambda t: self.play(step_down(self.st.dots, scores), FadeInPlace(label),
                                    run_time=t)),
            (1, lambda t: self.emphasize(scores, run_time=t)),
            # the scores replace the dot products: those dim (the voice is on the scores)
            (1, lambda t: self.play(ghost(dots, USED), run_time=t)),
            # the keys have done their part: they give way (the values take their place)
            (1, lambda t: self.play(FadeOutPlace(self.st.keys), FadeOutPlace(self.st.klabel),
                                    run_time=t))])])
        # review 31: the number line (unlabelled dots piling up at 0) repeated the table: cut
        if ring is not None:
            self.gone(ring)
        self.gone(self.st.keys, self.st.klabel)
        for m in (self.st.keys, self.st.klabel):
            if m in self.st.on:
                self.st.on.remove(m)
        self.st.scores = scores
        self.st.rows.append(label)
        self.keep(scores, label)
        self.set_slot("why", why)      # the softmax beat clears it on its first sentence

    def beat_exp(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        exps = self.row(p.exp, h["decimals"]["exp"], Y_E, zeros=True)
        # six characters (-26.76): a size down, or neighbours run together
        shifted = self.row(p.shifted, h["decimals"]["shifted"], Y_EXP, size=T.TYPE.label)
        slabel = self.label_at(txt("score − largest", S), Y_EXP)
        label = self.label_at(txt("exp(score − largest)", S), Y_E)
        top = self.slots().index(h["top"]["pos"])
        # round 32 (review 31b: nine copies of the exps flew to the sum and piled up over
        # "1.000 0.001"): the sum written out where the scores were (gone by then), the two
        # largest terms by value, the rest as one term; each term's exps light up in the row
        # as it is written, nothing crosses the rows
        ed = h["decimals"]["exp"]
        big2 = [h[k]["pos"] for k in ("top", "second")]
        n_rest = sum(1 for t_, e in enumerate(h["exp"]) if e is not None and t_ not in big2)
        terms = [Num(p.exp[t_], None, ed, NUM, T.TEXT) for t_ in big2]
        total = inline(txt("sum of the exps:", S, T.TEXT), terms[0], txt("+", NUM, T.MUTED),
                       terms[1], *([txt("+", NUM, T.MUTED),
                                    txt(f"the other {n_rest}", S, T.TEXT)] if n_rest else []),
                       txt("=", NUM, T.MUTED),
                       Num(p.exp_sum, None, EXP_SUM_DECIMALS, NUM, MARK), buff=0.18)
        total.move_to([0.6, Y_SCORE, 0])
        lit = [[j for j, t_ in enumerate(self.slots()) if t_ == b] for b in big2]
        lit.append([j for j, t_ in enumerate(self.slots())
                    if t_ is not None and t_ not in big2])
        spans = [total[1:2], total[2:4], total[4:6] if n_rest else VGroup()]
        # review 30: exp was digit swaps in a dim row, the bars came only at the end: each
        # exp rises as a bar (height = the exp, at most 1) as it is written; softmax's ÷ sum
        # then reshapes these same bars into the weights
        n = len(self.slots())
        ebars = VGroup(*[Rectangle(width=BAR_W, height=max(0.01, BAR_H * float(h["exp"][t] or 0)),
                                   stroke_width=0).set_fill(WEIGHT, 0.9)
                         .move_to([self.xs(j), BASE, 0], aligned_edge=DOWN)
                         for j, t in enumerate(self.slots()) if t is not None])
        eaxis = Line([self.xs(0) - 0.45, BASE, 0], [self.xs(n - 1) + 0.4, BASE, 0],
                     color=T.MUTED, stroke_width=2)
        # the shifted row stays: each exp comes down from the number it is e to the power of
        why = self.shown.pop("why", None)
        # round 32 (review 31b: "the weights stay the same" said, not shown): why the shift
        # changes nothing, one line in the empty band over the rows, on the sentence that says it
        # one level of scripts only (round 32: scripts inside scripts were 7.9 px)
        # round 32b (review 32: the shift came before softmax's own form): softmax's form
        # first, on the sentence that says it; then the shift as one more "=" on its line,
        # with what m is under it
        L = T.TYPE.label
        form = inline(txt("softmax:", L, T.TEXT), sym("(e^s)/(sum e^s)", F, T.TEXT),
                      txt("(s: a score)", L, T.TEXT), buff=0.2)
        shift = inline(txt("=", T.TYPE.body, T.TEXT),
                       sym("(e^(s - m))/(sum e^(s - m))", F, T.TEXT), buff=0.2)
        mnote = inline(txt("m: the largest score; the factor", L, T.TEXT),
                       sym("e^(-m)", F, T.TEXT), txt("cancels", L, T.TEXT), buff=0.12)
        form.move_to([0, 1.75, 0]).align_to([-2.9, 0, 0], LEFT)
        shift.next_to(form[1], RIGHT, buff=0.2)
        # beside the formula, not under it (the dot products' row is just below)
        mnote.next_to(shift, RIGHT, buff=0.4)
        if mnote.get_right()[0] > 6.6:
            mnote.next_to(form, DOWN, buff=0.12).align_to(form, LEFT)
        cancel = VGroup(form, shift, mnote)
        self.by_cue([(0, [(1, lambda t: (self.play(FadeOutPlace(why), run_time=t),
                                         self.gone(why)) if why is not None else self.wait(t)),
                          (1.5, lambda t: self.play(FadeInPlace(form), run_time=t)),
                          (0.5, lambda t: self.wait(t))]),
                     (1, [
            (1.2, lambda t: self.play(FadeOutPlace(form[2]), run_time=0.3 * t)
             or self.play(FadeInPlace(shift), FadeInPlace(mnote), run_time=0.7 * t)),
            (0.7, lambda t: self.enlarge(self.st.scores[top], run_time=t)),
            (2.5, lambda t: self.play(FadeInPlace(slabel), step_down(self.st.scores, shifted),
                                      run_time=t)),
            # the scores are used: they grey (the voice is on the shifted row); the dot
            # products, used before them, leave (at most three rows of numbers on screen)
            (0.3, lambda t: self.play(ghost(VGroup(self.st.scores, self.st.rows[1]), USED),
                                      ghost(VGroup(self.st.dots, self.st.rows[0]), 0),
                                      run_time=t)),
            (1, lambda t: self.point_below(shifted[top], run_time=t))]),
            (2, [(3, lambda t: self.play(FadeInPlace(label), step_down(shifted, exps),
                                         Create(eaxis), run_time=t)),
                 (2, lambda t: self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in ebars],
                                                     lag_ratio=0.05), run_time=t)),
                (0.5, lambda t: self.play(ghost(VGroup(shifted, slabel), USED),
                                          ghost(VGroup(self.st.scores, self.st.rows[1]), 0),
                                          run_time=t)),
                (1, lambda t: self.point_below(exps[top], run_time=t))]),
            (3, [(0.5, lambda t: (self.gone(self.st.scores, self.st.rows[1],
                                            self.st.dots, self.st.rows[0]),
                                  self.play(FadeOutPlace(VGroup(form[:2], shift, mnote)),
                                            run_time=0.5 * t),
                                  self.gone(cancel),
                                  self.play(FadeInPlace(total[0]), run_time=0.5 * t))),
                 *[(1, lambda t, k=k: self.play(
                     FadeInPlace(spans[k]),
                     *[Indicate(exps[j], color=MARK, scale_factor=1.15) for j in lit[k]],
                     run_time=t)) for k in range(3) if len(spans[k])],
                 (0.6, lambda t: self.play(FadeInPlace(total[-2:]), run_time=t)),
                 (1, lambda t: self.emphasize(total[-1], run_time=t))])])
        self.st.exps = exps
        self.st.bars, self.st.axis = ebars, eaxis
        self.st.rows += [slabel, shifted, label]
        self.set_slot("exp_sum", total)
        self.keep(exps, label, slabel, shifted, ebars, eaxis)

    def beat_softmax(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        top, second = (self.slots().index(h[k]["pos"]) if h[k]["pos"] in self.slots() else None
                       for k in ("top", "second"))
        bars = VGroup(*[Rectangle(width=BAR_W, height=max(0.01, BAR_H * h["weights"][t]),
                                  stroke_width=0).set_fill(WEIGHT, 0.9)
                        .move_to([self.xs(j), BASE, 0], aligned_edge=DOWN)
                        for j, t in enumerate(self.slots()) if t is not None])
        n = len(self.slots())
        axis = Line([self.xs(0) - 0.45, BASE, 0], [self.xs(n - 1) + 0.4, BASE, 0],
                    color=T.MUTED, stroke_width=2)
        ebars = self.st.bars if isinstance(self.st.bars, VGroup) and len(self.st.bars) else None
        if ebars is not None and self.st.axis is not None:
            axis = self.st.axis
        # round 33b (review 33x: at 1:31 the ÷ arrows ran through the bars onto the weights
        # row, squeezed under the axis): the shifted scores leave, the exps move up into their
        # row, and the weights are written where the exps were, over the bars (the arrows in
        # the free band between the two rows)
        wy = Y_E if ebars is not None else BASE - 0.27
        weights = self.row(p.weights, h["decimals"]["weights"], wy, WEIGHT, zeros=True)
        # the row's name says what divides it (round 35, review: the division was not seen):
        # a copy of the sum travels from its line into "÷ ___" before the weights come out
        divisor = Num(p.exp_sum, None, EXP_SUM_DECIMALS, NUM, MARK)
        label = self.label_at(VGroup(inline(txt("÷", NUM, WEIGHT), divisor, buff=0.12),
                                     txt("attention weights", S, WEIGHT))
                              .arrange(DOWN, aligned_edge=RIGHT, buff=0.06), wy)
        total = self.shown.pop("exp_sum")

        def divide(t):
            c = total[-1].copy()
            self.add(c)
            self.play(c.animate.move_to(divisor), FadeInPlace(label[0][0]), run_time=0.6 * t)
            self.remove(c)
            self.add(divisor)
            self.play(FadeInPlace(label[1]), run_time=0.4 * t)
        if ebars is None:
            steps = [(1, lambda t: self.play(total.animate.move_to([total.get_x(),
                                                                    BASE + 0.42, 0]),
                                             Create(axis), run_time=t)),
                     (1.5, divide),
                     (3, lambda t: self.play(step_down(self.st.exps, weights), run_time=t)),
                     (2, lambda t: self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in bars],
                                                         lag_ratio=0.05), run_time=t))]
        else:
            # the exps' bars become the weights' (each ÷ the sum: a touch shorter); the
            # weights written under them; no second set of bars (the exps' bars and axis
            # leave the stage list: the weights' bars and the axis are kept below)
            self.st.on = [m for m in self.st.on if m is not ebars and m is not axis]

            def reshape(t):
                self.play(*[ReplacementTransform(a, b) for a, b in zip(ebars, bars)],
                          run_time=t)
            # the sum stays where it was written (round 32: it moved across the rows)
            up = VGroup(self.st.exps, self.st.rows[-1])

            def make_room(t):
                self.play(ghost(VGroup(self.st.rows[2], self.st.rows[3]), 0), run_time=0.4 * t)
                # gone for good (nothing hidden under the exps' new place)
                self.gone(self.st.rows[2], self.st.rows[3])
                for m in (self.st.rows[2], self.st.rows[3]):
                    if m in self.st.on:
                        self.st.on.remove(m)
                self.st.rows[2], self.st.rows[3] = VGroup(), VGroup()
                self.play(up.animate.shift((Y_EXP - Y_E) * UP), run_time=0.6 * t)
            steps = [(1.2, make_room),
                     (1, lambda t: self.emphasize(total[-1], run_time=t)),
                     (1.5, divide),
                     (3, lambda t: self.play(step_down(self.st.exps, weights), run_time=t)),
                     (2, reshape)]
        shifted_rows = VGroup(self.st.rows[2], self.st.rows[3])     # label, row
        steps.append((0.5, lambda t: self.play(
            ghost(VGroup(self.st.exps, self.st.rows[-1], total), USED),
            *([ghost(shifted_rows, 0)] if ebars is None else []), run_time=t)))
        # the weights the voice reads: each boxed (an arrow from below would sit on the bars)
        if top is not None:
            steps.append((1, lambda t: self.emphasize(weights[top], run_time=t)))
        if second is not None:
            steps.append((1, lambda t: self.emphasize(weights[second], run_time=t)))
        # review 24: the √32 reason (1:07) against 0.999 / 0.001 here: even scaled, the two
        # largest scores are far apart; the gap written where the scores were
        sd = h["decimals"]["scores"]
        gapline = inline(txt(f"even after ÷ √{d['shape']['d_head']}: score of "
                             f"'{h['top']['token']}'", S, T.TEXT),
                         Num(p.top.score, None, sd, S),
                         txt(f"− score of '{h['second']['token']}'", S, T.TEXT),
                         Num(p.second.score, None, sd, S), txt("=", S, T.TEXT),
                         Num(p.gap, None, sd, S, MARK), buff=0.15)
        gapline.move_to([0, Y_SCORE, 0])
        # and what that gap does, where the shifted scores were: e to minus the gap, bank's
        # exp (review 25: ~12 s on one static line)
        ed = h["decimals"]["exp"]
        sec = self.slots().index(h["second"]["pos"]) if second is not None else None
        eline = inline(sym(f"e^(-{h['gap']:.{sd}f}) =", F, T.TEXT),
                       Num(p.second.exp, None, ed, S, MARK),
                       txt(f": the exp of '{h['second']['token']}', below", S, T.TEXT),
                       buff=0.15)
        eline.move_to([0, Y_EXP, 0])
        groups = [(4, steps)]
        # only when the voice says it (a sentence after the weights; a draft has none)
        said = top is not None and second is not None and len(self.beat.get("cues") or []) > 5
        if said:
            # review 30: the design-reason sentence (9 s over a static chart) is cut; the
            # gap sentence, cue 5, follows the weights
            # the scores row, faded to nothing in the exp beat, leaves the scene first: the
            # gap line takes its place (no hidden text under it, layoutcheck)
            hidden = VGroup(self.st.scores, self.st.rows[1], shifted_rows)
            groups.append((5, [(1, lambda t: (self.gone(hidden),
                                              self.play(FadeInPlace(gapline[:2]),
                                                        run_time=t))),
                               (1, lambda t: self.play(FadeInPlace(gapline[2:4]),
                                                       run_time=t)),
                               (1, lambda t: self.play(FadeInPlace(gapline[4:]), run_time=t)),
                               (1, lambda t: self.emphasize(gapline[-1], run_time=t)),
                               (1.5, lambda t: self.play(FadeInPlace(eline), run_time=t)),
                               (1, lambda t: self.play(
                                   Indicate(self.st.exps[sec], color=MARK),
                                   Indicate(eline[1], color=MARK), run_time=t)),
                               (1, lambda t: self.emphasize(weights[top], weights[second],
                                                            run_time=t))]))
        self.by_cue(groups)
        self.st.bars, self.st.weights = bars, weights
        # what leaves when the weights move up
        self.st.wrest = VGroup(bars, axis, label, total, *([gapline, eline] if said else []))
        self.keep(bars, weights, axis, label, total, *([gapline, eline] if said else []))
        self.st.rows += [total]

    def beat_values(self, beat) -> None:
        d, (h, p) = self.data, self.head()
        top = h["top"]["pos"]
        ts = [h[k]["pos"] for k in ("top", "second")]     # the two heaviest weights' tokens
        values = self.kv_row(h["v"], p.v, h["decimals"]["v"], T.V, {top})
        vlabel = self.label_at(sym(self.sup("V"), F, T.V), self.st.klabel.get_y())
        out = self.column(h["out"], p.out.path, h["decimals"]["out"], T.V, summary=True,
                          size=READ)
        L = T.TYPE.label
        olabel = txt(f"head {self.hid()}'s output for '{d['focus']['token']}'", L, T.V)
        keys_left = [m for m in (self.st.keys, self.st.klabel) if m in self.st.on]
        rows = VGroup(self.st.dots, self.st.scores, self.st.exps, *self.st.rows[:-1],
                      self.st.q, self.st.qlabel)
        tv = self.slots().index(top) if top in self.slots() else None
        how = inline(txt("each token's value:", S, T.TEXT), sym(T.X_l(self.layer), F, T.X),
                     txt("×", T.TYPE.body, T.MUTED), sym(self.sup("W_V"), F, T.V),
                     txt(f"({d['shape']['d_model']} × {d['shape']['d_head']})", S, T.TEXT),
                     *self.plus_b("V"))
        # review 31: "takes in context" said before W_O: this is still the head's output
        gist = txt(f"≈ the value of '{d['tokens'][top]}', the token before "
                   f"'{d['focus']['token']}'", L, T.V)
        # under W_V, clear of the X columns' way into it and of the values' way out
        how.move_to([0.6, -1.15, 0])
        # the weighted sum with its real numbers (round 35, two reviews: it was words and
        # strips): the two heaviest weights times their values, "+ …" for the rest, "=", the
        # head's output; the weights row moves down out of the way (its bars are gone), so
        # the weights rise into the sum and the values come down into it, crossing no row
        wd = h["decimals"]["weights"]
        inset = [t for t in ts if t in self.slots()]
        terms = []
        for n, t in enumerate(inset):
            terms += ([txt("+", READ, T.MUTED)] if n else []) + [
                Num(p.weights[t], None, wd, READ, WEIGHT), txt("×", READ, T.MUTED),
                self.bare(self.column(h["v"][t], p.v[t].path, h["decimals"]["v"], T.V,
                                      size=READ))]
        etc, eq = txt("+ …", READ, T.MUTED), txt("=", READ, T.MUTED)
        formula = VGroup(*terms, etc, eq, out).arrange(RIGHT, buff=0.22)
        for m in (*terms, etc, eq):             # the signs and weights level with the numbers
            if not isinstance(m, VectorColumn):
                m.set_y(out.nums.get_y())
        for m in terms:
            if isinstance(m, VectorColumn):
                m.align_to(out.nums, UP)
        formula.move_to([0, -0.15, 0]).align_to([-5.3, 0, 0], LEFT)
        if formula.get_right()[0] > 6.5:
            formula.shift((6.5 - formula.get_right()[0]) * RIGHT)
        slots_w = [terms[4 * n] for n in range(len(inset))]         # each term: (+) w × v
        slots_v = [terms[4 * n + 2] for n in range(len(inset))]
        signs = VGroup(*[m for m in terms if m not in slots_w and m not in slots_v])
        olabel.next_to(formula, DOWN, buff=0.22).align_to(out, RIGHT)
        gist.next_to(olabel, DOWN, buff=0.15).align_to(olabel, RIGHT)
        self._out_at = out.get_center().copy()      # the join beat brings it back here
        # each token's X (a blue column) travels into W_V; its value comes out and goes to
        # where its key was
        xs, xlabel = self.x_strips()
        # review 31: beside the first column, [CLS]'s value ran into W_V's and X's names:
        # the block further left and lower, its name at its left; X's name a step left
        wv = Rectangle(width=0.5, height=1.5, stroke_color=T.V, stroke_width=2, fill_color=T.V,
                       fill_opacity=0.3).move_to([-4.7, -0.35, 0])
        wvname = sym(self.sup("W_V"), F, T.V).next_to(wv, LEFT, buff=0.15)
        xlabel.shift(0.3 * LEFT)
        cols = [j for j, t in enumerate(self.slots()) if t is not None]
        gaps = [values[j] for j, t in enumerate(self.slots()) if t is None]
        tags, wrest = self.st.weights, self.st.wrest
        # the weights row keeps its label; its bars, their axis and the exps' sum leave
        wl = wrest[2] if wrest is not None and len(wrest) > 2 else None
        wgone = VGroup(*[m for m in wrest if m is not wl]) if wrest is not None else VGroup()
        low = BASE + 0.22 - (tags.get_y() if tags is not None else 0.0)

        def x_into_wv(js, t):
            self.play(LaggedStart(*[xs[j].animate.move_to(wv).scale(0.6).set_opacity(0)
                                    for j in js], lag_ratio=0.08),
                      Indicate(wv, color=T.V, scale_factor=1.08), run_time=t)
            self.gone(*[xs[j] for j in js])

        def out_of_wv(js, t):
            # one value after another (as the keys came): none overlaps another in flight
            self.emerge(wv, [values[j] for j in js], T.V, wv.get_y(), t)

        def into_sum(t):
            """The two heaviest weights rise from their row and their values come down into
            the written sum, pair by pair; the other values, each shrunk to its weight, go
            into its "+ …"; the output comes out of its "="."""
            u = t / (len(inset) + 2)
            for n, tk in enumerate(inset):
                j = self.slots().index(tk)
                # a value the row shows as a strip (its numbers unread there) becomes its
                # numbers in the sum: the strip lands on them as they come in
                w, v = tags[j].copy(), values[j].copy()
                to = (v.animate.move_to(slots_v[n]) if isinstance(v, VectorColumn) else
                      v.animate.stretch_to_fit_height(slots_v[n].height).move_to(slots_v[n]))
                self.add(w, v)
                self.play(w.animate.move_to(slots_w[n]), to,
                          Indicate(tags[j], color=MARK, scale_factor=1.0),
                          FadeInPlace(VGroup(*[m for m in signs if
                                               terms.index(m) < terms.index(slots_v[n])
                                               and terms.index(m) >= terms.index(slots_w[n])
                                               - (1 if n else 0)])),
                          run_time=u)
                self.remove(w)
                self.add(slots_w[n])
                if isinstance(v, VectorColumn):
                    self.remove(v)
                    self.add(slots_v[n])
                else:
                    self.play(FadeOut(v), FadeIn(slots_v[n]), run_time=0.3 * u)
                    self.gone(v)
            light = [j for j, t_ in enumerate(self.slots())
                     if t_ is not None and t_ not in inset]
            bits = [values[j].copy() for j in light]
            self.add(*bits)
            self.play(LaggedStart(*[b.animate.stretch_to_fit_height(
                max(0.04, b.height * float(h["weights"][self.slots()[j]]))).move_to(etc[1])
                for b, j in zip(bits, light)], lag_ratio=0.08),
                *[ghost(values[j], USED) for j in light], run_time=u)
            self.play(FadeOut(VGroup(*bits)), FadeInPlace(etc), run_time=0.4 * u)
            self.gone(*bits)
            self.play(FadeInPlace(eq), FadeIn(out, shift=0.4 * RIGHT), run_time=0.6 * u)
            self.play(Indicate(out.nums, color=T.V, scale_factor=1.08), run_time=0.5 * u)

        self.by_cue([(0, [
            (1.5, lambda t: self.play(FadeOutPlace(rows), FadeOutPlace(wgone),
                                      *[FadeOutPlace(m) for m in keys_left], run_time=t)),
            (1, lambda t: self.play(FadeInPlace(how), FadeInPlace(VGroup(wv, wvname)),
                                    FadeInPlace(VGroup(*xs.values())), FadeInPlace(xlabel),
                                    run_time=t)),
            (1, lambda t: x_into_wv(cols[:1], t)),
            (1, lambda t: out_of_wv(cols[:1], t)),
            (1.5, lambda t: x_into_wv(cols[1:], t)),
            (2.5, lambda t: self.play(FadeOutPlace(xlabel), *[FadeInPlace(g) for g in gaps],
                                      run_time=0.2 * t)
             or out_of_wv(cols[1:], 0.8 * t)),
            (0.7, lambda t: (self.play(FadeOutPlace(VGroup(wv, wvname)), FadeInPlace(vlabel),
                                       run_time=t),
                             self.gone(wv, wvname, xlabel)))]),
            # the operation first, with its numbers; the output is named only then
            (1, [(1, lambda t: self.play(FadeOutPlace(how), VGroup(tags, *([wl] if wl else []))
                                         .animate.shift(low * UP), run_time=t)),
                 (6, into_sum)]),
            (2, [(0.7, lambda t: self.play(FadeInPlace(olabel), run_time=t)),
                 (1, lambda t: self.emphasize(*([values[tv]] if tv is not None else []),
                                              slots_v[0], out.nums, color=T.V, run_time=t)),
                 # what that is for the focus token, on the same sentence (review 31: its own
                 # sentence repeated it, and said "context" before W_O)
                 (1, lambda t: self.play(FadeInPlace(gist), run_time=t)),
                 (1, lambda t: self.emphasize(gist, run_time=t))])])
        self.gone(how, *keys_left)
        self.gone(rows, wgone)
        for m in wrest:
            if m in self.st.on and m is not wl:
                self.st.on.remove(m)
        for m in (self.st.dots, self.st.scores, self.st.exps, self.st.q, self.st.qlabel,
                  *self.st.rows[:-1], self.st.keys, self.st.klabel):
            if m in self.st.on:
                self.st.on.remove(m)
        self.keep(values, vlabel, out, olabel, formula, gist)

    # --- the whole matrix, every head -------------------------------------------------------
    def window_pattern(self, pattern) -> list:
        w = self.data["window"]
        return [[pattern[a][b] for b in w] for a in w]

    def beat_matrix(self, beat) -> None:
        d, (lay, lp) = self.data, self.lay()
        i, f = self.hid(), d["focus"]["pos"]
        w = d["window"]
        m = AttentionMatrix(self.window_pattern(lay["patterns"][i]), [d["tokens"][t] for t in w],
                            0.72, 0.5, color=WEIGHT, size=S)
        upright(m, 0.7)
        # round 33: half a unit lower (its bottom 40 % of the frame was empty)
        m.move_to([0, -0.55, 0]).align_to([EDGE_X, 0, 0], LEFT)
        ring = SurroundingRectangle(m.rows[w.index(f)], color=MARK, buff=0.03,
                                    stroke_width=2.5).set_z_index(1)
        lines = VGroup(txt(f"head {i} of layer {self.layer}: its whole matrix", S),
                       txt("row: a token asking (its query)", S, T.TEXT),
                       txt("column: a token looked at (its key)", S, T.TEXT),
                       txt("every row adds up to 1", S, T.TEXT),
                       inline(txt("attention weight", S, T.TEXT),
                              RampKey(txt("0", S, T.TEXT), txt("1", S, T.TEXT), WEIGHT, 1.2,
                                      0.16)))
        if d["windowed"]:
            lines.add(txt(f"{len(w)} of {d['n_tokens']} tokens shown", S, T.TEXT))
        lines.arrange(DOWN, aligned_edge=LEFT, buff=0.2)
        lines.next_to(m, RIGHT, buff=0.6).align_to(m, UP)
        # review 29: the weights row the values beat left (its bars had gone) morphs itself
        # into the focus token's row of the matrix: each weight becomes its cell
        cells = m.rows[w.index(f)].cells
        tags = self.st.weights
        sl = self.slots()
        pairs = ([(tags[j], cells[w.index(t)]) for j, t in enumerate(sl)
                  if t is not None and t in w] if tags is not None else [])
        done = {id(c) for _, c in pairs}
        extra = [c for c in cells if id(c) not in done]
        spare = [tags[j] for j, t in enumerate(sl) if t is None or t not in w] if pairs else []
        keepers = [tags] if pairs else []

        def morph(t):
            if pairs:
                # round 32 (review 31b: the digits morphed into the cells through ~0.5 s of
                # garbled glyphs): each weight's cell comes in where the weight is (its
                # shade is the weight), the digits give way; then the row of cells travels
                # whole into the matrix (boxes move, digits do not)
                here = [c.copy().move_to(a) for a, c in pairs]
                self.play(*[FadeIn(x) for x in here], *[FadeOutPlace(a) for a, _ in pairs],
                          *[FadeOutPlace(x) for x in spare], run_time=0.4 * t)
                self.gone(*spare, *[a for a, _ in pairs])
                self.play(*[x.animate.move_to(c) for x, (_, c) in zip(here, pairs)],
                          *[FadeInPlace(c) for c in extra], run_time=0.6 * t)
                self.remove(*here)
                self.add(*[c for _, c in pairs])
            else:
                self.play(FadeInPlace(m.rows[w.index(f)]), run_time=t)
        self.by_cue([(0, [
            (1, lambda t: self.clear_but(keepers, t)),
            (2, morph)]),
            (1, [(1, lambda t: self.play(Create(ring), run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[FadeInPlace(r) for q, r in enumerate(m.rows)
                                                  if q != w.index(f)], lag_ratio=0.12),
                                    FadeInPlace(m.row_labels), FadeInPlace(m.col_labels),
                                    run_time=t)),
            (3, lambda t: self.play(LaggedStart(*[FadeInPlace(x) for x in lines],
                                                lag_ratio=0.3), run_time=t))])])
        self.remove(*m.rows, m.row_labels, m.col_labels, *[c for _, c in pairs])
        self.add(m)
        self.st.matrix, self.st.panel = m, lines
        self.keep(m, lines, ring)
        self.ring = ring

    def clear_but(self, keep, run_time: float) -> None:
        keep = list(keep)
        self.st.on = [m for m in self.st.on if m not in keep]
        for b in keep:
            for m in self.st.on:
                if b in m.get_family() and m is not b:
                    m.remove(b)
        self.clear(run_time)
        self.add(*keep)

    def beat_diagonal(self, beat) -> None:
        d, (h, p), (lay, lp) = self.data, self.head(), self.lay()
        w = d["window"]
        pairs = [(a, b) for a, b in enumerate(w) if a > 0 and w[a - 1] == b - 1]
        cells = VGroup(*[self.st.matrix.cell(a, a - 1) for a, _ in pairs])
        # just outside each cell (round 33b: drawn on the light cells' own edge, white on
        # near-white, the rings did not show)
        rings = VGroup(*[SurroundingRectangle(c, color=MARK, buff=0.035, stroke_width=3)
                         for c in cells])
        claim = VGroup(txt("each token that has one →", S, MARK),
                       txt("the token just before it:", S, MARK),
                       inline(txt("mean over", S, MARK),
                              Num(lp.prev.rows, None, 0, S, MARK),
                              txt("rows =", S, MARK),
                              Num(lp.prev.score, None, lay["prev_decimals"], S,
                                  MARK)))
        claim.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        claim.next_to(self.st.panel, DOWN, buff=0.4).align_to(self.st.panel, LEFT)
        # round 33b (review 33x: an arrow flashed at one cell on "every token"): the rings
        # sweep down the whole sub-diagonal and stay lit; the mean comes in beside them, and
        # the cells light up again, all of them, as it is said
        self.by_cue([(2, [
            (2.5, lambda t: self.play(FadeOutPlace(self.ring),
                                      LaggedStart(*[FadeIn(r, scale=1.3) for r in rings],
                                                  lag_ratio=0.35),
                                      run_time=t)),
            (2, lambda t: self.play(FadeInPlace(claim[:2]), run_time=t)),
            (2, lambda t: self.play(FadeInPlace(claim[2]),
                                    LaggedStart(*[Indicate(c, color=MARK, scale_factor=1.1)
                                                  for c in cells], lag_ratio=0.15),
                                    run_time=t)),
            (1, lambda t: self.emphasize(claim[2][-1], run_time=t))])])
        self.keep(rings, claim)

    def beat_grid(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        best, runner = lay["prev"]["head"], lay["prev"]["next_head"]
        n = len(d["window"])
        cell = 1.98 / n            # review 26: ~50 px tiles; review 27: ~95 px, bigger;
                                   # review 28: ~11 px cells: the title leaves for the grid
        minis = VGroup()
        for h, pattern in enumerate(lay["patterns"]):
            m = AttentionMatrix(self.window_pattern(pattern), [], cell, cell, color=WEIGHT,
                                labels=False)
            # names in the text colour (review 25: the grid crowded with grey captions)
            name = txt(f"head {h}", S, MARK if h == best else T.TEXT)
            # 2 decimals (review 26: four, unreadable as a comparison); the followed head's
            # as the voice said it in the matrix beat (review 27: 1.00 shown, 0.9997 said)
            # round 33 (review 32b: 0.9997 among 2-decimal numbers, mixed precision): one
            # precision for all twelve, the one the grid's sentence says (head 5's 0.32)
            score = Num(p.prev_token[h], None, 2, S, MARK if h == best else T.TEXT)
            if h == best and round(float(lay["prev_token"][h]), 2) == 1.0:
                # round 33b (review 33x: "1.00" here, 0.9997 said): marked as rounded
                score = inline(txt("≈", S, MARK), score, buff=0.06)
            tile = VGroup(name, m, score).arrange(DOWN, buff=0.08)
            name.align_to(m, RIGHT)         # room on its left for the first column's token
            minis.add(tile)
        minis.arrange_in_grid(rows=2, buff=(0.22, 0.12)).move_to([0.3, 0.2, 0])
        # the focus token's name stands left of the tiles (bticks below): a teacher's long
        # word must not push it off the frame, so the grid moves right, shrinking if it must
        # (the sweep's long MiniLM sentence drew it at the left edge)
        lw = txt(f"'{d['focus']['token']}'", S, T.TEXT).width + 0.15
        # round 33 (review 32b: the grid ran to ~10 px from the right edge): half a unit
        # (~30 px) of margin on either side
        edge = self.HOME_WIDTH / 2 - 0.5
        if minis.width + lw > 2 * edge:
            minis.scale((2 * edge - lw) / minis.width)
        if minis.get_left()[0] - lw < -edge:
            minis.shift(RIGHT * (-edge + lw - minis.get_left()[0]))
        # on two lines (round 33b: at the larger size one line ran off the right edge)
        head = VGroup(txt(f"every head of layer {self.layer};", S, T.TEXT),
                      txt("under each, its mean attention weight on the token just before",
                          S, T.TEXT)).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        head.next_to(minis, UP, buff=0.2).align_to(minis, LEFT)
        # the thumbnails' axes, as in the big matrix: which token the first column is
        w0 = d["tokens"][d["window"][0]]
        axes = txt(f"in each tile: a row per query token (asking), a column per key token "
                   f"(looked at)", S, T.TEXT)
        axes.next_to(minis, DOWN, buff=0.15).align_to(minis, LEFT)
        # round 32: the count of heads that weigh [CLS] most (review 19's rings) left the
        # video with its sentence (attention_depth's sink beat reads it); review 31b: the
        # tiles had no token labels: the two heads the voice names are zoomed, labelled
        fr = d["window"].index(d["focus"]["pos"])
        zoom, zlabels, mlabs = {}, VGroup(), {}
        for h, x_ in ((best, -3.15), (runner, 3.35)):
            zm = AttentionMatrix(self.window_pattern(lay["patterns"][h]),
                                 [d["tokens"][t] for t in d["window"]], 0.5, 0.34,
                                 color=WEIGHT, size=S)
            upright(zm, 0.48)
            zm.move_to([x_, -0.6, 0])       # round 33: centred (the bottom was empty)
            zoom[h] = zm
            zlabels.add(zm.row_labels, zm.col_labels)
            mlabs[h] = txt("mean weight on the token before:", S, T.TEXT)
        zedge = min(zm.get_left()[0] for zm in zoom.values())
        if zedge < -6.6:
            for zm in zoom.values():
                zm.shift(RIGHT * (-6.6 - zedge))
        for h, zm in zoom.items():
            mlabs[h].next_to(zm.rows, DOWN, buff=0.25).align_to(zm, LEFT)
            zlabels.add(mlabs[h])
        box = SurroundingRectangle(minis[best], color=MARK, buff=0.06, stroke_width=2.5)
        box2 = SurroundingRectangle(minis[runner][2], color=T.TEXT, buff=0.1, stroke_width=2)
        others, DIM = VGroup(*[m for h, m in enumerate(minis) if h not in (best, runner)]), 0.3
        big = self.st.matrix
        if big is not None and big in self.st.on:
            self.st.on.remove(big)

        def shrink(t):
            if big is not None:
                # its token labels leave first: they would squash into the thumbnail
                labels = VGroup(big.row_labels, big.col_labels)
                self.play(FadeOutPlace(labels), run_time=0.15 * t)
                big.remove(big.row_labels, big.col_labels)
                self.gone(labels)
                self.play(ReplacementTransform(big, minis[best][1]), run_time=0.35 * t)
            self.play(LaggedStart(*[FadeInPlace(m if h != best or big is None
                                                else VGroup(m[0], m[2]))
                                    for h, m in enumerate(minis)], lag_ratio=0.1),
                      FadeInPlace(axes), run_time=(0.5 if big is not None else 1) * t)
        def grow(t):
            # each named tile's cells become its labelled matrix (row for row, cell for
            # cell); its name and its mean weight ride along, above and below it
            anims = []
            for h in (best, runner):
                zm, tile = zoom[h], minis[h]
                anims += [ReplacementTransform(tile[1].rows, zm.rows),
                          # its name back at the label size (the grid may have shrunk it)
                          tile[0].animate.scale_to_fit_height(
                              txt(f"head {h}", T.TYPE.label).height)
                          .next_to(zm.col_labels, UP, buff=0.15).align_to(zm.rows, LEFT),
                          tile[2].animate.scale(T.TYPE.body / S).next_to(mlabs[h], RIGHT,
                                                                        buff=0.15)]
            self.play(*anims, run_time=t)
            for h in (best, runner):
                self.remove(minis[h][1])
                self.add(zoom[h].rows)

        def untitle(t):
            # the title banner leaves for the grid (it comes back with the join beat)
            if self.title in self.mobjects:
                self.play(FadeOutPlace(self.title), run_time=0.3 * t)
                self.remove(self.title)
            self.clear(0.7 * t)

        self.by_cue([(0, [(1, untitle), (4, shrink)]),
                     (1, [(1, lambda t: self.play(FadeInPlace(head), run_time=t)),
                          (1, lambda t: self.emphasize(*[m[2] for m in minis],
                                                       run_time=t))]),
                     # review 29: the tiles not discussed dim while heads 2 and 5 are; round
                     # 32: then they leave and the two named tiles grow, token labels on
                     (2, [(1, lambda t: self.play(Create(box), ghost(others, DIM),
                                                  run_time=t)),
                          (1, lambda t: self.play(Create(box2), run_time=t)),
                          (1, lambda t: self.play(FadeOutPlace(VGroup(others, head, axes,
                                                                      box, box2)),
                                                  run_time=t)),
                          (2, grow),
                          (1, lambda t: self.play(FadeInPlace(zlabels), run_time=t)),
                          (1, lambda t: self.emphasize(minis[runner][2], run_time=t))])])
        self.gone(others, head, axes, box, box2)
        self.keep(*[VGroup(minis[h][0], zoom[h], minis[h][2]) for h in (best, runner)])
        self.keep(*mlabs.values())
        self.st.grid_rows = [zoom[h].rows[fr] for h in (best, runner)]

    # --- the layer's update -----------------------------------------------------------------
    def beat_join(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        j, jp = lay["join"], p.join
        n, dh, dm = d["shape"]["n_heads"], d["shape"]["d_head"], d["shape"]["d_model"]
        gap, sw = 0.85, 0.7            # the last block stays clear of Δ_attn's label
        x0 = -6.2
        hx = [x0 + gap * h + sw / 2 for h in range(n)]
        # a head's output is a mix of its values: red, like them; W_O makes it an update
        strips = VGroup(*[Rectangle(width=sw, height=0.32, stroke_color=T.V, stroke_width=1.5,
                                    fill_color=T.V, fill_opacity=0.45).move_to([x, Y_HEADS, 0])
                          for x in hx])
        names = VGroup(*[txt(str(h), T.TYPE.label, T.TEXT).next_to(s, UP, buff=0.08)
                         for h, s in enumerate(strips)])
        top_label = txt(f"each head's output for '{d['focus']['token']}': {dh} numbers",
                        T.TYPE.body, T.TEXT)
        top_label.next_to(names, UP, buff=0.1).align_to([x0, 0, 0], LEFT)
        joined_w = 0.5 * n
        joined = VGroup(*[s.copy().stretch_to_fit_width(0.5) for s in strips])
        joined.arrange(RIGHT, buff=0).move_to([x0 + joined_w / 2, Y_JOINED, 0])
        jl = txt(f"joined: {d['shape']['d_joined']} numbers", T.TYPE.body, T.TEXT)
        jl.next_to(joined, DOWN, buff=0.12).align_to(joined, LEFT)
        # W_O as a matrix (round 35, two reviews: a box the row vanished into): a square with
        # a band of rows per head (its d_head rows, which that head's numbers multiply); the
        # joined row stands up beside it, each head's piece at its band, runs across its band,
        # and the bands, added together, drop into one row under it: plus the bias, Δ_attn
        side = 2.2
        wo_box = Rectangle(width=side, height=side, stroke_color=T.TEXT, stroke_width=2,
                           fill_color=T.TEXT, fill_opacity=0.08).move_to([1.5, -0.35, 0])
        bh = side / n
        band_y = [wo_box.get_top()[1] - bh * (h + 0.5) for h in range(n)]
        seps = VGroup(*[Line([wo_box.get_left()[0], wo_box.get_top()[1] - bh * h, 0],
                             [wo_box.get_right()[0], wo_box.get_top()[1] - bh * h, 0],
                             color=T.MUTED, stroke_width=1) for h in range(1, n)])
        wo_sym = inline(sym(f"W_O^(({self.layer}))", F),
                        txt(f"{d['shape']['d_joined']} × {dm}", T.TYPE.label, T.TEXT), buff=0.2)
        wo_sym.next_to(wo_box, UP, buff=0.12)
        stand = [Rectangle(width=0.3, height=bh, stroke_color=T.V, stroke_width=1,
                           fill_color=T.V, fill_opacity=0.45)
                 .move_to([wo_box.get_left()[0] - 0.3, y_, 0]) for y_ in band_y]
        lit = [Rectangle(width=side, height=bh, stroke_width=0).set_fill(T.V, 0.45)
               .move_to([wo_box.get_x(), y_, 0]) for y_ in band_y]
        sum_row = Rectangle(width=side, height=0.22, stroke_color=T.ATTN, stroke_width=1.5,
                            fill_color=T.ATTN, fill_opacity=0.5)
        sum_row.next_to(wo_box, DOWN, buff=0.3)
        bias = txt("+ bias", T.TYPE.label, T.TEXT).next_to(sum_row, RIGHT, buff=0.15)
        delta = self.column(j["delta"], jp.delta.path, j["decimals"]["delta"], T.ATTN,
                            summary=True, length=dm)
        delta.next_to(wo_box, RIGHT, buff=0.9).align_to(wo_box, UP)
        wo = VGroup(wo_box, seps, wo_sym)
        dname = sym(f"Delta_\"attn\"^(({self.layer}))", F, T.ATTN)
        dname.next_to(delta, UP, buff=0.12).align_to(delta, LEFT)
        dlen = inline(txt("length", T.TYPE.label, T.TEXT),
                      sym(f"|Delta_\"attn\"^(({self.layer}))| =", F, T.ATTN),
                      # review 29: the number read at its label's size, not under it
                      Num(jp.delta_norm, None, j["decimals"]["delta_norm"], 28, T.ATTN), buff=0.15)
        dlen.next_to(delta, DOWN, buff=0.15).align_to(delta, LEFT)
        dgroup = VGroup(dname, delta, dlen)
        # round 32b (review 32: 5.50 with nothing to compare it to): bank's X's own length
        # under it, from the plan
        xlen = inline(txt("bank's X:", T.TYPE.label, T.TEXT).set_color(T.TEXT),
                      sym(f"|{T.X_l(self.layer)}| =", F, T.X),
                      Num(jp.x_norm, None, j["decimals"]["delta_norm"], 28, T.X), buff=0.15)
        xlen.next_to(dlen, DOWN, buff=0.2).align_to(dlen, LEFT)
        # round 33 (review 32b: 5.50 beside 11.50, never interpreted): their ratio, said
        ratio = inline(txt("the update is", T.TYPE.label, T.TEXT),
                       Num(jp.ratio, None, 2, 28, T.ATTN),
                       txt("times as long as X", T.TYPE.label, T.TEXT), buff=0.25)
        ratio.next_to(xlen, DOWN, buff=0.25).align_to(xlen, LEFT)
        for m in (dlen, xlen, ratio):       # inside the frame's right margin
            if m.get_right()[0] > 6.6:
                m.shift(LEFT * (m.get_right()[0] - 6.6))
        # on two lines (review 28: one line ended 6 px from the frame's edges)
        # the colour key on a line of its own, under the joined row's label
        legend = inline(txt("red: head outputs (mixes of values);", S, T.V),
                        txt("purple: the update", S, T.ATTN),
                        sym(f"Delta_\"attn\"^(({self.layer}))", F, T.ATTN), buff=0.2)
        # under everything else (round 32: with 9 heads, as in a SmolLM2 draft, Δ_attn's
        # length label came down onto it at y = -1)
        # round 33b: on two lines under the joined row's label, where the stage was empty
        # (under everything, at the larger size, it sat on the footer's line)
        legend = VGroup(legend[0], inline(legend[1], legend[2], buff=0.2))
        legend.arrange(DOWN, aligned_edge=LEFT, buff=0.12)
        legend.next_to(jl, DOWN, buff=0.5).align_to([x0, 0, 0], LEFT)
        # the followed head's output, as the values beat left it, comes back and moves into its
        # slot among the heads' outputs (it keeps its identity)
        h0, hp0 = self.head()
        mine = h0["head"]
        out = self.column(h0["out"], hp0.out.path, h0["decimals"]["out"], T.V, summary=True,
                          size=READ)
        out.move_to([LEFT_X + 0.3, -0.7, 0]).align_to([EDGE_X + 0.05, 0, 0], LEFT)
        if getattr(self, "_out_at", None) is not None:
            out.move_to(self._out_at)       # where the values beat left it
        olabel = VGroup(txt(f"head {mine}'s output for '{d['focus']['token']}':", T.TYPE.label,
                            T.V),
                        txt(f"≈ the value of '{d['tokens'][h0['top']['pos']]}'", T.TYPE.label,
                            T.V))
        olabel.arrange(DOWN, aligned_edge=RIGHT, buff=0.1)
        olabel.next_to(out.nums, LEFT, buff=0.5).align_to(out.nums, UP)

        def gather(t):
            others = [VGroup(s, nm) for h, (s, nm) in enumerate(zip(strips, names))
                      if h != mine]
            # round 33b (review 33x: the column shrank to ~6 px on its way and landed under
            # slot 3 before slot 2 opened): the other heads' outputs and slot 2 (an empty
            # outline, its name) come first; the column travels at reading size to just
            # under its slot, and only there becomes the slot's strip
            slot = strips[mine].copy().set_fill(opacity=0).set_stroke(MARK, 2)
            self.play(FadeOutPlace(olabel), FadeInPlace(top_label),
                      LaggedStart(*[FadeInPlace(m) for m in others], lag_ratio=0.06),
                      FadeInPlace(slot), FadeInPlace(names[mine]), run_time=0.35 * t)
            self.play(out.animate.next_to(slot, DOWN, buff=0.15), run_time=0.3 * t)
            # there it is packed into a red block of its own size (its digits go under it;
            # morphed, they garbled), which rises into the slot and becomes box 2; the
            # colour key comes only now, where the column no longer passes
            pack = Rectangle(width=out.nums.width + 0.2, height=out.nums.height + 0.1,
                             stroke_color=T.V, stroke_width=1.5, fill_color=T.V,
                             fill_opacity=0.45).move_to(out.nums)
            self.play(FadeIn(pack), FadeOut(out), run_time=0.12 * t)
            self.gone(out)
            self.play(ReplacementTransform(pack, strips[mine]), FadeOut(slot),
                      FadeInPlace(legend), run_time=0.23 * t)
            self.gone(slot)

        def join_up(t):
            # review 31: copies flew diagonally across each other and the label: all together
            # down into one lane, along it to their places (in step, so never overlapping),
            # down into the joined row; its label comes after
            cs = VGroup(*[x.copy() for x in strips])
            lane = (strips.get_bottom()[1] + joined.get_top()[1]) / 2
            self.add(cs)
            self.play(cs.animate.set_y(lane), run_time=0.25 * t)
            self.play(*[c.animate.stretch_to_fit_width(js.width).set_x(js.get_x())
                        for c, js in zip(cs, joined)], run_time=0.4 * t)
            self.play(*[c.animate.move_to(js) for c, js in zip(cs, joined)], run_time=0.2 * t)
            self.gone(cs)
            self.add(joined)
            self.play(FadeInPlace(jl), run_time=0.15 * t)

        def through_wo(t):
            """The joined row stands up beside W_O, each head's piece at its band of rows; each
            piece runs across its band; the bands drop together into one row under the matrix
            (their sum), the bias joins it, and that row turns into Δ_attn's column."""
            self.play(FadeInPlace(wo), run_time=0.15 * t)
            row = [x.copy() for x in joined]
            self.add(*row)
            self.play(*[ReplacementTransform(x, m) for x, m in zip(row, stand)],
                      run_time=0.2 * t)
            self.play(LaggedStart(*[ReplacementTransform(m, b) for m, b in zip(stand, lit)],
                                  lag_ratio=0.06), run_time=0.2 * t)
            self.play(*[b.animate.move_to(sum_row).set_fill(T.ATTN, 0.5) for b in lit],
                      run_time=0.15 * t)
            self.add(sum_row)
            self.remove(*lit)
            self.play(FadeInPlace(bias), Indicate(sum_row, color=T.ATTN, scale_factor=1.05),
                      run_time=0.1 * t)
            self.play(sum_row.animate.rotate(-PI / 2).stretch_to_fit_height(delta.nums.height)
                      .move_to(delta.nums), FadeOutPlace(bias), run_time=0.1 * t)
            self.play(FadeOut(sum_row), FadeIn(delta), FadeInPlace(dname), run_time=0.1 * t)
            self.gone(sum_row, bias)

        # review 24: the weight rows morphing into the output boxes read as if the weights
        # were the outputs; the rows leave with the grid, and head 2's output (its weighted
        # sum of values, from the values beat) comes back and moves into its box
        def retitle(t):
            # the title, gone for the grid, comes back with the next chapter step
            self.clear(t)

        first = ([(1, retitle),
                  (1, lambda t: self.play(FadeInPlace(VGroup(olabel, out)), run_time=t)),
                  (1, lambda t: self.emphasize(out, color=T.V, run_time=t)),
                  (3, gather)])
        # round 32: the pieces beat (W_O in blocks, each head's piece, their lengths end to
        # end) left the video and the template (a second analysis of Δ_attn, chapter 4.2):
        # the picture stays as it is, Δ_attn's length the last thing named
        self.by_cue([(0, first),
                     (1, [(2, join_up),
                          (5, through_wo)]),
                     (2, [(2, lambda t: self.play(FadeInPlace(dlen), run_time=t)),
                          (1, lambda t: self.emphasize(dlen, color=T.ATTN, run_time=t)),
                          (1.5, lambda t: self.play(FadeInPlace(xlen), run_time=t)),
                          (0.5, lambda t: self.wait(t))]),
                     (3, [(1.5, lambda t: self.play(FadeInPlace(ratio), run_time=t)),
                          (1, lambda t: self.emphasize(ratio[1], color=T.ATTN, run_time=t)),
                          (0.5, lambda t: self.wait(t))])])
        self.gone(olabel)
        self.keep(dgroup, VGroup(strips, names, top_label, joined, jl, wo, legend, xlen,
                                 ratio))
        self.st.delta = dgroup          # stays on stage into the add beat, and moves there

    def beat_add(self, beat) -> None:
        d, (lay, p) = self.data, self.lay()
        j, jp = lay["join"], p.join
        dm = d["shape"]["d_model"]
        y = 1.85
        xin = sym(T.X_l(self.layer), F, T.X).move_to([-5.8, y, 0])
        # the block is neutral; what comes out of it (the arrow) is Δ_attn, purple
        box = Rectangle(width=1.9, height=0.7, stroke_color=T.TEXT, stroke_width=2)
        box.move_to([-3.0, y, 0])
        bname = txt("attention", S, T.TEXT).move_to(box)

        def add_node(x):
            return VGroup(Circle(radius=0.25, color=T.TEXT, stroke_width=2),
                          txt("+", T.TYPE.body)).move_to([x, y, 0])
        plus = add_node(-1.1)

        def skip_path(x0, x1, rise, color):
            """A skip path: up from x0 on the row, along, down into the + at x1."""
            return VGroup(Line([x0, y, 0], [x0, y + rise, 0], color=color, stroke_width=3),
                          Line([x0, y + rise, 0], [x1, y + rise, 0], color=color,
                               stroke_width=3),
                          Arrow([x1, y + rise, 0], [x1, y + 0.25, 0], buff=0, color=color,
                                stroke_width=3, max_tip_length_to_length_ratio=0.35))
        a1 = Arrow(xin.get_right(), box.get_left(), buff=0.15, color=T.X, stroke_width=3)
        a2 = Arrow(box.get_right(), plus.get_left(), buff=0.1, color=T.ATTN, stroke_width=3)
        skip = skip_path(-4.8, plus.get_x(), 0.75, T.X)
        sname = txt("skip path", S, T.X).next_to(skip[1], UP, buff=0.08)
        dec = j["decimals"]["mid"]      # the plan's one precision for X, Δ_attn, their sum
        # Δ_attn itself (the join beat's column, on stage since) moves into the sum
        held = self.st.delta
        self.st.delta = None
        cols = [self.column(j["x"], jp.x.path, dec, T.X, length=dm),
                self.column(j["delta"], jp.delta.path, dec, T.ATTN, length=dm),
                self.column(j["mid"], jp.mid.path, dec, T.TEXT, length=dm)]
        # round 35 (review: the update did not enter the "+" and the sum was written before the
        # diagram): each column under the piece of the diagram it belongs to, X under X, Δ_attn
        # under the arrow out of attention, their sum under the arrow out of the plus; X and
        # Δ_attn go into the plus along the diagram, the sum comes out of it
        top_y = 0.75
        for c, x_ in zip(cols, (xin.get_x(), (box.get_right()[0] + plus.get_left()[0]) / 2,
                                plus.get_right()[0] + 1.3)):
            c.at(x_, top_y)
        sums = VGroup(cols[0], txt("+", T.TYPE.body), cols[1], txt("=", T.TYPE.body), cols[2])
        for k in (1, 3):
            sums[k].move_to([(sums[k - 1].get_right()[0] + sums[k + 1].get_left()[0]) / 2,
                             cols[0].nums.get_y(), 0])
        # X's column is named by the diagram's X over it; Δ_attn's keeps its name; the sum is
        # named by "=" and where it stands (round 35: a name over it ran into "(next video)")
        names = [VGroup(), sym(f"Delta_\"attn\"^(({self.layer}))", F, T.ATTN)]
        names[1].next_to(cols[1], UP, buff=0.12)
        note = txt(f"{dm} numbers each, added entry by entry", S, T.TEXT)
        note.next_to(sums, DOWN, buff=0.25).align_to(cols[0], LEFT)
        # what comes after the sum in MiniLM: its LayerNorm, the next video
        # (MiniLM is post-LN: LayerNorm, the feed-forward network, a second LayerNorm)
        # drawn true to the block (review 27: one box hid the FFN's own skip path): LayerNorm,
        # the FFN with its skip path and +, LayerNorm, on the same row
        def node(name):
            t_ = txt(name, S, T.MUTED)
            return VGroup(Rectangle(width=t_.width + 0.3, height=0.6, stroke_color=T.MUTED,
                                    stroke_width=2), t_.copy())
        ln1, ffn, ln2 = node("LayerNorm"), node("FFN"), node("LayerNorm")
        ln1.move_to([0, y, 0]).align_to([plus.get_right()[0] + 0.5, 0, 0], LEFT)
        ffn.move_to([0, y, 0]).align_to([ln1.get_right()[0] + 0.6, 0, 0], LEFT)
        plus2 = add_node(ffn.get_right()[0] + 0.75)
        ln2.move_to([0, y, 0]).align_to([plus2.get_right()[0] + 0.5, 0, 0], LEFT)
        chain = VGroup(ln1, ffn, plus2, ln2)
        if chain.get_right()[0] > 6.65:
            chain.shift(LEFT * (chain.get_right()[0] - 6.65))
        a3 = Arrow(plus.get_right(), ln1.get_left(), buff=0.08, color=T.TEXT, stroke_width=3)
        a6 = Arrow(ln1.get_right(), ffn.get_left(), buff=0.08, color=T.MUTED, stroke_width=3)
        a7 = Arrow(ffn.get_right(), plus2.get_left(), buff=0.08, color=T.MUTED, stroke_width=3)
        a8 = Arrow(plus2.get_right(), ln2.get_left(), buff=0.08, color=T.MUTED, stroke_width=3)
        skip2 = skip_path((ln1.get_right()[0] + ffn.get_left()[0]) / 2, plus2.get_x(), 0.6,
                          T.MUTED)
        sname2 = txt("skip path", S, T.MUTED).next_to(skip2[1], UP, buff=0.08)
        later = txt("(next video)", S, T.MUTED).next_to(ffn, DOWN, buff=0.12)
        ln = ln2            # what comes out of the block: X^(l+1)
        block2 = VGroup(ln1, a6, ffn, skip2, sname2, a7, plus2, a8, ln2, later)
        def arrive(t):
            # Δ_attn and its name move from the join's picture to under the arrow out of
            # attention (its length label leaves: the sum is the point now); X comes in under
            # its name in the diagram
            anims = [FadeInPlace(VGroup(cols[0], names[0])), FadeInPlace(sums[1])]
            if held is not None:
                # its "384 dims" note leaves (the note under the sum says it once); its
                # labels leave before it moves (review 27: they stayed behind, Δ slid across)
                note0 = held[1].summary
                held[1].remove(note0)
                self.add(note0)
                self.play(FadeOutPlace(held[2]), FadeOutPlace(note0), run_time=0.3 * t)
                self.gone(held[2], note0)
                t *= 0.7
                anims += [held[1].animate.shift(place.get_left() - held[1].get_left()),
                          held[0].animate.move_to(name_place)]
            else:
                anims += [FadeInPlace(VGroup(cols[1], names[1]))]
            self.play(*anims, run_time=t)
            if held is not None:
                self.remove(held)
                self.add(held[0], held[1])

        place, name_place = cols[1], names[1]
        if held is not None:
            sums.submobjects[2] = cols[1] = held[1]
            names[1] = held[0]

        def token(color):
            return Rectangle(width=0.22, height=0.5, stroke_color=color, stroke_width=1.5,
                             fill_color=color, fill_opacity=0.5)

        def into_plus(t):
            """A strip for X runs from its column along the skip path, one for Δ_attn up into
            the arrow out of attention; they meet in the plus, and a white strip, their sum,
            comes out of it down to the sum's place."""
            px, top = plus.get_x(), skip[1].get_y()
            xp = VMobject().set_points_as_corners([
                cols[0].get_right() + RIGHT * 0.25, [skip[0].get_x(), cols[0].get_top()[1], 0],
                [skip[0].get_x(), top, 0], [px, top, 0], [px, y + 0.3, 0]])
            dp = VMobject().set_points_as_corners([
                [cols[1].get_x(), cols[1].get_top()[1] + 0.1, 0], [cols[1].get_x(), y, 0],
                [px - 0.3, y, 0]])
            sp = VMobject().set_points_as_corners([
                [px, y - 0.3, 0], [px, cols[2].get_top()[1] + 0.3, 0],
                [cols[2].get_x(), cols[2].get_top()[1] + 0.3, 0]])
            bx, bd, bs = token(T.X), token(T.ATTN), token(T.TEXT)
            self.play(MoveAlongPath(bx, xp), MoveAlongPath(bd, dp), run_time=0.55 * t)
            self.play(FadeOut(bx), FadeOut(bd), Indicate(plus, color=MARK, scale_factor=1.25),
                      run_time=0.2 * t)
            self.play(MoveAlongPath(bs, sp), run_time=0.25 * t)
            self.gone(bx, bd)
            self.sum_token = bs

        def summed(t):
            # entry by entry, in place: X's entry and Δ_attn's light up together and their
            # sum appears in the result's column, where the strip out of the plus landed
            for m in cols[2].nums:
                m.set_opacity(0)
            bs = getattr(self, "sum_token", None)
            self.play(*([FadeOut(bs)] if bs is not None else []), FadeInPlace(sums[3]),
                      FadeInPlace(cols[2]), run_time=0.25 * t)
            if bs is not None:
                self.gone(bs)
            for i, m in enumerate(cols[2].nums):
                self.play(Indicate(cols[0].nums[i], color=T.X, scale_factor=1.15),
                          Indicate(cols[1].nums[i], color=T.ATTN, scale_factor=1.15),
                          m.animate.set_opacity(1), run_time=0.5 * t / len(cols[2].nums))
            self.play(FadeInPlace(note), run_time=0.25 * t)

        # the FFN (and MiniLM's second LayerNorm) come before the next layer: said, not skipped
        nxt = txt(f"layer {self.layer + 1}: new Q, K, V from the updated X", S, T.MUTED)
        nxt = txt(f"layer {self.layer + 1}: new Q, K, V from the updated X", S, T.TEXT)
        nxt.next_to(ln, DOWN, buff=0.75).align_to(ln, RIGHT)
        a5 = Arrow(ln.get_bottom(), [ln.get_x(), nxt.get_top()[1], 0], buff=0.06,
                   color=T.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.4)
        nl, nv = lay["next"], p.next
        fresh = None
        # review 30: the closing side-by-side of two queries (three numbers each) belongs to
        # the next video (chapter 4.2: must not tell the layer-to-layer story); drawn only
        # when the voice has its sentences (more than four)
        n_cues = len(self.beat.get("cues") or [])
        moved = None
        if nl is not None and n_cues > 4:
            # what comes out: the next layer's X for the focus token, then the followed head's
            # query there beside the one this video followed (both from the plan)
            l1, hh, nd, tok = nl["layer"], nl["head"], nl["decimals"], d["focus"]["token"]
            x1 = self.column(nl["x"], nv.x.path, nl.get("x_decimals", nd), T.X,
                             summary=True, length=dm)
            x1.at(4.15, -0.35)
            x1name = inline(sym(T.X_l(l1), F, T.X), txt(f"of '{tok}'", T.TYPE.label, T.TEXT))
            x1name.next_to(x1, UP, buff=0.12).align_to(x1, LEFT)
            nxt = x1name
            # round 33 (review 32b: "after LayerNorm: rescaled", small grey, and LayerNorm
            # also shifts; spelled out, the note ran off the frame): no note; the arrow out
            # of the last LayerNorm, which now follows X^(l+1), says where it comes from
            a5 = Arrow(ln.get_bottom(), [x1name.get_x(), x1name.get_top()[1], 0], buff=0.06,
                       color=T.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.4)
            dh = d["shape"]["d_head"]
            q0 = self.column(nl["q_here"], nv.q_here.path, nd, T.Q, length=dh)
            q1 = self.column(nl["q"], nv.q.path, nd, T.Q, length=dh)
            # round 32b (review 32: the new query sat left of W_Q and of X^(l+1), the flow ran
            # right to left): X^(l+1), out of the last LayerNorm at the right, moves to the
            # left; it goes through layer l+1's W_Q into the new query on its right; the
            # query this video followed at the far right
            xg = VGroup(x1name, x1)
            moved = xg.copy()
            moved.shift([EDGE_X + 0.15 - moved.get_left()[0], 0.35, 0])
            ytop = moved[1].get_top()[1]
            q1.at(-1.3, ytop)
            q0.at(4.3, ytop)
            q0name = inline(sym(f"Q^(({self.layer},{hh}))", F, T.Q), txt(f"of '{tok}'", T.TYPE.label,
                                                                           T.TEXT))
            q1name = inline(sym(f"Q^(({l1},{hh}))", F, T.Q), txt(f"of '{tok}'", T.TYPE.label, T.TEXT))
            for nm, c in ((q0name, q0), (q1name, q1)):
                nm.next_to(c, UP, buff=0.12).align_to(c, LEFT)
            # each query's making, at the body size (review 19: the closing formula was small
            # grey text): its own X, its own layer's W_Q
            B = T.TYPE.body

            def how(l, X="Q", lead="="):
                # one notation with the worked example: X^(l) × W_Q^(l,h) + b_Q^(l,h)
                # (review 25: "+ bias" and a plain "W_Q" at the end)
                c = T.QUANTITY[X.lower()]
                return inline(*([sym(lead, F, c)] if lead != "=" else
                                [txt("=", B, T.TEXT)]),
                              *([txt("=", B, T.TEXT)] if lead != "=" else []),
                              sym(T.X_l(l), F, T.X), txt("×", B, T.TEXT),
                              sym(f"W_{X}^(({l},{hh}))", F, c),
                              *([txt("+", B, T.TEXT), sym(f"b_{X}^(({l},{hh}))", F, c)]
                                if self.bias() else []), buff=0.1)
            q0how, q1how = VGroup(), how(l1)
            q0cap = txt("the query we followed", T.TYPE.label, T.TEXT)
            q0cap.next_to(q0, DOWN, buff=0.2).set_x(q0.nums.get_x())
            q1how.next_to(q1, DOWN, buff=0.2).align_to(q1, LEFT)
            # the chapter's point, said and shown (review 19: the video ended without it);
            # layer l+1's keys and values from the same new X (review 25: shown, not only
            # said; their recipe, no numbers: the plan has none)
            kv = VGroup(how(l1, "K", f"K^(({l1},{hh}))"), how(l1, "V", f"V^(({l1},{hh}))"))
            kv.arrange(RIGHT, buff=0.8)
            # review 26: the formulas sat at the bottom edge by the footer: no heading line
            # (the voice says it; their W^(l+1,h) say whose matrices), right under the queries
            close = VGroup(VGroup(), kv)
            kv.next_to(VGroup(q1how, moved), DOWN, buff=0.35).align_to(moved, LEFT)
            fresh = (x1, q0, q1, q0name, q1name, q0cap, q1how, close)
            # layer l+1's own query matrix, between X^(l+1) and its query (review 27: the
            # query came with no matrix seen)
            wq1 = Rectangle(width=0.45, height=1.2, stroke_color=T.Q, stroke_width=2,
                            fill_color=T.Q, fill_opacity=0.3)
            wq1.move_to([(moved[1].nums.get_right()[0] + 0.9 + q1.get_left()[0]) / 2 + 0.3,
                         q1.nums.get_y(), 0])
            wq1name = sym(f"W_Q^(({l1},{hh}))", F, T.Q).next_to(wq1, UP, buff=0.1)
            tops = max(m.get_top()[1] for m in (moved[0], wq1name, q1name, q0name))
            lane_y = (min(later.get_bottom()[1], ln.get_bottom()[1]) + tops) / 2
            ex = moved[0][0].get_x()
            elbow = VGroup(Line(ln.get_bottom() + DOWN * 0.06, [ln.get_x(), lane_y, 0],
                                color=T.MUTED, stroke_width=3),
                           Line([ln.get_x(), lane_y, 0], [ex, lane_y, 0], color=T.MUTED,
                                stroke_width=3),
                           Arrow([ex, lane_y, 0], [ex, moved[0].get_top()[1] + 0.04, 0],
                                 buff=0, color=T.MUTED, stroke_width=3,
                                 max_tip_length_to_length_ratio=0.5))
            fresh = (*fresh, wq1, wq1name)
        def travel(t):
            # round 33b (two reviews: X^(l)+Δ jumped to X^(l+1) with no trace): the sum, a
            # dot, leaves the plus and runs through LayerNorm, the FFN, its plus and the
            # second LayerNorm (each lights up as it passes, the dot changing colour there),
            # then down the arrow to X^(l+1), which comes out where it lands
            dot = Dot(plus.get_center(), radius=0.07, color=T.TEXT)
            self.play(FadeIn(dot, scale=2.5), Indicate(plus, color=MARK), run_time=0.12 * t)
            stops = [ln1, ffn, plus2, ln2]
            for k, b_ in enumerate(stops):
                col = ManimColor(T.TEXT).interpolate(ManimColor(T.X), (k + 1) / len(stops))
                yy = y if b_ is plus2 else y - 0.21
                self.play(dot.animate.move_to([b_.get_x(), yy, 0]), run_time=0.1 * t)
                self.play(dot.animate.set_color(col), Indicate(b_, color=MARK,
                                                               scale_factor=1.06),
                          run_time=0.08 * t)
            self.play(dot.animate.move_to([ln2.get_x(), ln2.get_bottom()[1] - 0.1, 0]),
                      run_time=0.05 * t)
            end = [x1name.get_x(), x1name.get_top()[1] + 0.05, 0]
            self.play(Create(a5), dot.animate.move_to(end), run_time=0.15 * t)
            self.play(FadeOut(dot, scale=0.5), FadeInPlace(nxt), FadeInPlace(x1),
                      run_time=0.16 * t)
            self.gone(dot)

        def kv_from_x(t):
            src = fresh[0]
            bits = [Rectangle(width=0.3, height=1.1, stroke_color=T.X, stroke_width=1.5,
                              fill_color=T.X, fill_opacity=0.3).move_to(src[1])
                    for _ in kv]
            self.add(*bits)
            self.play(*[b.animate.move_to(f[2]).scale(0.4).set_opacity(0.1)
                        for b, f in zip(bits, kv)], run_time=0.7 * t)
            self.remove(*bits)
            self.play(*[FadeInPlace(f[2]) for f in kv], run_time=0.3 * t)

        # review 31 (teach): the chapter's claim in one short picture: the followed head's
        # query for the focus token in layer l+1 (from the updated X) beside the one this
        # video followed, both from the plan, where the sum was
        pair = None
        if nl is not None and fresh is None:
            hh, nd, tok = nl["head"], nl["decimals"], d["focus"]["token"]
            dh = d["shape"]["d_head"]
            pair = []
            for l_, vals, path, x_, cap in (
                    (self.layer, nl["q_here"], nv.q_here.path, -3.0,
                     f"layer {self.layer}: the query we followed"),
                    (nl["layer"], nl["q"], nv.q.path, 3.0,
                     f"layer {nl['layer']}: new Q from the updated X")):
                c = self.column(vals, path, nd, T.Q, length=dh)
                c.at(x_, -1.35)
                nm = inline(sym(f"Q^(({l_},{hh}))", F, T.Q),
                            txt(f"of '{tok}'", T.TYPE.label, T.TEXT))
                nm.next_to(c, UP, buff=0.12).align_to(c, LEFT)
                cp = txt(cap, S, T.TEXT).next_to(c, DOWN, buff=0.2).set_x(c.get_x())
                pair.append(VGroup(nm, c, cp))

        # it starts beside X^(l+1)'s column, not over its digits (round 32)
        def x_into_wq(t):
            # from just right of the column's bracket (round 32b: it began on its digits)
            strip = Rectangle(width=0.3, height=0.7, stroke_color=T.X, stroke_width=1.5,
                              fill_color=T.X, fill_opacity=0.3)
            strip.next_to(fresh[0].nums, RIGHT, buff=0.25).align_to(fresh[0].nums, UP)
            self.add(strip)
            self.play(strip.animate.move_to(wq1).scale(0.6).set_opacity(0),
                      Indicate(wq1, color=T.Q, scale_factor=1.08), run_time=t)
            self.gone(strip)
        make_q = [] if fresh is None else [
            (1.2, x_into_wq),
            # from just right of the box, clear of it (review 28: it faded in behind it)
            (1.2, lambda t: self.play(FadeIn(q1, shift=(q1.get_x() - (
                wq1.get_right()[0] + 0.15 + q1.width / 2)) * RIGHT),
                                      FadeInPlace(q1name), FadeInPlace(q1how), run_time=t))]
        # the query this video followed, beside the new one; what differs: the X and the
        # matrix (with the new query's sentence when the voice has no sentence of its own)
        beside = ([] if fresh is None else [
            (1.2, lambda t: self.play(*[FadeInPlace(m) for m in (q0, q0name, q0cap)],
                                      run_time=t)),
            (0.8, lambda t: self.emphasize(q0.nums, q1.nums, color=T.Q, run_time=t)),
            (1, lambda t: self.play(Indicate(q1how[1], color=T.X),
                                    Indicate(q1how[3], color=T.Q), run_time=t))])
        self.by_cue([
            # "the update is added to bank's X": the diagram of where, X under its name,
            # Δ_attn moves under the arrow out of attention; then the skip path, and the two
            # meet in the plus, which gives their sum, entry by entry
            (0, [(0.8, lambda t: self.clear_but([held] if held is not None else [], t)),
                 (1.2, lambda t: self.play(FadeInPlace(xin), Create(a1), Create(box),
                                           FadeInPlace(bname), Create(a2), FadeInPlace(plus),
                                           run_time=t)),
                 (1.5, arrive)]),
            (1, [(1.2, lambda t: self.play(Create(skip), FadeInPlace(sname), run_time=t)),
                 (2, into_plus),
                 (2.5, summed)]),
            (2, [(1, lambda t: self.play(Create(a3), FadeInPlace(ln1), run_time=t)),
                 (1, lambda t: self.play(Create(a6), FadeInPlace(ffn), FadeInPlace(later),
                                         run_time=t)),
                 (1.5, lambda t: self.play(Create(skip2), FadeInPlace(sname2),
                                           Create(a7), FadeInPlace(plus2), run_time=t)),
                 (1, lambda t: self.play(Create(a8), FadeInPlace(ln2), run_time=t))])] + ([
            (3, [(1, lambda t: self.play(Create(a5), FadeInPlace(nxt), run_time=t)),
                 *([(0.6, lambda t: (self.play(FadeOutPlace(VGroup(sums, *names, note)),
                                               run_time=t),
                                     self.gone(sums, *names, note))),
                    (1, lambda t: self.play(FadeInPlace(pair[0]), run_time=t)),
                    # the new one comes down from the label that announces it
                    (1.2, lambda t: self.play(FadeIn(pair[1], shift=0.4 * DOWN), run_time=t)),
                    (1, lambda t: self.emphasize(pair[0][1].nums, pair[1][1].nums,
                                                 color=T.Q, run_time=t))]
                   if pair else [(1, lambda t: self.emphasize(nxt, run_time=t))])])]
            if fresh is None else [
            (3, [(0.6, lambda t: (self.play(FadeOutPlace(VGroup(sums, *names, note)),
                                            run_time=t), self.gone(sums, *names, note))),
                 (3, travel),
                 (0.6, lambda t: self.emphasize(x1name, run_time=t))]),
            # round 32 (review 31b: X^(1) unnamed, W_Q^(1,2) not shown): its own sentence
            # names X^(l+1); the next brings layer l+1's own W_Q and the query it makes
            (4, [
                 # X^(l+1) moves left, its arrow from the LayerNorm goes; layer l+1's own
                 # W_Q to its right; a blue strip standing for X^(l+1) goes into it; the
                 # query comes out of its right side and slides to its place
                 # round 33 (review 32b: the arrow from the last LayerNorm vanished): it
                 # follows X^(l+1), an elbow along the free band under the block row
                 (1.5, lambda t: (self.play(Transform(VGroup(x1name, x1), moved),
                                            FadeOut(a5), Create(elbow), run_time=t),
                                  self.gone(a5))),
                 (1, lambda t: self.play(FadeInPlace(wq1), FadeInPlace(wq1name), run_time=t)),
                 *make_q,
                 *([] if n_cues >= 6 else beside)])] + ([
            # the closing sentence (review 32: the video ended on 3 s of silence): the query
            # this video followed beside the new one; keys and values made the same way
            (5, [
                 *beside,
                 # X^(l+1) (a blue strip from its column) goes into the key's and the value's
                 # recipe, which are written around it
                 (1.2, lambda t: kv_from_x(t)),
                 (1, lambda t: self.play(FadeInPlace(VGroup(*[m for f in kv for i, m in
                                                              enumerate(f) if i != 2])),
                                         run_time=t)),
                 (0.8, lambda t: self.wait(t))])] if n_cues >= 6 else [])))
        kept = [xin, box, bname, plus, a1, a2, a3, skip, sname, block2, nxt]
        if fresh is None:
            kept.append(a5)
        if fresh is None:
            kept += list(pair) if pair else [sums, *names, note]
        else:
            kept += [m for m in fresh if m is not fresh[7] or n_cues >= 6]
            if n_cues > 4:
                kept.append(elbow)
        self.keep(*kept)


__all__ = ["PerHeadScene"]
