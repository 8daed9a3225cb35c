"""The bank_drift plan: its storyboard validates, its cosines are the traces', and the two
senses of "bank" end further apart than they start."""

from __future__ import annotations

import json

import numpy as np
import pytest

from layerwise_core.analysis.vectors import layer_states, word_vectors
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_core.tracing import get_trace

from conftest import ROOT

STORYBOARD = ROOT / "scenes" / "storyboards" / "bank_drift.yaml"


def cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    sb = load_storyboard(STORYBOARD)
    cache = tmp_path_factory.mktemp("cache")
    plan = build_plan(sb, cache_dir=cache)
    return sb, json.loads(json.dumps(plan)), cache   # the plan as a scene reads it: JSON


def test_storyboard_validates():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "bank_drift" and sb.model == "minilm-l6"
    assert "I sat on the river bank." in sb.sentences
    assert "I deposited cash at the bank." in sb.sentences
    assert all(f == "bank" for f in sb.focus)


def test_plan_cosines_are_the_traces(built):
    sb, plan, cache = built
    d = plan["data"]
    traces = [get_trace(sb.model, s, cache_dir=cache) for s in sb.sentences]
    assert [s["hook"] for s in d["states"]] == layer_states(traces[0])
    vecs = [word_vectors(t, f) for t, f in zip(traces, sb.focus)]
    for c in d["curves"]:
        i, j = c["pair"]
        expected = cos(vecs[i], vecs[j])
        np.testing.assert_allclose(c["raw"], expected, atol=1e-9)
        np.testing.assert_allclose(c["raw"], d["similarity"]["raw"][c["pair_index"]], atol=0)
        np.testing.assert_allclose(c["adjusted"],
                                   expected - np.asarray(d["similarity"]["baseline"]), atol=1e-9)
    # the projection: 2 coordinates for every state of every sentence, the variance shares <= 1
    xy = np.asarray(d["projection"]["xy"])
    assert xy.shape == (len(sb.sentences), len(d["states"]), 2)
    assert 0 < sum(d["projection"]["explained"]) <= 1


def test_river_and_money_bank_drift_apart(built):
    sb, plan, _ = built
    d = plan["data"]
    river, money = sb.sentences.index("I sat on the river bank."), \
        sb.sentences.index("I deposited cash at the bank.")
    curve = next(c for c in d["curves"] if sorted(c["pair"]) == sorted([river, money]))
    base = d["similarity"]["baseline"]
    print("\nstate        raw   baseline  adjusted   (river bank vs money bank, MiniLM-L6)")
    for s, st in enumerate(d["states"]):
        print(f"{s} {st['label']:13s} {curve['raw'][s]:.3f}   {base[s]:.3f}     "
              f"{curve['adjusted'][s]:.3f}")
    for c in d["curves"]:
        if c is not curve:
            print(f"other pair {c['pair']}: " + " ".join(f"{v:.3f}" for v in c["raw"]))
    assert curve["raw"][0] > curve["raw"][-1]
    assert curve["adjusted"][0] > curve["adjusted"][-1]
    sm = d["summary"]                              # what the `measured` beat quotes
    assert d["curves"][sm["curve"]] == curve
    assert curve["raw"][sm["dip"]] == min(curve["raw"][1:-1])
