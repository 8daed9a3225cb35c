"""'bank', layer by layer: one word in several sentences, and whether it ends nearer the word
of the same sense than the word of the other sense.

Sentence 0 is the reference; each other sentence k gives a curve cos(bank_0, bank_k) over the
states X^(0) (the embedding) ... X^(L) (the output), in sentence k's colour.

Every beat gives its analysis the frame: it clears what the beat before drew (the sentences'
key under the title stays where the colours matter) and builds what it shows itself, so any
arrangement of beats renders. What beats share is a `Stage` the handlers read and fill.

Beats (each optional, in storyboard order):
- `similarity`: the raw cosine curves, point by point, a number under every state.
- `baseline`: the baseline (mean cosine of unrelated tokens) drawn dashed; each curve is then
  moved down by it (raw - baseline), its numbers turning into the adjusted ones.
- `gap`: the curve ending highest minus the curve ending lowest, state by state, as thin bars
  between the raw curves, which move down onto the adjusted ones with the bars (the baseline
  cancels), then onto a chart of their own standing on zero, with a row of numbers; then the
  caveats.
- `projection`: every state first as seen along two of the model's own coordinates, then moved
  onto one PCA plane (axes PC1, PC2 kept on screen, a grid square of one unit), the three paths
  drawn in one stroke (X^(0) and X^(L) named); how far one other end lies from the reference's
  end, in the plane and in the full space.
- `split` (needs `projection` before it: it draws on its plane): the move split into the arrow
  the sentences share and each one's own, to scale; each own arrow beside its shadow on the
  plane; then every other end's distance from the reference's end in the full space.
  (Round 32 cut the probe beat, a second analysis on other nouns: docs/chapter.md 4.6.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from manim import (DL, DOWN, DR, LEFT, ORIGIN, RIGHT, UL, UP, UR, Animation, Arc, Arrow, CapStyleType, Create,
                   DashedLine, Dot, SurroundingRectangle,
                   FadeIn, FadeOut, GrowArrow, LaggedStart, Line, MoveAlongPath, NumberPlane,
                   Rectangle,
                   Transform, TransformFromCopy, Underline, UpdateFromAlphaFunc, VGroup, VectorizedPoint,
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

SIZE = 22                       # every label and number, tick labels too (20 read as 12 px)
KEY_SIZE = T.LABEL_SIZE         # 22: the sentences' key, the only key to the colours
MATH = 1.35 * T.TYPE.math_label  # X^(l) tick labels: scripts (70 %) well above the 8 px floor
PLANE_MATH = 1.15 * MATH        # the PCA plane's state labels: larger, read off the paths
PLOT_WIDTH = 9.1
NAME_WIDTH = 2.6                # the row-label column left of the plot
ROW_STEP = 0.36
TOP = 3.05                      # below the title
BOTTOM = -2.95                  # above the caption
GAP = T.PROBE_SENSE             # the gap's bars and numbers: the sense signal, a colour of its
                                # own (round 34b: white was also the shared move's)
GAP_BAR = 14                    # the gap bars' stroke width on their own chart
GAP_BAR_THIN = 6                # ... and between two curves

LABEL_ROOM = 0.7                # left of the PCA plane: its state labels
BIG_KEY = 2.0                   # the opening's key, this much larger than under the title
LEGEND_WORDS = 9                # a longer sentence is shown as a window round its focus word
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
    pca: object | None = None           # the PCA plane's parts, for the split (beat_split)


class CosineChart(VGroup):
    """Axes over the states, X^(l) tick labels, and room for rows of numbers under them."""

    def __init__(self, v: Data, top: float, height: float, width: float = PLOT_WIDTH,
                 y_range=None, y_ticks=None, left: float | None = None, ticks: bool = True):
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
        x_left = -7.11 + T.EDGE + NAME_WIDTH if left is None else left
        self.shift(RIGHT * (x_left - a.get_left()[0]) + UP * (top - a.get_top()[1]))
        self.rows: dict[str, VGroup] = {}
        self.curves: dict[str, VGroup] = {}     # name -> VGroup(dots, segments)
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
        if not big:
            super().emphasize(*ms, buff=buff, run_time=run_time, extra=extra, **kwargs)
            return
        small = [m for m in ms if not any(m is b for b in big)]
        t = run_time if run_time is not None else 0.8
        boxes = VGroup(*[SurroundingRectangle(m, color=T.POINTER, buff=buff, stroke_width=3)
                         for m in small])
        family = self.get_mobject_family_members()
        # (a group made for the call is not on screen: its parts flash, so it is never added
        # as a second copy of them)
        anims = [Indicate_(x, 1.0) for m in big
                 for x in ([m] if any(m is f for f in family) else m.submobjects)]
        if small:
            anims.append(Succession(FadeIn(boxes, run_time=0.5 * t),
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

    def pace(self, t: float, n: int, default: float, cap: float = 1.2) -> float:
        if self.beat.get("cues"):
            return super().pace(t, n, default, cap)
        return max(0.15, min(cap, 0.9 * (t - self.time) / max(1, n))) if t > self.time \
            else default

    def stretch(self, moment: str, default: float, cap: float = 4.0) -> float:
        """Run time that stretches an animation towards the moment `moment` is spoken (so the
        picture keeps moving while the voice gets there); `default` when silent."""
        return max(default, min(cap, 0.85 * (self.said(moment) - self.time)))

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
            rows = VGroup()
            for i, c in enumerate(self.v.contexts):
                word = c.focus.value.partition("#")[0]
                text = window(c.sentence.value, word)
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
            rows.move_to([0, TOP - rows.height / 2, 0])
            st.legend = rows
            if big:                         # large and centred until settle_legend
                st.legend_small = (rows.get_center(), rows.width)
                rows.scale(min(BIG_KEY, (14.22 - 2 * T.EDGE) / rows.width)).move_to(ORIGIN)
            if big:                         # the opening: on the first frame, not faded in
                self.add(rows)
            else:
                self.play(FadeInPlace(rows), run_time=self.quick(0.05, 0.6))
        elif st.legend_home is not None:             # moved aside by a beat: back under the title
            self.play(st.legend.animate.move_to(st.legend_home), run_time=0.6)
            st.legend_home = None
        return st.legend

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
        return self.stage.legend[k][-1], window(c.sentence.value, word), word

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
        # (the chart's "cosine" head and the baseline's note sit above its top)
        return (lg.get_bottom()[1] if lg is not None else TOP) - 0.42

    def pair_key(self, k: int) -> VGroup:
        """Sentence i against sentence j, in words and the sentences' colours ("1 vs 2")."""
        i, j = self.v.curves[k].pair.values
        return inline(txt(f"{i + 1}", SIZE, self.colors[i]), txt("vs", SIZE, T.MUTED),
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
            # adjusted rows replace the raw ones; and the baseline's row
            # (the gap has a chart of its own: no row of it here)
            n_rows = len(self.v.curves) + 1
            height = top - (BOTTOM + 0.6 + ROW_STEP * n_rows)
            g = self.v.gap
            chart = CosineChart(self.v, top, max(1.6, min(3.4, height)),
                                y_range=g.cos_range.values if zoom else None,
                                y_ticks=list(g.cos_ticks) if zoom else None)
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
                                    Num(g.cos_range[0], decimals=1, size=SIZE, color=T.MUTED),
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
        full = txt("axis now full: from 0 to 1", SIZE, T.MUTED)
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

    def number_row(self, chart: CosineChart, key, label: str, values, color,
                   decimals: int = 2) -> VGroup:
        y = chart.next_row_y()
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
        is left until `until`."""
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
                after_first()
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
                # (round 34) "... as the same token at the same position gives the same X
                # zero": the curve waits at X^(0) and the positions come as that is said
                later = k == 0 and M.SAME_POS in (self.beat.get("moments") or {})
                if pos is not None:     # each sentence's position, as the voice names them
                    if later:
                        def first(show=show_positions) -> None:
                            self.hold_until(self.said(M.SAME_POS) - 0.2)
                            show()
                    else:
                        show_positions()
                until = self.said(M.MONEY_END if k == 0 else M.RIVER_END)
            self.draw_curve(chart, f"raw{k}", raw(c), self.curve_color(k), self.pair_key(k),
                            None, until=until, after_first=first)
            if paced:
                self.hold_until_moment(M.MONEY_END if k == 0 else M.RIVER_END)
                ends = VGroup(chart.curves[f"raw{k}"][1][0], chart.curves[f"raw{k}"][1][-1],
                              chart.rows[f"raw{k}"][1][0], chart.rows[f"raw{k}"][1][-1])
                self.emphasize(ends, run_time=1.0)
        return chart

    def position_labels(self, legend: VGroup) -> VGroup:
        """Beside each sentence of the key: the position of its focus word (not yet shown)."""
        x = legend.get_right()[0] + 0.4
        labels = VGroup()
        for i, (row, c) in enumerate(zip(legend, self.v.contexts)):
            lab = inline(txt("position", SIZE, T.TEXT),
                         Num(c.positions[0], decimals=0, size=SIZE, color=self.colors[i]))
            lab.move_to([x + lab.width / 2, row.get_y(), 0])
            labels.add(lab)
        return labels

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
        theta = txt("θ", SIZE, T.MUTED).move_to(mid + np.array([0.12, 0, 0]))
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
                      txt("1: same direction", big, T.MUTED),
                      txt("(lengths drawn equal)", big, T.MUTED)
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
        ends_lab = VGroup(txt("0", big, T.MUTED).next_to(track.get_start(), DOWN, buff=0.12),
                          txt("1", big, T.MUTED).next_to(track.get_end(), DOWN, buff=0.12))
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
            later = self.later_glyphs(k) if both and k == n - 1 else None
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
        y_bot = chart.p(last, 0.36)[1]
        big = VGroup(
            Line([x_mid, y_bot, 0], [x_mid, y_bot + len_m * grow, 0],
                 color=self.curve_color(drop), stroke_width=16, cap_style=CapStyleType.BUTT),
            Line([x_mid + 0.4, y_bot, 0], [x_mid + 0.4, y_bot + len_b * grow, 0],
                 color=T.MUTED, stroke_width=16, cap_style=CapStyleType.BUTT))
        labs = VGroup(
            inline(txt("money fall", SIZE, self.curve_color(drop)),
                   Num(od.raw_fall, decimals=2, size=SIZE, color=self.curve_color(drop))),
            inline(txt("baseline fall", SIZE, T.MUTED),
                   Num(od.baseline_fall, decimals=2, size=SIZE, color=T.MUTED)))
        labs[0].next_to(big[0], LEFT, buff=0.2).align_to(big[0], UP)
        labs[1].next_to(labs[0], DOWN, buff=0.12).align_to(labs[0], RIGHT)
        scale_note = txt(f"both drawn ×{grow:.0f}", SIZE, T.MUTED)
        scale_note.next_to(labs, DOWN, buff=0.12).align_to(labs, RIGHT)
        # (the labels come with the move: they are read as the voice says "most of")
        self.play(Transform(fall, big[0]), Transform(bfall, big[1]), FadeInPlace(labs),
                  FadeInPlace(scale_note), run_time=per + 0.3)
        falls = VGroup(fall, bfall, labs, scale_note)
        self.hold_until_moment(M.SUBTRACT)
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
        f = max(0.6, min(1.0, avail / 3.3))
        self.play(Create(heights), run_time=0.5 * f)
        hangs = [heights.copy() for _ in v.curves]
        self.play(*[Transform(h, offsets(raw(c), c.adjusted)) for h, c in zip(hangs, v.curves)],
                  run_time=0.6 * f)
        moves, parts = [], []
        for k, c in enumerate(v.curves):
            name, color = f"raw{k}", self.curve_color(k)
            segs, dots = chart.curves[name]
            moved = VGroup(segs.copy(), dots.copy())
            target = VGroup(
                VGroup(*[Line(chart.p(s, float(c.adjusted[s])),
                              chart.p(s + 1, float(c.adjusted[s + 1])), color=color,
                              stroke_width=3) for s in range(len(dots) - 1)]),
                VGroup(*[Dot(chart.p(s, float(a)), radius=0.06, color=color)
                         for s, a in enumerate(c.adjusted)]))
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
        self.play(*[FadeOut(h) for h in hangs], FadeOut(heights), run_time=0.4 * f)
        self.remove(*hangs, heights)
        # (round 33: the axis now reads what the moved curves are)
        self.retitle(chart, "cosine − baseline")
        # "at the output the money bank still ends farther away": each adjusted curve's end
        # gets its number once, right of its last dot, and the two are boxed as it is said
        self.hold_until_moment(M.ADJUSTED_ENDS)
        labels = VGroup()
        for k, c in enumerate(v.curves):
            lab = Num(c.adjusted[-1], decimals=2, size=SIZE, color=self.curve_color(k))
            lab.next_to(chart.curves[f"adj{k}"][1][-1], RIGHT, buff=0.15)
            for other in labels:                # (two ends close together: one steps aside)
                if overlaps(lab, other, pad=0.04):
                    lab.next_to(other, DOWN if lab.get_y() < other.get_y() else UP, buff=0.06)
            labels.add(lab)
        head = VGroup()         # (round 33: the axis's name says what they are)
        box = SurroundingRectangle(labels, color=T.POINTER, buff=0.06, stroke_width=2.5)
        left = self.beat_start + self.beat_end(beat) - self.time
        self.play(FadeInPlace(labels), run_time=0.5)
        self.play(Create(box), run_time=0.5)
        rises = M.RISES in (self.beat.get("moments") or {})
        if rises:
            left = self.said(M.RISES) - self.time
        self.emphasize(*[chart.curves[f"adj{k}"][1][-1] for k in range(len(v.curves))],
                       run_time=max(0.6, min(2.5, 0.85 * left - 1.0)))
        if rises:
            # (round 34) "on that last step, the river bank now rises more than the money bank
            # falls": each adjusted curve's last segment thickens, the near one first
            self.hold_until_moment(M.RISES)
            g = v.gap
            for k in (int(g.near.value), int(g.far.value)):
                seg = chart.curves[f"adj{k}"][0][-1]
                self.play(seg.animate.set_stroke(width=8), run_time=0.6)
                self.play(seg.animate.set_stroke(width=3), run_time=0.5)
        self.adopt(chart, labels, head, box)
        chart.box = VGroup(labels, head, box)     # they leave with the baseline's pieces
        del base

    def beat_projection(self, beat) -> None:
        self.lead_in()
        self.pause_after_cue(5, 1.0)            # 1.2 vs 6.6: the two numbers land
        if self.stage.legend is None:
            self.clear()
        legend = self.legend()
        v, pr = self.v, self.v.projection
        (x0, x1), (y0, y1) = pr.x_range.values, pr.y_range.values
        step = float(pr.step)
        top = TOP - 0.1             # the key moves aside: the plane takes the full height
        height, width = top - BOTTOM - 0.2, 8.2
        unit = min(width / (x1 - x0), height / (y1 - y0))
        plane = NumberPlane(x_range=[x0, x1, step], y_range=[y0, y1, step],
                            x_length=unit * (x1 - x0), y_length=unit * (y1 - y0),
                            background_line_style={"stroke_color": T.MUTED, "stroke_width": 1.2,
                                                   "stroke_opacity": 0.45},
                            axis_config={"stroke_opacity": 0, "stroke_width": 0})
        # room left of the plane for the state labels, which sit outside the paths
        plane.move_to([-7.11 + T.EDGE + LABEL_ROOM + plane.width / 2, top - plane.height / 2,
                       0])
        side_x = plane.get_right()[0] + 0.7
        # the key, moved (not faded) to the top of the side column
        self.stage.legend_home = legend.get_center().copy()
        if legend.width <= 7.11 - T.EDGE - side_x:
            # (with the last beat's pictures leaving: no stage left empty meanwhile)
            self.clear(extra=[legend.animate.move_to([side_x + legend.width / 2,
                                                      TOP - legend.height / 2, 0])])
            top = legend.get_bottom()[1] - 0.35
        else:       # a long sentence's key does not fit the side column: it leaves this beat
            self.clear()
            self.play(FadeOutPlace(legend), run_time=0.6)
            self.remove(*legend.get_family())
            self.stage.legend = self.stage.legend_home = None
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
        pc = VGroup(txt("PC1", SIZE, T.MUTED).next_to(plane, DOWN, buff=0.08)
                    .align_to(plane, RIGHT),
                    txt("PC2", SIZE, T.MUTED).rotate(np.pi / 2)
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
        scale_bar = VGroup(inline(txt("grid square:", SIZE, T.TEXT),
                                  Num(pr.step, decimals=0 if step >= 1 else 1, size=SIZE),
                                  txt("unit" if step == 1 else "units", SIZE, T.TEXT)))
        o_pt = np.array(plane.c2p(0, 0))
        near_pts = np.array([plane.c2p(*p0) + (np.array(plane.c2p(*p1)) - plane.c2p(*p0)) * t
                             for path in xy for p0, p1 in zip(path[:-1], path[1:])
                             for t in np.linspace(0, 1, 40)]
                            + [[x, o_pt[1], 0] for x in np.linspace(plane.get_left()[0],
                                                                    plane.get_right()[0], 80)]
                            + [[o_pt[0], y, 0] for y in np.linspace(plane.get_bottom()[1],
                                                                    plane.get_top()[1], 80)])
        best = None
        for corner in (DR, DL, UR, UL):
            scale_bar.move_to(plane.get_corner(corner) - corner * np.array(
                [0.15 + scale_bar.width / 2, 0.12 + scale_bar.height / 2, 0]))
            hits = covered(scale_bar, near_pts, pad=0.3)
            if best is None or hits < best[0]:
                best = (hits, scale_bar.get_center().copy())
        scale_bar.move_to(best[1])
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
        self.bar_unit = ku
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
        # (the header line has been said and leaves: the rows take its place)
        self.play(FadeOutPlace(head[0]), run_time=0.4)
        self.remove(*head[0].get_family())
        self.play(FadeInPlace(rows[0]), FadeInPlace(rows[1]), run_time=0.4)
        self.play(Create(seg), run_time=0.5)
        self.bring_to_front(dots)
        # the segment lies down in the column as the plane's bar, its length beside it
        self.play(TransformFromCopy(seg, rows[2][0]), run_time=0.9)
        self.play(FadeInPlace(rows[2][1]), run_time=0.3)
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
        self.emphasize(off, run_time=0.8)
        # the plane stays for the split (its own beat since round 32): what it reads
        back = VGroup(plane, ghosts, trails, marks, dots, start, end_label, pc, scale_back,
                      scale_bar)

        class Pca:
            pass
        pca = Pca()
        pca.plane, pca.back, pca.trails, pca.dots, pca.start = plane, back, trails, dots, start
        pca.read = [side, seg]
        pca.left, pca.top = head.get_left()[0], head.get_top()[1]
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
                overlaps(new, note, pad=0.1):
            short = inline(txt("dashed:", SIZE, T.TEXT), txt("baseline", SIZE, T.MUTED))
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

    def beat_split(self, beat) -> None:
        """The reference's move split into the arrow all sentences share and each one's own
        (the plane the `projection` beat left on screen, dimmed behind the full-space
        picture), then the ends' distances in the full space."""
        # (no lead-in: the same plane goes on; the voice starts with the beat)
        pca = self.stage.pca
        v, pr = self.v, self.v.projection
        plane, back, trails, dots, start = pca.plane, pca.back, pca.trails, pca.dots, pca.start
        # the ends' comparison has been read: it leaves as the new question is asked
        self.play(*[FadeOutPlace(m) for m in pca.read], run_time=0.6)
        for m in pca.read:
            self.remove(*m.get_family())
        self.stage.other = [back]
        # "how much of each bank's move is common to all three?": the three paths it asks
        # about, lit while the question is said
        self.pulse(trails, run_time=max(0.6, min(2.0, 0.8 * (self.said(M.SPLIT) - self.time))))
        split = self.split_picture(pca.left, pca.top)
        # "split each bank's move into two arrows": the plane steps back (dimmed, not gone:
        # the shared arrow's shadow is drawn on it) and the split is written where its picture
        # will stand
        self.hold_until_moment(M.SPLIT)
        self.play(DimPlace(back, 0.3), FadeInPlace(split.equation), run_time=0.8)
        # "one arrow all three banks share": the mean of the three X^(0) on the plane, marked,
        # and the shared arrow (its shadow on the plane) starts growing from it as it is said
        a0, a1 = (np.array(plane.c2p(*p)) for p in pr.shared_xy.values)
        mean0 = Dot(a0, radius=0.08, color=T.TEXT)
        mean1 = Dot(a1, radius=0.08, color=T.TEXT)
        shadow = Arrow(a0, a1, buff=0, color=T.TEXT, stroke_width=5,
                       max_tip_length_to_length_ratio=0.06)
        self.hold_until_moment(M.ONE_ARROW)
        self.play(FadeInPlace(mean0), run_time=0.4)
        self.play(GrowArrow(shadow), run_time=max(0.8, min(3.0, 0.9 * (
            self.said(M.MEAN_START) - self.time))))
        # "from their mean start": that dot and the three X^(0) it is the mean of
        self.hold_until_moment(M.MEAN_START)
        self.play(Indicate_(mean0, 1.4), Indicate_(start, 1.0),
                  run_time=max(0.6, min(1.2, 0.85 * (self.said(M.MEAN_END) - self.time))))
        # "... to their mean end: 10.7": the mean of the three X^(L), at the shadow's tip, and
        # the shared arrow's length under the split's words
        self.hold_until_moment(M.MEAN_END)
        self.play(FadeInPlace(mean1), Indicate_(dots, 1.0), run_time=0.6)
        self.play(FadeInPlace(split.shared_label), run_time=0.5)
        # "drawn here from each bank's own start": copies of the shadow lift off the
        # plane into the full-space picture, one per column, each from its own start dot, all
        # on this line; each copy's midpoint travels, it turns about that midpoint and is
        # shortest half-way (it never swings about its tail, nor leaves the room above the
        # caption)
        xr, ylo, yhi = 7.11 - T.EDGE, BOTTOM + 0.15, pca.top
        targets = [split.shared] + [cp[1] for cp in split.copies]
        lifts = []
        for target in targets:
            lifted = shadow.copy()
            o, tip = target.get_start(), target.get_end()
            m0, m1 = (a0 + a1) / 2, (o + tip) / 2
            ang0 = float(np.arctan2(*(a1 - a0)[1::-1]))
            ang1 = float(np.arctan2(*(tip - o)[1::-1]))
            turn = (ang1 - ang0 + np.pi) % (2 * np.pi) - np.pi
            len0, len1 = float(np.linalg.norm(a1 - a0)), float(np.linalg.norm(tip - o))

            def carry(m, alpha: float, m0=m0, m1=m1, ang0=ang0, turn=turn, len0=len0,
                      len1=len1) -> None:
                a = alpha * alpha * (3 - 2 * alpha)    # eased, but moving all the way through
                mid = m0 + (m1 - m0) * a
                th = ang0 + turn * a
                u = np.array([np.cos(th), np.sin(th), 0.0])
                ln = (len0 + (len1 - len0) * a) * (1 - 0.45 * np.sin(np.pi * a))
                room = [abs(xr - abs(mid[0])) / max(1e-9, abs(u[0])),
                        (mid[1] - ylo if u[1] != 0 else 1e9) / max(1e-9, abs(u[1])),
                        (yhi - mid[1] if u[1] != 0 else 1e9) / max(1e-9, abs(u[1]))]
                half = max(0.1, min(ln / 2, *room))
                m.become(Arrow(mid - u * half, mid + u * half, buff=0, color=T.TEXT,
                               stroke_width=5,
                               max_tip_length_to_length_ratio=0.06 + (0.08 - 0.06) * a))
            lifts.append(UpdateFromAlphaFunc(lifted, carry, rate_func=linear))
        self.hold_until_moment(M.OWN_START)
        self.play(*lifts, FadeInPlace(split.start), *[FadeInPlace(cp[0]) for cp in split.copies],
                  *[FadeInPlace(m) for m in split.names], FadeInPlace(split.scale_note),
                  run_time=max(1.4, min(2.4, 0.8 * (self.said(M.OWN) - self.time))))
        for lf in lifts:
            self.remove(lf.mobject)
        self.add(split.shared, *split.copies)
        # "then each bank's own arrow, from the shared arrow's tip to that bank's own end: the
        # longest, the money bank's, is under half as long": each grows from the tip of its
        # column's shared arrow, its length at its end
        # (the split's words have been read: "each move = ..." leaves as the own arrows
        # grow, round 33: the column was the busiest frame)
        self.hold_until_moment(M.OWN)
        self.play(LaggedStart(*[GrowArrow(a) for a in split.own], lag_ratio=0.3),
                  *[FadeInPlace(m) for m in split.own_labels], FadeOutPlace(split.equation),
                  run_time=1.4)
        self.remove(*split.equation.get_family())
        split.all.remove(split.equation)        # (gone: not faded out again with the rest)
        k = int(pr.own_longest)
        moments = self.beat.get("moments") or {}
        lo_deg, hi_deg = (float(x) for x in pr.own_angle_range)
        if M.RIGHT_ANGLES in moments and 75.0 < lo_deg and hi_deg < 105.0:
            # (round 34) "nearly at right angles to it": a corner mark where each own arrow
            # leaves its shared arrow's tip (the plan's own_angles_deg: 78-101° here)
            corners = VGroup()
            for c, own in enumerate(split.own):
                col = split.shared if c == 0 else split.copies[c - 1][1]
                t0 = own.get_start()
                u = col.get_start() - t0
                w = own.get_end() - t0
                u, w = (0.28 * x / max(1e-9, float(np.linalg.norm(x))) for x in (u, w))
                corners.add(VMobject(stroke_color=T.POINTER, stroke_width=3.5)
                            .set_points_as_corners([t0 + u, t0 + u + w, t0 + w]))
            # (round 34b) "..., 78 to 101 degrees": the range written under the columns
            degs = inline(txt("own arrow to shared:", SIZE, T.POINTER),
                          Num(pr.own_angle_range[0], decimals=0, size=SIZE, color=T.POINTER, suffix="°"),
                          txt("to", SIZE, T.POINTER),
                          Num(pr.own_angle_range[1], decimals=0, size=SIZE, color=T.POINTER, suffix="°"))
            low_d = min(m.get_bottom()[1] for m in [*split.own, *split.own_labels])
            degs.align_to(split.scale_note, LEFT)
            degs.set_y(max(low_d - 0.25 - degs.height / 2, BOTTOM + 0.1 + degs.height / 2))
            self.hold_until_moment(M.RIGHT_ANGLES)
            self.play(Create(corners), FadeInPlace(degs), run_time=0.5)
            self.wait(1.8)
            self.play(FadeOutPlace(corners), FadeOutPlace(degs), run_time=0.3)
            self.remove(*corners.get_family(), *degs.get_family())
        half = M.HALF if M.HALF in moments else M.OWN
        self.hold_until(self.said(half) - 2.0)
        self.pulse(split.own[k], split.own_labels[k], run_time=0.9)
        # "... is under half as long as the shared one": that own arrow swings to lie beside
        # its column's shared arrow, from the start dot down, and the shared arrow's half
        # point is ticked
        col_shared = split.shared if k == 0 else split.copies[k - 1][1]
        o, tip = col_shared.get_start(), col_shared.get_end()
        ln = float(split.own[k].get_length())
        aside = RIGHT * 0.22
        laid = Arrow(o + aside, o + aside + (tip - o) / np.linalg.norm(tip - o) * ln, buff=0,
                     color=self.colors[k], stroke_width=5,
                     max_tip_length_to_length_ratio=0.25)
        mid = (o + tip) / 2
        tick = Line(mid + LEFT * 0.14, mid + aside + RIGHT * 0.14, color=T.POINTER,
                    stroke_width=4)
        half_lab = txt("half", SIZE, T.POINTER).next_to(tick, RIGHT, buff=0.08)
        self.hold_until(self.said(half) - 0.9)
        self.play(TransformFromCopy(split.own[k], laid), run_time=0.9)
        self.play(Create(tick), FadeInPlace(half_lab), run_time=0.5)
        self.wait(max(0.1, min(2.0, 0.85 * (self.said(M.SHARED_SUM) - self.time) - 0.4)))
        self.play(FadeOutPlace(laid), FadeOutPlace(tick), FadeOutPlace(half_lab),
                  run_time=0.35)
        self.remove(laid, tick, *half_lab.get_family())
        # "so the shared part is the larger; why all three share it is not measured here": the
        # shared arrows and their number, then the words under the columns
        low = min(m.get_bottom()[1] for m in [*split.own, *split.own_labels])

        def under(m):
            m.align_to(split.scale_note, LEFT)
            m.set_y(max(low - 0.25 - m.height / 2, BOTTOM + 0.1 + m.height / 2))
            if m.get_right()[0] > 7.11 - T.EDGE:
                m.scale((7.11 - T.EDGE - m.get_left()[0]) / m.width, about_edge=LEFT)
            return m
        unknown = under(txt("why all share it: not measured here", SIZE, T.POINTER))
        # (round 34b: the words come with "why all three share it", the shared arrows lit)
        self.hold_until_moment(M.SHARED_SUM)
        self.play(*[Indicate_(m, 1.0) for m in (*targets, split.shared_label[-1])],
                  FadeInPlace(unknown, rate_func=squish_rate_func(smooth, 0.0, 0.5)),
                  run_time=max(0.6, min(1.4, 0.85 * (self.said(M.NOT_MEASURED) - self.time))))
        # "each own arrow lies mostly off the plane: its shadow on the plane is short": beside
        # each own arrow, its shadow's length on the PCA plane (plan `own_shown`), pale
        # (round 33: beside the arrow a 6 % shadow was 3 px: each own arrow lies down, under
        # its column, as an outlined bar of its length, filled to its shadow's share, that
        # share written beside it)
        shadows, outlines, fills, pcts = VGroup(), VGroup(), VGroup(), VGroup()
        y_row = low - 0.3
        # (a share bar: its width the same for every column, wider than the arrows drawn to
        # scale, so a 6 % shadow is seen; the legend says it is a share of the length)
        pitch = (split.names[1].get_left()[0] - split.names[0].get_left()[0]
                 if len(split.names) > 1 else 1.4)
        pw = max(Num(x, decimals=0, size=SIZE, suffix="%").width for x in pr.own_shown_percent)
        ln = max(0.3, min(0.8, pitch - pw - 0.25))
        for c, own in enumerate(split.own):
            x0 = split.names[c].get_left()[0]
            box = Rectangle(width=ln, height=0.32, stroke_color=self.colors[c], stroke_width=3,
                            fill_opacity=0).move_to([x0 + ln / 2, y_row, 0])
            f = max(0.02, float(pr.own_shown[c]))
            fill = Rectangle(width=ln * f, height=0.32, stroke_width=0,
                             fill_color=self.colors[c], fill_opacity=0.9)
            fill.move_to(box.get_left() + RIGHT * ln * f / 2)
            pct = Num(pr.own_shown_percent[c], decimals=0, size=SIZE, color=self.colors[c],
                      suffix="%").next_to(box, RIGHT, buff=0.1)
            outlines.add(box)
            fills.add(fill)
            pcts.add(pct)
        shadows = VGroup(outlines, fills, pcts)
        legend_sh = under(inline(Rectangle(width=0.3, height=0.16, stroke_width=0,
                                           fill_color=T.TEXT, fill_opacity=0.9),
                                 txt("own arrow's shadow on the plane, % of it", SIZE,
                                     T.TEXT)))
        legend_sh.set_y(y_row - 0.42)
        self.hold_until_moment(M.WAYS)
        self.play(FadeOutPlace(unknown), run_time=0.3)
        self.remove(*unknown.get_family())
        self.play(*[TransformFromCopy(own, bx) for own, bx in zip(split.own, outlines)],
                  run_time=0.8)
        self.play(*[GrowFromEdge(fl, LEFT) for fl in fills], FadeInPlace(pcts),
                  FadeInPlace(legend_sh), run_time=0.8)
        moments = self.beat.get("moments") or {}
        # (round 34b) the ends' distances said before the closing answer (a teacher's draft:
        # every pair's row), or inside it (the shipped storyboard: 1 vs 2 only, said in the
        # plane's beat, against the shared move): the split leaves on whichever comes first
        ends_said = self.said(M.ANSWER_SHARE) < self.said(M.ANSWER)
        leave = M.ANSWER_SHARE if ends_said else M.ANSWER
        self.wait(max(0.1, min(1.5, 0.85 * (self.said(leave) - self.time) - 0.9)))
        # "in the full space, sentence two's bank ends 6.6 from sentence one's, sentence
        # three's 4.3": the split has been read and leaves; the plane comes back, and beside it
        # the ends' distances, one row per pair, lit as each is said
        # (round 33: the distances as bars, to the scale of the last beat's "1.2 vs 6.6"
        # bars, one per pair in its sentence's colour; the plane stays dimmed behind: these
        # are not distances in it)
        ku = float(getattr(self, "bar_unit", 0.4))
        dists = [float(x) for x in pr.full_end_distances]
        if not ends_said:       # only the pair the voice said in the plane's beat (1 vs 2)
            dists = dists[:1]
        keys = [self.pair_key(c) for c in range(len(dists))]
        bars_x = pca.left + max(kk.width for kk in keys) + 0.2
        right_room = 7.11 - T.EDGE - bars_x - 0.2 - max(
            Num(d, decimals=1, size=SIZE).width for d in pr.full_end_distances)
        ku = min(ku, right_room / max(1e-9, max(dists + [float(pr.shared_move)])))
        head_r = txt("ends apart, in the full space", SIZE, T.TEXT)
        head_r.move_to([pca.left + head_r.width / 2, pca.top - head_r.height / 2, 0])
        rows = VGroup(head_r)
        y = head_r.get_bottom()[1] - 0.45
        for c, (kk, d) in enumerate(zip(keys, dists)):
            kk.move_to([pca.left + kk.width / 2, y, 0])
            bar = Line([bars_x, y, 0], [bars_x + max(0.02, d * ku), y, 0],
                       color=self.curve_color(c), stroke_width=9,
                       cap_style=CapStyleType.BUTT)
            num = Num(pr.full_end_distances[c], decimals=1, size=SIZE).next_to(bar, RIGHT,
                                                                             buff=0.12)
            rows.add(VGroup(kk, bar, num))
            y -= 0.5
        self.keep_inside(rows)
        # (round 34b) "the cosine gap is widest at the output": said in the closing answer,
        # written over the bars, in the gap's colour
        gap_line = VGroup()
        if not ends_said:
            gap_line = txt("the cosine gap: widest at the output", SIZE, GAP)
            gap_line.move_to([pca.left + gap_line.width / 2, pca.top - gap_line.height / 2, 0])
            rows.shift(DOWN * 0.55)
        word = str(v.contexts[0].focus.value).partition("#")[0]
        self.hold_until(self.said(leave) - 0.2)
        # (round 34b: the split leaves first, then the caption changes)
        gone = [split.all, shadows, legend_sh, mean0, mean1, shadow]
        self.play(*[FadeOutPlace(m) for m in gone], run_time=0.5)
        for m in gone:
            self.remove(*m.get_family())
        shared_w = [w.value for w in v.gap.shared]
        if ends_said:
            self.sub_caption(f"How far apart the {word}s end, in the full space")
        else:
            self.sub_caption(f"This pair: the {word}s drift apart, by sense"
                             + (f" or by the shared word \"{shared_w[0]}\"" if shared_w else ""))
        other = self.time + 2.0

        def show_rows() -> None:
            """The head, then one bar as each distance is said: "sentence two's ... 6.6",
            "sentence three's 4.3" (only 1 vs 2 when the closing answer alone says it)."""
            self.play(FadeInPlace(rows[0]), run_time=0.4)
            for c in range(1, len(rows)):
                if c == 2:
                    self.hold_until(other)
                kk, bar, num = rows[c]
                t = (max(0.9, min(1.4, 0.8 * (other - self.time))) if c == 1 else 1.0) \
                    if ends_said else 0.9
                self.play(FadeInPlace(kk), run_time=0.3)
                self.play(GrowFromEdge(bar, LEFT), run_time=t - 0.3)
                self.play(FadeInPlace(num), run_time=0.3)
        if ends_said or M.ANSWER not in moments:
            show_rows()
        # (round 33) "so, for this one pair, bank does drift apart by sense: a little, mostly
        # at the output, and less than all three move together": the nearer end lit, then the
        # move all three share, a white bar to the same scale under the two distances
        # (round 34b: "by sense, or by the shared word river; ... the money bank ends less far
        # from sentence one's than the move all three share": the word underlined, then the
        # 1 vs 2 distance and the shared move as bars)
        k = int(np.argmin([float(x) for x in pr.full_end_distances])) + 1
        end = self.beat_start + self.beat_end(beat)
        if M.ANSWER in moments:
            self.hold_until_moment(M.ANSWER)
            if ends_said:
                self.sub_caption(f"This pair: the {word}s drift apart by sense, less than "
                                 "their shared move")
            if k < len(rows) and ends_said:
                self.pulse(rows[k], run_time=1.0)
            elif not ends_said:     # "bank does drift apart": the banks' ends, lit
                self.pulse(dots, run_time=1.2)
            marks = VGroup(*[Underline(gl, buff=0.04, color=self.colors[j], stroke_width=4)
                             for w in shared_w[:1]
                             for j in (0, int(v.curves[int(v.gap.near.value)].pair[1].value))
                             for gl in [self.word_glyphs(j, w)] if gl is not None])
            if len(marks):
                self.hold_until(self.said(M.ANSWER) + 2.6)
                self.play(Create(marks), run_time=0.6)
                self.wait(1.2)
                self.play(FadeOutPlace(marks), run_time=0.3)
                self.remove(*marks.get_family())
            if not ends_said:
                c_gap = self.cue_with("cosine gap")
                self.hold_until(self.cue_at(c_gap) + 0.3 if c_gap is not None
                                else self.said(M.ANSWER_SHARE) - 2.0)
                self.play(FadeInPlace(gap_line), run_time=0.5)
                self.hold_until(self.said(M.ANSWER_SHARE) - 0.3)
                show_rows()
            y = rows[-1].get_center()[1] - 0.6
            together = inline(txt("the move all", SIZE, T.TEXT),
                              Num(pr.answer.n, decimals=0, size=SIZE),
                              txt("share:", SIZE, T.TEXT))
            together.move_to([pca.left + together.width / 2, y, 0])
            sbar = Line([bars_x, y - 0.42, 0], [bars_x + float(pr.shared_move) * ku, y - 0.42, 0],
                        color=T.TEXT, stroke_width=9, cap_style=CapStyleType.BUTT)
            snum = Num(pr.shared_move, decimals=1, size=SIZE).next_to(sbar, RIGHT, buff=0.12)
            self.play(FadeInPlace(together), run_time=0.3)
            self.play(GrowFromEdge(sbar, LEFT), run_time=0.9)
            self.play(FadeInPlace(snum), run_time=0.3)
            rows.add(VGroup(together, sbar, snum))
            if end - self.time > 0.8:
                self.wait(end - self.time - 0.3)
        elif end - self.time > 1.0:       # the nearer end, as "the same-sense bank" is said
            if k < len(rows):
                self.pulse(rows[k], run_time=min(1.5, 0.8 * (end - self.time)))
        self.stage.other = [back, rows, gap_line]

    def split_picture(self, left: float, top: float):
        """The reference's move split in two, in the full space and to one scale, one column
        per sentence: from a start dot, the arrow all sentences share (plan `shared_move`,
        drawn downwards), and from its tip that sentence's own arrow (`own_parts`) at its true
        angle to the shared one (`own_angles_deg`). Two arrows span a plane, so each column is
        true; the own arrows are never drawn together (their angles to one another are not
        shown). Parts (not yet shown): start, shared (column 0's), copies (the other columns'
        start dot and shared arrow), shared_label, scale_note, own, own_labels, guide, arcs,
        degrees, own_note."""
        pr = self.v.projection
        L = float(pr.shared_move)
        lens = [float(x) for x in pr.own_parts.values]
        angs = [np.radians(float(x)) for x in pr.own_angles_deg.values]
        C = len(lens)
        down = np.array([0.0, -1.0, 0.0])
        # the own arrow turned from the shared direction (down) by its angle, to the right
        dirs = [np.array([np.sin(a), -np.cos(a), 0.0]) for a in angs]
        right, bottom = 7.11 - T.EDGE - 0.1, BOTTOM + 0.15
        # (only each column's lengths and its one angle are measured: where an arrow points
        # on the page is not)
        # (round 32: one line, in the text's colour; "only lengths and angles are real", in
        # grey, was hard to read and no angle is read any more)
        word = str(self.v.contexts[0].focus.value).partition("#")[0]
        equation = txt("each move = shared arrow + own arrow", SIZE, T.TEXT)
        label = inline(txt("all", SIZE, T.TEXT), Num(pr.answer.n, decimals=0, size=SIZE),
                       txt(f"{word}s share:", SIZE, T.TEXT),
                       Num(pr.shared_move, decimals=1, size=SIZE))
        note = txt("to scale; own arrows: % of it", SIZE, T.TEXT)
        equation.move_to([left + equation.width / 2, top - equation.height / 2, 0])
        label.next_to(equation, DOWN, buff=0.14).align_to(equation, LEFT)
        note.next_to(label, DOWN, buff=0.14).align_to(equation, LEFT)
        for m in (equation, label, note):
            if m.get_right()[0] > right:                # (a long word: that line smaller)
                m.scale((right - left) / m.width, about_edge=LEFT)
        # the scale: the shared arrow, the own arrows below its tip and the angle labels under
        # them fit the height under the words; the columns fit the width
        y0 = note.get_bottom()[1] - 0.3
        below = max([0.0] + [-ln * d[1] for ln, d in zip(lens, dirs)])
        above = max([0.0] + [ln * d[1] for ln, d in zip(lens, dirs)])
        wide = max([0.3] + [ln * d[0] for ln, d in zip(lens, dirs)])
        k = min(0.42, (y0 - bottom - 1.2) / max(1e-9, L + below))   # (room: the shadows row)
        pitch = (right - left - 0.2) / C
        # (room in each column for the own arrow's length at its end, and the next column's
        # angle under its tip)
        lw = max(Num(x, decimals=0, size=SIZE, suffix="%").width
                 for x in pr.own_share_percent)
        k = min(k, (pitch - 0.45 - max(0.0, lw - 0.25)) / max(1e-9, wide))
        del above
        start, shared, copies = None, None, VGroup()
        own, labels, arcs, degrees, guide = VGroup(), VGroup(), VGroup(), VGroup(), VGroup()
        names, sums, sum_labels = VGroup(), VGroup(), VGroup()
        for c, (ln, d) in enumerate(zip(lens, dirs)):
            o = np.array([left + 0.2 + c * pitch, y0, 0.0])
            tip = o + down * L * k
            dot = Dot(o, radius=0.07, color=T.TEXT)
            arrow = Arrow(o, tip, buff=0, color=T.TEXT, stroke_width=5,
                          max_tip_length_to_length_ratio=0.08)
            if c == 0:
                start, shared = dot, arrow
            else:
                copies.add(VGroup(dot, arrow))
            end = tip + d * ln * k
            own.add(Arrow(tip, end, buff=0, color=self.colors[c], stroke_width=5,
                          max_tip_length_to_length_ratio=0.25))
            # the own arrow's length at its end; the column's sentence left of its start dot
            # (round 33: as a percentage of the shared arrow: "under half" is read off it,
            # and no own length reads like a later distance)
            lab = Num(pr.own_share_percent[c], decimals=0, size=SIZE, color=self.colors[c],
                      suffix="%")
            beside(lab, Dot(end, radius=0.05), d, buff=0.08)
            labels.add(lab)
            names.add(txt(f"{c + 1}", SIZE, self.colors[c]).next_to(dot, LEFT, buff=0.1))
            # the two added as arrows: start dot to the own arrow's end, its length beside
            # its middle (on the side away from the shared arrow)
            sums.add(DashedLine(o, end, dash_length=0.08, color=self.colors[c],
                                stroke_width=3))
            sl = Num(pr.sum_parts[c], decimals=1, size=SIZE, color=self.colors[c])
            sl.next_to((o + end) / 2, RIGHT, buff=0.12)
            sum_labels.add(sl)
            ang = float(np.arctan2(d[1], d[0]))
            arcs.add(Arc(radius=0.32, start_angle=-np.pi / 2, angle=ang + np.pi / 2,
                         arc_center=tip, color=self.colors[c], stroke_width=3))
            mid = -np.pi / 2 + (ang + np.pi / 2) / 2
            deg = Num(pr.own_angles_deg[c], decimals=0, size=SIZE, color=self.colors[c],
                      suffix="°")
            deg.move_to(tip + 0.62 * np.array([np.cos(mid), np.sin(mid), 0.0]))
            if deg.get_top()[1] > tip[1] - 0.12:        # (under the tip, clear of the arrow)
                deg.shift(DOWN * (deg.get_top()[1] - tip[1] + 0.12))
            degrees.add(deg)
            guide.add(DashedLine(tip, tip + down * 0.75, dash_length=0.07, color=T.MUTED,
                                 stroke_width=2.5))
        # a sum's length clear of every label of the columns (a teacher's sentences may give
        # long own arrows): beside its line's middle, else its other side, else higher up
        for c, (sl, line) in enumerate(zip(sum_labels, sums)):
            o_, e_ = line.get_start(), line.get_end()
            others = [*labels, *degrees, *names, *sum_labels[:c]]
            best = None
            for f in (0.5, 0.3, 0.7, 0.15, 0.85):
                for d in (RIGHT, LEFT):
                    sl.next_to(o_ + (e_ - o_) * f, d, buff=0.12)
                    hits = sum(overlaps(sl, m, pad=0.04) for m in others) + 9 * int(
                        sl.get_right()[0] > 7.11 - T.EDGE or sl.get_left()[0] < left - 0.1)
                    if best is None or hits < best[0]:
                        best = (hits, sl.get_center().copy())
                if best[0] == 0:
                    break
            sl.move_to(best[1])
        own_note = VGroup()             # (the voice names them; the columns say the rest)

        class Split:
            pass
        sp = Split()
        sp.start, sp.shared, sp.shared_label, sp.scale_note = start, shared, label, note
        sp.equation = equation
        sp.copies = copies
        sp.own, sp.own_labels, sp.guide, sp.arcs = own, labels, guide, arcs
        sp.degrees = degrees
        sp.own_note = own_note
        sp.names, sp.sums, sp.sum_labels = names, sums, sum_labels
        # (guide, arcs, degrees, sums: built, not drawn since round 32; not in `all`, which
        # the next beat clears)
        sp.all = VGroup(start, shared, copies, equation, label, note, own, labels, names)
        return sp

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
        view.next_to(VGroup(ghosts, dims), DOWN, buff=0.15)
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
        self.emphasize(ghosts, view[1], run_time=max(0.6, min(3.0, 0.85 * (self.said(M.DIRECTIONS)
                                                                        - self.time))))
        # the two directions, through the states' mean (the plane's origin: PCA centres)
        o = np.array(plane.c2p(0, 0))
        room = min(o[0] - plane.get_left()[0], plane.get_right()[0] - o[0],
                   plane.get_top()[1] - o[1], o[1] - plane.get_bottom()[1])
        tilt = 35.0                 # the line's first angle, before it turns to PC1
        across = min(o[0] - plane.get_left()[0], plane.get_right()[0] - o[0])
        up = min(plane.get_top()[1] - o[1], o[1] - plane.get_bottom()[1])
        half = max(0.8, 0.9 * min(across, up / np.sin(np.radians(tilt))))
        axis1 = Line(o - half * RIGHT, o + half * RIGHT, color=T.POINTER, stroke_width=3)
        axis1.rotate(np.radians(tilt), about_point=o)
        half2 = max(0.8, 0.9 * up)
        axis2 = Line(o - half2 * UP, o + half2 * UP, color=T.POINTER, stroke_width=3)
        name1 = txt("PC1", SIZE, T.POINTER).next_to(o + half * RIGHT, RIGHT, buff=0.08)
        # (beside its upper end, where it stays: it does not jump ends later)
        name2 = txt("PC2", SIZE, T.POINTER).next_to(o + half2 * UP, RIGHT, buff=0.08)
        name2.align_to(o + half2 * UP, UP)
        self.hold_until_moment(M.DIRECTIONS)        # "the two directions ... spread most"
        # the arbitrary view (its axes, its note) leaves first: the turning line would cross
        # the note under the states
        self.play(FadeOutPlace(dims), FadeOutPlace(view), run_time=0.4)
        self.remove(*dims.get_family(), *view.get_family())
        # (the turning line is a sketch: PC1 is found among all the model's directions, not
        # in this page's two; said beside it, in the side column)
        sketch = VGroup(txt("sketch: PC1, PC2 picked out of all", SIZE, T.POINTER),
                        inline(Num(pr.d_model, decimals=0, size=SIZE, color=T.POINTER),
                               txt("directions, not the 2 dims shown", SIZE, T.POINTER))
                        ).arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        sketch.next_to(head, DOWN, buff=0.35).align_to(head, LEFT)
        self.keep_inside(sketch)
        # (no sweep: over a cloud this small a turning line showed nothing, round 31; PC1
        # comes in along the page's x, PC2 across it)
        axis1.rotate(-np.radians(tilt), about_point=o)
        self.play(Create(axis1), FadeInPlace(sketch), run_time=0.6)
        self.play(FadeInPlace(name1), Create(axis2), run_time=0.7)
        self.play(FadeInPlace(name2), run_time=0.3)
        # "projects every state onto the flat plane": the grid they span; one state (sentence
        # 1's X^(0)) drops onto each axis, its two coordinates
        # "projects every state onto the flat plane": the arbitrary view leaves and every
        # state moves to its coordinates on PC1 and PC2, on the grid those two span
        self.hold_until_moment(M.PLANE)
        n_pts = self.data["projection"]["n_points"]
        self.sub_caption(f"PCA: the plane in which the {n_pts} states spread most")
        self.play(FadeOutPlace(sketch), run_time=0.3)
        self.remove(*sketch.get_family())
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
                  FadeInPlace(head[0][-1]), *[FadeInPlace(m) for m in lands],
                  *[Indicate_(g, 1.6) for g in firsts + lasts], run_time=1.0)
        self.play(FadeOutPlace(drops), FadeOutPlace(marks), run_time=0.4)
        self.remove(*drops.get_family(), *marks.get_family())
        # each axis's share of the spread, as it is said
        share = head[1]
        # "keeps 33% of the spread" first, its words right after the number (no hole where
        # PC2's share will go); they step right to make room as PC2's share is said
        home = share[-1].get_center().copy()
        share[-1].align_to(share[2], LEFT)
        self.hold_until_moment(M.AXES)
        self.play(FadeInPlace(share[0]), FadeInPlace(share[1]), FadeInPlace(share[-1]),
                  run_time=0.5)
        self.emphasize(name1, share[1], run_time=max(0.6, min(1.2, 0.8 * (self.said(M.PC2)
                                                                          - self.time))))
        self.hold_until_moment(M.PC2)
        self.play(share[-1].animate.move_to(home), run_time=0.35)
        self.emphasize(name2, share[3], run_time=0.7,
                       extra=[FadeInPlace(share[2]), FadeInPlace(share[3])])
        # "... the rest lies off the plane": the two shares' sum kept, the rest off it
        kept = VGroup(inline(txt("kept together:", SIZE, T.TEXT),
                             Num(pr.kept_percent, decimals=0, size=SIZE, suffix="%")),
                      txt("the rest lies off the plane", SIZE, T.POINTER)
                      ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        kept.next_to(share, DOWN, buff=0.1).align_to(share, LEFT)
        self.keep_inside(kept)
        self.play(FadeInPlace(kept), run_time=0.4)
        self.hold_until(self.said(M.SAME_PATH) - 0.7)
        share = VGroup(share, kept)
        # the axes stay, quieter, with their names: the frame the paths are read in; the
        # shares have been said and leave (the side column keeps only what is read next)
        # PC1 reaches across the whole plot (it stopped short of the X^(0) states), its name
        # inside the plot over its right end; PC2's name beside its upper end,
        # where it was named (the positive end; the state labels drawn later step aside)
        a1 = Line(np.array([plane.get_left()[0], o[1], 0]),
                  np.array([plane.get_right()[0], o[1], 0]))
        # (PC1's name inside the plot, over its right end: right of the plot it met the side
        # column's table)
        to1 = name1.copy().next_to(a1.get_end(), UP, buff=0.08).align_to(a1.get_end(), RIGHT)
        to1.shift(LEFT * 0.08)
        to2 = name2.copy()
        self.play(axis1.animate.put_start_and_end_on(a1.get_start(), a1.get_end())
                  .set_stroke(opacity=0.55), axis2.animate.set_stroke(opacity=0.55),
                  name1.animate.move_to(to1), name2.animate.move_to(to2),
                  ghosts.animate.set_opacity(0.35), FadeOutPlace(share), run_time=0.6)
        self.remove(*share.get_family())
        self.pc_axes = VGroup(axis1, axis2, name1, name2)
        return ghosts

    def gap_panel(self, chart: CosineChart) -> CosineChart:
        """The gap's own chart over the states, in the cosine chart's place: its y range the
        plan's (the x axis at zero), room under it for the one row of numbers."""
        g = self.v.gap
        top = chart.ax.axes.get_top()[1] - 0.2      # its note line clear of the key above
        height = max(1.6, min(3.2, top - (BOTTOM + 0.75 + ROW_STEP)))
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
        jn, jf = (self.v.curves[k].pair[1].value + 1 for k in (g.near.value, g.far.value))
        # (round 33: "3 minus 2" read as sentences, not as the pairs' cosines)
        name = txt(f"gap: (1 vs {jn}) − (1 vs {jf})", SIZE, T.TEXT).rotate(np.pi / 2)
        if name.height > panel.ax.axes.height + 0.4:
            name.scale((panel.ax.axes.height + 0.4) / name.height)
        name.next_to(panel.ax.y_labels, LEFT, buff=0.15).set_y(panel.ax.axes.get_center()[1])
        panel.add(zero, name)
        panel.name = name
        return panel

    def gap_key(self) -> VGroup:
        """The gap row's key: a bar like the gap's own."""
        return VGroup(Rectangle(width=0.09, height=0.24, stroke_width=0, fill_color=GAP,
                                fill_opacity=1))

    def beat_gap(self, beat) -> None:
        self.lead_in()
        self.pause_after_cue(3, 1.2)            # the jump to 0.16 at the output lands
        # on the cosine chart first (the baseline beat's, or built now): the bars between the
        # two curves, moved onto the adjusted ones (the baseline cancels); then the gap alone on
        # a chart of its own, the caveats one line at a time over it
        self.clear(keep_chart=True)
        self.voice_on()
        self.legend()
        chart = self.raw_curves(paced=False)
        v, g = self.v, self.v.gap
        near, far = g.near.value, g.far.value
        n = len(v.states)
        adjusted = f"adj{near}" in chart.curves and f"adj{far}" in chart.curves

        def bars(p, vals_near, vals_far, width=GAP_BAR) -> VGroup:
            """One bar per state from the far value to the near one on chart point map `p`."""
            return VGroup(*[Line(p(s, float(vals_far[s])), p(s, float(vals_near[s])), color=GAP,
                                 stroke_width=width, cap_style=CapStyleType.BUTT)
                            for s in range(n)])
        # (thin on the curves, round 32: wide slabs between two curves read as blocks)
        shown = bars(chart.p, raw(v.curves[near]), raw(v.curves[far]), GAP_BAR_THIN)
        pair = VGroup(chart.curves[f"raw{near}"], chart.curves[f"raw{far}"])
        adj = VGroup(*[chart.curves[f"adj{k}"] for k in (near, far)]) if adjusted else None
        self.hold_until_moment(M.GAP_DEFINED)
        # "sentence three's cosine minus sentence two's": the raw curves, lit (round 33: no
        # box round them)
        box = VGroup()
        # the stage is cleared for the gap: the baseline's line, its curve and every row of
        # numbers leave (rows named "adjusted" would disagree with the raw curves lit now);
        # the bars' own row comes with the gap's chart
        gone = [getattr(chart, "note", None), chart.curves.get("baseline"),
                getattr(chart, "box", None), *chart.rows.values()]
        gone = [m for m in gone if m is not None]
        if gone:
            self.play(*[DimPlace(m, 0.0) for m in gone], run_time=0.4)
        # (round 33: the subtraction is not replayed: the adjusted curves stay lit, the raw
        # ones stay as the ghosts the last beat left; the bars are drawn between the ghosts,
        # sentence three's cosine minus sentence two's, and slide down onto the adjusted
        # curves as "the baseline cancels" is said, keeping their length)
        # (round 34: the ghosts the bars join are lit while the bars are drawn between them,
        # and step back as the bars slide down: bars between two faint lines were not seen)
        lit = ([DimPlace(c, 1 / 0.3) for c in pair] + [DimPlace(c, 0.45) for c in adj]
               if adjusted else [])
        if adjusted:        # (round 34b: the axis reads what is lit: raw cosines again)
            self.retitle(chart, "cosine", run_time=0.5, along=lit, along_time=0.6)
            lit = []
        self.play(Create(shown), *lit, run_time=self.stretch(M.CANCELS, 1.0, cap=6.0) - 0.3)
        self.hold_until_moment(M.CANCELS)
        if adjusted:        # each bar slides down by the baseline and fits the adjusted curves
            # (the axis's words go as they slide, "cosine − baseline" comes as they land)
            self.retitle(chart, "cosine − baseline", run_time=0.5,
                         along=[Transform(shown, bars(chart.p, v.curves[near].adjusted,
                                                      v.curves[far].adjusted, GAP_BAR_THIN)),
                                *[DimPlace(c, 0.3) for c in pair],
                                *[DimPlace(c, 1 / 0.45) for c in adj]], along_time=1.6)
            self.emphasize(shown, run_time=max(0.8, min(2.0, 0.45 * (self.said(M.TOGETHER)
                                                                     - self.time))))
        # the gap alone: the bars leave the curves for a chart of their own, standing on zero
        panel = self.gap_panel(chart)
        zeros = [0.0] * n
        # (the cosine chart leaves under its bars; then the gap's own chart comes in and the
        # same bars move onto it, each now standing on zero: they keep their identity)
        # (round 32: the new chart is drawn first, then the bars move onto it, widening to
        # bars of a bar chart)
        self.play(FadeOutPlace(chart), run_time=0.4)
        self.remove(*chart.get_family())
        self.bring_to_front(shown)
        self.play(FadeInPlace(panel), run_time=0.4)
        self.bring_to_front(shown)
        self.play(Transform(shown, bars(panel.p, g.values, zeros)),
                  run_time=max(0.8, self.stretch(M.TOGETHER, 1.2, cap=1.6) - 0.6))
        self.stage.chart = None
        self.bring_to_front(shown)
        row = self.number_row(panel, self.gap_key(), "gap", g.values, GAP, decimals=3)
        self.play(FadeInPlace(row[0]), run_time=0.4)
        # "up to X 2 within 0.04 of zero": a band that wide round zero, numbers state by state
        self.hold_until_moment(M.TOGETHER)
        tg, small = g.together.value, float(g.small)
        lo, hi = panel.p(-0.06, -small), panel.p(tg + 0.3, small)   # clear of the 0 tick
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
        self.play(FadeIn(band), FadeInPlace(within), run_time=0.6)
        self.bring_to_front(shown)
        per = self.pace(self.said(M.OPENS) - 0.5, tg + 1, 0.4, cap=1.8)
        for s in range(tg + 1):
            self.play(FadeInPlace(row[1][s]), Indicate_(shown[s], 1.0), run_time=per)
        self.hold_until_moment(M.OPENS)
        rest = range(tg + 1, n)
        per = self.pace(self.said(M.GAP_END), len(rest), 0.5, cap=0.9)
        for s in rest:
            self.play(FadeInPlace(row[1][s]), Indicate_(shown[s], 1.0), run_time=per)
        self.hold_until_moment(M.GAP_END)
        self.play(Indicate_(shown[-1], 1.0), Indicate_(row[1][-1]), run_time=1.0)
        # the note line over the panel: the gap's answer, then one caveat at a time
        notes = []

        def line(*parts) -> VGroup:
            m = inline(*parts)
            m.next_to(panel.ax.axes, UP, buff=0.12).align_to(panel.ax.axes, RIGHT)
            room = panel.ax.axes.get_left()[0] + 0.9
            if m.get_left()[0] < room:
                m.shift(RIGHT * (room - m.get_left()[0]))
            return m

        def swap(m) -> None:                # out, then in: never two lines on one spot
            if notes:
                self.play(*[FadeOutPlace(o) for o in notes], run_time=0.3)
                for o in notes:
                    self.remove(*o.get_family())
            self.play(FadeInPlace(m), run_time=0.35)
            notes[:] = [m]
        if float(g.last) > 0:   # the near sentence's bank ends nearer sentence 1's
            jn = v.curves[near].pair[1].value + 1
            word = v.contexts[0].focus.value.partition("#")[0]
            # (words only: a raised X^(L) would reach the key's last line above)
            ends = line(txt(f"at the output: sentence {jn}'s {word} ends nearer sentence 1's",
                            SIZE, T.TEXT))
            swap(ends)
            self.emphasize(shown[-1], run_time=max(0.6, min(2.5, 0.85 * (
                self.said(M.CAVEAT) - self.time - 0.7))))
        self.hold_until_moment(M.CAVEAT)
        pair = line(txt("one pair of sentences per sense", SIZE, T.TEXT))
        swap(pair)
        self.emphasize(pair, run_time=self.stretch(M.SHARED, 0.9, cap=2.0), buff=0.03)
        self.hold_until_moment(M.SHARED)
        shared = [w.value for w in g.shared]
        j = v.curves[near].pair[1].value + 1
        if shared:
            swap(line(txt(f"1 and {j} both contain "
                          + ", ".join(f'"{w}"' for w in shared[:2])
                          + ": nearer by the word?", SIZE, T.TEXT)))
            words = [(k, g) for w in shared[:2] for k in (0, j - 1)
                     for g in [self.word_glyphs(k, w)] if g is not None]
            # (round 34: the shared word underlined in both sentences, in their colours, while
            # the voice names it; a box flashed round it was missed)
            if words:
                marks = VGroup(*[Underline(gl, buff=0.04, color=self.colors[k], stroke_width=4)
                                 for k, gl in words])
                self.play(Create(marks), run_time=0.6)
                self.emphasize(*[gl for _, gl in words],
                               run_time=self.stretch(M.POSITION, 0.9, cap=2.4))
                self.hold_until_moment(M.POSITION)
                self.play(FadeOutPlace(marks), run_time=0.3)
                self.remove(*marks.get_family())
            else:
                self.emphasize(self.stage.legend[0], self.stage.legend[j - 1],
                               run_time=self.stretch(M.POSITION, 0.9, cap=3.0))
        self.hold_until_moment(M.POSITION)
        # a position other than the reference's lowers the near curve's start: against the gap
        if float(raw(v.curves[near])[0]) < float(raw(v.curves[far])[0]):
            pos = line(txt("position", SIZE, T.TEXT),
                       Num(v.contexts[j - 1].positions[0], decimals=0, size=SIZE,
                           color=self.curve_color(near)),
                       txt(f"for sentence {j}'s bank,", SIZE, T.TEXT),
                       Num(v.contexts[0].positions[0], decimals=0, size=SIZE,
                           color=self.colors[0]),
                       txt("for sentence 1's: gap below 0", SIZE, T.TEXT))
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


def math_ceil(x: float) -> int:
    import math as _m
    return int(_m.ceil(x))


def beside(label, dot, direction, buff: float = 0.1):
    """`label` centred on the ray from `dot` along `direction`, just clear of the dot: right
    beside its own dot (a diagonal `next_to` puts it corner to corner, nearer a neighbour)."""
    d = np.array(direction, dtype=float)
    d[2] = 0.0
    d = d / max(1e-6, float(np.linalg.norm(d)))
    r = buff + dot.width / 2 + 0.5 * (abs(d[0]) * label.width + abs(d[1]) * label.height)
    return label.move_to(dot.get_center() + r * d)


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


def raw(view):
    """A view's field named `raw` (the name `View.raw` itself gives the plain mapping)."""
    return view.__getattr__("raw")


def Indicate_(m, scale: float = 1.15):
    """A bar or number flashes to the highlight's width as it is named (a bar standing on
    zero flashes its colour only: scaled about its middle it would reach below zero)."""
    from manim import Indicate
    return Indicate(m, color=T.POINTER, scale_factor=scale)
