"""The `prompts` beat: the lens over every sentence of the storyboard. First the prompts and
their final answers (a list, as the voice says how they are scored), then the list leaves and
the median rank of each prompt's own answer is drawn state by state on a log axis, with the
shown prompt's curve faint behind it; the count of answers already in the top k for good is
marked where the voice says it."""

from __future__ import annotations

import math as pymath

from manim import (DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, GrowFromEdge, Rectangle, VGroup,
                   VMobject, linear)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.mobjects import Num, PlacedTickAxes, inline, txt

from .scene_race import x_label

PLOT = (10.0, 3.4)        # the median-rank axes (width, height)
LIST_ROWS = 5             # prompts per column of the list
BAND_RANK = 1000          # the shaded stretch: from where the median stays under this rank


def prompt_list(v) -> VGroup:
    """The prompts, each with its final answer, in two columns."""
    p = v.prompts
    rows = [inline(txt(str(it.sentence), T.SMALL_SIZE, T.TEXT),
                   txt("→", T.SMALL_SIZE, T.MUTED),
                   txt(str(it.answer.display), T.SMALL_SIZE, T.HIGHLIGHT, mono=True), buff=0.12)
            for it in p.items]
    cols = VGroup(*[VGroup(*rows[i:i + LIST_ROWS]).arrange(DOWN, aligned_edge=LEFT, buff=0.16)
                    for i in range(0, len(rows), LIST_ROWS)]).arrange(RIGHT, buff=0.6,
                                                                     aligned_edge=UP)
    if cols.width > 12.6:
        cols.scale_to_fit_width(12.6)     # only for very long prompts (the floor: see tests)
    head = inline(Num(p.n, decimals=0, size=T.LABEL_SIZE, color=T.TEXT),
                  txt("prompts, each read at its last token → the model's final answer",
                      T.LABEL_SIZE, T.TEXT), buff=0.12)
    return VGroup(head, cols).arrange(DOWN, aligned_edge=LEFT, buff=0.3)


class MedianPlot:
    """Log-rank axes over the states X^(1)..X^(L) (the lens after layers 0..L-1)."""

    def __init__(self, v):
        p, L = v.prompts, int(v.n_layers)
        ax = p.rank_axis
        self.decades = int(ax.decades)
        step = 5
        ticks = sorted(set(range(step - 1, L, step)) | {0})
        self.axes = PlacedTickAxes(
            [-0.5, L - 0.5, 1], [0, self.decades + 0.15, 1], *PLOT,
            x_ticks=[(l, v.layers[l].state.value, v.layers[l].state.path) for l in ticks],
            y_ticks=[(t.height.value, t.rank.value, t.rank.path) for t in ax.ticks])
        head = inline(txt("median rank of each prompt's own answer, over", T.SMALL_SIZE),
                      Num(p.n, decimals=0, size=T.SMALL_SIZE), txt("prompts (1 = top)",
                                                                   T.SMALL_SIZE), buff=0.1)
        head.next_to(self.axes, UP, buff=0.25).align_to(self.axes, LEFT)
        name = inline(txt("the lens reads", T.SMALL_SIZE, T.MUTED),
                      x_label("n", T.MATH_SIZE, T.MUTED), buff=0.12)
        name.next_to(self.axes.x_labels, DOWN, buff=0.12).match_x(self.axes.axes)
        self.group = VGroup(head, self.axes, name)

    def y(self, rank: float) -> float:
        return self.decades - pymath.log10(max(1.0, float(rank)))

    def pt(self, l: int, rank: float):
        return self.axes.axes.c2p(l, self.y(rank))

    def line(self, ranks, color, width: float, opacity: float = 1.0) -> VMobject:
        return VMobject(stroke_color=color, stroke_width=width, stroke_opacity=opacity
                        ).set_points_as_corners([self.pt(l, r) for l, r in enumerate(ranks)])


def beat_prompts(scene, v) -> None:
    """The handler (called by LogitLensScene.beat_prompts with the plan's view)."""
    p = v.prompts
    n_cues = scene.n_cues()
    cue = lambda i: min(i, max(0, n_cues - 1))
    listing = prompt_list(v)
    head, cols = listing
    rows = [r for c in cols for r in c]
    listing.set_y(scene.top - listing.height / 2).set_x(0)
    frame = scene.put("wide", VGroup(head), placed=True)
    scene.hold_until_cue(cue(1))
    per = scene.pace(scene.cue_at(cue(2)), len(rows), 0.3, cap=0.6)
    for r in rows:                       # the prompts arrive one by one as the voice says them
        scene.play(FadeIn(r, shift=0.1 * UP), run_time=per)
    scene.adopt(frame, *rows)
    listing = frame
    scene.hold_until_cue(cue(2))
    mp = MedianPlot(v)
    plot = mp.group
    plot.set_y(scene.top - plot.height / 2).set_x(0)
    scene.play(FadeOutPlace(listing), FadeInPlace(plot), run_time=scene.quick(0.05, 0.8))
    scene.slots["wide"] = plot
    ranks = [float(x) for x in p.median_rank]
    one = mp.line([float(l.rank) for l in v.layers], T.MUTED, 2, 0.6)
    one_name = txt(str(v.answer.display) + " (the prompt above)", T.SMALL_SIZE, T.MUTED)
    one_name.next_to(mp.pt(12, float(v.layers[12].rank)), DOWN, buff=0.06)
    med = mp.line(ranks, T.X, 4)
    dots = VGroup(*[Dot(mp.pt(l, r), radius=0.04, color=T.X) for l, r in enumerate(ranks)])
    scene.play(FadeIn(one), FadeIn(one_name), run_time=scene.quick(0.04, 0.5))
    scene.play(Create(med, rate_func=linear), run_time=scene.pace(scene.cue_at(cue(3)), 1, 6.0,
                                                                  cap=8.0))
    scene.play(FadeIn(dots), run_time=0.3)
    scene.adopt(plot, one, one_name, med, dots)
    # "by X^(26) only 3 of the 10 answers are in the top 10 for good"
    scene.hold_until_cue(cue(3))
    k = 25
    mark = Dot(mp.pt(k, ranks[k]), radius=0.08, color=T.HIGHLIGHT)
    note = inline(Num(p.in_top[k], decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT),
                  txt("of", T.LABEL_SIZE), Num(p.n, decimals=0, size=T.LABEL_SIZE),
                  txt("answers in the top", T.LABEL_SIZE),
                  Num(p.top, decimals=0, size=T.LABEL_SIZE),
                  txt("for good by", T.LABEL_SIZE), x_label(v.layers[k].state, T.MATH_SIZE),
                  buff=0.1)
    note.next_to(mp.axes.axes, DOWN, buff=0.95).align_to(mp.axes.axes, RIGHT)
    scene.play(FadeIn(mark, scale=2), FadeInPlace(note), run_time=scene.quick(0.05, 0.6))
    scene.adopt(plot, mark, note)
    # "... the earliest is there from the start": that prompt, under the count
    if p.earliest_prompt.value is not None:
        it = p.items[int(p.earliest_prompt)]
        first = inline(txt("earliest:", T.LABEL_SIZE, T.MUTED),
                       txt(f"\"{it.sentence}\"", T.LABEL_SIZE),
                       txt("→", T.LABEL_SIZE, T.MUTED),
                       txt(str(it.answer.display), T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                       txt("from", T.LABEL_SIZE, T.MUTED),
                       x_label(v.layers[int(p.earliest)].state, T.MATH_SIZE), buff=0.1)
        if first.width > 12.4:
            first.scale_to_fit_width(12.4)
        first.next_to(note, DOWN, buff=0.2).align_to(note, RIGHT)
        scene.hold_until(scene.time + max(0.0, (scene.cue_at(cue(4)) - scene.time) * 0.45))
        scene.play(FadeInPlace(first), run_time=scene.quick(0.05, 0.6))
        scene.adopt(plot, first)
    scene.hold_until_cue(cue(4))
    # "the guess forms late": the stretch where the median falls is shaded, left to right
    start = next(l for l in range(len(ranks)) if all(x < BAND_RANK for x in ranks[l:]))
    a, b = mp.axes.axes.c2p(start - 0.5, 0), mp.axes.axes.c2p(len(ranks) - 0.5,
                                                              mp.decades + 0.15)
    band = Rectangle(width=b[0] - a[0], height=b[1] - a[1], stroke_width=0,
                     fill_color=T.HIGHLIGHT, fill_opacity=0.12)
    band.move_to((a + b) / 2)
    scene.play(GrowFromEdge(band, LEFT), run_time=scene.pace(scene.cue_at(cue(4)) + 3.0, 1,
                                                                 1.0, cap=3.0))
    scene.adopt(plot, band)
    scene.emphasize(VGroup(*dots[start:]))
