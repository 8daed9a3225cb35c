"""The typed view of a bank_drift plan's `data` (layerwise_core.planview): the scene reads
every number through it, so each carries its plan path; `layerwise plan` checks a plan
against it."""

from __future__ import annotations

from layerwise_core.planview import View


class State(View):
    layer: int
    math: str           # Typst: X^((l))
    label: str


class Context(View):
    sentence: str
    focus: str
    positions: list[int]
    tokens: list[str]
    word: int           # the focus word's number among the sentence's words, from 1


class Curve(View):
    pair: list[int]
    raw: list[float]
    adjusted: list[float]
    angle_deg: list[float]


class Similarity(View):
    baseline: list[float]
    baseline_pairs: int
    baseline_example: list[str]


class Axes(View):
    y_range: list[float]
    y_ticks: list[float]


class Answer(View):
    n: int
    move_over_norm: float
    far: bool
    one_path: bool
    off_plane: str      # "mostly" | "partly" | "mostly_in"


class Projection(View):
    xy: list[list[list[float]]]
    explained_percent: list[float]
    kept_percent: float
    x_range: list[float]
    y_range: list[float]
    step: float
    n_points: int
    depth_distance: float
    sentence_distance: float
    end_distances: list[float]
    spread_pair: list[int]
    ends_spread: float
    spread_fraction: float
    output_norm: float
    depth_distances: list[float]
    full_end_distances: list[float]
    full_depth_distance: float
    full_start_distances: list[float]
    raw_view: list[list[list[float]]]
    raw_view_dims: list[int]
    raw_view_share: float
    d_model: int
    end_shown: list[float]
    off_distances: list[float]
    other_moves: list[float]    # every other word's X^(0) -> X^(L) move, full space
    other_move_range: list[float]    # their shortest and longest
    other_move_n: int
    answer: Answer


class Table(View):
    header: list[str]
    rows: list[list[str]]
    note: str
    spans: list[list[int]]


class Gap(View):
    cos_range: list[float]
    cos_ticks: list[float]
    near: int           # index into curves: the curve ending highest
    far: int            # the curve ending lowest
    values: list[float]
    first: float
    last: float
    widest: int
    together: int
    small: float
    fall_near: float
    fall_far: float
    last_rise_near: float   # the last layer, baseline subtracted: the near curve's rise
    last_fall_far: float    # ... and the far curve's fall
    last_step: float        # the gap's change over the last layer (X^(L-1) -> X^(L))
    mid_times: int          # the states after the flat start stay under this x its width
    last_times: int         # the output's gap is over this x that width
    y_range: list[float]
    y_ticks: list[float]    # the gap chart's: its ends and zero
    shared: list[str]


class OutputDrop(View):
    curve: int
    near_curve: int
    near_adjusted: float
    raw: float
    baseline: float
    adjusted: float
    raw_fall: float
    baseline_fall: float
    raw_from: float
    raw_to: float
    baseline_from: float
    baseline_to: float
    adjusted_from: float
    adjusted_to: float


class Data(View):
    states: list[State]
    contexts: list[Context]
    curves: list[Curve]
    similarity: Similarity
    axes: Axes
    projection: Projection
    table: Table
    gap: Gap
    output_drop: OutputDrop
