"""Plan data for "where bank looks, layer by layer": the focus word's attention row at every
layer, drawn as arcs (the head-average); the fair experiment that ties the move onto [CLS] to
the changed X; the sink share; and a deep layer head by head.

  tokens, focus, special       the sentence's tokens; the focus word's positions (a word of
                               several tokens: their rows are averaged, said on screen); the
                               sink's positions (analysis.attention_depth.sink_of): the
                               special ones ([CLS], [SEP]: in no word of the sentence), or a
                               decoder's first token where the model adds none
  sink_kind                    "special" (the tokens the tokenizer added) or "first" (a
                               decoder's first token, [0]): how the draft and scene name it
  columns                      the order the arc diagram keeps tokens in when the sentence
                               is too long for it, and how many are always kept (columns.py:
                               the sink, the focus word, the named words; then nearest the
                               focus word, in a decoder the tokens before it first)
  layers[l].elided             for each count k of kept tokens (index k - columns.must), the
                               sum of the row under each "…" (the tokens left out), left to
                               right: the row as written adds up to 1 (round 37; the fair
                               tests' rows: `old_elided`, `new_elided`, `swap_elided`; the
                               worked head's: `worked.elided`)
  decimals                     decimals every weight is shown with (2, or 3 near float noise):
                               one precision for every row and table of the video
  layers[l].row                the head-average row of the focus word over every key (sums to 1)
  layers[l].heads              each head's row of the focus word ([head][key]): the rows
                               `row` is the mean of (drawn collapsing into it at layer 0)
  layers[l].top / .top_word    the heaviest other token, and the heaviest other *word* token
  layers[l].head_on_word       the head whose row gives top_word the most weight
  layers[l].head_on_cls        the head whose row gives special[0] ([CLS]) the most weight
  layers[l].on_special[i]      the row's weight on special[i]
  layers[l].sink               the row's share on the special positions
  layers[l].total              what the row adds up to (1, said once: a weight is a share)
  layers[l].sink_adds          whether the special tokens' weights as written (`decimals`)
                               add up to the share as written (plans.shown.summed_decimals,
                               held at the video's one precision): where they do not (0.71 +
                               0.03 beside 0.7474, written 0.75), the bar writes "≈ 0.75"
  sink.max / sink.min / .last  the highest and lowest share (layer, value), the last layer's;
                               `.tied`: the layers whose share is written as the extreme's
                               (a near-tie, said as one); `sink.steps`: how many steps from
                               one layer to the next go up (`rises`) and down (`falls`), of `n`;
                               `sink.split`: the best split into two runs of layers (`end` the
                               first's last layer, `before`/`after` their mean shares), or None
  sink.end_after0              the last special token's largest weight after layer 0
  weights                      the weights file the trace read (models.weights_read: name,
                               variant, quant, bits; SmolLM2-135M-Instruct, Q4_1, 4-bit)
  tie                          layer 1's own W_Q^(1), W_K^(1) fed X^(0) (old) and X^(1) (new):
                               the head-average rows and their shares on the special tokens
                               (analysis.attention_depth_why.same_w_old_x); None if not redoable
  tie_last                     the same test at the last layer L-1: W_Q^(L-1), W_K^(L-1) fed
                               X^(L-2) (old) and X^(L-1) (new); its `layer0_sink` is layer
                               L-2's own share (the model's, the bar it is compared with);
                               `by` (both tests): what the test singles out as moving the share,
                               "changed x", "own matrices" or None (analysis...moved_by);
                               `old_adds` / `new_adds`: as layers[l].sink_adds;
                               `swap_row` / `swap_sink` / `swap_adds`: the other order, the
                               layer before's W_Q^(l-1), W_K^(l-1) fed the new X^(l) (the X
                               swapped first); `swap_by`: what that order singles out
                               ("own matrices" when the step from it to the model's own row
                               is 30 % off, else "changed x" when the new X alone moved the
                               share a fifth, else None: moved_by's bounds, the roles swapped)
  worked                       one head of layer 0 worked through for the focus word (a word of
                               one token; else None): `head` (the first the voice does not
                               name for a word or [CLS]), its `scores` (query · key / √d_head,
                               attention_steps: the model's own), the `weights` softmax makes
                               of them (that head's row, `layers[0].heads[head]`), and the
                               `score_decimals` they are written with (at least SCORE_DECIMALS);
                               a decoder's later keys, masked: score None, weight 0
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

from layerwise_core.analysis.attention_depth import attention_rows, sink_of
from layerwise_core.analysis.attention_steps import query_steps
from layerwise_core.analysis.attention_depth_why import (NEW_X_SHIFT, OWN_SHIFT, deep_heads,
                                                         direction, moved_by, same_w_old_x)
from layerwise_core.analysis.qkv_causes import pattern_row, project
from layerwise_core.analysis.vectors import attn_input, positions
from layerwise_core.errors import LayerwiseError
from layerwise_core.models import weights_read
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable, summed_decimals

from .columns import elided, keep_order

DECIMALS = 2
SCORE_DECIMALS = 1      # scores under the tokens: "-1.2" fits a weight's column, "-1.23" not


def _extreme(values: list[float], fn) -> dict:
    l = int(fn(values))
    return {"layer": l, "value": values[l]}


def tied(values, l: int, decimals: int, among=None) -> list[int]:
    """The layers (of `among`, default all) whose value is written as layer l's at `decimals`
    (l among them): "lowest, 0.01, at layers 10 and 11" where 0.0104 and 0.0062 both read
    0.01 (round 37: "lowest at layer 11: 0.01" could not be checked against layer 10's)."""
    shown = f"{float(values[l]):.{decimals}f}"
    return [k for k in (range(len(values)) if among is None else among)
            if f"{float(values[k]):.{decimals}f}" == shown]


def steps(values) -> dict:
    """How often the share goes up and down from one layer to the next (round 37: "goes from
    0.06 to 0.89" hid a fall to 0.01 and a zig-zag; the summary says these counts)."""
    d = np.diff(np.asarray(values, dtype=float))
    return {"rises": int(np.sum(d > 0)), "falls": int(np.sum(d < 0)), "n": int(len(d))}


SPLIT_LEAST = 3     # layers in each run of a level split


def level_split(values, least: int = SPLIT_LEAST) -> dict | None:
    """Round 39 (two reviews: "no steady trend" beside a chart whose share sits at 0.20 over
    layers 0-11 and 0.59 over 12-29): the best split of the shares into two runs of
    neighbouring layers (each at least `least` long), the one with the least squared spread
    about each run's mean: `end` the first run's last layer, `before` and `after` the runs'
    means. None for fewer than 2 * least layers."""
    x = np.asarray(values, dtype=float)
    best = None
    for k in range(least, len(x) - least + 1):
        a, b = x[:k], x[k:]
        cost = float(((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum())
        if best is None or cost < best[0] - 1e-12:
            best = (cost, k)
    if best is None:
        return None
    k = best[1]
    return {"end": k - 1, "before": float(x[:k].mean()), "after": float(x[k:].mean())}


def _tok(t: Trace, j: int, w: float) -> dict:
    return {"pos": j, "token": t.tokens[j], "weight": w}


def adds(row, special, share: float, decimals: int, where: str) -> bool:
    """Whether the special tokens' weights as written add up to the share as written, at the
    video's one precision (`most=decimals`: no bar gets more decimals than its neighbours;
    where they do not add up the bar writes "≈"). Checks the share is off float noise."""
    terms = [float(row[s]) for s in special]
    return summed_decimals(terms, share, [terms, share], decimals, where, most=decimals)[1]


def swapped_order(t: Trace, weights: dict, layer: int, pos: list[int], special: list[int]):
    """The other order of the fair test: the layer before's own W_Q^(l-1), W_K^(l-1) fed the
    new X^(l) (the X swapped first, the matrices still the old layer's): the head-average row
    of the focus positions and its share on the special positions (as same_w_old_x)."""
    causal = t.spec.kind == "decoder"
    inp = attn_input(t, layer)
    q, k = project(inp, weights, layer - 1, "Q"), project(inp, weights, layer - 1, "K")
    row = np.mean([pattern_row(q, k, p, causal).mean(axis=0) for p in pos], axis=0)
    return row.tolist(), float(row[special].sum())


def swap_moved_by(before: float, swap: float, new: float) -> str | None:
    """moved_by with the roles swapped (X first): "own matrices" when the layer's own matrices,
    taking over from the old ones on the new X, move the share by 30 %; else "changed x" when
    the new X alone (old matrices) moved it by a fifth; else None."""
    if direction(swap, new, NEW_X_SHIFT):
        return "own matrices"
    return "changed x" if direction(before, swap, OWN_SHIFT) else None


def worked_head(t: Trace, layer: dict, pos: list[int]) -> dict | None:
    """Layer 0's first head the voice does not name (neither the word's nor [CLS]'s), worked
    through for the focus word: its scores and the weights softmax makes of them (see the
    module's docstring). None for a word of several tokens (its row is an average of rows), or
    when every head is named (a model of one or two heads)."""
    named = {layer["head_on_word"], layer["head_on_cls"]}
    h = next((k for k in range(len(layer["heads"])) if k not in named), None)
    if len(pos) != 1 or h is None:
        return None
    steps = query_steps(t, 0, h, pos[0])
    where = "data.worked"
    return {"layer": 0, "head": h, "scores": steps["scores"], "weights": steps["weights"],
            "score_decimals": shown_decimals(steps["scores"], SCORE_DECIMALS,
                                             f"{where}.scores")}


def cannot_chart(t: Trace, word: str, pos: list[int]) -> str | None:
    """Why the chart cannot be made for this focus word (the draft's and the plan's refusal,
    one line naming a limit of docs/storyboards.md), else None: no sink (an encoder adding no
    special tokens), a decoder's focus word that is its sink (the first token: it sees only
    itself), no other word, or (a decoder) no word before the focus word but the sink."""
    kind, sink = sink_of(t)
    if kind is None:
        return (f"{t.model} adds no special tokens to this sentence (tokens: "
                f"{' '.join(repr(s) for s in t.tokens)}), and the template's sink chart "
                f"measures the share on them; try per_head")
    if kind == "first" and 0 in pos:
        return (f"{word!r} is the first token of the sentence, and a decoder's sink here is its "
                f"first token: {word!r} sees only itself; choose a later focus word")
    words = [j for j in range(len(t.tokens)) if j not in pos and j not in sink]
    if not words:
        return (f"{word!r} is the only word of the sentence; the arcs need another word to "
                f"go to")
    if t.spec.kind == "decoder" and not [j for j in words if j < max(pos)]:
        what = "the first token" if kind == "first" else "the sink"
        return (f"{word!r} has no word before it but {what}, {t.tokens[sink[0]]!r}, and a "
                f"decoder's word sees only itself and the tokens before it: its arcs have no "
                f"other word to go to; choose a later focus word{later(t, word)}")
    return None


def later(t: Trace, word: str) -> str:
    """", e.g. 'kayaks#2'" when the word is said again in the sentence, else ""."""
    try:
        positions(t, f"{word}#2")
    except LayerwiseError:
        return ""
    return f", e.g. '{word}#2' (its next use)"


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    spec = t.spec
    pos = positions(t, sb.focus[0])
    word = sb.focus[0].partition("#")[0]
    problem = cannot_chart(t, word, pos)
    if problem:
        raise LayerwiseError(f"plan: attention_depth: {problem}")
    rows = attention_rows(t, pos)          # a word of several tokens: their rows averaged
    special = rows["special"]
    L, H = t.n_layers, spec.n_heads
    others = [j for j in range(len(t.tokens)) if j not in pos]
    words = [j for j in others if j not in special]

    layers = []
    for l in range(L):
        row = rows["mean"][l]
        j = max(others, key=lambda k: row[k])
        w = max(words, key=lambda k: row[k])
        layers.append({"layer": l, "row": row, "heads": rows["heads"][l],
                       "top": _tok(t, j, row[j]),
                       "top_word": _tok(t, w, row[w]),
                       # the head giving the heaviest word the most, and the first special
                       # token (two heads of the row's 12, named at layer 0)
                       "head_on_word": int(np.argmax([h[w] for h in rows["heads"][l]])),
                       "head_on_cls": int(np.argmax([h[special[0]] for h in rows["heads"][l]])),
                       "on_special": [row[s] for s in special],
                       "sink": stable(rows["sink"][l], DECIMALS, f"data.layers[{l}].sink"),
                       # what the row adds up to (1: attention is a split of the whole)
                       "total": stable(float(np.sum(row)), 0, f"data.layers[{l}].total")})

    share = rows["sink"]
    sink = {"share": share, "max": _extreme(share, np.argmax), "min": _extreme(share, np.argmin),
            "last": share[L - 1],
            # the last special token's ([SEP]) largest weight after layer 0
            "end_after0": max((x["on_special"][-1] for x in layers[1:]), default=0.0)}

    def fair(layer: int):
        """The fair test at `layer` in both orders: its own matrices fed the layer before's X
        (then its own X), and the layer before's matrices fed its X (then its own matrices)."""
        tt = same_w_old_x(t, t.weights(), layer, pos, special)
        if tt is not None:
            tt["layer0_sink"] = share[layer - 1]
            tt["by"] = moved_by(share[layer - 1], tt["old_sink"], tt["new_sink"])
            tt["swap_row"], tt["swap_sink"] = swapped_order(t, t.weights(), layer, pos, special)
            tt["swap_by"] = swap_moved_by(share[layer - 1], tt["swap_sink"], tt["new_sink"])
        return tt

    tie = fair(1) if L > 1 else None
    # the same fair test at the last layer (its own matrices fed the layer before's X, then
    # its own): does the last layer's change also come with the changed X?
    tie_last = fair(L - 1) if L > 2 else None

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

    # the diagram's columns (columns.py): the order tokens are kept in, and under each "…"
    # the sum of the weights left out, for every count the scene may keep (round 37: the row
    # as written adds up to 1; a decoder keeps the words before its focus word first)
    order, must = keep_order(len(t.tokens), pos, special + [layers[0]["top_word"]["pos"],
                                                           target], spec.kind == "decoder")
    for lay in layers:
        lay["elided"] = elided(lay["row"], order, must)
    rows_of = [("tie", tie), ("tie_last", tie_last)]
    for _, t_ in rows_of:
        if t_ is not None:
            for k in ("old", "new", "swap"):
                t_[f"{k}_elided"] = elided(t_[f"{k}_row"], order, must)
    # one precision for every weight the video writes
    shown = [(l["row"], f"data.layers[{i}].row") for i, l in enumerate(layers)]
    shown += [(l["elided"], f"data.layers[{i}].elided") for i, l in enumerate(layers)]
    shown.append((dh["weight"], "data.deep.weight"))
    for name, t_ in rows_of:
        if t_ is not None:
            shown += [(t_[f"{k}_{w}"], f"data.{name}.{k}_{w}") for k in ("old", "new", "swap")
                      for w in ("row", "elided")]
    worked = worked_head(t, layers[0], pos)
    if worked is not None:
        worked["elided"] = elided(worked["weights"], order, must)
        shown += [(worked[k], f"data.worked.{k}") for k in ("weights", "elided")]
    decimals = max(shown_decimals(r, DECIMALS, where) for r, where in shown)
    # each bar's number is the share as written; "≈" on it where its parts as written do not
    # add up to it (summed_decimals at the video's one precision)
    for i, lay in enumerate(layers):
        lay["sink_adds"] = adds(lay["row"], special, lay["sink"], decimals,
                                f"data.layers[{i}].sink")
        # what its parts add to as written (said where "≈" is on the bar)
        lay["parts_sum"] = round(sum(round(float(w), decimals) for w in lay["on_special"]),
                                 decimals)
    # the layers written with the same share as the highest and the lowest (a near-tie is
    # said as one: "lowest, 0.01, at layers 10 and 11"), and the steps up and down
    for key in ("max", "min"):
        sink[key]["tied"] = tied(share, sink[key]["layer"], decimals)
    sink["steps"] = steps(share)
    sink["split"] = level_split(share)
    for name, t_ in (("tie", tie), ("tie_last", tie_last)):
        if t_ is not None:
            for k in ("old", "new", "swap"):
                t_[f"{k}_adds"] = adds(t_[f"{k}_row"], special, t_[f"{k}_sink"], decimals,
                                       f"data.{name}.{k}_sink")
    return {
        "model": spec.display or spec.name,
        # the weights file the trace read (the footer and the voice name it: SmolLM2's is
        # SmolLM2-135M-Instruct at 4 bits, Q4_1; None for a folder's files)
        "weights": weights_read(t.meta.get("source"), spec.display or spec.name),
        "word": word,
        "tokens": t.tokens,
        "focus": pos,
        "n_focus": len(pos),
        "columns": {"order": order, "must": must},
        "special": special,
        "special_tokens": [t.tokens[i] for i in special],
        "sink_kind": rows["sink_kind"],
        "n_heads": H,
        # the scaling in the softmax formula (query · key / √d_head)
        "d_head": int(spec.d_head),
        "n_layers": L,
        "decimals": decimals,
        "layers": layers,
        "sink": sink,
        "tie": tie,
        "tie_last": tie_last,
        "deep": deep,
        "worked": worked,
    }
