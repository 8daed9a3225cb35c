"""Where a dense chart's numbers go (SmolLM2's 30 bars, 0.11 apart: a number spans seven):
pure geometry in scene units, no Manim (tests/test_plan_attention_depth.py).

Round 37 (a fresh review of a SmolLM2 draft): a number far below its neighbours went under
the axis, into the row of layer numbers ("0 0.01 / 11 ... 24 29", read as one row); now every
value sits above the bars, never under the axis: over its own bar where that is clear, else
slid sideways (its own bar still under it) to where the bars are lowest, and lifted clear of
every bar it spans and of every number placed before it, a thin line down to its bar. A
near-tie said as one ("lowest, 0.01, at layers 10 and 11"; "highest, 0.96, at layers 20 and
24") has one number over a comb, a tooth down to each of its bars. The layer numbers under the
axis drop a row where two would touch.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]         # left, right, bottom, top

CLEAR = 0.08        # between a number and the bars it clears, and above another number
APART = 0.25        # between two numbers side by side ("0.22 0.20" read as "0.220.20")
SLIDE = 0.6         # a sideways slide costs this much per unit against a lift


@dataclass(frozen=True)
class Placed:
    x: float                # the number's centre
    bottom: float           # its bottom edge
    box: Box


def meets(a: Box, b: Box, pad: float = 0.0) -> bool:
    """Whether two boxes (each grown by `pad`) meet."""
    return (a[1] + pad > b[0] and a[0] - pad < b[1] and a[3] + pad > b[2]
            and a[2] - pad < b[3])


def place(width: float, height: float, x: float, y: float, bars: list[Box],
          taken: list[Box], left: float, right: float) -> Placed:
    """A number `width` x `height` for the point (x, y) (a bar's top, or a bracket's): over
    it, or slid sideways so that x stays inside its span, at the lowest height that clears
    `bars` and `taken` (the numbers placed before it) by CLEAR, within [left, right]; the
    cheapest of lift + SLIDE x slide (the lift decides first: a number sits on its bar where
    it can)."""
    half = width / 2
    reach = max(0.0, half - 0.03)
    best = None
    for dx in (0.0, -reach, reach, -reach / 2, reach / 2):
        cx = x + dx
        if cx - half < left - 1e-9 or cx + half > right + 1e-9:
            continue
        bottom = y + CLEAR
        for b in bars:
            if b[1] > cx - half - CLEAR / 2 and b[0] < cx + half + CLEAR / 2:
                bottom = max(bottom, b[3] + CLEAR)
        moved = True
        while moved:            # lift over the numbers already placed
            moved = False
            for b in taken:
                if meets((cx - half - APART, cx + half + APART, bottom, bottom + height), b,
                         CLEAR / 2):
                    bottom, moved = b[3] + CLEAR, True
        cost = (bottom - y) + SLIDE * abs(dx)
        if best is None or cost < best[0] - 1e-9:
            best = (cost, cx, bottom)
    if best is None:            # nowhere inside: over the point, as wide as it is
        bottom = max([y + CLEAR] + [b[3] + CLEAR for b in bars
                                     if b[1] > x - half and b[0] < x + half])
        best = (0.0, x, bottom)
    _, cx, bottom = best
    return Placed(cx, bottom, (cx - half, cx + half, bottom, bottom + height))


def rows(spans: list[tuple[float, float]], gap: float = 0.08) -> list[int]:
    """Which row under the axis each layer number goes on (0: the first), left to right: a
    number that would touch the one before it on its row drops a row."""
    ends: list[float] = []
    out = []
    for a, b in spans:
        r = 0
        while r < len(ends) and a < ends[r] + gap:
            r += 1
        if r == len(ends):
            ends.append(b)
        else:
            ends[r] = b
        out.append(r)
    return out


def groups(layers: list[int], tied: list[list[int]]) -> list[list[int]]:
    """The labelled layers as the numbers that mark them: a near-tie (`tied`, each the layers
    written as one extreme) is one group, every other layer its own; in layer order."""
    out: list[list[int]] = []
    for ks in tied:
        ks = sorted(set(ks))
        merged = [g for g in out if set(g) & set(ks)]
        for g in merged:
            out.remove(g)
            ks = sorted(set(ks) | set(g))
        out.append(ks)
    for l in layers:
        if not any(l in g for g in out):
            out.append([l])
    return sorted(out)


def adjacent(layers: list[int]) -> list[list[int]]:
    """Layers split into runs of neighbours (10, 11 | 20 | 24)."""
    out: list[list[int]] = []
    for l in sorted(layers):
        if out and l == out[-1][-1] + 1:
            out[-1].append(l)
        else:
            out.append([l])
    return out
