"""The voice interface: text -> a WAV file and its length in seconds, cached by content.

A backend (piper.py, espeak.py) only turns texts into raw WAVs (`synthesize`) and says what
determines its sound (`identity`: engine, voice, versions, rate). `speak` does the rest for
every backend: it looks each text up in the audio cache
`$LAYERWISE_CACHE/voice/<sha256>.wav`, keyed by the text, the backend's identity and the
loudness settings, synthesises only the missing ones (in one batch), normalises them
(loudness.py) and writes them atomically. A re-render with unchanged narration synthesises
nothing.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
import wave
from dataclasses import dataclass
from pathlib import Path

from ..atomic import ensure_dir, replacing
from ..errors import LayerwiseError
from . import loudness


class VoiceError(LayerwiseError):
    """A voice backend is missing or failed (one line, no traceback). `text`: the text it
    failed on, when it is one text's fault (the caller names its file and line)."""

    def __init__(self, message: str, text: str | None = None):
        super().__init__(message)
        self.text = text


@dataclass(frozen=True)
class Clip:
    """One spoken text: its normalised WAV and length (seconds, from the file itself)."""
    text: str
    path: Path
    seconds: float


@dataclass
class Stats:
    """What `speak` did: texts from the cache, texts synthesised, and how long that took."""
    cached: int = 0
    synthesised: int = 0
    synth_seconds: float = 0.0          # wall time in the backend, normalisation included
    audio_seconds: float = 0.0          # length of the speech synthesised

    def add(self, other: "Stats") -> None:
        self.cached += other.cached
        self.synthesised += other.synthesised
        self.synth_seconds += other.synth_seconds
        self.audio_seconds += other.audio_seconds


class Backend:
    """Subclasses set `name` and implement `identity` and `synthesize`."""
    name = ""
    silent = False          # the `none` backend: no sound, the plan stays as it was

    def __init__(self, words_per_minute: float = 150.0):
        self.words_per_minute = float(words_per_minute)

    def identity(self) -> dict:
        """Everything that changes the sound (engine and voice versions, rate...): part of
        the cache key and recorded in the plan."""
        raise NotImplementedError

    def synthesize(self, texts: list[str], folder: Path) -> list[Path]:
        """Raw 16-bit WAVs in `folder`, one per text, in order. Raise VoiceError on failure."""
        raise NotImplementedError

    def speak(self, text: str, cache_dir: Path) -> Clip:
        """The interface in one call: text -> (wav file, seconds)."""
        return speak(self, [text], cache_dir)[0][0]


def cache_key(backend: Backend, text: str) -> str:
    blob = json.dumps({"text": text, "backend": backend.name, "identity": backend.identity(),
                       "loudness": loudness.SETTINGS}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def wav_seconds(path: Path) -> float | None:
    """Length of a readable, non-empty 16-bit WAV; None if it is damaged or empty."""
    try:
        with wave.open(str(path)) as w:
            if w.getsampwidth() != 2 or w.getnframes() == 0:
                return None
            return w.getnframes() / float(w.getframerate())
    except (wave.Error, EOFError, OSError):
        return None


def speak(backend: Backend, texts: list[str], cache_dir: Path) -> tuple[list[Clip], Stats]:
    """A Clip per text (same order), from the cache or synthesised now in one batch."""
    folder = Path(cache_dir) / "voice"
    stats = Stats()
    paths = {t: folder / f"{cache_key(backend, t)}.wav" for t in dict.fromkeys(texts)}
    seconds = {t: wav_seconds(p) for t, p in paths.items() if p.is_file()}
    missing = [t for t in paths if seconds.get(t) is None]     # a damaged entry is redone
    stats.cached = len(paths) - len(missing)
    if missing:
        ensure_dir(folder, "voice cache folder")
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(dir=folder, prefix=".synth-") as tmp:
            raw = backend.synthesize(missing, Path(tmp))
            if len(raw) != len(missing):
                raise VoiceError(f"voice {backend.name!r} made {len(raw)} files for "
                                 f"{len(missing)} texts")
            for text, wav in zip(missing, raw):
                try:
                    x, rate = loudness.read_wav(wav)
                except (wave.Error, EOFError, OSError, ValueError) as e:
                    raise VoiceError(f"voice {backend.name!r} wrote an unreadable file for "
                                     f"{text[:60]!r}: {e}", text) from None
                if len(x) == 0:
                    raise VoiceError(f"voice {backend.name!r} produced no sound for "
                                     f"{text[:60]!r}", text)
                with replacing(paths[text], suffix=".wav") as out:
                    loudness.write_wav(out, loudness.normalise(x, rate), rate)
                seconds[text] = wav_seconds(paths[text])
                stats.audio_seconds += seconds[text]
        stats.synthesised = len(missing)
        stats.synth_seconds = time.perf_counter() - start
    return [Clip(t, paths[t], round(seconds[t], 4)) for t in texts], stats
