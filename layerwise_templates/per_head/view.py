"""The typed view of per_head's plan `data` (layerwise_core.planview): the scene reads every
number through it (`Num(v.layers[0].join.delta_norm)`: the value brings its plan path), and
`layerwise plan` checks the builder's output against it."""

from __future__ import annotations

from layerwise_core.planview import View


class Focus(View):
    word: str
    pos: int
    parts: list[str]
    n_parts: int
    token: str


class Shape(View):
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_head: int
    d_joined: int


class Ranked(View):
    pos: int
    token: str
    offset: int
    dot: float
    score: float
    weight: float
    shifted: float
    exp: float


class Decimals(View):
    q: int
    k: int
    v: int
    out: int
    dots: int
    scores: int
    weights: int
    below: int
    shifted: int
    exp: int


class Head(View):
    head: int
    q: list[float]
    k: list[list[float]]
    v: list[list[float]]
    dots: list[float | None]
    scores: list[float | None]
    weights: list[float]
    weights_sum: float
    shifted: list[float | None]
    exp: list[float | None]
    exp_sum: float
    out: list[float]
    top: Ranked
    second: Ranked
    gap: float
    rest_max: float
    products: list[float]       # the top key's first products q_i k_i
    products_rest: float        # the other products' sum
    products_decimals: int
    products_add: bool
    below: list[float | None]
    decimals: Decimals


class Prev(View):
    head: int
    score: float
    score_text: str
    next_head: int
    next_best: float
    next_best_text: str
    rows: int


class Piece(View):
    head: int
    length: float
    on_key: float
    on_key_text: str
    prev: float
    prev_text: str


class JoinDecimals(View):
    z: int
    piece_norms: int
    piece_sum: int
    delta: int
    x: int
    mid: int
    on_key: int
    delta_norm: int
    bias_norm: int
    with_bias: int


class Join(View):
    z: list[list[float]]
    piece_norms: list[float]
    piece_sum: float
    bias_norm: float
    delta: list[float]
    delta_norm: float
    delta_norm_text: str
    x: list[float]
    x_norm: float
    ratio: float            # delta_norm / x_norm
    mid: list[float]
    top: list[Piece]
    key_token: str
    top_on_key_min: float
    first: list[float]
    bias_first: float
    with_bias: float        # piece_sum + bias_norm
    bias_norm_text: str
    argmax: list[str]       # the token each head weighs most from the focus
    key_heads: list[int]    # the heads whose largest weight is on heads[0]'s top key
    n_key_heads: int
    key_heads_text: str
    key_heads_longest: int   # 1: they are exactly the n_key_heads longest pieces
    key_len_min: float      # the key heads' shortest piece
    other_len_max: float    # every other head's longest piece
    sum_adds: bool          # the shown first entries add up to the shown sum ("=", else "≈")
    decimals: JoinDecimals


class Pair(View):
    a: int
    b: int
    kind: str
    cos: float
    cos_text: str
    size: int
    first_a: list[float]    # head a's flat W_Q, its first entries (drawn as cells)
    first_b: list[float]


class Next(View):
    layer: int
    head: int
    x: list[float]
    q: list[float]
    q_here: list[float]
    decimals: int
    x_decimals: int


class Layer(View):
    layer: int
    x: list[float]
    x_decimals: int
    w_cos_max: float
    w_rand_max: float       # random Gaussian matrices of the same shapes: their largest |cos|
    w_pair: Pair
    w_abs: list[float]      # every pair's |cos|, W_Q, W_K, W_V pairs
    w_all: list[float]      # the same pairs' signed cosines
    w_pairs: int
    first_heads: int        # heads whose largest weight from the focus is on the first token
    first_token: str
    next: Next | None
    qkv_bias: bool
    patterns: list[list[list[float]]]
    prev_token: list[float]
    prev_decimals: int
    prev: Prev
    heads: list[Head]
    join: Join


class Data(View):
    focus: Focus
    tokens: list[str]
    n_tokens: int
    n_layers: int
    window: list[int]
    slots: list[int | None]
    windowed: bool
    shape: Shape
    scale: float
    reads_x: bool
    post_ln: bool
    show: int
    layers: list[Layer]
