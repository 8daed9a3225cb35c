"""Plan data for the chapter's toy loop: every vector and matrix of the three passes."""

from __future__ import annotations

import math

import numpy as np

from layerwise_core.analysis.toy_loop_steps import carry_gap, change_split, smallest_gap, step_lengths
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace

# The chapter's loop, as shown on screen; `lines` maps each step to its line number (1-based).
CODE = """np.random.seed({seed})
X = np.array([[1., 0.]])

for layer in range(3):
    Wq = np.random.randn(2, 2)
    Wk = np.random.randn(2, 2)
    Wv = np.random.randn(2, 2)

    Q, K, V = X @ Wq, X @ Wk, X @ Wv

    X = X + 0.1 * V"""
LINES = {"seed": 1, "x0": 2, "loop": 4, "weights": [5, 6, 7], "qkv": 9, "update": 11}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    W = t.weights()
    layers = []
    for l in range(t.n_layers):
        b = f"blocks.{l}"
        layers.append({
            "layer": l,
            "x_in": t[f"{b}.hook_resid_pre"][0].tolist(),
            "W_Q": W[f"{b}.attn.W_Q"][0].tolist(),
            "W_K": W[f"{b}.attn.W_K"][0].tolist(),
            "W_V": W[f"{b}.attn.W_V"][0].tolist(),
            "q": t[f"{b}.attn.hook_q"][0, 0].tolist(),
            "k": t[f"{b}.attn.hook_k"][0, 0].tolist(),
            "v": t[f"{b}.attn.hook_v"][0, 0].tolist(),
            "update": t[f"{b}.hook_attn_out"][0].tolist(),
            "x_out": t[f"{b}.hook_resid_post"][0].tolist(),
        })
    extent, center = view_of(layers)
    lengths = step_lengths([lay["x_in"] for lay in layers], [lay["x_out"] for lay in layers])
    # layer 0's step gets its own close-up; the later ones share one magnification (the
    # longest's), so their lengths compare by eye
    later = max(lengths[1:], default=0.0)
    first = close_up(layers[0]["x_in"], layers[0]["x_out"], lengths[0])
    zoom_out = zoom_out_of(first, later)
    for l, (lay, n) in enumerate(zip(layers, lengths)):
        # (after layer 0: layer 0's close-up zoomed out `zoom_out` times, its scale bar
        # `zoom_out` times longer in data units, so the same length on screen)
        # (centred on X's path so far when it fits: the earlier steps are seen there, faint)
        path = [layers[i]["x_in"] for i in range(l + 1)] + [lay["x_out"]]
        lay["zoom"] = first if l == 0 else close_up(lay["x_in"], lay["x_out"], later,
                                                     first, zoom_out, path)
        lay["step_len"] = n          # |X^(l+1) - X^(l)| = |0.1 V^(l)|
        # Q, K, V = X times W as written (two decimals each): how far each product redone
        # from the shown digits is off the shown result, at most (> 0.005: it is written "≈")
        lay["prod_gap"] = {key: round(max(abs(round(sum(round(x, 2) * round(w, 2) for x, w in
                                                       zip(lay["x_in"], col)), 2)
                                              - round(r, 2))
                                          for col, r in zip(zip(*lay[f"W_{key.upper()}"]),
                                                            lay[key])), 4)
                           for key in "qkv"}
        # X^(l+1) = X^(l) + Δ^(l) as written (two decimals): how far the written sum is off,
        # entry by entry, at most (0: it adds up; else it is written "≈": 0.10 + (-0.15)
        # shown as -0.04 would not add up to the eye)
        lay["sum_gap"] = round(max(abs(round(a, 2) + round(d, 2) - round(o, 2))
                                   for a, d, o in zip(lay["x_in"], lay["update"], lay["x_out"])), 4)
    fresh = {key: round(smallest_gap([lay[key] for lay in layers]), 4) for key in "qkv"}
    fresh["carry_gap"] = carry_gap([lay["x_in"] for lay in layers],
                                   [lay["x_out"] for lay in layers])
    # the change in Q, K, V from one layer to the next: the new matrices' part against X's
    fresh["split"] = [named_split(sp, layers) for sp in change_split(
        [lay["x_in"] for lay in layers], {k: [lay[k] for lay in layers] for k in ("W_Q", "W_K", "W_V")})]
    fresh["step_ratio"] = round(lengths[1] / lengths[0], 4) if len(lengths) > 1 else 0.0
    # which layer's step is the longest (each step is a tenth of its V: the longest V's)
    fresh["longest_step"] = int(np.argmax(lengths))
    fresh["zoom_out"] = zoom_out
    fresh["reuse"] = reused(layers)
    seed = t.meta["source"]["seed"]
    return {"fresh": fresh, "code": CODE.format(seed=seed), "lines": LINES, "seed": seed,
            "step": 0.1, "extent": extent, "center": center, "layers": layers}


def view_of(layers: list[dict]) -> tuple[float, list[float]]:
    """The plane's square view (half-width `extent`, `center`, data units): the origin and
    every point drawn on it (X before and after each layer, each V's tip: Q and K stay
    numbers) with 0.3 to spare round them, and 0.8 right of X's rightmost tip (X's name
    stands there when X lies along the x-axis). Not centred on the origin: the points lie
    mostly left of it, so a centred view drew each unit a third smaller."""
    pts = np.array([[0.0, 0.0]] + [lay[k] for lay in layers for k in ("x_in", "x_out", "v")])
    xs = np.array([lay[k] for lay in layers for k in ("x_in", "x_out")])
    lo, hi = pts.min(axis=0) - 0.3, pts.max(axis=0) + 0.3
    hi[0] = max(hi[0], xs[:, 0].max() + 0.8)
    extent = math.ceil(float((hi - lo).max()) / 2 / 0.05) * 0.05
    return round(extent, 2), ((lo + hi) / 2).round(3).tolist()


def named_split(sp: dict, layers: list[dict]) -> dict:
    """change_split's entry with its two figures named for what they are (`by_w_min`: the
    smallest of Q's, K's, V's matrices' parts; `by_x_max`: the largest of their X parts), the
    three parts of each (`w_parts`, `x_parts`; `via`: X^(l-1) times layer l's matrix, where
    the two parts meet) and which of Q, K, V holds the min and the max:
    a voice that says "smallest" and "largest" reads fields that are those."""
    l = sp["layer"]
    x0, x1 = np.asarray(layers[l - 1]["x_in"]), np.asarray(layers[l]["x_in"])
    w_parts, x_parts, via = {}, {}, {}
    for n in "QKV":
        W0, W1 = np.asarray(layers[l - 1][f"W_{n}"]), np.asarray(layers[l][f"W_{n}"])
        w_parts[n] = round(float(np.linalg.norm(x0 @ (W1 - W0))), 4)
        x_parts[n] = round(float(np.linalg.norm((x1 - x0) @ W1)), 4)
        # where the two parts meet: the old X times the new matrix (the new matrices' part
        # runs from layer l-1's Q to it, the moved X's part from it to layer l's Q)
        via[n] = (x0 @ W1).round(4).tolist()
    # the split depends on which change is counted first: the other order (X moves under
    # the old matrix first, then the matrix changes under the new X)
    x_first, w_after = {}, {}
    for n in "QKV":
        W0, W1 = np.asarray(layers[l - 1][f"W_{n}"]), np.asarray(layers[l][f"W_{n}"])
        x_first[n] = round(float(np.linalg.norm((x1 - x0) @ W0)), 4)
        w_after[n] = round(float(np.linalg.norm(x1 @ (W1 - W0))), 4)
    # Q's matrices' part over its X part, the smaller of the two orders' ratios: > 1 means
    # "the new matrices change Q more than the moved X does", whichever is counted first
    ratio_q_both = round(min(w_parts["Q"] / max(x_parts["Q"], 1e-9),
                             w_after["Q"] / max(x_first["Q"], 1e-9)), 2)
    # the same for V (the split drawn): > 1, "the swap did more", whichever is counted first
    ratio_v_both = round(min(w_parts["V"] / max(x_parts["V"], 1e-9),
                             w_after["V"] / max(x_first["V"], 1e-9)), 2)
    return {"layer": l, "by_w_min": sp["by_w"], "by_x_max": sp["by_x"], "ratio": sp["ratio"],
            "w_parts": w_parts, "x_parts": x_parts, "via": via,
            "x_parts_first": x_first, "w_parts_after": w_after, "ratio_q_both": ratio_q_both,
            "w_min_of": min(w_parts, key=w_parts.get), "x_max_of": max(x_parts, key=x_parts.get),
            # V's matrices' part over its X part (the split drawn for V)
            "ratio_v": round(w_parts["V"] / max(x_parts["V"], 1e-9), 2),
            "ratio_v_both": ratio_v_both}


def round_bar(width: float) -> float:
    """A scale bar of a round length (1, 2 or 5 times a power of ten) near a quarter of a
    view `width` wide."""
    exp = math.floor(math.log10(width / 4))
    bar = min((m * 10.0 ** exp for m in (1, 2, 5, 10)), key=lambda v: abs(v - width / 4))
    return float(f"{bar:.3g}")


def zoom_out_of(first: dict, later: float) -> int:
    """How many times the later close-ups zoom out from layer 0's: its scale bar times this
    is again a round length (1, 2 or 5 times a power of ten); of those, the factor whose view
    is nearest (by ratio) 3.5 times the longest later step wide, and at least 1.6 times it
    (the step fits, with room for its arrows)."""
    bar, width = first["bar"], first["width"]
    if later <= 0:
        return 1
    options = []
    for e in range(-4, 5):
        for m in (1, 2, 5):
            f = round(m * 10.0 ** e / bar, 6)       # the new bar over layer 0's
            if f >= 1 and abs(f - round(f)) < 1e-6 and width * f >= 1.6 * later:
                options.append(int(round(f)))
    if not options:
        return max(1, math.ceil(1.6 * later / width))
    return min(options, key=lambda f: abs(math.log(width * f / (3.5 * later))))


def reused(layers: list[dict]) -> dict:
    """The hypothetical "Q, K, V computed once and reused": layer 0's V added at every layer.
    X would move differently too: X entering and leaving each layer then (`x_in`, `x_out`),
    and which of the real X's (the table's X^(l) and X^(l+1) cells) it would change
    (`x_in_differs`, `x_out_differs`: more than 0.005 off, the table's rounding)."""
    v0 = 0.1 * np.asarray(layers[0]["v"])
    x = np.asarray(layers[0]["x_in"], dtype=float)
    x_in, x_out = [], []
    for _ in layers:
        x_in.append(x.round(4).tolist())
        x = x + v0
        x_out.append(x.round(4).tolist())
    far = lambda a, b: bool(np.abs(np.asarray(a) - np.asarray(b)).max() > 0.005)  # noqa: E731
    return {"x_in": x_in, "x_out": x_out,
            "x_in_differs": [far(a, lay["x_in"]) for a, lay in zip(x_in, layers)],
            "x_out_differs": [far(a, lay["x_out"]) for a, lay in zip(x_out, layers)],
            "x_gap": round(max(float(np.abs(np.asarray(a) - np.asarray(lay["x_out"])).max())
                               for a, lay in zip(x_out, layers)), 4)}


def close_up(x_in, x_out, step: float, first: dict | None = None, zoom_out: int = 1,
             path=None) -> dict:
    """A view of one 0.1 V step where it is readable: centred on the step, 3.5 times `step`
    wide (the step's own length, or the longest of several shown at one magnification), with
    a scale bar of a round length (1, 2 or 5 times a power of ten) near a quarter of the
    view. Later layers (`first`: layer 0's view, zoomed out `zoom_out` times): centred on X's
    `path` so far (X^(0) ... X^(l+1)) when it spans at most 0.6 of the view, so the earlier
    steps are in it too; else on the step."""
    a, b = np.asarray(x_in, dtype=float), np.asarray(x_out, dtype=float)
    if first is not None:       # layer 0's close-up zoomed out `zoom_out` times
        width = round(first["width"] * zoom_out, 4)
        pts = np.asarray(path if path is not None else [a, b], dtype=float)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        fit = float((hi - lo).max()) / width        # the path's span, a share of the view
        center = (lo + hi) / 2 if fit <= 0.6 else (a + b) / 2
        return {"center": center.round(4).tolist(), "width": width, "path": round(fit, 4),
                "bar": float(f"{first['bar'] * zoom_out:.3g}")}
    step = float(step) or 1e-3
    width = 3.5 * step
    return {"center": ((a + b) / 2).round(4).tolist(), "width": round(width, 4),
            "bar": round_bar(width),
            "path": round(float(np.abs(b - a).max()) / round(width, 4), 4)}
