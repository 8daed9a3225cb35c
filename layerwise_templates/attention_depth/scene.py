"""Where the focus word looks, layer by layer: arcs, the fair experiment, the sink, a deep layer.

The sentence's tokens sit in a row; from the focus word an arc goes to every other token, its
width and brightness the focus word's attention weight there (the head-average: the mean of the
heads' rows, said on screen), every arc as high as the others (so a long arc does not look
heavier than a short one), its number under the token. Right: the share of the row on [CLS]
(dark) and [SEP] (light), one stacked bar per layer. A long sentence keeps the special tokens,
the focus word and its nearest neighbours; the rest is a marked ellipsis "…" (said in a note).

Beats (storyboard `show` names), each building what it needs itself (`Stage`):
- `arcs`       the tokens are written, layer 0's arcs grow from the focus word, their weights
               appear; the heaviest word and [CLS] are pointed at; the chart's first bar
- `depth`      layers 1, 2, ...: one per narration sentence, the arcs morph to the next row and
               the chart grows a bar
- `why`        layer 1's own W_Q^(1), W_K^(1) with an input slot: X^(0) goes in, the arcs show
               that row; X^(0) moves out, X^(1) moves in, the arcs show the model's row; a small
               three-bar panel compares the shares (layer 0, layer 1 fed X^(0), fed X^(1))
- `sink`       the chart again with every share written; lowest, highest and last ringed; the
               interpretation "a sink" labelled as one
- `deep_heads` the last layer head by head: each head's weight on the heaviest word as a bar,
               with its previous-token score; the three heaviest heads ringed

Every number drawn is a `Num` of a `planview.Value` (it carries its own plan path).
"""

from __future__ import annotations

import math as pymath
from dataclasses import dataclass, field

from manim import (DOWN, LEFT, RIGHT, UP, ArcBetweenPoints, Create, GrowFromEdge, LaggedStart,
                   Line, Rectangle, ReplacementTransform, SurroundingRectangle, VGroup, WHITE,
                   Write, interpolate_color)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, inline, txt
from scenes.mobjects.text import math, on_baseline

from layerwise_core.planview import Value

from .view import Data

S = T.TYPE.small
ROW_Y = -1.75               # the token row's baseline
ARC_H = 1.35                # every arc's height above the token tops
WIDTH = 24.0                # stroke width of an arc with weight 1
GAP = 0.2                   # between token columns
DIAG_LEFT, DIAG_RIGHT = -6.7, 1.9      # the arc diagram's band
CHART_X = 2.7               # the share chart's left edge
CHART_Y = -1.6              # its baseline
BAR_H = 2.9                 # a bar of share 1
BAR_W = 0.44
BAR_PITCH = 0.64
TOP_Y = 2.6                 # the counter's row
ELLIPSIS = "…"


def shade(i: int):
    """The stacked bar's colours: [CLS] attention purple, [SEP] (and any later special token)
    a light tint of it."""
    return T.ATTN if i == 0 else interpolate_color(T.ATTN, WHITE, 0.6)


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


class AttentionDepthScene(StoryboardScene):

    def layout(self) -> None:
        self.v = Data.at(self.plan)
        self.st = Stage()
        self.place_columns()

    # --- layout ----------------------------------------------------------------------------
    def place_columns(self) -> None:
        """Columns for the tokens that fit the diagram's band: the special tokens, the focus
        word and its nearest neighbours first; a gap in the sequence becomes an ellipsis."""
        v, st = self.v, self.st
        toks = v.tokens.values
        focus = v.focus.values
        num_w = txt("0." + "0" * int(v.decimals), S, mono=True).width
        width = {j: max(txt(t, T.TYPE.label).width, num_w) + GAP for j, t in enumerate(toks)}
        ell = txt(ELLIPSIS, T.TYPE.label).width + GAP
        band = DIAG_RIGHT - DIAG_LEFT
        # always drawn: the special tokens, the focus word, and the words the voice names
        keep = set(v.special.values) | set(focus) | {int(v.layers[0].top_word.pos),
                                                     int(v.deep.target.pos)}
        order = sorted((j for j in range(len(toks)) if j not in keep),
                       key=lambda j: min(abs(j - f) for f in focus))

        def cols_of(kept):
            cols, last = [], -1
            for j in sorted(kept):
                if j > last + 1:
                    cols.append(None)
                cols.append(j)
                last = j
            return cols

        def total(cols):
            return sum(ell if j is None else width[j] for j in cols)

        for j in order:
            if total(cols_of(keep | {j})) > band:
                break
            keep.add(j)
        st.cols = cols_of(keep)
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
                m = txt(v.tokens.values[j], T.TYPE.label, color)
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
            a.set_stroke(T.ATTN, width=max(0.8, WIDTH * w), opacity=0.25 + 0.75 * min(1.0, 2 * w))
            g.add(a)
        return g

    def weights(self, row) -> VGroup:
        st = self.st
        y = ROW_Y - 0.42
        return VGroup(*[Num(row[j], decimals=int(self.v.decimals), size=S, color=T.ATTN)
                        .move_to([st.xs[j], y, 0]) for j in st.xs])

    def num_at(self, nums: VGroup, j: int):
        return nums[list(self.st.xs).index(j)]

    def counter(self, layer, state: int | None = None) -> VGroup:
        s = int(layer) if state is None else state
        g = inline(txt("layer", T.TYPE.body), Num(layer, decimals=0, size=T.TYPE.body),
                   txt("· reads", T.TYPE.body, T.MUTED), math(f"X^(({s}))", T.TYPE.math))
        return g.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)

    def note(self) -> VGroup:
        v = self.v
        several = int(v.n_focus) > 1
        first = inline(txt(f"arcs from \"{v.word}\": the mean of its", S, T.MUTED),
                       Num(v.n_heads, decimals=0, size=S, color=T.MUTED),
                       txt("heads' rows", S, T.MUTED))
        lines = [first, txt("arc width = attention weight", S, T.MUTED)]
        if several:
            lines.append(inline(txt(f"\"{v.word}\" is", S, T.MUTED),
                                Num(v.n_focus, decimals=0, size=S, color=T.MUTED),
                                txt("tokens: their rows averaged", S, T.MUTED)))
        if None in self.st.cols:
            lines.append(txt(f"{ELLIPSIS} = tokens not drawn", S, T.MUTED))
        g = VGroup(*lines).arrange(DOWN, buff=0.07, aligned_edge=LEFT)
        return g.next_to([DIAG_LEFT, TOP_Y - 0.3, 0], DOWN + RIGHT, buff=0)

    def bar(self, l: int) -> VGroup:
        """Layer l's stacked bar: [CLS] dark, [SEP] light above it; its layer number below."""
        lay = self.v.layers[l]
        x = CHART_X + 0.5 + l * BAR_PITCH
        parts = VGroup()
        y = CHART_Y
        for i, w in enumerate(lay.on_special):
            h = max(0.01, BAR_H * float(w))
            r = Rectangle(width=BAR_W, height=h, stroke_width=0)
            r.set_fill(shade(i), 1.0).move_to([x, y, 0], aligned_edge=DOWN)
            parts.add(r)
            y += h
        tick = Num(lay.layer, decimals=0, size=S, color=T.MUTED).move_to([x, CHART_Y - 0.25, 0])
        g = VGroup(parts, tick)
        g.parts, g.tick = parts, tick
        return g

    def chart_frame(self) -> VGroup:
        v = self.v
        L = int(v.n_layers)
        right = CHART_X + 0.5 + (L - 1) * BAR_PITCH + 0.45
        base = Line([CHART_X, CHART_Y, 0], [right, CHART_Y, 0], color=T.MUTED, stroke_width=2)
        names = v.special_tokens.values
        head = txt("share of the row on", S)
        keys = VGroup()
        for i, n in enumerate(names):
            sw = Rectangle(width=0.22, height=0.22, stroke_width=0).set_fill(shade(i), 1.0)
            keys.add(VGroup(sw, txt(n, S)).arrange(RIGHT, buff=0.08))
        keys.arrange(RIGHT, buff=0.25)
        top = VGroup(head, keys).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        top.next_to([CHART_X, CHART_Y + BAR_H + 0.15, 0], UP + RIGHT, buff=0)
        xname = txt("layer", S, T.MUTED).next_to(base, DOWN, buff=0.45)
        return VGroup(top, base, xname)

    # --- stage -----------------------------------------------------------------------------
    def clear_extra(self, t: float = 0.6) -> None:
        if self.st.extra:
            self.play(FadeOutPlace(VGroup(*self.st.extra)), run_time=t)
            self.st.extra = []

    def ensure_arcs(self, l: int) -> None:
        """The token row, note, counter, arcs and weights of layer l, drawn at once if absent
        (a beat shown without the ones before it)."""
        st = self.st
        if st.tokens is None:
            st.tokens = self.token_row()
            st.note = self.note()
            self.add(st.tokens, st.note)
        if st.arcs is None:
            lay = self.v.layers[l]
            st.arcs, st.nums, st.counter = self.arcs(lay.row), self.weights(lay.row), \
                self.counter(lay.layer)
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

    def show_row(self, row, counter: VGroup, t: float, extra=()) -> None:
        """The arcs, weights and counter replaced by another row's (each Num keeps its path)."""
        st = self.st
        arcs, nums = self.arcs(row), self.weights(row)
        self.play(ReplacementTransform(st.arcs, arcs), ReplacementTransform(st.nums, nums),
                  ReplacementTransform(st.counter, counter), *extra, run_time=t)
        st.arcs, st.nums, st.counter = arcs, nums, counter

    def show_layer(self, l: int, t: float, bar: bool = False) -> None:
        lay = self.v.layers[l]
        extra = []
        if bar and l not in self.st.bars:
            b = self.st.bars[l] = self.bar(l)
            extra = [GrowFromEdge(b.parts, DOWN), FadeInPlace(b.tick)]
        self.show_row(lay.row, self.counter(lay.layer), t, extra)

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

    # --- beats -----------------------------------------------------------------------------
    def beat_arcs(self, beat) -> None:
        v, st = self.v, self.st
        self.clear_extra()
        lay = v.layers[0]
        first = []
        if st.tokens is None:
            st.tokens, st.note = self.token_row(), self.note()
            first = [(2, lambda t: self.play(Write(st.tokens), run_time=t)),
                     (1, lambda t: self.emphasize(*[st.label[f] for f in v.focus.values],
                                                  run_time=t))]
        if st.arcs is not None:
            self.play(FadeOutPlace(VGroup(st.arcs, st.nums, st.counter)), run_time=0.6)
        st.arcs, st.nums, st.counter = self.arcs(lay.row), self.weights(lay.row), \
            self.counter(lay.layer)
        self.fill_to(self.mark(1, 3), first + [
            (1, lambda t: self.play(FadeInPlace(st.counter), run_time=t)),
            (3, lambda t: self.play(LaggedStart(*[Create(a) for a in st.arcs], lag_ratio=0.15),
                                    run_time=t)),
            (2, lambda t: self.play(FadeInPlace(st.note), run_time=t)),
        ])
        self.fill_to(self.mark(2, 3), [
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(n) for n in st.nums],
                                                lag_ratio=0.1), run_time=t)),
            (1, lambda t: self.emphasize(st.arcs, run_time=t)),
        ])
        word, cls = int(lay.top_word.pos), int(v.special[0])
        steps = []
        if word in st.xs:
            steps.append((1, lambda t: self.point_at(self.num_at(st.nums, word), run_time=t)))
        if cls in st.xs:
            steps.append((1, lambda t: self.point_at(self.num_at(st.nums, cls), run_time=t)))
        if st.chart is None:
            st.chart = self.chart_frame()
            st.bars[0] = self.bar(0)
            steps.append((2, lambda t: self.play(Create(st.chart), GrowFromEdge(st.bars[0].parts,
                                                                               DOWN),
                                                 FadeInPlace(st.bars[0].tick), run_time=t)))
        self.fill_to(None, steps)

    def beat_depth(self, beat) -> None:
        v = self.v
        self.clear_extra()
        self.ensure_arcs(0)
        self.ensure_chart(0)
        L = int(v.n_layers)
        voiced = bool(self.beat.get("cues"))
        n = self.n_cues() if voiced else L + 1
        for l in range(1, L):
            self.at_cue(min(l, n - 1), n)
            self.show_layer(l, self.pace(self.mark(min(l + 1, n), n), 1, 1.5, cap=1.5),
                            bar=True)
            self.emphasize(self.st.bars[l].parts[0], run_time=0.8)
        self.at_cue(min(L, n - 1), n)
        self.fill_to(None, [
            (1, lambda t: self.emphasize(*[self.st.bars[l].parts[-1] for l in range(1, L)],
                                         run_time=t)),
        ])

    def beat_why(self, beat) -> None:
        v, st = self.v, self.st
        self.clear_extra()
        tie = v.tie
        if isinstance(tie, Value):          # no redoable attention for this model
            self.fill_to(None, [(1, lambda t: self.wait(t))])
            return
        self.ensure_arcs(int(tie.layer))
        self.ensure_chart(0)
        # the experiment's own panel replaces the chart: three bars, one per input
        fade = [st.chart] + list(st.bars.values())
        base_x, base_y, H = CHART_X + 0.3, CHART_Y, BAR_H * 0.9
        specs = [(tie.layer0_sink, "layer 0", 0), (tie.old_sink, "layer 1", 0),
                 (tie.new_sink, "layer 1", 1)]
        cols = []
        for i, (share, name, state) in enumerate(specs):
            x = base_x + 0.45 + i * 1.3
            r = Rectangle(width=0.6, height=max(0.01, H * float(share)), stroke_width=0)
            r.set_fill(T.ATTN, 0.95).move_to([x, base_y, 0], aligned_edge=DOWN)
            val = Num(share, decimals=2, size=S).next_to(r, UP, buff=0.08)
            lab = VGroup(txt(name, S, T.MUTED), inline(txt("fed", S, T.MUTED),
                                                       math(f"X^(({state}))", T.TYPE.math_label)))
            lab.arrange(DOWN, buff=0.06).next_to([x, base_y, 0], DOWN, buff=0.12)
            cols.append(VGroup(r, val, lab))
        axis = Line([base_x, base_y, 0], [base_x + 3.9, base_y, 0], color=T.MUTED,
                    stroke_width=2)
        head = txt("share on " + " + ".join(v.special_tokens.values), S)
        head.next_to([base_x, base_y + H + 0.35, 0], RIGHT, buff=0)
        # the recipe with its input slot
        recipe = inline(txt("layer 1's own", T.TYPE.body),
                        math("W_Q^((1)), W_K^((1))", T.TYPE.math),
                        txt("fed", T.TYPE.body))
        recipe.move_to([0, TOP_Y, 0]).align_to([DIAG_LEFT, 0, 0], LEFT)
        slot_pos = recipe.get_right() + RIGHT * 0.55
        x_old = math("X^((0))", T.TYPE.math, T.X).move_to(slot_pos)
        x_new = math("X^((1))", T.TYPE.math, T.X).move_to(slot_pos)
        frame = SurroundingRectangle(x_old, color=T.X, buff=0.1)
        self.fill_to(self.mark(2, 6), [
            (2, lambda t: self.play(FadeOutPlace(VGroup(*fade, st.counter)),
                                    FadeInPlace(recipe), run_time=t)),
            (1, lambda t: self.play(Create(frame), run_time=t)),
        ])
        st.counter = VGroup()
        self.add(st.counter)
        self.fill_to(self.mark(3, 6), [
            (2, lambda t: self.play(FadeInPlace(x_old), run_time=t)),
            (3, lambda t: self.show_row(tie.old_row, VGroup(), t)),
        ])
        self.fill_to(self.mark(4, 6), [
            (1, lambda t: self.play(Create(axis), FadeInPlace(head), run_time=t)),
            (2, lambda t: self.play(GrowFromEdge(cols[0][0], DOWN), FadeInPlace(cols[0][1:]),
                                    run_time=t)),
            (2, lambda t: self.play(GrowFromEdge(cols[1][0], DOWN), FadeInPlace(cols[1][1:]),
                                    run_time=t)),
        ])
        self.fill_to(self.mark(5, 6), [
            (2, lambda t: self.swap_input(x_old, x_new, t)),
            (3, lambda t: self.show_row(tie.new_row, VGroup(), t)),
            (2, lambda t: self.play(GrowFromEdge(cols[2][0], DOWN), FadeInPlace(cols[2][1:]),
                                    run_time=t)),
        ])
        self.fill_to(None, [
            (1, lambda t: self.emphasize(frame, run_time=t)),
            (1, lambda t: self.emphasize(cols[1][0], cols[2][0], run_time=t)),
            (1, lambda t: self.emphasize(recipe[1], run_time=t)),
        ])
        for b in list(st.bars):
            del st.bars[b]
        st.chart = None
        st.extra = [recipe, x_new, frame, axis, head, *cols]

    def beat_sink(self, beat) -> None:
        v, st = self.v, self.st
        L = int(v.n_layers)
        self.clear_extra()
        self.ensure_arcs(int(v.sink.max.layer))
        if st.counter is None or not len(st.counter):
            c = self.counter(v.layers[int(v.sink.max.layer)].layer)
            self.play(FadeInPlace(c), run_time=0.5)
            if st.counter is not None:
                self.remove(st.counter)
            st.counter = c
        new = st.chart is None
        if new:
            st.chart = self.chart_frame()
        missing = [l for l in range(L) if l not in st.bars]
        for l in missing:
            st.bars[l] = self.bar(l)
        values = VGroup(*[Num(v.layers[l].sink, decimals=2, size=S,
                              color=T.HIGHLIGHT if l in (int(v.sink.min.layer),
                                                         int(v.sink.max.layer), L - 1)
                              else T.MUTED).next_to(st.bars[l].parts, UP, buff=0.08)
                          for l in range(L)])
        lo, hi = int(v.sink.min.layer), int(v.sink.max.layer)
        reading = VGroup(txt("a common reading, not a measurement:", S, T.MUTED),
                         txt(f"{v.special_tokens[0]} is a \"sink\", where heads park", S),
                         txt("attention they do not need", S))
        reading.arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        reading.next_to(st.note, DOWN, buff=0.3).align_to(st.note, LEFT)
        intro = []
        if new:
            intro = [Create(st.chart)] + [GrowFromEdge(st.bars[l].parts, DOWN) for l in missing] \
                + [FadeInPlace(st.bars[l].tick) for l in missing]
        self.fill_to(self.mark(1, 2), [
            (2, lambda t: self.play(*intro, LaggedStart(*[FadeInPlace(x) for x in values],
                                                        lag_ratio=0.2), run_time=t)),
            (1, lambda t: self.point_at(values[lo], run_time=t)),
            (2, lambda t: self.show_layer(hi, t)),
            (1, lambda t: self.point_at(values[hi], run_time=t)),
            (1, lambda t: self.point_at(values[L - 1], run_time=t)),
        ])
        cls = int(v.special[0])
        self.fill_to(None, [
            (2, lambda t: self.play(FadeInPlace(reading), run_time=t)),
            (1, lambda t: self.emphasize(st.label[cls], run_time=t) if cls in st.label
             else self.wait(t)),
            (2, lambda t: self.emphasize(reading[0], run_time=t)),
        ])
        st.extra = [values, reading]

    def beat_deep_heads(self, beat) -> None:
        v, st = self.v, self.st
        d = v.deep
        H = len(d.heads)
        self.clear_extra()
        # the stage of the arcs gives way to the table
        old = [m for m in (st.tokens, st.note, st.counter, st.arcs, st.nums, st.chart) if m]
        old += list(st.bars.values())
        pitch = min(0.36, 4.4 / H)
        top = 2.05
        name_x, bar_x, bar_w, score_x = -4.4, -3.5, 5.0, 4.4
        title = inline(txt("layer", T.TYPE.body), Num(d.layer, decimals=0, size=T.TYPE.body),
                       txt(f"· \"{v.word}\" → \"{d.target.token}\", head by head", T.TYPE.body))
        title.move_to([0, TOP_Y + 0.15, 0]).align_to([name_x - 0.9, 0, 0], LEFT)
        h1 = txt("attention weight", S, T.MUTED).next_to([bar_x, top + 0.38, 0], RIGHT, buff=0)
        h2 = txt("prev-token score", S, T.MUTED).move_to([score_x, top + 0.38, 0])
        rows = VGroup()
        prec = int(v.decimals)
        for i in range(H):
            y = top - i * pitch
            name = inline(txt("head", S, T.MUTED), Num(d.heads[i], decimals=0, size=S,
                                                        color=T.MUTED))
            name.move_to([0, y, 0]).align_to([name_x + 0.35, 0, 0], RIGHT)
            w = float(d.weight[i]) / max(d.weight.values)     # the heaviest head: full width
            r = Rectangle(width=max(0.01, bar_w * w), height=pitch * 0.62, stroke_width=0)
            r.set_fill(T.ATTN, 0.9).move_to([bar_x, y, 0], aligned_edge=LEFT)
            val = Num(d.weight[i], decimals=prec, size=S).next_to(r, RIGHT, buff=0.1)
            score = Num(d.prev_token[i], decimals=2, size=S).move_to([score_x, y, 0])
            g = VGroup(name, r, val, score)
            g.bar, g.val, g.score = r, val, score
            rows.add(g)
        top3 = [int(t.head) for t in d.top3]
        self.fill_to(self.mark(1, 5), [
            (2, lambda t: self.play(FadeOutPlace(VGroup(*old)), FadeInPlace(title), run_time=t)),
        ])
        st.tokens = st.note = st.counter = st.arcs = st.nums = st.chart = None
        st.bars = {}
        self.fill_to(self.mark(2, 5), [
            (1, lambda t: self.play(FadeInPlace(h1), run_time=t)),
            (4, lambda t: self.play(LaggedStart(*[FadeInPlace(VGroup(g[0], g.val)) for g in rows],
                                                lag_ratio=0.1),
                                    LaggedStart(*[GrowFromEdge(g.bar, LEFT) for g in rows],
                                                lag_ratio=0.1), run_time=t)),
        ])
        boxes = VGroup(*[SurroundingRectangle(VGroup(rows[h][0], rows[h].val),
                                              color=T.HIGHLIGHT, buff=0.04, stroke_width=2.5)
                         for h in top3])
        self.fill_to(self.mark(3, 5), [
            (3, lambda t: self.play(LaggedStart(*[Create(b) for b in boxes], lag_ratio=0.4),
                                    run_time=t)),
            (1, lambda t: self.point_at(rows[top3[0]].val, run_time=t)),
        ])
        self.fill_to(self.mark(4, 5), [
            (1, lambda t: self.play(FadeInPlace(h2), run_time=t)),
            (3, lambda t: self.play(LaggedStart(*[FadeInPlace(g.score) for g in rows],
                                                lag_ratio=0.08), run_time=t)),
            (2, lambda t: self.emphasize(*[rows[h].score for h in top3], run_time=t)),
        ])
        self.fill_to(None, [
            (1, lambda t: self.emphasize(*[rows[h].bar for h in top3], run_time=t)),
        ])
        st.extra = [title, h1, h2, rows, boxes]


__all__ = ["AttentionDepthScene"]
