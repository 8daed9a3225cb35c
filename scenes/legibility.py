"""How small a text's smallest glyphs are: superscripts and subscripts included.

The legibility floor (issue 22, item 4) is a *cap height*: the height of a capital letter or a
digit, in px at 854x480 (the 480p15 render, `--quality l`). Every text and formula on screen
is measured at each of its sizes: its main size, and the size of its superscripts and
subscripts, which are drawn smaller:
- in Typst math (`MathTypst`), `^` and `_` attach a script at `SCRIPT_SCALE[1]` (70 %) of the
  size, a script of a script at `SCRIPT_SCALE[2]` (50 %): the math font's MATH table
  (scriptPercentScaleDown 70, scriptScriptPercentScaleDown 50; a digit measures 0.344, 0.239
  and 0.172 units at font size 48 at the three levels). `script_depth` reads the code;
- in a `Text`, a superscript or subscript character (⁰-⁹, ⁽⁾, ₀-₉, ˡ ...; Unicode's
  `<super>`/`<sub>` decompositions) is its own glyph, designed smaller: its scale is the
  height of its glyph over the height of the glyph it decomposes to, in the same font
  (DejaVu Sans: '³' is 0.56 of '3').
The cap height of the main size is that of 'H' at the text's effective font size (after any
scaling), divided by the camera's zoom; a script's is that times its scale.
`tests/test_legibility.py` checks the figures against the ink of rendered pixels.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from math import ceil

FLOOR_PX = 8.0                      # the smallest cap height any glyph may have (README)
SCRIPT_SCALE = (1.0, 0.7, 0.5)      # Typst math: main, script, script of a script (and deeper)
REF_SIZE = 48                       # font size the reference glyphs are measured at
PX_PER_UNIT = 480 / 8               # 854x480, the camera's frame unzoomed (8 units tall)


def _base_of(ch: str) -> str | None:
    """The character a superscript or subscript character stands for ('³' -> '3'), or None."""
    parts = unicodedata.decomposition(ch).split()
    if len(parts) == 2 and parts[0] in ("<super>", "<sub>"):
        return chr(int(parts[1], 16))
    return None


def script_chars(text: str) -> str:
    """The superscript and subscript characters of a text, in order."""
    return "".join(c for c in text if _base_of(c) is not None)


def script_depth(code: str) -> int:
    """The deepest attachment level of Typst math code: 0 without `^`/`_`, 1 for `X^((30))`,
    `W_Q` or `Delta_"attn"`, 2 for `e^(x_i)`. An attachment's argument is a parenthesised
    group, a quoted text, a run of letters and digits, or one other character; text in quotes
    elsewhere is not read (it has no scripts)."""
    best, opened, level, i = 0, [], 0, 0
    while i < len(code):
        c = code[i]
        if c == "\\":                                   # an escaped character
            i += 2
        elif c == '"':
            i = _quoted_end(code, i)
        elif c in "^_":
            j = i + 1
            while j < len(code) and code[j] == " ":
                j += 1
            best = max(best, level + 1)
            if j < len(code) and code[j] == "(":
                opened.append(level)
                level, i = level + 1, j + 1
            else:
                i = _atom_end(code, j)
        else:
            if c == "(":
                opened.append(level)
            elif c == ")" and opened:
                level = opened.pop()
            i += 1
    return best


def _quoted_end(code: str, i: int) -> int:
    """Just past the quoted text that starts at `i`."""
    end = code.find('"', i + 1)
    return len(code) if end < 0 else end + 1


def _atom_end(code: str, j: int) -> int:
    """Just past an attachment's argument that is not a group: quoted text, a run of letters
    and digits, or one character."""
    if j < len(code) and code[j] == '"':
        return _quoted_end(code, j)
    k = j
    while k < len(code) and code[k].isalnum():
        k += 1
    return max(k, j + 1)


@lru_cache(maxsize=None)
def text_scale(ch: str, font: str) -> float:
    """Height of a script character's glyph over its base character's, in `font`."""
    from manim import Text
    base = _base_of(ch)
    return Text(ch, font=font, font_size=REF_SIZE).height / \
        Text(base, font=font, font_size=REF_SIZE).height


@lru_cache(maxsize=None)
def cap_height(kind: str, font: str | None) -> float:
    """Height of 'H' at font size REF_SIZE, in scene units: a `Text` in `font`, or Typst
    math (kind 'math')."""
    from manim import MathTypst, Text
    if kind == "math":
        return MathTypst("H", font_size=REF_SIZE).height
    return Text("H", font=font, font_size=REF_SIZE).height


def levels(m, font_default: str) -> list[tuple[str, float]]:
    """(what, scale) for each size a text or formula draws: ("", 1.0) for its main size,
    then its scripts: ("^1", 0.7) for Typst's first script level, ("⁽³⁰⁾", 0.56) for the
    script characters of a Text (the smallest of their scales)."""
    code = getattr(m, "typst_code", None)
    if code is not None:
        d = script_depth(code)
        return [("", 1.0)] + [(f"^{k}", SCRIPT_SCALE[min(k, len(SCRIPT_SCALE) - 1)])
                              for k in range(1, d + 1)]
    text = getattr(m, "text", "") or ""
    scripts = script_chars(text)
    font = getattr(m, "font", None) or font_default
    out = [("", 1.0)] if len(scripts) < len(text) else []
    if scripts:
        out.append((scripts, min(text_scale(c, font) for c in set(scripts))))
    return out or [("", 1.0)]


def is_text(m) -> bool:
    """Whether `m` is a piece of writing: a `Text` or a Typst formula (not a line or a shape)."""
    from manim import Text
    return isinstance(m, Text) or hasattr(m, "typst_code")


def sizes(m, px_per_unit: float, font_default: str) -> dict:
    """`cap_px` (the main size's cap height in px), `min_px` (the smallest size's) and
    `script` (what is drawn at the smallest size; "" when that is the main size)."""
    fs = float(m.font_size)
    kind = "math" if hasattr(m, "typst_code") else "text"
    font = None if kind == "math" else (getattr(m, "font", None) or font_default)
    cap = cap_height(kind, font) * fs / REF_SIZE * px_per_unit
    what, scale = min(levels(m, font_default), key=lambda ws: ws[1])
    return {"cap_px": round(cap, 2), "min_px": round(cap * scale, 2), "script": what}


def legible_math_size(code: str, size: float) -> float:
    """`size`, or, if larger, the smallest whole font size at which the smallest glyphs of
    Typst math `code` (its deepest script, `script_depth`) have `FLOOR_PX` of cap height at
    854x480 with the camera unzoomed: 27 for a formula with scripts (`X^((30))`: 8.1 px; at
    26, 7.8 px), 38 for a script of a script, 19 without scripts. `scenes.mobjects.text.math`
    draws every formula at this size, so no caller can set a script under the floor."""
    scale = SCRIPT_SCALE[min(script_depth(code), len(SCRIPT_SCALE) - 1)]
    px_per_size = cap_height("math", None) / REF_SIZE * PX_PER_UNIT
    return max(size, float(ceil(FLOOR_PX / (px_per_size * scale) - 1e-9)))


def under_floor(record: dict, floor: float = FLOOR_PX) -> list[dict]:
    """What one beat's text record (`text/NN_beat.json`) shows under the floor: at the beat's
    last frame (`when` "end") and, in the middle of a play, every text that play neither
    animates nor moves the camera over (`when` "mid": it stands still at that size while
    the play runs; one growing into place, or zoomed past, is not meant to be read yet).
    Each (when, text, script) once, at its smallest: {when, text, script, px}, smallest
    first."""
    seen: dict[tuple, float] = {}
    samples = [("end", record.get("texts", []))] + \
        [("mid", [t for t in s["texts"] if not t.get("moving")]) for s in record.get("midplay", [])]
    for when, texts in samples:
        for t in texts:
            if t["min_px"] < floor:
                key = (when, t["text"], t["script"])
                seen[key] = min(seen.get(key, t["min_px"]), t["min_px"])
    return sorted(({"when": w, "text": x, "script": s, "px": px} for (w, x, s), px in seen.items()),
                  key=lambda v: (v["px"], v["when"], v["text"]))


def smallest(record: dict) -> dict | None:
    """The smallest text of a beat's text record, last frame and still mid-play texts alike."""
    texts = record.get("texts", []) + [t for s in record.get("midplay", []) for t in s["texts"]
                                       if not t.get("moving")]
    return min(texts, key=lambda t: t["min_px"], default=None)
