"""How a word's vector in different contexts drifts apart, with an anisotropy baseline.

Raw cosines between contextual vectors are inflated in upper layers by a few dominant
dimensions, so every layer also gets a baseline: the mean cosine between vectors of *different* words
at that layer, taken across the contexts (Ethayarajh, 2019). `adjusted = raw - baseline`.
A pair of the same word in two sentences ("river"/"river", "the"/"the") is not a baseline
pair: it is the very comparison being measured, and it would lift the baseline (0.159
instead of 0.078 at MiniLM's embedding for the chapter's three sentences).
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from ..trace import Trace
from .vectors import content_positions, layer_states, positions, word_vectors


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine along the last axis (broadcasting)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


def angle_deg(cos: float) -> float:
    """The angle in degrees whose cosine is `cos` (clipped to [-1, 1] against float noise)."""
    return math.degrees(math.acos(max(-1.0, min(1.0, float(cos)))))


BASELINE_DEFINITION = ("mean cosine between two different words in different sentences "
                       "(no word compared with itself; 'bank', punctuation and special tokens "
                       "left out)")


def baseline_pairs(traces: list[Trace], focus: list[str]) -> tuple[list, list]:
    """The baseline's token pairs: ([(i, p, j, q), ...] used, [...] left out as the same word).
    Pairs are taken across different contexts (within one if only one is given), excluding
    the focus word's tokens; two tokens of the same text (case-insensitive) are the same word."""
    pos = [content_positions(t, set(positions(t, w))) for t, w in zip(traces, focus)]
    used, same = [], []
    groups = range(len(traces))
    for i, j in (combinations(groups, 2) if len(traces) > 1 else [(0, 0)]):
        for a, p in enumerate(pos[i]):
            for b, q in enumerate(pos[j]):
                if i == j and b <= a:
                    continue
                word = traces[i].tokens[p].strip().lower() == traces[j].tokens[q].strip().lower()
                (same if word else used).append((i, p, j, q))
    return used, same


def _example(traces: list[Trace], used: list) -> list[str]:
    """One baseline pair to name on screen: the longest two words of one pair."""
    i, p, j, q = max(used, key=lambda u: min(len(traces[u[0]].tokens[u[1]]),
                                             len(traces[u[2]].tokens[u[3]])))
    return [traces[i].tokens[p].strip(), traces[j].tokens[q].strip()]


def baseline(traces: list[Trace], focus: list[str]) -> np.ndarray:
    """[n_states]: mean cosine between vectors of different words at each layer state
    (`baseline_pairs`, `BASELINE_DEFINITION`)."""
    return _mean_cosine(traces, baseline_pairs(traces, focus)[0])


def _mean_cosine(traces: list[Trace], used: list) -> np.ndarray:
    """[n_states]: the mean cosine of the token pairs `used` at each layer state."""
    if not used:
        raise ValueError("the baseline needs at least one pair of different words")
    states = [np.stack([t[h] for h in layer_states(t)], axis=1) for t in traces]  # [tok, S, d]
    a = np.stack([states[i][p] for i, p, _, _ in used])
    b = np.stack([states[j][q] for _, _, j, q in used])
    return cosine(a, b).mean(axis=0)


def context_similarity(traces: list[Trace], focus: list[str]) -> dict:
    """Per layer state: the focus word's cosine between every pair of contexts, raw and adjusted.

    Returns {"pairs": [[i, j], ...], "raw": [pair][S], "mean_raw": [S], "baseline": [S],
    "adjusted": [S]} as lists (plan-ready), with the baseline's pair count, the same-word
    pairs left out, an example pair and its definition."""
    if len(traces) < 2:
        raise ValueError("context similarity needs at least two contexts")
    vecs = [word_vectors(t, w) for t, w in zip(traces, focus)]
    pairs = list(combinations(range(len(traces)), 2))
    raw = np.stack([cosine(vecs[i], vecs[j]) for i, j in pairs])
    used, same = baseline_pairs(traces, focus)
    base = _mean_cosine(traces, used)
    mean_raw = raw.mean(axis=0)
    return {"pairs": [list(p) for p in pairs], "raw": raw.tolist(), "mean_raw": mean_raw.tolist(),
            "baseline": base.tolist(), "adjusted": (mean_raw - base).tolist(),
            "baseline_pairs": len(used), "baseline_same_word_left_out": len(same),
            "baseline_example": _example(traces, used),
            "baseline_definition": BASELINE_DEFINITION}
