"""Plan data for "attention across depth": the focus word's attention row at every layer, drawn
as arcs (the head-average), then the heads of one layer side by side.

  tokens, focus, special       the sentence's tokens, the focus word's positions, the special
                               positions ([CLS], [SEP]: in no word of the sentence)
  layers[l].row                the head-average row of the focus word over every key (sums to 1)
  layers[l].decimals           decimals its weights are shown with (2, or 3 near float noise)
  layers[l].top                the other token it attends to most (the heaviest arc)
  layers[l].sink               the row's share on the special positions
  sink.max / sink.min / .last  the highest and lowest share (layer, value), the last layer's
  heads.layer                  the layer whose heads are shown: the one holding the strongest
                               previous-token head (analysis.attention_depth)
  heads.rows[h], .decimals[h]  that layer's rows of the focus word, head by head
  heads.prev_token[h]          each head's previous-token score at that layer
  heads.prev                   the strongest: head, score, and the token just before the focus
Every number a scene writes is checked at plan time against float noise (plans.shown).
"""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_depth import attention_rows
from layerwise_core.analysis.vectors import positions
from layerwise_core.errors import LayerwiseError
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable

DECIMALS = 2


def shown_row(row: list[float], where: str) -> int:
    """Decimals for a row of weights: DECIMALS, or one more when a weight sits within float
    noise of a rounding boundary; every weight is then checked at that precision."""
    return shown_decimals(row, DECIMALS, where)


def _extreme(values: list[float], fn) -> dict:
    l = int(fn(values))
    return {"layer": l, "value": values[l]}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    spec = t.spec
    pos = positions(t, sb.focus[0])
    if len(pos) != 1:
        raise LayerwiseError(f"plan: focus {sb.focus[0]!r} is {len(pos)} tokens; the arcs "
                             f"start at one token (choose a word that is one token)")
    f = pos[0]
    rows = attention_rows(t, pos)
    L, H = t.n_layers, spec.n_heads
    others = [j for j in range(len(t.tokens)) if j != f]

    layers = []
    for l in range(L):
        row = rows["mean"][l]
        d = shown_row(row, f"data.layers[{l}].row")
        j = max(others, key=lambda k: row[k])
        layers.append({"layer": l, "row": row, "decimals": d,
                       "top": {"pos": j, "token": t.tokens[j], "weight": row[j]},
                       "sink": stable(rows["sink"][l], DECIMALS, f"data.layers[{l}].sink")})

    share = rows["sink"]
    sink = {"share": share, "max": _extreme(share, np.argmax), "min": _extreme(share, np.argmin),
            "last": share[L - 1]}

    # the layer and head with the strongest previous-token attention, over every layer
    prev = np.asarray(rows["prev_token"])                       # [layer, head]
    hl, hh = (int(i) for i in np.unravel_index(np.argmax(prev), prev.shape))
    head_rows = rows["heads"][hl]
    heads = {"layer": hl, "ids": list(range(H)), "rows": head_rows,
             "decimals": [shown_row(r, f"data.heads.rows[{h}]") for h, r in enumerate(head_rows)],
             "prev_token": [stable(s, DECIMALS, f"data.heads.prev_token[{h}]")
                            for h, s in enumerate(prev[hl].tolist())],
             "prev": {"head": hh, "score": float(prev[hl, hh]),
                      "before": {"pos": f - 1, "token": t.tokens[f - 1]} if f > 0 else None,
                      "weight_before": head_rows[hh][f - 1] if f > 0 else None,
                      # runner-up over every other head of every layer: how special it is
                      "next_best": stable(float(np.sort(prev.ravel())[-2]), DECIMALS,
                                          "data.heads.prev.next_best")}}
    return {
        "model": spec.display or spec.name,
        "word": sb.focus[0].partition("#")[0],
        "tokens": t.tokens,
        "focus": f,
        "special": rows["special"],
        "special_tokens": [t.tokens[i] for i in rows["special"]],
        "n_heads": H,
        "average": "mean over heads",
        "layers": layers,
        "sink": sink,
        "heads": heads,
    }
