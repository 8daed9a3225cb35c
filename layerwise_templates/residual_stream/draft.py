"""The residual_stream draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import re

from layerwise_core.analysis.choices import movement
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError, quoted, _superscript

def _spec(value: float, decimals: int | None = None) -> str:
    """The format spec that says `value` with the decimals the plan shows it with."""
    from .plan import _num
    n = _num(value, "draft", decimals)
    return ",.0f" if n["value"] >= 1000 else f".{n['decimals']}f"


def _legs(first: int, L: int) -> list[tuple[int, int]]:
    """Layers first..L-1 in up to three legs of nearly equal length."""
    n = L - first
    k = min(3, n)
    if k <= 0:
        return []
    cuts = [first + round(i * n / k) for i in range(k + 1)]
    return [(cuts[i], cuts[i + 1] - 1) for i in range(k) if cuts[i + 1] > cuts[i]]


def build(c: Context) -> Draft:
    import numpy as np
    from layerwise_core.analysis.updates import update_sizes
    t, word, spec = c.trace, c.word, c.trace.spec
    L = t.n_layers
    if L < 3:
        raise DraftError(f"residual_stream: {t.model} has {L} layers; the draft needs 3")
    pos = [c.pos[-1]]                             # the plan follows the word's last token
    rel = movement(t, pos)["rel"]
    additive = spec.placement.additive
    tok = quoted(t.tokens[pos[0]])
    sizes_ = update_sizes(t, pos)
    norm = lambda h: float(np.linalg.norm(np.asarray(t[h][pos[0]], np.float64)))  # noqa: E731
    x0 = norm("blocks.0.hook_resid_pre")
    x_end = norm(f"blocks.{L - 1}.hook_resid_post")
    from .plan import SPACE_MARKS
    marks = any(tk.startswith(SPACE_MARKS) and len(tk) > 1 for tk in t.tokens)
    beats = []
    if additive:
        from .plan import addition_check, measured_bound
        chk = addition_check(t, pos)
        bound = chk["bound_total"]["bound"]      # float32's, from |X|
        measured = measured_bound(chk["max_error_total"], bound)["bound"]   # the error, far below
        beats.append(Beat(
            "switch", ["switch"], "A pre-norm model: {model.display}",
            "On the left, MiniLM, a post-LN model. On the right, {model.display}, pre-norm. "
            "MiniLM normalises X itself after each addition. {model.display} normalises only a copy for each "
            "sublayer to read, and adds the update to X itself, which inside the layers is never "
            "normalised.",
            # the last X is the first plus the updates: X itself is only added to
            expect=[f"data.check.max_error_total < {bound:g}"]))
    beats += [
        Beat("tokens", ["tokens"],
             "{model.display}: {model.n_layers} layers, {data.n_tokens} tokens",
             f"This model has {{model.n_layers}} layers and reads the sentence "
             f"as {{data.n_tokens}} tokens. "
             + ("The mark before a word is its space, which belongs to that word's token. "
                if marks else "")
             + f"We follow one token, {tok}"
             + (f", the last of the {len(c.pos)} tokens of {quoted(word)}" if len(c.pos) > 1
                else "") + ".",
             moments={"space_mark": "The mark" if marks else 1}),
        Beat("embedding", ["x"],
             "X⁽⁰⁾: the embedding of " + tok,
             "Before the first layer, the X of " + tok + " is its embedding, X of zero: "
             "{model.d_model} numbers; its length is "
             f"{{data.summary.norm_first.value:{_spec(x0)}}}. Here X of zero is the token "
             "alone; its position enters later, inside attention.",
             layer=0, expect=["data.stages[0].index == 0"],
             moments={"numbers": "of zero:", "length": "its length", "alone": "alone"}),
        Beat("plane", ["plane"], "A flat shadow of the {data.plane.n_points} states",
             "To watch X change, we draw it on a flat plane, fitted once, by PCA, "
             "to the {data.plane.n_points} states of " + tok + ", from X of zero to X of "
             "{model.n_layers}. PCA picks the two directions, through the origin, that hold most "
             "of these states' squared length: {data.plane.energy_pct.value:.0f} percent of "
             "it, over all of them together. But one arrow alone can lose far more: the plane "
             "is a shadow. X of zero's shadow is only "
             "{data.stages[0].captured_pct.value:.0f} percent as long as X of zero, drawn "
             "beside it, as an illustration, at its true length. "
             "The bars give the true lengths.",
             moments={"states": "states", "spread": "PCA picks", "shadow": "shadow",
                      "bars": "bars"}),
    ]
    a0, f0 = float(sizes_["norm_attn"][0]), float(sizes_["norm_mlp"][0])
    if additive:
        from layerwise_core.analysis.residual_stream_copies import copy_norms
        c0 = copy_norms(t, pos[0])["copy"][0]
        beats.append(Beat(
            "attn0", ["attn_out"], "Layer 0: attention reads a copy, adds to X",
            "Layer 0's attention does not read X itself. It reads a normalised copy, RMSNorm "
            "of X: X divided by its root mean square, then multiplied by a learned gain. Here "
            f"that turns the {{data.summary.norm_first.value:{_spec(x0)}}} of X of zero into "
            f"{{data.copies.norm[0].value:{_spec(c0, 2)}}}. Its output, the "
            f"update delta attention, is {{data.layers[0].norm_attn.value:{_spec(a0)}}} long, "
            "and it is added to X itself, tip to tail.", layer=0,
            moments={"divides": "divided", "shrinks": "turns"}))
    else:
        beats.append(Beat(
            "attn0", ["attn_out"], "Layer 0: attention adds",
            f"Layer 0's attention output, an update "
            f"{{data.layers[0].norm_attn.value:{_spec(a0)}}} long, is added to X, tip to tail. "
            "Then the sum is normalised.", layer=0, moments={"divides": 0, "shrinks": 0}))
    beats.append(Beat(
        "ffn0", ["mlp_out"], "Layer 0: the FFN adds",
        "Then the feed-forward network adds its update, "
        f"{{data.layers[0].norm_mlp.value:{_spec(f0)}}} long."
        + (" The view zooms out from {data.plane.views[1].scale:g} to "
           "{data.plane.views[2].scale:g} units." if additive else
           " And the sum is normalised again."), layer=0,
        expect=["data.plane.views[2].scale - data.plane.views[1].scale > 0"] if additive else [],
        moments={"update": "adds its update", "lengths": 0, "every": 0,
                 "zoom": "zooms out" if additive else 0}))
    a1, f1, x1 = (float(sizes_[k][1]) for k in ("norm_attn", "norm_mlp", "norm_x"))
    beats.append(Beat(
        "layer1", ["attn_out", "mlp_out"], "Layer 1: attention adds, then the FFN",
        f"In layer 1, attention adds "
        f"{{data.layers[1].norm_attn.value:{_spec(a1)}}}, then the feed-forward network adds "
        f"{{data.layers[1].norm_mlp.value:{_spec(f1)}}}, while X is "
        f"{{data.layers[1].norm_x.value:{_spec(x1)}}} long."
        + (" Lengths do not add: X of two is {data.x_norms[2].value:"
           + _spec(norm("blocks.1.hook_resid_post")) + "} long, not their sum."
           if additive and L > 2 else ""),
        layer=1,
        moments={"update": "feed-forward network adds",
                 "lengths": "Lengths" if additive and L > 2 else 0, "divides": 0,
                 "shrinks": 0, "zoom": 0, "every": 0}))
    # one middle layer to scale before the walk (round 28: a walk alone was a montage)
    mid = L // 2
    xm = norm(f"blocks.{mid}.hook_resid_pre")
    am, fm = float(sizes_["norm_attn"][mid]), float(sizes_["norm_mlp"][mid])
    xo = norm(f"blocks.{mid}.hook_resid_post")
    xmid = float(np.linalg.norm(np.asarray(t[f"blocks.{mid}.hook_resid_pre"][pos[0]], np.float64)
                                + np.asarray(t[f"blocks.{mid}.hook_attn_out"][pos[0]], np.float64)))
    short = am / xm < 0.5 and fm / max(xmid, 1e-9) < 0.5     # plan: zoom.rel_attn, rel_mlp
    beats.append(Beat(
        "zoom_mid", ["zoom"], "One middle layer, to scale: layer {data.zoom.layer}",
        "Here is one middle layer, layer {data.zoom.layer}, drawn to scale. It reads X of "
        f"{{data.zoom.layer}}, {{data.zoom.norm_x.value:{_spec(xm)}}} long. From the tip of X, "
        f"attention adds a step {{data.zoom.norm_attn.value:{_spec(am)}}} long; from the new tip, "
        f"the feed-forward network adds one {{data.zoom.norm_mlp.value:{_spec(fm)}}} long. "
        "Each step is drawn at its true angle to the X it is added to. "
        + ("Both steps are short next to X, and " if short else "Then ")
        + f"X of {{data.zoom.next_layer}} is {{data.zoom.norm_out.value:{_spec(xo)}}} long.",
        moments={"z_x": "Here is one", "z_reads": "It reads", "z_attn": "attention adds", "z_ffn": "feed-forward network adds",
                 "z_angle": "true angle", "z_next": "Both steps" if short else "Then X"},
        expect=[f"data.zoom.layer == {mid}"]
        + (["data.zoom.rel_attn.value < 0.5", "data.zoom.rel_mlp.value < 0.5"]
           if short else [])))
    legs = _legs(2, L)
    xs = [norm("blocks.0.hook_resid_pre")] + [norm(f"blocks.{l}.hook_resid_post")
                                              for l in range(L)]
    for k, (a, b) in enumerate(legs):
        span = f"Layer {a}" if a == b else f"Layers {a} to {b}"
        said = (f"Now {span[0].lower() + span[1:]}, two additions each. Below, each layer "
                "adds two bars, its attention and feed-forward updates, beside the bar of X. "
                "The view widens to keep X's whole arrow, from the origin, in sight."
                if k == 0 else f"{span}, two additions each.")
        show, moments, medians = "journey", {"dips": 0, "reach": 0, "close": 0,
                                             "medians": 0, "among": 0, "ffn_read": 0}, ""
        steps = [(float(sizes_["norm_attn"][l]), "attention", l) for l in range(L)] + \
            [(float(sizes_["norm_mlp"][l]), "feed-forward", l) for l in range(L)]
        big_n, big_kind, big_l = max(steps)
        over = ((" Over this layer" if a == b else " Over these layers")
                + ", X goes from "
                f"{{data.x_norms[{a}].value:{_spec(xs[a])}}} to "
                f"{{data.x_norms[{b + 1}].value:{_spec(xs[b + 1])}}} long.")
        if additive and a <= big_l <= b:
            # said on the leg that draws it, as the leg ends: its bar and X's end lit then
            said += (" The largest of all {data.check.n_updates} updates is the "
                     f"{big_kind} update of layer {{data.summary.largest_update_layer}}, "
                     f"{{data.summary.largest_update.value:{_spec(big_n)}}} long.")
            extra_expect = [f"data.summary.largest_update_layer == {big_l}"]
            # said once the walk has drawn the largest update
            medians = (" Over layers 1 to "
                       f"{L - 1}, the median attention update is "
                       "{data.summary.median_rel_attn.value:.2f} of the length of the X it is added "
                       "to, the median "
                       "feed-forward update {data.summary.median_rel_mlp.value:.2f}.")
            show, moments = "journey_last", {"largest": "The largest",
                                             "x_ends": over.split(",")[0].strip(),
                                             "medians": "the median"}
        else:
            extra_expect = []
            rel_ab = [float(sizes_[key][l]) / xs[l] for l in range(a, b + 1)
                      for key in ("norm_attn", "norm_mlp")]
            if k > 0 and max(rel_ab) < 0.5:
                said += " Here every update is less than half as long as X."
                extra_expect = [f"data.layers[{l}].norm_{k_}.value / data.layers[{l}].norm_x.value"
                                " < 0.5" for l in range(a, b + 1) for k_ in ("attn", "mlp")]
        said += over + medians
        beats.append(Beat(f"journey{k}", [show], span, said, moments=moments,
                          layer=b if b < L - 1 else None, expect=extra_expect))
    if additive:
        from layerwise_core.analysis.residual_stream_copies import copy_norms
        cn = copy_norms(t, pos[0])
        later = cn["copy"][1:]
        beats.append(Beat(
            "copies", ["copies"], "What W_Q, W_K, W_V read: a copy of X",
            "At every layer l, X of l reaches that layer's W Q, W K and W V through such a "
            "copy: each multiplies that copy"
            # (round 35: "Q is RMSNorm of X times W Q" left out the rotation by position)
            + (", and then Q and K are rotated by position" if spec.rotary else "")
            + ". From layer "
            "{data.copies.from_layer} on, that copy stays between "
            f"{{data.copies.min.value:{_spec(min(later), 1)}}} and "
            f"{{data.copies.max.value:{_spec(max(later), 1)}}} long, a length set by the gain and "
            "the direction of X, while X reaches about "
            "{data.copies.x_last_about.value:.0f} at X of "
            "{data.copies.last_layer}. So W Q, W K and W V never see how long X is. "
            "What changes Q, K and V from one layer to the next is the "
            "direction of X, and each layer's own weights.",
            moments={"formula": "rotated" if spec.rotary else "multiplies",
                     "range": "stays between", "x_grows": "while X"}))
        # the direction: a beat of its own (one idea on screen at a time)
        beats.append(Beat(
            "turns", ["direction"], "X's direction turns",
            "And X's direction does change. "
            "We measure a turn by the cosine of the angle between X before and after a "
            "layer: 1 means the same direction; 0, a right angle. From "
            "layer {data.direction.from_layer} on, each layer's cosine "
            "is {data.direction.min_later.value:.2f} to {data.direction.max_later.value:.2f}, "
            "and the turns add up: X of {model.n_layers} has a cosine of "
            "{data.direction.cos_1_last.value:.2f} with X of {data.direction.from_layer}.",
            moments={"turns": "does change", "most": 0, "apart": "the turns add up"}))
    sizes = ("X of " + tok + " goes from "
             f"{{data.summary.norm_first.value:{_spec(x0)}}} to "
             f"{{data.summary.norm_last.value:{_spec(x_end)}}}"
             + (", about {data.summary.growth_about.value:,.0f} times." if x_end / x0 >= 2 else
                ": about the same length."))
    moments = {"norm_first": "from", "norm_last": "to", "growth": "about"}
    beats.append(Beat("sizes", ["sizes"], "The true lengths, on linear scales", sizes,
                      moments=moments))
    big = _outlier(t, pos[0])
    from .plan import SINK_SHARE
    # (round 27 cut the first-token (attention sink) beat from the video: off the chapter's
    # claim; round 28 cuts it from drafts too)
    if False and big is not None:         # the outlier token: a beat of its own (`sink`)
        from layerwise_core.analysis.updates import attention_to, outlier_token
        from .plan import OUTLIER_FACTOR
        out = outlier_token(t, OUTLIER_FACTOR)
        layers = list(range(out["from_layer"], L)) or list(range(L))
        share = attention_to(t, pos[0], big, layers) if big < pos[0] else 0.0
        sink = share > SINK_SHARE
        said = (f"No token but {quoted(t.tokens[big])} is ever longer than "
                "{data.outlier.others_max_norm.value:.0f}: it grows to "
                "{data.outlier.max_norm.value:,.0f}.")
        moments = {"others": "No token", "first_token": "ever longer", "outlier_norm": "grows"}
        if sink:
            said += (" Keys are made from the normalised copy, so this length does not enter "
                     "them directly; whether it is linked to the attention it draws is not "
                     "measured here. It draws {data.outlier.attention_pct.value:.0f} percent of "
                     + tok + "'s attention, "
                     "averaged over all heads in layers {data.outlier.attention_layers[0]} to "
                     "{data.outlier.attention_layers[1]}: one query, " + tok + "'s; the other "
                     "tokens' queries are not measured here.")
            moments |= {"share": "percent"}
        else:
            moments |= {"share": "except"}
        beats.append(Beat("sink", ["sink"],
                          "The outlier token" if not sink else "Much of " + tok + "'s attention",
                          said, expect=[f"data.outlier.position == {big}"], moments=moments))
    if additive:
        beats.append(Beat(
            "identity", ["identity"],
            "X⁽" + _superscript(L) + "⁾ = X⁽⁰⁾ + {data.check.n_updates} updates",
            "Inside the layers, nothing else changes X. Start from the embedding and add the "
            "{data.check.n_updates} updates, one at a time: the sum is X of {model.n_layers}, "
            "up to rounding. Each sum keeps about {data.identity.digits} significant digits, "
            "so rounding could move an entry by at most {data.identity.bound.bound}; the error "
            "measured is below {data.identity.measured.bound}.",
            expect=[f"model.n_layers == {L}", "data.stages[0].index == 0",
                    f"data.check.max_error_total < {bound:g}",
                    f"data.check.max_error_total < {measured:g}",
                    "data.identity.digits == 7"],
            # "add the": "add the {data.check.n_updates} updates" (the running sum)
            moments={"updates": "add the", "is_x": "the sum is", "within": "at most",
                     "every_entry": "measured"}))
    notes = [f"followed token {t.tokens[pos[0]]!r} (position {pos[0]}"
             + (f", the last of the word's {len(c.pos)} tokens" if len(c.pos) > 1 else "")
             + f"); |X^(l+1) - X^(l)| / |X^(l)| per layer: {[round(r, 3) for r in rel]}"]
    for b in beats:
        b.expect = list(b.expect) + [e for e in _number_claims(b.caption + " " + b.narration, L)
                                     if e not in b.expect]
    return Draft(f"The residual stream of '{word}'", beats, notes=notes)


WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3}


def _number_claims(text: str, L: int) -> list[str]:
    """A true claim for each number written outside placeholders (layer numbers, "X of zero",
    "two additions"): its value as a layer index of the plan, so every number said is checked."""
    bare = re.sub(r"\{[^}]*\}", " ", text)
    values = [int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.]\d)", bare)]
    values += [v for w, v in WORDS.items() if re.search(rf"\b{w}\b", bare, re.I)]
    return [f"data.layers[{v}].layer == {v}" for v in dict.fromkeys(values) if 0 <= v < L]


def _outlier(t, token: int) -> int | None:
    """The outlier token the residual_stream plan names (None: none, or the one followed)."""
    from layerwise_core.analysis.updates import outlier_token
    from .plan import OUTLIER_FACTOR
    out = outlier_token(t, OUTLIER_FACTOR)
    return None if out is None or out["position"] == token else out["position"]
