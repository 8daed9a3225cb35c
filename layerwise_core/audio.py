"""Narration audio: how long a recorded file lasts (voices are in layerwise_core/voice/)."""

from __future__ import annotations

import wave
from pathlib import Path

from .errors import LayerwiseError


class AudioError(LayerwiseError):
    """A narration audio file is missing or unreadable."""


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
