"""A vector as a column of numbers, and colour strips that do not blank small values.

    col = VectorColumn.from_plan(scene.plan, "data.layers[0].x_in", show=3,
                                 norm_path="data.layers[0].x_norm", color=T.X)
    strip = SignedStrip(values)          # colour = sign * sqrt(|v| / max|v|), scale stated once

A `VectorColumn` shows the first `show` entries as `Num`s bound to `source[i]`, then `⋮` and a
summary ("384 dims, |x| = 12.30", the norm a `Num` from its own plan path) when it is longer.
"""

from __future__ import annotations

import math as _m
from typing import Sequence

from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup, interpolate_color

from .. import theme as T
from layerwise_core.planview import step

from ..mobjects.numbers import resolve
from ..mobjects.numbers import Num, bracket
from ..mobjects.text import txt


class VectorColumn(VGroup):
    """`values` (the plan's list at `source`) as a bracketed column: entries `self.nums[i]`
    (Num, path `source`[i]), `⋮` and a summary when the vector is longer than `show`.
    `length`: the vector's length when `values` holds only its first entries; `summary=False`
    leaves the summary out (columns side by side, their length said once)."""

    def __init__(self, values: Sequence[float], source: str, show: int = 4,
                 decimals: int = T.DECIMALS, color=T.TEXT, size: float = T.TYPE.small,
                 norm: tuple[float, str] | None = None, buff: float = 0.1,
                 length: int | None = None, summary: bool = True):
        n = length or len(values)
        shown = min(len(values), n if n <= show + 1 else show)
        self.nums = VGroup(*[Num(values[i], step(source, i), decimals, size, color)
                             for i in range(shown)])
        self.nums.arrange(DOWN, buff=buff, aligned_edge=RIGHT)
        body = VGroup(self.nums)
        self.summary = VGroup()
        if shown < n:
            dots = txt("⋮", size, color).next_to(self.nums, DOWN, buff=buff)
            body.add(dots)
        if shown < n and summary:
            parts = [txt(f"{n} dims", size, T.MUTED)]
            if norm is not None:
                parts.append(Num(norm[0], norm[1], decimals, size, T.MUTED, prefix="|x| = "))
            self.summary = VGroup(*parts).arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        h = body.height + 0.16
        left = bracket(h, -1).next_to(body, LEFT, buff=0.08)
        right = bracket(h, +1).next_to(body, RIGHT, buff=0.08)
        super().__init__(left, body, right)
        if len(self.summary):
            self.summary.next_to(right, RIGHT, buff=0.12).align_to(right, DOWN)
            self.add(self.summary)
        self.source, self.values = source, list(values)

    def at(self, x: float, top: float) -> "VectorColumn":
        """Move so the numbers are centred on x (a summary beside them does not count) and
        the column's top is at `top`."""
        return self.shift(RIGHT * (x - self[1].get_x()) + UP * (top - self.get_top()[1]))

    @classmethod
    def from_plan(cls, plan: dict, source: str, norm_path: str | None = None, **kw):
        norm = (float(resolve(plan, norm_path)), norm_path) if norm_path else None
        return cls(resolve(plan, source), source, norm=norm, **kw)


def strip_scale(values: Sequence[float], limit: float | None = None,
                mode: str = "sqrt") -> tuple[list[float], float]:
    """Values mapped to [-1, 1] for colour: v / L ('linear') or sign(v) sqrt(|v| / L) ('sqrt'),
    L = `limit` or the vector's own max |v|. Returns (scaled, L): state L once on screen."""
    L = float(limit) if limit else max((abs(float(v)) for v in values), default=1.0) or 1.0
    out = []
    for v in values:
        r = max(-1.0, min(1.0, float(v) / L))
        out.append(_m.copysign(_m.sqrt(abs(r)), r) if mode == "sqrt" else r)
    return out, L


def signed_color(s: float):
    """Colour of a scaled value in [-1, 1] in the value map (theme.VALUE_*)."""
    s = max(-1.0, min(1.0, float(s)))
    return interpolate_color(T.VALUE_ZERO, T.VALUE_POS if s >= 0 else T.VALUE_NEG, abs(s))


class SignedStrip(VGroup):
    """A vector as one gradient band (fast, 2 mobjects) in the value map, scaled by
    `strip_scale`; `.scaled` (the colours' inputs) and `.limit` as for the state JSON."""

    def __init__(self, values: Sequence[float], width: float = T.STRIP_WIDTH,
                 height: float = T.STRIP_HEIGHT, limit: float | None = None,
                 mode: str = "sqrt", repeat: int = 4):
        self.scaled, self.limit = strip_scale(values, limit, mode)
        colors = [signed_color(v) for v in self.scaled for _ in range(repeat)]
        band = Rectangle(width=width, height=height, stroke_width=0)
        band.set_fill(color=colors, opacity=1).set_sheen_direction(RIGHT)
        frame = Rectangle(width=width, height=height, stroke_color=T.FAINT, stroke_width=1)
        super().__init__(band, frame.move_to(band))


__all__ = ["VectorColumn", "strip_scale", "signed_color", "SignedStrip"]
