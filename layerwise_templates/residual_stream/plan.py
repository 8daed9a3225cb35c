"""Plan data for the residual stream: one token's X through every layer, as a vector being added to.

The token followed is the focus word's last token (in a decoder it has read the whole word). Its
stream is a path of states (`analysis.vectors.stream_stages`: the embedding X^(0), then after each
sublayer's add, and for post-LN models after each re-normalisation); each step between two states
is one update. The plan holds, for every state and step:

- the first `ENTRIES` entries as numbers (a vector is a short column before anything else), its
  length, and how many decimals show it (3 significant digits, checked against float noise);
- its coordinates on ONE plane fitted once, by PCA through the origin, to this token's states
  only (the zero vector stays at (0, 0), so X is an arrow from it and each update an arrow
  tip to tail), and the share of each arrow's length the plane captures (a 2-D picture of a
  576-d update leaves the rest out: the scene says how much);
- the views a scene zooms through (widths on a 1-2.5-5 ladder, a scale bar a fifth of the
  width) and the bar chart's linear axis at each point of the story (|X^(l)|, |Delta_attn^(l)|,
  |Delta_FFN^(l)| on one honest scale that grows, never clipped), plus a log axis for the
  whole picture at once;
- the outlier token (SmolLM2's first token is an attention sink whose |X| reaches ~24,000), said,
  not hidden, and why the plane is fitted to the followed token only;
- `check`/`identity`: for pre-norm models X^(L) = X^(0) + the 2L updates, measured, shown as a
  fixed bound; for post-LN models how far each LayerNorm moves X.
"""

from __future__ import annotations

import math

import numpy as np

from layerwise_core.analysis.residual_stream_copies import copy_norms
from layerwise_core.analysis.projection import captured, pca_plane
from layerwise_core.analysis.robust import error_bound
from layerwise_core.analysis.similarity import angle_deg
from layerwise_core.analysis.updates import attention_to, outlier_token, update_sizes
from layerwise_core.analysis.vectors import positions, stream_stages
from layerwise_core.errors import LayerwiseError
from layerwise_core.models import measured_as, weights_read
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace
from layerwise_core.plans.shown import NOISE_REL, fitting_decimals, near_boundary, stable

ENTRIES = 4             # entries of a vector shown as numbers
ASPECT = 1.25           # width / height of the scene's plane panel (equal units on both axes)
VIEW_PAD = 1.25         # a view is at least this times the extent of what it must frame
VIEW_MARGIN = 0.1       # a point this close (share of the width) to a view's edge forces a zoom
LADDER = (1.0, 2.5, 5.0)        # view widths: these x 10^k; the scale bar is a fifth
BAR_LADDER = (1.0, 2.0, 5.0)    # bar axis maxima: these x 10^k; ticks at half and full
SPACE_MARKS = ("\u0120", "\u2581", " ")     # GPT-2 "Ġ", SentencePiece "▁", a decoded space
SPACE_SHOWN = "\u2423"                      # "␣" on screen
OUTLIER_FACTOR = 10.0   # a token whose |X| exceeds every other token's by this is an outlier
SINK_SHARE = 0.5        # ... and an attention sink if the followed token gives it more than this



def _kind(hook: str) -> str:
    if hook.endswith("hook_resid_mid"):
        return "attn"
    if hook.endswith("hook_resid_post"):
        return "ffn"
    if hook.endswith("hook_normalized"):
        return "ln"
    return "embed"


def sig_decimals(value: float, digits: int = 3) -> int:
    """Decimals that show `value` with at least `digits` significant digits (2.18, 61.4, 870)."""
    v = abs(float(value))
    return 0 if v == 0 else max(0, digits - 1 - math.floor(math.log10(v)))


def entry_decimals(norm_x: float) -> int:
    """Decimals for a layer's entries: a d-dim X of length |X| has entries ~|X|/sqrt(d), shown
    with 2 significant digits at least (X^(0) of SmolLM2, |X| 2.2: entries ~0.09 -> 3)."""
    return 3 if norm_x < 10 else 2 if norm_x < 200 else 1


def _ladder_up(x: float, ladder=LADDER) -> float:
    """The smallest m x 10^k (m in `ladder`) at or above x."""
    e = math.floor(math.log10(x))
    for k in (e - 1, e, e + 1):
        for m in ladder:
            if m * 10 ** k >= x * (1 - 1e-12):
                return float(m * 10 ** k)
    return float(10 ** (e + 1))


def _decimals_of(x: float) -> int:
    return max(0, -math.floor(math.log10(x) + 1e-9)) if x < 1 else 0


def _fits(view: dict, pts: np.ndarray) -> bool:
    w, h = view["width"], view["width"] / ASPECT
    cx, cy = view["center"]
    m = VIEW_MARGIN * w
    return bool(((np.abs(pts[:, 0] - cx) <= w / 2 - m) & (np.abs(pts[:, 1] - cy) <= h / 2 - m))
                .all())


def plane_views(xy: np.ndarray) -> list[dict]:
    """The view after each state k is drawn: it frames the origin and states 0..k. A view is kept
    while everything fits (so the camera moves only when the scale must change), else the next
    is the smallest ladder width that frames them, centred on them."""
    views, view = [], None
    for k in range(len(xy)):
        pts = np.vstack([np.zeros(2), xy[:k + 1]])
        if view is None or not _fits(view, pts):
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            need = max(float(hi[0] - lo[0]), ASPECT * float(hi[1] - lo[1]), 1e-6) * VIEW_PAD
            width = _ladder_up(need)
            if view is not None:
                width = max(width, view["width"])       # never zoom in again mid-story
            scale = width / 5
            view = {"center": ((lo + hi) / 2).tolist(), "width": width, "scale": scale,
                    "scale_decimals": _decimals_of(scale)}
            if not _fits(view, pts):                     # the margin needs one more rung
                width = _ladder_up(width * 1.01)
                view = dict(view, width=width, scale=width / 5,
                            scale_decimals=_decimals_of(width / 5))
        views.append(dict(view))
    return views


WHOLE_LADDER = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)   # its scale bar a fifth


def whole_view(xy: np.ndarray) -> dict:
    """One view of the whole finished path and the origin, as tight as a finer ladder allows
    (the journey zooms out to it once, at its late layers, and stays: no rescale after)."""
    pts = np.vstack([np.zeros(2), xy])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    need = max(float(hi[0] - lo[0]), ASPECT * float(hi[1] - lo[1]), 1e-6) * VIEW_PAD
    width = _ladder_up(need, WHOLE_LADDER)
    view = {"center": ((lo + hi) / 2).tolist(), "width": width}
    while not _fits(view, pts):
        width = view["width"] = _ladder_up(width * 1.01, WHOLE_LADDER)
    view["scale"] = width / 5
    view["scale_decimals"] = _decimals_of(width / 5)
    return view


def shadow_view(xy0: np.ndarray, norm0: float) -> dict:
    """The view of the plane beat's shadow: X^(0)'s shadow (on the plane) and, beside it along
    the same direction, an arrow of X^(0)'s true length (the shadow's length over the share the
    plane captures): the origin and both tips framed, its scale bar a fifth of its width."""
    xy0 = np.asarray(xy0, np.float64)
    u = xy0 / max(float(np.linalg.norm(xy0)), 1e-12)
    pts = np.vstack([np.zeros(2), xy0, u * norm0])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    need = max(float(hi[0] - lo[0]), ASPECT * float(hi[1] - lo[1]), 1e-6) * VIEW_PAD
    view = {"center": ((lo + hi) / 2).tolist(), "width": _ladder_up(need)}
    while not _fits(view, pts):
        view["width"] = _ladder_up(view["width"] * 1.01)
    view["scale"] = view["width"] / 5
    view["scale_decimals"] = _decimals_of(view["scale"])
    return view


CLOSE_LAYERS = 2        # a close-up view frames the states of the last this many layers
CLOSE_FROM_LAYER = 2    # ... from X^(2) on (layers 0 and 1 are shown step by step, whole)


def close_views(xy: np.ndarray, per: int) -> list[dict]:
    """The journey's close-up after each state k from X^(CLOSE_FROM_LAYER) on (before it: None):
    it frames only the states of the last CLOSE_LAYERS layers (the newest part of the path,
    not the origin), centred on them, so each layer's two additions are arrows the eye can see
    while X itself is hundreds long. Its width is a ladder step (a scale bar a fifth of it) and
    never narrows again (the camera pans with the path and only ever zooms out)."""
    start = CLOSE_FROM_LAYER * per
    views, width = [], 0.0
    for k in range(len(xy)):
        if k < start:
            views.append(None)
            continue
        pts = xy[max(start - per, k - CLOSE_LAYERS * per):k + 1]
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        need = max(float(hi[0] - lo[0]), ASPECT * float(hi[1] - lo[1]), 1e-6) * VIEW_PAD
        width = max(width, _ladder_up(need))
        view = {"center": ((lo + hi) / 2).tolist(), "width": width}
        if not _fits(view, pts):                         # the margin needs one more rung
            width = view["width"] = _ladder_up(width * 1.01)
        view["scale"] = view["width"] / 5
        view["scale_decimals"] = _decimals_of(view["scale"])
        views.append(view)
    return views


FOLD_COS = -0.9     # the zoom's two steps drawn closer to opposite than this overlap


def zoom_layer(vectors: np.ndarray, lay: dict, per: int) -> dict:
    """One middle layer drawn to scale (the `zoom` beat): X^(l), its attention step and its
    FFN step as two true triangles unfolded into one flat picture. X^(l) lies along the first
    axis; the attention step at its true angle to X^(l) (triangle X^(l), Delta_attn, X^(l) +
    Delta_attn: every length and angle true); the FFN step at its true angle to X^(l) +
    Delta_attn, on the side that keeps X^(l+1)'s angle to X^(l) nearest its true one. Every
    length drawn is its true length; only the tilt between the two triangles is lost."""
    x = vectors[lay["stage_in"]]
    mid = vectors[lay["stage_attn"]]
    out = vectors[lay["stage_out"]]
    da, df = mid - x, out - mid
    nx, na, nm, nf = (float(np.linalg.norm(v)) for v in (x, da, mid, df))

    def cos(a, b):
        return float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-12))

    ca = max(-1.0, min(1.0, cos(x, da)))
    p1 = np.array([nx, 0.0]) + na * np.array([ca, math.sqrt(max(0.0, 1 - ca * ca))])
    cf = max(-1.0, min(1.0, cos(mid, df)))
    e1 = p1 / np.linalg.norm(p1)
    e2 = np.array([-e1[1], e1[0]])                 # 2D: orthogonal to X^(l) + Delta_attn
    sf = math.sqrt(max(0.0, 1 - cf * cf))
    # of the two sides the FFN's triangle can be unfolded to, the one whose X^(l+1) makes
    # the angle with X^(l) closest to the true one, in degrees (the tilt lost, the turn kept
    # as near as a flat picture allows); a side whose FFN step folds back over attention's
    # (drawn within FOLD_COS of opposite: round 35, layer 15's orange arrow ran back over the
    # pink one) only when both do
    true = math.degrees(math.acos(max(-1.0, min(1.0, cos(x, out)))))
    cands = [p1 + nf * (cf * e1 + side * sf * e2) for side in (1.0, -1.0)]
    da2 = p1 - np.array([nx, 0.0])
    apart = [q for q in cands if cos(da2, q - p1) > FOLD_COS] or cands
    p2 = min(apart, key=lambda q: abs(math.degrees(math.atan2(abs(q[1]), q[0])) - true))
    l = lay["layer"]
    return {"layer": l, "next_layer": l + 1,
            "norm_x": _num(nx, "zoom.norm_x"), "norm_attn": _num(na, "zoom.norm_attn"),
            "norm_mid": _num(nm, "zoom.norm_mid"), "norm_mlp": _num(nf, "zoom.norm_mlp"),
            "norm_out": _num(float(np.linalg.norm(out)), "zoom.norm_out"),
            "rel_attn": _num(na / nx, "zoom.rel_attn", 2),
            "rel_mlp": _num(nf / nm, "zoom.rel_mlp", 2),
            "cos_attn": _num(ca, "zoom.cos_attn", 2), "cos_mlp": _num(cf, "zoom.cos_mlp", 2),
            "pts": [[0.0, 0.0], [nx, 0.0], p1.tolist(), p2.tolist()]}


def bar_axes(maxima: list[float]) -> list[dict]:
    """The bar chart's linear axis after each state: its top is the smallest 1-2-5 x 10^k above
    everything shown so far (a bar is never clipped), ticks at half and full."""
    axes, top = [], 0.0
    for m in maxima:
        top = max(top, _ladder_up(m * 1.04, BAR_LADDER))
        ticks = [top / 2, top]
        axes.append({"max": top, "ticks": [{"value": v, "decimals": _decimals_of(v) +
                                            (1 if (v * 10 ** _decimals_of(v)) % 1 else 0)}
                                           for v in ticks]})
    return axes


def _shown_text(token: str) -> tuple[str, bool]:
    for mark in SPACE_MARKS:
        if token.startswith(mark) and len(token) > len(mark):
            return SPACE_SHOWN + token[len(mark):], True
    return token, False


def _num(value: float, where: str, decimals: int | None = None) -> dict:
    """A number the scene shows: its value and decimals (3 significant digits unless given),
    with one more decimal when those would sit within float noise of a rounding boundary
    (782.4991 is shown 782.5, not a 782/783 coin toss between machines)."""
    value = float(value)
    if decimals is None and abs(value) >= 1000:       # 24101.47 -> 24100 ("about"): noise
        e = math.floor(math.log10(abs(value))) - 2    # moves a 5-digit float32 in its 2nd
        if near_boundary(value / 10 ** e, 0):          # decimal, so it is rounded in the plan
            e -= 1                                     # (23349.92 -> 23350, not 23300/23400)
        stable(value / 10 ** e, 0, where)
        return {"value": float(round(value / 10 ** e) * 10 ** e), "decimals": 0,
                "exact": value, "rounded_to": float(10 ** e)}
    d = sig_decimals(value) if decimals is None else decimals
    if near_boundary(value, d):
        d += 1
    return {"value": stable(value, d, where), "decimals": d}


def _shown_sum(*shown: dict) -> dict:
    """The sum of numbers as they are shown (61.4 + 32.3 = 93.7, what a viewer adds up), with
    the most decimals among them: exact in decimal, so no float-noise check applies."""
    d = max(int(n["decimals"]) for n in shown)
    return {"value": round(sum(round(n["value"], n["decimals"]) for n in shown), d), "decimals": d}


def _about(value: float, where: str) -> dict:
    """A number said with "about": 2 significant digits (399.4 -> 400, 782.5 -> 780), one more
    when float noise could tip it over a rounding boundary."""
    value = float(value)
    e = math.floor(math.log10(abs(value))) - 1 if value else 0
    if near_boundary(value / 10 ** e, 0):
        e -= 1
    stable(value / 10 ** e, 0, where)
    return {"value": float(round(round(value / 10 ** e) * 10 ** e, max(0, -e))),
            "decimals": max(0, -e), "exact": value, "rounded_to": float(10 ** e)}


def _head(v: np.ndarray, decimals: set[int], where: str) -> list[float]:
    """The first ENTRIES entries, safe to show with each of `decimals` on any machine (a state is
    shown with its layer's decimals, and X^(l+1) both ends layer l and starts layer l+1)."""
    return [[stable(float(x), d, f"{where}[{i}]") for d in sorted(decimals)][0]
            for i, x in enumerate(v[:ENTRIES])]


# The shown bound of the additions check, from what float32 itself guarantees, not from the noise.
# The model computes X^(l+1) = (X^(l) + Δattn) + Δffn in float32: each addition rounds its result
# by at most u·|result| (u = 2^-24), so X^(L) is within 2L·u·max|X| of the float64 sum of the
# recorded parts, max over the followed token's states X^(l), X_mid^(l), X^(l+1), on every
# machine. Shown: the smallest 1-2-5 x 10^k at or above that (SmolLM2, a word with max |x| ~
# 520-720: 0.005; the first token, the attention sink, |x| ~ 23,000: 0.1). Errors measured on three
# sentences, every token: 2e-5..1.3e-4 for words, 2e-3..3e-3 for the sink, 17-60x under it. A
# fixed 1e-4 was shown before: a word of "I sat on the river bank." ("on", 1.29e-4) and every
# sink token went over it, so those plans failed.
U32 = 2.0 ** -24


def addition_bound(error: float, n_additions: int, max_abs: float, where: str) -> dict:
    """`error` as the float32 bound it stays below ({"bound": 0.005, "decimals": 3}); a bound
    within float noise of a 1-2-5 step fails the plan (another machine could pick the next)."""
    b = n_additions * U32 * float(max_abs)
    top = _ladder_up(b, BAR_LADDER)
    e = math.floor(math.log10(top))
    below = max(m * 10.0 ** k for k in (e - 1, e) for m in BAR_LADDER if m * 10.0 ** k < top)
    if top - b <= NOISE_REL * b:
        # b sits on a step (within float noise, either side): the step above it on every machine
        top = _ladder_up(top * 1.5, BAR_LADDER)
    elif b - below <= NOISE_REL * b:
        top = _ladder_up(below * 1.5, BAR_LADDER)       # the same step as b just above `below`
    return error_bound(error, top)


def measured_bound(error: float, bound: float) -> dict:
    """The measured error as a fixed step it stays far below: a tenth of the float32 bound
    (0.005 -> 0.0005), or the bound itself when the error is not under half of that tenth.
    Derived from `bound` (|X|, stable to 1e-6 across CPUs), never from the error: the error is
    float noise itself (2.97e-5 here, over 5e-5 under ATEN_CPU_CAPABILITY=default for the same
    token), so a step picked from it (the smallest 10^k at or above twice the error, before) showed
    0.0001 on one CPU and 0.001 on another (test_cross_machine, CI of stop 39)."""
    tenth = float(f"{float(bound) / 10:.1g}")
    return error_bound(error, tenth if 2.0 * float(error) < tenth else float(bound))


def addition_check(t: Trace, pos: list[int]) -> dict:
    """Pre-norm: X changes only by additions. Measured in float64 on the recorded float32 arrays,
    at the followed token: per layer, across the layer boundary, and over the whole stack."""
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
    error_total = float(np.abs(final - total).max())
    max_abs = max(float(np.abs(f(f"blocks.{l}.hook_{k}")).max())
                  for l in range(L) for k in ("resid_pre", "resid_mid", "resid_post"))
    return {"kind": "additions", "per_layer_error": per_layer,
            "max_error_layer": max(per_layer), "max_error_chain": max(chain, default=0.0),
            "max_error_total": error_total, "max_abs_x": max_abs,
            "bound_total": addition_bound(error_total, 2 * L, max_abs, "check.bound_total"),
            "bound_layer": addition_bound(max(per_layer), 2, max_abs, "check.bound_layer"),
            "n_updates": 2 * L, "final_norm": float(np.linalg.norm(final, axis=-1).mean()),
            "final_max_abs": float(np.abs(final).max()), "arithmetic": "float64 on float32 arrays",
            "sum_head": total[0][:ENTRIES].tolist()}


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


def _outlier(t: Trace, token: int, L: int) -> dict | None:
    out = outlier_token(t, OUTLIER_FACTOR)
    if out is None or out["position"] == token:
        return None
    p = out["position"]
    layers = [l for l in range(out["from_layer"], L)] or list(range(L))
    share = attention_to(t, token, p, layers) if p < token else 0.0
    text, _ = _shown_text(t.tokens[p])
    return {"position": p, "token": text,
            "max_norm": _num(out["max_norm"], "outlier.max_norm"),
            "max_layer": out["max_layer"], "from_layer": out["from_layer"],
            "others_max_norm": _num(out["others_max_norm"], "outlier.others_max_norm"),
            "attention_share": _num(share, "outlier.attention_share", 2),
            "attention_pct": _num(100 * share, "outlier.attention_pct", 0),
            "attention_layers": [layers[0], layers[-1]],
            "is_sink": share > SINK_SHARE}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    pos_all = positions(t, sb.focus[0])
    token = pos_all[-1]                    # a decoder's last token of the word has read all of it
    pos = [token]
    spec = t.spec
    L, placement = t.n_layers, spec.placement
    per = len(placement.stages)
    if placement.mlp_in is None:
        raise LayerwiseError(f"residual_stream: no sublayer updates to show for {t.model}")
    # the stage (within a layer's) where the FFN output has just been added
    ffn_stage = [h for _, h in placement.stages].index("blocks.{l}.hook_resid_post")
    d_model = int(t[stream_stages(t)[0][1]].shape[-1])

    # --- the states of the followed token and the steps between them -----------------------
    stages = stream_stages(t)
    vectors = np.stack([t[h][token].astype(np.float64) for _, h in stages])     # [n, d]
    plane = pca_plane(vectors, center=False)           # through the origin, this token only
    xy, axes = plane["xy"], plane["axes"]
    norms = np.linalg.norm(vectors, axis=-1)
    sizes = update_sizes(t, pos)
    layer_of = lambda i: None if i == 0 else (i - 1) // per         # noqa: E731
    x_norm_in = [sizes["norm_x"][l] for l in range(L)]

    def step_update(i: int) -> tuple[str | None, np.ndarray]:
        """Step i-1 -> i: the sublayer's own output for an add, the change for a LayerNorm."""
        kind, l = _kind(stages[i][1]), layer_of(i)
        if kind in ("attn", "ffn"):
            hook = f"blocks.{l}.hook_{'attn' if kind == 'attn' else 'mlp'}_out"
            return hook, t[hook][token].astype(np.float64)
        return None, vectors[i] - vectors[i - 1]

    updates = [None] + [step_update(i) for i in range(1, len(stages))]

    def starts(i: int) -> set[int]:
        """Layers whose entries state i is shown with: its own, and the next one's it starts."""
        own = {layer_of(i) or 0}
        if i % per == 0 and i // per < L:
            own.add(i // per)
        return own

    # each layer's entry decimals: from |X^(l)|, moved where an entry shown with them (the layer's
    # states and steps) would sit within float noise of a rounding boundary
    entry_dec = []
    for l in range(L):
        shown = [vectors[i][:ENTRIES].tolist() for i in range(len(stages)) if l in starts(i)]
        shown += [updates[i][1][:ENTRIES].tolist() for i in range(1, len(stages))
                  if layer_of(i) == l]
        entry_dec.append(fitting_decimals(shown, entry_decimals(x_norm_in[l]), f"layers[{l}]"))

    def used(i: int) -> set[int]:
        """Decimals state i is shown with."""
        return {entry_dec[l] for l in starts(i)}

    stage_rows = []
    for i, (label, hook) in enumerate(stages):
        stage_rows.append({
            "index": i, "label": label, "hook": hook, "kind": _kind(hook), "layer": layer_of(i),
            "xy": xy[i].tolist(), "norm": _num(norms[i], f"stages[{i}].norm"),
            # how much this stage's step changed |X| (negative: X got shorter; 0 for X^(0)),
            # what the journey's "shrinks by more than 2 only in ..." claims are checked on
            "change": float(norms[i] - norms[i - 1]) if i else 0.0,
            "captured_pct": _num(100 * captured(vectors[i], axes)[0],
                                 f"stages[{i}].captured_pct", 0),
            "head": _head(vectors[i], used(i), f"stages[{i}].head"),
            "decimals": sorted(used(i))})
    # each step's update: the sublayer's own output for an add, the change for a LayerNorm
    step_rows = []
    for i in range(1, len(stages)):
        kind, l = _kind(stages[i][1]), layer_of(i)
        hook, u = updates[i]
        n = float(np.linalg.norm(u))
        step_rows.append({
            "index": i, "kind": kind, "layer": l, "hook": hook, "from": i - 1, "to": i,
            "norm": _num(n, f"steps[{i - 1}].norm"),
            "rel": _num(n / norms[i - 1], f"steps[{i - 1}].rel", 2),
            "captured_pct": _num(100 * captured(u, axes)[0], f"steps[{i - 1}].captured_pct", 0),
            "head": _head(u, {entry_dec[l]}, f"steps[{i - 1}].head"),
            "decimals": entry_dec[l]})
    steps_len = np.array([s["norm"]["value"] for s in step_rows])
    step_vecs = np.diff(vectors, axis=0)
    shown_len = np.linalg.norm(step_vecs @ axes.T, axis=-1)
    captured_total = float(shown_len.sum() / np.linalg.norm(step_vecs, axis=-1).sum())

    layers = []
    for l in range(L):
        first = 1 + per * l
        s_attn, s_ffn = first, first + ffn_stage
        layers.append({
            "layer": l, "stage_in": first - 1, "stage_attn": s_attn, "stage_ffn": s_ffn,
            "stage_out": first + per - 1, "step_attn": s_attn - 1, "step_ffn": s_ffn - 1,
            "entry_decimals": entry_dec[l],
            "norm_x": _num(sizes["norm_x"][l], f"layers[{l}].norm_x"),
            "norm_attn": _num(sizes["norm_attn"][l], f"layers[{l}].norm_attn"),
            "norm_mlp": _num(sizes["norm_mlp"][l], f"layers[{l}].norm_mlp"),
            "rel_attn": _num(sizes["rel_attn"][l], f"layers[{l}].rel_attn", 2),
            "rel_mlp": _num(sizes["rel_mlp"][l], f"layers[{l}].rel_mlp", 2),
            # |X^(l)| + |Delta_attn^(l)|: what X + Delta would be long if lengths added (they
            # do not: the stage after attention, stages[stage_attn].norm, is shorter)
            # (the sum of the two lengths as shown, so the viewer's own sum agrees: 61.4 + 32.3)
            # |X^(l) + Delta_attn^(l)| + |Delta_FFN^(l)| as shown: what X^(l+1) would be long if
            # lengths added (they do not: |X^(l+1)|, x_norms[l+1], is shorter)
            "norm_mid": _num(norms[s_attn], f"layers[{l}].norm_mid"),
            "sum_ffn": _shown_sum(_num(norms[s_attn], f"layers[{l}].norm_mid"),
                                  _num(sizes["norm_mlp"][l], f"layers[{l}].norm_mlp"))})

    # |X^(l)| for l = 0..L: the stream entering each layer, then leaving the last
    x_stages = [0] + [lay["stage_out"] for lay in layers]
    x_norms = [_num(norms[i], f"x_norms[{j}]") for j, i in enumerate(x_stages)]

    # --- bars: one linear axis that grows with the story, and one log axis ------------------
    shown_max, running = [], 0.0
    for i in range(len(stages)):
        running = max(running, norms[i] if i in x_stages else 0.0,
                      steps_len[i - 1] if i > 0 else 0.0)
        shown_max.append(running)
    bars_linear = bar_axes(shown_max)
    every = [n["value"] for n in x_norms] + steps_len.tolist()
    log_lo = 10.0 ** math.floor(math.log10(min(every)))
    log_hi = 10.0 ** math.ceil(math.log10(max(every)))
    log_ticks = [10.0 ** e for e in range(round(math.log10(log_lo)), round(math.log10(log_hi)) + 1)]

    # --- how X's direction turns: cos(X^(l), X^(l+1)) for each layer l ----------------------
    # (what the `copies` beat sets beside the copy's flat length: W_Q, W_K, W_V see the
    # direction, and this is how much of it each layer changes)
    xv = vectors[x_stages]
    unit_x = xv / np.linalg.norm(xv, axis=-1, keepdims=True)
    cos_next = np.sum(unit_x[:-1] * unit_x[1:], axis=-1)
    later_cos = cos_next[1:] if L > 1 else cos_next
    direction = {
        "cos_next": [_num(float(c), f"direction.cos_next[{l}]", 2) for l, c in enumerate(cos_next)],
        "from_layer": 1 if L > 1 else 0,
        "min_later": _num(float(later_cos.min()), "direction.min_later", 2),
        "min_later_layer": int(np.argmin(later_cos)) + (1 if L > 1 else 0),
        "max_later": _num(float(later_cos.max()), "direction.max_later", 2),
        # the same turns in degrees: the smallest (max_later's) and the largest (min_later's)
        "deg_min_later": _num(angle_deg(later_cos.max()), "direction.deg_min_later", 0),
        "deg_max_later": _num(angle_deg(later_cos.min()), "direction.deg_max_later", 0),
        "first": _num(float(cos_next[0]), "direction.first", 2),
        # the angle X turns through, first to last (cos(X^(0), X^(L)))
        "cos_first_last": _num(float(unit_x[0] @ unit_x[-1]), "direction.cos_first_last", 2),
        "cos_1_last": _num(float(unit_x[1] @ unit_x[-1]), "direction.cos_1_last", 2),
        # how the small turns add up: cos(X^(from_layer), X^(l)) for l = from_layer .. L (1 at
        # the start, cos_1_last at the end), the `copies` beat's falling line over the bars
        "cos_from_first": [_num(float(unit_x[1 if L > 1 else 0] @ u),
                                f"direction.cos_from_first[{k}]", 2)
                           for k, u in enumerate(unit_x[1 if L > 1 else 0:])],
        # the layer (1 .. L-2: neither the embedding's turn nor the last) that turns X most
        "sharpest_mid_layer": (int(np.argmin(cos_next[1:L - 1])) + 1) if L > 2 else 0,
    }
    direction["sharpest_mid"] = direction["cos_next"][direction["sharpest_mid_layer"]]

    # --- the stream's steps from layer 1 on, said in one sentence: how many grow X, and the
    # most any step takes off |X| (a share of the length it had)
    from_l = 1 if L > 1 else 0
    steps_from = [i for i in range(1 + per * from_l, len(stages))]
    shrink_pct = [100 * -(norms[i] - norms[i - 1]) / norms[i - 1] for i in steps_from
                  if norms[i] < norms[i - 1]]
    worst = max(steps_from, key=lambda i: (norms[i - 1] - norms[i]) / norms[i - 1])
    walk = {"from_layer": from_l, "n_steps": len(steps_from),
            "n_grow": sum(1 for i in steps_from if norms[i] > norms[i - 1]),
            "n_shrink": len(shrink_pct),
            "max_shrink_pct": _num(max(shrink_pct, default=0.0), "walk.max_shrink_pct", 0),
            "max_shrink_layer": layer_of(worst)}

    # --- the picture at a glance ------------------------------------------------------------
    later = slice(1, None)          # layer 0 turns the embedding into a stream: said apart
    rel_later = sizes["rel_attn"][later] + sizes["rel_mlp"][later]
    first_ffn = layers[0]["norm_mlp"]["value"]
    summary = {
        "norm_first": x_norms[0], "norm_last": x_norms[-1],
        "growth": _num(x_norms[-1]["value"] / x_norms[0]["value"], "summary.growth", 0),
        "growth_about": _about(x_norms[-1]["value"] / x_norms[0]["value"], "summary.growth_about"),
        "ffn0_over_x0": _num(first_ffn / x_norms[0]["value"], "summary.ffn0_over_x0", 0),
        "median_rel_attn": _num(float(np.median(sizes["rel_attn"][later] or [0.0])),
                                "summary.median_rel_attn", 2),
        "median_rel_mlp": _num(float(np.median(sizes["rel_mlp"][later] or [0.0])),
                               "summary.median_rel_mlp", 2),
        "max_rel_later": _num(float(max(rel_later, default=0.0)), "summary.max_rel_later", 2),
        "largest_update": _num(float(steps_len.max()), "summary.largest_update"),
        "largest_update_layer": int(step_rows[int(steps_len.argmax())]["layer"]),
        "largest_update_kind": step_rows[int(steps_len.argmax())]["kind"],
    }

    # --- what W_Q, W_K, W_V read: the normalised copy (pre-norm models) ----------------------
    copies = None
    if placement.name == "pre":
        c = copy_norms(t, token)
        later = c["copy"][1:] or c["copy"]
        lo, hi = int(np.argmin(later)) + (1 if L > 1 else 0), int(np.argmax(later)) + (1 if L > 1 else 0)
        copies = {"norm": [_num(v, f"copies.norm[{l}]", 2) for l, v in enumerate(c["copy"])],
                  "ffn_norm": [_num(v, f"copies.ffn_norm[{l}]")
                               for l, v in enumerate(c["ffn_copy"])],
                  "min": _num(c["copy"][lo], "copies.min", 1), "min_layer": lo,
                  "max": _num(c["copy"][hi], "copies.max", 1), "max_layer": hi,
                  "from_layer": 1 if L > 1 else 0,
                  # |X^(L-1)| read from the bars' own number (copy_norms' c["x"][-1] is the
                  # same length summed in another order: 1e-13 apart under other CPUs' kernels,
                  # which broke the "same |X^(29)| on the bars and here" claim's == 0)
                  "x_last_in": _num(x_norms[L - 1]["value"], "copies.x_last_in"),
                  "x_last_about": _about(x_norms[L - 1]["value"], "copies.x_last_about"),
                  "last_layer": L - 1,
                  # the copy before its gain, X / rms(X): sqrt(d_model) long for every X (its
                  # spread over the layers ~0): the copies' spread is the gain g's
                  "unit": _num(max(c["unit"]), "copies.unit", 1),
                  "unit_spread": _num(max(c["unit"]) - min(c["unit"]), "copies.unit_spread", 3)}

    tokens = []
    for i, tok in enumerate(t.tokens):
        text, space = _shown_text(tok)
        tokens.append({"index": i, "text": text, "space": space})
    check = addition_check(t, pos) if placement.additive else _layernorm_check(t, pos)
    identity = None
    if placement.additive:
        dec = fitting_decimals([check["sum_head"], vectors[-1][:ENTRIES].tolist()],
                               entry_decimals(norms[-1]), "identity")
        identity = {"sum_head": _head(np.array(check["sum_head"]), {dec}, "identity.sum_head"),
                    "x_head": _head(vectors[-1], {dec}, "identity.x_head"), "decimals": dec,
                    "n_updates": 2 * L, "bound": check["bound_total"],
                    # "each sum keeps about 7 significant digits": float32's 24-bit mantissa
                    "digits": int(-math.log10(U32)),
                    "measured": measured_bound(check["max_error_total"],
                                               check["bound_total"]["bound"]),
                    "captured_total_pct": _num(100 * captured_total,
                                               "identity.captured_total_pct", 0)}
    energy = plane["explained"]
    return {
        # the weights the trace really read (the footer and the captions say this): SmolLM2
        # is read from the instruct-tuned Q4_1 GGUF, "SmolLM2-135M-Instruct (4-bit)"
        "model": {"display": measured_as(weights_read(t.meta.get("source"), spec.display),
                                         spec.display, quant=False), "n_layers": L,
                  "d_model": d_model,
                  "norm": spec.norm, "norm_placement": placement.name, "kind": spec.kind,
                  "rotary": bool(getattr(spec, "rotary", False))},
        "norm_placement": placement.name, "norm": spec.norm, "n_layers": L, "d_model": d_model,
        "sentence": t.sentence, "tokens": tokens, "n_tokens": len(tokens),
        "space_mark": SPACE_SHOWN, "any_space_mark": any(tok["space"] for tok in tokens),
        "focus": {"word": sb.focus[0], "positions": pos_all, "token": token,
                  "token_text": tokens[token]["text"], "n_states": len(stages)},
        "entries": ENTRIES,
        "stages": stage_rows,
        "steps": step_rows,
        "layers": layers,
        "x_stages": x_stages,
        "x_norms": x_norms,
        "plane": {"fit": "pca through the origin, the followed token's states only",
                  "n_points": len(stages), "aspect": ASPECT,
                  "energy": energy.tolist(),
                  "energy_pct": _num(100 * float(energy.sum()), "plane.energy_pct", 0),
                  "captured_total_pct": _num(100 * captured_total, "plane.captured_total_pct", 0),
                  "views": plane_views(xy),
                  "close_views": close_views(xy, per),
                  "whole_view": whole_view(xy),
                  "shadow_view": shadow_view(xy[0], float(norms[0])),
                  "close_layers": CLOSE_LAYERS, "close_from_stage": CLOSE_FROM_LAYER * per},
        "bars": {"linear": bars_linear, "log": {"min": log_lo, "max": log_hi,
                                                "ticks": [{"value": v, "decimals": _decimals_of(v)}
                                                          for v in log_ticks]}},
        "summary": summary,
        "direction": direction,
        "walk": walk,
        # one middle layer drawn to scale (the `zoom` beat)
        "zoom": zoom_layer(vectors, layers[L // 2], per),
        "copies": copies,
        "outlier": _outlier(t, token, L),
        "identity": identity,
        "check": check,
    }
