"""(model, sentence) -> Trace, through a content-addressed cache.

The cache key hashes the model name, the weight package and its version, the sentence and the
source code of the core, so the same pass is never recomputed and a code change never serves a
stale trace. A corrupt cached file is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import __version__
from .errors import CorruptCacheError, SentenceTooLongError
from .lens import SITES, lens_summaries
from .models import entry, load_model
from .models.base import Recorder
from .packages import package_version
from .tokens import check_sentence, word_table
from .trace import Trace, load_npz, read_meta, save_npz

log = logging.getLogger(__name__)

_CODE = ("models", "lens.py", "tracing.py", "trace.py", "tokens.py", "names.py", "spec.py")


def default_cache_dir() -> Path:
    return Path(os.environ.get("LAYERWISE_CACHE", Path.home() / ".cache" / "layerwise"))


@lru_cache(maxsize=1)
def code_version() -> str:
    """Hash of the source that determines a trace's contents."""
    root = Path(__file__).parent
    h = hashlib.sha256(__version__.encode())
    for item in _CODE:
        for f in sorted((root / item).rglob("*.py")) if (root / item).is_dir() else [root / item]:
            h.update(f.relative_to(root).as_posix().encode() + f.read_bytes())
    return h.hexdigest()[:16]


def trace_key(model: str, sentence: str) -> str:
    spec = entry(model).spec
    inputs = {"model": model, "package": spec.package,
              "package_version": package_version(spec.package) if spec.package else None,
              "sentence": sentence, "code": code_version()}
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def cached_path(model: str, sentence: str, cache_dir: Path | None = None) -> Path:
    cache_dir = Path(cache_dir or default_cache_dir())
    return cache_dir / "traces" / f"{model}-{trace_key(model, sentence)[:20]}.npz"


def get_trace(model: str, sentence: str, *, cache_dir: Path | None = None,
              out: Path | None = None) -> Trace:
    """The trace of `sentence` through `model`, from the cache when it is there and sound."""
    check_sentence(sentence)
    cache_dir = Path(cache_dir or default_cache_dir())
    path = cached_path(model, sentence, cache_dir)
    trace = None
    if path.exists():
        try:
            trace = Trace.load(path)
            if not sidecar_matches(trace, path.parent):         # the sidecar must be there too
                raise CorruptCacheError(f"{path.parent / trace.meta['weights_file']}: missing "
                                        f"or not the weights of {path.name}")
        except CorruptCacheError as e:
            log.warning("rebuilding corrupt cache entry: %s", e)
            trace = None
    if trace is None:
        trace = compute_trace(model, sentence, cache_dir=cache_dir, dest=path)
    if out is not None:
        trace = export(trace, Path(out))
    return trace


def compute_trace(model_name: str, sentence: str, *, cache_dir: Path, dest: Path) -> Trace:
    """Run the model and write the trace (and its weights sidecar) atomically to `dest`."""
    model = load_model(model_name, cache_dir)
    tok = model.tokenize(sentence)
    if len(tok) > model.spec.n_ctx:
        raise SentenceTooLongError(f"{len(tok)} tokens, but {model_name} takes at most "
                                   f"{model.spec.n_ctx}")
    rec = Recorder()
    model.run(list(tok.ids), rec)
    arrays = dict(rec.acts)
    meta = {
        "kind": "trace",
        "model": model.spec.to_json(),
        "source": model.source,
        "sentence": sentence,
        "token_ids": list(tok.ids),
        "tokens": list(tok.tokens),
        "offsets": [list(o) for o in tok.offsets],
        "words": word_table(sentence, tok),
        "hooks": list(rec.acts),
        "dtype": "float32",
        "layerwise_version": __version__,
        "code_version": code_version(),
        "inputs_sha256": trace_key(model_name, sentence),
    }
    if model.spec.kind == "decoder":
        arrays.update(_lens_arrays(model, arrays))
        ids = np.unique(np.concatenate([arrays[f"lens.{s}.top_ids"].ravel() for s in SITES] +
                                       [arrays["lens.resid_post.final_ids"]]))
        meta["lens"] = {"sites": list(SITES), "top_k": int(arrays["lens.resid_post.top_ids"].shape[-1]),
                        "entropy_unit": "nats", "kl": "KL(final || layer)",
                        "vocab": {str(int(i)): model.token_string(int(i)) for i in ids}}
    weights_name = _write_weights(model, dest.parent)
    meta["weights_file"] = weights_name
    meta["weights_sha256"] = load_npz_meta_sha(dest.parent / weights_name)
    save_npz(dest, arrays, meta)
    return Trace.load(dest)


def _lens_arrays(model, arrays: dict) -> dict:
    L = model.spec.n_layers
    out = {}
    for site in SITES:
        streams = np.stack([arrays[f"blocks.{l}.hook_{site}"] for l in range(L)])
        for name, value in lens_summaries(streams, arrays["logits"], model.unembed).items():
            out[f"lens.{site}.{name}"] = value
    return out


def _write_weights(model, folder: Path) -> str:
    """The per-layer attention weights, once per (model, package version, code version)."""
    spec = model.spec
    version = model.source.get("package_version") or "none"
    name = f"attn-weights/{spec.name}-{version}-{code_version()}.npz"
    path = folder / name
    if path.exists():
        try:
            load_npz(path)
            return name
        except CorruptCacheError as e:
            log.warning("rebuilding corrupt weights file: %s", e)
    save_npz(path, model.attention_weights(), {"kind": "weights", "model": spec.to_json()})
    return name


def load_npz_meta_sha(path: Path) -> str:
    return read_meta(path)["arrays_sha256"]


def sidecar_matches(trace: Trace, folder: Path) -> bool:
    """Is the weights file the trace names present in `folder`, by its recorded hash?"""
    side = folder / trace.meta["weights_file"]
    return side.is_file() and load_npz_meta_sha(side) == trace.meta["weights_sha256"]


def export(trace: Trace, out: Path) -> Trace:
    """Write `trace` to `out`, with its weights sidecar beside it."""
    side = out.parent / trace.meta["weights_file"]
    if not sidecar_matches(trace, out.parent):
        meta, weights = load_npz(trace.path.parent / trace.meta["weights_file"])
        save_npz(side, weights, {k: v for k, v in meta.items()
                                 if k not in ("arrays_sha256", "format_version")})
    trace.save(out)
    return Trace.load(out)
