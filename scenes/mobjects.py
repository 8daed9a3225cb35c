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


# --- per-head vectors, matrix thumbnails, small numbers, colour key ------------------------------

import numpy as np  # noqa: E402  (appended section: kept next to the pieces that use it)


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


def labels_under(cells: Sequence, texts: Sequence[str], size: float = T.TINY_SIZE,
                 color=T.MUTED, buff: float = 0.06) -> VGroup:
    """One text centred under each cell (token names under a pattern row), each shrunk to its
    cell's width if needed; all labels share one baseline (`baseline`, defined below)."""
    out = VGroup()
    cap = txt("H", size, color).height
    for cell, text in zip(cells, texts):
        label = txt(text, size, color)
        if label.width > 0.95 * cell.width:
            label.scale_to_fit_width(0.95 * cell.width)
        label.next_to(cell, DOWN, buff=buff)
        label.shift(UP * (float(cell.get_bottom()[1]) - buff - cap - baseline(label)))
        out.add(label)
    return out


__all__ += ["BandStrip", "HeadStrips", "MatrixThumb", "ColorKey", "labels_under"]


# --- sentences with a highlighted word, inline numbers, TeX-free axes, text tables ---------------

from manim import Axes, Dot  # noqa: E402


def highlighted(text: str, word: str, color, size: float = T.LABEL_SIZE, base=T.TEXT) -> Text:
    """A sentence with every occurrence of `word` in `color` and bold."""
    return Text(text, font=T.FONT, font_size=size, color=base, t2c={word: color},
                t2w={word: "BOLD"})


def baseline(text: Text) -> float:
    """y of a Text's baseline: the median bottom of its glyphs (descenders are the minority)."""
    bottoms = sorted(float(g.get_bottom()[1]) for g in text.submobjects if g.height > 0)
    return bottoms[len(bottoms) // 2] if bottoms else float(text.get_bottom()[1])


def inline(*parts, buff: float = 0.09) -> VGroup:
    """Text and `Num` pieces in one row, read as one sentence: inline(txt("cos ="), Num(...)).
    Texts share one baseline (a mono Num beside sans text would otherwise sit too high); other
    pieces (dots, swatches, nested rows) are centred on the first text's lower-case letters."""
    row = VGroup(*parts).arrange(RIGHT, buff=buff)
    texts = [p for p in parts if isinstance(p, Text)]
    if texts:
        ref = baseline(texts[0])
        middle = ref + 0.5 * Text("x", font=T.FONT, font_size=texts[0].font_size).height
        for p in parts:
            if isinstance(p, Text):
                p.shift(UP * (ref - baseline(p)))
            elif not isinstance(p, VGroup) or not any(isinstance(m, Text) for m in p.submobjects):
                p.set_y(middle)
    return row


def swatch(*colors, radius: float = 0.07, buff: float = 0.05) -> VGroup:
    """Coloured dots side by side: the key of a pair of contexts (or any set of colours)."""
    return VGroup(*[Dot(radius=radius, color=c) for c in colors]).arrange(RIGHT, buff=buff)


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


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], size: float = T.SMALL_SIZE,
               header_color=T.MUTED, color=T.TEXT, col_buff: float = 0.35,
               row_buff: float = 0.22) -> VGroup:
    """A table of short texts, left-aligned columns, a rule under the header. A cell may hold
    line breaks ("\\n"). `table.cells[r][c]` (row 0 is the header), `table.rules`."""
    def cell(text, c):
        return VGroup(*[txt(line, size, c) for line in text.split("\n")]).arrange(
            DOWN, buff=0.06, aligned_edge=LEFT)
    grid = [[cell(h, header_color) for h in header]] + [[cell(v, color) for v in r] for r in rows]
    n_cols = len(header)
    widths = [max(row[c].width for row in grid) for c in range(n_cols)]
    lines = VGroup()
    for row in grid:                  # cells top-aligned in their row, columns left-aligned
        x = 0.0
        for c, m in enumerate(row):
            m.move_to([x, 0, 0], aligned_edge=LEFT + UP)
            x += widths[c] + col_buff
        lines.add(VGroup(*row))
    for i in range(1, len(lines)):
        lines[i].next_to(lines[i - 1], DOWN, buff=row_buff, aligned_edge=LEFT)
    total = sum(widths) + col_buff * (n_cols - 1)
    rules = VGroup(*[rule(total, T.FAINT).next_to(lines[i], DOWN, buff=row_buff / 2)
                     .align_to(lines[0], LEFT) for i in range(len(lines) - 1)])
    table = VGroup(lines, rules)
    table.cells, table.rules = grid, rules
    return table


__all__ += ["highlighted", "baseline", "inline", "swatch", "TickAxes", "text_table"]


# --- a layer axis (the stream as a bus), a scale bar, legend entries ---------------------------

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


def legend_item(color, text: str, size: float = T.SMALL_SIZE, line: bool = False) -> VGroup:
    """A colour key entry: a small square (or, with `line`, a short stroke) and its text."""
    if line:
        mark = Line(LEFT * 0.14, RIGHT * 0.14, stroke_color=color, stroke_width=4)
    else:
        mark = Rectangle(width=0.16, height=0.16, stroke_width=0, fill_color=color,
                         fill_opacity=1)
    return VGroup(mark, txt(text, size, T.TEXT)).arrange(RIGHT, buff=0.08)


__all__ += ["LayerBus", "ScaleBar", "legend_item"]


# --- log-scale axes, probability bars, token cells, a one-colour ramp key ---------------------

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
    track, and the probability as a `Num`. `rows` are (label, prob, source, color).
    `self.rows[i]` is VGroup(label, track, bar, num)."""

    def __init__(self, rows: Sequence[tuple[str, float, str, object]], bar_width: float = 2.6,
                 label_width: float = 1.5, size: float = T.LABEL_SIZE, height: float = 0.22,
                 row_buff: float = 0.14):
        out = VGroup()
        for i, (label, prob, source, color) in enumerate(rows):   # fixed row pitch
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
            num = Num(prob, source, T.DECIMALS, size, color).next_to(track, RIGHT, buff=0.15)
            out.add(VGroup(name, track, bar, num))
        super().__init__(*out)
        self.rows = list(out)


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
                                 fill_color=interpolate_color(T.ZERO, color,
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


class RampKey(VGroup):
    """The key of a one-colour ramp (TokenCells): ZERO -> `color`, ends labelled by `Num`s."""

    def __init__(self, low: Text, high: Text, color=T.X, width: float = 1.2,
                 height: float = 0.16):
        steps = 24
        bar = VGroup(*[Rectangle(width=width / steps, height=height, stroke_width=0,
                                 fill_opacity=1,
                                 fill_color=interpolate_color(T.ZERO, color, i / (steps - 1)))
                       for i in range(steps)]).arrange(RIGHT, buff=0)
        super().__init__(low.next_to(bar, LEFT, buff=0.08), bar,
                         high.next_to(bar, RIGHT, buff=0.08))


__all__ += ["PlacedTickAxes", "ProbBars", "TokenCells", "RampKey"]


# --- an attention row: one query's weights over the keys ---------------------------------------

class PatternRow(VGroup):
    """One query's attention over the keys: a row of cells filled ZERO -> `color` by the weight
    (a probability in [0, 1], the same ramp as `TokenCells` and `RampKey`). `self.cells[j]` is
    key j's cell (put token labels under them with `labels_under`)."""

    def __init__(self, weights: Sequence[float], color=T.ATTN, cell_width: float = 0.4,
                 cell_height: float = 0.26):
        cells = VGroup(*[Rectangle(width=cell_width, height=cell_height,
                                   stroke_color=T.BACKGROUND, stroke_width=1.5, fill_opacity=1,
                                   fill_color=interpolate_color(T.ZERO, color,
                                                                max(0.0, min(1.0, float(w)))))
                         for w in weights]).arrange(RIGHT, buff=0)
        super().__init__(cells)
        self.cells, self.weights = cells, list(weights)


__all__ += ["PatternRow"]
