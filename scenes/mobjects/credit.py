"""The sublayer credit table: per late layer, the answer's rank before the layer, after its
attention add and after its FFN add, and which add moved it more; under it three summaries (the
biggest single step, the factor each kind of add divides the rank by over these layers, and the
last layer's probability before and after each add). Every number is a `Num` of a typed plan
view (its value brings its plan path).

    head, table, notes = credit_table(v.credit, "␣Paris")
    table[:CREDIT_COLUMNS]          # the header row; row k is table[5 * (k + 1): 5 * (k + 2)]
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, VGroup

from .. import theme as T
from .numbers import Num
from .text import inline, txt

CREDIT_COLUMNS = 5          # layer, before, + attention, + FFN, moved it more
SUBLAYERS = {"attn": ("attention", T.ATTN), "ffn": ("FFN", T.FFN)}


def credit_rows(table: VGroup) -> list[VGroup]:
    """The table's rows of cells, the header first."""
    cells = list(table)
    return [VGroup(*cells[i:i + CREDIT_COLUMNS]) for i in range(0, len(cells), CREDIT_COLUMNS)]


def credit_table(c, answer: str, width: float = 6.5) -> VGroup:
    """`c`, a view of the plan's credit (rows[i].layer/before/after_attn/after_ffn/mover,
    biggest_step, attn_total, ffn_total, the last row's prob_before/_after_attn/_after_ffn) as
    VGroup(title, table, VGroup(biggest, totals, probability)), at most `width` wide."""
    size = T.LABEL_SIZE
    cells = [txt("layer", T.SMALL_SIZE, T.MUTED), txt("before", T.SMALL_SIZE, T.MUTED),
             txt("+ attention", T.SMALL_SIZE, T.ATTN), txt("+ FFN", T.SMALL_SIZE, T.FFN),
             txt("moved it more", T.SMALL_SIZE, T.MUTED)]
    n = lambda v, color=T.TEXT, decimals=0: Num(v, decimals=decimals, size=size,  # noqa: E731
                                                color=color)
    for r in c.rows:
        who, color = SUBLAYERS[str(r.mover)]
        cells += [n(r.layer, T.MUTED), n(r.before, T.X), n(r.after_attn, T.ATTN),
                  n(r.after_ffn, T.FFN), txt(who, T.SMALL_SIZE, color)]
    table = VGroup(*cells).arrange_in_grid(rows=len(c.rows) + 1, cols=CREDIT_COLUMNS,
                                           buff=(0.3, 0.1), cell_alignment=RIGHT)
    head = txt(f"rank of {answer}: before the layer, after each add", T.SMALL_SIZE)
    size = T.SMALL_SIZE
    b = c.biggest_step
    who, color = SUBLAYERS[str(b.sublayer)]
    big = VGroup(
        inline(txt("biggest single step:", size), txt(who, size, color), txt("in layer", size),
               n(b.layer)),
        inline(txt("moves it from rank", size), n(getattr(b, "from")),
               txt("to", size), n(b.to, color)),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    total = VGroup(
        txt("over these layers the rank is divided by", size),
        inline(n(c.attn_total, T.ATTN, 1),
               txt("by the attention adds,", size),
               n(c.ffn_total, T.FFN),
               txt("by the FFN adds", size))).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    last = c.rows[-1]
    prob = VGroup(
        inline(txt("in layer", size), n(last.layer),
               txt(f"the probability of {answer} goes", size, mono=False)),
        inline(n(last.prob_before, T.X, T.DECIMALS),
               txt("→", size),
               n(last.prob_after_attn, T.ATTN, T.DECIMALS),
               txt("→", size),
               n(last.prob_after_ffn, T.FFN, T.DECIMALS))
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    notes = VGroup(big, total, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.TIGHT + 0.06)
    group = VGroup(head, table, notes).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
    if group.width > width:
        group.scale_to_fit_width(width)
    return group


__all__ = ["CREDIT_COLUMNS", "SUBLAYERS", "credit_rows", "credit_table"]
