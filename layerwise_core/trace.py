"""The trace: every per-layer activation of one forward pass, as plain arrays plus JSON metadata.

On disk a trace is one uncompressed `.npz` (read with `allow_pickle=False`). Besides the arrays
it holds a member `__meta__` with the metadata as UTF-8 JSON, including a SHA-256 of every
array, so a truncated or altered file is detected and never trusted. Files are written to a
temporary name and renamed, so a reader never sees half a trace.

Array keys follow TransformerLens (`blocks.3.attn.hook_q`, shape [pos, head, d_head]). The
attention weights each layer used live in a sidecar `.npz` of the same format named by
`meta["weights_file"]` (shared by every trace of that model), reachable with `Trace.weights()`.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import numpy as np

from .atomic import replacing
from .errors import CorruptCacheError, TraceFormatError
from .spec import ModelSpec

FORMAT_VERSION = 2          # 2: `meta_sha256` covers the metadata itself
_META = "__meta__"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")     # an .npz is a zip (the second: empty zip)


def meta_digest(meta: Mapping) -> str:
    """SHA-256 of the metadata's canonical JSON, without the `meta_sha256` field itself."""
    core = {k: v for k, v in meta.items() if k != "meta_sha256"}
    return hashlib.sha256(json.dumps(core, sort_keys=True).encode()).hexdigest()


def arrays_digest(arrays: Mapping[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_npz(path: Path, arrays: Mapping[str, np.ndarray], meta: dict) -> None:
    """Write arrays + meta atomically (temp file in the same folder, then rename)."""
    path = Path(path)
    meta = {k: v for k, v in meta.items() if k != "meta_sha256"}
    meta = {**meta, "format_version": FORMAT_VERSION, "arrays_sha256": arrays_digest(arrays)}
    meta["meta_sha256"] = meta_digest(meta)
    blob = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    with replacing(path) as tmp, open(tmp, "wb") as f:
        np.savez(f, **{_META: blob}, **arrays)


def _check_magic(path: Path) -> None:
    """A file that is not a zip at all is not a trace; say so (numpy would call a text file
    "pickled data"). Raises FileNotFoundError for a missing file, as open() does."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except (FileNotFoundError, IsADirectoryError):
        raise
    except OSError as e:
        raise CorruptCacheError(f"{path}: cannot read ({e.strerror or e})") from None
    if head not in _ZIP_MAGIC:
        what = "empty" if not head else "not an .npz (zip) file"
        raise TraceFormatError(f"{path}: not a layerwise trace ({what})")


def _parse_meta(path: Path, z) -> dict:
    if _META not in z.files:
        raise CorruptCacheError(f"{path}: not a layerwise trace (no {_META} member)")
    try:
        meta = json.loads(z[_META].tobytes())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CorruptCacheError(f"{path}: metadata is not JSON ({e})") from None
    if not isinstance(meta, dict):
        raise CorruptCacheError(f"{path}: metadata is not a JSON object")
    if meta.get("format_version") != FORMAT_VERSION:
        raise CorruptCacheError(f"{path}: format_version {meta.get('format_version')!r}, "
                                f"expected {FORMAT_VERSION}")
    if meta.get("meta_sha256") != meta_digest(meta):
        raise CorruptCacheError(f"{path}: metadata checksum mismatch (file altered or corrupt)")
    return meta


_READ_ERRORS = (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError)


def read_meta(path: Path) -> dict:
    """Only the metadata, checked against its own checksum (fast: the arrays are not read)."""
    path = Path(path)
    _check_magic(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            return _parse_meta(path, z)
    except FileNotFoundError:
        raise
    except _READ_ERRORS as e:
        raise CorruptCacheError(f"{path}: not a readable layerwise trace ({e})") from None


def load_npz(path: Path, *, verify: bool = True) -> tuple[dict, dict[str, np.ndarray]]:
    """Metadata and arrays; the metadata checksum is always verified, the arrays' when
    `verify` (the zip's CRC-32 of each member is checked by reading it in any case)."""
    path = Path(path)
    _check_magic(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = _parse_meta(path, z)
            arrays = {k: z[k] for k in z.files if k != _META}
    except FileNotFoundError:
        raise
    except _READ_ERRORS as e:
        raise CorruptCacheError(f"{path}: truncated or corrupt ({type(e).__name__}: {e})") from None
    if verify and arrays_digest(arrays) != meta.get("arrays_sha256"):
        raise CorruptCacheError(f"{path}: array checksum mismatch (file altered or corrupt)")
    return meta, arrays


@dataclass(frozen=True)
class Trace:
    """One forward pass. `meta` is JSON-able, `arrays` maps hook names to numpy arrays."""

    meta: dict
    arrays: Mapping[str, np.ndarray]
    path: Path | None = field(default=None, compare=False)

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.arrays[name]
        except KeyError:
            raise TraceFormatError(f"trace of {self.model!r} has no array {name!r}") from None

    def __contains__(self, name: str) -> bool:
        return name in self.arrays

    # --- metadata shortcuts -------------------------------------------------------------
    @property
    def model(self) -> str:
        return self.meta["model"]["name"]

    @property
    def spec(self) -> ModelSpec:
        return ModelSpec.from_json(self.meta["model"])

    @property
    def n_layers(self) -> int:
        return self.meta["model"]["n_layers"]

    @property
    def n_heads(self) -> int:
        return self.meta["model"]["n_heads"]

    @property
    def tokens(self) -> list[str]:
        return self.meta["tokens"]

    @property
    def sentence(self) -> str:
        return self.meta["sentence"]

    def layer(self, short: str, layer: int) -> np.ndarray:
        from .names import hook_name
        return self[hook_name(short, layer)]

    # --- disk ----------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        save_npz(Path(path), self.arrays, self.meta)
        return Path(path)

    @classmethod
    def load(cls, path: Path, *, verify: bool = True) -> "Trace":
        meta, arrays = load_npz(Path(path), verify=verify)
        if meta.get("kind") != "trace":
            raise TraceFormatError(f"{path}: not a trace (kind={meta.get('kind')!r})")
        return cls(meta=meta, arrays=arrays, path=Path(path))

    def weights(self) -> dict[str, np.ndarray]:
        """The attention weights each layer used: `blocks.{l}.attn.W_Q` [head, d_model, d_head]..."""
        name = self.meta.get("weights_file")
        if name is None:
            raise TraceFormatError(f"trace of {self.model!r} names no weights file")
        base = self.path.parent if self.path is not None else Path(".")
        meta, arrays = load_npz(base / name)
        if meta.get("arrays_sha256") != self.meta.get("weights_sha256"):
            raise CorruptCacheError(f"{base / name}: weights do not match the trace's hash")
        return arrays
