"""Where the focus word looks, layer by layer: arcs, the fair experiment, the sink, a deep layer.

The sentence's tokens sit in a row; from the focus word an arc goes to every other token, its
width and brightness the focus word's attention weight there (the head-average: the mean of the
heads' rows, said on screen), every arc as high as the others (so a long arc does not look
heavier than a short one), its number under the token; weights in slate (T.WEIGHTS), every
arrow, flash and box white (T.POINTER), gold only the focus word. Right: the share of the row on
[CLS] (green, T.SINK) and [SEP] (light green), one stacked bar per layer, its share above it. A long sentence keeps the special tokens,
the focus word and its nearest neighbours; the rest is a marked ellipsis "…" (said in a note).
A decoder that adds no special tokens (SmolLM2) has its first token for the sink (the plan's
`sink_kind` "first": analysis.attention_depth.sink_of): one bar part, keyed "At, the first
token", the captions naming it "the first token, At". With more layers than numbers fit side by
side (SmolLM2's 30), a labelled bar's number rides over its taller neighbours with a thin line
down to its bar, and the block's index rolls with the header's; a summary with no fair test
(RoPE: not redone) keeps the depth chart.

Beats (storyboard `show` names), each building what it needs itself (`Stage`):
- `arcs`       the model's name and layers (top right) as it is named; the tokens fade up
               ([CLS] and [SEP] boxed as named); X^(0) as a column per token, sinking back;
               where the voice says "softmax", one head's real scores and weights
               (`worked_row`, round 35; a word of several tokens: a schematic q→k, labelled
               so); the heads as a row of their numbers; the two heads the voice
               names (a head it does not name, shown first, is "for example"), each its own
               row drawn full size on the tokens (its name over it, its
               number ringed in the row, the arc to its word lit; name and arcs change
               together); at "their mean" every head's weight on the word rises out of it
               under its head's number (all 12: round 35), the twelve travel into "mean of the
               12 heads, the head-average; on river: 0.30", which rises over the mean's arcs
               as they are drawn (the focus word's weight on itself a loop on its top); the
               note's line "arc width = weight; a row adds up to 1" lit; their weights appear; the heaviest word and [CLS]
               are pointed at; the chart's first bar: the [CLS] and [SEP] numbers travel to it
               (under the token row), its parts grow beside them, its total comes on top
- `depth`      the note leaves; layer 1's W_Q, W_K block comes; a vector column rises out of
               every token (X^(0)'s size, no ghosts, standing on the tokens, the arcs a
               trace); at "updates" an attention cell, then an FFN cell, drops into every
               column and is added (its cells change), labelled "+ layer 0's updates:
               attention, then FFN" (round 33); they gather, as one group, under the
               block as X^(1) (every token's X is new),
               which goes in (the header rolling to layer 1 as X^(1) forms); a query dot
               leaves it for the focus word, a key dot for every token; the arcs morph and the
               bar grows as its number is said; layers 2, 3 and 4 a
               sentence each of 4 s or more ("Layer 2, from its own new X, puts 0.78 there"), X^(l) rising
               as it starts, the bar growing and ringed as its number is said; the first
               "≈" bar brings its note, even said "about 0.75" (round 35); a voice saying "rounded parts"
               has its two parts under [CLS] and [SEP] boxed with it; the peak's bar is lit
- `sink`       at the peak (where `depth` ended): the block steps aside for "a sink",
               labelled as a reading, once, under the header; then the block returns and the
               last layer comes as every layer before it (X^(l) into the block), its bar
               ringed, its heaviest word pointed at
- `why`        the fair test (`fair_test`) on layer 1: the arcs go back to layer 0's row and
               dim (a ghost, labelled "arcs: layer 0's row"); layer 1's own W_Q^(1), W_K^(1)
               as a block (right of the depth beats' place): an X^(0) chip moves into it from
               the left and the arcs re-form from its output (that row), tagged "arcs: fed
               X^(0)"; then X^(1) is made in the arcs' place as said (`build_x`, at the
               label size, the arcs, their tag and the tokens hidden: round 33, drawn along
               the token row it read as flowing through the sentence): the X^(0) chip at the left of a
               stream going right through two + (at each the stream branches up into layer
               0's attention box, then its FFN box, whose update comes back down into the +,
               the stream going straight on: the skip), a norm after each; X^(1) comes out
               right of the last norm and moves into the block; the model's row, the tag
               back with it on X^(1). Then the other order: layer 1's block slides out with
               its arcs (they are its output) as layer 0's comes in, a fresh X^(1) goes in,
               that row; layer 0's block slides out as layer 1's comes back, the arcs morphing
               to its row in the same move (round 32: a label never over another block's row). A four-bar panel (W^(l) over X^(s) under each):
               layer 0 fed X^(0) (the depth chart's own bar, moved there), layer 1 fed X^(0),
               layer 0 fed X^(1), layer 1 fed X^(1); each grows as its number is said, the
               verdict's bars ringed
- `why_last`   (cut from the shipped storyboard and the drafts in round 32; add it by hand) the same test at the last layer (`tie_last`), after the first's panel has
               left: layer 4's row as the ghost, layer 5's block fed X^(4), then X^(5), then
               the other order (layer 4's block fed X^(5)); the same four bars
- `deep_heads` (cut from the storyboard and the drafts in round 32) the test's panel leaves, then the last layer's arcs; the arc to the heaviest
               word becomes the heads' bars, a dashed line (neutral) at the head-average
               (river's number moving to be its label), the three heaviest boxed as said;
               beside each of them that looks most at another token, where ("looks most at
               [CLS] 0.50"); the rows at the body size, the panel centred; the three
               heaviest outlined as said, a second dashed line at twice the average drawn
               over the bars that pass it at "over twice"; "why: not tested"
- `summary`    its own chapter marker: the scope ("for this one
               sentence") in the header's place; after the first test (`summary_side`) its
               four bars stay beside the depth chart (round 35); else the six layers' bars
               come back and are ringed; the first layer's, the peak's and the last's lit as their numbers are
               said (round 33: the profile spoken); the chart's frame and the other bars leave and layers 0 and 1's own
               bars move to the outer places of the first test's four-bar panel, alone in the
               stage's middle; its two swapped bars grow as its verdict is said ("needs both
               (neither alone gives the full rise)"); then one panel at a time, the one before
               sliding out left as the next grows: the last layer's test ("own matrices
               (either order)"), the heads' bars against the average (a dashed line at twice
               it); the bars each verdict rests on light up as it is said. A test panel only
               when the summary's voice names its layer; each with its axis label ("share of
               bank's row on [CLS] + [SEP]"); two side by side share one baseline and the left
               one's label

Round 33b (two fresh reviews): wherever an X goes into a block (`feed` with a row), the dots
that leave it are named as they land ("bank's query", "each token's key"), the old arcs leave,
thin score lines grow from bank's query out to every key and the new row's arcs grow out of
them; the heads switch by leaving and being drawn (no cross-fade), each named head's weight on
its token under it; the legend "arc width = weight" comes with the first arcs; the mean's line
in the arcs' place once the head's arcs are gone; the updates at layer 1 are whole columns
added into X's cells ("attention and feed-forward", as said); no "≈" on any bar.

Round 34b (two fresh reviews): the diagram is centred until the chart comes, then slides left
with it; the note says the weights are rounded; the head's number ticks over at the middle of its
arcs' reshaping; the mean's line stays up until the tie's sentence, its 0.30 going down into the
row then; at layer 1 each update comes in beside its column with a "+" and merges into it; the
keys' label says they are made from X; layers 2-5 do not replay layer 1's X-into-the-block
animation (`morph_layer`): the indices tick over in place as the layer is named, the row before
dims to a labelled ghost, the arcs morph to the new widths over it as the number is said; layer
5's caption comes with its bar; a bar whose rounded parts do not add up carries "≈" again (the
voice says "about"); an outline drawn round a bar part raises the number over it first; the
summary (`summary_side`) keeps the fair test's two swap bars and brings the depth chart back
whole beside them (not regrown), each bar lit as its number is said.

Round 35 (two fresh reviews): where the voice says "softmax" and the plan works a head
through (`worked`: the first head not named, for a word of one token), that head's row is made
on screen from its real numbers (`worked_row`): a line from the focus word to every key, its
score (query · key / √d) under the key, the formula in the note's place and its "/ √d" boxed
as said; at "softmax" the weights come under the scores and the lines take their widths; the
heads' numbers are a table's head row, each head's weight on the word rising under its number
at "their mean" (all 12), the twelve travelling down into the mean's line, which rises over
the mean's arcs; the header rolls to layer 1 as the updated columns gather into X^(1) (not
while layer 0's still rise); the first "≈" brings its note even where the voice says "about";
the summary keeps all four of the test's bars beside the depth chart; what leaves goes before
what comes in its place (the head's arcs and name before the twelve weights, the ghost's label,
the X^(1) diagram before X^(1) goes up, the model's name before the "≈" note).

Round 37 (a fresh review of a SmolLM2 draft, 6 / 6.5): the diagram keeps the plan's token
order (columns.py: a decoder's words before the focus word first) and every "…" carries the
sum of the weights it leaves out (`elided`), so the row as written adds up to 1; a decoder's
"sees only itself and the tokens before it" brings the weights in as said (`decoder_row`);
a head the voice does not name is not drawn; the heads' weights on the word travel whole into
the mean; layer 1's X goes into its block for every model; many layers (SmolLM2's 26) run in
legs the voice names, stopping on the lowest and the highest (`run_layers`: the indices switch
at once, the weights leave while it runs), the layer said lit and, without a number on its
bar, given one while said; the sink beat clears the block before the header rolls back to the
peak as said; a decoder's sink passage (`first_token_sink`) boxes the reading phrase by phrase,
then draws the causal mask over the token row (`causal_mask`) and boxes its first column with
the first token; with many bars only the named ones carry numbers (37e: above the bars), the
legend clear of the tallest.

Round 37e (a fresh review of that draft, 7.5 / 7.5): a run's legs pass at most 10 layers (the
draft stops a longer one at a layer between) at RUN_STEP s a layer or more, and the weights
leave before the header changes; a dense chart's numbers are 16 px, above the bars, never
under the axis (marks.py: slid sideways and lifted clear, a thin line down; a near-tie said as
one has one number over a comb), its layer numbers alone under the axis, a run of neighbours
"10–11"; the causal mask has the stage to itself (the arcs and weights leave) and each row
its token; the summary draws a line through the bars' tops as the steps up and down are said
and lights the lowest too; the footer names the weights read (SmolLM2-135M-Instruct, 4-bit).

Bars are lit by a white outline drawn round them and fading (their [CLS] and [SEP] colours
kept), never a white fill. Bar numbers are the plan's shares (`sink`, `old_sink`, `new_sink`, `swap_sink`), with "≈"
before one whose [CLS] and [SEP] parts as written do not add up to it (`*_adds`); the first
"≈" on a stage brings its note at the top right (`approx_note`), which leaves with the first
move after APPROX_HOLD seconds (or with the bars), and comes again with the next "≈" number;
no note in the summary (round 33; round 35: the voice's "about" alone left it unexplained).
Every number drawn is a `Num` of a `planview.Value` (it carries its own plan path).
"""

from __future__ import annotations

import math as pymath
import re
from dataclasses import dataclass, field
from functools import cached_property

from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, AnimationGroup, Arrow, ArcBetweenPoints, Circle,
                   Create, DashedLine, Dot, FadeIn, FadeOut, GrowFromEdge, Indicate, LaggedStart, Line,
                   MathTypst, MoveAlongPath,
                   Rectangle, ReplacementTransform, RoundedRectangle, Succession, Text, Transform,
                   SurroundingRectangle, Uncreate, VGroup, VMobject, VectorizedPoint, Wait, WHITE,
                   Write,
                   interpolate_color)
from manim.utils.rate_functions import smooth, squish_rate_func, there_and_back

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene, overlaps
from scenes.mobjects import Num, inline, txt
from scenes.mobjects.text import baseline, math, on_baseline

from layerwise_core.models import measured_as
from layerwise_core.planview import Value

from .columns import columns
from .marks import adjacent, groups, place, rows
from .view import Data

S = T.TYPE.small
LAB = T.TYPE.label          # legends and axis labels the viewer must read
ROLL = 0.22                 # how far a changing number rolls (old up and out, new up and in)
NUM = 25                    # the per-token number strip (the voice reads these; r32: from 22)
ROW_Y = -1.75               # the token row's baseline
ARC_H = 1.9                 # every arc's height above the token tops (r33: from 1.35, the top band empty)
WIDTH = 24.0                # stroke width of an arc with weight 1
GAP = 0.15                  # between token columns (r32: from 0.2, room for larger numbers)
DIAG_LEFT, DIAG_RIGHT = -6.7, 1.9      # the arc diagram's band
CHART_X = 2.2               # the share chart's left edge (room for bar values set apart)
VAL = 20                    # a bar's value on its top (the voice reads these): over the small size
VAL_DENSE = 26              # ... on a dense chart (SmolLM2's 30 bars): 16 px, as the weights row
TICK_DENSE = 26             # a dense chart's layer numbers (round 37: 12 px at LAB)
TICK_ROW = 0.34             # a dense chart's second row of layer numbers, this much lower
CHART_Y = -1.6              # its baseline
BAR_H = 2.9                 # a bar of share 1
BAR_W = 0.44
BAR_PITCH = 0.8
BAR_MARGIN = 0.15            # the last bar's slot ends this far inside the frame
LOW_BAR = 0.12              # a dense chart's bar shorter than this is ringed (round 37e)
RING_H = 0.2                # ... by a ring this tall
TOP_Y = 2.6                 # the counter's row
ELLIPSIS = "…"
BLANK = "␣"                 # a token of spaces only (SmolLM2's " " before a digit)
BLOCK_AT = (-2.4, 1.3)      # the fair test's matrix block, above the arcs (the note has gone)
SPACE = 0.14                # between words and numbers in one line (a word's space)
REF = T.TEXT                # reference lines (head-average, spread evenly, twice that): neutral
BOX = 0.12                  # a highlight's margin round a number (clear of its digits)
X_SIZE = 34                 # X^(l) in a label: as tall as the words beside it


def as_written(token: str) -> str:
    """A token as written on screen: its text, or ␣ for one of spaces only."""
    return token.strip() or BLANK


def part_heights(lay) -> list[float]:
    """A layer's stacked bar, part by part: each sink token's weight at BAR_H per 1 (at least
    0.01, so a zero part still shows)."""
    return [max(0.01, BAR_H * float(w)) for w in lay.on_special]


def sink_name(v, then: str = "") -> str:
    """The sink as written on screen: its tokens ("[CLS] and [SEP]"), or, where the plan's sink
    is a decoder's first token (its `sink_kind` "first": the model adds no special tokens),
    "the first token, At" (`then`, a comma before a verb, only after that apposition)."""
    names = " and ".join(map(as_written, v.special_tokens.values))
    return f"the first token, {names}{then}" if str(v.sink_kind) == "first" else names


def sup(base: str, l) -> str:
    """Typst math X^(l) with its superscript at full size (legible at 480p)."""
    return f"{base}^(display(({l})))"


def share_val(share, adds, size, decimals: int, room: float | None = None) -> VGroup:
    """A share as written on its bar: its number, with "≈" before it where the parts as
    written ([CLS], [SEP]) do not add up to it (the plan's `*_adds`: summed_decimals); the
    "≈" over the number, centred, where the row is `room` wide only (the chart's close bars:
    beside it, it would touch the next bar's number)."""
    n = Num(share, decimals=decimals, size=size)
    # round 33 (both reviews: a "≈" over one number, never explained, every bar rounded
    # alike): no sign; the voice says "about" where the parts do not add up
    # r34b (both reviews: layer 3's bar 0.75 over parts 0.71 + 0.03, the screen unhedged):
    # the "≈" again where the parts do not add up; the voice says "about" with it
    if bool(adds):
        return VGroup(n)
    g = inline(txt("≈", size), n, buff=0.06)
    if room is not None and g.width > room:
        g = VGroup(txt("≈", size), n).arrange(DOWN, buff=0.1)
    g.approx = True
    return g


def approx_note() -> VGroup:
    """What "≈" on a bar means, said once where it first appears (top right, the header's
    row): the parts written to two decimals do not add up to the total written so."""
    g = line(txt("≈", T.TYPE.body, T.POINTER),
             txt(": about (the rounded parts do not add up)", T.TYPE.body))
    g[1].shift(LEFT * (SPACE - 0.03))
    return g.move_to([0, TOP_Y, 0]).align_to([7.11 - T.EDGE, 0, 0], RIGHT)


def shade(i: int):
    """The stacked bar's colours: [CLS] the share's own green (T.SINK: not the weights' slate,
    nor Δ_attn's purple), [SEP] (and any later special token) a light tint of it."""
    return T.SINK if i == 0 else interpolate_color(T.SINK, WHITE, 0.55)


def line(*parts) -> VGroup:
    """Words, numbers and X^(l) in one line: a word's space between them, and X on the words'
    baseline (its superscript above), not centred on their lower-case letters."""
    g = inline(*parts, buff=SPACE)
    texts = [p for p in parts if isinstance(p, Text)]
    if texts:
        base = baseline(texts[0])
        for p in parts:
            if isinstance(p, MathTypst):
                p.shift(UP * (base - p.get_bottom()[1]))
    return g


def spoken_len(text: str) -> int:
    """About how long `text` takes to say, in characters: a digit is said as a word ("seven"),
    a point between digits as "point" (0.78 takes as long as 22 letters, not 4)."""
    n = 0
    for i, ch in enumerate(text):
        if ch.isdigit():
            n += 6
        elif ch == "." and 0 < i < len(text) - 1 and text[i - 1].isdigit() \
                and text[i + 1].isdigit():
            n += 6
        else:
            n += 1
    return n


def tick(old, new, out: float = 0.6, into: float = 0.4) -> list:
    """An index changes in a header: the old one rolls up and out (over the first `out` of the
    time) while the new one rolls up into its place (from `into` on), overlapping (an
    odometer: the slot is never empty, the digits never morph). The header's X^(l) goes out
    fast (out 0.35, in from 0.3): a long overlap put the new superscript at the old X's foot,
    read as a subscript."""
    first, second = squish_rate_func(smooth, 0, out), squish_rate_func(smooth, into, 1)
    return [old.animate(rate_func=first).shift(UP * ROLL).set_opacity(0),
            FadeIn(new, shift=UP * ROLL, rate_func=second)]


def lift(t: float) -> float:
    """Up over the first 15 %, held, down over the last 12 % (a number raised clear of an
    outline drawn and faded meanwhile)."""
    return smooth(min(1.0, t / 0.15)) if t < 0.88 else smooth((1.0 - t) / 0.12)


def roll(old, new) -> list:
    """A number (or a group of them) changes: the old one rolls up and out, then the new one
    up and in (never both at once), so digits neither morph nor sit on each other."""
    first, second = squish_rate_func(smooth, 0, 0.45), squish_rate_func(smooth, 0.55, 1)
    out = [old.animate(rate_func=first).shift(UP * ROLL).set_opacity(0)] if old.has_points() \
        or old.family_members_with_points() else []
    return out + ([FadeIn(new, shift=UP * ROLL, rate_func=second)]
                  if new.family_members_with_points() else [])


@dataclass
class Stage:
    """What is on screen, filled by the handlers (each builds what it lacks)."""
    cols: list = field(default_factory=list)     # token positions drawn, None = an ellipsis
    xs: dict = field(default_factory=dict)       # token position -> x
    tokens: VGroup | None = None                 # one label per drawn column
    label: dict = field(default_factory=dict)    # token position -> its label
    note: VGroup | None = None
    counter: VGroup | None = None
    arcs: VGroup | None = None
    nums: VGroup | None = None
    chart: VGroup | None = None                  # axis, heading, legend
    bars: dict = field(default_factory=dict)     # layer -> VGroup(cls, sep, tick)
    extra: list = field(default_factory=list)    # beat-local pieces to clear
    block: VGroup | None = None                  # a layer's W_Q, W_K block (depth, sink)
    layer: int | None = None                     # the layer whose row the arcs show
    model: VGroup | None = None                  # the model's name and layers (arcs only)
    approx: VGroup | None = None                 # what "≈" on a bar means (top right)


class AttentionDepthScene(StoryboardScene):

    def update_footer(self, beat: dict) -> None:
        """The footer names the weights as traced (round 37: "SmolLM2-135M" for the
        SmolLM2-135M-Instruct file read at 4 bits): the plan's `weights`, said as
        models.measured_as says it (logit_lens's footer); else the kit's (MiniLM's
        "MiniLM-L6-H384")."""
        w = (self.plan.get("data") or {}).get("weights")
        if self.plan.get("footer") and w and w.get("bits"):
            self.plan["footer"] = measured_as(w, self.plan["footer"])
        super().update_footer(beat)

    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.st = Stage()
        self.place_columns()
        # every row the arcs draw, by its plan path, to the sums under its "…" (`weights`)
        v = self.v
        pairs = [(lay.row, lay.elided) for lay in v.layers]
        for t_ in (v.tie, v.tie_last):
            if not isinstance(t_, Value):
                pairs += [(t_.old_row, t_.old_elided), (t_.new_row, t_.new_elided),
                          (t_.swap_row, t_.swap_elided)]
        if not isinstance(v.worked, Value):
            pairs.append((v.worked.weights, v.worked.elided))
        self.elided_of = {row.path: el for row, el in pairs}

    # --- layout ----------------------------------------------------------------------------
    def place_columns(self) -> None:
        """Columns for the tokens that fit the diagram's band, kept in the plan's order
        (columns.py: the sink, the focus word and the words the voice names, then the nearest
        to the focus word; a decoder's tokens before it first); each run left out becomes an
        ellipsis, which carries the sum of their weights (`elided`)."""
        v, st = self.v, self.st
        toks = v.tokens.values
        num_w = txt("0." + "0" * int(v.decimals), NUM, mono=True).width
        width = {j: max(txt(as_written(t), T.TYPE.label).width, num_w) + GAP
                 for j, t in enumerate(toks)}
        ell = max(txt(ELLIPSIS, T.TYPE.label).width, num_w) + GAP
        band = DIAG_RIGHT - DIAG_LEFT
        order, must = list(v.columns.order.values), int(v.columns.must)

        def total(cols):
            return sum(ell if j is None else width[j] for j in cols)

        n = len(toks)
        k = must
        while k < n and total(columns(order[:k + 1], n)) <= band:
            k += 1
        self.kept = k - must            # the index into every row's `elided`
        st.cols = columns(order[:k], n)
        x = DIAG_LEFT + (band - total(st.cols)) / 2
        self.col_x = []
        for j in st.cols:
            w = ell if j is None else width[j]
            self.col_x.append(x + w / 2)
            if j is not None:
                st.xs[j] = x + w / 2
            x += w

    def focus_x(self) -> float:
        xs = [self.st.xs[f] for f in self.v.focus.values]
        return sum(xs) / len(xs)

    # --- pieces ----------------------------------------------------------------------------
    def token_row(self) -> VGroup:
        v, st = self.v, self.st
        labels = []
        for j, x in zip(st.cols, self.col_x):
            if j is None:
                m = txt(ELLIPSIS, T.TYPE.label, T.MUTED)
            else:
                color = (T.HIGHLIGHT if j in v.focus.values else
                         T.MUTED if j in v.special.values else T.TEXT)
                m = txt(as_written(v.tokens.values[j]), T.TYPE.label, color)
                st.label[j] = m
            labels.append(m.set_x(x))
        return on_baseline(labels, ROW_Y)

    def arcs(self, row) -> VGroup:
        """One arc from the focus word to every other drawn token, all as high as each other;
        width and brightness = weight."""
        v, st = self.v, self.st
        fx = self.focus_x()
        y0 = max(m.get_top()[1] for m in st.label.values()) + 0.08
        g = VGroup()
        for j in st.xs:
            if j in v.focus.values:
                continue
            w = float(row[j])
            chord = abs(st.xs[j] - fx)
            h = min(ARC_H, 0.45 * chord)         # long arcs flatten: length is not weight
            angle = 4 * pymath.atan(2 * h / max(chord, 1e-3))
            a = ArcBetweenPoints([fx, y0, 0], [st.xs[j], y0, 0],
                                 angle=angle if st.xs[j] < fx else -angle)
            a.set_stroke(T.WEIGHTS, width=max(0.8, WIDTH * w),
                         opacity=0.25 + 0.75 * min(1.0, 2 * w))
            g.add(a)
        # the focus word's weight on itself: a small loop on its own top (last: the arcs
        # before it go one per other token, in order)
        w = sum(float(row[f]) for f in v.focus.values)
        loop = ArcBetweenPoints([fx - 0.15, y0, 0], [fx + 0.15, y0, 0],
                                angle=-(2 * pymath.pi - 1.4))
        loop.set_stroke(T.WEIGHTS, width=max(0.8, WIDTH * w),
                        opacity=0.25 + 0.75 * min(1.0, 2 * w))
        g.add(loop)
        return g

    def weights(self, row, y: float = ROW_Y - 0.45) -> VGroup:
        """The row's weights under their tokens, then (round 37: 0.47 of a row hidden, its
        numbers visibly short of 1) under each "…" the sum of the weights it leaves out."""
        st = self.st
        dec = int(self.v.decimals)
        nums = [Num(row[j], decimals=dec, size=NUM, color=T.WEIGHTS).move_to([st.xs[j], y, 0])
                for j in st.xs]
        sums = self.elided_of.get(getattr(row, "path", None))
        if sums is not None:
            xs = [x for j, x in zip(st.cols, self.col_x) if j is None]
            nums += [Num(m, decimals=dec, size=NUM, color=T.WEIGHTS).move_to([x, y, 0])
                     for m, x in zip(sums[self.kept], xs)]
        return VGroup(*nums)

    def num_at(self, nums: VGroup, j: int):
        return nums[list(self.st.xs).index(j)]

    def counter(self, layer, state: int | None = None) -> VGroup:
        s = int(layer) if state is None else state
        g = line(txt("layer", T.TYPE.body), Num(layer, decimals=0, size=T.TYPE.body),
                 txt("reads", T.TYPE.body), math(sup("X", s), X_SIZE, T.X))
        return g.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)

    def note(self) -> VGroup:
        v = self.v
        several = int(v.n_focus) > 1
        # the per-head step (per_head showed it for one head): the first page, alone; then
        # what the arcs are rolls into its place (one line on screen, not a stack)
        formula = txt(f"a head's row = softmax( \"{v.word}\" query · each key / √{int(v.d_head)} )",
                      LAB)
        # r34b (both reviews: the rounded row shown sums to 1.01, 0.99): "rounded" on screen
        lines = [formula, line(txt("arc width = weight; a row sums to", LAB),
                               Num(v.layers[0].total, decimals=0, size=LAB),
                               txt("(weights rounded)", LAB, T.MUTED))]
        if several:
            lines.append(line(txt(f"\"{v.word}\" is", LAB),
                              Num(v.n_focus, decimals=0, size=LAB),
                              txt("tokens: their rows averaged", LAB)))
        if None in self.st.cols:
            lines.append(txt(f"{ELLIPSIS} = tokens not drawn; under it, their weights added",
                             LAB))
        # spaced so that a highlight box round one line clears its neighbours and the header
        g = VGroup(*lines[1:]).arrange(DOWN, buff=0.13, aligned_edge=LEFT)
        g.next_to([DIAG_LEFT, TOP_Y - 0.38, 0], DOWN + RIGHT, buff=0)
        formula.next_to([DIAG_LEFT, TOP_Y - 0.38, 0], DOWN + RIGHT, buff=0)
        return VGroup(formula, *g)

    def clear_of_note(self, block, gap: float = 0.25):
        """Where `block` moves to clear the note: nowhere when it sits below it; a longer note
        (a word of several tokens, a window of the sentence) reaches down to the block, which
        then moves down (not onto the arcs), then right of the note within the diagram's band."""
        st = self.st
        note = st.note
        over = 0.0 if note is None else block.get_top()[1] - (note.get_bottom()[1] - 0.1)
        if over <= 0:
            return ORIGIN
        floor = st.arcs.get_top()[1] + 0.1 if st.arcs is not None else ROW_Y + ARC_H
        down = max(0.0, min(over, block.get_bottom()[1] - floor))
        if down >= over:
            return DOWN * down
        right = note.get_right()[0] + gap - block.get_left()[0]
        return DOWN * down + RIGHT * max(0.0, min(right, DIAG_RIGHT - block.get_right()[0]))

    @cached_property
    def bar_layout(self) -> tuple[float, float]:
        """(pitch, width) of the chart's bars: MiniLM's 6 at BAR_PITCH; more layers closer,
        so the last one's slot ends inside the frame (SmolLM2's 30: 0.11 apart)."""
        room = 7.11 - BAR_MARGIN - 0.45 - (CHART_X + 0.4)
        pitch = min(BAR_PITCH, room / max(int(self.v.n_layers) - 1, 1))
        return pitch, min(BAR_W, 0.7 * pitch)

    @cached_property
    def labelled(self) -> set[int]:
        """The layers whose bar carries its number and value: all while they fit side by side;
        else (`dense`) the first, the last, the sink's lowest and highest, and the layers
        written as they are (a near-tie, said as one)."""
        v = self.v
        L = int(v.n_layers)
        k = pymath.ceil((txt("0.00", VAL, mono=True).width + 0.1) / self.bar_layout[0])
        if k <= 1:
            return set(range(L))
        # round 37 (an unexplained 0.70 over layer 18): only the bars the voice names
        return {0, L - 1, int(v.sink.min.layer), int(v.sink.max.layer),
                *map(int, v.sink.min.tied), *map(int, v.sink.max.tied)}

    @property
    def dense(self) -> bool:
        """Bars closer than a number is wide (SmolLM2's 30): numbers placed by marks.py."""
        return len(self.labelled) < int(self.v.n_layers)

    def bar_x(self, l: int) -> float:
        return CHART_X + 0.4 + l * self.bar_layout[0]

    def bar_top(self, l: int) -> float:
        return CHART_Y + sum(part_heights(self.v.layers[l]))

    @cached_property
    def label_groups(self) -> list[list[int]]:
        """A dense chart's labelled layers as the numbers that mark them: a near-tie one group
        (marks.groups)."""
        v = self.v
        return groups(sorted(self.labelled), [list(map(int, v.sink.min.tied)),
                                              list(map(int, v.sink.max.tied))])

    def group_of(self, l: int) -> list[int]:
        return next((g for g in self.label_groups if l in g), [l]) if self.dense else [l]

    def group_value(self, g: list[int]) -> int:
        """The layer whose share a group writes (the extreme's own, in a near-tie)."""
        v = self.v
        for k in (int(v.sink.max.layer), int(v.sink.min.layer)):
            if k in g:
                return k
        return g[0]

    def bar_boxes(self, upto: int | None = None) -> list:
        """The bars as boxes (marks.Box), all of them or those up to layer `upto`."""
        bw = self.bar_layout[1]
        L = int(self.v.n_layers) if upto is None else upto + 1
        return [(self.bar_x(l) - bw / 2, self.bar_x(l) + bw / 2, CHART_Y, self.bar_top(l))
                for l in range(L)]

    def chart_right(self) -> float:
        return self.bar_x(int(self.v.n_layers) - 1) + 0.45

    def value_at(self, l: int, at: list[int], bars: list, taken: list) -> VGroup:
        """Layer l's share over the bars `at` (a near-tie said as one: a comb over them, a
        line across above every bar between, a tooth down to each), placed by marks.place
        clear of `bars` and `taken` (its box added), a thin line down to its bar or comb
        where it is lifted. VGroup(number, lines)."""
        lay, bw = self.v.layers[l], self.bar_layout[1]
        val = share_val(lay.sink, lay.sink_adds, VAL_DENSE, int(self.v.decimals))
        a, b = min(at), max(at)
        x = (self.bar_x(a) + self.bar_x(b)) / 2
        y = max(self.bar_top(k) for k in range(a, b + 1))
        lines = VGroup()
        # round 37e (the 0.01 bars 1 px tall, marked by a 4-px comb): bars too short to find
        # are ringed (a run of neighbours in one ring); the lines start at the rings' tops
        foot = {k: self.bar_top(k) + 0.03 for k in at}
        if max(self.bar_top(k) for k in at) - CHART_Y < LOW_BAR:
            for r in adjacent(at):
                ring = Rectangle(width=self.bar_x(r[-1]) - self.bar_x(r[0]) + bw + 0.1,
                                 height=RING_H, color=T.SINK, stroke_width=2.5)
                ring.move_to([(self.bar_x(r[0]) + self.bar_x(r[-1])) / 2,
                              CHART_Y + RING_H / 2 - 0.03, 0])
                lines.add(ring)
                foot.update({k: ring.get_top()[1] for k in r})
                taken.append((ring.get_left()[0], ring.get_right()[0], ring.get_bottom()[1],
                              ring.get_top()[1]))
            y = max(y, max(foot.values()))
        if len(adjacent(at)) > 1 or (len(at) > 1 and len(lines) == 0):
            # a comb: a line across above every bar between, a tooth down to each
            y += 0.07
            lines.add(Line([self.bar_x(a) - bw / 2, y, 0], [self.bar_x(b) + bw / 2, y, 0],
                           color=T.MUTED, stroke_width=2))
            lines.add(*[Line([self.bar_x(k), y, 0], [self.bar_x(k), foot[k], 0],
                             color=T.MUTED, stroke_width=2) for k in at])
            taken.append((self.bar_x(a) - bw / 2, self.bar_x(b) + bw / 2, y - 0.05, y))
        # right of the share axis and its numbers (a second sentence's "0.06" met its "0.5")
        p = place(val.width, val.height, x, y, bars, taken, self.axis_x + 0.06,
                  self.chart_right())
        val.move_to([p.x, p.bottom + val.height / 2, 0])
        taken.append(p.box)
        if p.bottom - y > 0.2:
            # round 39 (both reviews: a lifted "0.06" read as a bar at 0.4): an arrow from the
            # number down to its bar's top (or ring), so the number is a callout, not a height
            lines.add(Arrow([x, p.bottom - 0.04, 0], [x, y + 0.02, 0], buff=0, color=T.MUTED,
                            stroke_width=2.5, tip_length=0.12,
                            max_tip_length_to_length_ratio=0.5,
                            max_stroke_width_to_length_ratio=20))
        return VGroup(val, lines)

    @cached_property
    def dense_marks(self) -> dict:
        """A dense chart's numbers, placed once for the whole chart (they do not move as bars
        come): {a group's last layer: (its number, its lines)}, coming with its last bar
        (every layer said is up by then); the tallest placed first."""
        bars, taken = self.bar_boxes(), []
        out = {}
        for g in sorted(self.label_groups,
                        key=lambda g: -max(self.bar_top(k) for k in range(g[0], g[-1] + 1))):
            m = self.value_at(self.group_value(g), g, bars, taken)
            out[max(g)] = (VGroup(m[0]), m[1])
        return out

    @cached_property
    def dense_ticks(self) -> dict:
        """A dense chart's layer numbers under the axis ({layer: VGroup(tick mark, number)}):
        each labelled layer a short tick mark; a run of neighbours one number "10–11" (with
        its last bar); a number that would touch the one before drops a row (marks.rows)."""
        v = self.v
        nums = []
        for g in self.label_groups:
            for r in adjacent(g):
                n = Num(v.layers[r[0]].layer, decimals=0, size=TICK_DENSE)
                if len(r) > 1:      # "10–11": a dash at the digits' middle
                    dash = Line(LEFT * 0.08, RIGHT * 0.08, color=T.TEXT, stroke_width=2.5)
                    n = VGroup(n, dash, Num(v.layers[r[-1]].layer, decimals=0,
                                            size=TICK_DENSE)).arrange(RIGHT, buff=0.06)
                x = sum(self.bar_x(k) for k in r) / len(r)
                nums.append((x, r, n.move_to([x, 0, 0])))
        nums.sort(key=lambda e: e[0])
        rows_ = rows([(n.get_left()[0], n.get_right()[0]) for _, _, n in nums])
        out = {}
        for (x, r, n), row in zip(nums, rows_):
            n.move_to([x, CHART_Y - 0.32 - row * TICK_ROW, 0])
            for k in r:
                mark = Line([self.bar_x(k), CHART_Y - 0.02, 0],
                            [self.bar_x(k), CHART_Y - 0.1 - row * TICK_ROW, 0],
                            color=T.MUTED, stroke_width=2)
                out[k] = VGroup(mark, n) if k == r[-1] else VGroup(mark)
        return out

    def bar(self, l: int) -> VGroup:
        """Layer l's stacked bar: [CLS] dark, [SEP] light above it; its layer number below
        (number and value: an invisible point off the labelled layers); in a dense chart,
        its numbers and their lines as placed for the whole chart (`dense_marks`)."""
        lay = self.v.layers[l]
        pitch, bar_w = self.bar_layout
        x = CHART_X + 0.4 + l * pitch
        parts = VGroup()
        y = CHART_Y
        for i, h in enumerate(part_heights(lay)):
            r = Rectangle(width=bar_w, height=h, stroke_width=0)
            r.set_fill(shade(i), 1.0).move_to([x, y, 0], aligned_edge=DOWN)
            parts.add(r)
            y += h
        if self.dense:
            # round 37 (numbers at 12 px; 0.01 under the axis read as a layer number): 16-px
            # numbers above the bars, layer numbers alone under the axis
            nums, lines = self.dense_marks.get(l, (None, None))
            tick = self.dense_ticks[l].copy() if l in self.dense_ticks else \
                VectorizedPoint([x, CHART_Y - 0.3, 0])
            val = nums.copy() if nums is not None else VectorizedPoint([x, y + 0.08, 0])
            val.approx = any(getattr(m, "approx", False) for m in val.submobjects)
            lead = lines.copy() if lines is not None else VGroup()
            g = VGroup(parts, tick, val, lead)
            g.parts, g.tick, g.val, g.lead = parts, tick, val, lead
            return g
        tick = Num(lay.layer, decimals=0, size=LAB).move_to([x, CHART_Y - 0.27, 0])
        val = share_val(lay.sink, lay.sink_adds, VAL, int(self.v.decimals), pitch - 0.08)
        val.next_to(parts, UP, buff=0.08)
        if l not in self.labelled:
            tick, val = VectorizedPoint(tick.get_center()), VectorizedPoint(val.get_bottom())
        g = VGroup(parts, tick, val)
        g.parts, g.tick, g.val = parts, tick, val
        g.lead = VGroup()
        return g

    def lit(self, bars, l: int) -> VGroup:
        """Layer l's bar and number as lit (VGroup(bars, numbers)): in a dense chart every
        bar of its group (a near-tie said as one) with the group's numbers. `bars`: layer ->
        bar."""
        if not self.dense:
            return VGroup(bars[l].parts, bars[l].val)
        g = self.group_of(l) if l in self.labelled else [l]
        parts = VGroup(*[bars[k].parts for k in g if k in bars])
        owner = max(g)
        said = getattr(self, "_said_val", None)
        if l not in self.labelled and said is not None:
            return VGroup(parts, said[0])       # its number as said (`said_val`)
        return VGroup(parts, bars[owner].val if owner in bars else VGroup())

    def grow_bar(self, b):
        """The bar grows from the axis, its value riding on its top (never above it early);
        the first "≈" brings its note."""
        return [GrowFromEdge(b.parts, DOWN), FadeInPlace(b.tick),
                FadeIn(b.val, shift=UP * b.parts.height), *self.approx_in(b.val),
                *([FadeInPlace(b.lead)] if b.lead.family_members_with_points() else [])]

    def approx_in(self, *vals) -> list:
        """The "≈" note's entrance, the first time one of `vals` carries "≈" on this stage."""
        if self.st.approx is not None or not any(getattr(v_, "approx", False) for v_ in vals):
            return []
        # round 33 (6 s of a 0.01 rounding detail, its note into the summary): no note in
        # the summary (`_approx_said`); round 35 (both reviews: "≈" unexplained where it
        # first came, the voice's "about" not enough): the note comes with the first "≈"
        # even where the voice says "about"
        if getattr(self, "_approx_said", False):
            return []
        self.st.approx = approx_note()
        self._notes = getattr(self, "_notes", []) + [self.st.approx]
        self._approx_t = self.time
        # the note takes the top right; the model's name, there while layer 0's bar is made,
        # leaves as it comes (a teacher's sentence whose layer-0 bar carries "≈" printed both
        # in one place)
        model, self.st.model = self.st.model, None
        # round 35 (old text showed through new): the name leaves before the note comes
        late = squish_rate_func(smooth, 0.5, 1) if model is not None else smooth
        return [FadeIn(self.st.approx, shift=LEFT * 0.3, rate_func=late),
                *([FadeOutPlace(model, rate_func=squish_rate_func(smooth, 0, 0.45))]
                  if model is not None else [])]

    APPROX_HOLD = 4.5           # seconds the "≈" note stays once it came

    def play(self, *anims, **kwargs) -> None:
        """As Manim's, and the "≈" note leaves with the first move after it has been up
        APPROX_HOLD seconds (round 26: it stayed in the header for minutes for a 0.01
        rounding detail): it comes again with the next "≈" number."""
        st = getattr(self, "st", None)
        # (round 35: never with a wait, nor longer than the move: a 1 s fade on a 0.5 s
        # hold ran the depth beat 0.5 s long)
        if st is not None and st.approx is not None and anims \
                and not any(isinstance(m, Wait) for m in anims) \
                and self.time >= getattr(self, "_approx_t", 0.0) + self.APPROX_HOLD:
            a, st.approx = st.approx, None
            rt = kwargs.get("run_time") or max(getattr(m, "run_time", 1.0) for m in anims)
            anims = (*anims, FadeOutPlace(a, run_time=rt))
        super().play(*anims, **kwargs)

    def approx_out(self) -> list:
        """The note leaves with the bars it explains."""
        a, self.st.approx = self.st.approx, None
        return [] if a is None else [a]

    def chart_frame(self) -> VGroup:
        v = self.v
        L = int(v.n_layers)
        right = CHART_X + 0.4 + (L - 1) * self.bar_layout[0] + 0.45
        base = Line([CHART_X, CHART_Y, 0], [right, CHART_Y, 0], color=T.MUTED, stroke_width=2)
        names = v.special_tokens.values
        head = txt("share of the row on", LAB)
        keys = VGroup()
        # a decoder's first token named as such ("At, the first token")
        first = ", the first token" if str(v.sink_kind) == "first" else ""
        for i, n in enumerate(names):
            sw = Rectangle(width=0.24, height=0.24, stroke_width=0).set_fill(shade(i), 1.0)
            keys.add(VGroup(sw, txt(as_written(n) + first, LAB)).arrange(RIGHT, buff=0.08))
        keys.arrange(RIGHT, buff=0.25)
        top = VGroup(head, keys).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        top.next_to([CHART_X, CHART_Y + BAR_H + 0.15, 0], UP + RIGHT, buff=0)
        if self.dense:
            # clear of the highest number (round 37: a decoder's 0.96 on the key); "layer"
            # under the lowest row of layer numbers
            reach = max(m.get_top()[1] for nums, _ in self.dense_marks.values()
                        for m in nums) + 0.12
            top.shift(UP * max(0.0, reach - top.get_bottom()[1]))
            low = min(m.get_bottom()[1] for m in self.dense_ticks.values())
            xname = txt("layer", LAB).next_to([base.get_center()[0], low, 0], DOWN, buff=0.1)
            return VGroup(top, base, xname, self.y_axis())
        reach = CHART_Y + max(sum(part_heights(lay)) for lay in v.layers) + 0.08 \
            + txt("0.00", VAL, mono=True).height + 0.1
        top.shift(UP * max(0.0, reach - top.get_bottom()[1]))
        xname = txt("layer", LAB).next_to(base, DOWN, buff=0.5)
        return VGroup(top, base, xname)

    @property
    def axis_x(self) -> float:
        """Where a dense chart's share axis stands: just left of the first bar."""
        return CHART_X + 0.4 - self.bar_layout[0] - 0.05

    def y_axis(self) -> VGroup:
        """A dense chart's share axis (round 37e: its numbers sit on lines at the heights
        where they fit, and "0.01" stood above "0.06": the axis gives the scale): a line from
        0 to 1 left of the first bar, ticks at 0.5 and 1, their numbers left of it."""
        x = self.axis_x
        g = VGroup(Line([x, CHART_Y, 0], [x, CHART_Y + BAR_H, 0], color=T.MUTED,
                        stroke_width=2))
        for v_ in (0.5, 1):
            y = CHART_Y + BAR_H * v_
            g.add(Line([x - 0.08, y, 0], [x, y, 0], color=T.MUTED, stroke_width=2))
            g.add(txt(f"{v_:g}", LAB, T.TEXT).next_to([x - 0.08, y, 0], LEFT, buff=0.06))
        return g

    # --- stage -----------------------------------------------------------------------------
    def clear_extra(self, t: float = 0.6) -> None:
        st = self.st
        gone = st.extra + ([st.block] if st.block is not None else [])
        if gone:
            self.play(FadeOutPlace(VGroup(*gone)), run_time=t)
        st.extra, st.block = [], None

    def ensure_arcs(self, l: int) -> None:
        """The token row, note, counter, arcs and weights of layer l, drawn at once if absent
        (a beat shown without the ones before it)."""
        st = self.st
        if st.tokens is None:
            st.tokens = self.token_row()
            st.note = VGroup(*self.note()[1:])     # its second page (the first was read)
            self.add(st.tokens, st.note)
        if st.arcs is None:
            lay = self.v.layers[l]
            st.arcs, st.nums, st.counter = self.arcs(lay.row), self.weights(lay.row), \
                self.counter(lay.layer)
            st.layer = l
            self.add(st.arcs, st.nums, st.counter)

    def ensure_chart(self, upto: int) -> None:
        st = self.st
        if st.chart is None:
            st.chart = self.chart_frame()
            self.add(st.chart)
        for l in range(upto + 1):
            if l not in st.bars:
                st.bars[l] = self.bar(l)
                self.add(st.bars[l])
                for a in self.approx_in(st.bars[l].val):
                    self.add(a.mobject)

    def counter_to(self, new: VGroup) -> list:
        """The header changes layer: its words stay, its layer digit and X^(l) roll in place
        (an odometer: never a moment with the index missing, digits do not morph)."""
        old = self.st.counter
        if old is None or len(old) != 4 or len(new) != 4:
            return roll(VGroup() if old is None else old, new)
        # X^(l) rolls out before X^(l+1) rolls in (overlapping, the new superscript passed
        # the old X's foot and read as a subscript)
        return [Transform(old[0], new[0]), Transform(old[2], new[2]),
                *tick(old[1], new[1], 0.35, 0.3), *tick(old[3], new[3], 0.35, 0.3)]

    def header_to(self, l: int, t: float) -> None:
        """The header alone goes to layer l (before what that layer does is drawn)."""
        new = self.counter(self.v.layers[l].layer)
        self.play(*self.counter_to(new), run_time=t)
        self.remove(self.st.counter)
        self.add(new)
        self.st.counter = new

    def show_row(self, row, counter: VGroup, t: float, extra=()) -> None:
        """The arcs, weights and counter replaced by another row's (each Num keeps its path):
        the arcs reshape, the numbers roll (digits do not morph)."""
        st = self.st
        arcs, nums = self.arcs(row), self.weights(row)
        moves = [] if counter is st.counter else self.counter_to(counter)
        qk, self._qk_out = (getattr(self, "_qk_out", None) or []), None
        extra = [*extra, *qk]
        self.play(ReplacementTransform(st.arcs, arcs), *roll(st.nums, nums), *moves, *extra,
                  run_time=t)
        self.remove(st.nums, st.counter)
        self.add(nums, counter)
        st.arcs, st.nums, st.counter, st.layer = arcs, nums, counter, None

    def show_layer(self, l: int, t: float, bar: bool = False, extra=(),
                   keep_header: bool = False) -> None:
        lay = self.v.layers[l]
        extra = list(extra)
        if bar and l not in self.st.bars:
            b = self.st.bars[l] = self.bar(l)
            extra += self.grow_bar(b)
        header = self.st.counter if keep_header else self.counter(lay.layer)
        self.show_row(lay.row, header, t, extra)
        self.st.layer = l

    # --- the query/key block of one layer, and an X chip fed into it ------------------------
    def qk_block(self, layer) -> VGroup:
        """Layer l's own W_Q^(l), W_K^(l) as a block above the arcs (clear of the note)."""
        tl = int(layer)
        wqk = math(f"{sup('W_(display(Q))', tl)}, {sup('W_(display(K))', tl)}", T.TYPE.math)
        box = RoundedRectangle(width=wqk.width + 0.5, height=wqk.height + 0.35,
                               corner_radius=0.12, color=T.TEXT, stroke_width=3)
        box.move_to([*BLOCK_AT, 0])
        wqk.move_to(box)
        own = line(txt("query, key matrices of layer", LAB), Num(layer, decimals=0, size=LAB))
        own.next_to(box, UP, buff=0.1)
        block = VGroup(box, wqk, own)
        block.box = box
        block.shift(self.clear_of_note(block))
        note = self.st.note
        if note is not None and overlaps(own, note):
            # a long note (a word of several tokens) leaves no room for the words above the
            # block: show less, not smaller; W_Q^(l), W_K^(l) in the box still say it
            block.remove(own)
        return block

    def wx_label(self, layer, state: int) -> VGroup:
        """Under a fair-test bar: whose query and key matrices (W^(l), as the block's
        W_Q^(l), W_K^(l)) were fed which X: W^(l) over X^(state)."""
        w = math(sup("W", int(layer)), X_SIZE, T.TEXT)
        return VGroup(w, math(sup("X", state), X_SIZE, T.X)).arrange(DOWN, buff=0.08)

    def chip(self, state: int, box) -> VGroup:
        """X^(state) in a solid frame, left of the block: the input under test."""
        x = math(sup("X", state), T.TYPE.math, T.X).scale(1.25)
        fr = SurroundingRectangle(x, color=T.X, buff=0.14, stroke_width=4)
        fr.set_fill(T.BACKGROUND, 1.0)
        # r34 (r33b: its foot on the arcs' label under the block): level with the block's top
        return VGroup(fr, x).next_to(box, LEFT, buff=1.2).align_to(box, UP)

    SCORE_T = 0.85              # bank's query meeting the keys (score lines), of a feed's time

    def feed(self, state: int, box, t: float, then, rise: bool = False, extra=(),
             split=(0.25, 0.18, 0.12, 0.15, 0.3), chip=None, row=None, with_x=()) -> None:
        """The chip comes in (with `extra` alongside), moves into the block; a dot leaves the
        block for the focus word, and `then(run_time)` re-forms the arcs as it lands; `with_x`:
        played as the chip X^(state) itself appears (round 35: the header's "layer 1 reads
        X^(1)" rolled while layer 0's vectors were still rising); `split`:
        each step's share of `t`. `rise`: the chip comes out of the focus word (the layer
        before's output, the model's own X) and enters the block from below; else it comes in
        from the left (an input chosen by the test)."""
        c = self.chip(state, box) if chip is None else chip
        if row is not None:             # the score lines' time comes out of the feed's
            t = max(0.8, t - self.SCORE_T)
        come, into, fade, go, land = (max(0.15, f * t) for f in split)
        if chip is not None:            # already on screen (built there): it moves in
            # from below, to the block's foot, as a rising X^(l) does (round 31: to its left
            # side it slid through the W_Q, W_K written in the box)
            self.play(c.animate.next_to(box, DOWN, buff=0.06), *extra, *with_x,
                      run_time=come + into)
        elif rise and len(self.v.layers) > 1 and state != int(self.v.layers[1].layer):
            # round 31 (the same glyph redrawn at every layer, its values never shown): the
            # token columns are drawn once, at layer 1, where "every token's X is new" is said;
            # later layers' X^(l) comes up out of the token row (the layer below's output)
            # into the block, keys still going out to every token
            c.next_to(box, DOWN, buff=0.06)
            at = c.get_center().copy()
            c.move_to([self.focus_x(), max(m.get_top()[1] for m in self.st.label.values())
                       + 0.3 + c.height / 2, 0])
            self.play(FadeIn(c, shift=UP * 0.2), *extra, *with_x, run_time=come)
            self.play(c.animate.move_to(at), run_time=into)
        elif rise:
            # every token's X is new (not bank's alone): a vector rises out of each token
            # (the opening's columns) and they gather under the block as X^(l)
            c.next_to(box, DOWN, buff=0.06)
            # round 31 (drawn over the arcs, and just like X^(0)'s): above the arcs, the old
            # X a grey ghost beside each token's new one, which grows in X's colour
            # round 32 (tiny grey ghosts beside blue columns read as clutter): one column
            # per token, at the opening's X^(0) size, growing out of it; then they gather,
            # as one group, into the X^(l) chip
            # round 33: standing on the tokens, as the opening's X^(0) (over the arcs, dimmed
            # to a trace: above them they ran through the block)
            t0 = self.time
            planned = t0 + come + into
            cols = self.x_columns(cells=4, height=0.2)
            self.play(LaggedStart(*[GrowFromEdge(k, DOWN) for k in cols], lag_ratio=0.05),
                      *extra, run_time=max(0.8, come - 2.2))
            # round 33 ("every token's X is new" was only a relabel): "the layer before added
            # its updates to it": on every column an update cell (attention's colour, then the
            # FFN's) drops in and is added, the column's cells changing as it lands; a label
            # says what they are
            if self.says("updates"):
                self.hold_until(min(self.when_said("updates", self.time) - 0.5,
                                    planned - 3.2))
            before = next(ly.layer for ly in self.v.layers if int(ly.layer) == int(state) - 1)
            # round 33 (both reviews: "FFN" on screen a minute before it was said): the
            # words the voice says here
            lab = line(txt("+ layer", LAB), Num(before, decimals=0, size=LAB),
                       txt("'s updates:", LAB), txt("attention", LAB, T.ATTN), txt("and", LAB),
                       txt("feed-forward", LAB, T.FFN))
            lab[2].shift(LEFT * (SPACE - 0.02))
            # between the columns and the block (under it), from the diagram's left edge
            lab.next_to(cols, UP, buff=0.2).align_to([DIAG_LEFT, 0, 0], LEFT)
            if lab.get_top()[1] > box.get_bottom()[1] - 0.08 \
                    and lab.get_right()[0] > box.get_left()[0] - 0.2:
                lab.scale(max(0.8, (box.get_bottom()[1] - 0.08 - cols.get_top()[1] - 0.1)
                              / lab.height), about_edge=LEFT)
                lab.next_to(cols, UP, buff=0.1).align_to([DIAG_LEFT, 0, 0], LEFT)
            self.play(FadeIn(lab, shift=DOWN * 0.15), run_time=0.4)
            # round 33 (both reviews: caps a few pixels tall, stacked on top, read as
            # appending): each update is a whole column in its colour, as tall as the
            # token's, that comes down onto it and is added into its cells (they take its
            # tint and change), not put on top
            # r34b (r34: the add read as a recolour only): each update comes in beside its
            # column with a "+" between them ("X + update"), then slides into the column,
            # whose cells change as it merges
            for n_c, col_ in enumerate((T.ATTN, T.FFN)):
                ups = VGroup(*[k.copy().set_fill(col_, 0.55).set_stroke(col_, opacity=1)
                               .shift(RIGHT * 0.46) for k in cols])
                pluses = VGroup(*[txt("+", LAB).move_to([k.get_center()[0] + 0.25,
                                                         k.get_center()[1], 0]) for k in cols])
                pairs = [VGroup(p_, u) for p_, u in zip(pluses, ups)]
                self.play(LaggedStart(*[FadeIn(g_, shift=DOWN * 0.2) for g_ in pairs],
                                      lag_ratio=0.04), run_time=0.5)
                self.play(*[u.animate.move_to(k).set_opacity(0) for u, k in zip(ups, cols)],
                          *[p_.animate.move_to(k).set_opacity(0) for p_, k in zip(pluses, cols)],
                          *[k[i_].animate(rate_func=squish_rate_func(smooth, 0.4, 1))
                            .set_fill(T.X, 0.2 + 0.15 * ((i_ + j_ + n_c) % 4))
                            for j_, k in enumerate(cols) for i_ in range(len(k))], run_time=0.6)
                self.remove(*pairs, ups, pluses)
            into = max(0.8, planned - self.time)
            # (round 35: it faded while the columns flew through it) gone first
            st_extra_out = [FadeOutPlace(lab, rate_func=squish_rate_func(smooth, 0, 0.3))]
            self.play(cols.animate.move_to(c).scale(0.3).set_opacity(0), *st_extra_out,
                      FadeIn(c, scale=0.6, rate_func=squish_rate_func(smooth, 0.5, 1)),
                      *with_x, run_time=max(into, 0.8))
            with_x = ()
            self.remove(cols)
        else:
            self.play(FadeInPlace(c), *extra, *with_x, run_time=come)
            self.play(c.animate.next_to(box, LEFT, buff=0.06).align_to(box, UP), run_time=into)
        # round 33 (it faded beside the block): it goes into the block's lower edge as it
        # fades (to its centre it crossed the W_Q, W_K written there)
        self.play(c.animate.move_to(box.get_bottom()).scale(0.6).set_opacity(0),
                  box.animate.set_stroke(T.X),
                  run_time=max(fade, 0.35))
        self.remove(c)
        # out of the block: bank's query (Q's yellow) to bank, a key (K's teal) to every
        # token: the keys are made from the new X too
        st = self.st
        arc_top = max(m.get_top()[1] for m in st.label.values()) + 0.08
        dots = [Dot(box.get_bottom(), radius=0.09, color=T.Q).set_z_index(3)]
        ends = [[self.focus_x(), arc_top, 0]]
        key_js = [j for j in st.xs if j not in self.v.focus.values]
        for j in key_js:
            # r33: in X's blue (K's teal read as another X, near the [CLS] green)
            dots.append(Dot(box.get_bottom(), radius=0.07, color=T.X).set_z_index(3))
            ends.append([st.xs[j], arc_top, 0])
        if row is None:
            self.play(*[d.animate.move_to(e) for d, e in zip(dots, ends)],
                      box.animate.set_stroke(T.TEXT), run_time=go)
            self.remove(*dots)
            then(land)
            return
        # round 33 (both reviews: unlabelled dots, the new arcs just replacing the old): the
        # dots are named as they land (bank's query, each token's key); the old arcs leave;
        # bank's query meets every key (a thin score line from bank out to each key); the
        # new weights' arcs grow out of those lines (they reshape as the row lands)
        y_l = arc_top + 0.5          # r34 (r33y: the names sat on the dots): lifted clear
        q_lab = txt(f"{self.v.word}'s query", LAB, T.Q).move_to([self.focus_x(), y_l, 0])
        if q_lab.get_right()[0] > DIAG_RIGHT:
            q_lab.shift(LEFT * (q_lab.get_right()[0] - DIAG_RIGHT))
        left_x = [st.xs[j] for j in key_js if st.xs[j] < self.focus_x() - 0.6]
        k_lab = txt("each token's key (made from X)", LAB, T.X)   # r34b: X's colour, said
        k_lab.move_to([(min(left_x) + max(left_x)) / 2 if left_x else DIAG_LEFT + 1.2, y_l, 0])
        if k_lab.get_left()[0] < DIAG_LEFT:
            k_lab.shift(RIGHT * (DIAG_LEFT - k_lab.get_left()[0]))
        if k_lab.get_right()[0] > q_lab.get_left()[0] - 0.3:
            k_lab.shift(LEFT * (k_lab.get_right()[0] - q_lab.get_left()[0] + 0.3))
        old = [st.arcs.animate.set_stroke(opacity=0)] if st.arcs is not None else []
        self.play(*[d.animate.move_to(e) for d, e in zip(dots, ends)],
                  box.animate.set_stroke(T.TEXT), *old,
                  FadeIn(q_lab, rate_func=squish_rate_func(smooth, 0.4, 1)),
                  FadeIn(k_lab, rate_func=squish_rate_func(smooth, 0.4, 1)),
                  run_time=max(go, 0.4))
        lines = self.arcs(row)
        for a in lines:
            a.set_stroke(T.Q, width=2.5, opacity=0.9)
        # the names read, they leave as the lines grow (the lines would run through them)
        self.wait(0.25)
        self.play(LaggedStart(*[Create(a) for a in lines], lag_ratio=0.06),
                  FadeOutPlace(VGroup(q_lab, k_lab), rate_func=squish_rate_func(smooth, 0, 0.4)),
                  run_time=self.SCORE_T - 0.25)
        if st.arcs is not None:
            self.remove(st.arcs)
        st.arcs = lines
        self._qk_out = [FadeOutPlace(VGroup(*dots))]
        then(land)
        if getattr(self, "_qk_out", None):          # `then` did not reshape the arcs
            self.play(*self._qk_out, run_time=0.3)
            self._qk_out = None

    def x_columns(self, cells: int = 5, height: float = 0.16, foot: float | None = None,
                  dx: float = 0.0, ghost: bool = False) -> VGroup:
        """A vector per token: a small column of cells (X's colour, no values: a shape, not
        data) standing on each drawn token (`foot`: its base's y, else just over the labels;
        `dx`: beside the token; `ghost`: grey and faint, the old X)."""
        cols = VGroup()
        if foot is None:
            foot = max(m.get_top()[1] for m in self.st.label.values()) + 0.3
        col, fill = (T.MUTED, 0.08) if ghost else (T.X, 0.35)
        for j, x0 in self.st.xs.items():
            x = x0 + dx
            k = VGroup(*[Rectangle(width=0.22, height=height, stroke_width=1.5,
                                   color=col).set_fill(col, fill) for _ in range(cells)])
            k.arrange(UP, buff=0)
            k.move_to([x, foot, 0], aligned_edge=DOWN)      # on one line, not on each label
            cols.add(k)
        return cols

    def build_x(self, layer0, tl: int, block, t_att: float, t_ffn: float):
        """X^(tl) made from X^(l0), drawn as it is said in the arcs' place under the block
        (the arcs are hidden meanwhile; round 27: drawn upright at the frame's left edge it
        was crammed beside the block and the bars), at the label size: the X^(l0) chip at
        the left of a stream going right; at each of two adds the stream branches (the branch
        goes up into layer l0's attention box, then into its FFN box, and the box's update
        comes back down into the +) while the stream itself goes straight on to the + (the
        skip path), a norm after each +; the X^(tl) chip comes out right of the last norm.
        Returns (the drawing, the X^(tl) chip)."""
        st = self.st
        box = block.box
        S = -0.8                                       # the stream's y (clear of the tokens)
        yb = min(S + 0.85, box.get_bottom()[1] - 0.5)  # the two boxes' centre y
        x0 = self.chip(int(layer0), box).scale(0.85)
        x0.move_to([DIAG_LEFT + x0.width / 2, S, 0])
        adds, norms, sides = VGroup(), VGroup(), VGroup()
        branch_pts = []
        cursor = x0.get_right()[0]
        # round 33: named as the voice names it (the depth beat said "feed-forward")
        ffn = "feed-forward" if self.says("feed-forward update") else "FFN"
        for k, (name, col) in enumerate(zip(("attention", ffn), (T.ATTN, T.FFN))):
            bx = cursor + 0.22
            lab = VGroup(line(txt("layer", LAB), Num(layer0, decimals=0, size=LAB)),
                         txt(name, LAB, col)).arrange(DOWN, buff=0.06)
            fr = RoundedRectangle(width=max(lab.width + 0.24, 1.3), height=lab.height + 0.18,
                                  corner_radius=0.08, color=col, stroke_width=3)
            fr.set_fill(T.BACKGROUND, 1.0)
            side = VGroup(fr, lab.move_to(fr))
            side.move_to([bx + 0.18 + side.width / 2, yb, 0])
            # r34 (r33b: scaled to fit, its labels ~11 px, X^(1) touching the last norm and
            # the bars): the + under the box's right end (its update straight down into it),
            # so the diagram fits at the label size
            ax = side.get_right()[0] - 0.3
            c = VGroup(Circle(radius=0.17, color=T.TEXT, stroke_width=3),
                       txt("+", LAB)).move_to([ax, S, 0])
            c[1].move_to(c[0])
            adds.add(c)
            nm = txt("norm", LAB, T.LN)
            nb = RoundedRectangle(width=nm.width + 0.24, height=nm.height + 0.16,
                                  corner_radius=0.06, color=T.LN, stroke_width=2.5)
            nb.set_fill(T.BACKGROUND, 1.0)
            nrm = VGroup(nb, nm.move_to(nb))
            nrm.move_to([c.get_right()[0] + 0.14 + nrm.width / 2, S, 0])
            norms.add(nrm)
            # the branch: up off the stream, right into the box; the box's update back down
            # into the +
            bp = [bx, S, 0]
            branch = VGroup(Line(bp, [bx, yb, 0], color=T.X, stroke_width=3),
                            Arrow([bx, yb, 0], side.get_left(), buff=0, color=T.X,
                                  stroke_width=3, tip_length=0.12,
                                  max_tip_length_to_length_ratio=0.6))
            out = Arrow([ax, side.get_bottom()[1], 0], c.get_top(), buff=0.04, color=col,
                        stroke_width=3, tip_length=0.14, max_tip_length_to_length_ratio=0.5)
            sides.add(VGroup(side, branch, out))
            branch_pts.append(bp)
            cursor = nrm.get_right()[0]
        x1 = self.chip(tl, box).scale(0.85)
        x1.move_to([cursor + 0.3 + x1.width / 2, S, 0])
        segs = [Line(x0.get_right(), adds[0].get_left(), color=T.X, stroke_width=3),
                Line(adds[0].get_right(), norms[0].get_left(), color=T.X, stroke_width=3),
                Line(norms[0].get_right(), adds[1].get_left(), color=T.X, stroke_width=3),
                Line(adds[1].get_right(), norms[1].get_left(), color=T.X, stroke_width=3),
                Line(norms[1].get_right(), x1.get_left(), color=T.X, stroke_width=3)]
        path = VGroup(*segs)
        # within the diagram's band (a longer layer number: a little smaller, never wider)
        whole = VGroup(x0, path, adds, norms, sides, x1)
        room = DIAG_RIGHT - DIAG_LEFT - 0.2       # r34: clear of the bars on its right
        if whole.width > room:
            f = room / whole.width
            whole.scale(f, about_point=[DIAG_LEFT, S, 0])
            branch_pts = [[DIAG_LEFT + (p[0] - DIAG_LEFT) * f, S, 0] for p in branch_pts]
        # "X of layer 0": its chip comes in at the left, the stream and the two add-and-norm
        # steps drawn right from it
        dim = [st.arcs.animate.set_stroke(opacity=0.12)] if st.arcs is not None \
            and max(a.get_stroke_opacity() for a in st.arcs) > 0.12 else []
        self.play(FadeIn(x0, shift=RIGHT * 0.6), *dim, run_time=0.6)
        self.play(Create(path), FadeInPlace(adds), FadeInPlace(norms),
                  run_time=max(0.6, min(2.6, t_att - 0.8 - self.time)))
        # "plus layer 0's attention update", "then its FFN update": the box and its branch
        # come; the stream's dot splits at the branch: one goes up through the box and comes
        # back down as the update, one goes straight on (the skip); they meet in the +
        pos = x0.get_right()
        for k, t_k in enumerate((t_att, t_ffn)):
            self.hold_until(t_k - 0.9)
            self.play(FadeInPlace(sides[k]), run_time=0.4)
            col = (T.ATTN, T.FFN)[k]
            side, branch, out = sides[k]
            d = Dot(pos, radius=0.08, color=T.X)
            self.play(d.animate.move_to(branch_pts[k]), run_time=0.3)
            d_up = Dot(branch_pts[k], radius=0.08, color=T.X)
            self.play(Succession(d_up.animate(run_time=0.25).move_to(branch[0].get_end()),
                                 d_up.animate(run_time=0.2).move_to(side.get_left())),
                      d.animate(rate_func=squish_rate_func(smooth, 0.0, 0.5)).move_to(
                          adds[k].get_left()),
                      side[0].animate(rate_func=squish_rate_func(there_and_back, 0.6, 1.0))
                      .set_stroke(T.POINTER, width=4), run_time=0.55)
            d_up.set_color(col).move_to(out.get_start())   # the update leaves the box (its foot)
            self.play(d_up.animate.move_to(adds[k]), d.animate.move_to(adds[k]), run_time=0.4)
            self.play(FadeOutPlace(VGroup(d_up, d)),
                      adds[k][0].animate(rate_func=there_and_back).set_stroke(T.POINTER,
                                                                              width=4),
                      run_time=0.4)
            pos = norms[k].get_right()
        # "normalised after each add": the two norms light up; then the stream comes out
        # right of the last norm as X^(1)
        t_norm = self.when_said("normalised", self.time)
        self.hold_until(t_norm - 0.3)
        self.play(*[n[0].animate(rate_func=there_and_back).set_stroke(T.POINTER, width=4)
                    for n in norms], run_time=0.6)
        d = Dot(norms[1].get_right(), radius=0.08, color=T.X)
        self.play(d.animate.move_to(x1.get_left()), run_time=0.3)
        self.remove(d)
        self.play(FadeIn(x1, shift=RIGHT * 0.2, scale=0.6), run_time=0.4)
        return VGroup(x0, path, adds, norms, sides), x1

    def swap_input(self, old, new, t: float) -> None:
        """The input slot: the old X drops out below, the new one drops in from above."""
        new.shift(UP * 0.45)
        self.play(old.animate.shift(DOWN * 0.45).set_opacity(0), FadeInPlace(new),
                  run_time=t / 2)
        self.remove(old)
        self.play(new.animate.shift(DOWN * 0.45), run_time=t / 2)

    def mark(self, i: int, n: int) -> float:
        """When step group i of n starts: narration cue i when the beat is voiced, else the
        beat split evenly (a silent plan has no cues; the picture still keeps moving)."""
        if self.beat.get("cues"):
            return self.cue_at(i)
        return self.beat_start + self.beat_end(self.beat) * min(i, n) / n

    def at_cue(self, i: int, n: int) -> None:
        self.hold_until(self.mark(i, n))

    def point_below(self, m, run_time: float) -> None:
        """A short arrow flicks up to a number of the token row from below (from the side it
        would cover its neighbour's number; below is clear down to the caption)."""
        end = m.get_bottom() + DOWN * 0.06
        arrow = Arrow(end + DOWN * 0.5, end, buff=0, color=T.POINTER, stroke_width=5,
                      tip_length=0.18, max_tip_length_to_length_ratio=0.5)
        self.play(Succession(Create(arrow, run_time=0.2 * run_time), Wait(0.6 * run_time),
                             Uncreate(arrow, run_time=0.2 * run_time)), run_time=run_time)
        self.remove(arrow)

    def flash(self, *arcs, run_time: float) -> None:
        """Arcs light up and settle back: 'these' for arcs (a box round a curve would cut
        the tokens and numbers under it)."""
        self.play(*[a.animate(rate_func=there_and_back).set_stroke(T.POINTER) for a in arcs],
                  run_time=run_time)

    def centre_panel(self, g, grow: float = 1.2, room: float = 4.5) -> None:
        """A summary panel alone on the stage: larger (at most `room` tall), in its middle,
        between the header and the caption."""
        g.scale(min(grow, room / g.height))
        g.move_to([0, -0.15, 0])

    def light(self, *groups, run_time: float) -> None:
        """Bars with their numbers (VGroup(bars, number)) light up and settle back: a white
        outline is drawn tight round each bar (its [CLS] and [SEP] colours kept: round 26, a
        white fill erased them and nearly matched the pale [SEP]) and fades, the number
        pulses (a box round a bar and its number cut through the number and the label under
        the bar)."""
        anims, rings = [], []
        for g in groups:
            # (round 37: a bar of 0.01, SmolLM2's layer 11, is outlined whole)
            parts = [r for r in g[0].family_members_with_points() if r.get_height() > 0.02] \
                or g[0].family_members_with_points()
            if not parts:
                continue
            ring = SurroundingRectangle(VGroup(*parts), buff=0.025, color=T.POINTER,
                                        stroke_width=3.5)
            ring.set_z_index(4)
            rings.append(ring)
            anims.append(Succession(Wait(0.12 * run_time), Create(ring, run_time=0.25 * run_time),
                                    Wait(0.23 * run_time),
                                    ring.animate(run_time=0.28 * run_time).set_stroke(
                                        opacity=0), Wait(0.12 * run_time)))
            # the number rises a little off the outline as it pulses (round 26: the pulse
            # grew it onto the outline's top)
            # r34b (r34: the outline drawn cut the 0.47 above it): the number is up before
            # the outline reaches it, and comes down after it has faded
            anims += [m.animate(rate_func=lift).scale(1.12, about_edge=DOWN)
                      .shift(UP * 0.1) for m in g[1:]]
        self.play(*anims, run_time=run_time)
        self.remove(*rings)

    # --- beats -----------------------------------------------------------------------------
    def centre_diagram(self, dx: float) -> None:
        """The diagram's band and its columns shifted right by `dx` (the arcs beat's start)."""
        global DIAG_LEFT, DIAG_RIGHT
        DIAG_LEFT, DIAG_RIGHT = DIAG_LEFT + dx, DIAG_RIGHT + dx
        self.col_x = [x + dx for x in self.col_x]
        self.st.xs = {j: x + dx for j, x in self.st.xs.items()}
        self._centred += dx

    def uncentre(self, t: float) -> None:
        """The centred diagram slides back to its band (left of the chart), all of it at once."""
        dx = self._centred
        st = self.st
        on = [m for m in (st.tokens, st.arcs, st.nums, st.counter, st.note, *st.extra)
              if m is not None]
        self.centre_diagram(-dx)
        self._centred = 0.0
        if on:
            self.play(VGroup(*on).animate.shift(LEFT * dx), run_time=t)

    def beat_arcs(self, beat) -> None:
        v, st = self.v, self.st
        self.clear_extra()
        lay = v.layers[0]
        n = 6
        if st.arcs is not None:
            self.play(FadeOutPlace(VGroup(st.arcs, st.nums, st.counter)), run_time=0.6)
        fresh = st.tokens is None
        # r34b (r34: the right half empty for 34 s): the diagram (its band, the tokens, the
        # header and note over them) is centred on the stage until the chart comes; then it
        # all slides left to its place (`uncentre`)
        self._centred = 0.0
        if fresh and st.chart is None:
            self.centre_diagram(-(DIAG_LEFT + DIAG_RIGHT) / 2)
        if fresh:
            st.tokens = self.token_row()
        if st.note is None:             # shown after `depth` (which took the note away)
            st.note = self.note()
        st.arcs, st.nums, st.counter = self.arcs(lay.row), self.weights(lay.row), \
            self.counter(lay.layer)
        if fresh:
            # "In MiniLM, a 6-layer encoder whose last layer is layer 5": the tokens come in
            # with the model's name and layers at the top right, which lights up at "encoder";
            # then the header "layer 0 reads X^(0)" as it is said
            named = self.when_said("encoder", -1.0, after=self.time) < self.cue_at(1)
            model = line(txt(f"{str(v.model).split('-')[0]}: layers", LAB, T.MUTED),
                         Num(v.layers[0].layer, decimals=0, size=LAB, color=T.MUTED),
                         txt("to", LAB, T.MUTED),
                         Num(v.deep.layer, decimals=0, size=LAB, color=T.MUTED))
            model.move_to([0, TOP_Y, 0]).align_to([7.11 - T.EDGE, 0, 0], RIGHT)
            if None in st.cols and self.says("this sentence"):
                self.sentence_fold([FadeInPlace(model)] if named else [])
            else:
                self.play(LaggedStart(*[FadeIn(m, shift=UP * 0.15) for m in st.tokens],
                                      lag_ratio=0.12),
                          *([FadeInPlace(model)] if named else []), run_time=1.6)
            if named:
                st.model = model
                t_enc = self.when_said("encoder", self.time)
                t_l0 = self.when_said(f"layer {int(lay.layer)} reads", t_enc + 2.0)
                self.hold_until(t_enc - 0.3)
                self.play(Indicate(model, color=T.POINTER, scale_factor=1.08),
                          run_time=max(0.8, min(1.6, t_l0 - 0.5 - self.time)))
                self.hold_until(t_l0 - 0.3)
            self.play(FadeInPlace(st.counter), run_time=0.6)
        else:
            self.play(FadeInPlace(st.counter), run_time=0.5)
        # "X of layer 0, the tokens' vectors": X^(0) in the header and the token row boxed
        t_vec = self.when_said("tokens' vectors", self.time, after=self.time)
        t_mark = self.when_said("start mark", self.time, after=self.time)
        if t_mark - t_vec > 1.0 and t_vec < self.cue_at(1):
            # a vector per token: a small column of cells (X's colour, no values: a shape,
            # not data) grows up out of each token, the header's X^(0) and the columns
            # boxed together, then the columns sink back into their tokens
            # (tall, with what they are written over them: the stage's middle is theirs
            # until the keys are made from them; round 25: the top empty, the vectors unused)
            cols_v = self.x_columns(cells=8, height=0.2)
            v_lab = line(math(sup("X", int(lay.layer)), X_SIZE, T.X),
                         txt(": one vector per token (drawn, not its values)", LAB, T.MUTED))
            v_lab[1].shift(LEFT * (SPACE - 0.03))
            v_lab.move_to([(DIAG_LEFT + DIAG_RIGHT) / 2, cols_v.get_top()[1] + 0.4, 0])
            self.hold_until(t_vec - 0.4)
            self.play(LaggedStart(*[GrowFromEdge(c, DOWN) for c in cols_v], lag_ratio=0.06),
                      FadeInPlace(v_lab), run_time=0.9)
            self.emphasize(st.counter[-1], cols_v, buff=0.08,
                           run_time=max(0.6, min(1.6, t_mark - 0.9 - self.time)))
        else:
            cols_v = None
        # "... from the start mark CLS to the end mark SEP": each special token boxed as named
        for phrase, j in zip(("start mark", "end mark"), v.special.values):
            t_m = self.when_said(phrase, self.time, after=self.time)
            if j in st.label and t_m < self.cue_at(1) - 1.0:
                self.hold_until(t_m - 0.1)
                self.emphasize(st.label[j], buff=0.08,
                               run_time=max(0.6, min(1.4, self.cue_at(1) - 0.2 - self.time)))
        # "In each of its 12 heads, bank's query is scored against every token's key, and a
        # softmax turns the scores into a row of weights, as per_head showed": the note's first
        # line (that formula) as it is said; a q under bank, a k under every other token (the
        # weights' row is still empty); a dot rides from bank to every token (one score per
        # key); the formula ringed at "softmax"; the q and k leave before the arcs come
        H = int(v.n_heads)
        hid = v.deep.heads             # the heads' numbers (plan values)
        ticks = [j for j in (int(v.special[0]), int(lay.top_word.pos)) if j in st.xs]
        kk = [j for j in st.xs if j not in v.focus.values]
        pair = []
        for j in ticks[::-1]:           # the word's head first, then [CLS]'s (as said)
            h_j = max(range(H), key=lambda h: float(lay.heads[h][j]))
            # round 37 (a draft's head 8 drawn, never said): only a head the voice names
            if h_j not in [p_[0] for p_ in pair] and self.says(f"head {int(hid[h_j])} "):
                pair.append((h_j, j))
        named_h = [p_[0] for p_ in pair]
        # the head shown first: the one the plan works through, else the first not named
        worked_h = [] if isinstance(v.worked, Value) else [int(v.worked.head)]
        intro = [(h, None) for h in worked_h + list(range(H)) if h not in named_h][:1]
        # round 32: the schematic score -> softmax step (per_head teaches it; its /√32 and
        # dim labels were found unexplained and brief) only where a draft's voice says it
        # round 35 (both reviews: query · key -> softmax -> weights never shown with numbers):
        # where the voice says it and the plan works one head through (`worked`, the first
        # head not named), that head's row is made on screen from its real scores
        # (`worked_row`); else (a word of several tokens) the schematic
        w_ = v.worked
        work = self.says("softmax") and not isinstance(w_, Value) and bool(intro) \
            and int(w_.head) == intro[0][0] and int(v.n_focus) == 1
        schematic = self.says("softmax") and not work
        formula = st.note[0]
        keys = [j for j in st.xs if j not in v.focus.values]
        pre = None
        if schematic:
            t_q = self.when_said("query", self.mark(1, n))
            keys = [j for j in st.xs if j not in v.focus.values]
            y_tag = ROW_Y - 0.45
            q_tag = txt("q", LAB, T.Q).move_to([self.focus_x() - 0.22, y_tag, 0])
            k_tags = VGroup(*[txt("k", LAB, T.K).move_to([st.xs[j], y_tag, 0]) for j in keys])
            # its own key (the loop's end, last like the loop among the arcs)
            k_tags.add(txt("k", LAB, T.K).move_to([self.focus_x() + 0.22, y_tag, 0]))
            # the vectors stay while the query and keys are made from them: bank's column
            # lights in Q's yellow as its q comes, every column in K's teal as the k's come; then
            # they sink back into their tokens (before the score lines go over them)
            order = list(st.xs)
            q_col = [cols_v[order.index(f)] for f in v.focus.values] if cols_v is not None else []
            k_cols = [cols_v[order.index(j)] for j in keys] + q_col[:1] if cols_v is not None \
                else []
            self.hold_until(self.mark(1, n) - 0.1)
            self.play(FadeInPlace(st.note[0]), run_time=max(1.0, min(2.5, t_q - 0.4 - self.time)))
            self.hold_until(t_q - 0.3)
            self.play(FadeIn(q_tag, shift=DOWN * 0.2),
                      *[c.animate(rate_func=there_and_back).set_fill(T.Q, 0.9) for c in q_col],
                      run_time=0.7)
            t_k = self.when_said("key", t_q + 1.0, after=t_q)
            self.hold_until(t_k - 0.8)
            self.play(LaggedStart(*[FadeIn(k, shift=DOWN * 0.2) for k in k_tags], lag_ratio=0.12),
                      *([LaggedStart(*[c.animate(rate_func=there_and_back).set_fill(T.K, 0.9)
                                       for c in k_cols], lag_ratio=0.12)] if k_cols else []),
                      run_time=0.8)
            if cols_v is not None:
                self.play(*[c.animate.stretch_to_fit_height(0.01, about_edge=DOWN).set_opacity(0)
                            for c in cols_v], FadeOutPlace(v_lab), run_time=0.5)
                self.remove(cols_v)
            # one thin line from bank to every token (a score each), all the same width: the
            # scores are not drawn, only that there is one per key
            paths = VGroup(*[a.set_stroke(T.Q, width=2, opacity=0.8) for a in self.arcs(lay.row)])
            # said on the picture: these equal lines are a schematic, not weights
            mid_x = (DIAG_LEFT + DIAG_RIGHT) / 2
            sch = txt("schematic: one score per key (not weights)", LAB, T.MUTED)
            sch.move_to([mid_x, paths.get_top()[1] + 0.3, 0])
            self.play(LaggedStart(*[Succession(Create(p, run_time=0.7),
                                               Indicate(k, color=T.K, scale_factor=1.3,
                                                        run_time=0.5))
                                    for p, k in zip(paths, k_tags)], lag_ratio=0.15),
                      FadeInPlace(sch), run_time=1.4)
            t_soft = self.when_said("softmax", self.time)
            self.hold_until(t_soft - 0.2)
            # round 31 ("a softmax turns the scores into weights" was said, not shown): at
            # "softmax" the equal score lines morph in place into one head's weights (widths
            # changing), the schematic's label rolling to what they now are
            pre = None
            if intro:
                pre = self.arcs(lay.heads[intro[0][0]])
                sw = line(txt("after the softmax: weights (one head)", LAB, T.MUTED))
                sw.move_to(sch)
                self.emphasize(st.note[0], run_time=1.4, buff=0.04,
                               extra=[ReplacementTransform(paths, pre), *roll(sch, sw)])
                self.remove(sch)
                sch = sw
            else:
                self.emphasize(st.note[0], run_time=1.2, buff=0.04,
                               extra=[paths.animate(rate_func=there_and_back)
                                      .set_stroke(opacity=0.3)])
            # the schematic's tags leave just before the heads' rows come
            t_ph = self.when_said("own row", self.mark(2, n)) - 1.0
            self.hold_until(t_ph)
            gone_tags = VGroup(q_tag, k_tags, sch, *([] if pre is not None else [paths]))
            self.play(FadeOutPlace(gone_tags), run_time=0.6)
        else:
            # the vectors sink back into their tokens before the heads' rows come; the note's
            # formula is not shown (its second page comes at "adds up to")
            st.note = VGroup(*st.note[1:])
            self.hold_until(self.mark(1, n) - 0.6)
            if cols_v is not None:
                self.play(*[c.animate.stretch_to_fit_height(0.01, about_edge=DOWN).set_opacity(0)
                            for c in cols_v], FadeOutPlace(v_lab), run_time=0.6)
                self.remove(cols_v)
        # "Each head has its own row of weights from bank": the 12 heads as a row of their
        # numbers (round 27: twelve 110 px fans had no token axis; show less, larger); "head 2
        # gives river the most, head 11 gives CLS the most": each of the two named heads' own
        # row drawn full size on the token row itself (the tokens its axis), its name over it
        # and its number lit in the row of heads, the arc to that token lit; the name and the
        # arcs change together (one morph); "their mean over the 12 heads, the head-average,
        # is what the arcs show": every head's number travels down into the arcs as they
        # morph into the mean's, the name rolling to "mean of the 12 heads"
        # the heads' strip comes as "its own row" is said; where the voice does not say it (a
        # draft's "in each of its 12 heads, the query ..."), before the worked head's query
        t_q0 = self.when_said("query", self.mark(2, n)) if work else None
        t_rows = self.when_said("own row", t_q0 - 2.8 if work else self.mark(2, n))
        mid_x = (DIAG_LEFT + DIAG_RIGHT) / 2
        y_lab = self.arcs(lay.row).get_top()[1] + 0.32
        dec = int(v.decimals)
        word_j = int(lay.top_word.pos)
        # round 35 (both reviews: the mean named 2 of the 12 heads): the heads' numbers are
        # a table's head row, each head's weight on the word written under its number at
        # "their mean" (all 12), so the mean is seen taken over all of them
        has_tab = word_j in st.label
        on_word = VGroup(*[Num(lay.heads[h][word_j], decimals=dec, size=LAB, color=T.WEIGHTS)
                           for h in range(H)])
        pitch = max(m.width for m in on_word) + 0.2
        chips = VGroup(*[Num(hid[h], decimals=0, size=LAB, color=T.TEXT).set_x(h * pitch)
                         for h in range(H)])
        heads_lab = line(txt("its", LAB, T.MUTED), Num(v.n_heads, decimals=0, size=LAB,
                                                       color=T.MUTED),
                         txt("heads:", LAB, T.MUTED))
        for m, c in zip(on_word, chips):
            m.move_to([c.get_x(), c.get_y() - 0.52, 0])
        # round 39 ("on the:" with two "the"s drawn): a word drawn twice named by the next
        tw = as_written(str(lay.top_word.token))
        drawn = [as_written(str(v.tokens.values[j])) for j in st.xs]
        nxt = word_j + 1
        if drawn.count(tw) > 1 and nxt in st.xs:
            tw = f"\"{tw}\" before \"{as_written(str(v.tokens.values[nxt]))}\""
        w_lab = txt(f"on {tw}:", LAB, T.MUTED)
        w_lab.move_to(on_word, coor_mask=[0, 1, 0])
        # the two rows' names right-aligned, clear of the wider of the two first columns
        edge = min(chips[0].get_left()[0], on_word[0].get_left()[0]) - 0.3
        heads_lab.next_to(chips, LEFT, buff=0.3).align_to([edge, 0, 0], RIGHT)
        w_lab.align_to([edge, 0, 0], RIGHT)
        strip = VGroup(heads_lab, chips)
        table = VGroup(strip, on_word, w_lab)
        # in the frame's width while the diagram is centred (nothing else on that row)
        room = 2 * (7.11 - T.EDGE) if self._centred else DIAG_RIGHT - DIAG_LEFT
        if table.width > room:
            table.scale(room / table.width)
        # under the note (a second line, "… = tokens not drawn", reaches lower)
        top = (st.note.get_bottom()[1] if st.note is not None else TOP_Y - 0.3) - 0.15
        chips_y = min(y_lab + 0.85, top - chips.height / 2)
        table.move_to([mid_x, chips_y - (chips.get_y() - table.get_y()), 0])
        # where the voice does not say "their mean" (a draft's "The arcs show the head-average,
        # the mean of the 9 heads' rows"), the heads' weights rise just before "arcs show"
        # (round 37: they came at once and waited 4.5 s, a still)
        t_arcs = self.when_said("their mean", self.when_said("arcs show", t_rows + 4.7) - 1.7)
        # round 31: the numbers come quickly, so the first head's arcs are drawn while "its
        # own row" is said (they came at the end of the line)
        self.hold_until(t_rows - 0.8)
        self.play(LaggedStart(*[FadeIn(c, shift=DOWN * 0.15) for c in chips], lag_ratio=0.04),
                  FadeInPlace(heads_lab), *([] if work else self.ell_note_out()), run_time=0.6)
        # round 31 ("each head has its own row" over an empty stage): the first head not
        # named comes first, its row drawn as the line is said, so a row is on screen at once
        seq = intro + pair
        cur, name, lit, eg, hnum, made = None, None, None, None, None, None
        for k, (h_j, j) in enumerate(seq):
            if j is None:
                # round 35: the head worked through comes as the voice names it
                t_h = self.when_said(f"head {int(hid[h_j])},", max(self.time + 0.5,
                                                                  t_q0 - 1.4)) \
                    if work else self.time + 0.5
            else:
                t_h = self.when_said(f"head {int(hid[h_j])} ", self.time,
                                     after=self.time - 0.5)
            t_after = self.when_said(f"head {int(hid[seq[k + 1][0]])} ", t_arcs,
                                     after=t_h + 0.3) if k + 1 < len(seq) else t_arcs
            self.hold_until(t_h - 0.5)
            row = self.arcs(lay.heads[h_j])
            nm = line(txt("head", LAB), Num(hid[h_j], decimals=0, size=LAB))
            nm.move_to([mid_x, y_lab, 0])
            if name is not None:        # "head" stays; only the number rolls
                nm.move_to(name, aligned_edge=LEFT)
            chip = chips[h_j]
            ring = SurroundingRectangle(chip, buff=0.07, color=T.POINTER, stroke_width=3)
            anims = [chip.animate.set_color(T.POINTER)]    # round 32: gold is bank only
            # round 33 (the first head's arcs were never spoken of): a head the voice does not
            # name is said on screen to be an example; it leaves as the next head comes
            if eg is not None:
                anims.append(FadeOutPlace(eg))
                eg = None
            first_out = []
            if hnum is not None:
                # r34 (both reviews: the last head's number lingered under the next head,
                # the label already on the next): it and the old ring leave first, then the
                # label's number changes as the arcs reshape
                first_out.append(FadeOutPlace(hnum))
                hnum = None
            was_made = made
            if made is not None:
                # round 35: the worked head's scores and weights leave before the next head
                first_out.append(FadeOutPlace(made))
                made = None
            if j is None:
                eg = txt("for example,", LAB, T.TEXT).next_to(nm, LEFT, buff=0.15)
                anims.append(FadeIn(eg, shift=DOWN * 0.2))
            if lit is not None:
                # round 31: the ring leaves one head and is drawn at the next (sliding
                # across the heads between suggested it visited them)
                # (r34: a ring being drawn read as a stray tick: it fades in whole)
                first_out += [chips[lit[0]].animate.set_color(T.TEXT), FadeOutPlace(lit[1])]
                anims += [FadeIn(ring)]
            else:
                anims += [Create(ring)]
            # round 33 (r33x: the legend came 10 s after the first arc): what an arc's width
            # means comes with the first arcs (the note's line, in the top band)
            legend = [FadeIn(st.note, shift=DOWN * 0.15)] if cur is None and not schematic \
                and not work and st.note is not None \
                and not getattr(self, "_legend_in", False) else []
            if legend:
                self._legend_in = True
            worked_now = work and j is None and cur is None
            if worked_now:
                anims += [FadeIn(nm, shift=DOWN * 0.2)]     # its row is made as said, next
            elif cur is None and pre is not None:     # already drawn at "softmax"
                anims += [ReplacementTransform(pre, row), FadeIn(nm, shift=DOWN * 0.2)]
            elif cur is None:
                anims += [LaggedStart(*[Create(a) for a in row], lag_ratio=0.08),
                          FadeIn(nm, shift=DOWN * 0.2), *legend]
            else:
                # round 33 (r33x: the heads' arcs cross-faded, a ghost "2" by "head"): one
                # head's arcs leave, then the next head's are drawn; its number rolls (old
                # out, then new in)
                # (in place: rolling up, the old digit read as a superscript of "head")
                # (not a Succession: a finished fade restores its opacity until the play
                # ends, and the old arcs came back under the new)
                # r34 (r33b: a frame with no arcs under "head 11"): each arc reshapes to
                # the next head's width for the same token (kept, not redrawn)
                anims += [ReplacementTransform(cur, row)]
                # r34 (both reviews: a bare "head" mid-swap): the number changes at once,
                # as the ring moves (never a "head" without its number)
            if first_out:
                self.play(*first_out, run_time=0.3)
                self.drop(was_made)
            if cur is not None:
                # r34b (r34x: "head 11" over head 2's arcs for 1 s): the number ticks over
                # at the middle of the arcs' reshaping (label and arcs change together)
                anims += tick(name[1], nm[1], 0.5, 0.45)
            self.play(*anims, run_time=0.6 if first_out else 0.9)
            if cur is not None and cur is not row:
                self.remove(cur)
            if name is not None:
                self.remove(name[1])
                self.add(nm[1])
                nm = VGroup(name[0], nm[1])
            if worked_now:
                made = self.worked_row(formula, row, t_after)
                # "... as the video <per_head's title> showed for one head": that head's
                # weights boxed (round 37: a 3-s still under the title)
                t_one = self.when_said("as the video", self.time, after=self.time - 0.5)
                if self.says("as the video") \
                        and t_after - 0.8 - max(self.time, t_one - 0.3) >= 0.8:
                    self.hold_until(t_one - 0.3)
                    self.emphasize(made[1], buff=0.06,
                                   run_time=min(1.6, t_after - 0.8 - self.time))
            cur, name, lit = row, nm, (h_j, ring)
            rt = min(1.8, t_after - 0.6 - self.time)
            if rt >= 0.8 and j in st.label:
                # round 33 (r33x): the head's own number on that token, under it (where the
                # row's weights go), as its arc lights
                hnum = Num(lay.heads[h_j][j], decimals=dec, size=NUM,
                           color=T.WEIGHTS).move_to([st.xs[j], ROW_Y - 0.45, 0])
                self.emphasize(st.label[j], buff=0.08, run_time=rt,
                               extra=[row[kk.index(j)].animate(rate_func=there_and_back)
                                      .set_stroke(T.POINTER), FadeIn(hnum, shift=UP * 0.1)])
        self.hold_until(t_arcs - 0.3)
        mean_num = Num(lay.row[word_j], decimals=dec, size=LAB, color=T.WEIGHTS)
        mean_lab = line(txt("mean of the", LAB), Num(v.n_heads, decimals=0, size=LAB),
                        txt("heads, the head-average;", LAB),
                        *([txt(f"on {tw}:", LAB), mean_num]
                          if has_tab else []))
        # made in the arcs' empty place (under the table: round 35, at the arcs' label
        # height it touched the table's rows); it rises there as the arcs are drawn
        mean_lab.move_to([mid_x, ROW_Y + 1.0, 0])
        lab_up = y_lab - mean_lab.get_y()
        # "Their mean over all 12 heads": what was on the stage leaves first (the ring, the
        # head's name, its number and its arcs: round 35, old text showed through the new);
        # then every head's weight on the word rises out of it to its place under the head's
        # number (all twelve; round 34's line named two and "10 more")
        gone = [FadeOutPlace(VGroup(lit[1]))] if lit is not None else []
        if lit is not None:
            gone.append(chips[lit[0]].animate.set_color(T.TEXT))
        if name is not None:
            gone.append(name.animate.shift(UP * ROLL).set_opacity(0))
        gone += [FadeOutPlace(m) for m in (eg, hnum, made) if m is not None]
        if cur is not None:
            gone.append(FadeOutPlace(cur))
            cur = None
        if gone:
            self.play(*gone, run_time=0.4)
        self.drop(name, eg, hnum, made)
        if has_tab:
            rise = []
            for m in on_word:
                at = m.get_center().copy()
                m.move_to(st.label[word_j]).scale(0.5).set_opacity(0)
                rise.append(m.animate.move_to(at).scale(2).set_opacity(1))
            # round 37e (a reviewer: "on the" did not say which "the", two on screen): a
            # word written more than once in the row is boxed as its weights rise out of it
            shown_as = [as_written(str(v.tokens.values[j])) for j in st.label]
            ring = None
            if shown_as.count(as_written(str(lay.top_word.token))) > 1:
                ring = SurroundingRectangle(st.label[word_j], buff=0.06, color=T.POINTER,
                                            stroke_width=3)
            self.play(LaggedStart(*rise, lag_ratio=0.05), FadeInPlace(w_lab),
                      *([Succession(Create(ring, run_time=0.3), Wait(0.6),
                                    ring.animate(run_time=0.3).set_stroke(opacity=0))]
                        if ring is not None else []), run_time=1.2)
            if ring is not None:
                self.remove(ring)
            # "the head-average": the twelve travel down into one number, their mean, in
            # the line naming it (in the arcs' place, over them)
            t_avg = self.when_said("head-average", self.time + 0.6)
            self.hold_until(t_avg - 0.4)
            copies = on_word.copy()
            # round 37 (a reviewer: the row cross-faded into the mean, two rows offset while
            # fading): each head's number travels, whole, into the mean's place, one after
            # the other, and goes out there; the mean comes up as the last lands
            # round 39 (nine numbers piled into a jumble of digits): each shrinks and fades
            # on its way in, so none is read over another as it lands
            self.play(FadeIn(VGroup(*mean_lab[:-1]), rate_func=squish_rate_func(smooth, 0, 0.5)),
                      LaggedStart(*[c.animate(run_time=0.8).move_to(mean_num).scale(0.35)
                                    .set_opacity(0) for c in copies], lag_ratio=0.07),
                      FadeIn(mean_num, rate_func=squish_rate_func(smooth, 0.8, 1)),
                      run_time=1.2)
            self.drop(copies)
        else:
            self.play(FadeIn(mean_lab, shift=DOWN * 0.1), run_time=0.6)
        # "is what the arcs show": the mean's arcs drawn under their name; the table, read,
        # leaves as they come
        t_show = self.when_said("arcs show", self.time + 0.4)
        self.hold_until(t_show - 0.6)
        t_adds = self.when_said("adds up to", self.time + 2.5)
        self.play(LaggedStart(*[Create(a) for a in st.arcs], lag_ratio=0.08,
                              rate_func=squish_rate_func(smooth, 0.3, 1)),
                  mean_lab.animate(rate_func=squish_rate_func(smooth, 0, 0.45))
                  .shift(UP * lab_up),
                  FadeOutPlace(VGroup(strip, *([on_word, w_lab] if has_tab else [])),
                               rate_func=squish_rate_func(smooth, 0, 0.3)), run_time=1.4)
        self.drop(table)
        self.add(st.arcs)
        self.early_num = None
        st.extra = [mean_lab]
        eq_rest = VGroup(*mean_lab[:-1]) if has_tab else VGroup()
        has_eq = has_tab
        # "... and it adds up to 1": the note's line lit as it is said
        self.hold_until(t_adds - 0.3)
        if schematic:
            self.play(*roll(st.note[0], VGroup(*st.note[1:])), run_time=0.8)
            self.remove(st.note[0])
            st.note = VGroup(*st.note[1:])
        elif not getattr(self, "_legend_in", False):
            self.play(FadeIn(st.note, shift=UP * ROLL), run_time=0.6)
        self.emphasize(st.note[0], run_time=0.9, buff=0.04)
        # then the line leaves, its mean going down into the row under the word (the row's
        # other weights come in beside it)
        gone_eq = []
        if has_eq:
            self.early_num = word_j
            gone_eq.append(ReplacementTransform(mean_num, self.num_at(st.nums, word_j)))

        def eq_down():
            self.play(FadeOutPlace(eq_rest if has_eq else mean_lab), *gone_eq, run_time=0.7)
            self.drop(eq_rest)
            self.remove(mean_lab)       # its number is now the row's (moved there)
            st.extra = []
        # r34b (r34x: river's 0.30 came into the row 2.5 s before the tie was said): the line
        # stays up through "bank also looks ahead"; its mean goes down into the row as the
        # tie's sentence starts
        t_one = self.when_said("this one sentence", self.time, after=self.time) \
            if self.says("this one sentence") else -1.0
        if t_one < 0:
            eq_down()
        # "MiniLM reads both ways: bank also looks ahead": the arcs to the tokens after it
        # flash, their tokens boxed
        ahead = [a for j, a in zip(keys, st.arcs) if j > max(v.focus.values)]
        ahead_labels = [st.label[j] for j in keys if j > max(v.focus.values)]
        t_ahead = self.when_said("both ways", self.mark(3, n))
        if ahead:
            self.hold_until(t_ahead - 0.3)
            self.emphasize(*ahead_labels, buff=BOX, run_time=2.0,
                           extra=[a.animate(rate_func=there_and_back).set_stroke(T.POINTER)
                                  for a in ahead])
        # "The arcs to river and to the start token, CLS, nearly tie: 0.30 and 0.29": the
        # weights come in under the tokens, the two arcs flash, each number pointed at as said
        if t_one >= 0:
            self.hold_until(t_one - 0.2)
            eq_down()
        word, cls = int(lay.top_word.pos), int(v.special[0])
        thick = [st.arcs[keys.index(k)] for k in (word, cls) if k in st.xs]
        t_tie = self.when_said(f"{float(lay.top_word.weight):.2f}", self.mark(4, n))
        early_m = self.num_at(st.nums, self.early_num) \
            if getattr(self, "early_num", None) is not None else None
        shown = self.decoder_row(early_m) if self.says("sees only itself") else []
        rest = [x for x in st.nums if x is not early_m and x not in shown]
        self.fill_to(max(self.time + 1.2, t_tie - 1.6), [
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(x) for x in rest],
                                                lag_ratio=0.1), run_time=t) if rest
             else self.wait(t)),
            (1, lambda t: self.flash(*thick, run_time=t))])
        # r34 (r33y: a 0.5 s arrow under 0.30, nothing at 0.29): each number boxed, its arc
        # lit, as it is said
        for j_, t_j in ((word, t_tie), (cls, None)):
            if j_ not in st.xs:
                continue
            if t_j is None:
                t_j = self.when_said(f"{float(lay.on_special[0]):.2f}", self.time,
                                     after=self.time - 0.5)
            self.hold_until(t_j - 0.3)
            self.emphasize(self.num_at(st.nums, j_), buff=0.06, run_time=1.1,
                           extra=[st.arcs[keys.index(j_)].animate(rate_func=there_and_back)
                                  .set_stroke(T.POINTER)])
        # "The bar on the right adds up CLS and SEP: 0.29 and 0.11 make 0.40 of the row": the
        # chart; the two weights leave the number row (under it, not across the tokens) and
        # travel to the bar, its two parts growing beside them; the total comes on top as it
        # is said, the two numbers going into the bar
        t_bar = self.when_said("bar on the right", self.mark(5, n))
        t_parts = self.when_said(f"{float(lay.on_special[0]):.2f}", t_bar + 1.2, after=t_bar)
        t_val = self.when_said(f"{float(lay.sink):.2f}", t_parts + 1.5,
                               after=t_parts + 0.3)
        if st.chart is None:
            self.hold_until(t_bar - 0.2)
            if self.burned is None and self.says("bar on the right"):
                # round 32 (one caption for 44 s): the caption turns to the bar with the voice
                self.set_caption(
                    f"Right: the share of {v.word}'s row on {sink_name(v)}, one bar per "
                    "layer.")
            if self._centred:
                self.uncentre(0.7)
            st.chart = self.chart_frame()
            b = st.bars[0] = self.bar(0)
            # a dense chart's key, raised over its highest number, would meet the model's
            # name (a teacher's sentence: round 37e): the name leaves first
            name = st.model if st.model is not None and overlaps(st.model, st.chart[0],
                                                                  0.1) else None
            name_out = [] if name is None else \
                [FadeOutPlace(name, rate_func=squish_rate_func(smooth, 0, 0.4))]
            late = squish_rate_func(smooth, 0.45, 1) if name_out else smooth
            self.play(*name_out, FadeInPlace(st.chart[0], rate_func=late), Create(st.chart[1]),
                      FadeInPlace(st.chart[2]), FadeInPlace(b.tick),
                      *[Create(m) for m in st.chart[3:]],
                      run_time=max(0.6, min(1.4, t_parts - 0.6 - self.time)))
            if name is not None:
                self.remove(name)
                st.model = None
            movers = []
            # the last special token's number first, in the lower lane, to the higher part:
            # neither passes the other (r35: in one lane the first overtook the second)
            for i, j in reversed(list(enumerate(v.special.values))):
                if int(j) in st.xs and i < len(b.parts):
                    c = self.num_at(st.nums, int(j)).copy()
                    part = b.parts[i]
                    # round 33 (r33: left of the bar they rose across [SEP] and its arc):
                    # right of the bar, rising in the slot the next bar has not taken yet
                    to = [part.get_right()[0] + 0.12 + c.width / 2, part.get_center()[1], 0]
                    low = c.get_center()[1] - 0.42 - 0.3 * i
                    # round 35 (a Succession of three moves cut across the token row): one
                    # path, down, along under the number row, then up beside the bar
                    path = VMobject().set_points_as_corners(
                        [c.get_center(), [c.get_x(), low, 0], [to[0], low, 0], to])
                    movers.append(MoveAlongPath(c, path))
            copies = [m.mobject for m in movers]
            self.hold_until(t_parts - 0.3)
            if movers:
                self.play(LaggedStart(*movers, lag_ratio=0.35), run_time=1.2 + 0.35 * 1.2)
            self.play(GrowFromEdge(b.parts, DOWN), run_time=0.6)
            self.hold_until(t_val - 0.5)
            self.play(FadeIn(b.val, shift=UP * 0.2), *self.approx_in(b.val),
                      *([FadeInPlace(b.lead)] if b.lead.family_members_with_points() else []),
                      *[c.animate.move_to(b.parts).scale(0.3).set_opacity(0) for c in copies],
                      run_time=0.7)
            self.remove(*copies)
        self.fill_to(None, [(1, lambda t: self.point_at(st.bars[0].val, run_time=t))])
        if st.model is not None:
            st.extra = [st.model]
            st.model = None

    def sentence_fold(self, extra: list) -> None:
        """Round 39 (both reviews: the sentence never shown, "…" used before it was explained):
        "We follow bank through this sentence": the whole sentence, one line, where the token
        row goes (the focus word gold); then it folds into the drawn tokens: each drawn word
        moves to its column, each run left out slides together into its "…", and a line under
        the row says what a "…" is and what its number will be (it leaves as the first
        weights come: `_ell_note`)."""
        v, st = self.v, self.st
        toks = [str(x) for x in v.tokens.values]
        pieces, x = [], 0.0
        space = txt("a b", T.TYPE.label).width - txt("ab", T.TYPE.label).width
        for j, tok in enumerate(toks):
            color = T.HIGHLIGHT if j in v.focus.values else T.TEXT
            m = txt(as_written(tok), T.TYPE.label, color)
            x += (space if j and tok[:1].isspace() else 0.02) + m.width / 2
            pieces.append(m.set_x(x))
            x += m.width / 2
        sent = on_baseline(pieces, ROW_Y)
        room = 2 * (7.11 - T.EDGE)
        if sent.width > room:
            sent.scale(room / sent.width)
        sent.set_x(0)
        t_follow = self.when_said("this sentence", 0.0)
        self.play(LaggedStart(*[FadeIn(m, shift=UP * 0.15) for m in pieces], lag_ratio=0.05),
                  *extra, run_time=1.2)
        self.hold_until(max(self.time + 0.6, t_follow + 0.4, self.cue_at(1) - 0.2))
        # each column: a drawn token's word moves onto it; a "…" takes its run's words
        moves, k = [], 0
        for col, m in zip(st.cols, st.tokens):
            if col is not None:
                moves.append(ReplacementTransform(pieces[col], m))
                k = col + 1
                continue
            run = []
            while k < len(toks) and k not in st.xs:
                run.append(pieces[k])
                k += 1
            moves.append(ReplacementTransform(VGroup(*run), m))
        note = txt(f"{ELLIPSIS} = words left out; the number under it: their weights added",
                   LAB, T.MUTED)
        note.move_to([(DIAG_LEFT + DIAG_RIGHT) / 2, ROW_Y - 0.5, 0])
        self.play(*moves, run_time=1.3)
        self.play(FadeIn(note, shift=UP * 0.1), run_time=0.5)
        self.emphasize(*[m for col, m in zip(st.cols, st.tokens) if col is None], buff=0.06,
                       run_time=1.0)
        self._ell_note = note

    def ell_note_out(self) -> list:
        """The "…" line under the row leaves (the first weights take its place)."""
        note = getattr(self, "_ell_note", None)
        self._ell_note = None
        return [FadeOutPlace(note)] if note is not None else []

    def decoder_row(self, early) -> list:
        """Round 37 ("bank sees only itself and the tokens before it" over a still row): at
        "thicker arc" the thickest drawn arc lit; at "decoder" the weights of the focus word
        and of every column before it come in; at "itself" its own loop and number lit; at
        "before it" the columns after it (in a decoder: 0) come in, boxed with their tokens.
        Returns the numbers shown."""
        st = self.st
        fx = self.focus_x()
        before = [m for m in st.nums if m.get_x() <= fx + 0.05 and m is not early]
        after = [m for m in st.nums if m.get_x() > fx + 0.05]
        after_labels = [m for m in st.tokens if m.get_x() > fx + 0.05]
        own = [m for m in st.nums if abs(m.get_x() - fx) < 0.05]
        t_thick = self.when_said("thicker arc", self.time, after=self.time - 0.5)
        t_dec = self.when_said("decoder", t_thick + 2.0, after=t_thick)
        t_self = self.when_said("itself", t_dec + 1.5, after=t_dec)
        t_bef = self.when_said("before it", t_self + 1.2, after=t_self)
        if self.says("thicker arc") and t_dec - 0.5 - max(self.time, t_thick - 0.2) >= 0.8:
            # "A thicker arc means more attention": the thickest drawn arc lit
            row = self.v.layers[0].row
            js = [j for j in st.xs if j not in self.v.focus.values]
            heavy = st.arcs[js.index(max(js, key=lambda j: float(row[j])))]
            self.hold_until(t_thick - 0.2)
            self.flash(heavy, run_time=min(1.4, t_dec - 0.5 - self.time))
        # "... is a decoder": the weights of the focus word and the columns before it
        self.hold_until(t_dec - 0.3)
        self.play(LaggedStart(*[FadeInPlace(m) for m in before], lag_ratio=0.1),
                  run_time=max(0.8, min(1.6, t_self - 0.5 - self.time)))
        self.hold_until(t_self - 0.3)
        lead = 0.9 if after else 0.4
        if own and t_bef - lead - self.time >= 0.8:
            self.emphasize(*own, buff=0.06, run_time=min(1.4, t_bef - lead - self.time),
                           extra=[st.arcs[-1].animate(rate_func=there_and_back)
                                  .set_stroke(T.POINTER)])
        if after:
            # round 37e (a reviewer: the box came about 1 s after "before it"): the 0s come
            # in just before it is said, boxed as it is said
            self.hold_until(t_bef - 0.9)
            self.play(LaggedStart(*[FadeInPlace(m) for m in after], lag_ratio=0.1),
                      run_time=0.5)
            self.emphasize(*after_labels, *after, buff=0.06, run_time=1.4)
        return before + after

    def drop(self, *groups) -> None:
        """Groups that have left, taken off the stage with every member (a member animated
        on its own is on the stage on its own: removing its group leaves it there, unseen)."""
        self.remove(*[m for g in groups if g is not None for m in g.get_family()])

    def worked_row(self, formula, row, t_end: float) -> VGroup:
        """Round 35 (both reviews: query · key -> softmax -> weights never shown with numbers):
        the worked head's row made as the voice says it, with the plan's numbers (`worked`):
        at "query" the note's formula comes (a head's row = softmax(query · each key / √d))
        and a thin line runs from the focus word to every token, that key's score written
        under it as its line lands ("scores"); at "softmax" each token's weight comes down
        under its score ("weights") and the lines take the weights' widths: the head's arcs
        (`row`, left on screen). Then the formula rolls into the arcs' legend. Returns the two
        rows and their names (they leave as the next head comes, by `t_end`)."""
        v, st = self.v, self.st
        w = v.worked
        js = list(st.xs)
        focus = [f for f in v.focus.values if f in st.xs]
        keys = [j for j in js if j not in v.focus.values] + focus[:1]   # as `arcs` draws them
        y_s, y_w = ROW_Y - 0.45, ROW_Y - 0.92
        # a key the query may not see (a decoder's later tokens) has no score: nothing written
        scores = VGroup(*[(Num(w.scores[j], decimals=int(w.score_decimals), size=NUM,
                               color=T.TEXT) if w.scores[j].value is not None
                           else VectorizedPoint()).move_to([st.xs[j], y_s, 0]) for j in js])
        weights = self.weights(w.weights, y_w)
        # each row named at its left, where there is room (the centred diagram's margin)
        names = VGroup(txt("scores", LAB, T.MUTED), txt("weights", LAB, T.MUTED))
        for m, r in zip(names, (scores, weights)):
            m.move_to(r, coor_mask=[0, 1, 0]).align_to([scores.get_left()[0] - 0.3, 0, 0], RIGHT)
        if names.get_left()[0] < -(7.11 - T.EDGE):
            names = VGroup(VectorizedPoint(), VectorizedPoint())
        lines = self.arcs(w.weights)
        for a in lines:
            a.set_stroke(T.Q, width=2.5, opacity=0.9)
        t_q = self.when_said("query", self.time)
        t_soft = self.when_said("softmax", t_q + 2.5, after=t_q)
        t_scaled = self.when_said("square root", t_soft, after=t_q)
        self.hold_until(t_q - 0.4)
        # "bank's query times each token's key gives a score": a line from bank to each key,
        # its score written under the key as the line lands
        self.play(FadeIn(formula, shift=DOWN * 0.15), FadeIn(names[0]), *self.ell_note_out(),
                  run_time=0.5)
        self.play(LaggedStart(*[AnimationGroup(
            Create(a), FadeIn(scores[js.index(j)], shift=DOWN * 0.1,
                              rate_func=squish_rate_func(smooth, 0.6, 1)))
            for a, j in zip(lines, keys)], lag_ratio=0.12),
            run_time=max(1.2, min(2.6, t_scaled - 0.3 - self.time, t_soft - 0.8 - self.time)))
        # "scaled by the square root of 32": the formula (its / √32) boxed as said
        rt = t_soft - 0.4 - max(self.time, t_scaled - 0.2)
        if self.says("square root") and rt >= 0.8:
            self.hold_until(t_scaled - 0.2)
            # its "/ √d" alone (the formula's last glyphs but the bracket)
            d_len = len(str(int(v.d_head))) + 2
            part = VGroup(*formula[-1 - d_len:-1]) if len(formula) > d_len + 1 else formula
            self.emphasize(part, buff=0.06, run_time=min(1.6, rt))
        # "a softmax turns the scores into weights": the formula's softmax lit, each weight
        # comes down under its score, the lines take the weights' widths
        self.hold_until(t_soft - 0.3)
        self.play(LaggedStart(*[FadeIn(m, shift=DOWN * 0.25) for m in weights],
                              lag_ratio=0.08),
                  FadeIn(names[1]), ReplacementTransform(lines, row),
                  formula.animate(rate_func=there_and_back).set_color(T.POINTER),
                  run_time=1.4)
        self.remove(lines)
        self.add(row)
        # the arcs' legend ("arc width = weight") takes the formula's place with these first
        # arcs (round 33: it came 10 s after them)
        self.wait(max(0.2, min(0.8, t_end - 1.6 - self.time)))
        self.play(*roll(formula, st.note), run_time=0.8)
        self.remove(formula)
        self._legend_in = True
        return VGroup(scores, weights, names)

    def says(self, phrase: str) -> bool:
        """Whether this beat's narration says `phrase` (as when_said reads it)."""
        return any(phrase.lower() in str(c.get("text", "")).lower()
                   for c in self.beat.get("cues") or []) \
            or phrase.lower() in str(self.beat.get("narration") or "").lower()

    def light_profile(self, chart, v, L: int) -> None:
        """"bank's row moves with depth": the depth chart's bars ringed on "with depth", then
        each of the first layer's, the peak's and the last's bars lit as its share is said
        (round 33: the chart was up with nothing said of it). A dense chart (round 37: the
        summary says the steps up and down, and the lowest): at "goes up" a line drawn
        through the bars' tops, left to right (the zig-zag said), leaving as the first share
        is said; the lowest's bars (a near-tie: all of them) lit too."""
        bars = {l: chart[1 + l] for l in range(L)}
        t_dep = self.when_said("with depth" if self.says("with depth") else
                               "from layer to layer", self.time)
        self.hold_until(t_dep - 0.2)
        self.emphasize(VGroup(*[VGroup(b.parts, b.val) for b in chart[1:]]), buff=0.1,
                       run_time=1.4)
        layers = list(dict.fromkeys((0, int(v.sink.max.layer), L - 1)))
        trace = None
        if self.dense:
            layers = list(dict.fromkeys((0, int(v.sink.min.layer), int(v.sink.max.layer),
                                         L - 1)))
            said = [l for l in layers if self.says(f"{float(v.layers[l].sink):.2f}")]
            t_of = {l: self.when_said(f"{float(v.layers[l].sink):.2f}", self.time)
                    for l in said}
            layers = sorted(said, key=lambda l: t_of[l])
            trend = next((w for w in ("swings between", "goes up") if self.says(w)), None)
            if self.says("averages") and not isinstance(v.sink.split, Value):
                self.two_levels(chart, bars, v.sink.split, L)
            elif trend is not None and layers:
                t_up = self.when_said(trend, self.time)
                self.hold_until(t_up - 0.2)
                trace = VMobject().set_points_as_corners(
                    [bars[l].parts.get_top() for l in range(L)])
                trace.set_stroke(T.POINTER, width=2.5).set_z_index(3)
                self.play(Create(trace, rate_func=smooth),
                          run_time=max(1.0, min(3.0, t_of[layers[0]] - 0.8 - self.time)))
        for l in layers:
            said = f"{float(v.layers[l].sink):.2f}"
            if not self.says(said):
                continue
            self.hold_until(self.when_said(said, self.time, after=self.time - 0.3) - 0.3)
            if trace is not None:
                self.play(FadeOut(trace), run_time=0.3)
                trace = None
            self.light(self.lit(bars, l), run_time=0.9)
        if self.dense and self.says("the rest of each row"):
            self.rest_of_rows(chart, bars)

    def two_levels(self, chart, bars: dict, split, L: int) -> None:
        """Round 39 ("no steady trend" beside a visible step): "averages 0.20 over layers 0 to
        11 and 0.59, higher, from layer 12 on": a dashed line at each run's mean across its
        bars, drawn left to right as its number is said, the number at its right end; both
        leave as the lowest is said."""
        k = int(split.end)
        base = bars[0].parts.get_bottom()[1]
        one = chart[0][3][0].get_top()[1]         # the share axis' 1
        hw = self.bar_layout[1] / 2 + 0.03
        marks = []
        for (a, b), m in (((0, k), split.before), ((k + 1, L - 1), split.after)):
            y = base + float(m) * (one - base)
            ln = DashedLine([bars[a].parts.get_x() - hw, y, 0], [bars[b].parts.get_x() + hw, y, 0],
                            color=T.POINTER, stroke_width=3, dash_length=0.08).set_z_index(3)
            num = Num(m, decimals=int(self.v.decimals), size=VAL_DENSE, color=T.POINTER)
            num.next_to(ln, UP, buff=0.06).set_z_index(5)
            # on a backing of the stage's colour: it sits over the bars it averages
            back = Rectangle(width=num.width + 0.1, height=num.height + 0.08, stroke_width=0)
            back.set_fill(T.BACKGROUND, 0.85).move_to(num).set_z_index(4)
            num = VGroup(back, num)
            t_m = self.when_said(f"{float(m):.2f}", self.time, after=self.time - 0.3)
            self.hold_until(t_m - 0.6)
            self.play(Create(ln), FadeIn(num, shift=DOWN * 0.1), run_time=0.9)
            marks += [ln, num]
        t_lo = self.when_said("lowest", self.time + 1.5, after=self.time)
        self.hold_until(t_lo - 0.4)
        self.play(FadeOut(VGroup(*marks)), run_time=0.4)

    def rest_of_rows(self, chart, bars: dict) -> None:
        """"The rest of each row goes to the other tokens" (round 37e: the summary stood
        still for 18 s): over each bar, what its row gives the other tokens grows up to the
        axis' 1, in a muted shade, and the key names it."""
        t_r = self.when_said("the rest of each row", self.time)
        self.hold_until(t_r - 0.2)
        top = chart[0][3][0].get_top()[1]
        rests = VGroup()
        for b in bars.values():
            h = top - b.parts.get_top()[1]
            if h > 0.01:
                rests.add(Rectangle(width=b.parts.width, height=h, stroke_width=0)
                          .set_fill(T.MUTED, 0.3).next_to(b.parts, UP, buff=0)
                          .set_z_index(-1))        # under the bars' numbers
        keys = chart[0][0][1]
        key = VGroup(Rectangle(width=0.24, height=0.24, stroke_width=0).set_fill(T.MUTED, 0.3),
                     txt("the other tokens", LAB)).arrange(RIGHT, buff=0.08)
        key.scale(keys[0][0].width / 0.24).next_to(keys, RIGHT, buff=0.3)
        self.play(LaggedStart(*[GrowFromEdge(r, DOWN) for r in rests], lag_ratio=0.04),
                  FadeIn(key, shift=LEFT * 0.2), run_time=1.8)

    def when_said(self, phrase: str, default: float | None = None,
                  after: float | None = None) -> float:
        """Scene time when `phrase` (as the filled narration writes it: words, or a number as
        it is said, '0.78') is spoken, the first time at or after scene time `after` (default:
        now): its place in its sentence's text as a share of the sentence's audio, as the plan
        times moments. `default` (else now) when the narration does not say it, or the plan
        is silent (the beat split evenly, `mark`)."""
        cues = self.beat.get("cues") or []
        # a word said just before now still counts (the picture is a little late: act now),
        # not one said well before (an earlier time the same words were said)
        after = self.time - 1.0 if after is None else after
        for k, c in enumerate(cues):
            text = str(c.get("text", "")).lower()
            start, dur = self.cue_at(k), float(c.get("duration", 0.0))
            i = text.find(phrase.lower())
            while i >= 0:
                t = start + dur * spoken_len(text[:i]) / max(1, spoken_len(text))
                if t >= after - 0.05:
                    return t
                i = text.find(phrase.lower(), i + 1)
        return self.time if default is None else max(self.time, default)

    def next_layer_at(self, l: int, t_num: float, land: float = 0.8) -> None:
        """Layer l, timed to the voice: X^(l) rises into the block from now (the header
        rolling to l), and the arcs reshape and the bar grows over `land` seconds ending just
        after `t_num` (when its number is said)."""
        pre = max(0.8, t_num - 0.6 - self.time)
        t = pre + land
        f = pre / t
        self.next_layer(l, t, split=(0.4 * f, 0.3 * f, 0.1 * f, 0.2 * f, land / t))

    def next_layer(self, l: int, t: float, split=(0.16, 0.09, 0.05, 0.07, 0.4)) -> None:
        """Layer l after the one before it: the header and the block's index roll to l while
        X^(l) comes out of the focus word (the layer below's output); it goes into the block,
        and the arcs reshape (no fade: they morph from the layer before's) and the bar grows
        as it lands, in the second half of `t` (where the voice says the number)."""
        v, st = self.v, self.st
        block = st.block
        nb = self.qk_block(v.layers[l].layer)
        # the header "layer l reads X^(l)" and the block's index roll to l together, as the
        # voice says "Layer l" and X^(l) rises (it goes into layer l's matrices); the old row
        # dims (it is the layer before's); the arcs reshape to layer l's row as it lands
        header = self.counter(v.layers[l].layer)
        roll_in = [*tick(VGroup(*block[1:]), VGroup(*nb[1:])), *self.counter_to(header),
                   *self.dim_row()]

        def land(rt):
            self.remove(*block[1:], st.counter)
            self.add(*nb[1:], header)
            st.counter = header
            self.show_layer(l, rt, bar=True, keep_header=True)

        self.feed(int(v.layers[l].layer), block.box, t, land, rise=True, extra=roll_in,
                  split=split, row=v.layers[l].row)
        box = block.box
        st.block = VGroup(box, *nb[1:])
        st.block.box = box

    def morph_layer(self, l: int, t_num: float) -> None:
        """Layer l after the one before (round 34b, r34x: layers 2-4 replayed layer 1's X-into-
        the-block animation; it is shown once, at layer 1): now, as "Layer l" is said, the
        header's and the block's index tick over to l, the layer before's arcs dim to a faint
        ghost (labelled) and its weights roll out; as the number is said the arcs morph to
        layer l's widths over that ghost (which stays: where the weight moved shows), the
        weights roll in and the bar grows."""
        v, st = self.v, self.st
        prev = st.layer
        old_ghost = getattr(self, "_ghost", None)
        gone = [FadeOutPlace(old_ghost)] if old_ghost is not None else []
        if old_ghost is not None:
            st.extra = [m for m in st.extra if m is not old_ghost]
        header = self.counter(v.layers[l].layer)
        block = st.block
        nb = self.qk_block(v.layers[l].layer) if block is not None else None
        # r34b (r34x: the header's digit faded out and back in, a moment with none): the
        # indices tick over in place, in one frame (a counter), and pulse once
        self.remove(st.counter)
        self.add(header)
        st.counter = header
        pulse = [header[1], header[3]]
        if block is not None:
            nb.shift(block.box.get_center() - nb.box.get_center())
            self.remove(*block[1:])
            self.add(*nb[1:])
            st.block = VGroup(block.box, *nb[1:])
            st.block.box = block.box
            pulse.append(nb[1])
            if len(nb) > 2:
                pulse.append(nb[2][-1])
        moves = [m.animate(rate_func=there_and_back).scale(1.2) for m in pulse]
        lab = None
        if prev is not None:
            lab = line(txt("faint: layer", LAB, T.MUTED),
                       Num(v.layers[prev].layer, decimals=0, size=LAB, color=T.MUTED),
                       txt("'s row", LAB, T.MUTED))
            lab[2].shift(LEFT * (SPACE - 0.02))
            lab.next_to([DIAG_LEFT, st.arcs.get_top()[1] + 0.12, 0], UP + RIGHT, buff=0)
            if block is not None and lab.get_top()[1] > block.box.get_bottom()[1] - 0.1 \
                    and lab.get_right()[0] > block.box.get_left()[0] - 0.2:
                lab.shift(DOWN * (lab.get_top()[1] - block.box.get_bottom()[1] + 0.1))
        # round 35 (both reviews: old text showed through new): the old ghost's label rolls
        # out before the new one rolls in (never both at once in one place)
        if lab is not None and old_ghost is not None and len(old_ghost) > 1:
            gone = [FadeOutPlace(old_ghost[0]), *roll(old_ghost[1], lab)]
            lab_in = []
        else:
            lab_in = [FadeIn(lab, shift=DOWN * 0.1,
                             rate_func=squish_rate_func(smooth, 0.45 if gone else 0, 1))] \
                if lab is not None else []
        self.play(*moves, *gone, st.arcs.animate.set_stroke(opacity=0.2),
                  st.nums.animate.set_opacity(0), *lab_in, run_time=0.7)
        if old_ghost is not None:
            self.remove(old_ghost)
        ghost = st.arcs.copy().set_stroke(T.MUTED, opacity=0.35).set_z_index(-1)
        self.hold_until(t_num - 0.6)
        self.add(ghost)
        self.show_layer(l, 0.9, bar=True, keep_header=True)
        self._ghost = VGroup(ghost, *([lab] if lab is not None else []))
        st.extra.append(self._ghost)

    def quick_layer(self, l: int, t: float) -> None:
        """Layer l right after the one before, in one step (a sentence names several layers):
        the header and the block's index roll to l, the arcs reshape, the bar grows."""
        v, st = self.v, self.st
        block = st.block
        nb = self.qk_block(v.layers[l].layer)
        self.show_layer(l, t, bar=True, extra=tick(VGroup(*block[1:]), VGroup(*nb[1:])))
        self.remove(*block[1:])
        self.add(*nb[1:])
        st.block = VGroup(block.box, *nb[1:])
        st.block.box = block.box

    def own_cues(self, between: list) -> bool:
        """Each layer between layer 1 and the one before last has a sentence of its own (a
        few of them; many share one): the narration has a cue for each."""
        return 0 < len(between) <= 3 and self.n_cues() >= 3 + len(between)

    def beat_depth(self, beat) -> None:
        v, st = self.v, self.st
        self.clear_extra()
        self.ensure_arcs(0)
        self.ensure_chart(0)
        L = int(v.n_layers)
        # the note has been read: it leaves, so the block and the header have the top-left
        note_out = [FadeOutPlace(st.note)] if st.note is not None else []
        st.note = None
        st.block = self.qk_block(v.layers[1].layer)
        chips = L <= 8                  # a chip per layer while each has time for one
        mids = list(range(2, L - 1))
        between = mids[:-1]
        own = self.own_cues(between)
        n = 3 + len(between) if own else 4
        ran = False

        def step(l, t):
            if chips:
                self.next_layer(l, t)
            else:
                # the block's index rolls with the header (it stayed at layer 1 while the
                # header counted SmolLM2's layers to 28)
                self.quick_layer(l, t)

        # "Each layer makes fresh queries and keys from its own X": the note leaves, the
        # block comes, the header goes to layer 1 and X^(1) rises out of layer 0 into layer
        # 1's W_Q, W_K; "Layer 1 puts most of bank's row on CLS and SEP, 0.70": the arcs
        # reshape and its bar grows to the number as it is said
        t1 = self.when_said(f"{float(v.layers[1].sink):.2f}", self.mark(2, n) + 1.0) \
            if L > 1 else self.time
        if L > 1:
            # round 37 (SmolLM2's block only relabelled: "fresh queries and keys" asserted):
            # layer 1's X goes into its block for every model, once
            if note_out:            # the note leaves before the block comes (never on it)
                self.play(*note_out, run_time=0.5)
            self.play(FadeInPlace(st.block), run_time=0.7)
            self.next_layer_at_first(t1)
        else:
            self.fill_to(self.mark(1, n), [
                (1, lambda t: self.play(*note_out, FadeInPlace(st.block), run_time=t)),
                (3, lambda t: self.show_layer(1, t, bar=True) if L > 1 else self.wait(t))])
        # "..., nearly all of it on CLS": its [CLS] part and the legend's [CLS]
        # (round 37: a draft that does not say it boxed bar 1 for 1.4 s anyway, and its run
        # of layers started 2 s after the voice named it)
        if L > 1 and self.says("nearly all"):
            t_cls = self.when_said("nearly all", self.time + 0.3)
            if t_cls - self.time > 1.0:
                # r33: lit (a tight outline), not boxed: the box cut the axis' "1" under it
                self.light(VGroup(st.bars[1].parts, st.bars[1].val),
                           run_time=min(1.6, t_cls - 0.2 - self.time))
            self.hold_until(t_cls - 0.2)
            self.emphasize(st.bars[1].parts[0], st.chart[0][1][0], buff=0.08, run_time=1.4)
        # "Layer 2: 0.78. Layer 3: 0.75.": each layer on its own sentence, X^(l) rising as the
        # sentence starts, its bar growing as its number is said (many layers: in turn over
        # one sentence)
        if own:
            for i, l in enumerate(between):
                t_l = self.when_said(f"{float(v.layers[l].sink):.2f}", self.mark(3 + i, n))
                self.hold_until(max(self.cue_at(2 + i) - 0.15, t_l - 3.0))
                if chips:
                    self.morph_layer(l, t_l)
                else:
                    self.hold_until(t_l - 0.6)
                    self.quick_layer(l, 0.9)
                # "about 0.75: its parts, rounded, do not add up exactly": the two parts
                # under [CLS] and [SEP] boxed with the bar's "≈" number as said
                if getattr(st.bars[l].val, "approx", False) and self.says("rounded parts"):
                    t_p = self.when_said("rounded parts", self.time)
                    parts = [self.num_at(st.nums, int(j)) for j in v.special.values
                             if int(j) in st.xs]
                    rt = self.cue_at(3 + i) - 0.4 - max(self.time, t_p - 0.2)
                    if parts and rt >= 0.8:
                        self.hold_until(t_p - 0.2)
                        self.emphasize(*parts, st.bars[l].val, buff=0.08,
                                       run_time=min(2.4, rt))
                # its number said: the new bar ringed until the next layer's sentence
                rt = self.cue_at(3 + i) - 0.3 - self.time
                if rt >= 0.8:
                    self.light(VGroup(st.bars[l].parts, st.bars[l].val),
                                   run_time=min(2.0, rt))
        elif not chips and self.run_stops(between):
            # many layers (SmolLM2's 26) in legs, each ending on a layer the voice names
            self.run_layers(between + mids[-1:])
            ran = True
        elif chips and 0 < len(mids) <= 4 and self.n_cues() == 3:
            # "Layers 2, 3 and 4, each reading its own X, put 0.78, 0.75 and 0.82 on them":
            # one sentence: X^(2) rises into the block as it starts, the arcs and bar land
            # on its number; then each next layer steps (header and block index roll, arcs
            # reshape, bar grows) as its number is said
            after = self.cue_at(2)
            ts = []
            for l in mids:
                ts.append(self.when_said(f"{float(v.layers[l].sink):.2f}",
                                         max(after, self.time) + 1.3, after=after))
                after = ts[-1] + 0.3
            self.hold_until(self.cue_at(2) - 0.15)
            self.next_layer_at(mids[0], ts[0])
            for l, t_l in zip(mids[1:], ts[1:]):
                self.hold_until(t_l - 0.75)
                self.quick_layer(l, 0.8)
            mids = []
        else:
            self.fill_to(self.mark(3, n), [(1, lambda t, l=l: step(l, t)) for l in between]
                         or [(1, lambda t: self.wait(t))])
        # "Layer 4 is the peak: 0.82": the layer before last, its bar ringed (round 37: the
        # peak's was lit while the voice said layer 28)
        said_last = mids[-1:]
        for l in ([] if ran else mids[-1:]):
            t_l = self.when_said(f"{float(v.layers[l].sink):.2f}", self.mark(n - 1, n) + 1.0)
            self.hold_until(max(self.mark(n - 1, n) - 0.15, t_l - 3.0))
            if chips:
                self.morph_layer(l, t_l)
            else:
                self.hold_until(t_l - 0.6)
                self.quick_layer(l, 0.9)
        last = []
        for l in said_last:
            last.append((1, lambda t, l=l: self.light(
                self.lit(st.bars, l), run_time=t)))
        self.fill_to(None, last or [(1, lambda t: self.wait(t))])

    def stop_said(self, l: int):
        """Where the narration names layer l as a stop of a run, with its share ("lowest at
        layer 11: 0.01", "; layer 16: 0.28", a near-tie "at layers 10 and 11: 0.01"): the
        match (its group of layers: `said_group`), or None."""
        v = self.v
        text = " ".join([str(c.get("text", "")) for c in self.beat.get("cues") or []]
                        or [str(self.beat.get("narration") or "")]).lower()
        return re.search(rf"\blayers? ((?:\d+, )*(?:\d+ and )?){int(v.layers[l].layer)}: "
                         rf"(?:about )?{float(v.layers[l].sink):.2f}", text)

    def said_group(self, l: int) -> list[int]:
        """The layers said with stop l ("layers 10 and 11": [10, 11]), by their index."""
        m = self.stop_said(l)
        named = [int(x) for x in re.findall(r"\d+", m.group(1))] if m else []
        index = {int(lay.layer): i for i, lay in enumerate(self.v.layers)}
        return sorted({index[n] for n in named if n in index} | {l})

    def run_stops(self, between: list) -> list:
        """The layers of a long run the voice stops at ("... lowest at layer 11: 0.01")."""
        return [l for l in between if self.stop_said(l)]

    RUN_STEP = 0.55             # a run's shortest step (round 37: 0.3 s a layer, not followed)

    def run_layers(self, run: list) -> None:
        """Round 37 (SmolLM2's layers 2-27 in 5 s, their labels caught half-rolled; then
        layers 12-24 at 0.3 s each): the run in legs ("Then layers 2 to 11 ... lowest at
        layers 10 and 11: 0.01. Then layers 12 to 16; layer 16: 0.28 ..."), each starting as
        the voice names it and landing on its last layer as that layer's number is said, at
        RUN_STEP s a layer or more; the weights under the tokens (and the last stop's number)
        leave before the header changes (round 37: layer 11's weights under layer 12's arcs)
        and come back at each stop; every step switches the header's and the block's indices
        at once (a counter), reshapes the arcs and grows the bar; at a stop its bars (a
        near-tie: all said) are lit until the next leg."""
        v, st = self.v, self.st
        stops = self.run_stops(run[:-1]) + run[-1:]
        start = run[0]
        for k in stops:
            leg = [l for l in run if start <= l <= k]
            t_leg = self.when_said(f"layers {int(v.layers[start].layer)} to", self.time,
                                   after=self.time - 0.5)
            t_k = self.when_said(f"{float(v.layers[k].sink):.2f}", t_leg + 0.4 * len(leg),
                                 after=t_leg)
            self.hold_until(t_leg - 0.5)
            if self.burned is None:
                # round 37e (one caption for 32 s of legs): the caption follows each leg
                self.set_caption(f"Layers {int(v.layers[start].layer)} to "
                                 f"{int(v.layers[k].layer)}: one bar per layer, the arcs at "
                                 f"layer {int(v.layers[k].layer)}.")
            said = getattr(self, "_said_val", None)
            gone = [m for m in (st.nums, said) if m is not None and len(m)]
            if gone:            # the stop's numbers leave before the header changes
                self.play(*[FadeOutPlace(m) for m in gone], run_time=0.3)
                if said is not None:
                    st.extra = [m for m in st.extra if m is not said]
                    self._said_val = None
                st.nums = VGroup()
            step = max(self.RUN_STEP, min(0.9, (t_k - 0.1 - self.time) / len(leg)))
            self.hold_until(t_k - 0.1 - step * len(leg))
            for i, l in enumerate(leg):
                self.sweep_layer(l, step, land=i == len(leg) - 1)
            # a stop whose bar carries no number gets it while it is said (layer 28's 0.58)
            val = self.said_val(k)
            if val is not None:
                self.play(FadeIn(val, shift=UP * 0.1), run_time=0.4)
                st.extra.append(val)
                self._said_val = val
            # lit until the sentence after the one that says its number (round 37: a stop
            # landing late was lit into the next leg's sentence, which then ran late)
            rt = self.cue_at(self.cue_index_at(t_k) + 1) - 0.3 - self.time
            if k != run[-1] and rt >= 0.8:
                g = self.said_group(k)
                lit = self.lit(st.bars, k) if k in self.labelled else \
                    VGroup(VGroup(*[st.bars[j].parts for j in g if j in st.bars]),
                           *([val[0]] if val is not None else []))
                self.light(lit, run_time=min(2.0, rt))
            start = k + 1

    def said_val(self, l: int):
        """Layer l's share over its bar, for a bar that carries none: placed (marks.place)
        clear of the bars up to it and the numbers on the chart (a dense chart: a line down
        to its bar where lifted); else None. VGroup(number, lines)."""
        st = self.st
        if l in self.labelled or l not in st.bars:
            return None
        if self.dense:
            taken = [(m.get_left()[0], m.get_right()[0], m.get_bottom()[1], m.get_top()[1])
                     for k in st.bars for m in st.bars[k].val.submobjects
                     if k in self.labelled and m.family_members_with_points()]
            return self.value_at(l, [l], self.bar_boxes(max(st.bars)), taken)
        lay, b = self.v.layers[l], st.bars[l]
        val = share_val(lay.sink, lay.sink_adds, VAL, int(self.v.decimals))
        val.next_to(b.parts, UP, buff=0.08)
        others = [st.bars[k].parts for k in st.bars if k != l] \
            + [st.bars[k].val for k in st.bars if k in self.labelled]
        return None if any(overlaps(val, m, 0.04) for m in others) else val

    def cue_index_at(self, t: float) -> int:
        """The cue being said at scene time t (the last that started by then)."""
        k = 0
        for i in range(self.n_cues()):
            if self.cue_at(i) <= t + 1e-6:
                k = i
        return k

    def sweep_layer(self, l: int, t: float, land: bool) -> None:
        """One step of a run (`run_layers`): the header's and the block's indices switch at
        once, the arcs reshape and the bar grows over t; the weights leave with the first
        step and come back with the leg's last (`land`)."""
        v, st = self.v, self.st
        lay = v.layers[l]
        header = self.counter(lay.layer)
        self.remove(st.counter)
        self.add(header)
        st.counter = header
        block = st.block
        if block is not None:
            nb = self.qk_block(lay.layer)
            nb.shift(block.box.get_center() - nb.box.get_center())
            self.remove(*block[1:])
            self.add(*nb[1:])
            st.block = VGroup(block.box, *nb[1:])
            st.block.box = block.box
        # round 37e (legs of 10 layers at 0.33 s, the arcs flickering): between the stops the
        # arcs leave and the bars come in one by one, the header counting with them; the
        # stop's arcs grow back where the voice names it
        arcs = self.arcs(lay.row)
        if not land:
            arcs.set_stroke(opacity=0)
        anims = [ReplacementTransform(st.arcs, arcs)]
        if st.nums is not None and len(st.nums):
            anims.append(FadeOutPlace(st.nums, run_time=min(t, 0.4)))
        nums = self.weights(lay.row) if land else VGroup()
        if land:
            anims.append(FadeIn(nums, shift=UP * ROLL, rate_func=squish_rate_func(smooth, 0.4, 1)))
        if l not in st.bars:
            b = st.bars[l] = self.bar(l)
            anims += self.grow_bar(b)
        self.play(*anims, run_time=t)
        if st.nums is not None:
            self.remove(st.nums)
        self.add(nums)
        st.arcs, st.nums, st.layer = arcs, nums, l

    def dim_row(self, arcs: float = 0.3) -> list:
        """The arcs and weights on screen fade to a ghost (the row of the layer before, while
        the next layer's input is fed in)."""
        st = self.st
        # r34 (r33y: the layer before's weights, dimmed and unlabelled under the tokens,
        # read as the new layer's): they leave; the new layer's roll in where they were
        return [st.arcs.animate.set_stroke(opacity=arcs), st.nums.animate.set_opacity(0)]

    def next_layer_at_first(self, t_num: float) -> None:
        """Layer 1: X^(1) made from every token's X^(0) rises into the block now (the header
        rolling to layer 1 as X^(1) forms), the arcs reshape and the bar grows as the number
        is said."""
        st = self.st
        land = 0.8
        # round 37e (a decoder's draft: "0.02" said 2-3 s before its row): a dense chart's
        # row lands before its number is said (MiniLM's timing kept)
        early = 1.2 if self.dense else 0.6
        pre = max(1.0, t_num - early - self.time)
        t = pre + land
        f = pre / t
        header = self.counter(self.v.layers[1].layer)

        def land_(rt):
            self.remove(st.counter)
            self.add(header)
            st.counter = header
            self.show_layer(1, rt, bar=True, keep_header=True)

        # round 35 (both reviews: the header named layer 1 while layer 0's vectors were
        # still rising): it rolls to layer 1 as the updated columns gather into X^(1)
        # round 33 (r33x: layer 1's vectors drawn over layer 0's dimmed arcs): the old arcs
        # leave before the vectors rise
        self.feed(int(self.v.layers[1].layer), st.block.box, t, land_, rise=True,
                  row=self.v.layers[1].row, extra=self.dim_row(0.0),
                  with_x=self.counter_to(header),
                  split=(0.3 * f, 0.25 * f, 0.1 * f, 0.15 * f, land / t))

    def beat_why(self, beat) -> None:
        self.fair_test(self.v.tie, first=True)

    def beat_why_last(self, beat) -> None:
        self.fair_test(self.v.tie_last, first=False)

    def fair_test(self, tie, first: bool) -> None:
        """Layer l's own W_Q, W_K fed the layer before's X, then its own X: three bars (the
        layer before as the model ran it, layer l fed the old X, fed its own). `first`: layer
        1's, after the chart (which it replaces), X^(1) built on screen from X^(0) and layer
        0's two updates; else the same test again (the last layer), after the first's panel."""
        v, st = self.v, self.st
        self.clear_extra()
        if isinstance(tie, Value):          # no redoable attention for this model
            self.fill_to(None, [(1, lambda t: self.wait(t))])
            return
        n = 5
        self.ensure_arcs(int(tie.layer))
        if first:
            self.ensure_chart(0)
        tl = int(tie.layer)
        prev = v.layers[tl - 1]
        l0 = int(prev.layer)
        special = [int(j) for j in v.special.values]
        # the experiment's own panel replaces the chart: three stacked bars (the chart's
        # shades), one per input
        fade = ([st.chart] if st.chart is not None else []) + list(st.bars.values()) \
            + self.approx_out()
        base_x, base_y, H = 2.05, CHART_Y, BAR_H * 0.9     # the fair test's bars: where they were
        # four inputs, the two orders' paths: the layer before as the model ran it, its
        # matrices swapped first (layer l fed the old X), its X swapped first (the layer
        # before's matrices fed the new X), layer l as the model ran it
        specs = [(prev.sink, prev.sink_adds, prev.layer, l0, prev.row),
                 (tie.old_sink, tie.old_adds, tie.layer, l0, tie.old_row),
                 (tie.swap_sink, tie.swap_adds, prev.layer, tl, tie.swap_row),
                 (tie.new_sink, tie.new_adds, tie.layer, tl, tie.new_row)]
        cols = []
        for i, (share, ok, layer, state, row) in enumerate(specs):
            x = base_x + 0.5 + i * 1.2
            r, y = VGroup(), base_y
            for k, j in enumerate(special):
                h = max(0.01, H * float(row[j]))
                part = Rectangle(width=0.55, height=h, stroke_width=0)
                part.set_fill(shade(k), 1.0).move_to([x, y, 0], aligned_edge=DOWN)
                r.add(part)
                y += h
            val = share_val(share, ok, LAB, int(v.decimals)).next_to(r, UP, buff=0.08)
            lab = self.wx_label(layer, state).next_to([x, base_y, 0], DOWN, buff=0.12)
            cols.append(VGroup(r, val, lab))
        axis = Line([base_x, base_y, 0], [base_x + 4.75, base_y, 0], color=T.MUTED,
                    stroke_width=2)
        # round 33: the [CLS] / [SEP] colours keyed here too (the swapped bars' split is read)
        head = VGroup(txt("share on", LAB))
        for i_k, n_k in enumerate(v.special_tokens.values):
            if i_k:
                head.add(txt("+", LAB))
            sw = Rectangle(width=0.24, height=0.24, stroke_width=0).set_fill(shade(i_k), 1.0)
            head.add(VGroup(sw, txt(as_written(n_k), LAB)).arrange(RIGHT, buff=0.08))
        head.arrange(RIGHT, buff=0.12)
        head.next_to([base_x, base_y + H + 0.6, 0], RIGHT, buff=0)
        # the header, and the block: layer 1's own query and key matrices
        header = line(txt("a fair test on layer" if first else "the same test on layer",
                          T.TYPE.body), Num(tie.layer, decimals=0, size=T.TYPE.body))
        header.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)
        # the note has been read: it leaves with the old header (room for the block)
        note_out = [FadeOutPlace(st.note)] if st.note is not None else []
        st.note = None
        block = self.qk_block(tie.layer)
        box = block.box
        # right of the depth beats' place: room on its left for the chip, and for X^(1)
        # being made (first test), its tag still clear of the bars
        tag_w = line(txt("arcs: fed", LAB), math(sup("X", tl), X_SIZE, T.X)).width
        block.shift(RIGHT * max(0.0, min(1.0, base_x - 0.3 - box.get_right()[0] - 0.3 - tag_w)))
        # the arcs' condition, beside the block: what these matrices were fed
        tags = [line(txt("arcs: fed", LAB), math(sup("X", state), X_SIZE, T.X))
                for state in (l0, tl)]
        tags[0].next_to(box, RIGHT, buff=0.3)
        tags[1].move_to(tags[0], aligned_edge=LEFT)
        tag = tags[0]

        def feed(state, row, t, tag_in, extra=(), chip=None, split=None):
            self.feed(state, box, t, lambda rt: self.show_row(row, VGroup(), rt, extra=tag_in),
                      extra=extra, chip=chip, row=row,
                      **({} if split is None else {"split": split}))

        # the stage goes back to layer 0's row (the old X's reading) and dims to a ghost;
        # the old header leaves before the new one comes
        # the depth chart's bar of the layer before (its share as the model ran it) stays
        # and moves to be the test's first bar; the rest of the chart leaves
        keep = st.bars.get(l0) if st.chart is not None else None
        if keep is not None:
            fade = [m for m in fade if m is not keep] + [keep.tick]
            self.remove(keep)               # its pieces each on their own (each moves or goes)
            self.add(keep.parts, keep.tick, keep.val)

        def ghost(t):
            self.show_row(prev.row, VGroup(), 0.6 * t,
                          extra=([FadeOutPlace(VGroup(*fade))] if fade else []) + note_out)
            moves = []
            if keep is not None:
                moves = [ReplacementTransform(keep.parts, cols[0][0]),
                         ReplacementTransform(keep.val, cols[0][1]), FadeInPlace(cols[0][2]),
                         Create(axis), FadeInPlace(head)]
            else:
                # no chart to move it from (the later test): the layer before's bar, whose
                # row the ghost is, grows on the new axis (the stage not bare till its number)
                moves = [Create(axis), FadeInPlace(head), GrowFromEdge(cols[0][0], DOWN),
                         FadeInPlace(cols[0][1:]), *self.approx_in(cols[0][1])]
            self.play(st.arcs.animate.set_stroke(opacity=0.12), st.nums.animate.set_opacity(0.2),
                      *moves, run_time=0.4 * t)
            self.remove(*cols[0])           # the first column is on screen now
            self.add(cols[0])

        # the ghost says whose arcs it is, where the arcs' condition will be written
        was = line(txt("arcs: layer", LAB), Num(prev.layer, decimals=0, size=LAB),
                   txt("'s row", LAB))
        was[-1].shift(LEFT * (SPACE - 0.02))
        was.move_to(tag, aligned_edge=LEFT)
        if was.get_right()[0] > base_x - 0.4:
            # round 31: beside the block it reached the first bar's number (layer 5's test):
            # above the arcs it names, left of the bars
            was.next_to(st.arcs, UP, buff=0.12)
            was.align_to([DIAG_LEFT, 0, 0], LEFT)
            # round 33 (four labels within 15 px in the top band): the arcs' condition is
            # written where the ghost's name was, over the arcs it names
            for tg in tags:
                tg.move_to(was, aligned_edge=LEFT)
        self.fill_to(self.mark(1, n), [
            (3, ghost),
            (1, lambda t: self.play(FadeInPlace(header), FadeInPlace(was), run_time=t)),
        ])
        st.counter = VGroup()
        self.add(st.counter)
        # "A fair test on layer 1: swap one thing at a time": the header ringed as said
        t_ft = self.when_said("fair test" if first else "same test", self.time)
        t_u = self.when_said("under each bar", self.time + 3.0) if self.says("under each bar") \
            else self.when_said("own query", self.time + 3.0)
        if t_u - 0.4 - max(self.time, t_ft - 0.2) >= 1.0:
            self.hold_until(t_ft - 0.2)
            self.emphasize(header, buff=0.08, run_time=min(2.8, t_u - 0.4 - self.time))
        if self.says("under each bar"):
            # "Under each bar, W names whose query and key matrices, X which input": W, then
            # X, under the first bar ringed as each is named
            t_w = self.when_said("w names", t_u + 0.8)
            t_x = self.when_said("x the input" if self.says("x the input") else "x which input",
                                 t_w + 1.8)
            t_o = self.when_said("own query", t_x + 2.0)
            for t_a, t_b, m in ((t_w, t_x, cols[0][2][0]), (t_x, t_o, cols[0][2][1])):
                self.hold_until(t_a - 0.2)
                self.emphasize(m, buff=0.08, run_time=max(0.8, min(2.6, t_b - 0.4 - self.time)))
        # "its own query and key matrices, fed layer 0's X": the block, X^(0) fed into it,
        # the arcs re-forming from its output as "layer 0's X" is said
        t_fed = self.when_said("fed", self.mark(2, n) - 0.5)
        self.hold_until(self.when_said("own query", self.mark(1, n)) - 0.3)
        if self.burned is None and first:
            # r34 (r33b: one caption for 40 s of the test): it follows each step
            self.set_caption(f"First: layer {tl}'s matrices fed X of layer {l0}.")
        self.play(FadeInPlace(block), run_time=0.6)
        pre = max(1.2, t_fed - self.time)
        feed(l0, tie.old_row, pre + 1.0, roll(was, tag))
        self.remove(was)
        # "Layer 0 put 0.40 on CLS and SEP; layer 1's matrices, fed that X, put 0.34": each
        # bar grows to its number as it is said
        for i, share in enumerate((prev.sink, tie.old_sink)):
            t_n = self.when_said(f"{float(share):.2f}", self.mark(2, n) + 1.5 + 2.5 * i)
            if i == 0:
                # "Layer 0 put 0.40 on CLS and SEP": its bar (moved there) ringed as said
                self.hold_until(t_n - 0.4)
                rt = self.when_said("matrices", self.time + 2.0) - 0.4 - self.time
                self.light(cols[0][:2], run_time=max(0.9, min(2.2, rt)))
                continue
            if i == 0:
                self.hold_until(t_n - 1.6)
                self.play(Create(axis), FadeInPlace(head), run_time=0.7)
            else:               # "layer 1's matrices, fed that X": the block and its tag
                t_that = self.when_said("matrices", t_n - 2.0)
                self.hold_until(t_that - 0.3)
                rt = t_n - 0.7 - self.time
                if rt >= 0.5:
                    self.emphasize(box, tag, run_time=min(2.0, rt))
            self.hold_until(t_n - 1.4)
            # W^(l) under it comes out of the block (shorthand for its W_Q^(l), W_K^(l)): a
            # copy of the block's matrices travels down to the label's place at its own
            # (reading) size, and is swapped there for the label (round 31: it shrank in
            # flight to 6-7 px)
            # (round 31: a copy of the whole W_Q, W_K at its size reached the next label; now
            # the label's own W^(l), at its reading size, leaves the block's foot)
            # it goes right at the block's foot, over the bars, then down its own empty slot
            # (a straight line crossed the first bar's labels), then the bar grows over it
            w_src = cols[i][2][0].copy().next_to(box, DOWN, buff=0.08)
            if all(c[1].get_top()[1] < w_src.get_bottom()[1] - 0.1 for c in cols[:i]):
                self.play(FadeIn(w_src, shift=DOWN * 0.15), run_time=0.2)
                self.play(w_src.animate.set_x(cols[i][2][0].get_x()), run_time=0.45)
                self.play(w_src.animate.move_to(cols[i][2][0]), run_time=0.45)
                self.remove(w_src)
                self.add(cols[i][2][0])
            else:
                # a bar before it stands in the way (the later test's 0.82): W^(l) comes in
                # at its place, with its bar (the first test showed where it comes from)
                self.hold_until(t_n - 0.6)
                self.play(FadeIn(cols[i][2][0], shift=UP * 0.15), run_time=0.3)
            self.play(GrowFromEdge(cols[i][0], DOWN), FadeInPlace(cols[i][1]),
                      FadeInPlace(cols[i][2][1]), *self.approx_in(cols[i][1]), run_time=0.6)
        # "the matrices alone do not raise it": the two bars ringed together
        t_alone = self.when_said("alone", self.time)
        self.hold_until(t_alone - 0.3)
        t_next = self.when_said("now feed", self.time + 1.0)
        self.light(cols[0][:2], cols[1][:2],
                       run_time=max(1.0, min(2.4, t_next - 0.4 - self.time)))
        # "Now feed them X of layer 1 ... : 0.70": X^(1) into the same block, the arcs
        # re-form, the tag rolls to X^(1); its bar grows as the number is said
        t_now = self.when_said("now feed", self.mark(3, n))
        t_new = self.when_said(f"{float(tie.new_sink):.2f}", self.mark(4, n) - 0.5)
        self.hold_until(t_now - 0.2)
        if self.burned is None and first:
            self.set_caption(f"Then: layer {tl}'s matrices fed X of layer {tl}, "
                             f"layer {l0}'s output.")
        # what X^(1) is, acted (first test only): an X^(0) chip left of the block; "plus
        # layer 0's attention update", "then its FFN update": each comes in under the chip
        # and moves into it; its index rolls to X^(1); that chip goes into the block
        chip = None
        gone = []
        t_att = self.when_said("attention update", self.time)
        t_ffn = self.when_said("feed-forward update" if self.says("feed-forward update")
                               else "ffn update", t_att + 1.0)
        if first and t_ffn - self.time > 2.4:
            # the diagram gets the arcs' place: the arcs, their numbers and their tag go (they
            # come back as X^(1) goes into the block); the test's panel stays on the right
            # (round 25: its bars gone 9 s while the diagram was built)
            aside = VGroup(tag)
            # round 33 (drawn along the token row it read as flowing through the sentence):
            # the tokens leave too, and come back with the arcs
            self.play(FadeOutPlace(aside), st.arcs.animate.set_stroke(opacity=0),
                      st.nums.animate.set_opacity(0), FadeOutPlace(st.tokens), run_time=0.5)
            diagram, chip = self.build_x(prev.layer, tl, block, t_att, t_ffn)
            # the arcs' tag comes back with the arcs, already on X^(1) (round 27's render:
            # back early, it said "fed X^(0)" while X^(1) went in)
            # round 35 (both reviews: old text showed through new; X^(1) crossed the fading
            # FFN box): the diagram leaves first, then X^(1) goes up as the tokens come back
            self.play(FadeOutPlace(diagram), run_time=0.4)
            gone = [FadeInPlace(st.tokens)]
        # "...: 0.70": the arcs re-form and layer l's own bar grows as the number is said
        # (the two land together)
        grow_new = [GrowFromEdge(cols[3][0], DOWN), FadeInPlace(cols[3][1:]),
                    *self.approx_in(cols[3][1])]
        tag_in = [FadeInPlace(VGroup(tag[0], tags[1][1]))] if gone \
            else tick(tag[1], tags[1][1])
        feed(tl, tie.new_row, max(1.2, t_new + 0.3 - self.time),
             tag_in + grow_new, extra=gone, chip=chip,
             split=(0.2, 0.2, 0.1, 0.12, 0.38))
        self.remove(tag[1])
        self.add(tags[1][1])
        tag = VGroup(tag[0], tags[1][1])
        # "In this order, the rise came with the changed X" / "..., little change": the
        # block, then the two bars of its own matrices (old X, new X)
        t_other = self.when_said("other swap", self.when_said("other order", self.time + 3.0))
        if self.says("real row"):
            # round 33 (r33: the decisive 0.70 gone after 1.5 s): held, its bar lit as
            # "layer 1's real row" is said (the depth chart's layer 1 bar had this share)
            t_real = self.when_said("real row", self.time)
            rt = t_other - 0.4 - max(self.time, t_real - 0.6)
            if rt >= 0.8:           # (a silent plan has no time for it)
                self.hold_until(t_real - 0.6)
                self.light(cols[3][:2], run_time=min(1.6, rt))
        if self.says("in this order"):
            t_this = self.when_said("in this order", self.time)
            self.hold_until(t_this - 0.2)
            self.fill_to(t_other - 0.4, [
                (1, lambda t: self.emphasize(box, run_time=t)),
                (1, lambda t: self.light(cols[1][:2], cols[3][:2],
                                             run_time=t)),
            ])
        # "Now the other order, X first: layer 0's matrices fed X of layer 1 put 0.47": the
        # block's index rolls back to the layer before (its matrices), a fresh X^(l) chip
        # goes in, the arcs re-form from that output, its bar grows in the free slot
        t_swap = self.when_said(f"{float(tie.swap_sink):.2f}", t_other + 2.5, after=t_other)
        self.hold_until(t_other - 0.3)
        if self.burned is None and first:
            # round 33 (r33: "in both orders" captioned 37 s early): the caption turns to
            # the other order as it is said
            self.set_caption(f"The other swap: layer {l0}'s matrices fed X of layer {tl}.")
        back = self.qk_block(prev.layer)
        back.shift(box.get_center() - back.box.get_center())
        # the arcs are the block's output: they dim to a ghost as its index changes and
        # light again only with the new row (round 27: W^(0) over W^(1)X^(1)'s arcs for 4 s)
        # round 31 (W^(1) turned into W^(0) by a text swap in the same box): the own block
        # slides up and out, then a separate block of the layer before's matrices slides
        # down into its place (one after the other; from the right it passed under the tag)
        own_block = block.copy()
        out_, in_ = squish_rate_func(smooth, 0, 0.5), squish_rate_func(smooth, 0.5, 1)
        # round 32 (the label said layer 0 over layer 1's dimmed row): the row leaves with
        # the block that made it; the new block's row comes only when X goes into it
        # r34 (both reviews: the sliding block's label crossed the header): in place
        self.play(block.animate(rate_func=out_).set_opacity(0),
                  FadeIn(back, rate_func=in_),
                  st.arcs.animate(rate_func=out_).set_stroke(opacity=0),
                  # r33: the arcs' tag leaves with them (it stood over an empty stage)
                  tag.animate(rate_func=out_).set_opacity(0),
                  st.nums.animate(rate_func=out_).set_opacity(0), run_time=1.0)
        self.remove(block)
        block, box = back, back.box
        t_in = self.when_said("fed x", self.time, after=self.time)
        self.hold_until(t_in - 1.2)
        feed(tl, tie.swap_row, max(1.5, t_swap - 0.8 - self.time),
             [tag.animate.set_opacity(1)])
        self.hold_until(t_swap - 0.6)
        self.play(GrowFromEdge(cols[2][0], DOWN), FadeInPlace(cols[2][1:]),
                  *self.approx_in(cols[2][1]), run_time=0.9)
        # r33 ("the new X alone moves weight to SEP" was on screen, unsaid): where the voice
        # says so, that bar's [SEP] part is outlined as the row's [SEP] number pulses
        if self.says("on sep") and len(special) > 1 and special[-1] in st.xs:
            t_sep = self.when_said("on sep", self.time)
            self.hold_until(t_sep - 0.3)
            self.light(VGroup(VGroup(cols[2][0][-1]), cols[2][1],   # r34b: its 0.47 rises clear
                              self.num_at(st.nums, special[-1])),
                       run_time=1.0)
        both = tie.by.value != tie.swap_by.value        # the two orders credit different things
        t_end = self.when_said(("neither alone" if self.says("neither alone")
                                else "depends on the order") if both else "either order",
                               self.time + 2.0)
        if not both:
            # "hardly below 0.82": the two bars of the layer before's matrices ringed
            t_hard = self.when_said("hardly", self.time)
            self.hold_until(t_hard - 0.3)
            self.light(cols[0][:2], cols[2][:2],
                           run_time=max(0.9, min(2.0, t_end - 1.5 - self.time)))
        # "layer 1's own matrices take it to 0.70" (or, the orders agreeing, the verdict on
        # the layer's own matrices): the index rolls to layer l again, the arcs go back to
        # the model's own row
        t_take = self.when_said("take it to", self.time) if both and self.says("take it to") \
            else (t_end if not both else self.time)
        self.hold_until(t_take - 0.6)
        # the layer before's block slides up and out, the own block back down into its place
        # round 32 (the label went back to layer 1 over the swap's row): the block and the
        # arcs change in one move, the row re-forming as the own block lands
        self.show_row(tie.new_row, VGroup(), 1.2, extra=[
            block.animate(rate_func=out_).set_opacity(0),
            FadeIn(own_block, rate_func=in_)])
        self.remove(block)
        block, box = own_block, own_block.box
        if both:
            # that bar and the swapped one ringed
            self.light(cols[2][:2], cols[3][:2],
                           run_time=max(0.9, min(2.0, t_end - 0.5 - self.time)))
        # the verdict: "the rise needs the new X and the new matrices together" (the two
        # one-swap bars, neither reaching the model's own, then that one) or "in either
        # order, the fall came with the layer's own matrices" (its matrices' two bars)
        self.hold_until(t_end - 0.2)
        if self.burned is None and first and both and self.says("neither alone"):
            self.set_caption(f"Layer {tl}: neither alone gives the full rise; both together do.")
        if both and self.says("the new x alone"):
            # "the new X alone takes 0.40 to 0.47, the new matrices alone to 0.34; both
            # together, 0.70": each pair ringed as said (the layer before's bar with the one
            # swap), then the model's own bar
            t_x = self.when_said("the new x alone", self.time)
            if t_x - 0.4 - self.time >= 0.8:
                self.light(cols[1][:2], cols[2][:2],
                               run_time=min(2.4, t_x - 0.4 - self.time))
            t_m = self.when_said("the new matrices alone", t_x + 2.0)
            t_tog = self.when_said("together", t_m + 2.0)
            for t_a, t_b, pair in ((t_x, t_m, (cols[0][:2], cols[2][:2])),
                                   (t_m, t_tog, (cols[0][:2], cols[1][:2]))):
                self.hold_until(t_a - 0.2)
                self.light(*pair, run_time=max(0.8, t_b - 0.4 - self.time))
            self.hold_until(t_tog - 0.2)
            self.fill_to(None, [(1, lambda t: self.light(cols[3][:2],
                                                             run_time=t))])
        elif both:
            t_tog = self.when_said("together", self.time + 1.5)
            self.fill_to(None, [
                (2, lambda t: self.light(cols[1][:2], cols[2][:2], run_time=t)),
                (1, lambda t: self.light(cols[3][:2], run_time=t)),
            ] if t_tog - self.time > 1.0 else [
                (1, lambda t: self.light(cols[3][:2], run_time=t))])
        else:
            self.fill_to(None, [
                (1, lambda t: self.light(cols[1][:2], cols[3][:2],
                                             run_time=t))])
        for b_ in list(st.bars):
            del st.bars[b_]
        st.chart = None
        st.extra = [header, block, tag, axis, head, *cols, *self.approx_out()]
        if first:
            self._why_panel = (axis, head, cols, tl)

    def beat_sink(self, beat) -> None:
        v, st = self.v, self.st
        L = int(v.n_layers)
        hi = int(v.sink.max.layer)
        self.ensure_arcs(hi)
        self.ensure_chart(hi)
        # "A common reading ... calls CLS and SEP a sink": at the peak (where `depth` ended;
        # else the header and arcs go there), the reading comes in under the header, once, in
        # the block's place (the block steps aside while it is read)
        gone = list(st.extra) + ([st.block] if st.block is not None else [])
        st.extra = []
        self._ghost = None
        block_at = int(st.layer) if st.block is not None and st.layer is not None else None
        st.block = None
        if st.layer != hi:
            # round 37 (the header said layer 24 under "query, key matrices of layer 28"): what
            # the layer before left leaves first; the header, arcs and weights go to the peak
            # as the voice names it ("Back at layer 24, the peak: 0.89"), its bar lit with
            # its number
            if gone:
                self.play(FadeOutPlace(VGroup(*gone)), run_time=0.5)
                gone = []
            t_hi = self.when_said(f"layer {int(v.layers[hi].layer)}", self.time,
                                  after=self.time - 0.5)
            t_v = self.when_said(f"{float(v.layers[hi].sink):.2f}", t_hi + 1.0, after=t_hi)
            self.hold_until(t_hi - 0.2)
            self.show_layer(hi, 0.8)
            if t_v - self.time > 0.5 and hi in st.bars:
                self.hold_until(t_v - 0.4)
                self.light(self.lit(st.bars, hi),
                           run_time=max(0.9, min(1.6, self.cue_at(1) - 0.2 - self.time)))
        cls = int(v.special[0])
        sink = sink_name(v, ",")
        verb = "are" if len(v.special_tokens.values) > 1 else "is"
        if self.says("the sink is"):
            # round 33 (r33x: SEP gets 0.01-0.03 here): the voice names the one special
            # token that takes the share at the peak; the screen names it alike
            top = max(range(len(v.special_tokens.values)),
                      key=lambda i: float(v.layers[hi].on_special[i]))
            sink, verb = as_written(v.special_tokens.values[top]), "is"
        reading = VGroup(txt("a common reading, not a measurement:", LAB),
                         txt(f"{sink} {verb} a \"sink\", where heads", LAB),
                         txt("park attention they do not need", LAB))
        reading.arrange(DOWN, buff=0.13, aligned_edge=LEFT)   # a box round one line clears the next
        reading.next_to([DIAG_LEFT, TOP_Y - 0.38, 0], DOWN + RIGHT, buff=0)
        # the block leaves once, in a play of its own, before the reading comes (in one
        # Succession the faded-out block came back over the reading)
        def swap(t):
            if gone:
                self.play(FadeOutPlace(VGroup(*gone)), run_time=0.4 * t)
                t *= 0.6
            self.play(FadeInPlace(reading), run_time=t)

        first = str(v.sink_kind) == "first" and self.says("can see")
        if first:
            # round 37 (a 14.5-s still): a decoder's sink passage moves with its voice
            self.first_token_sink(reading, gone, cls)
        else:
            self.fill_to(self.mark(1, 2), [
                (2, swap),
                (1, lambda t: self.emphasize(st.label[cls], run_time=t) if cls in st.label
                 else self.wait(t)),
                (1, lambda t: self.emphasize(reading[0], buff=0.04, run_time=t)),
            ])
        # "Layer 5 falls to 0.52, and some goes back to the words": the reading (of the peak)
        # leaves and the block comes back (still the peak's), then the last layer as every
        # layer before it: X^(5) rises into the block, the arcs reshape and the bar grows as
        # the number is said; its bar ringed, its heaviest word pointed at
        if hi == L - 1:
            self.fill_to(None, [(1, lambda t: self.wait(t))])
            st.extra = [reading]
            return
        # r34 (both reviews: "the sink is CLS; SEP gets little" over a still frame): at "sink
        # is" [CLS] boxed and the [CLS] parts of the bars outlined; at "gets
        # little" [SEP] alike, its thin parts lit
        spec = [int(j) for j in v.special.values]
        for i_s, phrase in enumerate(("sink is", "gets little")):
            if i_s >= len(spec) or not self.says(phrase):
                continue
            t_p = self.when_said(phrase, self.time, after=self.time - 0.5)
            if t_p > self.mark(2, 2) - 0.8:
                continue
            self.hold_until(t_p - 0.3)
            boxed = [st.label[spec[i_s]]] if spec[i_s] in st.label else []
            parts = [st.bars[l].parts[i_s] for l in range(1, hi + 1)
                     if l in st.bars and i_s < len(st.bars[l].parts)]
            rt_s = max(0.8, min(1.3, self.mark(2, 2) - 0.2 - self.time))
            # outlined, not recoloured (a tint read as the other token's)
            rings_s = [SurroundingRectangle(p_, buff=0.025, color=T.POINTER, stroke_width=3)
                       .set_z_index(4) for p_ in parts]
            rings_s += [SurroundingRectangle(m_, buff=0.06, color=T.POINTER, stroke_width=3)
                        for m_ in boxed]
            # the token boxed and its bar parts outlined together, held while said
            self.play(*[Succession(FadeIn(r_, run_time=0.2 * rt_s), Wait(0.6 * rt_s),
                                   r_.animate(run_time=0.2 * rt_s).set_stroke(opacity=0))
                        for r_ in rings_s], run_time=rt_s)
            self.remove(*rings_s)
        word = int(v.layers[L - 1].top_word.pos)
        chips = block_at is not None and block_at == hi
        t_num = self.when_said(f"{float(v.layers[L - 1].sink):.2f}", self.mark(1, 2) + 1.5)
        t_say = self.when_said(f"Layer {int(v.layers[L - 1].layer)}", self.mark(1, 2),
                               after=self.time - 1.0)
        # the reading leaves as the voice turns to the last layer, the block comes back;
        # the caption turns to the last layer with it (round 28: its fall played under
        # "The sink: a reading, not a measurement")
        # r34 (both reviews: the caption turned while "SEP gets little" was said): as the
        # voice turns to the last layer
        self.hold_until(max(self.time, t_say - 0.9))
        mask = getattr(self, "_mask", None)
        if mask is not None:
            # the mask leaves (the reading left as it came), the arcs back at full strength
            reading = mask
            self._mask = None
        back = [Transform(st.arcs, self.arcs(v.layers[hi].row))] if mask is not None else []
        if chips:
            st.block = self.qk_block(v.layers[hi].layer)
            self.play(FadeOutPlace(reading), *back, run_time=0.4)
            self.play(FadeInPlace(st.block), run_time=0.4)
            st.layer = hi
            self.morph_layer(L - 1, t_num)
        else:
            self.play(FadeOutPlace(reading), *back, run_time=0.4)
            self.hold_until(t_num - 0.6)
            self.show_layer(L - 1, 0.9, bar=True)
        # r34b (r34: the caption gave the fall away before the arcs): with the bar
        if self.burned is None:
            self.set_caption(
                f"Layer {int(v.layers[L - 1].layer)}: the share on "
                f"{sink_name(v, ',')} falls to "
                f"{float(v.layers[L - 1].sink):.{int(v.decimals)}f}.")
        # "..., and some goes back to the words": its bar ringed, its heaviest word pointed at
        t_words = self.when_said("back to the words", self.time)
        self.hold_until(t_words - 0.3)
        # r34 (r33b: the words that gained were not marked): the words' weights boxed
        # together (every token but the special ones: one run between [CLS] and [SEP])
        words = VGroup(*[self.num_at(st.nums, j) for j in st.xs if j not in spec])
        self.fill_to(None, [
            (1, lambda t: self.light(VGroup(st.bars[L - 1].parts, st.bars[L - 1].val),
                                         run_time=t)),
            (1, lambda t: self.emphasize(words, buff=0.08, run_time=t) if len(words)
             else self.wait(t)),
        ])

    def first_token_sink(self, reading, gone, cls: int) -> None:
        """Round 37 (a decoder's sink passage was a 14.5-s still): "A common reading, not
        something we measured": the reading comes, its first line boxed as said; "calls the
        first token a sink": the first token and the chart's key boxed together (every bar
        is its share); "In a decoder it is the one token that every token after it can see":
        the arcs fade to a trace and the decoder's causal mask is drawn over the token row,
        one row per drawn column (each sees itself and the columns left of it), row by row;
        then the first column, seen by every row, boxed with the first token; "adds no start
        mark of its own": the first token boxed again (a word of the sentence). The mask
        stays until the voice turns to the last layer (`_mask`)."""
        v, st = self.v, self.st
        t_read = self.when_said("common reading", self.time, after=self.time - 0.5)
        t_meas = self.when_said("measured", t_read + 1.2, after=t_read)
        t_sink = self.when_said("a sink", t_meas + 1.5, after=t_meas)
        t_park = self.when_said("park attention", t_sink + 1.5, after=t_sink)
        t_dec = self.when_said("in a decoder", t_park + 2.0, after=t_park)
        t_see = self.when_said("can see", t_dec + 2.0, after=t_dec)
        t_mark = self.when_said("start mark", t_see + 2.0, after=t_see)
        if gone:
            self.play(FadeOutPlace(VGroup(*gone)), run_time=0.5)
        self.hold_until(t_read - 0.3)
        self.play(FadeInPlace(reading), run_time=0.8)
        self.hold_until(t_meas - 0.5)
        self.emphasize(reading[0], buff=0.04, run_time=max(0.8, min(1.6, t_sink - 0.4 - self.time)))
        key = st.chart[0][1][0] if st.chart is not None else VGroup()
        self.hold_until(t_sink - 0.3)
        labels = [st.label[cls]] if cls in st.label else []
        self.emphasize(*labels, key, buff=0.08,
                       run_time=max(0.8, min(1.8, t_park - 0.4 - self.time)))
        # "... where heads park attention ...": the reading's words for it boxed
        self.hold_until(t_park - 0.3)
        self.emphasize(VGroup(*reading[1:]), buff=0.06,
                       run_time=max(0.8, min(1.8, t_dec - 0.6 - self.time)))
        # "In a decoder it is the one token that every token after it can see": the reading
        # (said) leaves, the arcs fade to a trace; the mask is drawn row by row
        mask = self.causal_mask()
        cells, col0, lab = mask.cells, mask.col0, mask.lab
        self.hold_until(t_dec - 0.2)
        # round 37 (the mask drawn over a faded arc and the weights): the arcs and the
        # weights leave, the mask has the space to itself; each row comes with its token
        self.play(FadeOutPlace(reading), st.arcs.animate.set_stroke(opacity=0),
                  *([st.nums.animate.set_opacity(0)] if st.nums is not None else []),
                  FadeIn(lab, shift=DOWN * 0.15, rate_func=squish_rate_func(smooth, 0.4, 1)),
                  run_time=0.7)
        self.play(LaggedStart(*[AnimationGroup(GrowFromEdge(r[0], LEFT), FadeInPlace(r[1]))
                                for r in cells], lag_ratio=0.25),
                  run_time=max(1.2, min(2.6, t_see - 0.1 - self.time)))
        # "... can see": the first column, in every row, boxed with the first token
        self.hold_until(t_see - 0.1)
        self.emphasize(col0, *labels, buff=0.06,
                       run_time=max(0.9, min(2.0, t_mark - 0.5 - self.time)))
        if self.says("start mark") and labels:
            self.hold_until(t_mark - 0.2)
            self.emphasize(*labels, buff=0.08, run_time=1.2)
        self._mask = mask

    def causal_mask(self) -> VGroup:
        """A decoder's causal mask over the token row: one row per drawn column (an ellipsis
        stands for its tokens), top to bottom in the sentence's order, a bar from the first
        column to its own (what that token can see: itself and every token before it), its
        own end white, the row's token written right of it (round 37: rows without names;
        the focus word's name gold, as in the token row); `col0`, the first column's part of every row (the first
        token, seen by all of them); named above (`lab`). `cells[r]`: VGroup(bar, name)."""
        st, v = self.st, self.v
        n = len(st.cols)
        y_foot = max(m.get_top()[1] for m in st.label.values()) + 0.22
        dy, h = 0.3, 0.16
        w = min(0.6, min(b - a for a, b in zip(self.col_x, self.col_x[1:])) - 0.12)
        x0 = self.col_x[0] - w / 2
        rows_, col0 = VGroup(), VGroup()
        for r, j in enumerate(st.cols):
            y = y_foot + (n - 1 - r) * dy + h / 2
            mine = j is not None and j in v.focus.values
            bar = Rectangle(width=self.col_x[r] + w / 2 - x0, height=h, stroke_width=0)
            bar.set_fill(T.TEXT, 0.45).move_to([x0, y, 0], aligned_edge=LEFT)
            own = Rectangle(width=w, height=h, stroke_width=0)
            own.set_fill(T.TEXT, 0.95).move_to([self.col_x[r], y, 0])
            name = txt(ELLIPSIS if j is None else as_written(v.tokens.values[j]), LAB,
                       T.HIGHLIGHT if mine else T.MUTED)
            name.next_to(own, RIGHT, buff=0.1)
            rows_.add(VGroup(VGroup(bar, own), name))
            col0.add(Rectangle(width=w, height=h, stroke_width=0, fill_opacity=0)
                     .move_to([self.col_x[0], y, 0]))
        # round 39 (a review: no legend for the two shades): a key, white and grey
        def key(op: float, words: str) -> VGroup:
            sw = Rectangle(width=0.3, height=h, stroke_width=0).set_fill(T.TEXT, op)
            return VGroup(sw, txt(words, LAB)).arrange(RIGHT, buff=0.1)
        lab = VGroup(txt("each row, one token, sees:", LAB), key(0.95, "itself"),
                     key(0.45, "the tokens before it")).arrange(RIGHT, buff=0.3)
        if lab.width > DIAG_RIGHT - DIAG_LEFT:       # show less, not smaller
            lab = VGroup(lab[0], VGroup(*lab[1:]).arrange(RIGHT, buff=0.3)).arrange(
                DOWN, buff=0.1, aligned_edge=LEFT)
        lab.next_to(rows_, UP, buff=0.18).align_to([DIAG_LEFT, 0, 0], LEFT)
        g = VGroup(lab, rows_, col0)
        g.cells, g.col0, g.lab = rows_, col0, lab
        return g

    def beat_deep_heads(self, beat) -> None:
        v, st = self.v, self.st
        d = v.deep
        H = len(d.heads)
        # a sentence of its own for the motive when the word is right before the focus word
        # ("river sits right before bank: ..."): the cues after it one later
        n = 3
        # "At layer 5" comes at once: the fair test's panel leaves and the arcs go straight
        # to layer 5 on the beat's first frames (no layer-1 arcs under "At layer 5")
        left = st.extra + ([st.block] if st.block is not None else [])
        st.extra, st.block = [], None
        # the test's panel leaves before the header and arcs go to the last layer (no text
        # of the two on top of each other)
        if left:
            self.play(FadeOutPlace(VGroup(*left)), run_time=0.4)
        self.ensure_arcs(int(d.layer))
        self.show_layer(int(d.layer), 0.5)
        tgt = int(d.target.pos)
        kept = [j for j in st.xs if j not in v.focus.values]
        # 1. "At layer 5, bank's head-average gives river 0.14": the arc, then its number
        # pointed at as it is said
        t_avg = self.when_said(f"{float(d.target.weight):.2f}", self.mark(1, n) - 1.0)
        if tgt in st.xs:
            self.hold_until(t_avg - 1.4)
            self.flash(dict(zip(kept, st.arcs))[tgt], run_time=1.0)
            self.hold_until(t_avg - 0.2)
            self.point_below(self.num_at(st.nums, tgt), run_time=1.4)
        river_num = self.num_at(st.nums, tgt) if tgt in st.xs else None
        # 2. the heads, heaviest first (the order the voice reads them); one scale (a weight
        # of 1 is `unit` long); the river arc's number becomes the dashed
        # head-average line's
        # the panel centred and large (round 26: the left third at the label size, the right
        # half empty): the rows at the body size, as tall as the stage allows
        RS = T.TYPE.body
        # round 31 (12 bars, two dashed lines and three notes: a crowded frame): only the
        # three heaviest heads, the ones the voice reads, against the head-average
        order = [int(t.head) for t in d.top3]
        H = len(order)
        pitch = min(0.7, 4.1 / H)
        top = 1.6
        name_x, bar_x, bar_w = -3.05, -2.25, 4.6     # round 31: centred (it hugged the left)
        vmax = max(d.weight.values)
        unit = bar_w / vmax
        mx = bar_x + unit * float(d.target.weight)                # the head-average's line
        title = line(txt(f"\"{v.word}\" → \"{d.target.token}\", head by head, at layer",
                         T.TYPE.body), Num(d.layer, decimals=0, size=T.TYPE.body))
        title.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)
        h1 = line(txt("attention weight: the three heaviest of", LAB),
                  Num(v.n_heads, decimals=0, size=LAB), txt("heads", LAB))
        h1.next_to([bar_x, top + 0.5, 0], RIGHT, buff=0)
        rows = {}
        prec = int(v.decimals)
        for i, h in enumerate(order):
            y = top - i * pitch
            name = line(txt("head", RS), Num(d.heads[h], decimals=0, size=RS))
            name.move_to([0, y, 0]).align_to([name_x + 0.6, 0, 0], RIGHT)
            r = Rectangle(width=max(0.01, unit * float(d.weight[h])),
                          height=min(0.4, pitch * 0.62), stroke_width=0)
            r.set_fill(T.WEIGHTS, 0.9).move_to([bar_x, y, 0], aligned_edge=LEFT)
            # a box round it (BOX) stays clear of the bar's end and the dashed line
            val = Num(d.weight[h], decimals=prec, size=RS).next_to(r, RIGHT, buff=BOX + 0.08)
            if val.get_left()[0] < mx + BOX + 0.06:
                val.next_to([mx, y, 0], RIGHT, buff=BOX + 0.2)    # clear of the dashed line
            g = VGroup(name, r, val)
            g.bar, g.val = r, val
            rows[h] = g
        listed = VGroup(*[rows[h] for h in order])
        bottom = top - (H - 1) * pitch - pitch / 2
        mean_line = DashedLine([mx, top + pitch / 2, 0], [mx, bottom, 0], color=REF,
                               stroke_width=2.5, dash_length=0.08)
        # each dashed line named at its own foot, at the label size
        mean_num = Num(d.target.weight, decimals=prec, size=RS, color=REF)
        mean_lab = line(txt("head-average", RS, REF), mean_num)
        mean_lab.next_to([mx, bottom, 0], DOWN, buff=0.1)
        top3 = [int(t.head) for t in d.top3]
        # "over twice the average": a second dashed line at twice the head-average, over the
        # rows whose bars reach past it only (the heaviest first: no number under it), named
        # at its top, right of it (clear of the axis title)
        mx2 = bar_x + unit * 2 * float(d.target.weight)
        past = [h for h in order if float(d.weight[h]) > 2 * float(d.target.weight)]
        y_low = top - (len(past) - 0.5) * pitch if past else top - pitch / 2
        twice_line = DashedLine([mx2, top + pitch / 2, 0], [mx2, y_low, 0], color=REF,
                                stroke_width=2.5, dash_length=0.08)
        twice_lab = txt("2 × head-average", LAB, REF)
        # round 31: at its foot, like the average's (its top was by the axis title)
        twice_lab.next_to([mx2, bottom, 0], DOWN, buff=0.1)
        if twice_lab.get_left()[0] < mean_lab.get_right()[0] + 0.3:
            twice_lab.next_to(mean_lab, DOWN, buff=0.12).align_to([mx2 - 0.2, 0, 0], LEFT)
        twice_g = VGroup(twice_line, twice_lab)
        rings = {h: SurroundingRectangle(rows[h].bar, buff=0.04, color=T.POINTER,
                                         stroke_width=3.5) for h in top3}
        # what leaves: everything of the arc diagram but the river arc's number
        if river_num is not None:
            st.nums.remove(river_num)
            self.add(river_num)
        old = [m for m in (st.tokens, st.note, st.nums, st.chart, st.arcs, st.counter) if m]
        old += list(st.bars.values()) + self.approx_out()
        boxes = VGroup()
        if river_num is not None:
            average = [ReplacementTransform(river_num, mean_num), FadeInPlace(mean_lab[0]),
                       Create(mean_line)]
        else:
            average = [FadeInPlace(mean_lab), Create(mean_line)]
        # 2. "Heads 6, 7 and 5 give it 0.46, 0.32 and 0.31": the arc diagram leaves as the
        # panel comes (in one move: the stage is never empty), river's number becomes the
        # dashed head-average line's; the heads' bars grow, heaviest first, and each of the
        # three is boxed as its number is said
        t_heads = self.when_said("heads", self.mark(1, n))
        self.hold_until(t_heads - 0.3)
        t_w = [self.when_said(f"{float(t.weight):.2f}", self.time + 2.0 + 0.8 * i)
               for i, t in enumerate(d.top3)]
        # the old stage leaves first (nothing of it under the panel), then the panel comes
        # with its bars growing at once (never an empty panel)
        self.play(FadeOutPlace(VGroup(*old)), run_time=0.5)
        # no "≈" note left in the scene under the panel's title (round 31: at the body size
        # a faded one still lay on a teacher's sentence's title)
        self.remove(*getattr(self, "_notes", []))
        rt = max(1.6, min(2.4, t_w[0] - 0.3 - self.time))
        grow = LaggedStart(*[AnimationGroup(GrowFromEdge(g.bar, LEFT),
                                            FadeInPlace(VGroup(g[0], g.val)))
                             for g in listed], lag_ratio=0.08,
                           rate_func=squish_rate_func(lambda x: x, 0.2, 1))
        self.play(FadeInPlace(title), FadeInPlace(h1), *average, grow, run_time=rt)
        st.tokens = st.note = st.counter = st.arcs = st.nums = st.chart = None
        st.bars = {}
        # each of the three outlined as its number is said (its bar keeps its colour; round
        # 26: a white fill), its number pulses (round 25: a box round the number cut it)
        for h, t in zip(top3, t_w):
            self.hold_until(t - 0.35)
            self.play(Create(rings[h]),
                      Indicate(rows[h].val, color=T.POINTER, scale_factor=1.2), run_time=0.6)
        # "..., over twice the average": the line at twice the average is drawn down over the
        # bars that pass it, the three numbers pulse
        t_hide = self.when_said("over twice", self.time)
        self.hold_until(t_hide - 0.3)
        self.play(Create(twice_line), FadeInPlace(twice_lab), run_time=0.7)
        self.play(*[Indicate(rows[h].val, color=T.POINTER, scale_factor=1.2) for h in top3],
                  run_time=0.8)
        # "over twice the average": the head-average's label ringed (until the next words)
        t_most = self.when_said("not all", self.time + 1.2) \
            if self.says("not all") else None
        t_why = self.when_said("we did not test", self.time + 1.2)
        t_next = t_most if t_most is not None else t_why
        self.emphasize(mean_lab, run_time=max(1.0, min(2.4, t_next - 0.6 - self.time)))
        untested = txt(f"why \"{d.target.token}\": not tested", LAB)
        untested.move_to([0, bottom - 1.3, 0])      # under the panel (the notes are right)
        # "though not all of them look at river most": beside each of the three heads that
        # looks most at another token, where (its row's largest weight, from the plan)
        untested_extra = []
        if t_most is not None:
            lay_d = v.layers[int(d.layer)]
            for h in top3:
                hr = lay_d.heads[h]
                j = max(range(len(hr.values)), key=lambda k: float(hr[k]))
                if j == tgt:
                    continue
                tok = as_written(v.tokens.values[j])
                nt = line(txt("looks most at", LAB), txt(tok, LAB),
                          Num(hr[j], decimals=prec, size=LAB))
                # right after its own row's number (round 27: in a column 170 px off, it named
                # no head)
                nt.next_to(rows[h].val, RIGHT, buff=0.4)
                untested_extra.append(nt)
            if untested_extra:
                self.hold_until(t_most - 0.3)
                self.play(LaggedStart(*[FadeIn(nt, shift=LEFT * 0.3) for nt in untested_extra],
                                      lag_ratio=0.3), run_time=1.0)
        # 3. "...; why, we did not test": said beside the panel, right of the weights' column
        t_why = self.when_said("we did not test", self.time)
        self.hold_until(t_why - 0.8)
        self.play(FadeIn(untested, shift=LEFT * 0.4), run_time=1.0)
        # "So a head-average can hide what single heads do": the average's line and label
        # lit, then the three heads' bars
        if self.says("can hide"):
            t_hide2 = self.when_said("can hide", self.time)
            self.hold_until(t_hide2 - 0.8)
            self.fill_to(None, [
                (1, lambda t: self.emphasize(mean_lab, run_time=t,
                                             extra=[mean_line.animate(rate_func=there_and_back)
                                                    .set_stroke(T.POINTER)])),
                (1, lambda t: self.light(*[rows[h].bar for h in top3], run_time=t))])
        else:
            self.fill_to(None, [(1, lambda t: self.wait(t))])
        st.extra = [title, h1, mean_line, mean_lab, twice_g, untested, *untested_extra,
                    *rings.values(), *[VGroup(g[0], g.bar, g.val) for g in listed]]

    def summary_side(self, scope, chart, why, ev, panels) -> None:
        """Round 34b (both reviews: the summary regrew the depth chart from empty, then the
        test's bars): the fair test's panel stays, its four bars (its arcs, block and tokens
        leave; round 35: 0.40 and 0.70 kept) and the depth chart comes back whole beside it,
        on the left; each depth bar lights as its number is said; the test's verdict comes
        over its panel as said, the bars it rests on lit."""
        v, st = self.v, self.st
        axis, head, cols, tl = why
        keep = [axis, head, *cols]
        gone = [m for m in panels if m not in keep]
        chart.shift(RIGHT * (-(7.11 - T.EDGE) + 0.2 - chart.get_left()[0]))
        L = int(v.n_layers)
        # round 35 (both reviews: the summary dropped the test's 0.40 and 0.70, the bars its
        # verdict compares the swaps with): the test's four bars stay, all of them, and move
        # right as the chart comes back whole (not regrown) beside them
        self.play(FadeOutPlace(VGroup(*gone)), run_time=0.5)
        stays = VGroup(head, axis, *cols)
        # centred in the room right of the chart
        shift = (chart.get_right()[0] + (7.11 - T.EDGE)) / 2 - stays.get_center()[0]
        self.play(FadeInPlace(scope), FadeInPlace(chart), stays.animate.shift(RIGHT * shift),
                  run_time=1.0)
        panel = stays
        # "bank's row moves with depth": the six bars ringed; then each lit as its number
        # (the first layer's, the peak's, the last's) is said
        self.light_profile(chart, v, L)
        # "At layer 1, the one layer tested, neither alone ...; both together did": the
        # verdict over the test's panel as the layer is named; the two one-swap bars lit at
        # "neither alone", the model's own at "together"
        g, bars, phrase, ring, slots = ev
        cap = g[1]
        cap.scale(txt("layer", LAB).height / cap[0][0].height)      # at the label size
        cap.next_to(head, UP, buff=0.25).set_x(panel.get_center()[0])
        t_at = self.when_said(f"at layer {int(tl)}", self.time)
        t_p = self.when_said(phrase, t_at + 1.0)
        t_tog = self.when_said("together", t_p + 2.0, after=t_p)
        self.hold_until(t_at - 0.2)
        self.play(FadeIn(cap, shift=DOWN * 0.15), run_time=0.6)
        self.hold_until(t_p - 0.2)
        self.light(*[VGroup(cols[i][0], cols[i][1]) for i in (1, 2)],
                   run_time=max(0.9, min(1.8, t_tog - 0.5 - self.time)))
        # "both together did": the test's own-row bar (both new) lit with the chart's bar of
        # that layer (the same row)
        self.hold_until(t_tog - 0.3)
        own = chart[1 + tl]
        self.fill_to(None, [(1, lambda t: self.light(VGroup(cols[3][0], cols[3][1]),
                                                     VGroup(own.parts, own.val),
                                                     run_time=t))])
        st.extra = [scope, chart, panel, cap]

    def beat_summary(self, beat) -> None:
        """The summary, its own chapter marker (round 26: it shared the heads' one): the scope
        in the header's place; the six layers' bars; then one panel at a time."""
        v, st = self.v, self.st
        # r34b: no "≈" note in the summary (said or noted where the "≈" bar first came; here
        # it lay on the verdict)
        self._approx_said = True
        d = v.deep
        prec = int(v.decimals)
        n = 3
        tie, last = v.tie, v.tie_last
        # 4. "In short, for this one sentence: bank's row moves with depth. Swapping the
        # matrices first, then X, at layer 1 the rise came with the changed X, at layer 5 the
        # fall with the layer's own matrices. And at layer 5, three heads give river over
        # twice the average": the head panel leaves; the scope comes in the header's place;
        # the six layers' bars come back on the right; each test's three bars, then the
        # heads' bars against the average, come on the left as said, each with two short
        # lines under it; the evidence (the bars) ringed as the voice ends
        B = T.TYPE.body
        panels = VGroup(*st.extra, *([st.block] if st.block is not None else []),
                        *[m for m in (st.tokens, st.note, st.nums, st.chart, st.arcs,
                                      st.counter) if m], *st.bars.values(), *self.approx_out())
        # r34b: any "≈" note still up leaves with the stage (a draft's lay on the verdict)
        for a_ in getattr(self, "_notes", []):
            if a_ in self.mobjects and a_ not in panels:
                panels.add(a_)
        st.extra, st.block = [], None
        st.tokens = st.note = st.counter = st.arcs = st.nums = st.chart = None
        st.bars = {}
        L = int(v.n_layers)
        chart = VGroup(self.chart_frame(), *[self.bar(l) for l in range(L)])
        # r34 (r33y: small, centred in empty space): larger, alone on the stage
        # r34b (both reviews: the chart regrown from empty, a replay): it comes back whole
        # where the depth beats left it, then moves to the middle, larger
        chart_f = min(1.45, 4.8 / chart.height)
        scope = txt("in short, for this one sentence:", B)
        scope.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)
        unit = BAR_H * 0.8
        pitch_s, w_s = 1.2, 0.5
        base = CHART_Y + 0.45

        def stack(x, parts_w, colors):
            r, y = VGroup(), base
            for w_, c in zip(parts_w, colors):
                h_ = max(0.01, unit * float(w_))
                part = Rectangle(width=w_s, height=h_, stroke_width=0)
                part.set_fill(c, 1.0).move_to([x, y, 0], aligned_edge=DOWN)
                r.add(part)
                y += h_
            return r

        words = {"changed x": "the new X", "own matrices": "own matrices"}
        special = [int(j) for j in v.special.values]
        evidence = []           # (group, its bars, phrase, bars to ring, moved in: {slot: layer})
        x0 = DIAG_LEFT
        pitch_s = 0.95
        for t_ in (tie, last):
            if isinstance(t_, Value) or t_.by.value is None:
                continue
            tl_ = int(t_.layer)
            if not re.search(rf"\blayer {tl_}\b", str(self.beat.get("narration") or "")
                             .lower()):
                continue            # round 32: a test the summary does not name (cut) is not shown
            pv, own = v.layers[tl_ - 1], v.layers[tl_]
            # the two orders: the model's own bars (the layer before, the layer) outside,
            # the two one-swap bars between them
            specs = [(pv.sink, pv.sink_adds, pv.row, pv.layer, int(pv.layer)),
                     (t_.old_sink, t_.old_adds, t_.old_row, t_.layer, int(pv.layer)),
                     (t_.swap_sink, t_.swap_adds, t_.swap_row, pv.layer, tl_),
                     (own.sink, own.sink_adds, own.row, t_.layer, tl_)]
            cols_s = VGroup()
            for i, (share, ok, row, lw, lx) in enumerate(specs):
                x = x0 + pitch_s / 2 + i * pitch_s
                r = stack(x, [row[j] for j in special], [shade(k) for k in range(len(special))])
                val = share_val(share, ok, VAL, int(v.decimals)).next_to(r, UP, buff=0.06)
                lab = self.wx_label(lw, lx).next_to([x, base, 0], DOWN, buff=0.1)
                c = VGroup(r, val, lab)
                c.bars = r
                cols_s.add(c)
            agree = t_.by.value == t_.swap_by.value
            # both orders credit the same; they differ; or X first credits neither
            # "neither alone" where the voice says it (each order credits the swap made
            # second: the first swap alone did little), else that the order decides
            neither = self.says("neither alone")
            verdict, sub = ((words[t_.by.value], "(either order)") if agree else
                            ("needs both", "(neither alone gives the full rise)" if neither else
                             "(the order decides)") if t_.swap_by.value else
                            (words[t_.by.value], "(matrices first only)"))
            head_ = line(txt("layer", LAB), Num(t_.layer, decimals=0, size=LAB),
                         txt(f": {verdict}", LAB))
            head_[2].shift(LEFT * (SPACE - 0.03))
            cap = VGroup(head_, txt(sub, LAB))
            cap.arrange(DOWN, buff=0.08)
            cap.next_to(cols_s, DOWN, buff=0.14).set_x(x0 + 2 * pitch_s)
            # round 32 (a panel without its axis label): what the bars are, over them
            ax = txt(f"share of {v.word}'s row on " + " + ".join(map(as_written,
                                                                v.special_tokens.values)), LAB)
            ax.next_to(cols_s, UP, buff=0.3).set_x(x0 + 2 * pitch_s)
            g = VGroup(cols_s, cap, ax)
            g.ax = ax
            phrase = "either order" if agree else (
                "neither alone" if self.says("neither alone")
                else "depends on the order") if t_.swap_by.value else f"at layer {tl_},"
            ring = [VGroup(cols_s[i][0], cols_s[i][1])           # bars with their numbers
                    for i in ((1, 3) if agree and t_.by.value == "own matrices" else (1, 2))]
            self.centre_panel(g, grow=1.5, room=4.8)         # alone, in the stage's middle (r34: larger)
            evidence.append((g, [c.bars for c in cols_s], phrase, ring,
                             {0: tl_ - 1, 3: tl_} if not evidence else {}))
        order = None
        # the heads: the average's bar (neutral) and the three heads', a dashed line at
        # twice the average across the heads
        # the heads' pitch: the widest name clear of its neighbours, within the frame
        widest = max(line(txt("head", LAB), Num(t.head, decimals=0, size=LAB)).width
                     for t in d.top3)
        hp = max(1.4, widest + 0.45)
        hb = VGroup()
        items = [(d.target.weight, None)] + [(t.weight, t.head) for t in d.top3]
        for i, (w_, hh) in enumerate(items):
            x = x0 + hp / 2 + i * hp
            r = stack(x, [w_], [REF if hh is None else T.WEIGHTS])
            val = Num(w_, decimals=prec, size=VAL).next_to(r, UP, buff=0.06)
            # one term for one thing (round 27: "mean" here, "head-average" before it)
            lab = (VGroup(txt("head-", LAB, REF), txt("average", LAB, REF))
                   .arrange(DOWN, buff=0.06) if hh is None else
                   line(txt("head", LAB), Num(d.heads[int(hh)], decimals=0, size=LAB)))
            lab.next_to([x, base, 0], DOWN, buff=0.1)
            c = VGroup(r, val, lab)
            c.bars = r
            hb.add(c)
        y2 = base + 2 * unit * float(d.target.weight)
        twice = DashedLine([x0 + 1.5 * hp - 0.4, y2, 0], [x0 + 3.5 * hp + 0.4, y2, 0],
                           color=REF, stroke_width=2, dash_length=0.07)
        twice_lab = txt("2 × head-average", LAB, REF)
        twice_lab.next_to([x0 + 3.5 * hp + 0.5, y2, 0], RIGHT, buff=0)   # clear of the bars
        head_ = line(txt("layer", LAB), Num(d.layer, decimals=0, size=LAB), txt(":", LAB))
        head_[2].shift(LEFT * (SPACE - 0.03))
        cap = VGroup(head_, txt(f"weight on \"{d.target.token}\"", LAB)).arrange(DOWN, buff=0.08)
        cap.next_to(hb, DOWN, buff=0.14).set_x(x0 + 2 * hp)
        hg = VGroup(hb, VGroup(twice, twice_lab), cap)
        self.centre_panel(hg)
        # round 31: the heads, said in the beat just before, are not said again in the summary
        # of attention_depth's own storyboard (a draft's may still say them): their panel only
        # when said
        if self.says(f"and at layer {int(d.layer)}, heads"):
            evidence.append((hg, [c.bars for c in hb], f"and at layer {int(d.layer)}, heads",
                             [VGroup(c[0], c[1]) for c in hb[1:]], {}))
        fits = all(g.width < 2 * (7.11 - T.EDGE) for g, *_ in evidence)
        why = getattr(self, "_why_panel", None)
        if why is not None and len(evidence) == 1 and int(why[3]) == int(tie.layer) \
                and evidence[0][4] and all(m in panels for m in (why[0], why[1], *why[2])):
            self.summary_side(scope, chart, why, evidence[0], panels)
            return
        if len(panels):
            self.play(FadeOutPlace(panels), run_time=0.4)
        self.play(FadeInPlace(scope), FadeInPlace(chart), run_time=0.7)
        self.play(chart.animate.scale(chart_f).move_to([0, -0.25, 0]), run_time=0.9)
        # "bank's row moves with depth": the six bars ringed; then the chart leaves for the
        # tests' and heads' bars
        self.light_profile(chart, v, L)
        shown = []
        # no test to show (a model whose attention is not redone: SmolLM2's RoPE): the chart
        # stays, the profile the voice sums up (it left an empty stage)
        if fits and evidence:
            # "At layer 1, ...": the model's own bars of the tested layers move from the
            # chart to the outer places of their test's panel (the same bars: they keep
            # their identity); the rest of the chart leaves
            t_first = self.when_said(evidence[0][2], self.time + 2.0) if evidence else self.time
            self.hold_until(max(self.time, t_first - 3.4))
            moves, moved, labels_in = [], set(), []
            for g, bars, phrase, ring, slots in evidence:
                for slot, l in slots.items():
                    b = chart[1 + l]
                    c = g[0][slot]
                    moves += [ReplacementTransform(b.parts, c[0]),
                              ReplacementTransform(b.val, c[1]),
                              FadeOutPlace(b.tick, rate_func=squish_rate_func(smooth, 0, 0.25))]
                    labels_in.append(c[2])
                    moved.add(l)
            rest = [chart[0]] + [chart[1 + l] for l in range(L) if l not in moved]
            # the rest leaves first (no moving bar passes through a fading one)
            # the "≈" note leaves with the chart's "≈" bar when no moved bar carries one
            keep_note = any(getattr(chart[1 + l].val, "approx", False) for l in moved)
            self.play(FadeOutPlace(VGroup(*rest, *([] if keep_note else self.approx_out()))),
                      run_time=0.5)
            if moves:                   # no test (a model whose attention is not redone)
                self.play(*moves, run_time=1.2)
                # their new labels once they have landed (no label waiting for its bar)
                self.play(FadeInPlace(VGroup(*labels_in)), run_time=0.4)
            for g, bars, phrase, ring, slots in evidence:
                for slot in slots:
                    self.add(g[0][slot])
            chart = VGroup()
        for k, (g, bars, phrase, ring, slots) in enumerate(evidence):
            if not fits:
                break
            t_p = self.when_said(phrase, self.time + 1.0)
            # one panel at a time (round 25: three side by side, crowded): the one before
            # slides out left as this one's bars grow in the middle; its other bars (the two
            # swaps; the heads) grow a little before its verdict is said; then the bars that
            # the verdict rests on light up as it is said
            self.hold_until(max(self.time, t_p - 1.5))
            # round 31 (the summary cross-faded its panels one after another): two tests end
            # side by side, the first moving to the left half at its own size (its words at
            # the label size, never below) as the second grows in the right half
            pair_end = k == 1 and len(evidence) == 2
            if pair_end:
                s0 = shown[-1]
                half = 7.11 - T.EDGE
                # each in its half (shrunk only if it would not fit: not at MiniLM's sizes)
                f0 = min(1.0, (half - 0.4) / max(s0.width, g.width))
                g.scale(f0)
                g.move_to([half / 2, -0.15, 0])
                left_at = [-half / 2, -0.15, 0]
                # round 32 (a draft's two panels: the right one 10 px lower, its axis label
                # a repeat): one baseline, the left panel's axis label for both
                s0c = s0.copy().scale(f0).move_to(left_at)
                g.shift(UP * (s0c[0][0][0].get_bottom()[1] - g[0][0][0].get_bottom()[1]))
                if getattr(g, "ax", None) is not None:
                    g.remove(g.ax)
                out = [s0.animate.scale(f0).move_to(left_at)]
                gone = None
            elif shown:
                # the "≈" note leaves with the last panel whose numbers carry one
                note = self.approx_out() if not any(getattr(c[1], "approx", False)
                                                     for c in g[0]) else []
                out = [shown[-1].animate(rate_func=squish_rate_func(smooth, 0, 0.4))
                       .shift(LEFT * 3).set_opacity(0),
                       *[FadeOutPlace(a, rate_func=squish_rate_func(smooth, 0, 0.4))
                         for a in note]]
                gone = shown[-1]
            else:
                out, gone = [], None
            grow = [AnimationGroup(GrowFromEdge(b, DOWN), FadeInPlace(VGroup(c[1], c[2])))
                    for i, (b, c) in enumerate(zip(bars, g[0])) if i not in slots]
            rt = max(0.9, min(2.0, t_p - 0.2 - self.time))
            late = squish_rate_func(smooth, 0.3 if out else 0, 1)
            self.play(*out, LaggedStart(*grow, lag_ratio=0.35, rate_func=late),
                      FadeInPlace(VGroup(*g[1:]), rate_func=late),
                      *self.approx_in(*[c[1] for c in g[0]]), run_time=rt)
            if gone is not None:
                self.remove(gone)
            shown.append(g)
            self.hold_until(t_p - 0.1)
            t_n = self.when_said(evidence[k + 1][2], self.time + 2.0) \
                if k + 1 < len(evidence) else self.time + 2.0
            self.light(*ring, run_time=max(0.9, min(1.8, t_n - 1.7 - self.time)))
        # the voice ends on the evidence: the last panel's bars lit
        if shown:
            self.fill_to(None, [(1, lambda t: self.light(*evidence[len(shown) - 1][3],
                                                         run_time=t))])
        else:
            self.fill_to(None, [(1, lambda t: self.wait(t))])
        st.extra = [scope, chart, *(shown[-2:] if len(evidence) == 2 else shown[-1:]),
                    *self.approx_out()]


__all__ = ["AttentionDepthScene"]
