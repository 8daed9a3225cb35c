"""The context_qkv draft: `build(Context) -> Draft` (see `layerwise_core.drafts`).

Both sentences it was given are named and compared in every beat: the layer-0 match, what the
focus token reads in each at layer 0 (its heaviest neighbours, the two updates), the cosines
layer by layer, and which of Q, K, V parts most (and at the last layer), each number a plan
placeholder and each comparison an `expect:` claim of its beat."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.context_qkv import QKV, context_qkv, layer_zero_match
from layerwise_core.analysis.context_qkv_entered import entered, value_pieces
from layerwise_core.analysis.vectors import positions
from layerwise_core.drafts.base import Beat, Context, Draft, spoken_token

NAMES = {"x": "X", "q": "queries", "k": "keys", "v": "values"}


def _words(t, lk: dict, n: int) -> list[int]:
    return [j for j in lk["words"][:n]]


def _near(path: str, value: float) -> str:
    return f"{path} ~= {value:.4f} ± 0.001"


def build(c: Context) -> Draft:
    a, b = c.traces
    said = c.said
    pa, pb = positions(a, c.focus), positions(b, c.focus)
    cos = context_qkv(a, pa, b, pb)
    L = a.n_layers
    m = layer_zero_match(a, pa, b, pb)
    several = len(pa) > 1 or len(pb) > 1
    avg = " (its tokens averaged)" if several else ""
    s1, s2 = a.sentence, b.sentence

    # sentences -------------------------------------------------------------------------
    if m["identical"]:
        first = (f"In both it is token {{data.contexts[0].token_ids[0]}}"
                 + (", at position {data.contexts[0].positions[0]}" if m["same_position"]
                    else "") + ", so both sentences start it from one X.")
    elif m["same_token"]:
        first = ("It is the same token, but at position {data.contexts[0].positions[0]} in one "
                 "and {data.contexts[1].positions[0]} in the other, so X differs from the start.")
    else:
        first = "It is not the same token sequence in both, so X differs from the start."
    beats = [Beat(
        "sentences", ["sentences"],
        "One word, two sentences: is it the same token at the same position?",
        f"Here is {said} in two sentences: \u201c{s1}\u201d and \u201c{s2}\u201d. {first}",
        expect=["len(data.contexts) == 2"])]

    # same ------------------------------------------------------------------------------
    one = all(abs(cos[k][0] - 1) <= 1e-6 for k in ("x", *QKV))
    intro = ("To compare two vectors we use the cosine of the angle between them. It is zero "
             "when they stand at right angles, and one when they point the same way.")
    if one:
        beats.append(Beat(
            "same", ["same"],
            "Layer {data.layers[0]}: one X, the same W, so cos = {data.cos.x[0]:.2f} for X, "
            "Q, K and V.",
            f"{intro} At layer {{data.layers[0]}} {said} has the very same X in both sentences, "
            f"and the layer multiplies both by the same matrices, so the queries, keys and "
            f"values are equal too. All four cosines are {{data.cos.x[0]:.2f}}.",
            expect=[f"data.cos.{k}[0] ~= 1 ± 1e-6" for k in ("x", *QKV)]
            + ["data.layers[0] == 0", "len(data.contexts) == 2",
               "len(data.summary.compared) == 4"]))
    else:
        beats.append(Beat(
            "same", ["same"],
            "Cosine: 1 = same direction, 0 = at right angles. Layer {data.layers[0]}: X already "
            "differs, cos {data.cos.x[0]:.2f}.",
            f"{intro} At layer {{data.layers[0]}} {said} already differs between the two "
            f"sentences, a cosine of {{data.cos.x[0]:.2f}} between the two X, so its queries, "
            f"keys and values differ too, although the matrices are the same.",
            expect=[_near("data.cos.x[0]", cos["x"][0]), "data.cos.x[0] < 0.995",
                    "data.layers[0] == 0", "len(data.contexts) == 2"]))

    # entered ---------------------------------------------------------------------------
    e = entered(a, pa, b, pb, 0)
    la, lb = e["looks"]
    sent_parts, claims = [], []
    for i, (t, lk, s) in enumerate(((a, la, s1), (b, lb, s2))):
        top = _words(t, lk, 3 if i else 1)
        if not top:
            sent_parts.append(f"In \u201c{s}\u201d it has no other word to read.")
            continue
        names = [spoken_token(t.tokens[j]) for j in top]
        nums = [f"{{data.entered.sentences[{i}].mean[{j}]:.2f}}" for j in top]
        listed = (names[0] if len(names) == 1 else
                  ", ".join(names[:-1]) + " and " + names[-1])
        sent_parts.append(
            f"In \u201c{s}\u201d, {said}{avg} reads {listed} most"
            f", with head-average attention weight{'s' if len(nums) > 1 else ''} "
            + (nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]) + ".")
        claims += [f"data.entered.sentences[{i}].words[{k}] == {j}" for k, j in enumerate(top)]
    # the markers' pieces (their weighted values): said when they are short beside the
    # heaviest word's, however much weight the markers take
    markers = ""
    special = sorted(set(range(len(a.tokens))) - set(pa) - set(la["words"]))
    if special and len(la["words"]):
        lens = np.linalg.norm(value_pieces(a, pa, 0)["pieces"], axis=1)
        top, sp = la["words"][0], special[0]
        if lens[sp] < 0.25 * lens[top]:
            markers = (f" The markers' pieces are short: {{data.entered.sentences[0].piece_length"
                       f"[{sp}]:.2f}} for {spoken_token(a.tokens[sp])}, {{data.entered."
                       f"sentences[0].piece_length[{top}]:.2f}} for "
                       f"{spoken_token(a.tokens[top])}.")
            claims.append(f"data.entered.sentences[0].piece_length[{sp}] / "
                          f"data.entered.sentences[0].piece_length[{top}] < 0.25")
    after = {"previous": "After LayerNorm, the feed-forward layer and a second LayerNorm",
             "own": "After the feed-forward update"}.get(a.spec.placement.norm_before_q,
                                                         "After LayerNorm and the feed-forward layer")
    # X more than twice either update: the sums stay closer than the updates, said so
    twice = m["identical"] and e["x_length"][0] > 2 * max(e["length"][0], e["length"][1])
    added = (" Each is added at the tip of the same X, {data.entered.x_length[0]:.2f} long"
             + (", more than twice either update" if twice else "") + ", so "
             "the two sums have a cosine of {data.entered.sum_cos:.2f}." if m["identical"] else "")
    if twice:
        claims += [f"data.entered.x_length[0] / data.entered.length[{i}] > 2" for i in (0, 1)]
    nxt = (f" {after}, the two X entering layer {{data.layers[1]}} have a cosine of {{data.entered.x_next:.2f}}."
           if L > 1 else "")
    beats.append(Beat(
        "entered", ["entered"],
        "Layer {data.entered.layer}: what each sentence's neighbours add to X; the two updates have a cosine of "
        "{data.entered.cos:.2f}.",
        "So where does the difference come from? " + " ".join(sent_parts)
        + " Each token's values, weighted in every head and joined through the output matrix W O,"
          " are one piece of the update, plus a bias." + markers + " So attention adds two different updates,"
          " {data.entered.length[0]:.2f} and "
          "{data.entered.length[1]:.2f} long, with a cosine of {data.entered.cos:.2f} between "
          "them." + added + nxt,
        expect=claims + [_near("data.entered.cos", e["cos"]), "len(data.contexts) == 2"]))

    # layers ------------------------------------------------------------------------------
    if L > 1:
        below = all(round(cos[k][l], 2) < 1.0 for k in ("x", *QKV) for l in range(1, L))
        stops = sorted({1, L // 2, L - 1})
        said_layers = " ".join(
            f"Layer {{data.layers[{l}]}}: X at {{data.cos.x[{l}]:.2f}}, values at "
            f"{{data.cos.v[{l}]:.2f}}." for l in stops)
        beats.append(Beat(
            "layers", ["layers"],
            "Every layer uses one set of query, key and value matrices for both sentences.",
            "Now layer by layer. Each layer applies one set of matrices to both sentences, "
            + ("yet from layer {data.layers[1]} on the cosines of X, of the queries, the keys "
               "and the values all stay below one. " if below else
               "and the cosines of X, queries, keys and values move with X. ")
            + said_layers + " Since the matrices are shared, whatever separates the queries, "
            "keys and values came in through X.",
            expect=["len(data.summary.compared) == 4"]
            + ([f"data.cos.{k}[{l}] < 0.995" for k in ("x", *QKV) for l in range(1, L)]
               if below else [])))

    # compare -------------------------------------------------------------------------------
    lo_k, lo_l = min(((k, int(np.argmin(cos[k]))) for k in QKV),
                     key=lambda kl: cos[kl[0]][kl[1]])
    x_lo = float(min(cos["x"]))
    last_lo = min(QKV, key=lambda k: cos[k][L - 1])
    last_hi = max(QKV, key=lambda k: cos[k][L - 1])
    below_x = cos[lo_k][lo_l] < x_lo
    text = ("The {data.summary.lowest.name} come apart furthest, down to "
            "{data.summary.lowest.value:.2f} at layer {data.summary.lowest.layer}, "
            + ("further than X itself, which never falls below "
               "{data.summary.x_lowest.value:.2f}. " if below_x else
               "while X falls to {data.summary.x_lowest.value:.2f}. "))
    claims = [f"data.summary.lowest.layer == {lo_l}",
              _near("data.summary.lowest.value", cos[lo_k][lo_l]),
              _near(f"data.cos.{lo_k}[{lo_l}]", cos[lo_k][lo_l]),
              _near("data.summary.x_lowest.value", x_lo)]
    if lo_l != L - 1 and last_lo != last_hi:
        text += ("That is one layer, not a rule: at layer {data.summary.last_lowest.layer} it "
                 "is the {data.summary.last_lowest.name} that differ most, at "
                 "{data.summary.last_lowest.value:.2f}, and the "
                 "{data.summary.last_highest.name} are at {data.summary.last_highest.value:.2f}. ")
        claims += [_near(f"data.cos.{k}[{L - 1}]", cos[k][L - 1]) for k in QKV]
    text += ("Q, K and V can differ more or less than X, since a fixed matrix can stretch the "
             "difference between the X in some directions and shrink it in others, but the "
             "shared matrices cannot make a "
             f"difference from equal inputs: {said} offers something different in each sentence "
             "only because its X changed.")
    beats.append(Beat(
        "compare", ["compare"],
        "Lowest: {data.summary.lowest.name} at layer {data.summary.lowest.layer} "
        "({data.summary.lowest.value:.2f}); X's lowest {data.summary.x_lowest.value:.2f}.",
        text, expect=claims))
    notes = [f"lowest cosine: {lo_k} at layer {lo_l} ({cos[lo_k][lo_l]:.3f}) of {L} layers",
             f"layer 0 match: {m}"]
    return Draft(f"Same W, different X: {spoken_token(c.word)} in two sentences", beats,
                 notes=notes)
