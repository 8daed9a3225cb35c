"""The context_qkv draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.context_qkv import QKV, context_qkv
from layerwise_core.analysis.vectors import positions
from layerwise_core.drafts.base import Beat, Context, Draft

def build(c: Context) -> Draft:
    a, b = c.traces
    word = c.word
    said = c.said
    pa, pb = positions(a, c.focus), positions(b, c.focus)
    cos = context_qkv(a, pa, b, pb)
    L = a.n_layers
    same_id = [a.meta["token_ids"][p] for p in pa] == [b.meta["token_ids"][p] for p in pb]
    one = all(abs(cos[k][0] - 1) <= 1e-6 for k in ("x", *QKV))
    first = ("It is the same token in both" + (", in the same position." if pa == pb else ".")
             if same_id else "It is not the same token sequence in both sentences.")
    beats = [Beat(
        "sentences", ["sentences"],
        "One word, two sentences.",
        f"Here is the word {said} in two sentences. {first}",
        expect=["len(data.contexts) == 2"])]
    if one:
        beats.append(Beat(
            "same", ["same"],
            "Layer {data.layers[0]}: the same X meets the same W, so Q, K and V are one vector.",
            f"At layer {{data.layers[0]}} nothing has been mixed in yet. In both sentences {said} "
            f"enters with the very same X, and the layer multiplies it by the very same "
            f"matrices, so its queries, keys and values are identical: every cosine is one.",
            expect=[f"data.cos.{k}[0] ~= 1 ± 1e-6" for k in ("x", *QKV)]))
    else:
        beats.append(Beat(
            "same", ["same"],
            "Layer {data.layers[0]}: X already differs between the sentences.",
            f"At layer {{data.layers[0]}} {said} already differs between the sentences, a "
            f"cosine of {{data.cos.x[0]:.2f}} between the two X, so its queries, keys and "
            f"values differ too, although the matrices are the same."))
    beats.append(Beat(
        "layers", ["layers"],
        "Same W, different X: layer by layer, how alike are X, Q, K and V?",
        f"From layer {{data.layers[1]}} on, attention mixes {said} in each sentence with its own "
        f"neighbours. Both sentences still meet the very same matrices in every layer, so "
        f"whatever separates their queries, keys and values came in through X."))
    lo = min(((k, int(np.argmin(cos[k]))) for k in QKV), key=lambda kl: cos[kl[0]][kl[1]])
    name = {"q": "queries", "k": "keys", "v": "values"}[lo[0]]
    beats.append(Beat(
        "compare", ["compare"],
        f"The {name} come apart most, at layer {{data.summary.lowest.layer}}.",
        f"The {name} drift furthest apart, down to a cosine of "
        f"{{data.summary.lowest.value:.2f}} at layer {{data.summary.lowest.layer}}, while X "
        f"itself never falls below {{data.summary.x_lowest.value:.2f}}.",
        expect=[f"data.summary.lowest.layer == {lo[1]}",     # and it is the {name}'s:
                f"data.summary.lowest.value ~= {cos[lo[0]][lo[1]]:.4f} ± 0.001",
                f"data.cos.{lo[0]}[{lo[1]}] ~= {cos[lo[0]][lo[1]]:.4f} ± 0.001"]))
    notes = [f"lowest cosine: {lo[0]} at layer {lo[1]} ({cos[lo[0]][lo[1]]:.3f}) of {L} layers"]
    return Draft(f"Context enters Q, K and V of '{word}'", beats, notes=notes)
