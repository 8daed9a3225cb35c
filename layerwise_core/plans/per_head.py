"""Plan data for "per-head detail of one layer": every head's own W_Q, W_K, W_V (a fixed block),
its Q, K, V for the focus word and the focus word's attention row over all tokens, with the
tokens each head attends to most.

Per layer in the storyboard's layers and per head in its heads (the focus word's tokens averaged
when it has several; with grouped-query attention K and V are those of the head's kv head):
  W_Q/K/V    rows 0..BLOCK-1 x columns 0..BLOCK-1 of the head's matrix, one shared limit
  q, k, v    [d_head], one limit per quantity over every shown head and layer
  pattern    the focus word's attention over every key position (sums to 1)
  top        the TOP key positions with the highest attention, highest first
  w_cos      per matrix, cosines between different heads' flattened matrices (all entries):
             mean and max |cos| over the pairs, evidence that the heads' parameters are separate
  prev_token the head's mean attention from each token to the token just before it (over every
             query but the first): near 1 marks a previous-token head, whatever the words
"""

from __future__ import annotations

import numpy as np

from ..analysis.robust import robust_limit, scaled
from ..analysis.qkv import head_weight_cosines, previous_token_score
from ..analysis.vectors import positions
from ..storyboard.schema import Storyboard
from ..trace import Trace

BLOCK = 16              # thumbnail of W: input dims 0..15 x the head's output columns 0..15
TOP = 2                 # most-attended tokens listed per head
QKV = ("q", "k", "v")


def head_rows(trace: Trace, layer: int, heads: list[int], pos: list[int]) -> dict:
    """Raw per-head arrays of one layer: q/k/v [head][d_head] and pattern [head][key]."""
    spec = trace.spec
    b = f"blocks.{layer}.attn"
    out = {}
    for k in QKV:
        a = np.asarray(trace[f"{b}.hook_{k}"], np.float64)[pos].mean(axis=0)   # [head, d_head]
        out[k] = np.stack([a[h if k == "q" else spec.kv_head(h)] for h in heads])
    pattern = np.asarray(trace[f"{b}.hook_pattern"], np.float64)[:, pos].mean(axis=1)  # [h, key]
    out["pattern"] = pattern[heads]
    return out


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    W = t.weights()
    spec = t.spec
    pos = positions(t, sb.focus[0])
    heads, layers = list(sb.heads), list(sb.layers)
    rows = {l: head_rows(t, l, heads, pos) for l in layers}
    blocks = {}
    for l in layers:
        for X in ("Q", "K", "V"):
            w = np.asarray(W[f"blocks.{l}.attn.W_{X}"], np.float64)
            blocks[X, l] = np.stack([w[h if X == "Q" else spec.kv_head(h), :BLOCK, :BLOCK]
                                     for h in heads])
    limits = {k: robust_limit(np.stack([rows[l][k] for l in layers])) for k in QKV}
    limits["w"] = robust_limit(np.stack(list(blocks.values())))

    out = []
    for l in layers:
        r = rows[l]
        prev = previous_token_score(t[f"blocks.{l}.attn.hook_pattern"])
        per_head = []
        for i, h in enumerate(heads):
            p = r["pattern"][i]
            order = np.argsort(-p, kind="stable")[:TOP]
            entry = {"head": h, "kv_head": spec.kv_head(h),
                     "pattern": p.tolist(), "pattern_sum": float(p.sum()),
                     "top": [{"pos": int(j), "token": t.tokens[j], "weight": float(p[j])}
                             for j in order],
                     "prev_token": float(prev[h])}
            for k in QKV:
                entry[k] = scaled(r[k][i], limits[k])
            for X in ("Q", "K", "V"):
                entry[f"W_{X}"] = scaled(blocks[X, l][i], limits["w"])
            per_head.append(entry)
        w_cos = {X: head_weight_cosines(W[f"blocks.{l}.attn.W_{X}"]) for X in ("Q", "K", "V")}
        out.append({"layer": l, "heads": per_head, "w_cos": w_cos})
    return {"focus": {"word": sb.focus[0], "positions": pos,
                      "tokens": [t.tokens[p] for p in pos]},
            "tokens": t.tokens,
            "shape": {"n_heads": spec.n_heads, "n_kv_heads": spec.n_kv_heads,
                      "d_model": spec.d_model, "d_head": spec.d_head},
            "limits": limits,
            "weight_block": {"rows": [0, BLOCK], "cols": [0, BLOCK]},
            "top_k": TOP,
            "layers": out}
