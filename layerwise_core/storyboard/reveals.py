"""Reveals keyed to the narration: an element appears when it is named.

A beat may say `at: {k: 1, v: "values"}`: the handler `k` of its `show` list runs when
sentence 1 (0-based) of its narration starts, `v` when the word "values" is spoken. The plan
turns this into `steps: [{"show", "at"}]` (seconds into the beat), which the scene base class
follows (`StoryboardScene.steps`). With a voice the times are the cues' own (a word inside a
sentence: the sentence's start plus the word's share of its characters times its length);
silent plans estimate each sentence at the storyboard's words per minute.

A beat may also name **moments**: `moments: {dip: "dip", output: "at the output#2"}`, points
in its narration that a template's handler waits for (`StoryboardScene.said(name)`), so the
words a scene is timed to live in the storyboard and are checked at plan time instead of being
hard-coded in the template. They are a sibling map of `at:`, not more `at:` keys: `at:` keys are
handlers and change the order the beat runs them in (`steps`); a moment runs nothing, it is a
time inside a handler. Both take the same values, validated by the same code: a sentence number
(that sentence's start) or words of the narration (where they are first said; `words#n` the
n-th time, as `focus: bank#2` names the second "bank"). The template registry
(`layerwise_core.templates`) declares which moments each shown handler needs: one it needs that
the beat lacks, or one it does not know, is refused with file, line and field; words no longer
said once the placeholders are filled fail `layerwise plan` (storyboard.filled). The plan
records each as `{"cue", "after", "at"}`: the sentence, seconds after its start, seconds into
the beat.
"""

from __future__ import annotations

from ..voice.cues import split_cues


def check_at(at, show: list[str], narration: str) -> tuple[list[tuple[str, object]], list]:
    """(the reveals as (name, cue) pairs, [(key, problem), ...]) for a beat's `at` value."""
    return check_keyed(at, narration, show, f"is not in this beat's show list {show}",
                       "shown names")


def check_moments(moments, known, narration: str) -> tuple[list[tuple[str, object]], list]:
    """(the moments as (name, cue) pairs, [(key, problem), ...]) for a beat's `moments` value;
    `known`: the moment names the beat's handlers wait for (templates.Template.moments)."""
    known = sorted(known)
    return check_keyed(moments, narration, known,
                       f"is not a moment this beat's handlers wait for; they wait for: "
                       f"{', '.join(known) or 'none'}", "moment names")


def check_keyed(keyed, narration: str, names, unknown: str, what: str):
    """`at:` and `moments:` alike: a mapping of `names` to a sentence number or words."""
    problems: list[tuple[tuple, str]] = []
    if not isinstance(keyed, dict) or not keyed:
        return [], [((), f"must be a mapping of {what} to a sentence number or a word, "
                         f"got {keyed!r}")]
    cues = split_cues(narration)
    out = []
    for name, cue in keyed.items():
        if name not in names:
            problems.append(((name,), f"{name!r} {unknown}"))
            continue
        if isinstance(cue, bool) or not isinstance(cue, (int, str)):
            problems.append(((name,), f"must be a sentence number or a word, got {cue!r}"))
        elif isinstance(cue, int) and not 0 <= cue < len(cues):
            problems.append(((name,), f"sentence {cue} is out of range: the narration has "
                                      f"{len(cues)} sentence(s), numbered from 0"))
        elif isinstance(cue, str) and (not cue.strip() or locate(cue.strip(), cues) is None):
            problems.append(((name,), f"{cue!r} is not said in this beat's narration"))
        else:
            out.append((str(name), cue.strip() if isinstance(cue, str) else cue))
    return out, problems


def _words(cue: str) -> tuple[str, int]:
    """("words", n) for `words#n` (the n-th time they are said), ("words", 1) for words."""
    words, mark, nth = cue.rpartition("#")
    if mark and words.strip() and nth.isdigit() and int(nth) >= 1:
        return words.strip().lower(), int(nth)
    return cue.lower(), 1


def locate(cue: str, texts: list[str]) -> tuple[int, int] | None:
    """(sentence, character) where the words `cue` are said (the n-th time for `words#n`)
    inside one of the sentences `texts`; None if they are not (words across a sentence end
    are not said: no time could be given to them)."""
    words, n = _words(cue)
    for i, text in enumerate(texts):
        k = text.lower().find(words)
        while k >= 0:
            n -= 1
            if n == 0:
                return i, k
            k = text.lower().find(words, k + 1)
    return None


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
    found = locate(cue, [text for _, _, text in times])
    if found is None:
        return 0.0      # a word split across two sentences: from the beat's start
    start, duration, text = times[found[0]]
    return start + duration * found[1] / max(1, len(text))


def moment(cue, times: list[tuple[float, float, str]]) -> dict:
    """A moment as the plan records it: `cue` (its sentence), `after` (seconds after that
    sentence starts, computed as the scene computes a word's time, so voiced timings are
    exact) and `at` (seconds into the beat, rounded)."""
    if isinstance(cue, int):
        i, after = cue, 0.0
    else:
        i, k = locate(cue, [text for _, _, text in times]) or (0, 0)
        _, duration, text = times[i]
        after = float(duration) * k / max(1, len(text))
    return {"cue": i, "after": after, "at": round(times[i][0] + after, 3)}


def moments(beat, words_per_minute: float) -> dict | None:
    """The beat's moments by name, or None when it names none."""
    if not beat.moments:
        return None
    times = cue_times(beat, words_per_minute)
    return {name: moment(cue, times) for name, cue in beat.moments}


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
