"""A deterministic 2-D view of vectors across layers: one PCA plane for every frame."""

from __future__ import annotations

import numpy as np


def pca_plane(points: np.ndarray) -> dict:
    """Fit one PCA on all `points` [n, d] (every layer, every context) and project them.

    Signs are fixed so that each component's largest-magnitude loading is positive, so the
    same data always gives the same picture. Returns {"xy": [n, 2], "explained": [2],
    "mean": [d], "axes": [2, d]}."""
    pts = np.asarray(points, np.float64)
    mean = pts.mean(axis=0)
    _, s, vt = np.linalg.svd(pts - mean, full_matrices=False)
    axes = vt[:2]
    flip = np.sign(axes[np.arange(len(axes)), np.abs(axes).argmax(axis=1)])
    axes = axes * flip[:, None]
    var = s ** 2
    return {"xy": (pts - mean) @ axes.T, "explained": var[:2] / var.sum(), "mean": mean,
            "axes": axes}
