"""Values as colour cells: an attention row, a grid of labelled cells, and their key."""

from __future__ import annotations

from typing import Sequence

from manim import LEFT, RIGHT, Rectangle, Text, VGroup, interpolate_color

from .. import theme as T
from .text import txt


class RampKey(VGroup):
    """The key of a one-colour ramp (TokenCells): ZERO -> `color`, ends labelled by `Num`s."""

    def __init__(self, low: Text, high: Text, color=T.X, width: float = 1.2,
                 height: float = 0.16):
        steps = 24
        bar = VGroup(*[Rectangle(width=width / steps, height=height, stroke_width=0,
                                 fill_opacity=1,
                                 fill_color=interpolate_color(T.VALUE_ZERO, color, i / (steps - 1)))
                       for i in range(steps)]).arrange(RIGHT, buff=0)
        super().__init__(low.next_to(bar, LEFT, buff=0.08), bar,
                         high.next_to(bar, RIGHT, buff=0.08))


class PatternRow(VGroup):
    """One query's attention over the keys: a row of cells filled ZERO -> `color` by the weight
    (a probability in [0, 1], the same ramp as `TokenCells` and `RampKey`). `self.cells[j]` is
    key j's cell."""

    def __init__(self, weights: Sequence[float], color=T.ATTN, cell_width: float = 0.4,
                 cell_height: float = 0.26):
        cells = VGroup(*[Rectangle(width=cell_width, height=cell_height,
                                   stroke_color=T.BACKGROUND, stroke_width=1.5, fill_opacity=1,
                                   fill_color=interpolate_color(T.VALUE_ZERO, color,
                                                                max(0.0, min(1.0, float(w)))))
                         for w in weights]).arrange(RIGHT, buff=0)
        super().__init__(cells)
        self.cells, self.weights = cells, list(weights)


class TokenCells(VGroup):
    """A grid of short texts on cells filled ZERO -> `color` by a value in [0, 1] (e.g. a
    probability). `texts[i][j]`, `values[i][j]`, `text_colors[i][j]`; `self.cells[i][j]` is
    VGroup(rect, text). Texts wider than a cell are shrunk to fit."""

    def __init__(self, texts, values, text_colors, color=T.X, cell_width: float = 1.1,
                 cell_height: float = 0.25, size: float = T.SMALL_SIZE, mono: bool = True):
        cells = []
        for row_t, row_v, row_c in zip(texts, values, text_colors):
            row = []
            for text, v, c in zip(row_t, row_v, row_c):
                rect = Rectangle(width=cell_width, height=cell_height, stroke_color=T.BACKGROUND,
                                 stroke_width=1.5, fill_opacity=1,
                                 fill_color=interpolate_color(T.VALUE_ZERO, color,
                                                              max(0.0, min(1.0, float(v)))))
                label = txt(text, size, c, mono=mono)
                if label.width > 0.92 * cell_width:
                    label.scale_to_fit_width(0.92 * cell_width)
                row.append(VGroup(rect, label.move_to(rect)))
            cells.append(row)
        flat = VGroup(*[c for row in cells for c in row])
        flat.arrange_in_grid(rows=len(cells), cols=len(cells[0]), buff=0)
        super().__init__(*flat)
        self.cells = cells


__all__ = ['RampKey', 'PatternRow', 'TokenCells']
