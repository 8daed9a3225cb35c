"""The fresh_qkv plan's `data`, declared (layerwise_core.planview): the plan is checked against it
at plan time and the scene reads every number through it, so each `Num` carries its plan path."""

from __future__ import annotations

from layerwise_core.planview import View


class Focus(View):
    word: str
    positions: list[int]
    tokens: list[str]
    averaged: bool


class Stage(View):
    key: str
    kind: str            # state | update | sum | norm
    length: float
    first: list[float]


class Centred(Stage):
    mean: float          # the mean LayerNorm subtracts
    spread: float        # the spread it divides by
    gain: list[float]    # the LayerNorm's learned gain, its first numbers ([] without weights)
    bias: list[float]    # its learned bias, the same numbers


class Update(View):
    placement: str
    stages: list[Stage]
    centred: list[Centred]
    norms: dict[str, float]   # |.| of each state and update (x, d_attn, mid, ln1, ...)
    x_next_first: list[float]
    x_next_norm: float
    cos_x_next: float


class Bound(View):
    bound: float
    decimals: int


class Norm(View):
    placement: str
    label: str
    norm_before: float
    norm_after: float


class Context(View):
    layer: int
    heads: int
    token: str           # the other word the focus word's attention gave the most (mean of heads)
    position: int        # its first token
    positions: list[int]  # all its tokens (a word the tokenizer splits is still one word)
    weight: float        # summed over its tokens
    own: float           # what it gave its own tokens
    weights: list[float]


class Mixed(View):
    first: list[float]   # X^(l) W_Q^(l-1) + b_Q^(l-1), head 0: its first entries
    cos_old: float       # its cosine with Q^(l-1) over the head's entries (one query space)
    entries: int
    w_cos_max: float     # the largest |cos| between any head's block of W_Q^(l) and of W_Q^(l-1)
    w_pairs: int         # how many pairs of heads that largest is taken over (n_heads^2)
    w_cos_all: list[list[float]]   # every pair's cosine: [layer l's head][layer l-1's head]
    w_numbers: int       # how many numbers one head's block holds (d_model x d_head)


class MixedKV(View):
    k: float             # the same test on the key: cos(X^(l) W_K^(l-1) + b, K^(l-1)), head 0
    v: float             # and on the value


class Layer(View):
    layer: int
    x_first: list[float]
    x_norm: float
    in_first: list[float]
    norm: Norm
    context: Context
    q_mixed: Mixed | None
    kv_mixed: MixedKV | None
    W_Q: list[list[float]]
    W_K: list[list[float]]
    W_V: list[list[float]]
    b_Q: list[float]
    b_K: list[float]
    b_V: list[float]
    q: list[float]
    k: list[float]
    v: list[float]
    redo_q: list[float]
    redo_k: list[float]
    redo_v: list[float]
    identity: dict[str, float]
    identity_max: float
    bias: bool
    identity_bound: dict[str, Bound]
    update: Update | None


class Shape(View):
    n_heads: int
    d_model: int
    d_head: int
    d_mlp: int


class Show(View):
    dims: int
    out: int
    head: int


class Check(View):
    tokens: int
    heads: int
    kv_heads: int
    entries: int
    layers: int
    values: int
    bound: Bound
    largest: Bound       # the largest gap measured, as the power of ten it stays under


class Data(View):
    focus: Focus
    tokens: list[str]
    model: str
    shape: Shape
    show: Show
    pre_ln_lengths: list[float]
    ln_input_lengths: list[float]
    std_lengths: list[float]
    cos_steps: list[float]
    angle_steps: list[float]  # the same steps as angles, in degrees (arccos of cos_steps)
    q_old_cos: list[float]   # layer 1 on: the new-X test's cosine (`layers[l].q_mixed.cos_old`)
    check: Check
    layers: list[Layer]
