"""The logit_lens draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.choices import CROSSING_TOP, lens_crossing, lens_ranks
from layerwise_core.analysis.lens_view import token_text
from layerwise_core.drafts.base import Beat, Context, Draft, quoted

WHY = ("This last part needs a decoder: the model is trained to predict the next token "
       "from its final state, so any earlier state can be read the same way. ")


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
            f"One state read through the output layer: {answer} at rank "
            f"{{data.layers[{far}].rank:,}}.",
            WHY + f"Take X {{data.layers[{far}].state}}, the state of {said} that layer "
            f"{{beat.layer}} wrote, and push it through the model's final RMSNorm, the "
            f"unembedding and softmax, as if the network stopped there: the logit lens, named "
            f"by nostalgebraist. A token's rank is its "
            f"place among all the tokens, best first: the model's final answer, {answer}, "
            f"is down at rank "
            f"{{data.layers[{far}].rank:,}}.",
            layer=far, expect=[f"data.layers[{far}].rank > {k}"]))
        notes.append(f"layer {far}: its worst rank in layers 0..{cross - 2}")
    if cross >= 1:
        b = cross - 1
        intro = "" if beats else (WHY + f"Take X {{data.layers[{b}].state}}, the state of "
                                  f"{said} that layer {{beat.layer}} wrote, and decode it with "
                                  f"the model's final RMSNorm and unembedding: the logit lens, "
                                  f"named by nostalgebraist. A token's rank "
                                  f"is its place among all the tokens, best first. ")
        beats.append(Beat(
            "before", ["lens"],
            f"{answer} is still outside the top {k}, at rank {{data.layers[{b}].rank:,}}.",
            intro + f"At X {{data.layers[{b}].state}} the final answer {answer} is still "
                    f"outside the top {k}, at rank {{data.layers[{b}].rank:,}}.",
            layer=b, expect=[f"data.layers[{b}].rank > {k}"]))
    if cross < L - 1:
        if cross == 0:
            text = (WHY + f"Decode X {{data.layers[0].state}}, the state of {said} that layer "
                    f"{{beat.layer}} wrote, with the model's final RMSNorm and unembedding (the "
                    f"logit lens, named by nostalgebraist): the "
                    f"final answer, {answer}, is already at rank {{data.layers[0].rank}}, and "
                    f"it stays in the top {k} at every state.")
        else:
            text = (f"One layer later it is in, at rank {{data.layers[{cross}].rank}}, and it "
                    f"stays in the top {k} up to the last layer.")
        beats.append(Beat(
            "enters", ["lens"],
            f"{answer} enters the top {k}, and stays there."
            if cross else f"{answer} is already in the top {k}.",
            text, layer=cross,
            expect=[f"data.layers[{cross}:].rank <= {k}"]))
    last_text = (f"The last state is the model's own output, so here the lens is exact: "
                 f"{answer} wins with {{data.layers[{L - 1}].prob:.2f}} of the probability.")
    if cross == L - 1:
        last_text = "It comes in only at the last state. " + last_text
    beats.append(Beat("last", ["lens"],
                      f"The last state is the model's output: {answer} on top.",
                      last_text, layer=L - 1,
                      expect=[f"data.answer.id == {answer_id}",
                              f"data.layers[{L - 1}].rank == 1"]))
    # the scene opens the lens on one column, then runs one bar chart of its top guesses on
    # from layer to layer (`race`; a second lens column is not kept on screen)
    for b in beats[1:]:
        b.show = ["race"]
    beats[1].narration = ("Now read the lens again from X {data.layers[0].state}, state after "
                          "state (one in {data.grid.every} when the run is long), as one chart of its top {data.top_k} guesses; each token keeps its bar, and the bar slides "
                          "when the token changes place. " + beats[1].narration)
    notes.append("one sentence: the multi-prompt summary (beat `prompts`) needs more; add "
                 "sentences (and a focus per sentence) to the storyboard")
    if cross >= 1:
        before = ("At X {data.layers[0].state} its rank is {data.layers[0].rank:,}"
                  if cross == 1 else
                  f"Up to X {{data.layers[{cross - 1}].state}} its rank stays between "
                  f"{{min(data.layers[0:{cross}].rank):,}} and "
                  f"{{max(data.layers[0:{cross}].rank):,}}")
        rank_text = (f"Follow {answer} alone, on a log scale with rank 1 at the top. {before}; "
                     f"from X {{data.layers[{cross}].state}} on it is in the top {k}, and at "
                     f"the end it is first.")
        expect = [f"data.layers[{cross - 1}].rank > {k}", f"data.layers[{cross}:].rank <= {k}"]
    else:
        rank_text = (f"Follow {answer} alone: its rank at every state is never worse than "
                     f"{{max(data.layers[0:].rank)}}, and first at the end.")
        expect = [f"data.layers[0:].rank <= {k}"]
    if L >= 3:        # its probability over the last three states, as numbers (not "takes off")
        rank_text += (" Its probability is " + ", ".join(
            f"{{data.layers[{l}].prob:.3f}} at X {{data.layers[{l}].state}}"
            for l in range(L - 3, L)) + ".")
    beats.append(Beat("rank", ["rank"],
                      f"The rank of {answer} at every state (log scale, 1 = top).",
                      rank_text, expect=expect + ["data.layers[-1].rank == 1"]))
    return Draft(f"Logit lens: when {answer} comes into view", beats, notes=notes)
