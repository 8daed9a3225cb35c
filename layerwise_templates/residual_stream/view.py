"""The typed view of residual_stream's plan `data` (layerwise_core.planview): what the scene
reads.

`Data.at(plan)` gives values that carry their plan path (`v.layers[3].norm_x.value.path ==
"data.layers[3].norm_x.value"`); the plan is checked against these classes at plan time."""

from __future__ import annotations

from layerwise_core.planview import View


class Shown(View):
    """A number as it is shown: its (rounded) value and the decimals it is written with."""
    value: float
    decimals: int


class Model(View):
    display: str
    n_layers: int
    norm_placement: str
    rotary: bool


class Focus(View):
    token: int
    token_text: str


class Token(View):
    index: int
    text: str


class Stage(View):
    index: int                 # its place in the list: how many updates X has had here
    layer: int | None          # None: the embedding
    xy: list[float]
    head: list[float]          # the first entries, shown as a column
    norm: Shown
    captured_pct: Shown
    change: float              # |X| here minus |X| one stage before (0 for the embedding)


class Step(View):
    kind: str
    layer: int
    decimals: int
    head: list[float]
    norm: Shown
    captured_pct: Shown


class Layer(View):
    layer: int
    stage_in: int
    stage_out: int
    step_attn: int
    step_ffn: int
    entry_decimals: int
    norm_x: Shown
    norm_attn: Shown
    norm_mlp: Shown
    sum_ffn: Shown
    norm_mid: Shown


class PlaneView(View):
    width: float
    scale: float
    scale_decimals: int


class Plane(View):
    n_points: int
    aspect: float
    energy_pct: Shown
    views: list[PlaneView]
    close_views: list[PlaneView | None]
    whole_view: PlaneView
    shadow_view: PlaneView
    close_from_stage: int


class Tick(View):
    value: float
    decimals: int


class Axis(View):
    max: float
    ticks: list[Tick]


class Bars(View):
    linear: list[Axis]


class Summary(View):
    norm_first: Shown
    norm_last: Shown
    growth: Shown
    growth_about: Shown
    median_rel_attn: Shown
    median_rel_mlp: Shown
    max_rel_later: Shown
    largest_update: Shown
    ffn0_over_x0: Shown


class Copies(View):
    norm: list[Shown]          # |RMSNorm(X^(l))|: what attention reads
    ffn_norm: list[Shown]      # |RMSNorm(X^(l) + Delta_attn)|: what the FFN reads
    min: Shown
    max: Shown
    x_last_in: Shown
    x_last_about: Shown
    from_layer: int
    last_layer: int
    unit: Shown                # |X / rms(X)|: the copy before its gain g, for every X
    unit_spread: Shown         # ... its spread over the layers (~0)


class Direction(View):
    cos_next: list[Shown]      # cos(X^(l), X^(l+1)) for each layer l
    from_layer: int
    first: Shown               # cos(X^(0), X^(1)): layer 0's turn
    min_later: Shown
    max_later: Shown
    deg_min_later: Shown       # the smallest turn from from_layer on, in degrees (max_later's)
    deg_max_later: Shown       # ... the largest (min_later's)
    cos_1_last: Shown
    cos_from_first: list[Shown]   # cos(X^(from_layer), X^(l)), l = from_layer .. L
    sharpest_mid_layer: int
    sharpest_mid: Shown


class Walk(View):
    from_layer: int
    n_steps: int
    n_grow: int
    max_shrink_pct: Shown
    max_shrink_layer: int


class Zoom(View):
    layer: int                 # the middle layer drawn to scale (L // 2)
    next_layer: int
    norm_x: Shown
    norm_attn: Shown
    norm_mid: Shown
    norm_mlp: Shown
    norm_out: Shown
    rel_attn: Shown            # |Delta_attn| / |X^(l)|
    rel_mlp: Shown             # |Delta_FFN| / |X^(l) + Delta_attn|
    cos_attn: Shown
    cos_mlp: Shown
    pts: list[list[float]]     # origin, X^(l)'s tip, after attention, after the FFN (to scale)


class Outlier(View):
    position: int
    token: str
    max_norm: Shown
    others_max_norm: Shown
    attention_pct: Shown
    attention_layers: list[int]
    max_layer: int
    is_sink: bool


class Bound(View):
    bound: float
    decimals: int


class Identity(View):
    sum_head: list[float]
    x_head: list[float]
    decimals: int
    bound: Bound
    measured: Bound
    digits: int                # float32's significant decimal digits (7)


class Check(View):
    kind: str
    n_updates: int | None         # pre-norm (additions) only
    min_ln_change: float | None   # post-LN (layernorm) only
    max_ln_change: float | None


class Data(View):
    model: Model
    n_layers: int
    d_model: int
    n_tokens: int
    space_mark: str
    focus: Focus
    tokens: list[Token]
    stages: list[Stage]
    steps: list[Step]
    layers: list[Layer]
    x_stages: list[int]
    x_norms: list[Shown]
    plane: Plane
    bars: Bars
    summary: Summary
    direction: Direction
    walk: Walk
    zoom: Zoom
    copies: Copies | None
    outlier: Outlier | None
    identity: Identity | None
    check: Check
