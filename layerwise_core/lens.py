"""The logit lens, computed at trace time (it needs the model's final norm and unembedding).

For every layer l, every position and two read-out sites (`resid_mid`: after the attention add,
`resid_post`: after the FFN add), the stream is decoded as if it were the last layer:
logits = W_U · norm(x), where the norm uses *that vector's own* statistics and the final norm's
gain (not the last layer's scale, a known bug that flattens early layers). Only summaries are
kept, so a trace stays small: top-k ids and probabilities, entropy (nats), KL(final || layer),
and the rank and probability of the model's final prediction at that position.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

SITES = ("resid_mid", "resid_post")
TOP_K = 10


def log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def top_k(x: np.ndarray, k: int) -> np.ndarray:
    """[rows, k]: the indices of each row's k largest values, largest first, ties in index
    order; exactly `np.argsort(-x, kind="stable")[:, :k]`, without sorting the whole vocabulary
    (the candidates are every entry at or above the k-th largest, ties at the boundary too)."""
    kth = np.partition(x, x.shape[-1] - k, axis=-1)[:, -k:].min(axis=-1)
    out = []
    for row, t in zip(x, kth):
        idx = np.flatnonzero(row >= t)                   # ascending: ties keep index order
        out.append(idx[np.argsort(-row[idx], kind="stable")[:k]])
    return np.stack(out)


def lens_summaries(streams: np.ndarray, final_logits: np.ndarray,
                   unembed: Callable[[np.ndarray], np.ndarray], k: int = TOP_K) -> dict:
    """streams [layer, pos, d_model], final_logits [pos, vocab] -> summary arrays [layer, pos, ...]."""
    final_lp = log_softmax(final_logits.astype(np.float64))           # [pos, vocab]
    final_p = np.exp(final_lp)
    target = final_logits.argmax(axis=-1)                             # the model's prediction
    out = {name: [] for name in ("top_ids", "top_probs", "entropy", "kl_to_final",
                                 "final_rank", "final_prob")}
    for x in streams:                                                 # one layer at a time
        lp = log_softmax(unembed(x).astype(np.float64))               # [pos, vocab]
        p = np.exp(lp)
        top = top_k(lp, k)
        out["top_ids"].append(top)
        out["top_probs"].append(np.take_along_axis(p, top, axis=-1))
        out["entropy"].append(-(p * lp).sum(-1))
        out["kl_to_final"].append((final_p * (final_lp - lp)).sum(-1))
        t_lp = np.take_along_axis(lp, target[:, None], axis=-1)       # [pos, 1]
        out["final_rank"].append((lp > t_lp).sum(-1))                 # 0 = top-1
        out["final_prob"].append(np.exp(t_lp[:, 0]))
    dtypes = {"top_ids": np.int64, "final_rank": np.int64}
    return {name: np.stack(v).astype(dtypes.get(name, np.float32)) for name, v in out.items()} | \
        {"final_ids": target.astype(np.int64)}
