"""The logit lens over several prompts: per layer, how close the lens is to each prompt's own
final answer (median over prompts), and where each prompt's answer enters the top k for good.

Layer l here is the lens read after layer l (`resid_post` of layer l, the state X^(l+1)).
Ranks are 1-based (1 = top). Pure numpy over the cached lens read-outs of each trace.
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .lens_view import enters_top, token_text

SUMMARY_TOP = 10      # "in the top 10 for good from layer ..."


def prompt_rows(traces: list[Trace], positions: list[int], k: int = SUMMARY_TOP) -> list[dict]:
    """One row per prompt: its final answer, the answer's lens rank, KL to the final
    distribution and entropy after every layer, and the first layer from which the answer
    stays in the top `k` to the end."""
    rows = []
    for t, pos in zip(traces, positions):
        ranks = [int(r) + 1 for r in t["lens.resid_post.final_rank"][:, pos]]
        rows.append({
            "answer": token_text(t, int(t["lens.resid_post.final_ids"][pos])),
            "ranks": ranks,
            "kl": [float(x) for x in t["lens.resid_post.kl_to_final"][:, pos]],
            "entropy": [float(x) for x in t["lens.resid_post.entropy"][:, pos]],
            "top_from": enters_top(ranks, k)})
    return rows


def median_by_layer(rows: list[dict], key: str) -> list[float]:
    """The median over prompts of `key` ("ranks", "kl", "entropy") after every layer."""
    return [float(v) for v in np.median(np.array([r[key] for r in rows], float), axis=0)]


def top_from_counts(rows: list[dict], n_layers: int) -> list[int]:
    """After every layer: how many prompts' answers are in the top k from there to the end."""
    return [sum(1 for r in rows if r["top_from"] is not None and r["top_from"] <= l)
            for l in range(n_layers)]
