"""A deterministic 2-D view of vectors across layers: one PCA plane for every frame."""

from __future__ import annotations

import numpy as np


def pca_plane(points: np.ndarray, center: bool = True) -> dict:
    """Fit one PCA on all `points` [n, d] (every layer, every context) and project them.

    Signs are fixed so that each component's largest-magnitude loading is positive, so the
    same data always gives the same picture. With `center=False` the plane passes through the
    origin (the zero vector stays at (0, 0), so a vector can be drawn as an arrow from it) and
    `explained` is each axis's share of the points' summed squared length rather than of their
    variance. Returns {"xy": [n, 2], "explained": [2], "mean": [d], "axes": [2, d]}."""
    pts = np.asarray(points, np.float64)
    mean = pts.mean(axis=0) if center else np.zeros(pts.shape[1])
    _, s, vt = np.linalg.svd(pts - mean, full_matrices=False)
    axes = vt[:2]
    flip = np.sign(axes[np.arange(len(axes)), np.abs(axes).argmax(axis=1)])
    axes = axes * flip[:, None]
    var = s ** 2
    return {"xy": (pts - mean) @ axes.T, "explained": var[:2] / var.sum(), "mean": mean,
            "axes": axes}


def captured(vectors: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """Share of each vector's length [n, d] that a plane with orthonormal `axes` [2, d] shows:
    |projection| / |vector| (1 = lies in the plane, 0 = perpendicular to it; 0 for a zero
    vector). What a 2-D picture of a d-dimensional arrow leaves out is 1 minus this, squared."""
    v = np.atleast_2d(np.asarray(vectors, np.float64))
    full = np.linalg.norm(v, axis=-1)
    shown = np.linalg.norm(v @ np.asarray(axes, np.float64).T, axis=-1)
    return np.where(full > 0, shown / np.where(full > 0, full, 1.0), 0.0)
