"""`layerwise draft`: a storyboard chosen from the data of the traced sentence(s).

A course author names a model, a sentence and a word; the draft picks what is worth showing from
the trace (analysis.choices): the layers where the word's vector moves most, the head that
attends most from it, the layer from which the logit lens keeps the final prediction in its top
10. The narration says numbers only as placeholders (`{data.layers[27].rank:,}`), filled from the
plan at plan time, so they are true for the sentence; what the choice rests on is pinned by
`expect:` claims, so an edit that makes it false fails `layerwise plan` instead of lying. Every
draft is validated and planned before it is printed.

One function per template, `(Context) -> Draft`; templates whose scenes need something a
sentence does not have (special tokens for the sink chart, a word after the first token in a
decoder) refuse with one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .analysis.attention_depth import attention_rows, special_positions
from .analysis.choices import (CROSSING_TOP, lens_crossing, lens_ranks, moves_most, movement,
                               sink_positions, strongest_head)
from .analysis.context_qkv import QKV, context_qkv
from .analysis.lens_view import token_text
from .analysis.qkv import previous_token_score
from .analysis.qkv_causes import pattern_comparable
from .analysis.similarity import context_similarity
from .analysis.vectors import positions
from .errors import LayerwiseError
from .plans.bank_drift import _summary as drift_summary     # the dip and rebound it quotes
from .templates import TEMPLATES
from .trace import Trace

DEFAULT_TEMPLATE = {"decoder": "logit_lens", "encoder": "per_head"}
LENS_GRID_TOKENS = 5    # positions logit_lens's grid fits beside its key (854 px wide)
PER_HEAD_TOKENS = 9     # keys the per_head scene writes side by side (its PITCH x 9 fills 854 px)
SPACE_MARKS = ("\u0120", "\u2581")      # GPT-2 "Ġ", SentencePiece "▁" (a decoded space is " ")


class DraftError(LayerwiseError):
    """This template cannot be drafted from this model or sentence (the message says why)."""


@dataclass
class Beat:
    id: str
    show: list[str]
    caption: str
    narration: str
    layer: int | None = None
    head: int | None = None
    expect: list[str] = field(default_factory=list)


@dataclass
class Draft:
    title: str
    beats: list[Beat]
    layers: str | list[int] = "all"
    heads: str | list[int] | None = None
    notes: list[str] = field(default_factory=list)      # comment lines: what was chosen, why


@dataclass(frozen=True)
class Context:
    template: str
    model: str                  # as the storyboard names it (a built-in name or an absolute path)
    traces: tuple[Trace, ...]
    focus: str                  # `bank` or `bank#2`

    @property
    def trace(self) -> Trace:
        return self.traces[0]

    @property
    def pos(self) -> list[int]:
        return positions(self.trace, self.focus)

    @property
    def said(self) -> str:
        """The focus word as narration writes it, in quotes."""
        return quoted(self.word)

    @property
    def word(self) -> str:
        """The focus word as the first sentence spells it."""
        t = self.trace
        p = self.pos
        a, b = t.meta["offsets"][p[0]][0], t.meta["offsets"][p[-1]][1]
        name = self.focus.partition("#")[0]
        text = t.sentence[a:b].strip()
        return text if text.lower() == name.lower() else name


def spoken_token(token: str) -> str:
    """A token as narration writes it: without the space it carries ("Ġriver", " river")."""
    for mark in SPACE_MARKS:
        if token.startswith(mark) and len(token) > len(mark):
            token = token[len(mark):]
    return token.strip() or token


def quoted(token: str) -> str:
    return f"\u201c{spoken_token(token)}\u201d"


# --- templates -------------------------------------------------------------------------------

def draft_logit_lens(c: Context) -> Draft:
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


def draft_per_head(c: Context) -> Draft:
    """The per_head storyboard (layer, head) of the strongest head from the focus word, its one
    row worked through: query, keys, dot products, scaling, softmax, values, its whole matrix;
    the diagonal and the layer's grid when that head is the layer's previous-token head (the
    scene's diagonal and grid name the strongest previous-token head of the layer)."""
    t, word, pos, spec = c.trace, c.word, c.pos, c.trace.spec
    said = c.said
    if len(pos) != 1:
        raise DraftError(f"per_head: {word!r} is {len(pos)} tokens "
                         f"({' '.join(repr(t.tokens[p]) for p in pos)}); one head's attention is "
                         f"worked through for one token: choose a word that is one token")
    if len(t.tokens) > PER_HEAD_TOKENS:
        raise DraftError(f"per_head: the sentence is {len(t.tokens)} tokens; the scene writes "
                         f"every token's key side by side, at most {PER_HEAD_TOKENS} "
                         f"(choose a shorter sentence)")
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
    shared = ("" if spec.n_kv_heads == spec.n_heads else
              " In this model the keys and values are shared: {data.shape.n_kv_heads} key and "
              "value heads serve the {data.shape.n_heads} query heads.")
    beats = [
        Beat("heads", ["heads", "x"],
             "Layer {layers[0]} has {data.shape.n_heads} heads, each with its own W_Q, W_K "
             "and W_V.",
             "One layer of attention is really {data.shape.n_heads} heads side by side, each "
             "with its own query, key and value matrices, learned separately." + shared
             + f" All of them read the same X: the vector of {said}, "
               f"{{data.shape.d_model}} numbers, goes into every head."),
        Beat("query", ["query", "keys"],
             f"Head {{beat.head}}: a query for '{word}', a key for every token.",
             f"Of every head in every layer, head {{beat.head}} of layer {{layers[0]}} puts the "
             f"most attention from {said} on one other {kind}. Its query matrix turns the X of "
             f"{said} into a query of {{data.shape.d_head}} numbers; here are the first "
             f"{{data.show}}. Its key matrix turns every token's X into a key, in the same way.",
             head=h, expect=top_claim),
        Beat("scores", ["dots", "scale"],
             f"The query of '{word}' against every key: dot products, divided by "
             "√{data.shape.d_head}.",
             f"Now the query meets every key: multiply them entry by entry and add up all "
             f"{{data.shape.d_head}} products. The key of {tok} gives the largest, "
             f"{{{p}.top.dot:.1f}}. Each dot product is then divided by the square root of "
             f"{{data.shape.d_head}}, {{data.scale:.2f}}: these are the model's attention "
             f"scores.", head=h, expect=top_claim),
        Beat("softmax", ["softmax"],
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
        "Each token also offers a value, made by the head's value matrix. Every value is "
        "scaled by its weight, and the scaled values are added up. "
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
        + (" Every row puts its weight on the token just before it: "
           "{data.layers[0].prev.score:.2f} on average over the {data.layers[0].prev.rows} "
           "tokens that have one. It is a previous-token head, by position, not by meaning."
           if is_prev else ""),
        head=h, expect=[f"data.layers[0].prev.head == {h}", "data.layers[0].prev.score > 0.5"]
        if is_prev else []))
    if is_prev:
        beats.append(Beat(
            "grid", ["grid"],
            "Every head of layer {layers[0]} has its own matrix; only head "
            "{data.layers[0].prev.head} looks one back.",
            "Every head has its own matrix. The others spread their attention differently: "
            "none gives more than {data.layers[0].prev.next_best:.2f}, on average, to the "
            "token just before.", expect=[f"data.layers[0].prev.head == {h}"]))
    return Draft(f"'{word}', one head worked through", beats, layers=[l], heads="all",
                 notes=notes)


def draft_attention_depth(c: Context) -> Draft:
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


def draft_bank_drift(c: Context) -> Draft:
    word, traces = c.word, c.traces
    said = c.said
    focus = [c.focus] * len(traces)
    sim = context_similarity(list(traces), focus)
    raw = np.asarray(sim["raw"][0])                 # pair (0, 1): the curve the plan quotes
    base = np.asarray(sim["baseline"])
    drop = raw[:-1] - raw[1:]
    s = int(np.argmax(drop))                        # the state before the biggest fall
    sm = drift_summary(raw.tolist())
    n = len(traces)
    same0 = abs(raw[0] - 1) <= 1e-6
    beats = [Beat(
        "raw", ["similarity"],
        f"Cosine between '{word}' in the first sentence and in each of the others, after "
        f"every layer.",
        f"Take the word {said} in {{len(sentences)}} sentences. After every layer we measure the "
        f"cosine between its vector in the first sentence and its vector in each of the others. "
        + ("At the embedding, the first sentence's and the next one's are the very same "
           "vector." if same0 else
           "At the embedding, the first sentence's and the next one's start at a cosine of "
           "{data.curves[0].raw[0]:.2f}."),
        expect=[f"len(sentences) == {n}"]
        + (["data.curves[0].raw[0] ~= 1 ± 0.000001"] if same0 else []))]
    above = raw[-1] - base[-1] > 0
    beats.append(Beat(
        "baseline", ["similarity"],
        "Subtract what any pair of different words shares.",
        "A raw cosine flatters, because even unrelated words point somewhat alike: up to "
        "{max(data.similarity.baseline):.2f} in this model. So we measure that baseline at "
        "every layer and subtract it. At the output, " + said + " in the next sentence ends "
        "{data.curves[0].adjusted[-1]:.2f} " + ("above" if above else "below") + " it.",
        expect=["max(data.similarity.baseline) > 0",
                f"data.curves[0].adjusted[-1] {'>' if above else '<='} 0"]))
    beats.append(Beat(
        "drift", ["projection"],
        "The same vectors on one PCA plane, every layer of every sentence.",
        "Here are the vectors themselves, flattened onto one plane fitted to every layer of "
        "every sentence. Each dot is one layer; the plane keeps "
        "{data.projection.explained_percent[0] + data.projection.explained_percent[1]:.0f} "
        "percent of their spread, so part of what separates them is out of this view."))
    text = (f"In {{model.display}}, the cosine between {said} in the first sentence and in the "
            "next starts at {data.curves[0].raw[0]:.2f} and ends at "
            "{data.curves[0].raw[-1]:.2f}.")
    expect = []
    if drop[s] > 0:
        text += (f" The biggest fall comes in layer {{data.states[{s}].layer}}, which takes it "
                 f"from {{data.curves[0].raw[{s}]:.2f}} to {{data.curves[0].raw[{s + 1}]:.2f}}.")
        expect.append(f"data.curves[0].raw[{s}] - data.curves[0].raw[{s + 1}] > 0")
    if not sm["monotonic"] and sm["rebounds"]:
        d, r = sm["dip"], sm["rebound"]
        text += (f" It is not a steady fall: down to {{data.curves[0].raw[{d}]:.2f}} where layer "
                 f"{{data.states[{d}].layer}} begins, back up to {{data.curves[0].raw[{r}]:.2f}} "
                 f"where layer {{data.states[{r}].layer}} begins.")
        expect += [f"data.summary.dip == {d}", f"data.summary.rebound == {r}",
                   f"data.curves[0].raw[{r}] - data.curves[0].raw[{d}] > 0"]
    beats.append(Beat("measured", ["measured"],
                      f"Measured here: how far the '{word}' vectors drift apart.",
                      text, expect=expect))
    notes = [f"cosine of {word!r}, sentence 0 vs 1, per state (embedding .. output): "
             f"{[round(float(v), 3) for v in raw]}; biggest fall: in layer {s} (X^({s}) -> "
             f"X^({s + 1}))"]
    return Draft(f"'{word}' in {n} sentences, layer by layer", beats, notes=notes)


def draft_context_qkv(c: Context) -> Draft:
    a, b = c.traces
    word = c.word
    said = c.said
    pa, pb = positions(a, c.focus), positions(b, c.focus)
    cos = context_qkv(a, pa, b, pb)
    L = a.n_layers
    same_id = [a.meta["token_ids"][p] for p in pa] == [b.meta["token_ids"][p] for p in pb]
    one = all(abs(cos[k][0] - 1) <= 1e-6 for k in ("x", *QKV))
    first = ("It is the same token in both" + (", in the same position." if pa == pb else ".")
             if same_id else "It is not the same token sequence in both sentences.")
    beats = [Beat(
        "sentences", ["sentences"],
        "One word, two sentences.",
        f"Here is the word {said} in two sentences. {first}",
        expect=["len(data.contexts) == 2"])]
    if one:
        beats.append(Beat(
            "same", ["same"],
            "Layer {data.layers[0]}: the same X meets the same W, so Q, K and V are one vector.",
            f"At layer {{data.layers[0]}} nothing has been mixed in yet. In both sentences {said} "
            f"enters with the very same X, and the layer multiplies it by the very same "
            f"matrices, so its queries, keys and values are identical: every cosine is one.",
            expect=[f"data.cos.{k}[0] ~= 1 ± 1e-6" for k in ("x", *QKV)]))
    else:
        beats.append(Beat(
            "same", ["same"],
            "Layer {data.layers[0]}: X already differs between the sentences.",
            f"At layer {{data.layers[0]}} {said} already differs between the sentences, a "
            f"cosine of {{data.cos.x[0]:.2f}} between the two X, so its queries, keys and "
            f"values differ too, although the matrices are the same."))
    beats.append(Beat(
        "layers", ["layers"],
        "Same W, different X: layer by layer, how alike are X, Q, K and V?",
        f"From layer {{data.layers[1]}} on, attention mixes {said} in each sentence with its own "
        f"neighbours. Both sentences still meet the very same matrices in every layer, so "
        f"whatever separates their queries, keys and values came in through X."))
    lo = min(((k, int(np.argmin(cos[k]))) for k in QKV), key=lambda kl: cos[kl[0]][kl[1]])
    name = {"q": "queries", "k": "keys", "v": "values"}[lo[0]]
    beats.append(Beat(
        "compare", ["compare"],
        f"The {name} come apart most, at layer {{data.summary.lowest.layer}}.",
        f"The {name} drift furthest apart, down to a cosine of "
        f"{{data.summary.lowest.value:.2f}} at layer {{data.summary.lowest.layer}}, while X "
        f"itself never falls below {{data.summary.x_lowest.value:.2f}}.",
        expect=[f"data.summary.lowest.layer == {lo[1]}",     # and it is the {name}'s:
                f"data.summary.lowest.value ~= {cos[lo[0]][lo[1]]:.4f} ± 0.001",
                f"data.cos.{lo[0]}[{lo[1]}] ~= {cos[lo[0]][lo[1]]:.4f} ± 0.001"]))
    notes = [f"lowest cosine: {lo[0]} at layer {lo[1]} ({cos[lo[0]][lo[1]]:.3f}) of {L} layers"]
    return Draft(f"Context enters Q, K and V of '{word}'", beats, notes=notes)


def draft_fresh_qkv(c: Context) -> Draft:
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


def draft_residual_stream(c: Context) -> Draft:
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
             f"as {{data.n_tokens}} tokens. We follow one token, {tok}."),
        Beat("embedding", ["x"],
             "X⁽⁰⁾: the embedding of " + tok,
             "Before the first layer, the stream X of " + tok + " is its embedding: "
             "{model.d_model} numbers, with a length of {data.summary.norm_first.value:.2f}. "
             "Layer l reads X of l and writes X of l plus one.",
             layer=0, expect=["data.stages[0].index == 0"]),
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
             "rest points out of it."),
    ]
    sizes = ("The bars give the lengths. X goes from {data.summary.norm_first.value:.2f} to "
             "{data.summary.norm_last.value:.2f}.")
    big = _outlier(t, pos[0])
    if big is not None:
        sizes += (f" One token is different: {quoted(t.tokens[big])} grows to "
                  f"{{data.outlier.max_norm.value:,.0f}}. We leave it out of these pictures.")
    beats.append(Beat("sizes", ["sizes"], "The lengths, on one linear scale", sizes,
                      expect=[f"data.outlier.position == {big}"] if big is not None else []))
    if additive:
        beats.append(Beat(
            "identity", ["identity"],
            "X⁽" + _superscript(L) + "⁾ = X⁽⁰⁾ + {data.check.n_updates} updates",
            "And nothing else ever changes X. The embedding plus the {data.check.n_updates} "
            "updates is X of {model.n_layers}, within {data.identity.bound.bound} in every "
            "entry.", expect=[f"model.n_layers == {L}", "data.stages[0].index == 0",
                              "data.check.max_error_total < 0.0001"]))
    notes = [f"followed token {t.tokens[pos[0]]!r} (position {pos[0]}); |X^(l+1) - X^(l)| / "
             f"|X^(l)| per layer: {[round(r, 3) for r in rel]}; moved most of layers "
             f"1..{L - 2}: {m}"]
    return Draft(f"The residual stream of '{word}'", beats, notes=notes)


def _outlier(t: Trace, token: int) -> int | None:
    """The outlier token the residual_stream plan names (None: none, or the one followed)."""
    from .analysis.updates import outlier_token
    from .plans.residual_stream import OUTLIER_FACTOR
    out = outlier_token(t, OUTLIER_FACTOR)
    return None if out is None or out["position"] == token else out["position"]


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


DRAFTS: dict[str, Callable[[Context], Draft]] = {
    "logit_lens": draft_logit_lens,
    "per_head": draft_per_head,
    "attention_depth": draft_attention_depth,
    "bank_drift": draft_bank_drift,
    "context_qkv": draft_context_qkv,
    "fresh_qkv": draft_fresh_qkv,
    "residual_stream": draft_residual_stream,
}


# --- checks before any trace, and the YAML -----------------------------------------------------

def choose_template(template: str | None, kind: str, model: str, n_sentences: int) -> str:
    """The template to draft (the kind's default when None); DraftError when it does not fit
    the model kind, has no drafter, or needs another number of sentences."""
    fits = [n for n, t in TEMPLATES.items() if kind in t.kinds and n in DRAFTS]
    if kind not in DEFAULT_TEMPLATE:
        raise DraftError(f"{model} is {a_kind(kind)} model; draft writes storyboards for encoder "
                         f"and decoder models")
    if template is None:
        template = DEFAULT_TEMPLATE[kind]
    if template not in TEMPLATES:
        raise DraftError(f"unknown template {template!r}; for {a_kind(kind)} model: "
                         f"{', '.join(fits) or 'none'}")
    t = TEMPLATES[template]
    if kind not in t.kinds:
        raise DraftError(f"template {template!r} needs a {'/'.join(sorted(t.kinds))} model; "
                         f"{model} is {a_kind(kind)}" + (f" (for {a_kind(kind)}: {', '.join(fits)})"
                                                   if fits else ""))
    if template not in DRAFTS:
        raise DraftError(f"template {template!r} has no draft; drafts: {', '.join(DRAFTS)}")
    if n_sentences < t.min_sentences:
        raise DraftError(f"template {template!r} compares {t.min_sentences} or more sentences; "
                         f"give --sentence {t.min_sentences} times")
    if t.max_sentences is not None and n_sentences > t.max_sentences:
        raise DraftError(f"template {template!r} takes at most {t.max_sentences} sentence"
                         f"{'s' if t.max_sentences > 1 else ''}, got {n_sentences}")
    return template


def check_focus(traces: list[Trace], focus: str) -> None:
    """The focus word in every sentence, as whole tokens; else one line listing the tokens."""
    for t in traces:
        if not positions(t, focus):        # a word the tokenizer dropped (positions raises
            raise DraftError(            # WordNotFoundError when it is not in the sentence)
                f"--focus {focus!r} has no token in {t.sentence!r}; tokens: "
                f"{' '.join(repr(s) for s in t.tokens)}")


def a_kind(kind: str) -> str:
    """"an encoder", "a decoder", "a toy"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)      # a JSON string is a YAML double-quoted one


def _flow(items) -> str:
    return "[" + ", ".join(str(i) if isinstance(i, int) else i for i in items) + "]"


def to_yaml(c: Context, d: Draft, command: str) -> str:
    sents = [t.sentence for t in c.traces]
    lines = [f"# Drafted by `{command}`.",
             "# Chosen from this trace (what each choice rests on is an `expect:` claim, so an",
             "# edit that makes it false fails `layerwise plan`; numbers in the narration are",
             "# placeholders, filled from the plan):"]
    lines += [f"#   {n}" for n in d.notes]
    lines += [f"template: {c.template}", f"title: {_q(d.title)}", f"model: {_q(c.model)}",
              "sentences:"] + [f"  - {_q(s)}" for s in sents]
    lines.append(f"focus: {_q(c.focus)}")
    lines.append(f"layers: {d.layers if isinstance(d.layers, str) else _flow(d.layers)}")
    if d.heads is not None:
        lines.append(f"heads: {d.heads if isinstance(d.heads, str) else _flow(d.heads)}")
    lines.append("beats:")
    for b in d.beats:
        lines.append(f"  - id: {b.id}")
        lines.append(f"    show: {_flow(b.show)}")
        if b.layer is not None:
            lines.append(f"    layer: {b.layer}")
        if b.head is not None:
            lines.append(f"    head: {b.head}")
        lines.append(f"    caption: {_q(b.caption)}")
        lines.append(f"    narration: {_q(b.narration)}")
        if b.expect:
            lines.append("    expect:")
            lines += [f"      - {_q(e)}" for e in b.expect]
    return "\n".join(lines) + "\n"


def draft(template: str, model: str, traces: list[Trace], focus: str, command: str) -> str:
    """The storyboard YAML of `template` for `traces` (one per sentence) of `model`."""
    check_focus(traces, focus)
    c = Context(template, model, tuple(traces), focus)
    return to_yaml(c, DRAFTS[template](c), command)


def checked(text: str, template: str, cache_dir: Path | None, where: Path) -> None:
    """Validate and plan a draft (placeholders filled, claims checked); nothing is written.
    A draft that does not validate or plan is one DraftError line (its first problem)."""
    from .errors import StoryboardError
    from .plans import prepare_plan
    from .storyboard.schema import validate_text
    try:
        prepare_plan(validate_text(text, where), cache_dir)
    except StoryboardError as e:
        first = e.problems[0].removeprefix(f"{where}:").partition(": ")[2]
        more = f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else ""
        raise DraftError(f"the {template} draft does not plan for this sentence: "
                         f"{first}{more}") from None


__all__ = ["DRAFTS", "DEFAULT_TEMPLATE", "DraftError", "a_kind", "checked", "choose_template",
           "draft"]
