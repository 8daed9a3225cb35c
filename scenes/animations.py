"""Animations that change a mobject in place, without copying it.

Manim's FadeIn/FadeOut deep-copy their mobject (and its whole family) to build a start or
target state. For panels of many numbers that copy costs more than drawing the frames, so
`swap` and friends use these: they remember each family member's fill and stroke opacity and
scale them, so a group with mixed opacities fades and comes back exactly as it was.
"""

from __future__ import annotations

from manim import Animation, Mobject, VMobject


def _plain_alpha(m) -> bool:
    """Whether `m.set_fill(opacity=o, family=False)` and `m.set_stroke(opacity=o,
    family=False)` only write `o` into the alpha column of its colour arrays (and its
    `fill_opacity`/`stroke_opacity`): Manim's own VMobject methods, no sheen (which adds a
    lighter second colour), both colour arrays present."""
    cls = type(m)
    return (cls.set_fill is VMobject.set_fill and cls.set_stroke is VMobject.set_stroke
            and cls.update_rgbas_array is VMobject.update_rgbas_array
            and cls.generate_rgbas_array is VMobject.generate_rgbas_array
            and m.get_sheen_factor() == 0 and len(getattr(m, "fill_rgbas", ())) > 0
            and len(getattr(m, "stroke_rgbas", ())) > 0)


def set_opacities(m, fill: float, stroke: float, plain: bool) -> None:
    """`m.set_fill(opacity=fill, family=False); m.set_stroke(opacity=stroke, family=False)`,
    the same arrays written, without rebuilding a colour per call when `plain`."""
    if not plain:
        m.set_fill(opacity=fill, family=False)
        m.set_stroke(opacity=stroke, family=False)
        return
    m.fill_rgbas[:, 3] = fill
    m.fill_opacity = fill
    m.stroke_rgbas[:, 3] = stroke
    m.stroke_opacity = stroke


class _Fade(Animation):
    """Opacity from `start` to `end` times each member's own opacity."""

    start, end = 0.0, 1.0

    def create_starting_mobject(self) -> Mobject:
        return self.mobject                      # no copy: nothing reads the start state

    def begin(self) -> None:
        self.opacities = [(m, m.get_fill_opacity(), m.get_stroke_opacity(), _plain_alpha(m))
                          for m in self.mobject.get_family() if isinstance(m, VMobject)]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        k = self.start + (self.end - self.start) * a
        for m, fill, stroke, plain in self.opacities:
            set_opacities(m, fill * k, stroke * k, plain)

    def finish(self) -> None:
        super().finish()
        for m, fill, stroke, plain in self.opacities:    # exactly as before, whatever k was
            set_opacities(m, fill, stroke, plain)


class FadeInPlace(_Fade):
    def __init__(self, mobject: Mobject, **kwargs):
        super().__init__(mobject, introducer=True, **kwargs)


class FadeOutPlace(_Fade):
    start, end = 1.0, 0.0

    def __init__(self, mobject: Mobject, **kwargs):
        super().__init__(mobject, remover=True, **kwargs)


class DimPlace(_Fade):
    """Fade to `factor` of each member's opacity and stay there (like `.animate.fade(1 - f)`):
    from the opacity it has (1 ×), never through 0, so what is dimmed or lit again stays in
    sight while it changes."""

    start = 1.0

    def __init__(self, mobject: Mobject, factor: float, **kwargs):
        self.end = factor
        super().__init__(mobject, **kwargs)

    def finish(self) -> None:
        Animation.finish(self)
        self.interpolate_mobject(1.0)
