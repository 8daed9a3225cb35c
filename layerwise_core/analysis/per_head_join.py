"""per_head's analysis: softmax written out as exp-and-divide, the window of tokens a scene
writes side by side, and a layer's head outputs joined and multiplied by W_O (the attention
update Delta_attn of one token, piece by piece).

  exp_steps(scores)          e_j = exp(score_j - max score), their sum, e_j / sum (= softmax)
  token_window(n, f, keep)   at most `width` positions around f (and `keep`), in order
  join_heads(trace, l, f)    z [head, d_head] (hook_z), piece_h = z_h W_O^(h) [head, d_model],
                             Delta = sum_h piece_h + b_O (= hook_attn_out), lengths of each
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace


def exp_steps(scores) -> dict:
    """Softmax written out: subtract the largest score (so every exponential is at most 1),
    exponentiate, add up, divide. None (a masked key) stays None and weighs 0."""
    seen = [s is not None for s in scores]
    s = np.array([x if x is not None else -np.inf for x in scores], np.float64)
    top = float(s[seen].max())
    e = np.where(seen, np.exp(s - top), 0.0)
    total = float(e.sum())
    return {"shifted": [float(x - top) if v else None for x, v in zip(s, seen)],
            "exp": [float(x) if v else None for x, v in zip(e, seen)],
            "exp_sum": total, "weights": (e / total).tolist(), "max_score": top}


def token_window(n: int, focus: int, keep=(), width: int = 9) -> list[int]:
    """The positions written side by side: all n when n <= width, else the focus, the
    positions in `keep` (its strongest keys) and the nearest others, up to `width`, sorted.
    Gaps between them are drawn as a marked ellipsis by the scene."""
    if n <= width:
        return list(range(n))
    chosen = [focus] + [k for k in dict.fromkeys(keep) if k != focus][:max(0, width - 3)]
    by_distance = sorted(range(n), key=lambda j: (abs(j - focus), j))
    for j in by_distance:
        if len(chosen) >= width:
            break
        if j not in chosen:
            chosen.append(j)
    return sorted(chosen)


def join_heads(trace: Trace, layer: int, pos: int) -> dict:
    """Every head's output for the token at `pos`, joined and multiplied by W_O: each head's
    piece z_h W_O^(h) (d_model numbers), the bias, and their sum Delta_attn, float64; checked
    against the model's hook_attn_out."""
    W = trace.weights()
    b = f"blocks.{layer}.attn"
    z = np.asarray(trace[f"{b}.hook_z"], np.float64)[pos]                     # [head, d_head]
    W_O = np.asarray(W[f"{b}.W_O"], np.float64)                               # [head, dh, dm]
    b_O = np.asarray(W[f"{b}.b_O"], np.float64)
    pieces = np.einsum("hd,hdm->hm", z, W_O)
    delta = pieces.sum(axis=0) + b_O
    hooked = np.asarray(trace[f"blocks.{layer}.hook_attn_out"], np.float64)[pos]
    if not np.allclose(delta, hooked, atol=1e-3 * max(1.0, float(np.abs(hooked).max()))):
        raise ValueError(f"join_heads: sum of pieces differs from hook_attn_out at layer "
                         f"{layer} by {np.abs(delta - hooked).max():.2e}")
    return {"z": z, "pieces": pieces, "piece_norms": np.linalg.norm(pieces, axis=1),
            "bias_norm": float(np.linalg.norm(b_O)), "delta": delta,
            "delta_norm": float(np.linalg.norm(delta))}


__all__ = ["exp_steps", "token_window", "join_heads"]
