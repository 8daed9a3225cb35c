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
