"""Atomic file replacement: write to a temporary file in the same folder, fsync, rename.

A reader (or a crash) never sees half a file, and a failed write leaves the old file intact.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def replacing(path: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """`with replacing(p) as tmp: write(tmp)` -> `tmp` becomes `p` only if the block succeeds.

    `suffix` lets writers that choose a format by extension (e.g. ".mp4") see the right one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    try:
        yield Path(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> Path:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)
