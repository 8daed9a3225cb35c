"""The context_qkv plan: its storyboard validates, its cosines are the traces', layer 0 is one
vector only when the token and position are the same, and its narration quotes the plan."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from layerwise_core.errors import StoryboardError
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard, validate_text
from layerwise_templates import TEMPLATES
from layerwise_core.tracing import get_trace
from scenes.theme import fmt

from conftest import ROOT

STORYBOARD = ROOT / "layerwise_templates" / "context_qkv" / "context_qkv.yaml"
NAMES = {"q": "queries", "k": "keys", "v": "values"}


def cos(a, b) -> float:
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


@pytest.fixture(scope="module")
def built(cache_dir):
    sb = load_storyboard(STORYBOARD)
    plan = build_plan(sb, cache_dir=cache_dir)
    return sb, json.loads(json.dumps(plan))        # as a scene reads it: JSON


def test_storyboard_validates_and_is_registered():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "context_qkv" and "context_qkv" in TEMPLATES
    assert sb.sentences == ("I sat on the river bank.", "I deposited cash at the bank.")
    assert [b.id for b in sb.beats] == ["sentences", "same", "entered", "layers",
                                          "compare"]
    assert {s for b in sb.beats for s in b.show} == TEMPLATES["context_qkv"].shows
    scene = TEMPLATES["context_qkv"].scene_class()
    for show in TEMPLATES["context_qkv"].shows:
        assert callable(getattr(scene, f"beat_{show}", None)), show


def test_cosines_are_the_traces(built, cache_dir):
    sb, plan = built
    d = plan["data"]
    a, b = (get_trace(sb.model, s, cache_dir=cache_dir) for s in sb.sentences)
    (p,), (q,) = d["contexts"][0]["positions"], d["contexts"][1]["positions"]
    assert a.tokens[p] == b.tokens[q] == "bank"
    assert d["layers"] == list(range(a.n_layers))
    for l in d["layers"]:
        x = (a[f"blocks.{l}.hook_resid_pre"][p], b[f"blocks.{l}.hook_resid_pre"][q])
        assert d["cos"]["x"][l] == pytest.approx(cos(*x), abs=1e-9)
        assert d["cos"]["in"][l] == d["cos"]["x"][l]       # post-LN: W reads X itself
        for k in "qkv":
            va, vb = a[f"blocks.{l}.attn.hook_{k}"][p], b[f"blocks.{l}.attn.hook_{k}"][q]
            assert d["cos"][k][l] == pytest.approx(cos(va, vb), abs=1e-9), (l, k)
            heads = [cos(va[h], vb[h]) for h in range(len(va))]
            assert d["cos"][f"{k}_head_mean"][l] == pytest.approx(np.mean(heads), abs=1e-9)
            np.testing.assert_allclose(d["first"][k][l][0], va.ravel()[:d["first"]["dims"]],
                                       atol=1e-7)
    assert d["reads"]["same_as_x"] and d["heads"]["q_width"] == a.spec.d_model


def test_layer_zero_is_one_vector_then_context_separates(built):
    _, plan = built
    d = plan["data"]
    assert d["match"] == {"same_token": True, "same_position": True,
                          "absolute_positions": True, "identical": True}
    assert d["summary"]["layer0_equal"] and fmt(d["cos"]["x"][0]) == "1.00"
    for key in ("x", "q", "k", "v"):
        assert d["first"][key][0][0] == d["first"][key][0][1]           # the same numbers
        assert d["first"][key][1][0] != d["first"][key][1][1]           # then not
        assert all(c < 0.995 for c in d["cos"][key][1:])                # below 1.00 as shown
    assert d["summary"]["all_below_one_after_0"]
    lo, hi = d["axes"]["y_range"]
    # the axis starts at the tick under the lowest cosine (0.622): 0.5, in steps of 0.1
    assert (lo, hi) == (0.5, 1.0) and d["axes"]["y_ticks"] == [0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    shown = min(min(d["cos"][k]) for k in ("x", "q", "k", "v"))
    assert lo <= shown - 0.05


def test_narration_quotes_the_plan(built):
    sb, plan = built
    d = plan["data"]
    sm = d["summary"]
    low, x, last = sm["lowest"], sm["x_lowest"], sm["last_lowest"]
    text = next(b["narration"] for b in plan["beats"] if b["id"] == "compare")   # filled
    # the lowest is said once, in the layers beat, as its ring lands (review 29: the compare
    # beat re-ringed and re-said it)
    lay = next(b["narration"] for b in plan["beats"] if b["id"] == "layers")
    # scoped to layers 1-4 (review 32a: at X^(5) the values are the most alike of the four)
    assert low["key"] == "v" and "the values part the most of the four" in lay
    assert "At layers 1 to 4," in lay
    assert f"down to {fmt(low['value'])} at layer {low['layer']}." in lay
    cs_ = d["cos"]
    assert all(cs_["v"][l] < min(cs_[k][l] for k in "xqk") for l in range(1, 5))
    assert cs_["v"][5] > max(cs_[k][5] for k in "xqk")
    # the lowest of all four quantities over all layers, and below X's own lowest
    assert low["value"] == min(min(d["cos"][k][1:]) for k in ("x", "q", "k", "v"))
    assert low["value"] < x["value"] and x["value"] == min(d["cos"]["x"])
    assert "come apart furthest" not in text
    L = len(d["layers"]) - 1
    assert last["layer"] == L and last["key"] == min("qkv", key=lambda k: d["cos"][k][L])
    # round 32 cut the second analyses (Q above X at layer 2, head 0's values, X's range,
    # what differing Q, K, V would change): the compare beat keeps "not measured here" and
    # the thesis, its caption says the thesis
    cap = next(b["caption"] for b in plan["beats"] if b["id"] == "compare")
    # what the chart shows, said first (review 32a): Q a little closer than X at every
    # layer, V further apart at layers 1-4; then why is not measured
    assert cap.startswith("On this pair: Q a little closer than X") and "At layer" not in cap
    for gone in ("The queries stay closer", "head 0's values", "X stays between",
                 "Keys and values that differ"):
        assert gone not in text and gone not in lay
    # "Q, K and V part more or less than X": Q above X at every layer from 1 on, the values
    # below it at their lowest layer
    c = d["cos"]
    assert all(c["q"][l] > c["x"][l] for l in range(1, L + 1))
    lo = low["layer"]
    # the shared bias said with the matrix (review 34b: it pulls the cosines too)
    assert ("the queries stay a little closer than X, and at layers 1 to 4 the values part "
            "further. A matrix stretches some directions more than others, and its bias adds "
            "the same vector to both, so a layer can widen or narrow a difference; how each "
            "does so is not measured here.") in text
    assert all(c["v"][l] < c["x"][l] for l in range(1, 5))
    assert "But no matrix makes two equal inputs differ" in text
    assert c["v"][lo] < c["x"][lo] < c["q"][lo]
    assert "end further apart" not in text
    assert "Values differ most" not in " ".join(b["caption"] for b in plan["beats"])
    # the piece: one operation a sentence (review 31b: all in one 5 s sentence)
    said = next(b["narration"] for b in plan["beats"] if b["id"] == "entered")
    for step in ("Each token, bank itself too, hands bank a piece.",
                 "each slice is scaled by that head's attention weight on river.",
                 "The output matrix W O turns them into river's piece.",
                 "Tip to tail, with the other tokens' pieces and a bias, they make the river "
                 "bank's update."):
        assert step in said
    assert f"vectors with {d['heads']['d_model']} numbers each" in said
    assert "drawn flat" not in said
    # the rest of layer 0, its end X^(1)'s cosine (the steps themselves are fresh_qkv's)
    st = d["entered"]["stages"]
    assert [x["name"] for x in st] == ["+attn", "LN", "+FFN", "LN"]
    assert st[0]["cos"] == pytest.approx(d["entered"]["sum_cos"], abs=1e-9)
    assert st[-1]["cos"] == pytest.approx(c["x"][1], abs=1e-9)
    # round 34 (reviews 33b/y: 0.93 and 0.89 were drawn, never said): each step's cosine said
    # with what the step does, in one sentence; then X^(1)'s, and that MiniLM is post-norm
    assert (f"LayerNorm, which re-centres and rescales each vector, takes their cosine to "
            f"{fmt(st[1]['cos'])}; the FFN, a small network run on each token alone, and its "
            f"add take it to {fmt(st[2]['cos'])}.") in said
    assert (f"A last LayerNorm, and the two X entering layer 1 have a cosine of "
            f"{fmt(st[-1]['cos'])}; MiniLM normalizes after each part, so layer 1's matrices "
            f"read this X directly.") in said
    assert d["reads"]["same_as_x"] and d["reads"]["placement"] == "post"
    assert "Then LayerNorm:" not in said


def test_entered_is_the_traces(built, cache_dir):
    """Re-derived here from the raw traces (not through analysis.context_qkv_entered): bank's
    layer-0 head-average row, heads 4 and 10, the two updates' lengths and cosine."""
    sb, plan = built
    e = plan["data"]["entered"]
    a, b = (get_trace(sb.model, s, cache_dir=cache_dir) for s in sb.sentences)
    (p,), (q,) = plan["data"]["contexts"][0]["positions"], plan["data"]["contexts"][1]["positions"]
    pa = np.asarray(a["blocks.0.attn.hook_pattern"], np.float64)[:, p]          # [head, key]
    pb = np.asarray(b["blocks.0.attn.hook_pattern"], np.float64)[:, q]
    np.testing.assert_allclose(e["sentences"][0]["mean"], pa.mean(0), atol=1e-9)
    np.testing.assert_allclose(e["sentences"][1]["mean"], pb.mean(0), atol=1e-9)
    assert a.tokens[e["sentences"][0]["words"][0]] == "river"
    assert [b.tokens[j] for j in e["sentences"][1]["words"][:3]] == ["the", "cash", "deposited"]
    assert [fmt(v) for v in (pa.mean(0)[5], pb.mean(0)[5], pb.mean(0)[3], pb.mean(0)[2])] == \
        ["0.30", "0.15", "0.14", "0.12"]
    h = e["heads"]
    assert [(x["head"], x["a_token"], fmt(x["a"]), x["b_token"], fmt(x["b"])) for x in h] == \
        [(4, "river", "0.84", "cash", "0.30"), (10, "river", "0.68", "deposited", "0.37")]
    ua = np.asarray(a["blocks.0.hook_attn_out"][p], np.float64)
    ub = np.asarray(b["blocks.0.hook_attn_out"][q], np.float64)
    assert e["length"] == pytest.approx([np.linalg.norm(ua), np.linalg.norm(ub)], abs=1e-9)
    assert e["cos"] == pytest.approx(cos(ua, ub), abs=1e-9)
    assert [fmt(v) for v in (*e["length"], e["cos"], e["x_next"])] == \
        ["5.50", "3.85", "0.38", "0.90"]
    assert e["x_next"] == plan["data"]["cos"]["x"][1]
    # the X both updates are added to, and the two sums before LayerNorm and the FFN
    xa = np.asarray(a["blocks.0.hook_resid_pre"][p], np.float64)
    xb = np.asarray(b["blocks.0.hook_resid_pre"][q], np.float64)
    assert e["x_length"] == pytest.approx([np.linalg.norm(xa), np.linalg.norm(xb)], abs=1e-9)
    assert e["sum_length"] == pytest.approx([np.linalg.norm(xa + ua), np.linalg.norm(xb + ub)],
                                            abs=1e-9)
    assert e["sum_cos"] == pytest.approx(cos(xa + ua, xb + ub), abs=1e-9)
    assert [fmt(v) for v in (*e["x_length"], e["sum_cos"])] == ["11.50", "11.50", "0.91"]
    assert e["sum_angle"] == pytest.approx(np.degrees(np.arccos(e["sum_cos"])), abs=1e-9)
    # the rest of layer 0, step by step (post-LN): the cosine of the two vectors after each
    for st, hook in zip(e["stages"], ("hook_resid_mid", "ln1.hook_normalized",
                                      "hook_resid_post", "ln2.hook_normalized")):
        va = np.asarray(a[f"blocks.0.{hook}"][p], np.float64)
        vb = np.asarray(b[f"blocks.0.{hook}"][q], np.float64)
        assert st["cos"] == pytest.approx(cos(va, vb), abs=1e-9), hook
    assert [fmt(x["cos"]) for x in e["stages"]] == ["0.91", "0.93", "0.89", "0.90"]
    # the tip-to-tail sketch: each X plus its update ends at its sum, the sums keep their
    # lengths and angle, the updates theirs (the angle the right-hand picture shows), X lies
    # along +x, drawn no longer than it is (the rest points out of the page), the second update
    # anticlockwise from the first (as in the plane of the updates)
    pl = {k: np.asarray(v) for k, v in e["plane"].items()}
    np.testing.assert_allclose(pl["x"] + pl["update"], pl["sum"], atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(pl["sum"], axis=1), e["sum_length"], atol=1e-9)
    assert cos(*pl["sum"]) == pytest.approx(e["sum_cos"], abs=1e-9)
    np.testing.assert_allclose(pl["x"][0], pl["x"][1], atol=1e-9)      # one X at layer 0
    assert abs(pl["x"][0][1]) < 1e-9 and pl["x"][0][0] > 0
    (ax, ay), (bx, by) = pl["update"]          # the second update turns counter-clockwise
    assert ax * by - ay * bx > 0
    assert np.linalg.norm(pl["x"][0]) <= e["x_length"][0] + 1e-9
    np.testing.assert_allclose(np.linalg.norm(pl["update"], axis=1), e["length"], atol=1e-9)
    assert cos(*pl["update"]) == pytest.approx(e["cos"], abs=1e-9)
    # each token's weighted values (all heads, through W_O) and the bias, drawn tip to tail in
    # the plane of the two updates: they end at the updates (lengths, cosine); river's piece
    # is most of update 1, and the markers' pieces are small despite their weight
    ends = [np.sum(s["pieces"]["xy"], axis=0) + s["pieces"]["bias"] for s in e["sentences"]]
    np.testing.assert_allclose(np.linalg.norm(ends, axis=1), e["length"], atol=1e-6)
    assert cos(*ends) == pytest.approx(e["cos"], abs=1e-6) and abs(ends[0][1]) < 1e-6
    river = np.linalg.norm(e["sentences"][0]["pieces"]["xy"][5])
    assert river > 0.75 * e["length"][0]
    assert all(np.linalg.norm(e["sentences"][i]["pieces"]["xy"][j]) < 0.1 * e["length"][i]
               for i in (0, 1) for j in e["sentences"][i]["special"])


def write(tmp_path: Path, sentences: list[str]) -> Path:
    text = STORYBOARD.read_text()
    body = "\n".join(f"  - \"{s}\"" for s in sentences)
    text = re.sub(r"sentences:\n(  - .*\n)+", f"sentences:\n{body}\n", text)
    path = tmp_path / "context_qkv.yaml"
    path.write_text(text)
    return path


def test_different_positions_are_said_not_hidden(tmp_path, cache_dir):
    """Different positions: the data says X already differs at layer 0, and the shipped
    narration ("every cosine is one") is refused by its own claims."""
    from layerwise_core.plans import storyboard_traces
    from layerwise_templates.context_qkv import plan as context_qkv
    path = write(tmp_path, ["The bank was closed.", "I sat on the river bank."])
    sb = load_storyboard(path)
    with pytest.raises(StoryboardError, match=r"is false"):
        build_plan(sb, cache_dir=cache_dir)
    d = context_qkv.build(sb, storyboard_traces(sb, cache_dir))
    assert d["match"]["same_token"] and not d["match"]["same_position"]
    assert not d["match"]["identical"]
    assert d["cos"]["x"][0] < 0.995 and not d["summary"]["layer0_equal"]


def test_exactly_two_sentences(tmp_path):
    path = write(tmp_path, ["I sat on the river bank.", "I deposited cash at the bank.",
                            "The bank of the river flooded."])
    with pytest.raises(StoryboardError) as e:
        validate_text(path.read_text(), path)
    line = str(e.value)
    assert re.search(r"context_qkv\.yaml:\d+: sentences: .*exactly 2 sentences, got 3", line), line


def test_entries_near_a_rounding_boundary_get_one_more_decimal():
    from layerwise_templates.context_qkv.plan import _entries
    rows, decimals = _entries([[[0.1234, -0.5]], [[-11.094941, 0.5]]], "data.first.in")
    assert decimals == [2, 3]           # -11.094941: within float noise of -11.095 at 2 decimals
    assert rows[1][0][0] == -11.094941


def test_one_heads_weights_are_the_models(built, cache_dir):
    """The softmax step shown once (review 34b: Q.K, softmax, weights never seen): head 4's
    scores for bank's query, re-derived from the raw Q and K, and its weights, which are the
    model's own attention row; the two written out (river, [CLS]) said with their values."""
    sb, plan = built
    sm = plan["data"]["entered"]["softmax"]
    a = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    (p,) = plan["data"]["contexts"][0]["positions"]
    h = sm["head"]
    assert (h, sm["query"], sm["d_head"]) == (4, p, 32)
    assert h == plan["data"]["entered"]["heads"][0]["head"]       # the first contrast head
    q = np.asarray(a["blocks.0.attn.hook_q"], np.float64)[p, h]
    k = np.asarray(a["blocks.0.attn.hook_k"], np.float64)[:, h]
    np.testing.assert_allclose(sm["scores"], k @ q / np.sqrt(32), atol=1e-6)
    np.testing.assert_allclose(sm["weights"],
                               np.asarray(a["blocks.0.attn.hook_pattern"], np.float64)[h, p],
                               atol=1e-6)
    assert [a.tokens[j] for j in sm["keys"]] == ["river", "[CLS]"]
    said = next(b["narration"] for b in plan["beats"] if b["id"] == "entered")
    assert ("In head 4, bank's query times river's key, over the root of 32, scores 5.6; "
            "the start marker's key scores 2.7. Softmax over the whole row turns them into "
            "weights of 0.84 and 0.05.") in said


def test_the_zoomed_scale_holds_the_steps(built):
    """The rest of layer 0 moves a dot on a zoomed cosine scale (review 34b: the pair's angle
    turned a few degrees, too little to see): its range holds every step's cosine, its ticks
    are even steps, every other one labelled."""
    from layerwise_templates.context_qkv.plan import zoom_axis
    _, plan = built
    e = plan["data"]["entered"]
    g = e["gauge"]
    cs = [st["cos"] for st in e["stages"]]
    assert g["range"] == pytest.approx([0.88, 0.94])
    assert g["ticks"] == pytest.approx([0.88, 0.89, 0.9, 0.91, 0.92, 0.93, 0.94])
    assert g["labels"] == pytest.approx([0.88, 0.9, 0.92, 0.94])
    assert g["range"][0] < min(cs) and max(cs) < g["range"][1]
    # a wide spread takes a coarser step, never more than 8 ticks
    w = zoom_axis([0.41, 0.95])
    assert len(w["ticks"]) <= 8 and w["ticks"][0] <= 0.41 and w["ticks"][-1] >= 0.95
    assert set(w["labels"]) <= set(w["ticks"])
    # nothing past 1 (a pair already all but parallel)
    assert zoom_axis([0.995, 0.999])["range"][1] == 1.0
