"""Colour and axis limits that survive outliers (SmolLM2's attention sink reaches ~23,000)."""

from __future__ import annotations

import math

import numpy as np

from ..errors import LayerwiseError

PERCENTILE = 99.0


def robust_limit(values: np.ndarray, percentile: float = PERCENTILE) -> float:
    """Symmetric limit: the given percentile of |values| (never 0)."""
    v = np.abs(np.asarray(values, np.float64)).ravel()
    lim = float(np.percentile(v, percentile)) if v.size else 1.0
    return lim if lim > 0 else 1.0


def scaled(values: np.ndarray, limit: float) -> dict:
    """Values divided by `limit` and clipped to [-1, 1], with what clipping hid."""
    v = np.asarray(values, np.float64)
    return {"values": np.clip(v / limit, -1.0, 1.0).round(6).tolist(), "limit": float(limit),
            "clipped": int((np.abs(v) > limit).sum()), "max_abs": float(np.abs(v).max())}


# What "float noise" means for a check measured in float64 on float32 arrays of values O(1..1000):
# float32 has ~6e-8 relative precision, and the sums and matmuls behind one activation move it by
# up to ~1e-6 between CPU kernels (ATEN_CPU_CAPABILITY=default|avx2|avx512) and thread counts
# (fresh_qkv's recompute errors on MiniLM-L6: 1.1e-6 .. 4.9e-6 under ATEN_CPU_CAPABILITY=default|
# avx2|avx512, 1 and 2 threads). A check that passes shows "< 0.00001": a fixed tolerance 2x above
# the worst noise seen, so what is shown never depends on the noise; reaching it fails the plan.
# Checks on larger values pass their own documented tolerance (plans.residual_stream).
NOISE_TOLERANCE = 1e-5


class NoiseBoundError(LayerwiseError):
    """A float-noise error is not below its fixed tolerance: the identity does not hold."""


def error_bound(error: float, tolerance: float = NOISE_TOLERANCE) -> dict:
    """A float-noise error as the fixed bound it stays below ({"bound": 1e-05, "decimals": 5}).

    The bound is `tolerance` itself, not derived from `error`, so it is the same on every machine;
    an error at or above it raises NoiseBoundError (the shown claim "< bound" would be false)."""
    error, tolerance = float(error), float(tolerance)
    if not math.isfinite(error) or error >= tolerance:
        raise NoiseBoundError(f"error {error:.3g} is not below the tolerance {tolerance:g}")
    exponent = math.floor(math.log10(tolerance))
    return {"bound": tolerance, "decimals": max(0, -exponent)}
