"""per_head's new plan fields (docs/chapter.md §4.2), re-derived independently of
layerwise_core/analysis/per_head_join.py: softmax as exp-and-divide, the 12 head outputs joined
and multiplied by W_O (the model's hook_attn_out, and the chapter's 5.50 and per-head pieces
2.65 / 1.88 / 1.65 for heads 4 / 10 / 2), X + Δ_attn; the window of columns for a long
sentence and the last token of a word of several."""

from __future__ import annotations

import json

import numpy as np
import pytest

from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard, validate_text
from layerwise_core.tracing import get_trace
from layerwise_templates import storyboard_path
from layerwise_templates.per_head.plan import WIDTH, slots


@pytest.fixture(scope="module")
def shipped():
    sb = load_storyboard(storyboard_path("per_head"))
    plan = json.loads(json.dumps(build_plan(sb)))
    return sb, plan["data"], get_trace(sb.model, sb.sentences[0])


def test_per_head_exp_and_divide_is_the_softmax(shipped):
    _, d, t = shipped
    h = d["layers"][0]["heads"][0]
    s = np.asarray(h["scores"])
    e = np.exp(s - s.max())
    assert h["exp"] == pytest.approx(e.tolist(), abs=1e-12)
    assert h["exp_sum"] == pytest.approx(e.sum(), abs=1e-12)
    assert (e / e.sum()).tolist() == pytest.approx(h["weights"], abs=1e-12)
    f = d["focus"]["pos"]
    row = np.asarray(t["blocks.0.attn.hook_pattern"], np.float64)[2, f]
    assert h["weights"] == pytest.approx(row.tolist(), abs=1e-6)
    # the chapter's figures: river e^0 = 1, bank e^-6.77 = 0.0011, the sum 1.001, weights 3 dp
    assert h["exp"][h["top"]["pos"]] == 1.0
    assert round(h["exp"][h["second"]["pos"]], 4) == 0.0011
    assert round(h["exp_sum"], 3) == 1.001
    assert (round(h["top"]["weight"], 3), round(h["second"]["weight"], 3)) == (0.999, 0.001)


def test_per_head_join_is_the_attention_update(shipped):
    """z_h (the heads' weighted values) joined in head order, times W_O stacked, plus b_O,
    equals the model's attention output for bank; each head's piece is its block of rows."""
    _, d, t = shipped
    j = d["layers"][0]["join"]
    f = d["focus"]["pos"]
    W = t.weights()
    z = np.asarray(t["blocks.0.attn.hook_z"], np.float64)[f]                 # [12, 32]
    joined = z.reshape(-1)                                                   # 384, head order
    W_O = np.asarray(W["blocks.0.attn.W_O"], np.float64).reshape(-1, 384)     # [384, 384]
    delta = joined @ W_O + np.asarray(W["blocks.0.attn.b_O"], np.float64)
    hooked = np.asarray(t["blocks.0.hook_attn_out"], np.float64)[f]
    assert delta == pytest.approx(hooked, abs=1e-4)
    assert j["delta"] == pytest.approx(delta[:3].tolist(), abs=1e-9)
    assert j["delta_norm"] == pytest.approx(np.linalg.norm(delta), abs=1e-9)
    assert round(j["delta_norm"], 2) == 5.50
    # the ratio the join beat says: the update beside X^(0)'s length
    assert j["ratio"] == pytest.approx(j["delta_norm"] / j["x_norm"], rel=1e-12)
    assert round(j["ratio"], 2) == 0.48
    pieces = [np.linalg.norm(joined[32 * h:32 * h + 32] @ W_O[32 * h:32 * h + 32])
              for h in range(12)]
    assert j["piece_norms"] == pytest.approx(pieces, abs=1e-9)
    assert [(r["head"], round(r["length"], 2)) for r in j["top"]] == [
        (4, 2.65), (10, 1.88), (2, 1.65)]
    P = np.asarray(t["blocks.0.attn.hook_pattern"], np.float64)[:, f, 5]      # on 'river'
    assert [r["on_key"] for r in j["top"]] == pytest.approx([P[4], P[10], P[2]], abs=1e-12)
    x = np.asarray(t["blocks.0.hook_resid_pre"], np.float64)[f]
    assert j["mid"] == pytest.approx((x + delta)[:3].tolist(), abs=1e-9)
    assert j["mid"] == pytest.approx(
        np.asarray(t["blocks.0.hook_resid_mid"], np.float64)[f, :3].tolist(), abs=1e-5)
    # one precision for X, Δ_attn and X + Δ_attn wherever they are shown (the review: 0.55 at
    # the start, 0.554 in the sum), and the shown sum adds up from the shown terms
    dec = j["decimals"]
    assert dec["x"] == dec["delta"] == dec["mid"] == d["layers"][0]["x_decimals"] >= 3
    assert all(round(round(a, dec["x"]) + round(b, dec["x"]) - round(c, dec["x"]), 9) == 0
               for a, b, c in zip(j["x"], j["delta"], j["mid"]))


def test_per_head_window_and_a_word_of_several_tokens(tmp_path):
    text = storyboard_path("per_head").read_text()
    text = text.replace('sentences: ["I sat on the river bank."]',
                        'sentences: ["My grandmother kept her savings in a bank downtown, and '
                        'she didn\'t trust the espressos."]').replace("focus: bank",
                                                                      "focus: espressos")
    text = "\n".join(x for x in text.splitlines() if "expect" not in x
                     and not x.strip().startswith('- "data'))
    sb = validate_text(text + "\n", tmp_path / "per_head.yaml")
    from layerwise_templates.per_head.plan import build
    t = get_trace(sb.model, sb.sentences[0])
    d = build(sb, [t])
    parts = [p for p, tok in enumerate(t.tokens) if tok in ("es", "##press", "##os")]
    assert d["focus"]["n_parts"] == 3 and d["focus"]["pos"] == parts[-1]
    assert d["focus"]["token"] == "##os"
    assert d["windowed"] and len(d["slots"]) <= WIDTH
    assert d["focus"]["pos"] in d["window"] and d["slots"] == slots(d["window"], len(t.tokens))
    assert None in d["slots"]                                  # a marked ellipsis
    assert d["window"] == sorted(d["window"])


def test_per_head_column_sum_of_first_entries(shipped):
    """The pieces beat's column sum: each head's piece's first entry (z_h times its block of
    W_O's rows, first column) and b_O's first entry, as shown, add up to Δ_attn's first entry
    as shown."""
    _, d, t = shipped
    j = d["layers"][0]["join"]
    f = d["focus"]["pos"]
    W = t.weights()
    z = np.asarray(t["blocks.0.attn.hook_z"], np.float64)[f].reshape(-1)
    W_O = np.asarray(W["blocks.0.attn.W_O"], np.float64).reshape(-1, 384)
    b_O = np.asarray(W["blocks.0.attn.b_O"], np.float64)
    firsts = [float(z[32 * h:32 * h + 32] @ W_O[32 * h:32 * h + 32, 0]) for h in range(12)]
    assert j["first"] == pytest.approx(firsts, abs=1e-9)
    assert j["bias_first"] == pytest.approx(b_O[0], abs=1e-6)
    sd = j["decimals"]["delta"]
    shown = sum(round(x, sd) for x in [*j["first"], j["bias_first"]])
    assert round(shown, sd) == round(j["delta"][0], sd)
    assert "plane" not in j
