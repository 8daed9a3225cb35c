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
from .errors import CorruptCacheError, OutputError, TraceFormatError
from .lens import SITES, lens_summaries
from .models import ModelRef, load_model, resolve, source_digest
from .models.base import Recorder
from .tokens import check_sentence, word_table
from .atomic import created_dirs, remove_created
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


def trace_key(ref: ModelRef, source: dict, sentence: str) -> str:
    inputs = {"model": ref.name, "source": source_digest(source), "sentence": sentence,
              "code": code_version()}
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def cached_path(model: str | ModelRef, sentence: str, cache_dir: Path | None = None) -> Path:
    cache_dir = Path(cache_dir or default_cache_dir())
    ref = resolve(model)
    key = trace_key(ref, ref.source(cache_dir), sentence)
    return cache_dir / "traces" / f"{ref.name}-{key[:20]}.npz"


def get_trace(model: str | ModelRef, sentence: str, *, cache_dir: Path | None = None,
              out: Path | None = None) -> Trace:
    """The trace of `sentence` through `model` (a built-in name, a path or a ModelRef), from
    the cache when it is there and sound."""
    check_sentence(sentence)
    cache_dir = Path(cache_dir or default_cache_dir())
    model = resolve(model)
    path = cached_path(model, sentence, cache_dir)
    trace = None
    if path.exists():
        try:
            trace = Trace.load(path)
            verify_sidecar(trace, path.parent)          # the sidecar must be there and sound
        except (CorruptCacheError, TraceFormatError) as e:
            log.warning("rebuilding corrupt cache entry: %s", e)
            trace = None
    if trace is None:
        trace = compute_trace(model, sentence, cache_dir=cache_dir, dest=path)
    if out is not None:
        trace = export(trace, Path(out))
    return trace


_VERIFIED: dict[tuple, str] = {}       # (path, inode, size, mtime) -> arrays_sha256 checked


def verify_sidecar(trace: Trace, folder: Path) -> None:
    """The weights file the trace names: present, its data matching its checksum and its
    checksum the trace's. Raises CorruptCacheError. A file is hashed once per process (and
    again whenever it changes on disk)."""
    side = Path(folder) / trace.meta["weights_file"]
    try:
        st = side.stat()
    except OSError:
        raise CorruptCacheError(f"{side}: missing (the weights of {trace.path})") from None
    key = (str(side.resolve()), st.st_ino, st.st_size, st.st_mtime_ns)
    if key not in _VERIFIED:
        try:
            meta, _ = load_npz(side)                 # CRC-32 + SHA-256 of every array
        except FileNotFoundError:
            raise CorruptCacheError(f"{side}: missing (the weights of {trace.path})") from None
        except TraceFormatError as e:
            raise CorruptCacheError(str(e)) from None
        _VERIFIED[key] = meta["arrays_sha256"]
    if _VERIFIED[key] != trace.meta["weights_sha256"]:
        raise CorruptCacheError(f"{side}: not the weights of {trace.path}")


def compute_trace(model: str | ModelRef, sentence: str, *, cache_dir: Path, dest: Path) -> Trace:
    """Run the model and write the trace (and its weights sidecar) atomically to `dest`."""
    ref = resolve(model)
    source = ref.source(cache_dir)
    model = load_model(ref, cache_dir, source)
    tok = model.tokenize(sentence)
    rec = Recorder()
    model.run(list(tok.ids), rec)
    arrays = dict(rec.acts)
    meta = {
        "kind": "trace",
        "model": model.spec.to_json(),
        "source": source,
        "sentence": sentence,
        "token_ids": list(tok.ids),
        "tokens": list(tok.tokens),
        "offsets": [list(o) for o in tok.offsets],
        "words": word_table(sentence, tok),
        "hooks": list(rec.acts),
        "dtype": "float32",
        "layerwise_version": __version__,
        "code_version": code_version(),
        "inputs_sha256": trace_key(ref, source, sentence),
    }
    if model.spec.kind == "decoder":
        arrays.update(_lens_arrays(model, arrays))
        ids = np.unique(np.concatenate([arrays[f"lens.{s}.top_ids"].ravel() for s in SITES] +
                                       [arrays["lens.resid_post.final_ids"]]))
        meta["lens"] = {"sites": list(SITES), "top_k": int(arrays["lens.resid_post.top_ids"].shape[-1]),
                        "entropy_unit": "nats", "kl": "KL(final || layer)",
                        "vocab": {str(int(i)): model.token_string(int(i)) for i in ids}}
    weights_name = _write_weights(model, source, dest.parent)
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


def _write_weights(model, source: dict, folder: Path) -> str:
    """The per-layer attention weights, once per (model, source files, code version)."""
    spec = model.spec
    name = f"attn-weights/{spec.name}-{source_digest(source)[:12]}-{code_version()}.npz"
    path = folder / name
    if path.exists():
        try:
            load_npz(path)
            return name
        except (CorruptCacheError, TraceFormatError) as e:
            log.warning("rebuilding corrupt weights file: %s", e)
    save_npz(path, model.attention_weights(), {"kind": "weights", "model": spec.to_json()})
    return name


def load_npz_meta_sha(path: Path) -> str:
    return read_meta(path)["arrays_sha256"]


def sidecar_matches(trace: Trace, folder: Path) -> bool:
    """Is the weights file the trace names present and sound in `folder`?"""
    try:
        verify_sidecar(trace, folder)
        return True
    except CorruptCacheError:
        return False


def export(trace: Trace, out: Path) -> Trace:
    """Write `trace` to `out`, with its weights sidecar beside it.

    All or nothing: if any part cannot be written (a folder or device at `out`, a file where
    a folder should be, read-only, disk full), nothing this call created is left behind and
    an existing `out` is untouched; the failure is one OutputError."""
    out = Path(out)
    if out.is_dir():
        raise OutputError(f"--out {out}: is a folder; give a file name such as {out / 'trace.npz'}")
    if out.exists() and not out.is_file():
        raise OutputError(f"--out {out}: not a regular file")
    side = out.parent / trace.meta["weights_file"]
    created = created_dirs(side.parent)          # out's missing folders and attn-weights/
    wrote_side = False
    try:
        if not sidecar_matches(trace, out.parent):
            if side.exists() and not side.is_file():
                raise OutputError(f"{side}: not a regular file; cannot write the weights there")
            meta, weights = load_npz(trace.path.parent / trace.meta["weights_file"])
            save_npz(side, weights, meta)
            wrote_side = True
        trace.save(out)
        return Trace.load(out)
    except BaseException:
        if wrote_side:
            side.unlink(missing_ok=True)
        remove_created(created)
        raise
