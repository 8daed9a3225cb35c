"""Claims that cannot overstate (issue 22, item 3): `layerwise lint`.

Every comparison or superlative a caption or narration says must name what the plan measured
(a `{data...}` placeholder in the same sentence) or be backed by an `expect:` claim on a
`data.` path of the same beat; `layerwise_core/storyboard/overstate.py` holds the rule. The
words, with their inflections (`overstate.WORDS`):
  more, most, mostly, less, least, fewer, fewest; larger/largest, smaller/smallest,
  higher/highest, lower/lowest, bigger/biggest, stronger/strongest, weaker/weakest,
  heavier/heaviest, greater/greatest, closer/closest, further/furthest, farther/farthest,
  better/best, worse/worst, sharper/sharpest; only, first; sure, surely, certain,
  certainly, confident, confidently; same, identical, identically, differ/differs/differed/
  differing, different, differently, difference(s); grow/grows/grew/grown/growing/growth,
  shrink/shrinks/shrank/shrunk/shrinking, rise/rises/rose/risen/rising,
  fall/falls/fell/fallen/falling, drop/drops/dropped/dropping, climb/climbs/climbed/climbing,
  sharpen/sharpens/sharpened/sharpening; every, all, always, never, none.
`every`, `all`, `first` before a part of the model ("every layer", "all {n} heads") and `same`
before what is the same by construction ("the same matrices", "the same recipe") are not
findings.

(a) the rule on small synthetic storyboards, cases that must fail included; (b) every shipped
storyboard and the drafts of sentences not in the repo (MiniLM and SmolLM2, every template
with a draft that takes the sentence) against today's findings, written out below: a new
finding fails, and so does one that was fixed (delete it from the list: the list only shrinks).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import STORYBOARDS, TOY_HEAD
from layerwise_core.cli import main
from layerwise_core.storyboard.overstate import WORDS, findings, said, sentences
from layerwise_core.storyboard.schema import load_storyboard, validate_text

BOARD = TOY_HEAD.format(title="Overstate") + """\
  - id: code
    show: [code, x]
    layer: 1
    caption: "{caption}"
    narration: "{narration}"
{expect}"""


def lint(tmp_path, narration, caption="Pass one", expect=()):
    """(line, field, word) of every finding on a one-beat toy storyboard."""
    text = BOARD.format(caption=caption, narration=narration, expect="".join(
        ["    expect:\n"] + [f'      - "{c}"\n' for c in expect]) if expect else "")
    sb = validate_text(text, tmp_path / "o.yaml")
    return [(f.line, f.field, f.word) for f in findings(sb)]


N, C = (11, "beats[0].narration"), (10, "beats[0].caption")


# --- (a) the rule ---------------------------------------------------------------------------
@pytest.mark.parametrize("narration,words", [
    ("V moves X most.", ["most"]),
    ("The update GREW, and the largest entry rose.", ["GREW", "largest", "rose"]),
    ("Q and K differ; they are never the same, and only V is used.",
     ["differ", "never", "same", "only"]),
    ("Every row puts its weight on the token before it.", ["Every"]),
    ("X is the same X; the lens is surely sharper.", ["same", "surely", "sharper"]),
    ("All three take the same path.", ["All", "same"]),
])
def test_an_unbacked_comparison_is_a_finding_at_its_fields_line(tmp_path, narration, words):
    assert lint(tmp_path, narration) == [(*N, w) for w in words]


def test_a_caption_is_checked_like_the_narration(tmp_path):
    assert lint(tmp_path, "Plain.", caption="Values differ most") == [(*C, "differ"),
                                                                     (*C, "most")]


@pytest.mark.parametrize("narration", [
    "Every layer adds a step; all {len(beat.show)} heads read the first layer's X.",
    "The same matrices, the same W and the same recipe, for every token's key.",
    "Almost lessons: the mostest is not a word, nor is moreover or allot.",
    "The step is {max(data.layers[0:2].x_in[0]):.2f}, the most: it grows.",
    "Layer {beat.layer} is {data.step} away at most.",
])
def test_what_is_not_a_finding(tmp_path, narration):
    """Structure, words that merely contain a listed word, words inside a placeholder, and
    a sentence with a data placeholder."""
    assert lint(tmp_path, narration) == []


def test_the_placeholder_must_be_in_the_same_sentence_and_read_the_plans_data(tmp_path):
    assert lint(tmp_path, "V moves X by {data.step}. It moves most.") == [(*N, "most")]
    assert lint(tmp_path, "Layer {beat.layer} moves most.") == [(*N, "most")]
    assert lint(tmp_path, "Of {model.d_model} entries, the first moves most.") == \
        [(*N, "first"), (*N, "most")]
    assert lint(tmp_path, "V moves X most, by {data.step:.0%}.") == []


def test_a_claim_on_the_plans_data_backs_its_whole_beat(tmp_path):
    assert lint(tmp_path, "V moves X most.", caption="the largest",
                expect=["data.step == 0.1"]) == []
    assert lint(tmp_path, "V moves X most.", expect=["len(data.layers) >= 3"]) == []
    assert lint(tmp_path, "V moves X most.", expect=["beat.layer + 1 == 2"]) == \
        [(*N, "most")]
    assert lint(tmp_path, "V moves X most.", expect=["model.d_model == 2"]) == \
        [(*N, "most")]


def test_sentences_keep_placeholders_whole_and_split_as_the_voice_does():
    got = sentences("It is {data.layers[0].x:.2f}. The step, {beat.layer}, grows. So.")
    assert [(backed, written) for _, backed, written in got] == [
        (True, "It is {data.layers[0].x:.2f}."), (False, "The step, {beat.layer}, grows."),
        (False, "So.")]


def test_every_listed_form_is_found_and_the_table_is_lower_case():
    assert all(w == w.lower() for w in WORDS)
    assert said(" ".join(WORDS)) == list(WORDS)
    assert len(WORDS) >= 90


def test_the_message_names_file_line_field_and_word(tmp_path):
    path = tmp_path / "o.yaml"
    path.write_text(BOARD.format(caption="x", narration="It moves most.", expect=""))
    (f,) = findings(load_storyboard(path))
    assert str(f) == (f"{path}:11: beats[0].narration: 'most' has no claim behind it (add an "
                      f"expect: or a placeholder): \"It moves most.\"")


def test_lint_command_exit_codes(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BOARD.format(caption="x", narration="It moves most.", expect=""))
    good = tmp_path / "good.yaml"
    good.write_text(BOARD.format(caption="x", narration="It moves.", expect=""))
    assert main(["lint", str(good)]) == 0
    assert main(["lint", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{bad}:11: beats[0].narration: 'most' has no claim behind it "
                                f"(add an expect: or a placeholder): \"It moves most.\""]
    assert "lint: 1 unbacked comparison word in 1 of 2 storyboards" in err
    broken = tmp_path / "broken.yaml"
    broken.write_text(BOARD.format(caption="x", narration="{data.", expect=""))
    assert main(["lint", str(broken)]) == 2
    assert f"{broken}:11: beats[0].narration: '{{' at character 1 is not closed" in \
        capsys.readouterr().err


# --- (b) today's findings: shipped storyboards and drafts -------------------------------------
def table(found) -> list[tuple]:
    return [(Path(f.path).name, f.line, f.field, f.word) for f in found]


SHIPPED = [     # none: every shipped storyboard is lint-clean
]


def test_shipped_storyboards_have_exactly_todays_findings():
    assert len(STORYBOARDS) == 8
    assert [x for p in STORYBOARDS for x in table(findings(load_storyboard(p)))] == SHIPPED


RIVER = "We fished from the bank."          # sentences not in the repo (nor in its tests)
MONEY = "She kept her savings in the bank."
FEE = "He paid the fee at the bank."
STEEP = "Reeds grew along the steep bank."
PLANET = "The largest planet in our solar system is"
DRAFTS = {      # (model, template): today's findings of its draft, (line, field, word)
    ("minilm-l6", "per_head"): [],
    ("minilm-l6", "attention_depth"): [],
    ("minilm-l6", "fresh_qkv"): [],
    ("minilm-l6", "residual_stream"): [],
    ("minilm-l6", "bank_drift"): [],
    ("minilm-l6", "context_qkv"): [],
    ("smollm2-135m", "per_head"): [],
    ("smollm2-135m", "fresh_qkv"): [],
    ("smollm2-135m", "residual_stream"): [],
    ("smollm2-135m", "bank_drift"): [],
    ("smollm2-135m", "context_qkv"): [],
    ("smollm2-135m", "logit_lens"): [],
}
SENTENCES = {"bank_drift": [RIVER, MONEY, STEEP], "context_qkv": [RIVER, FEE],
             "logit_lens": [PLANET]}
FOCUS = {"logit_lens": "is"}


def test_every_template_with_a_draft_is_drafted_for_both_models():
    """SmolLM2 adds no special tokens, so attention_depth (whose sink chart measures them)
    refuses every SmolLM2 sentence; toy_loop has no draft; logit_lens takes decoders only."""
    from layerwise_templates import TEMPLATES
    drafted = {t for t in TEMPLATES if TEMPLATES[t].has_draft}
    assert {t for _, t in DRAFTS} == drafted
    assert {t for m, t in DRAFTS if m == "minilm-l6"} == drafted - {"logit_lens"}
    assert {t for m, t in DRAFTS if m == "smollm2-135m"} == drafted - {"attention_depth"}


@pytest.mark.parametrize("model,template", list(DRAFTS), ids=[f"{m}-{t}" for m, t in DRAFTS])
def test_drafts_have_exactly_todays_findings(tmp_path, capsys, cache_dir, model, template):
    args = ["--cache", str(cache_dir), "draft", "--model", model, "--template", template,
            "--focus", FOCUS.get(template, "bank")]
    for s in SENTENCES.get(template, [RIVER]):
        args += ["--sentence", s]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    path = tmp_path / f"{template}.yaml"
    path.write_text(out)
    assert [x[1:] for x in table(findings(load_storyboard(path)))] == DRAFTS[model, template]
