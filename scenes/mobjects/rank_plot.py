"""The answer's rank (log scale, 1 at the top) over its probability, layer by layer, both on
one layer scale: the two axes (tick labels are `Num`s from the plan), the curve through the
layers, and a layer's two adds (attention, then FFN) drawn as segments of their own.

`RankPlots` is not a mobject: `plots.group` is what is drawn (VGroup(rank title, rank axes,
probability title, probability axes, "layer")); `rp`/`pp` place data points on the axes.

    plots = RankPlots(v, 0, [v.layers[0].layer], "rank of ␣Paris", "␣Paris")
    scene.add(plots.group, plots.curve(v.layers))
"""

from __future__ import annotations

from typing import Sequence

from manim import DOWN, LEFT, RIGHT, UP, Dot, Line, VGroup, VMobject

from .. import theme as T
from .charts import PlacedTickAxes
from .text import txt

RANK_PLOT = (5.0, 2.3)     # rank axes (width, height)
PROB_PLOT = (5.0, 1.2)     # probability axes, under the rank axes, same layer scale


class RankPlots:
    """Rank axes over probability axes for layers `first`..n_layers - 1. `data` is a view of
    the plan's data (n_layers, rank_axis.y_range/ticks[i].height/rank, prob_axis.ticks);
    `x_ticks` are the layers (plan values) labelled under the probability axes."""

    def __init__(self, data, first: int, x_ticks: Sequence, rank_title: str, answer: str,
                 rank_size=RANK_PLOT, prob_size=PROB_PLOT):
        ra = data.rank_axis
        self.rank_top = ra.y_range.values[1]
        xr = [first - 0.5, int(data.n_layers) - 0.5, 1]
        self.rank_ax = PlacedTickAxes(
            xr, [0, self.rank_top + 0.15, 1], *rank_size, x_ticks=[],
            y_ticks=[(t.height.value, t.rank.value, t.rank.path) for t in ra.ticks])
        self.prob_ax = PlacedTickAxes(
            xr, [0, 1.08, 0.5], *prob_size, x_ticks=[(l.value, l.value, l.path) for l in x_ticks],
            y_ticks=[(v.value, v.value, v.path) for v in data.prob_axis.ticks], y_decimals=1)
        self.prob_ax.next_to(self.rank_ax, DOWN, buff=0.5)
        self.prob_ax.shift(RIGHT * (self.rank_ax.axes.get_left()[0] -
                                    self.prob_ax.axes.get_left()[0]))
        rank_head = txt(rank_title, T.SMALL_SIZE)
        rank_head.next_to(self.rank_ax, UP, buff=T.BUFF).align_to(self.rank_ax, LEFT)
        prob_head = txt(f"probability of {answer}", T.SMALL_SIZE)
        prob_head.next_to(self.prob_ax.axes, UP, buff=0.1).align_to(rank_head, LEFT)
        xname = txt("layer", T.SMALL_SIZE, T.MUTED)
        xname.next_to(self.prob_ax.x_labels, DOWN, buff=0.06).match_x(self.prob_ax.axes)
        self.group = VGroup(rank_head, self.rank_ax, prob_head, self.prob_ax, xname)

    def rp(self, x: float, height: float):
        """A point on the rank axes (`height` is the plan's log-scale height)."""
        return self.rank_ax.axes.c2p(x, height)

    def pp(self, x: float, prob: float):
        """A point on the probability axes."""
        return self.prob_ax.axes.c2p(x, prob)

    def curve(self, layers: Sequence, width: float = 3, opacity: float = 1.0) -> VGroup:
        """The answer's rank and probability after each of `layers` (views of plan layers:
        layer, height, prob): VGroup(VGroup(rank line, prob line), dots: the rank ones, then
        prob)."""
        rank_pts = [self.rp(r.layer.value, r.height.value) for r in layers]
        prob_pts = [self.pp(r.layer.value, r.prob.value) for r in layers]
        lines = VGroup(*[VMobject(stroke_color=T.X, stroke_width=width, stroke_opacity=opacity)
                         .set_points_as_corners(pts) for pts in (rank_pts, prob_pts)])
        dots = VGroup(*[Dot(p, radius=0.04, color=T.X) for p in rank_pts + prob_pts])
        return VGroup(lines, dots)

    def adds(self, prev, lay) -> tuple[VGroup, VGroup, VGroup]:
        """Layer `lay` split into its two adds on both plots, from `prev` (the layer before):
        (attention segments, FFN segments, the dots read between them). `lay` has layer,
        height, prob and mid_x, mid_height, mid_prob (read after the attention add)."""
        l = lay.layer.value
        attn, ffn, mid = VGroup(), VGroup(), VGroup()
        for point, y0, ym, y1 in ((self.rp, prev.height, lay.mid_height, lay.height),
                                  (self.pp, prev.prob, lay.mid_prob, lay.prob)):
            a, m, b = point(l - 1, y0.value), point(lay.mid_x.value, ym.value), point(l, y1.value)
            attn.add(Line(a, m, stroke_color=T.ATTN, stroke_width=4))
            ffn.add(Line(m, b, stroke_color=T.FFN, stroke_width=4))
            mid.add(Dot(m, radius=0.045, color=T.ATTN))
        return attn, ffn, mid


__all__ = ["RANK_PLOT", "PROB_PLOT", "RankPlots"]
