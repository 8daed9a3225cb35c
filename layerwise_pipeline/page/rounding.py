"""How many decimals each plan number gets on the page: the decimals its video shows.

One table, `ROUNDING`, bound to plan paths. A row is (template, path pattern, decimals): the
first row whose template matches (`*` = any) and whose regular expression matches the whole
plan path of a number decides. `decimals` is an int, or the plan path of the int the scene
reads (`{0}`, `{1}`: the pattern's groups), so a plan that carries its own decimals keeps them.
A row whose decimals path is not in the plan is skipped. Whole numbers (ints) are shown whole.
The rows name the scene line that draws the number.
"""

from __future__ import annotations

import re
from functools import lru_cache

from layerwise_core.storyboard.paths import PathError, lookup

_I = r"\[(\d+)\]"          # one index, captured
_N = r"\[\d+\]"            # one index

ROUNDING: tuple[tuple[str, str, int | str], ...] = (
    # a {"value", "decimals"} record (residual_stream): the plan's own decimals
    ("*", r"(.*)\.value", "{0}.decimals"),
    # attention_depth/scene.py:186 row weights (v.decimals); :227 sink, :401 share (2)
    ("attention_depth", rf"data\.layers{_N}\.(?:row|on_special){_N}", "data.decimals"),
    ("attention_depth", rf"data\.layers{_N}\.(?:top|top_word)\.weight", "data.decimals"),
    # per_head/scene.py:463 weights (h.decimals.weights), :611 prev_token, :215 x, :676 pieces
    ("per_head", rf"data\.layers{_I}\.patterns{_N}{_N}{_N}", "data.layers[{0}].heads[0].decimals.weights"),
    ("per_head", rf"data\.layers{_I}\.prev_token{_N}", "data.layers[{0}].prev_decimals"),
    ("per_head", rf"data\.layers{_I}\.x{_N}", "data.layers[{0}].x_decimals"),
    # per_head/scene.py: the one pair's cosine, as its cos_text writes it
    ("per_head", rf"data\.layers{_I}\.w_pair\.cos", "data.layers[{0}].w_pair.decimals"),
    ("per_head", rf"data\.layers{_I}\.join\.(\w+)(?:{_N})*", "data.layers[{0}].join.decimals.{1}"),
    # context_qkv/scene.py:253 first numbers (v.first.decimals[key][layer]); :633 cosines (2)
    ("context_qkv", rf"data\.first\.(\w)\[(\d+)\]{_N}{_N}", "data.first.decimals.{0}[{1}]"),
    # fresh_qkv/scene.py:551-556 weights and biases (3); every other number there: 2
    ("fresh_qkv", rf"data\.layers{_N}\.(?:W_|b_)\w(?:{_N})*", 3),
    # bank_drift/scene.py:411-419 projection distances (1), :359 percentages (0)
    ("bank_drift", r"data\.projection\.(?:depth_distance|end_distances.*|ends_spread|output_norm)", 1),
    ("bank_drift", r"data\.projection\.(?:explained_percent.*|kept_percent)", 0),
    # theme.DECIMALS: "toy vectors, cosines, probabilities" (logit_lens/scene.py:425, and the rest)
    ("*", r".*", 2),
)


def fmt(value: float, decimals: int) -> str:
    """scenes.theme.fmt without manim: how every number is written on screen."""
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if text == f"-0.{'0' * decimals}" else text


@lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def resolve(plan: dict, path: str):
    """The value at a plan path such as `data.layers[0].x[2]` (the storyboard's path grammar;
    KeyError if none, as its callers expect)."""
    try:
        return lookup(plan, path)
    except PathError as e:
        raise KeyError(str(e)) from None


def decimals_for(plan: dict, path: str) -> int:
    template = plan.get("template", "")
    for tmpl, pattern, decimals in ROUNDING:
        if tmpl not in ("*", template):
            continue
        m = _compiled(pattern).fullmatch(path)
        if not m:
            continue
        if isinstance(decimals, int):
            return decimals
        try:
            found = resolve(plan, decimals.format(*m.groups()))
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(found, int) and not isinstance(found, bool):
            return found
    raise AssertionError("the last row matches every path")


def shown(plan: dict, path: str) -> str:
    """The number at `path` as the video writes it."""
    value = resolve(plan, path)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return fmt(float(value), decimals_for(plan, path))
