"""The context_qkv plan's `data`, declared (layerwise_core.planview): the plan is checked
against it at plan time, and the scene reads every number through it, so each `Num` carries
its plan path without a path typed in the scene."""

from __future__ import annotations

from layerwise_core.planview import View


class Context(View):
    sentence: str
    focus: str
    positions: list[int]
    tokens: list[str]
    token_ids: list[int]


class Match(View):
    same_token: bool
    same_position: bool
    absolute_positions: bool
    identical: bool


class Reads(View):
    same_as_x: bool
    placement: str


class Heads(View):
    n_heads: int
    d_model: int
    q_width: int
    kv_width: int


class First(View):
    """first.x (or first.in), .q, .k, .v: [layer][sentence][dim]; `in` is set below (a
    keyword); read them as getattr(view.first, key)."""
    dims: int
    decimals: dict[str, list[int]]
    q: list[list[list[float]]]
    k: list[list[list[float]]]
    v: list[list[list[float]]]


First.__annotations__["x"] = "list[list[list[float]] | None] | None"
First.__annotations__["in"] = "list[list[list[float]] | None] | None"


class Axes(View):
    y_range: list[float]
    y_ticks: list[float]


class Lowest(View):
    key: str
    name: str
    layer: int
    value: float


class OneHead(View):
    key: str
    layer: int
    head: int
    value: float


class Summary(View):
    lowest: Lowest
    x_lowest: Lowest
    last_lowest: Lowest
    last_highest: Lowest
    layer0_equal: bool
    all_below_one_after_0: bool
    one_head: OneHead | None       # no default: a class attribute would shadow the plan (None)


class Pieces(View):
    """[x, y] in the plane of the two updates: drawn, never written."""
    xy: list[list[float]]
    bias: list[float]


class Looks(View):
    tokens: list[str]
    focus: list[int]
    mean: list[float]
    head_w: list[list[float]]      # [head][key]: drawn, never written
    words: list[int]
    special: list[int]
    special_share: float
    pieces: Pieces
    piece_length: list[float]


class Head(View):
    head: int
    a_key: int
    a: float
    a_token: str
    b_key: int
    b: float
    b_token: str


class Plane(View):
    """[sentence] of [x, y]: drawn, never written (the tip-to-tail sketch)."""
    x: list[list[float]]
    update: list[list[float]]
    sum: list[list[float]]


class Softmax(View):
    """One head's scores and weights for sentence 1's focus word ([key]; `keys` the two the
    scene writes out)."""
    sentence: int
    head: int
    query: int
    keys: list[int]
    scores: list[float | None]
    weights: list[float]
    d_head: int
    score_decimals: int


class Gauge(View):
    """The zoomed cosine scale the rest of the block moves a dot on (`plan.zoom_axis`)."""
    range: list[float]
    ticks: list[float]
    labels: list[float]


class Stage(View):
    name: str
    cos: float


class Entered(View):
    layer: int
    softmax: Softmax | None
    stages: list[Stage]
    gauge: Gauge | None
    sentences: list[Looks]
    shared: list[int]
    heads: list[Head]
    length: list[float]
    cos: float
    angle: float
    x_length: list[float]
    sum_length: list[float]
    sum_cos: float
    sum_angle: float
    plane: Plane
    x_next: float | None
    decimals: int


class Cos(View):
    """Per layer: x, in (set below: a keyword), q, k, v; read as getattr(view.cos, key)."""
    x: list[float]
    q: list[float]
    k: list[float]
    v: list[float]
    v_heads: list[list[float]]          # per layer, per head (the curves: all heads together)


Cos.__annotations__["in"] = "list[float]"


class Data(View):
    model: str
    word: str
    contexts: list[Context]
    match: Match
    reads: Reads
    layers: list[int]
    cos: Cos
    heads: Heads
    first: First
    axes: Axes
    summary: Summary
    entered: Entered
