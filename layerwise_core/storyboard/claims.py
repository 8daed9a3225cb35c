"""`expect:` claims on a beat, checked against the plan at plan time.

A claim is one line of text: `<expression> <op> <number>`, where the expression is a plan
path or a ratio of two (storyboard/paths.py) and op is one of `==`, `<`, `<=`, `>`, `>=`, `~=`.
`~=` needs a tolerance written after the number with `±` (or `+-` in plain ASCII):
`data.layers[29].prob ~= 0.75 ± 0.05` holds when |value - 0.75| <= 0.05. Numbers are decimal
(`-2`, `0.76`, `1e-4`; no thousands separators). A path that ends on a list (after a slice,
`data.layers[0:23].rank >= 2000`) claims it of every item. `==` on a float compares exactly;
use `~=` for measured values.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .paths import PathError, evaluate, parse_expression

OPS = ("==", "<=", ">=", "~=", "<", ">")
_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_CLAIM = re.compile(rf"^(?P<expr>.+?)\s*(?P<op>==|<=|>=|~=|<|>)\s*(?P<value>{_NUM})"
                    rf"(?:\s*(?:±|\+-)\s*(?P<tol>{_NUM}))?\s*$")


class ClaimError(ValueError):
    """A malformed claim, or a false one, or one whose path the plan does not have."""


@dataclass(frozen=True)
class Claim:
    text: str
    expression: tuple
    op: str
    value: float
    tolerance: float | None = None

    def holds(self, x: float) -> bool:
        v, t = self.value, self.tolerance
        return {"==": x == v, "<": x < v, "<=": x <= v, ">": x > v, ">=": x >= v,
                "~=": t is not None and abs(x - v) <= t}[self.op]


def parse_claim(text) -> Claim:
    if not isinstance(text, str):
        raise ClaimError(f"a claim is text like 'data.layers[29].rank == 1', got {text!r}")
    m = _CLAIM.match(text.strip())
    if not m:
        raise ClaimError(f"{text!r} is not a claim '<plan path> <op> <number>' with op one of "
                         f"{', '.join(OPS)} (~= takes '± tolerance')")
    try:
        expression = parse_expression(m["expr"])
    except PathError as e:
        raise ClaimError(f"{text!r}: {e}") from None
    tol = float(m["tol"]) if m["tol"] is not None else None
    if m["op"] == "~=" and tol is None:
        raise ClaimError(f"{text!r}: '~=' needs a tolerance, like '~= 0.76 ± 0.02'")
    if m["op"] != "~=" and tol is not None:
        raise ClaimError(f"{text!r}: only '~=' takes a tolerance")
    if tol is not None and not tol >= 0:
        raise ClaimError(f"{text!r}: the tolerance must be 0 or more")
    return Claim(text.strip(), expression, m["op"], float(m["value"]), tol)


def check_claim(claim: Claim, plan: dict):
    """The value the claim is about (a number or a list of numbers); raises ClaimError when
    it is false, or not a number, and PathError when the plan has no such path."""
    value = evaluate(plan, claim.expression)
    items = value if isinstance(value, list) else [value]
    for x in items:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or math.isnan(x):
            raise ClaimError(f"{claim.text!r}: the plan value is {x!r}, not a number")
    false = [x for x in items if not claim.holds(x)]
    if false:
        shown = (f"the plan has {_short(value)}" if not isinstance(value, list) else
                 f"{len(false)} of {len(items)} values fail, e.g. {_short(false[0])}")
        raise ClaimError(f"{claim.text!r} is false: {shown}")
    return value


def _short(x) -> str:
    return f"{x:.6g}" if isinstance(x, float) else repr(x)
