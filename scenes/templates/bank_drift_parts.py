"""Panels of the bank_drift scene that stand on their own, right of the cosine chart.

- `AnglePanel`: what the cosine measures. The river "bank" is an arrow; each other "bank" an
  arrow at the angle whose cosine the chart plots (two vectors always span a plane, so the
  angle is exact; lengths are drawn equal because a cosine ignores them). `at(k, s)` turns
  arrow k to layer state s.
- `baseline_definition`: what the baseline is and why it is subtracted, line by line.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Arc, Arrow, Dot, VGroup

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..mobjects import Num, inline, txt

RADIUS = 2.9                    # arrow length in the angle panel


class AnglePanel(VGroup):
    """Arrows from one origin: the reference (sentence 0) along +x, curve k's arrow at
    +angle (k even) or -angle (k odd) of layer state `s`, each with its arc and its degrees."""

    def __init__(self, data: dict, colors: list, s: int = 0):
        super().__init__()
        self.data, self.colors = data, colors
        self.curves = data["curves"]
        self.sign = [1 if k % 2 == 0 else -1 for k in range(len(self.curves))]
        word = data["contexts"][0]["focus"].partition("#")[0]
        head = VGroup(txt("a cosine is an angle", T.SMALL_SIZE),
                      txt(f"(to the river \"{word}\"; lengths drawn equal)", T.TINY_SIZE,
                          T.MUTED)).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        self.origin = Dot(ORIGIN, radius=0.04, color=T.MUTED)
        ref = Arrow(ORIGIN, RIGHT * RADIUS, buff=0, color=colors[0], stroke_width=4,
                    max_tip_length_to_length_ratio=0.1)
        head.next_to(ref, UP, buff=1.6).align_to(ref, LEFT)
        self.head = head
        self.state = s
        self.arrows = VGroup(*[self._arrow(k, s) for k in range(len(self.curves))])
        self.arcs = VGroup(*[self._arc(k, s) for k in range(len(self.curves))])
        self.add(head, self.origin, ref, self.arcs, self.arrows)
        self.labels, self.tag = [], None    # outside the group: made where the panel is shown

    def theta(self, k: int, s: int) -> float:
        return np.radians(self.curves[k]["angle_deg"][s]) * self.sign[k]

    def _arrow(self, k: int, s: int) -> Arrow:
        c = self.colors[self.curves[k]["pair"][1]]
        end = RADIUS * np.array([np.cos(self.theta(k, s)), np.sin(self.theta(k, s)), 0])
        return Arrow(ORIGIN, end, buff=0, color=c, stroke_width=4,
                     max_tip_length_to_length_ratio=0.1).shift(self.origin.get_center())

    def _arc(self, k: int, s: int) -> Arc:
        c = self.colors[self.curves[k]["pair"][1]]
        return Arc(radius=0.75, start_angle=0, angle=self.theta(k, s) or 1e-4, color=c,
                   stroke_width=2, arc_center=self.origin.get_center())

    def _label(self, k: int, s: int) -> Num:
        c = self.colors[self.curves[k]["pair"][1]]
        half = self.theta(k, s) / 2
        at = self.origin.get_center() + 1.05 * np.array([np.cos(half), np.sin(half), 0])
        at = at + RIGHT * 0.25 + UP * 0.15 * self.sign[k]    # clear of a 0° arrow
        return Num(self.curves[k]["angle_deg"][s], f"data.curves[{k}].angle_deg[{s}]", 0,
                   T.TINY_SIZE, c, suffix="°").move_to(at)

    def _tag(self, s: int) -> VGroup:
        st = self.data["states"][s]
        if s == 0:
            tag = txt(st["label"], T.SMALL_SIZE, T.MUTED)
        else:
            tag = inline(txt("after layer", T.SMALL_SIZE, T.MUTED),
                         Num(st["layer"], f"data.states[{s}].layer", 0, T.SMALL_SIZE, T.MUTED))
        return tag.next_to(self.head, DOWN, buff=0.12).align_to(self.head, LEFT)

    def show(self) -> list:
        """Animations that bring the panel and its numbers in (once it is in place)."""
        self.labels = [self._label(k, self.state) for k in range(len(self.curves))]
        self.tag = self._tag(self.state)
        return [FadeInPlace(self), *[FadeInPlace(m) for m in self.labels], FadeInPlace(self.tag)]

    def hide(self) -> list:
        return [FadeOutPlace(self), *[FadeOutPlace(m) for m in self.labels],
                FadeOutPlace(self.tag)]

    def at(self, k: int, s: int) -> list:
        """Animations turning arrow k to state s (its arc and degrees with it; the layer tag
        when the state changes)."""
        old, new = self.labels[k], self._label(k, s)
        self.labels[k] = new
        anims = [self.arrows[k].animate.become(self._arrow(k, s)),
                 self.arcs[k].animate.become(self._arc(k, s)),
                 FadeOutPlace(old), FadeInPlace(new)]
        if s != self.state:
            tag, self.tag, self.state = self.tag, self._tag(s), s
            anims += [FadeOutPlace(tag), FadeInPlace(self.tag)]
        return anims


def baseline_definition(sim: dict, plot, frame_width: float) -> VGroup:
    """What the baseline is and why it is subtracted, right of the chart `plot` (the plan's
    own pair count, from its `similarity` section)."""
    size = T.TYPE.small
    count = Num(sim["baseline_pairs"], "data.similarity.baseline_pairs", 0, size, T.TEXT)
    lines = VGroup(
        txt("baseline (grey dashes)", T.TYPE.label, T.TEXT),
        inline(txt("the mean cosine of", size, T.MUTED), count,
               txt("pairs of", size, T.MUTED)),
        txt("different words in different", size, T.MUTED),
        txt("sentences, e.g. {} · {};".format(*sim["baseline_example"]), size, T.MUTED),
        txt("no word paired with itself", size, T.MUTED),
        txt("why subtract it", T.TYPE.label, T.TEXT),
        txt("even unrelated words point", size, T.MUTED),
        txt("somewhat alike here, so a raw", size, T.MUTED),
        txt("cosine flatters; raw − baseline", size, T.MUTED),
        txt("is what is specific to the word", size, T.MUTED),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
    lines[5].shift(DOWN * 0.15)
    for m in lines[6:]:
        m.shift(DOWN * 0.15)
    right = frame_width / 2 - T.EDGE
    lines.next_to(plot, RIGHT, buff=0.7).align_to(plot, UP)
    if lines.get_right()[0] > right:
        lines.shift(LEFT * (lines.get_right()[0] - right))
    return lines

