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


class Tick(View):
    height: float
    rank: int


class Axis(View):
    decades: int
    ticks: list[Tick]


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
    median_height: list[float]
    in_top: list[int]
    rank_axis: Axis
    earliest: int | None
    earliest_prompt: int | None


class Answer(View):
    text: str
    display: str
    id: int


class Window(View):
    start: int
    size: int


class Data(View):
    n_layers: int
    top_k: int
    answer: Answer
    layers: list[Layer]
    rank_axis: Axis
    window: Window
    prompts: Prompts
