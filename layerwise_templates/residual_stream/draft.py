"""The residual_stream draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

from layerwise_core.analysis.choices import movement, moves_most
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError, quoted, _superscript

def build(c: Context) -> Draft:
    t, word, spec = c.trace, c.word, c.trace.spec
    said = c.said
    L = t.n_layers
    if L < 3:
        raise DraftError(f"residual_stream: {t.model} has {L} layers; the draft needs 3")
    pos = [c.pos[-1]]                             # the plan follows the word's last token
    m = moves_most(t, pos, 1, first=1, last=L - 1)[0]     # a middle layer: the journey follows
    rel = movement(t, pos)["rel"]
    additive = spec.placement.additive
    tok = quoted(t.tokens[pos[0]])
    beats = [
        Beat("tokens", ["tokens"],
             "{model.display}: {model.n_layers} layers",
             f"This is {{model.display}}, with {{model.n_layers}} layers. It reads the sentence "
             f"as {{data.n_tokens}} tokens. We follow one token, {tok}.",
             moments={"space_mark": 1}),     # no sentence on the space mark: at the count
        Beat("embedding", ["x"],
             "X⁽⁰⁾: the embedding of " + tok,
             "Before the first layer, the stream X of " + tok + " is its embedding: "
             "{model.d_model} numbers, with a length of {data.summary.norm_first.value:.2f}. "
             "Layer l reads X of l and writes X of l plus one.",
             layer=0, expect=["data.stages[0].index == 0"],
             moments={"numbers": "numbers", "length": "length", "reads": "reads",
                      "writes": "writes"}),
        Beat("attn0", ["attn_out"],
             "Layer {beat.layer}, attention adds",
             "Layer {beat.layer}'s attention output, an update {data.layers[0].norm_attn.value:.2f}"
             " long, is added to X, tip to tail."
             + ("" if additive else " Then the sum is normalised."), layer=0),
        Beat("ffn0", ["mlp_out"],
             "Layer {beat.layer}, the FFN adds",
             "Then the feed-forward network adds its update, {data.layers[0].norm_mlp.value:.2f}"
             " long." + ("" if additive else " And the sum is normalised again."), layer=0),
        Beat(f"layer{m}", ["attn_out", "mlp_out"],
             "Layer {beat.layer}: attention adds, then the FFN",
             f"Now jump to layer {{beat.layer}}: of the layers between the first and the last, "
             f"this is where X moves most for its length. Attention adds "
             f"{{data.layers[{m}].rel_attn.value:.2f}} of X's "
             f"length, then the feed-forward network adds {{data.layers[{m}].rel_mlp.value:.2f}}"
             f" of its input's.", layer=m),
        Beat("journey", ["journey"],
             "The remaining layers, attention and FFN each",
             "Now the remaining layers, each adding its attention and FFN updates, while the "
             "earlier X's stay as a faint trail. The plane shows only part of each update; the "
             "rest points out of it.", moments={"plane_note": "The plane shows"}),
    ]
    sizes = ("The bars give the lengths. X goes from {data.summary.norm_first.value:.2f} to "
             "{data.summary.norm_last.value:.2f}.")
    # the growth factor is not said: it is ringed as the sentence is
    moments = {"norm_first": "from", "norm_last": "to", "growth": 1}
    big = _outlier(t, pos[0])
    if big is not None:
        sizes += (f" One token is different: {quoted(t.tokens[big])} grows to "
                  f"{{data.outlier.max_norm.value:,.0f}}. We leave it out of these pictures.")
        moments |= {"first_token": 2, "outlier_norm": "grows", "left_out": "leave"}
    else:       # no outlier: the scene draws none of its rows, nothing waits for these
        moments |= {"first_token": 1, "outlier_norm": 1, "left_out": 1}
    beats.append(Beat("sizes", ["sizes"], "The lengths, on one linear scale", sizes,
                      expect=[f"data.outlier.position == {big}"] if big is not None else [],
                      moments=moments))
    if additive:
        from .plan import addition_check
        bound = addition_check(t, pos)["bound_total"]["bound"]      # float32's, from |X|
        beats.append(Beat(
            "identity", ["identity"],
            "X⁽" + _superscript(L) + "⁾ = X⁽⁰⁾ + {data.check.n_updates} updates",
            "And nothing else ever changes X. The embedding plus the {data.check.n_updates} "
            "updates is X of {model.n_layers}, within {data.identity.bound.bound} in every "
            "entry.", expect=[f"model.n_layers == {L}", "data.stages[0].index == 0",
                              f"data.check.max_error_total < {bound:g}"],
            # "the#2": "the {data.check.n_updates} updates" ("The embedding" is the first)
            moments={"updates": "the#2", "is_x": "is X", "within": "within",
                     "every_entry": "every entry"}))
    notes = [f"followed token {t.tokens[pos[0]]!r} (position {pos[0]}); |X^(l+1) - X^(l)| / "
             f"|X^(l)| per layer: {[round(r, 3) for r in rel]}; moved most of layers "
             f"1..{L - 2}: {m}"]
    return Draft(f"The residual stream of '{word}'", beats, notes=notes)


def _outlier(t: Trace, token: int) -> int | None:
    """The outlier token the residual_stream plan names (None: none, or the one followed)."""
    from layerwise_core.analysis.updates import outlier_token
    from .plan import OUTLIER_FACTOR
    out = outlier_token(t, OUTLIER_FACTOR)
    return None if out is None or out["position"] == token else out["position"]
