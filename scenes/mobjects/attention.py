"""Attention heads drawn: a head as a card holding its three projection matrices, a head's
attention matrix, and a row of numbers under a row of tokens (one query against every key).

    card = HeadCard(2)                                   # "head 2", W_Q W_K W_V to shape
    m = AttentionMatrix(plan_pattern, tokens)            # labelled, readable
    mini = AttentionMatrix(pattern, tokens, 0.12, 0.1, labels=False)   # a thumbnail
    m.cell(6, 5); m.rows[6]; m.below_diagonal()          # cells to point at
    dots = number_row(values, "data...dots", 1, xs, y=0.5)   # a Num per token (or a dash)
"""

from __future__ import annotations

from typing import Sequence

from manim import DOWN, LEFT, RIGHT, Rectangle, RoundedRectangle, VGroup

from layerwise_core.planview import step

from .. import theme as T
from .numbers import Num
from .strips import PatternRow
from .text import on_baseline, txt


class HeadCard(VGroup):
    """One attention head: "head h" over its W_Q, W_K, W_V, each a bar in its quantity's
    colour drawn to the shape of a d_model x d_head matrix (tall and thin, 12:1 for 384 x 32;
    the numbers are said in a legend). `self.bars` are the three matrices."""

    def __init__(self, head: int, aspect: float = 12.0, height: float = 1.2,
                 size: float = T.TYPE.small):
        frame = RoundedRectangle(width=1.45, height=height + 0.6, corner_radius=0.08,
                                 stroke_color=T.FAINT, stroke_width=1.5)
        name = txt(f"head {head}", size).next_to(frame.get_top(), DOWN, buff=0.1)
        self.bars = VGroup(*[Rectangle(width=height / aspect, height=height, stroke_color=c,
                                       stroke_width=1.5, fill_color=c, fill_opacity=0.35)
                             for c in (T.Q, T.K, T.V)])
        self.bars.arrange(RIGHT, buff=0.3).next_to(name, DOWN, buff=0.12)
        super().__init__(frame, name, self.bars)


def number_row(values: Sequence, source: str, decimals: int, xs: Sequence[float], y: float,
               color=T.TEXT, size: float = T.TYPE.small) -> VGroup:
    """values[j] as a `Num` (path `source`[j]) centred at (xs[j], y); a dash where a value
    is None (a key a causal mask hides)."""
    return VGroup(*[(Num(v, step(source, j), decimals, size, color) if v is not None
                     else txt("–", size, T.MUTED)).move_to([x, y, 0])
                    for j, (v, x) in enumerate(zip(values, xs))])


class AttentionMatrix(VGroup):
    """`weights[q][k]` as rows of cells (`self.rows[q]`, a PatternRow); with `labels`, the
    query tokens left of the rows (`self.row_labels`) and the key tokens above the columns
    (`self.col_labels`), at the type scale's smallest size."""

    def __init__(self, weights: Sequence[Sequence[float]], tokens: Sequence[str],
                 cell_width: float = 0.75, cell_height: float = 0.55, color=T.ATTN,
                 labels: bool = True, size: float = T.TYPE.small):
        self.rows = VGroup(*[PatternRow(r, color, cell_width, cell_height) for r in weights])
        self.rows.arrange(DOWN, buff=0)
        super().__init__(self.rows)
        self.row_labels, self.col_labels = VGroup(), VGroup()
        if labels:
            for q, tok in enumerate(tokens):
                self.row_labels.add(txt(tok, size, T.MUTED).next_to(self.rows[q], LEFT,
                                                                    buff=0.12))
            top = self.rows[0].cells
            y = float(top.get_top()[1]) + 0.14
            self.col_labels = on_baseline([txt(tok, size, T.MUTED).move_to(top[k])
                                           for k, tok in enumerate(tokens)], y)
            self.add(self.row_labels, self.col_labels)
        self.weights = [list(r) for r in weights]

    def cell(self, q: int, k: int):
        return self.rows[q].cells[k]

    def below_diagonal(self) -> VGroup:
        """The cells (q, q - 1): each token's weight on the token just before it."""
        return VGroup(*[self.cell(q, q - 1) for q in range(1, len(self.rows))])


__all__ = ["HeadCard", "AttentionMatrix", "number_row"]
