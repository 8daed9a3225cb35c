"""How a word's vector in different contexts drifts apart, with an anisotropy baseline.

Raw cosines between contextual vectors are inflated in upper layers by a few dominant
dimensions, so every layer also gets a baseline: the mean cosine between vectors of unrelated
words at that layer, taken across the contexts (Ethayarajh, 2019). `adjusted = raw - baseline`.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ..trace import Trace
from .vectors import layer_states, positions, word_vectors


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine along the last axis (broadcasting)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


def _content_positions(trace: Trace, exclude: set[int]) -> list[int]:
    """Token positions of real words (no specials, no punctuation), minus `exclude`."""
    keep = set()
    for w in trace.meta["words"]:
        if w["word"][0].isalnum():
            keep.update(w["positions"])
    return sorted(keep - exclude)


def baseline(traces: list[Trace], focus: list[str]) -> np.ndarray:
    """[n_states]: mean cosine between unrelated word vectors at each layer state.

    Pairs are taken across different contexts (within one if only one is given), excluding the
    focus word's tokens."""
    per_trace = []
    for t, w in zip(traces, focus):
        pos = _content_positions(t, set(positions(t, w)))
        per_trace.append(np.stack([t[h][pos] for h in layer_states(t)], axis=1))  # [tok, S, d]
    pairs = []
    groups = range(len(per_trace))
    for i, j in (combinations(groups, 2) if len(per_trace) > 1 else [(0, 0)]):
        a, b = per_trace[i], per_trace[j]
        c = cosine(a[:, None], b[None, :])                           # [ta, tb, S]
        if i == j:
            c = c[np.triu_indices(len(a), k=1)]
        pairs.append(c.reshape(-1, c.shape[-1]))
    return np.concatenate(pairs).mean(axis=0)


def context_similarity(traces: list[Trace], focus: list[str]) -> dict:
    """Per layer state: the focus word's cosine between every pair of contexts, raw and adjusted.

    Returns {"pairs": [[i, j], ...], "raw": [pair][S], "mean_raw": [S], "baseline": [S],
    "adjusted": [S]} as lists (plan-ready)."""
    if len(traces) < 2:
        raise ValueError("context similarity needs at least two contexts")
    vecs = [word_vectors(t, w) for t, w in zip(traces, focus)]
    pairs = list(combinations(range(len(traces)), 2))
    raw = np.stack([cosine(vecs[i], vecs[j]) for i, j in pairs])
    base = baseline(traces, focus)
    mean_raw = raw.mean(axis=0)
    return {"pairs": [list(p) for p in pairs], "raw": raw.tolist(), "mean_raw": mean_raw.tolist(),
            "baseline": base.tolist(), "adjusted": (mean_raw - base).tolist()}
