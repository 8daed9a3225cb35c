"""A ranked bar chart whose entries keep their identity between states (a "bar race"), and a
depth ruler (one dot per layer) to show which layer a state belongs to.

`RaceChart(n)` is the fixed part: `n` faint tracks, best at the top. `chart.rows(entries)` builds
one state: a `RaceRow` per entry, placed on the track of its rank. Two states morph with
`scenes.motion.race_step(old, new)`: an entry in both slides to its new place and length, so a
token that gains rank is seen moving up.

    chart = RaceChart(8).to_edge(LEFT)
    rows = chart.rows([(id, "␣Paris", v.layers[29].top[0].prob, T.HIGHLIGHT), ...])
"""

from __future__ import annotations

from typing import Hashable, Sequence

from manim import DOWN, LEFT, RIGHT, Dot, Line, Rectangle, VGroup

from .. import theme as T
from .numbers import Num
from .text import txt

Entry = tuple[Hashable, str, object, object]     # key, label, prob (a plan Value), colour


class RaceRow(VGroup):
    """One entry on `track`: its label (mono, right-aligned against the bar's start), a bar of
    length prob * `bar_width`, and the probability as a `Num` just past the bar's end, in the
    "floor" style (a probability above 0 that would read 0.00 reads "<0.01").
    `self.key` names the entry across states (a token id)."""

    def __init__(self, entry: Entry, track: Rectangle, bar_width: float, label_width: float,
                 size: float):
        key, label, value, color = entry
        prob = float(value)
        name = txt(label, size, color, mono=True)
        if name.width > label_width:
            name.scale_to_fit_width(label_width)
        name.next_to(track, LEFT, buff=0.15)
        bar = Rectangle(width=max(1e-3, bar_width * max(0.0, min(1.0, prob))),
                        height=track.height, stroke_width=0, fill_color=color, fill_opacity=0.9)
        bar.align_to(track, LEFT).match_y(track)
        num = Num(value, decimals=T.DECIMALS, size=size, color=color,
                  style="floor").next_to(bar, RIGHT, buff=0.12)
        super().__init__(name, bar, num)
        self.key, self.name, self.bar, self.num = key, name, bar, num


class RaceChart(VGroup):
    """`n` tracks, rank 1 at the top, `pitch` apart. The bars' longest (prob 1) is
    `bar_width`; labels get `label_width` to the left of the tracks."""

    def __init__(self, n: int, bar_width: float = 6.0, label_width: float = 1.8,
                 pitch: float = 0.42, height: float = 0.28, size: float = T.LABEL_SIZE):
        self.bar_width, self.label_width, self.size = bar_width, label_width, size
        self.tracks = VGroup(*[Rectangle(width=bar_width, height=height, stroke_width=0,
                                         fill_color=T.FAINT, fill_opacity=0.35)
                               .shift(DOWN * pitch * i) for i in range(n)])
        super().__init__(self.tracks)

    def rows(self, entries: Sequence[Entry]) -> dict:
        """One state: {key: RaceRow}, entry i on track i (ranked order)."""
        return {e[0]: self.row(e, i) for i, e in enumerate(entries)}

    def row(self, entry: Entry, i: int, track: Rectangle | None = None) -> RaceRow:
        return RaceRow(entry, track if track is not None else self.tracks[i], self.bar_width,
                       self.label_width, self.size)


class DepthRuler(VGroup):
    """Layers 0..n-1 as dots on a line `width` long, the end layers numbered and "layer" in
    front. `self.dots[l]` is layer l's dot. `first`/`last` are the end labels (Nums bound to
    their plan paths)."""

    def __init__(self, n: int, width: float, first: Num, last: Num, color=T.X,
                 size: float = T.SMALL_SIZE):
        dots = VGroup(*[Dot(RIGHT * width * l / (n - 1), radius=0.04, color=T.MUTED)
                        for l in range(n)])
        line = Line(dots[0].get_center(), dots[-1].get_center(), stroke_color=color,
                    stroke_width=3)
        first.next_to(dots[0], LEFT, buff=0.15)
        last.next_to(dots[-1], RIGHT, buff=0.15)
        name = txt("layer", size, T.MUTED).next_to(first, LEFT, buff=0.12)
        super().__init__(line, dots, VGroup(first, last), name)
        self.line, self.dots = line, dots


__all__ = ["RaceRow", "RaceChart", "DepthRuler"]
