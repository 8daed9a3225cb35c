"""Logit-lens read-outs shaped for the screen: tokens as text, per layer and position."""

from __future__ import annotations

from ..trace import Trace

SHARP_RANK = 1000     # the sharpening window: the layers after the last one with a rank above this


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


def sharpening_start(ranks: list[int], threshold: int = SHARP_RANK) -> int:
    """First layer of the late window: the layer after the last one whose rank is above
    `threshold` (0 if none is)."""
    above = [l for l, r in enumerate(ranks) if r > threshold]
    return above[-1] + 1 if above else 0


def enters_top(ranks: list[int], k: int) -> int | None:
    """First layer from which the rank stays within the top `k` to the end (None if the last
    layer's rank is above `k`)."""
    out = None
    for l in range(len(ranks) - 1, -1, -1):
        if ranks[l] > k:
            break
        out = l
    return out


def sublayer_credit(post_rank: list[int], mid_rank: list[int], post_prob: list[float],
                    mid_prob: list[float], layers: list[int]) -> dict:
    """Each layer's rank change split in two: before (after layer l-1) -> after attention
    (resid_mid[l]) -> after FFN (resid_post[l]). A factor is before / after (> 1: the answer
    moved up). Totals multiply the factors over `layers` (layer 0 has no lens before it)."""
    rows, attn_total, ffn_total = [], 1.0, 1.0
    best = None
    for l in layers:
        if l == 0:
            continue
        before, mid, after = post_rank[l - 1], mid_rank[l], post_rank[l]
        fa, ff = before / mid, mid / after
        attn_total *= fa
        ffn_total *= ff
        rows.append({"layer": l, "before": before, "after_attn": mid, "after_ffn": after,
                     "attn_factor": fa, "ffn_factor": ff,
                     "prob_before": post_prob[l - 1], "prob_after_attn": mid_prob[l],
                     "prob_after_ffn": post_prob[l],
                     "mover": "attn" if fa >= ff else "ffn"})
        for sub, f, a, b in (("attn", fa, before, mid), ("ffn", ff, mid, after)):
            if best is None or f > best["factor"]:
                best = {"layer": l, "sublayer": sub, "factor": f, "from": a, "to": b}
    return {"rows": rows, "attn_total": attn_total, "ffn_total": ffn_total,
            "most": "attn" if attn_total >= ffn_total else "ffn", "biggest_step": best}
