"""The matrix-vector product, shown happening: a copy of X flies into W, the product's entries
appear one by one (each lighting the column of W it uses: the chapter writes Q = X W_Q, X a
row), and the result is the new vector.

    W = WeightBlock.from_plan(scene.plan, "data.layers[1].W_Q", color=T.Q)
    q = matvec(scene, x_row, W, "data.layers[1].q", color=T.Q)     # returns the result row

`WeightBlock` draws a small W as numbers (each a `Num` bound to its path), so one layer's W is
visibly different from the last; a large W as a block of signed colours of its first rows and
columns with the scale stated (`MatVec.heat`).
"""

from __future__ import annotations

from typing import Sequence

from manim import (DOWN, LEFT, RIGHT, UP, FadeIn, Rectangle, SurroundingRectangle,
                   TransformFromCopy, VGroup)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..mobjects.numbers import resolve
from ..mobjects.numbers import Num, NumberGrid
from ..mobjects.text import txt
from .vector import signed_color, strip_scale


class WeightBlock(VGroup):
    """A matrix: numbers when small (rows*cols <= 36), else a signed-colour block of at most
    `max_rows` x `max_cols` with its scale ("colour: ±L"). `self.columns[j]` is column j."""

    def __init__(self, values: Sequence[Sequence[float]], source: str, color=T.TEXT,
                 size: float = T.TYPE.small, decimals: int = T.DECIMALS, max_rows: int = 12,
                 max_cols: int = 12, cell: float = 0.22):
        rows, cols = len(values), len(values[0])
        if rows * cols <= 36:
            grid = NumberGrid(values, source, color, size, decimals)
            super().__init__(*grid)
            self.nums = grid.nums
            self.columns = [VGroup(*[grid.nums[i * cols + j] for i in range(rows)])
                            for j in range(cols)]
            self.as_numbers = True
            return
        r, c = min(rows, max_rows), min(cols, max_cols)
        flat = [float(values[i][j]) for i in range(r) for j in range(c)]
        scaled, limit = strip_scale(flat, mode="linear")
        cells = VGroup(*[Rectangle(width=cell, height=cell, stroke_width=0, fill_opacity=1,
                                   fill_color=signed_color(s)) for s in scaled])
        cells.arrange_in_grid(rows=r, cols=c, buff=0)
        frame = SurroundingRectangle(cells, color=T.FAINT, buff=0, stroke_width=1)
        key = txt(f"first {r}×{c} of {rows}×{cols}, colour ± its max |w|", T.TYPE.small,
                  T.MUTED).next_to(frame, DOWN, buff=0.1)
        super().__init__(cells, frame, key)
        self.scaled, self.limit, self.as_numbers = scaled, limit, False
        self.columns = [VGroup(*[cells[i * c + j] for i in range(r)]) for j in range(c)]
        self.nums = VGroup()

    @classmethod
    def from_plan(cls, plan: dict, source: str, **kw) -> "WeightBlock":
        return cls(resolve(plan, source), source, **kw)


class MatVec(VGroup):
    """Layout of X W = out: x row, W, '=', result row (built by `matvec`)."""


def row_of(values: Sequence[float], source: str, color, size=T.TYPE.small,
           decimals: int = T.DECIMALS) -> NumberGrid:
    return NumberGrid([list(values)], source, color, size, decimals)


def write_by_columns(scene, W: WeightBlock, result, color, run_time: float):
    """Each entry j of `result` (a row_of) fades in as W's column j is lit, `run_time` over all
    of them; then the row stands whole (its brackets already on screen)."""
    n = len(result.nums)
    for j in range(n):
        light = SurroundingRectangle(W.columns[j], color=color, buff=0.05, stroke_width=2)
        scene.play(FadeInPlace(light), FadeIn(result.nums[j], shift=0.15 * RIGHT),
                   run_time=run_time / n)
        scene.remove(light)
    scene.remove(result[0], result[2])
    scene.add(result)


def matvec(scene, x, W: WeightBlock, out_path: str, color=T.TEXT, result_at=None,
           run_time: float | None = None, keep_x: bool = False, size=T.TYPE.small,
           x_side=LEFT):
    """Animate x W -> result: a copy of `x` flies to W's left (or `x_side`), each output entry appears as its
    column of W lights up, the copy fades. The result (a NumberGrid row of Nums bound to
    `out_path[j]`) is placed at `result_at` (a point, or right of W) and returned."""
    values = scene.value(out_path)
    total = run_time or scene.quick(0.45, 2.4)
    target = x.copy().next_to(W, x_side, buff=0.12)
    scene.play(TransformFromCopy(x, target), run_time=0.3 * total)
    result = row_of(values, out_path, color, size)
    if result_at is None:
        result.next_to(W, RIGHT, buff=0.45)
    else:
        result.move_to(result_at)
    scene.add(result[0], result[2])            # brackets
    write_by_columns(scene, W, result, color, 0.5 * total)
    if not keep_x:
        scene.play(FadeOutPlace(target), run_time=0.2 * total)
    return result


__all__ = ["WeightBlock", "MatVec", "matvec", "row_of", "write_by_columns"]
