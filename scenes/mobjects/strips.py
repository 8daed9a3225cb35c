"""Vectors and matrices as colour: strips, per-head strips, thumbnails, heat maps, keys."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from manim import (DOWN, LEFT, RIGHT, Rectangle, Text, VGroup, interpolate_color)

from .. import theme as T
from .text import txt


def value_color(v: float):
    """Diverging colour of a scaled value in [-1, 1]: the chapter's value map (magenta < 0 <
    green), which no quantity colour uses (blue is X, not "negative")."""
    v = max(-1.0, min(1.0, float(v)))
    return interpolate_color(T.VALUE_ZERO, T.VALUE_POS if v >= 0 else T.VALUE_NEG, abs(v))


class ValueStrip(VGroup):
    """A vector as a row of coloured cells: every value, colour = scaled value in [-1, 1]."""

    def __init__(self, scaled: Sequence[float], width: float = T.STRIP_WIDTH,
                 height: float = T.STRIP_HEIGHT, outline=T.FAINT):
        cell = width / len(scaled)
        cells = VGroup(*[Rectangle(width=cell, height=height, stroke_width=0, fill_opacity=1,
                                   fill_color=value_color(v)) for v in scaled])
        cells.arrange(RIGHT, buff=0)
        frame = Rectangle(width=width, height=height, stroke_color=outline, stroke_width=1)
        frame.move_to(cells)
        super().__init__(cells, frame)
        self.cells, self.scaled = cells, list(scaled)


class BandStrip(ValueStrip):
    """A `ValueStrip` drawn as ONE rectangle whose fill is a left-to-right gradient with `repeat`
    equal colour stops per value, so each value keeps a flat band of its colour (the last
    1/repeat of a band blends into the next). Looks like a ValueStrip, but is 2 mobjects instead
    of one per value: fades and copies of 384-value strips stay fast. `.scaled` as ValueStrip."""

    def __init__(self, scaled: Sequence[float], width: float = T.STRIP_WIDTH,
                 height: float = T.STRIP_HEIGHT, outline=T.FAINT, repeat: int = 4):
        colors = [value_color(v) for v in scaled for _ in range(repeat)]
        band = Rectangle(width=width, height=height, stroke_width=0)
        band.set_fill(color=colors, opacity=1).set_sheen_direction(RIGHT)
        frame = Rectangle(width=width, height=height, stroke_color=outline, stroke_width=1)
        VGroup.__init__(self, band, frame.move_to(band))
        self.cells, self.scaled = VGroup(band), list(scaled)


class HeadStrips(VGroup):
    """A per-head vector [head][d_head] as one strip (`BandStrip`) per head, a visible gap
    between heads. `width` is the whole row; `self.strips[h]` is head h's strip."""

    def __init__(self, scaled_rows: Sequence[Sequence[float]], width: float = T.STRIP_WIDTH,
                 height: float = T.STRIP_HEIGHT, gap: float = 0.06):
        n = len(scaled_rows)
        cell = (width - gap * (n - 1)) / n
        strips = [BandStrip(row, cell, height) for row in scaled_rows]
        super().__init__(*strips)
        self.arrange(RIGHT, buff=gap)
        self.strips = strips


class MatrixThumb(VGroup):
    """A block of a matrix as a small picture in the strips' diverging colours (`scaled_rows` in
    [-1, 1]): one borderless `BandStrip` per row, so an entry is a cell of width height/n_cols.
    (Not an ImageMobject: manim 0.22's Cairo image path fails with Pillow 13.)"""

    def __init__(self, scaled_rows: Sequence[Sequence[float]], height: float = 1.0,
                 outline=T.FAINT):
        n_rows, n_cols = len(scaled_rows), len(scaled_rows[0])
        cell = height / n_rows
        cells = VGroup(*[BandStrip(row, cell * n_cols, cell, repeat=3)[0]
                         for row in scaled_rows]).arrange(DOWN, buff=0)
        frame = Rectangle(width=cell * n_cols, height=height, stroke_color=outline,
                          stroke_width=1).move_to(cells)
        super().__init__(cells, frame)
        self.cells, self.scaled = cells, [list(r) for r in scaled_rows]


class ColorKey(VGroup):
    """The colour scale of strips and thumbnails: a small gradient from -1 to +1, ends labelled."""

    def __init__(self, width: float = 1.2, height: float = 0.16, size: float = T.TINY_SIZE,
                 low: str = "−1", high: str = "+1"):
        bar = ValueStrip(list(np.linspace(-1.0, 1.0, 41)), width, height)
        lo = txt(low, size, T.MUTED).next_to(bar, LEFT, buff=0.06)
        hi = txt(high, size, T.MUTED).next_to(bar, RIGHT, buff=0.06)
        super().__init__(lo, bar, hi)


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


class Heatmap(VGroup):
    """A matrix of values in [0, 1] as squares of one colour with that opacity."""

    def __init__(self, values: Sequence[Sequence[float]], color, cell: float = 0.3):
        squares = VGroup()
        for row in values:
            for v in row:
                squares.add(Rectangle(width=cell, height=cell, stroke_color=T.FAINT,
                                      stroke_width=0.5, fill_color=color,
                                      fill_opacity=max(0.0, min(1.0, float(v)))))
        squares.arrange_in_grid(rows=len(values), cols=len(values[0]), buff=0)
        super().__init__(squares)
        self.squares = squares


class PatternRow(VGroup):
    """One query's attention over the keys: a row of cells filled ZERO -> `color` by the weight
    (a probability in [0, 1], the same ramp as `TokenCells` and `RampKey`). `self.cells[j]` is
    key j's cell (put token labels under them with `labels_under`)."""

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


__all__ = ['value_color', 'ValueStrip', 'BandStrip', 'HeadStrips', 'MatrixThumb', 'ColorKey', 'RampKey', 'Heatmap', 'PatternRow', 'TokenCells']
