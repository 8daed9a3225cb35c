"""The residual_stream plan: its storyboard validates, its plan builds, and every number it holds
is the trace's (the followed token's states and updates, their lengths, the PCA plane through the
origin and what it captures, the views and bar axes that frame them, the outlier token, the
identity X^(L) = X^(0) + every update), recomputed here directly from the arrays. The reference
test at the end recomputes the model activations with Hugging Face `transformers` (slow)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from layerwise_core.analysis.projection import captured, pca_plane
from layerwise_core.analysis.vectors import positions, stream_stages
from layerwise_core.plans import build_plan
from layerwise_templates.residual_stream import plan as rs
from layerwise_core.plans.shown import near_boundary
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_templates import TEMPLATES
from layerwise_core.tracing import get_trace

from conftest import ROOT

STORYBOARD = ROOT / "layerwise_templates" / "residual_stream" / "residual_stream.yaml"


def norm(x) -> np.ndarray:
    return np.linalg.norm(np.asarray(x, np.float64), axis=-1)


@pytest.fixture(scope="module")
def built(cache_dir):
    sb = load_storyboard(STORYBOARD)
    plan = build_plan(sb, cache_dir=cache_dir)
    trace = get_trace(sb.model, sb.sentences[0], cache_dir=cache_dir)
    return sb, json.loads(json.dumps(plan)), trace     # the plan as a scene reads it: JSON


def f64(t, hook, pos):
    return np.asarray(t[hook][pos], np.float64)


# --- the storyboard and the scene's handlers --------------------------------------------------

def test_storyboard_validates():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "residual_stream" and sb.model == "smollm2-135m"
    assert sb.focus == ("bank",) and 5 <= len(sb.beats) <= 15
    shown = {s for b in sb.beats for s in b.show}
    # every view is used but `sink`: the outlier token's beat is the draft's only (round 27
    # dropped it from the shipped storyboard: a side topic off the chapter's claim); nor
    # `sizes` (round 35: X's 400-fold growth is said where the walk ends, `journey_last`);
    # nor `journey` (round 37: its plane walk is the draft's; the video's legs are on the bars)
    assert shown == TEMPLATES["residual_stream"].shows - {"sink", "sizes", "journey"}


def test_scene_has_a_handler_for_every_show_name():
    from layerwise_templates.residual_stream.scene import ResidualStreamScene
    for name in TEMPLATES["residual_stream"].shows:
        assert callable(getattr(ResidualStreamScene, f"beat_{name}", None)), name


# --- the sentence and the token followed ------------------------------------------------------

def test_tokens_show_the_space_mark_and_the_followed_token(built):
    _, plan, t = built
    d = plan["data"]
    assert [tok["text"].replace("\u2423", " ") for tok in d["tokens"]] == t.tokens
    assert d["any_space_mark"] and d["space_mark"] == "\u2423"
    assert d["focus"]["token"] == positions(t, "bank")[-1] == 5
    assert d["focus"]["token_text"] == "\u2423bank"
    # the weights measured: the instruct-tuned Q4_1 GGUF (the footer and the captions say so)
    assert d["model"] == {"display": "SmolLM2-135M-Instruct (4-bit)", "n_layers": 30,
                          "d_model": 576, "norm": "rmsnorm", "norm_placement": "pre",
                          "kind": "decoder", "rotary": True}


def test_space_marks_of_other_tokenizers():
    assert rs._shown_text("\u0120bank") == ("\u2423bank", True)      # GPT-2 byte-level
    assert rs._shown_text("\u2581bank") == ("\u2423bank", True)      # SentencePiece
    assert rs._shown_text(" ") == (" ", False)                       # a lone space stays
    assert rs._shown_text("[CLS]") == ("[CLS]", False)


# --- states, steps and their numbers ----------------------------------------------------------

def test_states_and_updates_are_the_traces(built):
    _, plan, t = built
    d = plan["data"]
    p = d["focus"]["token"]
    hooks = [h for _, h in stream_stages(t)]
    assert [s["hook"] for s in d["stages"]] == hooks and len(hooks) == 61
    for s in d["stages"]:
        v = f64(t, s["hook"], p)
        assert s["norm"]["value"] == pytest.approx(norm(v), rel=1e-9)
        np.testing.assert_allclose(s["head"], v[:rs.ENTRIES], rtol=0, atol=1e-12)
    for lay in d["layers"]:
        l, b = lay["layer"], f"blocks.{lay['layer']}"
        attn, mlp = f64(t, f"{b}.hook_attn_out", p), f64(t, f"{b}.hook_mlp_out", p)
        sa, sf = d["steps"][lay["step_attn"]], d["steps"][lay["step_ffn"]]
        assert (sa["kind"], sa["layer"], sf["kind"], sf["layer"]) == ("attn", l, "ffn", l)
        np.testing.assert_allclose(sa["head"], attn[:rs.ENTRIES], atol=1e-12)
        np.testing.assert_allclose(sf["head"], mlp[:rs.ENTRIES], atol=1e-12)
        assert sa["norm"]["value"] == pytest.approx(norm(attn), rel=1e-9)
        assert sf["norm"]["value"] == pytest.approx(norm(mlp), rel=1e-9)
        x, mid = f64(t, f"{b}.hook_resid_pre", p), f64(t, f"{b}.hook_resid_mid", p)
        assert lay["norm_x"]["value"] == pytest.approx(norm(x), rel=1e-6)
        assert lay["rel_attn"]["value"] == pytest.approx(norm(attn) / norm(x), rel=1e-6)
        assert lay["rel_mlp"]["value"] == pytest.approx(norm(mlp) / norm(mid), rel=1e-6)
    # |X^(l)| for l = 0..30: the input of every layer, then the last layer's output
    expected = [norm(f64(t, f"blocks.{l}.hook_resid_pre", p)) for l in range(30)]
    expected.append(norm(f64(t, "blocks.29.hook_resid_post", p)))
    np.testing.assert_allclose([n["value"] for n in d["x_norms"]], expected, rtol=1e-9)


def test_embedding_scale_and_growth(built):
    """SmolLM2's X of "bank" grows from ~2.2 at the embedding to ~870 after layer 29."""
    _, plan, _ = built
    s = plan["data"]["summary"]
    assert 1.5 < s["norm_first"]["value"] < 3.0 and 700 < s["norm_last"]["value"] < 1000
    assert s["growth"]["value"] == pytest.approx(s["norm_last"]["value"] /
                                                 s["norm_first"]["value"])
    assert s["ffn0_over_x0"]["value"] > 10           # layer 0's FFN dwarfs the embedding


def iter_numbers(node, path="data"):
    if isinstance(node, dict):
        if set(node) >= {"value", "decimals"} and isinstance(node["value"], (int, float)):
            yield path, node
        for k, v in node.items():
            yield from iter_numbers(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from iter_numbers(v, f"{path}[{i}]")


def test_every_shown_number_is_safe_from_float_noise(built):
    """A number shown with its decimals cannot round differently on another machine."""
    _, plan, _ = built
    numbers = list(iter_numbers(plan["data"]))
    assert len(numbers) > 300
    for where, n in numbers:
        value = n["exact"] / n["rounded_to"] if "rounded_to" in n else n["value"]
        assert not near_boundary(value, 0 if "rounded_to" in n else n["decimals"]), where
    for s in plan["data"]["stages"]:
        for d in s["decimals"]:
            assert not any(near_boundary(v, d) for v in s["head"]), s["index"]


# --- the plane, fitted once, through the origin -----------------------------------------------

def test_plane_through_the_origin_fitted_to_this_token(built):
    _, plan, t = built
    d = plan["data"]
    p = d["focus"]["token"]
    vecs = np.stack([f64(t, s["hook"], p) for s in d["stages"]])
    _, s, vt = np.linalg.svd(vecs, full_matrices=False)           # no centring
    axes = vt[:2] * np.sign(vt[:2][np.arange(2), np.abs(vt[:2]).argmax(axis=1)])[:, None]
    np.testing.assert_allclose([st["xy"] for st in d["stages"]], vecs @ axes.T, atol=1e-6)
    np.testing.assert_allclose(d["plane"]["energy"], s[:2] ** 2 / (s ** 2).sum(), rtol=1e-9)
    assert d["plane"]["energy_pct"]["value"] == pytest.approx(100 * (s[:2] ** 2).sum()
                                                              / (s ** 2).sum())
    # the share of each update's length the plane shows
    for st in d["steps"]:
        u = vecs[st["to"]] - vecs[st["from"]]
        share = np.linalg.norm(axes @ u) / np.linalg.norm(u)
        assert st["captured_pct"]["value"] == pytest.approx(100 * share, abs=1e-3)
    steps = np.diff(vecs, axis=0)
    total = np.linalg.norm(steps @ axes.T, axis=1).sum() / np.linalg.norm(steps, axis=1).sum()
    assert d["plane"]["captured_total_pct"]["value"] == pytest.approx(100 * total)
    assert 0 < total < 1


def test_captured_share():
    axes = np.eye(3)[:2]
    np.testing.assert_allclose(captured(np.array([[3.0, 4.0, 0.0], [0, 0, 2.0], [1, 0, 1],
                                                  [0, 0, 0]]), axes), [1, 0, 2 ** -0.5, 0])
    # the default (centred) fit is what other scenes rely on; uncentred keeps the origin
    pts = np.array([[1.0, 1.0, 0.0], [2.0, 2.1, 0.1], [3.0, 2.9, -0.1]])
    assert np.allclose(pca_plane(pts)["mean"], pts.mean(axis=0))
    flat = pca_plane(pts, center=False)
    assert np.allclose(flat["mean"], 0) and np.allclose(flat["xy"], pts @ flat["axes"].T)


def test_views_frame_the_origin_and_every_state_so_far(built):
    _, plan, _ = built
    d = plan["data"]
    xy = np.array([s["xy"] for s in d["stages"]])
    views = d["plane"]["views"]
    assert len(views) == len(xy)
    widths = [v["width"] for v in views]
    assert widths == sorted(widths) and widths[-1] > 100 * widths[0]      # the camera zooms out
    for k, v in enumerate(views):
        w, h = v["width"], v["width"] / rs.ASPECT
        pts = np.vstack([np.zeros(2), xy[:k + 1]])
        assert (np.abs(pts[:, 0] - v["center"][0]) <= w / 2).all(), k
        assert (np.abs(pts[:, 1] - v["center"][1]) <= h / 2).all(), k
        mantissa = w / 10 ** math.floor(math.log10(w))
        assert any(math.isclose(mantissa, m) for m in rs.LADDER), w
        assert v["scale"] == pytest.approx(w / 5)
    assert len({json.dumps(v) for v in views}) < len(views) // 2    # moves only when needed


def test_bar_axes_grow_and_never_clip(built):
    _, plan, _ = built
    d = plan["data"]
    axes = d["bars"]["linear"]
    assert len(axes) == len(d["stages"])
    x_at = {i: j for j, i in enumerate(d["x_stages"])}
    seen = 0.0
    for k, ax in enumerate(axes):
        if k in x_at:
            seen = max(seen, d["x_norms"][x_at[k]]["value"])
        if k > 0:
            seen = max(seen, d["steps"][k - 1]["norm"]["value"])
        assert ax["max"] >= seen
        assert [tk["value"] for tk in ax["ticks"]] == [ax["max"] / 2, ax["max"]]
    assert [a["max"] for a in axes] == sorted(a["max"] for a in axes)
    log = d["bars"]["log"]
    every = [n["value"] for n in d["x_norms"]] + [s["norm"]["value"] for s in d["steps"]]
    assert log["min"] <= min(every) and log["max"] >= max(every)


# --- the outlier token, said, not hidden ------------------------------------------------------

def test_first_token_is_an_attention_sink_and_is_said(built):
    _, plan, t = built
    o = plan["data"]["outlier"]
    assert o["position"] == 0 and o["token"] == "I" and o["is_sink"]
    peak = max(norm(t[f"blocks.{l}.hook_resid_pre"][0]) for l in range(30))
    assert o["max_norm"]["exact"] == pytest.approx(peak, rel=1e-9)
    assert o["max_norm"]["value"] == pytest.approx(peak, rel=0.01)
    others = max(norm(t[f"blocks.{l}.hook_resid_pre"][1:]).max() for l in range(30))
    others = max(others, norm(t["blocks.29.hook_resid_post"][1:]).max())
    assert peak > rs.OUTLIER_FACTOR * others
    lo, hi = o["attention_layers"]
    share = np.mean([t[f"blocks.{l}.attn.hook_pattern"][:, 5, 0].mean()
                     for l in range(lo, hi + 1)])
    assert o["attention_share"]["value"] == pytest.approx(share, rel=1e-6) and share > 0.5
    assert plan["data"]["focus"]["token"] != o["position"]


# --- X^(30) = X^(0) + 60 updates --------------------------------------------------------------

def test_stream_changes_only_by_additions(built):
    _, plan, t = built
    d = plan["data"]
    c, ident = d["check"], d["identity"]
    assert c["kind"] == "additions" and ident["n_updates"] == 60
    p = [d["focus"]["token"]]
    f = lambda h: f64(t, h, p)                                       # noqa: E731
    total = f("blocks.0.hook_resid_pre") + sum(f(f"blocks.{l}.hook_attn_out")
                                               + f(f"blocks.{l}.hook_mlp_out") for l in range(30))
    final = f("blocks.29.hook_resid_post")
    assert c["max_error_total"] == pytest.approx(np.abs(final - total).max(), rel=1e-6,
                                                 abs=1e-12)
    # float32's own bound: 60 additions, each rounding by at most 2^-24 |X|, shown as the 1-2-5
    # step above it; the measured error is far under it
    states = [f(f"blocks.{l}.hook_{k}") for l in range(30) for k in ("resid_pre", "resid_mid",
                                                                     "resid_post")]
    assert c["max_abs_x"] == pytest.approx(max(np.abs(s).max() for s in states), rel=1e-12)
    bound = 60 * 2.0 ** -24 * c["max_abs_x"]
    assert c["max_error_total"] < bound / 10 and bound <= ident["bound"]["bound"] < 2.5 * bound
    assert ident["bound"] == c["bound_total"] == {"bound": 0.005, "decimals": 3}
    np.testing.assert_allclose(ident["sum_head"], total[0][:rs.ENTRIES], atol=1e-12)
    np.testing.assert_allclose(ident["x_head"], final[0][:rs.ENTRIES], atol=1e-12)
    assert c["max_error_chain"] == 0.0                    # resid_pre[l+1] is resid_post[l]


def test_post_ln_model_plans_the_layernorm_check(tmp_path, cache_dir):
    """MiniLM (post-LN): no additions identity; the plan says how far each LayerNorm moves X.
    The shipped narration is SmolLM2's: its claims and placeholders refuse the other model."""
    from layerwise_core.errors import StoryboardError
    from layerwise_core.plans import storyboard_traces
    text = STORYBOARD.read_text().replace("model: smollm2-135m", "model: minilm-l6")
    path = tmp_path / "residual_stream.yaml"
    path.write_text(text)
    with pytest.raises(StoryboardError, match=r"beats\[8\].layer: layer 22 is out of range 0..5"):
        load_storyboard(path)
    # without the journey's SmolLM2 legs, the claims refuse it
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith("    layer: ")
                     or ln.strip() == "layer: 0" or ln.strip() == "layer: 1")
    path.write_text(text)
    sb = load_storyboard(path)
    with pytest.raises(StoryboardError, match=r"'model.n_layers == 30' is false: the plan has 6"):
        build_plan(sb, cache_dir=cache_dir)
    d = rs.build(sb, storyboard_traces(sb, cache_dir))
    assert d["check"]["kind"] == "layernorm" and d["identity"] is None
    assert len(d["stages"]) == 1 + 4 * 6
    assert {s["kind"] for s in d["steps"]} == {"attn", "ln", "ffn"}


def test_helpers():
    assert [rs.sig_decimals(v) for v in (2.18, 61.4, 870.2, 0.0561)] == [2, 1, 0, 4]
    assert [rs._ladder_up(v) for v in (0.3, 0.5, 0.51, 61, 1000)] == [0.5, 0.5, 1.0, 100, 1000]
    assert [rs.entry_decimals(v) for v in (2.18, 61.4, 870.2)] == [3, 2, 1]


# --- against Hugging Face transformers (slow) ------------------------------------------------

@pytest.mark.slow
def test_lengths_match_transformers(built):
    """|X^(l)|, |Delta_attn^(l)| and |Delta_FFN^(l)| of "bank", and the identity, recomputed with
    Hugging Face's eager Llama on the same GGUF weights (forward hooks on each decoder layer)."""
    import torch
    from transformers import AutoModelForCausalLM

    from layerwise_core.models import REGISTRY
    entry = REGISTRY["smollm2-135m"]
    from layerwise_core.packages import package_dir

    _, plan, t = built
    d = plan["data"]
    hf = AutoModelForCausalLM.from_pretrained(str(package_dir(entry.spec.package)),
                                              gguf_file=entry.relative,
                                              attn_implementation="eager",
                                              dtype=torch.float32).eval()
    got: dict[str, torch.Tensor] = {}

    def keep(name):
        def hook(_module, _inputs, output):
            got[name] = (output[0] if isinstance(output, tuple) else output).detach()
        return hook

    for l, layer in enumerate(hf.model.layers):
        layer.self_attn.register_forward_hook(keep(f"attn{l}"))
        layer.mlp.register_forward_hook(keep(f"mlp{l}"))
        layer.register_forward_hook(keep(f"out{l}"))
    ids = torch.tensor([t.meta["token_ids"]])
    with torch.inference_mode():
        out = hf(ids, output_hidden_states=True)
    p = d["focus"]["token"]
    vec = lambda x: x[0, p].double().numpy()                         # noqa: E731
    x = [vec(out.hidden_states[l]) for l in range(30)] + [vec(got["out29"])]
    np.testing.assert_allclose([n["value"] for n in d["x_norms"]], norm(x), rtol=1e-4)
    for lay in d["layers"]:
        l = lay["layer"]
        assert d["steps"][lay["step_attn"]]["norm"]["value"] == pytest.approx(
            norm(vec(got[f"attn{l}"])), rel=1e-4)
        assert d["steps"][lay["step_ffn"]]["norm"]["value"] == pytest.approx(
            norm(vec(got[f"mlp{l}"])), rel=1e-4)
    total = x[0] + sum(vec(got[f"attn{l}"]) + vec(got[f"mlp{l}"]) for l in range(30))
    assert np.abs(total - x[-1]).max() < 1e-3 * np.abs(x[-1]).max()
    np.testing.assert_allclose(d["identity"]["x_head"], x[-1][:rs.ENTRIES], rtol=1e-4, atol=1e-4)


def test_copies_are_the_rmsnorm_inputs_and_stay_small(built):
    """The `copies` beat's numbers, re-derived here in float64 from the recorded copies
    attention reads (ln1's output at the followed token): lengths, range from layer 1 on, and
    |X^(29)| beside them."""
    _, plan, t = built
    d = plan["data"]
    c = d["copies"]
    p = d["focus"]["token"]
    lens = []
    for l in range(30):
        normed = np.asarray(t[f"blocks.{l}.ln1.hook_normalized"][p], np.float64)
        lens.append(float(np.linalg.norm(normed)))
    assert [n["value"] for n in c["norm"]] == pytest.approx(lens, rel=1e-9)
    later = lens[1:]
    assert c["min"]["value"] == pytest.approx(min(later)) and c["min_layer"] == 1 + int(np.argmin(later))
    assert c["max"]["value"] == pytest.approx(max(later)) and c["max_layer"] == 1 + int(np.argmax(later))
    assert c["max"]["value"] < 10 < 100 < c["x_last_in"]["value"]
    assert c["x_last_in"]["value"] == pytest.approx(d["layers"][29]["norm_x"]["value"], rel=1e-9)
    # what the narration says: one decimal for the range (a 2-decimal 9.255 sits on a boundary)
    assert (c["min"]["decimals"], c["max"]["decimals"]) == (1, 1)
    # what the FFN reads (round 36: its copy's length is said): ln2's output
    ffn = [float(np.linalg.norm(np.asarray(t[f"blocks.{l}.ln2.hook_normalized"][p], np.float64)))
           for l in range(30)]
    assert [n["value"] for n in c["ffn_norm"]] == pytest.approx(ffn, rel=1e-9)


def test_the_copy_before_its_gain_is_one_length_for_every_x(built):
    """Round 37: "Without the gain g, every copy would be 24.0 long; g ... makes it 4.8 to
    9.3": X^(l) / rms(X^(l)) re-derived from X and ln1's recorded rms is sqrt(d_model) long at
    every layer (eps aside), and the recorded copy (with g) is that vector times g."""
    _, plan, t = built
    d = plan["data"]
    c, p = d["copies"], d["focus"]["token"]
    unit = []
    for l in range(30):
        x = np.asarray(t[f"blocks.{l}.hook_resid_pre"][p], np.float64)
        rms = float(np.asarray(t[f"blocks.{l}.ln1.hook_scale"][p], np.float64).ravel()[0])
        assert rms == pytest.approx(math.sqrt(float(np.mean(x ** 2))), rel=1e-3)
        unit.append(float(np.linalg.norm(x / rms)))
    assert c["unit"]["value"] == pytest.approx(max(unit), abs=0.05)
    assert c["unit"]["value"] == pytest.approx(math.sqrt(576), abs=0.05)
    assert c["unit_spread"]["value"] == pytest.approx(max(unit) - min(unit), abs=1e-3)
    assert c["unit_spread"]["value"] < 0.05 < c["max"]["value"] - c["min"]["value"]


def test_turns_in_degrees_are_the_cosines_angles(built):
    """Round 37: "each cosine is 0.84 to 0.99: a turn of 10 to 32 degrees"."""
    _, plan, _ = built
    dr = plan["data"]["direction"]
    later = [c["value"] for c in dr["cos_next"][1:]]
    deg = [math.degrees(math.acos(c)) for c in later]
    assert dr["deg_min_later"]["value"] == pytest.approx(min(deg), abs=0.5)
    assert dr["deg_max_later"]["value"] == pytest.approx(max(deg), abs=0.5)
    assert (dr["deg_min_later"]["decimals"], dr["deg_max_later"]["decimals"]) == (0, 0)
    assert 5 < dr["deg_min_later"]["value"] < dr["deg_max_later"]["value"] < 35


def test_zoom_steps_true_and_not_folded_back(built):
    """The zoom's flat picture: every length true, each step at its true angle to the X it is
    added to, and the FFN's step not drawn back over attention's (round 35: it ran back over
    it at layer 15); float32 keeps 7 significant digits (the identity's "about 7 digits")."""
    _, plan, t = built
    d = plan["data"]
    z = d["zoom"]
    o, x, m, y = (np.array(q) for q in z["pts"])
    da, df = m - x, y - m
    cos = lambda a, b: float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))  # noqa: E731
    assert np.linalg.norm(x) == pytest.approx(z["norm_x"]["value"])
    assert np.linalg.norm(da) == pytest.approx(z["norm_attn"]["value"])
    assert np.linalg.norm(df) == pytest.approx(z["norm_mlp"]["value"])
    assert np.linalg.norm(y) == pytest.approx(z["norm_out"]["value"], rel=1e-6)
    assert cos(x, da) == pytest.approx(z["cos_attn"]["value"])
    assert cos(m, df) == pytest.approx(z["cos_mlp"]["value"])
    assert cos(da, df) > rs.FOLD_COS
    assert d["identity"]["digits"] == 7


@pytest.mark.parametrize("b", [0.005 * (1 - 3e-6), 0.005 * (1 + 3e-6), 0.002 * (1 - 3e-6),
                               0.002 * (1 + 3e-6), 0.0033])
def test_addition_bound_never_refuses_a_sentence(b):
    """A float32 bound on a 1-2-5 step (within noise, either side) is shown as the step above
    it on every machine; elsewhere as the smallest step at or above it. Never an error."""
    n, max_abs = 60, b / (60 * rs.U32)
    got = rs.addition_bound(0.0, n, max_abs, "check")["bound"]
    step = {0.005: 0.01, 0.002: 0.005}.get(round(b, 4), None)
    assert got == (step if step is not None else 0.005)
