"""The attention_depth draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_depth import attention_rows, special_positions
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError, quoted

def build(c: Context) -> Draft:
    t, word, pos = c.trace, c.word, c.pos
    said = c.said
    if len(pos) != 1:
        raise DraftError(f"attention_depth: {word!r} is {len(pos)} tokens "
                         f"({[t.tokens[p] for p in pos]}); its arcs start at one token")
    special = special_positions(t)
    if not special:
        raise DraftError(f"attention_depth: {t.model} adds no special tokens to this sentence "
                         f"(tokens: {' '.join(repr(s) for s in t.tokens)}), and the template's "
                         f"sink chart measures the share on them; try per_head")
    f = pos[0]
    rows = attention_rows(t, pos)
    others = [j for j in range(len(t.tokens)) if j != f]
    top0 = max(others, key=lambda j: rows["mean"][0][j])
    sink = rows["sink"]
    names = " and ".join(t.tokens[j] for j in special)
    beats = [Beat(
        "arcs", ["arcs"],
        f"Layer {{data.layers[0].layer}}: where '{word}' looks, averaged over its "
        f"{{data.n_heads}} heads.",
        f"Here is where {said} looks at layer {{data.layers[0].layer}}, averaged over all "
        f"{{data.n_heads}} heads. The thicker the arc, the more attention. The heaviest goes "
        f"to {quoted(t.tokens[top0])}, with {{data.layers[0].top.weight:.2f}}.",
        expect=[f"data.layers[0].top.pos == {top0}"])]
    most = max(sink) > 0.5
    low, L = int(np.argmin(sink)), t.n_layers
    beats.append(Beat(
        "depth", ["depth"],
        f"Layer by layer the arcs move; the share on {names} is measured at every layer.",
        "Now watch the same row layer by layer. "
        + (f"At layer {{data.sink.max.layer}} most of it, {{data.sink.max.value:.2f}}, lands on "
           f"{names}." if most else
           f"The share on {names} is highest at layer {{data.sink.max.layer}}: "
           f"{{data.sink.max.value:.2f}}."),
        expect=[f"len(data.special) == {len(special)}"]
        + (["data.sink.max.value > 0.5"] if most else [])))
    beats.append(Beat(
        "sink", ["sink"],
        f"The share on {names}, measured at every layer.",
        f"A large share on {names} is a sink: a place to park attention when there is little "
        f"to gather. "
        + ("The share is lowest at the last layer, {data.sink.last:.2f}." if low == L - 1 else
           "The share is lowest at layer {data.sink.min.layer}, {data.sink.min.value:.2f}, "
           "and {data.sink.last:.2f} at the last layer."),
        expect=[f"data.sink.min.layer == {low}"]))
    prev = np.asarray(rows["prev_token"])
    hl, hh = (int(i) for i in np.unravel_index(np.argmax(prev), prev.shape))
    text = ("The average hides the heads. Here is layer {data.heads.layer}, head by head. "
            "Head {data.heads.prev.head} gives, on average, {data.heads.prev.score:.2f} of "
            "each token's attention to the token just before it")
    expect = [f"data.heads.layer == {hl}", f"data.heads.prev.head == {hh}"]
    looks_back = prev[hl, hh] > 0.5
    if looks_back and f > 0 and rows["heads"][hl][hh][f - 1] > 0.5:
        text += f", so for {said} it lands on {quoted(t.tokens[f - 1])}"
        expect.append("data.heads.prev.weight_before > 0.5")
    text += ". No other head of any layer comes above {data.heads.prev.next_best:.2f}."
    if looks_back:
        expect.append("data.heads.prev.score > 0.5")
    beats.append(Beat(
        "heads", ["heads"],
        "Layer {data.heads.layer}, head by head"
        + (": head {data.heads.prev.head} looks one token back." if looks_back else "."),
        text, expect=expect))
    notes = [f"the arcs start at {t.tokens[f]!r} (position {f}); the sink: "
             f"{[t.tokens[j] for j in special]}; the plan picks the heads' layer ({hl}: the "
             f"strongest previous-token head, {hh})"]
    return Draft(f"Where '{word}' looks, layer by layer", beats, notes=notes)
