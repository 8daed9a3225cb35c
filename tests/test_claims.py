"""Narration that cannot go stale: placeholders filled from the plan, numbers spoken as words,
`expect:` claims checked at plan time (false, malformed or unknown: file:line, exit 2, no plan),
and every number in the six storyboards from a placeholder or covered by a claim."""

from __future__ import annotations

import json
import math
import wave
from pathlib import Path

import numpy as np
import pytest

from layerwise_core.cli import main
from layerwise_core.errors import StoryboardError
from layerwise_core.storyboard.claims import ClaimError, check_claim, parse_claim
from layerwise_core.storyboard.paths import PathError
from layerwise_core.storyboard.placeholders import PlaceholderError, fill, parse
from layerwise_core.storyboard.schema import load_storyboard, validate_text
from layerwise_core.voice.base import Backend
from layerwise_core.voice.spoken import integer_words, number_words, spoken
from spoken_numbers import covered, mentions

ROOT = Path(__file__).resolve().parents[1]
STORYBOARDS = sorted((ROOT / "layerwise_templates").glob("*/*.yaml"))
PLAN = {"data": {"layers": [{"rank": 2678, "prob": 0.0123}, {"rank": 3, "prob": 0.0703},
                            {"rank": 1, "prob": 0.7725}],
                 "cos": [1.0, 0.75609734], "name": "Paris", "flags": [True]},
        "model": {"n_layers": 3, "d_model": 576}}

# a toy storyboard (the toy model traces in milliseconds); line numbers matter below
BOARD = """\
template: toy_loop
title: Claims
model: toy-2d
sentences: [bank]
focus: bank
beats:
  - id: code
    show: [code, x]
    layer: 1
    caption: "Layer {beat.layer}: X moves by {data.step} V"
    narration: "Layer {beat.layer} adds {data.step:.0%} of V. Its first entry is {data.layers[1].v[0]:.2f}."
    expect:
      - "data.step == 0.1"
      - "data.layers[1].v[0] ~= -2.49 ± 0.01"
      - "len(data.layers) >= 3"
"""


# --- placeholders -----------------------------------------------------------------------------
@pytest.mark.parametrize("text,filled", [
    ("rank {data.layers[0].rank}", "rank 2678"),
    ("rank {data.layers[0].rank:,}", "rank 2,678"),
    ("cos {data.cos[1]:.2f}", "cos 0.76"),
    ("p {data.layers[-1].prob:.0%}", "p 77%"),
    ("{data.name} wins", "Paris wins"),
    ("{{literal}} {data.cos[0]:g}", "{literal} 1"),
    ("max {max(data.layers[0:2].rank)}, of {len(data.layers)}", "max 2678, of 3"),
    ("every 2nd: {min(data.layers[0:3:2].rank)} to {max(data.layers[::2].rank)}",
     "every 2nd: 1 to 2678"),
    ("share {data.layers[1].rank / model.n_layers:.2f}", "share 1.00"),
    ("before the end: {model.n_layers - data.layers[2].rank}", "before the end: 2"),
    ("no braces at all", "no braces at all"),
])
def test_placeholders_fill_with_their_format(text, filled):
    assert fill(text, PLAN) == filled


@pytest.mark.parametrize("text,message", [
    ("a {data.cos", "'{' at character 3 is not closed"),
    ("a } b", "a lone '}' at character 3"),
    ("{data..x}", "is not a plan path"),
    ("{data.cos[1]:.2q}", "not a Python format spec"),
    ("{data.cos[1] * 2}", "is not a plan path"),
])
def test_malformed_placeholders_are_refused(text, message):
    with pytest.raises(PlaceholderError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse(text)


@pytest.mark.parametrize("text,message", [
    ("{data.ranks}", "no key 'ranks' in data (it has: cos, flags, layers, name)"),
    ("{data.layers[3].rank}", "index 3 is out of range, data.layers has 3 items"),
    ("{data.layers}", "a list of 3; a placeholder needs one number or text"),
    ("{data.flags[0]}", "{data.flags[0]} is True; a placeholder needs one number or text"),
    ("{data.name:.2f}", "cannot format 'Paris' with '.2f'"),
])
def test_unknown_paths_and_unfit_values_name_the_placeholder(text, message):
    with pytest.raises(PathError) as e:
        fill(text, PLAN)
    assert message in str(e.value)


# --- spoken forms -----------------------------------------------------------------------------
@pytest.mark.parametrize("n,words", [
    (0, "zero"), (7, "seven"), (13, "thirteen"), (40, "forty"), (77, "seventy-seven"),
    (384, "three hundred eighty-four"), (2600, "two thousand six hundred"),
    (24100, "twenty-four thousand one hundred"), (1_000_000, "one million"),
    (-12, "minus twelve"),
])
def test_integers_in_words(n, words):
    assert integer_words(n) == words


@pytest.mark.parametrize("text,words", [
    ("0.76", "zero point seven six"), ("2.18", "two point one eight"),
    ("0.0001", "zero point zero zero zero one"), ("-0.5", "minus zero point five"),
    ("3,000", "three thousand"), ("2,005", "two thousand five"), ("77%", "seventy-seven percent"),
    ("1.5e-05", "one point five times ten to the minus five"),
])
def test_numbers_in_words(text, words):
    assert number_words(text) == words


def test_spoken_form_converts_free_numbers_and_leaves_names():
    assert spoken("This is SmolLM2-135M with 30 layers and W_2, a 3rd head, GPT-4.") == \
        "This is SmolLM2-135M with thirty layers and W_2, a 3rd head, GPT-4."
    assert spoken("From 10% to 77%. Its rank: 2,005 (-3 vs 0.76).") == \
        "From ten percent to seventy-seven percent. Its rank: two thousand five (minus three " \
        "vs zero point seven six)."


# --- claims -----------------------------------------------------------------------------------
@pytest.mark.parametrize("claim,value", [
    ("data.layers[2].rank == 1", 1),
    ("data.layers[0].rank > 1000", 2678),
    ("data.layers[0].rank >= 2678", 2678),
    ("data.layers[1].rank < 4", 3),
    ("data.layers[1].rank <= 3", 3),
    ("data.cos[1] ~= 0.76 ± 0.01", 0.75609734),
    ("data.cos[1] ~= 0.76 +- 0.01", 0.75609734),
    ("data.layers[0:2].rank >= 3", [2678, 3]),
    ("data.layers[1:3:2].rank >= 3", [3]),
    ("max(data.layers[:].prob) ~= 0.77 ± 0.01", 0.7725),
    ("model.n_layers - data.layers[1].rank == 0", 0),
])
def test_true_claims_return_their_plan_value(claim, value):
    assert check_claim(parse_claim(claim), PLAN) == value


@pytest.mark.parametrize("claim,message", [
    ("data.layers[2].rank == 2", "is false: the plan has 1"),
    ("data.cos[1] ~= 0.76 ± 0.001", "is false: the plan has 0.756097"),
    ("data.layers[0:3].rank >= 3", "1 of 3 values fail, e.g. 1"),
    ("data.layers[::2].rank >= 3", "1 of 2 values fail, e.g. 1"),
    ("data.name == 1", "the plan value is 'Paris', not a number"),
])
def test_false_claims_say_what_the_plan_has(claim, message):
    with pytest.raises(ClaimError, match=None) as e:
        check_claim(parse_claim(claim), PLAN)
    assert message in str(e.value)


@pytest.mark.parametrize("claim,message", [
    ("data.cos[1] = 0.76", "is not a claim"),
    ("data.cos[1] ~= 0.76", "'~=' needs a tolerance"),
    ("data.cos[1] < 0.76 ± 0.1", "only '~=' takes a tolerance"),
    ("data.cos[1] == about 0.76", "is not a claim"),
    ("== 0.76", "is not a claim"),
    (0.76, "a claim is text"),
])
def test_malformed_claims_are_refused(claim, message):
    with pytest.raises(ClaimError) as e:
        parse_claim(claim)
    assert message in str(e.value)


def test_claim_on_a_path_the_plan_lacks():
    with pytest.raises(PathError, match="no key 'rnak'"):
        check_claim(parse_claim("data.layers[0].rnak > 1"), PLAN)


# --- the CLI: plan writes filled text, stops on a false claim ---------------------------------
def plan_cli(capsys, tmp_path, *boards):
    code = main(["--cache", str(tmp_path / "cache"), "plan", "--media", str(tmp_path / "m"),
                 *map(str, boards)])
    out, err = capsys.readouterr()
    return code, out, err


def board(tmp_path, text=BOARD, name="claims") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def test_plan_records_template_filled_text_and_checked_claims(tmp_path, capsys):
    code, out, err = plan_cli(capsys, tmp_path, board(tmp_path))
    assert code == 0, err
    beat = json.loads((tmp_path / "m" / "plans" / "claims.json").read_text())["beats"][0]
    assert beat["caption"] == "Layer 1: X moves by 0.1 V"
    assert beat["narration"] == "Layer 1 adds 10% of V. Its first entry is -2.49."
    assert beat["written"]["narration"].startswith("Layer {beat.layer} adds {data.step:.0%}")
    assert [c["claim"] for c in beat["expect"]] == ["data.step == 0.1",
                                                    "data.layers[1].v[0] ~= -2.49 ± 0.01",
                                                    "len(data.layers) >= 3"]
    assert beat["expect"][1]["value"] == pytest.approx(-2.4911, abs=1e-4)
    assert beat["expect"][2]["value"] == 3


@pytest.mark.parametrize("old,new,line,field,message", [
    ('"data.step == 0.1"', '"data.step > 0.5"', 13, "beats[0].expect[0]",
     "'data.step > 0.5' is false: the plan has 0.1"),
    ('"data.layers[1].v[0] ~= -2.49 ± 0.01"', '"data.layers[1].v[0] ~= -2.4 ± 0.01"', 14,
     "beats[0].expect[1]", "is false: the plan has -2.49114"),
    ('"len(data.layers) >= 3"', '"len(data.layerz) >= 3"', 15, "beats[0].expect[2]",
     "no key 'layerz' in data"),
    ('"len(data.layers) >= 3"', '"data.layers[7].v[0] < 0"', 15, "beats[0].expect[2]",
     "index 7 is out of range, data.layers has 3 items"),
    ("{data.layers[1].v[0]:.2f}", "{data.layers[1].w[0]:.2f}", 11, "beats[0].narration",
     "placeholder {data.layers[1].w[0]:.2f}: data.layers[1].w: no key 'w'"),
    ("{data.step}", "{dta.step}", 10, "beats[0].caption", "no key 'dta' in the plan"),
])
def test_a_bad_claim_or_placeholder_stops_the_plan(tmp_path, capsys, old, new, line, field,
                                                    message):
    """One line `file:line: field: ...` at the claim's (or the text's) own line, exit 2, and
    no plan written: not this one, not the good board planned with it, and an earlier plan
    file is left as it was."""
    good = board(tmp_path, BOARD, "good")
    assert plan_cli(capsys, tmp_path, good)[0] == 0
    before = (tmp_path / "m" / "plans" / "good.json").read_bytes()
    assert old in BOARD
    bad = board(tmp_path, BOARD.replace(old, new), "bad")
    code, out, err = plan_cli(capsys, tmp_path, good, bad)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"error: {bad}:{line}: {field}: "), err
    assert message in err, err
    assert not (tmp_path / "m" / "plans" / "bad.json").exists()
    assert (tmp_path / "m" / "plans" / "good.json").read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "m" / "plans").iterdir()) == ["good.json"]


def test_every_bad_claim_is_reported_at_once(tmp_path, capsys):
    text = BOARD.replace('"data.step == 0.1"', '"data.step == 0.2"').replace(
        '"len(data.layers) >= 3"', '"len(data.layers) >= 4"')
    code, _, err = plan_cli(capsys, tmp_path, board(tmp_path, text))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 2
    assert ":13: beats[0].expect[0]:" in lines[0] and ":15: beats[0].expect[2]:" in lines[1]


def test_validate_catches_malformed_claims_and_placeholders_without_a_plan(tmp_path, capsys):
    text = BOARD.replace('"data.step == 0.1"', '"data.step = 0.1"').replace(
        "{data.step:.0%}", "{data.step:.0%")
    code = main(["validate", str(board(tmp_path, text))])
    err = capsys.readouterr().err
    assert code == 2
    assert f"claims.yaml:11: beats[0].narration: '{{' at character 25 is not closed" in err
    assert "claims.yaml:13: beats[0].expect[0]: 'data.step = 0.1' is not a claim" in err


# --- a changed number changes the narration (mutation) ----------------------------------------
def test_a_changed_plan_value_changes_the_filled_text_and_fails_its_claim(tmp_path,
                                                                          monkeypatch):
    from layerwise_core import plans
    from layerwise_templates.toy_loop import plan as toy_loop
    sb = validate_text(BOARD, tmp_path / "claims.yaml")
    first = plans.build_plan(sb, tmp_path / "cache")["beats"][0]
    original = toy_loop.build

    def mutated(board, traces):
        data = original(board, traces)
        data["layers"][1]["v"][0] = -1.234
        return data

    monkeypatch.setattr(toy_loop, "build", mutated)
    relaxed = validate_text(BOARD.replace("~= -2.49 ± 0.01", "< 0"), tmp_path / "claims.yaml")
    second = plans.build_plan(relaxed, tmp_path / "cache")["beats"][0]
    assert first["narration"].endswith("is -2.49.") and second["narration"].endswith("is -1.23.")
    with pytest.raises(StoryboardError, match=r"claims.yaml:14: beats\[0\].expect\[1\]: .* is "
                                              r"false: the plan has -1.234"):
        plans.build_plan(sb, tmp_path / "cache")


# --- the voice hears words, subtitles keep digits ---------------------------------------------
class Recorder(Backend):
    """A voice backend that records what it is asked to say (a tone, 0.1 s per word)."""
    name = "recorder"
    said: list[str] = []

    def identity(self):
        return {"engine": "recorder"}

    def synthesize(self, texts, folder):
        out = []
        for i, text in enumerate(texts):
            Recorder.said.append(text)
            path = Path(folder) / f"{i}.wav"
            t = np.arange(int(22050 * 0.1 * len(text.split()))) / 22050
            x = (0.3 * np.sin(2 * math.pi * 220 * t) * 32767).astype("<i2")
            with wave.open(str(path), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(22050)
                w.writeframes(x.tobytes())
            out.append(path)
        return out


def test_the_voice_is_given_words_while_cues_keep_digits(tmp_path, capsys, monkeypatch):
    from layerwise_core.voice import BACKENDS
    monkeypatch.setitem(BACKENDS, "recorder", Recorder)
    Recorder.said.clear()
    path = board(tmp_path)
    code = main(["--cache", str(tmp_path / "cache"), "plan", "--voice", "recorder", "--media",
                 str(tmp_path / "m"), str(path)])
    assert code == 0, capsys.readouterr().err
    assert Recorder.said == ["Layer one adds ten percent of V.",
                             "Its first entry is minus two point four nine."]
    beat = json.loads((tmp_path / "m" / "plans" / "claims.json").read_text())["beats"][0]
    # the cue text is what scenes/base.py writes as the subtitle: digits, as on screen
    assert [c["text"] for c in beat["cues"]] == ["Layer 1 adds 10% of V.",
                                                 "Its first entry is -2.49."]
    assert [c["spoken"] for c in beat["cues"]] == Recorder.said
    # durations follow the filled, spoken text: the longer sentence is longer
    assert beat["cues"][1]["duration"] > beat["cues"][0]["duration"]


# --- every number in the six storyboards is from the plan or claimed --------------------------
def uncovered(path: Path) -> list[str]:
    """Numbers said in a caption or narration, outside placeholders, that no `expect:` claim
    of the same beat covers (tests/spoken_numbers.py defines both)."""
    sb = load_storyboard(path)
    out = []
    for i, b in enumerate(sb.beats):
        claims = [parse_claim(c) for c in b.expect]
        for name in ("caption", "narration"):
            text = " ".join(p if isinstance(p, str) else " · " for p in parse(getattr(b, name)))
            out += [f"{path.name}:{sb.line(('beats', i, name))}: beats[{i}].{name}: {said!r}"
                    for said, value in mentions(text) if not covered(value, claims)]
    return out


@pytest.mark.parametrize("path", STORYBOARDS, ids=[p.stem for p in STORYBOARDS])
def test_every_number_said_is_a_placeholder_or_claimed(path):
    assert uncovered(path) == []


def test_every_storyboard_is_scanned():
    assert len(STORYBOARDS) == 8


def test_the_scan_finds_hand_typed_numbers(tmp_path):
    """The scan is not vacuous: the storyboards as they were before placeholders fail it."""
    text = BOARD.replace("Its first entry is {data.layers[1].v[0]:.2f}.",
                         "About three quarters, twice, 2.18 and twenty-four thousand; one token.")
    found = uncovered(board(tmp_path, text))
    assert [f.rsplit(": ", 1)[1] for f in found] == [
        "'2.18'", "'three quarters'", "'twice'", "'twenty four thousand'"]


@pytest.mark.parametrize("text,values", [
    ("three hundred eighty-four numbers", [384]),
    ("between two and five thousand", [2, 5000]),
    ("starting at one, zero", [0]),
    ("Two thirds of the way, a tenth of V, half", [2 / 3, 0.1, 0.5]),
    ("Paris is third, the second pass, in the thousands", [3, 2, 1000]),
    ("7% of 3,000 in X⁽³⁰⁾, SmolLM2-135M, a 30-layer model", [0.07, 3000, 30, 30]),
    ("one token, the first layer, the last one, once", []),
])
def test_mentions(text, values):
    assert [v for _, v in mentions(text)] == pytest.approx(values)


def test_covered_means_the_claims_number_within_its_tolerance():
    claims = [parse_claim("data.p ~= 0.75 ± 0.05"), parse_claim("data.r >= 1000")]
    assert covered(0.75, claims) and covered(2 / 3 + 0.1, claims) and covered(1000, claims)
    assert not covered(0.5, claims) and not covered(2000, claims)


def test_a_reveal_keyed_to_a_word_the_filled_text_no_longer_says_is_refused(tmp_path, capsys):
    """`at:` is checked on the narration as written ('data.step' is in '{data.step:.0%}'), and
    again once filled ('10%' does not say it)."""
    text = BOARD.replace("    expect:\n", '    at: {x: "data.step"}\n    expect:\n', 1)
    assert validate_text(text, tmp_path / "claims.yaml").beats[0].at == (("x", "data.step"),)
    code, _, err = plan_cli(capsys, tmp_path, board(tmp_path, text))
    assert code == 2 and err.startswith(f"error: {tmp_path / 'claims.yaml'}:12: beats[0].at.x: "
                                        f"'data.step' no longer fits the narration"), err
    assert "x: 1" not in BOARD
    text = BOARD.replace("    expect:\n", "    at: {x: 1}\n    expect:\n", 1)
    code, _, err = plan_cli(capsys, tmp_path, board(tmp_path, text))
    assert code == 0, err
