"""The focus word's attention row at every layer, and what changes with depth.

At every layer l, the focus word's row of the attention pattern A^(l,h) (its tokens averaged
when it has several) per head, and the mean over heads (the head-average: every head weighs the
same). Two measures name what changes:
  sink share   the part of the row on the sink (`sink_of`): the special tokens ([CLS],
               [SEP], a BOS: positions the tokenizer added), or, for a decoder that adds none,
               its first token (the one position every later token can see)
  prev_token   per head, the mean over queries q >= 1 of A[q, q-1] (analysis.qkv): near 1 marks a
               previous-token head, whatever the words
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .qkv import one_before_weights
from .vectors import special_positions


def sink_of(trace: Trace) -> tuple[str | None, list[int]]:
    """What the sink share is measured on, and its kind: ("special", the special positions)
    when the tokenizer added any; else, for a decoder, ("first", [0]): its first token, the one
    position every later token can see (a decoder without a BOS, SmolLM2); else (None, []):
    an encoder that adds none has no position every token leans on by construction."""
    special = special_positions(trace)
    if special:
        return "special", special
    if trace.spec.kind == "decoder" and len(trace.tokens) > 0:
        return "first", [0]
    return None, []


def attention_rows(trace: Trace, pos: list[int]) -> dict:
    """Per layer: `heads` [head][key] (the focus word's rows), `mean` [key] (their head-average),
    `sink` (the mean row's share on the sink positions, `special`, of kind `sink_kind`:
    sink_of), `prev_token` [head] and `one_before` [head][q - 1] (each query's weight on
    the token before it: what the previous-token score averages)."""
    kind, special = sink_of(trace)
    out = {"special": special, "sink_kind": kind, "heads": [], "mean": [], "sink": [],
           "prev_token": [], "one_before": []}
    for l in range(trace.n_layers):
        p = np.asarray(trace[f"blocks.{l}.attn.hook_pattern"], np.float64)     # [head, q, k]
        rows = p[:, pos].mean(axis=1)                                          # [head, key]
        mean = rows.mean(axis=0)
        out["heads"].append(rows.tolist())
        out["mean"].append(mean.tolist())
        out["sink"].append(float(mean[special].sum()))
        one = one_before_weights(p)                     # what the previous-token score averages
        out["prev_token"].append(one.mean(axis=1).tolist())
        out["one_before"].append(one.tolist())
    return out
