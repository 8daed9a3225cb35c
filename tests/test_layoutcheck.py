"""The layout check finds what touches the frame's edge and text on text."""

from __future__ import annotations

import numpy as np

from layerwise_pipeline.layoutcheck import BACKGROUND, edge_problems, overlap_problems


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
