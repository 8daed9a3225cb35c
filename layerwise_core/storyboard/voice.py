"""Spoken narration: every narrated beat (without its own `audio:` recording) gets cues.

The narration is split into sentences (voice/cues.py); each is spoken separately by the voice
backend (cached), so each cue's start and length are those of its own WAV. Cues follow each
other with CUE_GAP seconds between them; the beat lasts until its last cue ends plus
VOICE_PAD, or its own `duration` if the storyboard set a longer one (else at least
MIN_BEAT_SECONDS). The words-per-minute estimate is only for silent plans. With the `none`
voice the storyboards are returned unchanged. Each cue keeps its text with digits (subtitles);
the voice is given its spoken form, numbers in words (voice/spoken.py: "0.76" -> "zero point
seven six"), and the cue records that as `spoken` when it differs.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from ..errors import StoryboardError
from ..voice import Stats, VoiceError, get_backend, speak
from ..voice.cues import split_cues
from ..voice.loudness import TARGET_LUFS
from ..voice.spoken import spoken
from .schema import MIN_BEAT_SECONDS, Cue, Storyboard

CUE_GAP = 0.25          # seconds of silence between two cues of a beat
VOICE_PAD = 0.5         # seconds after a beat's last cue before the next beat
_SPEAKABLE = re.compile(r"\w")


def with_voice(boards: list[Storyboard], voice: str,
               cache_dir: Path) -> tuple[list[Storyboard], Stats]:
    """The storyboards with cues and durations from `voice`; what the voice did."""
    total = Stats()
    if get_backend(voice).silent:
        return list(boards), total
    backends = [get_backend(voice, sb.words_per_minute) for sb in boards]
    problems, groups, where = [], {}, {}
    for sb, backend in zip(boards, backends):
        key = json.dumps(backend.identity(), sort_keys=True)
        texts = groups.setdefault(key, (backend, {}))[1]
        for i, b in enumerate(sb.beats):
            if b.audio or not b.narration:
                continue
            for text in map(spoken, split_cues(b.narration)):
                if not _SPEAKABLE.search(text):
                    problems.append(f"{sb.path}:{sb.line(('beats', i, 'narration'))}: "
                                    f"beats[{i}].narration: {text!r} has no words to speak")
                texts[text] = None
                where.setdefault(text, f"{sb.path}:{sb.line(('beats', i, 'narration'))}: "
                                       f"beats[{i}].narration")
    if problems:
        raise StoryboardError(problems)
    clips = {}
    for key, (backend, texts) in groups.items():
        try:
            got, stats = speak(backend, list(texts), cache_dir)
        except VoiceError as e:
            text = getattr(e, "text", None)
            if text in where:
                raise StoryboardError([f"{where[text]}: {e}"]) from None
            raise
        total.add(stats)
        clips.update({(key, c.text): c for c in got})
    out = []
    for sb, backend in zip(boards, backends):
        key = json.dumps(backend.identity(), sort_keys=True)
        beats = []
        for b in sb.beats:
            if b.narration and not b.audio:
                cues, t = [], 0.0
                for text in split_cues(b.narration):
                    said = spoken(text)
                    c = clips[(key, said)]
                    cues.append(Cue(text=text, start=round(t, 4), duration=c.seconds,
                                    audio=str(c.path.resolve()),
                                    spoken=said if said != text else None))
                    t += c.seconds + CUE_GAP
                end = cues[-1].start + cues[-1].duration
                floor = b.given_duration if b.given_duration is not None else MIN_BEAT_SECONDS
                b = dataclasses.replace(b, cues=tuple(cues),
                                        duration=max(floor, round(end + VOICE_PAD, 3)))
            beats.append(b)
        record = {"backend": backend.name, **backend.identity(), "loudness_lufs": TARGET_LUFS,
                  "cue_gap": CUE_GAP, "pad": VOICE_PAD}
        out.append(dataclasses.replace(sb, beats=tuple(beats), voice=record))
    return out, total
