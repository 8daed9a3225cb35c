"""The sublayer credit table: per late layer, the answer's rank before the layer, after its
attention add and after its FFN add, and which add moved it more; under it three summaries (the
biggest single step, the factor each kind of add divides the rank by over these layers, and the
last layer's probability before and after each add). Every number is a `Num` bound to the plan
(`data.credit...`).

    head, table, notes = credit_table(plan["data"]["credit"], "␣Paris")
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


def credit_table(c: dict, answer: str, src: str = "data.credit", width: float = 6.5) -> VGroup:
    """The plan entry `c` at `src` (rows[i].layer/before/after_attn/after_ffn/mover,
    biggest_step, attn_total, ffn_total, the last row's prob_before/_after_attn/_after_ffn) as
    VGroup(title, table, VGroup(biggest, totals, probability)), at most `width` wide."""
    size = T.LABEL_SIZE
    cells = [txt("layer", T.SMALL_SIZE, T.MUTED), txt("before", T.SMALL_SIZE, T.MUTED),
             txt("+ attention", T.SMALL_SIZE, T.ATTN), txt("+ FFN", T.SMALL_SIZE, T.FFN),
             txt("moved it more", T.SMALL_SIZE, T.MUTED)]
    for i, r in enumerate(c["rows"]):
        s = f"{src}.rows[{i}]"
        who, color = SUBLAYERS[r["mover"]]
        cells += [Num(r["layer"], f"{s}.layer", 0, size, T.MUTED),
                  Num(r["before"], f"{s}.before", 0, size, T.X),
                  Num(r["after_attn"], f"{s}.after_attn", 0, size, T.ATTN),
                  Num(r["after_ffn"], f"{s}.after_ffn", 0, size, T.FFN),
                  txt(who, T.SMALL_SIZE, color)]
    table = VGroup(*cells).arrange_in_grid(rows=len(c["rows"]) + 1, cols=CREDIT_COLUMNS,
                                           buff=(0.3, 0.1), cell_alignment=RIGHT)
    head = txt(f"rank of {answer}: before the layer, after each add", T.SMALL_SIZE)
    size = T.SMALL_SIZE
    b = c["biggest_step"]
    who, color = SUBLAYERS[b["sublayer"]]
    big = VGroup(
        inline(txt("biggest single step:", size), txt(who, size, color), txt("in layer", size),
               Num(b["layer"], f"{src}.biggest_step.layer", 0, size)),
        inline(txt("moves it from rank", size),
               Num(b["from"], f"{src}.biggest_step.from", 0, size),
               txt("to", size), Num(b["to"], f"{src}.biggest_step.to", 0, size, color)),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    total = VGroup(
        txt("over these layers the rank is divided by", size),
        inline(Num(c["attn_total"], f"{src}.attn_total", 1, size, T.ATTN),
               txt("by the attention adds,", size),
               Num(c["ffn_total"], f"{src}.ffn_total", 0, size, T.FFN),
               txt("by the FFN adds", size))).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    n = len(c["rows"]) - 1
    last, s = c["rows"][n], f"{src}.rows[{n}]"
    prob = VGroup(
        inline(txt("in layer", size), Num(last["layer"], f"{s}.layer", 0, size),
               txt(f"the probability of {answer} goes", size, mono=False)),
        inline(Num(last["prob_before"], f"{s}.prob_before", T.DECIMALS, size, T.X),
               txt("→", size),
               Num(last["prob_after_attn"], f"{s}.prob_after_attn", T.DECIMALS, size, T.ATTN),
               txt("→", size),
               Num(last["prob_after_ffn"], f"{s}.prob_after_ffn", T.DECIMALS, size, T.FFN))
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    notes = VGroup(big, total, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.TIGHT + 0.06)
    group = VGroup(head, table, notes).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
    if group.width > width:
        group.scale_to_fit_width(width)
    return group


__all__ = ["CREDIT_COLUMNS", "SUBLAYERS", "credit_rows", "credit_table"]
