"""Plan data for "fresh Q, K, V at every layer": one word's X, its normalisation, this layer's
W_Q, W_K, W_V and the Q, K, V they produce, per layer, with the measurements that prove the
projections are recomputed from the current X with separate parameters.

Per layer l in the storyboard's layers (the focus word's tokens averaged when it has several):
  x          X^l (the stream entering layer l), scaled with one limit shared by every layer
  norm       where the normalisation sits: for post-LN the sum that the previous LayerNorm turned
             into X^l, for pre-norm X^l itself, which ln1 normalises before the projections
  W_Q/K/V    a fixed block of the real matrices (`weight_block`), one shared limit
  q, k, v    [head][d_head], one limit per quantity shared by every layer
  identity   max |Q^l - (attn_input(X^l) @ W_Q^l + b_Q^l)| over every token, head and dim;
             `identity_e6` the same in millionths (shown as "1.9e-6": theme.fmt is fixed-point)
  cos        against layer l-1: cos(X), cos(Q/K/V) per head and their mean, cos(W) per head
"""

from __future__ import annotations

import numpy as np

from ..analysis.qkv import fresh_qkv, projection_error
from ..analysis.robust import error_bound, robust_limit, scaled
from ..analysis.vectors import positions
from ..storyboard.schema import Storyboard
from ..trace import Trace

WEIGHT_ROWS = 32        # thumbnail of W: input dims 0..31 ...
WEIGHT_HEAD = 0         # ... times every output column of this head (d_head of them)
DETAIL_DIMS = 8         # first dims of X shown as numbers (theme.DETAIL_DIMS)
QKV = ("q", "k", "v")


def focus_rows(a: np.ndarray, pos: list[int]) -> np.ndarray:
    """The focus word's row of a [pos, ...] array, averaged over its tokens (float64)."""
    return np.asarray(a, np.float64)[pos].mean(axis=0)


def norm_step(trace: Trace, layer: int, pos: list[int]) -> dict:
    """Where the normalisation before W_Q sits, what it normalises and its divisor sigma."""
    spec = trace.spec
    placement = spec["norm_placement"]
    if placement == "post":
        if layer == 0:
            before = sum(trace[h] for h in ("hook_embed", "hook_pos_embed",
                                            "hook_token_type_embed") if h in trace)
            site, label = "embed_ln", "token + position + segment embeddings"
        else:
            before = trace[f"blocks.{layer - 1}.hook_resid_post"]
            site, label = f"blocks.{layer - 1}.ln2", f"layer {layer - 1}'s sum after its FFN add"
        after = trace[f"blocks.{layer}.hook_resid_pre"]
    elif placement == "pre":
        before = trace[f"blocks.{layer}.hook_resid_pre"]
        site, label = f"blocks.{layer}.ln1", f"X entering layer {layer}"
        after = trace[f"blocks.{layer}.ln1.hook_normalized"]
    else:                                   # the toy: no normalisation at all
        x = focus_rows(trace[f"blocks.{layer}.hook_resid_pre"], pos)
        return {"placement": placement, "site": None, "label": "no normalisation",
                "before": scaled(x, robust_limit(x)), "sigma": None,
                "norm_before": float(np.linalg.norm(x)), "norm_after": float(np.linalg.norm(x))}
    b, a = focus_rows(before, pos), focus_rows(after, pos)
    return {"placement": placement, "site": site, "label": label,
            "before": scaled(b, robust_limit(b)),          # own scale: sizes differ by 10x
            "sigma": float(focus_rows(trace[f"{site}.hook_scale"], pos)[0]),
            "norm_before": float(np.linalg.norm(b)), "norm_after": float(np.linalg.norm(a))}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    W = t.weights()
    pos = positions(t, sb.focus[0])
    layers = list(sb.layers)

    x = {l: focus_rows(t[f"blocks.{l}.hook_resid_pre"], pos) for l in layers}
    qkv = {(k, l): focus_rows(t[f"blocks.{l}.attn.hook_{k}"], pos) for k in QKV for l in layers}
    cols = slice(0, t.spec["d_head"])
    blocks = {(k, l): np.asarray(W[f"blocks.{l}.attn.W_{k}"][WEIGHT_HEAD, :WEIGHT_ROWS, cols],
                                 np.float64) for k in ("Q", "K", "V") for l in layers}
    limits = {"x": robust_limit(np.stack(list(x.values()))),
              **{k: robust_limit(np.stack([qkv[k, l] for l in layers])) for k in QKV},
              "w": robust_limit(np.stack(list(blocks.values())))}

    fresh = fresh_qkv(t, pos, W)             # index l - 1 compares layer l with layer l - 1
    out = []
    for l in layers:
        row = {"layer": l,
               "x": scaled(x[l], limits["x"]),
               "x_first": x[l][:DETAIL_DIMS].reshape(2, -1).tolist(),    # 2 rows of 4
               "x_norm": float(np.linalg.norm(x[l])),
               "norm": norm_step(t, l, pos),
               "identity": {k: projection_error(t, W, l, k) for k in QKV},
               "cos": None}
        row["identity_max"] = max(row["identity"].values())
        row["identity_e6"] = {k: v * 1e6 for k, v in row["identity"].items()}
        row["identity_bound"] = {k: error_bound(v) for k, v in row["identity"].items()}
        for k in QKV:
            row[k] = scaled(qkv[k, l], limits[k])                # values: [head][d_head]
        for k in ("Q", "K", "V"):
            row[f"W_{k}"] = scaled(blocks[k, l], limits["w"])    # values: [row][col]
        if l >= 1:
            i = l - 1
            c = {"prev": l - 1, "x": fresh["cos_x"][i]}
            for k in QKV:
                c[k] = fresh[f"cos_{k}"][i]
                c[f"{k}_mean"] = float(np.mean(c[k]))
            for k in ("W_Q", "W_K", "W_V"):
                c[k] = fresh[f"cos_{k}"][i]
                c[f"{k}_mean"] = float(np.mean(c[k]))
            row["cos"] = c
        out.append(row)
    spec = t.spec
    return {"focus": {"word": sb.focus[0], "positions": pos,
                      "tokens": [t.tokens[p] for p in pos]},
            "tokens": t.tokens,
            "norm": {"kind": spec["norm"], "placement": spec["norm_placement"]},
            "shape": {"n_heads": spec["n_heads"], "n_kv_heads": spec["n_kv_heads"],
                      "d_model": spec["d_model"], "d_head": spec["d_head"]},
            "limits": limits,
            "weight_block": {"head": WEIGHT_HEAD, "rows": [0, WEIGHT_ROWS],
                             "cols": [0, spec["d_head"]]},
            "detail_dims": DETAIL_DIMS,
            "layers": out}
