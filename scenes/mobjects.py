"""Reusable visual pieces: text, math, value strips, number vectors and matrices, heat maps.

Every scene builds from these, so a colour or size changes in one place (theme.py). Numbers
are `Num` mobjects that remember the plan value and plan path they show, so a test can check
that what is on screen is what the trace says.
"""

from __future__ import annotations

import textwrap
from typing import Sequence

from manim import (DOWN, LEFT, RIGHT, UP, Line, MathTypst, Rectangle, Text, VGroup, VMobject,
                   interpolate_color)

from . import theme as T


def txt(text: str, size: float = T.LABEL_SIZE, color=T.TEXT, mono: bool = False,
        weight: str = "NORMAL") -> Text:
    return Text(text, font=T.MONO if mono else T.FONT, font_size=size, color=color,
                weight=weight)


def math(source: str, size: float = T.MATH_SIZE, color=T.TEXT) -> MathTypst:
    """Typst math (no TeX needed): math("W_Q^((3))")."""
    return MathTypst(source, font_size=size, color=color)


def wrapped(text: str, width_chars: int = 80, size: float = T.CAPTION_SIZE, color=T.TEXT,
            max_width: float = T.CAPTION_WIDTH) -> VGroup:
    """Multi-line text, wrapped at `width_chars`, centred lines, at most `max_width` wide."""
    lines = textwrap.wrap(text, width_chars) or [""]
    group = VGroup(*[txt(line, size, color) for line in lines]).arrange(DOWN, buff=T.TIGHT)
    if group.width > max_width:
        group.scale_to_fit_width(max_width)
    return group


class Num(Text):
    """A number on screen, formatted by theme.fmt, remembering its value and plan path."""

    def __init__(self, value: float, source: str, decimals: int = T.DECIMALS,
                 size: float = T.SMALL_SIZE, color=T.TEXT, prefix: str = "", suffix: str = ""):
        self.value, self.source, self.decimals = float(value), source, decimals
        self.shown = T.fmt(value, decimals)
        super().__init__(prefix + self.shown + suffix, font=T.MONO, font_size=size, color=color)


def value_color(v: float):
    """Diverging colour of a scaled value in [-1, 1]."""
    v = max(-1.0, min(1.0, float(v)))
    return interpolate_color(T.ZERO, T.POSITIVE if v >= 0 else T.NEGATIVE, abs(v))


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
        rows = [[Num(v, f"{source}[{i}][{j}]" if len(values) > 1 else f"{source}[{j}]",
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


def code_block(source: str, size: float = 15, line_height: float = 0.27) -> VGroup:
    """Monospace code, one Text per line (blank lines keep their height), indentation kept.
    `code_block(...)[i]` is line i + 1, for highlighting."""
    char = txt("M", size, mono=True).width
    lines = VGroup()
    for i, src in enumerate(source.split("\n")):
        line = txt(src.strip() or ".", size, T.TEXT, mono=True)
        if not src.strip():
            line.set_opacity(0)
        line.move_to(DOWN * i * line_height, aligned_edge=LEFT)
        line.shift(RIGHT * (len(src) - len(src.lstrip())) * char)
        lines.add(line)
    return lines


def labelled(mob, label, direction=LEFT, buff: float = T.BUFF) -> VGroup:
    """`label` placed beside `mob`, grouped."""
    return VGroup(label.next_to(mob, direction, buff=buff), mob)


def rule(width: float, color=T.FAINT) -> Line:
    return Line(LEFT * width / 2, RIGHT * width / 2, stroke_color=color, stroke_width=1)


__all__ = ["txt", "math", "wrapped", "Num", "value_color", "ValueStrip", "bracket",
           "NumberGrid", "Heatmap", "code_block", "labelled", "rule", "UP", "DOWN", "LEFT", "RIGHT"]
