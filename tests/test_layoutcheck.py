"""The layout check finds what touches the frame's edge and text on text."""

from __future__ import annotations

import numpy as np

from layerwise_pipeline.layoutcheck import (BACKGROUND, edge_problems, midplay_problems,
                                           midplay_size_problems, overlap_problems)
from scenes.legibility import FLOOR_PX


def frame():
    return np.tile(np.array(BACKGROUND, np.uint8), (480, 854, 1))


def test_a_clear_frame_has_no_edge_problem():
    f = frame()
    f[100:200, 100:200] = 255
    assert edge_problems(f) == []


def test_drawing_at_an_edge_is_found():
    f = frame()
    f[240:250, 852:854] = 255
    f[0, 10:20] = 200
    assert edge_problems(f) == ["drawn at the top edge (x 10-19 px)",
                                "drawn at the right edge (y 240-249 px)"]


def test_text_on_text_is_found_nested_too():
    state = {"mobjects": [
        {"kind": "Text", "text": "title", "center": [0, 3], "size": [4, 0.5]},
        {"kind": "VGroup", "center": [0, 0], "size": [2, 2], "children": [
            {"kind": "Num", "text": "0.32", "center": [0, 2.8], "size": [0.6, 0.3]},
            {"kind": "Text", "text": "apart", "center": [3, 0], "size": [1, 0.3]}]},
        {"kind": "MathTypst", "math": "X^((1))", "center": [3.2, 0.1], "size": [0.6, 0.4]}]}
    assert overlap_problems(state) == [
        "text 'title' lies on '0.32' (0.60 x 0.20 units)",
        "text 'apart' lies on 'X^((1))' (0.60 x 0.25 units)"]


def test_texts_that_only_touch_pass():
    state = {"mobjects": [
        {"kind": "Text", "text": "a", "center": [0, 0], "size": [1, 0.3]},
        {"kind": "Text", "text": "b", "center": [1.0, 0], "size": [1, 0.3]}]}
    assert overlap_problems(state) == []


def test_text_hidden_by_a_backdrop_drawn_after_it_is_not_an_overlap():
    card = {"kind": "SurroundingRectangle", "fill": "#0e1117", "fill_opacity": 0.92,
            "center": [0, 0], "size": [6, 1.5]}
    chart_number = {"kind": "Num", "text": "0.82", "center": [1, 0.2], "size": [0.6, 0.3]}
    thesis = {"kind": "Text", "text": "The same W for both", "center": [0, 0.2],
              "size": [5, 0.4]}
    assert overlap_problems({"mobjects": [chart_number, card, thesis]}) == []
    # drawn before the number, the card hides nothing; a see-through or coloured one neither
    assert overlap_problems({"mobjects": [card, chart_number, thesis]}) != []
    for other in ({"fill_opacity": 0.5}, {"fill": "#ffe066"}):
        assert overlap_problems({"mobjects": [chart_number, {**card, **other}, thesis]}) != []
    # a card that covers only part of where they meet hides nothing
    small = {**card, "size": [1.0, 0.2], "center": [1, 0.3]}
    assert overlap_problems({"mobjects": [chart_number, small, thesis]}) != []


def test_mid_play_overlap_of_still_visible_texts_is_found():
    """In the middle of a play: a caption standing on an axis note is found; a label on its
    way through (travels), one growing into place (moving) or one nearly faded (opacity under
    MIDPLAY_OPACITY) passing over the note is not; a cross-fade in place (one text leaving,
    one arriving, both half visible, neither travelling) is; so is a label doubled a little
apart, but not a copy lying exactly on its original."""
    note = {"text": "axis note", "box": [0, 0, 2, 0.4], "opacity": 1.0}
    record = {"midplay": [
        {"time": 3.5, "texts": [note, {"text": "caption", "box": [1, 0.2, 4, 0.6],
                                       "opacity": 1.0}]},
        {"time": 5.0, "texts": [note,
                                {"text": "flying", "box": [0.5, 0, 1, 0.4], "travels": True},
                                {"text": "growing", "box": [0.5, 0, 1, 0.4], "moving": True},
                                {"text": "ghost", "box": [0.5, 0, 1, 0.4], "opacity": 0.2}]},
        {"time": 7.25, "texts": [{"text": "old", "box": [5, 5, 6, 5.4], "opacity": 0.5,
                                  "leaves": True},
                                 {"text": "new", "box": [5, 5, 6, 5.4], "opacity": 0.5},
                                 {"text": "0.49", "box": [-5, 1, -4, 1.3]},
                                 {"text": "0.49", "box": [-5, 1, -4, 1.3]},
                                 {"text": "X", "box": [-5, -1, -4, -0.7]},
                                 {"text": "X", "box": [-4.6, -1, -3.6, -0.7]}]}]}
    assert midplay_problems(record) == [
        "at 3.50 s (mid-play): text 'axis note' lies on 'caption' (1.00 x 0.20 units)",
        "at 7.25 s (mid-play): text 'old' lies on 'new' (1.00 x 0.40 units)",
        "at 7.25 s (mid-play): text 'X' lies on 'X' (0.60 x 0.30 units)"]
    assert midplay_problems({"texts": []}) == []


def test_mid_play_overlap_under_a_backdrop_drawn_between_is_not_seen():
    """A label drawn (order 1) under a close-up's opaque lens (order 2) that covers where a
    text drawn on the lens (order 3) meets it: hidden. The same pair with the lens drawn
    after both texts but covering only part of the overlap: found."""
    under = {"text": "under", "box": [0, 0, 2, 0.4], "order": 1}
    on = {"text": "on lens", "box": [1, 0.2, 3, 0.6], "order": 3}
    hidden = {"time": 1.0, "texts": [under, on],
              "covers": [{"order": 2, "box": [0.5, -1, 4, 1]}]}
    partial = {"time": 2.0, "texts": [under, on],
               "covers": [{"order": 4, "box": [1.5, -1, 4, 1]}]}
    assert midplay_problems({"midplay": [hidden]}) == []
    assert midplay_problems({"midplay": [partial]}) == [
        "at 2.00 s (mid-play): text 'under' lies on 'on lens' (1.00 x 0.20 units)"]


def test_mid_play_text_under_the_floor_is_found_moving_or_not():
    """In the middle of a play a viewer sees every text that is visible: a number shrinking on
    its way into a box (travels), one growing in (moving) or one standing, under the floor, is
    found once per play at its smallest; a nearly faded one, or one at the floor, is not."""
    record = {"midplay": [
        {"time": 2.0, "texts": [{"text": "0.42", "min_px": 1.4, "travels": True},
                                {"text": "0.42", "min_px": 3.0, "travels": True},
                                {"text": "label", "min_px": 7.5},
                                {"text": "ghost", "min_px": 2.0, "opacity": 0.2},
                                {"text": "ok", "min_px": FLOOR_PX, "moving": True}]},
        {"time": 4.0, "texts": [{"text": "sum", "min_px": 6.0, "leaves": True, "opacity": 0.5}]}]}
    assert midplay_size_problems(record) == [
        "at 2.00 s (mid-play): text '0.42' is 1.4 px on its way (floor 8 px)",
        "at 2.00 s (mid-play): text 'label' is 7.5 px standing (floor 8 px)",
        "at 4.00 s (mid-play): text 'sum' is 6.0 px on its way (floor 8 px)"]
    assert midplay_size_problems({"texts": []}) == []
