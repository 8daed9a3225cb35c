"""Atomic file and folder replacement: write beside the target, fsync, rename.

A reader (or a crash) never sees half a file, and a failed write leaves the old file intact
and no temporary file behind. Files get the mode a plain `open(..., "w")` would give
(0666 & ~umask), not mkstemp's 0600.

`replacing(path)`        -> a temporary file that becomes `path` only if the block succeeds.
`replacing_dir(path)`    -> a temporary folder that replaces the folder `path` as a whole.
`write_text`, `write_bytes` are the one-call forms. Filesystem failures (read-only, disk full,
a file where a folder should be, ...) surface as `OutputError`: one line naming the path.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import OutputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a newly created regular file gets under the current umask."""
    return 0o666 & ~_umask()


def dir_mode() -> int:
    return 0o777 & ~_umask()


def describe_os_error(e: OSError, path: Path | str | None = None) -> str:
    """One line for a filesystem failure: `<path>: <what went wrong>`."""
    where = path if path is not None else (e.filename or "")
    reasons = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
               errno.EROFS: "read-only file system", errno.EACCES: "permission denied",
               errno.EPERM: "operation not permitted", errno.ENOTDIR: "a path component is a file, "
               "not a folder", errno.EISDIR: "is a folder, not a file", errno.ENOENT:
               "no such file or folder", errno.EEXIST: "already exists",
               errno.ENAMETOOLONG: "name too long"}
    reason = reasons.get(e.errno, e.strerror or type(e).__name__)
    if e.filename and str(e.filename) != str(where):
        reason += f" ({e.filename})"
    return f"{where}: {reason}"


def ensure_dir(path: Path, what: str = "folder") -> Path:
    """mkdir -p that reports a file in the way or an unwritable place as one OutputError."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in [path, *path.parents] if p.exists() and not p.is_dir()), path)
        raise OutputError(f"{path}: cannot create {what}: {blocker} is a file, not a "
                          f"folder") from None
    except OSError as e:
        raise OutputError(f"cannot create {what} {describe_os_error(e, path)}") from None
    return path


def created_dirs(path: Path) -> list[Path]:
    """The folders `mkdir -p path` would create, outermost first (to remove them on failure)."""
    missing = []
    p = Path(path)
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    return list(reversed(missing))


def remove_created(dirs: list[Path]) -> None:
    """Remove the folders `created_dirs` listed, innermost first, while they are empty."""
    for d in reversed(dirs):
        try:
            d.rmdir()
        except OSError:
            break


@contextmanager
def replacing(path: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """`with replacing(p) as tmp: write(tmp)` -> `tmp` becomes `p` only if the block succeeds.

    `suffix` lets writers that choose a format by extension (e.g. ".mp4") see the right one.
    On any failure the temporary file and the folders this call created are removed and the
    old `p` is untouched; OSErrors become one-line `OutputError`s."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder, not a file (give a file name)")
    if path.exists() and not path.is_file():    # never rename over /dev/null, a fifo, a socket
        raise OutputError(f"{path}: not a regular file; refusing to replace it")
    created = created_dirs(path.parent)
    tmp, ok = None, False
    try:
        ensure_dir(path.parent)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
        os.fchmod(fd, file_mode())
        os.close(fd)
        yield Path(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
        ok = True
    except OSError as e:
        raise OutputError(f"cannot write {describe_os_error(e, path)}") from None
    finally:
        if not ok:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            remove_created(created)


@contextmanager
def replacing_dir(path: Path) -> Iterator[Path]:
    """`with replacing_dir(d) as tmp: fill(tmp)` -> the folder `tmp` becomes `d` as a whole.

    The old `d` (if any) is moved aside and deleted only after the new one is in place, so a
    failure (or Ctrl-C) inside the block leaves the old `d` intact and no temporary folder;
    a crash between the two renames leaves the old folder as `.<name>.old-*` beside it."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputError(f"{path}: is a file, not a folder")
    created = created_dirs(path.parent)
    tmp = old = None
    try:
        ensure_dir(path.parent)
        tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.new-"))
        os.chmod(tmp, dir_mode())
        yield tmp
        if path.exists():
            old = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.old-"))
            os.replace(path, old / "d")
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        if old is not None and (old / "d").exists() and not path.exists():
            os.replace(old / "d", path)          # put the old folder back
        raise OutputError(f"cannot write {describe_os_error(e, path)}") from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if not path.exists():
            remove_created(created)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def write_text(path: Path, text: str) -> Path:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_bytes(path: Path, data: bytes) -> Path:
    with replacing(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)
