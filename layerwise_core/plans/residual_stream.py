"""Plan data for the residual stream: one word's X through every layer, step by step.

Every state of the focus word's stream (`analysis.vectors.stream_stages`: the embedding, then
after each sublayer's add, and for post-LN models after each re-normalisation) is projected once
onto one PCA plane, so the scene can move a point step by step, each step coloured by the
sublayer that caused it. Per layer the plan holds the relative sizes of the two updates
(`analysis.updates.update_sizes`), bar heights on one robust scale, and for the layers the
storyboard's beats look at, colour strips of X and of the updates (one robust colour limit over
every vector of the word). `check` is what makes the picture honest: for pre-norm models the
residual identity X_post = X_pre + attn_out + mlp_out, measured; for post-LN models how far
each LayerNorm moves X (there X does not change by additions alone).
"""

from __future__ import annotations

import math

import numpy as np

from ..analysis.projection import pca_plane
from ..analysis.robust import error_bound, robust_limit, scaled
from ..analysis.updates import update_sizes
from ..analysis.vectors import positions, stream_stages
from ..storyboard.schema import Storyboard
from ..trace import Trace

ASPECT = 1.6            # width / height of the scene's projection frame (equal units on both axes)
VIEW_PAD = 1.3          # a view is the bounding box of the points so far, enlarged by this
BAR_PERCENTILE = 97.0   # bars are clipped above this percentile of all relative sizes
STRIP_SHOWS = ("x", "attn_out", "mlp_out")


def _kind(hook: str) -> str:
    if hook.endswith("hook_resid_mid"):
        return "attn"
    if hook.endswith("hook_resid_post"):
        return "ffn"
    if hook.endswith("hook_normalized"):
        return "ln"
    return "embed"


def _nice_down(x: float) -> float:
    """The largest 1, 2 or 5 x 10^k not above x."""
    e = math.floor(math.log10(x))
    for m in (5, 2, 1):
        if m * 10 ** e <= x:
            return float(m * 10 ** e)
    return float(10 ** e)


def _view(xy: np.ndarray) -> dict:
    """A frame of aspect ASPECT around `xy` [n, 2] with equal units on both axes, and a scale bar
    of a round length about a quarter of the frame's width."""
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    center = (lo + hi) / 2
    span = max(float(hi[0] - lo[0]), ASPECT * float(hi[1] - lo[1]), 1e-6) * VIEW_PAD
    half_w, half_h = span / 2, span / 2 / ASPECT
    scale = _nice_down(span / 4)
    return {"x_range": [float(center[0] - half_w), float(center[0] + half_w)],
            "y_range": [float(center[1] - half_h), float(center[1] + half_h)],
            "scale": scale, "scale_decimals": max(0, -math.floor(math.log10(scale)))}


def _vec(t: Trace, hook: str, pos: list[int]) -> np.ndarray:
    return t[hook][pos].astype(np.float64).mean(axis=0)


def _strip_layers(sb: Storyboard) -> list[int]:
    first = sb.layers[0] if sb.layers else 0
    return sorted({b.layer if b.layer is not None else first for b in sb.beats
                   if set(b.show) & set(STRIP_SHOWS)} | {first})


# The shown bound of the additions check: SmolLM2's X reaches |x| ~ 900 per entry, whose float32
# rounding (6e-8 relative) over 60 float32 additions leaves 2.4e-5 .. 5.0e-5 (measured under
# ATEN_CPU_CAPABILITY=default|avx2|avx512, 1 and 2 threads); 1e-4 is a fixed bound 2x above the
# worst seen, the same on every machine (error_bound fails the plan if it is ever reached).
ADDITION_TOLERANCE = 1e-4


def _addition_check(t: Trace, pos: list[int]) -> dict:
    """Pre-norm: X changes only by additions. Measured in float64 on the recorded float32 arrays,
    at the focus word's tokens: per layer, across the layer boundary, and over the whole stack."""
    L = t.n_layers
    f = lambda h: t[h][pos].astype(np.float64)            # noqa: E731
    per_layer = [float(np.abs(f(f"blocks.{l}.hook_resid_post") - (
        f(f"blocks.{l}.hook_resid_pre") + f(f"blocks.{l}.hook_attn_out")
        + f(f"blocks.{l}.hook_mlp_out"))).max()) for l in range(L)]
    chain = [float(np.abs(f(f"blocks.{l}.hook_resid_pre")
                          - f(f"blocks.{l - 1}.hook_resid_post")).max()) for l in range(1, L)]
    total = f("blocks.0.hook_resid_pre") + sum(f(f"blocks.{l}.hook_attn_out")
                                               + f(f"blocks.{l}.hook_mlp_out") for l in range(L))
    final = f(f"blocks.{L - 1}.hook_resid_post")
    return {"kind": "additions", "per_layer_error": per_layer,
            "max_error_layer": max(per_layer), "max_error_chain": max(chain, default=0.0),
            "max_error_total": float(np.abs(final - total).max()),
            "bound_total": error_bound(float(np.abs(final - total).max()), ADDITION_TOLERANCE),
            "bound_layer": error_bound(max(per_layer), ADDITION_TOLERANCE),
            "n_updates": 2 * L, "final_norm": float(np.linalg.norm(final, axis=-1).mean()),
            "final_max_abs": float(np.abs(final).max()), "arithmetic": "float64 on float32 arrays"}


def _layernorm_check(t: Trace, pos: list[int]) -> dict:
    """Post-LN: how far each LayerNorm moves X, |LN(x) - x| / |x|, and what is left of the sum."""
    L = t.n_layers
    f = lambda h: t[h][pos].astype(np.float64)            # noqa: E731

    def rel(after: np.ndarray, before: np.ndarray) -> float:
        return float((np.linalg.norm(after - before, axis=-1)
                      / np.linalg.norm(before, axis=-1)).mean())

    ln_attn = [rel(f(f"blocks.{l}.ln1.hook_normalized"), f(f"blocks.{l}.hook_resid_mid"))
               for l in range(L)]
    ln_ffn = [rel(f(f"blocks.{l}.ln2.hook_normalized"), f(f"blocks.{l}.hook_resid_post"))
              for l in range(L)]
    per_layer = [float(np.abs(f(f"blocks.{l}.hook_resid_post") - (
        f(f"blocks.{l}.hook_resid_pre") + f(f"blocks.{l}.hook_attn_out")
        + f(f"blocks.{l}.hook_mlp_out"))).max()) for l in range(L)]
    both = ln_attn + ln_ffn
    return {"kind": "layernorm", "ln_change_attn": ln_attn, "ln_change_ffn": ln_ffn,
            "min_ln_change": min(both), "max_ln_change": max(both),
            "per_layer_error": per_layer, "max_error_layer": max(per_layer),
            "arithmetic": "float64 on float32 arrays"}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    pos = positions(t, sb.focus[0])
    L, placement = t.n_layers, t.spec["norm_placement"]
    per = {"post": 4, "pre": 2}[placement]            # stages each layer adds

    stages = stream_stages(t)
    vectors = np.stack([_vec(t, h, pos) for _, h in stages])          # [n_stages, d_model]
    plane = pca_plane(vectors)
    xy = plane["xy"]
    norms = np.linalg.norm(vectors, axis=-1)
    stage_rows = [{"index": i, "label": label, "hook": hook, "kind": _kind(hook),
                   "layer": None if i == 0 else (i - 1) // per, "xy": xy[i].tolist(),
                   "norm": float(norms[i])} for i, (label, hook) in enumerate(stages)]
    views = [_view(xy[:max(i, 1) + 1]) for i in range(len(stages))]

    sizes = update_sizes(t, pos)
    bar_limit = robust_limit(np.array(sizes["rel_attn"] + sizes["rel_mlp"]), BAR_PERCENTILE)
    bar_attn, bar_mlp = scaled(sizes["rel_attn"], bar_limit), scaled(sizes["rel_mlp"], bar_limit)
    ticks = [v for v in (0.1, 0.25, 0.5, 1.0, 2.0, 5.0) if v <= bar_limit][-2:]

    updates = {(l, k): _vec(t, f"blocks.{l}.hook_{k}_out", pos) for l in range(L)
               for k in ("attn", "mlp")}
    strip_limit = robust_limit(np.concatenate([vectors.ravel()] +
                                              [u.ravel() for u in updates.values()]))
    strip_layers = _strip_layers(sb)
    strips = {}
    for l in strip_layers:
        first = 1 + per * l
        strips[str(l)] = {
            "stages": {str(i): scaled(vectors[i], strip_limit)["values"]
                       for i in range(first - 1, first + per)},
            "attn_out": scaled(updates[(l, "attn")], strip_limit)["values"],
            "mlp_out": scaled(updates[(l, "mlp")], strip_limit)["values"]}

    layers = []
    for l in range(L):
        first = 1 + per * l
        layers.append({
            "layer": l, "stage_in": first - 1,
            "stage_attn": first, "stage_ffn": first + (2 if placement == "post" else 1),
            "stage_out": first + per - 1,
            "norm_x": sizes["norm_x"][l], "norm_attn": sizes["norm_attn"][l],
            "norm_mlp": sizes["norm_mlp"][l], "rel_attn": sizes["rel_attn"][l],
            "rel_mlp": sizes["rel_mlp"][l], "bar_attn": bar_attn["values"][l],
            "bar_mlp": bar_mlp["values"][l], "clipped_attn": sizes["rel_attn"][l] > bar_limit,
            "clipped_mlp": sizes["rel_mlp"][l] > bar_limit})

    later = slice(1, None)          # layer 0 turns the embedding into a stream: shown apart
    summary = {"median_rel_attn": float(np.median(sizes["rel_attn"][later] or [0.0])),
               "median_rel_mlp": float(np.median(sizes["rel_mlp"][later] or [0.0])),
               "min_rel_later": float(min(sizes["rel_attn"][later] + sizes["rel_mlp"][later],
                                          default=0.0)),
               "max_rel_later": float(max(sizes["rel_attn"][later] + sizes["rel_mlp"][later],
                                          default=0.0)),
               "norm_first": float(norms[0]), "norm_last": float(norms[-1])}

    check = _addition_check(t, pos) if placement == "pre" else _layernorm_check(t, pos)
    return {
        "norm_placement": placement, "norm": t.spec["norm"], "n_layers": L,
        "focus": {"word": sb.focus[0], "positions": pos, "tokens": [t.tokens[p] for p in pos]},
        "tokens": t.tokens,
        "stages": stage_rows,
        "projection": {"explained": plane["explained"].tolist(),
                       "explained_pct": (100 * plane["explained"]).tolist(),
                       "aspect": ASPECT, "views": views, "n_points": len(stages)},
        "layers": layers,
        "bars": {"limit": bar_limit, "percentile": BAR_PERCENTILE,
                 "clipped": bar_attn["clipped"] + bar_mlp["clipped"],
                 "ticks": [{"value": v, "scaled": scaled([v], bar_limit)["values"][0]}
                           for v in ticks]},
        "strip_limit": {"limit": strip_limit, "percentile": 99.0},
        "strip_layers": strip_layers,
        "strips": strips,
        "summary": summary,
        "check": check,
    }
