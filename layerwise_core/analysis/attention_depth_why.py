"""Why the focus word's attention row moves with depth: the same layer's matrices fed the old X
or the new X (the fair experiment), and a deep layer's heads one by one.

  same_w_old_x(trace, weights, layer, pos, special)
      layer `layer`'s own W_Q^(l), W_K^(l) fed X^(l-1) (every token's old state) versus X^(l)
      (what the model does): the head-average row of the focus positions (averaged when a word
      is several tokens) and its share on the special positions, for both inputs.
  moved_by(before, old, new), direction(base, value, shift)
      which of the two the test singles out (NEW_X_SHIFT, OWN_SHIFT: the bounds, written once).
  deep_heads(rows, layer, target)
      at `layer`, each head's weight from the focus word to the token at `target`, and the heads
      ranked by it (heaviest first).
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .qkv_causes import pattern_comparable, pattern_row, project
from .vectors import attn_input


def same_w_old_x(trace: Trace, weights: dict, layer: int, pos: list[int],
                 special: list[int]) -> dict | None:
    """None when the model's attention cannot be redone here (RoPE, shared keys, the toy)."""
    if layer < 1 or not pattern_comparable(trace.spec):
        return None
    causal = trace.spec.kind == "decoder"
    rows = {}
    for name, state in (("old", layer - 1), ("new", layer)):
        inp = attn_input(trace, state)
        q, k = project(inp, weights, layer, "Q"), project(inp, weights, layer, "K")
        per_pos = [pattern_row(q, k, p, causal).mean(axis=0) for p in pos]   # head-average
        rows[name] = np.mean(per_pos, axis=0)
    return {"layer": layer,
            "old_row": rows["old"].tolist(), "new_row": rows["new"].tolist(),
            "old_sink": float(rows["old"][special].sum()),
            "new_sink": float(rows["new"][special].sum())}


NEW_X_SHIFT = 0.3   # the new X moved the share: new / old at least 30 % off 1
OWN_SHIFT = 0.2     # the layer's own matrices moved it: old / before at least 20 % off 1


def direction(base: float, value: float, shift: float) -> str | None:
    """The way value moved from base: "up" when value / base >= 1 + shift, "down" when it is
    <= 1 - shift, else None (a draft's claims for each outcome use the same bounds)."""
    ratio = value / base
    return "up" if ratio >= 1 + shift else "down" if ratio <= 1 - shift else None


def moved_by(before: float, old: float, new: float) -> str | None:
    """What a fair test singles out as moving the share on the special tokens: "changed x" when
    the layer's matrices fed the new X give 30 % more or less than fed the old X; else "own
    matrices" when fed the old X they already differ by a fifth from `before` (the layer
    before's own share); else None (neither)."""
    if direction(old, new, NEW_X_SHIFT):
        return "changed x"
    return "own matrices" if direction(before, old, OWN_SHIFT) else None


def deep_heads(rows: dict, layer: int, target: int) -> dict:
    """Per head at `layer`: the focus word's weight on `target`, and the heads by that weight."""
    w = np.asarray(rows["heads"][layer], np.float64)[:, target]
    order = [int(h) for h in np.argsort(-w, kind="stable")]
    return {"weight": w.tolist(), "order": order}


__all__ = ["same_w_old_x", "direction", "moved_by", "deep_heads", "NEW_X_SHIFT", "OWN_SHIFT"]
