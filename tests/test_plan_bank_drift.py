"""The bank_drift plan: its storyboard validates, its cosines are the traces', the two
senses of "bank" end further apart than they start; and layerwise_core's linear probe on its
shipped set (the probe beat that showed it was cut in round 32)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from layerwise_core.analysis import probe as P
from layerwise_core.analysis.vectors import layer_states, word_vectors
from layerwise_core.probe_set import load_probe_set
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_core.tracing import get_trace

from conftest import ROOT

STORYBOARD = ROOT / "layerwise_templates" / "bank_drift" / "bank_drift.yaml"


def cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))


@pytest.fixture(scope="module")
def built(cache_dir):
    """The plan with the session's cache, built once a session."""
    sb = load_storyboard(STORYBOARD)
    plan = build_plan(sb, cache_dir=cache_dir)
    return sb, json.loads(json.dumps(plan)), cache_dir  # the plan as a scene reads it: JSON


def test_storyboard_validates():
    sb = load_storyboard(STORYBOARD)
    assert sb.template == "bank_drift" and sb.model == "minilm-l6"
    assert "I sat on the river bank." in sb.sentences
    assert "I deposited cash at the bank." in sb.sentences
    assert all(f == "bank" for f in sb.focus)


def test_plan_cosines_are_the_traces(built):
    sb, plan, cache = built
    d = plan["data"]
    traces = [get_trace(sb.model, s, cache_dir=cache) for s in sb.sentences]
    assert [s["hook"] for s in d["states"]] == layer_states(traces[0])
    vecs = [word_vectors(t, f) for t, f in zip(traces, sb.focus)]
    for c in d["curves"]:
        i, j = c["pair"]
        expected = cos(vecs[i], vecs[j])
        np.testing.assert_allclose(c["raw"], expected, atol=1e-9)
        np.testing.assert_allclose(c["raw"], d["similarity"]["raw"][c["pair_index"]], atol=0)
        np.testing.assert_allclose(c["adjusted"],
                                   expected - np.asarray(d["similarity"]["baseline"]), atol=1e-9)
    # the projection: 2 coordinates for every state of every sentence, the variance shares <= 1
    xy = np.asarray(d["projection"]["xy"])
    assert xy.shape == (len(sb.sentences), len(d["states"]), 2)
    assert 0 < sum(d["projection"]["explained"]) <= 1


def test_full_space_distances_are_the_traces_and_the_plane_shows_less(built):
    """The plan's full-space end distances are the states' own; a projection can only
    shorten a distance, so each in-plane one is at most the full one (the voice's "the plane
    hides the difference" rests on their ratio, `end_shown`)."""
    sb, plan, cache = built
    pr = plan["data"]["projection"]
    traces = [get_trace(sb.model, s, cache_dir=cache) for s in sb.sentences]
    vecs = np.stack([word_vectors(t, f) for t, f in zip(traces, sb.focus)]).astype(np.float64)
    full = [float(np.linalg.norm(vecs[c, -1] - vecs[0, -1])) for c in range(1, len(vecs))]
    np.testing.assert_allclose(pr["full_end_distances"], full, rtol=1e-5)
    np.testing.assert_allclose(pr["full_depth_distance"],
                               np.linalg.norm(vecs[0, -1] - vecs[0, 0]), rtol=1e-5)
    for plane_d, full_d, shown in zip(pr["end_distances"], pr["full_end_distances"],
                                      pr["end_shown"]):
        assert plane_d <= full_d + 1e-6
        assert shown == pytest.approx(plane_d / full_d)
    assert pr["depth_distances"][0] == pytest.approx(pr["depth_distance"])
    assert pr["end_shown"][0] < 0.5          # this storyboard's "most of that distance"
    # (round 38) "banks one and two start at the same X zero, so their copies coincide": the
    # same token at the same position, the very same X^(0); the third starts elsewhere
    starts = [float(np.linalg.norm(vecs[c, 0] - vecs[0, 0])) for c in range(1, len(vecs))]
    np.testing.assert_allclose(pr["full_start_distances"], starts, rtol=1e-5, atol=1e-9)
    assert pr["full_start_distances"][0] == 0.0 and pr["full_start_distances"][1] > 0.1


def test_word_numbers_are_the_drawn_words_counted_from_one(built):
    """Round 40: the position tags say "word 6" when the focus word's number among the drawn
    words (from 1) is its token position (the start token, never drawn, is position 0): a
    student counting the words of the key gets the tag."""
    from layerwise_templates.bank_drift.plan import word_number
    _, plan, _ = built
    ctx = plan["data"]["contexts"]
    assert [c["word"] for c in ctx] == [6, 6, 2]
    assert [c["word"] for c in ctx] == [c["positions"][0] for c in ctx]
    assert ctx[0]["tokens"][0] == "[CLS]"
    assert word_number("The Bank of the river.", "bank") == 2
    assert word_number("No such word here.", "bank") == 0


def test_river_and_money_bank_drift_apart(built):
    sb, plan, _ = built
    d = plan["data"]
    river, money = sb.sentences.index("I sat on the river bank."), \
        sb.sentences.index("I deposited cash at the bank.")
    curve = next(c for c in d["curves"] if sorted(c["pair"]) == sorted([river, money]))
    base = d["similarity"]["baseline"]
    print("\nstate        raw   baseline  adjusted   (river bank vs money bank, MiniLM-L6)")
    for s, st in enumerate(d["states"]):
        print(f"{s} {st['label']:13s} {curve['raw'][s]:.3f}   {base[s]:.3f}     "
              f"{curve['adjusted'][s]:.3f}")
    for c in d["curves"]:
        if c is not curve:
            print(f"other pair {c['pair']}: " + " ".join(f"{v:.3f}" for v in c["raw"]))
    assert curve["raw"][0] > curve["raw"][-1]
    assert curve["adjusted"][0] > curve["adjusted"][-1]


def test_gap_and_last_drop_recomputed_from_the_traces(built):
    """The gap beat's numbers from the vectors, independently of the plan's similarity code:
    cos(river, other river) - cos(river, money) per state, and the money curve's last step
    against the baseline's (the mean cosine of the plan's listed unrelated pairs)."""
    sb, plan, cache = built
    d = plan["data"]
    traces = [get_trace(sb.model, s, cache_dir=cache) for s in sb.sentences]
    vecs = [word_vectors(t, f) for t, f in zip(traces, sb.focus)]
    river, money, river2 = vecs
    gap = cos(river, river2) - cos(river, money)
    g = d["gap"]
    assert (g["near"], g["far"]) == (1, 0)          # the other river bank ends highest
    np.testing.assert_allclose(g["values"], gap, atol=1e-9)
    assert g["widest"] == int(np.argmax(gap)) == len(gap) - 1
    assert abs(gap[0]) < 0.04 and gap[-1] > 0.15       # ~0 at X^(0), +0.16 at X^(6)
    assert g["together"] == 2 and max(abs(gap[:3])) <= 0.04 < gap[3]
    # (round 37) the gap the last layer adds: most of the gap at the output ("most of it on
    # the last step", said in the closing)
    assert g["last_step"] == pytest.approx(gap[-1] - gap[-2], abs=1e-9)
    assert g["last_step"] / g["last"] > 0.5
    # X^(3)..X^(5) under twice X^(0)'s gap, the output over four times it (said as such)
    small = abs(gap[0])
    assert g["mid_times"] == 2 and max(gap[3:6]) < 2 * small <= gap[3:6].min() * 2
    assert g["last_times"] == 4 and 4 * small < gap[-1] < 5 * small
    od = d["output_drop"]
    raw = cos(river, money)
    assert od["raw"] == pytest.approx(raw[-1] - raw[-2], abs=1e-9)
    base = np.asarray(d["similarity"]["baseline"])
    assert od["baseline"] == pytest.approx(base[-1] - base[-2], abs=1e-12)
    assert od["adjusted"] == pytest.approx(od["raw"] - od["baseline"], abs=1e-12)
    # (round 38) "about three quarters of the money curve's last fall" (round 37's "nearly as
    # large" oversold 0.78; round 36 said "mostly this baseline's fall", read as a cause)
    assert od["baseline_fall"] / od["raw_fall"] == pytest.approx(0.75, abs=0.05)
    assert g["shared"] == ["river"]
    # the states are X^(l): X^(1) is what layer 0 wrote
    assert [s["math"] for s in d["states"]] == [f"X^(({l}))" for l in range(len(d["states"]))]


# --- the linear probe of layerwise_core (its beat and plan were cut in round 32) ----------------
def test_probe_split_shares_no_sentence():
    sentences = load_probe_set()
    train = {s.text for s in sentences if not s.held_out}
    test = {s.text for s in sentences if s.held_out}
    assert train and test and not train & test
    assert len(train) + len(test) == len(sentences) == 90
    for noun in {s.noun for s in sentences}:         # every noun and sense on both sides
        for sense in ("living", "made"):
            group = [s for s in sentences if (s.noun, s.sense) == (noun, sense)]
            assert {s.held_out for s in group} == {True, False}
    # examples follow their sentence: no held-out row comes from a training sentence
    vectors = [np.zeros((len(s.words), 1, 1)) for s in sentences]
    for task in ("syntax", "sense"):
        _, _, held, sid = P.task_examples(sentences, vectors, task)
        assert all(held[i] == sentences[sid[i]].held_out for i in range(len(sid)))


def test_nouns_in_every_sense_counts_only_nouns_with_both():
    """Backs "each used in both senses": the shipped set has every noun in both, and a noun
    in one sense only is not counted."""
    sentences = load_probe_set()
    assert P.nouns_in_every_sense(sentences) == len({s.noun for s in sentences}) == 9
    one = next(s.noun for s in sentences)
    fewer = [s for s in sentences if not (s.noun == one and s.sense == "made")]
    assert P.nouns_in_every_sense(fewer) == 8


def test_linear_probe_is_deterministic_and_learns_a_separable_rule():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 5))
    y = np.argmax(X @ rng.normal(size=(5, 3)), axis=1)     # 3 classes, linearly separable
    W = P.fit(X, y, 3)
    assert np.array_equal(W, P.fit(X, y, 3))          # fixed start, fixed steps
    assert np.mean(P.predict(W, X) == y) > 0.95
    held = np.arange(120) >= 80
    r = P.probe_layers(X[:, None, :], y.astype(str), held)
    assert r["n_train"] == 80 and r["n_test"] == 40 and r["accuracy"][0] > 0.85


# --- the drift beat's answer: each statement only when its numbers hold -------------------------
def test_answer_statements_follow_the_numbers():
    """`plan.answer` decides each statement the scene draws and the draft says: a sentence
    set whose money bank takes its own path (2.9 apart in the plane, 7.6 in the full space)
    gets neither "one path" nor "mostly off this plane"; a short move gets no "far"."""
    from layerwise_templates.bank_drift.plan import answer
    shipped = {"full_depth_distance": 11.2, "output_norm": 10.1, "depth_distance": 10.2,
               "sentence_distance": 1.2, "end_shown": [0.18, 0.23]}
    a = answer(shipped, 3)
    assert (a["far"], a["one_path"], a["off_plane"]) == (True, True, "mostly")
    own_path = {**shipped, "sentence_distance": 2.9, "end_shown": [2.9 / 7.6, 0.6],
                "output_norm": 12.0}
    a = answer(own_path, 3)
    assert (a["far"], a["one_path"], a["off_plane"]) == (False, False, "partly")


def test_a_set_where_the_answer_does_not_hold_gets_no_false_line(capsys, cache_dir, tmp_path):
    """The shipped sentences in SmolLM2 (a decoder): the move is no longer than the output
    state, the paths part in the plane (in-plane move / ends apart 1.8) and the plane shows
    about half of each end distance. Neither the draft's plane beat nor its closing may say
    otherwise (round 40: the closing says the plane's result, the split cut)."""
    from test_draft import drafted
    sentences = ["I sat on the river bank.", "I deposited cash at the bank.",
                 "The bank of the river flooded."]
    board, plan = drafted(capsys, cache_dir, tmp_path, "smollm2-135m", sentences, "bank",
                          "bank_drift")
    ans = plan["data"]["projection"]["answer"]
    assert (ans["far"], ans["one_path"], ans["off_plane"]) == (False, False, "partly")
    for beat in ("drift", "answer"):
        said = next(b for b in plan["beats"] if b["id"] == beat)["narration"]
        for false in ("same path", "longer than", "smaller", "mostly off"):
            assert false not in said, (beat, false)
    assert [b["id"] for b in plan["beats"]] == ["extend", "baseline", "gap", "drift", "answer"]
