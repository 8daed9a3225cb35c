"""Plan data for "where bank looks, layer by layer": the focus word's attention row at every
layer, drawn as arcs (the head-average); the fair experiment that ties the move onto [CLS] to
the changed X; the sink share; and a deep layer head by head.

  tokens, focus, special       the sentence's tokens; the focus word's positions (a word of
                               several tokens: their rows are averaged, said on screen); the
                               special positions ([CLS], [SEP]: in no word of the sentence)
  decimals                     decimals every weight is shown with (2, or 3 near float noise):
                               one precision for every row and table of the video
  layers[l].row                the head-average row of the focus word over every key (sums to 1)
  layers[l].heads              each head's row of the focus word ([head][key]): the rows
                               `row` is the mean of (drawn collapsing into it at layer 0)
  layers[l].top / .top_word    the heaviest other token, and the heaviest other *word* token
  layers[l].on_special[i]      the row's weight on special[i]
  layers[l].sink               the row's share on the special positions
  layers[l].total              what the row adds up to (1, said once: a weight is a share)
  layers[l].sink_shown         the share as the bar writes it (and the voice says it): the
                               special tokens' weights as written (`decimals`), added, so
                               the bar's number is the sum of the numbers under [CLS] and
                               [SEP] (0.71 + 0.03 = 0.74; the unrounded 0.747 reads 0.75)
  sink.max / sink.min / .last  the highest and lowest share (layer, value), the last layer's
  sink.end_after0              the last special token's largest weight after layer 0
  tie                          layer 1's own W_Q^(1), W_K^(1) fed X^(0) (old) and X^(1) (new):
                               the head-average rows and their shares on the special tokens
                               (analysis.attention_depth_why.same_w_old_x); None if not redoable
  tie_last                     the same test at the last layer L-1: W_Q^(L-1), W_K^(L-1) fed
                               X^(L-2) (old) and X^(L-1) (new); its `layer0_sink` is layer
                               L-2's own share (the model's, the bar it is compared with);
                               `by` (both tests): what the test singles out as moving the share,
                               "changed x", "own matrices" or None (analysis...moved_by);
                               `old_shown` / `new_shown`: the rows' shares as written (as
                               layers[l].sink_shown)
  deep                         the last layer head by head: its heaviest word token (target),
                               each head's weight on it, the heads ranked, their previous-token
                               scores (mean of A[q, q-1] over the sentence), and their
                               baseline `uniform` (1 / `n_tokens`: attention spread evenly)
                               and `habit` (twice that: a head under it has no
                               previous-token habit in this sentence)
Every number a scene writes is checked at plan time against float noise (plans.shown).
"""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_depth import attention_rows
from layerwise_core.analysis.attention_depth_why import deep_heads, moved_by, same_w_old_x
from layerwise_core.analysis.vectors import positions
from layerwise_core.errors import LayerwiseError
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable

DECIMALS = 2


def _extreme(values: list[float], fn) -> dict:
    l = int(fn(values))
    return {"layer": l, "value": values[l]}


def _tok(t: Trace, j: int, w: float) -> dict:
    return {"pos": j, "token": t.tokens[j], "weight": w}


def shown_sum(row, special, decimals: int) -> float:
    """The share on the special tokens as the video writes it: the sum of their weights as
    written (`decimals`), so the bar's number is what the numbers under [CLS] and [SEP] add up
    to (0.71 + 0.03 = 0.74, where the unrounded share 0.747 would be written 0.75)."""
    unit = 10 ** decimals
    return sum(round(float(row[s]) * unit) for s in special) / unit


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    spec = t.spec
    pos = positions(t, sb.focus[0])
    rows = attention_rows(t, pos)          # a word of several tokens: their rows averaged
    special = rows["special"]
    L, H = t.n_layers, spec.n_heads
    others = [j for j in range(len(t.tokens)) if j not in pos]
    words = [j for j in others if j not in special]
    if not special or not words:
        raise LayerwiseError("plan: attention_depth needs special tokens and another word")

    layers = []
    for l in range(L):
        row = rows["mean"][l]
        j = max(others, key=lambda k: row[k])
        w = max(words, key=lambda k: row[k])
        layers.append({"layer": l, "row": row, "heads": rows["heads"][l],
                       "top": _tok(t, j, row[j]),
                       "top_word": _tok(t, w, row[w]),
                       "on_special": [row[s] for s in special],
                       "sink": stable(rows["sink"][l], DECIMALS, f"data.layers[{l}].sink"),
                       # what the row adds up to (1: attention is a split of the whole)
                       "total": stable(float(np.sum(row)), 0, f"data.layers[{l}].total")})

    share = rows["sink"]
    sink = {"share": share, "max": _extreme(share, np.argmax), "min": _extreme(share, np.argmin),
            "last": share[L - 1],
            # the last special token's ([SEP]) largest weight after layer 0
            "end_after0": max((x["on_special"][-1] for x in layers[1:]), default=0.0)}

    tie = same_w_old_x(t, t.weights(), 1, pos, special) if L > 1 else None
    if tie is not None:
        tie["layer0_sink"] = share[0]
        tie["by"] = moved_by(share[0], tie["old_sink"], tie["new_sink"])
    # the same fair test at the last layer (its own matrices fed the layer before's X, then
    # its own): does the last layer's change also come with the changed X?
    tie_last = same_w_old_x(t, t.weights(), L - 1, pos, special) if L > 2 else None
    if tie_last is not None:
        tie_last["layer0_sink"] = share[L - 2]
        tie_last["by"] = moved_by(share[L - 2], tie_last["old_sink"], tie_last["new_sink"])

    last = L - 1
    target = layers[last]["top_word"]["pos"]
    dh = deep_heads(rows, last, target)
    prev = np.asarray(rows["prev_token"][last])
    suspect = max(dh["order"][:3], key=lambda h: prev[h])
    ob = rows["one_before"][last][suspect]
    deep = {"layer": last, "target": _tok(t, target, rows["mean"][last][target]),
            "heads": list(range(H)), "weight": dh["weight"], "order": dh["order"],
            "prev_token": [stable(float(s), DECIMALS, f"data.deep.prev_token[{h}]")
                           for h, s in enumerate(prev)],
            "top3": [{"head": h, "weight": dh["weight"][h], "prev_token": float(prev[h])}
                     for h in dh["order"][:3]],
            "suspect": {"head": suspect, "prev_token": float(prev[suspect]),
                        "one_before": [stable(float(w), DECIMALS,
                                              f"data.deep.suspect.one_before[{q}]")
                                       for q, w in enumerate(ob)]},
            "before_focus": pos[0] - 1 == target,
            # a previous-token score's baseline: attention spread evenly over the sentence
            "uniform": 1.0 / len(t.tokens), "n_tokens": len(t.tokens),
            # a previous-token habit's bar, drawn: twice the even spread
            "habit": 2.0 / len(t.tokens)}

    # one precision for every weight the video writes
    shown = [(l["row"], f"data.layers[{i}].row") for i, l in enumerate(layers)]
    shown.append((dh["weight"], "data.deep.weight"))
    if tie:
        shown += [(tie["old_row"], "data.tie.old_row"), (tie["new_row"], "data.tie.new_row")]
    if tie_last:
        shown += [(tie_last["old_row"], "data.tie_last.old_row"),
                  (tie_last["new_row"], "data.tie_last.new_row")]
    decimals = max(shown_decimals(r, DECIMALS, where) for r, where in shown)
    for lay in layers:
        lay["sink_shown"] = shown_sum(lay["row"], special, decimals)
    for t_ in (tie, tie_last):
        if t_ is not None:
            t_["old_shown"] = shown_sum(t_["old_row"], special, decimals)
            t_["new_shown"] = shown_sum(t_["new_row"], special, decimals)
    return {
        "model": spec.display or spec.name,
        "word": sb.focus[0].partition("#")[0],
        "tokens": t.tokens,
        "focus": pos,
        "n_focus": len(pos),
        "special": special,
        "special_tokens": [t.tokens[i] for i in special],
        "n_heads": H,
        "n_layers": L,
        "decimals": decimals,
        "layers": layers,
        "sink": sink,
        "tie": tie,
        "tie_last": tie_last,
        "deep": deep,
    }
