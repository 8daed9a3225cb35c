"""Analysis functions: pure, deterministic, and equal to the direct computation."""

import numpy as np
import pytest

from layerwise_core.analysis.projection import pca_plane
from layerwise_core.analysis.robust import robust_limit, scaled
from layerwise_core.analysis.similarity import context_similarity, cosine
from layerwise_core.analysis.updates import update_sizes
from layerwise_core.analysis.vectors import layer_states, positions, stream_stages, word_vectors
from layerwise_core.tracing import get_trace

RIVER, MONEY = "I sat on the river bank.", "I deposited cash at the bank."


def test_pca_is_deterministic_with_fixed_signs():
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(20, 5)) * [5, 3, 1, 1, 1]
    a, b = pca_plane(pts), pca_plane(-pts[::-1][::-1] * 1.0)
    np.testing.assert_allclose(a["xy"], pca_plane(pts.copy())["xy"])
    assert a["explained"][0] > a["explained"][1]
    for axis in a["axes"]:
        assert axis[np.abs(axis).argmax()] > 0
    # flipping the data flips the projection, but the axes keep their sign convention
    np.testing.assert_allclose(np.abs(b["xy"]), np.abs(a["xy"]))


def test_robust_limit_ignores_a_sink_outlier():
    v = np.r_[np.random.default_rng(1).normal(size=999) * 10, 23000.0]
    lim = robust_limit(v)
    assert 10 < lim < 60
    s = scaled(v, lim)
    assert s["clipped"] >= 1 and s["max_abs"] == 23000.0 and max(s["values"]) == 1.0


def test_context_similarity_matches_direct_cosines(cache_dir):
    traces = [get_trace("minilm-l6", s, cache_dir=cache_dir) for s in (RIVER, MONEY)]
    sim = context_similarity(traces, ["bank", "bank"])
    a, b = (t[h][positions(t, "bank")[0]] for t in traces for h in [layer_states(t)[0]])
    assert sim["raw"][0][0] == pytest.approx(float(cosine(a, b)), abs=1e-9)
    np.testing.assert_allclose(sim["adjusted"], np.array(sim["mean_raw"]) - sim["baseline"])
    assert len(sim["raw"][0]) == traces[0].n_layers + 1


def test_bank_drifts_apart_with_context(cache_dir):
    """The chapter's claim, measured: "bank" starts as one embedding and drifts apart."""
    traces = [get_trace("minilm-l6", s, cache_dir=cache_dir) for s in (RIVER, MONEY)]
    sim = context_similarity(traces, ["bank", "bank"])
    raw = sim["raw"][0]
    print("\ncos(bank_river, bank_money) per layer:", " ".join(f"{c:.3f}" for c in raw))
    print("baseline per layer:", " ".join(f"{c:.3f}" for c in sim["baseline"]))
    assert raw[0] > raw[-1]
    # the word embedding itself is identical; only position/context-free parts differ
    e = [t["hook_embed"][positions(t, "bank")[0]] for t in traces]
    np.testing.assert_array_equal(e[0], e[1])


def test_update_sizes_match_direct_norms(minilm_bank):
    pos = positions(minilm_bank, "bank")
    u = update_sizes(minilm_bank, pos)
    x = minilm_bank["blocks.2.hook_resid_pre"][pos[0]]
    a = minilm_bank["blocks.2.hook_attn_out"][pos[0]]
    assert u["rel_attn"][2] == pytest.approx(np.linalg.norm(a) / np.linalg.norm(x), rel=1e-6)
    assert len(u["rel_mlp"]) == 6 and all(r > 0 for r in u["rel_mlp"])


def test_stream_stages_cover_every_add(minilm_bank):
    stages = stream_stages(minilm_bank)
    assert len(stages) == 1 + 4 * minilm_bank.n_layers
    v = word_vectors(minilm_bank, "bank", [h for _, h in stages])
    assert v.shape == (len(stages), 384)


def test_baseline_pairs_are_different_words(cache_dir):
    """The anisotropy baseline never pairs a word with itself (river/river, the/the): those
    are the comparison being measured. Recomputed here from the token lists directly."""
    from layerwise_core.analysis.similarity import baseline_pairs
    sentences = ["I sat on the river bank.", "I deposited cash at the bank.",
                 "The bank of the river flooded."]
    traces = [get_trace("minilm-l6", s, cache_dir=cache_dir) for s in sentences]
    sim = context_similarity(traces, ["bank"] * 3)
    words = []
    for t in traces:
        words.append([p for p, tok in enumerate(t.tokens)
                      if tok[0].isalnum() and tok != "bank"])
    cos, same = [], 0
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        for p in words[i]:
            for q in words[j]:
                if traces[i].tokens[p] == traces[j].tokens[q]:
                    same += 1
                    continue
                a = [traces[i][h][p] for h in layer_states(traces[i])]
                b = [traces[j][h][q] for h in layer_states(traces[j])]
                cos.append([float(cosine(x, y)) for x, y in zip(a, b)])
    assert sim["baseline_same_word_left_out"] == same == 7
    assert sim["baseline_pairs"] == len(cos) == 68
    np.testing.assert_allclose(sim["baseline"], np.mean(cos, axis=0), atol=1e-9)
    used, _ = baseline_pairs(traces, ["bank"] * 3)
    assert all(traces[i].tokens[p] != traces[j].tokens[q] for i, p, j, q in used)
    assert sim["baseline"][0] == pytest.approx(0.078, abs=0.002)   # 0.159 with same-word pairs
    a, b = sim["baseline_example"]
    assert a != b


def test_attention_steps_by_hand_with_a_causal_mask():
    """dots = k q, scores = dots / scale, softmax over the keys the query may see (a masked
    key: no dot product, weight 0), out = weights @ v."""
    from layerwise_core.analysis.attention_steps import attention_steps
    q = np.array([1.0, 2.0])
    k = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 3.0]])
    v = np.array([[1.0, 0.0], [0.0, 1.0], [5.0, 5.0]])
    s = attention_steps(q, k, v, scale=2.0, visible=np.array([True, True, False]))
    assert s["dots"] == [1.0, 2.0, None] and s["scores"] == [0.5, 1.0, None]
    e = np.exp([0.5, 1.0])
    assert s["weights"] == pytest.approx([e[0] / e.sum(), e[1] / e.sum(), 0.0], abs=1e-15)
    assert s["out"] == pytest.approx([e[0] / e.sum(), e[1] / e.sum()], abs=1e-15)
    full = attention_steps(q, k, v, scale=2.0)
    assert full["dots"] == [1.0, 2.0, 9.0] and sum(full["weights"]) == pytest.approx(1.0)
