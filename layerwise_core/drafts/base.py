"""What every draft is built from: the traced sentence(s) and focus word (`Context`), and
what a template's `build` returns (`Draft` of `Beat`s)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.vectors import positions
from ..errors import LayerwiseError
from ..trace import Trace

SPACE_MARKS = ("\u0120", "\u2581")      # GPT-2 "Ġ", SentencePiece "▁" (a decoded space is " ")


class DraftError(LayerwiseError):
    """This template cannot be drafted from this model or sentence (the message says why)."""


@dataclass
class Beat:
    id: str
    show: list[str]
    caption: str
    narration: str
    layer: int | None = None
    head: int | None = None
    expect: list[str] = field(default_factory=list)
    moments: dict = field(default_factory=dict)     # what the template's handlers wait for


@dataclass
class Draft:
    title: str
    beats: list[Beat]
    layers: str | list[int] = "all"
    heads: str | list[int] | None = None
    notes: list[str] = field(default_factory=list)      # comment lines: what was chosen, why


@dataclass(frozen=True)
class Context:
    template: str
    model: str                  # as the storyboard names it (a built-in name or an absolute path)
    traces: tuple[Trace, ...]
    focus: str                  # `bank` or `bank#2`

    @property
    def trace(self) -> Trace:
        return self.traces[0]

    @property
    def pos(self) -> list[int]:
        return positions(self.trace, self.focus)

    @property
    def said(self) -> str:
        """The focus word as narration writes it, in quotes."""
        return quoted(self.word)

    @property
    def word(self) -> str:
        """The focus word as the first sentence spells it."""
        t = self.trace
        p = self.pos
        a, b = t.meta["offsets"][p[0]][0], t.meta["offsets"][p[-1]][1]
        name = self.focus.partition("#")[0]
        text = t.sentence[a:b].strip()
        return text if text.lower() == name.lower() else name


def spoken_token(token: str) -> str:
    """A token as narration writes it: without the space it carries ("Ġriver", " river")."""
    for mark in SPACE_MARKS:
        if token.startswith(mark) and len(token) > len(mark):
            token = token[len(mark):]
    return token.strip() or token


def quoted(token: str) -> str:
    return f"\u201c{spoken_token(token)}\u201d"


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
