"""The attention_depth draft: `build(Context) -> Draft` (see `layerwise_core.drafts`).

The shipped storyboard's five beats (arcs, depth, sink, why, summary), each sentence chosen from
what the data say for the teacher's sentence, every comparison backed by an `expect:` claim of its
beat. The scene's `why_last` and `deep_heads` beats (cut from the chapter in round 32 as a second
analysis) are not drafted: a teacher adds them by hand. A focus word of several tokens: their rows are averaged (said)."""

from __future__ import annotations

import numpy as np

from layerwise_core.analysis.attention_depth import attention_rows
from layerwise_core.analysis.attention_depth_why import (NEW_X_SHIFT, OWN_SHIFT,
                                                        direction, moved_by, same_w_old_x)
from layerwise_core.drafts.base import Beat, Context, Draft, DraftError, quoted
from layerwise_core.models import weights_read

from .plan import cannot_chart, level_split, swap_moved_by, swapped_order, tied



def bounded(ratio: str, base: float, value: float, shift: float) -> tuple[str | None, str]:
    """Which way value moved from base (analysis.attention_depth_why.direction) and the claim
    that checks it on the plan's `ratio` (the same bounds: the scene's summary reads the plan's
    verdict, computed with them)."""
    way = direction(base, value, shift)
    claim = {"up": f"{ratio} >= {1 + shift:g}", "down": f"{ratio} <= {1 - shift:g}",
             None: f"{ratio} ~= 1 ± {shift:g}"}[way]
    return way, claim


def new_x_verdict(field: str, new: float, old: float, up: str, down: str) -> tuple[str, str]:
    """A fair test's last sentence and its claim: the share with the layer's new X against the
    share with the old X (same matrices): `up` when it rises by 30 %, `down` when it falls by as
    much, else that it hardly moves."""
    way, claim = bounded(f"data.{field}.new_sink / data.{field}.old_sink", old, new, NEW_X_SHIFT)
    said = {"up": up, "down": down,
            None: " Same matrices, new X, and the share hardly moves at this layer."}[way]
    return said, claim


def first_claims(field: str, before: float, old: float, new: float) -> list[str]:
    """The claims behind the first order's verdict (analysis.moved_by: the new X moved the
    share by 30 %, else the layer's own matrices by a fifth)."""
    f = f"data.{field}"
    way, claim = bounded(f"{f}.new_sink / {f}.old_sink", old, new, NEW_X_SHIFT)
    if way is not None:
        return [claim]
    return [claim, bounded(f"{f}.old_sink / {f}.layer0_sink", before, old, OWN_SHIFT)[1]]


def other_order(field: str, before: float, new: float, swap: float, by: str | None,
                prev: str, here: str) -> tuple[str, list[str], str | None]:
    """The fair test's other order (the layer before's matrices fed the new X, then the
    layer's own), said with the plan's verdict for it (plan.swap_moved_by, the same bounds),
    its claims, and the phrase the summary says for the whole test: "in either order, ..."
    when both orders credit the same, "the credit depends on the order" when they differ,
    None when the first order credits neither."""
    f = f"data.{field}"
    text = (f" The other swap, X first: layer {prev}'s matrices fed X of layer {here} put "
            f"{{{f}.swap_sink:.2f}}")
    claims = []
    swap_by = swap_moved_by(before, swap, new)
    if swap_by == "own matrices":
        way, claim = bounded(f"{f}.new_sink / {f}.swap_sink", swap, new, NEW_X_SHIFT)
        text += (f"; layer {here}'s own matrices take it to {{{f}.new_sink:.2f}}.")
        claims.append(claim)
    elif swap_by == "changed x":
        way, claim = bounded(f"{f}.swap_sink / {f}.layer0_sink", before, swap, OWN_SHIFT)
        text += ": the new X alone already moves it."
        claims.append(claim)
    else:
        claims += [bounded(f"{f}.new_sink / {f}.swap_sink", swap, new, NEW_X_SHIFT)[1],
                   bounded(f"{f}.swap_sink / {f}.layer0_sink", before, swap, OWN_SHIFT)[1]]
        text += ", and in that order neither step alone moves it much."
    words = {"changed x": "the changed X", "own matrices": "the layer's own matrices"}
    if by is None:
        summary = None
    elif swap_by == by:
        text += " Both orders agree."
        summary = f"at layer {here}, in either order, the move came with {words[by]}"
    else:
        text += f" So at layer {here}, the credit depends on the order."
        summary = f"at layer {here}, the credit depends on the order of the swap"
    return text, claims, summary


def video_title(template: str) -> str:
    """Another video of the chapter as the voice names it: its shipped storyboard's title."""
    from pathlib import Path

    from layerwise_core.storyboard.schema import load_storyboard
    return load_storyboard(Path(__file__).parent.parent / template / f"{template}.yaml").title


def extremes(share, between: list[int]) -> tuple[int, int]:
    """The layers of `between` with the lowest and the highest share."""
    return (min(between, key=lambda k: share[k]), max(between, key=lambda k: share[k]))


MAX_LEG = 10    # layers a run passes before a stop the voice names (round 37: 13 in 4 s)


def said_layers(ks: list[int]) -> str:
    """"layer {..}", or a near-tie "layers {..} and {..}" (placeholders, layer order)."""
    names = [f"{{data.layers[{k}].layer}}" for k in sorted(ks)]
    return (f"layer {names[0]}" if len(names) == 1 else
            "layers " + ", ".join(names[:-1]) + " and " + names[-1])


def tie_claims(share, ks: list[int], k: int) -> list[str]:
    """A near-tie said as one ("lowest, 0.01, at layers 10 and 11"): every other layer of it
    written, at the voice's 2 decimals, as layer k's share."""
    v = round(float(share[k]), 2)
    return [f"data.layers[{j}].sink ~= {v:g} ± 0.005" for j in ks if j != k]


def marks(share, between: list[int]) -> dict[int, tuple[str, list[int], int]]:
    """The run's named stops: the lowest and the highest of `between`, each with the layers
    written (2 decimals) as it is (a near-tie is said as one, round 37: "lowest at layer 11:
    0.01" beside layer 10's 0.01); the stop is the tie's last layer (every layer said is on
    screen by then). {stop: (kind, tied layers, the extreme's own layer)}."""
    out = {}
    for kind, k in zip(("lowest", "highest"), extremes(share, between)):
        ks = tied(share, k, 2, between)
        out[max(ks)] = (kind, ks, k)
    return out


def split(share, a: int, b: int, kind: str | None) -> list[int]:
    """The stops of the leg a..b (b last): one when it is at most MAX_LEG layers; else it is
    split at the layer farthest the other way (its highest before a lowest, its lowest before
    a highest, else the farthest from b's share), each part three layers or more."""
    if b - a + 1 <= MAX_LEG:
        return [b]
    inner = range(a + 2, b - 2)
    if kind == "lowest":
        m, way = max(inner, key=lambda j: share[j]), "highest"
    elif kind == "highest":
        m, way = min(inner, key=lambda j: share[j]), "lowest"
    else:
        m, way = max(inner, key=lambda j: abs(share[j] - share[b])), None
    return split(share, a, m, way) + split(share, m + 1, b, kind)


def range_sentence(share, between: list[int], last: int) -> str:
    """Many layers between layer 1 and `last` (the one before the last layer): said in legs,
    each ending on a layer named with its share: the lowest and the highest of the run
    (`marks`), and where a leg would pass more than MAX_LEG layers, a layer between (`split`:
    round 37, layers 12-24 ran by at 0.3 s each); then the rest up to `last` (the scene runs
    each leg and stops there: scene.run_layers; `range_claims` backs lowest and highest)."""
    def span(a: int, b: int) -> str:
        return (f"layer {{data.layers[{b}].layer}}" if a == b else
                f"layers {{data.layers[{a}].layer}} to {{data.layers[{b}].layer}}")

    def leg(a: int, b: int, first: bool) -> str:
        # round 37e (legs of 10 layers in 3.3 s): their bars come in one by one, the arcs
        # drawn at the stops the voice names (scene.run_layers), said so once
        return f" Then {span(a, b)}" + (", each reading its own X: their bars come in one "
                                         "by one" if first else "")

    def waypoint(k: int) -> str:
        return f"; layer {{data.layers[{k}].layer}}: {{data.layers[{k}].sink:.2f}}."

    text, start = "", between[0]
    for k, (kind, ks, ext) in sorted(marks(share, between).items()):
        for m in split(share, start, k, kind)[:-1]:
            text += leg(start, m, start == between[0]) + waypoint(m)
            start = m + 1
        # round 39 (both reviews: "lowest at layers 10 and 11" said with layers 12-29 not
        # up, a tie only at 2 decimals): the stop's value alone ("about" for a near-tie);
        # lowest and highest are the summary's, once every bar is up
        said = said_layers(ks)
        text += (leg(start, k, start == between[0]) + f". {said[0].upper() + said[1:]}: "
                 f"{'about ' if len(ks) > 1 else ''}{{data.layers[{ext}].sink:.2f}}.")
        start = k + 1
    if start < last:
        for m in split(share, start, last, None):
            text += leg(start, m, False) + waypoint(m)
            start = m + 1
    else:
        text += f" Layer {{data.layers[{last}].layer}}: {{data.layers[{last}].sink:.2f}}."
    return text


def range_claims(share, between: list[int]) -> list[str]:
    """The claims behind range_sentence's lowest and highest, and their near-ties."""
    a, b = between[0], between[-1]
    span = f"data.layers[{a}:{b + 1}].sink"
    claims = []
    for kind, ks, ext in sorted(marks(share, between).values()):
        claims.append(f"{'min' if kind == 'lowest' else 'max'}({span}) / "
                      f"data.layers[{ext}].sink == 1")
        claims += tie_claims(share, ks, ext)
    return claims


TREND = 0.25     # each way, at least this share of the steps: "swings between"
SPLIT_RATIO = 2.0   # two levels said where one run's mean share is this times the other's
SPLIT_GAP = 0.1     # ... and this much apart


def levels(split, L: int) -> tuple[str, list[str]] | None:
    """Round 39 (both reviews: "no steady trend" beside a chart at 0.20 over layers 0-11 and
    0.59 over 12-29): the plan's best split into two runs (`sink.split`) said as two levels
    ("averages 0.20 over layers 0 to 11 and 0.59, higher, from layer 12 on") where the runs'
    means differ by SPLIT_RATIO and SPLIT_GAP; else None. Its claims."""
    if split is None:
        return None
    lo, hi = sorted((split["before"], split["after"]))
    if hi < SPLIT_RATIO * lo or hi - lo < SPLIT_GAP:
        return None
    up = split["after"] > split["before"]
    k = split["end"]
    a, b = ("after", "before") if up else ("before", "after")
    text = (f" averages {{data.sink.split.before:.2f}} over layers {{data.layers[0].layer}} "
            f"to {{data.layers[{k}].layer}} and {{data.sink.split.after:.2f}}, "
            f"{'higher' if up else 'lower'}, from layer {{data.layers[{k + 1}].layer}} on.")
    return text, [f"data.sink.split.end == {k}",
                  f"data.sink.split.{a} / data.sink.split.{b} >= {SPLIT_RATIO:g}",
                  f"data.sink.split.{a} - data.sink.split.{b} >= {SPLIT_GAP:g}"]


def profile(share, names: str, split=None) -> tuple[str, list[str]]:
    """The summary's profile of the share on the sink, after "moves from layer to layer"
    (round 37e: "goes up 13 times and down 16 times" was trivia, 3 steps tie at 2 decimals):
    where it rises and falls alike (each way at least TREND of the steps, the plan's
    `sink.steps`), that it swings between its lowest and highest (a near-tie said as one),
    and where it ends; where the plan's best split into two runs (`split`) has two levels
    apart (`levels`), those two first, then the lowest and highest; else that it goes up
    (or down). Then what
    that says: the rest of each row (it adds up to 1) goes to the other tokens. The scene
    draws the profile at "swings between" (the two levels at "averages") and lights each bar as its share is said."""
    L = len(share)
    lo, hi = int(np.argmin(share)), int(np.argmax(share))
    claims = [f"data.sink.max.layer == {hi}", f"data.sink.min.layer == {lo}"]
    if L < 2:
        return f": its share on {names} is {{data.layers[0].sink:.2f}}.", claims[:1]
    d = np.diff(np.asarray(share, dtype=float))
    rises, falls = int(np.sum(d > 0)), int(np.sum(d < 0))
    least = max(1, int(np.ceil(TREND * len(d))))
    groups = {}
    for kind, k in (("lowest", lo), ("highest", hi)):
        ks = tied(share, k, 2)
        if k == hi and lo in groups and hi in groups[lo]:
            continue                        # every layer written alike: one point
        groups[k] = ks
        claims += tie_claims(share, ks, k)
    seen = {j for ks in groups.values() for j in ks}
    ends = "" if L - 1 in seen else ", and ends at {data.sink.last:.2f}"
    at = {k: f"{{data.layers[{k}].sink:.2f}}, at {said_layers(ks)}" for k, ks in groups.items()}
    two = levels(split, L) if hi in groups else None
    if two is not None:
        # the two levels, then the extremes (every bar is up by now) and the end
        about = "about " if len(groups[lo]) > 1 else ""
        how = (f"{two[0]} It is lowest, {about}{at[lo]}, and highest, {at[hi]}"
               f"{ends.replace(', and ends', '; it ends')}.")
        claims += two[1]
    elif rises >= least and falls >= least and hi in groups:
        how = f" swings between {at[lo]}, and {at[hi]}{ends}."
        claims += [f"data.sink.steps.rises >= {least}", f"data.sink.steps.falls >= {least}"]
    else:
        way = "up" if rises >= falls else "down"
        how = (f" goes mostly {way}: from {at[lo] if way == 'up' else at[hi]} to "
               f"{at[hi] if way == 'up' else at[lo]}{ends}.")
        claims.append(f"data.sink.steps.{'rises' if way == 'up' else 'falls'} >= "
                      f"{max(rises, falls)}")
        if hi not in groups:
            how = f" stays at {at[lo]}."
    # what it says: the row adds up to 1 at every layer, so what the first token does not
    # get goes to the other tokens, a different amount at each layer
    how += " The rest of each row goes to the other tokens."
    claims.append(f"data.layers[0:{L}].total ~= 1 ± 0.001")
    return f": its share on {names}{how}", claims


def as_shown(tok: str) -> str:
    """A token as a word, without its leading space mark ("Ġthe", " the" -> "the")."""
    return tok.replace("Ġ", " ").replace("▁", " ").strip()


def spoken(tok: str) -> str:
    """A special token as the voice says it: [CLS] -> CLS."""
    return tok.strip("[]<>|") or tok


def build(c: Context) -> Draft:
    t, word, pos = c.trace, c.word, c.pos
    said = c.said
    problem = cannot_chart(t, word, pos)
    if problem:
        raise DraftError(f"attention_depth: {problem}")
    rows = attention_rows(t, pos)
    special = rows["special"]
    others = [j for j in range(len(t.tokens)) if j not in pos]
    words = [j for j in others if j not in special]
    L = t.n_layers
    mean = rows["mean"]
    # the sink as the voice names it: the special tokens ("CLS and SEP"), or a decoder's first
    # token where the model adds none ("the first token, “At”", then "“At”"), each beat that
    # names it so claiming it from the plan (`data.special == 0`: only position 0)
    if rows["sink_kind"] == "first":
        first = quoted(t.tokens[0])
        names = f"the first token, {first}"
        # before a verb: "the first token, “At”, gets 0.29"
        first_in = names_then = f"{names},"
        names_short = "the first token"
        on_first = ["data.special == 0"]
    else:
        first = first_in = spoken(t.tokens[special[0]])
        names = names_then = names_short = " and ".join(spoken(t.tokens[j]) for j in special)
        on_first = []
    beats = []

    # arcs: layer 0, the heaviest word and the first special token
    w0 = max(words, key=lambda j: mean[0][j])
    ratio = mean[0][special[0]] / mean[0][w0]
    several = (f" {said} is {len(pos)} tokens here; their rows are averaged."
               if len(pos) > 1 else "")
    tie = abs(ratio - 1) < 0.1
    # the per-head step (query · key, softmax: per_head's, named by its title: round 37, the
    # voice said "per_head"), then what the arcs average
    # the model named first (round 39: its name delayed "decoder" 4 s into a still), as
    # measured (round 37: "SmolLM2-135M" for SmolLM2-135M-Instruct read at 4 bits, the file
    # the package ships: the plan's `weights`, the footer's name)
    w_read = weights_read(t.meta.get("source"), t.spec.display or t.spec.name)
    w_read = w_read if w_read and w_read.get("bits") else None
    decoder = t.spec.kind == "decoder"
    model_in = (("In {data.weights.name}, at {data.weights.bits} bits, l" if w_read else
                 f"In {t.spec.display or t.spec.name}, l") if decoder else "L")
    # round 39 (the sentence never shown, its "…" used before it was explained): the whole
    # sentence is on screen while this is said, then folds into the drawn tokens
    # round 37e (review: X used from the first second, never said what it is): what X is, once
    # round 39: a decoder's query meets only the keys up to it ("every token's key" was wrong)
    keys = "the key of every token up to it" if decoder else "every token's key"
    text = (f"We follow {said} through this sentence. "
            f"{model_in}ayer {{data.layers[0].layer}} reads X of layer "
            f"{{data.layers[0].layer}}: the tokens' vectors, which every layer adds its updates "
            f"to. In each of its {{data.n_heads}} heads, the query of {said} is scored against "
            f"{keys}, and a softmax turns the scores into a row of weights, as the video "
            f"“{video_title('per_head')}” showed for one head. The arcs show the head-average, "
            f"the mean of the "
            f"{{data.n_heads}} heads' rows; it adds up to {{data.layers[0].total:.0f}}."
            f"{several} ")
    # round 39: "a thicker arc means more attention" went over layer 0's arcs, all alike
    # thin (the legend on screen says it: arc width = weight)
    # the model's kind, said once: an encoder's arcs also reach the tokens after the word
    if t.spec.kind == "encoder" and pos[-1] < len(t.tokens) - 1:
        text += f"{t.spec.display or t.spec.name} reads both ways: {said} also looks ahead. "
    elif decoder:
        text += f"It is a decoder: {said} sees only itself and the tokens before it. "
    # a word written twice in the sentence named by the token after it (round 39: "on the"
    # with two "the"s on screen)
    top = "{data.layers[0].top_word.token}"
    if [as_shown(x) for x in t.tokens].count(as_shown(t.tokens[w0])) > 1 and \
            w0 + 1 < len(t.tokens):
        top = f"the {quoted(t.tokens[w0])} before {quoted(t.tokens[w0 + 1])}"
    if tie:
        text += (f"The arcs to another word and to {first_in} nearly tie: "
                 f"{{data.layers[0].top_word.token}} gets "
                 f"{{data.layers[0].top_word.weight:.2f}}, and {first} gets "
                 f"{{data.layers[0].on_special[0]:.2f}}.")
        claims = ["data.layers[0].on_special[0] / data.layers[0].top_word.weight ~= 1 ± 0.1"]
    else:
        text += (f"The heaviest arc to another word goes to {top}, "
                 f"{{data.layers[0].top_word.weight:.2f}}; {first_in} gets "
                 f"{{data.layers[0].on_special[0]:.2f}}.")
        claims = []
    # the chart, said as it is built (round 37: 4 s of silence while it came)
    text += " The bar on the right keeps that share, one bar per layer."
    claims += on_first
    beats.append(Beat(
        "arcs", ["arcs"],
        # round 37e (the caption's caret "X^(0)" beside the header's typeset X^(0)): the
        # header carries X; the caption names the arcs
        # round 39 ("head-average" captioned over head 0's row): both, in the order shown
        f"Layer {{data.layers[0].layer}}: {word}'s attention row, one head, then the mean of "
        f"its {{data.n_heads}} heads.",
        text, expect=claims + [f"data.layers[0].top_word.pos == {w0}"]))

    # depth: layer 1 (its X fed in, drawn), the layers between it and the one before last in
    # one sentence, then the one before last (the peak when it is there); the scene steps
    # through them in that order and shows the last layer in `sink`
    share = rows["sink"]
    hi = int(np.argmax(share))
    # round 37e (the update animation unnarrated, layer 1's number said 2-3 s before its row):
    # the residual step said while it is drawn, then the fresh queries and keys
    normed = ", normalised after each add" if t.spec.placement.name == "post" else ""
    text = ("Layer {data.layers[0].layer}'s attention and feed-forward add their updates to "
            f"X{normed}, giving X of layer {{data.layers[1].layer}}; from it, layer "
            "{data.layers[1].layer} makes fresh queries and keys." if L >= 2 else
            "Each layer makes fresh queries and keys from its own X.")
    claims = []
    said_peak = False
    if L >= 2:
        if share[1] > 0.5:
            text += (f" Layer {{data.layers[1].layer}} puts most of the row of {said} on "
                     f"{names}: {{data.layers[1].sink:.2f}}.")
            claims.append("data.layers[1].sink > 0.5")
        else:
            text += (f" Layer {{data.layers[1].layer}} puts "
                     f"{{data.layers[1].sink:.2f}} of the "
                     f"row of {said} on {names}.")
    mids = list(range(2, L - 1))
    between = mids[:-1]
    if len(between) <= 3:
        # a few layers: each its own sentence (the scene raises each bar on its own cue)
        for k in between:
            text += f" Layer {{data.layers[{k}].layer}}: {{data.layers[{k}].sink:.2f}}."
    else:
        # many (SmolLM2's 26): one at a time, the scene pausing on the two the voice names,
        # the lowest and the highest of them, in layer order (round 37: 26 layers in 5 s)
        text += range_sentence(share, between, mids[-1])
        claims += range_claims(share, between)
    if mids and len(between) <= 3:
        k = mids[-1]
        if hi == k:
            text += (" Layer {data.sink.max.layer} is the peak: "
                     f"{{data.layers[{hi}].sink:.2f}}.")
            claims.append(f"data.sink.max.layer == {hi}")
            said_peak = True
        else:
            text += f" Layer {{data.layers[{k}].layer}}: {{data.layers[{k}].sink:.2f}}."
    if len(special) > 1 and L > 1:
        text += (f" The end token, {spoken(t.tokens[special[-1]])}, the lighter shade, gets "
                 f"{{data.sink.end_after0:.2f}} at most after layer {{data.layers[0].layer}}.")
    beats.append(Beat(
        "depth", ["depth"],
        # round 37e (this caption stood 32 s): it names layer 1's step; the scene's legs
        # caption themselves
        "Layer {data.layers[0].layer}'s updates added to X give layer "
        "{data.layers[1].layer}'s X: fresh queries and keys." if L >= 2 else
        "Every layer makes fresh queries and keys from its own X.",
        text, expect=claims + on_first))

    # sink: at the peak (said in `depth` when it is the layer before last), the reading; then
    # the last layer
    named = len(between) > 3 and hi in extremes(share, between)
    # a near-tie at the top (a second sentence's 0.96 at layers 20 and 24): not "the peak"
    # (it could not be told from the other at 2 decimals)
    peak = "the peak, layer" if tied(share, hi, 2) == [hi] else "layer"
    text = ("A common reading" if said_peak else
            f"Back at {peak} {{data.sink.max.layer}}. A common reading" if named else
            f"The share on {names_then} peaks at "
            f"layer {{data.sink.max.layer}}: "
            f"{{data.layers[{hi}].sink:.2f}} of the row of {said}. A common reading")
    text += (f", not something we measured, calls {names_short} a sink: a place heads park "
             f"attention when they have nothing to gather.")
    if rows["sink_kind"] == "first":
        # why the first token, said as the structure it is (the causal mask), not measured
        # round 39 ("every token after it can see" was circular): the only one all can see
        text += (" In a decoder it is the one token every token can see; "
                 "this model adds no start mark of its own.")
    claims = [f"data.sink.max.layer == {hi}"] + on_first
    if L >= 2 and hi != L - 1:
        text += (f" Layer {{data.layers[{L - 1}].layer}} falls to "
                 f"{{data.layers[{L - 1}].sink:.2f}}.")
        claims.append(f"data.layers[{L - 1}].sink / data.sink.max.value < 1")
    beats.append(Beat(
        "sink", ["sink"],
        f"{peak[0].upper() + peak[1:]} {{data.sink.max.layer}}: {names_short} as a \"sink\" "
        f"is a reading, not a measurement.",
        text, expect=claims))

    # why: layer 1's own matrices fed the old X and the new X
    tie_d = same_w_old_x(t, t.weights(), 1, pos, special) if L > 1 else None
    if tie_d is not None:
        old, new, l0 = tie_d["old_sink"], tie_d["new_sink"], rows["sink"][0]
        text = ("Why does the row move? A fair test, on layer {data.tie.layer}. Keep its own query "
                "and key matrices, but feed them the old X: X of layer {data.layers[0].layer}, "
                "the one layer {data.layers[0].layer} read. "
                f"Layer {{data.layers[0].layer}} itself put "
                f"{{data.layers[0].sink:.2f}} of the "
                f"row on {names}; layer {{data.tie.layer}}'s matrices, fed that same old X, put "
                "{data.tie.old_sink:.2f}")
        claims = ["data.tie.layer == 1"] + on_first
        if old <= l0:
            text += ": the matrices alone do not raise it."
            claims.append("data.tie.old_sink / data.tie.layer0_sink <= 1")
        elif direction(l0, old, OWN_SHIFT) is None:
            text += ", close to it."
            claims.append(bounded("data.tie.old_sink / data.tie.layer0_sink", l0, old,
                                  OWN_SHIFT)[1])
        else:
            text += "."
        # MiniLM-style encoders normalise after each add (post-LN): said so; a pre-LN model
        # (GPT-2, a decoder this beat now reaches) only adds
        normed = (", normalised after each add" if t.spec.placement.name == "post" else "")
        text += (" Now feed them X of layer {data.tie.layer}, what layer "
                 "{data.layers[0].layer} wrote: its attention and FFN updates added to X of "
                 f"layer {{data.layers[0].layer}}{normed}: "
                 "{data.tie.new_sink:.2f}.")
        verdict, claim = new_x_verdict(
            "tie", new, old, f" Same matrices, new X: the move to {names} came in with the "
            "changed X.", " Same matrices, new X: the changed X moved the row away from them.")
        text += verdict
        claims.append(claim)
        tie_d["swap_row"], tie_d["swap_sink"] = swapped_order(t, t.weights(), 1, pos, special)
        more, more_claims, _ = other_order(
            "tie", l0, new, tie_d["swap_sink"], moved_by(l0, old, new), "{data.layers[0].layer}",
            "{data.tie.layer}")
        text += more
        claims += more_claims
        text += " This is one layer, measured once: layer {data.tie.layer}."
        beats.append(Beat(
            "why", ["why"],
            "A fair test on layer {data.tie.layer}: swap one thing at a time, in both orders.",
            text, expect=claims))

    # the wrap-up, its own beat (its own chapter marker): what was and was not tested here
    text, claims = "", []
    if tie_d is not None:
        l0 = rows["sink"][0]
        _, order_claims, phrase = other_order(
            "tie", l0, tie_d["new_sink"], tie_d["swap_sink"],
            moved_by(l0, tie_d["old_sink"], tie_d["new_sink"]), "{data.layers[0].layer}",
            "{data.tie.layer}")
        text += f"In short, for this one sentence: the row of {said} moves with depth"
        if phrase is not None:        # the test's verdict as its beat said it, with its claims
            text += ". " + phrase[0].upper() + phrase[1:]
            claims += order_claims + first_claims("tie", l0, tie_d["old_sink"], tie_d["new_sink"])
        text += "."
        claims.append("data.tie.layer == 1")
    else:
        # round 37 ("moves with depth" alone was thin; then "goes from 0.06 to 0.89" hid the
        # fall to 0.01): the profile the chart shows, its steps up and down, its first,
        # lowest, highest and last bars lit as said
        said_p, claims = profile(share, names_short, level_split(share))
        text += f"In short, for this one sentence, the row of {said} moves with depth" + said_p
        claims += on_first
    beats.append(Beat(
        "summary", ["summary"],
        "In short, for this one sentence: the test at layer {data.tie.layer}."
        if tie_d is not None else "In short, for this one sentence.", text, expect=claims))
    notes = [f"the arcs start at {[t.tokens[p] for p in pos]} (positions {pos}"
             + ("; their rows averaged" if len(pos) > 1 else "") + f"); the sink: "
             f"{[t.tokens[j] for j in special]}"
             + (" (the first token: the model adds no special tokens)"
                if rows["sink_kind"] == "first" else "")]
    if tie_d is None:
        notes.append("no `why` beat: this model's attention cannot be redone here (RoPE, "
                     "shared keys or one layer)")
    return Draft(f"Where '{word}' looks, layer by layer", beats, notes=notes)
