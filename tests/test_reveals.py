"""Reveals keyed to the narration (`at:`): validated with file, line and field; timed from the
cues in the plan, so an element appears when it is named."""

import textwrap
from pathlib import Path

import pytest

from layerwise_core.errors import StoryboardError
from layerwise_core.plans import beat_json
from layerwise_core.storyboard.schema import Cue, validate_text

P = Path("sb.yaml")


def board(at: str, narration: str = "First we take X. Then the keys appear. Last the values.",
          show: str = "[x, ffn]") -> str:
    return textwrap.dedent(f"""\
        template: fresh_qkv
        title: t
        model: minilm-l6
        sentences: ["I sat on the river bank."]
        focus: bank
        beats:
          - id: intro
            show: {show}
            caption: c
            narration: "{narration}"
            at: {at}
        """)


def test_sentence_and_word_reveals_are_timed_from_the_silent_estimate():
    sb = validate_text(board("{ffn: 1}"), P)
    b = sb.beats[0]
    assert b.at == (("ffn", 1),)
    steps = beat_json(b, 150)["steps"]
    # sentence 0 has four words: 4 * 60 / 150 = 1.6 s
    assert steps == [{"show": "x", "at": None}, {"show": "ffn", "at": 1.6}]
    b = validate_text(board("{ffn: keys}"), P).beats[0]
    at = beat_json(b, 150)["steps"][1]["at"]
    # "keys" is 9 characters into the 21-character second sentence (starts 1.6 s, 1.6 s long)
    second = "Then the keys appear."
    assert at == pytest.approx(1.6 + 1.6 * second.index("keys") / len(second), abs=1e-3)


def test_voiced_cues_give_the_times():
    import dataclasses
    b = validate_text(board("{ffn: values}"), P).beats[0]
    cues = (Cue("First we take X.", 0.0, 1.2), Cue("Then the keys appear.", 1.45, 1.5),
            Cue("Last the values.", 3.2, 1.1))
    b = dataclasses.replace(b, cues=cues, duration=5.0)
    at = beat_json(b, 150)["steps"][1]["at"]
    assert at == pytest.approx(3.2 + 1.1 * "Last the values.".index("values") / 16, abs=1e-3)


def test_a_beat_without_at_has_no_steps():
    text = board("{ffn: 1}").replace("    at: {ffn: 1}\n", "")
    assert "steps" not in beat_json(validate_text(text, P).beats[0], 150)


@pytest.mark.parametrize("at,expected", [
    ("{ffn: 5}", "beats[0].at.ffn: sentence 5 is out of range"),
    ("{ffn: banana}", "beats[0].at.ffn: 'banana' is not said"),
    ("{q: 0}", "beats[0].at.q: 'q' is not in this beat's show list"),
    ("{ffn: [1]}", "beats[0].at.ffn: must be a sentence number or a word"),
    ("[1, 2]", "beats[0].at: must be a mapping"),
])
def test_bad_reveals_name_file_line_field(at, expected):
    with pytest.raises(StoryboardError) as e:
        validate_text(board(at), P)
    assert any(p.startswith("sb.yaml:11: ") and expected in p for p in e.value.problems), \
        e.value.problems
