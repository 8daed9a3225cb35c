"""What context entered the focus word at one layer, in each of two sentences: where it looks
(its head-average attention row, and per head), and the update attention adds, Delta_attn^(l)
(hook_attn_out, its tokens averaged), with the lengths of the two updates and their cosine.

Used by context_qkv's `entered` beat: the same token at the same position meets different
neighbours, so attention adds different updates, and X^(l+1) differs.
"""

from __future__ import annotations

import math

import numpy as np

from ..trace import Trace
from .context_qkv import focus_row
from .similarity import angle_deg, cosine
from .vectors import special_positions


def looks(trace: Trace, pos: list[int], layer: int) -> dict:
    """The focus word's attention at `layer`: `mean` [key] (the head-average of its rows, its
    tokens averaged), `heads` [head][key], and `words`: the sentence's other tokens (not the
    focus, not [CLS]/[SEP]/BOS) ordered by head-average weight, heaviest first."""
    p = np.asarray(trace[f"blocks.{layer}.attn.hook_pattern"], np.float64)   # [head, q, k]
    rows = p[:, pos].mean(axis=1)                                          # [head, key]
    mean = rows.mean(axis=0)
    skip = set(pos) | set(special_positions(trace))
    words = sorted((j for j in range(len(mean)) if j not in skip), key=lambda j: -mean[j])
    return {"mean": mean.tolist(), "heads": rows.tolist(), "words": words}


def update(trace: Trace, pos: list[int], layer: int) -> np.ndarray:
    """Delta_attn^(layer) of the focus word (float64, its tokens averaged)."""
    return focus_row(trace[f"blocks.{layer}.hook_attn_out"], pos)


def entered(a: Trace, pos_a: list[int], b: Trace, pos_b: list[int], layer: int = 0) -> dict:
    """Both sentences' attention at `layer` (`looks`), and their updates: `length` [a, b] of
    Delta_attn, `cos` between them and `angle` (degrees, arccos of that cosine); the X each is
    added to: `x_length` [a, b] (|X^(layer)|); the two sums X^(layer) + Delta_attn^(layer)
    (before the norm and the FFN that follow): `sum_length` [a, b], `sum_cos`, `sum_angle`."""
    ua, ub = update(a, pos_a, layer), update(b, pos_b, layer)
    xa, xb = (focus_row(t[f"blocks.{layer}.hook_resid_pre"], p) for t, p in
              ((a, pos_a), (b, pos_b)))
    c = float(cosine(ua, ub))
    sc = float(cosine(xa + ua, xb + ub))
    xy = sum_plane(xa, xb, ua, ub)
    return {"layer": layer, "looks": [looks(a, pos_a, layer), looks(b, pos_b, layer)],
            "length": [float(np.linalg.norm(ua)), float(np.linalg.norm(ub))],
            "cos": c, "angle": angle_deg(c),
            "x_length": [float(np.linalg.norm(xa)), float(np.linalg.norm(xb))],
            "sum_length": [float(np.linalg.norm(xa + ua)), float(np.linalg.norm(xb + ub))],
            "sum_cos": sc, "sum_angle": angle_deg(sc),
            "plane": xy}


def sum_plane(xa: np.ndarray, xb: np.ndarray, ua: np.ndarray, ub: np.ndarray) -> dict:
    """2-D coordinates, for a tip-to-tail drawing, of the X's, the updates and the two sums
    X + Delta. X, the two updates and the sums span three dimensions, so no flat drawing keeps
    them all: this one keeps the two sums (their lengths and angle, as in their plane) and the
    two updates (their lengths, and the angle between them), each drawn from one shared X's tip
    and ending at its sum. Only X is off: its drawn length is what closes that figure (shorter
    than X, the rest of X points out of the page). Turned so X points along +x, the second
    update turned anticlockwise from the first (as `update_plane` draws them). One X (xa == xb) and sums not on one line: else the projection onto the
    plane of the sums (`_projected`). {x, update, sum}: [a, b] of [x, y]."""
    pr = _projected(xa, xb, ua, ub)
    pa, pb = (np.asarray(p) for p in pr["sum"])
    la, lb = float(np.linalg.norm(ua)), float(np.linalg.norm(ub))
    d = float(np.linalg.norm(pb - pa))
    if not np.allclose(xa, xb) or d < 1e-9:
        return pr
    along = (la ** 2 - lb ** 2 + d ** 2) / (2 * d)           # from pa towards pb
    side = math.sqrt(max(0.0, la ** 2 - along ** 2))
    u = (pb - pa) / d
    n = np.array([-u[1], u[0]])
    tips = [pa + along * u + s * side * n for s in (1.0, -1.0)]
    x_len = float(np.linalg.norm(xa))
    # X's tip: the one whose X is no longer than the true X (a shadow), else the nearer length
    t = min(tips, key=lambda t: (np.linalg.norm(t) > x_len + 1e-9,
                                 abs(np.linalg.norm(t) - x_len)))
    ang = math.atan2(t[1], t[0])
    rot = np.array([[math.cos(ang), math.sin(ang)], [-math.sin(ang), math.cos(ang)]])
    ua2, ub2 = rot @ (pa - t), rot @ (pb - t)
    flip = np.diag([1.0, -1.0 if ua2[0] * ub2[1] - ua2[1] * ub2[0] < 0 else 1.0])
    M = flip @ rot
    x, sa, sb = M @ t, M @ pa, M @ pb
    return {"x": [x.tolist(), x.tolist()], "update": [(sa - x).tolist(), (sb - x).tolist()],
            "sum": [sa.tolist(), sb.tolist()]}


def _projected(xa: np.ndarray, xb: np.ndarray, ua: np.ndarray, ub: np.ndarray) -> dict:
    """The X's, the updates and the sums projected onto the plane of the two sums (the sums keep
    their lengths and angle; X and the updates are shadows), turned so the mean projected X
    points along +x, the first sum at or above it. If the sums are parallel, the plane's second
    direction is the first other vector (updates, then X) not parallel to them."""
    sa, sb = xa + ua, xb + ub
    basis: list[np.ndarray] = []
    for v in (sa, sb, ua, ub, xa, xb):
        r = v - sum((v @ e) * e for e in basis)
        if len(basis) < 2 and np.linalg.norm(r) > 1e-9 * max(1.0, np.linalg.norm(v)):
            basis.append(r / np.linalg.norm(r))
    while len(basis) < 2:                                       # all on one line (or zero)
        basis.append(np.zeros_like(sa))
    B = np.stack(basis)                                         # [2, d]
    mx = B @ (xa + xb)
    ang = math.atan2(mx[1], mx[0]) if np.linalg.norm(mx) > 0 else 0.0
    rot = np.array([[math.cos(ang), math.sin(ang)], [-math.sin(ang), math.cos(ang)]])
    flip = np.diag([1.0, -1.0 if (rot @ B @ sa)[1] < 0 else 1.0])
    P = flip @ rot @ B
    return {k: [(P @ a).tolist(), (P @ b).tolist()]
            for k, (a, b) in (("x", (xa, xb)), ("update", (ua, ub)), ("sum", (sa, sb)))}

def contrast_heads(looks_a: dict, looks_b: dict, n: int = 2) -> list[dict]:
    """The n heads that put the most weight on sentence a's heaviest word (`words[0]`), leaving
    out heads whose heaviest key is the same position in both sentences (they follow position,
    e.g. the previous token, not the words); for each, sentence b's heaviest word under it.
    [{head, a_key, a, b_key, b}] by weight on a's word, heaviest first."""
    ha, hb = np.asarray(looks_a["heads"]), np.asarray(looks_b["heads"])
    key_a = looks_a["words"][0]
    words_b = looks_b["words"]
    out = []
    for h in np.argsort(-ha[:, key_a], kind="stable"):
        if int(np.argmax(ha[h])) == int(np.argmax(hb[h])):
            continue
        kb = max(words_b, key=lambda j: hb[h, j])
        out.append({"head": int(h), "a_key": int(key_a), "a": float(ha[h, key_a]),
                    "b_key": int(kb), "b": float(hb[h, kb])})
        if len(out) == n:
            break
    return out


def value_pieces(trace: Trace, pos: list[int], layer: int = 0) -> dict:
    """Delta_attn^(layer) of the focus word, piece by piece: per key token j, its values
    weighted by every head's own attention weight and joined through W_O,
    sum_h A^(h)[focus, j] v_j^(h) W_O^(h); and the bias b_O. `pieces` [key, d_model] and `bias`
    add up to the update (checked against hook_attn_out); float64."""
    W = trace.weights()
    b = f"blocks.{layer}.attn"
    p = np.asarray(trace[f"{b}.hook_pattern"], np.float64)[:, pos].mean(axis=1)   # [head, key]
    v = np.asarray(trace[f"{b}.hook_v"], np.float64)                               # [key, kv, dh]
    W_O = np.asarray(W[f"{b}.W_O"], np.float64)                                    # [head, dh, dm]
    b_O = np.asarray(W[f"{b}.b_O"], np.float64)
    rep = W_O.shape[0] // v.shape[1]                       # heads per key/value head (GQA)
    vh = v[:, np.arange(W_O.shape[0]) // rep]                                      # [key, head, dh]
    pieces = np.einsum("hk,khd,hdm->km", p, vh, W_O)
    delta = update(trace, pos, layer)
    if not np.allclose(pieces.sum(axis=0) + b_O, delta,
                       atol=1e-3 * max(1.0, float(np.abs(delta).max()))):
        raise ValueError(f"value_pieces: the pieces do not add up to hook_attn_out at layer "
                         f"{layer}")
    return {"pieces": pieces, "bias": b_O}


def update_plane(ua: np.ndarray, ub: np.ndarray, vectors: list[np.ndarray]) -> list[list[float]]:
    """2-D coordinates of `vectors` in the plane of the two updates: x along ua, ub at or
    above it (so ua and ub keep their lengths and angle, and pieces that add up to an update
    add up to it in the drawing too). Parallel updates: any second direction (zeros)."""
    e1 = ua / max(np.linalg.norm(ua), 1e-12)
    r = ub - (ub @ e1) * e1
    e2 = r / np.linalg.norm(r) if np.linalg.norm(r) > 1e-9 * max(1.0, np.linalg.norm(ub)) \
        else np.zeros_like(ua)
    return [[float(x @ e1), float(x @ e2)] for x in vectors]

