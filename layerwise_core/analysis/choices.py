"""What a drafted storyboard is built around, chosen from one trace (`layerwise draft`).

Pure functions of a trace and the focus word's token positions `pos` (its tokens averaged):
  movement          per layer l, how far the focus word's stream moves from X^(l) to X^(l+1):
                    |X^(l+1) - X^(l)| / |X^(l)| (`rel`), and the cosine between the two (`cos`)
  moves_most        the layers with the largest `rel`, in layer order
  strongest_head    the head whose heaviest weight from the focus word lands on another token
                    (not the word itself, not an excluded position), with the largest such
                    weight over every head of every layer
  sink_positions    positions an attention row rests on when it has little to gather: the
                    special tokens ([CLS], [SEP], a BOS) and a decoder's outlier token
                    (analysis.updates.outlier_token: SmolLM2's first token)
  lens_crossing     the layer from which the lens's rank of the final prediction stays within
                    the top k: the layer after the last one where it is below (0 if never)
"""

from __future__ import annotations

import numpy as np

from ..trace import Trace
from .lens_view import sharpening_start
from .updates import outlier_token
from .vectors import layer_states, special_positions

CROSSING_TOP = 10       # "crosses into the top 10"


def movement(trace: Trace, pos: list[int]) -> dict:
    """Per layer l = 0..L-1: `rel` |X^(l+1) - X^(l)| / |X^(l)| and `cos` cos(X^(l), X^(l+1)),
    where X^(l) is the stream entering layer l (X^(L) the output), for the focus word."""
    x = np.stack([np.asarray(trace[h], np.float64)[pos].mean(axis=0)
                  for h in layer_states(trace)])                         # [L + 1, d_model]
    step = np.linalg.norm(x[1:] - x[:-1], axis=-1)
    norm = np.linalg.norm(x, axis=-1)
    cos = (x[1:] * x[:-1]).sum(-1) / (norm[1:] * norm[:-1])
    return {"rel": (step / norm[:-1]).tolist(), "cos": cos.tolist()}


def moves_most(trace: Trace, pos: list[int], n: int, first: int = 0,
               last: int | None = None) -> list[int]:
    """The `n` layers in [first, last) (default: to the last layer) where the focus word's X
    moves most (largest `rel`; the lower layer on a tie), in layer order."""
    rel = movement(trace, pos)["rel"]
    layers = list(range(first, len(rel) if last is None else last))
    ranked = sorted(layers, key=lambda l: (-rel[l], l))
    return sorted(ranked[:n])


def sink_positions(trace: Trace) -> list[int]:
    """The special positions, and the outlier token a decoder parks attention on."""
    out = set(special_positions(trace))
    big = outlier_token(trace)
    if big is not None:
        out.add(big["position"])
    return sorted(out)


def strongest_head(trace: Trace, pos: list[int], exclude: list[int] = ()) -> dict | None:
    """The (layer, head) whose focus row (mean over `pos`) has its heaviest weight (the first
    key on a tie) on a key that is neither in `pos` nor in `exclude`, with the largest such
    weight over every layer and head (the lowest layer, then head, on a tie); None if no head's
    heaviest weight lands outside them."""
    skip = set(pos) | set(exclude)
    best = None
    for l in range(trace.n_layers):
        rows = np.asarray(trace[f"blocks.{l}.attn.hook_pattern"], np.float64)[:, pos].mean(axis=1)
        for h, row in enumerate(rows):
            j = int(np.argmax(row))
            if j in skip:
                continue
            if best is None or row[j] > best["weight"]:
                best = {"layer": l, "head": h, "key": j, "weight": float(row[j])}
    return best


def lens_ranks(trace: Trace, pos: int) -> list[int]:
    """The final prediction's rank (1 = top) in the lens after every layer, at `pos`."""
    return [int(r) + 1 for r in trace["lens.resid_post.final_rank"][:, pos]]


def lens_crossing(trace: Trace, pos: int, k: int = CROSSING_TOP) -> int:
    """The first layer from which the final prediction stays within the lens's top `k`."""
    return sharpening_start(lens_ranks(trace, pos), k)
