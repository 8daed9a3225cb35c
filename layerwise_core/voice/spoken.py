"""Numbers as a voice should read them: "0.76" -> "zero point seven six", "2,600" -> "two
thousand six hundred", "7%" -> "seven percent", "-1.5" -> "minus one point five".

Subtitles and captions keep the digits; only the text sent to a voice backend goes through
`spoken`. A number is converted when it stands on its own: not glued to a letter, digit or
underscore before it ("SmolLM2", "W_2") and not followed by a letter ("135M", "3rd", "2d"), so
names and units written together stay as they are. Thousands separators are commas in groups
of three ("3,000"); a minus sign counts only after a space or at the start ("-0.5", not
"GPT-4"). The fraction part is read digit by digit; an exponent ("1.2e-05") is read "times ten
to the minus five". Integers use the short scale up to the trillions, no "and", tens joined with
a hyphen ("twenty-four").
"""

from __future__ import annotations

import re

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million"),
           (1000, "thousand"))
_NUMBER = re.compile(r"(?:(?P<sign>(?<![^\s(\[\"'])-)|(?<![\w.\-]))"
                     r"(?P<int>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.(?P<frac>\d+))?"
                     r"(?:[eE](?P<exp>[-+]?\d+))?(?P<pct>%)?(?![A-Za-z_\d]|\.\d)")


def integer_words(n: int) -> str:
    """A whole number in words: 2600 -> "two thousand six hundred"."""
    if n < 0:
        return "minus " + integer_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {integer_words(rest)}" if rest else "")
    for size, name in _SCALES:
        if n >= size:
            high, rest = divmod(n, size)
            return f"{integer_words(high)} {name}" + (f" {integer_words(rest)}" if rest else "")
    raise AssertionError("unreachable")


def number_words(text: str) -> str:
    """One number as written ("-0.76", "3,000", "1.5e-05", "7%") in words."""
    m = _NUMBER.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a number: {text!r}")
    return _words(m)


def _words(m: re.Match) -> str:
    out = integer_words(int(m["int"].replace(",", "")))
    if m["frac"]:
        out += " point " + " ".join(_ONES[int(d)] for d in m["frac"])
    if m["exp"]:
        exp = int(m["exp"])
        out += " times ten to the " + ("minus " if exp < 0 else "") + integer_words(abs(exp))
    if m["sign"]:
        out = "minus " + out
    if m["pct"]:
        out += " percent"
    return out


def spoken(text: str) -> str:
    """`text` with every free-standing number written out in words."""
    return _NUMBER.sub(_words, text)
