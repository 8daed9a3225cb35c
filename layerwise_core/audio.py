"""Narration audio: how long a recorded file lasts, and an offline draft voice (espeak-ng)."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

from .errors import LayerwiseError


class AudioError(LayerwiseError):
    """A narration audio file is missing or unreadable, or the draft voice is unavailable."""


def audio_seconds(path: Path) -> float:
    """Duration of a WAV (standard library) or any format PyAV can read."""
    path = Path(path)
    if not path.is_file():
        raise AudioError(f"no audio file {path}")
    try:
        if path.suffix.lower() == ".wav":
            with wave.open(str(path)) as w:
                return w.getnframes() / float(w.getframerate())
        import av
        with av.open(str(path)) as c:
            if c.duration is None:
                raise AudioError(f"{path}: unknown duration")
            return c.duration / 1e6
    except (wave.Error, EOFError, OSError, ValueError) as e:
        raise AudioError(f"{path}: not readable audio ({e})") from None
    except ImportError:
        raise AudioError(f"{path}: only .wav is readable without PyAV") from None


def speak(text: str, out: Path, words_per_minute: float) -> Path:
    """A scratch narration track with Debian's espeak-ng (offline)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise AudioError("VOICE=draft needs espeak-ng: apt-get install espeak-ng "
                         "(make does this when VOICE=draft)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.wav")
    subprocess.run([exe, "-s", str(int(words_per_minute)), "-w", str(tmp), text], check=True,
                   capture_output=True)
    tmp.replace(out)
    return out
