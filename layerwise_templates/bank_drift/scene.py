"""'bank', layer by layer: one word in several sentences, and whether it ends nearer the word
of the same sense than the word of the other sense.

Sentence 0 is the reference; each other sentence k gives a curve cos(bank_0, bank_k) over the
states X^(0) (the embedding) ... X^(L) (the output), in sentence k's colour.

Every beat gives its analysis the frame: it clears what the beat before drew (the sentences'
key under the title stays where the colours matter) and builds what it shows itself, so any
arrangement of beats renders. What beats share is a `Stage` the handlers read and fill.

Beats (each optional, in storyboard order):
- `similarity`: the raw cosine curves, point by point, a number under every state.
- `baseline`: the raw curves' numbers leave; the baseline (mean cosine of different words)
  drawn dashed with its own row; its last fall beside the money curve's, as bars; each curve
  then moved down by it (raw - baseline), the raw quantities (the curves' ghosts, the
  baseline) gone once subtracted; the last step of each lit with its change.
- `gap`: the curve ending highest minus the curve ending lowest, state by state, as thin bars
  between the lit curves (the adjusted ones after `baseline`); the baseline added back, both
  curves rise onto the raw ones with their bars (it cancels); then the chart becomes the gap's
  own, the bars standing on zero, with a row of numbers (and, where the voice says them, lines
  at the multiples of the flat start's width that the later bars stay under or pass); then the
  caveats.
- `projection`: every state first as seen along two of the model's own coordinates, then moved
  onto one PCA plane (about half the frame; axes PC1, PC2 said in one line and kept on screen
  with their shares, a grid square of one unit), the three paths drawn in one stroke (X^(0)
  and X^(L) named); how far one other end lies from the reference's end, in the plane and in
  the full space.
- `answer`: both results, each on its picture: the gap's chart, recalled whole at once (not
  redrawn): its last bar and number, the part the last step added, the shared word
  underlined; then the PCA plane as `projection` left it (when that beat came before):
  its three paths lit, then one pair's ends, apart in the plane and in the full space.
  (Round 40 cut `split`, the net move split into a shared arrow and each one's own.)
  (Round 32 cut the probe beat, a second analysis on other nouns: docs/chapter.md 4.6.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from manim import (DL, DOWN, DR, LEFT, ORIGIN, RIGHT, UL, UP, UR, Animation, AnimationGroup, Arc, Arrow, CapStyleType, Create,
                   DashedLine, Dot, SurroundingRectangle,
                   FadeIn, FadeOut, GrowArrow, LaggedStart, Line, MoveAlongPath, NumberPlane,
                   Rectangle,
                   Transform, TransformFromCopy, Uncreate, Underline, UpdateFromAlphaFunc, VGroup, VectorizedPoint,
                   VMobject, ValueTracker, always_redraw,
                   GrowFromEdge, Succession, linear, smooth, squish_rate_func)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene, overlaps
from scenes.legibility import is_text
from scenes.mobjects.text import baseline as baseline_y
from scenes.mobjects import Num, TickAxes, glyph_span, highlighted, math, swatch, txt
from scenes.mobjects import inline as _inline
from . import moments as M
from scenes.animations import DimPlace
from .view import Data

SIZE = 28                       # every label and number, tick labels too: 17 px of cap height
                                # (round 37: 22 read as 12-13 px, under the 16 px asked of
                                # secondary text; round 38: 26's lower-case labels, "grid
                                # square", "position 6", read as 11-13 px)
NOTE_SIZE = 28                  # (round 36) a drawing's scale and the gap axis's name: read
                                # as 9-10 px at 22 (rotated, or grey)
KEY_SIZE = SIZE                 # the sentences' key, the only key to the colours (round 37:
                                # at 22 it read as 11-12 px under the title)
MATH = 1.65 * T.TYPE.math_label  # X^(l) tick labels: scripts (70 %) well above the 8 px floor
                                # (round 40: at 1.35 the scripts read as 8-9 px)
PLANE_MATH = 1.0 * MATH         # the PCA plane's state labels (1.15 x the old 1.35)
PLOT_WIDTH = 9.1
NAME_WIDTH = 2.6                # the row-label column left of the plot
ROW_STEP = 0.42                 # (round 37: 0.36 at the larger labels' size left rows touching)
BELOW_AXIS = 1.24               # from a chart's axis to its first row's bottom, and the margin
                                # over the caption: the X^(l) labels, the row's own height
TOP = 3.05                      # below the title
BOTTOM = -2.95                  # above the caption
GAP = T.PROBE_SENSE             # the gap's bars and numbers: the sense signal, a colour of its
                                # own (round 34b: white was also the shared move's)
GAP_BAR = 14                    # the gap bars' stroke width on their own chart
GAP_BAR_THIN = 9                # ... and between two curves (round 37: 6 read as hairlines)

LABEL_ROOM = 0.7                # left of the PCA plane: its state labels
SIDE_GAP = 0.55                 # between the PCA plane and its side column
PLANE_MIN = 5.4                 # the PCA plane's least width (a longer key leaves that beat)
BIG_KEY = 2.0                   # the opening's key, this much larger than under the title
LEGEND_WORDS = 9                # a longer sentence is shown as a window round its focus word
SIDE_WORDS = 3                  # (round 40) ... beside the PCA plane: a narrower key, a wider plane
WORD_GAP = 0.15                 # between a word and a number in one line (0.09 read "all3banks")


def inline(*parts, buff: float = WORD_GAP) -> VGroup:
    """scenes' inline, a word space wide between its pieces (round 34: mono digits sat
    against the words)."""
    return _inline(*parts, buff=buff)


def tight(row: VGroup) -> VGroup:
    """The row's last piece (a "'s ..." or ": ...") moved up against the piece before it."""
    row[-1].shift(LEFT * (WORD_GAP - 0.04))
    return row


def window(sentence: str, word: str, n: int = LEGEND_WORDS) -> str:
    """At most `n` words of `sentence` around the first word containing `word`, an ellipsis
    marking each cut side."""
    words = sentence.split()
    if len(words) <= n:
        return sentence
    at = next((i for i, w in enumerate(words) if word.lower() in w.lower()), 0)
    lo = max(0, min(at - n // 2, len(words) - n))
    hi = lo + n
    return ("… " if lo > 0 else "") + " ".join(words[lo:hi]) + (" …" if hi < len(words) else "")


def label_stride(n: int, pitch: float, widest: float, gap: float = 0.12) -> int:
    """Every how many states a label is written under a chart of `n` + 1 states `pitch`
    apart: 1 while labels `widest` wide fit side by side (MiniLM's 7 states), else enough to
    keep them apart (SmolLM2's 31: every 3rd)."""
    return max(1, int(np.ceil((widest + gap) / pitch)))


def thinned(labels: list, stride: int) -> list:
    """`labels` (one per state) with those off the stride replaced by an invisible point at
    their place: the first, every `stride`-th and the last are written (the one before the
    last is dropped if it would touch it), and indices keep naming states."""
    last = len(labels) - 1
    keep = {i for i in range(0, last + 1, stride) if i == last or last - i >= stride}
    keep |= {0, last}
    return [m if i in keep else VectorizedPoint(m.get_center()) for i, m in enumerate(labels)]


def touching(a, b, gap: float = 0.04) -> bool:
    """Whether the boxes of `a` and `b` come within `gap` of each other."""
    return not (a.get_left()[0] >= b.get_right()[0] + gap
                or a.get_right()[0] + gap <= b.get_left()[0]
                or a.get_bottom()[1] >= b.get_top()[1] + gap
                or a.get_top()[1] + gap <= b.get_bottom()[1])


@dataclass
class Stage:
    """What is on screen, shared by the handlers: the sentences' key, the cosine chart (with
    its drawn curves and rows of numbers by name), and whatever else a beat drew."""
    legend: VGroup | None = None
    chart: "CosineChart | None" = None
    other: list = field(default_factory=list)
    positions: VGroup | None = None     # each sentence's focus position, beside the key
    legend_home: np.ndarray | None = None   # where the key was before a beat moved it aside
    legend_small: tuple | None = None   # (centre, width) under the title while shown large
    pca: object | None = None           # the PCA plane's parts, recalled by the closing
    key_words: int = LEGEND_WORDS       # the key's window: words shown round the focus word


class CosineChart(VGroup):
    """Axes over the states, X^(l) tick labels, and room for rows of numbers under them."""

    def __init__(self, v: Data, top: float, height: float, width: float = PLOT_WIDTH,
                 y_range=None, y_ticks=None, left: float | None = None, ticks: bool = True,
                 named_ends: bool = False):
        super().__init__()
        n = len(v.states) - 1
        lo, hi = y_range or v.axes.y_range.values
        self.lo, self.top_arg, self.height_arg = float(lo), top, height
        self.wide = y_range is None         # the plan's full cosine range (not zoomed)
        ticks_y = y_ticks if y_ticks is not None else list(v.axes.y_ticks)
        step = float(ticks_y[1]) - float(ticks_y[0])
        self.ax = TickAxes([0, n, 1], [lo, hi, step], width, height,
                           x_ticks=[(s.layer.value, s.layer.path) for s in v.states],
                           y_ticks=[(float(t), t.path) if hasattr(t, "path") else t
                                    for t in ticks_y], size=SIZE)
        a = self.ax.axes
        self.ax.remove(self.ax.x_labels)            # the ticks are X^(l), not bare numbers
        # (round 37: in the text's colour; grey on the dark grid read as low contrast)
        self.ax.y_labels.set_color(T.TEXT)
        labels = [math(s.math.value, MATH, T.TEXT).next_to(a.c2p(s.layer.value, lo), DOWN,
                                                            buff=0.14) for s in v.states]
        for m in labels:
            m.set_y(labels[0].get_y())
        widest = max([m.width for m in labels] + [txt("-0.00", SIZE, mono=True).width])
        self.stride = label_stride(n, width / max(n, 1), widest)
        self.x_math = VGroup(*thinned(labels, self.stride))
        self.add(self.ax)
        # the lowest y tick's label ("-0.10") sits left of the axis's foot, where X^(0)'s label
        # reaches: the state labels step down until the two are clear
        low = self.ax.y_labels[0] if len(self.ax.y_labels) else None
        first = next((m for m in self.x_math if not isinstance(m, VectorizedPoint)), None)
        if low is not None and first is not None and touching(low, first, 0.08):
            self.x_math.shift(DOWN * (first.get_top()[1] - low.get_bottom()[1] + 0.08))
        if ticks:
            self.add(self.x_math)
        # (round 37) the first and last states named in words beside their labels, on the
        # line the labels stand on: "embedding" left of X^(0), "output" right of X^(L)
        self.ends_named = VGroup()
        if ticks and named_ends:
            first = labels[0]
            emb = txt("embedding", SIZE, T.TEXT).next_to(first, LEFT, buff=0.22)
            out = txt("output", SIZE, T.TEXT).next_to(labels[-1], RIGHT, buff=0.22)
            if low is not None and touching(emb, low, 0.06):    # (under the lowest tick)
                emb.shift(DOWN * (emb.get_top()[1] - low.get_bottom()[1] + 0.06))
            self.ends_named.add(emb, out)
            self.add(self.ends_named)
        x_left = -7.11 + T.EDGE + NAME_WIDTH if left is None else left
        self.shift(RIGHT * (x_left - a.get_left()[0]) + UP * (top - a.get_top()[1]))
        self.rows: dict[str, VGroup] = {}
        self.curves: dict[str, VGroup] = {}     # name -> VGroup(dots, segments)
        self.hidden: set[str] = set()           # curves kept as parts, at nothing (round 38)
        self.row_y = (self.x_math.get_bottom()[1] if ticks else a.get_bottom()[1]) - 0.3

    def p(self, s: float, value: float):
        return self.ax.axes.c2p(s, value)

    def next_row_y(self) -> float:
        return self.row_y - ROW_STEP * len(self.rows)


class BankDriftScene(StoryboardScene):
    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.stage = Stage()
        n = len(self.v.contexts)
        self.colors = [T.SENTENCES[i % len(T.SENTENCES)] for i in range(n)]

    def emphasize(self, *ms, buff: float = 0.05, run_time: float | None = None, extra=(),
                  **kwargs) -> None:
        """The kit's box, drawn tight round its target so it does not cut through the text
        beside it. A large target (a curve, a segment, a cloud of dots, a whole picture) is
        not boxed: it flashes in the highlight's colour in place (round 33: a box round a
        picture reads as one more thing on screen, not as a pointer)."""
        big = [m for m in ms if m.width > 1.6 or m.height > 0.8
               or not any(is_text(x) for x in m.get_family())]
        t = run_time if run_time is not None else 0.8
        if not big and t > 1.2 and not kwargs:
            # (round 40) held long, the box is drawn round its target and undrawn again: a box
            # fading in over 2 s changed too little a frame to be seen moving (a still picture
            # while the voice went on, 39 % of the frames)
            boxes = VGroup(*[SurroundingRectangle(m, color=T.POINTER, buff=buff,
                                                  stroke_width=3) for m in ms])
            self.play(Create(boxes), *extra, run_time=0.5 * t)
            self.play(Uncreate(boxes), run_time=0.5 * t)
            self.remove(*boxes.get_family())
            return
        if not big:
            super().emphasize(*ms, buff=buff, run_time=run_time, extra=extra, **kwargs)
            return
        small = [m for m in ms if not any(m is b for b in big)]
        boxes = VGroup(*[SurroundingRectangle(m, color=T.POINTER, buff=buff, stroke_width=3)
                         for m in small])
        family = self.get_mobject_family_members()
        # (a group made for the call is not on screen: its parts flash, so it is never added
        # as a second copy of them)
        anims = [Indicate_(x, 1.0) for m in big
                 for x in ([m] if any(m is f for f in family) else m.submobjects)]
        if small:
            anims.append(Succession(Create(boxes, run_time=0.5 * t),
                                    Uncreate(boxes, run_time=0.5 * t)) if t > 1.2 else
                         Succession(FadeIn(boxes, run_time=0.5 * t),
                                    FadeOut(boxes, run_time=0.5 * t)))
        self.play(*anims, *extra, run_time=t)
        self.remove(*boxes.get_family())

    # --- timing -------------------------------------------------------------------------
    def said(self, name: str) -> float:
        """As the kit's, and silent too: without cues, the time the plan's words-per-minute
        estimate puts the moment at (so a silent render moves while the caption is read)."""
        if self.beat.get("cues"):
            return super().said(name)
        m = (self.beat.get("moments") or {}).get(name)
        if m is None or "at" not in m:
            return super().said(name)
        return self.beat_start + float(m["at"])

    def has(self, name: str) -> bool:
        """Whether this beat's storyboard places moment `name`."""
        return name in (self.beat.get("moments") or {})

    def pace(self, t: float, n: int, default: float, cap: float = 1.2) -> float:
        if self.beat.get("cues"):
            return super().pace(t, n, default, cap)
        return max(0.15, min(cap, 0.9 * (t - self.time) / max(1, n))) if t > self.time \
            else default

    def stretch(self, moment: str, default: float, cap: float = 4.0) -> float:
        """Run time that stretches an animation towards the moment `moment` is spoken (so the
        picture keeps moving while the voice gets there); `default` when silent."""
        return max(default, min(cap, 0.92 * (self.said(moment) - self.time)))

    # --- the stage ----------------------------------------------------------------------
    def sub_caption(self, text: str) -> None:
        """A new caption for a sub-part of a long beat, with the voice that starts it (never
        one caption for a minute over several ideas)."""
        if self.burned is None and self.beat.get("cues"):
            self.set_caption(text)

    def drop_wrapper(self, group) -> None:
        """Take a mobject an animation put on the scene's top level off that list only (it
        is about to become a part of a chart; Scene.remove would break up a chart that holds
        any of its parts into loose pieces)."""
        if group in self.mobjects:
            self.mobjects.remove(group)

    def adopt(self, group: VGroup, *ms) -> None:
        """Make the drawn mobjects `ms` parts of `group` (already on screen): drawn once, not
        twice (a top-level copy and a part)."""
        for m in ms:
            self.remove(m, *m.get_family())
        group.add(*ms)

    def pause_after_cue(self, k: int, secs: float) -> None:
        """A beat of silence after cue k (a reveal lands): every later cue is spoken `secs`
        later (call at the beat's start, before any wait on a later cue)."""
        cues = self.beat.get("cues") or []
        for i in range(k + 1, len(cues)):
            self.cue_shift[i] += secs

    LEAD_IN = 1.2       # seconds of quiet before each analysis after the first

    def lead_in(self) -> None:
        """A pause between analyses: this beat's voice starts LEAD_IN later than planned (the
        stage is cleared in that quiet), and its caption comes with its first words, not
        ahead of them (call first in a handler, then `voice_on` once the stage is clear)."""
        self._caption_waits = False
        if self.beat_index == 0 or not self.beat.get("cues"):
            return
        self.pause_after_cue(-1, self.LEAD_IN)
        if self.burned is None:
            self.set_caption("")
            self._caption_waits = True

    def voice_on(self) -> None:
        """The cleared stage holds until the voice starts; the beat's caption comes with it."""
        if not getattr(self, "_caption_waits", False):
            return
        self.hold_until_cue(0)
        self.set_caption(self.beat.get("caption") or "")
        self._caption_waits = False

    def clear(self, keep_legend: bool = True, keep_chart: bool = False, extra=()) -> None:
        """Fade out what earlier beats drew (the sentences' key and the chart if asked to keep
        them); the video's own title back if a section had its own. `extra` animations play
        with the fades (the key moving to its place for the next analysis)."""
        st = self.stage
        gone = list(st.other)
        if not keep_chart and st.chart is not None:
            gone.append(st.chart)
            st.chart = None
        if not keep_legend and st.legend is not None:
            gone.append(st.legend)
            st.legend = None
            st.legend_home = None
        st.other = []
        if gone or extra:
            self.play(*[FadeOutPlace(m) for m in gone], *extra,
                      run_time=max(self.quick(0.05, 0.5), 0.8 if extra else 0.0))
            for m in gone:
                self.remove(*m.get_family())

    def legend(self, big: bool = False) -> VGroup:
        """The sentences, one a line under the title, each focus word in its sentence's
        colour (shown if not already). `big`: a new key comes in large in the middle of the
        frame, and `settle_legend` shrinks it to its place under the title."""
        st = self.stage
        if st.legend is None:
            rows = self.key_rows(LEGEND_WORDS)
            rows.move_to([0, TOP - rows.height / 2, 0])
            st.legend, st.key_words = rows, LEGEND_WORDS
            if big:                         # large and centred until settle_legend
                st.legend_small = (rows.get_center(), rows.width)
                rows.scale(min(BIG_KEY, (14.22 - 2 * T.EDGE) / rows.width)).move_to(ORIGIN)
            if big:                         # the opening: on the first frame, not faded in
                self.add(rows)
            else:
                self.play(FadeInPlace(rows), run_time=self.quick(0.05, 0.6))
        elif st.legend_home is not None:             # moved aside by a beat: back under the title
            home = st.legend_home
            anim, done = self.key_move(LEGEND_WORDS, lambda m: m.move_to(home))
            self.play(anim, run_time=0.6)
            done()
            st.legend_home = None
        return st.legend

    def key_rows(self, words: int) -> VGroup:
        """The key's rows: each sentence (a window of `words` round its focus word), the
        focus word in its sentence's colour; a line for a word of several tokens."""
        rows = VGroup()
        for i, c in enumerate(self.v.contexts):
            word = c.focus.value.partition("#")[0]
            text = window(c.sentence.value, word, words)
            rows.add(inline(Dot(radius=0.09, color=self.colors[i]),
                            txt(f"{i + 1}", KEY_SIZE, self.colors[i]),
                            highlighted(text, word, self.colors[i], KEY_SIZE)))
        several = [c for c in self.v.contexts if len(c.positions) > 1]
        if several:                 # one definition of the word: the mean of its tokens
            word = several[0].focus.value.partition("#")[0]
            rows.add(txt(f"\"{word}\" is several tokens: its vector is their average",
                         SIZE, T.TEXT))
        rows.arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        width = 14.22 - 2 * T.EDGE
        if rows.width > width:                   # the floor: 18 -> at most 14 px scale
            rows.scale_to_fit_width(max(width, rows.width * 0.8))
        return rows

    def key_move(self, words: int, place):
        """(round 40) The key moves to where `place` (a function that positions a mobject)
        puts it, as a window of `words` round each focus word: it changes shape as it moves
        when that differs from what it shows (beside the PCA plane it is narrower). Returns
        (animation, done): call done() after playing it."""
        st = self.stage
        old = st.legend
        if words == st.key_words:
            to = place(old.copy()).get_center()
            return old.animate.move_to(to), (lambda: None)
        new = place(self.key_rows(words))

        def done() -> None:
            self.remove(*old.get_family())
            self.add(new)
            st.legend, st.key_words = new, words
        # (the old words go towards the new place as the new come from the old: a glyph morph
        # read as scrambled letters mid-way)
        return AnimationGroup(FadeOut(old, target_position=new.get_center()),
                              FadeIn(new, target_position=old.get_center())), done

    def settle_legend(self, run_time: float = 0.8) -> None:
        """The key shown large by legend(big=True) shrinks to its place under the title."""
        st = self.stage
        small = st.legend_small
        if st.legend is None or small is None:
            return
        center, width = small
        self.play(st.legend.animate.scale(width / st.legend.width).move_to(center),
                  run_time=run_time)
        st.legend_small = None

    def key_line(self, k: int):
        """Sentence k's line of the key: its glyphs, the text it shows (the window round the
        focus word) and the focus word."""
        c = self.v.contexts[k]
        word = c.focus.value.partition("#")[0]
        return self.stage.legend[k][-1], window(c.sentence.value, word,
                                                self.stage.key_words), word

    def focus_glyphs(self, k: int):
        """The glyphs of sentence k's focus word in the key (the first occurrence), or the
        whole row when the word is not found in its window."""
        glyphs, text, word = self.key_line(k)
        at = text.find(word)
        if at < 0:
            return self.stage.legend[k]
        return glyph_span(glyphs, text, at, at + len(word))

    def later_glyphs(self, k: int):
        """The glyphs of sentence k's words after its focus word in the key (its final mark
        left out), or None when nothing follows the word."""
        glyphs, text, word = self.key_line(k)
        at = text.find(word)
        end = at + len(word)
        rest = text[end:].rstrip(" .!?,;:")
        if at < 0 or not rest.strip():
            return None
        return glyph_span(glyphs, text, end, end + len(rest))

    def named_later(self, k: int, said: dict):
        """(round 37) The glyphs the opening underlines in sentence k's line of the key as
        "with river after it" is said: the first word sentence k shares with sentence 1
        (plan gap.shared) that comes after its focus word and that the voice names in `said`
        (a cue); else every word after the focus word (round 36 underlined "of the river
        flooded" for "river")."""
        glyphs, text, word = self.key_line(k)
        at = text.find(word)
        spoken = str(said.get("text", "")).lower()
        for w in (x.value for x in self.v.gap.shared):
            i = text.lower().find(w.lower(), at + len(word)) if at >= 0 else -1
            if i >= 0 and w.lower() in spoken:
                return glyph_span(glyphs, text, i, i + len(w))
        return self.later_glyphs(k)

    def word_glyphs(self, k: int, word: str):
        """The glyphs of `word` in sentence k's line of the key (its first whole-word
        occurrence in the shown window), or None."""
        if self.stage.legend is None or k >= len(self.v.contexts):
            return None
        glyphs, text, _ = self.key_line(k)
        at = next((i for i in range(len(text)) if text.lower().startswith(word.lower(), i)
                   and (i == 0 or not text[i - 1].isalpha())), -1)
        if at < 0:
            return None
        return glyph_span(glyphs, text, at, at + len(word))

    def content_top(self) -> float:
        lg = self.stage.legend
        # (the chart's "cosine" head and the baseline's note sit above its top; round 38: at
        # the labels' size 28, 0.42 left "cosine − baseline" touching the key's last line)
        return (lg.get_bottom()[1] if lg is not None else TOP) - 0.55

    def pair_key(self, k: int) -> VGroup:
        """Sentence i against sentence j, in words and the sentences' colours ("1 vs 2")."""
        i, j = self.v.curves[k].pair.values
        return inline(txt(f"{i + 1}", SIZE, self.colors[i]), txt("vs", SIZE, T.TEXT),
                      txt(f"{j + 1}", SIZE, self.colors[j]))

    def curve_color(self, k: int):
        return self.colors[self.v.curves[k].pair[1].value]

    # --- cosine chart pieces ------------------------------------------------------------
    def cosine_chart(self, run_time: float | None = None, zoom: bool = False) -> CosineChart:
        """The cosine chart (built now if not on screen): zoomed to the raw curves' range
        (plan: gap.cos_range), or over the plan's full range when `zoom` is off."""
        st = self.stage
        if st.chart is None:
            top = self.content_top() - 0.15
            # at most one row per curve at a time: the raw rows leave as the baseline comes,
            # its row then in their place (the gap has a chart of its own: no row of it here)
            n_rows = len(self.v.curves)
            height = top - (BOTTOM + BELOW_AXIS + ROW_STEP * (n_rows - 1))
            g = self.v.gap
            chart = CosineChart(self.v, top, max(1.6, min(3.4, height)),
                                y_range=g.cos_range.values if zoom else None,
                                y_ticks=list(g.cos_ticks) if zoom else None, named_ends=True)
            head = txt("cosine", SIZE, T.TEXT).next_to(chart.ax.y_labels, UP, buff=0.12)
            head.align_to(chart.ax.y_labels, LEFT)
            chart.add(head)
            chart.head = head
            chart.zoom_marks = None
            if zoom:
                # the axis does not start at 0: a break mark on it near its foot, and a note
                # saying where it starts (both leave when the axis widens to the full range)
                a = chart.ax.axes
                foot = np.array(a.c2p(0, chart.lo))
                at = foot + UP * min(0.22, 0.4 * (a.c2p(0, float(g.cos_ticks[1]))[1]
                                                  - foot[1]))
                gap = Rectangle(width=0.3, height=0.11, stroke_width=0,
                                fill_color=T.BACKGROUND, fill_opacity=1).move_to(at)
                slash = VGroup(*[Line(at + d + np.array([-0.13, -0.06, 0]),
                                      at + d + np.array([0.13, 0.06, 0]), color=T.TEXT,
                                      stroke_width=2.5) for d in (DOWN * 0.055, UP * 0.055)])
                note = tight(inline(txt("axis zoomed: it starts at", SIZE, T.TEXT),
                                    Num(g.cos_range[0], decimals=1, size=SIZE, color=T.TEXT),
                                    txt(", not 0", SIZE, T.TEXT)))
                note.next_to(a, UP, buff=0.12).align_to(a, RIGHT)
                chart.zoom_marks = VGroup(gap, slash, note)
                chart.add(chart.zoom_marks)
            self.play(FadeInPlace(chart), run_time=run_time or self.quick(0.05, 0.6))
            st.chart = chart
        return st.chart

    def widen(self, chart: CosineChart, run_time: float = 1.6) -> None:
        """The zoomed chart's y axis widens to the plan's full range: the old ticks (and the
        zoom's break mark and note) leave, every drawn curve moves to its place on the wider
        axis, then the new ticks come in (never two sets of tick labels on screen: round 31b
        had 0.75/0.70/0.60/0.25 piled up mid-rescale)."""
        if chart.wide:
            return
        v = self.v
        wide = CosineChart(v, chart.top_arg, chart.height_arg)
        old, new = chart.ax, wide.ax
        marks = getattr(chart, "zoom_marks", None)
        # (dimmed out one by one, not faded out, nor as a new group: they are parts of the
        # chart, and Scene.add of a group holding them would break the chart up)
        self.play(*[DimPlace(m, 0.0) for m in [*old.y_labels, *old.grid]],
                  *([DimPlace(marks, 0.0)] if marks is not None else []), run_time=0.3)
        if marks is not None:
            chart.remove(marks)
            self.remove(*marks.get_family())
            chart.zoom_marks = None
        run_time = max(0.6, run_time - 0.6)
        # (round 34: the rescale says itself, where the zoom's note was, while it happens)
        full = txt("axis now full: from 0 to 1", SIZE, T.TEXT)
        full.next_to(new.axes, UP, buff=0.12).align_to(new.axes, RIGHT)
        anims = [Transform(old.axes, new.axes), FadeInPlace(full)]
        for name, (segs, dots) in chart.curves.items():
            values = [chart.ax.axes.p2c(d.get_center())[1] for d in dots]
            pts = [wide.p(s, y) for s, y in enumerate(values)]
            anims += [dots[s].animate.move_to(pt) for s, pt in enumerate(pts)]
            anims += [seg.animate.put_start_and_end_on(pts[s], pts[s + 1])
                      for s, seg in enumerate(segs)]
        self.play(*anims, run_time=run_time)
        arrivals = [*new.y_labels, *new.grid]
        self.play(*[FadeIn(m) for m in arrivals], run_time=0.3)
        # (the arrivals were added on their own: they leave the scene's list and become the
        # chart's; the old axis is a part of the chart, and Scene.remove on a part would
        # break the chart up into loose pieces)
        for m in arrivals:
            self.drop_wrapper(m)
        self.widened_note = full        # (it leaves as the next line over the chart comes)
        chart.remove(old)
        chart.ax = new
        chart.add_to_back(new)
        chart.lo, chart.wide = wide.lo, True

    def curve_shape(self, chart: CosineChart, values, color) -> VGroup:
        """A curve as `draw_curve` leaves it, VGroup(segments, dots), at `values` on `chart`:
        the shape a drawn curve moves to (raw -> adjusted and back)."""
        n = len(values)
        return VGroup(
            VGroup(*[Line(chart.p(s, float(values[s])), chart.p(s + 1, float(values[s + 1])),
                          color=color, stroke_width=3) for s in range(n - 1)]),
            VGroup(*[Dot(chart.p(s, float(a)), radius=0.06, color=color)
                     for s, a in enumerate(values)]))

    def number_row(self, chart: CosineChart, key, label: str, values, color,
                   decimals: int = 2) -> VGroup:
        y = chart.next_row_y()
        # (round 37: the baseline's grey digits read as low contrast: its row in the text's
        # colour, its key the grey dashes)
        color = T.TEXT if color == T.MUTED else color
        nums = VGroup(*thinned([Num(val, decimals=decimals, size=SIZE, color=color)
                                .move_to([chart.p(s, 0)[0], y, 0])
                                for s, val in enumerate(values)], chart.stride))
        # (a curve's row is named by its pair alone: "raw" would be a word before the
        # baseline gives it a meaning)
        name = inline(key, txt(label, SIZE, T.TEXT)) if label else key
        # right beside the row's first number (never left of the frame's margin)
        room = name.width
        first = nums[0].get_left()[0] if len(nums) else chart.p(0, 0)[0]
        left = max(-7.11 + T.EDGE, first - 0.35 - room)
        name.move_to([left + name.width / 2, y, 0])
        return VGroup(name, nums)

    def draw_curve(self, chart: CosineChart, name: str, values, color, key, label: str,
                   until: float | None = None, dashed: bool = False,
                   after_first=None) -> None:
        """Point by point: dot, segment from the previous state, the number below; spread
        so the last lands by scene time `until` (or quickly). `after_first`, if given, runs
        once the first point is drawn (it may wait for the voice); the rest then share what
        is left until `until` (it is given that point and its number)."""
        row = self.number_row(chart, key, label, values, color)
        chart.rows[name] = row
        self.play(FadeInPlace(row[0]), run_time=0.3)
        n = len(values)
        per = (self.pace(until, n, 0.3, cap=2.0) if until is not None
               else self.quick(0.04, 0.35))
        dots, segs, prev = VGroup(), VGroup(), None
        for s, val in enumerate(values):
            pt = chart.p(s, float(val))
            dot = Dot(pt, radius=0.06, color=color)
            anims = [FadeInPlace(dot), FadeInPlace(row[1][s])]
            if prev is not None:
                seg = (DashedLine(prev, pt, dash_length=0.08, color=color, stroke_width=2.5)
                       if dashed else Line(prev, pt, color=color, stroke_width=3))
                segs.add(seg)
                anims.append(Create(seg))
            self.play(*anims, run_time=per)
            dots.add(dot)
            prev = pt
            if s == 0 and after_first is not None:
                after_first(VGroup(dot, row[1][0]))
                if until is not None:
                    per = self.pace(until, n - 1, 0.3, cap=2.0)
        chart.curves[name] = VGroup(segs, dots)
        self.adopt(chart, row, chart.curves[name])

    def raw_curves(self, paced: bool) -> CosineChart:
        """The chart with every raw curve drawn (drawn now if an earlier beat did not)."""
        chart = self.cosine_chart()
        for k, c in enumerate(self.v.curves):
            if f"raw{k}" in chart.curves:
                continue
            until, first = None, None
            if paced:
                pos = self.stage.positions

                def show_positions(pos=pos, c=c) -> None:
                    shown = [pos[i] for i in c.pair.values]
                    new = [m for m in shown if m not in self.stage.other]
                    if new:
                        self.play(*[FadeInPlace(m) for m in new], run_time=0.4)
                        self.stage.other += new
                    self.emphasize(*shown, run_time=0.8)
                # (round 38) the first curve is drawn while "from X zero ... to X six" is
                # said (round 34-37 held it at X^(0) until "same position": it started 8 s
                # after the axis came); then "starts at 1.00": that dot and number lit; "as
                # the same token": the two banks boxed in the key; "at the same position":
                # the positions come on those words. A later curve's position comes on
                # "another position" (round 37: a second before it)
                later = k == 0 and self.has(M.SAME_POS)
                if pos is not None and not later:
                    if k == 1 and self.has(M.OTHER_POS):
                        def first(start, show=show_positions) -> None:
                            self.hold_until(self.said(M.OTHER_POS) - 0.15)
                            show()
                    else:
                        show_positions()
                until = self.said(M.MONEY_END if k == 0 else M.RIVER_END)
                if later:
                    until = min(until, self.said(M.STARTS) - 0.2)
            self.draw_curve(chart, f"raw{k}", raw(c), self.curve_color(k), self.pair_key(k),
                            None, until=until, after_first=first)
            if paced:
                if later:
                    self.start_named(chart, k, show_positions if pos is not None else None)
                self.hold_until_moment(M.MONEY_END if k == 0 else M.RIVER_END)
                ends = VGroup(chart.curves[f"raw{k}"][1][0], chart.curves[f"raw{k}"][1][-1],
                              chart.rows[f"raw{k}"][1][0], chart.rows[f"raw{k}"][1][-1])
                self.emphasize(ends, run_time=1.0)
        return chart

    def start_named(self, chart: CosineChart, k: int, show) -> None:
        """(round 38) Curve k drawn, its start said: "starts at 1.00" lights its first dot and
        number; "as the same token" boxes the two banks in the key; "at the same position"
        brings the positions (`show`), each on its words."""
        c = self.v.curves[k]
        start = VGroup(chart.curves[f"raw{k}"][1][0], chart.rows[f"raw{k}"][1][0])
        self.hold_until(self.said(M.STARTS) - 0.1)
        self.emphasize(start, run_time=max(0.5, min(1.0, 0.85 * (
            self.said(M.SAME_TOKEN) - self.time))))
        self.hold_until(self.said(M.SAME_TOKEN) - 0.1)
        self.emphasize(*[self.focus_glyphs(i) for i in c.pair.values],
                       run_time=max(0.5, min(1.0, 0.85 * (self.said(M.SAME_POS) - self.time))))
        if show is not None:
            self.hold_until(self.said(M.SAME_POS) - 0.15)
            show()

    def position_labels(self, legend: VGroup) -> VGroup:
        """Beside each sentence of the key: the position of its focus word (not yet shown);
        (round 40) said as "word 6" when every such position is the word's number counted
        from 1 among the drawn words (plan contexts[i].word: the unshown start token is
        position 0), so a student counting the words gets the tag."""
        x = legend.get_right()[0] + 0.4
        name, at = self.place_of()
        labels = VGroup()
        for i, (row, c) in enumerate(zip(legend, self.v.contexts)):
            lab = inline(txt(name, SIZE, T.TEXT),
                         Num(at(c), decimals=0, size=SIZE, color=self.colors[i]))
            lab.move_to([x + lab.width / 2, row.get_y(), 0])
            labels.add(lab)
        return labels

    def place_of(self):
        """How a focus word's place is named: ("word", its number from 1 among the drawn
        words) when that is its token position in every sentence, else ("position", the
        token position)."""
        if all(c.word.value == c.positions[0].value for c in self.v.contexts):
            return "word", (lambda c: c.word)
        return "position", (lambda c: c.positions[0])

    def angle_at(self, deg: float, color):
        """The angle panel's second arrow at `deg` from the first, its arc and θ."""
        o, r = self.angle_origin, self.angle_radius
        rad = np.radians(deg)
        tip = o + r * np.array([np.cos(rad), np.sin(rad), 0.0])
        arrow = Arrow(o, tip, buff=0, color=color, stroke_width=4,
                      max_tip_length_to_length_ratio=0.15)
        arc = Arc(radius=0.45 * r, start_angle=0, angle=max(rad, 1e-3), arc_center=o,
                  color=T.MUTED, stroke_width=2)
        mid = o + 0.62 * r * np.array([np.cos(rad / 2), np.sin(rad / 2), 0.0])
        theta = txt("θ", SIZE, T.TEXT).move_to(mid + np.array([0.12, 0, 0]))
        if deg < 16:            # (a shut angle has no room for its name: it fades)
            theta.set_opacity(max(0.0, (deg - 6.0) / 10.0))
        return VGroup(arrow, arc, theta)

    def angle_intro(self, until: float, ref_glyphs=None) -> None:
        """A cosine is an angle: sentence 1's state as an arrow and another sentence's at the
        angle of the money curve's last cosine (lengths drawn equal), drawn large and alone
        on the stage under the key while the voice defines it; it leaves by `until` (the
        chart then takes the stage: never an inset over the data)."""
        lg = self.stage.legend
        top = (lg.get_bottom()[1] if lg is not None else TOP) - 0.3
        self.angle_origin = np.array([0.0, 0.0, 0.0])
        self.angle_radius = max(1.0, min(2.2, 0.7 * (top - BOTTOM)))
        o, r = self.angle_origin, self.angle_radius
        ref = Arrow(o, o + RIGHT * r, buff=0, color=self.colors[0], stroke_width=4,
                    max_tip_length_to_length_ratio=0.15)
        moving = self.angle_at(float(self.v.curves[0].angle_deg[-1]), self.curve_color(0))
        big = 28                # (its text larger than the labels: alone on the stage)
        note = VGroup(txt("cosine of the angle θ", big, T.TEXT),
                      txt("1: same direction", big, T.TEXT),
                      txt("(lengths drawn equal)", big, T.TEXT)
                      ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        note.next_to(o, LEFT, buff=0.6).align_to(o + UP * 0.05, DOWN)
        panel = VGroup(ref, moving, note)
        panel.move_to([0, (top + BOTTOM) / 2, 0])
        self.angle_origin = o = np.array(ref.get_start())      # (where the panel now stands)
        if ref_glyphs is not None:      # (round 34b: "compare sentence one's bank": its arrow
            # grows as the word is boxed, so the stage is never empty while the voice speaks)
            self.emphasize(ref_glyphs, run_time=self.stretch(M.EACH_OTHER, 0.8, cap=1.5),
                           extra=[GrowArrow(ref)])
        else:
            self.play(GrowArrow(ref), run_time=self.stretch(M.EACH_OTHER, 0.5, cap=1.5))
        self.hold_until_moment(M.EACH_OTHER)
        others = self.stage.legend[1:len(self.v.contexts)] if self.stage.legend else []
        # "each of the others": the other sentences are circled as the second arrow grows
        self.emphasize(*others, run_time=0.9,
                       extra=[GrowArrow(moving[0]), Create(moving[1]), FadeInPlace(moving[2]),
                              FadeInPlace(note[0])])
        # (round 34) "one when they point the same way": the second arrow swings shut onto
        # the first and open again, a cos θ meter beside the angle filling to 1 as it shuts
        # (an illustration: the open angle is the money curve's last cosine's, from the plan)
        deg0 = float(self.v.curves[0].angle_deg[-1])
        turn = ValueTracker(deg0)
        track_w = 1.6
        x_m = o[0] + r + 0.5
        y_m = o[1] + 0.35 * r
        track = Line([x_m, y_m, 0], [x_m + track_w, y_m, 0], color=T.MUTED, stroke_width=2)
        ends_lab = VGroup(txt("0", big, T.TEXT).next_to(track.get_start(), DOWN, buff=0.12),
                          txt("1", big, T.TEXT).next_to(track.get_end(), DOWN, buff=0.12))
        name = txt("cos θ", big, T.TEXT).next_to(track, UP, buff=0.2).align_to(track, LEFT)

        def fill_now() -> Line:
            f = max(1e-3, float(np.cos(np.radians(turn.get_value()))))
            return Line([x_m, y_m, 0], [x_m + track_w * f, y_m, 0],
                        color=self.curve_color(0), stroke_width=10,
                        cap_style=CapStyleType.BUTT)
        live = fill_now()
        meter = VGroup(track, ends_lab, name, live)
        swing = moving

        def follow(m) -> None:
            m.become(self.angle_at(turn.get_value(), self.curve_color(0)))
        self.play(FadeInPlace(note[1:]), FadeInPlace(meter), run_time=0.5)
        live.add_updater(lambda m: m.become(fill_now()))
        self.add(swing)         # (its parts came in one by one: the group itself, updated)
        swing.add_updater(follow)
        room = max(1.2, until - self.time - 0.9)
        self.play(turn.animate.set_value(0.0), run_time=min(2.0, 0.45 * room))
        self.play(Indicate_(ends_lab[1], 1.3), run_time=0.5)
        self.play(turn.animate.set_value(deg0), run_time=min(1.6, 0.35 * room))
        live.clear_updaters()
        swing.clear_updaters()
        panel.add(meter)
        # (it stays until the voice moves on: no empty stage before the chart, round 32)
        if self.beat.get("cues"):       # (silent: no cue to wait for)
            self.hold_until(until - 0.75)
        self.play(FadeOutPlace(panel), run_time=0.4)
        self.remove(*panel.get_family())

    # --- beats --------------------------------------------------------------------------
    def beat_similarity(self, beat) -> None:
        self.clear(keep_chart=True)
        legend = self.legend(big=True)           # large in the middle: the video's subject
        self.hold_until_moment(M.SENTENCES)
        n = len(self.v.contexts)
        cues = self.beat.get("cues") or []
        # the sentences stay large and lit one by one for the whole first sentence of the
        # voice (no empty stage while it still speaks of them), then become the key
        # the axis comes with the cue that says "From X zero" (the storyboard's second cue
        # when the sentences are introduced in one); each sentence is boxed on the cue that
        # names it ("Sentence one: a river bank.") when the voice names them one per cue
        axis_cue = self.cue_with("From X zero", 1)
        names = ("one", "two", "three", "four")[:n]
        own = [self.cue_with(f"Sentence {w}:") for w in names]
        own = own if cues and all(c is not None for c in own) and \
            own == sorted(own) and own[-1] < axis_cue else None
        # the cosine is defined before the axis comes (the storyboard's order), or after it
        names_end = min(self.said(M.REFERENCE), self.cue_at(axis_cue))
        ref_first = self.said(M.REFERENCE) < self.cue_at(axis_cue) - 0.5
        per = max(0.9, 0.95 * (names_end - self.time - 0.9)) / n if cues else 0.9
        # "... reads in both directions, so that bank can use the later word": the last
        # sentence's words after its focus word are underlined as its box is on
        said_both = self.cue_with("both directions")
        both = said_both is not None and said_both < axis_cue
        under = VGroup()
        for k in range(n):                               # "a river bank, a money bank, ..."
            later = self.named_later(k, cues[said_both]) if both and k == n - 1 else None
            if later is not None:
                under = Underline(later, buff=0.06, color=self.colors[k], stroke_width=4)
            extra = [] if later is None else [
                Create(under, rate_func=squish_rate_func(smooth, 0.3, 1.0))]
            if own is not None:
                self.hold_until_cue(own[k])
                nxt = own[k + 1] if k + 1 < n else axis_cue
                per = max(0.9, 0.9 * (self.cue_at(nxt) - self.time) - (0.9 if k == n - 1
                                                                        else 0.0))
            self.emphasize(self.focus_glyphs(k), run_time=min(per, 6.0), extra=extra)
        if len(under):
            self.play(FadeOutPlace(under), run_time=0.3)
            self.remove(under)
        self.settle_legend(run_time=0.8)         # the sentences become the key, under the title
        if ref_first:   # "compare sentence one's bank with each of the others by the cosine"
            self.hold_until(self.said(M.REFERENCE) - 0.4)
            self.angle_intro(self.cue_at(axis_cue), ref_glyphs=self.focus_glyphs(0))
        # "from X zero ... to X six": the axis comes in on those words
        if cues:                                # (silent: at once)
            self.hold_until(self.cue_at(axis_cue) - 0.3)
        # (zoomed to the raw curves' range, its break marked and named: the baseline's beat
        # widens it, moving every curve; round 31's 0-1 axis squeezed 0.76 vs 0.92 together)
        chart = self.cosine_chart(run_time=0.6, zoom=True)
        # its two ends boxed as named, then the first curve starts at once
        ticks = [m for m in chart.x_math if not isinstance(m, VectorizedPoint)]
        self.emphasize(ticks[0], run_time=0.6)
        self.emphasize(ticks[-1], run_time=0.6)
        if not ref_first:
            self.hold_until_moment(M.REFERENCE)
            self.emphasize(self.focus_glyphs(0), run_time=0.8)     # (round 34: no arrow)
        self.stage.positions = self.position_labels(legend)
        chart = self.raw_curves(paced=True)
        # the curves' answer: every bank ends lower than it starts, one far more
        self.hold_until_moment(M.TURN_AWAY)
        k_most = int(np.argmax([float(raw(c)[0]) - float(raw(c)[-1]) for c in self.v.curves]))
        # (a row of numbers an earlier beat took away, in another arrangement: the dot alone)
        ends = [VGroup(chart.curves[f"raw{k}"][1][-1],
                       *([chart.rows[f"raw{k}"][1][-1]] if f"raw{k}" in chart.rows else []))
                for k in range(len(self.v.curves))]
        self.emphasize(*ends, run_time=1.0)
        left = self.beat_start + self.beat_end(beat) - self.time
        segs = chart.curves[f"raw{k_most}"][0]
        half = max(0.4, min(1.25, 0.42 * left))
        self.play(segs.animate.set_stroke(width=7), run_time=half)
        self.play(segs.animate.set_stroke(width=3), run_time=half)

    def beat_baseline(self, beat) -> None:
        self.lead_in()
        self.clear(keep_chart=True)
        self.voice_on()
        self.legend()
        if self.stage.chart is None:        # no zoomed chart before: the full range at once
            self.cosine_chart(zoom=False)
        chart = self.raw_curves(paced=False)
        v = self.v
        self.hold_until_moment(M.UNRELATED)
        # (round 37) the raw curves' rows have been read: they leave as the baseline comes
        # (its row takes their place; three rows under the chart reached the caption)
        rows = [chart.rows.pop(name) for name in list(chart.rows)]
        if rows:
            # (dimmed out, not faded out: a fade's removal of a part of the chart would break
            # the chart up into loose pieces; then taken out of the chart)
            self.play(*[DimPlace(r, 0.0) for r in rows], run_time=0.4)
            for r in rows:
                chart.remove(r)
        # the unrelated tokens' cosines lie far below the raw curves: the axis widens first
        self.widen(chart, run_time=self.stretch(M.BASELINE_PEAK, 1.2, cap=2.0))
        def note(full: bool) -> VGroup:
            """The line over the chart naming the baseline (round 32: what its pairs are, as
            the voice says it: different words from different sentences)."""
            m = inline(txt("baseline:", SIZE, T.TEXT),
                       Num(v.similarity.baseline_pairs, decimals=0, size=SIZE),
                       txt(("cross-sentence " if full else "") + "pairs of different words",
                           SIZE, T.TEXT))
            return m.next_to(chart.ax.axes, UP, buff=0.12).align_to(chart.ax.axes, RIGHT)
        example = note(True)
        if example.get_left()[0] < chart.ax.axes.get_left()[0] + 0.9:   # over the y label:
            example = note(False)                                      # the short line
        full = getattr(self, "widened_note", None)
        if full is not None:        # (out, then the baseline's line in: never two on a spot)
            self.hold_until(self.time + 0.6)
            self.play(FadeOutPlace(full), run_time=0.3)
            self.remove(*full.get_family())
            self.widened_note = None
        self.play(FadeInPlace(example), run_time=0.6)
        self.adopt(chart, example)
        chart.note = example
        key = VGroup(DashedLine(LEFT * 0.15, RIGHT * 0.15, dash_length=0.07, color=T.MUTED,
                                stroke_width=2.5))
        self.draw_curve(chart, "baseline", v.similarity.baseline, T.MUTED, key, "baseline",
                        until=self.said(M.BASE_FALLS), dashed=True)
        base = chart.curves["baseline"][1]
        self.emphasize(VGroup(chart.rows["baseline"][1][0], chart.rows["baseline"][1][-2]),
                       run_time=self.stretch(M.BASE_FALLS, 0.8, cap=2.0))
        # "then falls ...: most of the money curve's last fall is this baseline falling":
        # (round 33: seen, not subtracted in the head) the money curve's last fall, as a bar
        # right of X^(L) from its X^(L-1) height down to its X^(L) one; then the baseline's
        # last fall, a bar at its own height, rises to stand beside it, tops level
        self.hold_until_moment(M.BASE_FALLS)
        od = v.output_drop
        drop = int(od.curve)
        last = len(v.states) - 1
        xb = chart.p(last, 0.0)[0] + 0.32
        fall = Line(np.array([xb, chart.p(last, float(od.raw_from))[1], 0]),
                    np.array([xb, chart.p(last, float(od.raw_to))[1], 0]),
                    color=self.curve_color(drop), stroke_width=9, cap_style=CapStyleType.BUTT)
        bfall = Line(np.array([xb + 0.22, chart.p(last, float(od.baseline_from))[1], 0]),
                     np.array([xb + 0.22, chart.p(last, float(od.baseline_to))[1], 0]),
                     color=T.MUTED, stroke_width=9, cap_style=CapStyleType.BUTT)
        len_m, len_b = fall.get_length(), bfall.get_length()
        segs_m, dots_m = chart.curves[f"raw{drop}"]
        segs_b, dots_b = chart.curves["baseline"]
        per = max(0.7, min(1.2, (self.said(M.SUBTRACT) - self.time - 1.7) / 3))
        self.play(*[Indicate_(m, 1.0) for m in (segs_m[-1], dots_m[-2], dots_m[-1])],
                  TransformFromCopy(segs_m[-1], fall), run_time=per)
        self.play(*[Indicate_(m, 1.0) for m in (segs_b[-1], dots_b[-2], dots_b[-1])],
                  TransformFromCopy(segs_b[-1], bfall), run_time=per)
        # (round 33: the two falls, 20 px on the axis, move into the chart's empty middle and
        # grow there, both by one factor, side by side, bottoms level, each labelled)
        grow = 3.0
        x_mid = chart.p(last - 0.9, 0.0)[0]
        y_bot = chart.p(last, 0.33)[1]
        big = VGroup(
            Line([x_mid, y_bot, 0], [x_mid, y_bot + len_m * grow, 0],
                 color=self.curve_color(drop), stroke_width=16, cap_style=CapStyleType.BUTT),
            Line([x_mid + 0.4, y_bot, 0], [x_mid + 0.4, y_bot + len_b * grow, 0],
                 color=T.MUTED, stroke_width=16, cap_style=CapStyleType.BUTT))
        labs = VGroup(
            inline(txt("money fall", NOTE_SIZE, self.curve_color(drop)),
                   Num(od.raw_fall, decimals=2, size=NOTE_SIZE, color=self.curve_color(drop))),
            inline(txt("baseline fall", NOTE_SIZE, T.TEXT),
                   Num(od.baseline_fall, decimals=2, size=NOTE_SIZE, color=T.TEXT)))
        labs[1].next_to(labs[0], RIGHT, buff=0.35)
        # (round 36: a larger size, in the text's colour: it read as 10 px in grey)
        scale_note = txt(f"both drawn ×{grow:.0f}", NOTE_SIZE, T.TEXT)
        scale_note.next_to(labs, DOWN, buff=0.12).align_to(labs, RIGHT)
        # (round 39: two lines standing on the bars' foot, between the dashed baseline and the
        # curves: three lines hung from the bars' top crossed the baseline)
        VGroup(labs, scale_note).next_to(big[0], LEFT, buff=0.2).align_to(big[0], DOWN)
        # (the labels come with the move: they are read as the voice says "most of")
        self.play(Transform(fall, big[0]), Transform(bfall, big[1]), FadeInPlace(labs),
                  FadeInPlace(scale_note), run_time=per + 0.3)
        falls = VGroup(fall, bfall, labs, scale_note)
        # (round 36) "is mostly this baseline's fall": the baseline's bar moves onto the money
        # curve's, bottoms level: it covers most of it (a 5-s still picture before)
        self.hold_until(self.said(M.MOSTLY) - 0.1)
        self.play(bfall.animate.move_to(fall.get_bottom() + UP * bfall.height / 2),
                  run_time=max(0.8, min(1.6, 0.6 * (self.said(M.SUBTRACT) - self.time))))
        self.hold_until_moment(M.SUBTRACT)
        # (round 37: the caption says what the chart now shows, not the beat's question)
        self.sub_caption("Each curve minus the baseline, state by state")
        self.play(FadeOutPlace(falls), run_time=0.3)
        self.remove(*falls.get_family())
        # the rows of numbers have been read and leave (no number turns into another in
        # place); the adjusted curves' ends get their numbers once, beside them, at the end
        rows = [chart.rows.pop(name) for name in list(chart.rows)]
        if rows:
            # (dimmed out, not faded out: a fade's removal of a part of the chart would break
            # the chart up into loose pieces; then taken out of the chart)
            self.play(*[DimPlace(r, 0.0) for r in rows], run_time=0.4)
            for r in rows:
                chart.remove(r)
        # the baseline's height at every state, as a bar up from zero: a copy of those bars
        # hangs under each raw curve, and the curve moves down by them
        def offsets(tops, bottoms) -> VGroup:
            return VGroup(*[Line(chart.p(s, float(t)), chart.p(s, float(b)), color=T.MUTED,
                                 stroke_width=6, stroke_opacity=0.7)
                            for s, (t, b) in enumerate(zip(tops, bottoms))])
        heights = offsets(v.similarity.baseline, [0.0] * len(v.states))
        # every curve moves at once, paced to end as "at the output ..." is said
        avail = self.said(M.ADJUSTED_ENDS) - self.time
        f = max(0.6, min(1.4, avail / 4.2))
        self.play(Create(heights), run_time=0.5 * f)
        hangs = [heights.copy() for _ in v.curves]
        self.play(*[Transform(h, offsets(raw(c), c.adjusted)) for h, c in zip(hangs, v.curves)],
                  run_time=0.6 * f)
        moves, parts = [], []
        for k, c in enumerate(v.curves):
            name, color = f"raw{k}", self.curve_color(k)
            segs, dots = chart.curves[name]
            moved = VGroup(segs.copy(), dots.copy())
            target = self.curve_shape(chart, c.adjusted, color)
            self.add(moved)
            # the raw curve is dimmed in place: it is a part of the chart, so the chart stays
            # one mobject on screen (wrapping its parts in a new group would break it up)
            moves += [Transform(moved, target), DimPlace(chart.curves[name], 0.3)]
            parts.append((k, moved, target))
        self.play(*moves, run_time=1.5 * f)
        for k, moved, target in parts:
            # the slid copy is replaced by the curve it became
            self.remove(moved, *moved.get_family())
            chart.curves[f"adj{k}"] = target
            chart.add(target)
        # (round 38) once subtracted, the raw quantities leave with the stems: the raw
        # curves' ghosts, the dashed baseline and its note (round 37 kept them on the
        # "cosine − baseline" axis: three kinds of quantity on one chart, the step numbers
        # on the baseline's line); they stay parts of the chart, at nothing
        gone = [chart.curves[f"raw{k}"] for k in range(len(v.curves))] + \
            [chart.curves["baseline"]] + ([chart.note] if getattr(chart, "note", None)
                                          is not None else [])
        self.play(*[FadeOut(h) for h in hangs], FadeOut(heights),
                  *[DimPlace(m, 0.0) for m in gone], run_time=max(0.5, 0.5 * f))
        self.remove(*hangs, heights)
        chart.hidden = {f"raw{k}" for k in range(len(v.curves))} | {"baseline"}
        note = getattr(chart, "note", None)
        if note is not None:            # (its words leave the chart: the axis's new name
            chart.remove(note)          # may reach where they were)
            self.remove(*note.get_family())
            chart.note = None
        # (round 33: the axis now reads what the moved curves are)
        self.retitle(chart, "cosine − baseline")
        # "... each then reads how far its cosine sits above the different words' mean": the
        # moved curves lit while that is said (round 37: a 3-s still frame)
        left = self.said(M.ADJUSTED_ENDS) - self.time
        if left > 1.0:
            self.play(*[Indicate_(chart.curves[f"adj{k}"], 1.0) for k in range(len(v.curves))],
                      run_time=min(2.5, left - 0.3))
        # "at the output the money bank still ends farther away": the adjusted curves' ends
        # lit as it is said (round 37: their numbers are gone: the river bank's adjusted end,
        # 0.76, read as the money bank's raw 0.76 said before; the axis is read instead)
        self.hold_until_moment(M.ADJUSTED_ENDS)
        labels, head, box = VGroup(), VGroup(), VGroup()
        left = self.beat_start + self.beat_end(beat) - self.time
        rises = M.RISES in (self.beat.get("moments") or {})
        if rises:
            left = self.said(M.RISES) - self.time
        self.emphasize(*[chart.curves[f"adj{k}"][1][-1] for k in range(len(v.curves))],
                       run_time=max(0.6, min(2.5, 0.85 * left - 1.0)))
        if rises:
            # (round 34) "on that last step, the river bank now rises more than the money bank
            # falls": each adjusted curve's last segment thickens, the near one first
            # (round 36: with its number, as each is said: "+0.083", then "−0.029" under it,
            # both under the lower curve's last step, where the chart is empty; over the
            # upper one the raw curves' ghosts run)
            self.hold_until_moment(M.RISES)
            g = v.gap
            steps = VGroup()
            at = self.step_labels_at(chart)
            # (each step's change, signed: another sentence's near curve may fall too)
            for k, view, sign in ((int(g.near.value), g.last_rise_near, 1),
                                  (int(g.far.value), g.last_fall_far, -1)):
                if sign < 0:
                    self.hold_until(self.said(M.FALLS_FAR) - 0.1)
                seg = chart.curves[f"adj{k}"][0][-1]
                d = sign * float(view.value)         # (the step itself, up or down)
                num = Num(abs(float(view.value)), view.path, decimals=3, size=SIZE,
                          color=self.curve_color(k), prefix="+" if d >= 0 else "−")
                num.move_to(at + DOWN * ROW_STEP * len(steps))
                if self.step_labels_backed:
                    num.add_to_back(Rectangle(width=num.width + 0.1, height=num.height + 0.08,
                                              stroke_width=0, fill_color=T.BACKGROUND,
                                              fill_opacity=0.9).move_to(num))
                steps.add(num)
                self.play(seg.animate.set_stroke(width=8), FadeInPlace(num), run_time=0.6)
                # (the number lit while the voice says it, up to the next one)
                lit = (self.said(M.FALLS_FAR) if sign > 0 else
                       self.said(M.LESSON) if self.has(M.LESSON) else
                       self.beat_start + self.beat_end(beat)) - self.time - 0.2
                # (its glyphs flash, not its dark backing: a lit backing read as a grey box)
                glyphs = VGroup(*num.submobjects[1:]) if self.step_labels_backed else num
                self.play(seg.animate.set_stroke(width=3), Indicate_(glyphs, 1.0),
                          run_time=max(0.5, min(2.5, lit)))
            head.add(*steps)
            # (round 39) "so most of the money bank's raw last fall is a fall all words share;
            # what changes most at the end is how close the river banks come": the money
            # bank's small adjusted step, then the river bank's rise, lit again
            if self.has(M.LESSON) and len(steps) == 2:
                self.hold_until_moment(M.LESSON)
                end = self.beat_start + self.beat_end(beat)
                t = max(1.2, min(8.5, 0.92 * (end - self.time) - 0.4))
                near_seg = chart.curves[f"adj{int(g.near.value)}"][0][-1]
                self.play(Indicate_(VGroup(*steps[1].submobjects[1:]) if
                                    self.step_labels_backed else steps[1], 1.12),
                          run_time=0.45 * t)
                self.play(near_seg.animate.set_stroke(width=8), Indicate_(
                    VGroup(*steps[0].submobjects[1:]) if self.step_labels_backed
                    else steps[0], 1.12), run_time=0.55 * t)
                # (round 40: back to its width as the lesson ends: the thick last step stayed
                # into the gap beat, 6 s over "a bar at every state")
                self.play(near_seg.animate.set_stroke(width=3), run_time=0.4)
        self.adopt(chart, labels, head, box)
        chart.box = VGroup(labels, head, box)     # they leave with the baseline's pieces
        del base

    def step_labels_at(self, chart: CosineChart) -> np.ndarray:
        """Where the first of the two last-step numbers goes (the second under it): over the
        last step, under the lower curve's segment or over the upper one's, at the first
        height where neither touches a drawn curve (the baseline's, the raw ghosts), nor
        leaves the plot; else the one touching fewest (`step_labels_backed` then says the
        numbers need an opaque backing over the curve they cross)."""
        segs = [seg for name, (ss, _) in chart.curves.items() if name not in chart.hidden
                for seg in ss]
        # (a dashed segment's points are its dashes')
        pts = np.array([p for seg in segs for m in seg.family_members_with_points()
                        for p in m.get_all_points()])
        last = [chart.curves[f"adj{k}"][0][-1] for k in range(len(self.v.curves))
                if f"adj{k}" in chart.curves]
        x = last[0].get_center()[0]
        low = min(m.get_bottom()[1] for m in last)
        high = max(m.get_top()[1] for m in last)
        floor, ceil = chart.ax.axes.get_bottom()[1], chart.ax.axes.get_top()[1]
        probe = Rectangle(width=1.2, height=2 * ROW_STEP)
        best = None
        for top in [low - 0.12 - 0.15 * j for j in range(12)] + \
                   [high + 0.12 + 2 * ROW_STEP + 0.15 * j for j in range(8)]:
            probe.move_to([x, top - ROW_STEP, 0])
            if probe.get_bottom()[1] < floor or probe.get_top()[1] > ceil:
                continue
            hits = covered(probe, pts, pad=0.04)
            if best is None or hits < best[0]:
                best = (hits, top)
            if hits == 0:
                break
        top = best[1] if best is not None else low - 0.3
        self.step_labels_backed = best is None or best[0] > 0
        return np.array([x, top - ROW_STEP / 2, 0.0])

    def beat_projection(self, beat) -> None:
        self.lead_in()
        self.pause_after_cue(5, 1.0)            # 1.2 vs 6.6: the two numbers land
        if self.stage.legend is None:
            self.clear()
        legend = self.legend()
        v, pr = self.v, self.v.projection
        (x0, x1), (y0, y1) = pr.x_range.values, pr.y_range.values
        step = float(pr.step)
        # the key moves aside: the plane takes the full height, from under the title to the
        # caption (round 35: about half the frame, it was 43 % of its width)
        top = TOP
        # (round 37: the key at its larger size still fits the side column: the plane gives up
        # the width it needs, down to PLANE_MIN wide; round 40: the key there a narrower
        # window round each focus word, the plane wider: 340 px of 854 read as small)
        words = min(SIDE_WORDS, self.stage.key_words)
        side_key = self.key_rows(words)
        fit = 7.11 - T.EDGE - side_key.width - 0.05 - SIDE_GAP - (-7.11 + T.EDGE + LABEL_ROOM)
        height, width = top - BOTTOM, min(8.2, max(PLANE_MIN, fit))
        unit = min(width / (x1 - x0), height / (y1 - y0))
        plane = NumberPlane(x_range=[x0, x1, step], y_range=[y0, y1, step],
                            x_length=unit * (x1 - x0), y_length=unit * (y1 - y0),
                            background_line_style={"stroke_color": T.MUTED, "stroke_width": 1.2,
                                                   "stroke_opacity": 0.45},
                            axis_config={"stroke_opacity": 0, "stroke_width": 0})
        # room left of the plane for the state labels, which sit outside the paths
        plane.move_to([-7.11 + T.EDGE + LABEL_ROOM + plane.width / 2,
                       top - (top - BOTTOM) / 2, 0])
        side_x = plane.get_right()[0] + SIDE_GAP
        # the key, moved (not faded) to the top of the side column
        self.stage.legend_home = legend.get_center().copy()
        if side_key.width <= 7.11 - T.EDGE - side_x:
            # (with the last beat's pictures leaving: no stage left empty meanwhile)
            anim, done = self.key_move(words, lambda m: m.move_to(
                [side_x + m.width / 2, TOP - m.height / 2, 0]))
            self.clear(extra=[anim])
            done()
            legend = self.stage.legend
            top = legend.get_bottom()[1] - 0.35
        else:       # a long sentence's key does not fit the side column: it leaves this beat
            self.clear()
            self.play(FadeOutPlace(legend), run_time=0.6)
            self.remove(*legend.get_family())
            self.stage.legend = self.stage.legend_home = None
            self.stage.key_words = LEGEND_WORDS
            top = TOP - 0.1
        self.voice_on()
        head = VGroup(
            inline(txt("all", SIZE), Num(pr.n_points, decimals=0, size=SIZE),
                   txt("states", SIZE), txt("projected", SIZE, T.POINTER)),
            inline(txt("keeps", SIZE, T.TEXT),
                   Num(pr.explained_percent[0], decimals=0, size=SIZE, suffix="%"),
                   txt("+", SIZE), Num(pr.explained_percent[1], decimals=0, size=SIZE,
                                       suffix="%"), txt("of the spread", SIZE, T.TEXT)),
        ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        head.move_to([side_x + head.width / 2, top - head.height / 2, 0])
        # the plane's two axes, named as the voice names them
        pc = VGroup(txt("PC1", SIZE, T.TEXT).next_to(plane, DOWN, buff=0.08)
                    .align_to(plane, RIGHT),
                    txt("PC2", SIZE, T.TEXT).rotate(np.pi / 2)
                    .next_to(plane, LEFT, buff=0.08))
        xy = pr.xy.raw
        dots = VGroup(*[Dot(plane.c2p(*xy[c][0]), radius=0.09 - 0.02 * c, color=col)
                        for c, col in enumerate(self.colors)])
        start = math(v.states[0].math.value, PLANE_MATH, T.TEXT)
        back = plane.c2p(*xy[0][0]) - plane.c2p(*xy[0][-1])      # away from the path's end
        back = back / max(1e-6, float(abs(back[0]) + abs(back[1])))
        start.next_to(plane.c2p(*xy[0][0]), DOWN, buff=0.2)   # (round 33: under its dot,
        if start.get_bottom()[1] < plane.get_bottom()[1] or \
                start.get_right()[0] > 7.11 - T.EDGE:              # clear of PC1's name)
            start.next_to(plane.c2p(*xy[0][0]), back, buff=0.2)
        # the grid's scale: one square's length, named, in a corner of the plot no path, dot
        # or axis crosses (with an opaque backing on the grid); it comes in with the grid
        def scale_label(two_lines: bool) -> VGroup:
            parts = [txt("grid square:", SIZE, T.TEXT),
                     Num(pr.step, decimals=0 if step >= 1 else 1, size=SIZE),
                     txt("unit" if step == 1 else "units", SIZE, T.TEXT)]
            if not two_lines:
                return VGroup(inline(*parts))
            return VGroup(parts[0], inline(*parts[1:])).arrange(DOWN, buff=0.08,
                                                               aligned_edge=LEFT)
        o_pt = np.array(plane.c2p(0, 0))
        near_pts = np.array(list(path_points(plane, xy))
                            + [[x, o_pt[1], 0] for x in np.linspace(plane.get_left()[0],
                                                                    plane.get_right()[0], 80)]
                            + [[o_pt[0], y, 0] for y in np.linspace(plane.get_bottom()[1],
                                                                    plane.get_top()[1], 80)])
        # (what it must never cover: the paths' ends, and where PC2's name will stand, right
        # of its axis's upper end)
        end_pts = np.array([plane.c2p(*path[i]) for path in xy for i in (0, -1)]
                           + [[o_pt[0] + dx, plane.get_top()[1] - dy, 0]
                              for dx in np.linspace(0, 1.8, 12) for dy in (0.1, 0.3, 0.5)])
        best = None
        # (round 38: a label on a path's end hides a state: fewest ends (and PC2's name)
        # first, then fewest path points; the middle of the bottom edge too, then, only if every place
        # still covers an end, on two lines: a SmolLM2 draft's plane was hardly wider than
        # "grid square: 100 units", which sat on the ends)
        for two_lines in (False, True):
            scale_bar = scale_label(two_lines)
            for corner in (DR, DL, UR, UL, DOWN):
                scale_bar.move_to(plane.get_corner(corner) - corner * np.array(
                    [0.15 + scale_bar.width / 2, 0.12 + scale_bar.height / 2, 0]))
                hits = (covered(scale_bar, end_pts, pad=0.3),    # (round 40: was 0.12)
                        covered(scale_bar, near_pts, pad=0.3))
                if best is None or hits < best[0]:
                    best = (hits, scale_bar, scale_bar.get_center().copy())
            if best[0][0] == 0:
                break
        scale_bar = best[1].move_to(best[2])
        scale_back = Rectangle(width=scale_bar.width + 0.16, height=scale_bar.height + 0.12,
                               stroke_width=0, fill_color=T.BACKGROUND,
                               fill_opacity=0.9).move_to(scale_bar)
        self._grid_scale = VGroup(scale_back, scale_bar)
        end_label = math(v.states[-1].math.value, PLANE_MATH, T.TEXT)
        ends = VGroup(*[Dot(plane.c2p(*xy[c][-1]), radius=0.09) for c in range(len(dots))])
        out = plane.c2p(*xy[0][-1]) - plane.c2p(*xy[0][0])
        end_label.next_to(ends, RIGHT if out[0] >= 0 else LEFT, buff=0.25)
        if end_label.get_right()[0] > plane.get_right()[0] or \
                end_label.get_left()[0] < plane.get_left()[0]:     # (kept inside the plot)
            end_label.next_to(ends, LEFT if out[0] >= 0 else RIGHT, buff=0.25)
        if overlaps(end_label, scale_bar, pad=0.04):   # (clear of the grid's scale, there
            for d in (UP, DOWN, LEFT, RIGHT):          # from the grid's first frame)
                end_label.next_to(ends, d, buff=0.25)
                if not overlaps(end_label, scale_bar, pad=0.04) and \
                        plane.get_left()[0] <= end_label.get_left()[0] and \
                        end_label.get_right()[0] <= plane.get_right()[0]:
                    break
        # (round 33: X^(0) and X^(L) are named as the dots land, not only when the paths come)
        self._land_labels = VGroup(start, end_label)
        ghosts = self.pca_happening(plane, head, pc, xy)
        pc = self.pc_axes           # the PC1/PC2 axes stay: the plane's frame all beat
        # X^(0)'s label clear of the axes' names (PC1's sits at its axis's right end, where a
        # path may start): the first side of its dot that is
        at0 = plane.c2p(*xy[0][0])
        if any(overlaps(start, m, pad=0.04) for m in pc[2:]):
            to = start.copy()
            for d in (DOWN, back, UP, LEFT, DL, UL, DR, UR, RIGHT):
                to.next_to(at0, d, buff=0.2)
                if not any(overlaps(to, m, pad=0.04) for m in pc[2:]) and \
                        to.get_right()[0] < 7.11 - T.EDGE:
                    break
            self.play(start.animate.move_to(to), run_time=0.4)     # (on screen: it moves)
        # the paths start from X^(0): each sentence's first state, lit (the others stay faint)
        self.play(FadeInPlace(dots), run_time=0.5)
        n = len(v.states)
        marks = VGroup()    # (round 32: only X^(0) and X^(L) are named: labels along the
        # paths crowded the plot's left edge and sat on the lines)
        # "all three banks take nearly the same path, from X zero to X six": the three paths
        # drawn in one stroke while that is said, each dot riding its path's tip
        full = [VMobject().set_points_as_corners([plane.c2p(*p) for p in xy[c]])
                for c in range(len(self.colors))]
        trails = VGroup(*[VMobject(color=col, stroke_width=2.5, stroke_opacity=0.85)
                          .set_points_as_corners([plane.c2p(*xy[c][0])] * 2)
                          for c, col in enumerate(self.colors)])
        self.add(trails)
        self.bring_to_front(dots)

        def grow(mob, alpha: float) -> None:
            for c, (tr, f) in enumerate(zip(trails, full)):
                tr.pointwise_become_partial(f, 0, max(1e-4, alpha))
                dots[c].move_to(tr.get_end())
        self.hold_until_moment(M.SAME_PATH)
        run = max(2.0, min(4.5, 0.9 * (self.said(M.IN_PLANE) - self.time) - 0.8))
        self.play(UpdateFromAlphaFunc(VGroup(trails, dots), grow, rate_func=linear),
                  run_time=run)
        for c, f in enumerate(full):         # (the whole path, exactly)
            trails[c].become(f.copy().set_stroke(self.colors[c], 2.5, 0.85))
            dots[c].move_to(plane.c2p(*xy[c][-1]))
        self.bring_to_front(dots)
        # one pair's ends, in the plane and in the full space (round 32: one comparison, not
        # a table): sentence 1's end to sentence 2's, a segment on the plane, its two lengths
        # in the side column, one row as each is said
        k0 = 0
        seg = Line(dots[0].get_center(), dots[k0 + 1].get_center(),
                   color=self.curve_color(k0), stroke_width=4)
        # (round 33: each distance also a bar, to the grid's scale where the column has room:
        # the plane's segment itself lies down as the first bar, the full space's grows
        # beside it; "1.2 vs 6.6" is seen, not only read)
        room = 7.11 - T.EDGE - side_x - 0.2 - Num(pr.full_end_distances[k0], decimals=1,
                                                   size=SIZE).width
        # (round 34b: the output state's length only when the voice says it; the shipped
        # storyboard no longer does: the shared move's bar gives the scale at the close)
        norm_said = "output state" in str(self.beat.get("narration") or "")
        ku = min(unit, room / max(1e-9, max(float(x) for x in [*pr.full_end_distances,
                                                                pr.output_norm])))
        bar_col = self.curve_color(k0)

        def dist_bar(d, col=None) -> VGroup:
            bar = Line(ORIGIN, RIGHT * max(0.02, float(d) * ku), color=col or bar_col,
                       stroke_width=9, cap_style=CapStyleType.BUTT)
            return VGroup(bar, Num(d, decimals=1, size=SIZE).next_to(bar, RIGHT, buff=0.12))
        rows = VGroup(
            inline(txt("ends of", SIZE, T.TEXT), self.pair_key(k0), txt("apart", SIZE, T.TEXT)),
            txt("in the plane:", SIZE, T.TEXT),
            dist_bar(pr.end_distances[k0]),
            txt("in the full space:", SIZE, T.TEXT),
            dist_bar(pr.full_end_distances[k0]),
            # (the scale of a distance: the length of sentence 1's output state itself)
            tight(inline(txt("length of", SIZE, T.TEXT), self.pair_key(0)[0],
                         txt("'s output state:", SIZE, T.TEXT))),
            dist_bar(pr.output_norm, T.MUTED),
        ).arrange(DOWN, buff=0.13, aligned_edge=LEFT)
        for r in (rows[2], rows[4], rows[6]):
            r[1].next_to(r[0], RIGHT, buff=0.12)
        if not norm_said:       # (its two rows not drawn: the answer comes right under 6.6)
            rows.remove(rows[6], rows[5])
        ans = pr.answer
        where = {"mostly": ("apart: mostly", "off this plane"),
                 "partly": ("apart: partly", "off this plane"),
                 "mostly_in": ("apart: mostly", "in this plane")}[str(ans.off_plane)]
        off = VGroup(*[txt(w, SIZE, T.POINTER) for w in where]).arrange(
            DOWN, buff=0.06, aligned_edge=LEFT)
        off.next_to(rows, DOWN, buff=0.3).align_to(rows, LEFT)
        side = VGroup(rows, off)
        side.move_to(head.get_corner(UL) + side.get_center() - side.get_corner(UL))
        if side.get_right()[0] > 7.11 - T.EDGE:
            side.scale((7.11 - T.EDGE - side.get_left()[0]) / side.width, about_edge=LEFT)
        # "in the plane, sentence two's bank ends 1.2 from sentence one's": the segment between
        # the two ends is drawn, its length beside the words
        self.hold_until_moment(M.IN_PLANE)
        self.sub_caption("How far apart two ends lie: in the plane, in the full space")
        # (round 39: the header line left as PCA was named: the rows take its place)
        self.play(FadeInPlace(rows[0]), FadeInPlace(rows[1]), run_time=0.4)
        self.play(Create(seg), run_time=0.5)
        self.bring_to_front(dots)
        # the segment lies down in the column as the plane's bar, its length beside it
        self.play(TransformFromCopy(seg, rows[2][0]), run_time=0.9)
        self.play(FadeInPlace(rows[2][1]), run_time=0.3)
        # (round 40: the segment and its number lit while the voice gets to the full space)
        if self.said(M.SENTENCE_MOVES) - self.time > 0.8:
            self.play(Indicate_(seg, 1.0), Indicate_(rows[2], 1.0),
                      run_time=min(2.5, 0.92 * (self.said(M.SENTENCE_MOVES) - self.time)))
        # "in the full space, 6.6": its bar grows under the plane's, from the same edge
        self.hold_until_moment(M.SENTENCE_MOVES)
        self.play(FadeInPlace(rows[3]), run_time=0.3)
        self.play(GrowFromEdge(rows[4][0], LEFT), run_time=0.9)
        self.play(FadeInPlace(rows[4][1]), run_time=0.3)
        self.emphasize(rows[2][1], rows[4][1], run_time=0.8)
        # "... where sentence one's output state is itself 10.1 long": its length, a grey bar
        # to the same scale under the two distances
        if norm_said:
            self.hold_until(self.said(M.OFF_PLANE) - 2.6)
            self.play(FadeInPlace(rows[5]), run_time=0.3)
            self.play(GrowFromEdge(rows[6][0], LEFT), run_time=0.9)
            self.play(FadeInPlace(rows[6][1]), run_time=0.3)
        # "what tells the banks apart lies mostly off this plane": said under the bars that
        # show it
        self.hold_until_moment(M.OFF_PLANE)
        # (round 33: the length, read, steps back: the answer is read against 1.2 vs 6.6)
        self.play(FadeInPlace(off), *([DimPlace(rows[5], 0.4), DimPlace(rows[6], 0.4)]
                                      if norm_said else []), run_time=0.4)
        self.emphasize(off, run_time=max(0.8, min(2.5, 0.92 * (
            self.beat_start + self.beat_end(beat) - self.time))))
        # the plane as drawn, and what was read beside it: the closing recalls both
        back = VGroup(plane, ghosts, trails, marks, dots, start, end_label, pc, scale_back,
                      scale_bar)

        class Pca:
            pass
        pca = Pca()
        pca.back, pca.trails, pca.read = back, trails, [side, seg]
        self.stage.pca = pca
        self.stage.other = [back, side, seg]

    def retitle(self, chart, text: str, run_time: float = 0.5, along=(),
                along_time: float | None = None) -> None:
        """The cosine chart's head becomes `text`, in place (left edge kept); the baseline's
        note over the chart is shortened when the two would meet. (Round 33: the old words
        fade out first, then the new ones in: never two lines of glyphs on one spot. Round
        34b: `along` plays with the fading out, over `along_time`: the curves the new words
        name move while the old words go, and the new words come when they are there.)"""
        head = getattr(chart, "head", None)
        if head is None:
            return
        new = txt(text, SIZE, T.TEXT).move_to(head).align_to(head, LEFT)
        note = getattr(chart, "note", None)
        short = None
        if note is not None and any(x.get_fill_opacity() > 0.05
                                    for x in note.family_members_with_points()) and \
                overlaps(new, note, pad=0.5):       # (round 37: or nearly: read as one line)
            short = inline(txt("dashed:", SIZE, T.TEXT), txt("baseline", SIZE, T.TEXT))
            short.move_to(note).align_to(note, RIGHT)
        half = max(0.2, run_time / 2)
        # out: dimmed to nothing in place (a removal mid-chart would break the chart up)
        self.play(DimPlace(head, 0.0), *([DimPlace(note, 0.0)] if short is not None else []),
                  *along, run_time=along_time if along and along_time else half)
        head.become(new)            # (drawn only from the next frame on: at opacity 0 there)
        if short is not None:
            chart.remove(note)
            self.remove(*note.get_family())
        self.play(FadeInPlace(head), *([FadeInPlace(short)] if short is not None else []),
                  run_time=half)
        if short is not None:
            self.adopt(chart, short)
            chart.note = short

    def pulse(self, *ms, run_time: float = 0.8) -> None:
        """What the voice names flashes in the highlight's colour, in place (no box)."""
        self.play(*[Indicate_(m, 1.0) for m in ms], run_time=run_time)

    def beat_answer(self, beat) -> None:
        """The closing says both results, each on its own picture (round 37: it kept only the
        gap's). First the gap's chart, recalled whole at once (round 36: it was redrawn bar
        by bar, a 14-s replay): its last bar and number, then the part of it the last step
        added (a line at the bar before's height across to it, the part above lit) and (if
        said) the word the near sentence shares with sentence 1, underlined. Then the chart
        leaves and the PCA plane comes back whole in its place, the key beside it as there:
        the three paths lit, then the two ends' distances, in the plane and in the full space,
        with "apart: mostly off this plane" (round 40: the split's bars, cut with the split)."""
        self.lead_in()
        st = self.stage
        lg, home = st.legend, st.legend_home
        # (the plane as the projection beat left it, copied before it leaves: recalled below)
        pca = getattr(st, "pca", None)
        recall = None
        if pca is not None:
            recall = (pca.back.copy(), VGroup(*pca.read).copy(),
                      list(pca.back.submobjects).index(pca.trails),
                      (lg.get_corner(UL).copy(), st.key_words)
                      if lg is not None and home is not None else None)
        if lg is not None and home is not None:
            anim, done = self.key_move(LEGEND_WORDS, lambda m: m.move_to(home))
            self.clear(extra=[anim])
            done()
        else:
            self.clear()
        st.legend_home = None
        self.legend()
        v, g = self.v, self.v.gap
        n = len(v.states)
        panel = self.gap_panel(self.content_top() - 0.35)
        shown = self.gap_bars(panel.p, g.values, [0.0] * n)
        row = self.number_row(panel, self.gap_key(), "gap", g.values, GAP, decimals=3)
        band, within = self.gap_band(panel, shown)
        chart = VGroup(panel, band, shown, row, within)
        # (in the lead-in's quiet: the voice starts on the chart it speaks of)
        self.play(FadeInPlace(chart), run_time=0.8)
        self.voice_on()
        # "the same-sense bank ends nearer, by 0.164": the last bar and its number
        self.hold_until_moment(M.CLOSE_END)
        self.emphasize(row[1][-1], extra=[Indicate_(shown[-1], 1.0)], run_time=max(
            1.0, min(2.5, 0.85 * (self.said(M.CLOSE_LAST) - self.time))))
        # "most of it gained on the last step": a line at the bar before's height across to
        # the last bar; the part of the last bar above it lit (plan gap.last_step)
        self.hold_until_moment(M.CLOSE_LAST)
        y0 = float(g.values[-2])
        level = DashedLine(panel.p(n - 2, y0), panel.p(n - 1, y0) + RIGHT * 0.3,
                           dash_length=0.08, color=T.POINTER, stroke_width=2.5)
        part = Line(panel.p(n - 1, y0), panel.p(n - 1, float(g.values[-1])), color=T.POINTER,
                    stroke_width=GAP_BAR, cap_style=CapStyleType.BUTT)
        self.play(Create(level), run_time=0.6)
        self.play(GrowFromEdge(part, DOWN), run_time=0.6)
        later = self.said(M.CLOSE_SHARED) if self.has(M.CLOSE_SHARED) else \
            self.said(M.CLOSE_MOVE)
        self.play(Indicate_(part, 1.0), run_time=max(0.6, min(2.0, 0.85 * (later - self.time))))
        other = [chart, level, part]
        # "but both river sentences contain river": the word underlined in both, the note
        near = g.near.value
        j = v.curves[near].pair[1].value + 1
        if len(g.shared):
            self.hold_until_moment(M.CLOSE_SHARED)
            note = self.panel_note(panel, self.shared_words_note(j))
            words, marks = self.shared_marks(j)
            self.play(FadeInPlace(note), *([Create(marks)] if words else []), run_time=0.6)
            if words:
                self.emphasize(*words, run_time=max(0.8, min(3.5, 0.92 * (
                    self.said(M.CLOSE_MOVE) - self.time) - 0.8)))
            other += [note, marks]
        end = self.beat_start + self.beat_end(beat)
        if recall is None:              # (no plane drawn before: the chart stays)
            self.hold_until(end)
            self.stage.other = other
            return
        back, read, trails, side_at = recall
        # "and in a PCA plot of these states, the three banks take nearly the same path": the
        # chart leaves, the plane comes back whole (the key moving aside as it did there), its
        # three paths lit
        self.hold_until(self.said(M.CLOSE_MOVE) - 0.8)
        moves, done = [], (lambda: None)
        if self.stage.legend is not None and side_at is not None:
            ul, words = side_at
            anim, done = self.key_move(words, lambda m: m.shift(ul - m.get_corner(UL)))
            moves = [anim]
        elif self.stage.legend is not None:     # (a long key left the plane's beat: here too)
            other.append(self.stage.legend)
            self.stage.legend = self.stage.legend_home = None
            self.stage.key_words = LEGEND_WORDS
        self.play(*[FadeOutPlace(m) for m in other], *moves, run_time=0.6)
        done()
        if moves:
            self.stage.legend_home = home
        for m in other:
            self.remove(*m.get_family())
        self.play(FadeInPlace(back), run_time=0.6)
        self.hold_until_moment(M.CLOSE_MOVE)
        self.play(*[Indicate_(t, 1.0) for t in back[trails]],
                  run_time=max(0.8, min(3.0, 0.92 * (self.said(M.CLOSE_OFF) - self.time))))
        # "what sets them apart lies mostly off its plane": one pair's ends, 1.2 apart in the
        # plane against 6.6 in the full space, and the words, back beside it, lit to the end
        self.hold_until_moment(M.CLOSE_OFF)
        self.play(FadeInPlace(read), run_time=0.6)
        if end - self.time > 0.3:
            self.play(Indicate_(read, 1.0), run_time=max(0.3, min(2.5, end - self.time)))
        if end - self.time > 0.1:
            self.hold_until(end)
        self.stage.other = [back, read]

    def pca_happening(self, plane, head, pc, xy) -> VGroup:
        """PCA seen happening, as the voice names each step: every state of every sentence
        lands as a faint dot ("take all 21 states"); a line through their mean turns to the
        direction of most spread (PC1) and a second stands across it (PC2); the grid those two
        span comes in, and one state drops onto each axis (its coordinates: its projection);
        each axis's share of the spread is written as it is said. The states land first as
        seen along two of the model's own coordinates (where they hardly spread) and move onto
        the plane as it is said. The axes stay, quieter (`self.pc_axes`). Returns the dots."""
        v, pr = self.v, self.v.projection
        # the states land first as seen along two of the model's own coordinates (centred, in
        # the plane's units): an arbitrary view, where they hardly spread; PCA then moves every
        # one to its place on the plane of most spread
        rv = pr.raw_view.values if hasattr(pr.raw_view, "values") else pr.raw_view
        seen = [[plane.c2p(float(p[0]), float(p[1])) for p in path] for path in rv]
        ghosts = VGroup(*[Dot(seen[c][s], radius=0.06, color=col, fill_opacity=0.85)
                          for c, col in enumerate(self.colors) for s in range(len(v.states))])
        d0, d1 = pr.raw_view_dims[0], pr.raw_view_dims[1]
        view = inline(txt("seen along dims", SIZE, T.TEXT), Num(d0, decimals=0, size=SIZE),
                      txt("and", SIZE, T.TEXT), Num(d1, decimals=0, size=SIZE),
                      txt("of", SIZE, T.TEXT), Num(pr.d_model, decimals=0, size=SIZE))
        # that view's two coordinate axes, short, through the states' mean; its note under
        # them, on a backing (clear of the vertical one: round 31 had "dim|s")
        o = np.array(plane.c2p(0, 0))
        dims = VGroup(Line(o + LEFT * 0.9, o + RIGHT * 0.9, color=T.MUTED, stroke_width=2),
                      Line(o + DOWN * 0.9, o + UP * 0.9, color=T.MUTED, stroke_width=2))
        # (round 38: in the side column under "all 21 states", not on the grid's lines)
        view.next_to(head[0], DOWN, buff=0.3).align_to(head, LEFT)
        self.keep_inside(view)
        view = VGroup(Rectangle(width=view.width + 0.16, height=view.height + 0.1,
                                stroke_width=0, fill_color=T.BACKGROUND, fill_opacity=0.9)
                      .move_to(view), view)
        self.hold_until_moment(M.CLOUD)
        left = max(2.0, self.said(M.DIRECTIONS) - self.time)
        # the grid and its one-unit scale first: "they hardly spread" is read against it
        scale = getattr(self, "_grid_scale", None)
        self.play(FadeIn(plane),
                  *([FadeIn(scale[0]), FadeInPlace(scale[1])] if scale is not None else []),
                  run_time=0.5)
        self.play(FadeInPlace(head[0][:-1]), LaggedStart(*[FadeInPlace(g) for g in ghosts],
                                                    lag_ratio=0.04),
                  run_time=max(0.8, min(1.2, 0.3 * left)))
        self.play(Create(dims), FadeInPlace(view), run_time=max(0.6, min(1.2, 0.2 * left)))
        self.bring_to_front(ghosts)
        # (the words flash, not their dark backing: a lit backing hid them, round 33)
        # (round 40: the line boxed as it is drawn round, the dots swelling one after another:
        # a white flash on white words and a slow one on the dots were a 4-s still picture)
        t = max(0.6, min(4.5, 0.92 * (self.said(M.DIRECTIONS) - self.time)))
        box = SurroundingRectangle(view[1], color=T.POINTER, buff=0.05, stroke_width=3)
        self.play(Succession(Create(box, run_time=0.5 * t), Uncreate(box, run_time=0.5 * t)),
                  LaggedStart(*[Indicate_(g, 1.5) for g in ghosts], lag_ratio=0.08),
                  run_time=t)
        self.remove(box)
        # the two directions, through the states' mean (the plane's origin: PCA centres)
        o = np.array(plane.c2p(0, 0))
        room = min(o[0] - plane.get_left()[0], plane.get_right()[0] - o[0],
                   plane.get_top()[1] - o[1], o[1] - plane.get_bottom()[1])
        tilt = 35.0                 # the line's first angle, before it turns to PC1
        across = min(o[0] - plane.get_left()[0], plane.get_right()[0] - o[0])
        up = min(plane.get_top()[1] - o[1], o[1] - plane.get_bottom()[1])
        half = max(0.8, 0.9 * min(across, up / np.sin(np.radians(tilt))))
        # (round 37) PC1's name and its share, right of its end, stop short of the side column
        # (a narrower gap now: at 26 "PC1 38%" met its first line)
        reserve = (txt("PC1", SIZE).width + 0.12 + 0.08
                   + Num(pr.explained_percent[0], decimals=0, size=SIZE, suffix="%").width)
        half = max(0.8, min(half, plane.get_right()[0] + SIDE_GAP - 0.2 - reserve - o[0]))
        axis1 = Line(o - half * RIGHT, o + half * RIGHT, color=T.POINTER, stroke_width=3)
        axis1.rotate(np.radians(tilt), about_point=o)
        half2 = max(0.8, 0.9 * up)
        axis2 = Line(o - half2 * UP, o + half2 * UP, color=T.POINTER, stroke_width=3)
        name1 = txt("PC1", SIZE, T.POINTER).next_to(o + half * RIGHT, RIGHT, buff=0.08)
        # (beside its upper end, where it stays: it does not jump ends later)
        name2 = txt("PC2", SIZE, T.POINTER).next_to(o + half2 * UP, RIGHT, buff=0.08)
        name2.align_to(o + half2 * UP, UP)
        name1 = self.pc1_name_at(plane, xy, o, name1, axis2, name2, reserve)
        self.hold_until_moment(M.DIRECTIONS)        # "the two directions ... spread most"
        # the arbitrary view (its axes, its note) leaves first: the turning line would cross
        # the note under the states
        self.play(FadeOutPlace(dims), FadeOutPlace(view), FadeOutPlace(head[0][:-1]),
                  run_time=0.4)
        self.remove(*dims.get_family(), *view.get_family(), *head[0].get_family())
        # what PC1 and PC2 are, in one plain line beside the plane (round 35: the axes were
        # only named), said as they are drawn; it stays while the plane is read (PC1 is
        # found among all the model's directions, not in the page's two shown before)
        # (round 39: the side column holds one statement at a time: this one takes the
        # place of "all 21 states", and the shares take its place; round 38b's column
        # grew to six lines)
        sketch = VGroup(inline(txt("PC1, PC2: of all", SIZE, T.POINTER),
                               Num(pr.d_model, decimals=0, size=SIZE, color=T.POINTER),
                               txt("directions,", SIZE, T.POINTER)),
                        txt("the two of most spread", SIZE, T.POINTER)
                        ).arrange(DOWN, buff=0.14, aligned_edge=LEFT)   # (round 38: 0.06 touched)
        sketch.move_to(head[0].get_corner(UL) + sketch.get_center() - sketch.get_corner(UL))
        self.keep_inside(sketch)
        head[1].move_to(sketch.get_corner(UL) + head[1].get_center() - head[1].get_corner(UL))
        # (no sweep: over a cloud this small a turning line showed nothing, round 31; PC1
        # comes in along the page's x, PC2 across it)
        axis1.rotate(-np.radians(tilt), about_point=o)
        # (paced to the voice until "projects every state": PC1 and the definition's first
        # line, then PC2, then the rest; round 35: the axes came at once and the frame
        # stood still while the sentence went on)
        room = max(1.6, min(6.0, 0.85 * (self.said(M.PLANE) - self.time) - 0.3))
        self.play(Create(axis1), FadeInPlace(sketch[0]), run_time=0.35 * room)
        self.play(FadeInPlace(name1), Create(axis2), run_time=0.4 * room)
        self.play(FadeInPlace(name2), FadeInPlace(sketch[1]), run_time=0.25 * room)
        # "projects every state onto the flat plane": the grid they span; one state (sentence
        # 1's X^(0)) drops onto each axis, its two coordinates
        # "projects every state onto the flat plane": the arbitrary view leaves and every
        # state moves to its coordinates on PC1 and PC2, on the grid those two span
        self.hold_until_moment(M.PLANE)
        n_pts = self.data["projection"]["n_points"]
        self.sub_caption(f"PCA: the plane in which the {n_pts} states spread most")
        self.bring_to_front(ghosts, axis1, axis2, name1, name2)
        self.play(*[g.animate.move_to(plane.c2p(*xy[c][s]))
                    for (c, s), g in zip([(c, s) for c in range(len(self.colors))
                                          for s in range(len(v.states))], ghosts)],
                  run_time=1.6)
        x, y = xy[0][0]
        at = np.array(plane.c2p(x, y))
        feet = [np.array(plane.c2p(x, 0)), np.array(plane.c2p(0, y))]
        drops = VGroup(*[DashedLine(at, f, dash_length=0.07, color=T.TEXT, stroke_width=2)
                         for f in feet])
        marks = VGroup(*[Dot(f, radius=0.06, color=T.TEXT) for f in feet])
        lands = getattr(self, "_land_labels", VGroup())
        for lab in lands:           # (clear of the axes' names where they stand now)
            if any(overlaps(lab, m, pad=0.04) for m in (name1, name2)):
                lab.shift(DOWN * 0.35)
        n_s = len(v.states)
        firsts = [ghosts[c * n_s] for c in range(len(self.colors))]
        lasts = [ghosts[c * n_s + n_s - 1] for c in range(len(self.colors))]
        self.play(Create(drops), FadeInPlace(marks), Indicate_(ghosts[0]),
                  *[FadeInPlace(m) for m in lands],
                  *[Indicate_(g, 1.6) for g in firsts + lasts], run_time=1.0)
        self.play(FadeOutPlace(drops), FadeOutPlace(marks), run_time=0.4)
        self.remove(*drops.get_family(), *marks.get_family())
        # each axis's share of the spread, as it is said
        share = head[1]
        # "keeps 33% of the spread" first, its words right after the number (no hole where
        # PC2's share will go); they step right to make room as PC2's share is said
        home = share[-1].get_center().copy()
        share[-1].align_to(share[2], LEFT)
        # (round 35) each axis keeps its share beside its name: read off the plane later too
        pcts = [Num(pr.explained_percent[i], decimals=0, size=SIZE, color=T.POINTER,
                    suffix="%").next_to(nm, RIGHT, buff=0.12) for i, nm in enumerate((name1, name2))]
        self.hold_until_moment(M.AXES)
        self.play(FadeOutPlace(sketch), run_time=0.3)
        self.remove(*sketch.get_family())
        self.play(FadeInPlace(share[0]), FadeInPlace(share[1]), FadeInPlace(share[-1]),
                  run_time=0.4)
        # (round 38: each axis's share comes in beside its name as both are boxed; a copy
        # flying from the column crossed its lines)
        self.emphasize(name1, share[1], run_time=max(0.6, min(2.5, 0.8 * (self.said(M.PC2)
                                                                          - self.time))),
                       extra=[FadeInPlace(pcts[0])])
        self.hold_until_moment(M.PC2)
        self.play(share[-1].animate.move_to(home), run_time=0.35)
        self.emphasize(name2, share[3], run_time=0.7,
                       extra=[FadeInPlace(share[2]), FadeInPlace(share[3]),
                              FadeInPlace(pcts[1])])
        name1, name2 = VGroup(name1, pcts[0]), VGroup(name2, pcts[1])
        self.remove(*pcts)
        self.add(name1, name2)
        # "... the rest lies off the plane": the two shares' sum kept, the rest off it
        kept = VGroup(inline(txt("kept together:", SIZE, T.TEXT),
                             Num(pr.kept_percent, decimals=0, size=SIZE, suffix="%")),
                      txt("the rest lies off the plane", SIZE, T.POINTER)
                      ).arrange(DOWN, buff=0.14, aligned_edge=LEFT)
        kept.next_to(share, DOWN, buff=0.1).align_to(share, LEFT)
        self.keep_inside(kept)
        self.play(FadeInPlace(kept[0]), run_time=0.4)
        # ("the rest lies off the plane": that line comes as it is said, and is lit)
        self.play(FadeInPlace(kept[1]), run_time=0.4)
        self.emphasize(kept[1], run_time=max(0.6, min(2.0, 0.85 * (
            self.said(M.SAME_PATH) - 0.7 - self.time))))
        self.hold_until(self.said(M.SAME_PATH) - 0.7)
        share = VGroup(share, kept)
        # the axes stay, quieter, with their names: the frame the paths are read in; the
        # shares have been said and leave (the side column keeps only what is read next)
        # PC1 reaches back across the plot (it stopped short of the X^(0) states); PC2's name
        # beside its upper end, where it was named (the positive end; the state labels drawn
        # later step aside)
        # (round 40: the line grows leftwards only, to the plot's left edge; its name stays
        # where it was named, at its right end: moved along the longer line it jumped into
        # the middle of the plot, onto the paths)
        a1 = Line(np.array([plane.get_left()[0], o[1], 0]), axis1.get_end())
        to1 = name1.copy()
        to2 = name2.copy()
        self.play(axis1.animate.put_start_and_end_on(a1.get_start(), a1.get_end())
                  .set_stroke(opacity=0.55), axis2.animate.set_stroke(opacity=0.55),
                  name1.animate.move_to(to1), name2.animate.move_to(to2),
                  ghosts.animate.set_opacity(0.35), FadeOutPlace(share), run_time=0.6)
        self.remove(*share.get_family())
        self.pc_axes = VGroup(axis1, axis2, name1, name2)
        return ghosts

    def pc1_name_at(self, plane, xy, o, name1, axis2, name2, reserve: float):
        """(round 40) PC1's name where it stays all beat, chosen before it is first shown:
        over or under PC1's line (the plot's width at o's height), the rightmost place that
        `reserve` (its name and share) keeps clear of the paths, the state labels and PC2's
        line and name, else the one touching fewest (round 39 moved it there after the
        paths came: a jump into the plot; round 40's first pass kept it at its first place,
        where the paths from X^(0) crossed it)."""
        pts = list(path_points(plane, xy))
        pts += [p for lab in getattr(self, "_land_labels", VGroup())
                for p in (lab.get_center(), *[lab.get_corner(d) for d in (UL, UR, DL, DR)])]
        pts += [np.array(axis2.point_from_proportion(t)) for t in np.linspace(0, 1, 60)]
        pts += [name2.get_corner(d) for d in (UL, UR, DL, DR)] + [name2.get_center()]
        pts = np.array(pts)
        x_lo, x_hi = plane.get_left()[0], plane.get_right()[0]
        probe = Rectangle(width=reserve, height=name1.height)
        best = None
        for f in np.linspace(1.0, 0.0, 11):         # (rightmost first: by its line's end)
            for side in (UP, DOWN):
                probe.move_to([0, o[1], 0]).next_to(np.array([0, o[1], 0]), side, buff=0.08)
                probe.set_x(min(x_hi - 0.08 - reserve / 2,
                                max(x_lo + 0.08 + reserve / 2, x_lo + f * (x_hi - x_lo)
                                    - reserve / 2)))
                hits = covered(probe, pts, pad=0.06)
                if best is None or hits < best[0]:
                    best = (hits, probe.get_left()[0], probe.get_y())
            if best[0] == 0:
                break
        return name1.move_to([best[1] + name1.width / 2, best[2], 0])

    def gap_panel(self, top: float) -> CosineChart:
        """The gap's own chart over the states, its plot's top at `top` (in the cosine chart's
        place): its y range the plan's (the x axis at zero), room under it for the one row of
        numbers."""
        g = self.v.gap
        jn, jf = (self.v.curves[k].pair[1].value + 1 for k in (g.near.value, g.far.value))
        name = txt(f"gap = cos(1,{jn}) − cos(1,{jf})", NOTE_SIZE, T.TEXT)
        top -= name.height + 0.14
        height = max(1.6, min(3.2, top - (BOTTOM + BELOW_AXIS)))
        panel = CosineChart(self.v, top, height, y_range=g.y_range.values,
                            y_ticks=list(g.y_ticks))
        # the y axis (its line, tick labels) steps left of X^(0), so X^(0)'s bar stands clear
        # of it; the grid lines and the zero line reach back to it
        pad = 0.3
        panel.ax.axes.y_axis.shift(LEFT * pad)
        panel.ax.y_labels.shift(LEFT * pad)
        # (round 33: Axes.c2p adds the y axis's own offset, so with it moved every point
        # came out `pad` to the left, X^(0)'s bar on the axis line: points are put back)
        at = panel.p
        panel.p = lambda s, value, at=at: at(s, value) + RIGHT * pad
        x0 = panel.ax.axes.y_axis.get_center()[0]
        for gl in panel.ax.grid:
            gl.put_start_and_end_on(np.array([x0, gl.get_start()[1], 0]), gl.get_end())
        zero = Line(np.array([x0, panel.p(0, 0)[1], 0]), panel.p(len(self.v.states) - 1, 0),
                    color=T.MUTED, stroke_width=2)
        # the axis says what it measures: the near sentence's cosine minus the far one's
        # (round 33: "3 minus 2" read as sentences, not as the pairs' cosines)
        # (round 39: a horizontal title over the plot, left, at the notes' size: rotated on two
        # lines left of the ticks it read as 12 px; the plot gives up its height)
        name.next_to(panel.ax.axes, UP, buff=0.14).align_to(panel.ax.y_labels, LEFT)
        panel.add(zero, name)
        panel.zero, panel.name = zero, name
        return panel

    def gap_bars(self, p, vals_near, vals_far, width: float = GAP_BAR) -> VGroup:
        """One bar per state from the far curve's value to the near one's on chart point map
        `p` (the gap; standing on zero when `vals_far` are zeros)."""
        return VGroup(*[Line(p(s, float(vals_far[s])), p(s, float(vals_near[s])), color=GAP,
                             stroke_width=width, cap_style=CapStyleType.BUTT)
                        for s in range(len(self.v.states))])

    def gap_caps(self, p, vals_near, vals_far, half: float = 0.16) -> VGroup:
        """(round 40) A short crossbar at both ends of every gap bar between the curves, `half`
        wide each side: on the 0-1 cosine axis a bar of 0.02 is a few px tall, the two caps
        keep it in sight (and its length readable as the bars rise with the curves)."""
        return VGroup(*[VGroup(*[Line(p(s, float(y)) + LEFT * half, p(s, float(y)) + RIGHT * half,
                                      color=GAP, stroke_width=3)
                                 for y in (vals_far[s], vals_near[s])])
                        for s in range(len(self.v.states))])

    def gap_band(self, panel: CosineChart, shown: VGroup):
        """The band round zero over the states where the gap stays small (plan: gap.small,
        up to gap.together), and its label, placed clear of the later bars, the tick labels
        and the axis's name: (band, label)."""
        g = self.v.gap
        n = len(self.v.states)
        tg = g.together.value
        lo, hi = panel.p(-0.06, -float(g.small)), panel.p(tg + 0.3, float(g.small))
        band = Rectangle(width=hi[0] - lo[0], height=hi[1] - lo[1], stroke_width=0,
                         fill_color=T.POINTER, fill_opacity=0.1)
        band.move_to((lo + hi) / 2)
        # the band says what it is: X^(0)'s own gap, which position alone makes there
        # (said only when the band is X^(0)'s gap: a teacher's sentences may have a wider
        # early gap than X^(0)'s, and then the band is just that width)
        at_start = abs(float(g.small) - abs(float(g.first))) < 1e-9
        # (short: at 22 px a longer line reached the first bar after the band)
        within = (tight(inline(Num(g.small, decimals=3, size=SIZE, color=T.POINTER, prefix="±"),
                               txt(": gap at the start", SIZE, T.POINTER))) if at_start else
                  Num(g.small, decimals=3, size=SIZE, color=T.POINTER, prefix="±"))
        # (clear of the bars to its right, the tick labels and the axis's name: over the
        # band's span, under it, or right of it; the first such place, else the first one)
        later = [shown[s] for s in range(tg + 1, n)]
        keep_off = [*panel.ax.y_labels, *later, panel.name]
        axis_x = panel.ax.axes.get_left()[0]
        places = []
        for d, edge in ((UP, LEFT), (DOWN, LEFT), (UP, RIGHT), (DOWN, RIGHT)):
            within.next_to(band, d, buff=0.1).align_to(band, edge)
            if edge is LEFT:        # (round 33: clear of the axis and X^(0)'s bar)
                within.shift(RIGHT * (shown[0].get_right()[0] + 0.2 - within.get_left()[0]))
            if within.get_left()[0] < axis_x:           # never left of the axis
                within.shift(RIGHT * (axis_x - within.get_left()[0]))
            places.append(within.get_center().copy())
            if not any(touching(within, m) for m in keep_off):
                break
        else:
            within.move_to(places[0])
        return band, within

    def to_gap_panel(self, chart: CosineChart, panel: CosineChart, shown: VGroup,
                     run_time: float) -> None:
        """The cosine chart becomes the gap's chart: its curves, tick labels and notes fade,
        its axes and X^(l) labels move to the gap chart's, and the bars `shown` move with
        them, each now standing on zero (round 35: the frame and the bars keep their identity;
        the chart no longer faded out under floating bars). Then the gap chart's own tick
        labels, zero line and axis name come in."""
        n = len(self.v.states)
        moving = (chart.ax, chart.x_math)
        out = [m for m in chart.submobjects if not any(m is x for x in moving)]
        out += [chart.ax.grid, chart.ax.y_labels]
        # (round 37) what leaves is gone before the axes move: mid-move, the old grid and
        # tick labels faded under the new axis for a second (two axes on one spot)
        self.play(*[DimPlace(m, 0.0) for m in out], run_time=min(0.5, 0.35 * run_time))
        self.play(Transform(chart.ax.axes, panel.ax.axes),
                  Transform(chart.x_math, panel.x_math),
                  Transform(shown, self.gap_bars(panel.p, self.v.gap.values, [0.0] * n)),
                  run_time=max(0.6, run_time - min(0.5, 0.35 * run_time)))
        self.remove(*chart.get_family())
        self.add(panel)
        self.bring_to_front(shown)
        new = [panel.ax.grid, panel.ax.y_labels, panel.zero, panel.name]
        self.play(*[LightUp(m) for m in new], run_time=0.4)

    def says_times(self, moment: str) -> bool:
        """Whether the sentence holding `moment` says the gap as a multiple ("twice",
        "times")."""
        cues = [str(c.get("text", "")) for c in self.beat.get("cues") or []] or \
            re.split(r"(?<=[.!?])\s+(?=[A-Z])", str(self.beat.get("narration") or ""))
        at = (self.beat.get("moments") or {}).get(moment) or {}
        k = at.get("cue") if isinstance(at, dict) else None
        text = cues[k] if isinstance(k, int) and k < len(cues) else ""
        return any(w in text for w in ("twice", "times"))

    def times_line(self, panel: CosineChart, k: int, s0: int, s1: int) -> VGroup:
        """A dashed line at `k` times the band's width (plan gap.small) over the bars of
        states s0..s1, named "×k" at its right end: (line, name)."""
        y = k * float(self.v.gap.small)
        a, b = panel.p(s0 - 0.38, y), panel.p(s1 + 0.38, y)
        line = DashedLine(a, b, dash_length=0.08, color=T.POINTER, stroke_width=2.5)
        name = txt(f"×{k}", SIZE, T.POINTER).next_to(line, RIGHT, buff=0.08)
        return VGroup(line, name)

    def panel_note(self, panel: CosineChart, *parts) -> VGroup:
        """One line over the gap's chart, right-aligned to it (clear of its axis's name)."""
        m = inline(*parts)
        m.next_to(panel.name, UP, buff=0.12).align_to(panel.ax.axes, RIGHT)
        room = panel.ax.axes.get_left()[0] + 0.9
        if m.get_left()[0] < room:
            m.shift(RIGHT * (room - m.get_left()[0]))
        if m.get_right()[0] > 7.11 - T.EDGE:     # (a long word: never off the frame)
            m.scale((7.11 - T.EDGE - room) / m.width).move_to(
                [room + (7.11 - T.EDGE - room) / 2, m.get_y(), 0])
        return m

    def shared_words_note(self, j: int) -> VGroup:
        """'1 and j both contain "river": nearer by the word?' (plan: gap.shared)."""
        shared = [w.value for w in self.v.gap.shared]
        return txt(f"1 and {j} both contain " + ", ".join(f'"{w}"' for w in shared[:2])
                   + ": nearer by the word?", SIZE, T.TEXT)

    def shared_marks(self, j: int):
        """The words sentences 1 and j share (plan: gap.shared) in the key, and their
        underlines in each sentence's colour (round 34: a box flashed round them was missed):
        (glyphs, underlines), both empty when the key does not show them."""
        words = [(k, gl) for w in [w.value for w in self.v.gap.shared][:2] for k in (0, j - 1)
                 for gl in [self.word_glyphs(k, w)] if gl is not None]
        marks = VGroup(*[Underline(gl, buff=0.04, color=self.colors[k], stroke_width=4)
                         for k, gl in words])
        return [gl for _, gl in words], marks

    def gap_key(self) -> VGroup:
        """The gap row's key: a bar like the gap's own."""
        return VGroup(Rectangle(width=0.09, height=0.24, stroke_width=0, fill_color=GAP,
                                fill_opacity=1))

    def beat_gap(self, beat) -> None:
        self.lead_in()
        # (round 36: no pause after the jump to 0.16: "its widest" is drawn instead)
        # on the cosine chart first (the baseline beat's, or built now): the bars between the
        # two curves, moved onto the adjusted ones (the baseline cancels); then the gap alone on
        # a chart of its own, the caveats one line at a time over it
        self.clear(keep_chart=True)
        # the stage is cleared for the gap, in the quiet before the voice (round 36: a still
        # frame there): the baseline's line, its curve and every row of numbers leave; the
        # bars' own row comes with the gap's chart
        chart = self.stage.chart
        gone = [] if chart is None else [getattr(chart, "note", None),
                                         chart.curves.get("baseline"),
                                         getattr(chart, "box", None), *chart.rows.values()]
        gone = [m for m in gone if m is not None]
        if gone:
            quiet = self.cue_at(0) - self.time if self.beat.get("cues") else 0.0
            self.play(*[DimPlace(m, 0.0) for m in gone],
                      run_time=max(0.4, min(self.LEAD_IN, quiet - 0.1)))
        self.voice_on()
        self.legend()
        chart = self.raw_curves(paced=False)
        v, g = self.v, self.v.gap
        near, far = g.near.value, g.far.value
        n = len(v.states)
        adjusted = f"adj{near}" in chart.curves and f"adj{far}" in chart.curves

        # (thin on the curves, round 32: wide slabs between two curves read as blocks)
        # (round 35: drawn between the curves that are lit, the adjusted ones when the
        # baseline beat left them: nothing changes brightness to make room for the bars)
        on = [v.curves[k].adjusted if adjusted else raw(v.curves[k]) for k in (near, far)]
        shown = self.gap_bars(chart.p, on[0], on[1], GAP_BAR_THIN)
        caps = self.gap_caps(chart.p, on[0], on[1])
        self.hold_until_moment(M.GAP_DEFINED)
        # "sentence three's cosine, ..., minus sentence two's, ..., a bar at every state": the
        # near curve lit, then the far one, then each bar grows from the far curve up to the
        # near one
        lit = "adj" if adjusted else "raw"
        # (round 36) each curve lit as it is named, then the bars grow, state by state, as "a
        # bar at every state" is said (round 35: they grew slowly from the start, seen 5 s
        # after those words), and flash while the voice goes on
        # (round 39: the bars grow while "..., a bar at every state" is said, one state after
        # another, from the far curve's naming on: round 38b's were seen a second after it)
        for k, name, nxt in ((near, M.NEAR_CURVE, M.FAR_CURVE), (far, M.FAR_CURVE, M.BARS)):
            self.hold_until(self.said(name) - 0.1)
            self.play(Indicate_(chart.curves[f"{lit}{k}"], 1.0),
                      run_time=max(0.5, min(1.5 if k == near else 0.8,
                                            0.85 * (self.said(nxt) - self.time))))
        # (round 40: each bar with its two caps, the caps first: a short bar is seen)
        self.play(LaggedStart(*[Succession(FadeIn(cp, run_time=0.3), Create(b))
                                for b, cp in zip(shown, caps)], lag_ratio=0.6),
                  run_time=max(2.0, min(3.5, self.said(M.BARS) + 1.4 - self.time)))
        self.remove(*shown, *caps)      # (drawn one by one: on screen as one group)
        self.add(shown, caps)
        self.emphasize(shown, caps, run_time=self.stretch(M.CANCELS, 0.8, cap=1.5))
        self.hold_until_moment(M.CANCELS)
        if adjusted:
            # "the baseline cancels: add it back, both curves rise by it, and the bars keep
            # their length": every adjusted curve rises by the baseline onto its raw ghost, the
            # bars with it, and the axis's words say raw cosines again as they land
            rise = [Transform(chart.curves[f"adj{k}"],
                              self.curve_shape(chart, raw(c), self.curve_color(k)))
                    for k, c in enumerate(v.curves) if f"adj{k}" in chart.curves]
            self.retitle(chart, "cosine", run_time=0.5,
                         along=[*rise, Transform(shown, self.gap_bars(
                             chart.p, raw(v.curves[near]), raw(v.curves[far]), GAP_BAR_THIN)),
                                Transform(caps, self.gap_caps(chart.p, raw(v.curves[near]),
                                                              raw(v.curves[far])))],
                         along_time=1.6)
            self.emphasize(shown, caps, run_time=max(0.8, min(2.0, 0.45 * (
                self.said(M.TOGETHER) - self.time))))
        # (the caps leave: on the gap's own chart the bars stand on zero, wide)
        self.play(FadeOut(caps), run_time=0.3)
        self.remove(*caps.get_family())
        # the gap alone: the chart becomes the gap's own, the bars standing on zero
        panel = self.gap_panel(chart.ax.axes.get_top()[1] - 0.2)   # (clear of the key)
        self.to_gap_panel(chart, panel, shown,
                          run_time=max(1.0, self.stretch(M.TOGETHER, 1.4, cap=1.8) - 0.6))
        self.stage.chart = None
        row = self.number_row(panel, self.gap_key(), "gap", g.values, GAP, decimals=3)
        self.play(FadeInPlace(row[0]), run_time=0.4)
        # "up to X 2 within 0.04 of zero": a band that wide round zero, numbers state by state
        self.hold_until_moment(M.TOGETHER)
        tg = g.together.value
        band, within = self.gap_band(panel, shown)
        self.play(FadeIn(band), FadeInPlace(within), run_time=0.6)
        self.bring_to_front(shown)
        per = self.pace(self.said(M.OPENS) - 0.5, tg + 1, 0.4, cap=1.8)
        for s in range(tg + 1):
            self.play(FadeInPlace(row[1][s]), Indicate_(shown[s], 1.0), run_time=per)
        self.hold_until_moment(M.OPENS)
        # (round 37) "from X three to X five it is wider, but under twice that": their numbers,
        # then a line at twice the band's width over their bars; "at the output it jumps to
        # 0.164, over four times that": its number, then a line at four times the width under
        # its top (relations seen, where five numbers were read out); each line only where the
        # voice says the multiple (plan gap.mid_times, gap.last_times)
        mid = range(tg + 1, n - 1)
        said_mid = self.says_times(M.OPENS)
        per = self.pace(self.said(M.GAP_END) - (1.2 if said_mid else 0.0),
                        len(mid), 0.5, cap=0.9)
        for s in mid:
            self.play(FadeInPlace(row[1][s]), Indicate_(shown[s], 1.0), run_time=per)
        times = VGroup()
        if said_mid and len(mid) and int(g.mid_times) > 0:
            times.add(self.times_line(panel, int(g.mid_times), mid[0], mid[-1]))
            self.play(Create(times[-1][0]), FadeInPlace(times[-1][1]), run_time=0.8)
            self.bring_to_front(shown)
        self.hold_until_moment(M.GAP_END)
        self.play(FadeInPlace(row[1][-1]), Indicate_(shown[-1], 1.0), run_time=0.5)
        if self.says_times(M.GAP_END) and int(g.last_times) > 0:
            times.add(self.times_line(panel, int(g.last_times), n - 1, n - 1))
            self.play(Create(times[-1][0]), FadeInPlace(times[-1][1]), run_time=0.6)
        # ("... it jumps to 0.164": lit until "its widest")
        self.play(Indicate_(shown[-1], 1.0), Indicate_(row[1][-1]),
                  run_time=max(0.6, min(2.5, 0.9 * (self.said(M.WIDEST) - self.time))))
        # (round 36) "its widest": a dashed line from the last bar's top back over every
        # other bar, all under it (a 5-s still picture before); (round 37) not where the
        # multiples' lines are drawn: the last bar is lit instead
        level = None
        if len(times):
            self.hold_until(self.said(M.WIDEST) - 0.1)
            self.play(Indicate_(shown[-1], 1.0), run_time=1.0)
        elif int(g.widest) == n - 1:
            self.hold_until(self.said(M.WIDEST) - 0.1)
            top = shown[-1].get_top()[1]
            level = DashedLine([shown[-1].get_center()[0], top, 0],
                               [panel.ax.axes.y_axis.get_center()[0], top, 0],
                               dash_length=0.1, color=GAP, stroke_width=2.5)
            self.play(Create(level), run_time=1.0)
        # the note line over the panel: the gap's answer, then one caveat at a time
        notes = []

        def line(*parts) -> VGroup:
            return self.panel_note(panel, *parts)

        def swap(m) -> None:                # out, then in: never two lines on one spot
            if notes:
                self.play(*[FadeOutPlace(o) for o in notes], run_time=0.3)
                for o in notes:
                    self.remove(*o.get_family())
            self.play(FadeInPlace(m), run_time=0.35)
            notes[:] = [m]
        if len(times):          # (read: they leave with the answer's note)
            notes.append(times)
        if float(g.last) > 0:   # the near sentence's bank ends nearer sentence 1's
            jn = v.curves[near].pair[1].value + 1
            word = v.contexts[0].focus.value.partition("#")[0]
            # (words only: a raised X^(L) would reach the key's last line above)
            ends = line(txt(f"at the output: sentence {jn}'s {word} ends nearer sentence 1's",
                            SIZE, T.TEXT))
            swap(ends)
            if level is not None:           # (it leaves with the note, for the caveats)
                notes.append(level)
            self.emphasize(shown[-1], run_time=max(0.6, min(2.5, 0.85 * (
                self.said(M.CAVEAT) - self.time - 0.7))))
        self.hold_until_moment(M.CAVEAT)
        pair = line(txt("one pair of sentences per sense", SIZE, T.TEXT))
        swap(pair)
        self.emphasize(pair, run_time=self.stretch(M.SHARED, 0.9, cap=3.0), buff=0.03)
        self.hold_until_moment(M.SHARED)
        shared = [w.value for w in g.shared]
        j = v.curves[near].pair[1].value + 1
        if shared:
            swap(line(self.shared_words_note(j)))
            words, marks = self.shared_marks(j)
            if words:
                self.play(Create(marks), run_time=0.6)
                # (lit up to the next caveat: round 36, a still frame while it was said)
                self.emphasize(*words, run_time=self.stretch(M.POSITION, 0.9, cap=6.0))
                self.hold_until_moment(M.POSITION)
                self.play(FadeOutPlace(marks), run_time=0.3)
                self.remove(*marks.get_family())
            else:
                self.emphasize(self.stage.legend[0], self.stage.legend[j - 1],
                               run_time=self.stretch(M.POSITION, 0.9, cap=3.0))
        self.hold_until_moment(M.POSITION)
        # a position other than the reference's lowers the near curve's start: against the gap
        if float(raw(v.curves[near])[0]) < float(raw(v.curves[far])[0]):
            # (round 37: short, the positions in their sentences' colours: at 26 the long
            # line ran off the frame)
            name, at = self.place_of()
            pos = line(txt(name, SIZE, T.TEXT),
                       Num(at(v.contexts[j - 1]), decimals=0, size=SIZE,
                           color=self.curve_color(near)),
                       txt("vs", SIZE, T.TEXT),
                       Num(at(v.contexts[0]), decimals=0, size=SIZE, color=self.colors[0]),
                       txt(": gap below 0", SIZE, T.TEXT))
            tight(pos)
            swap(pos)
            end = self.beat_start + self.beat_end(beat)
            # the negative X^(0) bar and its number, boxed
            self.emphasize(shown[0], row[1][0],
                           run_time=max(0.8, min(1.6, 0.6 * (end - self.time))))
        end = self.beat_start + self.beat_end(beat)
        if end - self.time > 0.6:           # the last bar again, only in the time left
            self.play(Indicate_(shown[-1], 1.0), Indicate_(row[1][-1]),
                      run_time=min(4.0, 0.85 * (end - self.time)))
        self.stage.other = [VGroup(panel, band, within, shown, *notes), row]


class LightUp(DimPlace):
    """A part of a group already on screen comes in from nothing to its own opacity, in place
    (a FadeIn of the part would add it to the scene on its own and break the group up)."""

    start = 0.0

    def __init__(self, mobject, **kwargs):
        super().__init__(mobject, 1.0, **kwargs)


def math_ceil(x: float) -> int:
    import math as _m
    return int(_m.ceil(x))


def covered(m, points, pad: float = 0.0) -> int:
    """How many of `points` (an [n, 3] array) lie inside `m`'s box grown by `pad`."""
    if len(points) == 0:
        return 0
    l, r = m.get_left()[0] - pad, m.get_right()[0] + pad
    b, t = m.get_bottom()[1] - pad, m.get_top()[1] + pad
    x, y = points[:, 0], points[:, 1]
    return int(np.sum((x > l) & (x < r) & (y > b) & (y < t)))


def side_of(plane, xy, s: int):
    """Which side of the reference path's state s its label goes: away from the other
    sentences' states at s (perpendicular-ish, as a unit direction)."""
    here = np.array(plane.c2p(*xy[0][s]))
    others = np.mean([plane.c2p(*xy[c][s]) for c in range(1, len(xy))], axis=0)
    away = here - others
    if float(np.linalg.norm(away[:2])) < 1e-3:
        return LEFT
    away[2] = 0.0
    return away / float(np.linalg.norm(away))


def path_points(plane, xy, step: float = 0.03) -> np.ndarray:
    """Points along every path `xy` (sentences' lists of plane coordinates) drawn on `plane`,
    about `step` scene units apart on each segment, ends included."""
    out = []
    for path in xy:
        pts = [np.array(plane.c2p(*p), dtype=float) for p in path]
        for a, b in zip(pts[:-1], pts[1:]):
            n = 2 + int(np.hypot(*(b - a)[:2]) / step)
            out += [a + (b - a) * t for t in np.linspace(0, 1, n)]
    return np.array(out).reshape(-1, 3)


def clip_segment(a, b, lo, hi):
    """The part of segment a-b inside the box from `lo` to `hi` (x and y), as (start, end),
    or None when it misses the box (Liang-Barsky)."""
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    d = b - a
    t0, t1 = 0.0, 1.0
    for i in (0, 1):
        for p, q in ((-d[i], a[i] - lo[i]), (d[i], hi[i] - a[i])):
            if abs(p) < 1e-12:
                if q < 0:
                    return None
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
    if t0 > t1:
        return None
    return a + t0 * d, a + t1 * d


def raw(view):
    """A view's field named `raw` (the name `View.raw` itself gives the plain mapping)."""
    return view.__getattr__("raw")


def Indicate_(m, scale: float = 1.15):
    """A bar or number flashes to the highlight's width as it is named (a bar standing on
    zero flashes its colour only: scaled about its middle it would reach below zero)."""
    from manim import Indicate
    return Indicate(m, color=T.POINTER, scale_factor=scale)
