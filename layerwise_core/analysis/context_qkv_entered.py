"""What context entered the focus word at one layer, in each of two sentences: where it looks
(its head-average attention row, and per head), and the update attention adds, Delta_attn^(l)
(hook_attn_out, its tokens averaged), with the lengths of the two updates and their cosine.

Used by context_qkv's `entered` beat: the same token at the same position meets different
neighbours, so attention adds different updates, and X^(l+1) differs.
"""

from __future__ import annotations

import math

import numpy as np

from ..trace import Trace
from .attention_depth import special_positions
from .context_qkv import focus_row
from .similarity import cosine


def looks(trace: Trace, pos: list[int], layer: int) -> dict:
    """The focus word's attention at `layer`: `mean` [key] (the head-average of its rows, its
    tokens averaged), `heads` [head][key], and `words`: the sentence's other tokens (not the
    focus, not [CLS]/[SEP]/BOS) ordered by head-average weight, heaviest first."""
    p = np.asarray(trace[f"blocks.{layer}.attn.hook_pattern"], np.float64)   # [head, q, k]
    rows = p[:, pos].mean(axis=1)                                          # [head, key]
    mean = rows.mean(axis=0)
    skip = set(pos) | set(special_positions(trace))
    words = sorted((j for j in range(len(mean)) if j not in skip), key=lambda j: -mean[j])
    return {"mean": mean.tolist(), "heads": rows.tolist(), "words": words}


def update(trace: Trace, pos: list[int], layer: int) -> np.ndarray:
    """Delta_attn^(layer) of the focus word (float64, its tokens averaged)."""
    return focus_row(trace[f"blocks.{layer}.hook_attn_out"], pos)


def entered(a: Trace, pos_a: list[int], b: Trace, pos_b: list[int], layer: int = 0) -> dict:
    """Both sentences' attention at `layer` (`looks`), and their updates: `length` [a, b] of
    Delta_attn, `cos` between them and `angle` (degrees, arccos of that cosine); the X each is
    added to: `x_length` [a, b] (|X^(layer)|); the two sums X^(layer) + Delta_attn^(layer)
    (before the norm and the FFN that follow): `sum_length` [a, b], `sum_cos`, `sum_angle`."""
    ua, ub = update(a, pos_a, layer), update(b, pos_b, layer)
    xa, xb = (focus_row(t[f"blocks.{layer}.hook_resid_pre"], p) for t, p in
              ((a, pos_a), (b, pos_b)))
    c = float(cosine(ua, ub))
    sc = float(cosine(xa + ua, xb + ub))
    return {"layer": layer, "looks": [looks(a, pos_a, layer), looks(b, pos_b, layer)],
            "length": [float(np.linalg.norm(ua)), float(np.linalg.norm(ub))],
            "cos": c, "angle": math.degrees(math.acos(max(-1.0, min(1.0, c)))),
            "x_length": [float(np.linalg.norm(xa)), float(np.linalg.norm(xb))],
            "sum_length": [float(np.linalg.norm(xa + ua)), float(np.linalg.norm(xb + ub))],
            "sum_cos": sc, "sum_angle": math.degrees(math.acos(max(-1.0, min(1.0, sc))))}


def contrast_heads(looks_a: dict, looks_b: dict, n: int = 2) -> list[dict]:
    """The n heads that put the most weight on sentence a's heaviest word (`words[0]`), leaving
    out heads whose heaviest key is the same position in both sentences (they follow position,
    e.g. the previous token, not the words); for each, sentence b's heaviest word under it.
    [{head, a_key, a, b_key, b}] by weight on a's word, heaviest first."""
    ha, hb = np.asarray(looks_a["heads"]), np.asarray(looks_b["heads"])
    key_a = looks_a["words"][0]
    words_b = looks_b["words"]
    out = []
    for h in np.argsort(-ha[:, key_a], kind="stable"):
        if int(np.argmax(ha[h])) == int(np.argmax(hb[h])):
            continue
        kb = max(words_b, key=lambda j: hb[h, j])
        out.append({"head": int(h), "a_key": int(key_a), "a": float(ha[h, key_a]),
                    "b_key": int(kb), "b": float(hb[h, kb])})
        if len(out) == n:
            break
    return out
