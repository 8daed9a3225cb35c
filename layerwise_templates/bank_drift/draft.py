"""The bank_drift draft: `build(Context) -> Draft` (see `layerwise_core.drafts`).

It tells the shipped story for the sentences it is given: every sentence's curve against the
first (start and end, said), the baseline subtracted, the gap between the curve that ends
highest and the one that ends lowest (on the same chart), then the PCA plane, where the
distances between the ends are said for the same pairs in the plane and in the full space,
and the answer on the gap's chart, then on the plane (round 40 cut the move's split into the
part all share and each one's own). It does not know the senses:
it says which sentence ends nearest the first and that the gap is the sense signal only if
that one uses the word in the first sentence's sense."""

from __future__ import annotations

import numpy as np

from layerwise_core.drafts.base import Beat, Context, Draft
from layerwise_core.voice.spoken import integer_words
from . import moments as M
from .plan import ONE_PATH, SMALL_GAP, build_numbers


def build(c: Context) -> Draft:
    word, said = c.word, c.said
    n = len(c.traces)
    d = build_numbers(list(c.traces), [c.focus] * n)
    L = len(d["base"]) - 1
    K = n - 1                                   # curves: sentence 1 against each other
    nth = ["first", "second", "third", "fourth", "fifth"]      # said, not numbered
    ends = []
    same_start = []             # curves whose word has the first sentence's token and position
    for k in range(K):
        start = d["curves"][k]["raw"][0]
        if abs(start - 1) <= 0.005:
            same_start.append(k)
            ends.append(f"The {nth[k + 1]} sentence's starts at {{data.curves[{k}].raw[0]:.2f}}: "
                        "the same token at the same position gives the same X zero. It ends at "
                        f"{{data.curves[{k}].raw[-1]:.2f}}.")
        else:
            ends.append(f"The {nth[k + 1]} sentence's starts at {{data.curves[{k}].raw[0]:.2f}}, "
                        f"at position {{data.contexts[{k + 1}].positions[0]}}, and ends at "
                        f"{{data.curves[{k}].raw[-1]:.2f}}.")
    beats = [Beat(
        "extend", ["similarity"],
        f"Cosine of '{word}' in sentence 1 with each other sentence's, embedding to output",
        f"To ask how context moves the word {said} apart, take it in {{len(sentences)}} sentences. From X zero, the embedding, to "
        f"X {integer_words(L)}, the "
        f"output, we take the cosine between its state in the first sentence and in each of "
        f"the others: the cosine of the angle between two states, one when they point the "
        "same way. " + " ".join(ends),
        expect=[f"len(sentences) == {n}"] + [f"data.curves[{k}].raw[0] ~= 1 ± 0.005"
                                             for k in same_start],
        moments={M.SENTENCES: "sentences", M.REFERENCE: "the first sentence",
                 M.EACH_OTHER: "each of the others",
                 M.SAME_POS: "From X zero",       # (no wait at X^(0): said before the curve)
                 M.STARTS: "From X zero", M.SAME_TOKEN: "From X zero",
                 M.OTHER_POS: "From X zero",      # (each position comes with its curve)
                 M.MONEY_END: "ends at", M.RIVER_END: "ends at#2",
                 M.TURN_AWAY: "ends at#2"})]
    base = d["base"]
    peak = int(np.argmax(base))
    adj = " ".join(f"The {nth[k + 1]} sentence's keeps {{data.curves[{k}].adjusted[-1]:.2f}}."
                   for k in range(K))
    beats.append(Beat(
        "baseline", ["baseline"],
        "Baseline: how alike different words point, state by state",
        "Different words point somewhat alike too. This baseline, the mean cosine of "
        "{data.similarity.baseline_pairs} pairs of different words, goes from "
        "{data.similarity.baseline[0]:.2f} at X zero, is highest at X "
        f"{{data.states[{peak}].layer}}, "
        f"{{data.similarity.baseline[{peak}]:.2f}}, and ends at "
        f"{{data.similarity.baseline[-1]:.2f}} at the output. Subtract it from each curve. At the "
        "output: " + adj,
        expect=[f"max(data.similarity.baseline) - data.similarity.baseline[{peak}] ~= 0 ± 0.000001"],
        moments={M.UNRELATED: "Different words", M.BASELINE_PEAK: "goes from",
                 M.BASE_FALLS: "and ends at", M.MOSTLY: "and ends at",
                 M.SUBTRACT: "Subtract it", M.ADJUSTED_ENDS: "At the output",
                 M.RISES: "At the output", M.FALLS_FAR: "At the output",
                 M.LESSON: "At the output"}))
    ans = d["answer"]            # which answer statements the numbers hold (plan.answer)
    same = ans["one_path"]
    hidden = ans["off_plane"] == "mostly"      # the plane shows under half of each
    nearest = int(np.argmin(d["full_end_distances"]))

    def ends(key: str) -> str:
        return ", ".join(f"the {nth[k + 1]} sentence's {{data.projection.{key}[{k}]:.1f}}"
                         for k in range(K))
    beats_drift = Beat(
        "drift", ["projection"],
        "All {data.projection.n_points} states, projected onto the plane of their two "
        "directions of most spread",
        f"Take all {{data.projection.n_points}} states of {said}, from all "
        "{len(sentences)} sentences. PCA, principal component analysis, finds the two "
        "directions in which they spread most, "
        "and projects every state onto the flat plane those two span. The first, PC1, keeps "
        "{data.projection.explained_percent[0]:.0f} percent of the spread; the second, PC2, "
        "{data.projection.explained_percent[1]:.0f}. "
        + ("In this plane all of them take nearly the same path. " if same
           else "Follow each path in this plane. ")
        + "How far does each end lie from the first sentence's? In the plane, "
        + ends("end_distances") + ". In the full space, " + ends("full_end_distances") + ". "
        + ("What tells them apart is mostly off this plane" if hidden
           else "This plane shows part of what tells them apart, the rest is off this plane")
        + f"; the {nth[nearest + 1]} sentence's ends "
        + ("nearer." if K == 2 else "nearest."),
        expect=[f"data.projection.depth_distance / data.projection.sentence_distance "
                f"{'>' if same else '<='} {ONE_PATH:g}"]
        # (a plane's distance is never more than the full one; equal when two ends coincide,
        # as a decoder's bank after one shared prefix does, so no claim is made of it)
        + ([f"data.projection.end_shown[{k}] < 0.5" for k in range(K)] if hidden else [])
        + [f"data.projection.full_end_distances[{nearest}] - "
           f"data.projection.full_end_distances[{k}] <= 0" for k in range(K) if k != nearest],
        moments={M.CLOUD: "Take all", M.DIRECTIONS: "PCA, principal",
                 M.PLANE: "projects every state", M.AXES: "The first, PC1",
                 M.PC2: "the second, PC2", M.SAME_PATH: "same path" if same else "each path",
                 M.IN_PLANE: "In the plane",
                 M.SENTENCE_MOVES: "In the full space",
                 M.OFF_PLANE: "off this plane"})
    g = d["gap"]
    near, far = g["near"], g["far"]
    if g["together"] > 0:
        early = (f"Up to X {integer_words(g['together'])} it stays within {{data.gap.small:.3f}} of "
                 "zero: the two are about equally close to the first sentence's.")
        early_expect = [f"data.gap.together == {g['together']}"]
    else:
        early = "Up to X zero it is already {data.gap.first:.3f}."
        early_expect = []
    widest = ", its widest" if g["widest"] == L else ""
    opens = g["values"][-1] - g["values"][g["together"]] > 0.05
    then = "Then it opens" if opens else "Then it moves"
    against = d["curves"][near]["raw"][0] < d["curves"][far]["raw"][0]
    shared = list(g.get("shared") or [])
    beats.append(Beat(
        "gap", ["gap"],
        "The gap: the curve ending highest minus the curve ending lowest, state by state",
        f"Which {said} ends nearest the first sentence's? The {nth[near + 1]} sentence's, at "
        f"{{data.curves[{near}].raw[-1]:.2f}}; the {nth[far + 1]} sentence's ends lowest, at "
        f"{{data.curves[{far}].raw[-1]:.2f}}. Take the gap between them at each state. The "
        "baseline is the same for both, so it cancels. " + early
        + f" {then}, and at the output it is {{data.gap.last:.3f}}{widest}. If "
        f"the {nth[near + 1]} sentence uses {said} in the first sentence's sense and the "
        f"{nth[far + 1]} in another, this gap is the sense signal. Each curve is one pair of "
        "sentences."
        + (f" The first and the {nth[near + 1]} sentence both contain the word {shared[0]}."
           if shared
           else " They share no other word.")
        + (f" And at X zero position works against the gap: the {nth[near + 1]} sentence's curve "
           "starts lower." if against else
           f" And at X zero position may help the gap: the {nth[near + 1]} sentence's curve "
           "starts no lower."),
        expect=[f"data.gap.near == {near}", f"data.gap.far == {far}"]
        + early_expect
        + [f"data.curves[{near}].raw[0] - data.curves[{far}].raw[0] "
           + ("< 0" if against else ">= 0")]
        # an empty list has no len() in the claim grammar; "share no other word" is the
        # plan's own (empty) gap.shared, read above
        + ([f"len(data.gap.shared) == {len(shared)}"] if shared else [])
        + ([f"data.gap.widest == {L}"] if widest else [])
        + ([f"data.gap.last - data.gap.values[{g['together']}] > 0.05"] if opens else []),
        moments={M.GAP_DEFINED: "Take the gap", M.CANCELS: "it cancels",
                 M.NEAR_CURVE: "Take the gap", M.FAR_CURVE: "Take the gap",
                 M.BARS: "at each state", M.WIDEST: "at the output",
                 M.TOGETHER: "Up to X", M.OPENS: then,
                 M.GAP_END: "at the output", M.CAVEAT: "one pair",
                 M.SHARED: "both contain" if shared else "share no",
                 M.POSITION: "position"}))
    beats.append(beats_drift)
    # (round 35) the closing, on the gap's chart, as the shipped storyboard's; (round 36)
    # said as what was measured, with the shared word's caveat, not as "what tells them apart";
    # (round 37) then the plane's result; (round 40) said of the plane, the split cut
    flat_gap = (f"within {{data.gap.small:.3f}} of zero up to X {integer_words(g['together'])}, "
                if g["together"] > 0 else "at X zero {data.gap.first:.3f}, ")
    late = g["last"] > 0 and g["last_step"] / g["last"] > 0.5
    beats.append(Beat(
        "answer", ["answer"],
        "The answer, for these sentences",
        "So, for these sentences, the gap is " + flat_gap + "and at the output {data.gap.last:.3f}"
        + (", its widest" if widest else "")
        + (", most of it gained on the last step." if late
           else "; the last step adds {data.gap.last_step:.3f} to it.")
        + " Each curve is one pair of sentences"
        + (f"; the first and the {nth[near + 1]} sentence both contain the word {shared[0]}."
           if shared else ".")
        + (" And in a PCA plot of these states, all {len(sentences)} take nearly the same path"
           if same else " And in a PCA plot of these states, follow each path")
        + ("; what sets them apart lies mostly off its plane." if hidden
           else "; the plane shows part of what sets them apart."),
        expect=early_expect + ([f"data.gap.widest == {L}"] if widest else [])
        + ([f"len(data.gap.shared) == {len(shared)}"] if shared else [])
        + (["data.gap.last > 0", "data.gap.last_step / data.gap.last > 0.5"] if late else [])
        + [f"data.projection.depth_distance / data.projection.sentence_distance "
           f"{'>' if same else '<='} {ONE_PATH:g}"]
        + ([f"data.projection.end_shown[{k}] < 0.5" for k in range(K)] if hidden else []),
        moments={M.CLOSE_GAP: "So, for these",
                 M.CLOSE_END: "at the output",
                 M.CLOSE_LAST: "most of it" if late else "the last step adds",
                 M.CLOSE_SHARED: "both contain" if shared else "one pair",
                 M.CLOSE_MOVE: "And in a PCA plot",
                 M.CLOSE_OFF: "what sets them" if hidden else "the plane shows part"}))
    notes = [f"cosine of {word!r}, sentence 1 vs {k + 2}, X^(0)..X^({L}): "
             f"{[round(float(x), 3) for x in d['curves'][k]['raw']]}" for k in range(K)]
    notes.append(f"gap (sentence {near + 2} minus {far + 2}): "
                 f"{[round(float(x), 3) for x in g['values']]}; within {SMALL_GAP} of zero "
                 f"up to X^({g['together']})")
    # the words said for numbers ("X zero", "the third sentence") rest on claims in each beat
    said_numbers = [f"len(sentences) == {n}", "data.states[0].layer == 0",
                    f"data.states[-1].layer == {L}"] + [
        f"data.curves[{k}].pair[1] == {k + 1}" for k in range(K)]
    for b in beats:
        b.expect = said_numbers + [e for e in b.expect if e not in said_numbers]
    return Draft(f"'{word}' in {n} sentences, layer by layer", beats, notes=notes)
