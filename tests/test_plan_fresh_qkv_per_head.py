"""The fresh_qkv and per_head plans: their storyboards validate, their plans build, and their
numbers are the trace's (cosines, the recompute identity, the normalisation step, attention
rows, most-attended tokens), recomputed here directly from the arrays. No rendering."""

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

def test_fresh_focus_and_limits(fresh):
    _, plan, t = fresh
    d = plan["data"]
    pos = d["focus"]["positions"]
    assert pos == positions(t, "bank") and d["focus"]["tokens"] == ["bank"]
    layers = [lay["layer"] for lay in d["layers"]]
    assert layers == list(range(t.n_layers))
    xs = np.stack([f64(t[f"blocks.{l}.hook_resid_pre"])[pos].mean(0) for l in layers])
    assert d["limits"]["x"] == pytest.approx(robust_limit(xs), rel=1e-9)
    for lay in d["layers"]:
        x = xs[lay["layer"]]
        assert lay["x"]["values"] == pytest.approx(np.clip(x / d["limits"]["x"], -1, 1).tolist(),
                                                   abs=1e-6)
        assert np.ravel(lay["x_first"]).tolist() == pytest.approx(x[:8].tolist(), abs=1e-9)
        assert lay["x_norm"] == pytest.approx(np.linalg.norm(x), rel=1e-9)


def test_fresh_q_k_v_are_the_traces_per_head(fresh):
    _, plan, t = fresh
    d = plan["data"]
    pos = d["focus"]["positions"]
    for lay in d["layers"]:
        for k in "qkv":
            raw = f64(t[f"blocks.{lay['layer']}.attn.hook_{k}"])[pos].mean(0)     # [head, d_head]
            got = np.asarray(lay[k]["values"])
            assert got.shape == (12, 32)
            assert got == pytest.approx(np.clip(raw / d["limits"][k], -1, 1), abs=1e-6)


def test_fresh_recompute_identity(fresh):
    """Q, K, V are recomputed from the current X with this layer's W: error ~1e-6."""
    _, plan, t = fresh
    W = t.weights()
    for lay in plan["data"]["layers"]:
        l = lay["layer"]
        for k in "qkv":
            X = k.upper()
            redo = np.einsum("pd,hde->phe", f64(attn_input(t, l)),
                             f64(W[f"blocks.{l}.attn.W_{X}"])) + f64(W[f"blocks.{l}.attn.b_{X}"])
            err = float(np.abs(redo - t[f"blocks.{l}.attn.hook_{k}"]).max())
            assert lay["identity"][k] == pytest.approx(err, rel=1e-9)
            assert lay["identity"][k] < 1e-4
            assert lay["identity_e6"][k] == pytest.approx(err * 1e6, rel=1e-9)


def test_fresh_cosines_to_the_previous_layer(fresh):
    _, plan, t = fresh
    W = t.weights()
    pos = plan["data"]["focus"]["positions"]
    first = plan["data"]["layers"][0]
    assert first["layer"] == 0 and first["cos"] is None
    for lay in plan["data"]["layers"][1:]:
        l, c = lay["layer"], lay["cos"]
        assert c["prev"] == l - 1
        x = [f64(t[f"blocks.{i}.hook_resid_pre"])[pos] for i in (l, l - 1)]
        assert c["x"] == pytest.approx(float(cosine(*x).mean()), abs=1e-9)
        for k in "qkv":
            a, b = (f64(t[f"blocks.{i}.attn.hook_{k}"])[pos] for i in (l, l - 1))
            per_head = cosine(a, b).mean(axis=0)
            assert c[k] == pytest.approx(per_head.tolist(), abs=1e-9)
            assert c[f"{k}_mean"] == pytest.approx(float(per_head.mean()), abs=1e-9)
        for X in "QKV":
            a, b = (f64(W[f"blocks.{i}.attn.W_{X}"]).reshape(12, -1) for i in (l, l - 1))
            assert c[f"W_{X}_mean"] == pytest.approx(float(cosine(a, b).mean()), abs=1e-9)
            assert abs(c[f"W_{X}_mean"]) < 0.05           # separate parameters: ~orthogonal
        assert c["x"] > 0.5 > abs(c["q_mean"])            # X carries over, Q does not


def test_fresh_normalisation_step_is_post_ln(fresh):
    """MiniLM: X^l is LayerNorm(previous sum); the plan's 'before' strip is that sum."""
    _, plan, t = fresh
    d = plan["data"]
    assert d["norm"] == {"kind": "layernorm", "placement": "post"}
    W = t.weights()
    pos = d["focus"]["positions"]
    for lay in d["layers"]:
        l, n = lay["layer"], lay["norm"]
        if l == 0:
            before = sum(f64(t[h]) for h in ("hook_embed", "hook_pos_embed",
                                             "hook_token_type_embed"))
            site = "embed_ln"
        else:
            before, site = f64(t[f"blocks.{l - 1}.hook_resid_post"]), f"blocks.{l - 1}.ln2"
        assert n["site"] == site
        b = before[pos].mean(0)
        assert n["before"]["values"] == pytest.approx(
            np.clip(b / robust_limit(b), -1, 1).tolist(), abs=1e-6)
        sigma = float(t[f"{site}.hook_scale"][pos].mean())
        assert n["sigma"] == pytest.approx(sigma, rel=1e-6)
        # LayerNorm of the 'before' vector with that site's weights gives X^l
        w, bias = f64(W[f"{site}.w"]), f64(W[f"{site}.b"])
        ln = (b - b.mean()) / np.sqrt(((b - b.mean()) ** 2).mean() + 1e-12) * w + bias
        x = f64(t[f"blocks.{l}.hook_resid_pre"])[pos].mean(0)
        assert np.abs(ln - x).max() < 1e-3


def test_fresh_weight_thumbnails_are_the_block(fresh):
    _, plan, t = fresh
    d = plan["data"]
    W = t.weights()
    blk = d["weight_block"]
    assert blk == {"head": 0, "rows": [0, 32], "cols": [0, 32]}
    for lay in d["layers"]:
        for X in "QKV":
            raw = f64(W[f"blocks.{lay['layer']}.attn.W_{X}"])[0, :32, :32]
            assert np.asarray(lay[f"W_{X}"]["values"]) == pytest.approx(
                np.clip(raw / d["limits"]["w"], -1, 1), abs=1e-6)


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
