"""VOICE=draft: Debian's espeak-ng (offline, robotic) as a scratch voice, at the storyboard's
`words_per_minute`. espeak-ng is a separate GPL program: it is run, never linked."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from .base import Backend, VoiceError


def _exe() -> str:
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise VoiceError("VOICE=draft needs espeak-ng: apt-get install espeak-ng "
                         "(make does this when VOICE=draft)")
    return exe


@lru_cache(maxsize=1)
def espeak_version() -> str:
    r = subprocess.run([_exe(), "--version"], capture_output=True, text=True)
    return r.stdout.strip().splitlines()[0] if r.stdout.strip() else "unknown"


class Espeak(Backend):
    name = "draft"

    def identity(self) -> dict:
        return {"engine": "espeak-ng", "engine_version": espeak_version(), "voice": "en",
                "words_per_minute": int(self.words_per_minute)}

    def synthesize(self, texts: list[str], folder: Path) -> list[Path]:
        exe, out = _exe(), []
        for i, text in enumerate(texts):
            wav = folder / f"{i:05d}.wav"
            try:
                r = subprocess.run([exe, "-s", str(int(self.words_per_minute)), "-w", str(wav),
                                    "--", text], capture_output=True, text=True)
            except OSError as e:
                raise VoiceError(f"espeak-ng could not start: {e.strerror or e}") from None
            if r.returncode != 0:
                msg = (r.stderr.strip().splitlines() or ["no message"])[-1]
                raise VoiceError(f"espeak-ng failed (exit {r.returncode}): {msg}")
            out.append(wav)
        return out
