"""The fresh_qkv draft: `build(Context) -> Draft` (see `layerwise_core.drafts`).

The story of the shipped storyboard (docs/chapter.md 4.3) for the teacher's own sentence: the
layer that moved the word's X most (for its length) drawn whole, with its skip paths and, in a
post-LN model, the LayerNorm after each add; the next layer starting over from the X it wrote;
every layer as a table; the recompute check. A word of several tokens is their mean everywhere
(the scene says so on screen)."""

from __future__ import annotations

from layerwise_core.analysis.choices import movement, moves_most
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError

from .plan import has_bias


def build(c: Context) -> Draft:
    t, pos, spec = c.trace, c.pos, c.trace.spec
    said = c.said
    L = t.n_layers
    if L < 3:
        raise DraftError(f"fresh_qkv: {t.model} has {L} layers; the draft needs 3")
    if spec.placement.mlp_in is None:
        raise DraftError(f"fresh_qkv: {t.model} has no feed-forward sublayer to draw")
    # the layer drawn whole: the one that moved the word's X most, relative to its length
    m = moves_most(t, pos, 1, first=0, last=L - 1)[0]
    rel = movement(t, pos)["rel"]
    post = spec.placement.norm_before_q == "previous"
    bias = has_bias(t.weights(), m + 1)
    u = f"data.layers[{m}].update.norms"
    tokens = ", its tokens averaged," if len(pos) > 1 else ""
    notes = [f"|X^(l+1) - X^(l)| / |X^(l)| of {c.word!r} per layer: "
             f"{[round(r, 3) for r in rel]}; layer {m} moved it most, so it is drawn whole "
             f"and layer {m + 1} starts over from X^({m + 1})"]
    if len(pos) > 1:
        notes.append(f"{c.word!r} is {len(pos)} tokens: every vector shown is their mean")
    branch = ("Attention reads it on a side branch" if post else
              "Attention reads a normalised copy of it on a side branch")
    del branch                                  # the recap is short: the last video drew the branch
    # (round 32) the add is the last video's: the recap only says where it left off
    beats = [Beat("recap", ["x"], "Layer {beat.layer} as the last video left it: X plus "
                  "attention's update" + (", then LayerNorm" if post else ""),
                  f"Layer {{beat.layer}} of {{model.display}}, for {said}{tokens}, as the last "
                  "video left it: attention's update added to X"
                  + (". Then LayerNorm centres the sum's numbers, scales them, and applies a "
                     "learned gain and bias." if post else "."),
                  layer=m)]
    end = ("then LayerNorm again: the X layer {beat.layer + 1} reads." if post else
           "and that sum is the X layer {beat.layer + 1} reads.")
    beats.append(Beat("ffn", ["ffn"], "The feed-forward network's update on its own skip "
                      "path" + (", then LayerNorm again" if post else "") + ": the next X",
                      "The feed-forward network adds its own update"
                      + ("" if post else ", through its own normalised copy")
                      + f", on this token alone, {end}",
                      layer=m))
    p = f"data.layers[{m + 1}]"
    beats.append(Beat(f"layer{m + 1}", ["project"],
                      "Layer {beat.layer} starts over: the new X times layer {beat.layer}'s own "
                      "query, key and value matrices",
                      ("Layer {beat.layer} starts over, from X, which in this model is already "
                       "LayerNorm's output. "
                       "It multiplies X" if post else
                       "Layer {beat.layer} starts over. It multiplies a normalised copy of X")
                      + " by its own query matrix, whose columns are {data.shape.n_heads} heads "
                      "of {data.shape.d_head}; for head {data.show.head}, each entry of the "
                      "query takes every number of it and one column"
                      + (", plus a bias" if bias else "")
                      + ". The key follows the same recipe, with the key matrix. And the value "
                      "follows it too, with the value matrix.",
                      layer=m + 1))
    # (round 32) where attention looked is another video's: "why" says only that X turned
    beats.append(Beat("why", ["fresh"],
                      "Why fresh: layer {beat.layer - 1}'s updates"
                      + (" and LayerNorms" if post else "") + " turned X",
                      "Why are these fresh? X is new. Attention's update and the feed-forward "
                      "update were added to it" + (", with LayerNorm after each" if post else "")
                      + ". So X turned: its cosine with layer {beat.layer - 1}'s X is "
                      f"{{data.cos_steps[{m}]:.2f}}, where one would mean the same direction.",
                      layer=m + 1, expect=[f"data.cos_steps[{m}] < 0.99"]))
    mx, kv = f"{p}.q_mixed", f"{p}.kv_mixed"
    # (round 35) the matrices' pairs and the new-X test are two beats, the stage cleared between
    beats.append(Beat("matrices", ["matrices"],
                      "New matrices too: each head of layer {beat.layer}'s query matrix against "
                      "each of layer {beat.layer - 1}'s",
                      "Layer {beat.layer}'s query matrix is new too. Pair each of its "
                      "{data.shape.n_heads} heads with each of layer {beat.layer - 1}'s: "
                      f"{{{mx}.w_pairs}} pairs. For each pair, the cosine of the heads' blocks, "
                      "as lists of numbers" + (", biases left out" if bias else "")
                      + ". Where one would mean the same direction, all "
                      f"{{{mx}.w_pairs}} cosines are at most {{{mx}.w_cos_max:.2f}}, either way. "
                      "Heads are not matched across layers, so the new matrix's own effect is "
                      "not measured here.",
                      layer=m + 1, expect=[f"{mx}.w_cos_max < 0.5"]))
    beats.append(Beat("newx", ["compare"],
                      "The new X alone, with layer {beat.layer - 1}'s matrices: how far it turns "
                      "Q, K and V (head {data.show.head})",
                      "To test the new X alone, keep layer {beat.layer - 1}'s query matrix and "
                      f"give it the new X. Over all {{{mx}.entries}} entries of head "
                      "{data.show.head}, its cosine with layer {beat.layer - 1}'s query is "
                      f"{{{mx}.cos_old:.2f}}. The same test on head {{data.show.head}}'s key and "
                      f"value gives {{{kv}.k:.2f}} and {{{kv}.v:.2f}}.",
                      layer=m + 1, expect=[f"{mx}.cos_old < 0.99"]))
    name = c.word.partition("#")[0]
    first = ("The first row, X {data.layers[0].layer}, is its embeddings "
             "added up and put through LayerNorm." if post else
             "The first row is X {data.layers[0].layer}.")
    if post:
        first = first[:-1] + "; every later X is also LayerNorm's output."
        length = ""
    else:
        length = ("X itself is never normalised here, and its length runs from "
                  "{min(data.x_lengths):.2f} to {max(data.x_lengths):.2f}. ")
    expect = ["min(data.cos_steps) < 0.99"]     # "turns": some step does (not every one must)
    beats.append(Beat("sweep", ["sweep"], "Each layer builds Q, K, V from its current X with "
                      "its own matrices",
                      f"The later layers repeat these steps; here is \"{name}\", layer by layer"
                      + (", its tokens averaged" if len(pos) > 1 else "") + f". {first} {length}"
                      "The direction turns: each state's cosine with the one before, "
                      f"as for X {{data.layers[{m + 1}].layer}}, is at most "
                      "{max(data.cos_steps):.2f}, and lowest, {min(data.cos_steps):.2f}. "
                      "So each layer builds its Q, K and V from its current X and its own "
                      "matrices.",
                      layer=L - 1, expect=expect))
    beats.append(Beat("check", ["check"], "Checked: every query, key and value recomputed from "
                      "X and W matches the model",
                      "One check that this is the model's recipe. Redo every query, key "
                      "and value as " + ("X" if post else "the normalised copy of X")
                      + " times W" + (" plus the bias" if bias else "")
                      + ": for all {data.check.tokens} tokens, "
                      "{data.check.heads} heads and {data.check.layers} layers. Each one "
                      "matches the model's own number to within {data.check.bound.bound}, in "
                      "every layer.", layer=L - 1))
    return Draft(f"A whole layer, then the next: '{c.word}'", beats, notes=notes)
