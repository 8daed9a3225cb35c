"""Plan data for "context enters Q, K, V": one word in two sentences, and per layer l the cosine
between its two X^(l), its two inputs to the projections, and its two Q, K, V. Both sentences
go through the very same W_Q^(l), W_K^(l), W_V^(l): whatever separates their Q, K, V came in
through X.

  cos.x / cos.in / cos.q / cos.k / cos.v   per layer 0..L-1 (analysis.context_qkv); Q, K, V
                                           with all heads concatenated (`heads` says so)
  match                                    why layer 0 is (or is not) one vector: same token,
                                           same position, absolute positions or not
  first.x / .in / .q / .k / .v             [layer][sentence][:DIMS]: a few real numbers (of
                                           Q, K, V: head 0's first dims)
  axes                                     the chart's y range and ticks
  summary                                  the lowest cosine of Q, K, V and of X, with layers
Every number a scene writes is checked at plan time against float noise (plans.shown.stable).
"""

from __future__ import annotations

import math

import numpy as np

from ..analysis.context_qkv import QKV, context_qkv, focus_row, layer_zero_match
from ..analysis.vectors import attn_input, positions
from ..storyboard.schema import Storyboard
from ..trace import Trace
from .shown import stable

DIMS = 4            # numbers shown of each vector (its first dims; of Q: head 0's first dims)
DECIMALS = 2        # cosines and vector entries on screen
Y_STEP = 0.1        # cosine axis ticks


def y_axis(values: np.ndarray) -> dict:
    """From a multiple of Y_STEP at least half a step below the lowest cosine, up to 1."""
    lo = min(1.0 - Y_STEP, Y_STEP * math.floor((values.min() - Y_STEP / 2) / Y_STEP))
    lo = round(max(-1.0, lo), 10)
    n = int(round((1.0 - lo) / Y_STEP))
    return {"y_range": [lo, 1.0], "y_ticks": [round(lo + Y_STEP * i, 10) for i in range(n + 1)]}


def _shown(values, where: str) -> list:
    """`values` (nested lists) unchanged, each checked to round the same on every machine."""
    if isinstance(values, (list, tuple)):
        return [_shown(v, f"{where}[{i}]") for i, v in enumerate(values)]
    return stable(float(values), DECIMALS, where)


def _lowest(series: list[float], key: str) -> dict:
    layer = int(np.argmin(series))
    return {"key": key, "layer": layer, "value": series[layer]}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    a, b = traces[0], traces[1]
    spec = a.spec
    pos = [positions(t, f) for t, f in zip(traces, sb.focus)]
    L = a.n_layers
    cos = context_qkv(a, pos[0], b, pos[1])
    for k in ("x", "in", *QKV):
        cos[k] = _shown(cos[k], f"data.cos.{k}")

    first_x = [[focus_row(t[f"blocks.{l}.hook_resid_pre"], p)[:DIMS].tolist()
                for t, p in zip(traces, pos)] for l in range(L)]
    first_in = [[focus_row(attn_input(t, l), p)[:DIMS].tolist()
                 for t, p in zip(traces, pos)] for l in range(L)]
    first_qkv = {k: [[focus_row(t[f"blocks.{l}.attn.hook_{k}"], p).ravel()[:DIMS].tolist()
                      for t, p in zip(traces, pos)] for l in range(L)] for k in QKV}

    lowest = min((_lowest(cos[k], k) for k in QKV), key=lambda m: m["value"])
    after = range(1, L)
    summary = {"lowest": lowest, "x_lowest": _lowest(cos["x"], "x"),
               "last": {k: cos[k][L - 1] for k in ("x", *QKV)},
               # every cosine below the 1.00 it starts at, from layer 1 on (as shown, 2 decimals)
               # at layer 0 every cosine shows the same number (the scene writes it once)
               "layer0_equal": len({round(cos[k][0], DECIMALS) for k in ("x", "in", *QKV)}) == 1,
               "all_below_one_after_0": all(round(cos[k][l], DECIMALS) < 1.0
                                            for k in ("x", *QKV) for l in after)}
    shown = np.array([cos[k] for k in ("x", "in", *QKV)])
    reads_x = spec["norm_placement"] != "pre"
    return {
        "model": spec.get("display", spec.get("name")),
        "word": sb.focus[0].partition("#")[0],
        "contexts": [{"sentence": t.sentence, "focus": f, "positions": p,
                      "tokens": [t.tokens[i] for i in p],
                      "token_ids": [t.meta["token_ids"][i] for i in p]}
                     for t, f, p in zip(traces, sb.focus, pos)],
        "match": layer_zero_match(a, pos[0], b, pos[1]),
        "reads": {"same_as_x": reads_x, "placement": spec["norm_placement"],
                  "norm": spec["norm"]},
        "layers": list(range(L)),
        "cos": cos,
        "heads": {"combined": "concatenated", "n_heads": spec["n_heads"],
                  "n_kv_heads": spec["n_kv_heads"], "d_model": spec["d_model"],
                  "d_head": spec["d_head"], "q_width": spec["n_heads"] * spec["d_head"],
                  "kv_width": spec["n_kv_heads"] * spec["d_head"]},
        "first": {"dims": DIMS, "x": _shown(first_x, "data.first.x"),
                  "in": _shown(first_in, "data.first.in"),
                  **{k: _shown(v, f"data.first.{k}") for k, v in first_qkv.items()}},
        "axes": y_axis(shown),
        "summary": summary,
    }
