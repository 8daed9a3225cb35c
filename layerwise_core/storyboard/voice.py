"""VOICE=draft: give every narrated beat without recorded audio an espeak-ng scratch track."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ..audio import audio_seconds, speak
from .schema import AUDIO_PAD, Storyboard


def with_draft_voice(sb: Storyboard, folder: Path) -> Storyboard:
    beats = []
    for b in sb.beats:
        if b.narration and not b.audio:
            wav = speak(b.narration, folder / f"{b.id}.wav", sb.words_per_minute)
            seconds = round(audio_seconds(wav) + AUDIO_PAD, 3)
            b = dataclasses.replace(b, audio=str(wav.resolve()), duration=max(b.duration, seconds))
        beats.append(b)
    return dataclasses.replace(sb, beats=tuple(beats))
