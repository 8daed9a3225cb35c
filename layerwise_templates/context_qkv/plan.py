"""Plan data for "context enters Q, K, V": one word in two sentences, and per layer l the cosine
between its two X^(l), its two inputs to the projections, and its two Q, K, V. Both sentences
go through the very same W_Q^(l), W_K^(l), W_V^(l): whatever separates their Q, K, V came in
through X.

  cos.x / cos.in / cos.q / cos.k / cos.v   per layer 0..L-1 (analysis.context_qkv); Q, K, V
                                           with all heads concatenated (`heads` says so)
  match                                    why layer 0 is (or is not) one vector: same token,
                                           same position, absolute positions or not
  first.x (or .in) / .q / .k / .v          [layer][sentence][:DIMS]: a few real numbers of
                                           what W reads and of Q, K, V (head 0's first dims);
                                           first.decimals[key][layer]: how many are shown
  axes                                     the chart's y range and ticks
  summary                                  the lowest cosine of Q, K, V and of X, with layers
Every number a scene writes is checked at plan time against float noise (plans.shown).
"""

from __future__ import annotations

import math

import numpy as np

from layerwise_core.analysis.attention_steps import query_steps
from layerwise_core.analysis.context_qkv import QKV, context_qkv, focus_row, layer_zero_match
from layerwise_core.analysis.context_qkv_entered import (contrast_heads, entered, update,
                                                         update_plane, value_pieces)
from layerwise_core.analysis.similarity import cosine
from layerwise_core.analysis.vectors import attn_input, positions
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable

DIMS = 4            # numbers shown of each vector (its first dims; of Q: head 0's first dims)
DECIMALS = 2        # cosines and vector entries on screen
Y_STEPS = (0.1, 0.2)  # cosine axis ticks: the finer where it gives at most 6 ticks
Y_MARGIN = 0.05       # room under the lowest cosine (its dot and a label below it)


def y_axis(values: np.ndarray) -> dict:
    """From a tick under the lowest cosine up to 1: a narrow band of cosines (0.8-0.93) gets
    the height to tell the lines apart; the ticks say where the axis starts."""
    for step in Y_STEPS:
        lo = step * math.floor((float(values.min()) - Y_MARGIN) / step + 1e-9)
        lo = round(max(-1.0, lo), 10)
        n = int(round((1.0 - lo) / step))
        if n <= 5:
            break
    return {"y_range": [lo, 1.0], "y_ticks": [round(lo + step * i, 10) for i in range(n + 1)]}


ZOOM_STEPS = (0.01, 0.02, 0.05, 0.1, 0.2)   # the zoomed cosine scale's tick steps
ZOOM_MARGIN = 0.004                          # room past the extreme cosines on that scale


def zoom_axis(values: list[float], most: int = 8) -> dict:
    """A cosine scale zoomed onto `values` (the two banks' cosine after each step of a
    layer): the finest tick step that gives at most `most` ticks, from a tick under the lowest
    value to one over the highest (within -1 and 1); every other tick labelled from the lowest (more than 4
    ticks), else each. `range` [lo, hi], `ticks`, `labels` (a subset of the ticks)."""
    lo_v, hi_v = min(values) - ZOOM_MARGIN, max(values) + ZOOM_MARGIN
    for step in ZOOM_STEPS:
        # a cosine lies in [-1, 1]: the scale stops there
        lo = max(-1.0, step * math.floor(lo_v / step + 1e-9))
        hi = min(1.0, step * math.ceil(hi_v / step - 1e-9))
        n = int(round((hi - lo) / step))
        if n + 1 <= most:
            break
    ticks = [round(lo + step * i, 10) for i in range(n + 1)]
    labels = ticks[::2] if len(ticks) > 4 else list(ticks)
    return {"range": [round(lo, 10), round(hi, 10)], "ticks": ticks, "labels": labels}


def _entries(per_layer: list, where: str) -> tuple[list, list[int]]:
    """Vector entries [layer][sentence][dim] and the decimals each layer's rows are shown with:
    DECIMALS, or one more when an entry would sit within float noise of a rounding boundary
    (-11.09494 of a pre-norm stream: a -11.09/-11.10 coin toss between machines)."""
    return per_layer, [shown_decimals(rows, DECIMALS, f"{where}[{l}]")
                       for l, rows in enumerate(per_layer)]


NAMES = {"x": "X", "q": "queries", "k": "keys", "v": "values"}


def _lowest(series: list[float], key: str) -> dict:
    layer = int(np.argmin(series))
    return {"key": key, "name": NAMES[key], "layer": layer, "value": series[layer]}


def _at(cos: dict, layer: int, pick) -> dict:
    """Of Q, K, V at `layer`, the one `pick` (min or max) chooses by cosine."""
    k = pick(QKV, key=lambda k: cos[k][layer])
    return {"key": k, "name": NAMES[k], "layer": layer, "value": cos[k][layer]}


SCORE_DECIMALS = 1  # the scores of the one-head softmax step


def softmax_step(trace: Trace, pos: list[int], look: dict, heads: list[dict]) -> dict | None:
    """One head's weights made, once, for sentence 1's focus word (its last token: in a decoder
    it sees every key its other tokens see) at layer 0 (analysis.attention_steps): the head that
    `contrast_heads` ranks first (else the one with the most weight on the heaviest word), its
    scores q.k/sqrt(d_head) and softmax weights for every key (a masked key's score None), and
    the two keys the scene writes out: the heaviest word and the start marker (or the second
    heaviest word), those the query sees. None without a word to read."""
    if not look["words"]:
        return None
    j = int(look["words"][0])
    rows = np.asarray(look["heads"])
    h = int(heads[0]["head"]) if heads else int(np.argmax(rows[:, j]))
    st = query_steps(trace, 0, h, pos[-1])
    special = [k for k in range(len(trace.tokens)) if k not in pos and k not in look["words"]]
    other = special[0] if special else (int(look["words"][1]) if len(look["words"]) > 1 else None)
    keys = [k for k in (j, other) if k is not None and st["scores"][k] is not None]
    if not keys:
        return None
    for k in keys:
        stable(st["scores"][k], SCORE_DECIMALS, f"data.entered.softmax.scores[{k}]")
        stable(st["weights"][k], DECIMALS, f"data.entered.softmax.weights[{k}]")
    return {"sentence": 0, "head": h, "query": int(pos[-1]), "keys": keys,
            "scores": st["scores"], "weights": st["weights"],
            "d_head": int(trace.spec.d_head), "score_decimals": SCORE_DECIMALS}


def entered_data(traces: list[Trace], pos: list[list[int]], cos_x: list[float]) -> dict:
    """What entered at layer 0 (analysis.context_qkv_entered): per sentence its tokens, the focus
    positions, the head-average attention row of the focus word and its other words by weight;
    two heads that read one sentence's heaviest word and another word in the other; the two
    updates Delta_attn^(0): lengths, cosine, angle; the lengths of the X^(0) they are added to
    and the cosine of the two sums; and the cosine of the two X^(1)."""
    e = entered(traces[0], pos[0], traces[1], pos[1], 0)
    for i, lk in enumerate(e["looks"]):
        for j in lk["words"][:3]:
            stable(lk["mean"][j], DECIMALS, f"data.entered.sentences[{i}].mean[{j}]")
    heads = contrast_heads(*e["looks"]) if len(e["looks"][0]["words"]) and len(
        e["looks"][1]["words"]) else []
    for h in heads:
        for k in ("a", "b"):
            stable(h[k], DECIMALS, f"data.entered.heads: head {h['head']} {k}")
    for v, what in ((e["length"][0], "length[0]"), (e["length"][1], "length[1]"),
                    (e["cos"], "cos"), (e["x_length"][0], "x_length[0]"),
                    (e["x_length"][1], "x_length[1]"), (e["sum_cos"], "sum_cos")):
        stable(v, DECIMALS, f"data.entered.{what}")
    # per head, the focus word's weight on each key ([head][key]): drawn as bar heights when
    # one piece is built (no number shown; `mean` is their average)
    sents = [{"tokens": list(t.tokens), "focus": p, "mean": lk["mean"],
              "head_w": [list(map(float, r)) for r in lk["heads"]],
              "words": lk["words"], "special": sorted(
                  set(range(len(t.tokens))) - set(p) - set(lk["words"]))}
             for t, p, lk in zip(traces, pos, e["looks"])]
    for i, s in enumerate(sents):
        # the weight on the special tokens ([CLS], [SEP]), which the word ranking leaves out
        s["special_share"] = float(sum(s["mean"][j] for j in s["special"]))
        stable(s["special_share"], DECIMALS, f"data.entered.sentences[{i}].special_share")
    # each key token's weighted values (all heads, through W_O) and the bias, which add up to
    # the update: drawn tip to tail in the plane of the two updates (no number shown)
    us = [update(t, p, 0) for t, p in zip(traces, pos)]
    for s, t, p in zip(sents, traces, pos):
        vp = value_pieces(t, p, 0)
        xy = update_plane(us[0], us[1], [*vp["pieces"], vp["bias"]])
        s["pieces"] = {"xy": xy[:-1], "bias": xy[-1]}
        # each key token's weighted values, their full length (the markers' are tiny)
        s["piece_length"] = [float(np.linalg.norm(x)) for x in vp["pieces"]]
        for j in [*s["special"], *s["words"][:3]]:
            stable(s["piece_length"][j], DECIMALS, f"data.entered: piece_length[{j}]")
    ta, tb = (list(t.tokens) for t in traces)
    focus = set(pos[0]) | set(pos[1])
    # positions holding the same token in both sentences (same X at layer 0): they add the same
    # values; only the other positions can bring a difference
    shared = [j for j in range(min(len(ta), len(tb)))
              if ta[j] == tb[j] and j not in focus] if pos[0] == pos[1] else []
    # the two focus vectors after each step of the rest of the block (post-LN: + attention,
    # LayerNorm, + FFN, LayerNorm): their cosine at each, the last the two X^(1)
    stages = []
    for label, hook in traces[0].spec.placement.stages:
        h = hook.format(l=0)
        va, vb = (focus_row(t[h], p) for t, p in zip(traces, pos))
        c = float(cosine(va, vb))
        stable(c, DECIMALS, f"data.entered.stages: {label.format(l=0)}")
        stages.append({"name": label.format(l=0).split(" ", 1)[1], "cos": c})
    return {
        "layer": 0,
        "softmax": softmax_step(traces[0], pos[0], e["looks"][0], heads),
        "stages": stages,
        "gauge": zoom_axis([st["cos"] for st in stages]) if stages else None,
        "sentences": sents,
        "shared": shared,
        "heads": [{**h, "a_token": traces[0].tokens[h["a_key"]],
                   "b_token": traces[1].tokens[h["b_key"]]} for h in heads],
        "length": e["length"], "cos": e["cos"], "angle": e["angle"],
        "x_length": e["x_length"], "sum_length": e["sum_length"], "sum_cos": e["sum_cos"],
        "sum_angle": e["sum_angle"],
        "plane": e["plane"],            # 2-D, for the tip-to-tail sketch only (no number shown)
        "x_next": cos_x[1] if len(cos_x) > 1 else None,
        "decimals": DECIMALS,
    }


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    a, b = traces[0], traces[1]
    spec = a.spec
    pos = [positions(t, f) for t, f in zip(traces, sb.focus)]
    L = a.n_layers
    cos = context_qkv(a, pos[0], b, pos[1])
    for k in ("x", "in", *QKV):          # layer 0's are written on screen, the rest plotted
        stable(cos[k][0], DECIMALS, f"data.cos.{k}[0]")

    reads_x = spec.placement.norm_before_q != "own"   # W_Q reads X as it arrives
    # the rows the scene shows: what W reads (X itself, or LN(X) in a pre-norm model), Q, K, V
    hooks = {"x" if reads_x else "in": (lambda t, l: attn_input(t, l)),
             **{k: (lambda t, l, k=k: t[f"blocks.{l}.attn.hook_{k}"]) for k in QKV}}
    first, first_decimals = {"dims": DIMS}, {}
    for key, hook in hooks.items():
        rows = [[focus_row(hook(t, l), p).ravel()[:DIMS].tolist() for t, p in zip(traces, pos)]
                for l in range(L)]
        first[key], first_decimals[key] = _entries(rows, f"data.first.{key}")
    first["decimals"] = first_decimals

    lowest = min((_lowest(cos[k], k) for k in QKV), key=lambda m: m["value"])
    for m in (lowest, _lowest(cos["x"], "x")):                  # quoted on screen
        stable(m["value"], DECIMALS, f"data.summary: lowest cosine of {m['key']}")
    after = range(1, L)
    last_lo, last_hi = _at(cos, L - 1, min), _at(cos, L - 1, max)
    for m in (last_lo, last_hi):
        stable(m["value"], DECIMALS, f"data.summary: layer {L - 1} cosine of {m['key']}")
    summary = {"lowest": lowest, "x_lowest": _lowest(cos["x"], "x"),
               "last_lowest": last_lo, "last_highest": last_hi,
               "compared": ["x", *QKV],         # the cosines the voice counts ("all four")
               "last": {k: cos[k][L - 1] for k in ("x", *QKV)},
               # every cosine below the 1.00 it starts at, from layer 1 on (as shown, 2 decimals)
               # at layer 0 every cosine shows the same number (the scene writes it once)
               "layer0_equal": len({round(cos[k][0], DECIMALS) for k in ("x", "in", *QKV)}) == 1,
               "all_below_one_after_0": all(round(cos[k][l], DECIMALS) < 1.0
                                            for k in ("x", *QKV) for l in after)}
    # "one head alone can differ more": at the lowest curve's layer, the head whose own
    # cosine is lowest (said and drawn with its number; it may sit below the chart's floor)
    heads = cos.get(f"{lowest['key']}_heads")
    if heads is not None and len(heads[lowest["layer"]]):
        row = heads[lowest["layer"]]
        h = int(np.argmin(row))
        stable(row[h], DECIMALS, "data.summary.one_head")
        summary["one_head"] = {"key": lowest["key"], "layer": lowest["layer"], "head": h,
                               "value": row[h]}
    shown = np.array([cos[k] for k in ("x", "in", *QKV)])
    return {
        "model": spec.display or spec.name,
        "word": sb.focus[0].partition("#")[0],
        "contexts": [{"sentence": t.sentence, "focus": f, "positions": p,
                      "tokens": [t.tokens[i] for i in p],
                      "token_ids": [t.meta["token_ids"][i] for i in p]}
                     for t, f, p in zip(traces, sb.focus, pos)],
        "match": layer_zero_match(a, pos[0], b, pos[1]),
        "reads": {"same_as_x": reads_x, "placement": spec.norm_placement,
                  "norm": spec.norm},
        "layers": list(range(L)),
        "cos": cos,
        "heads": {"combined": "concatenated", "n_heads": spec.n_heads,
                  "n_kv_heads": spec.n_kv_heads, "d_model": spec.d_model,
                  "d_head": spec.d_head, "q_width": spec.n_heads * spec.d_head,
                  "kv_width": spec.n_kv_heads * spec.d_head},
        "first": first,
        "axes": y_axis(shown),
        "entered": entered_data(traces, pos, cos["x"]),
        "summary": summary,
    }
