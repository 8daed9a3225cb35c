"""A pipeline drawn as its steps (`scenes.mobjects.StepBoxes`) appearing, then a dot (what
flows through it) passing through each step in turn, the step lighting up as it does.

    pipe = StepBoxes(lens_steps(model)).fit_into(region)
    run_through(scene, pipe, runner)      # the runner ends on the last step
"""

from __future__ import annotations

from manim import Dot, LaggedStart

from .. import theme as T
from ..animations import FadeInPlace
from ..mobjects.steps import StepBoxes


def run_through(scene, pipe: StepBoxes, runner: Dot) -> None:
    """The steps fade in one after another with their arrows; `runner` moves into each box,
    whose frame lights up and dims again."""
    scene.play(LaggedStart(*[FadeInPlace(b) for b in pipe.boxes], lag_ratio=0.3),
               FadeInPlace(pipe.arrows), run_time=scene.quick(0.08, 1.0))
    for box in pipe.boxes:
        scene.play(runner.animate.move_to(box[0].get_center()),
                   box[0].animate.set_stroke(T.HIGHLIGHT, 2.5), run_time=scene.quick(0.04, 0.5))
        scene.play(box[0].animate.set_stroke(T.FAINT, 1.5), run_time=scene.quick(0.02, 0.2))


__all__ = ["run_through"]
