"""The typed view of attention_depth's plan `data` (layerwise_core.planview): the scene reads
every number through it, and `layerwise plan` checks the plan against it."""

from __future__ import annotations

from layerwise_core.planview import View


class Tok(View):
    pos: int
    token: str
    weight: float


class Layer(View):
    layer: int
    row: list[float]
    heads: list[list[float]]
    top: Tok
    top_word: Tok
    head_on_word: int
    head_on_cls: int
    on_special: list[float]
    sink: float
    total: float
    sink_adds: bool
    parts_sum: float
    elided: list[list[float]]       # under each "…" the weights left out (columns.py)


class Extreme(View):
    layer: int
    value: float
    tied: list[int]                 # the layers whose share is written as this one's


class Steps(View):
    rises: int                      # steps from one layer to the next that go up
    falls: int                      # ... and down
    n: int                          # all of them (n_layers - 1)


class Split(View):
    end: int                        # the first run's last layer (plan.level_split)
    before: float                   # the mean share over layers 0..at
    after: float                    # ... over the layers after it


class Weights(View):
    file: str
    name: str                       # SmolLM2-135M-Instruct
    variant: str | None
    quant: str | None               # Q4_1
    bits: int | None                # 4
    package: str | None


class Sink(View):
    share: list[float]
    max: Extreme
    min: Extreme
    last: float
    end_after0: float
    steps: Steps
    split: Split | None


class Tie(View):
    layer: int
    old_row: list[float]
    new_row: list[float]
    old_sink: float
    new_sink: float
    layer0_sink: float
    by: str | None
    old_adds: bool
    new_adds: bool
    swap_row: list[float]
    swap_sink: float
    swap_adds: bool
    swap_by: str | None
    old_elided: list[list[float]]
    new_elided: list[list[float]]
    swap_elided: list[list[float]]


class Top(View):
    head: int
    weight: float
    prev_token: float


class Suspect(View):
    head: int
    prev_token: float
    one_before: list[float]


class Deep(View):
    layer: int
    target: Tok
    heads: list[int]
    weight: list[float]
    order: list[int]
    prev_token: list[float]
    top3: list[Top]
    suspect: Suspect
    before_focus: bool
    uniform: float
    n_tokens: int
    habit: float


class Worked(View):
    layer: int
    head: int
    scores: list[float | None]      # None: a key the query may not see (a decoder's later ones)
    weights: list[float]
    score_decimals: int
    elided: list[list[float]]


class Columns(View):
    order: list[int]                # the order the diagram keeps tokens in (columns.py)
    must: int                       # how many of the first are always kept


class Data(View):
    model: str
    weights: Weights | None
    word: str
    tokens: list[str]
    focus: list[int]
    n_focus: int
    columns: Columns
    special: list[int]
    special_tokens: list[str]
    sink_kind: str                  # "special" ([CLS], [SEP]) or "first" (a decoder's first token)
    n_heads: int
    d_head: int
    n_layers: int
    decimals: int
    layers: list[Layer]
    sink: Sink
    tie: Tie | None
    tie_last: Tie | None
    deep: Deep
    worked: Worked | None
