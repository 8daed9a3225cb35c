"""A JSON Schema of storyboards, generated from the validator's own tables (`schema.TOP_KEYS`,
`REQUIRED_TOP`, `BEAT_KEYS`, `REQUIRED_BEAT`, `CAPTIONS`, the beat id pattern) and the template
registry (each template's show names), so an editor with a YAML language server completes and
checks fields as an author types:

    # yaml-language-server: $schema=../../docs/storyboard.schema.json

`python -m layerwise_core.storyboard.jsonschema > docs/storyboard.schema.json` writes it;
`tests/test_storyboard_jsonschema.py` checks the committed file is this output and that every
shipped storyboard and draft validates. The validator stays the judge (it also checks the
model, the focus word, moments, claims and placeholders against the data); the schema says what
an editor can know without the model.
"""

from __future__ import annotations

import json
import sys

from layerwise_templates import TEMPLATES

from . import schema as S

_TEXT = {"type": "string"}
_INT = {"type": "integer", "minimum": 0}


def _one_or_many(item: dict) -> dict:
    return {"oneOf": [item, {"type": "array", "items": item, "minItems": 1}]}


def beat_schema(shows: list[str] | None = None) -> dict:
    show_item = {"type": "string", **({"enum": shows} if shows else {})}
    props = {
        "id": {"type": "string", "pattern": S._ID.pattern,
               "description": "a lower-case identifier, unique in the storyboard"},
        "show": {"oneOf": [show_item, {"type": "array", "items": show_item}],
                 "description": "what the beat shows: the template's show names, in order"},
        "caption": {**_TEXT, "description": "the short title shown on the frame"},
        "narration": {**_TEXT, "description": "spoken (and subtitled); placeholders like "
                                              "{data.layers[0].x_norm:.2f} are filled from the plan"},
        "duration": {"type": "number", "exclusiveMinimum": 0, "maximum": 600,
                     "description": "seconds; default: the narration's length at "
                                    "words_per_minute (at least 2 s)"},
        "layer": {**_INT, "description": "the beat's layer (one of the storyboard's layers)"},
        "head": {**_INT, "description": "the beat's head (one of the storyboard's heads)"},
        "audio": {**_TEXT, "description": "a recorded narration (a path beside the storyboard)"},
        "at": {"type": "object", "description": "reveals keyed to the narration: show name -> "
                                                "sentence number or words said"},
        "moments": {"type": "object", "description": "times the template's handlers wait for: "
                                                     "moment name -> sentence number or words"},
        "expect": {**_one_or_many(_TEXT), "description": "claims checked against the plan, "
                                                         "e.g. 'data.layers[29].rank == 1'"},
    }
    assert set(props) == S.BEAT_KEYS, "BEAT_KEYS and the JSON Schema disagree"
    return {"type": "object", "properties": props, "required": list(S.REQUIRED_BEAT),
            "additionalProperties": False}


def storyboard_schema() -> dict:
    props = {
        "template": {"enum": list(TEMPLATES), "description": "the scene template"},
        "title": {**_TEXT, "minLength": 1},
        "model": {**_TEXT, "description": "a built-in model (layerwise models) or a path: a "
                                          "Hugging Face folder or a .gguf file"},
        "sentences": _one_or_many({**_TEXT, "minLength": 1}),
        "focus": {**_one_or_many(_TEXT), "description": "the word to follow: bank, or bank#2 "
                                                        "for its second occurrence"},
        "layers": {"oneOf": [{"const": "all"},
                             {"type": "array", "items": _INT, "minItems": 1, "uniqueItems": True}]},
        "heads": {"oneOf": [{"const": "all"},
                            {"type": "array", "items": _INT, "minItems": 1, "uniqueItems": True}]},
        "footer": {"type": "boolean"},
        "words_per_minute": {"type": "number", "exclusiveMinimum": 0},
        "captions": {"enum": list(S.CAPTIONS)},
        "beats": {"type": "array", "items": beat_schema(), "minItems": 1},
    }
    assert set(props) == S.TOP_KEYS, "TOP_KEYS and the JSON Schema disagree"
    per_template = [{"if": {"properties": {"template": {"const": name}}},
                     "then": {"properties": {"beats": {"items": beat_schema(sorted(t.shows))}}}}
                    for name, t in TEMPLATES.items()]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://layerwise.invalid/storyboard.schema.json",
            "title": "layerwise storyboard", "type": "object", "properties": props,
            "required": list(S.REQUIRED_TOP), "additionalProperties": False,
            "allOf": per_template}


def main() -> int:
    sys.stdout.write(json.dumps(storyboard_schema(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
