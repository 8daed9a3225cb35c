"""Numbers on screen: each `Num` remembers the plan value and plan path it shows."""

from __future__ import annotations

from typing import Sequence

from manim import (LEFT, RIGHT, Text, VGroup, VMobject)

from layerwise_core.planview import step
from layerwise_core.storyboard.paths import lookup

from .. import theme as T
from .text import txt


def resolve(plan: dict, path: str):
    """The value at a plan path like 'data.layers[0].x_in[1]' (the storyboard's own path
    grammar, `layerwise_core.storyboard.paths`; PathError names a missing step)."""
    return lookup(plan, path)


class Num(Text):
    """A number on screen, formatted by theme.fmt, remembering its value and plan path:
    `Num(view.layers[3].x_norm, decimals=2)` (a `layerwise_core.planview.Value` brings its
    path), or `Num(value, "data.layers[3].x_norm")`; `style` (theme.STYLES) writes a bound
    ("<0.01", "floor") or grouped thousands ("group") and is recorded with the number.

    The glyphs of a text are the same wherever it is shown, so each distinct (text, size,
    colour) is laid out by Pango and parsed from SVG once per process (`txt`'s prototypes);
    a Num is a copy of that one (the same points and colours) with its own value and path."""

    def __init__(self, value, source: str | None = None, decimals: int = T.DECIMALS,
                 size: float = T.SMALL_SIZE, color=T.TEXT, prefix: str = "", suffix: str = "",
                 style: str = ""):
        if source is None:          # a planview.Value: the value carries its own plan path
            value, source = value.value, value.path
        shown = T.fmt(value, decimals, style)
        self.__dict__.update(txt(prefix + shown + suffix, size, color, mono=True).__dict__)
        for part in self.get_family():              # a copy's mark, not in a fresh Num
            part.__dict__.pop("original_id", None)
        self.value, self.source, self.decimals = float(value), source, decimals
        self.shown, self.style = shown, style


def bracket(height: float, side: int, color=T.MUTED) -> VMobject:
    """A square bracket of `height`; side = -1 for '[', +1 for ']'."""
    w = 0.08
    pts = [[-side * w, height / 2, 0], [0, height / 2, 0], [0, -height / 2, 0],
           [-side * w, -height / 2, 0]]
    return VMobject(stroke_color=color, stroke_width=2).set_points_as_corners(pts)


class NumberGrid(VGroup):
    """A matrix (or vector, rows=1) of `Num`s in brackets; `sources[i][j]` are plan paths."""

    def __init__(self, values: Sequence[Sequence[float]], source: str, color=T.TEXT,
                 size: float = T.SMALL_SIZE, decimals: int = T.DECIMALS):
        rows = [[Num(v, step(step(source, i), j) if len(values) > 1 else step(source, j),
                     decimals, size, color) for j, v in enumerate(row)]
                for i, row in enumerate(values)]
        grid = VGroup(*[n for row in rows for n in row])
        grid.arrange_in_grid(rows=len(rows), cols=len(rows[0]), buff=(0.25, 0.12),
                             cell_alignment=RIGHT)
        h = grid.height + 0.15
        left = bracket(h, -1).next_to(grid, LEFT, buff=0.08)
        right = bracket(h, +1).next_to(grid, RIGHT, buff=0.08)
        super().__init__(left, grid, right)
        self.nums = grid


__all__ = ['Num', 'bracket', 'NumberGrid', 'resolve']
