"""Animations that change a mobject in place, without copying it.

Manim's FadeIn/FadeOut deep-copy their mobject (and its whole family) to build a start or
target state. For panels of many numbers that copy costs more than drawing the frames, so
`swap` and friends use these: they remember each family member's fill and stroke opacity and
scale them, so a group with mixed opacities fades and comes back exactly as it was.
"""

from __future__ import annotations

from manim import Animation, Mobject, VMobject


class _Fade(Animation):
    """Opacity from `start` to `end` times each member's own opacity."""

    start, end = 0.0, 1.0

    def create_starting_mobject(self) -> Mobject:
        return self.mobject                      # no copy: nothing reads the start state

    def begin(self) -> None:
        self.opacities = [(m, m.get_fill_opacity(), m.get_stroke_opacity())
                          for m in self.mobject.get_family() if isinstance(m, VMobject)]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        k = self.start + (self.end - self.start) * a
        for m, fill, stroke in self.opacities:
            m.set_fill(opacity=fill * k, family=False)
            m.set_stroke(opacity=stroke * k, family=False)

    def finish(self) -> None:
        super().finish()
        for m, fill, stroke in self.opacities:           # exactly as before, whatever k was
            m.set_fill(opacity=fill, family=False)
            m.set_stroke(opacity=stroke, family=False)


class FadeInPlace(_Fade):
    def __init__(self, mobject: Mobject, **kwargs):
        super().__init__(mobject, introducer=True, **kwargs)


class FadeOutPlace(_Fade):
    start, end = 1.0, 0.0

    def __init__(self, mobject: Mobject, **kwargs):
        super().__init__(mobject, remover=True, **kwargs)


class DimPlace(_Fade):
    """Fade to `factor` of each member's opacity and stay there (like `.animate.fade(1 - f)`)."""

    def __init__(self, mobject: Mobject, factor: float, **kwargs):
        self.end = factor
        super().__init__(mobject, **kwargs)

    def finish(self) -> None:
        Animation.finish(self)
        self.interpolate_mobject(1.0)
