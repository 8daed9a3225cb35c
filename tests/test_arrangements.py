"""Every arrangement of a template's beats renders or is refused at validation.

An author reorders and trims beats all the time. For every shipped storyboard, each beat on
its own, the beats reversed and the storyboard without its first beat is either refused by
`layerwise validate` (or `layerwise plan`) with one `file:line: field: message` line per
problem, or its preview renders: never a traceback from inside a scene. A template makes this
hold by declaring what each show name `needs` and `builds` (spec.py; the validator refuses an
order that asks for state no earlier beat built) or by having its handlers build what they need.
"""

from __future__ import annotations

import re

import pytest
import yaml

from layerwise_core.errors import StoryboardError
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard
from layerwise_templates import TEMPLATES, storyboard_path

pytestmark = pytest.mark.render
LOCATED = re.compile(r"^\S+\.yaml:\d+: \S")


def arrangements(name: str) -> list[tuple[str, list[int]]]:
    """(label, beat indices) of the shipped storyboard's arrangements under test."""
    beats = yaml.safe_load(storyboard_path(name).read_text())["beats"]
    n = len(beats)
    out = [(f"alone-{i:02d}-{beats[i]['id']}", [i]) for i in range(n)]
    out.append(("reversed", list(reversed(range(n)))))
    if n > 1:
        out.append(("without-first", list(range(1, n))))
    return out


CASES = [(name, label, order) for name in TEMPLATES for label, order in arrangements(name)]


def rearranged(name: str, order: list[int], folder) -> object:
    d = yaml.safe_load(storyboard_path(name).read_text())
    d["beats"] = [d["beats"][i] for i in order]
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(d, sort_keys=False, allow_unicode=True))
    return path


def refused_cleanly(error: StoryboardError) -> bool:
    return bool(error.problems) and all(LOCATED.match(line) for line in error.problems)


@pytest.mark.parametrize("name,label,order", CASES, ids=[f"{n}-{l}" for n, l, _ in CASES])
def test_an_arrangement_renders_or_is_refused(name, label, order, cache_dir, tmp_path):
    from layerwise_pipeline.scene_render import render
    path = rearranged(name, order, tmp_path)
    try:
        plan = build_plan(load_storyboard(path), cache_dir)
    except StoryboardError as e:
        assert refused_cleanly(e), e.problems
        return
    render(plan, "l", media_dir=tmp_path / "media", preview=True)
    frames = sorted((tmp_path / "media" / "frames" / name).glob("*.png"))
    assert len(frames) == len(order)


def test_the_cases_cover_every_template():
    assert {n for n, _, _ in CASES} == set(TEMPLATES)
    assert len(CASES) >= 60
