"""Colour and axis limits that survive outliers (SmolLM2's attention sink reaches ~23,000)."""

from __future__ import annotations

import math

import numpy as np

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


def error_bound(error: float) -> dict:
    """A float-noise error as a bound that is the same on every machine: the next power of ten
    (2.3e-6 -> < 1e-5), with the decimals that write it ({"bound": 1e-05, "decimals": 5})."""
    exponent = math.ceil(math.log10(max(float(error), 1e-12)))
    return {"bound": 10.0 ** exponent, "decimals": max(0, -exponent)}
