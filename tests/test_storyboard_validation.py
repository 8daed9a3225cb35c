"""Storyboard validation: every documented error, with file, line and field; never a crash."""

import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from layerwise_core.errors import StoryboardError
from layerwise_core.storyboard.schema import validate_files, validate_text

STORYBOARDS = sorted((Path(__file__).resolve().parents[1] / "layerwise_templates").glob("*/*.yaml"))

GOOD = textwrap.dedent("""\
    template: fresh_qkv
    title: Fresh Q, K, V
    model: minilm-l6
    sentences: ["I sat on the river bank."]
    focus: bank
    layers: [0, 1]
    heads: all
    beats:
      - id: intro
        show: [x, ffn]
        caption: hello
        narration: one two three four five
      - id: next
        layer: 1
        caption: again
        duration: 3
    """)
P = Path("sb.yaml")


def problems(text: str) -> list[str]:
    with pytest.raises(StoryboardError) as e:
        validate_text(text, P)
    return e.value.problems


def test_good_storyboard():
    sb = validate_text(GOOD, P)
    assert sb.layers == (0, 1) and sb.heads == tuple(range(12)) and sb.focus == ("bank",)
    assert sb.beats[0].duration == 2.0          # 5 words at 150 wpm = 2 s, the minimum
    assert sb.beats[1].duration == 3.0


@pytest.mark.parametrize("old,new,expected", [
    ("title: Fresh Q, K, V", "titel: Fresh Q, K, V",
     ["sb.yaml:2: titel: unknown key (did you mean 'title'?)", "missing required key 'title'"]),
    ("model: minilm-l6", "model: minilm-l7", ["sb.yaml:3: model: unknown model 'minilm-l7' "
                                              "(did you mean 'minilm-l6'?)"]),
    ("template: fresh_qkv", "template: fresh_qvk", ["sb.yaml:1: template: unknown template"]),
    ("focus: bank", "focus: money", ["sb.yaml:5: focus: 'money' is not in sentence 0"]),
    ("focus: bank", "focus: bank#2", ["sb.yaml:5: focus: 'bank#2' is not in sentence 0"]),
    ("layers: [0, 1]", "layers: [0, 6]", ["sb.yaml:6: layers: layer 6 is out of range 0..5"]),
    ("heads: all", "heads: [12]", ["sb.yaml:7: heads: head 12 is out of range 0..11"]),
    ("heads: all", "heads: three", ["sb.yaml:7: heads: must be 'all' or a non-empty list"]),
    ("show: [x, ffn]", "show: [x, fnn]", ["sb.yaml:10: beats[0].show[1]: a name 'fnn' that "
                                          "template 'fresh_qkv' cannot show (did you mean 'ffn'?)"]),
    ("show: [x, ffn]", "show: [x, pattern]", ["beats[0].show[1]: a vector 'pattern' that"]),
    ("    duration: 3", "    duration: -1", ["sb.yaml:16: beats[1].duration: must be seconds"]),
    ("    layer: 1", "    layer: 7", ["sb.yaml:14: beats[1].layer: layer 7 is out of range"]),
    ("  - id: next", "  - id: intro", ["sb.yaml:13: beats[1].id: duplicate beat id 'intro'"]),
    ("  - id: next", "  - id: Next Beat", ["beats[1].id: must be a lower-case identifier"]),
    ("    caption: again", "    captoin: again",
     ["beats[1].captoin: unknown key (did you mean 'caption'?)",
      "beats[1]: missing required key 'caption'"]),
    ("model: minilm-l6", "model: toy-2d", ["template 'fresh_qkv' needs a decoder/encoder model"]),
    ("    caption: again", '    caption: "again {data.x"',
     ["sb.yaml:15: beats[1].caption: '{' at character 7 is not closed"]),
    ("narration: one two three four five", "narration: one } two",
     ["sb.yaml:12: beats[0].narration: a lone '}' at character 5"]),
    ("    duration: 3", '    duration: 3\n    expect: ["data.x == 1", "data.y = 2"]',
     ["sb.yaml:17: beats[1].expect[1]: 'data.y = 2' is not a claim"]),
    ("    duration: 3", "    duration: 3\n    expect:\n      - data.x ~= 1\n      - data..y > 1",
     ["sb.yaml:18: beats[1].expect[0]: 'data.x ~= 1': '~=' needs a tolerance",
      "sb.yaml:19: beats[1].expect[1]: 'data..y > 1': 'data..y' is not a plan path"]),
    ("    duration: 3", "    duration: 3\n    expect: 7", ["sb.yaml:17: beats[1].expect: must be "
                                                          "a list of claims"]),
])
def test_each_error_names_file_line_field(old, new, expected):
    assert old in GOOD
    found = problems(GOOD.replace(old, new))
    for want in expected:
        assert any(want in p for p in found), (want, found)
    assert all(p.startswith("sb.yaml:") and "\n" not in p for p in found)


def test_all_problems_at_once():
    bad = GOOD.replace("model: minilm-l6", "model: x").replace("show: [x, ffn]", "show: [zz]")
    found = problems(bad.replace("focus: bank", "focus: 42"))
    assert len(found) >= 3


def test_yaml_syntax_error_has_line():
    found = problems("template: fresh_qkv\nbeats: [\n")
    assert found[0].startswith("sb.yaml:") and "(yaml)" in found[0]


def test_python_tags_are_refused_not_executed():
    found = problems("!!python/object/apply:os.system ['echo hacked']\n")
    assert "(yaml)" in found[0]


def test_decoder_only_template():
    text = GOOD.replace("template: fresh_qkv", "template: logit_lens").replace(
        "show: [x, ffn]", "show: [lens]")
    assert any("needs a decoder model" in p for p in problems(text))


def test_validate_files_collects_every_file(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(GOOD.replace("model: minilm-l6", "model: nope"))
    b.write_text("just text")
    with pytest.raises(StoryboardError) as e:
        validate_files([a, b, tmp_path / "missing.yaml"])
    text = str(e.value)
    assert "a.yaml:3: model" in text and "b.yaml:1: (top)" in text and "missing.yaml:1" in text


def test_cli_validate_exit_codes(tmp_path, capsys):
    from layerwise_core.cli import main
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace("focus: bank", "focus: money"))
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:5: focus:" in err and "Traceback" not in err
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    assert main(["validate", str(good)]) == 0


@pytest.mark.parametrize("path", STORYBOARDS, ids=[p.stem for p in STORYBOARDS])
def test_shipped_storyboards_validate(path):
    validate_files([path])


yaml_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 40) | st.floats(allow_nan=True) |
    st.text(max_size=12) | st.sampled_from(["all", "bank", "minilm-l6", "fresh_qkv", "q", "x"]),
    lambda children: st.lists(children, max_size=4) |
    st.dictionaries(st.sampled_from(["template", "title", "model", "sentences", "focus",
                                     "layers", "heads", "beats", "id", "show", "caption",
                                     "narration", "duration", "layer", "head", "footer",
                                     "zzz"]) | st.text(max_size=6), children, max_size=6),
    max_leaves=25)


@settings(max_examples=500, deadline=None)
@given(yaml_values)
def test_arbitrary_yaml_only_ever_raises_storyboard_error(value):
    text = yaml.safe_dump(value)
    try:
        validate_text(text, P)
    except StoryboardError as e:
        assert all(p.startswith("sb.yaml:") for p in e.problems)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_only_ever_raises_storyboard_error(text):
    try:
        validate_text(text, P)
    except StoryboardError:
        pass
