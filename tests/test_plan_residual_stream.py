"""The residual_stream plan: its storyboard validates, its plan builds, and its numbers are the
trace's (update sizes, the residual identity, the projection of the first state), recomputed
here directly from the arrays."""

from __future__ import annotations

import json

import numpy as np
import pytest

from layerwise_core.analysis.vectors import positions, stream_stages
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_core.templates import TEMPLATES
from layerwise_core.tracing import get_trace

from conftest import ROOT

STORYBOARD = ROOT / "scenes" / "storyboards" / "residual_stream.yaml"


def norm(x) -> np.ndarray:
    return np.linalg.norm(np.asarray(x, np.float64), axis=-1)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    sb = load_storyboard(STORYBOARD)
    cache = tmp_path_factory.mktemp("cache")
    plan = build_plan(sb, cache_dir=cache)
    trace = get_trace(sb.model, sb.sentences[0], cache_dir=cache)
    return sb, json.loads(json.dumps(plan)), trace     # the plan as a scene reads it: JSON


def test_storyboard_validates():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "residual_stream" and sb.model == "smollm2-135m"
    assert sb.focus == ("bank",) and 4 <= len(sb.beats) <= 8
    shown = {s for b in sb.beats for s in b.show}
    assert shown == TEMPLATES["residual_stream"].shows          # every view is used


def test_scene_has_a_handler_for_every_show_name():
    from scenes.templates.residual_stream import ResidualStreamScene
    for name in TEMPLATES["residual_stream"].shows:
        assert callable(getattr(ResidualStreamScene, f"beat_{name}", None)), name


def test_focus_is_not_the_attention_sink(built):
    _, plan, _ = built
    assert 0 not in plan["data"]["focus"]["positions"]


def test_update_sizes_are_the_traces(built):
    _, plan, t = built
    d = plan["data"]
    pos = d["focus"]["positions"]
    assert pos == positions(t, "bank")
    for lay in d["layers"]:
        b = f"blocks.{lay['layer']}"
        x, mid = t[f"{b}.hook_resid_pre"][pos], t[f"{b}.hook_resid_mid"][pos]
        rel_attn = (norm(t[f"{b}.hook_attn_out"][pos]) / norm(x)).mean()
        rel_mlp = (norm(t[f"{b}.hook_mlp_out"][pos]) / norm(mid)).mean()   # pre-norm: added to mid
        assert lay["rel_attn"] == pytest.approx(rel_attn, rel=1e-6)
        assert lay["rel_mlp"] == pytest.approx(rel_mlp, rel=1e-6)
        assert lay["norm_x"] == pytest.approx(norm(x).mean(), rel=1e-6)
        # bars: the relative size over one limit, clipped to [0, 1]
        for key in ("attn", "mlp"):
            expected = min(1.0, lay[f"rel_{key}"] / d["bars"]["limit"])
            assert lay[f"bar_{key}"] == pytest.approx(expected, abs=1e-6)
            assert lay[f"clipped_{key}"] == (lay[f"rel_{key}"] > d["bars"]["limit"])


def test_stream_changes_only_by_additions(built):
    _, plan, t = built
    c = plan["data"]["check"]
    assert c["kind"] == "additions"
    pos = plan["data"]["focus"]["positions"]
    f = lambda h: t[h][pos].astype(np.float64)           # noqa: E731
    L = t.n_layers
    worst = max(np.abs(f(f"blocks.{l}.hook_resid_post") - f(f"blocks.{l}.hook_resid_pre")
                       - f(f"blocks.{l}.hook_attn_out") - f(f"blocks.{l}.hook_mlp_out")).max()
                for l in range(L))
    assert c["max_error_layer"] == pytest.approx(worst, rel=1e-6, abs=1e-12)
    assert c["max_error_layer"] < 1e-3 and c["max_error_total"] < 1e-3
    assert c["max_error_chain"] == 0.0                    # resid_pre[l+1] is resid_post[l]
    assert c["final_norm"] == pytest.approx(norm(f(f"blocks.{L - 1}.hook_resid_post")).mean())


def test_projection_of_the_first_state(built):
    _, plan, t = built
    d = plan["data"]
    pos = d["focus"]["positions"]
    hooks = [h for _, h in stream_stages(t)]
    assert [s["hook"] for s in d["stages"]] == hooks
    assert len(hooks) == 1 + 2 * t.n_layers and d["stages"][0]["kind"] == "embed"
    vecs = np.stack([t[h][pos].astype(np.float64).mean(axis=0) for h in hooks])
    centred = vecs - vecs.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    axes = vt[:2] * np.sign(vt[:2][np.arange(2), np.abs(vt[:2]).argmax(axis=1)])[:, None]
    np.testing.assert_allclose(d["stages"][0]["xy"], centred[0] @ axes.T, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(d["projection"]["explained"], (s[:2] ** 2) / (s ** 2).sum(),
                               rtol=1e-9)
    # every view frames every point drawn so far
    xy = np.array([st["xy"] for st in d["stages"]])
    for k, view in enumerate(d["projection"]["views"]):
        seen = xy[:max(k, 1) + 1]
        assert (seen[:, 0] >= view["x_range"][0]).all() and (seen[:, 0] <= view["x_range"][1]).all()
        assert (seen[:, 1] >= view["y_range"][0]).all() and (seen[:, 1] <= view["y_range"][1]).all()


def test_strips_are_scaled_and_colour_limit_is_robust(built):
    _, plan, _ = built
    d = plan["data"]
    assert d["strip_limit"]["limit"] > 0
    for l in d["strip_layers"]:
        block = d["strips"][str(l)]
        for values in [*block["stages"].values(), block["attn_out"], block["mlp_out"]]:
            assert len(values) == plan["model"]["d_model"]
            assert max(abs(v) for v in values) <= 1.0
