"""Plan-time check that a number shown with `decimals` cannot round differently on another CPU.

A float32 trace differs by ~1e-6 relative between CPU kernels and thread counts
(`ATEN_CPU_CAPABILITY`, `OMP_NUM_THREADS`). If a shown value sits within that noise of a rounding
boundary (0.125 shown with 2 decimals), one machine writes 0.12 and another 0.13. `stable` fails
loudly at plan time instead, naming the plan path, so the plan builder must show fewer decimals
or a fixed bound (analysis.robust.error_bound) rather than a value that flips between machines.
"""

from __future__ import annotations

import math

from ..errors import LayerwiseError

NOISE_REL = 1e-5        # 10x the ~1e-6 relative noise measured between capabilities
NOISE_ABS = 1e-9        # values near 0 (float64 sums of float32 terms)


def near_boundary(value: float, decimals: int, rel: float = NOISE_REL) -> bool:
    """Whether `value` is within float noise of a point where its rounding to `decimals` changes."""
    value = float(value)
    step = 10.0 ** -decimals
    noise = rel * abs(value) + NOISE_ABS
    half = (math.floor(value / step) + 0.5) * step        # the boundary below/above value
    return min(abs(value - half), abs(value - (half - step)), abs(value - (half + step))) <= noise


def stable(value: float, decimals: int, where: str) -> float:
    """`value` unchanged, or LayerwiseError if it would round differently on another machine."""
    if near_boundary(value, decimals):
        raise LayerwiseError(f"plan: {where}: {float(value)!r} shown with {decimals} decimals is "
                             f"within float noise of a rounding boundary")
    return float(value)


def _flat(values, where: str):
    """(path, value) of every number in nested lists, None (a masked entry) left out."""
    if isinstance(values, (list, tuple)):
        for i, v in enumerate(values):
            yield from _flat(v, f"{where}[{i}]")
    elif values is not None:
        yield where, float(values)


def shown_decimals(values, decimals: int, where: str, fewer_first: bool = False) -> int:
    """Decimals for numbers shown together (a row, a column, nested lists of them): the first of
    `decimals`, one more, one fewer (not below 1), none, at which none of them sits within float
    noise of a rounding boundary; if none fits, the error names the first number that fails at
    `decimals` (its path `where[i][j]`). `fewer_first` tries one fewer before one more (entries
    of a vector): each decimal more makes a boundary ten times likelier (SmolLM2's entries, ~2-25,
    at 3 decimals: ~5 % each)."""
    flat = list(_flat(values, where))
    fewer = [decimals - 1] if decimals > 1 else []
    order = [decimals] + (fewer + [decimals + 1] if fewer_first else [decimals + 1] + fewer)
    for d in dict.fromkeys(order + [0]):
        if not any(near_boundary(v, d) for _, v in flat):
            return d
    for path, v in flat:
        stable(v, decimals, path)
    return decimals


def fitting_decimals(values, decimals: int, where: str) -> int:
    """`shown_decimals` trying one fewer before one more."""
    return shown_decimals(values, decimals, where, fewer_first=True)



def summed_decimals(terms, total: float, shown, decimals: int, where: str,
                    most: int = 5) -> tuple[int, bool]:
    """Decimals for a column sum written on screen, and whether it adds up as written: the first
    count from `decimals` up to `most` at which the rounded `terms` add up to the rounded `total`
    and no number of `shown` (nested lists) sits within float noise of a rounding boundary, and
    True; if none (thirteen terms rounded can drift several units in the last place), `decimals`
    (checked stable) and False, and the sum is written "≈". Each count is tried once."""
    flat = list(_flat(shown, where))
    for d in range(decimals, most + 1):
        adds = round(sum(round(float(x), d) for x in terms), d) == round(float(total), d)
        if adds and not any(near_boundary(v, d) for _, v in flat):
            return d, True
    for path, v in flat:
        stable(v, decimals, path)
    return decimals, False
