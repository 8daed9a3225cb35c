"""Per-template words for the page: a table, keyed by plan path pattern.

A pattern is a panel's path template (`{l}` = the position on the layer axis, `*` = any run
of characters), e.g. `data.cos.*_heads[{l}]`. Per template:
- `labels`: pattern -> (label, explanation): the card's one-line name and the sentence under
  its number that says what the number is (visible text: phones have no hover). The words are
  the scenes' on-screen wording and the storyboards' captions. `{focus}` is the plan's focus
  word, `{pair}` the pair's sentences ("sentences 1 and 2"), `{data.x.y}` a plan value.
- `groups`: (pattern, caption): a card goes in the first group whose pattern matches its path;
  groups are shown in this order, each under its one-line caption.
- `beats`: beat id -> {"panels": patterns of the cards that beat is about, "layer": the plan
  path of the model layer it shows, or "state": the plan path of its position on the axis}.
A template without an entry (a new or drafted one) gets `model.generic_label`, one group per
key under `data`, and its beats' own `layer` and `show`.
"""

from __future__ import annotations

_QKV = {"x": ("X", "X is what the layer reads: the state of '{focus}' entering it."),
        "q": ("queries Q", "Q = X times the layer's query matrix W_Q, the same in both "
                           "sentences."),
        "k": ("keys K", "K = X times the layer's key matrix W_K, the same in both sentences."),
        "v": ("values V", "V = X times the layer's value matrix W_V, the same in both "
                          "sentences."),
        "in": ("the layer's input", "What the layer reads (here the same as X).")}
_SHORT = {"x": "X", "q": "Q", "k": "K", "v": "V", "in": "input"}
_COS = "1.00 = the same direction, 0 = at right angles."
# attention_depth's "…" columns (columns.py): the weights a drawn row leaves out, per kept count
_ELIDED = ("Weights under each \u2026",
           "When the sentence is too long to draw every token, the video writes under each \u2026 "
           "the weights of the tokens it leaves out, added up, so the row as drawn still adds up "
           "to 1 (one entry per number of tokens kept).")

SPECS: dict[str, dict] = {
    "context_qkv": {
        "labels": {
            **{f"data.cos.{k}[{{l}}]": (f"How alike '{{focus}}' is in sentences 1 and 2: {n}",
                                         f"The cosine of its two {_SHORT[k]} vectors. {_COS} "
                                         f"{tip}")
               for k, (n, tip) in _QKV.items()},
            **{f"data.cos.{k}_head_mean[{{l}}]": (
                f"Per head, then averaged: {n}",
                f"Each head's {{data.heads.d_head}}-number slice of {_SHORT[k]} compared alone, "
                f"the {{data.heads.n_heads}} cosines averaged.")
               for k, (n, _) in _QKV.items()},
            **{f"data.cos.{k}_heads[{{l}}]": (
                f"Per head: {n}, head 0 first",
                f"One cosine per head: that head's {{data.heads.d_head}} numbers of {_SHORT[k]} in "
                f"sentence 1 against sentence 2.")
               for k, (n, _) in _QKV.items()},
            **{f"data.first.{k}[{{l}}][{s}]": (
                f"{n} of '{{focus}}' in sentence {s + 1}: first numbers",
                f"The first of its {{data.heads.d_model}} numbers, as the video shows them.")
               for k, (n, _) in _QKV.items() for s in range(2)},
        },
        "groups": [
            ("data.cos.*_head*", "Inside each head: the same comparison on each head's slice"),
            ("data.cos.*", "Same weights, different context: how alike 'bank' stays (cosine)"),
            ("data.first.*", "The vectors themselves: their first numbers in each sentence"),
        ],
        "beats": {
            "same": {"panels": ["data.cos.x[{l}]", "data.cos.q[{l}]", "data.cos.k[{l}]",
                                "data.cos.v[{l}]"], "layer": "layers[0]"},
            "entered": {"panels": ["data.first.q[{l}][*]"], "layer": "data.entered.layer"},
            "layers": {"panels": ["data.cos.x[{l}]", "data.cos.q[{l}]", "data.cos.k[{l}]",
                                  "data.cos.v[{l}]", "data.first.*"]},
            "compare": {"panels": ["data.cos.v[{l}]", "data.cos.x[{l}]"],
                        "layer": "data.summary.lowest.layer"},
        },
    },
    "bank_drift": {
        "labels": {
            "data.similarity.raw[*][{l}]": (
                "How alike '{focus}' is in {pair}",
                f"The cosine of the two 'bank' vectors at this depth. {_COS}"),
            "data.similarity.mean_raw[{l}]": (
                "How alike, averaged over the three pairs",
                "The mean of the three cosines above."),
            "data.similarity.baseline[{l}]": (
                "Baseline: how alike two unrelated tokens are",
                "The mean cosine of unrelated tokens at the same depth: any two states are "
                "this alike already."),
            "data.similarity.adjusted[{l}]": (
                "Adjusted: the average minus the baseline",
                "Adjusted = raw − baseline: how much more alike the 'bank's are than any two "
                "tokens."),
            "data.gap.values[{l}]": (
                "The sense signal: same sense minus other sense",
                "cos(river bank, river bank) − cos(river bank, money bank): above 0, the "
                "state tells the two senses apart."),
        },
        "groups": [
            ("data.similarity.raw*", "Cosine of the river 'bank' with each other 'bank'"),
            ("data.similarity.*", "Corrected for how alike any two tokens are at this depth"),
            ("data.gap.*", "The sense signal, state by state"),
        ],
        "beats": {
            "extend": {"panels": ["data.similarity.raw*"]},
            "baseline": {"panels": ["data.similarity.baseline*", "data.similarity.adjusted*",
                                    "data.similarity.mean_raw*"]},
            "gap": {"panels": ["data.gap.values*"], "state": "data.gap.widest"},
        },
    },
    "per_head": {
        "labels": {
            "data.layers[{l}].patterns": (
                "Where '{focus}' looks, one head at a time",
                "Its attention weights over the tokens (they add up to 1); thicker arc = more "
                "weight. Pick a head with the head control."),
            "data.layers[{l}].x": (
                "X of '{focus}' entering the layer: first numbers",
                "The first of its {data.shape.d_model} numbers, as the video shows them."),
            "data.layers[{l}].w_cos_max": (
                "How alike two heads' matrices are, at most",
                "The largest |cosine| between two different heads' query, key or value "
                "matrices: near 0, each head learned its own."),
            "data.layers[{l}].w_rand_max": (
                "The same measure for random matrices of this size",
                "The largest |cosine| over as many pairs of random Gaussian matrices of the "
                "same shapes (fixed seed): what no relation at all gives."),
            "data.layers[{l}].prev_token": (
                "Each head's weight on the token just before, head 0 first",
                "Averaged over every token that has one before it."),
            "data.layers[{l}].prev.head": (
                "The head that looks most at the token just before",
                "The previous-token head the video follows."),
            "data.layers[{l}].prev.score": (
                "Its mean weight on the token just before",
                "Over the tokens that have one; 1 would be all of it, every time."),
            "data.layers[{l}].prev.rows": (
                "Tokens that have a token before them",
                "The rows that average is over."),
            "data.layers[{l}].prev.next_head": (
                "The runner-up head",
                "The head with the next most weight on the token just before."),
            "data.layers[{l}].prev.next_best": (
                "The runner-up's mean weight on the token just before",
                "The second highest mean weight on the token just before; compare it with "
                "the leader's."),
            "data.layers[{l}].join.piece_norms": (
                "Length of each head's piece of the update, head 0 first",
                "Each head's output times its part of the output matrix W_O."),
            "data.layers[{l}].join.piece_sum": (
                "The heads' piece lengths added up",
                "Compare it with the length of Δ: where pieces point different ways, they "
                "cancel."),
            "data.layers[{l}].join.bias_norm": (
                "Length of the output matrix's bias",
                "Added once to the joined heads."),
            "data.layers[{l}].join.first": (
                "First entry of each head's piece, head 0 first",
                "Added up with the bias's first entry, they give Δ's first entry."),
            "data.layers[{l}].join.bias_first": (
                "First entry of the output matrix's bias",
                "Added once, after the heads' pieces: the last term of Δ's first entry."),
            "data.layers[{l}].join.delta": (
                "The attention update Δ for '{focus}': first numbers",
                "The heads' pieces added up, plus the bias: what attention adds to X."),
            "data.layers[{l}].join.delta_norm": (
                "Length of the attention update Δ",
                "The square root of the sum of its squares."),
            "data.layers[{l}].join.x": (
                "X of '{focus}': first numbers",
                "The state entering the layer, as in the skip path."),
            "data.layers[{l}].join.x_norm": (
                "Length of X",
                "The square root of the sum of its squares: compare it with Δ's."),
            "data.layers[{l}].join.ratio": (
                "Length of Δ over length of X",
                "How long the update is next to the state it is added to (0.5: half as long)."),
            "data.layers[{l}].join.mid": (
                "X + Δ: '{focus}' after attention, first numbers",
                "X goes around attention on the skip path; the update is added to it."),
            "data.layers[{l}].join.top_on_key_min": (
                "Least weight on '{data.layers[0].join.key_token}' among the longest pieces' "
                "heads",
                "The heads whose pieces are longest all put at least this much weight there."),
            "data.layers[{l}].join.with_bias": (
                "The pieces' lengths and the bias's, added",
                "More than Δ's own length: the pieces and the bias point different ways."),
            "data.layers[{l}].join.key_len_min": (
                "Shortest of the longest pieces",
                "The pieces of the heads that weigh '{data.layers[0].join.key_token}' most are "
                "each at least this long."),
            "data.layers[{l}].join.other_len_max": (
                "Longest of the other pieces",
                "Every other head's piece is at most this long: the cut-off between the two "
                "groups."),
            "data.layers[{l}].join.key_heads": (
                "Heads whose largest weight from '{focus}' is on "
                "'{data.layers[0].join.key_token}'",
                "In this sentence and layer; head numbers mean nothing across layers."),
            "data.layers[{l}].join.n_key_heads": (
                "How many heads weigh '{data.layers[0].join.key_token}' most",
                "Compared with as many of the longest pieces."),
            "data.layers[{l}].join.key_heads_longest": (
                "Are those heads exactly the longest pieces? (1 yes, 0 no)",
                "A fact of this sentence and layer, not a cause."),
            "data.layers[{l}].first_heads": (
                "How many heads weigh '{data.layers[0].first_token}' most from '{focus}'",
                "Out of all the heads of the layer: the first token takes the largest weight in "
                "these."),
            "data.layers[{l}].next.head": (
                "The head followed into the next layer",
                "The same head number in the next layer: its own, new matrices."),
            "data.layers[{l}].next.w_cos": (
                "Cosine of the followed head's query matrix in this layer and the next",
                "Both matrices flattened into one list of numbers each: 1 would be the same "
                "direction, 0 unrelated."),
            "data.layers[{l}].next.layer": (
                "The next layer",
                "The layer that reads the X this layer writes."),
            "data.layers[{l}].next.x": (
                "X of '{focus}' entering the next layer: first numbers",
                "This layer's output, after its LayerNorms and FFN: what the next layer reads."),
            "data.layers[{l}].next.q": (
                "'{focus}''s query in the next layer: first numbers",
                "Made fresh from the new X with the next layer's own query matrix."),
            "data.layers[{l}].next.q_here": (
                "'{focus}''s query in this layer, same head: first numbers",
                "Beside the next layer's, to compare."),
            "data.layers[{l}].w_pair.cos": (
                "Cosine between two heads' query matrices, laid flat",
                "Heads 0 and 1; 1 would mean the same direction, 0 at right angles."),
            "data.layers[{l}].w_pair.a": (
                "First head of the compared pair",
                "Its query matrix, laid out as one long list of numbers."),
            "data.layers[{l}].w_pair.b": (
                "Second head of the compared pair",
                "Its query matrix, laid out as one long list of numbers."),
            "data.layers[{l}].w_pair.first_a": (
                "First head's query matrix laid flat: its first numbers",
                "Drawn as coloured cells (green above zero, magenta below) beside the second's."),
            "data.layers[{l}].w_pair.first_b": (
                "Second head's query matrix laid flat: its first numbers",
                "Drawn as coloured cells under the first head's: a different pattern."),
            "data.layers[{l}].w_pair.size": (
                "Numbers in one head's query matrix",
                "The length of the flat list the cosine is taken over."),
            "data.layers[{l}].w_abs": (
                "Size of the cosine between two heads' matrices, every pair",
                "One |cosine| per pair of different heads, queries, keys and values; all small."),
            "data.layers[{l}].w_pairs": (
                "Pairs of heads compared",
                "Every pair of different heads, for queries, keys and values."),
            "data.layers[{l}].w_all": (
                "Cosine between two heads' matrices, every pair, with its sign",
                "One cosine per pair of different heads, queries, keys and values: the values "
                "piled on the video's axis from -1 to 1."),
            "data.layers[{l}].join.sum_adds": (
                "Do the shown first entries add up to the shown sum? (written = or ≈)",
                "Thirteen rounded numbers can drift in the last place."),
        },
        "groups": [
            ("data.layers[{l}].patterns", "Attention: how much 'bank' takes from each token"),
            ("data.layers[{l}].prev*", "Previous-token heads: who looks at the token just "
                                       "before"),
            ("data.layers[{l}].join.*", "The heads joined, times the output matrix: the "
                                        "attention update Δ"),
            ("*", "The layer's input and its heads' matrices"),
        ],
        "beats": {
            "model": {"panels": ["data.layers[{l}].x", "data.layers[{l}].join.x"]},
            "heads": {"panels": ["data.layers[{l}].w_cos_max"]},
            **{b: {"panels": ["data.layers[{l}].patterns"]}
               for b in ("query", "scores", "softmax", "values")},
            "matrix": {"panels": ["data.layers[{l}].patterns", "data.layers[{l}].prev.score",
                                  "data.layers[{l}].prev.rows"]},
            "grid": {"panels": ["data.layers[{l}].prev_token", "data.layers[{l}].prev.*"]},
            "join": {"panels": ["data.layers[{l}].join.piece_norms",
                                "data.layers[{l}].join.piece_sum",
                                "data.layers[{l}].join.bias_norm",
                                "data.layers[{l}].join.first",
                                "data.layers[{l}].join.bias_first",
                                "data.layers[{l}].join.delta*",
                                "data.layers[{l}].join.top_on_key_min"]},
            "add": {"panels": ["data.layers[{l}].join.x*", "data.layers[{l}].join.mid",
                               "data.layers[{l}].join.delta*", "data.layers[{l}].x"]},
        },
    },
    "attention_depth": {
        "labels": {
            "data.layers[{l}].row": (
                "Where '{focus}' looks: the mean of its {data.n_heads} heads",
                "Its attention weights over the tokens (they add up to 1); thicker arc = more "
                "weight."),
            "data.layers[{l}].elided": _ELIDED, "data.worked.elided[{l}]": _ELIDED,
            **{f"data.{t}.{k}_elided[{{l}}]": _ELIDED for t in ("tie", "tie_last")
               for k in ("old", "new", "swap")},
            "data.layers[{l}].total": (
                "Sum of the row",
                "The attention weights of '{focus}' over all tokens, added up: always 1, so "
                "each weight is a share."),
            "data.layers[{l}].sink": (
                "Share on [CLS] and [SEP]",
                "The weight '{focus}' puts on the start and end tokens the model adds: the bar "
                "in the video."),
            "data.layers[{l}].sink_adds": (
                "Do the rounded parts add up?",
                "Whether the [CLS] and [SEP] weights, as the video writes them, add up to the "
                "share as written; where they do not, the bar writes ≈ with it."),
            "data.sink.share[{l}]": (
                "Share on [CLS] and [SEP]",
                "The weight '{focus}' puts on the start and end tokens the model adds: the bar "
                "in the video."),
            "data.layers[{l}].on_special": (
                "Weight on [CLS], then on [SEP]",
                "The two parts of that share."),
            "data.layers[{l}].parts_sum": (
                "The two parts as written, added",
                "The [CLS] and [SEP] weights rounded as the video writes them, then added: "
                "where this differs from the share, the bar writes ≈."),
            "data.layers[{l}].top.weight": (
                "The largest weight on any token",
                "[CLS] and [SEP] included."),
            "data.layers[{l}].top_word.weight": (
                "The largest weight on a word",
                "[CLS] and [SEP] left out."),
            "data.layers[{l}].head_on_word": (
                "The head that weighs that word most",
                "Of this layer's {data.n_heads} heads, the one whose row gives the word above "
                "its largest weight."),
            "data.layers[{l}].head_on_cls": (
                "The head that weighs [CLS] most",
                "Of this layer's {data.n_heads} heads, the one whose row gives the start token "
                "its largest weight."),
        },
        "groups": [
            ("data.layers[{l}].row", "Where 'bank' looks at this layer"),
            ("*", "How much goes to the start and end tokens"),
        ],
        "beats": {
            "arcs": {"panels": ["data.layers[{l}].row", "data.layers[{l}].top_word.weight",
                                "data.layers[{l}].on_special"], "layer": "data.layers[0].layer"},
            "depth": {"panels": ["data.layers[{l}].sink", "data.sink.share[{l}]"]},
            "why": {"panels": ["data.layers[{l}].sink", "data.sink.share[{l}]"],
                    "layer": "data.tie.layer"},
            "sink": {"panels": ["data.layers[{l}].sink", "data.sink.share[{l}]"],
                     "layer": "data.sink.max.layer"},
            "deep_heads": {"panels": ["data.layers[{l}].row"], "layer": "data.deep.layer"},
        },
    },
    "logit_lens": {
        "labels": {
            "data.layers[{l}].top": (
                "The lens's top tokens",
                "The words the model would predict if it stopped at this layer."),
            "data.layers[{l}].prob": (
                "Probability of the answer",
                "How sure the lens is of the right word at this layer."),
            "data.weights.bits": (
                "Bits per weight of the model file",
                "The weights as the model package ships them ({data.weights.file}): "
                "quantised to this many bits per weight."),
        },
        "groups": [("*", "What the model would say if it stopped at this layer")],
        "beats": {b: {"panels": ["*"]} for b in ("early", "run", "climb", "late", "last")},
    },
}
