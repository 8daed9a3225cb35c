"""A beat's narration as cues: one sentence each, so each is spoken and timed on its own.

A sentence ends at `.`, `!`, `?` or `…` (with any closing quotes or brackets) followed by
white space, except
- after an abbreviation ("e.g.", "i.e.", "etc.", "vs.", "Fig.", "Dr.", ...),
- when the next word starts with a small letter ("the U.S. economy", "wait... then").
Decimals ("0.76"), versions ("v1.2") and dotted names ("blocks.3.attn") have no space after
the dot, so they never split. White space (YAML line folds) is collapsed to single spaces;
joining the cues with spaces gives the narration back.
"""

from __future__ import annotations

import re

ABBREVIATIONS = frozenset({        # words that end a sentence too ("No.", "max.") are not here
    "e.g", "i.e", "etc", "vs", "cf", "approx", "ca", "al", "fig", "figs", "eq", "eqs", "sec",
    "ch", "vol", "pp", "dr", "mr", "mrs", "ms", "prof", "jr", "sr", "inc", "ltd", "resp",
    "incl", "excl", "ref", "refs",
})
_END = re.compile(r"[.!?…]+[\"'”’»)\]}]*(?=\s)")
_OPENERS = "\"'“‘«([{"


def split_cues(text: str) -> list[str]:
    """The sentences of `text`, in order (empty text: no cues)."""
    text = " ".join(str(text).split())
    cues, begin = [], 0
    for m in _END.finditer(text):
        end = m.end()
        rest = text[end:].lstrip()
        if not rest:
            break
        punct = m.group(0).rstrip("\"'”’»)]}")
        word = text[begin:m.start()].rsplit(" ", 1)[-1].lstrip(_OPENERS).lower()
        if punct == "." and word in ABBREVIATIONS:
            continue
        first = rest.lstrip(_OPENERS)[:1]
        if first.islower():
            continue
        cues.append(text[begin:end].strip())
        begin = end + 1
    tail = text[begin:].strip()
    if tail:
        cues.append(tail)
    return cues
