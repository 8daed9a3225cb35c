"""The attention_depth plan: its storyboard validates, its rows are the trace's attention
pattern (head-average and per head), the sink share and the previous-token head are measured
from them, and its narration quotes the plan."""

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
    assert [b.id for b in sb.beats] == ["arcs", "depth", "sink", "heads"]
    assert {s for b in sb.beats for s in b.show} == TEMPLATES["attention_depth"].shows
    scene = TEMPLATES["attention_depth"].scene_class()
    for show in TEMPLATES["attention_depth"].shows:
        assert callable(getattr(scene, f"beat_{show}", None)), show


def test_rows_are_the_trace(built, cache_dir):
    sb, plan = built
    d = plan["data"]
    t = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    f = d["focus"]
    assert t.tokens[f] == "bank" and d["tokens"] == t.tokens
    assert d["special_tokens"] == ["[CLS]", "[SEP]"] and d["special"] == [0, len(t.tokens) - 1]
    assert [x["layer"] for x in d["layers"]] == list(range(t.n_layers))
    for l, x in enumerate(d["layers"]):
        p = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)
        mean = p[:, f].mean(axis=0)                  # over heads
        np.testing.assert_allclose(x["row"], mean, atol=1e-12)
        assert sum(x["row"]) == pytest.approx(1.0, abs=1e-5)
        assert x["sink"] == pytest.approx(mean[0] + mean[-1], abs=1e-12)
        others = [j for j in range(len(mean)) if j != f]
        assert x["top"]["pos"] == max(others, key=lambda j: mean[j])
        assert x["top"]["pos"] != f
    share = [x["sink"] for x in d["layers"]]
    assert d["sink"]["max"] == {"layer": int(np.argmax(share)), "value": max(share)}
    assert d["sink"]["min"] == {"layer": int(np.argmin(share)), "value": min(share)}


def test_previous_token_head_is_measured(built, cache_dir):
    sb, plan = built
    h = plan["data"]["heads"]
    t = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    n = len(t.tokens)
    scores = []
    for l in range(t.n_layers):
        p = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)
        scores.append([np.mean([p[head, q, q - 1] for q in range(1, n)])
                       for head in range(len(p))])
    scores = np.array(scores)
    l, head = np.unravel_index(np.argmax(scores), scores.shape)
    assert (h["layer"], h["prev"]["head"]) == (l, head)
    np.testing.assert_allclose(h["prev_token"], scores[l], atol=1e-12)
    assert h["prev"]["next_best"] == pytest.approx(np.sort(scores.ravel())[-2], abs=1e-12)
    p = np.asarray(t[f"blocks.{l}.attn.hook_pattern"], np.float64)
    np.testing.assert_allclose(h["rows"], p[:, plan["data"]["focus"]], atol=1e-12)
    # MiniLM layer 0 head 2 is a previous-token head: for "bank" it lands on "river"
    assert fmt(h["prev"]["score"]) == "1.00" and h["prev"]["before"]["token"] == "river"
    assert h["prev"]["weight_before"] > 0.99


def test_the_sink_is_measured_not_asserted(built):
    """Layers 1-4 put most of bank's row on [CLS]/[SEP]; layer 0 and the last layer less."""
    d = built[1]["data"]
    share = [x["sink"] for x in d["layers"]]
    assert d["sink"]["max"]["layer"] not in (0, len(share) - 1)
    assert all(s > 0.5 for s in share[1:-1]) and share[0] < 0.5
    assert d["sink"]["last"] == share[-1] < d["sink"]["max"]["value"]


def test_narration_quotes_the_plan(built):
    _, plan = built
    d = plan["data"]
    said = {b["id"]: b["narration"] for b in plan["beats"]}
    top = d["layers"][0]["top"]
    assert f"The heaviest goes to {top['token']}, with {fmt(top['weight'])}." in said["arcs"]
    mx, mn = d["sink"]["max"], d["sink"]["min"]
    assert f"up to {fmt(mx['value'])} at layer {mx['layer']}" in said["depth"]
    assert f"It is {fmt(mn['value'])} at layer {mn['layer']}" in said["sink"]
    assert f"and {fmt(d['sink']['last'])} at the last layer" in said["sink"]
    pv = d["heads"]["prev"]
    assert f"Head {pv['head']} gives, on average, {fmt(pv['score'])}" in said["heads"]
    assert f"No other head comes above {fmt(pv['next_best'])}." in said["heads"]
    assert not re.search(r"\{|\}", " ".join(said.values()))


def test_rows_near_a_rounding_boundary_get_one_more_decimal():
    from layerwise_templates.attention_depth.plan import shown_row
    assert shown_row([0.1234, 0.5], "data.x") == 2
    assert shown_row([0.125000001, 0.3], "data.x") == 3
