"""A colour legend per quantity (colours from theme.QUANTITY), e.g. in a corner of a scene:

    quantity_legend("x", "q", "k", "v").to_corner(UR)
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, Line, VGroup

from .. import theme as T
from ..mobjects.text import txt


def quantity_legend(*keys: str, size: float = T.TYPE.small, vertical: bool = True) -> VGroup:
    """One short line in its colour and the quantity's name, per key of theme.QUANTITY."""
    items = VGroup()
    for key in keys:
        color = T.QUANTITY[key]
        mark = Line(LEFT * 0.18, RIGHT * 0.18, color=color, stroke_width=6)
        items.add(VGroup(mark, txt(T.QUANTITY_NAME[key], size, color)).arrange(RIGHT, buff=0.12))
    return items.arrange(DOWN if vertical else RIGHT, aligned_edge=LEFT, buff=0.12)


__all__ = ["quantity_legend"]
