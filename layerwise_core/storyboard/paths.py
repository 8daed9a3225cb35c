"""Plan paths, as placeholders and `expect:` claims name them: `data.layers[21].rank`.

A path starts with a key of the plan (`data`, `model`, `layers`, `sentences`, ...) or `beat`
(this beat: its `id`, `show`, `layer`, `head`), then any number of `.key` and `[index]` steps.
An index may be negative (`[-1]` is the last item) or a slice `[a:b]` (items a to b-1, Python's
rule), or `[a:b:c]` (every c-th of them, as a chart that shows one state in c); the steps after a slice apply to every item, so `data.layers[0:23].rank` is the list of
23 ranks. A term is a path, or `min(path)`, `max(path)` or `len(path)` of a path that ends on a
list (`max(data.layers[0:23].rank)`, `len(sentences)`), or a whole number (`1`). An expression
is a term, or two terms with `/`, `+` or `-` between them (`+` and `-` with spaces around them):
`data.a / data.b`, `beat.layer + 1`, `model.n_layers - beat.layer`.
Resolving never evaluates anything: it only walks dicts and lists of the plan JSON.
"""

from __future__ import annotations

import re

_STEP = re.compile(r"\.(?P<key>[A-Za-z_][A-Za-z0-9_]*)"
                   r"|\[(?P<index>-?\d+)\]"
                   r"|\[(?P<start>-?\d*):(?P<stop>-?\d*)(?::(?P<every>[1-9]\d*))?\]")
_ROOT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class PathError(ValueError):
    """A path that is malformed or names nothing in the plan (the message says which)."""


def parse_path(text: str) -> tuple:
    """'data.layers[21].rank' -> ('data', 'layers', 21, 'rank'); a slice is a `slice`."""
    text = text.strip()
    m = _ROOT.match(text)
    if not m:
        raise PathError(f"{text!r} is not a plan path (like data.layers[21].rank)")
    steps, pos = [m.group(0)], m.end()
    while pos < len(text):
        s = _STEP.match(text, pos)
        if not s:
            raise PathError(f"{text!r} is not a plan path: cannot read {text[pos:]!r}")
        if s["key"] is not None:
            steps.append(s["key"])
        elif s["index"] is not None:
            steps.append(int(s["index"]))
        else:
            steps.append(slice(int(s["start"]) if s["start"] else None,
                               int(s["stop"]) if s["stop"] else None,
                               int(s["every"]) if s["every"] else None))
        pos = s.end()
    return tuple(steps)


FUNCTIONS = {"min": min, "max": max, "len": len}
_CALL = re.compile(r"^\s*(?P<fn>[a-z]+)\((?P<path>[^()]*)\)\s*$")


def parse_term(text: str) -> tuple:
    """A path as steps, or ('()', function name, steps) for min/max/len of a path."""
    m = _CALL.match(text)
    if m is None:
        return parse_path(text)
    if m["fn"] not in FUNCTIONS:
        raise PathError(f"{text.strip()!r}: unknown function {m['fn']!r}; known: "
                        f"{', '.join(FUNCTIONS)}")
    return ("()", m["fn"], parse_path(m["path"]))


_OP = re.compile(r"\s*/\s*|\s+[+-]\s+")
_INT = re.compile(r"^\s*\d+\s*$")


def parse_expression(text: str) -> tuple:
    """'a / b' -> (term a, '/', term b); 'a' -> (term a, None, None). A term is a path's
    steps, ('()', function, steps), or ('#', whole number)."""
    m = _OP.search(text)
    if m is None:
        return _term(text), None, None
    return _term(text[:m.start()]), m.group(0).strip(), _term(text[m.end():])


def _term(text: str) -> tuple:
    return ("#", int(text)) if _INT.match(text) else parse_term(text)


def path_text(steps) -> str:
    if steps and steps[0] == "#":
        return str(steps[1])
    if steps and steps[0] == "()":
        return f"{steps[1]}({path_text(steps[2])})"
    out = ""
    for s in steps:
        if isinstance(s, slice):
            out += (f"[{'' if s.start is None else s.start}:{'' if s.stop is None else s.stop}"
                    f"{'' if s.step is None else f':{s.step}'}]")
        elif isinstance(s, int):
            out += f"[{s}]"
        else:
            out += f".{s}" if out else s
    return out


def resolve(plan: dict, steps: tuple):
    """The value at `steps` in the plan (a list after a slice); PathError names the first
    step that does not exist."""
    node, mapped, done = plan, False, ()

    def step(value, s):
        if isinstance(s, str):
            if not isinstance(value, dict) or s not in value:
                known = ", ".join(sorted(value)[:12]) if isinstance(value, dict) else ""
                what = f"it has: {known}" if known else f"it is {_kind(value)}"
                raise PathError(f"{path_text(done + (s,))}: no key {s!r} in "
                                f"{path_text(done) or 'the plan'} ({what})")
            return value[s]
        if not isinstance(value, list):
            raise PathError(f"{path_text(done + (s,))}: {path_text(done)} is {_kind(value)}, "
                            f"not a list")
        if isinstance(s, slice):
            return value[s]
        if not -len(value) <= s < len(value):
            raise PathError(f"{path_text(done + (s,))}: index {s} is out of range, "
                            f"{path_text(done)} has {len(value)} items")
        return value[s]

    for s in steps:
        node = [step(v, s) for v in node] if mapped else step(node, s)
        if isinstance(s, slice):
            mapped = True
        done += (s,)
    return node


def lookup(plan: dict, text: str):
    """The value at the plan path `text` ('data.layers[3].x_norm'): the one path grammar, for
    the validator, the scenes and the page alike."""
    return resolve(plan, parse_path(text))


def value_of(plan: dict, term: tuple):
    """A parsed term's value."""
    if term and term[0] == "#":
        return term[1]
    if not (term and term[0] == "()"):
        return resolve(plan, term)
    _, fn, steps = term
    items = resolve(plan, steps)
    if not isinstance(items, list) or not items:
        raise PathError(f"{path_text(term)}: {path_text(steps)} is {_kind(items)}, not a "
                        f"non-empty list")
    if fn != "len" and not all(_is_number(x) for x in items):
        raise PathError(f"{path_text(term)}: {path_text(steps)} holds values that are not "
                        f"numbers")
    return FUNCTIONS[fn](items)


def evaluate(plan: dict, expression: tuple):
    """A parsed expression's value: a number, a text, or a list of them (after a slice)."""
    top, op, bottom = expression
    a = value_of(plan, top)
    if op is None:
        return a
    b = value_of(plan, bottom)
    for v, p in ((a, top), (b, bottom)):
        if not _is_number(v):
            raise PathError(f"{path_text(p)} is {_kind(v)}; {op!r} needs two numbers")
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if b == 0:
        raise PathError(f"{path_text(bottom)} is 0; cannot divide by it")
    return a / b


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _kind(v) -> str:
    if isinstance(v, bool):
        return f"a true/false value ({v})"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    if v is None:
        return "empty (null)"
    return f"{type(v).__name__} {v!r}"[:60]
