"""Loudness: every spoken cue at -16 LUFS integrated (ITU-R BS.1770, `pyloudnorm`), peaks at
most -1 dBFS, and without the silence a voice engine leaves around a sentence.

A voice engine's loudness varies from sentence to sentence (Piper scales each one to full-scale
peaks: measured -16.5 to -22 LUFS). Each cue is brought to the target with one gain; where
that would push a peak past the ceiling, a look-ahead limiter lowers just that peak (a gain
that reaches its minimum before the peak and recovers after, over `LIMIT_WINDOW` seconds),
then the gain is corrected again. A track made of cues at -16 LUFS, with silence between them
(BS.1770 gates silence out), measures -16 LUFS as a whole.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

TARGET_LUFS = -16.0
CEILING_DBFS = -1.0
SILENCE_DBFS = -50.0        # below this a cue's start and end are trimmed ...
KEEP_LEAD = 0.02            # ... down to this much silence before the speech (seconds)
KEEP_TAIL = 0.05            # ... and this much after it
LIMIT_WINDOW = 0.01         # seconds over which the limiter's gain moves
MIN_MEASURE = 0.4           # BS.1770 needs one 400 ms block; shorter cues are measured looped
# Changing any of these changes the sound: they are part of the audio cache key.
SETTINGS = {"target_lufs": TARGET_LUFS, "ceiling_dbfs": CEILING_DBFS,
            "silence_dbfs": SILENCE_DBFS, "keep": [KEEP_LEAD, KEEP_TAIL],
            "limit_window": LIMIT_WINDOW, "version": 1}


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """Mono float samples in [-1, 1] and the sample rate of a 16-bit PCM WAV."""
    with wave.open(str(path)) as w:
        rate, channels, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        raw = w.readframes(w.getnframes())
    if width != 2:
        raise ValueError(f"{path}: {8 * width}-bit samples, expected 16-bit PCM")
    x = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    if channels > 1:
        x = x.reshape(-1, channels).mean(axis=1)
    return x, rate


def write_wav(path: Path, x: np.ndarray, rate: int) -> None:
    pcm = np.clip(np.round(x * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def loudness(x: np.ndarray, rate: int) -> float:
    """Integrated loudness in LUFS (-inf for silence); short sounds are measured looped."""
    import pyloudnorm
    if len(x) == 0:
        return float("-inf")
    need = int(np.ceil(MIN_MEASURE * rate)) + 1
    if len(x) < need:
        x = np.tile(x, need // len(x) + 1)
    return float(pyloudnorm.Meter(rate).integrated_loudness(x))


def trim(x: np.ndarray, rate: int) -> np.ndarray:
    """Cut the silence before and after the speech, keeping KEEP_LEAD / KEEP_TAIL of it."""
    loud = np.nonzero(np.abs(x) > 10 ** (SILENCE_DBFS / 20))[0]
    if len(loud) == 0:
        return x
    a = max(0, loud[0] - int(KEEP_LEAD * rate))
    b = min(len(x), loud[-1] + 1 + int(KEEP_TAIL * rate))
    return x[a:b]


def limit(x: np.ndarray, rate: int, ceiling: float) -> np.ndarray:
    """Look-ahead peak limiter: |result| <= ceiling, gain changes spread over LIMIT_WINDOW."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d
    need = np.minimum(1.0, ceiling / np.maximum(np.abs(x), 1e-12))
    if need.min() >= 1.0:
        return x
    w = max(1, int(LIMIT_WINDOW * rate)) | 1                 # odd: centred windows
    # every window of the average contains the sample, and each value averaged is a minimum
    # over a window that contains it too, so the smoothed gain never exceeds `need`
    gain = uniform_filter1d(minimum_filter1d(need, size=2 * w - 1, mode="nearest"), size=w,
                            mode="nearest")
    return np.clip(x * np.minimum(gain, need), -ceiling, ceiling)


def normalise(x: np.ndarray, rate: int, target: float = TARGET_LUFS) -> np.ndarray:
    """`x` trimmed, at `target` LUFS (to within 0.1 LU) with peaks at most CEILING_DBFS."""
    x = trim(x, rate)
    ceiling = 10 ** (CEILING_DBFS / 20)
    level = loudness(x, rate)
    if not np.isfinite(level):
        return x                                            # silence stays silence
    for _ in range(6):
        x = limit(x * 10 ** ((target - level) / 20), rate, ceiling)
        level = loudness(x, rate)
        if abs(level - target) < 0.1:
            break
    return x
