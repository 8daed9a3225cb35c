"""The typed view of logit_lens's plan `data` (layerwise_core.planview): what the scene reads.

`Data.at(plan)` gives values that carry their plan path (`v.layers[6].rank.path ==
"data.layers[6].rank"`); the plan is checked against these classes at plan time."""

from __future__ import annotations

from layerwise_core.planview import View


class Token(View):
    text: str
    display: str


class Top(View):
    text: str
    display: str
    id: int
    prob: float
    is_answer: bool


class Layer(View):
    layer: int
    state: int            # the state this lens reads: X^(layer + 1)
    top: list[Top]
    rank: int
    prob: float
    height: float
    mid_x: float          # read after the attention add (between layer - 1 and layer)
    mid_prob: float
    mid_height: float
    entropy: float        # of the lens's guesses at this state (nats)


class Tick(View):
    height: float
    rank: int


class Axis(View):
    decades: int
    y_range: list[float]
    ticks: list[Tick]


class ProbAxis(View):
    ticks: list[float]


class Item(View):
    sentence: str
    answer: Token
    top_from: int | None
    last_rank: int
    ranks: list[int]


class Prompts(View):
    n: int
    top: int
    items: list[Item]
    median_rank: list[float]
    median_kl: list[float]
    nat_factor: float
    kl_start_factor: float
    median_entropy: list[float]
    median_height: list[float]
    in_top: list[int]
    rank_axis: Axis
    earliest: int | None
    earliest_prompt: int | None


class Answer(View):
    text: str
    display: str
    id: int
    enters_top: int | None


class Prompt(View):
    focus_pos: int


class Cell(View):
    display: str
    prob: float
    is_final: bool


class GridRow(View):
    layer: int
    cells: list[Cell]


class Grid(View):
    positions: list[Token]
    rows: list[GridRow]
    every: int
    sparse_until: int | None
    dense_from: int
    key: list[float]


class CreditRow(View):
    layer: int
    before: int
    after_attn: int
    after_ffn: int
    mover: str
    prob_before: float
    prob_after_attn: float
    prob_after_ffn: float


class BiggestStep(View):
    layer: int
    sublayer: str
    to: int


BiggestStep.__annotations__["from"] = "int"      # a keyword: read as getattr(step, "from")


class Credit(View):
    rows: list[CreditRow]
    attn_total: float
    ffn_total: float
    biggest_step: BiggestStep | None


class Model(View):
    """The plan's `model` (not under `data`): `Model.at(plan["model"], "model")`."""
    d_model: int
    d_vocab: int
    norm: str


class Weights(View):
    """The weights file the model package ships and the trace read (the footer says it)."""
    file: str
    name: str
    variant: str | None
    quant: str | None
    bits: int | None
    package: str | None


class Window(View):
    start: int
    size: int
    threshold: int      # the rank the answer stays under from `start` on (the shade's rule)


class Data(View):
    n_layers: int
    top_k: int
    answer: Answer
    layers: list[Layer]
    rank_axis: Axis
    prob_axis: ProbAxis
    window: Window
    prompts: Prompts
    prompt: Prompt
    grid: Grid
    credit: Credit
    weights: Weights | None
