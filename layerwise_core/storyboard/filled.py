"""A storyboard bound to its plan: placeholders filled, `expect:` claims checked.

`fill_storyboard(sb, plan)` runs at plan time, after the template's data are computed and
before the narration is split into cues and spoken, so the voice speaks the true numbers and
the durations follow them. Every problem of every beat is collected; any problem raises one
StoryboardError (`file:line: beats[i].narration: ...` at the narration's line,
`file:line: beats[i].expect[j]: ...` at the claim's line) and nothing is written. Paths resolve
against the plan (without its beats) plus `beat`: this beat's id, show, layer and head.
"""

from __future__ import annotations

import dataclasses

from ..errors import StoryboardError, shorten
from ..voice.cues import split_cues
from .claims import ClaimError, check_claim, parse_claim
from .paths import PathError
from .placeholders import PlaceholderError, fill, has_placeholders
from .reveals import locate
from .schema import Storyboard, narration_seconds

FIELDS = ("caption", "narration")


def beat_scope(plan: dict, beat) -> dict:
    """What a beat's placeholders and claims can name: the plan and `beat`."""
    return {**plan, "beat": {"id": beat.id, "show": list(beat.show), "layer": beat.layer,
                             "head": beat.head}}


def fill_storyboard(sb: Storyboard, plan: dict) -> Storyboard:
    problems, beats = [], []
    for i, b in enumerate(sb.beats):
        scope = beat_scope(plan, b)
        changes, written = {}, []
        for name in FIELDS:
            text = getattr(b, name)
            if not has_placeholders(text):
                continue
            try:
                changes[name] = fill(text, scope)
            except (PlaceholderError, PathError) as e:
                problems.append(f"{sb.path}:{sb.line(('beats', i, name))}: beats[{i}].{name}: "
                                f"{shorten(e)}")
                continue
            written.append((name, text))
        if "narration" in changes and (b.at or b.moments):
            problems += _keys_still_said(sb, i, b, changes["narration"])
        checked = []
        for j, text in enumerate(b.expect):
            try:
                checked.append((text, check_claim(parse_claim(text), scope)))
            except (ClaimError, PathError) as e:
                problems.append(f"{sb.path}:{sb.line(('beats', i, 'expect', j))}: "
                                f"beats[{i}].expect[{j}]: {shorten(e)}")
        if "narration" in changes and b.given_duration is None:
            estimate = narration_seconds(changes["narration"], sb.words_per_minute)
            changes["duration"] = max(estimate, b.duration) if b.audio else estimate
        beats.append(dataclasses.replace(b, **changes, written=tuple(written),
                                         checked=tuple(checked)))
    if problems:
        raise StoryboardError(problems)
    return dataclasses.replace(sb, beats=tuple(beats))


def _keys_still_said(sb: Storyboard, i: int, beat, filled: str) -> list[str]:
    """`at:` and `moments:` were checked against the narration as written; they must still
    hold once filled (a filled text could add a sentence break or replace a keyed word)."""
    out, cues = [], split_cues(filled)
    for field, keyed in (("at", beat.at), ("moments", beat.moments)):
        for name, cue in keyed:
            if isinstance(cue, int) and cue >= len(cues) or isinstance(cue, str) and \
                    locate(cue, cues) is None:
                out.append(f"{sb.path}:{sb.line(('beats', i, field, name))}: "
                           f"beats[{i}].{field}.{name}: {cue!r} no longer fits the narration "
                           f"once its placeholders are filled ({filled[:80]!r})")
    return out
