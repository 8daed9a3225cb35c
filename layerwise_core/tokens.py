"""Tokens with character offsets, and the words a storyboard can name (`bank`, `bank#2`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import BadSentenceError, WordNotFoundError

_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class Tokenized:
    ids: tuple[int, ...]
    tokens: tuple[str, ...]                 # display strings, e.g. "[CLS]", " bank"
    offsets: tuple[tuple[int, int], ...]    # character span in the sentence; (0, 0) for specials

    def __len__(self) -> int:
        return len(self.ids)


def check_sentence(sentence: object) -> str:
    if not isinstance(sentence, str):
        raise BadSentenceError(f"sentence must be text, got {type(sentence).__name__}")
    if not sentence.strip():
        raise BadSentenceError("sentence is empty or only whitespace")
    return sentence


def words(sentence: str) -> list[tuple[str, int, int]]:
    """The sentence's words and punctuation marks with their character spans."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(sentence)]


def word_positions(sentence: str, tok: Tokenized, word: str) -> list[int]:
    """Token positions of `word` ("bank" = first occurrence, "bank#2" = second), in order.

    A word split into several tokens gives several positions. Matching is case-insensitive.
    """
    name, _, nth_text = word.partition("#")
    nth = int(nth_text) if nth_text.isdigit() and int(nth_text) >= 1 else None
    if nth_text and nth is None:
        raise WordNotFoundError(f"bad word reference {word!r}: use 'word' or 'word#N' with N >= 1")
    spans = [(s, e) for w, s, e in words(sentence) if w.lower() == name.lower()]
    if len(spans) < (nth or 1):
        listed = " ".join(w for w, _, _ in words(sentence))
        toks = " ".join(repr(t) for t in tok.tokens)
        count = f" (it occurs {len(spans)} time(s))" if spans else ""
        raise WordNotFoundError(f"word {word!r} is not in the sentence{count}; "
                                f"words: {listed}; tokens: {toks}")
    start, end = spans[(nth or 1) - 1]
    return [i for i, (s, e) in enumerate(tok.offsets) if e > s and s < end and e > start]


def word_table(sentence: str, tok: Tokenized) -> list[dict]:
    """Every word with its occurrence-qualified name and token positions (stored in traces)."""
    seen: dict[str, int] = {}
    table = []
    for w, s, e in words(sentence):
        n = seen[w.lower()] = seen.get(w.lower(), 0) + 1
        positions = [i for i, (a, b) in enumerate(tok.offsets) if b > a and a < e and b > s]
        table.append({"word": w, "ref": w if n == 1 else f"{w}#{n}", "span": [s, e],
                      "positions": positions})
    return table
