"""The probe beat of the bank_drift scene, on the whole frame.

- `ProbeBeat.beat_probe`: the linear probe's held-out accuracy per layer state for two tasks,
  each with its chance line, the set's size and one labelled example sentence.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, Arc, Arrow, CapStyleType, Create,
                   DashedLine, Dot,
                   GrowArrow, LaggedStart, Line, Rectangle, Square, VGroup, interpolate_color)

from scenes import theme as T
from scenes.animations import DimPlace, FadeInPlace, FadeOutPlace
from scenes.mobjects import Num, TickAxes, inline, math, txt

from . import moments as M


RADIUS = 2.9                    # arrow length in the angle panel
PROBE_PLOT = (8.4, 2.8)
DIM = 0.3                       # what the voice is not speaking of, while the sketch is
PROBE_TITLE = "A second question: when is sense readable?"
POS_COLOR = T.K                 # part of speech: a colour no sentence and no gap uses here
HEAD = T.LABEL_SIZE             # 22: the header lines, read while the chart is drawn
PSIZE = 22                      # the chart's names, numbers, notes and ticks (20: 12 px)


class ProbeBeat:
    """The `probe` beat, mixed into the bank_drift scene (uses its `swap`, `right`, cues)."""

    def beat_probe(self, beat) -> None:
        self.lead_in()
        self.clear(keep_legend=False)
        self.section_title(PROBE_TITLE)         # a new question, on other nouns than the title's
        self.voice_on()
        d, pr, pv = self.data, self.data["probe"], self.v.probe
        self.pause_after_cue(5, 1.2)            # 58 -> 86: the reveal gets a beat to land
        tasks, S = pr["tasks"], len(self.data["states"])
        # part of speech in teal: the theme's probe lavender is too near the third sentence's
        # blue, and white is the gap bars' colour earlier in this video
        colors = [POS_COLOR, T.PROBE_SENSE]
        size = T.SMALL_SIZE
        lo, hi = pr["axes"]["y_range"]
        ax = TickAxes([0, S - 1, 1], [lo, hi, 25], *PROBE_PLOT,
                      x_ticks=[(st.layer.value, st.layer.path) for st in self.v.states],
                      y_ticks=[(v.value, v.path) for v in pv.axes.y_ticks], y_decimals=0,
                      size=PSIZE)
        ticks = VGroup(*[math(st["math"], 1.2 * T.TYPE.math_label, T.MUTED).next_to(ax.axes.c2p(i, lo), DOWN,
                                                               buff=0.14)
                         for i, st in enumerate(d["states"])])
        for m in ticks:
            m.set_y(ticks[0].get_y())
        ax.remove(ax.x_labels)
        ax.x_labels = ticks
        ax.add(ticks)
        layer = VGroup()
        head = txt("linear probe: held-out accuracy, %", HEAD)
        st = pv.set
        sizes = inline(Num(st.sentences, decimals=0, size=HEAD),
                       txt("sentences the project wrote:", HEAD, T.TEXT),
                       Num(st.train_sentences, decimals=0, size=HEAD),
                       txt("train it,", HEAD, T.TEXT),
                       Num(st.test_sentences, decimals=0, size=HEAD),
                       txt("score it", HEAD, T.TEXT))
        example = self.probe_example(pr["example"], colors)
        top = VGroup(head, sizes, example).arrange(DOWN, buff=T.TIGHT, aligned_edge=LEFT)
        chart = VGroup(ax, layer)
        chart.next_to(top, DOWN, buff=T.BUFF + 0.2)     # (room for two caveat lines)
        # (the last tick label, not the axis, is what must stay clear of the right edge)
        right = self.camera.frame_width / 2 - T.EDGE - 0.15
        chart.shift(RIGHT * (right - max(ax.axes.get_right()[0], ticks.get_right()[0])))
        # then centred in the frame with its row names (they sit left of the first column):
        # right-aligned, it left the frame's left third empty
        name_w = max(txt(t["title"], PSIZE).width for t in tasks)
        left_ext = ax.axes.c2p(0, 0)[0] - 0.45 - name_w
        right_ext = max(ax.axes.get_right()[0], ticks.get_right()[0])
        chart.shift(LEFT * max(0.0, (left_ext + right_ext) / 2))
        panel = VGroup(top, chart)
        panel.set_y(3.05 - panel.height / 2)
        top.align_to(ax.axes, LEFT)
        names_x = -7.11 + T.EDGE                       # the sketch's left edge
        sketch = self.probe_sketch(ax, pr["example"], colors[0])
        sense = example.sense[1]                    # "-> made": said with its label, later
        # the header and the example first; the axes come when the first score is read (the
        # probe's picture has the plot's place until then: no empty chart)
        self.play(FadeInPlace(VGroup(head, sizes, example[0][:-1], example[1])),
                  run_time=self.quick(0.08, 0.8))
        # "the project wrote 90 ... other nouns": the set and its example noun
        self.hold_until_cue(1)
        self.emphasize(VGroup(sizes[0], sizes[1]), example.sense[0],     # "... like mouse"
                       run_time=self.stretch(M.BOTH_SENSES, 1.0, cap=4.0) / 2)
        self.play(FadeInPlace(sketch.state), run_time=self.stretch(M.BOTH_SENSES, 0.6, cap=2.5))
        # "each used in both senses": the set's nouns, every one living and made
        both = inline(Num(st.nouns_in_both, decimals=0, size=HEAD),
                      txt("nouns, each in both senses", HEAD, T.TEXT))
        both.next_to(head, RIGHT, buff=0.5).align_to(head, DOWN)
        self.keep_inside(both)
        self.hold_until_moment(M.BOTH_SENSES)
        self.play(FadeInPlace(both), run_time=self.quick(0.03, 0.6))
        self.emphasize(both, example.sense, run_time=self.stretch(M.READ_LABEL, 1.2, cap=3.0))
        # "a linear probe learns to read a label ... of 54 sentences ... scored on 36 others"
        # what a linear probe is, drawn in the chart's still empty plot: a word's state
        # vector goes through one set of weights and comes out as a label
        self.hold_until_moment(M.READ_LABEL)
        self.emphasize(example[1], sketch.state, run_time=self.quick(0.03, 0.8))
        moving = sketch.state[0].copy()
        self.play(GrowArrow(sketch.into), FadeInPlace(sketch.box),
                  moving.animate.scale(0.4).move_to(sketch.box), run_time=0.9)
        self.remove(moving)
        self.play(GrowArrow(sketch.out), FadeInPlace(sketch.label), run_time=0.7)
        self.hold_until_moment(M.VECTORS_OF)
        self.emphasize(VGroup(sizes[2], sizes[3]), sketch.box, run_time=self.quick(0.03, 0.8))
        self.hold_until_moment(M.SCORED_ON)
        self.emphasize(VGroup(sizes[4], sizes[5]), sketch.label,
                       run_time=self.quick(0.03, 0.8))
        curves = [self.probe_pieces(ax, t, i, colors[i], names_x) for i, t in enumerate(tasks)]
        # part of speech (sentence 2): each number is drawn as it is said, chance at the end
        syn, t0 = curves[0], tasks[0]
        self.hold_until_cue(3)
        # the set's sizes have been said and leave with the sketch (the header keeps one
        # line and the example: no dashboard over the chart); the example moves up
        said_set = VGroup(sizes, both)
        self.play(FadeOutPlace(sketch), FadeOutPlace(said_set), run_time=0.3)
        self.remove(*sketch.get_family(), *said_set.get_family())
        self.play(example.animate.align_to(sizes, UP), run_time=0.4)
        self.play(FadeInPlace(chart), FadeInPlace(syn.name), run_time=0.5)
        self.emphasize(example[1], run_time=self.quick(0.03, 0.8))
        self.hold_until_moment(M.ITSELF)
        self.probe_points(syn, 0, 0, self.said("pos_embedding"))
        # "at the embedding, where a word is only its token and its position": the X^(0)
        # column is lit and says so while its score is read
        only = self.token_only(ax)
        self.hold_until_moment(M.TOKEN_ONLY)
        self.play(FadeInPlace(only), run_time=0.5)
        self.emphasize(syn.point(0), run_time=max(0.6, min(1.6, 0.8 * (
            self.said(M.POS_MIDDLE) - self.time - 0.8))))
        self.play(FadeOutPlace(only), run_time=0.3)
        self.remove(*only.get_family())
        self.probe_points(syn, 1, t0["best"], self.said("pos_middle"))
        self.emphasize(syn.point(t0["best"]), run_time=self.quick(0.02, 0.6))
        self.probe_points(syn, t0["best"] + 1, len(syn.dots) - 1, self.said("pos_output"))
        self.emphasize(syn.point(len(syn.dots) - 1), run_time=self.quick(0.02, 0.6))
        self.hold_until_moment(M.GUESSING)
        self.probe_chance(syn)
        # living or made (sentence 3): the noun and its sense, chance, the embedding, the rise
        sen, t1 = curves[1], tasks[1]
        self.hold_until_cue(4)
        self.play(FadeInPlace(sen.name), FadeInPlace(sense), run_time=self.quick(0.02, 0.4))
        for m in example.sense:                     # the noun, then its sense here
            self.emphasize(m, run_time=self.quick(0.02, 0.6))
        self.hold_until_moment(M.COIN_TOSS)
        self.probe_chance(sen)
        self.hold_until_moment(M.SENSE_EMBEDDING)
        self.probe_points(sen, 0, 0, self.said("sense_percent"))
        self.emphasize(sen.point(0), run_time=self.quick(0.02, 0.6))
        # "the token alone does not say which sense": the X^(0) column and its note again
        self.hold_until_moment(M.TOKEN_ALONE)
        self.play(FadeInPlace(only), run_time=0.4)
        self.emphasize(sen.point(0), run_time=max(0.6, min(1.4, 0.8 * (
            self.cue_at(5) - self.time - 0.4))))
        self.play(FadeOutPlace(only), run_time=0.3)
        self.remove(*only.get_family())
        # "after one layer it reads 86": X^(1) drawn as it is said, then a pause to land
        self.hold_until_cue(5)
        self.probe_points(sen, 1, 1, self.cue_at(5) + 0.9)
        self.emphasize(sen.point(0), sen.point(1), run_time=max(0.8, min(2.2, 0.9 * (
            self.cue_at(6) - self.time))))
        self.hold_until_cue(6)
        self.probe_points(sen, 2, t1["best"], self.said(M.BY_LAYER) + 0.8)
        self.emphasize(sen.point(t1["best"]), run_time=self.quick(0.02, 0.6))
        self.hold_until_moment(M.KEEPS_IT)
        self.probe_points(sen, t1["best"] + 1, len(sen.dots) - 1, self.cue_at(7))
        drawn = VGroup(*curves)
        # "the chapter's illustration puts sense later, with considerable overlap; the shaded
        # band is this project's mapping of it onto six layers": the illustration's late span
        # (plan: table.spans, its last row) shaded on the chart, named as our mapping
        a0, a1 = (int(x) for x in d["table"]["spans"][-1])
        lo_pt = ax.axes.c2p(max(0, a0 - 0.4), lo)
        hi_pt = ax.axes.c2p(min(S - 1, a1 + 0.4), hi)
        hi_pt[0] = min(hi_pt[0], ax.axes.get_right()[0] + 0.15)
        late = Rectangle(width=hi_pt[0] - lo_pt[0], height=hi_pt[1] - lo_pt[1],
                         stroke_width=0, fill_color=T.POINTER, fill_opacity=0.14)
        late.move_to((lo_pt + hi_pt) / 2)
        late_tag = VGroup(txt("chapter: sense later, overlapping", PSIZE, T.TEXT),
                          txt("(this band: our 6-layer mapping)", PSIZE, T.TEXT)
                          ).arrange(DOWN, buff=0.06, aligned_edge=RIGHT)
        # left of the band, in the plot's empty middle (between the curves and the chance
        # lines, whose notes sit at the band's right end)
        late_tag.move_to(ax.axes.c2p(a0, 68)).align_to(late, LEFT).shift(LEFT * 0.15)
        late_tag.shift(LEFT * late_tag.width)
        band_cue = self.cue_with("illustration", 7)
        self.hold_until_cue(band_cue)
        self.play(FadeInPlace(late), FadeInPlace(late_tag[0]), run_time=0.7)
        self.emphasize(late_tag[0], run_time=max(0.6, min(2.5, 0.85 * (
            self.said(M.BAND) - self.time))))
        self.hold_until_moment(M.BAND)
        self.play(FadeInPlace(late_tag[1]), run_time=0.5)
        self.emphasize(late, late_tag[1], run_time=max(0.6, min(1.6, 0.85 * (
            self.said(M.EARLIER) - self.time))))
        # "here sense is readable well before that band": the sense score after one layer
        # and the band, lit together
        self.hold_until_moment(M.EARLIER)
        self.emphasize(sen.point(1), late, run_time=max(0.6, min(2.5, 0.85 * (
            self.said(M.NEIGHBOURS) - self.time))))
        # "after one layer a noun's state already carries its neighbouring words": the rise
        # from X^(0) to X^(1) pulses
        self.hold_until_moment(M.NEIGHBOURS)
        half = max(0.4, min(1.2, 0.4 * (self.said(M.NOT_BANK) - self.time)))
        self.play(sen.segs[0].animate.set_stroke(width=8), run_time=half)
        self.play(sen.segs[0].animate.set_stroke(width=3), run_time=half)
        # "these are other nouns, not bank, and a different measure": the band, the chance
        # lines and the example leave; bank's cosine gap comes back as a strip of its own
        # over the chart (its own zero and scale, the same X^(l) columns: one axis each)
        self.hold_until_moment(M.NOT_BANK)
        chance = VGroup(*[VGroup(c.chance, c.note) for c in curves])
        strip = self.gap_strip(ax, head.get_bottom()[1] - 0.14, names_x)
        self.play(FadeOutPlace(late), FadeOutPlace(late_tag), FadeOutPlace(chance),
                  FadeOutPlace(example), run_time=0.4)
        self.remove(*late.get_family(), *late_tag.get_family(), *chance.get_family(),
                    *example.get_family())
        self.play(Create(strip.zero), FadeInPlace(strip.name), run_time=0.5)
        self.play(LaggedStart(*[Create(b) for b in strip.bars], lag_ratio=0.15),
                  FadeInPlace(strip.peak), run_time=1.0)
        self.emphasize(strip.name, run_time=max(0.6, min(2.0, 0.85 * (
            self.said(M.PROBE_ASKS) - self.time))))
        # "a probe asks whether sense can be read out at all, and for these nouns it can after
        # one layer": sense at X^(1) and its tick lit
        self.hold_until_moment(M.PROBE_ASKS)
        self.emphasize(sen.point(1), ax.x_labels[1], run_time=max(0.6, min(
            3.0, 0.85 * (self.said(M.GAP_ASKS) - self.time))))
        # "the cosine gap asks how far one bank's whole state turns ..., clearest at the
        # output": the gap's last bar, its number and X^(L) lit
        self.hold_until_moment(M.GAP_ASKS)
        self.emphasize(VGroup(strip.bars[-1], strip.peak), ax.x_labels[-1],
                       run_time=max(0.6, min(3.5, 0.85 * (self.said(M.SET_SMALL) - self.time))))
        # "in a set this small, one test sentence moves the sense score by 3 points, and a
        # probe shows what can be read, not what the model uses": one line, in the strip's
        # place (the strip has been read)
        caveat = inline(txt("small set: one test sentence moves sense by", HEAD, T.TEXT),
                        Num(pv.tasks[1].one_example_percent, decimals=0, size=HEAD),
                        txt("points;", HEAD, T.TEXT),
                        txt("readable, not shown to be used", HEAD, T.TEXT))
        caveat.move_to(strip.get_center()).align_to(head, LEFT)
        self.keep_inside(caveat)
        self.hold_until_moment(M.SET_SMALL)
        self.replace_line(strip, caveat)
        self.hold_until_moment(M.ONE_NOUN)
        self.emphasize(caveat[:3], run_time=max(0.6, min(2.0, 0.85 * (
            self.said(M.PROBE_SHOWS) - self.time))))
        self.hold_until_moment(M.PROBE_SHOWS)
        end = self.beat_start + self.beat_end(beat)
        self.emphasize(caveat[3], run_time=max(0.8, min(3.0, 0.85 * (end - self.time))))
        self.hold_until_moment(M.NOT_WHAT)
        self.stage.other = [VGroup(head, chart, drawn, caveat)]

    def gap_strip(self, ax, top: float, names_x: float) -> VGroup:
        """Bank's cosine gap (plan: gap.values) again, as a strip of bars of its own between
        the header and the probe chart: its own zero line and its highest value written at
        its bar (no second scale on the probe's percent axis), one bar per state over the
        probe chart's X^(l) column, named like the chart's rows. Parts: zero, bars, name,
        peak."""
        from .scene import GAP, GAP_BAR              # (one colour and bar for the gap)
        a = ax.axes
        vals = [float(x) for x in self.v.gap.values]
        pos, neg = max(0.0, max(vals)), max(0.0, -min(vals))
        bottom = a.get_top()[1] + 0.4       # (clear of the percent axis's "100")
        top -= 0.12
        k = max(0.1, top - bottom) / max(1e-9, pos + neg)
        zero = bottom + neg * k
        n = len(vals)
        xs = [a.c2p(s, a.y_range[0])[0] for s in range(n)]
        line = Line([xs[0] - 0.3, zero, 0], [xs[-1] + 0.3, zero, 0], color=T.MUTED,
                    stroke_width=2)
        bars = VGroup(*[Line([x, zero, 0], [x, zero + v * k, 0], color=GAP,
                             stroke_width=0.75 * GAP_BAR, cap_style=CapStyleType.BUTT)
                        for x, v in zip(xs, vals)])
        hi_i = int(np.argmax(vals))
        peak = Num(self.v.gap.values[hi_i], decimals=2, size=PSIZE, color=GAP)
        peak.next_to(bars[hi_i].get_end(), RIGHT, buff=0.1)
        peak.align_to(bars[hi_i].get_end(), UP)
        name = txt("bank's cosine gap", PSIZE, GAP)
        name.move_to([max(names_x + name.width / 2, xs[0] - 0.45 - name.width / 2),
                      zero + 0.5 * pos * k, 0])
        g = VGroup(line, bars, name, peak)
        g.zero, g.bars, g.name, g.peak = line, bars, name, peak
        return g

    def pause_after_cue(self, k: int, secs: float) -> None:
        """A beat of silence after cue k (a reveal lands): every later cue is spoken `secs`
        later (call at the beat's start, before any wait on a later cue)."""
        cues = self.beat.get("cues") or []
        for i in range(k + 1, len(cues)):
            self.cue_shift[i] += secs

    def token_only(self, ax) -> VGroup:
        """The X^(0) column of the probe chart, lit, and a note in the plot's empty lower part:
        at X^(0) a word is only its token and its position (what a probe can read there)."""
        a = ax.axes
        lo, hi = a.c2p(0, a.y_range[0]), a.c2p(0, a.y_range[1])
        # (clear of the y tick labels left of the axis)
        band = Rectangle(width=0.3, height=hi[1] - lo[1], stroke_width=0,
                         fill_color=T.POINTER, fill_opacity=0.16)
        band.move_to((lo + hi) / 2 + RIGHT * 0.05)
        span = a.y_range[1] - a.y_range[0]
        note = inline(math(self.v.states[0].math.value, 1.2 * T.TYPE.math_label, T.TEXT),
                      txt(": only the token and its position", PSIZE, T.TEXT))
        note.next_to(band, RIGHT, buff=0.12).set_y(a.c2p(0, a.y_range[0] + 0.1 * span)[1])
        return VGroup(band, note)

    def replace_line(self, old, new) -> None:
        """A header line gives its place to the next: out first, then in (a cross-fade on
        one spot would show both lines on top of each other)."""
        self.play(FadeOutPlace(old), run_time=self.quick(0.015, 0.3))
        self.remove(*old.get_family())
        self.play(FadeInPlace(new), run_time=self.quick(0.015, 0.35))

    def probe_sketch(self, ax, ex: dict, color) -> VGroup:
        """A linear probe as a picture: the state vector of the example's noun (a column of
        cells, an illustration of its values), an arrow into the weights, an arrow out to
        its part of speech. Parts: state, into, box, out, label."""
        cells = VGroup(*[Square(0.2, stroke_width=1, stroke_color=T.FAINT, fill_opacity=1,
                                fill_color=interpolate_color(T.FAINT, T.LN, f))
                         for f in (0.2, 0.8, 0.55, 0.1, 0.9, 0.4, 0.7)]).arrange(DOWN, buff=0)
        word = ex["words"][ex["target"]]
        name = VGroup(math("X^((l))", 26, T.MUTED),
                      txt(f'of "{word}"', PSIZE, T.MUTED)).arrange(DOWN, buff=0.06)
        state = VGroup(cells, name.next_to(cells, LEFT, buff=0.2))
        box = VGroup(Rectangle(width=1.9, height=0.8, stroke_color=T.MUTED, stroke_width=2),
                     txt("weights", PSIZE, T.TEXT))
        label = txt(ex["tags"][ex["target"]], T.SMALL_SIZE, color)
        row = VGroup(state, box, label).arrange(RIGHT, buff=1.1)
        # in the plot's place: the axes come in only when the first score is drawn
        row.move_to(ax.axes.get_center())
        into = Arrow(cells.get_right(), box.get_left(), buff=0.1, color=T.MUTED,
                     stroke_width=3)
        out = Arrow(box.get_right(), label.get_left(), buff=0.1, color=T.MUTED, stroke_width=3)
        sketch = VGroup(state, into, box, out, label)
        sketch.state, sketch.into, sketch.box, sketch.out, sketch.label = (state, into, box,
                                                                            out, label)
        return sketch

    def probe_example(self, ex: dict, colors) -> VGroup:
        """One sentence of the set: each word over its part of speech, the noun in the sense
        colour with its sense after the sentence."""
        words = [(w, t, i == ex["target"]) for i, (w, t) in enumerate(zip(ex["words"],
                                                                        ex["tags"]))
                 if t != "PUNCT"]
        row = inline(txt("e.g.", HEAD, T.MUTED),
                     *[txt(w + ("." if k == len(words) - 1 and len(ex["words"]) > len(words)
                                else ""), HEAD, colors[1] if hit else T.TEXT)
                       for k, (w, _, hit) in enumerate(words)],
                     txt(f"→ {ex['sense']}", HEAD, colors[1]), buff=0.16)
        tags = VGroup(*[txt(t, PSIZE, colors[0]).next_to(row[1 + i], DOWN, buff=0.08)
                        for i, (_, t, _) in enumerate(words)])
        for m in tags:
            m.set_y(tags[0].get_y())
        out = VGroup(row, tags)
        hit = next(i for i, (_, _, h) in enumerate(words) if h)
        out.sense = VGroup(row[1 + hit], row[-1])     # the noun and "→ its sense"
        return out

    def probe_pieces(self, ax, t: dict, i: int, color, names_x: float) -> "ProbeCurve":
        """One task's pieces, not yet shown: chance line and note, the row's name under the
        chart (from `names_x`), and per layer state a dot, its number and the segment to it."""
        tv = self.v.probe.tasks[i]
        a = ax.axes
        chance = DashedLine(a.c2p(0, t["chance_percent"]), a.c2p(len(t["accuracy"]) - 1,
                            t["chance_percent"]), dash_length=0.08, color=color,
                            stroke_width=2, stroke_opacity=0.7)
        guess = txt("coin toss" if len(t["classes"]) == 2 else f"always {t['majority_word']}",
                    PSIZE, color)
        note = inline(guess, Num(tv.chance_percent, decimals=0, size=PSIZE,
                                 color=color, suffix="%"))
        # (at the left end, clear of the X^(0) column's light: the chapter's band shades the
        # right end later)
        note.next_to(chance, DOWN, buff=0.06).align_to(chance, LEFT).shift(RIGHT * 0.3)
        y = ax.x_labels.get_bottom()[1] - 0.45 - 0.33 * i
        name = txt(t["title"], PSIZE, color)
        # right beside its row's first number (not at the frame's edge, far from them)
        name.move_to([max(names_x + name.width / 2,
                          a.c2p(0, 0)[0] - 0.45 - name.width / 2), y, 0])
        dots, nums, segs, prev = VGroup(), VGroup(), VGroup(), None
        for s, v in enumerate(tv.accuracy_percent):
            pt = a.c2p(s, v.value)
            dots.add(Dot(pt, radius=0.05, color=color))
            nums.add(Num(v, decimals=0, size=PSIZE, color=color)
                     .move_to([pt[0], y, 0]))
            if prev is not None:
                segs.add(Line(prev, pt, color=color, stroke_width=3))
            prev = pt
        return ProbeCurve(chance, note, name, segs, dots, nums)

    def probe_chance(self, c: "ProbeCurve") -> None:
        self.play(Create(c.chance), FadeInPlace(c.note), run_time=self.quick(0.03, 0.7))

    def probe_points(self, c: "ProbeCurve", first: int, last: int, until: float) -> None:
        """Draw layer states first..last point by point (dot, number, segment from the
        previous one), spread so that the last lands by scene time `until`."""
        if last < first:
            return
        per = self.pace(until, last - first + 1, self.quick(0.25, 4.0) / len(c.dots))
        for s in range(first, last + 1):
            anims = [FadeInPlace(c.dots[s]), FadeInPlace(c.nums[s])]
            if s > 0:
                anims.append(Create(c.segs[s - 1]))
            self.play(*anims, run_time=per)


class ProbeCurve(VGroup):
    """One probe task on screen: chance line, its note, the row's name, segments, dots,
    numbers (in that order, as submobjects)."""

    def __init__(self, chance, note, name, segs, dots, nums):
        super().__init__(chance, note, name, segs, dots, nums)
        self.chance, self.note, self.name = chance, note, name
        self.segs, self.dots, self.nums = segs, dots, nums

    def point(self, s: int) -> VGroup:
        return VGroup(self.dots[s], self.nums[s])
