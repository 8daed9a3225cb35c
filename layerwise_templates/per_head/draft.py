"""The per_head draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.choices import sink_positions, strongest_head
from layerwise_core.analysis.qkv import head_weight_cosines, previous_token_score
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError, quoted

MAX_TOKENS = 40         # the scene writes a window of at most 9 columns (a marked ellipsis
                        # for the rest); beyond this the matrix window says too little


def build(c: Context) -> Draft:
    """The per_head storyboard (layer, head) of the strongest head from the focus word, its one
    row worked through: query, keys, dot products, scaling, softmax, values, its whole matrix;
    the diagonal and the layer's grid when that head is the layer's previous-token head (the
    scene's diagonal and grid name the strongest previous-token head of the layer)."""
    t, word, pos, spec = c.trace, c.word, c.pos, c.trace.spec
    said = c.said
    if len(t.tokens) > MAX_TOKENS:
        raise DraftError(f"per_head: the sentence is {len(t.tokens)} tokens; the scene shows a "
                         f"window of it, at most {MAX_TOKENS} tokens make sense "
                         f"(choose a shorter sentence)")
    pos = pos[-1:]              # a word of several tokens: its last token (the plan's rule)
    parts = ("" if len(c.pos) == 1 else
             " The word is {data.focus.n_parts} tokens; we follow its last, "
             f"{quoted(t.tokens[pos[0]])}.")
    sinks = sink_positions(t)
    best = strongest_head(t, pos, sinks)
    kind = "word"
    if best is None:                    # every head's heaviest weight is on a sink
        best, kind = strongest_head(t, pos), "token"
    if best is None:
        raise DraftError(f"per_head: every head of every layer attends from {word!r} only to "
                         f"itself (in a decoder the first token sees nothing else); choose a "
                         f"later word")
    l, h, j = best["layer"], best["head"], best["key"]
    pattern = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)      # [head, q, k]
    row = pattern[h, pos[0]]
    j2 = int(np.argsort(-row, kind="stable")[1])
    tok, tok2 = quoted(t.tokens[j]), quoted(t.tokens[j2])
    prev = previous_token_score(pattern)                   # as the plan scores the layer
    prev_head = int(np.argmax(prev))
    is_prev = prev_head == h and prev[h] > 0.5
    p = "data.layers[0].heads[0]"
    top_claim = [f"{p}.top.pos == {j}"]
    notes = [f"layer {l}, head {h}: of every head of every layer, the heaviest weight from "
             f"{word!r} on one other {kind} ({t.tokens[j]!r}, position {j}: {best['weight']:.3f})"
             + (f", not counting {[t.tokens[s] for s in sinks]}" if sinks and kind == "word"
                else ""),
             f"previous-token score of each head of layer {l}: "
             f"{[round(float(s), 2) for s in prev]}"
             + (f"; head {h} is the layer's previous-token head, so the diagonal and grid "
                f"beats follow" if is_prev else
                f"; head {h} is not the layer's previous-token head (that is head "
                f"{prev_head}), so the diagonal and grid beats, which name it, are left out")]
    W = t.weights()
    w_cos = max(head_weight_cosines(W[f"blocks.{l}.attn.W_{X}"])["max_abs"] for X in "QKV")
    unlike = w_cos < 0.1                    # the scene draws the largest |cosine| of a pair
    bias = any(bool(np.any(np.asarray(W[f"blocks.{l}.attn.b_{X}"]) != 0)) for X in "QKV")
    plus_b = ", plus a bias," if bias else ""
    shared = ("" if spec.n_kv_heads == spec.n_heads else
              " In this model the keys and values are shared: {data.shape.n_kv_heads} key and "
              "value heads serve the {data.shape.n_heads} query heads.")
    beats = [
        Beat("model", ["tokens", "x"],
             "The sentence is {data.n_tokens} tokens; each token's X has "
             "{data.shape.d_model} numbers.",
             "Our sentence becomes {data.n_tokens} tokens, the model's units of text." + parts
             + " Each token's X is a list of {data.shape.d_model} numbers: here is the X of "
             + said + " entering layer {layers[0]}."),
        Beat("heads", ["heads"],
             "Layer {layers[0]} has {data.shape.n_heads} heads, each with its own W_Q, W_K "
             "and W_V.",
             "One layer of attention is really {data.shape.n_heads} heads side by side, each "
             "with its own query, key and value matrices, learned separately." + shared
             + (" Flattened into lists, and compared query with query, key with key, value "
                "with value, every pair's cosine, sign aside, is at most "
                "{data.layers[0].w_cos_max:.2f}: no head's matrices copy another's."
                if unlike else "")
             + f" All of them read the same X: the vector of {said}, "
               f"{{data.shape.d_model}} numbers, goes into every head.",
             expect=["data.layers[0].w_cos_max < 0.1"] if unlike else []),
        Beat("query", ["query", "keys"],
             f"Head {{beat.head}}: a query for '{word}', a key for every token.",
             f"Of every head in every layer, head {{beat.head}} of layer {{layers[0]}} puts the "
             f"most attention from {said} on one other {kind}. Its query matrix{plus_b} turns the X "
             f"of {said} into a query of {{data.shape.d_head}} numbers; here are the first "
             f"{{data.show}}. Its key matrix{plus_b} turns every token's X into a key, in the "
             f"same way.",
             head=h, expect=top_claim),
        Beat("scores", ["dots", "scale"],
             f"The query of '{word}' against every key: a dot product each, then scaled: "
             "the scores.",
             f"Now the query meets every key: multiply them entry by entry and add up all "
             f"{{data.shape.d_head}} products. The key of {tok} gives the largest, "
             f"{{{p}.top.dot:.1f}}. Each dot product is then divided by the square root of "
             f"{{data.shape.d_head}}, {{data.scale:.2f}}: these are the model's attention "
             f"scores.", head=h, expect=top_claim),
        Beat("softmax", ["exp", "softmax"],
             "Softmax turns the scores into weights that add up to 1.",
             f"Softmax turns the scores into weights: it takes the exponential of each and "
             f"divides by their sum, so the weights are positive and add up to one. {tok} gets "
             f"{{{p}.top.weight:.3f}} of the weight, {tok2} {{{p}.second.weight:.3f}}, and no "
             f"other token more than {{{p}.rest_max:.3f}}.",
             head=h, expect=top_claim + [f"{p}.second.pos == {j2}",
                                         f"{p}.weights_sum ~= 1 ± 1e-6"])]
    most = row[j] > 0.5
    beats.append(Beat(
        "values", ["values"],
        "The head's output: every value, scaled by its weight, added up.",
        f"Each token also offers a value, made by the head's value matrix{plus_b.rstrip(',')}. "
        "Every value is multiplied by its attention weight, and the results are added up. "
        + (f"With {{{p}.top.weight:.0%}} of the weight on {tok}, head {{beat.head}}'s output "
           f"for {said} is mostly the value of {tok}." if most else
           f"No token has half of the weight, so head {{beat.head}}'s output for {said} is a "
           f"blend of several values."),
        head=h, expect=top_claim + [f"{p}.top.weight {'>' if most else '<='} 0.5"]))
    beats.append(Beat(
        "matrix", ["matrix", "diagonal"] if is_prev else ["matrix"],
        "Head {beat.head}'s whole attention matrix"
        + (": every token looks at the token before it." if is_prev else "."),
        f"That was one row. Here is head {{beat.head}}'s whole matrix: each row is a token "
        f"asking, each column a token being looked at, and the row of {said} is the one we "
        f"just computed."
        + (" Every token with a token before it puts, on average, "
           "{data.layers[0].prev.score_text} of its weight there, over those "
           "{data.layers[0].prev.rows} tokens. In this sentence, head {beat.head} acts as a "
           "previous-token head."
           if is_prev else ""),
        head=h, expect=[f"data.layers[0].prev.head == {h}", "data.layers[0].prev.score > 0.5"]
        if is_prev else []))
    if is_prev:
        beats.append(Beat(
            "grid", ["grid"],
            "Every head of layer {layers[0]} has its own matrix; only head "
            "{data.layers[0].prev.head} looks one back.",
            "Every head has its own matrix. The others spread their attention differently: "
            "none gives more than {data.layers[0].prev.next_best_text}, on average, to the "
            "token just before.", expect=[f"data.layers[0].prev.head == {h}"]))
    beats.append(Beat(
        "join", ["join"],
        "The {data.shape.n_heads} head outputs joined, times the output matrix: the "
        "attention update.",
        f"Each of the {{data.shape.n_heads}} heads gives {said} an output "
        f"of {{data.shape.d_head}} numbers. Joined end to end they make "
        f"{{data.shape.d_joined}} numbers, and one more matrix, W O, turns them into the "
        f"attention update, delta attn, {{data.shape.d_model}} numbers. Its length, the square "
        f"root of the sum of its squares, is {{data.layers[0].join.delta_norm_text}}."))
    beats.append(Beat(
        "add", ["add"],
        "X goes around attention on the skip path; the attention update is added to it.",
        f"The update is added to the X of {said}: X goes around attention on the skip path, and "
        f"delta attn joins it at the plus, entry by entry. That is how X changes: each "
        f"sublayer adds its update."
        + (" In this model a LayerNorm, the feed-forward network and another LayerNorm "
           "follow." if spec.placement.name == "post" else " The feed-forward network "
           "follows.")
        + " The next layer builds new queries, keys and values from the result."))
    return Draft(f"'{word}', one head worked through", beats, layers=[l], heads="all",
                 notes=notes)
