"""A pipeline drawn as its steps: rounded boxes joined by arrows, each box a small stack of
texts (what the step is, then its detail). Lay it out to fit a region with `fit_into`.

    steps = StepBoxes([VGroup(txt("final RMSNorm"), txt("÷ its own RMS, × γ")), ...])
    steps.fit_into(free_region)          # a column if it fits, else a row
"""

from __future__ import annotations

from typing import Sequence

from manim import DOWN, LEFT, RIGHT, Arrow, Mobject, RoundedRectangle, VGroup

from .. import theme as T


class StepBoxes(VGroup):
    """`self.boxes[i]` is VGroup(frame, body); `self.arrows[i]` joins step i to step i + 1."""

    def __init__(self, bodies: Sequence[VGroup], buff: float = 0.3):
        self.buff = buff
        self.boxes = VGroup()
        for body in bodies:
            body.arrange(DOWN, buff=0.08)
            frame = RoundedRectangle(width=body.width + 0.3, height=body.height + 0.25,
                                     corner_radius=0.08, stroke_color=T.FAINT, stroke_width=1.5)
            self.boxes.add(VGroup(frame, body.move_to(frame)))
        self.arrows = VGroup()
        super().__init__(self.boxes, self.arrows)

    def fit_into(self, region: Mobject) -> "StepBoxes":
        """Stack the steps top to bottom in `region`, or left to right if too tall (starting at
        its left edge); then draw
        the arrows between them."""
        self.boxes.arrange(DOWN, buff=self.buff).move_to(region)
        vertical = self.boxes.height <= region.height
        if not vertical:        # a row from the region's left edge (it may run on past it)
            self.boxes.arrange(RIGHT, buff=self.buff).move_to(region).align_to(region, LEFT)
        self.arrows.remove(*self.arrows.submobjects)
        self.arrows.add(*[
            Arrow(a.get_bottom() if vertical else a.get_right(),
                  b.get_top() if vertical else b.get_left(), buff=0.04, stroke_width=2,
                  color=T.MUTED, max_tip_length_to_length_ratio=0.35)
            for a, b in zip(self.boxes[:-1], self.boxes[1:])])
        return self


__all__ = ["StepBoxes"]
