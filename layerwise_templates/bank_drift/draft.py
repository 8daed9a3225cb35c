"""The bank_drift draft: `build(Context) -> Draft` (see `layerwise_core.drafts`)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.similarity import context_similarity
from .plan import drift_summary     # the dip and rebound it quotes
from layerwise_core.drafts.base import Beat, Context, Draft

def build(c: Context) -> Draft:
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
        "percent of their spread, so part of what separates them is out of this view.",
        moments={"each_layer": "one layer", "choice": "the plane keeps",
                 "separation": "what separates", "flat_view": "out of this view"}))
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
    # the run along the curve stops at the dip and the rebound as they are named; without
    # them, at the sentence that says most about the fall
    later = "biggest fall" if drop[s] > 0 else "ends at"
    steady = not sm["monotonic"] and sm["rebounds"]
    moments = {"river": "first sentence", "money": "the next", "start": "starts at",
               "end": "ends at", "dip": "down to" if steady else later,
               "come_back": "back up" if steady else later,
               "output": "begins#2" if steady else later}
    beats.append(Beat("measured", ["measured"],
                      f"Measured here: how far the '{word}' vectors drift apart.",
                      text, expect=expect, moments=moments))
    notes = [f"cosine of {word!r}, sentence 0 vs 1, per state (embedding .. output): "
             f"{[round(float(v), 3) for v in raw]}; biggest fall: in layer {s} (X^({s}) -> "
             f"X^({s + 1}))"]
    return Draft(f"'{word}' in {n} sentences, layer by layer", beats, notes=notes)
