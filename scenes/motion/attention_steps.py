"""One query's attention, shown happening (a head's steps for one token):

    dot_products(scene, q, keys, dots, [0])        # a copy of q lands on key 0, q.k drops out
    weighted_sum(scene, values, weights, out)      # values shrink to their weights, add up

`q` and every key are `VectorColumn`s; `dots` holds one number per key, placed below it; `out`
is placed by the caller and appears where the shrunken values meet.
"""

from __future__ import annotations

from typing import Sequence

from manim import DOWN, AnimationGroup, FadeIn, FadeOut, Indicate, LaggedStart, Mobject

from .. import theme as T
from ..animations import FadeInPlace
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
    appears. `result` is placed by the caller; the parts stay, dimmed."""
    copies = [p.copy() for p in parts]
    scene.play(*[ghost(p, max(GHOST_OPACITY, float(w))) for p, w in zip(parts, weights)],
               LaggedStart(*[c.animate.scale(max(SMALLEST, float(w)))
                             for c, w in zip(copies, weights)], lag_ratio=lag),
               run_time=0.45 * run_time)
    scene.play(LaggedStart(*[c.animate.move_to(result).set_opacity(0.3) for c in copies],
                           lag_ratio=lag), run_time=0.35 * run_time)
    scene.remove(*copies)
    scene.play(AnimationGroup(FadeInPlace(result)), run_time=0.2 * run_time)
    return result


__all__ = ["dot_products", "weighted_sum", "SMALLEST"]
