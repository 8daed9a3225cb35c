"""The interface every traced model implements, and the recorder its forward writes into."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from ..spec import ModelSpec
from ..errors import SentenceTooLongError
from ..tokens import Tokenized, check_sentence


def check_length(spec: ModelSpec, n_tokens: int) -> None:
    """The one token-limit check: 1 to n_ctx tokens."""
    if not 0 < n_tokens <= spec.n_ctx:
        raise SentenceTooLongError(f"{n_tokens} tokens; {spec.display} takes 1 to {spec.n_ctx}")


class Recorder:
    """Collects activations by hook name, in the order the forward produces them.

    The forward calls `rec(name, tensor)` at every hook point; the tensor is returned unchanged,
    so a hook point reads like TransformerLens's `self.hook_q(q)`. Batch dimensions are the
    caller's business: models record [pos, ...] arrays for one sentence.
    """

    def __init__(self) -> None:
        self.acts: dict[str, np.ndarray] = {}

    def __call__(self, name: str, t: Any) -> Any:
        if name in self.acts:
            raise RuntimeError(f"hook {name!r} recorded twice")
        # no copy: the forwards run under inference mode on the CPU and never modify a tensor
        # in place after recording it (the reference tests would catch it), so the array
        # shares the tensor's memory; `numpy()` is the whole cost of a hook (~600 per pass)
        arr = t.numpy() if hasattr(t, "numpy") else np.asarray(t)
        if arr.dtype != np.float32 and arr.dtype != np.float64:    # the toy stays float64
            arr = arr.astype(np.float32)
        self.acts[name] = arr
        return t


class TracedModel(ABC):
    """A hand-written forward that records every activation (always the explicit attention path)."""

    spec: ModelSpec

    @property
    @abstractmethod
    def source(self) -> dict:
        """Where the weights came from: {"package", "package_version", "file"}."""

    def tokenize(self, sentence: str) -> Tokenized:
        """Token ids, display strings and character offsets (no padding), within the limit."""
        tok = self.encode(check_sentence(sentence))
        check_length(self.spec, len(tok.ids))
        return tok

    def run(self, ids: list[int], rec: Recorder) -> None:
        """One forward pass over `ids`, calling `rec` at every hook point of `names.block_hooks`."""
        ids = [int(i) for i in ids]
        check_length(self.spec, len(ids))
        self.forward(ids, rec)

    @abstractmethod
    def encode(self, sentence: str) -> Tokenized:
        """The tokenizer's output for a checked sentence."""

    @abstractmethod
    def forward(self, ids: list[int], rec: Recorder) -> None:
        """The forward pass proper (ids already checked)."""

    @abstractmethod
    def attention_weights(self) -> dict[str, np.ndarray]:
        """Per layer: `blocks.{l}.attn.W_Q` [n_heads, d_model, d_head], `b_Q` [n_heads, d_head],
        `W_K`, `b_K`, `W_V`, `b_V` (with n_kv_heads), `W_O` [n_heads, d_head, d_model], `b_O`
        [d_model]; zeros where the model has no bias. q = x @ W_Q + b_Q, TransformerLens style."""

    def unembed(self, resid: np.ndarray) -> np.ndarray:
        """Decoders: logits of a stream [..., d_model] through the final norm (each vector with
        its own statistics) and the unembedding. Encoders have no output matrix."""
        raise NotImplementedError(f"{self.spec.name} has no unembedding")

    def token_string(self, token_id: int) -> str:
        """Readable text of one vocabulary entry (for logit-lens labels)."""
        raise NotImplementedError
