"""Numbers a storyboard text says, for the test that every one is from the plan or claimed.

`mentions(text)` lists (words as written, value) for every number in a caption or narration
with its placeholders taken out:
- digits standing on their own ("576", "2.18", "3,000", "7%" = 0.07, "30-layer"); digits
  glued to letters are names ("SmolLM2", "135M", "W_2"); superscript digits count ("X⁽³⁰⁾");
- number words: cardinals ("three hundred eighty-four", "twenty three", "thousands"),
  fractions ("three quarters" = 0.75, "two thirds", "a tenth" = 0.1, "half"), multiples
  ("twice" = 2, "double", "triple") and ordinals from "second" up ("third" = 3).
Not counted, said here plainly: "one", "first", "last", "once" and "single" alone, which these
texts use as "a" / "the" ("one token", "the first layer") far more than as counts; "one" inside
a number ("twenty-one", "one hundred", "one third") counts.
A mention is covered by a claim when the claim's number equals its value, or, for `~=`, lies
within the claim's tolerance of it (claims.Claim: value, tolerance).
"""

from __future__ import annotations

import re
import unicodedata

UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
TENS = {w: 10 * i for i, w in enumerate(
    "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if w != "_"}
SCALES = {"hundred": 100, "thousand": 1000, "million": 10 ** 6, "billion": 10 ** 9}
PLURAL_SCALES = {w + "s": v for w, v in SCALES.items()} | {"dozens": 12, "dozen": 12}
FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
             "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "tenths": 10}
ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
            "twentieth": 20, "thirtieth": 30, "hundredth": 100}
MULTIPLES = {"twice": 2, "double": 2, "doubles": 2, "triple": 3, "triples": 3, "thrice": 3}
NOT_COUNTED = {"one", "first", "last", "once", "single"}

_DIGITS = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(%?)(?![\w])"
                     r"|[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_WORD = re.compile(r"[A-Za-z]+")


def _digit_mentions(text: str) -> list[tuple[str, float]]:
    out = []
    for m in _DIGITS.finditer(text):
        if m.group(1) is None:
            out.append((m.group(0), float("".join(str(unicodedata.digit(c)) for c in m.group(0)))))
            continue
        v = float(m.group(1).replace(",", "") + ("." + m.group(2) if m.group(2) else ""))
        out.append((m.group(0), v / 100 if m.group(3) else v))
    return out


def _cardinal(words: list[str]) -> float:
    total, current = 0, 0
    for w in words:
        if w in UNITS:
            current += UNITS[w]
        elif w in TENS:
            current += TENS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * SCALES[w]
            current = 0
    return total + current


def _word_mentions(text: str) -> list[tuple[str, float]]:
    found = list(_WORD.finditer(text))
    words = [(m.group(0).lower(), m.group(0)) for m in found]
    out, i = [], 0
    while i < len(words):
        w = words[i][0]
        j = i
        while j < len(words) and (words[j][0] in UNITS or words[j][0] in TENS
                                  or words[j][0] in SCALES):
            j += 1
            if j < len(words) and text[found[j - 1].end():found[j].start()].strip(" -"):
                break           # "one, zero" is two numbers; "twenty three" is one
        if j > i:
            phrase = [x for x, _ in words[i:j]]
            value = _cardinal(phrase)
            said = " ".join(x for _, x in words[i:j])
            if j < len(words) and words[j][0] in FRACTIONS:
                out.append((said + " " + words[j][1], value / FRACTIONS[words[j][0]]))
                j += 1
            elif phrase != ["one"]:
                out.append((said, value))
            i = j
            continue
        before = words[i - 1][0] if i else ""
        if w in FRACTIONS and (before in ("a", "an") or w in ("half", "halves")):
            out.append((words[i][1], 1 / FRACTIONS[w]))
        elif w in ORDINALS:
            out.append((words[i][1], ORDINALS[w]))
        elif w in PLURAL_SCALES:
            out.append((words[i][1], PLURAL_SCALES[w]))
        elif w in MULTIPLES:
            out.append((words[i][1], MULTIPLES[w]))
        i += 1
    return out


def mentions(text: str) -> list[tuple[str, float]]:
    """(as written, value) for every number said in `text` (placeholders already removed)."""
    return _digit_mentions(text) + _word_mentions(text)


def covered(value: float, claims) -> bool:
    """Whether some claim's number is `value` (within its tolerance for `~=`)."""
    for c in claims:
        slack = max(c.tolerance or 0.0, 1e-9 * abs(c.value))
        if abs(value - c.value) <= slack:
            return True
    return False
