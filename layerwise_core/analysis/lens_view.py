"""Logit-lens read-outs shaped for the screen: tokens as text, per layer and position."""

from __future__ import annotations

from ..trace import Trace


def token_text(trace: Trace, token_id: int) -> str:
    return trace.meta["lens"]["vocab"][str(int(token_id))]


def lens_layers(trace: Trace, pos: int, site: str = "resid_post", k: int = 5) -> list[dict]:
    """At one position, per layer: top-k tokens with probabilities, entropy (nats), KL to the
    final layer, and the final prediction's rank (1 = top) and probability."""
    p = f"lens.{site}."
    rows = []
    for l in range(trace.n_layers):
        ids = trace[p + "top_ids"][l, pos, :k]
        rows.append({"layer": l,
                     "top": [[token_text(trace, i), float(q)]
                             for i, q in zip(ids, trace[p + "top_probs"][l, pos, :k])],
                     "entropy": float(trace[p + "entropy"][l, pos]),
                     "kl_to_final": float(trace[p + "kl_to_final"][l, pos]),
                     "final_rank": int(trace[p + "final_rank"][l, pos]) + 1,
                     "final_prob": float(trace[p + "final_prob"][l, pos])})
    return rows


def top1_grid(trace: Trace, site: str = "resid_post") -> list[list[dict]]:
    """[layer][pos]: the lens's top-1 token and its probability."""
    ids, probs = trace[f"lens.{site}.top_ids"], trace[f"lens.{site}.top_probs"]
    return [[{"token": token_text(trace, ids[l, t, 0]), "prob": float(probs[l, t, 0])}
             for t in range(ids.shape[1])] for l in range(ids.shape[0])]


def final_prediction(trace: Trace, pos: int) -> str:
    return token_text(trace, trace["lens.resid_post.final_ids"][pos])
