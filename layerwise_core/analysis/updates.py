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
    L, placement = trace.n_layers, trace.spec.placement
    rows = {k: [] for k in ("norm_x", "norm_attn", "norm_mlp", "rel_attn", "rel_mlp")}
    for l in range(L):
        x = trace[f"blocks.{l}.hook_resid_pre"][pos]
        attn = trace[f"blocks.{l}.hook_attn_out"][pos]
        rows["norm_x"].append(_norm(x).mean())
        rows["norm_attn"].append(_norm(attn).mean())
        rows["rel_attn"].append((_norm(attn) / _norm(x)).mean())
        if placement.mlp_in is None:       # the toy has no FFN
            rows["norm_mlp"].append(0.0)
            rows["rel_mlp"].append(0.0)
            continue
        mlp_in = trace[placement.mlp_in.format(l=l)][pos]
        mlp = trace[f"blocks.{l}.hook_mlp_out"][pos]
        rows["norm_mlp"].append(_norm(mlp).mean())
        rows["rel_mlp"].append((_norm(mlp) / _norm(mlp_in)).mean())
    return {k: [float(v) for v in vs] for k, vs in rows.items()}


def residual_path(trace: Trace, pos: int) -> dict:
    """One token's stream as a path of additions (pre-norm models): X^(l) for l = 0..L (X^(0) the
    embedding, X^(l+1) = resid_post of layer l), and the two updates each layer adds,
    Delta_attn^(l) = attn_out and Delta_FFN^(l) = mlp_out, all float64 [.., d_model]."""
    if not trace.spec.placement.additive:
        raise ValueError("residual_path: X changes only by additions in pre-norm models")
    L = trace.n_layers
    f = lambda h: np.asarray(trace[h][pos], np.float64)         # noqa: E731
    x = [f("blocks.0.hook_resid_pre")] + [f(f"blocks.{l}.hook_resid_post") for l in range(L)]
    return {"x": np.stack(x), "attn": np.stack([f(f"blocks.{l}.hook_attn_out") for l in range(L)]),
            "ffn": np.stack([f(f"blocks.{l}.hook_mlp_out") for l in range(L)])}


def outlier_token(trace: Trace, factor: float = 10.0) -> dict | None:
    """The position whose stream grows far beyond the others' (SmolLM2's first token reaches
    |X| ~ 24,000 while the rest stay below ~900): its largest |X| over the layers' inputs and
    outputs is at least `factor` times the largest of any other position. None if there is none."""
    L = trace.n_layers
    hooks = [f"blocks.{l}.hook_resid_pre" for l in range(L)] + [f"blocks.{L - 1}.hook_resid_post"]
    norms = np.stack([_norm(trace[h]) for h in hooks])              # [L + 1, pos]
    peak = norms.max(axis=0)
    top = int(peak.argmax())
    rest = np.delete(peak, top)
    if not rest.size or peak[top] < factor * rest.max():
        return None
    others = np.delete(norms, top, axis=1).max(axis=1)
    big = [l for l in range(L + 1) if norms[l, top] >= factor * others[l]]
    return {"position": top, "max_norm": float(peak[top]), "max_layer": int(norms[:, top].argmax()),
            "others_max_norm": float(rest.max()), "from_layer": int(big[0]),
            "norms": norms[:, top].tolist()}


def attention_to(trace: Trace, query: int, key: int, layers: list[int]) -> float:
    """Mean attention weight (over heads and `layers`) that token `query` puts on token `key`."""
    return float(np.mean([np.asarray(trace[f"blocks.{l}.attn.hook_pattern"], np.float64)
                          [:, query, key].mean() for l in layers]))
