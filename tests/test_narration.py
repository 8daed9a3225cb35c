"""Narration timing: speaking-rate durations (silent plans), recorded audio, the draft voice."""

from __future__ import annotations

import math
import struct
import subprocess
import sys
import wave
from pathlib import Path

import pytest

import framecheck as fc
from layerwise_core.errors import StoryboardError
from layerwise_core.storyboard.schema import narration_seconds, validate_text

BOARD = """\
template: toy_loop
title: Narrated toy
model: toy-2d
sentences: [bank]
focus: bank
words_per_minute: {wpm}
beats:
  - id: code
    show: [code, x]
    caption: with audio
    narration: one two three
    {audio}
  - id: step
    show: [v, update]
    caption: by speaking rate
    narration: {words}
"""


def tone(path, seconds: float, rate: int = 22050) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate)))
                               for i in range(int(seconds * rate))))


def board(tmp_path, wpm=150, audio="", words="a b c d e f g h i j k l m n o p q r s t"):
    path = tmp_path / "narrated.yaml"
    text = BOARD.format(wpm=wpm, audio=audio, words=words)
    path.write_text(text)
    return path, validate_text(text, path)


def test_duration_follows_speaking_rate(tmp_path):
    _, sb = board(tmp_path, wpm=120)
    assert sb.beats[1].duration == 10.0            # 20 words at 120 words a minute
    assert sb.beats[0].duration == 2.0             # three words: the minimum beat
    _, fast = board(tmp_path, wpm=240)
    assert fast.beats[1].duration == 5.0
    assert narration_seconds("", 150) == 2.0


def test_beat_lasts_as_long_as_its_audio(tmp_path):
    tone(tmp_path / "intro.wav", 3.5)
    _, sb = board(tmp_path, audio="audio: intro.wav")
    assert sb.beats[0].audio == str((tmp_path / "intro.wav").resolve())
    assert sb.beats[0].duration == pytest.approx(3.8)


def test_missing_audio_is_a_storyboard_error(tmp_path):
    path = tmp_path / "narrated.yaml"
    path.write_text(BOARD.format(wpm=150, audio="audio: nope.wav", words="x"))
    with pytest.raises(StoryboardError) as e:
        validate_text(path.read_text(), path)
    assert "narrated.yaml:12: beats[0].audio: no audio file" in str(e.value)


@pytest.mark.render
def test_audio_is_mixed_into_the_video(tmp_path, cache_dir):
    import av

    from layerwise_core.plans import build_plan, write_plan
    tone(tmp_path / "intro.wav", 3.5)
    path, sb = board(tmp_path, audio="audio: intro.wav")
    write_plan(build_plan(sb, cache_dir), tmp_path / "media" / "plans" / "narrated.json")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--media", str(tmp_path / "media"),
                        str(path)], cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with av.open(str(tmp_path / "media" / "videos" / "480p15" / "narrated.mp4")) as c:
        assert len(c.streams.audio) == 1
        samples = sum(f.samples for f in c.decode(audio=0))
        rate = c.streams.audio[0].rate
        video_s = c.streams.video[0].frames / 15
    assert samples / rate >= 3.4                     # the whole recording is in
    assert video_s >= sum(b.duration for b in sb.beats) - 1 / 15


def test_draft_voice_gives_every_narrated_beat_cues(tmp_path):
    """VOICE=draft (espeak-ng, which make installs): every narrated beat is spoken, cue by
    cue (the voice itself is tested in test_voice.py)."""
    from layerwise_core.storyboard.voice import with_voice
    _, sb = board(tmp_path, wpm=150)
    (voiced,), _ = with_voice([sb], "draft", tmp_path / "cache")
    for before, after in zip(sb.beats, voiced.beats):
        assert after.audio is None and after.cues
        assert all(Path(c.audio).is_file() for c in after.cues)
        assert after.cues[-1].start + after.cues[-1].duration < after.duration
