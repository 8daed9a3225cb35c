"""Which tokens the arc diagram draws when the sentence is too long for it (round 37): one
rule for the plan (which sums the weights under each "…") and the scene (which keeps as many
as fit its band). Pure: no model, no Manim.

The plan orders the tokens (`keep_order`): first those always drawn (the sink or special
tokens, the focus word, the words the voice names), then the rest nearest the focus word
first; in a decoder, every token before the focus word (it can carry weight) before any after
it (a decoder's word gives them 0). The scene keeps the first k of that order that fit; each
run of tokens left out is one "…" (`columns`), its number the sum of their weights
(`elided`), so the row as written adds up to 1."""

from __future__ import annotations


def keep_order(n: int, focus: list[int], always: list[int], decoder: bool) -> tuple[list[int], int]:
    """All n positions in the order they are kept, and how many of the first are always kept."""
    must = sorted(set(always) | set(focus))
    last = max(focus)
    rest = sorted((j for j in range(n) if j not in must),
                  key=lambda j: (decoder and j > last, min(abs(j - f) for f in focus)))
    return must + rest, len(must)


def columns(kept, n: int) -> list[int | None]:
    """The drawn columns, left to right: kept positions, None for each run left out (one at
    the end too, where the last tokens are left out)."""
    cols, last = [], -1
    for j in sorted(kept):
        if j > last + 1:
            cols.append(None)
        cols.append(j)
        last = j
    if last < n - 1:
        cols.append(None)
    return cols


def runs(kept, n: int) -> list[list[int]]:
    """The positions under each "…" of `columns(kept, n)`, left to right."""
    kept = set(kept)
    out, cur = [], []
    for j in range(n):
        if j in kept:
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(j)
    return out + ([cur] if cur else [])


def elided(row, order: list[int], must: int) -> list[list[float]]:
    """For each count k of kept tokens (k = must ... n, index k - must), the sum of `row` under
    each "…", left to right."""
    n = len(order)
    return [[float(sum(row[j] for j in r)) for r in runs(order[:k], n)]
            for k in range(must, n + 1)]
