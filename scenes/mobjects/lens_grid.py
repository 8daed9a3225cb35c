"""The logit-lens grid: layers down, input positions across, the lens's top-1 token in every
cell, filled by its probability and yellow where it already equals the last layer's top-1;
outlines to flash those cells; and a short guide to reading the grid. Every number is a `Num`
of a typed plan view (its value brings its plan path).

    grid = lens_grid(v.grid, focus_pos=3)
    head, (name, heads, labels, cells), key_row = grid
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup, interpolate_color

from .. import theme as T
from .numbers import Num
from .strips import RampKey, TokenCells
from .text import inline, txt

CELL = (1.27, 0.285)       # a cell (width, height)


def lens_grid(g, focus_pos: int, cell=CELL, size: float = T.LABEL_SIZE,
              fill: float = 0.7) -> VGroup:
    """The grid of `g`, a view of the plan's grid (rows[i].layer/cells[j].display/prob/is_final,
    positions[j].display, key): a title, the cells with the input tokens over them (the one at
    `focus_pos` in the stream's colour) and the layer numbers beside them, and the fill key.
    A probability of 1 is filled `fill` of the way from ZERO to the stream's colour.
    Returns VGroup(title, VGroup(name, heads, labels, cells), key_row), laid out."""
    rows = g.rows
    color = interpolate_color(T.VALUE_ZERO, T.X, fill)
    cells = TokenCells([[str(c.display) for c in r.cells] for r in rows],
                       [[float(c.prob) for c in r.cells] for r in rows],
                       [[T.HIGHLIGHT if c.is_final else T.TEXT for c in r.cells]
                        for r in rows], color, cell[0], cell[1], size)
    heads = VGroup()
    for j, p in enumerate(g.positions):
        h = txt(str(p.display), size, T.X if j == focus_pos else T.MUTED, mono=True)
        if h.width > 0.95 * cell[0]:
            h.scale_to_fit_width(0.95 * cell[0])
        heads.add(h.next_to(cells.cells[0][j], UP, buff=0.1))
    labels = VGroup(*[Num(r.layer, decimals=0, size=size, color=T.MUTED) for r in rows])
    for i, lab in enumerate(labels):
        lab.next_to(cells.cells[i][0], LEFT, buff=0.12)
    name = txt("layer", size, T.MUTED).next_to(labels, UP, buff=0.1)
    name.align_to(labels, RIGHT).match_y(heads)
    head = txt("lens top-1 at every position (input tokens across)", T.SMALL_SIZE)
    key = RampKey(Num(g.key[0], decimals=0, size=T.TINY_SIZE, color=T.MUTED),
                  Num(g.key[1], decimals=0, size=T.TINY_SIZE, color=T.MUTED), color, width=0.9)
    key_row = inline(txt("fill: top-1 probability", T.TINY_SIZE, T.MUTED), key,
                     txt("  yellow: same as the last layer's top-1", T.TINY_SIZE, T.HIGHLIGHT),
                     buff=0.1)
    body = VGroup(name, heads, labels, cells)
    head.next_to(body, UP, buff=T.TIGHT).align_to(labels, LEFT)
    key_row.next_to(body, DOWN, buff=T.TIGHT + 0.05).align_to(labels, LEFT)
    return VGroup(head, body, key_row)


def final_outlines(g, cells: TokenCells, cell=CELL) -> list[Rectangle]:
    """An outline on every cell whose token already equals the last layer's (to flash)."""
    return [Rectangle(width=cell[0], height=cell[1], stroke_color=T.HIGHLIGHT,
                      stroke_width=3).move_to(cells.cells[i][j])
            for i, r in enumerate(g.rows) for j, c in enumerate(r.cells) if c.is_final]


def grid_guide(g, size: float = T.TYPE.small, width: float = 6.5) -> VGroup:
    """How to read the grid: rows, columns, the space mark, which layers are shown (every
    `g.every` up to `g.sparse_until`, then every layer from `g.dense_from`); at most `width`."""
    lines = [txt("How to read it", size, T.TEXT, weight="BOLD"),
             txt("row: one layer's stream, read by the lens", size, T.MUTED),
             txt("column: the guess after that input token", size, T.MUTED),
             inline(txt("␣", size, T.HIGHLIGHT, mono=True),
                    txt("marks a space:", size, T.MUTED),
                    txt("␣of", size, T.TEXT, mono=True),
                    txt("is \" of\"", size, T.MUTED)),
             inline(txt("a lone", size, T.MUTED), txt("␣", size, T.TEXT, mono=True),
                    txt("is a token that is just a space", size, T.MUTED))]
    if g.sparse_until.value is not None:
        lines.append(inline(txt("rows: every", size, T.MUTED),
                            Num(g.every, decimals=0, size=size),
                            txt("layers up to", size, T.MUTED),
                            Num(g.sparse_until, decimals=0, size=size)))
        lines.append(inline(txt("then every layer from", size, T.MUTED),
                            Num(g.dense_from, decimals=0, size=size)))
    lines.append(txt("the last row is the model's real output", size, T.MUTED))
    group = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF + 0.05)
    if group.width > width:
        group.scale_to_fit_width(width)
    return group


__all__ = ["CELL", "lens_grid", "final_outlines", "grid_guide"]
