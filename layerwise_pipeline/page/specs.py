"""Per-template words for the page, where the generic names (plan paths) say too little:
`labels` renames a panel (by its path template, `{l}` = the layer), `beats` adds the panels
(by their first key under `data`) a beat shows, to the beat's own `show` names. A template
without an entry (a new or drafted one) gets the generic names."""

from __future__ import annotations

_QKV = {"x": "X", "q": "queries Q", "k": "keys K", "v": "values V", "in": "the layer's input"}

SPECS: dict[str, dict] = {
    "context_qkv": {
        "labels": {
            **{f"data.cos.{k}[{{l}}]": f"cos of 'bank' in sentences 1 and 2: {n}"
               for k, n in _QKV.items()},
            **{f"data.cos.{k}_head_mean[{{l}}]": f"cos per head, mean: {n}"
               for k, n in _QKV.items()},
            **{f"data.cos.{k}_heads[{{l}}]": f"cos per head (heads 0-11): {n}"
               for k, n in _QKV.items()},
            **{f"data.first.{k}[{{l}}][{s}]": f"{n} of 'bank', sentence {s + 1}: first numbers"
               for k, n in _QKV.items() for s in range(2)},
        },
        "beats": {"same": ["cos", "first"], "layers": ["cos", "first"], "compare": ["cos"]},
    },
    "bank_drift": {
        "labels": {"data.similarity.mean_raw[{l}]": "cos of 'bank', mean over the pairs",
                   "data.similarity.baseline[{l}]": "baseline: cos of unrelated words",
                   "data.similarity.adjusted[{l}]": "adjusted cos (raw - baseline)",
                   "data.gap.values[{l}]": "sense gap: cos(same sense) - cos(other sense)"},
        "beats": {"extend": ["similarity"], "baseline": ["similarity"], "gap": ["gap"]},
    },
    "per_head": {
        "labels": {"data.layers[{l}].patterns": "attention of 'bank', per head",
                   "data.layers[{l}].prev_token": "each head's mean weight on the token before",
                   "data.layers[{l}].x": "X of 'bank': first numbers"},
        "beats": {b: ["layers"] for b in ("query", "scores", "softmax", "values", "matrix",
                                          "grid", "join", "add")},
    },
    "attention_depth": {
        "labels": {"data.layers[{l}].row": "attention of 'bank' (all heads)",
                   "data.layers[{l}].sink": "weight on [CLS] and [SEP]",
                   "data.sink.share[{l}]": "weight on [CLS] and [SEP]"},
        "beats": {"arcs": ["layers"], "depth": ["layers"], "sink": ["sink", "layers"]},
    },
    "logit_lens": {
        "labels": {"data.layers[{l}].top": "the lens's top tokens",
                   "data.layers[{l}].prob": "probability of the answer"},
        "beats": {"early": ["layers"], "run": ["layers"], "climb": ["layers"],
                  "late": ["layers"], "last": ["layers"]},
    },
}
