"""Private work folders, locks, and all-or-nothing publishing of a set of files.

A render never writes under a final name. It works in a private folder
`<media>/.work/<name>.<random>/` (one per process, held by an exclusive `flock` for the
process's lifetime, so a folder that nobody holds is known to be abandoned), and once every
file is finished and verified, `publish` moves the set (video, sections, subtitles,
manifest) into place:

  1. the list of moves is written into the work folder (`PUBLISH.json`, atomically);
  2. the final manifest is removed (a reader never trusts a video without its manifest);
  3. each file is renamed over its final name (one rename each: a final name always holds a
     complete file), and files of the old set that the new set lacks are removed;
  4. the new manifest is renamed in last, then `PUBLISH.json` is removed.

Steps 2-4 take microseconds. A crash before 1 leaves the old set untouched; a crash during
2-4 leaves `PUBLISH.json`, and the next process that sweeps the work folders (`sweep`, at
the start of every render and chapter build) finishes the moves (every new file is complete
and verified, so rolling forward is safe). Publishing and sweeping hold an exclusive lock on
the media folder, so two processes publishing into it never interleave.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from layerwise_core.atomic import (created_dirs, describe_os_error, dir_mode, ensure_dir,
                                   remove_created, write_text)
from layerwise_core.errors import OutputError

WORK = ".work"
JOURNAL = "PUBLISH.json"
CHAPTER_LOCK = ".chapter.lock"


@contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Exclusive flock on a folder (held by an open descriptor, released on close or death)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextmanager
def work_folder(media: Path, name: str) -> Iterator[Path]:
    """A private folder under `media/.work/`, removed (with the folders this call created)
    when the block ends, however it ends."""
    media = Path(media)
    created = created_dirs(media / WORK)
    ensure_dir(media, "media folder")
    fd, path = None, None
    try:
        try:
            with folder_lock(media):
                sweep(media)
                ensure_dir(media / WORK, "work folder")
                path = Path(tempfile.mkdtemp(dir=media / WORK, prefix=f"{name}."))
                os.chmod(path, dir_mode())
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)   # ours until we exit or die
        except OSError as e:
            raise OutputError(f"cannot write {describe_os_error(e, media)}") from None
        yield path
    finally:
        if path is not None:
            shutil.rmtree(path, ignore_errors=True)
        if fd is not None:
            os.close(fd)
        try:
            with folder_lock(media):
                _remove_if_empty(media / WORK)
        except OSError:
            pass
        remove_created(created)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def sweep(media: Path) -> list[Path]:
    """Finish or remove the work folders of processes that died (no one holds their lock).
    Call with the media folder locked. Returns the folders handled."""
    work = Path(media) / WORK
    handled = []
    try:
        entries = list(work.iterdir())
    except OSError:
        return handled
    for d in entries:
        try:
            fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue                                   # its process is alive
            journal = d / JOURNAL
            if journal.is_file():
                try:
                    _apply(d, Path(media), json.loads(journal.read_text(encoding="utf-8")))
                except (OSError, ValueError, KeyError):
                    continue                               # leave it for a later sweep
            shutil.rmtree(d, ignore_errors=True)
            handled.append(d)
        finally:
            os.close(fd)
    return handled


def publish(media: Path, work: Path, moves: list[tuple[Path, Path]],
            remove: list[Path] = (), extra: Callable[[], None] | None = None,
            manifest: bool = True) -> None:
    """Move `moves` (file in `work`, final path under `media`) into place as one set; with
    `manifest`, the LAST move is the manifest, removed first and renamed in after everything
    else. `remove`: final paths of the old set that the new set lacks. `extra` runs under the
    same lock after the set is in place (e.g. swapping a frames folder)."""
    media, work = Path(media), Path(work)
    plan = {"moves": [[str(Path(s).relative_to(work)), str(Path(d).relative_to(media))]
                      for s, d in moves],
            "remove": [str(Path(r).relative_to(media)) for r in remove],
            "manifest": manifest}
    with folder_lock(media):
        write_text(work / JOURNAL, json.dumps(plan, indent=1))
        try:
            _apply(work, media, plan)
        except OSError as e:
            raise OutputError(f"cannot publish {describe_os_error(e)}") from None
        if extra is not None:
            extra()


def _apply(work: Path, media: Path, plan: dict) -> None:
    """Steps 2-4 of the module docstring; idempotent, so a sweep can finish a broken one."""
    moves = list(plan["moves"])
    last = moves.pop() if plan.get("manifest", True) and moves else None
    if last and (work / last[0]).exists():
        (media / last[1]).unlink(missing_ok=True)
    files, folders = moves, set()
    for src, dst in files:
        s, d = work / src, media / dst
        if s.exists():
            d.parent.mkdir(parents=True, exist_ok=True)
            os.replace(s, d)
            folders.add(d.parent)
    for r in plan["remove"]:
        (media / r).unlink(missing_ok=True)
    if last and (work / last[0]).exists():
        s, d = work / last[0], media / last[1]
        d.parent.mkdir(parents=True, exist_ok=True)
        os.replace(s, d)
        folders.add(d.parent)
    for f in folders:                      # make the renames durable before forgetting them
        fd = os.open(f, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    (work / JOURNAL).unlink(missing_ok=True)


def merge_cache(work_cache: Path, shared: Path) -> None:
    """Publish files a render added to its private copy of a Manim cache (Tex/, texts/) into
    the shared one, each by one rename (so a reader never sees half a file)."""
    if not work_cache.is_dir():
        return
    ensure_dir(shared, "cache folder")
    for f in work_cache.iterdir():
        if f.is_file() and not (shared / f.name).exists():
            os.replace(f, shared / f.name)


def seed_cache(shared: Path, work_cache: Path) -> None:
    """Copy a shared Manim cache into the private work folder (never hard links: a render
    must not be able to write into the shared files)."""
    work_cache.mkdir(parents=True, exist_ok=True)
    if shared.is_dir():
        for f in shared.iterdir():
            if f.is_file():
                try:
                    shutil.copyfile(f, work_cache / f.name)
                except OSError:
                    (work_cache / f.name).unlink(missing_ok=True)


@contextmanager
def chapter_lock(media: Path, waiting: Callable[[str], None]) -> Iterator[None]:
    """One chapter build per media folder: an exclusive flock on `media/.chapter.lock`,
    which holds the owner's pid. If another build holds it, `waiting(pid)` is called once and
    this one waits for it."""
    media = Path(media)
    created = created_dirs(media)
    ensure_dir(media, "media folder")
    try:
        fd = os.open(media / CHAPTER_LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as e:
        remove_created(created)
        raise OutputError(f"cannot lock {describe_os_error(e, media / CHAPTER_LOCK)}") from None
    ok = False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            waiting(pid)
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass                                          # the pid is only for the message
        yield
        ok = True
    finally:
        if not ok and created:                # a media folder this build made: leave nothing
            (media / CHAPTER_LOCK).unlink(missing_ok=True)
            remove_created(created)
        os.close(fd)
