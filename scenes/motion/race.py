"""One ranked bar chart morphing from one state to the next (see `scenes.mobjects.race`).

An entry in both states slides to its new rank and its bar to its new length, its number
becoming the new one (ReplacementTransform, so the scene then holds the new row and its `Num`
bound to the new plan path); an entry that leaves sinks and fades, a new one rises into place.

    scene.play(*race_step(rows, new_rows, shift=0.3), run_time=0.5)
    rows = new_rows
"""

from __future__ import annotations

from manim import DOWN, UP, FadeIn, FadeOut, ReplacementTransform


def race_step(old: dict, new: dict, shift: float = 0.3) -> list:
    """Animations taking the rows `old` ({key: row}) to `new`."""
    anims = [ReplacementTransform(old[k], row) if k in old else FadeIn(row, shift=UP * shift)
             for k, row in new.items()]
    anims += [FadeOut(row, shift=DOWN * shift) for k, row in old.items() if k not in new]
    return anims


__all__ = ["race_step"]
