"""The fresh_qkv and per_head plans: their storyboards validate, their plans build, and their
numbers are the trace's (Q = X W + b entries, the post-LN update, old/new X x old/new W,
attention rows, most-attended tokens), recomputed here directly from the arrays. No rendering."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from layerwise_core.analysis.robust import robust_limit
from layerwise_core.analysis.similarity import cosine
from layerwise_core.analysis.vectors import attn_input, positions
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_core.templates import TEMPLATES
from layerwise_core.tracing import get_trace

from conftest import ROOT

BOARDS = ROOT / "scenes" / "storyboards"


def f64(a) -> np.ndarray:
    return np.asarray(a, np.float64)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def built(name: str, cache):
    sb = load_storyboard(BOARDS / f"{name}.yaml")
    plan = build_plan(sb, cache_dir=cache)
    trace = get_trace(sb.model, sb.sentences[0], cache_dir=cache)
    return sb, json.loads(json.dumps(plan)), trace      # the plan as a scene reads it: JSON


@pytest.fixture(scope="module")
def fresh(cache):
    return built("fresh_qkv", cache)


@pytest.fixture(scope="module")
def heads(cache):
    return built("per_head", cache)


# --- storyboards and scenes ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["fresh_qkv", "per_head"])
def test_storyboard_validates_and_uses_every_view(name):
    sb = load_storyboard(BOARDS / f"{name}.yaml")
    assert sb.template == name and sb.model == "minilm-l6" and sb.focus == ("bank",)
    assert 4 <= len(sb.beats) <= 8
    assert {s for b in sb.beats for s in b.show} == TEMPLATES[name].shows


def test_scenes_have_a_handler_for_every_show_name():
    from scenes.templates.fresh_qkv import FreshQKVScene
    from scenes.templates.per_head import PerHeadScene
    for cls, name in ((FreshQKVScene, "fresh_qkv"), (PerHeadScene, "per_head")):
        for show in TEMPLATES[name].shows:
            assert callable(getattr(cls, f"beat_{show}", None)), (name, show)


def test_scene_modules_import_no_torch():
    code = ("import sys; import scenes.templates.fresh_qkv, scenes.templates.per_head; "
            "bad = [m for m in ('torch', 'transformers') if m in sys.modules]; "
            "assert not bad, bad")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# --- fresh_qkv ---------------------------------------------------------------------------------

def redo(t, W, inp, l, X):
    return np.einsum("pd,hde->phe", f64(inp), f64(W[f"blocks.{l}.attn.W_{X}"])) \
        + f64(W[f"blocks.{l}.attn.b_{X}"])


def test_fresh_focus_and_the_numbers_of_x(fresh):
    _, plan, t = fresh
    d = plan["data"]
    pos = d["focus"]["positions"]
    assert pos == positions(t, "bank") == [6] and d["focus"]["tokens"] == ["bank"]
    assert d["tokens"][0] == "[CLS]" and d["tokens"][-1] == "[SEP]"
    assert d["model"] == "MiniLM-L6-H384"
    assert [lay["layer"] for lay in d["layers"]] == list(range(t.n_layers))
    for lay in d["layers"]:
        x = f64(t[f"blocks.{lay['layer']}.hook_resid_pre"])[6]
        assert lay["x_first"] == pytest.approx(x[:4].tolist(), abs=1e-9)
        assert lay["in_first"] == lay["x_first"]          # post-LN: W_Q multiplies X itself
        assert lay["x_norm"] == pytest.approx(np.linalg.norm(x), rel=1e-9)


def test_fresh_shown_q_k_v_are_x_times_w_plus_b(fresh):
    """The entries on screen are the trace's Q, K, V of head 0, and equal in(X) W + b redone
    here in float64 from the real weights; the W entries shown are the real weights."""
    _, plan, t = fresh
    W = t.weights()
    for lay in plan["data"]["layers"]:
        l = lay["layer"]
        for k in "qkv":
            X = k.upper()
            trace = f64(t[f"blocks.{l}.attn.hook_{k}"])[6, 0, :3]
            mine = redo(t, W, attn_input(t, l), l, X)[6, 0, :3]
            assert lay[k] == pytest.approx(trace.tolist(), abs=1e-9)
            assert lay[f"redo_{k}"] == pytest.approx(mine.tolist(), abs=1e-9)
            assert np.abs(mine - trace).max() < 1e-5
            assert np.asarray(lay[f"W_{X}"]) == pytest.approx(
                f64(W[f"blocks.{l}.attn.W_{X}"])[0, :4, :3], abs=1e-12)
            err = float(np.abs(redo(t, W, attn_input(t, l), l, X)
                               - t[f"blocks.{l}.attn.hook_{k}"]).max())
            assert lay["identity"][k] == pytest.approx(err, rel=1e-9) and err < 1e-4


def test_fresh_update_is_the_post_ln_path(fresh):
    """X^(l) + Δattn, LN, + ΔFFN, LN = X^(l+1): the sizes shown are the trace's."""
    _, plan, t = fresh
    d = plan["data"]
    assert d["norm"] == {"kind": "layernorm", "placement": "post"}
    for lay in d["layers"]:
        l, u = lay["layer"], lay["update"]
        g = {k: f64(t[f"blocks.{l}.{h}"])[6] for k, h in (
            ("x", "hook_resid_pre"), ("d_attn", "hook_attn_out"), ("mid", "hook_resid_mid"),
            ("ln1", "ln1.hook_normalized"), ("d_ffn", "hook_mlp_out"),
            ("post", "hook_resid_post"), ("ln2", "ln2.hook_normalized"))}
        assert np.abs(g["x"] + g["d_attn"] - g["mid"]).max() < 1e-4
        assert np.abs(g["ln1"] + g["d_ffn"] - g["post"]).max() < 1e-4
        for k, v in g.items():
            assert u["norms"][k] == pytest.approx(np.linalg.norm(v), rel=1e-9)
        assert u["x_next_first"] == pytest.approx(g["ln2"][:4].tolist(), abs=1e-9)
        if l + 1 < t.n_layers:                        # the next layer starts from this X
            assert d["layers"][l + 1]["x_first"] == pytest.approx(u["x_next_first"], abs=1e-9)


def test_fresh_normalisation_step_is_post_ln(fresh):
    _, plan, t = fresh
    W = t.weights()
    for lay in plan["data"]["layers"]:
        l, n = lay["layer"], lay["norm"]
        if l == 0:
            before = sum(f64(t[h]) for h in ("hook_embed", "hook_pos_embed",
                                             "hook_token_type_embed"))
            site = "embed_ln"
        else:
            before, site = f64(t[f"blocks.{l - 1}.hook_resid_post"]), f"blocks.{l - 1}.ln2"
        assert n["site"] == site and n["placement"] == "post"
        b = before[6]
        assert n["norm_before"] == pytest.approx(np.linalg.norm(b), rel=1e-6)    # float32 sum
        w, bias = f64(W[f"{site}.w"]), f64(W[f"{site}.b"])
        ln = (b - b.mean()) / np.sqrt(((b - b.mean()) ** 2).mean() + 1e-12) * w + bias
        assert np.abs(ln - f64(t[f"blocks.{l}.hook_resid_pre"])[6]).max() < 1e-3


def test_fresh_causes_separate_new_x_from_new_w(fresh):
    """old X·new W, new X·new W, new X·old W: cosines only within one W's basis; attention of
    'bank' redone here; the actual combinations equal the model's own patterns."""
    _, plan, t = fresh
    W = t.weights()
    d = plan["data"]
    assert d["layers"][0]["causes"] is None
    for lay in d["layers"][1:]:
        l, c = lay["layer"], lay["causes"]
        X_old, X_new = attn_input(t, l - 1), attn_input(t, l)
        qa, qb = redo(t, W, X_old, l, "Q")[6], redo(t, W, X_new, l, "Q")[6]
        qc, qp = redo(t, W, X_new, l - 1, "Q")[6], redo(t, W, X_old, l - 1, "Q")[6]
        assert c["cos_new_x_same_w"] == pytest.approx(float(cosine(qa.ravel(), qb.ravel())),
                                                      abs=1e-9)
        assert c["cos_new_x_old_w"] == pytest.approx(float(cosine(qp.ravel(), qc.ravel())),
                                                     abs=1e-9)
        assert abs(c["cos_across_w"]) < 0.15          # different bases: says nothing
        assert c["cos_new_x_same_w"] > 0.5            # same W: the new X moves Q only partly
        assert c["q_first"]["b"] == pytest.approx(lay["q"], abs=1e-5)
        assert c["q_first"]["p"] == pytest.approx(d["layers"][l - 1]["q"], abs=1e-5)
        pat = f64(t[f"blocks.{l}.attn.hook_pattern"])[0, 6]
        assert c["pattern"]["b"] == pytest.approx(pat.tolist(), abs=1e-5)
        prev = f64(t[f"blocks.{l - 1}.attn.hook_pattern"])[0, 6]
        assert c["pattern"]["p"] == pytest.approx(prev.tolist(), abs=1e-5)
        for n in "ac":
            p = np.asarray(c["pattern"][n])
            assert p.sum() == pytest.approx(1.0, abs=1e-9) and (p >= 0).all()
        tv = lambda a, b: 0.5 * np.abs(np.asarray(a) - np.asarray(b)).sum()  # noqa: E731
        assert c["tv_new_x"] == pytest.approx(tv(c["pattern"]["a"], c["pattern"]["b"]), abs=1e-9)
        assert c["tv_new_w"] == pytest.approx(tv(c["pattern"]["c"], c["pattern"]["b"]), abs=1e-9)


# --- per_head ----------------------------------------------------------------------------------

def test_per_head_pattern_rows(heads):
    sb, plan, t = heads
    d = plan["data"]
    pos = d["focus"]["positions"]
    for lay in d["layers"]:
        P = f64(t[f"blocks.{lay['layer']}.attn.hook_pattern"])
        assert [h["head"] for h in lay["heads"]] == list(sb.heads)
        for h in lay["heads"]:
            row = P[h["head"], pos].mean(0)
            assert h["pattern"] == pytest.approx(row.tolist(), abs=1e-9)
            assert sum(h["pattern"]) == pytest.approx(1.0, abs=1e-5)
            assert len(h["pattern"]) == len(t.tokens) == len(d["tokens"])
            ws = [x["weight"] for x in h["top"]]
            assert ws == sorted(ws, reverse=True) and len(ws) == d["top_k"]
            assert h["top"][0]["pos"] == int(row.argmax())
            assert h["top"][0]["token"] == t.tokens[int(row.argmax())]
            q = np.arange(1, P.shape[1])
            assert h["prev_token"] == pytest.approx(float(P[h["head"], q, q - 1].mean()),
                                                    abs=1e-9)


def test_per_head_heads_attend_differently(heads):
    """Not every head looks at the same token (layer 0: 'river', 'sat', '[CLS]')."""
    _, plan, _ = heads
    lay = plan["data"]["layers"][0]
    assert len({h["top"][0]["token"] for h in lay["heads"]}) >= 3
    head2 = next(h for h in lay["heads"] if h["head"] == 2)
    assert head2["top"][0]["token"] == "river" and head2["prev_token"] > 0.95


def test_per_head_vectors_and_weights(heads):
    _, plan, t = heads
    d = plan["data"]
    W = t.weights()
    pos = d["focus"]["positions"]
    n = d["weight_block"]["rows"][1]
    for lay in d["layers"]:
        l = lay["layer"]
        for h in lay["heads"]:
            for k in "qkv":
                raw = f64(t[f"blocks.{l}.attn.hook_{k}"])[pos].mean(0)[h["head"]]
                assert h[k]["values"] == pytest.approx(
                    np.clip(raw / d["limits"][k], -1, 1).tolist(), abs=1e-6)
            for X in "QKV":
                raw = f64(W[f"blocks.{l}.attn.W_{X}"])[h["head"], :n, :n]
                assert np.asarray(h[f"W_{X}"]["values"]) == pytest.approx(
                    np.clip(raw / d["limits"]["w"], -1, 1), abs=1e-6)
        for X in "QKV":
            flat = f64(W[f"blocks.{l}.attn.W_{X}"]).reshape(12, -1)
            c = cosine(flat[:, None], flat[None, :])[np.triu_indices(12, k=1)]
            assert lay["w_cos"][X]["mean"] == pytest.approx(float(c.mean()), abs=1e-9)
            assert lay["w_cos"][X]["max_abs"] == pytest.approx(float(np.abs(c).max()), abs=1e-9)
            assert lay["w_cos"][X]["pairs"] == 66 and lay["w_cos"][X]["max_abs"] < 0.2
