"""The logit_lens draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.choices import CROSSING_TOP, lens_crossing, lens_ranks
from layerwise_core.analysis.lens_view import token_text
from layerwise_core.drafts.base import Beat, Context, Draft, quoted

LENS_GRID_TOKENS = 5    # positions logit_lens's grid fits beside its key (854 px wide)


def build(c: Context) -> Draft:
    t, word = c.trace, c.word
    said = c.said
    pos = c.pos[-1]                                 # the plan reads the word's last token
    L = t.n_layers
    ranks = lens_ranks(t, pos)
    cross = lens_crossing(t, pos)
    answer_id = int(t["lens.resid_post.final_ids"][pos])
    answer = quoted(token_text(t, answer_id))
    k = CROSSING_TOP
    notes = [f"final prediction after {word!r}: {answer} (token id {answer_id})",
             f"lens rank of it after each layer: {ranks}",
             f"layer {cross}: from here on it stays in the top {k}"
             + (" (it always was)" if cross == 0 else "")]
    beats = []
    if cross >= 2:                                  # its worst rank before the crossing
        far = int(np.argmax(ranks[:cross - 1]))
        beats.append(Beat(
            "far", ["lens"],
            f"After layer {{beat.layer}}: {answer} is at rank {{data.layers[{far}].rank:,}}.",
            f"Take the stream of {said} after layer {{beat.layer}} and push it through the "
            f"model's final norm and unembedding, as if the network stopped there. The model's "
            f"final answer, {answer}, is down at rank {{data.layers[{far}].rank:,}}.",
            layer=far, expect=[f"data.layers[{far}].rank > {k}"]))
        notes.append(f"layer {far}: its worst rank in layers 0..{cross - 2}")
    if cross >= 1:
        b = cross - 1
        intro = "" if beats else (f"Take the stream of {said} after layer {{beat.layer}} and "
                                  f"decode it with the model's final norm and unembedding. ")
        beats.append(Beat(
            "before", ["lens"],
            f"After layer {{beat.layer}}: {answer} is still outside the top {k}.",
            intro + f"After layer {{beat.layer}}, the final answer {answer} is still outside "
                    f"the top {k}, at rank {{data.layers[{b}].rank:,}}.",
            layer=b, expect=[f"data.layers[{b}].rank > {k}"]))
    if cross < L - 1:
        if cross == 0:
            text = (f"Decode the stream of {said} after layer {{beat.layer}} with the model's "
                    f"final norm and unembedding: the final answer, {answer}, is already at "
                    f"rank {{data.layers[0].rank}}, and it stays in the top {k} at every layer.")
        else:
            text = (f"One layer later it is in, at rank {{data.layers[{cross}].rank}}, and it "
                    f"stays in the top {k} up to the last layer.")
        beats.append(Beat(
            "enters", ["lens"],
            f"After layer {{beat.layer}}: {answer} enters the top {k}, and stays there."
            if cross else f"After layer {{beat.layer}}: {answer} is already in the top {k}.",
            text, layer=cross,
            expect=[f"data.layers[{cross}:].rank <= {k}"]))
    last_text = (f"At the last layer the lens is simply the model's own output, and {answer} "
                 f"wins with {{data.layers[{L - 1}].prob:.0%}} of the probability.")
    if cross == L - 1:
        last_text = "Only at the last layer does it come in. " + last_text
    beats.append(Beat("last", ["lens"],
                      f"The last layer is the model's output: {answer} on top.",
                      last_text, layer=L - 1,
                      expect=[f"data.answer.id == {answer_id}",
                              f"data.layers[{L - 1}].rank == 1"]))
    # the scene opens the lens on one column, then runs one bar chart of its top guesses on
    # from layer to layer (`race`; a second lens column is not kept on screen)
    for b in beats[1:]:
        b.show = ["race"]
    beats[1].narration = ("Now read the lens after every layer, as one chart of its top "
                          "{data.top_k} guesses that changes with depth. " + beats[1].narration)
    if len(t.tokens) <= LENS_GRID_TOKENS:
        beats.append(Beat(
            "grid", ["grid"],
            "The top guess at every position, for a selection of layers.",
            "Here is the lens's top guess at every position, for a selection of layers. A "
            "highlighted cell already matches the model's final output at that position; the "
            "last row is the output itself."))
    else:
        notes.append(f"left out: the grid of every position (the scene fits "
                     f"{LENS_GRID_TOKENS} tokens beside its key; this sentence is "
                     f"{len(t.tokens)})")
    if cross >= 1:
        before = ("After layer {data.layers[0].layer} its rank is {data.layers[0].rank:,}"
                  if cross == 1 else
                  f"Up to layer {{data.layers[{cross - 1}].layer}} its rank stays between "
                  f"{{min(data.layers[0:{cross}].rank):,}} and "
                  f"{{max(data.layers[0:{cross}].rank):,}}")
        rank_text = (f"Follow {answer} alone. {before}; from layer "
                     f"{{data.layers[{cross}].layer}} on it is in the top {k}, and at the end "
                     f"it is first.")
        expect = [f"data.layers[{cross - 1}].rank > {k}", f"data.layers[{cross}:].rank <= {k}"]
    else:
        rank_text = (f"Follow {answer} alone: its rank after every layer is never worse than "
                     f"{{max(data.layers[0:].rank)}}, and first at the end.")
        expect = [f"data.layers[0:].rank <= {k}"]
    beats.append(Beat("rank", ["rank"],
                      f"The rank of {answer} after every layer (log scale, 1 = top).",
                      rank_text, expect=expect + ["data.layers[-1].rank == 1"]))
    return Draft(f"Logit lens: when {answer} comes into view", beats, notes=notes)
