"""Placeholders in a beat's `caption` and `narration`, filled from the plan at plan time.

Grammar:
- `{path}` or `{path:spec}`: `path` is a plan path (storyboard/paths.py: `data.layers[21].rank`,
  `model.n_layers`, `beat.layer`) or a ratio of two (`data.a / data.b`); it must name one number
  or one text, not a list or mapping.
- `spec` is Python's format-spec mini-language, as in `format(value, spec)`: `.2f` (two
  decimals), `,` (thousands separators), `,.0f`, `.0%` (a share as a percentage), `d`, `+.1f`.
  No nested braces. Without a spec a number is written as Python writes it (`str`).
- `{{` and `}}` are a literal `{` and `}`; any other lone brace is an error.
The filled text keeps its digits (captions on screen, subtitles); the voice hears the numbers
as words (voice/spoken.py). Syntax is checked by `layerwise validate`; paths and values once the
plan's data exist (`layerwise plan`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .paths import PathError, evaluate, parse_expression


class PlaceholderError(ValueError):
    """Malformed placeholder text (the message says where and why)."""


@dataclass(frozen=True)
class Placeholder:
    text: str           # as written, with its braces
    expression: str
    spec: str


def _split_spec(inside: str) -> tuple[str, str]:
    """'data.x[0:3]:.2f' -> ('data.x[0:3]', '.2f'): the first colon outside brackets."""
    depth = 0
    for i, ch in enumerate(inside):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == ":" and depth == 0:
            return inside[:i], inside[i + 1:]
    return inside, ""


def _check_spec(spec: str) -> None:
    for sample in (1234.5, 7, "x"):
        try:
            format(sample, spec)
            return
        except (ValueError, TypeError):
            continue
    raise PlaceholderError(f"format {spec!r} is not a Python format spec (like .2f, ',' or .0%)")


def parse(text: str) -> list[str | Placeholder]:
    """The text as literal pieces and placeholders; raises PlaceholderError."""
    out: list[str | Placeholder] = []
    literal, i = [], 0
    while i < len(text):
        ch = text[i]
        if text.startswith("{{", i) or text.startswith("}}", i):
            literal.append(ch)
            i += 2
        elif ch == "}":
            raise PlaceholderError(f"a lone '}}' at character {i + 1} (write '}}}}' for a "
                                   f"literal brace)")
        elif ch == "{":
            end = text.find("}", i + 1)
            if end < 0 or "{" in text[i + 1:end]:
                raise PlaceholderError(f"'{{' at character {i + 1} is not closed (write '{{{{' "
                                       f"for a literal brace)")
            inside = text[i + 1:end]
            expression, spec = _split_spec(inside)
            try:
                parse_expression(expression)
            except PathError as e:
                raise PlaceholderError(f"placeholder {{{inside}}}: {e}") from None
            _check_spec(spec)
            if literal:
                out.append("".join(literal))
                literal = []
            out.append(Placeholder(text[i:end + 1], expression.strip(), spec))
            i = end + 1
        else:
            literal.append(ch)
            i += 1
    if literal:
        out.append("".join(literal))
    return out


def has_placeholders(text: str) -> bool:
    return "{" in text or "}" in text


def format_value(value, spec: str, name: str) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict)):
        what = (f"a list of {len(value)}" if isinstance(value, list) else
                "a mapping" if isinstance(value, dict) else repr(value))
        raise PathError(f"{{{name}}} is {what}; a placeholder needs one number or text")
    try:
        return format(value, spec)
    except (ValueError, TypeError) as e:
        raise PathError(f"{{{name}:{spec}}}: cannot format {value!r} with {spec!r}: {e}") \
            from None


def fill(text: str, plan: dict) -> str:
    """`text` with every placeholder replaced by its plan value; raises PlaceholderError
    (syntax) or PathError (a path or value the plan does not have)."""
    out = []
    for piece in parse(text):
        if isinstance(piece, str):
            out.append(piece)
            continue
        try:
            value = evaluate(plan, parse_expression(piece.expression))
        except PathError as e:
            raise PathError(f"placeholder {piece.text}: {e}") from None
        out.append(format_value(value, piece.spec, piece.expression))
    return "".join(out)
