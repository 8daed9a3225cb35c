"""Ghosts: the previous layer's Q, K, V stay on screen, dimmed (and optionally moved aside),
so "fresh" is seen, not remembered.

    old = scene.shown["q"]
    scene.play(ghost(old, shift=0.6 * LEFT))   # then put the new Q in its place
"""

from __future__ import annotations

from manim import AnimationGroup, Mobject

from ..animations import DimPlace

GHOST_OPACITY = 0.3


def ghost(m: Mobject, factor: float = GHOST_OPACITY, shift=None, **kwargs):
    """Dim `m` in place to `factor` of its opacity (no copy), moving it by `shift` if given."""
    dim = DimPlace(m, factor, **kwargs)
    if shift is None:
        return dim
    return AnimationGroup(dim, m.animate(**kwargs).shift(shift))


__all__ = ["ghost", "GHOST_OPACITY"]
