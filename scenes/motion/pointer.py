"""Pointing at what the narration names: a short arrow that flicks in and out, or a box round
the thing that fades in whole and out again. Both are short, leave nothing behind, and use the
chapter's one pointer colour (`theme.POINTER`).

    point_at(scene, scene.shown["q"])      # or scene.point_at(m)
    emphasize(scene, row)                  # or scene.emphasize(m)
    emphasize(scene, num, bar, extra=[Indicate(arrow)])   # several at once, plus more
"""

from __future__ import annotations

from manim import (DOWN, LEFT, UP, Arrow, Create, FadeIn, FadeOut, Succession,
                   SurroundingRectangle, Uncreate, VGroup, Wait, Mobject)

from .. import theme as T


def _time(scene, run_time, share=0.12, cap=0.8):
    if run_time:
        return run_time
    return scene.quick(share, cap) if hasattr(scene, "quick") else cap


def point_at(scene, m: Mobject, color=T.POINTER, run_time: float | None = None,
             direction=LEFT) -> None:
    """An arrow grows towards `m` from `direction`, holds briefly, shrinks away."""
    k = float(scene.camera.frame.width) / 14.222 if hasattr(scene.camera, "frame") else 1.0
    end = m.get_edge_center(direction) + direction * 0.08 * k
    arrow = Arrow(end + direction * 0.9 * k, end, buff=0, color=color, stroke_width=5 * k,
                  tip_length=0.2 * k, max_tip_length_to_length_ratio=0.4)
    t = _time(scene, run_time)
    scene.play(Succession(Create(arrow, run_time=0.35 * t), Wait(0.3 * t),
                          Uncreate(arrow, run_time=0.35 * t)), run_time=t)
    scene.remove(arrow)


def emphasize(scene, *ms: Mobject, color=T.POINTER, run_time: float | None = None,
              extra=(), buff: float = 0.1) -> None:
    """A box round each of `ms`, all together, fades in whole and out again: one thing, or the
    same thing in every place it is drawn (a number and its bar). A line drawn round them
    (Circumscribe) would leave half-drawn dashes through nearby text on the frames between.
    `extra` animations play alongside the fade in."""
    if not ms:
        raise ValueError("emphasize needs at least one mobject")
    t = _time(scene, run_time)
    boxes = VGroup(*[SurroundingRectangle(m, color=color, buff=buff, stroke_width=3) for m in ms])
    scene.play(FadeIn(boxes), *extra, run_time=0.5 * t)
    scene.play(FadeOut(boxes), run_time=0.5 * t)
    scene.remove(*boxes.get_family())


__all__ = ["point_at", "emphasize"]
