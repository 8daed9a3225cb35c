"""Moments: the words a template's handlers wait for live in the storyboard (`moments:`), are
checked at plan time, and give the scene the same times the words typed in the template did."""

import dataclasses
import json
import textwrap
from pathlib import Path

import pytest

from layerwise_core.cli import main
from layerwise_core.errors import StoryboardError
from layerwise_core.plans import beat_json, prepare_plan
from layerwise_core.storyboard.schema import Cue, load_storyboard, validate_text
from layerwise_templates import TEMPLATES, storyboard_path
from layerwise_core.voice.cues import split_cues

BANK = storyboard_path("bank_drift")
STREAM = storyboard_path("residual_stream")

# bank_drift's moments (rebuilt storyboard, issue 23-26): (beat, moment) -> the cue that says
# them and the words, as the scene would have typed them (`typed` below)
TYPED = {
    ("extend", "sentences"): (0, "three sentences"),
    ("extend", "reference"): (1, "sentence one's bank"),
    ("extend", "each_other"): (1, "each of the others"),
    ("extend", "starts"): (2, "starts at"),               # round 36
    ("extend", "same_token"): (2, "the same token"),
    ("extend", "same_pos"): (2, "same position"),
    ("extend", "money_end"): (3, "It ends at"),
    ("extend", "other_pos"): (4, "another position"),     # round 38
    ("extend", "river_end"): (4, "and ends at"),
    ("extend", "turn_away"): (5, "At first sight"),
    ("baseline", "unrelated"): (0, "different words point"),   # round 38: one name
    ("baseline", "baseline_peak"): (2, "It rises from"),
    ("baseline", "base_falls"): (3, "That fall"),           # round 37: its own sentence
    ("baseline", "mostly"): (3, "about three quarters"),   # round 38
    ("baseline", "falls_far"): (5, "the money bank falls"),
    ("baseline", "subtract"): (4, "Subtract the baseline"),
    ("baseline", "adjusted_ends"): (5, "At the output"),
    ("baseline", "rises"): (5, "on that last step"),
    ("baseline", "lesson"): (6, "So the money"),          # round 39: the baseline's lesson
    ("drift", "cloud"): (0, "Take all"),
    ("drift", "directions"): (2, "PCA, principal"),
    ("drift", "plane"): (2, "projects every state"),
    ("drift", "axes"): (3, "The first, PC1"),
    ("drift", "pc2"): (3, "the second, PC2"),
    ("drift", "same_path"): (4, "all three banks take"),
    ("drift", "in_plane"): (5, "In the plane"),
    ("drift", "sentence_moves"): (5, "in the full space"),
    ("drift", "off_plane"): (6, "What tells"),
    # round 35: the closing on the gap's chart alone; round 36: recalled, with the caveat;
    # round 37: both results, the move split's on its bars; round 40: the split cut, the
    # plane's result said of the plane
    ("answer", "close_gap"): (0, "for this one pair"),
    ("answer", "close_end"): (0, "the same-sense bank"),
    ("answer", "close_last"): (0, "most of it"),
    ("answer", "close_shared"): (1, "both river sentences"),
    ("answer", "close_move"): (2, "And in a PCA plot"),
    ("answer", "close_off"): (2, "what sets them apart"),
    ("gap", "gap_defined"): (0, "Take the gap"),
    ("gap", "near_curve"): (0, "sentence three's cosine"),   # round 36
    ("gap", "far_curve"): (0, "minus sentence two's"),
    ("gap", "bars"): (0, "a bar at every"),
    ("gap", "widest"): (4, "its widest"),
    ("gap", "cancels"): (1, "baseline cancels"),
    ("gap", "together"): (2, "Up to X"),
    ("gap", "opens"): (3, "From X three"),
    ("gap", "gap_end"): (4, "At the output"),              # round 37: its own sentence
    ("gap", "caveat"): (5, "one pair per sense"),
    ("gap", "shared"): (5, "both river sentences"),
    ("gap", "position"): (5, "position works against"),
}


# the same for residual_stream's scene; "the {n}" stands for
# `"the " + str(d["check"]["n_updates"])`, the one word it built from the plan
TYPED_STREAM = {
    ("tokens", "space_mark"): (1, "The mark"),
    ("embedding", "numbers"): (0, "of zero:"), ("embedding", "length"): (0, "its length"),
    ("embedding", "alone"): (1, "alone"),
    ("plane", "states"): (0, "states"), ("plane", "spread"): (1, "PCA picks"),
    ("plane", "shadow"): (2, "shadow"), ("plane", "bars"): (4, "bars"),
    ("copies", "formula"): (0, "rotated"), ("copies", "range"): (1, "stays between"),
    ("copies", "x_grows"): (1, "while X"), ("direction", "turns"): (0, "does change"),
    ("direction", "most"): (3, "24 and 29"), ("direction", "apart"): (4, "they take X far"),
    # the draft's direction beat (its own id: it says less, the turns named at sentence 2)
    ("turns", "turns"): (0, "does change"), ("turns", "most"): (0, ""),
    ("turns", "apart"): (2, "they take X far"),
    ("sizes", "norm_first"): (0, "from"), ("sizes", "norm_last"): (0, "to "),
    ("sizes", "growth"): (0, "about"), ("sink", "others"): (0, "No token"),
    ("sink", "first_token"): (0, "ever longer"),
    ("sink", "outlier_norm"): (0, "grows"), ("sink", "share"): (2, "percent"),
    ("attn0", "divides"): (1, "divided"), ("attn0", "shrinks"): (2, "turns"),
    ("layer1", "divides"): (0, ""), ("layer1", "shrinks"): (0, ""),
    ("ffn0", "update"): (0, "adds its update"), ("ffn0", "lengths"): (0, ""), ("ffn0", "zoom"): (1, "zooms out"),
    ("layer1", "lengths"): (1, "Lengths"), ("layer1", "zoom"): (0, ""),
    # round 35: "From layer 2 on, every layer does the same two additions" cut (a claim of
    # sameness the picture did not show)
    ("layer1", "every"): (0, ""), ("ffn0", "every"): (0, ""),
    ("layer1", "update"): (0, "feed-forward network adds"),
    ("journey_last", "largest"): (1, "The largest"), ("journey_last", "x_ends"): (2, "X ends"),
    ("journey_last", "medians"): (0, ""),
    # round 28: layers 2 to 22 summed up in one sweep; X's length after it, then the medians
    # (round 35: on the bars alone, `journey_bars`)
    ("journey_early", "reach"): (1, "After layer"),
    ("journey_early", "medians"): (2, "as a share"),
    ("journey_late", "medians"): (0, ""), ("journey0", "medians"): (0, ""),
    ("journey1", "medians"): (0, ""),
    # one middle layer to scale (the video's `zoom`; the draft's `zoom_mid`)
    ("zoom", "z_x"): (0, "Here is one"), ("zoom_mid", "z_x"): (0, "Here is one"),
    ("zoom", "z_reads"): (1, "It reads"), ("zoom_mid", "z_reads"): (1, "It reads"),
    ("journey0", "among"): (0, ""), ("journey1", "among"): (0, ""),
    # round 36: the late leg's walk starts as its FFN lengths start being read (round 37: on
    # the bars alone, up close, `journey_bars`)
    ("journey_late", "ffn_read"): (1, "Layer 23's"),
    ("journey0", "ffn_read"): (0, ""), ("journey1", "ffn_read"): (0, ""),
    ("zoom", "z_attn"): (2, "Attention adds"), ("zoom", "z_ffn"): (2, "feed-forward network adds"),
    ("zoom", "z_angle"): (2, "each at its true angle"), ("zoom", "z_next"): (3, "Both steps"),
    ("zoom_mid", "z_attn"): (2, "attention adds"),
    ("zoom_mid", "z_ffn"): (2, "feed-forward network adds"),
    ("zoom_mid", "z_angle"): (3, "true angle"), ("zoom_mid", "z_next"): (4, "Both steps"),
    ("journey_late", "reach"): (0, ""), ("journey_early", "ffn_read"): (0, ""),
    ("journey0", "dips"): (0, ""), ("journey0", "reach"): (0, ""),
    ("journey0", "close"): (0, ""),
    ("journey1", "dips"): (0, ""), ("journey1", "reach"): (0, ""),
    ("journey1", "close"): (0, ""),
    # the draft's legs (`layerwise draft`): the largest and then the medians on the last
    ("journey2", "largest"): (1, "The largest"), ("journey2", "x_ends"): (2, "Over these"),
    ("journey2", "medians"): (3, "the median"),
    ("identity", "updates"): (1, "add the"), ("identity", "is_x"): (1, "the sum is"),
    ("identity", "within"): (2, "at most"), ("identity", "every_entry"): (2, "measured"),
}


def typed(scene, i: int, words: str) -> float:
    """The kit's `said_at(i, words)` before moments (scenes/base.py, removed with the last
    template that typed its words): cue i's start plus the words' share of its characters
    times its length; the cue's start if it does not say them; now without cue i."""
    cues = scene.beat.get("cues") or []
    if not 0 <= i < len(cues):
        return scene.time
    text = cues[i]["text"]
    k = max(0, text.lower().find(words.lower()))
    return scene.cue_at(i) + float(cues[i]["duration"]) * k / max(1, len(text))


class Beat:
    """Just enough of a StoryboardScene to call its timing methods on one beat."""
    from scenes.base import StoryboardScene as _S
    said, cue_at, beat_end = _S.said, _S.cue_at, _S.beat_end

    def __init__(self, beat: dict):
        self.beat, self.beat_start, self.time, self.plan = beat, 12.5, 0.0, {}
        self.cue_shift = [0.0] + [0.37 * i for i in range(1, len(beat.get("cues", [])))]


def voiced(beat):
    """The beat as a voice would speak it: uneven sentence lengths and pauses."""
    cues, t = [], 0.0
    for i, text in enumerate(split_cues(beat.narration)):
        d = 0.061 * len(text) + 0.113 * (i % 3)
        cues.append(Cue(text, t, d))
        t += d + 0.29
    return dataclasses.replace(beat, cues=tuple(cues), duration=t)


STREAM_SHOW = {"tokens": "tokens", "embedding": "x", "plane": "plane", "copies": "copies",
               "direction": "direction", "turns": "direction",
               "attn0": "attn_out", "ffn0": "mlp_out", "layer1": "mlp_out",
               # layer1 shows both: attention's moments (said at its start) are attn_out's
               ("layer1", "divides"): "attn_out", ("layer1", "shrinks"): "attn_out",
               "journey_last": "journey_last", "journey2": "journey_last",
               "journey_early": "journey_bars", "journey_middle": "journey",
               "journey_late": "journey_bars", "journey0": "journey", "journey1": "journey",
               "sizes": "sizes", "sink": "sink", "identity": "identity",
               "zoom": "zoom", "zoom_mid": "zoom"}


@pytest.mark.parametrize("template,typed_words,show", [
    ("bank_drift", TYPED, {"extend": "similarity", "baseline": "baseline",
                           "drift": "projection", "gap": "gap",
                           "answer": "answer"}),
    ("residual_stream", TYPED_STREAM, STREAM_SHOW)], ids=["bank_drift", "residual_stream"])
def test_every_typed_word_is_a_moment_of_the_registry(template, typed_words, show):
    declared = {(s, m) for s, names in TEMPLATES[template].moments for m in names}
    assert {(show.get((b, m), show.get(b)), m) for b, m in typed_words} == declared


def same_times(sb, plan: dict, typed_words: dict) -> set:
    """Every moment of the filled storyboard `sb`, voiced, at the time its typed words gave
    (through the scene's own `said`, on synthetic cues with cue shifts)."""
    seen = set()
    for b in sb.beats:
        d = beat_json(voiced(b), sb.words_per_minute)
        scene = Beat(json.loads(json.dumps(d)))     # as the scene reads it from the plan
        for name in d.get("moments", {}):
            cue, words = typed_words[(b.id, name)]
            words = words.format(n=(plan.get("data") or {}).get("check", {}).get("n_updates"))
            assert scene.said(name) == typed(scene, cue, words), (b.id, name)
            seen.add((b.id, name))
    return seen


@pytest.mark.parametrize("path,typed_words", [(BANK, TYPED), (STREAM, TYPED_STREAM)],
                         ids=["bank_drift", "residual_stream"])
def test_moments_give_the_times_the_typed_words_gave(path, typed_words, cache_dir):
    sb, plan = prepare_plan(load_storyboard(path), cache_dir)
    ids = {b.id for b in sb.beats}           # (the draft's own legs are typed beside them)
    assert same_times(sb, plan, typed_words) == {k for k in typed_words if k[0] in ids}


def test_residual_stream_draft_moments_give_the_typed_times(tmp_path, capsys, cache_dir):
    """`layerwise draft` names the moments too; for SmolLM2 (an outlier token, the identity)
    each falls where the words typed in the template fell in the draft's own narration
    (where it does not say them, the sentence's start, as `said_at` gave)."""
    code = main(["--cache", str(cache_dir), "draft", "--model", "smollm2-135m", "--template",
                 "residual_stream", "--sentence", "I sat on the river bank.", "--focus", "bank"])
    out = capsys.readouterr().out
    assert code == 0
    path = tmp_path / "my.yaml"
    path.write_text(out)
    sb, plan = prepare_plan(load_storyboard(path), cache_dir)
    ids = {b.id for b in sb.beats}
    assert same_times(sb, plan, TYPED_STREAM) == {k for k in TYPED_STREAM if k[0] in ids}
    assert {"switch", "tokens", "embedding", "plane", "zoom_mid", "journey0", "copies",
            "sizes", "identity"} <= ids
    assert "sink" not in ids        # round 28: the first-token beat cut from drafts too


def test_a_silent_plan_does_not_wait_as_before(cache_dir):
    sb, _ = prepare_plan(load_storyboard(BANK), cache_dir)
    b = next(b for b in sb.beats if b.id == "gap")
    d = beat_json(b, sb.words_per_minute)
    assert d["moments"]["gap_end"]["cue"] == 4 and d["moments"]["gap_end"]["at"] > 0
    scene = Beat(d)
    scene.time = 40.0
    assert scene.said("gap_end") == typed(scene, 4, "At the output") == 40.0


def board(moments: str, narration: str = "Here is the flat plane, its two axes. All take the same path. "
          "In their own units; in the plane they end close. The rest is off this plane. In the "
          "full space they end apart. The answer: far.") -> str:
    return textwrap.dedent(f"""\
        template: bank_drift
        title: t
        model: minilm-l6
        sentences: ["I sat on the river bank.", "I deposited cash at the bank.", "A bank."]
        focus: bank
        beats:
          - id: drift
            show: [projection]
            caption: c
            narration: "{narration}"
            moments: {moments}
        """)


GOOD = ("{plane: flat plane, axes: its two axes, same_path: same path, cloud: 2, "
        "in_plane: in the plane, off_plane: off this plane, sentence_moves: full space, "
        "directions: Here is, pc2: two axes}")


def test_words_and_sentences_and_nth():
    b = validate_text(board(GOOD.replace("same_path: same path", "same_path: the#2")),
                      Path("sb.yaml")).beats[0]
    m = beat_json(b, 150)["moments"]
    assert m["cloud"] == {"cue": 2, "after": 0.0, "at": m["cloud"]["at"]}
    assert m["same_path"]["cue"] == 1         # "the" is said first in "the flat plane"
    assert m["in_plane"]["cue"] == 2
    assert m["in_plane"]["after"] > m["cloud"]["after"]


@pytest.mark.parametrize("moments,where,expected", [
    (GOOD.replace(", off_plane: off this plane", ""), "sb.yaml:11: "
     "beats[0].moments: missing moment off_plane: template 'bank_drift' waits for it in "
     "projection", None),
    (GOOD.replace("off this plane", "off that plane"), "sb.yaml:11: beats[0].moments.off_plane: "
     "'off that plane' is not said in this beat's narration", None),
    (GOOD.replace("same_path: same path", "same_path: the#19"), "sb.yaml:11: "
     "beats[0].moments.same_path: 'the#19' is not said", None),
    (GOOD.replace("cloud: 2", "cloud: 7"), "sb.yaml:11: "
     "beats[0].moments.cloud: sentence 7 is out of range", None),
    (GOOD[:-1] + ", dip: dip}", "sb.yaml:11: beats[0].moments.dip: 'dip' is not a moment this "
     "beat's handlers wait for; they wait for: axes, cloud, "
     "directions, in_plane, off_plane, pc2, plane, same_path, sentence_moves", None),
])
def test_bad_moments_name_file_line_field(moments, where, expected):
    with pytest.raises(StoryboardError) as e:
        validate_text(board(moments), Path("sb.yaml"))
    assert any(p.startswith(where) for p in e.value.problems), e.value.problems


def test_a_beat_without_moments_is_told_which(tmp_path):
    text = board(GOOD).replace(f"    moments: {GOOD}\n", "")
    with pytest.raises(StoryboardError) as e:
        validate_text(text, Path("sb.yaml"))
    assert any(p.startswith("sb.yaml:7: beats[0]: missing moments cloud, directions, plane, "
                            "axes, pc2, same_path, in_plane, sentence_moves, off_plane")
               for p in e.value.problems), \
        e.value.problems


def plan_cli(tmp_path, text: str, capsys, cache_dir, name: str = "bank_drift") -> tuple[int, str]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    media = tmp_path / "media"
    code = main(["--cache", str(cache_dir), "plan", "--media", str(media), str(path)])
    assert code == 0 or not (media / "plans" / f"{name}.json").exists()   # nothing written
    return code, capsys.readouterr().err


def test_plan_refuses_a_missing_moment_with_file_line_exit_2(tmp_path, capsys, cache_dir):
    text = BANK.read_text().replace('      position: "position works against"\n', "")
    code, err = plan_cli(tmp_path, text, capsys, cache_dir)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.strip() == "moments:"
                and "Take the gap" in text.splitlines()[i - 2])
    assert code == 2
    assert f"bank_drift.yaml:{line}: beats[2].moments: missing moment position" in err, err


def test_plan_refuses_words_not_in_the_filled_narration_exit_2(tmp_path, capsys, cache_dir):
    # "percent#2" is in the narration as written (placeholder names say "percent") but not
    # once the placeholders are filled: only the filled text counts
    text = BANK.read_text().replace('pc2: "the second, PC2"', 'pc2: "percent#2"')
    code, err = plan_cli(tmp_path, text, capsys, cache_dir)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "percent#2" in ln)
    assert code == 2
    assert f"bank_drift.yaml:{line}: beats[3].moments.pc2: 'percent#2' no longer " \
           f"fits the narration" in err, err


# --- residual_stream ---------------------------------------------------------------------------

def line_of(text: str, needle: str, after: str = "") -> int:
    """The 1-based line of the first `needle` line after the first line containing `after`."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if after in ln)
    return next(i for i, ln in enumerate(lines[start:], start + 1) if needle in ln)


# (edit of the storyboard, the line it names: (its text, after a line with), the error after it)
STREAM_FAULTS = {
    "missing moment": (('      within: "at most"\n', ""), ("moments:", "id: identity"),
                       "beats[13].moments: missing moment within: template 'residual_stream' "
                       "waits for it in identity"),
    "words not said": (('alone: "alone"', 'alone: "takes"'), ('alone: "takes"', ""),
                       "beats[2].moments.alone: 'takes' is not said in this beat's narration"),
    # "updates#2" is said as written ("the {data.check.n_updates} updates": the placeholder's
    # name says it first) but not once the number is filled in
    "words gone once filled": (('updates: "add the"', 'updates: "updates#2"'),
                               ('updates: "updates#2"', ""),
                               "beats[13].moments.updates: 'updates#2' no longer fits the "
                               "narration"),
}


@pytest.mark.parametrize("fault", list(STREAM_FAULTS))
def test_residual_stream_plan_refuses_a_wrong_moment_exit_2(fault, tmp_path, capsys, cache_dir):
    (old, new), (needle, after), message = STREAM_FAULTS[fault]
    text = STREAM.read_text().replace(old, new)
    assert text != STREAM.read_text()
    code, err = plan_cli(tmp_path, text, capsys, cache_dir, "residual_stream")
    assert code == 2
    assert f"residual_stream.yaml:{line_of(text, needle, after)}: {message}" in err, err
