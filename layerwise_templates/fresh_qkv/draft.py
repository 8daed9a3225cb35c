"""The fresh_qkv draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

from layerwise_core.analysis.choices import movement, moves_most
from layerwise_core.analysis.qkv_causes import pattern_comparable
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError

def build(c: Context) -> Draft:
    t, word, pos, spec = c.trace, c.word, c.pos, c.trace.spec
    said = c.said
    L = t.n_layers
    if L < 3:
        raise DraftError(f"fresh_qkv: {t.model} has {L} layers; the draft needs 3")
    # layer l >= 1 meets X^(l), which layer l-1 wrote: the beats after the two layers that moved
    # the word's X most (relative to its length) show Q, K, V made fresh from it
    moved = moves_most(t, pos, 2, first=0, last=L - 1)
    fresh = [m + 1 for m in moved]
    rel = movement(t, pos)["rel"]
    post = spec.placement.norm_before_q == "previous"
    # what the scene can show for this model and word: its norm panel labels the post-LN flow
    # "this model (MiniLM)", its update panel lists the two LayerNorms of post-LN, its causes
    # panel redoes plain softmax(q.k) attention (no RoPE, no shared K/V) and is titled 'bank'
    show_norm = spec.name == "minilm-l6"
    experiment = pattern_comparable(spec) and word.lower() == "bank"
    notes = [f"|X^(l+1) - X^(l)| / |X^(l)| of {word!r} per layer: {[round(r, 3) for r in rel]}; "
             f"moved most (layers 0..{L - 2}): {moved}, so layers {fresh} get "
             + ("the new-X-or-new-W experiment" if experiment else "their fresh Q, K, V")]
    left_out = ([] if show_norm else ["the norm panel (it names MiniLM)"]) \
        + ([] if post else ["the update panel (post-LN only)"]) \
        + ([] if experiment else ["the new-X-or-new-W panel (plain attention, titled 'bank')"])
    if left_out:
        notes.append("left out, as the scene draws them: " + "; ".join(left_out))
    how = ("X arrives already normalised, and" if post else
           "this model normalises X just before each sublayer, and")
    beats = [Beat("x0", ["x"], f"X for '{word}'",
                  f"This is {{model.display}}, reading the sentence as {{len(data.tokens)}} "
                  f"tokens. Follow the word {said}. It enters the first layer as X, a list of "
                  f"{{model.d_model}} numbers; here are the first "
                  f"{{len(data.layers[0].in_first)}}, and its length.", layer=0)]
    if show_norm:
        beats.append(Beat("norm0", ["norm"], "Where the norm sits",
                          "Transformers normalise the stream, but not all in the same place. "
                          "This model normalises after every addition, so X arrives already "
                          "normalised and the query matrix multiplies it directly. Most recent "
                          "models normalise just before each sublayer instead.", layer=0))
    beats.append(Beat("qkv0", ["project"], "Layer {beat.layer}: X times its own W",
                      f"In layer {{beat.layer}}, {how} the query matrix multiplies it. Each "
                      f"entry of the query uses one column of the matrix and all of the input. "
                      f"The same input then meets the key matrix and the value matrix.",
                      layer=0))
    if post:
        beats.append(Beat("update0", ["update"], "Layer {beat.layer} updates X",
                          "Attention adds its output to X, and the sum is normalised. The "
                          "feed-forward network adds its own update, and the sum is normalised "
                          "again. That result is the X the next layer reads.", layer=0))
    beats.append(Beat(f"qkv{fresh[0]}", ["project"], "Layer {beat.layer} starts over",
                      "Layer {beat.layer} starts over. A new X meets new matrices, and fresh "
                      "query, key and value come out. Layer {beat.layer - 1} is among the "
                      "layers that moved X most, for its length.", layer=fresh[0]))
    if experiment:
        for i, l in enumerate(fresh):
            p = f"data.layers[{l}].causes"
            beats.append(Beat(
                f"causes{l}", ["causes"],
                "New X, or new W?" if i == 0 else "Layer {beat.layer}: again",
                ("What made the query new: the new X or the new matrix? " if i == 0 else
                 "Layer {beat.layer - 1} moved X a lot too. ")
                + f"Keep layer {{beat.layer}}'s matrix and feed it the old X: the attention of "
                  f"{said} shifts by {{{p}.tv_new_x:.2f}}. Keep the new X and use layer "
                  f"{{beat.layer - 1}}'s matrix: it shifts by {{{p}.tv_new_w:.2f}}.", layer=l))
    elif fresh[1] != L - 1:
        beats.append(Beat(f"qkv{fresh[1]}", ["project"], "Layer {beat.layer}: fresh again",
                          "Layer {beat.layer - 1} also moved X a lot, for its length. Layer "
                          "{beat.layer} again multiplies what it is given by its own matrices.",
                          layer=fresh[1]))
    beats.append(Beat(f"check{L - 1}", ["project", "check"],
                      "Layer {beat.layer}: same recipe, checked",
                      "The last layer follows the same recipe. Redoing every query, key and "
                      "value from this X and this layer's matrices reproduces the model's own "
                      "numbers.", layer=L - 1))
    return Draft(f"Fresh Q, K, V at every layer: '{word}'", beats, notes=notes)
