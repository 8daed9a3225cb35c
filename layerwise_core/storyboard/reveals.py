"""Reveals keyed to the narration: an element appears when it is named.

A beat may say `at: {k: 1, v: "values"}`: the handler `k` of its `show` list runs when
sentence 1 (0-based) of its narration starts, `v` when the word "values" is spoken. The plan
turns this into `steps: [{"show", "at"}]` (seconds into the beat), which the scene base class
follows (`StoryboardScene.steps`). With a voice the times are the cues' own (a word inside a
sentence: the sentence's start plus the word's share of its characters times its length);
silent plans estimate each sentence at the storyboard's words per minute.
"""

from __future__ import annotations

from ..voice.cues import split_cues


def check_at(at, show: list[str], narration: str) -> tuple[list[tuple[str, object]], list]:
    """(the reveals as (name, cue) pairs, [(key, problem), ...]) for a beat's `at` value."""
    problems: list[tuple[tuple, str]] = []
    if not isinstance(at, dict) or not at:
        return [], [((), f"must be a mapping of shown names to a sentence number or a word, "
                         f"got {at!r}")]
    cues = split_cues(narration)
    out = []
    for name, cue in at.items():
        if name not in show:
            problems.append(((name,), f"{name!r} is not in this beat's show list {show}"))
            continue
        if isinstance(cue, bool) or not isinstance(cue, (int, str)):
            problems.append(((name,), f"must be a sentence number or a word, got {cue!r}"))
        elif isinstance(cue, int) and not 0 <= cue < len(cues):
            problems.append(((name,), f"sentence {cue} is out of range: the narration has "
                                      f"{len(cues)} sentence(s), numbered from 0"))
        elif isinstance(cue, str) and (not cue.strip()
                                       or cue.strip().lower() not in narration.lower()):
            problems.append(((name,), f"{cue!r} is not said in this beat's narration"))
        else:
            out.append((str(name), cue.strip() if isinstance(cue, str) else cue))
    return out, problems


def cue_times(beat, words_per_minute: float) -> list[tuple[float, float, str]]:
    """(start, duration, text) of each sentence of the beat's narration."""
    if beat.cues:
        return [(c.start, c.duration, c.text) for c in beat.cues]
    out, t = [], 0.0
    for text in split_cues(beat.narration):
        d = len(text.split()) * 60.0 / words_per_minute
        out.append((t, d, text))
        t += d
    return out


def reveal_time(cue, times: list[tuple[float, float, str]]) -> float:
    """Seconds into the beat at which `cue` (a sentence number or a word) is spoken."""
    if isinstance(cue, int):
        return times[cue][0]
    for start, duration, text in times:
        i = text.lower().find(cue.lower())
        if i >= 0:
            return start + duration * i / max(1, len(text))
    return 0.0          # a word split across two sentences: from the beat's start


def steps(beat, words_per_minute: float) -> list[dict] | None:
    """The beat's `show` handlers with their times, or None when it keys nothing."""
    if not beat.at:
        return None
    times = cue_times(beat, words_per_minute)
    keyed = dict(beat.at)
    out, last = [], 0.0
    for name in beat.show:
        at = None
        if name in keyed:
            at = round(min(max(last, reveal_time(keyed[name], times)), beat.duration), 3)
            last = at
        out.append({"show": name, "at": at})
    return out
