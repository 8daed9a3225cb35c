"""Reading a checkpoint's files: Hugging Face safetensors (one file or shards), config checks,
and file digests computed once per file change.

Everything a user's file can get wrong is a `ModelFileError`: one line naming the file and the
field or tensor.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable

import torch

from ..atomic import replacing
from ..errors import ModelFileError


def f32(t: torch.Tensor) -> torch.Tensor:
    return t.detach().to(torch.float32).contiguous()


def expect(cfg: dict, key: str, allowed: tuple, *, default=None) -> None:
    """The config's `key` must be one of `allowed` (missing: `default`)."""
    value = cfg.get(key, default)
    if value not in allowed:
        raise ModelFileError(f"{cfg.get('_path', 'config.json')}: {key} is {value!r}; "
                             f"supported: {', '.join(map(repr, allowed))}")


def refuse(cfg: dict, key: str, what: str) -> None:
    """A feature the forward does not implement: present and set means an error."""
    if cfg.get(key):
        raise ModelFileError(f"{cfg.get('_path', 'config.json')}: {key} = {cfg[key]!r}; "
                             f"{what} is not supported")


class Tensors:
    """A checkpoint's tensors by name; `get(name, shape)` checks the shape and names the file
    of a missing or misshapen tensor."""

    def __init__(self, tensors: dict[str, torch.Tensor], where: str, prefixes: Iterable[str] = ()):
        self.where = where
        self.t = {}
        for k, v in tensors.items():
            for p in prefixes:
                if k.startswith(p):
                    k = k[len(p):]
                    break
            self.t[k] = v

    def __contains__(self, name: str) -> bool:
        return name in self.t

    def __len__(self) -> int:
        return len(self.t)

    def get(self, name: str, shape: tuple[int, ...] | None = None) -> torch.Tensor:
        if name not in self.t:
            raise ModelFileError(f"{self.where}: no tensor {name!r}")
        t = self.t[name]
        if shape is not None and tuple(t.shape) != tuple(shape):
            raise ModelFileError(f"{self.where}: tensor {name!r} has shape {tuple(t.shape)}, "
                                 f"config.json gives {tuple(shape)}")
        return t


def safetensors_files(folder: Path) -> list[Path]:
    """The weight files of a HF folder: the shards an index names, else every *.safetensors."""
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        try:
            names = sorted(set(json.loads(index.read_text())["weight_map"].values()))
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ModelFileError(f"{index}: not a safetensors index ({e})") from None
        missing = [n for n in names if not (folder / n).is_file()]
        if missing:
            raise ModelFileError(f"{index}: names {missing[0]}, which is missing")
        return [folder / n for n in names]
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        found = sorted(p.name for p in folder.glob("*.bin")) + sorted(p.name for p in folder.glob("*.pt"))
        extra = f" (found {', '.join(found)}: pickles are never loaded)" if found else ""
        raise ModelFileError(f"{folder}: no *.safetensors weights{extra}")
    return files


def read_safetensors(files: list[Path]) -> dict[str, torch.Tensor]:
    """Every tensor of `files`; a truncated or corrupt file is one ModelFileError naming it."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    out: dict[str, torch.Tensor] = {}
    for f in files:
        try:
            part = load_file(str(f))
        except (SafetensorError, OSError, ValueError, RuntimeError) as e:
            raise ModelFileError(f"{f}: not a readable safetensors file (truncated or "
                                 f"corrupt: {str(e).splitlines()[0] if str(e) else type(e).__name__})") from None
        dup = set(part) & set(out)
        if dup:
            raise ModelFileError(f"{f}: tensor {sorted(dup)[0]!r} is also in another shard")
        out.update(part)
    return out


# --- file digests, once per file change ------------------------------------------------------

_MEMO: dict[tuple, str] = {}


def _stat_key(path: Path) -> tuple:
    st = path.stat()
    return (str(path.resolve()), st.st_ino, st.st_size, st.st_mtime_ns)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


def file_digest(path: Path, cache_dir: Path | None) -> str:
    """SHA-256 of a file, hashed again only when the file changes (inode, size or mtime): the
    result is kept in this process and in a small JSON sidecar under `cache_dir/file-hashes/`."""
    path = Path(path)
    key = _stat_key(path)
    if key in _MEMO:
        return _MEMO[key]
    side = None
    if cache_dir is not None:
        side = Path(cache_dir) / "file-hashes" / (hashlib.sha256(key[0].encode()).hexdigest()[:24]
                                                  + ".json")
        try:
            rec = json.loads(side.read_text())
            if tuple(rec["key"]) == key:
                _MEMO[key] = rec["sha256"]
                return rec["sha256"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    digest = sha256_file(path)
    if _stat_key(path) != key:                       # changed while being read: do not record
        raise ModelFileError(f"{path}: changed while it was being read")
    _MEMO[key] = digest
    if side is not None:
        try:
            side.parent.mkdir(parents=True, exist_ok=True)
            with replacing(side) as tmp:
                tmp.write_text(json.dumps({"key": list(key), "sha256": digest}))
        except Exception:           # a read-only cache only costs a re-hash next time
            pass
    return digest


def forget_digests() -> None:
    """Drop this process's memo (tests: a file changed within one mtime tick)."""
    _MEMO.clear()

