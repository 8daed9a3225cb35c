"""Sizes of the stream and of the updates each sublayer adds to it."""

from __future__ import annotations

import numpy as np

from ..trace import Trace


def _norm(x: np.ndarray) -> np.ndarray:
    return np.linalg.norm(np.asarray(x, np.float64), axis=-1)


def update_sizes(trace: Trace, pos: list[int]) -> dict:
    """Per layer, for the tokens at `pos` (mean over them): |X|, |attn_out|, |mlp_out| and the
    relative sizes |attn_out|/|X| and |mlp_out|/|X_in|, where X_in is the stream the FFN output
    is added to (resid_mid for pre-norm, the re-normalised resid_mid for post-LN)."""
    L, placement = trace.n_layers, trace.spec["norm_placement"]
    rows = {k: [] for k in ("norm_x", "norm_attn", "norm_mlp", "rel_attn", "rel_mlp")}
    for l in range(L):
        x = trace[f"blocks.{l}.hook_resid_pre"][pos]
        attn = trace[f"blocks.{l}.hook_attn_out"][pos]
        rows["norm_x"].append(_norm(x).mean())
        rows["norm_attn"].append(_norm(attn).mean())
        rows["rel_attn"].append((_norm(attn) / _norm(x)).mean())
        if placement == "none":       # the toy has no FFN
            rows["norm_mlp"].append(0.0)
            rows["rel_mlp"].append(0.0)
            continue
        mlp_in = trace[f"blocks.{l}.ln1.hook_normalized" if placement == "post"
                       else f"blocks.{l}.hook_resid_mid"][pos]
        mlp = trace[f"blocks.{l}.hook_mlp_out"][pos]
        rows["norm_mlp"].append(_norm(mlp).mean())
        rows["rel_mlp"].append((_norm(mlp) / _norm(mlp_in)).mean())
    return {k: [float(v) for v in vs] for k, vs in rows.items()}
