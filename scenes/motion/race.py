"""One ranked bar chart morphing from one state to the next (see `scenes.mobjects.race`), and
`LayerRace`: the logit lens's top-k tokens as that chart, layer by layer.

An entry in both states slides to its new rank and its bar to its new length, its number
becoming the new one (ReplacementTransform, so the scene then holds the new row and its `Num`
bound to the new plan path); an entry that leaves sinks and fades, a new one rises into place.

    scene.play(*race_step(rows, new_rows, shift=0.3), run_time=0.5)
    rows = new_rows
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Dot, FadeIn, FadeOut, GrowFromEdge, LaggedStart, Line,
                   ReplacementTransform, VGroup)

from .. import theme as T
from ..mobjects.lens import layer_ruler
from ..mobjects.numbers import Num
from ..mobjects.race import RaceChart
from ..mobjects.text import inline, txt


def race_step(old: dict, new: dict, shift: float = 0.3) -> list:
    """Animations taking the rows `old` ({key: row}) to `new`."""
    anims = [ReplacementTransform(old[k], row) if k in old else FadeIn(row, shift=UP * shift)
             for k, row in new.items()]
    anims += [FadeOut(row, shift=DOWN * shift) for k, row in old.items() if k not in new]
    return anims


class LayerRace:
    """The lens's top-k after each layer as one bar chart whose tokens re-sort as it morphs
    from layer to layer, the answer in yellow with its own row (bar and rank) under a rule, a
    layer counter and a depth ruler whose dot follows. `data` is a view of the plan's data
    (top_k, layers[l].layer/rank/prob/top[i].id/display/prob/is_answer; its values bring their
    plan paths).

    Not a mobject: `panel(prompt)` is the fixed part (place it first); then `enter(l)` gives
    the animations drawing layer l's state and `step(scene, l, run_time)` morphs to layer l.
    `rows` ({token id: RaceRow}), `extra` (VGroup(answer row, counter, ruler dot)) and `layer`
    are the state shown."""

    def __init__(self, data, answer: str, bar_width: float = 6.0, pitch: float = 0.42):
        self.layers, self.k, self.answer = data.layers, data.top_k, answer
        self.bar_width, self.pitch = bar_width, pitch
        self.rows: dict | None = None
        self.extra: VGroup | None = None
        self.layer: int | None = None

    counter_word = "after layer"        # the counter's name

    def header(self) -> VGroup:
        """The line over the chart."""
        return inline(txt("the lens's top", T.LABEL_SIZE, T.MUTED),
                      Num(self.k, decimals=0, size=T.LABEL_SIZE, color=T.MUTED),
                      txt("(bar = probability)", T.LABEL_SIZE, T.MUTED), buff=0.12)

    def place_counter(self, head: VGroup) -> None:
        """The counter's name: right of the header, over the answer's track's end."""
        self.counter_name.next_to(head, RIGHT, buff=0.8)
        self.counter_name.align_to(self.answer_track, RIGHT).shift(LEFT * 0.6)

    def panel(self, prompt: VGroup) -> VGroup:
        """`prompt`, the chart's tracks, the answer's track under a rule, the counter's name and
        the depth ruler: VGroup(VGroup(prompt, head, body, ruler), counter name)."""
        self.counter_name = txt(self.counter_word, T.LABEL_SIZE, T.MUTED)
        head = self.header()
        self.chart = RaceChart(self.k, bar_width=self.bar_width, label_width=1.7,
                               pitch=self.pitch)
        self.answer_track = self.chart.tracks[-1].copy().next_to(self.chart.tracks[-1], DOWN,
                                                                  buff=self.pitch + 0.1)
        line = Line(LEFT, RIGHT, stroke_color=T.FAINT, stroke_width=1.5)
        line.set_width(self.chart.width + 2.6).move_to(
            (self.chart.tracks[-1].get_center() + self.answer_track.get_center()) / 2)
        line.align_to(self.chart, RIGHT).shift(RIGHT * 1.2)
        body = VGroup(self.chart, self.answer_track, line)
        self.ruler = layer_ruler(self.layers, body.width)
        group = VGroup(prompt, head, body, self.ruler).arrange(DOWN, buff=T.BUFF + 0.05)
        prompt.align_to(body, LEFT).shift(LEFT * 1.9)
        head.align_to(prompt, LEFT)
        self.place_counter(head)
        return VGroup(group, self.counter_name)

    def entries(self, l: int) -> list:
        """Layer l's top tokens as chart entries, keyed by token id; the answer in yellow."""
        return [(int(e.id), str(e.display), e.prob, T.HIGHLIGHT if e.is_answer else T.X)
                for e in self.layers[l].top]

    def answer_row(self, l: int) -> VGroup:
        """The answer's own row under the chart: its bar on the answer track, rank beside."""
        lay = self.layers[l]
        row = self.chart.row((self.answer, self.answer, lay.prob, T.HIGHLIGHT), 0,
                             self.answer_track)
        rank = inline(txt("rank", T.LABEL_SIZE, T.MUTED),
                      Num(lay.rank, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT), buff=0.12)
        rank.next_to(self.answer_track, RIGHT, buff=1.1)
        return VGroup(row, rank)

    def counter(self, l: int) -> Num:
        return Num(self.layers[l].layer, decimals=0, size=T.TYPE.heading,
                   color=T.HIGHLIGHT).next_to(self.counter_name, RIGHT, buff=0.15)

    def enter(self, l: int = 0) -> list:
        """Layer l's state; the animations drawing it (bars grow from the left, one by one)."""
        self.layer, self.rows = l, self.chart.rows(self.entries(l))
        self.extra = VGroup(self.answer_row(l), self.counter(l),
                            Dot(self.ruler.dots[l].get_center(), radius=0.09, color=T.HIGHLIGHT))
        return [LaggedStart(*[GrowFromEdge(r, LEFT) for r in self.rows.values()], lag_ratio=0.15),
                FadeIn(self.extra)]

    def parts(self) -> list:
        """What the state shown is made of (to take out of, or put back into, a container)."""
        return list(self.rows.values()) + [self.extra]

    def step(self, scene, l: int, run_time: float) -> None:
        """One step to layer l: bars re-sort and change length, the answer's row, the counter
        and the ruler's dot follow."""
        new = self.chart.rows(self.entries(l))
        answer, counter, dot = self.extra
        extra = VGroup(self.answer_row(l), self.counter(l), dot)
        scene.play(*race_step(self.rows, new, shift=0.25),
                   ReplacementTransform(answer, extra[0]), ReplacementTransform(counter, extra[1]),
                   dot.animate.move_to(self.ruler.dots[l]), run_time=run_time)
        self.rows, self.extra, self.layer = new, extra, l


__all__ = ["race_step", "LayerRace"]
