"""Why Q changes from layer l-1 to layer l: the new X, or the new W? Separated on real data.

Cross-layer cos(Q^(l), Q^(l-1)) is near zero by construction (every layer's Q lives in its own
arbitrary basis), so it proves nothing. Instead, for the focus word at layer l >= 1 we form

    a  old X, new W:  Q_a = in(X^(l-1)) W_Q^(l) + b_Q^(l)
    b  new X, new W:  Q_b = in(X^(l))   W_Q^(l) + b_Q^(l)      (the model's actual Q^(l))
    c  new X, old W:  Q_c = in(X^(l))   W_Q^(l-1) + b_Q^(l-1)
    p  old X, old W:  Q_p = in(X^(l-1)) W_Q^(l-1) + b_Q^(l-1)  (the model's actual Q^(l-1))

and compare only vectors made by the same W (same basis): cos(Q_a, Q_b) is what the new X alone
does under layer l's W, cos(Q_p, Q_c) the same under layer l-1's W. What the new W does cannot
be measured as a cosine (different bases); it is measured where both W's outputs mean the same
thing, the attention of the word over the sentence's tokens (softmax(q.k / sqrt(d_head)), q and k
both from the same X and W): pattern_b vs pattern_c is the new W alone, pattern_a vs pattern_b the
new X alone (total-variation distance, 0 = same attention, 1 = disjoint).

`in(X)` is what the projections multiply (`attn_input`): X itself for post-LN and the toy, LN(X)
for pre-norm (the old input then uses layer l-1's ln1, as recorded).
"""

from __future__ import annotations

import numpy as np

from ..spec import ModelSpec
from ..trace import Trace
from .similarity import cosine
from .vectors import attn_input


def project(inp: np.ndarray, weights: dict, layer: int, which: str) -> np.ndarray:
    """[pos, head, d_head]: inp [pos, d] @ W_which^(layer) + b_which^(layer), float64."""
    W = np.asarray(weights[f"blocks.{layer}.attn.W_{which}"], np.float64)
    b = np.asarray(weights[f"blocks.{layer}.attn.b_{which}"], np.float64)
    return np.einsum("pd,hde->phe", np.asarray(inp, np.float64), W) + b


def pattern_row(q: np.ndarray, k: np.ndarray, pos: int, causal: bool) -> np.ndarray:
    """[head, key]: softmax over keys of q[pos] . k / sqrt(d_head) (q, k [pos, head, d_head])."""
    s = np.einsum("he,khe->hk", q[pos], k) / np.sqrt(q.shape[-1])
    if causal:
        s[:, pos + 1:] = -np.inf
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def tv_distance(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Total-variation distance per row: half the L1 distance (0 same, 1 disjoint)."""
    return 0.5 * np.abs(np.asarray(p) - np.asarray(q)).sum(axis=-1)


def pattern_comparable(spec: ModelSpec) -> bool:
    """Plain softmax(q.k) attention we can redo here: no RoPE, every head its own K (and a
    model that attends at all: the toy does not)."""
    return not spec.rotary and spec.group_size == 1 and spec.kind != "toy"


def qkv_causes(trace: Trace, weights: dict, layer: int, pos: int) -> dict:
    """The four combinations of X^(l-1)/X^(l) with W^(l-1)/W^(l) for the token at `pos`."""
    assert layer >= 1
    old_in, new_in = attn_input(trace, layer - 1), attn_input(trace, layer)
    combos = {"a": (old_in, layer), "b": (new_in, layer), "c": (new_in, layer - 1),
              "p": (old_in, layer - 1)}
    q = {n: project(i, weights, w, "Q") for n, (i, w) in combos.items()}
    qa, qb, qc, qp = (q[n][pos].ravel() for n in "abcp")     # every head, side by side
    out = {"layer": layer, "prev": layer - 1,
           "q": {n: q[n][pos] for n in "abcp"},                      # [head, d_head]
           "cos_new_x_same_w": float(cosine(qa, qb)),                # under W^(l)
           "cos_new_x_old_w": float(cosine(qp, qc)),                 # under W^(l-1)
           "rel_change_new_x": float(np.linalg.norm(qb - qa) / np.linalg.norm(qb)),
           "cos_across_w": float(cosine(qb, qc)),                    # different bases: ~0
           "patterns": None}
    if pattern_comparable(trace.spec):
        causal = trace.spec.kind == "decoder"
        pats = {}
        for n, (i, w) in combos.items():
            k = project(i, weights, w, "K")
            pats[n] = pattern_row(q[n], k, pos, causal)              # [head, key]
        out["patterns"] = pats
        out["tv_new_x"] = tv_distance(pats["a"], pats["b"])         # [head]: X alone, W^(l)
        out["tv_new_w"] = tv_distance(pats["c"], pats["b"])         # [head]: W alone, X^(l)
    return out


__all__ = ["project", "pattern_row", "tv_distance", "pattern_comparable", "qkv_causes"]
