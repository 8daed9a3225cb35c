"""One word in two sentences, layer by layer: how alike are its X, the input the projections
read, and the Q, K, V they make? Same W^(l) for both sentences, different X^(l).

At every layer l the focus word's row (mean over its tokens) is compared across the two
traces by cosine: X^(l) (the stream entering layer l), in(X^(l)) (what W_Q, W_K, W_V multiply:
LN(X^(l)) in a pre-norm model, X^(l) itself in a post-LN one) and Q, K, V with all heads
concatenated (one d_model-long vector each, so a head with larger numbers weighs more) and,
beside that, per head (the mean over heads is reported as well).
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .similarity import cosine
from .vectors import attn_input

QKV = ("q", "k", "v")


def focus_row(a: np.ndarray, pos: list[int]) -> np.ndarray:
    """The rows of `a` [pos, ...] at `pos`, averaged (float64)."""
    return np.asarray(a, np.float64)[pos].mean(axis=0)


def layer_zero_match(a: Trace, pos_a: list[int], b: Trace, pos_b: list[int]) -> dict:
    """Why X^(0) of the two focus words is (or is not) one vector: the same token ids, the same
    positions, and whether the model adds a position vector to the embedding (absolute positions;
    a rotary model rotates Q and K later, after hook_q/hook_k, and a toy has no positions)."""
    ids_a = [a.meta["token_ids"][p] for p in pos_a]
    ids_b = [b.meta["token_ids"][p] for p in pos_b]
    absolute = "hook_pos_embed" in a
    same_token, same_position = ids_a == ids_b, list(pos_a) == list(pos_b)
    return {"same_token": same_token, "same_position": same_position,
            "absolute_positions": absolute,
            "identical": bool(same_token and (same_position or not absolute))}


def context_qkv(a: Trace, pos_a: list[int], b: Trace, pos_b: list[int]) -> dict:
    """Per layer l = 0..L-1: cos of the focus word's X^(l), in(X^(l)), Q, K, V between two
    traces of the same model. Returns lists indexed by layer: "x", "in", "q", "k", "v"
    (concatenated heads) and "q_heads", "k_heads", "v_heads" ([layer][head]) with their means
    "q_head_mean", ... ."""
    out: dict[str, list] = {k: [] for k in ("x", "in", *QKV)}
    for k in QKV:
        out[f"{k}_heads"], out[f"{k}_head_mean"] = [], []
    for l in range(a.n_layers):
        out["x"].append(float(cosine(*(focus_row(t[f"blocks.{l}.hook_resid_pre"], p)
                                       for t, p in ((a, pos_a), (b, pos_b))))))
        out["in"].append(float(cosine(*(focus_row(attn_input(t, l), p)
                                        for t, p in ((a, pos_a), (b, pos_b))))))
        for k in QKV:
            va, vb = (focus_row(t[f"blocks.{l}.attn.hook_{k}"], p)
                      for t, p in ((a, pos_a), (b, pos_b)))          # [head, d_head]
            per_head = cosine(va, vb)
            out[k].append(float(cosine(va.ravel(), vb.ravel())))
            out[f"{k}_heads"].append(per_head.tolist())
            out[f"{k}_head_mean"].append(float(per_head.mean()))
    return out
