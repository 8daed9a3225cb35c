"""One query's attention in one head, step by step, recomputed in float64 from the trace's
Q, K and V (the numbers a scene walks through; each equals the model's own hook):

  dots     q . k_j for every key j                       (over all d_head dimensions)
  scores   dots / sqrt(d_head)                           = blocks.{l}.attn.hook_attn_scores
  weights  softmax(scores) over the keys it may see      = blocks.{l}.attn.hook_pattern
  out      sum_j weights_j v_j                           = blocks.{l}.attn.hook_z

A causal (decoder) query sees keys 0..query only: the later ones are masked (None in `dots`
and `scores`, weight 0). Q and K are taken after RoPE when the model rotates them
(`hook_rot_q`, `hook_rot_k`): that is what the dot product multiplies.
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace


def head_vectors(trace: Trace, layer: int, head: int) -> dict[str, np.ndarray]:
    """q [pos, d_head], k [pos, d_head], v [pos, d_head] of one query head (its kv head's K
    and V under grouped-query attention), as the scores multiply them."""
    spec, b = trace.spec, f"blocks.{layer}.attn"
    qk = "rot_" if spec.rotary else ""
    kv = spec.kv_head(head)
    return {"q": np.asarray(trace[f"{b}.hook_{qk}q"], np.float64)[:, head],
            "k": np.asarray(trace[f"{b}.hook_{qk}k"], np.float64)[:, kv],
            "v": np.asarray(trace[f"{b}.hook_v"], np.float64)[:, kv]}


def attention_steps(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float,
                    visible: np.ndarray | None = None) -> dict:
    """The steps for one query vector q [d_head] against keys k and values v [key, d_head];
    `visible` [key] bool (default all). Returns dots, scores (None where masked), weights and
    out [d_head] as lists."""
    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    seen = np.ones(len(k), bool) if visible is None else np.asarray(visible, bool)
    dots = k @ q
    scores = dots / scale
    e = np.where(seen, np.exp(scores - scores[seen].max()), 0.0)
    weights = e / e.sum()
    return {"dots": [float(d) if s else None for d, s in zip(dots, seen)],
            "scores": [float(x) if s else None for x, s in zip(scores, seen)],
            "weights": weights.tolist(), "out": (weights @ v).tolist()}


def query_steps(trace: Trace, layer: int, head: int, query: int,
                vectors: dict[str, np.ndarray] | None = None) -> dict:
    """`attention_steps` for the query at position `query`, with the model's mask
    (`vectors`: the head's `head_vectors`, when the caller has them already)."""
    h = head_vectors(trace, layer, head) if vectors is None else vectors
    n = len(trace.tokens)
    visible = np.arange(n) <= query if trace.spec.kind == "decoder" else np.ones(n, bool)
    return attention_steps(h["q"][query], h["k"], h["v"], float(np.sqrt(trace.spec.d_head)),
                           visible)


__all__ = ["head_vectors", "attention_steps", "query_steps"]
