"""The attention_depth plan: its storyboard validates, its rows are the trace's attention
pattern (head-average and per head), the sink share is measured from them, the fair experiment
(layer 1's matrices fed X^(0) / X^(1)) is re-derived here by hand, the deep layer's heads and
previous-token scores too, and its narration quotes the plan."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_templates import TEMPLATES
from layerwise_core.tracing import get_trace
from scenes.theme import fmt

from conftest import ROOT

STORYBOARD = ROOT / "layerwise_templates" / "attention_depth" / "attention_depth.yaml"


@pytest.fixture(scope="module")
def built(cache_dir):
    sb = load_storyboard(STORYBOARD)
    plan = build_plan(sb, cache_dir=cache_dir)
    return sb, json.loads(json.dumps(plan))        # as a scene reads it: JSON


def test_storyboard_validates_and_is_registered():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "attention_depth" and "attention_depth" in TEMPLATES
    # round 32: the last layer's test and heads cut from the shipped storyboard (a teacher's
    # draft still has them: the registry keeps their shows)
    assert [b.id for b in sb.beats] == ["arcs", "depth", "sink", "why", "summary"]
    assert {s for b in sb.beats for s in b.show} | {"why_last", "deep_heads"} \
        == TEMPLATES["attention_depth"].shows
    scene = TEMPLATES["attention_depth"].scene_class()
    for show in TEMPLATES["attention_depth"].shows:
        assert callable(getattr(scene, f"beat_{show}", None)), show


def test_plan_matches_its_view(built):
    assert TEMPLATES["attention_depth"].check_data(built[1]["data"]) == []


def test_rows_are_the_trace(built, cache_dir):
    sb, plan = built
    d = plan["data"]
    t = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    (f,) = d["focus"]
    assert t.tokens[f] == "bank" and d["tokens"] == t.tokens and d["n_focus"] == 1
    assert d["special_tokens"] == ["[CLS]", "[SEP]"] and d["special"] == [0, len(t.tokens) - 1]
    assert [x["layer"] for x in d["layers"]] == list(range(t.n_layers))
    for l, x in enumerate(d["layers"]):
        p = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)
        mean = p[:, f].mean(axis=0)                  # over heads
        np.testing.assert_allclose(x["row"], mean, atol=1e-12)
        assert sum(x["row"]) == pytest.approx(1.0, abs=1e-5)
        assert x["sink"] == pytest.approx(mean[0] + mean[-1], abs=1e-12)
        assert x["on_special"] == pytest.approx([mean[0], mean[-1]], abs=1e-12)
        others = [j for j in range(len(mean)) if j != f]
        assert x["top"]["pos"] == max(others, key=lambda j: mean[j])
        words = [j for j in others if j not in (0, len(mean) - 1)]
        assert x["top_word"]["pos"] == max(words, key=lambda j: mean[j])
    share = [x["sink"] for x in d["layers"]]
    for key, fn in (("max", np.argmax), ("min", np.argmin)):
        e = d["sink"][key]
        assert (e["layer"], e["value"]) == (int(fn(share)), share[int(fn(share))])
    assert d["decimals"] == 2
    # layer 0: river and [CLS] nearly tie (docs/chapter.md 4.4)
    assert fmt(d["layers"][0]["top_word"]["weight"]) == "0.30"
    assert fmt(d["layers"][0]["on_special"][0]) == "0.29"


def test_fair_experiment_rederived(built, cache_dir):
    """Layer 1's own W_Q, W_K fed X^(0) and X^(1), by hand: softmax(q.k / sqrt(32)) per head.
    Fed X^(1) it must be the model's own layer-1 pattern; fed X^(0), 0.34 on [CLS] + [SEP]."""
    sb, plan = built
    d = plan["data"]
    t = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    W = t.weights()
    (f,) = d["focus"]

    def row(x, l=1):
        x = np.asarray(x, np.float64)
        q = np.einsum("pd,hde->phe", x, np.asarray(W[f"blocks.{l}.attn.W_Q"], np.float64)) \
            + np.asarray(W[f"blocks.{l}.attn.b_Q"], np.float64)
        k = np.einsum("pd,hde->phe", x, np.asarray(W[f"blocks.{l}.attn.W_K"], np.float64)) \
            + np.asarray(W[f"blocks.{l}.attn.b_K"], np.float64)
        s = np.einsum("he,khe->hk", q[f], k) / np.sqrt(q.shape[-1])
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).mean(axis=0)

    x0, x1 = t["blocks.0.hook_resid_pre"], t["blocks.1.hook_resid_pre"]
    old, new = row(x0), row(x1)
    np.testing.assert_allclose(new, d["layers"][1]["row"], atol=1e-5)     # the model's own
    tie = d["tie"]
    np.testing.assert_allclose(tie["old_row"], old, atol=1e-9)
    np.testing.assert_allclose(tie["new_row"], new, atol=1e-9)
    assert tie["old_sink"] == pytest.approx(old[0] + old[-1], abs=1e-9)
    assert (fmt(tie["old_sink"]), fmt(tie["layer0_sink"]), fmt(tie["new_sink"])) == \
        ("0.34", "0.40", "0.70")
    # the same test at the last layer: layer 5's own W_Q, W_K fed X^(4), then X^(5)
    x4, x5 = t["blocks.4.hook_resid_pre"], t["blocks.5.hook_resid_pre"]
    old, new = row(x4, 5), row(x5, 5)
    np.testing.assert_allclose(new, d["layers"][5]["row"], atol=1e-5)     # the model's own
    last = d["tie_last"]
    assert last["layer"] == 5
    np.testing.assert_allclose(last["old_row"], old, atol=1e-9)
    np.testing.assert_allclose(last["new_row"], new, atol=1e-9)
    assert last["layer0_sink"] == pytest.approx(d["layers"][4]["sink"], abs=1e-12)
    assert (fmt(last["layer0_sink"]), fmt(last["old_sink"]), fmt(last["new_sink"])) == \
        ("0.82", "0.47", "0.52")
    # the other order (round 24): the layer before's W_Q, W_K fed the new X, by hand
    for tt, l, x in ((tie, 1, x1), (last, 5, x5)):
        sw = row(x, l - 1)
        np.testing.assert_allclose(tt["swap_row"], sw, atol=1e-9)
        assert tt["swap_sink"] == pytest.approx(sw[0] + sw[-1], abs=1e-9)
    assert (fmt(tie["swap_sink"]), fmt(last["swap_sink"])) == ("0.47", "0.81")


def test_worked_head_is_the_models(built, cache_dir):
    """Round 35 (both reviews: Q·K -> softmax -> weights never shown with numbers): layer 0's
    first unnamed head worked through for bank, by hand from the trace's q and k: its scores
    are q·k / sqrt(32), softmax of them is that head's row of the pattern."""
    sb, plan = built
    d = plan["data"]
    t = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    (f,) = d["focus"]
    w = d["worked"]
    l0 = d["layers"][0]
    assert w["layer"] == 0 and w["head"] == 0
    assert w["head"] not in (l0["head_on_word"], l0["head_on_cls"])
    h = w["head"]
    q = np.asarray(t["blocks.0.attn.hook_q"], np.float64)[f, h]
    k = np.asarray(t["blocks.0.attn.hook_k"], np.float64)[:, h]
    s = k @ q / np.sqrt(len(q))
    np.testing.assert_allclose(w["scores"], s, atol=1e-9)
    e = np.exp(s - s.max())
    np.testing.assert_allclose(w["weights"], e / e.sum(), atol=1e-9)
    np.testing.assert_allclose(w["weights"], l0["heads"][h], atol=1e-5)   # the model's own
    assert w["score_decimals"] == 1
    assert [fmt(x, 1) for x in w["scores"]][:3] == ["1.2", "-0.9", "1.0"]


def test_deep_heads_measured(built, cache_dir):
    sb, plan = built
    d, t = plan["data"], get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    deep = d["deep"]
    (f,) = d["focus"]
    n = len(t.tokens)
    last = t.n_layers - 1
    p = np.asarray(t[f"blocks.{last}.attn.hook_pattern"], np.float64)
    assert deep["layer"] == last and deep["target"]["token"] == "river"
    np.testing.assert_allclose(deep["weight"], p[:, f, deep["target"]["pos"]], atol=1e-12)
    prev = [np.mean([p[h, q, q - 1] for q in range(1, n)]) for h in range(len(p))]
    np.testing.assert_allclose(deep["prev_token"], prev, atol=1e-12)
    assert [x["head"] for x in deep["top3"]] == [6, 7, 5]
    assert [fmt(x["weight"]) for x in deep["top3"]] == ["0.46", "0.32", "0.31"]
    assert [fmt(x["prev_token"]) for x in deep["top3"]] == ["0.13", "0.19", "0.14"]
    assert deep["before_focus"] is True
    # the suspect drawn being averaged: of the three heaviest heads, the highest score; its
    # one-before weights are A[q, q-1] and their mean is its score
    sus = deep["suspect"]
    assert sus["head"] == max(deep["order"][:3], key=lambda h: prev[h]) == 7
    np.testing.assert_allclose(sus["one_before"], [p[7, q, q - 1] for q in range(1, n)],
                               atol=1e-6)
    assert np.mean(sus["one_before"]) == pytest.approx(deep["prev_token"][7], abs=1e-6)
    assert fmt(sus["one_before"][5]) == fmt(deep["weight"][7])      # bank's weight on river


def test_narration_quotes_the_plan(built):
    _, plan = built
    d = plan["data"]
    said = {b["id"]: b["narration"] for b in plan["beats"]}
    l0 = d["layers"][0]
    assert (f"the arcs to {l0['top_word']['token']} and to CLS nearly tie: "
            f"{fmt(l0['top_word']['weight'])} and {fmt(l0['on_special'][0])}") in said["arcs"]
    # X said in a phrase, CLS and SEP named as the tokens are written; the earlier video
    # named as the viewer knows it (no file name)
    # the model named first, with its depth and its last layer (round 22: it came 26 s in)
    # (round 31: "whose last layer is layer 5" cut: the model's tag writes "layers 0 to 5")
    assert said["arcs"].startswith("In MiniLM, a 6-layer encoder, "
                                   "layer 0 reads X of layer 0, the tokens' vectors, from the "
                                   "start mark CLS to the end mark SEP. Each of its 12 heads "
                                   "gives bank its own row of attention weights, one per "
                                   "token.")
    # round 32: the score -> softmax step was per_head's (its schematic cut here); round 35
    # (both reviews): shown once, with one head's real scores and weights
    assert ("In head 0, for example, bank's query times each token's key gives a score, "
            f"scaled by the square root of {d['d_head']}; a softmax turns the scores into "
            "weights.") in said["arcs"]
    assert d["worked"]["head"] == 0 and d["d_head"] == 32
    assert "per_head" not in said["arcs"]
    # the 12 heads' own rows are drawn, then their mean (the arcs)
    # (round 27: twelve small fans had no token axis; now the two named heads' own rows
    # are drawn full size on the tokens)
    # round 35 (both reviews: the mean named only 2 of the 12 heads): "over all 12 heads"
    assert ("into weights. Head 2 gives river the most weight, and head 11 gives "
            "CLS the most. Their mean over all 12 heads, "
            "the head-average, is what the arcs show") in said["arcs"]
    hs = l0["heads"]
    assert max(range(12), key=lambda h: hs[h][l0["top_word"]["pos"]]) == l0["head_on_word"] == 2
    assert max(range(12), key=lambda h: hs[h][d["special"][0]]) == l0["head_on_cls"] == 11
    assert all(len(x["heads"]) == d["n_heads"] for x in d["layers"])
    for x in d["layers"]:
        mean = [sum(h[k] for h in x["heads"]) / len(x["heads"]) for k in range(len(x["row"]))]
        assert mean == pytest.approx(x["row"], abs=1e-6)
    assert "MiniLM reads both ways: bank also looks ahead" in said["arcs"]
    assert said["arcs"].count("MiniLM, a 6-layer encoder") == 1
    # the bar's number is the share as written; at layer 0 the two numbers under CLS and SEP
    # add up to it as written (said "make")
    assert (f"CLS and SEP: {fmt(l0['on_special'][0])} and {fmt(l0['on_special'][1])} make "
            f"{fmt(l0['sink'])} of the row") in said["arcs"]
    assert l0["sink_adds"] is True
    # the bars are head-averages, said at the first bar (round 25: only at the end)
    assert said["arcs"].endswith("of the row. Every green bar here is a head-average like it.")
    # every token's X is new, keys included (round 25: X^(l) rose into bank only)
    assert said["depth"].startswith("Each layer makes fresh queries and keys from its own X, "
                                    "and every token's X is new: the layer before added its "
                                    "attention and feed-forward updates to it.")
    assert "A fair test on layer 1, in this sentence:" in said["why"]
    # sink_adds: the parts as written add up to the share as written (else the bar writes
    # "≈"); layer 3's 0.71 + 0.03 beside 0.7474 (written 0.75) do not (round 22's 0.74)
    for x in d["layers"]:
        written = [round(x["row"][j], d["decimals"]) for j in d["special"]]
        adds = round(sum(written), d["decimals"]) == round(x["sink"], d["decimals"])
        assert x["sink_adds"] is adds
    assert d["layers"][3]["sink_adds"] is False and fmt(d["layers"][3]["sink"]) == "0.75"
    for t_ in (d["tie"], d["tie_last"]):
        for k in ("old", "new", "swap"):
            written = [round(t_[f"{k}_row"][j], d["decimals"]) for j in d["special"]]
            assert t_[f"{k}_adds"] is (round(sum(written), d["decimals"])
                                       == round(t_[f"{k}_sink"], d["decimals"]))
    assert d["tie_last"]["old_adds"] is False and fmt(d["tie_last"]["old_sink"]) == "0.47"
    assert d["n_layers"] == 6 and d["deep"]["layer"] == d["n_layers"] - 1
    # "a row adds up to 1" said once, early
    assert ", and it adds up to 1." in said["arcs"]
    assert all(x["total"] == pytest.approx(1, abs=1e-6) for x in d["layers"])
    assert sum("adds up to 1" in x for x in said.values()) == 1
    # layers 1-4 one by one, each with its share, ending on the peak; the sink reading at the
    # peak (the next beat, before the fair test), then the last layer
    mx = d["sink"]["max"]
    L = d["layers"]
    # layers 2, 3 and 4 a short sentence each (round 26: one sentence rushed them, 10 s for
    # three bars; round 22's three near-identical passes kept short; round 31: "reads X of
    # layer l" no longer repeated for each), each number as its bar writes it
    # "nearly all of it on CLS": [SEP]'s share at layers 1-4 is small (its part barely shows)
    assert (f"Layer 1 puts most of bank's row on CLS and SEP, {fmt(L[1]['sink'])}, "
            f"nearly all on CLS. Layer 2, from its own new X, puts {fmt(L[2]['sink'])} there. "
            f"Layer 3, from its X, about {fmt(L[3]['sink'])}, again nearly all on CLS. "
            f"Layer 4, from its X, {fmt(L[4]['sink'])}: the highest so far.") \
        in said["depth"]
    # round 33: the rounding sentence dropped (6 s on a 0.01 detail): "about" names the "≈"
    assert "rounded" not in said["depth"]
    # "about" where the bar writes "≈" (round 27: the "≈" was never said)
    assert L[3]["sink_adds"] is False and all(L[k]["sink_adds"] for k in (1, 2, 4))
    # round 31: the rounded parts' sum (0.74 against the bar's 0.75; said until round 33)
    assert L[3]["parts_sum"] == pytest.approx(sum(round(w, 2) for w in L[3]["on_special"]))
    assert fmt(L[3]["parts_sum"]) != fmt(L[3]["sink"])
    assert mx["layer"] == 4
    assert min(x["sink"] for x in d["layers"][1:5]) > 0.5
    assert max(x["on_special"][1] for x in d["layers"][1:5]) < 0.05
    # round 33 (r33x: SEP takes 0.01-0.03 at layers 1-4): the sink here is named as CLS
    assert said["sink"].startswith("A common reading, not a measurement, calls such a token a "
                                   "sink: where heads park attention they do not need. Here "
                                   "the sink is CLS; SEP gets little.")
    assert min(x["on_special"][0] for x in d["layers"][1:5]) > 0.6
    assert (f"At layer 5 the share falls to "
            f"{fmt(d['layers'][5]['sink'])}") in said["sink"]
    assert [b["id"] for b in plan["beats"]].index("sink") < \
        [b["id"] for b in plan["beats"]].index("why")
    t = d["tie"]
    assert (f"Layer {d['layers'][0]['layer']} put {fmt(d['layers'][0]['sink'])} on "
            f"CLS and SEP") in said["why"]
    # the fair test's point is said: the matrices alone (old X) do not raise the share
    assert (f"First, layer 1's own query and key matrices, fed layer 0's X. Layer 0 put "
            f"{fmt(L[0]['sink'])} on CLS and SEP; these matrices put {fmt(t['old_sink'])}: "
            "the matrices alone do not raise it.") in said["why"]
    assert t["old_sink"] <= t["layer0_sink"]
    # what made X of layer 1 is said: layer 0's updates added to its X, normalised after
    # each add (MiniLM is post-LN)
    assert (f"X of layer {t['layer']}: X of layer 0, plus layer 0's attention update, then "
            f"its feed-forward update, normalised after each add. Fed this X, they put "
            f"{fmt(t['new_sink'])}: layer 1's real row.") in said["why"]
    assert t["new_sink"] == pytest.approx(L[1]["sink"], abs=1e-4)
    tl = d["tie_last"]
    assert tl["old_adds"] is False and tl["new_sink"] > tl["old_sink"]
    assert "not a measurement" in said["sink"]
    # round 32: the last layer's test and heads are cut (second analyses, off the claim)
    assert "why_last" not in said and "deep_heads" not in said
    # the summary scoped to this sentence; both orders of the swap (round 22: one order only)
    assert "In short, for this one sentence:" in said["summary"]
    assert "At layer 1, the one layer tested, neither alone gave the full rise" in said["summary"]
    assert "layer 5" not in said["summary"]
    # the fair tests in both orders: the other order said with its number
    # round 35 ("only 0.47": no framing the plan does not check): the number alone
    assert (f"The other swap: layer 0's matrices fed X of layer 1 put "
            f"{fmt(t['swap_sink'])}, half of it on SEP.") in said["why"]
    # round 33: what the X-only swap did (the row on screen showed it unsaid)
    assert t["swap_row"][d["special"][-1]] / t["swap_sink"] == pytest.approx(0.5, abs=0.1)
    # round 33: the summary says the depth profile while the six bars are up
    assert (f"from {fmt(L[0]['sink'])} up to {fmt(mx['value'])} at layer {mx['layer']}, "
            f"then {fmt(d['sink']['last'])}.") in said["summary"]
    assert t["by"] == "changed x" and t["swap_by"] == "own matrices"
    # the interaction said once, from the plan's numbers (round 25: "the rise came with the
    # changed X" said first, then "needs both", read as a contradiction)
    assert "In this order" not in said["why"]
    # round 31: the verdict without re-reading the four numbers (they are on the bars)
    assert "So neither alone gives the full rise; both together do." in said["why"]
    assert t["old_sink"] <= L[0]["sink"] and t["swap_sink"] < 0.7 * t["new_sink"]
    # the scope at the first measurement, not only at the end
    assert "In this one sentence, the arcs to river and to CLS nearly tie" in said["arcs"]
    assert tl["by"] == tl["swap_by"] == "own matrices"


@pytest.mark.parametrize("old, new, way", [
    (0.40, 0.60, "up"), (0.40, 0.52, "up"), (0.40, 0.51, None), (0.40, 0.30, None),
    (0.40, 0.27, "down"), (0.40, 0.10, "down")])
def test_a_drafts_fair_test_verdict_is_the_plans(old, new, way):
    """The draft says what the plan's tie.by (analysis.moved_by) decides, and its claim holds on
    the same numbers: a drop to 0.75 of the old share once got 'the changed X moved the row away'
    in the voice while the scene's summary (moved_by: 30 % either way) said it hardly moved."""
    from layerwise_core.analysis.attention_depth_why import direction, moved_by
    from layerwise_core.storyboard.claims import parse_claim
    from layerwise_templates.attention_depth.draft import new_x_verdict
    said, claim = new_x_verdict("tie", new, old, "UP", "DOWN")
    assert direction(old, new, 0.3) == way
    assert said == {"up": "UP", "down": "DOWN"}.get(way, said) and ("hardly" in said) == (way is None)
    assert (moved_by(old, old, new) == "changed x") == (way is not None)
    assert parse_claim(claim).holds(new / old), claim


def test_columns_keep_order_and_sum_what_they_leave_out(built):
    """Round 37 (columns.py): the plan's keep order (the sink, the focus word and the named
    words first, then nearest the focus word; a decoder's words before it before any after
    it), each run left out one "…" (one at the end too), its number the sum of the row there."""
    from layerwise_templates.attention_depth.columns import columns, elided, keep_order, runs
    order, must = keep_order(8, [5], [0, 2], decoder=False)
    assert order[:must] == [0, 2, 5] and order[must:] == [4, 6, 3, 7, 1]
    order, must = keep_order(8, [5], [0], decoder=True)
    assert order == [0, 5, 4, 3, 2, 1, 6, 7] and must == 2
    assert columns([0, 4, 5], 8) == [0, None, 4, 5, None]
    assert runs([0, 4, 5], 8) == [[1, 2, 3], [6, 7]]
    row = [0.1, 0.2, 0.1, 0.1, 0.2, 0.3, 0.0, 0.0]
    sums = elided(row, order, must)
    assert sums[0] == pytest.approx([0.6, 0.0]) and sums[-1] == []
    # MiniLM's shipped sentence fits whole: the order keeps every token, nothing left out
    _, plan = built
    d = plan["data"]
    n = len(d["tokens"])
    assert sorted(d["columns"]["order"]) == list(range(n))
    assert all(lay["elided"][-1] == [] for lay in d["layers"])


def test_dense_chart_numbers_sit_above_the_bars():
    """Round 37 (a fresh review of a SmolLM2 draft: 0.01 under the axis in the layer numbers'
    row, "0 0.01 / 11"): marks.place puts a number over its point, or slid sideways with the
    point still under it, at the lowest height clear of every bar it spans and of the numbers
    placed before it, inside the chart; layer numbers that would touch drop a row; a near-tie
    is one group, split into runs of neighbours."""
    from layerwise_templates.attention_depth.marks import adjacent, groups, meets, place, rows
    bw, p = 0.08, 0.11
    tops = [0.1, 0.05, 1.0, 1.0, 1.0, 1.0, 0.3, 0.3, 0.05, 0.02, 1.7, 1.2]
    bars = [(i * p - bw / 2, i * p + bw / 2, 0.0, t) for i, t in enumerate(tops)]
    # layer 9, buried between layer 10's 1.7 and the 1.0s: slid left over the lower bars
    pl = place(0.8, 0.27, 9 * p, tops[9], bars, [], -0.5, 2.0)
    assert pl.box[0] <= 9 * p <= pl.box[1] and pl.x < 9 * p
    assert pl.bottom >= 1.0 and pl.bottom < 1.7 and pl.bottom > 0      # never under the axis
    assert not any(meets(pl.box, b) for b in bars)
    # a second number clears the first
    pl2 = place(0.8, 0.27, 7 * p, tops[7], bars, [pl.box], -0.5, 2.0)
    assert not meets(pl2.box, pl.box) and not any(meets(pl2.box, b) for b in bars)
    # kept inside the chart: the first bar's number does not slide left of its edge
    pl3 = place(0.8, 0.27, 0.0, tops[0], bars, [], -0.05, 2.0)
    assert pl3.box[0] >= -0.05 - 1e-9
    assert rows([(0, 0.3), (0.5, 0.8), (0.82, 1.1), (1.5, 1.8)]) == [0, 0, 1, 0]
    assert groups([0, 11, 24, 29], [[10, 11], [24]]) == [[0], [10, 11], [24], [29]]
    assert groups([0, 20, 29], [[11], [20, 24]]) == [[0], [11], [20, 24], [29]]
    assert adjacent([20, 24, 10, 11]) == [[10, 11], [20], [24]]


def test_sink_ties_and_steps_are_the_shares(built):
    """Round 37: the plan's near-ties (the layers whose share is written as the extreme's)
    and the steps up and down from one layer to the next, recomputed from the shares."""
    from layerwise_templates.attention_depth.plan import steps, tied
    d = built[1]["data"]
    share, dec = d["sink"]["share"], d["decimals"]
    for key in ("max", "min"):
        k = d["sink"][key]["layer"]
        assert d["sink"][key]["tied"] == [j for j in range(len(share))
                                          if f"{share[j]:.{dec}f}" == f"{share[k]:.{dec}f}"]
    diffs = np.diff(share)
    assert d["sink"]["steps"] == {"rises": int((diffs > 0).sum()), "falls": int((diffs < 0).sum()),
                                  "n": len(share) - 1}
    assert tied([0.0104, 0.0062, 0.5], 1, 2) == [0, 1] and tied([0.0104, 0.0062], 1, 3) == [1]
    assert steps([0.1, 0.3, 0.2, 0.2]) == {"rises": 1, "falls": 1, "n": 3}
    # MiniLM's weights are a folder's (no GGUF file): no measured name, the kit's footer
    assert d["weights"] is None


def test_level_split_is_the_least_spread_cut():
    """Round 39: the summary's two levels, the cut whose two runs spread least about their
    means (each run at least 3 layers), recomputed by brute force; None when too short."""
    from layerwise_templates.attention_depth.plan import level_split
    s = level_split([0.1, 0.0, 0.2, 0.1, 0.6, 0.5, 0.7, 0.6])
    assert s["end"] == 3 and s["before"] == pytest.approx(0.1) and s["after"] == pytest.approx(0.6)
    assert level_split([0.1, 0.2, 0.3, 0.4, 0.5]) is None
    assert level_split([0.3, 0.3, 0.3, 0.9, 0.9, 0.9, 0.1], least=3)["end"] == 2


def test_measured_name_is_the_file_read():
    """Round 37: what was measured, named once for logit_lens, residual_stream and
    attention_depth (models.weights_read, measured_as): SmolLM2's package file is the
    Instruct variant at 4 bits; a folder (MiniLM) keeps the registry's name."""
    from layerwise_core.models import REGISTRY, measured_as, weights_read
    e = REGISTRY["smollm2-135m"]
    w = weights_read({"files": {e.relative: "x"}, "package": e.spec.package}, e.spec.display)
    assert (w["name"], w["variant"], w["quant"], w["bits"]) == \
        ("SmolLM2-135M-Instruct", "Instruct", "Q4_1", 4)
    assert measured_as(w, e.spec.display) == "SmolLM2-135M-Instruct · 4-bit (Q4_1)"
    assert measured_as(w, e.spec.display, quant=False) == "SmolLM2-135M-Instruct (4-bit)"
    m = REGISTRY["minilm-l6"].spec.display
    assert weights_read({"files": {"config.json": "x"}}, m) is None
    assert measured_as(None, m) == m
