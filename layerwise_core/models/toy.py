"""The chapter's toy: one 2-d token, 3 layers, fresh random W_Q, W_K, W_V per layer, X += 0.1 V.

Attention is omitted, exactly as in the chapter: Q and K are computed and recorded but unused.
The generator is NumPy's legacy `RandomState(seed).randn`, drawn in the chapter's order
(W_q, W_k, W_v at each layer), so `np.random.seed(seed)` + the chapter's loop reproduces it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import SentenceTooLongError, short_repr
from ..spec import ModelSpec
from ..tokens import Tokenized, words
from .base import Recorder, TracedModel

SEED = 0
X0 = np.array([[1.0, 0.0]])
STEP = 0.1


class ToyModel(TracedModel):
    def __init__(self, spec: ModelSpec, seed: int = SEED):
        self.spec = spec
        self.seed = seed
        rs = np.random.RandomState(seed)
        self.W = [{k: rs.randn(2, 2) for k in ("Q", "K", "V")} for _ in range(spec.n_layers)]

    @property
    def source(self) -> dict:
        return {"package": None, "package_version": None, "file": None, "seed": self.seed,
                "update": f"X = X + {STEP} * V"}

    def encode(self, sentence: str) -> Tokenized:
        ws = words(sentence)
        if len(ws) != 1:
            raise SentenceTooLongError(f"toy-2d holds one token; {short_repr(sentence)} has "
                                       f"{len(ws)} words")
        w, s, e = ws[0]
        return Tokenized(ids=(0,), tokens=(w,), offsets=((s, e),))

    def forward(self, ids: list[int], rec: Recorder) -> None:
        x = X0.copy()                                   # [pos=1, d=2], float64 as in the chapter
        rec("hook_embed", x)
        for l, W in enumerate(self.W):
            b = f"blocks.{l}"
            rec(f"{b}.hook_resid_pre", x)
            q, k, v = x @ W["Q"], x @ W["K"], x @ W["V"]
            rec(f"{b}.attn.hook_q", q[:, None, :])      # [pos, head, d_head]
            rec(f"{b}.attn.hook_k", k[:, None, :])
            rec(f"{b}.attn.hook_v", v[:, None, :])
            update = rec(f"{b}.hook_attn_out", STEP * v)
            x = rec(f"{b}.hook_resid_post", x + update)

    def attention_weights(self) -> dict[str, np.ndarray]:
        out = {}
        for l, W in enumerate(self.W):
            for k in ("Q", "K", "V"):
                out[f"blocks.{l}.attn.W_{k}"] = W[k][None]            # [head=1, 2, 2]
                out[f"blocks.{l}.attn.b_{k}"] = np.zeros((1, 2))
        return out


def load(cache_dir: Path) -> ToyModel:
    from . import REGISTRY
    return ToyModel(REGISTRY["toy-2d"].spec)
