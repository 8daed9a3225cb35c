"""The toy trace is the chapter's loop, number for number."""

import numpy as np
import pytest

from layerwise_core.names import block_hooks
from layerwise_core.tracing import get_trace


def chapter_loop(seed):
    """The chapter's code, verbatim but for recording (np.random.seed stands for 'random')."""
    np.random.seed(seed)
    X = np.array([[1., 0.]])
    rows = []
    for layer in range(3):
        Wq = np.random.randn(2, 2)
        Wk = np.random.randn(2, 2)
        Wv = np.random.randn(2, 2)
        Q, K, V = X @ Wq, X @ Wk, X @ Wv
        rows.append(dict(X=X, Wq=Wq, Wk=Wk, Wv=Wv, Q=Q, K=K, V=V))
        X = X + 0.1 * V
    return rows, X


def test_toy_trace_equals_chapter_loop(cache_dir):
    t = get_trace("toy-2d", "bank", cache_dir=cache_dir)
    W = t.weights()
    rows, final = chapter_loop(t.meta["source"]["seed"])
    for l, r in enumerate(rows):
        b = f"blocks.{l}"
        np.testing.assert_array_equal(t[f"{b}.hook_resid_pre"], r["X"])
        for key, w in (("q", "Wq"), ("k", "Wk"), ("v", "Wv")):
            np.testing.assert_array_equal(W[f"{b}.attn.W_{key.upper()}"][0], r[w])
            np.testing.assert_array_equal(t[f"{b}.attn.hook_{key}"][:, 0], r[key.upper()])
    np.testing.assert_array_equal(t["blocks.2.hook_resid_post"], final)


def test_toy_hooks_and_residual_identity(cache_dir):
    t = get_trace("toy-2d", "bank", cache_dir=cache_dir)
    expected = ["hook_embed"] + [h for l in range(3) for h in
                                 block_hooks(l, norm_placement="none", rotary=False,
                                             gated_mlp=False)]
    assert t.meta["hooks"] == expected
    for l in range(3):
        b = f"blocks.{l}"
        np.testing.assert_array_equal(t[f"{b}.hook_resid_post"],
                                      t[f"{b}.hook_resid_pre"] + 0.1 * t[f"{b}.attn.hook_v"][:, 0])
        if l:
            np.testing.assert_array_equal(t[f"{b}.hook_resid_pre"],
                                          t[f"blocks.{l - 1}.hook_resid_post"])
    # the matrices really are fresh per layer
    W = t.weights()
    assert not np.allclose(W["blocks.0.attn.W_Q"], W["blocks.1.attn.W_Q"])


def test_close_up_holds_the_step_with_a_round_scale_bar():
    from layerwise_templates.toy_loop.plan import close_up
    for x_in, x_out in [([1.0, 0.0], [0.99, 0.041]), ([0.99, 0.04], [0.74, 0.10]),
                        ([0.74, 0.10], [0.67, -0.05])]:
        step = float(np.linalg.norm(np.subtract(x_out, x_in)))
        z = close_up(x_in, x_out, step)
        assert z["width"] == pytest.approx(3.5 * step, rel=1e-3)    # the step fills 1/3.5
        for p in (x_in, x_out):                                     # both ends in view
            assert all(abs(p[i] - z["center"][i]) < z["width"] / 2 for i in range(2))
        mantissa = z["bar"] / 10 ** np.floor(np.log10(z["bar"]))
        assert round(mantissa, 6) in (1.0, 2.0, 5.0)
        assert z["width"] / 8 <= z["bar"] <= z["width"] / 2
    # several steps at one magnification: the longest's; a shorter step sits inside it
    z = close_up([0.74, 0.10], [0.67, -0.05], 0.26)
    assert z["width"] == pytest.approx(0.91, rel=1e-3)
    assert abs(0.67 - z["center"][0]) < 0.455 and abs(-0.05 - z["center"][1]) < 0.455
