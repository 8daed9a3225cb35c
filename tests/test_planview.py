"""Typed plan views: values carry their plan path; a plan builder's output is checked against
the same declaration; a template's beat state refuses an arrangement a scene cannot render."""

from __future__ import annotations

import pytest

from layerwise_core.planview import Value, View, check
from layerwise_core.templates import template


class Top(View):
    word: str
    weight: float


class Layer(View):
    x_norm: float
    q: list[float]
    top: Top | None


class Data(View):
    layers: list[Layer]
    names: dict[str, int]


PLAN = {"data": {"layers": [{"x_norm": 11.5, "q": [1.0, -2.5], "top": {"word": "river",
                                                                       "weight": 0.3}},
                            {"x_norm": 12, "q": [0.5], "top": None}],
                 "names": {"a": 1}, "extra": "not declared"}}


def test_values_carry_their_path():
    v = Data.at(PLAN)
    assert v.layers[0].x_norm == Value(11.5, "data.layers[0].x_norm")
    assert v.layers[-1].q[0].path == "data.layers[1].q[0]"
    assert v.layers[0].top.word.value == "river" and v.layers[0].top.path == "data.layers[0].top"
    assert v.layers[1].top == Value(None, "data.layers[1].top")
    assert v.names["a"].path == "data.names.a" and int(v.names["a"]) == 1
    assert [x.path for x in v.layers[0].q] == ["data.layers[0].q[0]", "data.layers[0].q[1]"]
    assert v.layers[0].q.values == [1.0, -2.5] and len(v.layers) == 2
    assert float(v.layers[1].x_norm) == 12.0


def test_an_undeclared_or_missing_field_names_its_path():
    v = Data.at(PLAN)
    with pytest.raises(AttributeError, match="declares no field 'extra'"):
        v.extra
    with pytest.raises(KeyError, match=r"data\.layers\[0\]\.x_norm: not in the plan"):
        Data.at({"data": {"layers": [{}]}}).layers[0].x_norm


def test_check_finds_every_mismatch():
    assert Data.check(PLAN["data"]) == []
    bad = {"layers": [{"x_norm": "12", "q": [1.0, None], "top": {"word": 3}}], "names": []}
    assert check(bad, Data, "data") == [
        "data.layers[0].x_norm: expected float, got str",
        "data.layers[0].q[1]: expected float, got NoneType",
        "data.layers[0].top.word: expected str, got int",
        "data.layers[0].top.weight: missing (Top.weight)",
        "data.names: expected a mapping, got list"]
    assert check({"layers": [{"x_norm": True, "q": []}], "names": {}}, Data, "data") == [
        "data.layers[0].x_norm: expected float, got bool"]


def test_num_takes_a_value_with_its_path():
    from scenes.mobjects import Num
    n = Num(Data.at(PLAN).layers[0].x_norm, decimals=1)
    assert (n.value, n.source, n.shown) == (11.5, "data.layers[0].x_norm", "11.5")


def test_number_styles_write_a_bound_or_grouped_digits_and_keep_the_value():
    """A probability of 1e-13 is not "0.00": style "floor" writes the bound it is under; a
    factor the voice reads as "273 million" is grouped; both stay Nums bound to their path
    (the snapshot check recomputes `shown` from value, decimals and style)."""
    from scenes.mobjects import Num
    from scenes.theme import fmt
    assert [fmt(v, 2, "floor") for v in (1e-13, 0.004, 0.005, 0.0, -1e-9, 0.42)] == \
        ["<0.01", "<0.01", "0.01", "0.00", "0.00", "0.42"]
    assert fmt(273000000.0, 0, "group") == "273,000,000"
    assert fmt(0.004, 2) == "0.00"                              # plain is unchanged
    n = Num(1e-13, "data.layers[0].p", decimals=2, style="floor")
    assert (n.value, n.source, n.shown, n.style) == (1e-13, "data.layers[0].p", "<0.01", "floor")
    with pytest.raises(ValueError, match="number style 'sci'"):
        fmt(1.0, 2, "sci")


T = template("layerwise_templates.demo", shows={"a", "b", "c", "d"}, kinds={"encoder"},
             min_sentences=1, scene_class_name="Demo",
             builds={"a": "bars", "b": "row", "d": "row"}, needs={"c": "bars row"})


def test_arrangements_a_scene_cannot_render_are_found():
    assert T.arrangement([["a"], ["b"], ["c"]]) == []
    assert T.arrangement([["a", "d", "c"]]) == []            # built earlier in the same beat
    assert T.arrangement([["c"], ["a"]]) == [
        (0, "c", "needs bars, row, which 'a' or 'b' or 'd' builds: show it in an earlier beat")]
    assert T.arrangement([["a"], ["c"]]) == [
        (1, "c", "needs row, which 'b' or 'd' builds: show it in an earlier beat")]


def test_a_spec_naming_what_nothing_builds_is_refused():
    with pytest.raises(ValueError, match="no show builds 'q'; .*|no show name 'z'"):
        template("layerwise_templates.demo", shows={"a"}, kinds={"toy"}, min_sentences=1,
                 scene_class_name="Demo", needs={"a": "q"}, builds={"z": "q"})


class Check(View):
    n: int


class Board(View):
    check: Check


def test_a_field_a_view_attribute_shadows_is_read_by_name():
    v = Board.at({"data": {"check": {"n": 4}}})
    assert callable(v.check)                        # View.check, the plan-time checker
    assert v["check"].n == Value(4, "data.check.n")


def test_a_field_with_a_class_default_is_refused():
    # a class default would be found before __getattr__: the plan's value never read
    # (context_qkv's summary.one_head, round 31: said in the voice, never drawn)
    with pytest.raises(TypeError, match="shadow the plan"):
        class Defaulted(View):
            maybe: int | None = None
