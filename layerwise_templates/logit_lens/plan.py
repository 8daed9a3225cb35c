"""Plan data for "Logit lens: predictions sharpen with depth".

The lens decodes the residual stream after every layer as if it were the last one (see
`layerwise_core/lens.py`). At the focus token (the last token of the focus word) the plan keeps,
per layer, the lens's top-8 next tokens (with their ids, so a bar chart can follow each token
from layer to layer) and the rank and probability of the model's final
answer, after the FFN add (`resid_post`) and after the attention add (`resid_mid`). For every
position it keeps the top-1 token and probability of a subset of layers (the grid), and for the
late layers where the answer's rank falls below `SHARP_RANK` it splits each layer's change in
rank between the attention and the FFN sublayer (the credit table).

Ranks are 1-based (1 = top-1). Token texts come with a display form made safe for the screen
(spaces as "␣", newlines and other control characters escaped, long tokens shortened).
"""

from __future__ import annotations

import math

import numpy as np


from layerwise_core.analysis.lens_view import (SHARP_RANK, enters_top, final_prediction, lens_layers,
                                  sharpening_start, sublayer_credit, token_text, top1_grid)
from layerwise_core.analysis.logit_lens_prompts import (SUMMARY_TOP, median_by_layer,
                                                       prompt_rows, top_from_counts)
from layerwise_core.analysis.vectors import positions
from layerwise_core.models import weights_read
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace

TOP_K = 8             # tokens listed per layer (the lens column, the bar chart across layers)
GRID_EVERY = 3        # grid rows: every 3rd layer before the sharpening window ...
MAX_CHARS = 8         # longer token texts are shortened to this many characters plus "…"
PROB_TICKS = [0.0, 0.5, 1.0]
X_TICK_STEP = 5


_ESCAPES = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "↵"}


def display_token(text: str, max_chars: int = MAX_CHARS) -> str:
    """A token as it is drawn, with no raw escapes: every space (and any other blank, such as
    a no-break space) as "␣", a new line as "↵", a tab as "⇥", any other non-printable
    character as "□"; empty as "∅"; shortened with "…"."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isspace():
            out.append("␣")
        elif not ch.isprintable():
            out.append("□")
        else:
            out.append(ch)
    shown = "".join(out) or "∅"
    return shown if len(shown) <= max_chars else shown[:max_chars - 1] + "…"


def _token(text: str) -> dict:
    return {"text": text, "display": display_token(text)}


def _rank_axis(ranks: list[int]) -> dict:
    """A log-scale rank axis with rank 1 at the top: a rank is drawn at
    height = decades - log10(rank), so 10**decades (above every rank) sits at 0."""
    decades = max(1, math.ceil(math.log10(max(ranks))))
    return {"decades": decades, "y_range": [0, decades],
            "ticks": [{"height": decades - d, "rank": 10 ** d} for d in range(decades + 1)]}


def rank_height(rank: int, axis: dict) -> float:
    return axis["decades"] - math.log10(rank)


def prompts_summary(sb: Storyboard, traces: list[Trace]) -> dict:
    """Every sentence of the storyboard as a prompt (the focus word's last token): per layer
    the median over prompts of the answer's rank, KL to the final distribution and entropy,
    and per prompt the layer from which its answer stays in the top `SUMMARY_TOP`."""
    pos = [positions(t, f)[-1] for t, f in zip(traces, sb.focus)]
    rows = prompt_rows(traces, pos)
    L = traces[0].n_layers
    med = median_by_layer(rows, "ranks")
    axis = _rank_axis([int(max(max(med), *(max(r["ranks"]) for r in rows)))])
    tops = [r["top_from"] for r in rows]
    known = sorted(x for x in tops if x is not None)
    return {
        "n": len(rows), "top": SUMMARY_TOP,
        "items": [{"sentence": s, "answer": _token(r["answer"]), "top_from": r["top_from"],
                   "last_rank": r["ranks"][-1], "ranks": [int(x) for x in r["ranks"]]}
                  for s, r in zip(sb.sentences, rows)],
        "median_rank": med,
        "median_height": [rank_height(max(1.0, m), axis) for m in med],
        "median_kl": median_by_layer(rows, "kl"),
        # a nat's scale, said with the KL chart: one nat is a factor of e in probability, and
        # the median's first KL as a factor (exp of it; 3 significant digits, as said)
        "nat_factor": math.e,
        "kl_start_factor": float(f"{math.exp(median_by_layer(rows, 'kl')[0]):.3g}"),
        "median_entropy": median_by_layer(rows, "entropy"),
        "in_top": top_from_counts(rows, L),
        "rank_axis": axis,       # holds every prompt's own line, not only the median
        "top_from_median": float(np.median(known)) if known else None,
        "earliest": min(known) if known else None,
        "earliest_prompt": tops.index(min(known)) if known else None,
    }


def weights(t: Trace) -> dict | None:
    """The weights file the trace really read (layerwise_core.models.weights_read, shared with
    residual_stream and attention_depth): SmolLM2's package ships
    `SmolLM2-135M-Instruct.Q4_1.gguf`, the instruct-tuned variant, 4-bit."""
    return weights_read(t.meta.get("source"), t.spec.display)


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    L, n_pos = t.n_layers, len(t.tokens)
    pos = positions(t, sb.focus[0])[-1]
    answer_id = int(t["lens.resid_post.final_ids"][pos])
    answer = final_prediction(t, pos)

    post = lens_layers(t, pos, "resid_post", TOP_K)
    mid = lens_layers(t, pos, "resid_mid", TOP_K)
    post_ids = t["lens.resid_post.top_ids"][:, pos, :TOP_K]
    rank_axis = _rank_axis([r["final_rank"] for r in post + mid])
    layers = []
    for l in range(L):
        p, m = post[l], mid[l]
        layers.append({
            "layer": l, "state": l + 1,
            "top": [{**_token(text), "id": int(i), "prob": prob,
                     "is_answer": bool(int(i) == answer_id)}
                    for (text, prob), i in zip(p["top"], post_ids[l])],
            "rank": p["final_rank"], "prob": p["final_prob"], "entropy": p["entropy"],
            "height": rank_height(p["final_rank"], rank_axis),
            "mid_rank": m["final_rank"], "mid_prob": m["final_prob"],
            "mid_height": rank_height(m["final_rank"], rank_axis), "mid_x": l - 0.5})

    ranks = [r["rank"] for r in layers]
    start = sharpening_start(ranks)
    window = list(range(max(start, 1), L))
    credit = sublayer_credit(ranks, [r["mid_rank"] for r in layers],
                             [r["prob"] for r in layers], [r["mid_prob"] for r in layers],
                             window)

    beat_layers = {b.layer for b in sb.beats if b.layer is not None}
    dense_from = max(start - 1, 0)       # every layer from the one before the window
    sparse = list(range(0, dense_from, GRID_EVERY))
    grid_layers = sorted(set(sparse) | set(range(dense_from, L)) | beat_layers)
    top1 = top1_grid(t, "resid_post")
    final_ids = t["lens.resid_post.final_ids"]
    top1_ids = t["lens.resid_post.top_ids"][:, :, 0]
    grid = {
        "positions": [_token(s) for s in t.tokens],
        "final": [_token(token_text(t, i)) for i in final_ids],
        "rows": [{"layer": l,
                  "cells": [{**_token(c["token"]), "prob": c["prob"],
                             "is_final": bool(top1_ids[l, j] == final_ids[j])}
                            for j, c in enumerate(top1[l])]} for l in grid_layers],
        "every": GRID_EVERY, "sparse_until": sparse[-1] if sparse else None,
        "dense_from": dense_from, "extra": sorted(beat_layers - set(sparse) -
                                                  set(range(dense_from, L))),
        "key": [0.0, 1.0],
    }
    summary = prompts_summary(sb, traces)
    return {
        "prompts": summary,
        "weights": weights(t),
        "prompt": {"tokens": [_token(s) for s in t.tokens], "focus_pos": pos,
                   "focus": _token(t.tokens[pos])},
        "answer": {**_token(answer), "id": answer_id, "enters_top": enters_top(ranks, TOP_K)},
        "n_layers": L, "n_positions": n_pos, "top_k": TOP_K,
        "layers": layers,
        "rank_axis": rank_axis,
        "prob_axis": {"ticks": PROB_TICKS},
        "x_ticks": sorted(set(range(0, L, X_TICK_STEP)) | {L - 1}),
        "window": {"start": start, "size": L - start, "threshold": SHARP_RANK,
                   "layers": window},
        "credit": credit,
        "grid": grid,
    }
