"""What each sublayer of a pre-norm model reads: the normalised copy of X (residual_stream).

In a pre-norm block, attention's W_Q, W_K, W_V multiply RMSNorm(X^(l)) (`ln1`), not X^(l)
itself, and the FFN reads RMSNorm(X^(l) + Delta_attn^(l)) (`ln2`). The copy's length stays
small while X grows.
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace


def copy_norms(trace: Trace, token: int) -> dict:
    """|RMSNorm(X^(l))| (what attention reads) and |X^(l)| at `token`, for l = 0..L-1, float64;
    `unit`: |X^(l) / rms(X^(l))|, the copy before its gain g (sqrt(d_model) up to eps, for
    every X: the copies' spread of lengths is g's)."""
    L = trace.n_layers
    f = lambda h: float(np.linalg.norm(np.asarray(trace[h][token], np.float64)))  # noqa: E731
    x = [f(f"blocks.{l}.hook_resid_pre") for l in range(L)]
    rms = [float(np.asarray(trace[f"blocks.{l}.ln1.hook_scale"][token], np.float64).ravel()[0])
           for l in range(L)]
    return {"copy": [f(f"blocks.{l}.ln1.hook_normalized") for l in range(L)],
            "ffn_copy": [f(f"blocks.{l}.ln2.hook_normalized") for l in range(L)],
            "x": x, "unit": [a / r for a, r in zip(x, rms)]}
