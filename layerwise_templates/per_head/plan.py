"""Plan data for "per-head detail of one layer": every head reads the same X with its own
W_Q, W_K, W_V; one head's attention for the focus word worked through with its real numbers;
that head's whole attention matrix; every head's matrix side by side.

  tokens, focus            the sentence's tokens; the focus word's position (one token)
  shape                    n_heads, n_kv_heads, d_model, d_head; `scale` = sqrt(d_head)
  reads_x                  W_Q, W_K, W_V multiply X as it arrives (post-LN), else LN(X)
  show                     how many entries of each vector are written (its first ones)
  layers[i].layer
  layers[i].x              the focus token's input to the projections, first `show` entries;
                           `x_decimals`
  layers[i].w_cos          per matrix, cosines between different heads' flattened matrices
                           (all entries): mean and max |cos| over the pairs
  layers[i].patterns[h]    every head's whole attention matrix [query][key] (rows sum to 1)
  layers[i].prev_token[h]  every head's mean attention from a token to the one just before it
                           (over every query but the first)
  layers[i].prev           the strongest previous-token head: head, score, the runner-up of
                           the layer (`next_head`, `next_best`), and the number
                           of queries the score averages over (`rows`)
  layers[i].heads[j]       the heads the beats follow (their `head:`; else the strongest
                           previous-token head), each worked through (analysis.attention_steps):
      q [show]                 the focus token's query
      k, v [token][show]       every token's key and value
      dots [token]             q . k over all d_head dims (None where a causal mask hides it)
      scores [token]           dots / sqrt(d_head): the model's attention scores
      weights [token]          softmax(scores): the focus token's row of the pattern;
                               `weights_sum` (1)
      out [show]               sum of weights x v: the head's output for the focus token
      top, second              the keys with the highest and second-highest weight: pos,
                               token, offset (its position minus the focus word's), dot,
                               score, weight; `gap` = their scores' difference, `rest_max`
                               the largest weight of any other key
      below [query]            the weight of each query on the token just before it (queries 1..)
      decimals                 decimals of each group on screen
Every number a scene writes is checked at plan time against float noise (plans.shown).
"""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_steps import head_vectors, query_steps
from layerwise_core.analysis.qkv import head_weight_cosines, previous_token_score
from layerwise_core.analysis.vectors import attn_input, positions
from layerwise_core.errors import LayerwiseError
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable

SHOW = 3                # entries written of each vector (then a ⋮ and its length)
DECIMALS = 2            # vector entries, scaled scores, weights
DOT_DECIMALS = 1        # dot products (tens to over a hundred before the scaling)


def followed_heads(sb: Storyboard, strongest: int) -> list[int]:
    """The heads the beats name, else the layer's strongest previous-token head."""
    named = sorted({b.head for b in sb.beats if b.head is not None})
    return named or [strongest]


def worked_head(t: Trace, l: int, h: int, f: int, pattern: np.ndarray, where: str) -> dict:
    """One head worked through for the query at position `f` (see the module's docstring)."""
    vec = head_vectors(t, l, h)
    steps = query_steps(t, l, h, f, vec)
    n = len(t.tokens)
    entry = {"head": h, "kv_head": t.spec.kv_head(h),
             "q": vec["q"][f, :SHOW].tolist(), "k": vec["k"][:, :SHOW].tolist(),
             "v": vec["v"][:, :SHOW].tolist(), **steps, "out": steps["out"][:SHOW],
             "weights_sum": float(sum(steps["weights"])),
             "below": [None] + [float(pattern[q, q - 1]) for q in range(1, n)]}
    groups = {"q": DECIMALS, "k": DECIMALS, "v": DECIMALS, "out": DECIMALS,
              "dots": DOT_DECIMALS, "scores": DECIMALS, "weights": DECIMALS,
              "below": DECIMALS}
    entry["decimals"] = {g: shown_decimals(entry[g], d, f"{where}.{g}")
                         for g, d in groups.items()}
    stable(entry["weights_sum"], DECIMALS, f"{where}.weights_sum")
    first, second = np.argsort(-np.asarray(steps["weights"]), kind="stable")[:2]
    entry["top"], entry["second"] = (ranked(t, steps, int(j), f, f"{where}.{name}")
                                     for j, name in ((first, "top"), (second, "second")))
    # the lead between the two scores as shown (each stable at its decimals), so the gap said
    # is the difference a viewer reads off the screen, the same on every machine
    sd = entry["decimals"]["scores"]
    entry["gap"] = round(round(entry["top"]["score"], sd) - round(entry["second"]["score"], sd), sd)
    entry["rest_max"] = max([w for j, w in enumerate(steps["weights"])
                             if j not in (first, second)], default=0.0)
    return entry


def ranked(t: Trace, steps: dict, j: int, f: int, where: str) -> dict:
    """Key j's steps: its dot and weight as the narration says them (`.1f`; the weight with one
    decimal more than shown), its score as the scores are shown (checked with them)."""
    return {"pos": j, "token": t.tokens[j], "offset": j - f,
            "dot": stable(steps["dots"][j], DOT_DECIMALS, f"{where}.dot"),
            "score": float(steps["scores"][j]),
            "weight": stable(steps["weights"][j], DECIMALS + 1, f"{where}.weight")}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    spec = t.spec
    pos = positions(t, sb.focus[0])
    if len(pos) != 1:
        raise LayerwiseError(f"plan: focus {sb.focus[0]!r} is {len(pos)} tokens; one head's "
                             f"attention is worked through for one token (choose a word that "
                             f"is one token)")
    f = pos[0]
    W = t.weights()
    out = []
    for i, l in enumerate(sb.layers):
        where = f"data.layers[{i}]"
        P = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)       # [head, q, k]
        prev = previous_token_score(P)
        order = np.argsort(-prev, kind="stable")
        x = np.asarray(attn_input(t, l), np.float64)[f, :SHOW].tolist()
        w_cos = {X: head_weight_cosines(W[f"blocks.{l}.attn.W_{X}"]) for X in "QKV"}
        for X, c in w_cos.items():
            stable(c["max_abs"], DECIMALS, f"{where}.w_cos.{X}.max_abs")
        out.append({
            "layer": l, "x": x, "x_decimals": shown_decimals(x, DECIMALS, f"{where}.x"),
            "w_cos": w_cos,
            "patterns": P.tolist(),
            "prev_token": [stable(s, DECIMALS, f"{where}.prev_token[{h}]")
                           for h, s in enumerate(prev.tolist())],
            "prev": {"head": int(order[0]), "score": float(prev[order[0]]),
                     "next_head": int(order[1]),
                     "next_best": stable(float(prev[order[1]]), DECIMALS,
                                         f"{where}.prev.next_best"),
                     "rows": len(t.tokens) - 1},
            "heads": [worked_head(t, l, h, f, P[h], f"{where}.heads[{j}]")
                      for j, h in enumerate(followed_heads(sb, int(order[0])))]})
    return {"focus": {"word": sb.focus[0].partition("#")[0], "pos": f},
            "tokens": t.tokens,
            "shape": {"n_heads": spec.n_heads, "n_kv_heads": spec.n_kv_heads,
                      "d_model": spec.d_model, "d_head": spec.d_head},
            "scale": stable(float(np.sqrt(spec.d_head)), DECIMALS, "data.scale"),
            "reads_x": spec.placement.norm_before_q != "own",
            "show": SHOW,
            "layers": out}
