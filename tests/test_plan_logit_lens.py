"""The logit-lens plan: it builds, it says what the trace says, and the storyboard's claims hold."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import ROOT
from layerwise_core.plans import build_plan
from layerwise_core.analysis.lens_view import enters_top, sharpening_start, sublayer_credit
from layerwise_templates.logit_lens.plan import display_token
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_core.tracing import get_trace

BOARD = ROOT / "layerwise_templates" / "logit_lens" / "logit_lens.yaml"


@pytest.fixture(scope="module")
def board():
    return load_storyboard(BOARD)


@pytest.fixture(scope="module")
def plan(board, cache_dir):
    return build_plan(board, cache_dir=cache_dir)


@pytest.fixture(scope="module")
def trace(board, cache_dir):
    return get_trace(board.model, board.sentences[0], cache_dir=cache_dir)


def test_storyboard_validates(board):
    assert board.template == "logit_lens"
    assert board.model == "smollm2-135m"
    assert 4 <= len(board.beats) <= 9      # (entropy and KL two beats since r26)


def test_final_answer_is_paris_at_rank_1(plan):
    d = plan["data"]
    assert d["answer"]["text"] == " Paris"
    assert d["answer"]["display"] == "␣Paris"
    last = d["layers"][-1]
    assert last["rank"] == 1
    assert last["top"][0]["text"] == " Paris" and last["top"][0]["is_answer"]


def test_plan_numbers_are_the_trace_arrays(plan, trace):
    d = plan["data"]
    pos = d["prompt"]["focus_pos"]
    assert trace.tokens[pos] == " is"
    vocab = trace.meta["lens"]["vocab"]
    answer = int(trace["lens.resid_post.final_ids"][pos])
    assert d["answer"]["id"] == answer
    for l, lay in enumerate(d["layers"]):
        for site, rank, prob in (("resid_post", "rank", "prob"),
                                 ("resid_mid", "mid_rank", "mid_prob")):
            assert lay[rank] == int(trace[f"lens.{site}.final_rank"][l, pos]) + 1
            assert lay[prob] == pytest.approx(float(trace[f"lens.{site}.final_prob"][l, pos]),
                                              rel=1e-6, abs=1e-12)
        ids = trace["lens.resid_post.top_ids"][l, pos, :d["top_k"]]
        probs = trace["lens.resid_post.top_probs"][l, pos, :d["top_k"]]
        assert [e["text"] for e in lay["top"]] == [vocab[str(int(i))] for i in ids]
        assert [e["prob"] for e in lay["top"]] == pytest.approx(probs.tolist(), rel=1e-6)
        assert [e["is_answer"] for e in lay["top"]] == [int(i) == answer for i in ids]
        assert [e["id"] for e in lay["top"]] == [int(i) for i in ids]
        assert lay["entropy"] == pytest.approx(float(trace["lens.resid_post.entropy"][l, pos]))
        top = d["rank_axis"]["decades"]
        assert lay["height"] == pytest.approx(top - math.log10(lay["rank"]))
        assert lay["mid_height"] == pytest.approx(top - math.log10(lay["mid_rank"]))


def test_bar_chart_numbers_recomputed_from_the_trace(plan, trace):
    """The bar chart across layers: top-8 per layer sorted by probability, and the layer from
    which the answer stays in the top 8, recomputed from the trace's arrays with numpy."""
    d = plan["data"]
    pos, k = d["prompt"]["focus_pos"], d["top_k"]
    assert k == 8
    ranks = trace["lens.resid_post.final_rank"][:, pos] + 1
    inside = np.nonzero(ranks > k)[0]
    assert d["answer"]["enters_top"] == int(inside[-1]) + 1 == enters_top(ranks.tolist(), k)
    for l, lay in enumerate(d["layers"]):
        probs = [e["prob"] for e in lay["top"]]
        assert probs == sorted(probs, reverse=True) and len(probs) == k
        in_top = [e for e in lay["top"] if e["is_answer"]]
        assert (len(in_top) == 1) == (lay["rank"] <= k)
        if in_top:
            assert lay["top"][lay["rank"] - 1]["is_answer"]
            assert in_top[0]["prob"] == pytest.approx(lay["prob"], rel=1e-6)
    # the climb the chart shows: thousands until the window, then these ranks
    assert [lay["rank"] for lay in d["layers"][23:]] == [396, 92, 113, 34, 7, 3, 1]


def test_grid_is_the_trace_top1(plan, trace):
    g = plan["data"]["grid"]
    ids = trace["lens.resid_post.top_ids"][:, :, 0]
    probs = trace["lens.resid_post.top_probs"][:, :, 0]
    final = trace["lens.resid_post.final_ids"]
    vocab = trace.meta["lens"]["vocab"]
    assert [p["text"] for p in g["positions"]] == trace.tokens
    layers = [r["layer"] for r in g["rows"]]
    assert layers == sorted(set(layers)) and layers[-1] == trace.n_layers - 1
    assert set(range(g["dense_from"], trace.n_layers)) <= set(layers)
    for row in g["rows"]:
        l = row["layer"]
        assert [c["text"] for c in row["cells"]] == [vocab[str(int(i))] for i in ids[l]]
        assert [c["prob"] for c in row["cells"]] == pytest.approx(probs[l].tolist(), rel=1e-6)
        assert [c["is_final"] for c in row["cells"]] == (ids[l] == final).tolist()
    assert all(c["is_final"] for c in g["rows"][-1]["cells"])   # the last layer is the output


def test_credit_splits_each_late_layer(plan):
    d = plan["data"]
    lays, c = d["layers"], d["credit"]
    assert [r["layer"] for r in c["rows"]] == d["window"]["layers"]
    for r in c["rows"]:
        l = r["layer"]
        assert (r["before"], r["after_attn"], r["after_ffn"]) == \
            (lays[l - 1]["rank"], lays[l]["mid_rank"], lays[l]["rank"])
        assert r["attn_factor"] * r["ffn_factor"] == pytest.approx(r["before"] / r["after_ffn"])
    assert c["attn_total"] * c["ffn_total"] == pytest.approx(
        lays[c["rows"][0]["layer"] - 1]["rank"] / lays[-1]["rank"])


def test_storyboard_claims(plan):
    """What the captions and narration say about SmolLM2 on this prompt."""
    d = plan["data"]
    ranks = [r["rank"] for r in d["layers"]]
    assert d["window"]["start"] == 23 and d["window"]["size"] == 7
    assert all(r > 1000 for r in ranks[:23]) and all(r <= 1000 for r in ranks[23:])
    assert all(2000 <= r <= 5100 for r in ranks[:23])              # beat "rank"
    assert ranks[6] > 1000 and 2500 <= ranks[21] <= 3500           # beats "early", "middle"
    assert d["layers"][21]["top"][0]["text"] == " " and d["layers"][21]["top"][0]["prob"] > 0.9
    assert ranks[28] == 3                                          # beat "late": third ...
    assert [e["text"] for e in d["layers"][28]["top"][:2]] == [" capital", " the"]
    assert d["layers"][28]["prob"] == pytest.approx(0.07, abs=0.005)
    rows = {r["layer"]: r["cells"] for r in d["grid"]["rows"]}    # beat "grid"
    assert all(rows[l][1]["is_final"] for l in rows if l >= 18)    # " of" after " capital"
    assert [l for l in rows if rows[l][-1]["is_final"]] == [29]    # Paris: the last row only
    assert d["layers"][29]["prob"] == pytest.approx(0.77, abs=0.01)
    big = d["credit"]["biggest_step"]
    assert (big["layer"], big["sublayer"]) == (23, "attn") and big["to"] < 400
    assert d["credit"]["most"] == "ffn"
    last = d["credit"]["rows"][-1]
    assert last["prob_after_attn"] == pytest.approx(0.10, abs=0.01)
    assert last["prob_after_ffn"] == pytest.approx(0.77, abs=0.01)


def test_plan_is_json_plain(plan):
    import json
    assert json.loads(json.dumps(plan["data"])) == plan["data"]


@pytest.mark.parametrize("raw,shown", [
    (" Paris", "␣Paris"), (" ", "␣"), ("\n\n", "↵↵"), ("\n   ", "↵␣␣␣"),
    ("\xa0", "␣"), ("\x07", "□"), ("", "∅"), ("\\xe6", "\\xe6"), ("<|endoftext|>", "<|endof…"),
    ("a&b", "a&b"), (" ‘", "␣‘")])
def test_display_token(raw, shown):
    assert display_token(raw) == shown


def test_sharpening_start_and_credit_helpers():
    assert sharpening_start([5000, 2000, 999, 10, 1]) == 2
    assert sharpening_start([5, 1]) == 0
    assert enters_top([50, 9, 3, 12, 7, 1], 8) == 4
    assert enters_top([5, 1], 8) == 0 and enters_top([5, 10], 8) is None
    c = sublayer_credit([100, 50, 10], [80, 60, 25], [0.0, 0.1, 0.5], [0.0, 0.05, 0.2], [1, 2])
    assert [r["mover"] for r in c["rows"]] == ["attn", "ffn"]
    assert c["biggest_step"] == {"layer": 2, "sublayer": "ffn", "factor": 2.5, "from": 25,
                                 "to": 10}
    assert c["attn_total"] == pytest.approx(100 / 60 * 50 / 25)
    assert np.isclose(c["ffn_total"], 60 / 50 * 25 / 10)
