"""TeX-free axes and charts: tick axes, log-scale axes, probability bars, the layer bus."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from manim import (Axes, DOWN, Dot, LEFT, Line, RIGHT, Rectangle, Text, UP, VGroup, VMobject)

from .. import theme as T
from .numbers import Num
from .text import txt


class TickAxes(VGroup):
    """Manim `Axes` without TeX: tick labels are `Num`s (value + plan path) built here.

    `x_ticks`/`y_ticks` are (value, source) pairs; `self.axes` is the Axes (use its `c2p`),
    `self.x_labels[i]`, `self.y_labels[i]` the tick labels."""

    def __init__(self, x_range, y_range, x_length: float, y_length: float,
                 x_ticks: Sequence[tuple[float, str]], y_ticks: Sequence[tuple[float, str]],
                 x_decimals: int = 0, y_decimals: int = 2, size: float = T.TINY_SIZE,
                 color=T.MUTED, grid: bool = True):
        axes = Axes(x_range=x_range, y_range=y_range, x_length=x_length, y_length=y_length,
                    tips=False, axis_config={"stroke_color": color, "stroke_width": 2,
                                             "include_ticks": True, "tick_size": 0.05})
        self.axes = axes
        self.x_labels = VGroup(*[Num(v, src, x_decimals, size, color).next_to(
            axes.c2p(v, y_range[0]), DOWN, buff=0.12) for v, src in x_ticks])
        self.y_labels = VGroup(*[Num(v, src, y_decimals, size, color).next_to(
            axes.c2p(x_range[0], v), LEFT, buff=0.12) for v, src in y_ticks])
        lines = VGroup()
        if grid:
            for v, _ in y_ticks:
                lines.add(Line(axes.c2p(x_range[0], v), axes.c2p(x_range[1], v),
                               stroke_color=T.FAINT, stroke_width=1, stroke_opacity=0.7))
        self.grid = lines
        super().__init__(lines, axes, self.x_labels, self.y_labels)


class PlacedTickAxes(VGroup):
    """Manim `Axes` without TeX whose tick labels need not equal the coordinate (a log axis:
    height -2 labelled "100"). Ticks are (position, value, source): a `Num` of `value` (plan path
    `source`) drawn at `position`. `self.axes` (use its `c2p`), `self.x_labels`, `self.y_labels`,
    `self.grid` (a faint line at every y tick)."""

    def __init__(self, x_range, y_range, x_length: float, y_length: float,
                 x_ticks: Sequence[tuple[float, float, str]],
                 y_ticks: Sequence[tuple[float, float, str]], x_decimals: int = 0,
                 y_decimals: int = 0, size: float = T.TINY_SIZE, color=T.MUTED,
                 grid: bool = True):
        axes = Axes(x_range=x_range, y_range=y_range, x_length=x_length, y_length=y_length,
                    tips=False, axis_config={"stroke_color": color, "stroke_width": 2,
                                             "include_ticks": True, "tick_size": 0.05})
        self.axes = axes
        self.x_labels = VGroup(*[Num(v, src, x_decimals, size, color).next_to(
            axes.c2p(p, y_range[0]), DOWN, buff=0.1) for p, v, src in x_ticks])
        self.y_labels = VGroup(*[Num(v, src, y_decimals, size, color).next_to(
            axes.c2p(x_range[0], p), LEFT, buff=0.1) for p, v, src in y_ticks])
        self.grid = VGroup(*[Line(axes.c2p(x_range[0], p), axes.c2p(x_range[1], p),
                                  stroke_color=T.FAINT, stroke_width=1, stroke_opacity=0.7)
                             for p, _, _ in y_ticks]) if grid else VGroup()
        super().__init__(self.grid, axes, self.x_labels, self.y_labels)


class ProbBars(VGroup):
    """A ranked list: per row a label (mono), a bar of length prob * `bar_width` on a faint
    track, and the probability as a `Num`. `rows` are (label, prob, color), `prob` a plan
    value (`layerwise_core.planview.Value`: it brings its plan path).
    `self.rows[i]` is VGroup(label, track, bar, num)."""

    def __init__(self, rows: Sequence[tuple[str, object, object]], bar_width: float = 2.6,
                 label_width: float = 1.5, size: float = T.LABEL_SIZE, height: float = 0.22,
                 row_buff: float = 0.14):
        out = VGroup()
        for i, (label, value, color) in enumerate(rows):   # fixed row pitch
            prob = float(value)
            y = -i * (height + row_buff)
            track = Rectangle(width=bar_width, height=height, stroke_width=0,
                              fill_color=T.FAINT, fill_opacity=0.35)
            track.move_to([label_width + 0.2 + bar_width / 2, y, 0])
            name = txt(label, size, color, mono=True)
            if name.width > label_width:
                name.scale_to_fit_width(label_width)
            name.move_to([0, y, 0], aligned_edge=LEFT)
            bar = Rectangle(width=max(1e-3, bar_width * max(0.0, min(1.0, prob))),
                            height=height, stroke_width=0, fill_color=color, fill_opacity=0.9)
            bar.align_to(track, LEFT).match_y(track)
            num = Num(value, decimals=T.DECIMALS, size=size, color=color).next_to(
                track, RIGHT, buff=0.15)
            out.add(VGroup(name, track, bar, num))
        super().__init__(*out)
        self.rows = list(out)


class LayerBus(VGroup):
    """The residual stream as a horizontal line through `n` layers, one node per layer.

    `self.node(l)` is layer l's dot (place per-layer pieces on it), `self.line` the bus,
    `self.labels` the layer numbers under it (every `label_every`-th layer and the last)."""

    def __init__(self, n: int, width: float, color=T.X, label_every: int = 5,
                 size: float = T.SMALL_SIZE, node_radius: float = 0.045):
        slot = width / n
        line = Line(LEFT * width / 2, RIGHT * width / 2, stroke_color=color, stroke_width=4)
        nodes = VGroup(*[Dot(LEFT * width / 2 + RIGHT * slot * (l + 0.5), radius=node_radius,
                             color=color).set_stroke(T.BACKGROUND, 1.5) for l in range(n)])
        shown = sorted({l for l in range(n) if l % label_every == 0} | {n - 1})
        labels = VGroup(*[txt(str(l), size, T.MUTED).next_to(nodes[l], DOWN, buff=0.12)
                          for l in shown])
        super().__init__(line, nodes, labels)
        self.line, self.nodes, self.labels, self.slot = line, nodes, labels, slot

    def node(self, l: int) -> Dot:
        return self.nodes[l]


class ScaleBar(VGroup):
    """A horizontal bar of `length` scene units with end ticks and `label` (a `Num`) beside it
    (`side` = UP or LEFT): how long a given distance in data units is on a plot without axes."""

    def __init__(self, length: float, label: Text, color=T.MUTED, tick: float = 0.08,
                 side=UP):
        bar = VMobject(stroke_color=color, stroke_width=2).set_points_as_corners(
            [UP * tick / 2, np.zeros(3), RIGHT * length, RIGHT * length + UP * tick / 2])
        super().__init__(bar, label.next_to(bar, side, buff=0.08))
        self.bar, self.label = bar, label


__all__ = ['TickAxes', 'PlacedTickAxes', 'ProbBars', 'LayerBus', 'ScaleBar']
