"""Narration voices behind one interface (base.Backend: text -> WAV + seconds), cached.

`BACKENDS` is the one registry (CLI choices, Makefile VOICE=...):
- `piper` (default for `make render` / `make chapter`): a neural voice, offline (piper.py);
- `draft`: espeak-ng, a robotic scratch voice (espeak.py);
- `none`: no sound; plans are exactly what they were before voices existed.
Adding an engine is one module with a Backend subclass and one line here; scenes never change.
"""

from __future__ import annotations

from .base import Backend, Clip, Stats, VoiceError, speak
from .espeak import Espeak
from .piper import Piper


class Silent(Backend):
    name = "none"
    silent = True

    def identity(self) -> dict:
        return {}

    def synthesize(self, texts, folder):
        raise VoiceError("the 'none' voice does not speak")


BACKENDS: dict[str, type[Backend]] = {"piper": Piper, "draft": Espeak, "none": Silent}
DEFAULT = "piper"


def get_backend(name: str, words_per_minute: float = 150.0) -> Backend:
    try:
        cls = BACKENDS[name]
    except KeyError:
        raise VoiceError(f"unknown voice {name!r}; known: {', '.join(BACKENDS)}") from None
    return cls(words_per_minute)


__all__ = ["BACKENDS", "DEFAULT", "Backend", "Clip", "Stats", "VoiceError", "get_backend",
           "speak"]
