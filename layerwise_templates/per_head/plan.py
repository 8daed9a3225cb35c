"""Plan data for "per-head detail of one layer": every head reads the same X with its own
W_Q, W_K, W_V; one head's attention for the focus word worked through with its real numbers;
that head's whole attention matrix; every head's matrix side by side.

  tokens, focus            the sentence's tokens; the focus word: `pos` of its last token
                           (a word of several tokens is followed by its last: `parts`,
                           `n_parts`, `token`)
  window, slots, windowed         the positions written side by side (at most WIDTH: the focus,
                           its two strongest keys, the nearest others), and whether any
                           are left out; `slots` the columns (None: a marked ellipsis)
  shape                    n_heads, n_kv_heads, d_model, d_head; `scale` = sqrt(d_head)
  reads_x                  W_Q, W_K, W_V multiply X as it arrives (post-LN), else LN(X)
  show                     how many entries of each vector are written (its first ones)
  layers[i].layer
  layers[i].x              the focus token's input to the projections, first `show` entries;
                           `x_decimals`
  layers[i].w_cos          per matrix, cosines between different heads' flattened matrices
                           (all entries): mean and max |cos| over the pairs; `w_cos_max` the
                           largest of the three
  layers[i].w_all          every pair's signed cosine (W_Q, W_K, W_V pairs; drawn on an axis)
  layers[i].w_pair         one pair computed on screen: heads 0 and 1's W_Q (flattened), their
                           cosine `cos` (`cos_text` at its `decimals`); `w_abs` every pair's |cos|,
                           kind by kind (Q, K, V: n(n-1)/2 values each, n its heads; for the spread),
                           `w_pairs` their count; `first_a`, `first_b` the two flat lists'
                           first PAIR_FIRST entries (drawn as cells in the value colours)
  layers[i].w_rand_max     the largest |cos| over as many pairs of random Gaussian matrices
                           of the same shapes (fixed seed): the baseline for unrelated ones
  layers[i].first_heads    how many heads put the focus token's largest weight on the first
                           token (`first_token`, [CLS] in BERT)
  layers[i].next           the next layer (None at the last): its X for the focus token (`x`,
                           first `show`), the followed head's query there (`q`) beside this
                           layer's (`q_here`), `decimals`
  layers[i].qkv_bias       whether the layer adds a bias to X W_Q, X W_K, X W_V
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
      products, products_rest  the top key's dot product written out: its first `show` products
                               q_i k_i and the sum of the other d_head - show; at
                               `products_decimals` (`products_add`: they add up as written)
      top, second              the keys with the highest and second-highest weight: pos,
                               token, offset (its position minus the focus word's), dot,
                               score, weight; `gap` = their scores' difference, `rest_max`
                               the largest weight of any other key
      below [query]            the weight of each query on the token just before it (queries 1..)
      decimals                 decimals of each group on screen
  layers[i].join           the layer's head outputs joined, times W_O (analysis.per_head_join):
                           z [head][show], piece_norms [head] (|z_h W_O^(h)|), piece_sum
                           (their sum: more than delta_norm when the pieces partly cancel),
                           bias_norm,
                           delta [show] and delta_norm (|Delta_attn|), x / x_norm (X^(l)),
                           ratio (delta_norm / x_norm),
                           mid [show] (X^(l) + Delta_attn), top (the TOP_PIECES longest
                           pieces: head, length, on_key = its weight from the focus token on
                           heads[0].top; prev / prev_text = its head's
                           prev_token), key_token, top_on_key_min,
                           first [head] and bias_first: each piece's first entry and the
                           bias's, which the column sum adds up to delta[0] (shown at
                           decimals.delta, the first count up to 5 at which the shown terms
                           add up to the shown sum); sum_adds: whether they do (thirteen
                           rounded terms can drift at every count: the sum is then "≈");
                           with_bias (piece_sum + bias_norm), bias_norm_text;
                           argmax [head] (the token each head weighs most from the focus),
                           key_heads (the heads whose largest weight is on heads[0]'s top
                           key), n_key_heads, key_heads_text, key_heads_longest (they are
                           exactly the n_key_heads longest pieces: this sentence and layer);
                           key_len_min (the key heads' shortest piece) and other_len_max
                           (every other head's longest): the gap behind "the longest"
Every number a scene writes is checked at plan time against float noise (plans.shown).
"""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_steps import head_vectors, query_steps
from layerwise_core.analysis.per_head_join import exp_steps, join_heads, token_window
from layerwise_core.analysis.qkv import head_weight_pairs, pair_summary, previous_token_score
from layerwise_core.analysis.similarity import cosine
from layerwise_core.analysis.vectors import attn_input, positions
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import shown_decimals, stable, summed_decimals

SHOW = 3                # entries written of each vector (then a ⋮ and its length)
DECIMALS = 2            # vector entries, scaled scores, weights
ROW_DECIMALS = 1        # keys and score − largest, nine in a row: at 2, negatives ran together
DOT_DECIMALS = 1        # dot products (tens to over a hundred before the scaling)
W_DECIMALS = 3          # attention weights (0.999 is not 1.00)
SUM_DECIMALS = 3        # X, Δ_attn and X + Δ_attn: the shown sum adds up from the shown terms
EXP_DECIMALS = 3        # exp(score - max): 1.000, 0.001 (at 4, nine "0.0000" ran together)
EXP_SUM_DECIMALS = 3    # their sum, as the voice says it: 1.001
WIDTH = 9               # tokens written side by side (a window around the focus beyond that)
PREV_DECIMALS = 4       # previous-token scores (0.9997 is not 1.00), the same in every cell
TOP_PIECES = 3          # the longest pieces of the attention update named
RAND_SEED = 0           # the random matrices of the cosine baseline
PAIR_FIRST = 40         # entries of the two compared heads' flat W_Q drawn as cells


def followed_heads(sb: Storyboard, strongest: int) -> list[int]:
    """The heads the beats name, else the layer's strongest previous-token head."""
    named = sorted({b.head for b in sb.beats if b.head is not None})
    return named or [strongest]


def worked_head(t: Trace, l: int, h: int, f: int, pattern: np.ndarray, where: str) -> dict:
    """One head worked through for the query at position `f` (see the module's docstring)."""
    vec = head_vectors(t, l, h)
    steps = query_steps(t, l, h, f, vec)
    n = len(t.tokens)
    ex = exp_steps(steps["scores"])
    entry = {"head": h, "kv_head": t.spec.kv_head(h),
             "q": vec["q"][f, :SHOW].tolist(), "k": vec["k"][:, :SHOW].tolist(),
             "v": vec["v"][:, :SHOW].tolist(), **steps, "out": steps["out"][:SHOW],
             "weights_sum": float(sum(steps["weights"])),
             "shifted": ex["shifted"], "exp": ex["exp"], "exp_sum": ex["exp_sum"],
             "below": [None] + [float(pattern[q, q - 1]) for q in range(1, n)]}
    # keys at 2 decimals (round 33b, two reviews: at 1, 2.79 × 0.2 read 0.56, not the 0.60
    # written: the products must check by hand)
    groups = {"q": DECIMALS, "k": DECIMALS, "v": DECIMALS, "out": DECIMALS,
              "dots": DOT_DECIMALS, "scores": DECIMALS, "weights": W_DECIMALS,
              "below": DECIMALS, "shifted": ROW_DECIMALS, "exp": EXP_DECIMALS}
    entry["decimals"] = {g: shown_decimals(entry[g], d, f"{where}.{g}")
                         for g, d in groups.items()}
    stable(entry["weights_sum"], W_DECIMALS, f"{where}.weights_sum")
    stable(entry["exp_sum"], EXP_SUM_DECIMALS, f"{where}.exp_sum")
    first, second = np.argsort(-np.asarray(steps["weights"]), kind="stable")[:2]
    entry["top"], entry["second"] = (ranked(t, steps, int(j), f, f"{where}.{name}")
                                     for j, name in ((first, "top"), (second, "second")))
    for r in (entry["top"], entry["second"]):      # its exp(score - max) as the row shows it
        r["shifted"], r["exp"] = ex["shifted"][r["pos"]], ex["exp"][r["pos"]]
    # the lead between the two scores as shown (each stable at its decimals), so the gap said
    # is the difference a viewer reads off the screen, the same on every machine
    sd = entry["decimals"]["scores"]
    entry["gap"] = round(round(entry["top"]["score"], sd) - round(entry["second"]["score"], sd), sd)
    # the top key's dot product written out (review 27: the products the voice names never
    # appeared): its first SHOW products q_i k_i and the other d_head - SHOW products' sum,
    # at the first count of decimals (from DOT_DECIMALS) at which the written terms add up to
    # the written dot product
    tp = entry["top"]["pos"]
    prods = [float(a * b) for a, b in zip(vec["q"][f, :SHOW], vec["k"][tp, :SHOW])]
    rest = float(steps["dots"][tp]) - sum(prods)
    entry["products"], entry["products_rest"] = prods, rest
    entry["products_decimals"], entry["products_add"] = summed_decimals(
        [*prods, rest], steps["dots"][tp], [prods, [rest], [steps["dots"][tp]]], DOT_DECIMALS,
        f"{where}.products")
    entry["rest_max"] = max([w for j, w in enumerate(steps["weights"])
                             if j not in (first, second)], default=0.0)
    return entry


def ranked(t: Trace, steps: dict, j: int, f: int, where: str) -> dict:
    """Key j's steps: its dot and weight as the narration says them (`.1f`; the weight with one
    decimal more than shown), its score as the scores are shown (checked with them)."""
    return {"pos": j, "token": t.tokens[j], "offset": j - f,
            "dot": stable(steps["dots"][j], DOT_DECIMALS, f"{where}.dot"),
            "score": float(steps["scores"][j]),
            "weight": stable(steps["weights"][j], W_DECIMALS, f"{where}.weight")}


def slots(window: list[int], n: int) -> list[int | None]:
    """The columns a scene writes: the window's positions with None (a marked ellipsis) where
    positions are left out, before, between or after them."""
    out: list[int | None] = []
    for i, p in enumerate(window):
        if (i == 0 and p > 0) or (i > 0 and p > window[i - 1] + 1):
            out.append(None)
        out.append(p)
    if window[-1] < n - 1:
        out.append(None)
    return out


def fitted_window(n: int, f: int, keep: list[int]) -> list[int]:
    """The widest window whose columns, ellipses included, fit WIDTH."""
    for w in range(WIDTH, 2, -1):
        win = token_window(n, f, keep, w)
        if len(slots(win, n)) <= WIDTH:
            return win
    return [f]


def joined(t: Trace, l: int, f: int, first: dict, where: str) -> dict:
    """The layer's head outputs for the focus token joined, times W_O: the attention update
    (see the module's docstring, `layers[i].join`)."""
    j = join_heads(t, l, f)
    x = np.asarray(t[f"blocks.{l}.hook_resid_pre"], np.float64)[f]
    mid = x + j["delta"]
    P = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)[:, f]      # [head, key]
    order = np.argsort(-j["piece_norms"], kind="stable")[:TOP_PIECES]
    on_key = [float(P[h, first["top"]["pos"]]) for h in order]
    kd = shown_decimals(on_key, W_DECIMALS, f"{where}.top.on_key")
    nd = shown_decimals([j["delta_norm"]], DECIMALS, f"{where}.delta_norm")
    top = [{"head": int(h), "length": float(j["piece_norms"][h]), "on_key": w,
            "on_key_text": f"{w:.{kd}f}"} for h, w in zip(order, on_key)]
    out = {"z": j["z"][:, :SHOW].tolist(),
           "piece_norms": j["piece_norms"].tolist(),
           "piece_sum": float(j["piece_norms"].sum()),
           "bias_norm": j["bias_norm"],
           "delta": j["delta"][:SHOW].tolist(),
           "delta_norm": j["delta_norm"], "delta_norm_text": f"{j['delta_norm']:.{nd}f}",
           "x": x[:SHOW].tolist(), "x_norm": float(np.linalg.norm(x)),
           # |Δ_attn| / |X^(l)|: how large the update is beside what it is added to
           "ratio": float(j["delta_norm"] / np.linalg.norm(x)),
           "mid": mid[:SHOW].tolist(),
           "top": top, "key_token": first["top"]["token"],
           "top_on_key_min": min(on_key)}
    # the heads whose largest weight from the focus token is on heads[0]'s top key, and as
    # many of the longest pieces: key_heads_longest when they are the same heads (this
    # sentence, this layer); argmax [head]: the token each head weighs most from the focus
    kp = first["top"]["pos"]
    key_heads = sorted(int(h) for h in range(P.shape[0]) if int(np.argmax(P[h])) == kp)
    longest = sorted(int(h) for h in np.argsort(-j["piece_norms"], kind="stable")
                     [:len(key_heads)])
    out["argmax"] = [t.tokens[int(np.argmax(P[h]))] for h in range(P.shape[0])]
    out["key_heads"] = key_heads
    out["n_key_heads"] = len(key_heads)
    out["key_heads_text"] = (", ".join(map(str, key_heads[:-1])) + " and " + str(key_heads[-1])
                             if len(key_heads) > 1 else "".join(map(str, key_heads)))
    out["key_heads_longest"] = int(bool(key_heads) and key_heads == longest)   # 1 or 0
    # the gap that makes "the longest" a fact, not a cut-off: the key heads' shortest piece
    # against every other head's longest (review 25: 1.12 vs 0.99, said with its numbers)
    norms = j["piece_norms"]
    others = [float(norms[h]) for h in range(len(norms)) if h not in key_heads]
    out["key_len_min"] = float(min(norms[h] for h in key_heads)) if key_heads else 0.0
    out["other_len_max"] = max(others) if others else 0.0
    out["with_bias"] = out["piece_sum"] + float(j["bias_norm"])
    # the column sum, for Delta_attn's first entry: each piece's first entry and the bias's,
    # as shown (SUM_DECIMALS), add up to Delta_attn's first entry as shown
    bias = np.asarray(j["delta"]) - j["pieces"].sum(axis=0)
    out["first"] = [float(x) for x in j["pieces"][:, 0]]
    out["bias_first"] = float(bias[0])
    out["decimals"] = {g: shown_decimals(out[g], DECIMALS, f"{where}.{g}")
                       for g in ("z", "piece_norms", "delta", "x", "mid")}
    # X, Δ_attn and their sum in one precision, wherever the video shows them: 3 decimals at
    # least, so the shown sum adds up from the shown numbers (at 2, -0.457 + -0.448 shows as
    # -0.46 + -0.45 = -0.90)
    sd = shown_decimals([out["x"], out["delta"], out["mid"], out["first"], [out["bias_first"]]],
                        SUM_DECIMALS, f"{where}.mid")
    # the column sum written: one more decimal where the rounded terms would not add up to the
    # rounded sum (13 terms rounded can drift a unit in the last place)
    terms = [*out["first"], out["bias_first"]]
    sd, out["sum_adds"] = summed_decimals(terms, out["delta"][0],
                                          [out["x"], out["delta"], out["mid"], terms], sd,
                                          f"{where}.mid")
    out["decimals"].update(x=sd, delta=sd, mid=sd)
    out["decimals"].update(on_key=kd, delta_norm=nd,
                           piece_sum=shown_decimals([out["piece_sum"]], 1, f"{where}.piece_sum"),
                           bias_norm=shown_decimals([out["bias_norm"]], 2, f"{where}.bias_norm"),
                           with_bias=shown_decimals([out["with_bias"]], 1, f"{where}.with_bias"))
    bd = out["decimals"]["bias_norm"]
    out["bias_norm_text"] = f"{out['bias_norm']:.{bd}f}"
    return out


def weight_pairs(W: dict, l: int, pairs: dict, where: str) -> dict:
    """Heads 0 and 1's W_Q compared (the pair the video computes), and every pair's |cos|
    (`pairs`: head_weight_pairs per kind; each kind its own pairs, as grouped-query attention
    has fewer K and V heads than Q heads)."""
    flat_q = np.asarray(W[f"blocks.{l}.attn.W_Q"], np.float64)
    flat_q = flat_q.reshape(len(flat_q), -1)
    w_abs = [float(abs(c)) for X in "QKV" for c in pairs[X]]
    c01 = float(cosine(flat_q[0], flat_q[1]))
    wd = shown_decimals([c01], 3, f"{where}.w_pair.cos")
    return {"w_pair": {"a": 0, "b": 1, "kind": "Q", "cos": c01, "cos_text": f"{c01:.{wd}f}",
                       "decimals": wd, "size": int(flat_q.shape[1]),
                       "first_a": [float(v) for v in flat_q[0][:PAIR_FIRST]],
                       "first_b": [float(v) for v in flat_q[1][:PAIR_FIRST]]},
            "w_abs": w_abs, "w_all": [float(c) for X in "QKV" for c in pairs[X]],
            "w_pairs": len(w_abs)}


def random_baseline(W: dict, l: int, where: str) -> float:
    """The largest |cos| over the same pairs (each kind's heads, pair by pair) of random
    Gaussian matrices of the same shapes (seed RAND_SEED): what unrelated matrices of this size
    give (review 28: "what unrelated directions give" had no baseline in the plan)."""
    rng = np.random.default_rng(RAND_SEED)
    m = max(float(np.abs(head_weight_pairs(rng.standard_normal(
        np.asarray(W[f"blocks.{l}.attn.W_{X}"]).shape))).max()) for X in "QKV")
    return stable(m, 2, where)


def next_layer(t: Trace, l: int, f: int, h: int, q_here: list, where: str) -> dict | None:
    """The next layer's X for the focus token and the followed head's query there (the
    cosine between its W_Q in the two layers, said in round 33b, was cut in round 35: head
    numbers mean nothing across layers, so the plan no longer keeps it)."""
    if l + 1 >= t.n_layers:
        return None
    x = np.asarray(attn_input(t, l + 1), np.float64)[f, :SHOW].tolist()
    q = head_vectors(t, l + 1, h)["q"][f, :SHOW].tolist()
    return {"layer": l + 1, "head": h, "x": x, "q": q, "q_here": list(q_here),
            "decimals": shown_decimals([x, q, list(q_here)], DECIMALS, f"{where}.next"),
            # X^(l+1) at X^(l)'s precision (review 26: 3 decimals beside 2)
            "x_decimals": shown_decimals([x], SUM_DECIMALS, f"{where}.next.x")}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    spec = t.spec
    pos = positions(t, sb.focus[0])
    f = pos[-1]             # a word of several tokens: its last token, said on screen
    W = t.weights()
    out = []
    window = None
    for i, l in enumerate(sb.layers):
        where = f"data.layers[{i}]"
        P = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)       # [head, q, k]
        prev = previous_token_score(P)
        order = np.argsort(-prev, kind="stable")
        x = np.asarray(attn_input(t, l), np.float64)[f, :SHOW].tolist()
        pairs = {X: head_weight_pairs(W[f"blocks.{l}.attn.W_{X}"]) for X in "QKV"}
        w_cos = {X: pair_summary(p) for X, p in pairs.items()}
        for X, c in w_cos.items():
            stable(c["max_abs"], DECIMALS, f"{where}.w_cos.{X}.max_abs")
        pd = shown_decimals(prev.tolist(), PREV_DECIMALS, f"{where}.prev_token")
        heads = [worked_head(t, l, h, f, P[h], f"{where}.heads[{j}]")
                 for j, h in enumerate(followed_heads(sb, int(order[0])))]
        if window is None:
            window = fitted_window(len(t.tokens), f,
                                   [heads[0]["top"]["pos"], heads[0]["second"]["pos"]])
        jn = joined(t, l, f, heads[0], f"{where}.join")
        for r in jn["top"]:         # each longest piece's head: its mean weight on the token before
            r["prev"] = float(prev[r["head"]])
            r["prev_text"] = f"{prev[r['head']]:.{pd}f}"
        fp = np.asarray(P[:, f], np.float64)                # [head, key]: the focus row
        first_heads = int(sum(int(np.argmax(fp[hh])) == 0 for hh in range(P.shape[0])))
        out.append({
            **weight_pairs(W, l, pairs, where),
            "first_heads": first_heads, "first_token": t.tokens[0],
            "next": next_layer(t, l, f, heads[0]["head"], heads[0]["q"], where),
            "layer": l, "x": x, "x_decimals": shown_decimals(x, jn["decimals"]["x"], f"{where}.x"),
            "w_cos": w_cos,
            "w_cos_max": max(c["max_abs"] for c in w_cos.values()),
            "w_rand_max": random_baseline(W, l, f"{where}.w_rand_max"),
            "qkv_bias": any(bool(np.any(np.asarray(W[f"blocks.{l}.attn.b_{X}"]) != 0))
                            for X in "QKV"),
            "patterns": P.tolist(),
            "prev_token": prev.tolist(), "prev_decimals": pd,
            "prev": {"head": int(order[0]), "score": float(prev[order[0]]),
                     "score_text": f"{prev[order[0]]:.{pd}f}",
                     "next_head": int(order[1]),
                     "next_best": float(prev[order[1]]),
                     "next_best_text": f"{prev[order[1]]:.{pd}f}",
                     "rows": len(t.tokens) - 1},
            "heads": heads,
            "join": jn})
    return {"focus": {"word": sb.focus[0].partition("#")[0], "pos": f,
                      "parts": [t.tokens[p] for p in pos], "n_parts": len(pos),
                      "token": t.tokens[f]},
            "tokens": t.tokens,
            "n_tokens": len(t.tokens),
            "n_layers": t.n_layers,
            "window": window,
            "slots": slots(window, len(t.tokens)),
            "windowed": len(window) < len(t.tokens),
            "shape": {"n_heads": spec.n_heads, "n_kv_heads": spec.n_kv_heads,
                      "d_model": spec.d_model, "d_head": spec.d_head,
                      "d_joined": spec.n_heads * spec.d_head},
            "scale": stable(float(np.sqrt(spec.d_head)), DECIMALS, "data.scale"),
            "reads_x": spec.placement.norm_before_q != "own",
            "post_ln": spec.placement.name == "post",
            "show": SHOW,
            "layers": out}
