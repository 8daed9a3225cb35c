"""The storyboard JSON Schema (docs/storyboard.schema.json) is generated from the validator's
tables and the template registry, validates every shipped storyboard, and refuses what the
validator refuses for the same reason (an unknown key, a show name the template lacks)."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

import framecheck as fc
from layerwise_core.storyboard.jsonschema import storyboard_schema
from layerwise_templates import shipped_storyboards

SCHEMA = fc.ROOT / "docs" / "storyboard.schema.json"


def test_the_committed_schema_is_the_generated_one():
    assert json.loads(SCHEMA.read_text()) == storyboard_schema(), \
        "regenerate: python -m layerwise_core.storyboard.jsonschema > docs/storyboard.schema.json"


@pytest.mark.parametrize("path", shipped_storyboards(), ids=lambda p: p.stem)
def test_every_shipped_storyboard_validates(path):
    jsonschema.validate(yaml.safe_load(path.read_text()), storyboard_schema())


@pytest.mark.parametrize("change,word", [
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d["beats"][0].update(show=["no_such_view"]), "no_such_view"),
    (lambda d: d["beats"][0].update(id="Bad Id"), "Bad Id"),
    (lambda d: d.update(template="nope"), "nope"),
    (lambda d: d["beats"][0].pop("caption"), "caption"),
])
def test_what_the_validator_refuses_the_schema_refuses(change, word, tmp_path):
    from layerwise_core.errors import StoryboardError
    from layerwise_core.storyboard.schema import validate_text
    d = yaml.safe_load(shipped_storyboards()[0].read_text())
    change(d)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, storyboard_schema())
    with pytest.raises(StoryboardError, match=word):
        validate_text(yaml.safe_dump(d), tmp_path / "x.yaml")
