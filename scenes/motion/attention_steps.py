"""One query's attention, shown happening (a head's steps for one token):

    dot_products(scene, q, keys, dots, [0])        # a copy of q lands on key 0, q.k drops out
    weighted_sum(scene, values, weights, out)      # values shrink to their weights, add up

`q` and every key are `VectorColumn`s; `dots` holds one number per key, placed below it; `out`
is placed by the caller and appears where the shrunken values meet.
"""

from __future__ import annotations

from typing import Sequence

from manim import (DOWN, AnimationGroup, FadeIn, FadeOut, Indicate, LaggedStart, Mobject,
                   Transform)

from .. import theme as T
from ..animations import FadeInPlace
from ..legibility import FLOOR_PX, is_text, sizes
from .ghosts import GHOST_OPACITY, ghost

SMALLEST = 0.04         # a part of weight ~0 shrinks to a speck, not to a point (no 0 scale)


def dot_products(scene, q, keys: Sequence, dots: Sequence, js: Sequence[int],
                 run_time: float = 1.0, color=T.Q) -> None:
    """Copies of the query's numbers land on the keys `js` (together), which light up; the
    copies fade and each dot product drops out below its key."""
    copies = [q.nums.copy() for _ in js]
    scene.play(*[c.animate.move_to(keys[j].nums).set_opacity(0.7) for c, j in zip(copies, js)],
               run_time=0.45 * run_time)
    scene.play(*[FadeOut(c, scale=0.6) for c in copies],
               *[Indicate(keys[j], color=color, scale_factor=1.06) for j in js],
               *[FadeIn(dots[j], shift=0.3 * DOWN) for j in js], run_time=0.55 * run_time)


def weighted_sum(scene, parts: Sequence[Mobject], weights: Sequence[float], result: Mobject,
                 run_time: float = 2.0, lag: float = 0.08) -> Mobject:
    """Copies of `parts` scale by their `weights` (in place, so a weight is seen as a size)
    while the parts dim (a heavy part stays bright), then fly to `result` and fade as it
    appears. A copy's numbers that would end under the legibility floor fade as it shrinks
    and do not fly (its brackets do): show less, not smaller. `result` is placed by the
    caller; the parts stay, dimmed."""
    copies = [p.copy() for p in parts]
    shrunk = [shrunk_to(scene, c, max(SMALLEST, float(w))) for c, w in zip(copies, weights)]
    scene.play(*[ghost(p, max(GHOST_OPACITY, float(w))) for p, w in zip(parts, weights)],
               LaggedStart(*[Transform(c, t) for c, (t, _) in zip(copies, shrunk)],
                           lag_ratio=lag),
               run_time=0.45 * run_time)
    for c, (_, faded) in zip(copies, shrunk):
        drop_parts(c, faded)
    scene.play(LaggedStart(*[c.animate.move_to(result).set_opacity(0.3) for c in copies],
                           lag_ratio=lag), run_time=0.35 * run_time)
    scene.remove(*copies)
    scene.play(AnimationGroup(FadeInPlace(result)), run_time=0.2 * run_time)
    return result


def shrunk_to(scene, m: Mobject, factor: float) -> tuple[Mobject, list[int]]:
    """`m` scaled by `factor` with every text that would then be under the legibility floor
    (at the scene's camera zoom) faded out, and the family indices of those texts."""
    target = m.copy().scale(factor)
    ppu = 480 / float(scene.camera.frame.height)
    faded = [i for i, part in enumerate(target.get_family())
             if is_text(part) and sizes(part, ppu, T.FONT)["min_px"] < FLOOR_PX]
    family = target.get_family()
    for i in faded:
        family[i].set_opacity(0)
    return target, faded


def drop_parts(m: Mobject, indices: Sequence[int]) -> None:
    """Take the parts at these family indices (of `m` as it was) out of `m`."""
    family = m.get_family()
    gone = {id(family[i]) for i in indices}
    for part in family:
        part.remove(*[s for s in part.submobjects if id(s) in gone])


__all__ = ["dot_products", "weighted_sum", "shrunk_to", "SMALLEST"]
