"""toy_loop's plan: the step lengths and the 'fresh every layer' figures, re-derived from the
chapter's own loop (tests/test_toy.py), independently of the plan builder."""

from pathlib import Path

import numpy as np
from test_toy import chapter_loop

from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_templates.toy_loop.view import Data

ROOT = Path(__file__).resolve().parents[1]


def test_toy_loop_plan_rederived(cache_dir):
    plan = build_plan(load_storyboard(ROOT / "layerwise_templates/toy_loop/toy_loop.yaml"),
                      cache_dir)
    assert Data.check(plan["data"], "data") == []
    d = plan["data"]
    rows, X3 = chapter_loop(d["seed"])
    xs = [r["X"][0] for r in rows] + [X3[0]]
    for l, r in enumerate(rows):
        # |Δ^(l)| = |X^(l+1) - X^(l)| = |0.1 V^(l)|
        assert abs(d["layers"][l]["step_len"] - 0.1 * np.linalg.norm(r["V"][0])) < 1e-6
        assert np.allclose(d["layers"][l]["x_out"], xs[l + 1], atol=1e-6)
    ratio = np.linalg.norm(rows[1]["V"]) / np.linalg.norm(rows[0]["V"])
    assert abs(d["fresh"]["step_ratio"] - ratio) < 1e-3
    for key, name in (("q", "Q"), ("k", "K"), ("v", "V")):
        gaps = [np.linalg.norm(rows[i][name] - rows[j][name])
                for i in range(3) for j in range(i + 1, 3)]
        assert abs(d["fresh"][key] - min(gaps)) < 1e-3
    assert d["fresh"]["carry_gap"] == 0.0
    # Q, K, V's change from layer l-1 to l = the new matrices' part + the new X's part
    for split in d["fresh"]["split"]:
        l = split["layer"]
        old, new = rows[l - 1], rows[l]
        by_w = [np.linalg.norm(old["X"] @ (new[w] - old[w])) for w in ("Wq", "Wk", "Wv")]
        by_x = [np.linalg.norm((new["X"] - old["X"]) @ new[w]) for w in ("Wq", "Wk", "Wv")]
        for n, w, x in zip("QKV", by_w, by_x):      # the two parts add up to the change
            assert np.allclose(old["X"] @ (new["W" + n.lower()] - old["W" + n.lower()])
                               + (new["X"] - old["X"]) @ new["W" + n.lower()],
                               new[n] - old[n])
        assert abs(split["by_w_min"] - min(by_w)) < 1e-3
        assert abs(split["by_x_max"] - max(by_x)) < 1e-3
        assert split["w_min_of"] == "QKV"[int(np.argmin(by_w))]
        assert split["x_max_of"] == "QKV"[int(np.argmax(by_x))]
        for n, w, x in zip("QKV", by_w, by_x):
            assert abs(split["w_parts"][n] - w) < 1e-3 and abs(split["x_parts"][n] - x) < 1e-3
            # the two parts meet at the old X times the new matrix (the scene draws them so)
            W = "W" + n.lower()
            assert np.allclose(split["via"][n], (old["X"] @ new[W])[0], atol=1e-3)
            assert abs(np.linalg.norm(np.array(split["via"][n]) - old[n][0]) - w) < 1e-3
            assert abs(np.linalg.norm(new[n][0] - np.array(split["via"][n])) - x) < 1e-3
        assert abs(split["ratio"] - min(by_w) / max(by_x)) < 0.01
    assert [s["layer"] for s in d["fresh"]["split"]] == [1, 2]


def test_toy_loop_zoom_and_reuse(cache_dir):
    """Later close-ups are layer 0's zoomed out `zoom_out` times (the bar, the same length on
    screen, means that many times more); the reuse hypothetical's X path, re-derived."""
    plan = build_plan(load_storyboard(ROOT / "layerwise_templates/toy_loop/toy_loop.yaml"),
                      cache_dir)
    d = plan["data"]
    z0, f = d["layers"][0]["zoom"], d["fresh"]["zoom_out"]
    assert isinstance(f, int) and f >= 1
    for lay in d["layers"][1:]:
        assert abs(lay["zoom"]["bar"] - z0["bar"] * f) < 1e-9
        assert abs(lay["zoom"]["width"] - z0["width"] * f) < 1e-3
        assert lay["zoom"]["width"] >= 1.6 * lay["step_len"]        # the step fits
        # centred on X's path so far when it spans at most 0.6 of the view: every earlier
        # X is then in it (the scene draws the earlier steps there, faint)
        l = lay["layer"]
        path = np.array([d["layers"][i]["x_in"] for i in range(l + 1)] + [lay["x_out"]])
        span = float((path.max(axis=0) - path.min(axis=0)).max())
        assert abs(lay["zoom"]["path"] - span / lay["zoom"]["width"]) < 1e-3
        if lay["zoom"]["path"] <= 0.6:
            off = np.abs(path - np.array(lay["zoom"]["center"])).max()
            assert off <= 0.3 * lay["zoom"]["width"] + 1e-3
    rows, _ = chapter_loop(d["seed"])
    x = rows[0]["X"][0].astype(float)
    r = d["fresh"]["reuse"]
    for l in range(len(rows)):
        assert np.allclose(r["x_in"][l], x, atol=1e-3)
        x = x + 0.1 * rows[0]["V"][0]
        assert np.allclose(r["x_out"][l], x, atol=1e-3)
        assert r["x_out_differs"][l] == bool(np.abs(x - d["layers"][l]["x_out"]).max() > 0.005)
    assert r["x_in_differs"][0] is False and r["x_out_differs"][0] is False
    assert r["x_gap"] > 0.005
