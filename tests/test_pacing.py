"""Pacing, measured (issue 22, item 5): the pure parts of scripts/pacing_report.py, in
layerwise_pipeline/pacing.py (srt parsing, the union of cue spans, silences, motion in a span,
layer changes and montages)."""

from __future__ import annotations

import pytest

from layerwise_pipeline import pacing as P

SRT = """\
1
00:00:00,000 --> 00:00:04,081
Here is where bank looks at layer 0,
averaged over all 12 heads.

2
00:00:03,500 --> 00:00:06,527
The thicker the arc, the more attention.

3
00:00:12,800 --> 00:01:02,5
Sixty seconds in.
"""


def test_parse_srt_reads_times_and_joins_lines():
    assert P.parse_srt(SRT) == [
        (0.0, 4.081, "Here is where bank looks at layer 0, averaged over all 12 heads."),
        (3.5, 6.527, "The thicker the arc, the more attention."),
        (12.8, 62.5, "Sixty seconds in.")]
    assert P.parse_srt("") == []


@pytest.mark.parametrize("text,message", [
    ("1\n00:00:01,000 -> 00:00:02,000\nx\n", "line 1: a cue without a 'start --> end' line"),
    ("1\n00:00:01 --> 00:00:02,000\nx\n", "line 2: not an srt timing line"),
    ("1\n00:00:03,000 --> 00:00:02,000\nx\n", "line 2: the cue ends before it starts"),
])
def test_a_bad_srt_names_its_line(text, message):
    with pytest.raises(P.SrtError, match=message):
        P.parse_srt(text)


def test_union_merges_overlapping_and_touching_spans():
    assert P.union([(5, 6), (0, 2), (1, 3), (3, 4), (7, 8, "text")]) == \
        [(0.0, 4.0), (5.0, 6.0), (7.0, 8.0)]
    assert P.union([]) == []


def test_narrated_share_counts_overlaps_once_and_clips_to_the_video():
    cues = P.parse_srt(SRT)
    assert P.narrated_share(cues, 100.0) == pytest.approx((6.527 + 49.7) / 100)
    assert P.narrated_share([(-1, 2), (8, 12)], 10.0) == pytest.approx(0.4)
    assert P.narrated_share([(0, 1)], 0.0) == 0.0


def test_silences_longer_than_three_seconds_at_start_middle_and_end():
    spans = [(3.5, 5.0), (5.0, 6.0), (9.1, 10.0), (13.0, 14.0)]
    assert P.silences(spans, 20.0) == [(0.0, 3.5), (6.0, 9.1), (14.0, 20.0)]
    assert P.silences(spans, 17.0) == [(0.0, 3.5), (6.0, 9.1)]   # 3 s is not over 3 s
    assert P.silences([], 2.5) == [] and P.silences([], 4.0) == [(0.0, 4.0)]


def frames(changes, fps=10.0):
    return [(i / fps, c) for i, c in enumerate(changes)]


def test_motion_in_a_span_share_and_longest_still_run():
    f = frames([0, 500, 500, 0, 0, 0, 0, 0, 900, 10, 20, 0])
    assert P.moving(f, 0.0, 1.2) == {"share": 0.333, "still_s": 0.5,
                                     "moves": False}
    assert P.moving(f, 0.1, 0.3) == {"share": 1.0, "still_s": 0.0, "moves": True}
    assert P.moving(f, 5.0, 9.0)["moves"] is False                   # no frame there
    assert P.CHANGED_PX == 16 and P.moving(frames([16, 17]), 0, 1)["share"] == 0.5


def sample(t, *sources):
    return (t, [{"source": s, "text": s[-3:]} for s in sources] + [{"text": "title"}])


def test_layer_events_follow_new_numbers_bound_to_a_layer():
    samples = [sample(1.0, "data.shape.d_model"),
               sample(2.0, "data.layers[0].top[0].prob"),
               sample(2.5, "data.layers[0].top[0].prob", "data.layers[1].top[0].prob"),
               sample(3.0, "data.layers[1].top[0].prob", "data.layers[2].top[1].prob"),
               sample(3.5, "data.layers[2].top[1].prob"),                 # nothing new
               sample(4.0, *[f"data.layers[{l}].layer" for l in range(0, 30, 5)]),  # an axis
               sample(9.0, "data.curves[0].raw[3]", "layers[3].x")]
    assert P.layer_events(samples) == [(2.0, 0), (2.5, 1), (3.0, 2), (9.0, 3)]


def test_montages_are_runs_of_quick_layers():
    quick = [(10 + 0.4 * k, k) for k in range(6)]                 # 0.4 s per layer
    slow = [(20 + 2.0 * k, 10 + k) for k in range(4)]             # 2 s per layer
    pair = [(40.0, 20), (40.5, 21)]                               # too short to be a run
    assert P.montages(quick + slow + pair) == [
        {"start": 10.0, "end": 12.0, "layers": (0, 5), "count": 6, "per_layer": 0.4}]
    assert P.montages([(0, 1), (1.49, 2), (2.98, 3)]) != []
    assert P.montages([(0, 1), (1.5, 2), (3.0, 3)]) == []         # 1.5 s is readable
    assert P.montages([]) == []


def test_beat_at():
    bounds = [("a", 0.0, 5.0), ("b", 5.0, 9.0)]
    assert [P.beat_at(bounds, t) for t in (0, 4.99, 5.0, 12)] == ["a", "a", "b", "b"]
