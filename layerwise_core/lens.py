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
CHUNK_ROWS = 64         # stream vectors decoded per product with the unembedding (a chunk's
                        # float64 log-probabilities: 64 x 49,152 x 8 bytes = 25 MB per array)


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
    """streams [layer, pos, d_model], final_logits [pos, vocab] -> summary arrays [layer, pos, ...].

    The stream vectors of every layer are decoded CHUNK_ROWS at a time: one product with the
    unembedding per chunk reads its vocab x d_model weights once (not once per layer), and
    each row's numbers are those of decoding it alone."""
    L, n_pos, d = streams.shape
    final_lp = log_softmax(final_logits.astype(np.float64))           # [pos, vocab]
    final_p = np.exp(final_lp)
    target = final_logits.argmax(axis=-1)                             # the model's prediction
    out = {name: [] for name in ("top_ids", "top_probs", "entropy", "kl_to_final",
                                 "final_rank", "final_prob")}
    flat = streams.reshape(L * n_pos, d)
    for start in range(0, len(flat), CHUNK_ROWS):
        rows = flat[start:start + CHUNK_ROWS]
        pos = np.arange(start, start + len(rows)) % n_pos             # each row's position
        lp = log_softmax(unembed(rows).astype(np.float64))            # [rows, vocab]
        p = np.exp(lp)
        top = top_k(lp, k)
        out["top_ids"].append(top)
        out["top_probs"].append(np.take_along_axis(p, top, axis=-1))
        out["entropy"].append(-(p * lp).sum(-1))
        out["kl_to_final"].append((final_p[pos] * (final_lp[pos] - lp)).sum(-1))
        t_lp = np.take_along_axis(lp, target[pos][:, None], axis=-1)  # [rows, 1]
        out["final_rank"].append((lp > t_lp).sum(-1))                 # 0 = top-1
        out["final_prob"].append(np.exp(t_lp[:, 0]))
    dtypes = {"top_ids": np.int64, "final_rank": np.int64}
    return {name: np.concatenate(v).reshape(L, n_pos, *v[0].shape[1:])
            .astype(dtypes.get(name, np.float32)) for name, v in out.items()} | \
        {"final_ids": target.astype(np.int64)}
