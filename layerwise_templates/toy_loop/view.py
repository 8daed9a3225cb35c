"""The typed view of toy_loop's plan `data` (layerwise_core.planview): the scene reads every
number through it, and `layerwise plan` checks the plan against it."""

from __future__ import annotations

from layerwise_core.planview import View


class Zoom(View):
    center: list[float]
    width: float
    bar: float
    path: float         # X's path so far (X^(0) ... X^(l+1)): its span over the width; at
                        # most 0.6: the view is centred on it (every earlier step in view)


class Layer(View):
    layer: int
    x_in: list[float]
    W_Q: list[list[float]]
    W_K: list[list[float]]
    W_V: list[list[float]]
    q: list[float]
    k: list[float]
    v: list[float]
    update: list[float]         # 0.1 V: the layer's update, Δ^(l)
    x_out: list[float]
    step_len: float             # |Δ^(l)|
    sum_gap: float              # how far X^(l) + Δ^(l), as written, is off X^(l+1) (> 0: "≈")
    prod_gap: dict[str, float]  # q, k, v: how far X · W redone from the shown digits is off
                                # the shown product (> 0.005: written "≈")
    zoom: Zoom


class Lines(View):
    seed: int
    x0: int
    loop: int
    weights: list[int]
    qkv: int
    update: int


class Split(View):
    layer: int
    by_w_min: float             # the smallest part of Q's, K's, V's change due to new matrices
    by_x_max: float             # the largest part due to the new X
    ratio: float                # by_w_min / by_x_max: how many times the matrices' part outweighs X's
    w_parts: dict[str, float]   # Q, K, V: each one's matrices' part
    x_parts: dict[str, float]   # Q, K, V: each one's X part
    via: dict[str, list[float]]  # Q, K, V: X^(l-1) times layer l's matrix (the parts meet there)
    x_parts_first: dict[str, float]  # the other order: X moved under the old matrix first
    w_parts_after: dict[str, float]  # ... then the matrix changed under the new X
    ratio_q_both: float         # Q's matrices' part over its X part, the smaller of both orders
    w_min_of: str               # which of Q, K, V has the smallest matrices' part
    x_max_of: str               # which has the largest X part
    ratio_v: float              # V's matrices' part over its X part
    ratio_v_both: float         # ... the smaller of both orders (> 1: the swap did more)


class Reuse(View):
    x_in: list[list[float]]     # X entering each layer if layer 0's V were reused
    x_out: list[list[float]]    # ... and leaving it
    x_in_differs: list[bool]    # the real X^(l) it would change (beyond the table's rounding)
    x_out_differs: list[bool]   # the real X^(l+1) it would change
    x_gap: float                # the largest such change, an entry


class Fresh(View):
    q: float                    # the smallest distance between two layers' Q (0: one repeats)
    k: float
    v: float
    carry_gap: float            # X entering layer l+1 minus X leaving layer l: 0
    step_ratio: float           # |Δ^(1)| / |Δ^(0)|
    longest_step: int           # the layer whose step (a tenth of its V) is the longest
    zoom_out: int               # later close-ups: layer 0's zoomed out this many times
    reuse: Reuse                # the hypothetical "computed once and reused"
    split: list[Split]          # layers 1.. : Q, K, V's change, the matrices' part and X's


class Data(View):
    code: str
    lines: Lines
    seed: int
    step: float
    extent: float               # the plane's half-width, data units
    center: list[float]         # ... and its centre
    layers: list[Layer]
    fresh: Fresh
