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


# A check of an identity measured in float64 on float32 arrays passes when its error stays below a
# FIXED tolerance (each check documents its own, from the worst error seen under
# ATEN_CPU_CAPABILITY=default|avx2|avx512 and 1 and 2 threads, with a margin): what is shown is then
# "< tolerance", the same on every machine, never the noise itself; reaching it fails the plan.
# fresh_qkv.plan.RECOMPUTE_TOLERANCE (Q, K, V redone); residual_stream.plan.addition_bound
# (float32's own bound on the additions, from the size of X).


class NoiseBoundError(LayerwiseError):
    """A float-noise error is not below its fixed tolerance: the identity does not hold."""


def error_bound(error: float, tolerance: float) -> dict:
    """A float-noise error as the fixed bound it stays below ({"bound": 0.0001, "decimals": 4}).

    The bound is `tolerance` itself, not derived from `error`, so it is the same on every machine;
    an error at or above it raises NoiseBoundError (the shown claim "< bound" would be false)."""
    error, tolerance = float(error), float(tolerance)
    if not math.isfinite(error) or error >= tolerance:
        raise NoiseBoundError(f"error {error:.3g} is not below the tolerance {tolerance:g}")
    exponent = math.floor(math.log10(tolerance))
    return {"bound": tolerance, "decimals": max(0, -exponent)}
