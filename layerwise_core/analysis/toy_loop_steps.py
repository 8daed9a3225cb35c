"""The toy loop's steps: how long each layer's update is (pure numpy)."""

from __future__ import annotations

import numpy as np


def step_lengths(x_in, x_out) -> list[float]:
    """|X^(l+1) - X^(l)| for each layer l: the length of the update that layer added.
    `x_in`, `x_out`: (n_layers, d) states entering and leaving each layer."""
    a, b = np.asarray(x_in, dtype=float), np.asarray(x_out, dtype=float)
    return np.linalg.norm(b - a, axis=-1).tolist()


def smallest_gap(vectors) -> float:
    """The smallest distance between any two of `vectors` ((n, d)): 0 when two repeat."""
    v = np.asarray(vectors, dtype=float)
    gaps = [float(np.linalg.norm(v[i] - v[j])) for i in range(len(v)) for j in range(i + 1, len(v))]
    return min(gaps) if gaps else 0.0


def carry_gap(x_in, x_out) -> float:
    """The largest |X entering layer l+1 - X leaving layer l|: 0 when only X carries over."""
    a, b = np.asarray(x_in, dtype=float), np.asarray(x_out, dtype=float)
    return float(np.abs(a[1:] - b[:-1]).max()) if len(a) > 1 else 0.0


def change_split(x_in, weights) -> list[dict]:
    """How much of the change from layer l-1's Q (or K, V) to layer l's is due to the new
    matrices and how much to the new X, for each layer l >= 1: X^(l) W^(l) - X^(l-1) W^(l-1)
    = X^(l-1) (W^(l) - W^(l-1))  [the matrices]  +  (X^(l) - X^(l-1)) W^(l)  [X].
    `x_in`: (n_layers, d); `weights`: {name: (n_layers, d, d)}. Per layer: `by_w`, the
    smallest matrices' part over the names, `by_x`, the largest X part (both lengths), and
    `ratio`, by_w / by_x."""
    x = np.asarray(x_in, dtype=float)
    out = []
    for l in range(1, len(x)):
        by_w, by_x = [], []
        for W in weights.values():
            W = np.asarray(W, dtype=float)
            by_w.append(float(np.linalg.norm(x[l - 1] @ (W[l] - W[l - 1]))))
            by_x.append(float(np.linalg.norm((x[l] - x[l - 1]) @ W[l])))
        w_part, x_part = min(by_w), max(by_x)
        out.append({"layer": l, "by_w": round(w_part, 4), "by_x": round(x_part, 4),
                    "ratio": round(w_part / max(x_part, 1e-9), 2)})
    return out
