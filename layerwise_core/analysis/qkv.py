"""Evidence that Q, K, V are fresh at every layer: they change, and so do the matrices."""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .similarity import cosine
from .vectors import attn_input


def fresh_qkv(trace: Trace, pos: list[int], weights: dict[str, np.ndarray]) -> dict:
    """Per layer l >= 1 and per head: cos(Q^l, Q^(l-1)) for the tokens at `pos` (mean over them),
    the same for K, V and X, and cos(W^l, W^(l-1)) of the flattened matrices of each head."""
    L = trace.n_layers
    out: dict[str, list] = {f"cos_{k}": [] for k in ("x", "q", "k", "v", "W_Q", "W_K", "W_V")}
    for l in range(1, L):
        x_now, x_prev = (trace[f"blocks.{i}.hook_resid_pre"][pos] for i in (l, l - 1))
        out["cos_x"].append(float(cosine(x_now, x_prev).mean()))
        for k in "qkv":
            now, prev = (trace[f"blocks.{i}.attn.hook_{k}"][pos] for i in (l, l - 1))
            out[f"cos_{k}"].append(cosine(now, prev).mean(axis=0).tolist())       # [head]
        for k in ("W_Q", "W_K", "W_V"):
            now, prev = (weights[f"blocks.{i}.attn.{k}"] for i in (l, l - 1))
            out[f"cos_{k}"].append(cosine(now.reshape(len(now), -1),
                                          prev.reshape(len(prev), -1)).tolist())
    return out


def projection_error(trace: Trace, weights: dict[str, np.ndarray], layer: int,
                     which: str) -> float:
    """max |hook_q - (attn_input @ W_Q + b_Q)| over all tokens, heads and dims (float64 redo)."""
    X = which.upper()
    inp = np.asarray(attn_input(trace, layer), np.float64)                  # [pos, d]
    W = np.asarray(weights[f"blocks.{layer}.attn.W_{X}"], np.float64)        # [head, d, d_head]
    b = np.asarray(weights[f"blocks.{layer}.attn.b_{X}"], np.float64)        # [head, d_head]
    redo = np.einsum("pd,hde->phe", inp, W) + b
    return float(np.abs(redo - trace[f"blocks.{layer}.attn.hook_{which}"]).max())


def one_before_weights(pattern: np.ndarray) -> np.ndarray:
    """[head, q - 1]: each query q >= 1's weight on the token before it, pattern[head, q, q - 1]."""
    p = np.asarray(pattern, np.float64)
    q = np.arange(1, p.shape[1])
    return p[:, q, q - 1]


def previous_token_score(pattern: np.ndarray) -> np.ndarray:
    """[head]: mean over queries q >= 1 of pattern[head, q, q - 1]."""
    return one_before_weights(pattern).mean(axis=1)


def head_weight_pairs(w: np.ndarray) -> np.ndarray:
    """Cosine between every pair of different heads of w [head, d_model, d_head] (flattened),
    pair by pair in np.triu_indices order: (0, 1), (0, 2), ..."""
    flat = np.asarray(w, np.float64).reshape(len(w), -1)
    return cosine(flat[:, None], flat[None, :])[np.triu_indices(len(w), k=1)]


def pair_summary(pairs: np.ndarray) -> dict:
    """head_weight_pairs' cosines in three numbers: their mean, the largest |cos|, how many."""
    return {"mean": float(pairs.mean()), "max_abs": float(np.abs(pairs).max()),
            "pairs": int(pairs.size)}


def head_weight_cosines(w: np.ndarray) -> dict:
    """Cosine between every pair of different heads of w [head, d_model, d_head] (flattened),
    summarised (pair_summary)."""
    return pair_summary(head_weight_pairs(w))
