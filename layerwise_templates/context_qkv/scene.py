"""Context enters Q, K, V: one token in two sentences, the same W at every layer, different X.

Beats (storyboard `show` names); each handler builds what it needs when an earlier beat has not
(`Stage` holds what is on screen), so every arrangement renders:
- `sentences` the two sentences (the title leaves after the first line, the sentences move
              up into its band), the focus token boxed in both; each sentence's tokens with
              the start marker's position and the focus token's under them, the token id;
              X named, its two rows, what the first X is made of; "=" between the rows
- `same`      the cosine introduced: two arrows, one turning, its cosine read live at its tip
              (1 = same direction, 0 = at right angles); layer 0: the two X rows "=", the
              same W for both, the two Q, K and V rows "="; the four cosines' one value
- `entered`   what context entered at layer 0: the two token rows, the layer-0 queries moved
              onto the two banks; the same query meeting different keys (a K over each
              token in turn; the words the voice names boxed); one head's weights made once
              (sentence 1: the query and two keys copied into Q . K / sqrt(d_head), the
              scores, softmax over the row, the weights); each row's head-average weights
              as bars when the voice reads that sentence, the numbers read; then river's
              piece built (its values' head slices, each scaled by that head's weight, then
              W_O) and each sentence's pieces tip to tail into its update Delta^(0) (a 2-D
              sketch, lengths as labelled; each piece its own shade, named as it lands);
              the sketch grows for the updates' cosine; a new stage: X^(0) and the update
              arrows moved to its tip, the sums dashed, a cos at each vertex, the true
              lengths as bars; then LayerNorm, FFN + add, LayerNorm as boxes, each box's
              cosine beside it and a dot on a zoomed cosine scale moving as each is lit (a
              ghost where it was); out, the two X^(1) and their cosine when the voice says it
- `layers`    layer 1, 2, ...: the chart, across the frame, one W box per layer; one curve
              per sentence of the voice (X thick, under the others; its layer-1 point ringed
              with the cosine layer 0 ended on as the line reaches it, until the voice is
              past X); each curve's last value ringed; the values' lowest ringed; layers 1
              to the last outlined
- `compare`   an illustration (labelled as one) on a card over the chart dimmed to almost
              nothing: one matrix narrows one pair's angle and widens another's; "how each W
              does so: not measured here"; the conclusion in one line under it

Every number drawn is a `Num` of a plan value read through `view.Data` (its path comes along);
the scene does no model arithmetic.
"""

from __future__ import annotations

import math as pymath
import re
from dataclasses import dataclass, field

import numpy as np

from manim import (ValueTracker, always_redraw, DEGREES, DOWN, LEFT, PI, RIGHT, UP, AnimationGroup, Angle, Arc, ManimColor,
                   ArcBetweenPoints, Arrow, DashedLine, GrowArrow, GrowFromCenter, GrowFromEdge, Indicate, Rectangle,
                   ReplacementTransform, Succession, Square, Circle, Create, Dot, LaggedStart, Line, Restore, Rotate,
                   SurroundingRectangle, Text, Transform, TransformFromCopy, VGroup,
                   Write, VMobject)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene, overlaps
from scenes.mobjects import Num, TickAxes, bracket, inline, math, txt
from scenes.mobjects.text import baseline, light, on_baseline
from scenes.motion import point_at
from layerwise_core.planview import Value

from .view import Data

S = T.TYPE.small
QKV = ("q", "k", "v")
NAME = {"x": "X", "in": "LN(X)", "q": "Q", "k": "K", "v": "V"}
COLOR = {"x": T.X, "in": T.LN, "q": T.Q, "k": T.K, "v": T.V}
DOT = {"v": 0.12, "k": 0.095, "q": 0.07, "in": 0.055, "x": 0.045}   # concentric where equal
PLOT = (5.4, 3.4)                   # chart axes width, height
PANEL_X = 0.6                       # left edge of the right-hand panel
ROW_GAP = 0.62
WINDOW = 11                         # tokens shown per sentence in the arcs (a window round focus)
BASE = 8.0                          # degrees: update 1's direction in the updates' own drawing
NARROW = 15.0                       # degrees: two arrows this close share no room for a label
ABOVE_CAPTION = -3.05               # the lowest a column may reach: a one-line caption's top
ARC_W = 40.0                        # stroke width of an arc of weight 1 (0.12 vs 0.30: 5 vs 12)
QK_SIZE = 34                        # the query and key that meet over a row (review 30: ~12 px)
NOTE = 26                           # a secondary note at >= 16 px (review 34x: 22 read 13 px)
K_LIGHT = ManimColor(T.K).interpolate(ManimColor("#FFFFFF"), 0.35)   # K legible on the dark
ROW_ROOM = 12.4                     # width of a sentence's token row in `entered`
PAIR_H = 3.4                        # the pair of sums in the block: large, its turn seen
WEIGHT_SIZE = 26                    # the arcs' weights: numbers the voice reads, larger
BAR_MAX = 0.85                      # the tallest weight bar under a row (both rows' scale)
ARC_RISE = 0.6                      # the highest an arc rises over its row (clear of the legend)
HL = T.POINTER                      # boxes and rings: the chapter's pointer white (yellow is Q)
X_BAND = 10                         # X's line: thicker than the Q, K, V lines, under them
WEIGHT = T.WEIGHTS                  # attention weights (arcs, numbers): the chapter's slate
PIECE = T.TEXT                      # the notes on the pieces: plain text (the pieces are
                                    # drawn in their sentence's colour; no third hue)
# the two sentences' own hues, this video only (review 26: the chapter's sentence green read as
# K's teal, its tan as Q's yellow; review 27: pink read as V's red, violet as the pieces'
# purple): a pure green and a magenta, the two hue gaps left by X blue, Q yellow, K teal,
# V red, the slate weights and the pointer white (CIEDE2000 >= 24 from each of them)
# review 28: the green still read close to K's teal: a yellower green, away from teal
SENT = [ManimColor("#96E632"), ManimColor("#EE44E0")]
W_ROW = 0.62                        # the W^(l) boxes' row over the wide chart
RIGHT_COL = 1.6                     # left edge of the rest-of-block column beside the sums
GAUGE_H = 2.6                       # the zoomed cosine scale's least height


def on_lines(m, lines, pad: float = 0.0) -> bool:
    """Whether any segment (a, b) in `lines` passes through `m`'s box grown by `pad` (a label
    lying on an arrow), tested at points 0.02 apart."""
    l_, r_ = m.get_left()[0] - pad, m.get_right()[0] + pad
    b_, t_ = m.get_bottom()[1] - pad, m.get_top()[1] + pad
    for a, b in lines:
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        n = max(2, int(np.linalg.norm(b - a) / 0.02))
        for p in np.linspace(a, b, n):
            if l_ < p[0] < r_ and b_ < p[1] < t_:
                return True
    return False


@dataclass
class Stage:
    """What the beats have put on screen, read and filled by the handlers."""
    sents: VGroup | None = None                 # the two sentences at the top
    chart: VGroup | None = None                 # the cosine chart (axes, legend)
    ax: TickAxes | None = None
    dots: dict = field(default_factory=dict)    # key -> {layer: Dot}
    lines: VGroup = field(default_factory=VGroup)
    grown: int = -1                             # last layer drawn in the chart
    wide: bool = False                          # the chart across the frame (layers on)
    handoff: VGroup | None = None               # "out: the two X^(1), cos ..." (entered)
    carried: VGroup | None = None               # its cosine, beside X's layer-1 point
    panel: VGroup | None = None                 # the layer-0 panel, its X rows drawn early


class ContextQKVScene(StoryboardScene):

    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.keys = ["x"] + ([] if self.v.reads.same_as_x.value else ["in"]) + list(QKV)
        self.st = Stage()

    def box(self, *ms, t: float, slot: str = "boxes", color=HL, rings=(),
            solid: bool = False) -> None:
        """Boxes round `ms` (and the `rings` given: a ring and its value, `ring`) that stay
        (in `slot`, added to what is there) until `unbox`."""
        # above everything drawn (review 33, 0:46: an arc ran over river's box)
        boxes = [SurroundingRectangle(m, color=color, buff=0.09, stroke_width=2.5)
                 for m in ms]
        if solid:                           # over the arcs, what it boxes over it
            for b, m in zip(boxes, ms):
                b.set_fill(T.BACKGROUND, opacity=1).set_z_index(3)
                m.set_z_index(4)
        rs = VGroup(*boxes, *rings)
        old = self.shown.get(slot)
        self.play(*[Create(b) for b in boxes],
                  *[a for r in rings for a in (Create(r[0]), FadeInPlace(r[1]))], run_time=t)
        self.set_slot(slot, rs if old is None else VGroup(old, rs))

    def unbox(self, t: float | None = None, slot: str = "boxes") -> None:
        self.drop(slot, run_time=t)

    def sub_caption(self, part: str) -> None:
        """`entered` runs four analyses under one beat: each its own caption, from the word
        that starts it (a cut, as between beats; none when the captions are burned)."""
        if self.burned is not None or self.caption is None:
            return
        l = int(self.v.entered.layer.value)
        text = {"keys": f"Layer {l}: the same query meets different keys",
                "pieces": f"Layer {l}: what each token passes on",
                "sums": (f"Layer {l}: each update added to the same X"
                         if abs(float(self.cos("x")[0].value) - 1.0) < 1e-6
                         else f"Layer {l}: each update added to its X"),
                "block": f"Layer {l}: LayerNorm and the FFN, each token alone"}[part]
        self.set_caption(text)

    def cos(self, key: str):
        """The cosines of `key` (x, in, q, k, v) per layer, as plan values."""
        return getattr(self.v.cos, key)

    # --- pacing: one group of steps per narration sentence ---------------------------------
    def by_cue(self, groups: list[list], pause: dict | None = None) -> None:
        """groups[i]: [(weight, fn(run_time))] spread from cue i's start to cue i+1's (the last
        group to the beat's end). With fewer cues than groups, the tail groups share the last
        cue; silent (no cues): all groups share the beat. `pause` {i: seconds}: cue i (and
        every later one) spoken that much later, a breath after a number to look at it."""
        n = len(self.beat.get("cues") or [])
        if len(groups) > max(1, n):
            k = max(1, n)
            groups = groups[:k - 1] + [[s for g in groups[k - 1:] for s in g]]
        for i, g in enumerate(groups):
            if n and pause and i in pause and 0 < i < n:
                for j in range(i, n):
                    self.cue_shift[j] += float(pause[i])
            if n:
                self.hold_until_cue(i)
            end = (self.cue_at(i + 1) if i + 1 < len(groups)
                   else self.beat_start + self.beat_end(self.beat))
            self.fill_to(end, g, fill=0.93)

    def words_at(self, cue: int, word: str, after: int = 0) -> tuple[float, int] | None:
        """When `word` (a whole word, case ignored) starts in cue `cue`, at or after character
        `after` of its sentence: (scene time, the character after it), the time by the
        word's place among the sentence's characters; None without cues or the word."""
        cues = self.beat.get("cues") or []
        if not 0 <= cue < len(cues) or not word:
            return None
        said = str(cues[cue].get("spoken") or cues[cue].get("text") or "").lower()
        hit = re.compile(rf"(?<!\w){re.escape(word.lower())}(?!\w)").search(said, after)
        if hit is None or not said:
            return None
        return (self.cue_at(cue) + float(cues[cue]["duration"]) * hit.start() / len(said),
                hit.end())

    # --- the sentences ---------------------------------------------------------------------
    def sentence(self, i: int) -> VGroup:
        c = self.v.contexts[i]
        word, sent = self.v.word.value, c.sentence.value
        # no ligatures: one glyph per character ("fi" would otherwise be one)
        text = light(Text(sent, font=T.FONT, font_size=T.TYPE.label, color=T.TEXT,
                          disable_ligatures=True))
        nth = int(c.focus.value.partition("#")[2] or 1)
        hits = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", sent,
                                                flags=re.IGNORECASE)]
        start = hits[min(nth, len(hits)) - 1] if hits else 0
        glyphs = text[start:start + len(word)]      # without ligatures: one glyph a character
        tag = txt(str(i + 1), T.TYPE.label, SENT[i]).next_to(text, LEFT, buff=0.25)
        box = SurroundingRectangle(glyphs, color=SENT[i], buff=0.06, stroke_width=2)
        g = VGroup(tag, text, box)
        g.text, g.box = text, box
        return g

    def make_sentences(self) -> VGroup:
        s = VGroup(self.sentence(0), self.sentence(1))
        if max(g.width for g in s) <= 6.3:
            s[0].move_to([-3.55, 2.7, 0])
            s[1].move_to([3.55, 2.7, 0])
        else:                                               # long: one above the other
            for g in s:
                if g.width > 13.0:
                    g.scale_to_fit_width(13.0)
            s.arrange(DOWN, buff=0.12, aligned_edge=LEFT).move_to([0, 2.6, 0])
        for g in s:
            self.keep_inside(g)
        return s

    def ensure_sentences(self) -> None:
        if self.st.sents is None:
            self.st.sents = self.make_sentences()
            self.play(FadeInPlace(self.st.sents), run_time=self.quick())

    def head_lift(self, s: VGroup) -> float:
        """How far the two sentences `s` move up into the title's band once the title leaves
        (0: no title on screen, or two stacked sentences, a teacher's long pair, which keep
        their place: moved up, their boxes met the frame's top edge)."""
        title = getattr(self, "title", None)
        if title is None or title not in self.mobjects or s.height > 0.6:
            return 0.0
        return float((title.get_top()[1] - 0.12) - s.get_top()[1])

    def compact_head(self, run_time: float | None = None) -> None:
        """After the opening sentence, the title leaves and the two sentences move up into its
        band (review 34/34b: title and sentences took ~90 px of the frames)."""
        self.ensure_sentences()
        title = getattr(self, "title", None)
        dy = self.head_lift(self.st.sents)
        if not dy:
            return
        self.play(FadeOutPlace(title), self.st.sents.animate.shift(UP * dy),
                  run_time=run_time or self.quick())
        self.remove(title)

    def caption_top(self) -> float:
        """Top of the beat's caption (the lowest a drawing may reach), -3.0 without one."""
        c = self.caption
        return float(c.get_top()[1]) if c is not None and c.height > 0.01 else -3.0

    def content_top(self) -> float:
        return (self.st.sents.get_bottom()[1] if self.st.sents is not None else 2.9) - 0.15

    def index_row(self, i: int) -> VGroup:
        """Sentence i's tokens, the end marker too, in a row, the start
        marker's position and the focus token's under them, dots between: "counting from the
        start marker". A long row keeps its first two tokens and the focus token's
        neighbourhood, an ellipsis between."""
        s, c = self.v.entered.sentences[i], self.v.contexts[i]
        toks = [str(t) for t in s.tokens]
        focus = [int(f) for f in s.focus]
        # a start marker at position 0 ([CLS]) to count from; none in a decoder's sentence
        start = 0 if len(s.special.values) and int(s.special[0]) == 0 < focus[0] else None
        # to the end marker ([SEP]) where the sentence has one, else one past the focus token
        last = (len(toks) - 1 if len(toks) - 1 in [int(x) for x in s.special.values]
                else min(len(toks) - 1, focus[-1] + 1))

        def cell(j):
            color = SENT[i] if j in focus else T.TEXT
            return txt(toks[j].strip() or "␣", T.TYPE.label, color)

        def build(js):
            row = VGroup(*[cell(j) if j is not None else txt("…", T.TYPE.label, T.MUTED)
                           for j in js]).arrange(RIGHT, buff=0.28)
            on_baseline(list(row), row.get_bottom()[1])
            return row

        js = list(range(0, last + 1))
        row = build(js)
        if row.width > 11.8:
            js = [0, 1, None] + list(range(max(2, focus[0] - 2), last + 1))
            row = build(js)
        under = VGroup()
        y = row.get_bottom()[1] - 0.3
        for m, j in zip(row, js):
            if j is None:
                continue
            if j == start:
                n = Num(s.special[0], decimals=0, size=T.TYPE.label, color=T.TEXT)
            elif j == focus[0]:
                n = Num(c.positions[0], decimals=0, size=T.TYPE.label, color=SENT[i])
            elif start is not None and start < j < focus[0]:
                n = Dot(radius=0.03, color=T.MUTED)
            else:
                continue
            under.add(n.move_to([m.get_center()[0], y, 0]))
        tag = txt(str(i + 1), T.TYPE.label, SENT[i]).next_to(row, LEFT, buff=0.3)
        g = VGroup(tag, row, under)
        g.row, g.under = row, under
        nums = [m for m in under if not isinstance(m, Dot)]
        g.start = nums[0] if start is not None and nums else None
        # the end marker's cell, named with the start marker ("up to the end marker")
        g.end = (row[js.index(last)] if last in [int(x) for x in s.special.values]
                 and last in js else None)
        g.focus = nums[-1] if nums else None
        return g

    # --- the chart ---------------------------------------------------------------------------
    def make_chart(self, wide: bool = False) -> VGroup:
        """The cosine chart: in the left half beside the layer-0 panel, or `wide`, across the
        frame with larger labels (the layers and the comparison, nothing beside it)."""
        v = self.v
        lo, hi = v.axes.y_range.values
        L = len(v.layers)
        size = T.TYPE.label if wide else S
        # the cosine axis starts above 0: said in the header (and a break drawn on the axis)
        cut = float(lo) > -1.0 + 1e-9 and abs(float(lo)) > 1e-9
        title = txt(f"cosine of the two \"{v.word}\" vectors", size)
        head = title
        if cut:
            # (review 33b/y: a "·" between read as a stray dot: a semicolon ends the title)
            title = txt(f"cosine of the two \"{v.word}\" vectors;", size)
            head = inline(title,
                          txt("the axis starts at", size, T.TEXT),
                          Num(v.axes.y_range[0], decimals=2, size=size, color=T.TEXT),
                          buff=0.14)
            if head.width > (11.5 if wide else PLOT[0] + 0.6):    # too long: two lines
                title = txt(f"cosine of the two \"{v.word}\" vectors", size)
                head = VGroup(title, inline(
                    txt("the axis starts at", size, T.TEXT),
                    Num(v.axes.y_range[0], decimals=2, size=size, color=T.TEXT))).arrange(
                    DOWN, buff=0.08, aligned_edge=LEFT)
        legend = VGroup(*[VGroup((DashedLine(LEFT * 0.2, RIGHT * 0.2, color=COLOR[k],
                                             stroke_width=5, dash_length=0.1,
                                             dashed_ratio=0.55) if k == "k" else
                                  Line(LEFT * 0.2, RIGHT * 0.2, color=COLOR[k],
                                      stroke_width=X_BAND if k == "x" else 5,
                                      stroke_opacity=0.9 if k == "x" else 1)),
                                 txt(NAME[k], size, COLOR[k])).arrange(RIGHT, buff=0.08)
                          for k in self.keys]).arrange(RIGHT, buff=0.3)
        h = v.heads
        note = txt(f"Q, K, V: all {h.n_heads} heads together"
                   if h.kv_width.value == h.q_width.value else
                   f"all heads together: Q {h.q_width}, K and V {h.kv_width} numbers",
                   T.TYPE.label if wide or h.kv_width.value == h.q_width.value else S, T.TEXT)
        row = VGroup(legend, note).arrange(RIGHT, buff=0.35)
        # the legend beside the note when they fit (wide: the W label stands at the right)
        fits = row.width <= (7.5 if wide else PLOT[0] + 0.9)
        inside = None
        if wide:
            # across the frame: the legend and the note inside the plot, at its lower left
            # (the header one line, the plot taller)
            inside = VGroup(legend, note).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
            top = VGroup(head)
        else:
            top = VGroup(head, row if fits else VGroup(legend, note).arrange(
                DOWN, buff=0.08, aligned_edge=LEFT))
            top.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        # the axes take the height left between the header and the caption band
        y_len = min(PLOT[1], self.content_top() - top.height - 0.2 + 2.45 - 0.6)
        x_len = PLOT[0]
        if wide:
            y_len = (self.content_top() - top.height - 0.4 - W_ROW) - (self.caption_top() + 0.95)
            x_len = 11.4
        ax = TickAxes([0, L - 1, 1], [lo, hi, hi - lo], x_len, y_len,
                      x_ticks=[(l.value, l.path) for l in v.layers
                               if L <= 12 or l.value % 5 == 0 or l.value == L - 1],
                      y_ticks=[(t.value, t.path) for t in v.axes.y_ticks],
                      # the ticks at label size (review 31b: ~11 px at small)
                      **({"size": T.TYPE.label, "color": T.TEXT} if wide else {}))
        ax.y_labels.shift(LEFT * 0.12)                      # clear of the layer-0 dots
        # the chapter's notation on the x axis: the ticks are X^(l), not bare layer numbers
        tick_color = T.MUTED if not wide else T.TEXT
        ax.remove(ax.x_labels)
        xm = VGroup(*[math(T.X_l(int(l.value)), T.TYPE.math_label * (1.3 if wide else 1),
                           tick_color).next_to(
            ax.axes.c2p(l.value, lo), DOWN, buff=0.12) for l in v.layers
            if L <= 12 or l.value % 5 == 0 or l.value == L - 1])
        for m in xm:
            m.set_y(xm[0].get_y())
        ax.x_labels = xm
        ax.x_label_of = {int(l.value): m for l, m in zip(
            [l for l in v.layers if L <= 12 or l.value % 5 == 0 or l.value == L - 1], xm)}
        ax.add(xm)
        # in words (no script to squint at): the X at each tick is what that layer reads
        made = ("each layer makes its Q, K, V from the X at its tick"
                if v.reads.same_as_x.value else
                "each layer makes its Q, K, V from LN of the X at its tick")
        # wide: the note on the heads said in this line, not inside the plot (review 33y,
        # 2:36: the legend and the note sat among the lines, by the 0.62 label)
        said = False
        if wide and h.kv_width.value == h.q_width.value:
            m2 = made.replace("Q, K, V", f"Q, K, V (all {h.n_heads} heads together)", 1)
            if txt(m2, max(size, T.TYPE.small)).width <= 12.6:
                made, said = m2, True
        xname = txt(made, max(size, T.TYPE.small), tick_color).next_to(xm, DOWN, buff=0.1)
        xname.align_to(ax.axes, LEFT)
        if cut:                             # the axis break: two slashes over a gap
            o = ax.axes.c2p(0, lo) + UP * min(0.2, 0.3 * y_len / max(1, len(v.axes.y_ticks)))
            gap = Line(o + DOWN * 0.05, o + UP * 0.05, color=T.BACKGROUND, stroke_width=6)
            zig = VGroup(*[Line(o + d + LEFT * 0.11 + DOWN * 0.05, o + d + RIGHT * 0.11
                                + UP * 0.05, color=tick_color, stroke_width=2.5)
                           for d in (DOWN * 0.055, UP * 0.055)])
            ax.add(gap, zig)
        # clear of the top tick's label (1.00), which stands above the axis's end
        # (wide: a row for the W^(l) boxes between, each over its tick)
        top.next_to(VGroup(ax.axes, ax.y_labels), UP, buff=0.2 + (W_ROW if wide else 0.0))
        top.align_to(ax, LEFT)
        chart = VGroup(top, ax, xname)
        chart.to_edge(LEFT, buff=T.EDGE + 0.1)
        chart.shift(UP * (self.content_top() - chart.get_top()[1]))
        if inside is not None:
            if said:
                inside.remove(note)
            # the legend on the header's line, at the right, when it fits there
            legend.next_to(head, RIGHT, buff=0.7)
            if legend.get_right()[0] <= 6.9 - T.EDGE:
                inside.remove(legend)
                chart.add(legend)
            if len(inside):
                inside.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
                inside.move_to(ax.axes.c2p(0.12, lo) + UP * 0.3, aligned_edge=DOWN + LEFT)
                chart.add(inside)
        chart.inside = inside
        self.st.ax = ax
        self.st.wide = wide
        return chart

    def point(self, key: str, l: int) -> Dot:
        deep = len(self.v.layers) > 12
        return Dot(self.st.ax.axes.c2p(l, self.cos(key)[l].value),
                   radius=DOT[key] * (0.5 if deep else 1.0), color=COLOR[key])

    def ensure_chart(self, upto: int, t: float | None = None, wide: bool = False) -> None:
        """The chart on screen with its points up to layer `upto` (drawn at once when an
        earlier beat has not drawn them); a narrow chart gives way to a `wide` one."""
        st = self.st
        if st.chart is not None and wide and not st.wide:
            self.play(FadeOutPlace(VGroup(st.chart, st.lines, *[
                d for k in self.keys for d in st.dots.get(k, {}).values()])),
                run_time=self.quick())
            st.chart, st.dots, st.lines, st.grown = None, {}, VGroup(), -1
        if st.chart is None:
            st.chart = self.make_chart(wide)
            self.play(FadeInPlace(st.chart), run_time=t or self.quick())
        if st.grown < upto:
            new = VGroup()
            for l in range(st.grown + 1, upto + 1):
                for k in self.keys:                     # X's band first, under the others
                    d = self.point(k, l)
                    st.dots.setdefault(k, {})[l] = d
                    new.add(d)
                    if l > 0:
                        seg = self.segment(k, l)
                        st.lines.add(seg)
                        new.add(seg)
            st.grown = upto
            self.play(FadeInPlace(new), run_time=t or self.quick())
            self.bring_to_front(*[d for k in reversed(self.keys) for d in st.dots[k].values()])

    def segment(self, k: str, l: int) -> Line:
        """Quantity k's line from layer l-1 to l: X a thick line, the others thin on it."""
        ax = self.st.ax.axes
        a, b = (ax.c2p(j, self.cos(k)[j].value) for j in (l - 1, l))
        if k == "x":
            seg = Line(a, b, color=COLOR[k], stroke_width=X_BAND, stroke_opacity=0.9)
        elif k == "k":
            # dashed, over Q's solid line: where the two nearly coincide (layers 0-3 on the
            # bank pair) both stay visible (review 29: Q and K on top of each other)
            # (review 32a: thin Q, dashed K, hard to tell from X: both thicker)
            seg = DashedLine(a, b, color=COLOR[k], stroke_width=5.5, dash_length=0.16,
                             dashed_ratio=0.6)
        else:
            seg = Line(a, b, color=COLOR[k], stroke_width=5)
        seg.key = k
        return seg

    def spotlight(self, keys, t: float) -> None:
        """The lines and dots of `keys` at full strength, the others dimmed (None: all
        back): one or two lines read at a time."""
        st = self.st
        anims = []
        for seg in st.lines:
            on = keys is None or getattr(seg, "key", None) in keys
            full = 0.9 if getattr(seg, "key", None) == "x" else 1.0
            anims.append(seg.animate.set_stroke(opacity=full if on else 0.18))
        for k, ds in st.dots.items():
            for d in ds.values():
                anims.append(d.animate.set_opacity(1.0 if keys is None or k in keys else 0.18))
        if anims:
            self.play(*anims, run_time=t)

    def grow(self, l: int, t: float) -> None:
        """One segment and dot per quantity, from layer l-1 to layer l."""
        st = self.st
        segs, dots = [], []
        for k in self.keys:
            segs.append(self.segment(k, l))
            dots.append(self.point(k, l))
        # each dot once its segment has reached it (no dot ahead of its line)
        self.play(LaggedStart(*[Create(s) for s in segs], lag_ratio=0.25), run_time=0.8 * t)
        self.play(*[FadeInPlace(d) for d in dots], run_time=0.2 * t)
        for k, d, s in zip(self.keys, dots, segs):
            st.dots.setdefault(k, {})[l] = d
            st.lines.add(s)
        st.grown = l
        self.bring_to_front(*[s for k, s in zip(self.keys, segs) if k != "x"])
        self.bring_to_front(*[d for k in reversed(self.keys) for d in st.dots[k].values()])
        if st.carried is not None:              # the carried value stays over the new lines
            self.bring_to_front(st.carried)

    # --- the layer-0 panel: X rows, the same W, Q rows -----------------------------------------
    def row(self, key: str, l: int, i: int) -> VGroup:
        vals = getattr(self.v.first, key)[l][i]
        d = self.v.first.decimals[key][l].value
        nums = VGroup(*[Num(x, decimals=d, size=T.TYPE.label, color=COLOR[key]) for x in vals])
        for j, n in enumerate(nums):            # fixed columns, right-aligned
            n.move_to(RIGHT * (1.05 + 0.16 * (d - 2)) * j, aligned_edge=RIGHT)
        more = txt("…", T.TYPE.label, COLOR[key]).next_to(nums, RIGHT, buff=0.12)
        body = VGroup(nums, more)
        br = VGroup(bracket(0.4, -1).next_to(body, LEFT, buff=0.1),
                    bracket(0.4, +1).next_to(body, RIGHT, buff=0.1))
        # the row's sentence number at the numbers' size (review 29: 9 px and dim)
        tag = txt(str(i + 1), T.TYPE.label, SENT[i]).next_to(br[0], LEFT, buff=0.15)
        g = VGroup(tag, br, body)
        g.nums = nums
        return g

    def big_name(self, key: str, l: int) -> VGroup:
        """X^(l), Q^(l), ...: the letter large, its layer superscript written at the numbers'
        own size (review 29: a math superscript was about 9 px), raised to the letter's top."""
        base = (math("X", T.TYPE.math_label * 1.45, COLOR[key]) if key == "x" else
                math(NAME[key] if key != "in" else "\"LN\"(X)", T.TYPE.math_label * 1.45,
                     COLOR[key]))
        sup = txt(f"({l})", T.TYPE.label, COLOR[key])
        sup.next_to(base, RIGHT, buff=0.04).align_to(base, UP).shift(UP * 0.12)
        return VGroup(base, sup)

    def rows_at(self, key: str, l: int, y: float) -> VGroup:
        r = VGroup(self.row(key, l, 0), self.row(key, l, 1))
        r[1].next_to(r[0], DOWN, buff=ROW_GAP - r[0].height).align_to(r[0], LEFT)
        name = self.big_name(key, l)
        name.next_to(r, LEFT, buff=0.2)
        g = VGroup(name, r)
        g.move_to([0, y, 0]).align_to([PANEL_X, 0, 0], LEFT)
        g.rows = r
        return g

    def marks(self, rows: VGroup, same: bool) -> VGroup:
        sign = "=" if same else "≠"
        top, bottom = rows.rows[0].nums, rows.rows[1].nums
        # (review 33b, 0:21-0:45: at small size the "=" read as a speck)
        return VGroup(*[txt(sign, T.TYPE.label, T.TEXT).move_to((a.get_bottom() + b.get_top()) / 2)
                        for a, b in zip(top, bottom)])

    def layer0_panel(self) -> VGroup:
        """Layer 0's X rows at the left, the three matrices (one box each, the same for both
        rows) in the middle, the Q, K and V rows they make at the right; "=" (or "≠")
        between each pair of rows."""
        v = self.v
        same = bool(v.match.identical.value)
        xk = "x" if v.reads.same_as_x.value else "in"
        top = self.content_top()
        # (round 34: "layer 0 · the first ..." : the "·" read as a stray dot)
        head = inline(txt(f"the first {v.first.dims} numbers of \"{v.word}\" at layer",
                          T.TYPE.label, T.TEXT),
                      Num(v.layers[0], decimals=0, size=T.TYPE.label))
        head.move_to([0, top - 0.2, 0])
        outs = []
        y = head.get_bottom()[1] - 0.2
        for k in QKV:
            r = self.rows_at(k, 0, 0)
            r.move_to([0, y, 0], aligned_edge=UP).align_to([PANEL_X + 0.4, 0, 0], LEFT)
            y = r.get_bottom()[1] - 0.22
            outs.append(r)
        qr, kr, vr = outs
        for r in (kr, vr):                      # one column of rows, names in one column
            r.rows.align_to(qr.rows, LEFT)
            r[0].next_to(r.rows, LEFT, buff=0.2)
        # X's rows at the left, level with the K rows (the middle of the three)
        xr = self.rows_at(xk, 0, 0)
        xr.move_to([0, kr.get_y(), 0]).align_to([-6.9 + T.EDGE, 0, 0], LEFT)
        # one box per matrix, level with the rows it makes; the words over them
        boxes = VGroup()
        wx = (xr.get_right()[0] + qr.get_left()[0]) / 2
        for k, r in zip(QKV, outs):
            # (review 33x: W_Q, W_K, W_V at 27 read about 10 px)
            name = math(f"W_{NAME[k]}", T.TYPE.math_label * 1.35, COLOR[k])
            b = Rectangle(width=max(0.95, name.width + 0.3), height=r.rows.height + 0.1,
                          color=COLOR[k], stroke_width=2.5)
            b.move_to([wx, r.rows.get_y(), 0])
            name.move_to(b)
            boxes.add(VGroup(b, name))
        note = txt("the same for both rows, biases too", T.TYPE.label, T.TEXT)
        note.next_to(boxes, DOWN, buff=0.15)
        if note.get_bottom()[1] < self.caption_top() + 0.05:
            note.next_to(xr, DOWN, buff=0.3).align_to(xr, LEFT)
        w = VGroup(boxes, note)
        mk_x, mk_q, mk_k, mk_v = (self.marks(r, same) for r in (xr, qr, kr, vr))
        g = VGroup(head, xr, mk_x, w, qr, mk_q, kr, mk_k, vr, mk_v)
        g.head, g.xr, g.mk_x, g.w, g.qr, g.mk_q = head, xr, mk_x, w, qr, mk_q
        g.kr, g.mk_k, g.vr, g.mk_v = kr, mk_k, vr, mk_v
        g.outs = [(qr, mk_q), (kr, mk_k), (vr, mk_v)]
        return g

    def made_of(self) -> VGroup:
        """What the first X is made of, in the voice's words, under the X rows: the token and
        its position (their numbers), plus a part the same for every token, normalized."""
        v = self.v
        m, L_ = v.match, NOTE          # (review 34x, 0:14: at label size, 13 px)
        c = v.contexts[0]
        if m.identical.value and m.absolute_positions.value:
            lines = [inline(txt("made from token", L_, T.TEXT),
                            Num(c.token_ids[0], decimals=0, size=L_, color=T.TEXT),
                            txt("+ position", L_, T.TEXT),
                            Num(c.positions[0], decimals=0, size=L_, color=T.TEXT)),
                     txt("+ a part the same for every token, normalized", L_, T.TEXT)]
        elif m.identical.value:
            lines = [txt("the first X is the token's vector", L_, T.TEXT)]
        elif m.same_token.value:
            lines = [txt("same token, different positions:", L_, T.TEXT),
                     txt("X already differs at layer 0", L_, T.TEXT)]
        else:
            lines = [txt("different tokens:", L_, T.TEXT),
                     txt("X differs from layer 0 on", L_, T.TEXT)]
        if len(v.contexts[0].positions) > 1 or len(v.contexts[1].positions) > 1:
            lines.append(txt(f"\"{v.word}\" is several tokens: their rows are averaged", S,
                             T.TEXT))
        # what X is, first (review 33x, 0:11: X was used before it was said), with the rows
        xl = math("X", T.TYPE.math_label * 1.3, T.X)
        sup = txt("(l)", L_, T.X).next_to(xl, RIGHT, buff=0.04).align_to(xl, UP).shift(UP * 0.1)
        lines.insert(0, inline(VGroup(xl, sup),
                               # (review 34x, 0:14: at label size it read 13 px)
                               txt(": the vector held for a token at layer l = 0, 1, …", NOTE,
                                   T.TEXT), buff=0.06))
        return VGroup(*lines).arrange(DOWN, buff=0.12, aligned_edge=LEFT)

    def id_line(self) -> VGroup:
        """The focus token's id in both sentences, one line (said with the positions)."""
        v, L_ = self.v, T.TYPE.label
        a, b = v.contexts[0].token_ids[0], v.contexts[1].token_ids[0]
        word = txt(f"\"{v.word}\": token id", L_, T.TEXT)
        if int(a.value) == int(b.value):
            return inline(word, Num(a, decimals=0, size=L_), txt("in both", L_, T.TEXT))
        return inline(word, Num(a, decimals=0, size=L_, color=SENT[0]), txt("and", L_, T.TEXT),
                      Num(b, decimals=0, size=L_, color=SENT[1]))

    # --- beats ----------------------------------------------------------------------------
    def beat_sentences(self, beat) -> None:
        # one idea at a time (review 26: a static dashboard): the sentences; their tokens with
        # the positions counted and the token id; then X named with its two rows drawn (the
        # token rows leave); what the first X is made of; "=" between the rows
        s = self.make_sentences()
        self.st.sents = s
        # everything below is laid out under the sentences where they will stand once the
        # title has left (on the first sentence's end: `compact_head`)
        lift = self.head_lift(s)
        s.shift(UP * lift)
        idx = VGroup(self.index_row(0), self.index_row(1)).arrange(DOWN, buff=0.3)
        idx.next_to(s, DOWN, buff=0.35)
        idx.set_x(0)
        ids = self.id_line()
        grid = VGroup()
        if idx.width > 13.2:
            # no room for the rows: the token ids and positions as a small table
            idx = VGroup()
            cells = [txt(h, S, T.TEXT) for h in ("sentence", "token id", "position")]
            for i, c in enumerate(self.v.contexts):
                cells += [txt(str(i + 1), T.TYPE.label, SENT[i]),
                          Num(c.token_ids[0], decimals=0, size=T.TYPE.label),
                          Num(c.positions[0], decimals=0, size=T.TYPE.label)]
            grid = VGroup(*cells).arrange_in_grid(rows=3, cols=3, buff=(0.6, 0.25))
            grid.next_to(s, DOWN, buff=0.5).set_x(0)
            ids = VGroup()
        else:
            ids.next_to(idx, DOWN, buff=0.35).set_x(0)
        starts = [r.start for r in idx if r.start is not None]
        ends = [r.end for r in idx if r.end is not None]
        # the markers named in writing, beside the rows: "[CLS] = start marker" (the voice
        # says "start marker", the rows show the token)
        key = VGroup()
        if len(idx):
            r0 = idx[0]
            toks0 = [str(t) for t in self.v.entered.sentences[0].tokens]
            if r0.start is not None:
                # (review 33b, 0:09: at small size they read about 11 px)
                key.add(txt(f"{toks0[0]} = start marker", T.TYPE.label, T.TEXT))
            if r0.end is not None:
                key.add(txt(f"{toks0[-1]} = end marker", T.TYPE.label, T.TEXT))
            if len(key):
                # (round 32b: the box round "[SEP] = end marker" touched the key above: room for it)
                key.arrange(DOWN, buff=0.3, aligned_edge=LEFT).next_to(idx, RIGHT, buff=0.45)
                both = VGroup(idx, key)
                if both.width <= 13.4:
                    both.set_x(0)
                    ids.set_x(idx.get_x())
                else:
                    key = VGroup()
        keys = list(key)
        # X's rows where the next beat multiplies them (the layer-0 panel's left), its
        # header over them; what X is made of under the rows
        panel = self.layer0_panel()
        self.st.panel = panel
        made = self.made_of()
        made.next_to(panel.xr, DOWN, buff=0.45).align_to(panel.xr, LEFT)
        if made.get_bottom()[1] < self.caption_top() + 0.1:
            made.next_to(panel.xr, RIGHT, buff=0.6)

        def marker(ms, k, t):
            # a marker's cell (or its position) lit, its name written beside the rows
            if not ms:
                self.wait(t)
                return
            if k is not None and keys:
                self.play(FadeInPlace(keys[k]), run_time=0.3 * t)
                self.emphasize(*ms, keys[k], run_time=0.7 * t)
            else:
                self.emphasize(*ms, run_time=t)

        def rows_in(t):
            # the token rows have said their piece; each sentence's boxed word becomes its
            # X row
            self.drop("table", run_time=0.3 * t)
            self.play(*[Transform(s[i].box.copy(), SurroundingRectangle(
                          panel.xr.rows[i], color=T.X, buff=0.04), remover=True)
                        for i in (0, 1)],
                      FadeInPlace(panel.xr), run_time=0.45 * t)
            # the header once the boxes have landed (review 34x, 0:12: they passed over it)
            self.play(FadeInPlace(panel.head), run_time=0.15 * t)
            self.set_slot("xrows", VGroup(panel.head, panel.xr))
            # "X is the vector the model holds for a token at each layer": its line
            self.play(FadeInPlace(made[0]), run_time=0.25 * t)

        def made_in(i, t):
            self.play(FadeInPlace(made[i]), run_time=t)

        def equal(t):
            self.play(Write(panel.mk_x), run_time=0.5 * t)
            self.set_slot("xmarks", panel.mk_x)
            # (review 34x, 0:22.5: a box round the marks at the usual pad cut the digits)
            self.emphasize(VGroup(panel.xr.rows, panel.mk_x), run_time=0.5 * t)

        s.shift(DOWN * lift)                        # under the title, for the opening
        self.set_slot("table", VGroup(idx, key, ids, grid))
        self.remove(self.shown["table"])
        self.add(s[0][0], s[0][1])                  # the first frame shows a sentence
        first = ([(1, lambda t: self.play(FadeInPlace(VGroup(*[r[0:2] for r in idx])),
                                          run_time=t)),
                  (1, lambda t: self.play(FadeInPlace(ids), run_time=t)),
                  (1, lambda t: self.play(*[FadeInPlace(r.under) for r in idx], run_time=t)),
                  (1, lambda t: self.emphasize(*[r.focus for r in idx if r.focus is not None],
                                               run_time=t)),
                  (1, lambda t: marker(starts, 0, t)),
                  (1, lambda t: marker(ends, len(keys) - 1 if len(keys) > 1 else None, t))]
                 if len(idx) else
                 [(1, lambda t: self.play(FadeInPlace(grid), run_time=t)),
                  (2, lambda t: self.wait(t))])
        self.by_cue([
            [(2, lambda t: self.play(Write(VGroup(s[1][0], s[1][1])), run_time=t)),
             (1, lambda t: self.play(Create(s[0].box), Create(s[1].box), run_time=t)),
             (0.8, lambda t: self.compact_head(t))],
            first,
            [(1, rows_in), (0.4, lambda t: self.wait(t))],
            [*[(1, lambda t, i=i: made_in(i, t)) for i in range(1, len(made))],
             (1.2, equal)],
        ])
        self.set_slot("made", made)

    def cosine_picture(self, left: float = -6.2, top: float | None = None) -> VGroup:
        """Two arrows from one point; the second turns (the beat animates it). `left`, `top`:
        where its header starts (the right half when X's rows hold the left)."""
        # at label size (review 33, 0:22: the legend at 18 read about 11 px)
        L_ = T.TYPE.label
        head = VGroup(txt("cosine of two vectors' angle:", L_),
                      txt("1 = same direction", L_, T.TEXT),
                      txt("0 = at right angles", L_, T.TEXT))
        head.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        top = self.content_top() - 0.15 if top is None else top
        head.move_to([left, top, 0], aligned_edge=UP + LEFT)
        n = 2.2                                     # arrow length: its tip at 90 deg stays
        o = [left + 1.6, head.get_bottom()[1] - 0.35 - n, 0]   # under the header
        a = Arrow(o, [o[0] + n, o[1], 0], buff=0, color=T.MUTED, stroke_width=5)
        b = Arrow(o, [o[0] + n * pymath.cos(PI / 3), o[1] + n * pymath.sin(PI / 3), 0],
                  buff=0, color=T.TEXT, stroke_width=5)
        # what the arrows are (review 33y, 0:25: its 0.11 and 0.59 are made-up angles):
        # under them, with the header (it comes and goes with it)
        note = txt("(an illustration)", L_, T.TEXT)
        note.next_to(a, DOWN, buff=0.2).align_to(head, LEFT)
        head.add(note)
        g = VGroup(head, a, b)
        g.o, g.a, g.b, g.head = o, a, b, head
        return g

    def beat_same(self, beat) -> None:
        v = self.v
        self.ensure_sentences()
        early = self.st.panel is not None and "xrows" in self.shown
        panel = self.st.panel if early else self.layer0_panel()
        # X's rows drawn in `sentences` stay at the left: the cosine picture on the right
        pic = (self.cosine_picture(PANEL_X + 0.4, panel.head.get_bottom()[1] - 0.25) if early
               else self.cosine_picture())
        o = np.array(pic.o, dtype=float)
        # the cosine read live as the arrow turns (review 31b, 0:25: only "cos = 1" at the
        # end): the angle a tracker, the arrow, the arc between the two and the readout
        # riding the turning arrow's tip all follow it (an illustration: its own geometry,
        # no plan number)
        n_ = float(np.linalg.norm(pic.b.get_end() - o))
        ang = ValueTracker(PI / 3)

        def tip(a):
            return o + n_ * np.array([pymath.cos(a), pymath.sin(a), 0.0])

        def readout():
            c = pymath.cos(ang.get_value())
            c = 0.0 if abs(c) < 5e-3 else c
            r = inline(txt("cos =", T.TYPE.label, T.TEXT),
                       txt(f"{c:.2f}", T.TYPE.label, T.TEXT, mono=True), buff=0.12)
            return r.next_to(tip(ang.get_value()), RIGHT, buff=0.2).shift(UP * 0.1)

        def angle_arc():
            a = max(ang.get_value(), 1e-3)
            return Arc(radius=0.55, start_angle=0, angle=a, arc_center=o, color=T.TEXT,
                       stroke_width=2.5).set_stroke(opacity=1 if a > 0.02 else 0)

        live = VGroup()

        def start_live(t):
            pic.b.add_updater(lambda m: m.put_start_and_end_on(o, tip(ang.get_value())))
            arc_, num_ = always_redraw(angle_arc), always_redraw(readout)
            live.add(arc_, num_)
            self.play(FadeInPlace(VGroup(arc_, num_)), run_time=t)
            self.set_slot("cos_status", live)

        def turn(angle, t):
            # the number changes as the arrow turns, then is lit where it stops
            self.play(ang.animate.increment_value(angle), run_time=0.7 * t)
            self.emphasize(live[1], run_time=0.3 * t)

        def still(t):
            # the demo done: nothing follows the tracker any more
            pic.b.clear_updaters()
            for m in live:
                m.clear_updaters()
            self.wait(t)

        def four(t):
            # "All four cosines are 1.00": said beside the rows that show it (no chart yet:
            # it comes once there is more than one layer to draw); the caption names the
            # result now, not before W, Q, K, V are drawn (review 30: 0:22)
            if self.burned is None and self.caption is not None:
                cx = float(self.cos("x")[0].value)
                self.set_caption(f"Layer {int(v.layers[0].value)}: one X, the same W, so "
                                 f"cos = {cx:.2f} for "
                                 + ", ".join(NAME[k] for k in self.keys[:-1])
                                 + f" and {NAME[self.keys[-1]]}.")
            if v.summary.layer0_equal.value:
                lab = inline(txt("cosine for " + ", ".join(NAME[k] for k in self.keys) + ":",
                                 T.TYPE.label, T.TEXT),
                             Num(self.cos("x")[0], decimals=2, size=T.TYPE.label),
                             buff=0.18)
            else:
                lab = VGroup(*[inline(txt(NAME[k], T.TYPE.label, COLOR[k]),
                                      Num(self.cos(k)[0], decimals=2, size=T.TYPE.label))
                               for k in self.keys]).arrange(RIGHT, buff=0.3)
            lab.next_to(panel.xr, DOWN, buff=0.45).align_to(panel.xr, LEFT)
            if lab.get_bottom()[1] < self.caption_top() + 0.1:     # no room under the rows
                lab.next_to(panel.xr, UP, buff=0.45).align_to(panel.xr, LEFT)
            self.put("zero_label", lab, run_time=0.4 * t)
            self.emphasize(lab[-1], run_time=0.6 * t)

        def recap(text: str) -> None:
            # the caption follows the voice (round 31: "A cosine: ..." stood over W_Q, W_K,
            # W_V for 9 s): one X, then the same W, then the result (`four`)
            if self.burned is None and self.caption is not None:
                self.set_caption(text)

        l0 = int(v.layers[0].value)

        def clear_cosine(t):
            # the cosine picture has said its piece: the left goes to X's rows
            self.drop("cos_status", "cos_arrows", "cosine", run_time=t)
            recap(f"Layer {l0}: one X for both banks.")

        def multiply(t):
            # X's rows go into each matrix (the same boxes for both rows); out of each box
            # come that matrix's rows: Q, then K, then V, each pair with its "=" marks
            boxes, note = panel.w
            # each box drawn, its name at full size (round 31: a growing box shrank W_K, W_V
            # to 0.3-4 px mid-play)
            self.play(LaggedStart(*[AnimationGroup(Create(b[0]), FadeInPlace(b[1]))
                                    for b in boxes], lag_ratio=0.3),
                      FadeInPlace(note), run_time=0.16 * t)
            recap(f"Layer {l0}: the same query, key and value matrices for both.")
            for (rows, mk), box in zip(panel.outs, boxes):
                # X goes in along an arrow from the rows' right edge to the box (review 27:
                # a shrinking copy of the rows slid over the rows themselves, a double print)
                src = panel.xr.rows
                feed = Arrow([src.get_right()[0] + 0.08, src.get_center()[1], 0],
                             [box.get_left()[0] - 0.06, box.get_center()[1], 0], buff=0,
                             color=T.X, stroke_width=4, max_tip_length_to_length_ratio=0.2)
                self.play(GrowArrow(feed), box[0].animate.set_stroke(width=5),
                          run_time=0.12 * t)
                out = VGroup(rows, mk)
                out.save_state()
                # out of the box at reading size (no shrunk copy): it slides right as it
                # appears
                # from the box's right edge (round 31: starting on the box, the V rows
                # printed over W_V mid-play)
                out.shift(LEFT * max(0.0, min(0.5, out.get_left()[0] - box.get_right()[0]
                                              - 0.05))).set_opacity(0)
                self.add(out)
                self.play(Restore(out), box[0].animate.set_stroke(width=2.5),
                          FadeOutPlace(feed), run_time=0.16 * t)

        self.drop("table", "made")
        x_in = ([(0.6, clear_cosine),
                 (1, lambda t: self.emphasize(panel.xr.rows, run_time=t)),
                 (1, lambda t: self.emphasize(VGroup(panel.xr.rows, panel.mk_x), run_time=t))] if early else
                [(0.6, clear_cosine),
                 (1, lambda t: self.put("panel", panel.head, run_time=t)),
                 (2, lambda t: self.play(
                     *[Transform(self.st.sents[i].box.copy(), SurroundingRectangle(
                         panel.xr.rows[i], color=T.X, buff=0.04), remover=True)
                       for i in (0, 1)],
                     FadeInPlace(panel.xr), run_time=t)),
                 (1, lambda t: self.play(Write(panel.mk_x), run_time=t))])
        self.by_cue([
            [(1, lambda t: self.put("cosine", pic[0], run_time=t)),
             (1, lambda t: self.play(Create(pic.a), Create(pic.b), run_time=t)),
             (0.01, lambda t: self.set_slot("cos_arrows", VGroup(pic.a, pic.b))),
             (0.6, start_live)],
            [(2, lambda t: turn(PI / 6, t)),
             (2, lambda t: turn(-PI / 2, t)), (0.01, still)],
            # "At layer 0 the one X of both banks is multiplied by the same matrices, ...":
            # one sentence (round 34b: "both banks have one X" was its own, for length)
            [*[(0.25 * w_, f_) for w_, f_ in x_in],
             (3, multiply), (1, lambda t: self.emphasize(
                *[VGroup(r_.rows, mk_) for r_, mk_ in panel.outs], run_time=t))],
            [(1, four), (1, lambda t: self.wait(t))],
        ])
        for k in ("xrows", "xmarks"):               # now part of the panel
            self.shown.pop(k, None)
        self.set_slot("panel", panel)

    # --- entered: what attention added at layer 0 --------------------------------------------
    @staticmethod
    def col_width(tok: str) -> float:
        """A token's column: the token or its weight (0.00), whichever is wider, and a gap."""
        return max(txt(tok, T.TYPE.label).width,
                   txt("0.00", WEIGHT_SIZE, mono=True).width) + 0.16

    def token_window(self, toks: list[str], focus: list[int], room: float) -> list[int]:
        """The tokens shown: all, or a window round the focus that fits `room` (the ends cut
        are marked with an ellipsis)."""
        w = [self.col_width(t) for t in toks]
        lo, hi = 0, len(toks)
        while sum(w[lo:hi]) + (0.5 if lo > 0 or hi < len(toks) else 0) > room \
                and hi - lo > len(focus) + 1:
            if focus[0] - lo >= hi - 1 - focus[-1]:
                lo += 1
            else:
                hi -= 1
        return list(range(lo, hi))

    def arc_row(self, i: int, y: float) -> VGroup:
        """Sentence i's tokens at height y, the focus token's head-average attention as arcs
        (width = weight) and the weights under the tokens."""
        s = self.v.entered.sentences[i]
        toks = [str(t) for t in s.tokens]
        focus = [int(f) for f in s.focus]
        shown = self.token_window(toks, focus, ROW_ROOM)
        x = -6.3 + (0.35 if shown[0] > 0 else 0.0)
        xs = {}
        # the row spreads over the room (the columns share what is left, up to 0.7 each)
        spare = (ROW_ROOM - sum(self.col_width(toks[j]) for j in shown)) / max(1, len(shown))
        spare = min(0.7, max(0.0, spare))
        for j in shown:
            wj = self.col_width(toks[j]) + spare
            xs[j] = x + wj / 2
            x += wj
        row = VGroup()
        for j in shown:
            color = SENT[i] if j in focus else T.TEXT
            t_ = txt(toks[j], T.TYPE.label, color)
            row.add(t_.move_to([xs[j], y, 0]))
        on_baseline(list(row), y - 0.09)            # "." sits low, like a full stop
        dots = VGroup()
        if shown[0] > 0:
            dots.add(txt("…", T.TYPE.label, T.MUTED).next_to(row[0], LEFT, buff=0.12))
        if shown[-1] < len(toks) - 1:
            dots.add(txt("…", T.TYPE.label, T.MUTED).next_to(row[-1], RIGHT, buff=0.12))
        fx = sum(xs[f] for f in focus if f in xs) / max(1, len([f for f in focus if f in xs]))
        top = row.get_top()[1] + 0.14             # the arcs' ends clear of the words' tops
        arcs, weights = VGroup(), VGroup()
        by_key, selfs, bars, self_bars = {}, [], {}, []
        # one scale for both rows' bars: the largest weight on another token, either sentence
        mx = max([1e-6] + [float(s_.mean[k]) for s_ in self.v.entered.sentences
                           for k in range(len(s_.mean))
                           if k not in [int(f) for f in s_.focus]])
        for j in shown:
            w = s.mean[j]
            num = Num(w, decimals=self.v.entered.decimals.value, size=WEIGHT_SIZE,
                      color=WEIGHT)
            num.move_to([xs[j], row.get_bottom()[1] - 0.25, 0])
            weights.add(num)
            if j in focus:
                # the focus token's weight on itself: no arc; its number hidden until the
                # voice says it (review 26: the rows summed to 0.94 unexplained)
                num.set_opacity(0)
                selfs.append(num)
                # its bar too, dimmed (review 33b, 0:57: without it the row did not sum
                # to 1); shown with the others, its number when the voice says it
                self_bars.append(Rectangle(width=0.3, height=max(0.02, BAR_MAX * w.value / mx),
                                           stroke_width=0, fill_color=WEIGHT,
                                           fill_opacity=0.3).next_to(num, DOWN, buff=0.16))
                continue
            # a long chord rises no more than ARC_RISE (h = c/2 tan(angle/4))
            ang = min(PI / 3, 4 * pymath.atan(2 * ARC_RISE / max(abs(xs[j] - fx), 1e-6)))
            # each arc ends at its own point over bank, left arcs left of its middle
            # (review 32b, 0:43: the bundle tangled where it met bank)
            fe = fx + max(-0.24, min(0.24, 0.06 * (xs[j] - fx)))
            a = ArcBetweenPoints([fe, top, 0], [xs[j], top, 0],
                                 angle=ang if xs[j] < fx else -ang)
            # [CLS] and [SEP] (left out of the word ranking) grey: a share of the weight
            # that is about the same in both sentences
            a.set_stroke(WEIGHT,
                         width=max(0.8, ARC_W * w.value),
                         opacity=0.35 + 0.65 * min(1.0, 2 * w.value))
            arcs.add(a)
            by_key[j] = (a, num, row[shown.index(j)])
            # the weight as a bar's height under its number, shown as it is read (review
            # 32b, 0:43-1:09: arcs for 0.30 and 0.29 drew alike; the arcs leave, the bars
            # carry the sizes)
            bars[j] = Rectangle(width=0.3, height=max(0.02, BAR_MAX * w.value / mx),
                                stroke_width=0,
                                fill_color=WEIGHT, fill_opacity=0.8).next_to(
                num, DOWN, buff=0.16)
        tag = txt(str(i + 1), T.TYPE.heading, SENT[i]).move_to([-6.75, y, 0])
        g = VGroup(tag, row, dots, arcs, weights)
        g.row, g.arcs, g.weights, g.by_key, g.words = row, arcs, weights, by_key, s.words
        g.bars = bars
        g.selfs = selfs
        g.self_bars = self_bars
        # each token's position (counted from the start marker) under its weight, shown when
        # the voice says "the same places" (not part of g: it leaves before the rows move)
        g.idx = VGroup(*[txt(str(j), T.TYPE.label, T.TEXT).move_to(
            [xs[j], weights.get_bottom()[1] - 0.24, 0]) for j in shown])
        g.idx_of = {j: g.idx[k] for k, j in enumerate(shown)}
        g.tok = {j: row[shown.index(j)] for j in shown}
        g.shown_index = {j: k for k, j in enumerate(shown)}
        return g

    def softmax_rows(self, r: VGroup, y_top: float) -> VGroup | None:
        """One head's weights made once, for sentence 1's focus token (row `r`), from y_top
        down at the left: "in head h alone:", then per written key (the heaviest word, the
        start marker) its token, "Q · K / √d_head =" its score, an arrow (named "softmax over
        the whole row" over the arrows) and its weight. None when the plan has no such step
        or a key is not in the row."""
        sm = self.v.entered.softmax
        if isinstance(sm, Value) or int(sm.sentence) != 0:
            return None
        keys = [int(k) for k in sm.keys]
        if not keys or any(k not in r.tok for k in keys):
            return None
        L_, B_ = T.TYPE.label, T.TYPE.body
        head = inline(txt("1", L_, SENT[0]), txt("in head", L_, T.TEXT),
                      Num(sm.head, decimals=0, size=L_), txt("alone:", L_, T.TEXT), buff=0.12)
        head.move_to([-6.5, y_top, 0], aligned_edge=UP + LEFT)
        toks = self.v.entered.sentences[0].tokens
        rows = VGroup()
        y = head.get_bottom()[1] - 0.5
        name_w = max(txt(str(toks[k]).strip() or "␣", B_).width for k in keys)
        for k in keys:
            name = txt(str(toks[k]).strip() or "␣", B_, T.TEXT)
            q_ = txt("Q", QK_SIZE, T.Q, weight="BOLD")
            k_ = txt("K", QK_SIZE, K_LIGHT, weight="BOLD")
            dot = txt("·", 1.6 * B_, T.TEXT)
            sq, n_ = txt("/ √", B_, T.TEXT), Num(sm.d_head, decimals=0, size=B_)
            f = inline(q_, dot, k_, sq, n_, txt("=", B_, T.TEXT),
                       Num(sm.scores[k], decimals=int(sm.score_decimals), size=1.2 * B_),
                       buff=0.12)
            dot.set_y(q_.get_y())               # the product's dot at mid height
            VGroup(*f[4:]).shift(LEFT * (n_.get_left()[0] - sq.get_right()[0] - 0.03))
            name.move_to([-6.2, y, 0], aligned_edge=LEFT)
            f.move_to([-6.2 + name_w + 0.5, y, 0], aligned_edge=LEFT)
            on_baseline([name], baseline(f[3]))     # the token reads on the formula's line
            row = VGroup(name, f)
            row.key, row.q, row.k, row.score = k, q_, k_, f[-1]
            rows.add(row)
            y -= 0.72
        x_a = max(rw[1].get_right()[0] for rw in rows) + 0.4
        arrows, weights = VGroup(), VGroup()
        for rw in rows:
            a = Arrow([x_a, rw.get_y(), 0], [x_a + 2.2, rw.get_y(), 0], buff=0,
                      color=WEIGHT, stroke_width=3, max_tip_length_to_length_ratio=0.1)
            w = inline(txt("weight", B_, WEIGHT),
                       Num(sm.weights[rw.key], decimals=self.v.entered.decimals.value,
                           size=1.2 * B_, color=WEIGHT))
            w.next_to(a, RIGHT, buff=0.2)
            arrows.add(a)
            weights.add(w)
        # over the arrows, on the header's line (between the rows it would crowd them)
        soft = txt("softmax over the whole row", L_, WEIGHT)
        soft.move_to([arrows.get_x(), head.get_y(), 0])
        if soft.get_left()[0] < head.get_right()[0] + 0.4:
            soft.align_to([head.get_right()[0] + 0.4, 0, 0], LEFT)
        g = VGroup(head, rows, arrows, soft, weights)
        g.head, g.rows, g.arrows, g.soft, g.weights = head, rows, arrows, soft, weights
        return g

    def update_unit(self) -> float:
        """Scene units per unit of length for the two updates and their pieces: the longer
        update 3.5 long (shrunk by `update_picture` where the room is less)."""
        e = self.v.entered
        return 3.5 / max(float(e.length[0]), float(e.length[1]), 1e-9)

    def sum_unit(self) -> float:
        """Scene units per unit of length in the tip-to-tail sketch (its own scale, one for X,
        the updates and the sums in it): the longest of them 6.4 long."""
        e = self.v.entered
        return 6.4 / max(float(e.sum_length[0]), float(e.sum_length[1]),
                         float(e.x_length[0]), float(e.x_length[1]), 1e-9)

    def update_picture(self, x: float, y_top: float, shorter: float = 0.0,
                       head_at=None, o_at=None, ceiling: float | None = None) -> VGroup:
        """The two updates Delta_attn^(0) as arrows from one point: lengths to scale, the
        angle between them from the plan; `shorter`: how much less the arrows may rise (the
        column under them would reach the caption, e.g. two updates nearly at right angles).
        `head_at`: the header's top-left corner (else at (x, y_top)); `o_at`: where the arrows
        start (else under the header), their tips no higher than `ceiling`."""
        e = self.v.entered
        la, lb = (float(e.length[0]), float(e.length[1]))
        unit = self.update_unit()
        base = BASE * DEGREES
        ang = float(e.angle) * DEGREES
        # short, at label size: what the pieces are, in two lines (shown first), and what
        # the drawing is, in one (shown when the voice says "drawn flat")
        piece = inline(txt("a piece: one token's weighted values through", T.TYPE.label,
                           PIECE),
                       math("W_O", T.TYPE.math_label, T.TEXT), buff=0.1)
        head = VGroup(inline(math("Delta^((0))", 1.5 * T.TYPE.math_label, T.ATTN),
                             txt("= the pieces + a bias", T.TYPE.label, PIECE)))
        # what the drawing is: every arrow a vector of d_model numbers, drawn flat
        # (review 26: river's piece drawn shorter than its 4.75: the drawing is a projection,
        # the numbers are the true lengths)
        # one line (review 28: three lines of notes beside the pieces)
        # (review 31b: "drawn flat (384 numbers each)" was hard to parse)
        flat = txt(f"a 2-D sketch of {self.v.heads.d_model}-number vectors; lengths as labelled",
                   T.TYPE.label, T.TEXT)
        head.add(flat)
        head.arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        head.move_to([x, y_top, 0], aligned_edge=UP + LEFT)
        head.flat = flat
        # what a piece is, in words: only when no piece is built on screen (`piece_build`)
        head.piece = piece.next_to(head, DOWN, buff=0.12).align_to(head, LEFT)
        rise = max(0.0, *(unit * L * pymath.sin(a) for L, a in ((la, base), (lb, base + ang))))
        if o_at is not None and ceiling is not None:
            shorter = max(shorter, o_at[1] + rise - ceiling)
        if shorter > 0 and rise > 0:
            keep = max(0.45, 1 - shorter / rise)
            unit, rise = unit * keep, rise * keep
        o = [x + 0.3 + max(0.0, -min(0.0, unit * lb * pymath.cos(base + ang))),
             head.get_bottom()[1] - 0.45 - rise, 0]
        if o_at is not None:
            o = [o_at[0] + max(0.0, -min(0.0, unit * lb * pymath.cos(base + ang))), o_at[1], 0]
        if head_at is not None:
            head.move_to([head_at[0], head_at[1], 0], aligned_edge=UP + LEFT)
            head.piece.next_to(head, DOWN, buff=0.12).align_to(head, LEFT)
        ends = [[o[0] + unit * L * pymath.cos(a), o[1] + unit * L * pymath.sin(a), 0]
                for L, a in ((la, base), (lb, base + ang))]
        arrows = VGroup(*[Arrow(o, end, buff=0, color=SENT[i], stroke_width=5,
                                max_tip_length_to_length_ratio=0.15)
                          for i, end in enumerate(ends)])
        for a in arrows:                    # the value pieces over them stay visible
            a.set_stroke(opacity=0.45)
            a.tip.set_fill(opacity=0.45)
            a.set_z_index(-1)
        # at label size (review 33: "1: length 5.50" read about 11 px)
        L_ = T.TYPE.label
        labels = VGroup(
            inline(txt("1: length", L_, SENT[0]),
                   Num(e.length[0], decimals=2, size=L_, color=SENT[0])).next_to(
                arrows[0].get_end(), RIGHT, buff=0.12),
            inline(txt("2: length", L_, SENT[1]),
                   Num(e.length[1], decimals=2, size=L_, color=SENT[1])).next_to(
                arrows[1].get_end(), RIGHT, buff=0.12))
        arc = Arc(radius=0.55, start_angle=base, angle=ang, arc_center=o, color=T.TEXT,
                  stroke_width=3)
        cos = inline(txt("cos", L_, T.TEXT), Num(e.cos, decimals=2, size=L_, color=T.TEXT))
        mid = base + ang / 2
        cos.move_to([o[0] + 1.15 * pymath.cos(mid), o[1] + 1.15 * pymath.sin(mid), 0],
                    aligned_edge=LEFT)
        if float(e.angle) < NARROW:             # nearly one direction: the label goes below
            cos.next_to(arrows, DOWN, buff=0.15).align_to(arrows, LEFT)
            labels[0].next_to(cos, DOWN, buff=0.1).align_to(cos, LEFT)
            labels[1].next_to(arrows, UP, buff=0.12).align_to(arrows, RIGHT)
        # each key token's weighted values (and the bias), tip to tail, in the plane of the two
        # updates turned by `base`: they end at the update's tip
        turn = np.array([[pymath.cos(base), -pymath.sin(base)], [pymath.sin(base),
                                                                  pymath.cos(base)]])
        chains = VGroup()
        for i in (0, 1):
            pc = e.sentences[i].pieces
            at = np.array(o, dtype=float)
            chain = VGroup()
            chain.keys, chain.span, chain.extra = [], {}, {}
            # drawn one by one: the named words, the markers (the voice names them) and any
            # piece long enough to see; the other tokens' pieces as one ("the other N,
            # small"), then the bias
            s_ = e.sentences[i]
            xy = [np.array([float(c[0]), float(c[1])]) for c in pc.xy]
            named = {int(w) for w in list(s_.words)[:1 if i == 0 else 3]}
            # every piece drawn alone is named and long enough to see: the others (the
            # markers' among them) are one piece, so the count adds up to the sentence's tokens
            keep = [j for j in range(len(xy)) if j in named
                    and unit * float(np.linalg.norm(xy[j])) >= 0.2]   # deposited too (review 33x)
            rest = [j for j in range(len(xy)) if j not in keep]
            items = [(j, xy[j]) for j in keep]
            if rest:
                items.append(("rest", sum((xy[j] for j in rest), np.zeros(2))))
            items.append(("bias", np.array([float(pc.bias[0]), float(pc.bias[1])])))
            chain.n_rest = len(rest)
            chain.rest = rest
            # each named piece its own shade, every other one lighter, so pieces that line
            # up read as separate arrows (review 34b: the money bank's three read as one)
            chain.shade = {j: (SENT[i] if n % 2 == 0 else
                               ManimColor(SENT[i]).interpolate(ManimColor("#FFFFFF"), 0.5))
                           for n, j in enumerate(keep)}
            for j, c in items:
                d = unit * (turn @ c)
                end = at + np.array([d[0], d[1], 0.0])
                if isinstance(j, int):
                    chain.span[j] = (at, end)
                else:
                    chain.extra[j] = (at, end)
                if np.linalg.norm(d) > 0.02:
                    chain.add(Arrow(at, end, buff=0, color=chain.shade.get(j, SENT[i]),
                                    stroke_width=6, tip_length=0.18,
                                    max_tip_length_to_length_ratio=0.4))
                    chain.keys.append(j)
                at = end
            chains.add(chain)
        for lab, end in zip(labels, ends):
            # no room right of the tip (the frame's edge would push the label onto the
            # arrow): above the tip instead
            if lab.get_right()[0] > 7.11 - T.EDGE:
                lab.next_to(end, UP, buff=0.18)
            self.keep_inside(lab)
        # sentence 1's names under its chain (the update's arrow and the cosine lie over it)
        # (the header's note on the sketch comes only once the sketch has moved: not avoided)
        names, rings = self.piece_names(chains, (-1, 1), avoid=VGroup(*labels, cos, head[0], arc),
                                        lines=[(np.array(o, dtype=float), np.array(e_))
                                               for e_ in ends])
        g = VGroup(head, chains, arrows, labels, arc, cos, names, rings)   # move as one
        g.head, g.arrows, g.labels, g.arc, g.cos, g.o = head, arrows, labels, arc, cos, o
        g.chains, g.names, g.rings = chains, names, rings
        g.unit = unit
        return g

    def piece_build(self, r1: VGroup, upd: VGroup, top: float, rows_bottom: float):
        """Sentence 1's heaviest word's piece, built once under the rows (left): its values
        as one strip of head slices (one per head), each slice's height then scaled by that
        head's weight on the word (drawn, never written: the mean is the number shown), the
        strip into W_O, and out the piece itself, which then moves to its place in the chain.
        None when that word's piece is not drawn alone."""
        e = self.v.entered
        s = e.sentences[0]
        if not len(s.words):
            return None
        j = int(s.words[0])
        chain = upd.chains[0]
        if j not in chain.keys or j not in r1.tok:
            return None
        p_ = chain[chain.keys.index(j)]
        n_h = int(self.v.heads.n_heads)
        hw = [float(row[j]) for row in s.head_w]
        if len(hw) != n_h or max(hw) <= 0:
            return None
        L_ = T.TYPE.label
        tok = str(s.tokens[j]).strip() or "␣"
        x0 = -6.4
        y_top = rows_bottom - 0.3
        v_lab = inline(txt(f"{tok}'s values", L_, T.TEXT), math("V", T.TYPE.math_label, T.V),
                       txt(f": one slice per head ({n_h})", L_, T.TEXT))
        v_lab.move_to([x0, y_top, 0], aligned_edge=UP + LEFT)
        cw = min(0.24, 3.2 / n_h)
        base = v_lab.get_bottom()[1] - 0.35 - 1.3
        # each slice drawn at full height (weight 1), then scaled by its weight (<= 1): it
        # only shrinks (review 33b, 1:19: scaled to the largest weight, the slice of weight
        # 1.00 grew to 3x)
        cells = VGroup(*[Rectangle(width=cw, height=1.3, stroke_width=1,
                                   stroke_color=T.BACKGROUND, fill_color=T.V,
                                   fill_opacity=0.85) for _ in range(n_h)])
        cells.arrange(RIGHT, buff=0.03)
        cells.move_to([x0, base, 0], aligned_edge=DOWN + LEFT)
        scaled = cells.copy()
        for c, w in zip(scaled, hw):
            c.stretch_to_fit_height(max(0.04, 1.3 * min(1.0, w)))
            c.move_to([c.get_x(), base, 0], aligned_edge=DOWN)
        w_lab = txt(f"× each head's weight on {tok} (height)", NOTE, WEIGHT)
        w_lab.next_to(cells, DOWN, buff=0.15).align_to(cells, LEFT)
        wo = VGroup(Rectangle(width=1.0, height=1.0, color=T.TEXT, stroke_width=2.5))
        wo.move_to([cells.get_right()[0] + 1.1, base + 0.65, 0])
        wo.add(math("W_O", 1.3 * T.TYPE.math_label, T.TEXT).move_to(wo[0]))
        L = max(0.6, float(p_.get_length()))
        a0 = wo[0].get_right() + RIGHT * 0.1
        arrow = Arrow(a0, a0 + RIGHT * L, buff=0, color=SENT[0], stroke_width=5,
                      tip_length=0.16, max_tip_length_to_length_ratio=0.4)
        p_lab = txt(f"{tok}'s piece", L_, SENT[0]).next_to(arrow, UP, buff=0.12)
        b = VGroup(v_lab, w_lab, wo, arrow, p_lab)
        b.strip, b.scaled, b.v_lab, b.w_lab, b.wo, b.arrow, b.p_lab = (
            cells, scaled, v_lab, w_lab, wo, arrow, p_lab)
        b.key = j
        return b

    def start_marker(self, i: int):
        """Sentence i's start marker whose piece the voice compares with its weight: sentence
        1's only, when its weight is close to its heaviest word's (the claim the storyboard
        checks); else None."""
        if i != 0:
            return None
        s = self.v.entered.sentences[0]
        sp = [int(j) for j in s.special.values]
        if not sp or not len(s.words):
            return None
        j, w = sp[0], int(s.words[0])
        if float(s.mean[j]) < 0.8 * float(s.mean[w]):
            return None
        return j

    def in_band(self, m) -> bool:
        """Whether `m` lies between the rows above the pieces (`names_band`'s top) and the
        caption: a piece's name or a marker's tag has no place over either."""
        lo, hi = getattr(self, "names_band", (ABOVE_CAPTION, 4.0))
        return m.get_bottom()[1] >= lo + 0.05 and m.get_top()[1] <= hi

    def piece_names(self, chains: VGroup, sides: tuple, avoid: VGroup, lines=()):
        """The named words' pieces labelled with their tokens (the heaviest word of sentence
        1, the three of sentence 2), on the side `sides[i]` of chain i (+1 left of its
        direction, -1 right); rings round the markers' pieces (too short to see), the start
        marker's named."""
        e = self.v.entered
        names, rings = VGroup(), VGroup()
        leads = []                          # the names' lines to their pieces
        for i, chain in enumerate(chains):
            s = e.sentences[i]
            todo = []
            # each sentence's heaviest word only (review 32a: "cash" and "deposited" with their
            # leaders crowded the short magenta chain)
            # (review 32b: sentence 2's two heaviest words' pieces, the and cash, tagged
            # with their lengths)
            ws = [int(j) for j in s.words[:1 if i == 0 else 3]]   # deposited too (review 33x)
            for j in ws:
                if j not in chain.span:
                    continue
                L_ = T.TYPE.label
                # what the number is, with it: "river: length 4.75" (review 32b, 1:24)
                c_ = getattr(chain, "shade", {}).get(j, SENT[i])
                lab = inline(txt((str(s.tokens[j]).strip() or "␣") + ":", L_, c_),
                             txt("length", L_, c_),
                             Num(s.piece_length[j], decimals=2, size=L_, color=c_),
                             buff=0.1)
                lab.shade = c_
                lab.word = True
                lab.key = j
                todo.append((chain.span[j], lab))
            # the other tokens' pieces (drawn as one) and the bias go unnamed: only what the
            # voice names is written (the header says "the pieces + a bias")
            for (a, b), lab in todo:
                d = b - a
                if np.linalg.norm(d) < 0.12:
                    continue
                # on its side, else the other, at the piece's middle, else further along:
                # clear of the update's arrow (drawn over the chain later) and of every
                # label; left out where no place is clear
                # a second, looser pass (its line may cross another's) before a name the voice
                # says is left out (review 33x: "deposited" had no label)
                for relaxed, side, at, far in (
                        (relaxed, side, at, far) for relaxed in (False, True)
                        for side in (sides[i], -sides[i])
                        for far in (0.0, 0.2, 0.4, 0.6, 0.85, 1.1, 1.4, 1.8, 2.2, 2.8)
                        for at in (0.5, 0.75, 0.9, 0.3, 0.15, 0.05)):
                    if getattr(lab, "sent", None) is not None:
                        break
                    n = side * np.array([-d[1], d[0], 0.0]) / np.linalg.norm(d)
                    off = 0.24 + far + 0.5 * (abs(n[0]) * lab.width + abs(n[1]) * lab.height)
                    lab.move_to(a + at * d + n * off)
                    # a thin line from the name to its own piece (review 26: stacked names
                    # in a tight fan could not be matched to their arrows), crossing no name
                    p_ = a + at * d
                    q_ = np.array([min(max(p_[0], lab.get_left()[0]), lab.get_right()[0]),
                                   min(max(p_[1], lab.get_bottom()[1]), lab.get_top()[1]),
                                   0.0])
                    gap = np.linalg.norm(p_ - q_)
                    seg = None
                    if gap > 0.2:
                        u_ = (p_ - q_) / gap
                        seg = (q_ + 0.05 * u_, p_ - 0.04 * u_)
                    labs = [m for m in names if getattr(m, "word", False)]
                    if not any(overlaps(lab, m, 0.08) for m in (*avoid, *labs)) \
                            and self.in_band(lab) \
                            and not on_lines(lab, [*lines, *(leads if not relaxed else [])],
                                             0.12 if not relaxed else 0.06) \
                            and not (seg is not None and not relaxed
                                     and any(on_lines(m, [seg], 0.04) for m in labs)):
                        lab.sent = i
                        names.add(lab)
                        if seg is not None:
                            lead = VGroup(Line(*seg, color=lab.shade, stroke_width=1.5),
                                          Dot(p_, radius=0.035, color=lab.shade))
                            lead.sent, lead.key = i, lab.key
                            names.add(lead)
                            leads.append(seg)
                        break
                if getattr(lab, "sent", None) is None:
                    # no clear place by its piece: under the sentence's last name, a line to
                    # its piece's middle
                    prev = [m for m in names if getattr(m, "word", False)
                            and getattr(m, "sent", None) == i]
                    if prev:
                        lab.next_to(prev[-1], DOWN, buff=0.14).align_to(prev[-1], RIGHT)
                        p_ = a + 0.5 * d
                        q_ = np.array([min(max(p_[0], lab.get_left()[0]), lab.get_right()[0]),
                                       min(max(p_[1], lab.get_bottom()[1]),
                                           lab.get_top()[1]), 0.0])
                        labs = [m for m in names if getattr(m, "word", False)]
                        if not any(overlaps(lab, m, 0.06) for m in (*avoid, *labs)) \
                                and self.in_band(lab):
                            lab.sent = i
                            names.add(lab)
                            if np.linalg.norm(p_ - q_) > 0.2:
                                u_ = (p_ - q_) / np.linalg.norm(p_ - q_)
                                lead = VGroup(Line(q_ + 0.05 * u_, p_ - 0.04 * u_,
                                                   color=lab.shade, stroke_width=1.5),
                                              Dot(p_, radius=0.035, color=lab.shade))
                                lead.sent, lead.key = i, lab.key
                                names.add(lead)
                                leads.append((q_ + 0.05 * u_, p_ - 0.04 * u_))
            self.fan_names(i, chain, names, leads, avoid)
            for j in ():                        # no rings: the markers' pieces are in the rest
                a, b = chain.span[int(j)]
                c = (a + b) / 2
                near = [r for r in rings if np.linalg.norm(r.get_center() - c) < 0.2]
                if near:                        # one ring for both sentences' marker
                    if i not in near[0].sents:
                        near[0].sents.append(i)
                    continue
                r = Circle(radius=0.14, color=HL, stroke_width=2.5).move_to(c)
                r.sents = [i]
                r.token = str(s.tokens[int(j)]).strip() or "␣"
                # the start marker's length said (sentence 1's), beside its name
                r.length = None                 # the lengths stand in the weight table
                rings.add(r)
        tags = VGroup()
        segs = [ab for chain in chains for ab in (*chain.span.values(), *chain.extra.values())]
        segs += list(lines)
        for r in rings:
            # every ring named: its sentence(s) and its token ("1, 2 [CLS]")
            first = r.get_x() <= min(m.get_x() for m in rings) + 1e-6     # at the updates' start
            t_ = inline(*[txt(f"{k + 1}{',' if n + 1 < len(r.sents) else ''}", S,
                              SENT[k]) for n, k in enumerate(r.sents)],
                        txt(r.token, S, T.TEXT), buff=0.08)
            if r.length is not None:        # sentence 1's, said: "1 [CLS] 0.40 long"
                t_ = inline(txt("1", S, SENT[0]), t_,
                            Num(r.length, decimals=2, size=S, color=PIECE),
                            txt("long", S, T.TEXT))
            # below (the start) or right of its ring, else below-left, left, above: clear of
            # the labels and names
            # clear of the labels, the names, the pieces and the updates' arrows; nearest
            # first, then further out; a tag with no clear place is left out (its ring stays,
            # the voice names the markers)
            for side, buff in ((side, buff) for buff in (0.08, 0.3, 0.55)
                               for side in ((DOWN if first else RIGHT), DOWN + LEFT, LEFT,
                                            UP, UP + RIGHT, UP + LEFT, DOWN + RIGHT)):
                t_.next_to(r, side, buff=buff)
                self.keep_inside(t_)
                if not any(overlaps(t_, m, 0.06) for m in (*avoid, *names, *tags)) \
                        and self.in_band(t_) \
                        and not on_lines(t_, segs, 0.04):
                    tags.add(t_)
                    break
        return names, VGroup(rings, tags)

    def fan_names(self, i: int, chain, names: VGroup, leads: list, avoid) -> None:
        """Sentence i's piece names, when two or more sit close (a near-straight chain: the
        money bank's three pieces), set again as a column beside the chain, spaced, each
        with a line to its piece's middle (review 33b/y, 1:43: stacked names, their lines
        crossing the short arrows). Left as they are when the column finds no clear place."""
        labs = [m for m in names if getattr(m, "word", False) and getattr(m, "sent", None) == i]
        if len(labs) < 2:
            return
        close = any(abs(a_.get_y() - b_.get_y()) < a_.height + 0.18
                    and abs(a_.get_x() - b_.get_x()) < 0.5 * (a_.width + b_.width) + 0.2
                    for n, a_ in enumerate(labs) for b_ in labs[n + 1:])
        if not close:
            return
        mids = {}
        for m in labs:
            a_, b_ = chain.span[m.key]
            mids[id(m)] = (np.array(a_, dtype=float) + np.array(b_, dtype=float)) / 2
        pts = [np.array(q_, dtype=float) for ab in chain.span.values() for q_ in ab]
        old = {id(m): m.get_center().copy() for m in labs}
        old_leads = [m for m in names if not getattr(m, "word", False)
                     and getattr(m, "sent", None) == i]
        order = sorted(labs, key=lambda m: -mids[id(m)][1])      # top piece first
        h = max(m.height for m in labs) + 0.22
        ys = [mids[id(m)][1] for m in order]
        for k in range(1, len(ys)):
            ys[k] = min(ys[k], ys[k - 1] - h)
        shift = (np.mean([mids[id(m)][1] for m in order]) - np.mean(ys))
        ok = False
        for side, lower in ((side, lower) for side in (-1, 1)      # left of the chain first
                            for lower in (0.0, 0.15, 0.3, 0.45)):  # lower, clear of the header
            edge = (min(q_[0] for q_ in pts) - 0.6 if side < 0
                    else max(q_[0] for q_ in pts) + 0.6)
            for m, y in zip(order, ys):
                m.move_to([edge, y + shift - lower, 0], aligned_edge=RIGHT if side < 0 else LEFT)
            others = [m for m in names if m not in labs and m not in old_leads]
            if all(self.in_band(m) for m in order) and not any(
                    overlaps(m, o, 0.08) for m in order for o in (*avoid, *others)) and not any(
                    overlaps(a_, b_, 0.1) for n, a_ in enumerate(order) for b_ in order[n + 1:]):
                ok = True
                break
        if not ok:
            for m in labs:
                m.move_to(old[id(m)])
            return
        for m in old_leads:
            names.remove(m)
        for m in order:
            p_ = mids[id(m)]
            q_ = np.array([m.get_right()[0] + 0.06 if side < 0 else m.get_left()[0] - 0.06,
                           m.get_y(), 0.0])
            u_ = (p_ - q_) / max(np.linalg.norm(p_ - q_), 1e-6)
            seg = (q_, p_ - 0.04 * u_)
            lead = VGroup(Line(*seg, color=m.shade, stroke_width=1.5),
                          Dot(p_, radius=0.035, color=m.shade))
            lead.sent, lead.key = i, m.key
            names.add(lead)
            leads.append(seg)

    def sum_picture(self, x: float, y_top: float, scale: float | None = None) -> VGroup:
        """The addition drawn tip to tail, large, in the left half: X^(0) (the same in both)
        from a point; each update from X's tip (as on the right, moved and turned a little); each
        sum X^(0) + Delta^(0) from X's tail to that update's tip, dashed. X and the updates
        at their true lengths, the updates at their true angle (cos written at X's tip); X
        halves that angle (the angles to X and between the sums are not to scale, and the
        note says so; the sums' cos is written at the tail). The words stand
        right of the drawing, the true lengths as bars under them."""
        e = self.v.entered
        lx, la, lb = float(e.x_length[0]), float(e.length[0]), float(e.length[1])
        ang = float(e.angle) * DEGREES
        # update 1's direction from X's: X halves the updates' angle, so neither update (nor
        # its dashed sum) lies along X. In d_model numbers both may be near right angles to
        # X, which no flat drawing with their true angle to each other can show: the note
        # says the angles to X (and so the sums' angle) are not to scale
        # X steep (a tall drawing leaves the words room beside it); the updates turn a little
        # as they move onto X's tip
        phi = 70.0 * DEGREES
        # the pair turned off X's bisector by the least that draws the sums at their measured
        # angle (the plan's sum_angle); drawn so, the note says both angles are as measured
        # (review 33: "not to scale" under a picture whose angle was right)
        want = float(e.sum_angle)
        best = None
        for dd in np.linspace(-0.5, 0.5, 201) * ang:
            a_ = phi - ang / 2 + dd
            sa = np.array([lx * pymath.cos(phi) + la * pymath.cos(a_),
                           lx * pymath.sin(phi) + la * pymath.sin(a_)])
            sb = np.array([lx * pymath.cos(phi) + lb * pymath.cos(a_ + ang),
                           lx * pymath.sin(phi) + lb * pymath.sin(a_ + ang)])
            got = pymath.degrees(pymath.acos(max(-1.0, min(1.0, float(
                sa @ sb / (np.linalg.norm(sa) * np.linalg.norm(sb)))))))
            key = (round(abs(got - want), 1), abs(dd))
            if best is None or key < best[0]:
                best = (key, dd, got)
        true_angles = best is not None and abs(best[2] - want) < 1.0
        a_dir = phi - ang / 2 + (best[1] if true_angles else 0.0)   # update 1's direction
        d_x = np.array([pymath.cos(phi), pymath.sin(phi), 0.0])
        d_a = np.array([pymath.cos(a_dir), pymath.sin(a_dir), 0.0])
        d_b = np.array([pymath.cos(a_dir + ang), pymath.sin(a_dir + ang), 0.0])
        rel = {"x": d_x * lx, "a": d_x * lx + d_a * la, "b": d_x * lx + d_b * lb}
        xs = [0.0] + [v[0] for v in rel.values()]
        ys = [0.0] + [v[1] for v in rel.values()]
        floor = self.caption_top() + 0.35
        # room above the highest tip for "cos 0.38" on X's line (review 30, 2:08: the label
        # and the magenta tip touched the sentence header)
        room_h = (y_top - 0.7) - floor
        # alone on the stage (the rest of the block comes after it, on its own): no wider
        # than 3.0, the words beside it at label size
        unit = min(room_h / max(max(ys) - min(ys), 1e-6), 3.0 / max(max(xs) - min(xs), 1e-6))
        o = np.array([x + 0.1 - unit * min(xs), floor - unit * min(ys), 0.0])
        P = {k: o + unit * v for k, v in rel.items()}
        xa = Arrow(o, P["x"], buff=0, color=T.X, stroke_width=7,
                   max_tip_length_to_length_ratio=0.07)
        ups = VGroup(*[Arrow(P["x"], P[k], buff=0, color=SENT[i], stroke_width=6,
                             max_tip_length_to_length_ratio=0.15)
                       for i, k in enumerate("ab")])
        sums = VGroup()
        for i, k in enumerate("ab"):
            dl = DashedLine(o, P[k], color=SENT[i], stroke_width=3.5,
                            dash_length=0.14, dashed_ratio=0.55)
            dl.add_tip(tip_length=0.2, tip_width=0.16)
            sums.add(dl)
        # the updates' angle at X's tip, the sums' at the tail: arcs and their cosines
        cu = inline(txt("cos", T.TYPE.body, T.TEXT),
                    Num(e.cos, decimals=2, size=T.TYPE.heading, color=T.TEXT))
        # the updates' cosine inside their angle, on its bisector (X's own direction), clear of
        # every arrow; when "cos 0.38" does not fit there, the number alone (the arc says what
        # it is); else beside X's tip as before
        d_m = np.array([pymath.cos(phi), pymath.sin(phi), 0.0])
        segs = [(o, P["x"]), (P["x"], P["a"]), (P["x"], P["b"]), (o, P["a"]), (o, P["b"])]
        placed = None
        for cand in (cu, Num(e.cos, decimals=2, size=T.TYPE.heading, color=T.TEXT)):
            for r in np.arange(0.45, 2.0, 0.05):
                cand.move_to(P["x"] + r * d_m)
                if not on_lines(cand, segs, 0.15):          # an arrowhead is wide
                    placed = cand
                    break
            if placed is not None:
                break
        if placed is None:
            cu.next_to(P["x"] + 0.6 * d_m, RIGHT, buff=0.12)
            placed = cu
        cu = placed
        # the arc inside the label's reach: the largest radius whose arc misses the label
        a1 = None
        for rad in (0.55, 0.45, 0.38, 0.3, 0.24):
            a1 = Arc(radius=rad, start_angle=a_dir, angle=ang, arc_center=P["x"],
                     color=T.TEXT, stroke_width=3)
            pts = a1.get_points()
            if not on_lines(cu, list(zip(pts[:-1], pts[1:])), 0.05):
                break
        cu.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.04)
        g_a, g_b = (pymath.atan2(P[k][1] - o[1], P[k][0] - o[0]) for k in "ab")
        lo_, hi_ = min(g_a, g_b), max(g_a, g_b)
        r_s = 0.42 * unit * min(np.linalg.norm(rel["a"]), np.linalg.norm(rel["b"]))
        a2 = Arc(radius=r_s, start_angle=lo_, angle=hi_ - lo_, arc_center=o, color=T.TEXT,
                 stroke_width=3)
        # the number the voice reads next: large and white (review 26: small and grey)
        cs = inline(txt("cos", T.TYPE.body, T.TEXT),
                    Num(e.sum_cos, decimals=2, size=T.TYPE.heading, color=T.TEXT))
        cs.next_to(o + r_s * np.array([pymath.cos(lo_), pymath.sin(lo_), 0.0]), RIGHT,
                   buff=0.15)
        # clear of every arrow and sum (review 25: "cos 0.91" lay on a sum near X's arrow):
        # further right, beside the arc's end, until no line passes through it
        for _ in range(30):
            if not on_lines(cs, segs, 0.12):
                break
            cs.shift(RIGHT * 0.06)
        cs.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.04)
        drawn_g = VGroup(xa, sums, ups)
        # the words right of the drawing: what each arrow is
        left = max(drawn_g.get_right()[0], cu.get_right()[0]) + 0.45
        L_ = T.TYPE.label
        # one X only when the plan says the two X^(0) are equal (same token, same position);
        # else the one arrow stands for two, and the words say so
        same_x = abs(float(self.cos("x")[0].value) - 1.0) < 1e-6
        x_line = (inline(math("X^((0))", 1.4 * T.TYPE.math_label, T.X),
                         txt("the same in both, length", L_, T.TEXT),
                         Num(e.x_length[0], decimals=2, size=L_, color=T.X)) if same_x else
                  inline(math("X^((0))", 1.4 * T.TYPE.math_label, T.X),
                         txt(f"drawn as one (cos {float(self.cos('x')[0].value):.2f}),"
                             " lengths", L_, T.TEXT),
                         Num(e.x_length[0], decimals=2, size=L_, color=SENT[0]),
                         txt("and", L_, T.TEXT),
                         Num(e.x_length[1], decimals=2, size=L_, color=SENT[1])))
        legend = VGroup(
            x_line,
            inline(txt("+ its update", L_, T.TEXT),
                   math("Delta^((0))", 1.4 * T.TYPE.math_label, T.ATTN),
                   txt("from X's tip (solid)", L_, T.TEXT)),
            inline(txt("= the sums, one each (dashed)", L_, T.TEXT)))
        legend.arrange(DOWN, buff=0.16, aligned_edge=LEFT)
        legend.move_to([left, y_top, 0], aligned_edge=UP + LEFT)
        # the true lengths as bars on one scale: X more than twice either update
        bu = 3.0 / max(lx, la, lb, 1e-9)
        bars, rows = VGroup(), VGroup()
        xs_ = ([(math("X^((0))", 1.3 * T.TYPE.math_label, T.X), e.x_length[0], T.X)]
               if same_x else
               [(inline(math("X^((0))", 1.3 * T.TYPE.math_label, T.X),
                        txt(str(i + 1), L_, SENT[i])), e.x_length[i], T.X)
                for i in (0, 1)])
        for name, val, color in (*xs_,
                                 (txt("update 1", L_, SENT[0]), e.length[0],
                                  SENT[0]),
                                 (txt("update 2", L_, SENT[1]), e.length[1],
                                  SENT[1])):
            bar = Rectangle(width=max(0.02, float(val) * bu), height=0.2, stroke_width=0,
                            fill_color=color, fill_opacity=0.9)
            num = Num(val, decimals=2, size=L_, color=color)
            bars.add(bar)
            rows.add(VGroup(name, bar, num))
        w_name = max(r[0].width for r in rows)
        for k, r in enumerate(rows):
            r[0].move_to([0, -0.44 * k, 0], aligned_edge=LEFT)
            r[1].move_to([w_name + 0.2, -0.44 * k, 0], aligned_edge=LEFT)
            r[2].next_to(r[1], RIGHT, buff=0.12)
        # what the flat drawing keeps and what it cannot (two lines, under the bars)
        # one short line (review 28: a two-line disclaimer)
        # the sums' angle cannot be drawn true with the lengths and the updates' angle true:
        # then no arc is drawn for it, the cosine written only (review 34: "not to scale"
        # beside an arc labelled cos 0.91)
        if not true_angles:
            a2.set_stroke(opacity=0)
        why = VGroup(txt("2-D sketch; both angles drawn as measured" if true_angles
                         else f"2-D sketch; the sums' cosine is measured in "
                              f"{int(self.v.heads.d_model)} numbers", NOTE, T.TEXT))
        note = VGroup(why, rows)
        rows.next_to(legend, DOWN, buff=0.45).align_to(legend, LEFT)
        why.next_to(rows, DOWN, buff=0.4).align_to(legend, LEFT)
        # clear of "cos 0.91" (review 32a: the two touched)
        for _ in range(20):
            if not overlaps(why, cs, 0.2):
                break
            why.shift(DOWN * 0.1)
        note.bars = bars
        # too wide for the frame (a teacher's sentence): the words shrink to fit
        words = VGroup(legend, note)
        if words.get_right()[0] > 7.1 - T.EDGE:
            words.scale_to_fit_width(max(1.0, 7.1 - T.EDGE - left)).align_to(
                [left, 0, 0], LEFT)
            legend.align_to([0, y_top, 0], UP)
        arc = VGroup(a1, cu, a2, cs)
        g = VGroup(legend, xa, ups, sums, arc, note)
        # centred on the stage (review 33x, 1:49: squeezed into the left quarter)
        lo_x, hi_x = -7.1 + T.EDGE, 7.1 - T.EDGE
        g.shift(RIGHT * max(0.0, min((lo_x + hi_x) / 2 - g.get_center()[0],
                                     hi_x - g.get_right()[0])))
        g.legend, g.xa, g.ups, g.sums, g.arc, g.note = legend, xa, ups, sums, arc, note
        g.bars, g.cu, g.cs, g.a1, g.a2 = note.bars, cu, cs, a1, a2
        return g

    def beat_entered(self, beat) -> None:
        e = self.v.entered
        self.ensure_sentences()
        # layer 0's Q rows stay: they themselves move onto the two banks as their query
        # (review 32b, 0:40: Q^(0) faded out and a new Q came in over bank)
        pan = self.shown.get("panel")
        q_keep = getattr(pan, "qr", None) if pan is not None else None
        if q_keep is not None and q_keep in pan.submobjects:
            pan.remove(q_keep)
            self.add(q_keep)
        else:
            q_keep = None
        self.drop("panel", "zero_label", "table", "made", "xrows", "xmarks", "cosine", "cos_status", "cos_arrows",
                  "w_label", "thesis", "marker_rings")
        if self.st.chart is not None:
            self.play(FadeOutPlace(VGroup(self.st.chart, self.st.lines,
                                          *[d for k in self.keys
                                            for d in self.st.dots.get(k, {}).values()])),
                      run_time=self.quick())
            self.st.chart, self.st.dots, self.st.lines, self.st.grown = None, {}, VGroup(), -1
        self.compact_head()
        top = self.content_top()
        r1 = self.arc_row(0, top - 1.35)
        r2 = self.arc_row(1, top - 3.35)
        # how a weight is made: the one query scores each token's key, softmax
        # (softmax named by what it does: the scores made into shares that sum to 1)
        # the weights are a mean over the heads: said on the legend from the first arc
        n_h = self.v.heads.n_heads
        legend = None
        # short: what the width is and whose weights (query meets key, said by the voice)
        # in two parts: what carries the weight (arc width, then bar height, then the
        # numbers) changes; the rest stays (review 33b/y, 0:57-1:52: the legend left with
        # the arcs and the bars and rows stood unlabelled for a minute)
        for words in (f"attention weight (the mean of {n_h} heads)", "attention weight"):
            legend = inline(txt("bar height =", T.TYPE.label, T.TEXT),
                            txt(words, T.TYPE.label, T.TEXT), buff=0.16)
            if legend.width <= 13.0:
                break
        legend.move_to([0, top - 0.2, 0]).align_to([-6.9, 0, 0], LEFT)

        def relabel(lead: str, t: float, *more) -> None:
            # the legend's first words swapped in place; the rest slides beside them
            new = txt(lead, T.TYPE.label, T.TEXT)
            new.move_to(legend[0], aligned_edge=LEFT)
            old = legend[0]
            rest_to = legend[1].copy().next_to(new, RIGHT, buff=0.16)
            rest_to.align_to(legend[1], DOWN)
            # the old words out, then the new in (round 34: at once, they printed over
            # each other mid-change)
            self.play(old.animate(rate_func=lambda a: min(1.0, a / 0.45)).set_opacity(0),
                      FadeInPlace(new, rate_func=lambda a: max(0.0, (a - 0.55) / 0.45)),
                      legend[1].animate.move_to(rest_to.get_center()), *more, run_time=t)
            self.remove(new)
            legend.submobjects[0] = new
        ss = e.sentences
        # once the pieces are drawn the arcs go and the rows close up at the top (their
        # weights stay: the voice reads them); the pieces, tip to tail, below them on the right
        # (the legend stays over them, above row 1)
        dy = [top - 0.7 - r1.row.get_y(), top - 1.6 - r2.row.get_y()]
        compact_bottom = min(r.weights.get_bottom()[1] + d for r, d in zip((r1, r2), dy))
        head_at = (-6.5, compact_bottom - 0.3)
        o_at = (1.2, ABOVE_CAPTION + 0.7)
        self.names_band = (ABOVE_CAPTION, compact_bottom - 0.1)
        upd = self.update_picture(1.2, top - 0.35, head_at=head_at, o_at=o_at,
                                  ceiling=compact_bottom - 0.45)
        over = ABOVE_CAPTION - min(m.get_bottom()[1] for m in (upd.labels, upd.cos))
        if over > 0:                        # the picture would reach the caption: less rise
            upd = self.update_picture(1.2, top - 0.35, shorter=over, head_at=head_at,
                                      o_at=o_at, ceiling=compact_bottom - 0.45)
        build = self.piece_build(r1, upd, top, dy[1] + r2.weights.get_bottom()[1])
        # each chain's sentence, written where its update's label will stand
        tags = VGroup(*[lab[0][0].copy() for lab in upd.labels])
        for tg in tags:                     # clear of the markers' rings drawn with them
            for _ in range(8):
                if not any(overlaps(tg, r, 0.04) for r in upd.rings[0]):
                    break
                tg.shift(UP * 0.08)
        # on the left, once the rows have gone: X^(0), each update from its tip, the two sums
        sums = self.sum_picture(-6.5, top - 0.1, scale=upd.unit)
        nxt = None
        if e.x_next.value is not None:
            nxt = self.rest_of_block(top - 0.1)
        self.keep_inside(upd)

        qs, orders = [], []
        for r, i in ((r1, 0), (r2, 1)):
            f = [int(x) for x in ss[i].focus if int(x) in r.tok]
            q = txt("Q", QK_SIZE, T.Q, weight="BOLD")
            q.next_to(r.tok[f[0]] if f else r.row, UP, buff=0.12)
            q.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.03)
            qs.append(q)
            # right of the focus first (nearest out), then left of it (nearest out)
            ks = sorted(r.by_key)
            fx = f[0] if f else 0
            orders.append([k for k in ks if k > fx] + [k for k in reversed(ks) if k < fx])
        q_moved = []

        def q_move(t):
            # "the query is the same": layer 0's two Q rows (equal) move to where bank will
            # stand in each sentence and become its query there
            # the sentences' rows come in under them as they move (round 33: the Q alone
            # on an empty stage for a second)
            rows_in = [FadeInPlace(VGroup(r1[0], r1.row, r1[2])),
                       FadeInPlace(VGroup(r2[0], r2.row, r2[2]))]
            if q_keep is None:
                self.play(*rows_in, run_time=t)
                return
            # the rows move and shrink intact onto the two banks (review 33, 0:41.5: a morph
            # of the numbers into the letter smeared them), then the letter takes their place
            name, rows = q_keep[0], q_keep.rows
            goes = []
            for rw, q in zip(rows, qs):
                # no smaller than the legibility floor allows (8 px on its way)
                k = min(1.0, max(0.7, 1.6 / max(rw.width, 1e-6)))
                goes.append(rw.animate.scale(k).move_to(q.get_center() + UP * 0.05))
            # over an empty stage (the token rows come in as the letter lands: mid-move,
            # the second row crossed the first sentence's tokens)
            self.play(*goes, FadeOutPlace(name), run_time=0.6 * t)
            self.play(*[FadeOutPlace(rw) for rw in rows], *[FadeInPlace(q) for q in qs],
                      *rows_in, run_time=0.4 * t)
            self.remove(q_keep)
            self.add(*qs)
            q_moved.append(True)

        def grow_arcs(t):
            # bank's query (a yellow Q over bank, fixed) meets each token's key in turn (a K
            # over that token), both sentences at once; the words the voice names boxed
            self.sub_caption("keys")
            if not q_moved:
                self.play(*[FadeInPlace(q) for q in qs], run_time=0.04 * t)
            self.add_foreground_mobjects(*qs)   # the arcs start under bank's query
            n = max(1, max(len(o) for o in orders))
            for k in range(n):
                # the token's key shows over it (review 29: no key was ever drawn), then the
                # arc grows between it and bank
                meet, gone = [], []
                for r, q, o in zip((r1, r2), qs, orders):
                    if k < len(o):
                        a, num, tok = r.by_key[o[k]]
                        kt = txt("K", QK_SIZE, K_LIGHT, weight="BOLD")
                        spot = tok.get_top() + UP * (0.12 + q.height / 2)
                        # the query stays over bank; the key shows over its own token
                        # (round 31: a query walking to each key printed "KQ")
                        kt.move_to(spot)
                        kt.add_background_rectangle(color=T.BACKGROUND, opacity=0.85,
                                                    buff=0.03)
                        if overlaps(kt, q, 0.04):       # a neighbour close to bank: above
                            kt.next_to(q, UP, buff=0.06).set_x(tok.get_x())
                        meet += [FadeInPlace(kt)]
                        gone.append(kt)
                # (round 34: quicker still, so the boxes land on "river here")
                # no weight yet (review 34b: arcs, bars and numbers in 30 s): the weights
                # are made in one head first, then averaged (`sm_scores` ... `river`)
                self.play(*meet, run_time=0.08 * t / n)
                self.play(*[FadeOutPlace(m) for m in gone], run_time=0.1 * t / n)
                for m in gone:
                    self.remove(m)
            arcs_gone.append(True)
            differ(0.77 * t)

        def q_gone(t):
            # the two queries over bank leave (their job done: the keys met, one head's
            # weights made)
            if qs[0] in self.mobjects or qs[1] in self.mobjects:
                self.remove_foreground_mobjects(*qs)
                self.play(*[FadeOutPlace(q) for q in qs if q in self.mobjects], run_time=t)
                self.remove(*qs)

        def bars_in(r, t):
            # a row's weights as bars, the mean of the heads (its own dimmed): grown when the
            # voice reads that sentence's weights; the legend with the first row's
            bs = [b_ for b_ in (*r.bars.values(), *getattr(r, "self_bars", []))
                  if not any(b_ is u for u in bars_up)]
            bars_up.extend(bs)
            more = [] if legend in self.mobjects else [FadeInPlace(legend)]
            self.play(LaggedStart(*[GrowFromEdge(b_, UP) for b_ in bs], lag_ratio=0.08),
                      *more, run_time=t)

        # one head's weights made, once (review 34b: Q.K, softmax, weights never seen):
        # under the rows, sentence 1's focus token in the head the plan picked
        sm_cue = self.cue_with("oftmax")
        demo = (self.softmax_rows(r1, r2.weights.get_bottom()[1] - 0.1)
                if sm_cue is not None and sm_cue >= 2 else None)
        demo_up = []

        def sm_scores(t):
            # "In head 4, bank's query times river's key, divided by the root of 32, gives a
            # score of 5.6; the start marker's is 2.7.": per key, a K over its token, bank's
            # query and that key copied down into the row's product, the score written
            if demo is None:
                self.wait(t)
                return
            self.unbox(0.04 * t)
            self.play(FadeInPlace(demo.head), run_time=0.1 * t)
            demo_up.append(True)
            for n, rw in enumerate(demo.rows):
                tok = r1.tok[rw.key]
                # the second key ("the start marker's is ...") when the voice comes to it
                hit = self.words_at(sm_cue - 1, "marker's") if n else None
                if hit is not None and hit[0] - 0.3 > self.time:
                    self.wait(hit[0] - 0.3 - self.time)
                kt = txt("K", QK_SIZE, K_LIGHT, weight="BOLD")
                kt.move_to(tok.get_top() + UP * (0.12 + qs[0].height / 2))
                kt.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.03)
                if overlaps(kt, qs[0], 0.04):           # bank's neighbour: above its query
                    kt.next_to(qs[0], UP, buff=0.06).set_x(tok.get_x())
                self.play(FadeInPlace(kt), FadeInPlace(rw[0]),
                          tok.animate.set_color(T.POINTER), run_time=0.08 * t)
                self.play(TransformFromCopy(qs[0][1] if len(qs[0]) > 1 else qs[0], rw.q),
                          TransformFromCopy(kt[1] if len(kt) > 1 else kt, rw.k),
                          run_time=0.16 * t)
                rest = VGroup(*[m for m in rw[1] if m is not rw.q and m is not rw.k
                                and m is not rw.score])
                self.play(FadeInPlace(rest), run_time=0.07 * t)
                self.play(FadeInPlace(rw.score), FadeOutPlace(kt),
                          tok.animate.set_color(T.TEXT), run_time=0.08 * t)
                self.emphasize(rw.score, run_time=0.06 * t)

        def sm_weights(t):
            # "Softmax over the whole row turns them into weights of 0.84 and 0.05."
            if demo is None:
                self.wait(t)
                return
            self.play(FadeInPlace(demo.soft), *[GrowArrow(a) for a in demo.arrows],
                      run_time=0.3 * t)
            self.play(LaggedStart(*[FadeInPlace(w) for w in demo.weights], lag_ratio=0.5),
                      run_time=0.3 * t)
            self.emphasize(*[w[-1] for w in demo.weights], color=WEIGHT, run_time=0.3 * t)

        def demo_gone(t):
            # the one head has said its piece: it leaves with the queries
            if demo_up:
                self.play(FadeOutPlace(demo), run_time=t)
                demo_up.clear()

        def word(r, k):
            k = int(k)
            return [r.by_key[k][2], r.by_key[k][1]] if k in r.by_key else []

        shown_w = set()
        arcs_gone = []                      # the arcs have left (the weights read)
        bars_up = []                        # the weights' bars on screen
        idx_up = []                         # the positions under the rows are on screen

        def read(r, ks, t):
            # the weights of tokens `ks` of row r appear as the voice reads them
            ks_ = [int(k) for k in ks
                   if int(k) in r.by_key and id(r.by_key[int(k)][1]) not in shown_w]
            ns = [r.by_key[k][1] for k in ks_]
            shown_w.update(id(n) for n in ns)
            bs = [r.bars[k] for k in ks_ if k in r.bars
                  and not any(r.bars[k] is b_ for b_ in bars_up)]
            bars_up.extend(bs)
            if ns:
                self.play(*[FadeInPlace(n) for n in ns],
                          *[GrowFromEdge(b, UP) for b in bs], run_time=t)
            else:
                self.wait(t)

        def rest_w(t):
            # the weights not read aloud, once the voice has read its own
            kn = [(r, k, n) for r in (r1, r2) for k, (_, n, _) in r.by_key.items()
                  if id(n) not in shown_w]
            ns = [n for _, _, n in kn]
            shown_w.update(id(n) for n in ns)
            bs = [r.bars[k] for r, k, _ in kn if k in r.bars
                  and not any(r.bars[k] is b_ for b_ in bars_up)]
            bars_up.extend(bs)
            if ns:
                self.play(*[FadeInPlace(n) for n in ns],
                          *[GrowFromEdge(b, UP) for b in bs], run_time=t)

        def differ(t):
            # the same query meets different keys: sentence 1's heaviest word, sentence 2's
            # three heaviest words, as the voice names them
            # each boxed as it is named: "river here; the, cash and deposited there"
            ms = [m for k in list(r1.words[:1]) for m in word(r1, k)[:1]]
            ms += [m for k in list(r2.words[:3]) for m in word(r2, k)[:1]]
            # each box on its word (review 34x, 0:47-0:55: they landed ~3 s late): timed to
            # where the word stands in the spoken sentence (by its characters)
            ks = [int(k) for k in list(r1.words[:1]) if int(k) in r1.by_key]
            ks = [(0, k) for k in ks] + [(1, int(k)) for k in list(r2.words[:3])
                                         if int(k) in r2.by_key]
            t_end = self.time + t
            pos = 0
            for (i_, k), m in zip(ks, ms):
                hit = self.words_at(0, str(ss[i_].tokens[k]).strip(), pos)
                if hit is not None:
                    at, pos = hit
                    if at - 0.15 > self.time + 0.07 and at < t_end - 0.4:
                        self.wait(at - 0.15 - self.time)
                self.box(m, t=min(0.35, max(0.1, 0.3 * (t_end - self.time))), solid=True)
            if t_end - self.time > 0.07:
                self.wait(t_end - self.time)

        def shared(t):
            # the same token at the same position in both sentences, bank itself too: the same
            # X, the same values
            # their positions shown: the same numbers under them in both rows
            self.unbox(0.1 * t)
            self.play(*[FadeInPlace(r.idx) for r in (r1, r2)], run_time=0.25 * t)
            idx_up.append(True)
            same = [*map(int, e.shared), *[int(f) for f in ss[0].focus]]
            ms = [r.tok[j] for r in (r1, r2) for j in same if j in r.tok]
            ns = [r.idx_of[j] for r in (r1, r2) for j in same if j in r.idx_of]
            # each box round the token, its weight and its position: as wide as the widest
            ws = [r.weights[r.shown_index[j]] for r in (r1, r2) for j in same if j in r.tok]
            if ms:
                self.play(*[m.animate.set_color(T.MUTED) for m in ms], run_time=0.25 * t)
                self.emphasize(*[VGroup(m, w_, n) for m, w_, n in zip(ms, ws, ns)],
                               color=T.MUTED, run_time=0.4 * t)

        def moved(t):
            # a token in both sentences at different positions ("the"): its X differs
            ta, tb = ([str(x) for x in s_.tokens] for s_ in ss)
            same = set(map(int, e.shared))
            pairs = [(j, k) for j, w in enumerate(ta) for k, u in enumerate(tb)
                     if w == u and j != k and j not in same and k not in same]
            ms = [VGroup(r.tok[j], r.weights[r.shown_index[j]], r.idx_of[j])
                  for j_, k_ in pairs
                  for r, j in ((r1, j_), (r2, k_)) if j in r.tok]
            if ms:
                self.box(*ms, t=0.5 * t)

        def river(t):
            # "Averaged over the 12 heads, the river bank reads river most, 0.30, just ahead
            # of the start marker's 0.29": the one head leaves with the queries, the first
            # row's bars grow (the mean of the heads), then river's weight and the start
            # marker's as they are said
            self.unbox(0.05 * t)
            if idx_up:
                self.play(FadeOutPlace(VGroup(r1.idx, r2.idx)), run_time=0.08 * t)
                idx_up.clear()
            demo_gone(0.08 * t)
            q_gone(0.05 * t)
            bars_in(r1, 0.2 * t)
            ms = word(r1, r1.words[0]) if len(r1.words) else []
            if ms:
                read(r1, r1.words[:1], 0.1 * t)
                self.box(VGroup(*ms), t=0.12 * t)
            sp = [int(j) for j in ss[0].special.values]   # none for a model without markers
            st0 = sp[0] if sp else None
            if st0 is not None and st0 in r1.by_key:
                self.wait(0.05 * t)
                read(r1, [st0], 0.1 * t)
                self.box(VGroup(r1.by_key[st0][2], r1.by_key[st0][1]), t=0.12 * t)

        def money(t):
            # each word boxed with its weight as it is said: "spreads its weight: 0.15 on the
            # word the, 0.14 on cash, ..." (review 34: "over the, 0.15" was hard to follow)
            self.unbox(0.05 * t)
            bars_in(r2, 0.15 * t)
            ks = list(r2.words[:3])
            for k in ks:
                ms = word(r2, k)
                if ms:
                    read(r2, [k], 0.06 * t)
                    self.box(VGroup(*ms), t=0.07 * t)
                self.wait(0.07 * t)
            # "with 0.30 still on the start marker"
            sp = [int(j) for j in ss[1].special.values]   # none for a model without markers
            st0 = sp[0] if sp else None
            if st0 is not None and st0 in r2.by_key:
                read(r2, [st0], 0.05 * t)
                self.box(VGroup(r2.by_key[st0][2], r2.by_key[st0][1]), t=0.08 * t)
            self.wait(0.02 * t)
            rest_w(0.05 * t)

        def chain_in(i, t, built=None):
            # sentence i's pieces fly out of its tokens: each named word's piece leaves from
            # under its token, small, and grows into its place in the chain, tip to tail, in
            # the sentence's colour (its name written once it lands); the rest (the other
            # tokens' pieces as one) and the bias drawn in place. `built` {key: arrow}: a
            # piece already built on screen, which itself moves to its place
            r, chain = (r1, r2)[i], upd.chains[i]
            names = [n for n in upd.names if getattr(n, "sent", None) == i]
            anims = []
            built = built or {}
            for p_, k in zip(chain, chain.keys):
                # its name (and the line to it) as it lands (review 34b: the money bank's
                # pieces, named all at once, read as one blob)
                own = VGroup(*[n for n in names if getattr(n, "key", None) == k])
                tail = [FadeInPlace(own, run_time=0.4)] if len(own) else []
                if k in built:
                    anims.append(Succession(ReplacementTransform(built[k], p_, run_time=1.3),
                                            *tail))
                elif isinstance(k, int) and k in r.tok:
                    under = r.weights[r.shown_index[k]]
                    src = p_.copy().scale(0.5 / max(p_.get_length(), 0.5))
                    src.next_to(under, DOWN, buff=0.08)
                    anims.append(Succession(FadeInPlace(src, run_time=0.3),
                                            ReplacementTransform(src, p_, run_time=1.3),
                                            *tail))
                else:
                    anims.append(Create(p_))
            # slow enough to follow (review 28: each flight about 1 s), one after another
            self.play(LaggedStart(*anims, lag_ratio=0.7), run_time=0.8 * t)
            rest = [n for n in names if getattr(n, "key", None) not in chain.keys]
            if rest:
                self.play(*[FadeInPlace(n) for n in rest], run_time=0.1 * t)
            self.wait(0.1 * t if rest else 0.2 * t)

        row_quiet = {}                      # a sentence's row dimmed while the other's fly

        def quiet(i, t):
            r = (r1, r2)[i]
            ms = VGroup(*[m for m in (r[0], *r.row, *r[2], *r.weights)
                          if m.get_fill_opacity() > 0.01])
            for m in ms:
                m.save_state()
            row_quiet[i] = ms
            # out, not dimmed (review 34x, 1:16-1:46: the dimmed row stayed through the
            # other sentence's build); back when its sentence's turn comes
            self.play(ms.animate.set_opacity(0), run_time=t)

        def loud(i, t):
            ms = row_quiet.pop(i, None)
            if ms is not None:
                self.play(*[Restore(m) for m in ms], run_time=t)

        built = {}

        def pieces_in(t):
            # "each token hands bank a piece": the arcs give way and the rows close up at the
            # top, their weights kept; sentence 2's row dimmed (sentence 1's piece is built
            # under it)
            self.unbox(0.05 * t)
            # the caption changes on the cue (review 32a: it lagged 3 s behind the voice)
            self.sub_caption("pieces")
            gone = ([] if arcs_gone else [r1.arcs, r2.arcs]) + \
                ([r1.idx, r2.idx] if idx_up else []) + bars_up
            bars_up.clear()
            # the legend stays over the rows: now it names their numbers
            relabel("each number =", 0.15 * t,
                    *([FadeOutPlace(VGroup(*gone))] if gone else []))
            idx_up.clear()
            self.play(*[VGroup(r[0], r.row, r[2], r.weights).animate.shift(UP * d)
                        for r, d in zip((r1, r2), dy)], run_time=0.25 * t)
            # "bank itself too": bank's weight on itself, hidden till now, under bank
            # (review 32a: the row summed to 0.93 with bank's own cell blank)
            sf = [m for r in (r1, r2) for m in getattr(r, "selfs", [])]
            if sf:
                self.play(*[m.animate.set_opacity(1) for m in sf], run_time=0.1 * t)
                self.box(*[VGroup(r.tok[f], m) for r in (r1, r2)
                           for f, m in zip([int(x) for x in ss[(r1, r2).index(r)].focus
                                            if int(x) in r.tok], getattr(r, "selfs", []))],
                         t=0.1 * t)
                self.wait(0.08 * t)
                self.unbox(0.05 * t)
            quiet(1, 0.15 * t)
            if build is None:
                chain_in(0, 0.25 * t)

        def piece_scale(t):
            # "take river: its values come in one slice per head, and each slice is scaled by
            # that head's attention weight on river": river lit, its values' strip drawn under
            # it (review 31b: a flattened copy flashed as a stray line), then the slices
            # scaled one after another, the weights' note under them
            if build is None:
                self.wait(t)
                return
            j = build.key
            src = VGroup(r1.tok[j], r1.weights[r1.shown_index[j]])
            # the slices lifted out of river's token (review 33x, 1:15: they came from
            # nowhere): small at the token, they move down and open into the strip
            strip = build.strip
            strip.save_state()
            strip.scale(0.25).move_to(r1.tok[j].get_center()).set_opacity(0.2)
            self.add(strip)
            self.play(Indicate(src, color=SENT[0], scale_factor=1.1), run_time=0.1 * t)
            self.play(Restore(strip), FadeInPlace(build.v_lab), run_time=0.2 * t)
            self.wait(0.1 * t)
            self.play(FadeInPlace(build.w_lab), run_time=0.1 * t)
            self.play(LaggedStart(*[Transform(c, c2) for c, c2 in
                                    zip(build.strip, build.scaled)], lag_ratio=0.6),
                      run_time=0.45 * t)
            self.wait(0.05 * t)

        def piece_wo(t):
            # "the output matrix W_O turns them into river's piece": the box, the strip into
            # it, the piece out of it
            if build is None:
                self.put("piece_note", upd.head.piece, run_time=0.3 * t)
                self.emphasize(upd.head.piece, run_time=0.4 * t)
                return
            self.play(FadeInPlace(build.wo), run_time=0.15 * t)
            # the bars' labels leave with the bars (review 32a: "× each head's weight"
            # stayed with nothing to label)
            self.play(build.strip.animate.scale(0.05).move_to(build.wo[0]),
                      FadeOutPlace(VGroup(build.v_lab, build.w_lab)), run_time=0.25 * t)
            self.remove(build.strip)
            self.play(GrowArrow(build.arrow), FadeInPlace(build.p_lab), run_time=0.3 * t)
            built[build.key] = build.arrow
            self.wait(0.3 * t)

        def arrow_in(i, t):
            # a sentence's update: its arrow over its chain (from the chain's start to its
            # end), its length written at its tip
            self.play(Create(upd.arrows[i]), FadeInPlace(upd.labels[i]), run_time=t)

        def chain_one(t):
            # "tip to tail, with the other tokens' pieces and a bias, they make the river
            # bank's update": river's piece moves to its place, the others and the bias drawn
            # after it; the update's arrow over the chain, what it is (Delta = the pieces +
            # a bias) at the left
            if build is not None:
                self.play(FadeOutPlace(VGroup(build.wo, build.p_lab)), run_time=0.08 * t)
            chain_in(0, 0.42 * t, built=built)
            zoom = tail_inset(0)
            if zoom is not None:
                # the other tokens' pieces and the bias, too short to see: zoomed in at the
                # left (review 33/33x, 1:25: only river's piece could be seen)
                self.play(Create(zoom.mark), run_time=0.06 * t)
                # the mark itself opens into the frame (it leaves the chain's tail clear for
                # the update's label)
                self.play(ReplacementTransform(zoom.mark, zoom.frame), run_time=0.1 * t)
                self.play(*[GrowArrow(a_) for a_ in zoom.arrows], FadeInPlace(zoom.stub),
                          run_time=0.1 * t)
                self.play(FadeInPlace(zoom.labels), run_time=0.06 * t)
                insets.append(zoom)
            else:
                self.wait(0.32 * t)
            self.play(FadeInPlace(upd.head[0]), run_time=0.06 * t)
            arrow_in(0, 0.12 * t)
            self.set_slot("right", VGroup(upd.head[0]))

        insets = []

        def tail_inset(i):
            """Chain i's tail (the pieces after its named words: the rest as one, the
            bias) drawn again, enlarged, in a frame at the left; a small box marks where."""
            ch = upd.chains[i]
            ex = [(k_, ch.extra[k_]) for k_ in ("rest", "bias") if k_ in ch.extra]
            if not ex:
                return None
            p0 = np.array(ex[0][1][0], dtype=float)
            pts = [p0] + [np.array(b_, dtype=float) for _, (_, b_) in ex]
            span = max(max(np.linalg.norm(q_ - p0) for q_ in pts), 1e-6)
            mark = Square(side_length=max(0.3, 2.2 * span), color=HL, stroke_width=2)
            mark.move_to(sum(pts) / len(pts))
            # under the rows, left of the chain; low enough for the marker's bars above it
            # under the update's header (round 34: the rows moved down for their legend,
            # and the header with them: the frame's top edge ran through it)
            top_y = min(-0.35, upd.head[0].get_bottom()[1] - 0.2)
            frame = Rectangle(width=6.4, height=max(1.6, min(2.3, top_y - ABOVE_CAPTION - 0.1)),
                              color=HL, stroke_width=2)
            frame.move_to([-3.6, 0, 0]).align_to([0, top_y, 0], UP)
            names_ = {"rest": f"{ch.n_rest} other pieces, summed", "bias": "bias"}
            labs0 = [txt(names_[k_], T.TYPE.label, SENT[i]) for k_, _ in ex]
            xs_ = [q_[0] for q_ in pts]
            ys_ = [q_[1] for q_ in pts]
            # as large as the frame allows: the stub, the drawing, its short name right of it;
            # the long name under the drawing
            k_z = min(12.0, (frame.width - 0.5 - 0.8 - 1.0) / max(max(xs_) - min(xs_), 1e-6),
                      (frame.height - 0.5 - 0.45) / max(max(ys_) - min(ys_), 1e-6))
            if k_z < 1.5:
                return None
            c_ = np.array([0.0, 0.0, 0.0])
            ctr = sum(pts) / len(pts)
            arrows_, labels_ = VGroup(), VGroup()
            # river's piece coming in: its last stretch, up to the tail's start
            wj = [j_ for j_ in ch.keys if isinstance(j_, int)]
            d_in = np.array([1.0, 0.0, 0.0])
            if wj and wj[-1] in ch.span:
                a_, b_ = ch.span[wj[-1]]
                d_in = (np.array(b_) - np.array(a_)) / max(np.linalg.norm(
                    np.array(b_) - np.array(a_)), 1e-6)
            start = c_ + k_z * (p0 - ctr)
            stub = Line(start - 0.8 * d_in, start, color=SENT[i], stroke_width=5)
            stub.set_stroke(opacity=0.6)
            for (k_, (a_, b_)), lb in zip(ex, labs0):
                aa = c_ + k_z * (np.array(a_, dtype=float) - ctr)
                bb = c_ + k_z * (np.array(b_, dtype=float) - ctr)
                ar = Arrow(aa, bb, buff=0, color=SENT[i], stroke_width=5, tip_length=0.2,
                           max_tip_length_to_length_ratio=0.3)
                arrows_.add(ar)
                if k_ == "rest":            # under its arrow, from its start
                    lb.next_to(VGroup(ar, stub), DOWN, buff=0.12).align_to(aa, LEFT)
                else:
                    lb.next_to(bb, RIGHT, buff=0.15)
                labels_.add(lb)
            body = VGroup(stub, arrows_, labels_)
            body.zt_room = 0.4
            zt = txt(f"zoomed in ×{int(k_z)}", T.TYPE.label, HL)
            zt.move_to(frame.get_corner(UP + LEFT) + np.array([0.12, -0.1, 0.0]),
                       aligned_edge=UP + LEFT)
            body.move_to(frame).shift(DOWN * 0.15)     # under the zoom's name
            labels_.add(zt)
            g_ = VGroup(mark, frame, stub, arrows_, labels_)
            g_.mark, g_.frame, g_.stub, g_.arrows, g_.labels = mark, frame, stub, arrows_, labels_
            return g_

        def cls_piece(t):
            # "the start marker's weight is almost river's, but its piece is only 0.40 long":
            # its weight boxed in the row, then its own piece in the chain tagged with its
            # length (review 32b, 1:10: nothing showed why its weight added little)
            if insets:                      # the zoom has said its piece (the bars go there)
                z_ = insets.pop()
                self.play(FadeOutPlace(VGroup(z_.frame, z_.stub, z_.arrows, z_.labels)),
                          run_time=0.08 * t)
                t = 0.92 * t
            j = self.start_marker(0)
            w = int(ss[0].words[0]) if len(ss[0].words) else None
            if j is None or w is None or j not in r1.tok or w not in r1.tok:
                self.wait(t)
                return
            # both weights boxed in the row ("its weight is almost river's")
            self.box(VGroup(r1.tok[j], r1.weights[r1.shown_index[j]]),
                     VGroup(r1.tok[w], r1.weights[r1.shown_index[w]]), t=0.2 * t)
            # the two pieces' true lengths as bars on one scale, under the header at the
            # left (the 2-D sketch cannot show them: its [CLS] piece is in "the rest")
            L_ = T.TYPE.label
            pl = ss[0].piece_length
            bu = 3.0 / max(float(pl[w]), float(pl[j]), 1e-9)
            rows = VGroup()
            for k in (w, j):
                name = txt(f"{str(ss[0].tokens[k]).strip()}'s piece: length", L_, SENT[0])
                bar = Rectangle(width=max(0.03, float(pl[k]) * bu), height=0.2,
                                stroke_width=0, fill_color=SENT[0], fill_opacity=0.9)
                num = Num(pl[k], decimals=2, size=L_, color=SENT[0])
                rows.add(VGroup(name, bar, num))
            wn = max(r[0].width for r in rows)
            x0, y0 = -6.5, upd.head[0].get_bottom()[1] - 0.6
            for n, r in enumerate(rows):
                r[0].move_to([x0, y0 - 0.5 * n, 0], aligned_edge=LEFT)
                r[1].move_to([x0 + wn + 0.2, y0 - 0.5 * n, 0], aligned_edge=LEFT)
                r[2].next_to(r[1], RIGHT, buff=0.12)
            # river's bar from river's own piece; [CLS]'s from its weight in the row
            ch = upd.chains[0]
            src = ch[ch.keys.index(w)] if w in ch.keys else None
            self.play(FadeInPlace(rows[0][0]),
                      *([TransformFromCopy(src, rows[0][1])] if src is not None
                        else [GrowFromEdge(rows[0][1], LEFT)]),
                      FadeInPlace(rows[0][2]), run_time=0.3 * t)
            self.play(FadeInPlace(rows[1][0]),
                      GrowFromEdge(rows[1][1], LEFT),     # (a digit morphed into it)
                      FadeInPlace(rows[1][2]), run_time=0.3 * t)
            self.emphasize(rows[1][2], color=SENT[0], run_time=0.25 * t)
            self.unbox(0.05 * t)
            cls_bars.append(rows)

        cls_bars = []

        def pieces_two(t):
            # "the money bank's pieces make its own; this is a two-dimensional sketch ...":
            # sentence 1's row dimmed now, sentence 2's back; its chain, its arrow, then what
            # the drawing is
            if cls_bars:                    # said: they leave for the money bank's chain
                self.play(FadeOutPlace(VGroup(*cls_bars)), run_time=0.06 * t)
                cls_bars.clear()
            loud(1, 0.05 * t)
            quiet(0, 0.05 * t)
            chain_in(1, 0.5 * t)
            arrow_in(1, 0.1 * t)
            # the rows leave and the sketch grows before its note comes (the note's line,
            # at the left, would run into the money sentence's pieces beside the rows)
            grow(0.14 * t)
            self.play(FadeInPlace(upd.head.flat), run_time=0.05 * t)
            self.set_slot("right", upd.head)
            self.emphasize(upd.head.flat, run_time=0.05 * t)

        def grow(t):
            # the rows have said their piece: they leave and the two updates, their pieces
            # and names take the stage, larger (review 31b: a small sketch, ~11 px names);
            # the header moves up to the rows' place
            every = [m for r in (r1, r2) for m in (r[0], *r.row, *r[2], *r.weights,
                                                    *getattr(r, "selfs", []))]
            rows = VGroup(*[m for m in every
                            if m.get_fill_opacity() > 0.01 or m.get_stroke_opacity() > 0.01])
            self.remove(*[m for m in every if m not in rows])     # unseen: no fade
            rows.add(legend)                    # it names the rows: it leaves with them
            on = VGroup(upd.chains, upd.names, upd.arrows, upd.labels)
            off = VGroup(upd.arc, upd.cos)
            head_to = upd.head.copy().move_to([-6.5, self.content_top() - 0.05, 0],
                                              aligned_edge=UP + LEFT)
            whole = VGroup(on, off)
            top_, bot_ = head_to.get_bottom()[1] - 0.6, ABOVE_CAPTION + 0.3
            f = min(1.5, (top_ - bot_) / max(whole.height, 1e-6),
                    (13.6 - 2 * T.EDGE) / max(whole.width, 1e-6))
            f = max(1.0, f)
            c = whole.get_center()
            goal = np.array([0.6, (top_ + bot_) / 2, 0.0])
            probe = whole.copy().scale(f, about_point=c).shift(goal - c)
            lo_x, hi_x = -7.1 + T.EDGE, 7.1 - T.EDGE
            goal[0] += max(0.0, lo_x - probe.get_left()[0]) - max(0.0, probe.get_right()[0] - hi_x)
            off.scale(f, about_point=c).shift(goal - c)
            # the rows gone first, then the header moves into their place (review 32a: the
            # rows showed through the header while both cross-faded)
            self.play(FadeOutPlace(rows), run_time=0.35 * t)
            # only the header's shown line moves; the sketch's note (not yet on screen) is
            # put in place unseen (review 32a follow-up: it rode in with the header, over
            # the growing sketch's labels)
            d_h = head_to.get_center() - upd.head.get_center()
            upd.head.flat.shift(d_h)
            self.play(upd.head[0].animate.shift(d_h),
                      on.animate.scale(f, about_point=c).shift(goal - c), run_time=0.65 * t)
            self.remove(*every)
            row_quiet.clear()
            rows_gone.append(True)

        rows_gone = []                       # the rows have left (before the bars)

        def cos_in(t):
            # "so attention gives the two banks updates with a cosine of only 0.38": the
            # rows leave and the sketch grows, then the angle between the updates
            self.unbox(0.05 * t)
            if not rows_gone:
                grow(0.3 * t)
            self.play(Create(upd.arc), FadeInPlace(upd.cos), run_time=0.4 * t)
            self.emphasize(upd.cos, run_time=0.35 * t)

        def sums_in(t):
            # a new stage: the rows, the pieces, their names and the update's labels leave;
            # only the two update arrows stay, and they themselves move to X's tip
            lg = sums.legend
            self.sub_caption("sums")
            self.play(FadeOutPlace(VGroup(*([] if rows_gone else
                                            [r1[0], r1.row, r1[2], r1.weights,
                                             r2[0], r2.row, r2[2], r2.weights, legend]),
                                          upd.chains, upd.names, upd.labels, upd.arc,
                                          upd.cos)),
                      run_time=0.07 * t)
            self.drop("right", "marker_rings", "weigh", run_time=0.06 * t)
            self.play(Create(sums.xa), FadeInPlace(lg[0]), run_time=0.1 * t)
            self.play(*[Transform(a, u) for a, u in zip(upd.arrows, sums.ups)],
                      FadeInPlace(lg[1]), run_time=0.15 * t)
            self.remove(*upd.arrows)
            self.add(sums.ups)
            self.play(Create(sums.a1), FadeInPlace(sums.cu), run_time=0.07 * t)
            # the true lengths: each number with its bar, X's more than twice either update's
            rows = sums.note[1]
            self.play(FadeInPlace(VGroup(*[r[0] for r in rows])), run_time=0.05 * t)
            self.play(LaggedStart(*[AnimationGroup(GrowFromEdge(r[1], LEFT), FadeInPlace(r[2]))
                                    for r in rows], lag_ratio=0.3), run_time=0.1 * t)
            # what the flat drawing keeps (the lengths just shown) and what it cannot
            self.play(FadeInPlace(sums.note[0]), run_time=0.05 * t)
            self.play(LaggedStart(*[Create(a) for a in sums.sums], lag_ratio=0.4),
                      FadeInPlace(lg[2]), run_time=0.11 * t)
            self.add(sums.ups)                  # each update over its sum
            self.play(Create(sums.a2), FadeInPlace(sums.cs), run_time=0.08 * t)
            self.bring_to_front(sums.xa, sums.ups)  # the sums' arc passes under X's arrow
            self.emphasize(sums.cs, run_time=0.1 * t)
            self.wait(0.04 * t)                 # the finished sums, before the block

        done = {}
        blk = {}                            # the rest of the block, as its steps play

        def f_in(t):
            # "LayerNorm, which re-centres and rescales each vector, ...": the sums' drawing
            # leaves, its "cos 0.91" moving into the header of the rest of the block; the
            # boxes and the zoomed scale come in, the dot at the sums' cosine; the first box
            # lit as the voice names it
            if nxt is None:
                self.wait(t)
                return
            self.sub_caption("block")
            cs = sums.cs
            to = nxt.head[-1]
            d_ = to.get_center() - cs[-1].get_center()
            k_ = to.height / max(cs[-1].height, 1e-6)
            self.play(FadeOutPlace(VGroup(sums.legend, sums.note, sums.xa, sums.ups,
                                          sums.sums, sums.a1, sums.cu, sums.a2)),
                      cs.animate.shift(d_).scale(k_, about_point=to.get_center()),
                      run_time=0.3 * t)
            # its number lies on the header's own: the two trade places where they match
            self.play(FadeInPlace(nxt.head), FadeOutPlace(cs), run_time=0.15 * t)
            gz = nxt.scale
            self.play(FadeInPlace(nxt.parts), FadeInPlace(nxt.arrows), FadeInPlace(nxt.skip),
                      *([FadeInPlace(VGroup(gz.bar, gz.ticks, gz.name))] if len(gz) else []),
                      run_time=0.3 * t)
            if len(gz):
                self.play(GrowFromCenter(gz.dot), run_time=0.1 * t)
            bs = list(nxt.blocks.boxes)
            self.play(bs[0].animate.set_stroke(HL), run_time=0.15 * t)
            blk["bs"] = bs

        def f_step(k, t, move=True, turn=True):
            # `move`: box k lit (the one before unlit); `turn`: the dot moves on the zoomed
            # scale to the cosine after box k, a ghost left where it was, and box k's cosine
            # written beside it as it moves
            if not blk or k >= len(blk["bs"]):
                self.wait(t)
                return
            bs, gz = blk["bs"], nxt.scale
            c = e.stages[min(k + 1, len(e.stages) - 1)].cos
            rd = nxt.reads[k] if turn and k < len(nxt.reads) and len(nxt.reads[k]) else None
            go = []
            if turn and len(gz):
                ghost = Circle(radius=0.07, color=T.MUTED, stroke_width=2).move_to(
                    gz.dot.get_center())
                self.add(ghost)
                gz.add(ghost)
                go.append(gz.dot.animate.move_to([gz.x, gz.y_of(c), 0]))
            self.play(*go,
                      *([bs[k].animate.set_stroke(HL)] if move else []),
                      *([bs[k - 1].animate.set_stroke(T.MUTED)] if move and k else []),
                      *([FadeInPlace(rd)] if rd is not None else []),
                      run_time=0.8 * t)
            if rd is not None:
                self.emphasize(rd, run_time=0.2 * t)
            else:
                self.wait(0.2 * t)

        def f_out(t):
            # "... and the two X entering layer 1 have a cosine of 0.90": the out written
            # beside the dot's last place when the voice comes to its cosine (review 34b: it
            # landed before its sentence)
            if not blk:
                self.wait(t)
                return
            bs = blk["bs"]
            more = list(range(3, len(bs)))      # boxes past the three the voice names
            for k in more:
                f_step(k, 0.3 * t / len(more))
            if more:
                t = 0.7 * t
            end = self.time + t
            # (its sentence: the sums' "... have a cosine of" comes before it)
            hit = self.words_at(self.cue_with("entering layer", -1), "cosine")
            if hit is not None and self.time < hit[0] < end - 0.6:
                self.wait(hit[0] - self.time)
            left = max(0.3, end - self.time)
            self.play(FadeInPlace(nxt.out), bs[-1].animate.set_stroke(T.MUTED),
                      run_time=0.4 * left)
            self.emphasize(nxt.out[-1], run_time=0.5 * left)
            done["keep"] = VGroup(nxt.head, nxt.parts, nxt.arrows, nxt.skip, nxt.scale,
                                  nxt.out, *[r for r in nxt.reads if len(r)])

        def f_note(t):
            # "MiniLM normalizes after each part, so layer 1's matrices read this X
            # directly" (review 33y: nothing said the model is post-norm)
            if not blk or nxt is None:
                self.wait(t)
                return
            self.play(FadeInPlace(nxt.note), run_time=0.4 * t)
            self.emphasize(nxt.note, run_time=0.6 * t)
            done["keep"].add(nxt.note)

        def alone(t):
            # "Each sees one token alone, but the banks arrive apart, so their angle can
            # still move": the boxes' "each token alone", then the dot's moves on the scale
            # (review 34: why a per-token step can move the cosine)
            if not blk:
                self.wait(t)
                return
            labs = [p_[1][-1] for p_ in nxt.parts if len(p_[1]) > 1]
            if labs:
                self.emphasize(*labs, run_time=0.45 * t)
            else:
                self.wait(0.45 * t)
            gz = nxt.scale
            if len(gz):
                self.emphasize(VGroup(gz.bar, gz.dot), run_time=0.45 * t)
            else:
                self.wait(0.45 * t)
            self.wait(0.1 * t)

        # (round 32: "Where does a difference come from?" left the voice: the caption asks
        # it; the rows come in over the first words of "the query is the same ...")
        groups = [
            [(0.1, q_move),
             (1, grow_arcs)],
            # one head's weights made (review 34b), when the voice says so
            *([[(1, sm_scores)], [(1, sm_weights)]] if demo is not None else []),
            # (round 31: the positions and "the" at another place were cut for length; the
            # claim is carried by the keys the query meets)
            [(1, river)],
            [(1, money)],
        ]
        d_ = 2 if demo is not None else 0
        groups += [[(1, pieces_in)], [(1, piece_scale)], [(1, piece_wo)], [(1, chain_one)],
                   [(1, cls_piece)],
                   [(1, pieces_two)], [(1, cos_in)], [(1, sums_in)],
                   # "LayerNorm, which re-centres and rescales each vector, takes their
                   # cosine to 0.93; the FFN, ..., and its add take it to 0.89."
                   [(0.18, f_in), (0.2, lambda t: self.wait(t)),
                    (0.14, lambda t: f_step(0, t, move=False)),
                    (0.14, lambda t: f_step(1, t, turn=False)),
                    (0.2, lambda t: self.wait(t)),
                    (0.14, lambda t: f_step(1, t, move=False))],
                   [(1, alone)],
                   # "A last LayerNorm, and the two X entering layer 1 have a cosine of 0.90;
                   # MiniLM normalizes after each part, so layer 1's matrices read this X
                   # directly."
                   [(0.12, lambda t: f_step(2, t)), (0.45, f_out),
                    (0.3, f_note), (0.05, lambda t: self.wait(t))]]
        # a breath after the weights read aloud, after the two updates (before their
        # cosine), and after the sums (before the rest of the layer)
        # (and after one head's weights, before the average; the money bank's pieces, which
        # land one by one, get a second more before "So attention gives ...")
        self.by_cue(groups, pause={**({3: 0.3} if d_ else {}),
                                   2 + d_: 0.4, 3 + d_: 0.3, 9 + d_: 1.0, 11 + d_: 0.5})
        self.unbox()
        # the sums' drawing has left (its sums went on into the blocks) when there is a block
        keep = done.get("keep", sums)
        self.st.handoff = None if nxt is None else nxt.out      # its cosine goes on, to the chart
        self.set_slot("right", keep)

    def gauge(self, y_hi: float, y_lo: float, x: float) -> VGroup | None:
        """The two banks' cosine on a zoomed scale (the plan's `gauge`), a vertical bar at x
        from y_lo to y_hi, its tick values left of it, a dot at the sums' cosine (moved by
        the beat as each step is lit: the pair's angle turns a few degrees, too little to see,
        review 34b), its name under it. `y_of(c)`: the height of cosine c."""
        gz = self.v.entered.gauge
        if isinstance(gz, Value):
            return None
        lo, hi = float(gz.range[0]), float(gz.range[1])

        def y_of(c) -> float:
            return y_lo + (float(c) - lo) / max(hi - lo, 1e-9) * (y_hi - y_lo)

        L_ = T.TYPE.label
        bar = Line([x, y_lo, 0], [x, y_hi, 0], color=T.TEXT, stroke_width=3)
        ticks = VGroup()
        labelled = {round(float(v), 6) for v in gz.labels.values}
        for t_ in gz.ticks:
            yv = y_of(t_)
            tk = VGroup(Line([x - 0.12, yv, 0], [x, yv, 0], color=T.TEXT, stroke_width=2.5))
            if round(float(t_), 6) in labelled:
                tk.add(Num(t_, decimals=2, size=L_, color=T.TEXT).next_to(
                    [x - 0.12, yv, 0], LEFT, buff=0.1))
            ticks.add(tk)
        name = VGroup(txt("cos, zoomed in", L_, T.TEXT),
                      txt("(up: more alike)", L_, T.TEXT)).arrange(DOWN, buff=0.06)
        name.next_to(bar, DOWN, buff=0.2)           # (`place_name` may move it)
        dot = Dot([x, y_of(self.v.entered.stages[0].cos), 0], radius=0.11, color=T.TEXT)
        g = VGroup(bar, ticks, name, dot)
        g.bar, g.ticks, g.name, g.dot, g.y_of, g.x = bar, ticks, name, dot, y_of, x
        return g

    def place_name(self, gz: VGroup, clear: list) -> None:
        """The zoomed scale's name under its bar, else right of its top, else right of its
        bottom: the first place above the caption and clear of `clear` (a teacher's stacked
        sentences push the boxes, and the bar beside them, down to the caption)."""
        name, bar = gz.name, gz.bar
        spots = [lambda: name.next_to(bar, DOWN, buff=0.2),
                 lambda: name.next_to(bar.get_top(), RIGHT, buff=0.3).align_to(bar, UP),
                 lambda: name.next_to(bar.get_bottom(), RIGHT, buff=0.3).align_to(bar, DOWN),
                 lambda: name.next_to(VGroup(bar, *clear), DOWN, buff=0.2).align_to(bar, LEFT)]
        for put in spots:
            put()
            if name.get_bottom()[1] >= self.caption_top() + 0.1 and not any(
                    overlaps(name, m, 0.08) for m in clear):
                return
        spots[0]()

    def rest_of_block(self, y_top: float) -> VGroup:
        """The rest of layer 0 after attention's add, on a stage of its own, one box per step
        in the model's order (post-LN: LayerNorm, FFN + add, LayerNorm), one under the other;
        the cosine after each step (`reads`) written right of its box; right of them the
        zoomed cosine scale (`gauge`), whose dot moves as each box is lit; then, level with
        the dot's last place, `out`: the two X^(1) and their cosine, and what reads them
        next."""
        e = self.v.entered
        stages = list(e.stages)
        placement = self.v.reads.placement.value
        names = []
        for st_ in stages[1:]:
            n = str(st_.name.value)
            names.append(["LayerNorm"] if n == "LN" else
                         ["FFN", "each token alone"] if n == "+FFN" and placement == "post"
                         else ["LayerNorm, FFN", "each token alone"] if n == "+FFN"
                         else [n])
        L_ = T.TYPE.label
        x0, bw, bh, gap = -5.6, 4.0, 1.0, 0.5
        # the sums' cosine with them: each box's own beside it (review 33: the boxes
        # changed nothing visible; the plan's 0.91, 0.93, 0.89, 0.90 now each at its step)
        head = inline(txt("the two sums go on through layer", L_, T.TEXT),
                      Num(e.layer, decimals=0, size=L_, color=T.TEXT),
                      txt(": cos", L_, T.TEXT),
                      Num(stages[0].cos, decimals=2, size=L_, color=T.TEXT))
        head.move_to([x0, y_top, 0], aligned_edge=UP + LEFT)
        self.keep_inside(head)
        boxes, parts, reads, arrows = VGroup(), VGroup(), VGroup(), VGroup()
        y = head.get_bottom()[1] - 0.35 - bh / 2
        for k, (lines, st_) in enumerate(zip(names, stages[1:])):
            b = Rectangle(width=bw, height=bh, color=T.MUTED, stroke_width=2.5)
            b.move_to([x0 + bw / 2, y, 0])
            lab = VGroup(*[txt(w, L_, T.TEXT) for w in lines]).arrange(
                DOWN, buff=0.08, aligned_edge=LEFT)
            lab.move_to([x0 + 0.25, y, 0], aligned_edge=LEFT)
            boxes.add(b)
            parts.add(VGroup(b, lab))
            r = inline(txt("cos", L_, T.TEXT), Num(st_.cos, decimals=2, size=L_, color=T.TEXT))
            r.next_to(b, RIGHT, buff=0.35)
            if k == len(names) - 1 and e.x_next.value is not None and round(
                    float(st_.cos.value), 2) == round(float(e.x_next.value), 2):
                r = VGroup()            # the last step's cosine is the out's: said once, there
            reads.add(r)
            if k:
                arrows.add(Arrow(boxes[k - 1].get_bottom(), b.get_top(), buff=0.03,
                                 color=T.MUTED, stroke_width=3,
                                 max_tip_length_to_length_ratio=0.35))
            y -= bh + gap
        # the FFN's add: its input goes round the FFN and is added to its output (a skip
        # path from the arrow above its box to a plus on the arrow below it)
        skip = VGroup()
        skip.at = None
        for k, st_ in enumerate(stages[1:]):
            if str(st_.name.value) != "+FFN" or k == 0:
                continue
            b = boxes[k]
            ya = (boxes[k - 1].get_bottom()[1] + b.get_top()[1]) / 2
            yb = b.get_bottom()[1] - gap / 2
            xl = b.get_left()[0] - 0.3
            xc = b.get_x()
            plus = VGroup(Circle(radius=0.15, color=T.TEXT, stroke_width=2.5).move_to(
                [xc, yb, 0]), txt("+", L_, T.TEXT).move_to([xc, yb, 0]))
            plus[0].set_fill(T.BACKGROUND, opacity=1)
            path = VGroup(Line([xc, ya, 0], [xl, ya, 0]), Line([xl, ya, 0], [xl, yb, 0]),
                          Arrow([xl, yb, 0], [xc - 0.15, yb, 0], buff=0, stroke_width=2.5,
                                tip_length=0.14, max_tip_length_to_length_ratio=0.3))
            path.set_color(T.TEXT).set_stroke(width=2.5)
            lab = txt("add", L_, T.TEXT).next_to(plus, RIGHT, buff=0.12)
            skip.add(path, plus, lab)
            skip.at = k
            # the step's cosine is the add's output: written on the add, not beside the FFN
            # box (review 29: it read as the FFN's own number before the add was drawn)
            if len(reads[k]):
                reads[k].next_to(b, RIGHT, buff=0.35).set_y(yb)
        # the zoomed scale right of the cosines, as tall as the boxes' column (its tick
        # values between the cosines and the bar)
        right_r = (max(b.get_right()[0] for b in boxes) + 0.35 +
                   max([r.width for r in reads if len(r)] + [1.0])) if len(boxes) else x0 + 1
        gz = None
        if len(boxes):
            # never shorter than GAUGE_H (a pre-norm block is one box: its ticks crowded)
            top_ = boxes[0].get_top()[1]
            gz = self.gauge(top_, min(boxes[-1].get_bottom()[1], top_ - GAUGE_H),
                            right_r + 1.6)
        scale = gz if gz is not None else VGroup()
        # out, right of the scale, level with the dot's last place (its cosine is the out's)
        out = inline(txt("out: the two", L_, T.TEXT),
                     math("X^((1))", 1.4 * T.TYPE.math_label, T.X),
                     txt(", cos", L_, T.TEXT),
                     Num(e.x_next, decimals=2, size=L_, color=T.X))
        out[-1].shift(RIGHT * 0.14)         # room for its box (review 32a: "cos" ran into it)
        if gz is not None and e.x_next.value is not None:
            out.move_to([gz.x + 0.45, gz.y_of(e.x_next), 0], aligned_edge=LEFT)
        else:
            last = boxes[-1] if len(boxes) else head
            out.next_to(last, RIGHT, buff=0.6)
        reads_x = self.v.reads.same_as_x.value
        # in words, as the voice says it (round 34: W_Q, W_K, W_V's subscripts were specks)
        note = VGroup(txt(f"layer {int(e.layer) + 1}'s matrices", L_, T.TEXT),
                      txt("read this X directly" if reads_x else "read LN of this X", L_,
                          T.TEXT)).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        note.next_to(out, DOWN, buff=0.3).align_to(out, LEFT)
        low = self.caption_top() + 0.2 - note.get_bottom()[1]
        if low > 0:                         # no room under it: both up
            VGroup(out, note).shift(UP * low)
        if gz is not None:
            self.place_name(gz, [out, note])
        # the boxes' column (and the out beside it) in the middle of the frame
        blocks = VGroup(head, parts, arrows, reads, skip, scale)
        g = VGroup(blocks, out, note)
        dx = np.array([-g.get_center()[0], 0.0, 0.0])
        # never past the frame's left edge (the skip path is the leftmost)
        dx[0] = max(dx[0], -7.1 + T.EDGE - g.get_left()[0])
        g.shift(dx)
        if gz is not None:
            gz.x += dx[0]
        for m in (out, note):
            self.keep_inside(m)
        blocks.boxes = boxes
        g.blocks, g.out, g.note, g.reads = blocks, out, note, reads
        g.head, g.parts, g.arrows, g.skip, g.scale = head, parts, arrows, skip, scale
        return g

    # --- layers: the chart grows, the table fills --------------------------------------------
    def w_label(self, l: int) -> VGroup:
        # in words (no sub- and superscripts to squint at): layer l's own three matrices
        g = VGroup(txt("the same W for both sentences:", T.TYPE.label, T.TEXT),
                   inline(txt("query, key, value matrices of layer", T.TYPE.label, T.TEXT),
                          Num(self.v.layers[l], decimals=0, size=T.TYPE.label)))
        g.arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        return self.w_place(g)

    def w_place(self, g: VGroup) -> VGroup:
        """The W label at the top right, beside the chart's header."""
        return g.move_to([6.9 - T.EDGE, self.content_top() - 0.05, 0],
                         aligned_edge=UP + RIGHT)

    def w_label_each(self) -> VGroup:
        """"Each layer with its own matrices", drawn: one box per layer, W^(0) ... W^(L-1),
        one after another (review 32b, 2:00: the words stood over the chart and the caption
        said them again)."""
        g = VGroup()
        for l in self.v.layers:               # each tick's X read by its own W
            w = math("W", 1.1 * T.TYPE.math_label, T.TEXT)
            sup = txt(f"({int(l.value)})", T.TYPE.label, T.TEXT)
            sup.next_to(w, RIGHT, buff=0.04).align_to(w, UP).shift(UP * 0.1)
            name = VGroup(w, sup)
            box = Rectangle(width=name.width + 0.3, height=name.height + 0.14,
                            color=T.TEXT, stroke_width=2).move_to(name)
            g.add(VGroup(box, name))
        ax = self.st.ax
        gap_ = (abs(ax.axes.c2p(1, 0)[0] - ax.axes.c2p(0, 0)[0]) if ax is not None
                else 0.0)
        if ax is not None and self.st.wide and len(g) == len(self.v.layers) \
                and max(b.width for b in g) + 0.15 <= gap_:
            # each W^(l) over its own tick (review 33: a row at the top right, tied to none)
            y = ax.axes.c2p(0, float(self.v.axes.y_range[1]))[1] + 0.2 + W_ROW / 2
            for b, l in zip(g, self.v.layers):
                b.move_to([ax.axes.c2p(float(l.value), 0)[0], y, 0])
            return g
        g.arrange(RIGHT, buff=0.15)
        if ax is not None and self.st.wide:
            # too many layers for a box over each tick: one row in the band over the plot
            w_ = abs(ax.axes.c2p(len(self.v.layers) - 1, 0)[0] - ax.axes.c2p(0, 0)[0])
            if g.width > w_:
                g.scale_to_fit_width(w_)
            if g.height > W_ROW - 0.1:
                g.scale_to_fit_height(W_ROW - 0.1)
            y = ax.axes.c2p(0, float(self.v.axes.y_range[1]))[1] + 0.2 + W_ROW / 2
            return g.move_to([ax.axes.c2p((len(self.v.layers) - 1) / 2, 0)[0], y, 0])
        if g.width > 7.0:
            g.scale_to_fit_width(7.0)
        return self.w_place(g)

    def clear_entered(self) -> None:
        self.drop("arcs", "right", "panel", "zero_label", "table", "made", "xrows", "xmarks", "cosine", "cos_status",
                  "cos_arrows")

    def grow_key(self, k: str, l0: int, l1: int, t: float) -> None:
        """Quantity k's line from layer l0-1 to layer l1, drawn along, each point once its
        segment has reached it: one curve at a time, as the voice names it."""
        st = self.st
        n = max(1, l1 - l0 + 1)
        # the layer's own W lit as its point is drawn (review 33x: the W row was decoration)
        wl = self.shown.get("w_label")
        wb = (list(wl) if wl is not None and len(wl) == len(self.v.layers) and k in QKV
              else [])

        def lit(l):
            if not wb:
                return []
            return [b[0].animate.set_stroke(COLOR[k] if j == l else T.TEXT,
                                            width=4.5 if j == l else 2)
                    for j, b in enumerate(wb)]
        for l in range(l0, l1 + 1):
            seg, d = self.segment(k, l), self.point(k, l)
            self.play(Create(seg), run_time=0.8 * t / n)
            self.play(FadeInPlace(d), *lit(l), run_time=0.2 * t / n)
            st.dots.setdefault(k, {})[l] = d
            st.lines.add(seg)
            if k != "x":
                self.bring_to_front(seg)
        st.grown = max(st.grown, l1) if k == self.keys[-1] else st.grown
        self.bring_to_front(*[s_ for s_ in st.lines if getattr(s_, "key", None) != "x"])
        self.bring_to_front(*[d for kk in reversed(self.keys) for d in st.dots.get(kk, {}).values()])
        if st.carried is not None:              # the carried value stays over the new lines
            self.bring_to_front(st.carried)

    def x1_ring(self) -> VGroup:
        """X's layer-1 value to the right of its point, lowered, with a line to the point."""
        return self.ring("x", 1, lead=-0.3)

    def beat_layers(self, beat) -> None:
        self.compact_head()
        # layer 0's stage leaves whole; the X^(1) cosine it ended on comes back as X's
        # layer-1 point is drawn, when the voice turns to X (review 34b: carried into the
        # chart at once, 0.90 stood there before its line and its sentence)
        hand = self.st.handoff
        self.st.handoff = None
        self.clear_entered()
        self.ensure_chart(0, wide=True)
        start = self.st.grown + 1
        L_ = len(self.v.layers) - 1
        # the header ("each layer l its own W") and the carried cosine over the first
        # sentence; then each curve over the sentence that names it: X, Q, K, V
        def w_boxes(t):
            # one box per layer, one after another, as "each with its own matrices" is said
            g = self.w_label_each()
            self.play(LaggedStart(*[FadeInPlace(b) for b in g], lag_ratio=0.5), run_time=t)
            self.set_slot("w_label", g)

        g_head = [(0.6, w_boxes)]
        ringed = hand is not None and start == 1 and len(self.v.layers) > 2
        end_names = []

        def x_curve(t):
            # X's line, its layer-1 point ringed with its cosine as the line reaches it (the
            # cosine layer 0 ended on), then on to the last layer
            L_ = len(self.v.layers) - 1
            if not ringed:
                self.grow_key("x", start, L_, t)
                return
            self.grow_key("x", 1, 1, 0.25 * t)
            r = self.x1_ring()
            self.play(Create(r[0]), FadeInPlace(r[1]), run_time=0.15 * t)
            self.st.carried = r
            self.grow_key("x", 2, L_, 0.6 * t)

        def end_value(k, t):
            # the curve's last value, ringed as it lands and said (review 26: four curves
            # drawn with no value spoken); it leaves when the next curve starts
            # its name at the line's end, stacked clear of the names before it (review 33x:
            # X, Q and V ended on one another at the last layer)
            d = self.st.dots.get(k, {}).get(L_)
            nm = None
            if d is not None:
                nm = txt(NAME[k], T.TYPE.label, COLOR[k], weight="BOLD")
                nm.next_to(d, RIGHT, buff=0.55)     # clear of the ring's value over the point
                self.keep_inside(nm, margin=T.EDGE + 0.1)
                y0 = nm.get_y()
                # the nearest height clear of the names before it: 0, +-0.06, +-0.12, ...
                for n_ in range(80):
                    dy_ = 0.06 * ((n_ + 1) // 2) * (1 if n_ % 2 else -1)
                    nm.set_y(y0 + dy_)
                    if not any(abs(m.get_y() - nm.get_y()) < 0.34 for m in end_names):
                        break
                end_names.append(nm)
            self.box(t=t, slot="end_value", rings=self.rings_for([(k, L_, UP)]))
            if nm is not None:
                self.add(nm)
                self.set_slot("end_names", VGroup(*end_names))

        def carried_out(t):
            # X's carried layer-1 cosine leaves once the voice moves on from X (review 31b:
            # "0.90" stood the whole beat)
            if self.st.carried is not None:
                self.play(FadeOutPlace(self.st.carried), run_time=max(0.2, t))
                self.st.carried = None

        curves = [[(0.08, lambda t: self.drop("end_value", run_time=max(0.2, t))),
                   *([(0.08, carried_out)] if k != "x" else []),
                   (1, lambda t, k=k: (x_curve(t) if k == "x" else
                                        self.grow_key(k, start, L_, t))),
                   (0.3, lambda t, k=k: end_value(k, t))]
                  for k in self.keys]
        sm, L = self.v.summary, len(self.v.layers) - 1

        def values(t):
            # the values dip below X and come back up: their lowest and their last
            st = self.st
            wl = self.shown.get("w_label")
            calm = ([b[0].animate.set_stroke(T.TEXT, width=2) for b in wl]
                    if wl is not None and len(wl) == len(self.v.layers) else [])
            if calm:                        # the last layer's W, lit for the values, unlit
                self.play(*calm, run_time=0.15 * t)
            self.drop("boxes", run_time=0.15 * t if not calm else 0.01)
            self.spotlight([sm.lowest.key.value], 0.15 * t)
            # and X's last beside the values' last: "then end just above it"
            # (round 32: only the lowest, as said; X's range and the values' end were cut)
            k_ = sm.lowest.key.value if sm.lowest.key.value in st.dots else "v"
            l_ = sm.lowest.layer.value
            self.box(t=0.25 * t, rings=self.rings_for([(k_, l_, DOWN)]))
            self.emphasize(st.dots[k_][l_], color=COLOR[k_], run_time=0.45 * t)

        def none_back(t):
            # the last layer's four points, and the grid line at one they do not reach
            self.drop("boxes", run_time=0.1 * t)
            self.spotlight(None, 0.1 * t)
            one = self.st.ax.y_labels[-1]
            # the last layer's points in one box (a dot's own box is too small to see)
            # layers 1 to the last outlined (review 33, 2:36: only the last column was)
            self.emphasize(VGroup(*[d for k in self.keys
                                    for l_, d in self.st.dots[k].items() if l_ >= 1]), one,
                           run_time=0.8 * t)

        # with an extra "in" curve (a model whose W reads LN of X) it shares X's sentence
        if len(curves) > 4:
            curves = [curves[0] + curves[1]] + curves[2:]
        n_c = len(curves)
        # (round 32: "keys and values that differ can change what the other words read;
        # a query ... what bank reads" cut: a consequence asserted, not shown, and not this
        # video's claim)
        self.by_cue([g_head, *curves,
                     [(0.15, lambda t: self.drop("end_value", run_time=max(0.2, t))),
                      (1, values)],
                     [(1, none_back)]],
                    pause={**{i: 0.3 for i in range(2, n_c + 1)}, n_c + 1: 0.6, n_c + 2: 0.5})
        self.unbox()

    # --- compare ------------------------------------------------------------------------------
    def ring(self, key: str, l: int, side=UP, color=HL, avoid=(), lead=None,
             decimals: int = 2) -> VGroup:
        """A ring round quantity `key`'s point at layer l and its value beside it (`side`:
        above or below the point; else right, left or the other side where that label would
        cover another point or a label in `avoid`), on a patch of background over the lines."""
        dot = self.st.dots[key][l]
        c = Circle(radius=0.18, color=color, stroke_width=2.5).move_to(dot)
        n = Num(self.cos(key)[l], decimals=decimals, size=T.TYPE.label, color=COLOR[key])
        if lead is not None:
            # a point too close to another ringed one: its value to the right, raised or
            # lowered by `lead`, a line from the value to the point (no circles that merge)
            # raised or lowered further while it would lie on a line (a value read on a line
            # is read as that line's)
            segs = [(ln.get_start(), ln.get_end()) for ln in self.st.lines]
            sign = pymath.copysign(1.0, lead)      # -0.0: the lower of two, down
            # and clear of the values placed before it (three close points: no two values
            # in one slot)
            for extra in np.arange(0.0, 1.05, 0.08):
                n.next_to(dot, RIGHT, buff=0.5).shift(UP * (lead + sign * extra))
                self.keep_inside(n)
                if not on_lines(n, segs, 0.03) \
                        and not any(overlaps(n, m, 0.04) for m in avoid):
                    break
            else:
                n.next_to(dot, RIGHT, buff=0.5).shift(UP * lead)
                self.keep_inside(n)
            n.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.04)
            p = dot.get_center()
            q_ = n.get_left() + LEFT * 0.05
            d_ = (q_ - p) / max(np.linalg.norm(q_ - p), 1e-6)
            c = Line(p + d_ * (DOT[key] + 0.03), q_, color=color, stroke_width=2.5)
            return VGroup(c, n)
        others = [d for k in self.keys for d in self.st.dots.get(k, {}).values() if d is not dot]
        segs = [(ln.get_start(), ln.get_end()) for ln in self.st.lines]
        for s_ in (side, side + RIGHT, side + LEFT, RIGHT, LEFT, -side, -side + RIGHT,
                   -side + LEFT):
            n.next_to(c, s_, buff=0.06)
            self.keep_inside(n)
            if not any(overlaps(n, m, 0.03) for m in (*others, *avoid)) \
                    and not on_lines(n, segs, 0.02):
                break
        else:
            n.next_to(c, side, buff=0.06)
            self.keep_inside(n)
        n.add_background_rectangle(color=T.BACKGROUND, opacity=0.85, buff=0.04)
        return VGroup(c, n)

    def rings_for(self, pairs: list, decimals: int = 2) -> list:
        """Rings for (key, layer, side) in order, each label clear of the ones before
        (`decimals`: as many as the voice says)."""
        out = []
        ax = self.st.ax.axes
        y = {(k, l): ax.c2p(l, self.cos(k)[l].value)[1] for k, l, _ in pairs}
        for k, l, side in pairs:
            near = [(k2, l2) for k2, l2, _ in pairs if l2 == l and k2 != k
                    and abs(y[(k2, l2)] - y[(k, l)]) < 0.5]
            lead = None
            if len(near) > 1:
                # three or more close points: their values stacked 0.36 apart, in the order
                # of the points, round the points' middle
                group = sorted([(k, l), *near], key=lambda kl: (-y[kl], kl[0]))
                mid = sum(y[kl] for kl in group) / len(group)
                r_ = group.index((k, l))
                lead = mid + 0.46 * ((len(group) - 1) / 2 - r_) - y[(k, l)]
                lead = lead if abs(lead) > 1e-6 else -0.0
            elif near:
                dy = abs(y[near[0]] - y[(k, l)])
                lift = max(0.0, (0.42 - dy) / 2)
                lead = lift if y[(k, l)] >= y[near[0]] else -lift
            out.append(self.ring(k, l, side, avoid=[r[1] for r in out], lead=lead,
                                 decimals=decimals))
        return out

    def beat_compare(self, beat) -> None:
        v, sm = self.v, self.v.summary
        L = len(v.layers)
        self.compact_head()
        self.clear_entered()
        self.ensure_chart(L - 1, wide=True)
        lo, xlo = sm.lowest, sm.x_lowest

        # at X's lowest layer the three the voice names: the values (further apart than X),
        # X, and the queries (closer), each in its own colour; the keys left unlabelled
        # "the keys do too, up to layer 3, where they are at 0.861, just above the queries at
        # 0.855, and X at 0.840": the three at that layer, with the three decimals said (at
        # two, keys and queries would read as equal)
        # the conclusion, centred and large, over the chart and table (dimmed behind it)
        # one line, under the illustration (review 33x: 14 s of text boxes)
        thesis = VGroup(txt("Equal X give equal Q, K, V:", T.TYPE.body, T.TEXT),
                        txt("every difference came in through X.", T.TYPE.body, T.TEXT))
        thesis.arrange(RIGHT, buff=0.2)
        if thesis.width > 12.6:
            thesis.scale_to_fit_width(12.6)
        back = SurroundingRectangle(thesis, buff=0.35, color=HL, stroke_width=2.5,
                                    fill_color=T.BACKGROUND, fill_opacity=0.92)
        card = VGroup(back, thesis).move_to([0, (self.content_top() + self.caption_top()) / 2,
                                             0])
        behind = VGroup(self.st.chart, self.st.lines,
                        *[d for k in self.keys for d in self.st.dots.get(k, {}).values()])

        def dim(t):
            # what stands behind a card, the header included, dims to almost nothing (no
            # line runs behind a card's words)
            if getattr(self, "_dimmed", False):
                return []
            self._dimmed = True
            self.drop("rings", run_time=0.1 * t)
            # (no spotlight(None) first: the lines flashed back to full for 0.2 s)
            back_now = VGroup(behind, *[m for m in (self.shown.get("w_label"),
                                                    self.shown.get("end_names"))
                                        if m is not None])
            # cleared, not dimmed (review 33y, 2:53: ticks and "V Q X K" showed through at
            # the card's edges)
            return [back_now.animate.set_opacity(0)]

        def conclude(t):
            # the caption goes: the card says what is said now
            cap = [self.caption] if self.caption is not None else []
            self.play(*dim(t), FadeInPlace(back),
                      *[c.animate.set_opacity(0) for c in cap], run_time=0.25 * t)
            self.play(Write(thesis[0]), run_time=0.3 * t)
            self.play(Write(thesis[1]), run_time=0.3 * t)
            self.set_slot("thesis", VGroup(back, thesis))
            self.wait(0.1 * t)

        # "at the last layer the keys are lowest of the four": its point ringed
        last = sm.last_lowest
        # "these cosines do not say why": the two possible causes, as possibilities, on a
        # card over the chart (no measurement of either is in the plan)
        # (round 31: the two possible causes were written and never said: the card says
        # only what the voice does)
        # (review 32b, 2:40: "why is not measured" read as a dodge: the general reason, in
        # the voice's words, then what is not measured)
        # (review 33/33x, 2:47: told, not shown) a small 2-D illustration, labelled as one: one
        # matrix (stretch across, squeeze up) maps two pairs of arrows; one pair's angle
        # narrows, the other's widens. Its own geometry: no plan number, none written
        M = np.array([[1.8, 0.0], [0.0, 0.6]])
        pairs_in = [(30.0, 60.0), (80.0, 100.0)]

        def fan(vs, at, ln):
            g_ = VGroup()
            for i, v_ in enumerate(vs):
                v_ = np.asarray(v_, dtype=float)
                # neutral (review 33b, 2:53: green and magenta mean the two sentences)
                g_.add(Arrow(at, at + ln * np.array([v_[0], v_[1], 0.0]), buff=0,
                             color=T.TEXT, stroke_width=5,
                             max_tip_length_to_length_ratio=0.2))
            return g_

        def unit_(d):
            return np.array([pymath.cos(d * DEGREES), pymath.sin(d * DEGREES)])

        ins, outs = VGroup(), VGroup()
        for n_, (d1, d2) in enumerate(pairs_in):
            ins.add(fan([unit_(d1), unit_(d2)], np.array([-5.6 + 1.7 * n_, -0.6, 0.0]), 1.3))
            outs.add(fan([M @ unit_(d1), M @ unit_(d2)],
                         np.array([0.8 + 2.8 * n_, -0.6, 0.0]), 1.3))
        mat = VGroup(Rectangle(width=2.1, height=1.0, color=T.TEXT, stroke_width=2.5),
                     txt("one matrix", T.TYPE.label, T.TEXT))
        mat[1].move_to(mat[0])
        mat.move_to([-1.4, -0.1, 0])
        feed = Arrow([-3.3, -0.1, 0], mat[0].get_left(), buff=0.08, color=T.MUTED,
                     stroke_width=3, max_tip_length_to_length_ratio=0.25)
        out_ar = Arrow(mat[0].get_right(), [0.6, -0.1, 0], buff=0.08, color=T.MUTED,
                       stroke_width=3, max_tip_length_to_length_ratio=0.25)
        tags_ = VGroup(txt("narrower", T.TYPE.label, T.TEXT).next_to(outs[0], DOWN, buff=0.15),
                       txt("wider", T.TYPE.label, T.TEXT).next_to(outs[1], DOWN, buff=0.15))
        tags_[1].align_to(tags_[0], UP)
        title_ = txt("illustration (not model numbers): two pairs of arrows through one matrix",
                     T.TYPE.label, T.TEXT)
        title_.next_to(VGroup(ins, outs, mat), UP, buff=0.35).set_x(0)
        unmeasured = txt("How each layer's W and bias do so: not measured here.", T.TYPE.label,
                         T.TEXT)
        unmeasured.next_to(VGroup(ins, outs, tags_), DOWN, buff=0.3).set_x(0)
        why = VGroup(title_, ins, mat, feed, out_ar, outs, tags_, unmeasured)
        # as large as the stage allows over the conclusion's card (review 34, 3:08: small,
        # the lower half of the frame empty)
        room_h = (self.content_top() - self.caption_top() - 0.3) - card.height - 0.2 - 0.5
        why.scale(max(0.5, min(12.8 / why.width, room_h / why.height, 1.6)))
        why_back = SurroundingRectangle(why, buff=0.25, color=T.MUTED, stroke_width=2,
                                        fill_color=T.BACKGROUND, fill_opacity=0.94)
        why_card = VGroup(why_back, why).move_to(card)
        # the conclusion's card under the illustration, which stays (equal in, equal out)
        both_h = why_card.height + 0.2 + card.height
        mid_y = (self.content_top() + self.caption_top()) / 2
        why_card.move_to([0, mid_y + (both_h - why_card.height) / 2, 0])
        card.next_to(why_card, DOWN, buff=0.2).set_x(0)

        def ask(t):
            # the pairs go into the matrix and come out turned: each pair itself moves
            self.play(*dim(t), FadeInPlace(why_back), FadeInPlace(title_), FadeInPlace(ins),
                      run_time=0.15 * t)
            self.play(Create(mat[0]), FadeInPlace(mat[1]), GrowArrow(feed), run_time=0.1 * t)
            # into the box's left edge and out of its right one (round 34: through its
            # middle they printed over "one matrix")
            moving = ins.copy()
            self.play(moving.animate.scale(0.3).move_to(mat[0].get_left() + RIGHT * 0.05)
                      .set_opacity(0), run_time=0.15 * t)
            self.remove(moving)
            self.play(GrowArrow(out_ar), *[ReplacementTransform(
                o_.copy().scale(0.3).move_to(mat[0].get_right() + LEFT * 0.05).set_opacity(0),
                o_) for o_ in outs], run_time=0.2 * t)
            self.play(FadeInPlace(tags_), run_time=0.1 * t)
            self.wait(0.1 * t)
            self.play(FadeInPlace(unmeasured), run_time=0.1 * t)
            # the slot set once both lines are in (set before, it added the second line
            # at once and its fade-in then flickered)
            self.set_slot("why", why_card)

        def shows(t):
            # what the chart shows, first (review 32a: 13 s on a dimmed chart): the queries
            # beside X, then the values beside X, each pair lit as the voice names it
            self.spotlight(["x", "q"], 0.15 * t)
            self.wait(0.3 * t)
            self.spotlight(["x", "v"], 0.15 * t)
            self.emphasize(*[self.st.dots["v"][l] for l in range(1, min(5, L))
                             if l in self.st.dots.get("v", {})], color=COLOR["v"],
                           run_time=0.3 * t)

        self.by_cue([
            [(1, shows)],
            [(1, ask)],
            [(1, conclude)],
            [(1, lambda t: self.emphasize(thesis[1], run_time=t))],
        ])


__all__ = ["ContextQKVScene"]
