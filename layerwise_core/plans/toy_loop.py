"""Plan data for the chapter's toy loop: every vector and matrix of the three passes."""

from __future__ import annotations

import math

import numpy as np

from ..storyboard.schema import Storyboard
from ..trace import Trace

# The chapter's loop, as shown on screen; `lines` maps each step to its line number (1-based).
CODE = """X = np.array([[1., 0.]])

for layer in range(3):
    Wq = np.random.randn(2, 2)
    Wk = np.random.randn(2, 2)
    Wv = np.random.randn(2, 2)

    Q, K, V = X @ Wq, X @ Wk, X @ Wv

    X = X + 0.1 * V"""
LINES = {"x0": 1, "loop": 3, "weights": [4, 5, 6], "qkv": 8, "update": 10}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    W = t.weights()
    layers = []
    for l in range(t.n_layers):
        b = f"blocks.{l}"
        layers.append({
            "layer": l,
            "x_in": t[f"{b}.hook_resid_pre"][0].tolist(),
            "W_Q": W[f"{b}.attn.W_Q"][0].tolist(),
            "W_K": W[f"{b}.attn.W_K"][0].tolist(),
            "W_V": W[f"{b}.attn.W_V"][0].tolist(),
            "q": t[f"{b}.attn.hook_q"][0, 0].tolist(),
            "k": t[f"{b}.attn.hook_k"][0, 0].tolist(),
            "v": t[f"{b}.attn.hook_v"][0, 0].tolist(),
            "update": t[f"{b}.hook_attn_out"][0].tolist(),
            "x_out": t[f"{b}.hook_resid_post"][0].tolist(),
        })
    everything = np.array([layers[l][k] for l in range(len(layers))
                           for k in ("x_in", "q", "k", "v", "x_out")])
    extent = float(max(1.0, math.ceil(np.abs(everything).max())))
    # a close-up of X's path, where the 0.1 V steps are visible
    path = np.array([layers[0]["x_in"]] + [lay["x_out"] for lay in layers])
    center = (path.max(axis=0) + path.min(axis=0)) / 2
    half = float(math.ceil(10 * 0.6 * np.ptp(path, axis=0).max()) / 10)
    return {"code": CODE, "lines": LINES, "seed": t.meta["source"]["seed"],
            "step": 0.1, "extent": extent, "layers": layers,
            "zoom": {"center": center.round(2).tolist(), "half": max(half, 0.1)}}
