"""Evidence that Q, K, V are fresh at every layer: they change, and so do the matrices."""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .similarity import cosine


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
