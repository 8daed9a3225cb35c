"""The pieces of the residual_stream scene (`StreamPanels`, a mixin of ResidualStreamScene):

- a vector as a short column of real numbers (Nums), ⋮ and its length (`column`);
- the PCA plane with its own camera, the addition drawn tip to tail (`ensure_plane`,
  `advance`), and its scale bar;
- the bars of |X|, |Delta_attn| and |Delta_FFN| on one linear axis that grows with the story
  (`ensure_chart`, `bar_for_step`, `bar_for_x`, `BarsTo`);
- lighting several things one after another (`one_by_one`, `flash`).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Animation, FadeIn, Indicate, Line, Rectangle,
                   UpdateFromAlphaFunc, VGroup, VMobject, smooth, squish_rate_func,
                   there_and_back)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.mobjects import Num, inline, math, txt
from scenes.mobjects.numbers import bracket
from scenes.motion.plane import geometric_view
from scenes.motion.tip_to_tail import PlaneStep, TipToTail

S = 25                    # axis numbers, the plane's heading and scale (round 37: 21 read 11-13 px)
COL_SIZE = T.TYPE.label    # a vector's entries and its length under it
COL_ENTRIES = 3            # entries shown per column (the plan holds more)
KIND_COLOR = {"embed": T.X, "attn": T.ATTN, "ffn": T.FFN, "ln": T.LN}
KIND_WORD = {"attn": "attention", "ffn": "FFN", "ln": "LayerNorm"}
PLANE_H = 2.9
PLANE_AT = RIGHT * 4.35 + UP * 0.75
PLANE_BIG_H = 3.45         # the journey: the plane centre stage, between the tokens and the bars
PLANE_BIG_AT = RIGHT * 1.75 + UP * 0.78
PLANE_WIDE_H = 4.75        # the `plane` beat: what the plane is, on the right, top to bottom
PLANE_WIDE_AT = RIGHT * 3.6 + DOWN * 0.35
GHOSTS = (0.35, 0.22, 0.1)  # the last three X's kept as a fading trail, newest first
# (the journey's narration: 'the last few X's')
CHART_W, CHART_H = 11.6, 1.5     # taller bars (round 20: "bigger bars"): the plane sits higher
CLOSE_H = 3.9              # a short leg on the bars alone: the chart this tall, its layers wide
TALL_H = 3.0               # a long leg on the bars alone: every layer, this tall (under its tag)
CLOSE_BAR = 0.62           # ... each trio this share of the widened slot's trio (gaps for labels)
# a layer's three bars side by side, X's narrow (it is tall), its two updates wide enough at
# 480p to tell lilac from orange; the three span 0.31 of a layer's 0.355 slot
BAR_W = {"x": 0.09, "attn": 0.09, "ffn": 0.09}   # a gap between layers: each trio over its mark
BAR_OFF = {k: sum(list(BAR_W.values())[:i]) + BAR_W[k] / 2 - sum(BAR_W.values()) / 2
           for i, k in enumerate(BAR_W)}          # each bar's centre from its layer's centre
KEY_SCALE = 1.1           # the bars' colour key, read at 480p (27.5 with S = 25)
HEAD_S = T.TYPE.label      # the plane's heading (at S it ran into the copy's note beside it)
ASIDE = 26                # a side note (its shadow, entries rounded, an illustration):
# round 37, at the label size 22 in grey they read 11-13 px
ML = 31                   # math labels with scripts: above the floor's 27 (scripts ~9 px at 480p)
DIP = 2.0                 # a sublayer that shortens X by more than this is a dip (the journey marks it; the voice says "by more than 2")


def X_l(l) -> str:
    """X^(l) with its layer index at full text size (Typst `display`): round 35, the scripts
    of X^(23) were ~9 px at 480p; at full size they are the labels' digits' height."""
    return f"X^(display(({l})))"


CLIP_INSET = 0.06          # arrows on the plane are cut this far inside its frame


def appear(m):
    """Text and numbers come in whole (a fade with a small rise): a Write shows half-drawn
    glyphs mid-motion."""
    return FadeIn(m, shift=0.1 * UP)


def clip_segment(p, q, lo, hi):
    """The part of segment p..q inside the box lo..hi (Liang-Barsky), or (p, p) if none."""
    t0, t1 = 0.0, 1.0
    d = q - p
    for k in (0, 1):
        for num, den in ((p[k] - lo[k], -d[k]), (hi[k] - p[k], d[k])):
            if abs(den) < 1e-12:
                if num < 0:
                    return p, p
                continue
            t = num / den
            if den < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    if t0 > t1:
        return p, p
    return p + t0 * d, p + t1 * d


class ClippedPlane(TipToTail):
    """The PCA plane, every arrow cut at its frame: an arrow grown while the view is still
    zooming out never runs over the title, the token row or the bars."""

    def redraw(self, grow: dict | None = None) -> None:
        super().redraw(grow)
        m = CLIP_INSET           # the arrows' tips and strokes stay inside the frame's line
        fl, fr = self.frame.get_left()[0] + m, self.frame.get_right()[0] - m
        fb, ft = self.frame.get_bottom()[1] + m, self.frame.get_top()[1] - m
        lo, hi = np.array([fl, fb, 0.0]), np.array([fr, ft, 0.0])
        grow, c = grow or {}, self.frame.get_center()
        for a, s, e in self.items:
            p, q = self.to_screen(s, center=c), self.to_screen(e, center=c)
            q = p + grow.get(id(a), 1.0) * (q - p)
            inside = lambda v: fl <= v[0] <= fr and fb <= v[1] <= ft      # noqa: E731
            if not (inside(p) and inside(q)):
                a.set_ends(*clip_segment(p, q, lo, hi))
                if not inside(q):        # it goes on beyond the frame: no tip at the cut
                    a.tip.set_points_as_corners([a.tip.get_start()] * 4)


class StreamPanels:
    """The drawing pieces of ResidualStreamScene (it sets their state in `layout`)."""

    # --- pieces -------------------------------------------------------------------------------
    def sym(self, kind: str, l):
        """A column's name: X^(l) as math; an update in words, "Δ attention" / "Δ FFN" (round
        35: Δ_attn^(0)'s scripts were ~8 px at 480p), its layer the caption's and footer's."""
        if kind == "x":
            return X_l(l)
        return txt("\u0394 " + {"attn": "attention", "ffn": "FFN"}[kind], COL_SIZE,
                   KIND_COLOR[kind])

    def mid_head(self, l) -> VGroup:
        """The name of X after attention's addition, "X^(l) + Δ attention" (no scripts on
        Δ; one row, wider than its column: `beside` keeps the names apart)."""
        return inline(math(X_l(l), ML, T.X), txt("+ \u0394 attention", COL_SIZE, T.X))

    def column(self, head, decimals: int, color, label: str, norm) -> VGroup:
        """A vector as a column: its first entries (`head`, a plan list: Nums), ⋮, and its
        length (`norm`, a shown number of the plan's view)."""
        # fewer, larger entries (round 23: 10-11 px digits): the label size, COL_ENTRIES of them
        nums = VGroup(*[Num(v, decimals=decimals, size=COL_SIZE, color=color)
                        for v in list(head)[:COL_ENTRIES]])
        nums.arrange(DOWN, buff=0.1, aligned_edge=RIGHT)
        dots = txt("\u22ee", COL_SIZE, color).next_to(nums, DOWN, buff=0.08)
        body = VGroup(nums, dots)
        h = body.height + 0.14
        col = VGroup(bracket(h, -1).next_to(body, LEFT, 0.08), body,
                     bracket(h, 1).next_to(body, RIGHT, 0.08))
        head = (math(label, ML, color) if isinstance(label, str) else label).next_to(
            col, UP, buff=0.12)
        length = self.n(norm, color, COL_SIZE, prefix="|\u00b7| = ").next_to(col, DOWN, buff=0.12)
        return VGroup(head, col, length)

    def stage_col(self, i: int, decimals: int, label: str) -> VGroup:
        stage = self.v.stages[i]
        return self.column(stage.head, decimals, T.X, label, stage.norm)

    def step_col(self, j: int, label: str) -> VGroup:
        s = self.v.steps[j]
        return self.column(s.head, int(s.decimals), KIND_COLOR[str(s.kind)], label, s.norm)

    def n(self, shown, color=T.TEXT, size=S, prefix="", suffix="") -> Num:
        """A shown number of the plan's view (its value, with its own decimals)."""
        return Num(shown.value, decimals=int(shown.decimals), size=size, color=color,
                   prefix=prefix, suffix=suffix)

    # --- one after another ---------------------------------------------------------------------
    def one_by_one(self, make, ms, lag: float, run_time: float, extra=()) -> None:
        """`make(m, a, b)` (an animation of m over the share a..b of `run_time`) for each of
        `ms`, each starting `lag` of an animation's time after the one before (a LaggedStart
        would add its own group to the scene, taking the pieces out of the groups they are
        drawn in)."""
        n = len(ms)
        d = 1.0 / (1.0 + lag * (n - 1))
        self.play(*[make(m, k * lag * d, k * lag * d + d) for k, m in enumerate(ms)], *extra,
                  run_time=run_time)

    def flash(self, ms, scale: float, lag: float, run_time: float) -> None:
        """Light up each of `ms` in turn (the pointer colour and back), one after another."""
        self.one_by_one(lambda m, a, b: Indicate(m, scale_factor=scale, color=T.POINTER,
                                                 rate_func=squish_rate_func(there_and_back, a, b)),
                        ms, lag, run_time)

    # --- the plane ----------------------------------------------------------------------------
    def ensure_plane(self, big: bool = False, hold=None, show: bool = True) -> None:
        """The plane on stage: `big` for the journey (centre stage, larger), else at home on
        the right beside the columns. A plane a beat cleared comes back, in the view of the
        last stage drawn (a view `hold` kept while it was away is let go unseen: round 35, the
        shadow's 1-unit view became layer 0's 0.1-unit one in a third glide in 10 s); a plane
        in the other layout glides to this one. `hold` (a new plane): (view, its PlaneView)
        to open on, kept until `release_hold`."""
        if self.plane is not None:
            if getattr(self, "plane_hidden", False):      # a beat cleared it: it comes back
                self.play(*self.plane_returns(big), run_time=self.quick(0.2, 0.6))
            elif getattr(self, "plane_big", False) != big:
                self.resize_plane(big)
            return
        d = self.data
        self.hold = hold
        self.plane = ClippedPlane(PLANE_H * d["plane"]["aspect"], PLANE_H,
                                  hold[0] if hold else d["plane"]["views"][0])
        self.plane_big = False
        self.place_plane(big)
        if not show:                  # built off stage (a beat that draws on it unseen)
            self.plane_hidden = True
            return
        self.add(self.plane, self.plane_head)
        self.play(FadeInPlace(self.plane), FadeInPlace(self.plane_head),
                  FadeInPlace(self.scale), run_time=self.quick())

    def plane_returns(self, big: bool) -> list:
        """A plane a beat cleared, put back in layout `big` in the view of the last stage
        drawn (a held view let go): its fade-ins, to play (none if it is on stage)."""
        if self.plane is None or not getattr(self, "plane_hidden", False):
            return []
        self.plane_hidden = False
        self.hold = None
        v = self.view_at(max(self.progress, 0))
        self.plane.view = {"center": list(v["center"]), "width": float(v["width"])}
        self.place_plane(big)
        return [FadeInPlace(self.plane), FadeInPlace(self.plane_head), FadeInPlace(self.scale)]

    def home_head_left(self) -> float:
        """The left edge of the plane's heading in its home layout (the plane on stage there
        or not)."""
        if self.plane is not None and not getattr(self, "plane_hidden", False) and \
                getattr(self, "plane_big", False) is False:
            return float(self.plane_head.get_left()[0])
        return float(PLANE_AT[0] - self.flat_head().width / 2)

    def flat_head(self) -> VGroup:
        """The plane's heading on one line, "PCA plane of bank's 61 states" (not placed)."""
        d = self.data
        word = d["focus"]["token_text"].lstrip(d["space_mark"])
        return inline(txt("PCA plane of " + word + "'s", HEAD_S, T.TEXT),
                      Num(self.v.plane.n_points, decimals=0, size=HEAD_S, color=T.TEXT),
                      txt("states", HEAD_S, T.TEXT))

    def plane_box(self, big: bool):
        """The plane's height and centre in a layout."""
        if big == "wide":
            return PLANE_WIDE_H, PLANE_WIDE_AT
        return (PLANE_BIG_H, PLANE_BIG_AT) if big else (PLANE_H, PLANE_AT)

    def set_plane_frame(self, h: float, at) -> None:
        p = self.plane
        w = h * self.data["plane"]["aspect"]
        p.frame.stretch_to_fit_width(w)
        p.frame.stretch_to_fit_height(h)
        p.frame.move_to(at)
        p.w, p.h = w, h
        p.redraw()

    def place_plane(self, big: bool) -> None:
        """The plane, its heading and its scale bar put in a layout at once (nothing drawn)."""
        h, at = self.plane_box(big)
        self.set_plane_frame(h, at)
        self.plane_big = big
        self.plane_head = self.make_plane_head(big)
        self.scale = self.scale_bar(max(self.progress, 0))
        if self.chart is not None:
            moves = self.key_moves(big)
            if moves:
                self.play(*moves, run_time=0.5)

    def make_plane_head(self, big: bool) -> VGroup:
        d = self.data
        word = d["focus"]["token_text"].lstrip(d["space_mark"])
        n = Num(self.v.plane.n_points, decimals=0, size=HEAD_S, color=T.TEXT)
        if big is True:         # beside the plane's top right (the token row is above it)
            head = VGroup(txt("PCA plane of", HEAD_S, T.TEXT),
                          inline(txt(word + "'s", HEAD_S, T.TEXT), n, txt("states", HEAD_S, T.TEXT))
                          ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
            return head.next_to(self.plane.frame, RIGHT, buff=0.15).align_to(self.plane.frame, UP)
        head = self.flat_head()
        # (the `plane` beat rings the frame: its heading a little higher, clear of the ring)
        return head.next_to(self.plane.frame, UP, buff=0.16 if big == "wide" else 0.08)

    def resize_plane(self, big: bool, run_time: float = 0.8) -> None:
        """The plane glides to the other layout (its arrows redrawn each frame); its heading
        and scale bar fade out before and come back in their new places."""
        from manim import UpdateFromAlphaFunc, smooth
        p = self.plane
        h0, c0 = p.h, p.frame.get_center().copy()
        h1, c1 = self.plane_box(big)
        c1 = np.asarray(c1, float)
        self.play(FadeOutPlace(self.plane_head), FadeOutPlace(self.scale), run_time=0.3)

        def glide(m, a):
            a = smooth(a)
            self.set_plane_frame(h0 + a * (h1 - h0), c0 + a * (c1 - c0))

        self.play(UpdateFromAlphaFunc(p, glide), *self.key_moves(big), run_time=run_time)
        self.plane_big = big
        self.plane_head = self.make_plane_head(big)
        self.scale = self.scale_bar(max(self.progress, 0))
        self.play(FadeInPlace(self.plane_head), FadeInPlace(self.scale), run_time=0.3)

    def plane_fades(self) -> list:
        """The plane's leaving, for a beat that does not use it (ensure_plane brings it back):
        its fades, marked hidden; none if it is not on stage."""
        if self.plane is None or getattr(self, "plane_hidden", False):
            return []
        self.plane_hidden = True
        return [FadeOutPlace(self.plane), FadeOutPlace(self.plane_head), FadeOutPlace(self.scale)]

    def hide_plane(self) -> None:
        """Clear the plane for a beat that does not use it (ensure_plane brings it back)."""
        fades = self.plane_fades()
        if fades:
            self.play(*fades, run_time=self.quick(0.2, 0.6))

    def clear_all(self) -> None:
        """A beat with a stage of its own: the last beat's pieces, the plane and the bars leave
        in one short play (each comes back with ensure_*; IntroBeats.clear_stage drops only
        the pieces)."""
        fades = [FadeOutPlace(self.shown.pop(s_)) for s_ in list(self.shown)]
        fades += self.plane_fades() + self.chart_fades()
        if fades:
            self.play(*fades, run_time=0.3)

    def scale_bar(self, k: int) -> VGroup:
        """The plane's scale bar in stage k's view (or the view it is held at, `hold`)."""
        hold = getattr(self, "hold", None)
        v = hold[0] if hold is not None else self.view_at(k)
        length = v["scale"] / v["width"] * self.plane.w
        line = VMobject(stroke_color=T.TEXT, stroke_width=3)
        line.set_points_as_corners([LEFT * length / 2, RIGHT * length / 2])
        p = self.data["plane"]
        close = p["close_views"][k] if getattr(self, "close_up", False) else None
        if hold is not None:
            pv = hold[1]
        elif getattr(self, "whole_final", False):
            pv = self.v.plane.whole_view
        elif close is not None:
            fixed = getattr(self, "close_k", None)
            pv = self.v.plane.close_views[k if fixed is None else fixed]
        else:
            pv = self.v.plane.views[k]
        label = Num(pv.scale, decimals=int(pv.scale_decimals), size=S, color=T.TEXT,
                    suffix=" unit" if v["scale"] == 1 else " units")
        g = VGroup(line, label.next_to(line, LEFT, buff=0.1))
        if getattr(self, "plane_big", False) is True:      # beside the plane's bottom right
            return g.next_to(self.plane.frame, RIGHT, buff=0.15).align_to(self.plane.frame, DOWN)
        return g.next_to(self.plane.frame, DOWN, buff=0.12).align_to(self.plane.frame, RIGHT)

    def advance(self, k: int, run_time: float, zoom_at: float | None = None,
                zoom_end: float | None = None) -> None:
        """Draw the steps up to stage k, tip to tail, the view gliding when it must (given
        `zoom_at`: the step first, at the old scale, then the view and bar axis glide out from
        scene time `zoom_at` to `zoom_end`, then the new X)."""
        views = self.data["plane"]["views"]
        self.release_hold()
        while self.progress < k:
            if self.progress < 0:
                s0 = self.stages[0]["xy"]
                self.x_arrow = self.plane.arrow((0, 0), s0, T.X, 5)
                self.progress = 0
                self.play(PlaneStep(self.plane, [self.x_arrow], views[0]), run_time=run_time)
                continue
            i = self.progress + 1
            s = self.step_rows[i - 1]
            zoom = self.view_at(i) != self.view_at(i - 1)
            if zoom and zoom_at is not None:
                self.zoom_after_step(i, run_time, zoom_at, zoom_end)
                continue
            if zoom:             # the view (and its scale bar) first, then the step drawn in it
                self.play(PlaneStep(self.plane, [], self.view_at(i)), run_time=0.4 * run_time)
                self.swap_scale_bar(i - 1, i)
            a = self.plane.arrow(self.stages[i - 1]["xy"], self.stages[i]["xy"],
                                 KIND_COLOR[s["kind"]], 3.5)
            anims = [PlaneStep(self.plane, [a], self.view_at(i))]
            new_bar = self.bar_for_step(i - 1)
            if new_bar is not None:
                anims.append(new_bar)
                anims += self.key_reveals([s["kind"]])
            if i in self.data["x_stages"]:       # a layer finished: the old X becomes a ghost
                anims[0].grow.append(self.next_x(i, a))
                xb = self.bar_for_x(self.data["x_stages"].index(i))
                if xb is not None:
                    anims.append(xb)
            self.progress = i
            self.play(*anims, run_time=0.6 * run_time if zoom else run_time)

    def zoom_after_step(self, i: int, run_time: float, zoom_at: float, zoom_end) -> None:
        """Step i too long for the old view (layer 0's FFN): from `zoom_at` (the voice says the
        view zooms out to fit it) the step grows while the view and the bar axis glide out
        together (at least 1.5 s), its tip always inside the frame (it pushes the view out:
        never cut), its bar growing on the gliding axis; then the new X grows from the origin,
        its bar beside."""
        views = self.data["plane"]["views"]
        s = self.step_rows[i - 1]
        self.hold_until(zoom_at)
        glide = max(1.5, (zoom_end if zoom_end is not None else 0) - self.time)
        p0, p1 = (np.asarray(self.stages[j]["xy"], float) for j in (i - 1, i))
        a = self.plane.arrow(tuple(p0), tuple(p0), KIND_COLOR[s["kind"]], 3.5)
        self.plane.forget(a)
        self.plane.items.append((a, tuple(p0), tuple(p1)))
        v0, v1, plane = dict(self.plane.view), views[i], self.plane

        def push(m, t):
            e = smooth(t)
            w, c = geometric_view(v0["width"], v1["width"], v0["center"], v1["center"], e)
            plane.view = {"center": c.tolist(), "width": w}
            half = np.array([w / 2, w / 2 / self.data["plane"]["aspect"]]) * 0.9
            g, dd = 1.0, p1 - p0
            for k in (0, 1):
                if abs(dd[k]) > 1e-12:
                    edge = c[k] + (half[k] if dd[k] > 0 else -half[k])
                    g = min(g, (edge - p0[k]) / dd[k])
            plane.redraw({id(a): float(min(1.0, max(0.0, g if t < 1 else 1.0)))})

        # the old scale bar's label would be wrong mid-glide: it fades, the new one fades in
        # (round 37: the plane and the bars rescaled in one play) the plane first, then the
        # bars: one change at a time
        self.play(UpdateFromAlphaFunc(plane, push), self.scale.animate.set_opacity(0),
                  run_time=max(1.0, 0.55 * glide))
        anims = []
        if s["kind"] in ("attn", "ffn") and self.chart is not None:
            self.new_bar(("step", i - 1), s["layer"], s["kind"], s["norm"]["value"])
            anims.append(BarsTo(self, [self.bars[("step", i - 1)]],
                                self.data["bars"]["linear"][i]["max"], i))
            anims += self.key_reveals([s["kind"]])
        elif self.chart is not None:
            anims.append(BarsTo(self, [], self.data["bars"]["linear"][i]["max"], i))
        if anims:
            self.play(*anims, run_time=max(0.9, 0.45 * glide))
        self.remove(self.scale)
        self.scale = self.scale_bar(i)
        self.progress = i
        if i in self.data["x_stages"]:
            anims = [PlaneStep(self.plane, [self.next_x(i, a)], views[i]), FadeIn(self.scale)]
            xb = self.bar_for_x(self.data["x_stages"].index(i))
            if xb is not None:
                anims.append(xb)
            self.play(*anims, run_time=0.6)
        else:
            self.play(FadeIn(self.scale), run_time=0.3)

    def advance_together(self, k: int, run_time: float, extra=()) -> None:
        """Draw the steps up to stage k in one play (a layer's two updates at the pace of one):
        the arrows grow one after another, tip to tail, the new X with the last; their bars
        grow together while the axis glides; the view glides once."""
        self.release_hold()
        if self.progress < 0:
            self.advance(0, run_time)
        first = self.progress + 1
        if first > k:
            return
        views, x_stages = self.data["plane"]["views"], self.data["x_stages"]
        grow, turns, bars = [], [], []
        for turn, i in enumerate(range(first, k + 1)):
            s = self.step_rows[i - 1]
            grow.append(self.plane.arrow(self.stages[i - 1]["xy"], self.stages[i]["xy"],
                                         KIND_COLOR[s["kind"]], 3.5))
            if not hasattr(self, "step_arrows"):
                self.step_arrows = {}
            self.step_arrows[i - 1] = grow[-1]          # step i-1's shadow (a later flash)
            turns.append(turn)
            if s["kind"] in ("attn", "ffn") and self.chart is not None:
                bars.append(self.new_bar(("step", i - 1), s["layer"], s["kind"],
                                         s["norm"]["value"]))
            if i in x_stages:                     # a layer finished: the old X becomes a ghost
                step = grow[-1]
                grow.append(self.next_x(i, step))
                turns.append(turn)
                j = x_stages.index(i)
                if self.chart is not None:
                    bars.append(self.new_bar(("x", j), j, "x", self.data["x_norms"][j]["value"]))
        anims = [PlaneStep(self.plane, grow, self.view_at(k), turns=turns), *extra]
        if bars:
            ak = getattr(self, "axis_k", None)        # the journey's axis, kept through a leg
            ak = k if ak is None or self.data["bars"]["linear"][ak]["max"] < \
                self.data["bars"]["linear"][k]["max"] else ak
            anims.append(BarsTo(self, bars, self.data["bars"]["linear"][ak]["max"], ak))
            anims += self.key_reveals([self.step_rows[i - 1]["kind"]
                                       for i in range(first, k + 1)])
        self.progress = k
        self.play(*anims, run_time=run_time)
        self.swap_scale_bar(first - 1, k)

    def hold_view(self, view: dict, shown, run_time: float, grow=()) -> None:
        """The plane glides to `view` (a view of the plan, `shown` its PlaneView: the scale
        bar's number) and stays there, whatever stage is drawn, until `release_hold`; arrows
        in `grow` grow as it glides. The scale bar fades out before and in after."""
        self.play(self.scale.animate.set_opacity(0), run_time=0.25)
        self.remove(self.scale)
        self.hold = (view, shown)
        self.play(PlaneStep(self.plane, list(grow), view), run_time=run_time)
        self.scale = self.scale_bar(max(self.progress, 0))
        self.play(FadeIn(self.scale), run_time=0.25)

    def release_hold(self) -> None:
        """A held view (`hold_view`) glides back to the last stage's own before anything more
        is drawn (a plane on stage: the `plane` beat's storyboard hides it first, and it comes
        back in its own view unseen)."""
        if getattr(self, "hold", None) is None or self.plane is None:
            return
        self.hold = None
        k = max(self.progress, 0)
        if getattr(self, "plane_hidden", False):       # away: it comes back in its own view
            return
        self.play(self.scale.animate.set_opacity(0), run_time=0.25)
        self.remove(self.scale)
        self.play(PlaneStep(self.plane, [], self.view_at(k)), run_time=0.8)
        self.scale = self.scale_bar(k)
        self.play(FadeIn(self.scale), run_time=0.25)

    def sweep_bars(self, k: int, run_time: float) -> None:
        """The bars of every step and X up to stage k grow in one sweep, left to right, on
        the axis as it is (`axis_to` set it before), while the plane is away: the same steps
        go on the plane unseen (`draw_unseen`), and when it comes back it shows the whole
        path at one scale (`whole_final`: no glide per layer from then on)."""
        first = self.progress + 1
        x_stages = self.data["x_stages"]
        order = []
        for i in range(first, k + 1):
            s = self.step_rows[i - 1]
            if s["kind"] in ("attn", "ffn") and self.chart is not None:
                order.append(self.new_bar(("step", i - 1), s["layer"], s["kind"],
                                          s["norm"]["value"]))
            if i in x_stages and self.chart is not None:
                j = x_stages.index(i)
                order.append(self.new_bar(("x", j), j, "x", self.data["x_norms"][j]["value"]))
        self.draw_unseen(k)
        self.whole_final = True
        if order:
            self.play(GrowInTurn(self, order), run_time=run_time)

    def draw_unseen(self, k: int) -> None:
        """The steps up to stage k put on the plane, tip to tail, with no play (it is off
        stage): the old X's become ghosts, the last X is drawn; the plane shows them when it
        comes back (`ensure_plane`)."""
        x_stages = self.data["x_stages"]
        if not hasattr(self, "step_arrows"):
            self.step_arrows = {}
        if self.progress < 0:
            self.x_arrow = self.plane.arrow((0, 0), self.stages[0]["xy"], T.X, 5)
            self.progress = 0
        for i in range(self.progress + 1, k + 1):
            s = self.step_rows[i - 1]
            self.step_arrows[i - 1] = self.plane.arrow(
                self.stages[i - 1]["xy"], self.stages[i]["xy"], KIND_COLOR[s["kind"]], 3.5)
            if i in x_stages:
                self.next_x(i, self.step_arrows[i - 1])
        self.progress = max(self.progress, k)

    def next_x(self, i: int, step=None):
        """X at stage i drawn from the origin, the X before it a ghost; the step that ends at
        its tip is drawn over it (round 33: the last update's short shadow hid under X's
        arrowhead)."""
        self.ghost(self.x_arrow)
        self.x_arrow = self.plane.arrow((0, 0), self.stages[i]["xy"], T.X, 5)
        if step is not None:
            self.plane.remove(step)
            self.plane.add(step)
        return self.x_arrow

    def ghost(self, x_arrow) -> None:
        """The X just passed joins the trail of earlier X's: the newest GHOSTS[0] opaque, each
        older one fainter, the oldest beyond the trail taken off the plane (the change each
        layer makes stays visible instead of a wedge of every earlier X)."""
        trail = getattr(self, "ghosts", [])
        trail.insert(0, x_arrow)
        for a in trail[len(GHOSTS):]:
            self.plane.forget(a)
            self.plane.remove(a)
        trail = trail[:len(GHOSTS)]
        for a, op in zip(trail, GHOSTS):
            a.set_opacity(op)
        self.ghosts = trail

    def swap_scale_bar(self, before: int, k: int) -> None:
        """After the view glided from stage `before`'s to stage k's: the scale bar of the new
        view (a true Num), if it changed."""
        if self.view_at(k) != self.view_at(before):
            self.remove(self.scale)
            self.scale = self.scale_bar(k)
            self.add(self.scale)

    def view_at(self, k: int) -> dict:
        """The plane's view after stage k: the journey's close-up on the newest part of the
        path while `close_up` is on (from the plan's close_from_stage), else the whole path."""
        p = self.data["plane"]
        if getattr(self, "whole_final", False):      # zoomed out once, to the whole path
            return p["whole_view"]
        if getattr(self, "close_up", False) and p["close_views"][k] is not None:
            fixed = getattr(self, "close_k", None)
            if fixed is not None:                    # one scale for the whole close-up: it pans
                f = p["close_views"][fixed]
                return dict(p["close_views"][k], width=f["width"], scale=f["scale"],
                            scale_decimals=f["scale_decimals"])
            return p["close_views"][k]
        return p["views"][k]

    def fix_close_scale(self, last_stage: int) -> None:
        """The close-up keeps one scale, the widest the plan's close-up takes up to
        `last_stage` (the leg's end): the camera pans along the path and never rescales."""
        cv = self.data["plane"]["close_views"]
        ks = [k for k in range(max(self.progress, 0), last_stage + 1) if cv[k] is not None]
        self.close_k = max(ks, key=lambda k: cv[k]["width"]) if ks else None

    def set_close_up(self, on: bool, run_time: float, whole: bool = False, extra=()) -> None:
        """The camera glides to the close-up of the newest states (on) or back out to the whole
        path (off; `whole`: to the whole finished path, kept from then on); the scale bar fades
        out before and its new length comes in after. `extra` (the bar axis's one rescale)
        plays with the glide."""
        k = max(self.progress, 0)
        before = self.view_at(k)
        self.close_up = on
        self.whole_final = whole
        after = self.view_at(k)
        if after == before:
            if extra:
                self.play(*extra, run_time=max(0.5, run_time - 0.5))
            return
        self.play(self.scale.animate.set_opacity(0), run_time=0.25)
        self.remove(self.scale)
        self.play(PlaneStep(self.plane, [], after), *extra, run_time=max(0.5, run_time - 0.5))
        self.scale = self.scale_bar(k)
        self.play(FadeIn(self.scale), run_time=0.25)

    # --- the bars -----------------------------------------------------------------------------
    def chart_parts(self) -> list:
        """Everything of the bar chart on stage: axis, ticks, bars and the key's shown entries."""
        keys = [e for e in self.chart_key[1:] if e not in getattr(self, "key_for", {}).values()]
        return [self.chart, self.tick_labels, self.bar_group, *keys]

    def chart_fades(self) -> list:
        """The bars' leaving, for a beat that does not use them (ensure_chart brings them
        back): their fades, marked hidden; none if they are not on stage."""
        if self.chart is None or getattr(self, "chart_hidden", False):
            return []
        self.chart_hidden = True
        return [FadeOutPlace(m) for m in self.chart_parts()]

    def hide_chart(self) -> None:
        """Clear the bars for a beat that does not use them (ensure_chart brings them back)."""
        fades = self.chart_fades()
        if fades:
            self.play(*fades, run_time=self.quick(0.2, 0.6))

    def chart_returns(self) -> list:
        """Bars a beat cleared, back: their fade-ins, to play (none if they are on stage)."""
        if self.chart is None or not getattr(self, "chart_hidden", False):
            return []
        self.chart_hidden = False
        return [FadeInPlace(m) for m in self.chart_parts()]

    def ensure_chart(self) -> None:
        if self.chart is not None:
            back = self.chart_returns()
            if back:
                self.play(*back, run_time=self.quick(0.2, 0.6))
            return
        base = VMobject(stroke_color=T.MUTED, stroke_width=2)
        x0 = -CHART_W / 2 + 0.6
        y0 = -3.05 + 0.35
        base.set_points_as_corners([[x0 - 0.1, y0, 0], [x0 + CHART_W - 0.4, y0, 0]])
        self.chart_origin = np.array([x0, y0, 0.0])
        self.slot = (CHART_W - 0.6) / (self.L + 1)
        # the chart's view: its first slot's index, its height, its bars' width factor (a
        # short leg on the bars alone widens its layers: `chart_close`)
        self.chart_lo, self.chart_h, self.bar_k = 0.0, CHART_H, 1.0
        ax = self.data["bars"]["linear"][0]
        self.bar_max = ax["max"]
        grid = VGroup()
        for frac in (0.5, 1.0):
            g = VMobject(stroke_color=T.FAINT, stroke_width=1)
            g.set_points_as_corners([[x0 - 0.1, y0 + frac * CHART_H, 0],
                                     [x0 + CHART_W - 0.4, y0 + frac * CHART_H, 0]])
            grid.add(g)
        self.tick_labels = self.ticks(0)
        # (the last slot is X^(L)'s bar: L, the plan's layer count, marks it)
        layer_labels = VGroup(*[(Num(self.v.layers[l].layer, decimals=0, size=S,
                                     color=T.TEXT) if l < self.L else
                                 Num(self.v.n_layers, decimals=0, size=S,
                                     color=T.TEXT)).move_to(
            self.bar_x(l, "mid") + DOWN * 0.2) for l in range(0, self.L + 1, 5)])
        # a tick under each labelled layer's trio of bars (review 26: bars read as between marks)
        marks = VGroup(*[Line(self.bar_x(l, "mid"), self.bar_x(l, "mid") + DOWN * 0.07,
                              stroke_width=2, color=T.MUTED) for l in range(0, self.L + 1, 5)])
        # the other layers' numbers, shown only in a close view (`chart_close`)
        self.fine_labels = {l: Num(self.v.layers[l].layer, decimals=0, size=S, color=T.TEXT)
                            .move_to(self.bar_x(l, "mid") + DOWN * 0.2).set_opacity(0)
                            for l in range(self.L) if l % 5}
        key = VGroup(*[VGroup(Rectangle(width=0.16, height=0.16, stroke_width=0,
                                        fill_color=c, fill_opacity=1),
                              lab).arrange(RIGHT, buff=0.08)
                       for c, lab in ((T.X, math(f"|{X_l('l')}|", ML, T.X).scale(0.9)),
                                      (T.ATTN, txt("attention", S, T.ATTN)),
                                      (T.FFN, txt("FFN", S, T.FFN)))])
        key.scale(KEY_SCALE)
        # one row over the bars' left; beside the journey's big plane (which comes down to
        # the bars) two rows, |X| and attention, then FFN, left of it: `key_layouts`
        self.key_layouts = {}
        for big in (False, True):
            key[1].next_to(key[0], RIGHT, buff=(0.3 if big else 0.45) * KEY_SCALE)
            # one line in both layouts (review 26: two rows touched the plane's frame)
            key[2].next_to(key[1], RIGHT, buff=(0.3 if big else 0.45) * KEY_SCALE)
            key.next_to(self.chart_origin + UP * (CHART_H + 0.05), UP, buff=0.06)
            # inside the frame, over the bars, clear of the top tick's number on its left
            key.align_to(self.chart_origin + RIGHT * 0.05, LEFT)
            self.key_layouts[big] = [e.get_center().copy() for e in key]
        # (round 37: "layer" over a 0-30 axis whose last bar is X^(30)) the index l: |X^(l)|
        # (the key) and layer l's two updates; the axis ends at X^(L)'s slot
        word = math("l", ML, T.TEXT).next_to(layer_labels[0], LEFT, buff=0.3)
        # |X| is keyed with the chart; each update's entry comes in with its first bar
        self.chart = VGroup(grid, base, marks, layer_labels, word, key[0],
                            VGroup(*self.fine_labels.values()))
        self.chart_key = key
        self.place_key(getattr(self, "plane_big", False))
        self.key_for = {"attn": key[1], "ffn": key[2]}
        self.bar_group = VGroup()
        self.add(self.bar_group)
        self.play(FadeInPlace(self.chart), FadeInPlace(self.tick_labels), run_time=self.quick())

    def place_key(self, big: bool) -> None:
        """The bars' colour key in the plane's layout, at once (nothing drawn)."""
        for e, c in zip(self.chart_key, self.key_layouts[big is True]):
            e.move_to(c)

    def key_moves(self, big: bool) -> list:
        """The key's entries on stage move to the plane's layout (`big`); the others jump."""
        if self.chart is None:
            return []
        out = []
        for e, c in zip(self.chart_key, self.key_layouts[big is True]):
            if e in self.mobjects or any(e in m.get_family() for m in self.mobjects):
                if not np.allclose(e.get_center(), c):
                    # clockwise: an entry going to the row below passes under its neighbour,
                    # not through it
                    out.append(e.animate(path_arc=-1.2).move_to(c))
            else:
                e.move_to(c)
        return out

    def key_reveals(self, kinds) -> list:
        """The chart key's entry for each update kind whose first bar grows now, faded in."""
        out = []
        for kind in kinds:
            entry = getattr(self, "key_for", {}).pop(kind, None)
            if entry is not None:
                out.append(FadeIn(entry))
        return out

    def ticks(self, k: int) -> VGroup:
        out = VGroup()
        for frac, t in zip((0.5, 1.0), self.v.bars.linear[k].ticks):
            out.add(Num(t.value, decimals=int(t.decimals), size=S, color=T.TEXT)
                    .next_to(self.chart_origin + UP * frac * self.chart_h, LEFT, 0.12))
        return out

    def bar_x(self, l: int, which: str = "x") -> np.ndarray:
        off = BAR_OFF[which] if which in BAR_OFF else 0.0        # "mid": the layer's centre
        return self.chart_origin + RIGHT * ((l - self.chart_lo + 0.5) * self.slot
                                            + off * self.bar_k)

    def new_bar(self, key, l: int, which: str, value: float) -> Rectangle:
        r = Rectangle(width=BAR_W[which] * self.bar_k, height=0.001, stroke_width=0,
                      fill_opacity=1,
                      fill_color={"x": T.X, "attn": T.ATTN, "ffn": T.FFN}[which])
        r.value = value
        r.move_to(self.bar_x(l, which), aligned_edge=DOWN)
        self.bars[key] = r
        self.bar_group.add(r)
        return r

    def bar_for_step(self, j: int):
        s = self.step_rows[j]
        if s["kind"] not in ("attn", "ffn") or self.chart is None:
            return None
        r = self.new_bar(("step", j), s["layer"], s["kind"], s["norm"]["value"])
        return BarsTo(self, [r], self.data["bars"]["linear"][j + 1]["max"], j + 1)

    def bar_for_x(self, j: int):
        if self.chart is None:
            return None
        r = self.new_bar(("x", j), j, "x", self.data["x_norms"][j]["value"])
        k = self.data["x_stages"][j]
        return BarsTo(self, [r], self.data["bars"]["linear"][k]["max"], k)

    def axis_unseen(self, k: int) -> None:
        """The bar axis raised to stage k's at once while the chart is off stage (it comes
        back on it: no rescale seen as it returns)."""
        top = self.data["bars"]["linear"][k]["max"]
        if self.chart is None or top <= self.bar_max + 1e-9:
            return
        self.bar_max, self.axis_k = top, k
        for r in self.bars.values():
            bottom = r.get_bottom()
            r.stretch_to_fit_height(max(0.001, min(1.0, r.value / top) * self.chart_h))
            r.move_to(bottom, aligned_edge=DOWN)
        self.tick_labels = self.ticks(k)
        self.tick_k = k

    def set_ticks(self, k: int) -> None:
        if getattr(self, "tick_k", 0) != k:
            new = self.ticks(k)
            self.remove(self.tick_labels)
            self.tick_labels = new
            self.add(new)
            self.tick_k = k


    def bar_place(self, key) -> tuple:
        """A bar's layer slot and kind: ("x", j) is X^(j)'s, ("step", j) step j's."""
        if key[0] == "x":
            return key[1], "x"
        s = self.step_rows[key[1]]
        return s["layer"], s["kind"]

    def chart_view(self, lo: float, h: float, k: float) -> None:
        """The chart laid out with its first slot at index `lo`, `h` tall, bars `k` times their
        width: bars, gridlines, layer numbers and ticks move (nothing is redrawn); what falls
        left of the axis fades; the in-between layers' numbers show as the view closes in."""
        self.chart_lo, self.chart_h, self.bar_k = lo, h, k
        self.slot = (CHART_W - 0.6) / (self.L + 1 - lo)
        x0, y0 = self.chart_origin[0], self.chart_origin[1]
        seen = lambda x: float(np.clip((x - x0 + 0.15) / 0.3, 0.0, 1.0))     # noqa: E731
        for key, r in self.bars.items():
            l, which = self.bar_place(key)
            at = self.bar_x(l, which)
            r.stretch_to_fit_width(BAR_W[which] * k)
            r.stretch_to_fit_height(max(0.001, min(1.0, r.value / self.bar_max) * h))
            r.move_to(at, aligned_edge=DOWN)
            r.set_fill(opacity=seen(at[0]))
        grid, marks, labels = self.chart[0], self.chart[2], self.chart[3]
        for g, frac in zip(grid, (0.5, 1.0)):
            g.set_y(y0 + frac * h)
        for t, frac in zip(self.tick_labels, (0.5, 1.0)):
            t.set_y(y0 + frac * h)
        close = float(np.clip(lo / max(getattr(self, "close_lo", 1.0), 1e-9), 0.0, 1.0))
        for i, (m, lab) in enumerate(zip(marks, labels)):
            at = self.bar_x(5 * i, "mid")
            m.move_to(at + DOWN * 0.035)
            lab.move_to(at + DOWN * 0.2)
            m.set_stroke(opacity=seen(at[0]))
            lab.set_opacity(seen(at[0]))
        for l, lab in self.fine_labels.items():
            at = self.bar_x(l, "mid")
            lab.move_to(at + DOWN * 0.2).set_opacity(close * seen(at[0]))
        for e, c in zip(self.chart_key, self.key_layouts[getattr(self, "plane_big", False) is True]):
            e.move_to(c + UP * (h - CHART_H))

    def chart_close(self, lo: int, run_time: float, back: bool = False,
                    h: float = CLOSE_H) -> None:
        """The bar chart closes in on slots `lo` to L (a short leg on the bars alone: its
        layers wide enough for their lengths to be written at their bars), `h` tall (lo 0:
        every layer, taller), or (`back`) opens out again to every layer at its own height:
        one glide, everything moving."""
        full = (CHART_W - 0.6) / (self.L + 1)
        lo1 = 0.0 if back else float(lo)
        if lo1 > 0:
            self.close_lo = lo1
        h1 = CHART_H if back else h
        k1 = 1.0 if lo1 == 0 else CLOSE_BAR * (CHART_W - 0.6) / (self.L + 1 - lo1) / full
        lo0, h0, k0 = self.chart_lo, self.chart_h, self.bar_k

        def glide(m, a):
            a = smooth(a)
            self.chart_view(lo0 + a * (lo1 - lo0), h0 + a * (h1 - h0), k0 + a * (k1 - k0))

        # (on-stage mobjects only: the renderer draws what an animation names as moving)
        keys = [e for e in self.chart_key if e not in getattr(self, "key_for", {}).values()]
        self.play(UpdateFromAlphaFunc(self.bar_group, glide),
                  *[Animation(m) for m in (self.chart, self.tick_labels, *keys)],
                  run_time=run_time)
        self.chart_closed = lo1 > 0


    def chart_home(self) -> None:
        """The chart back in its own view (every layer, CHART_H tall) for a beat that shares
        the stage with it (the plane, the columns): at once while it is off stage, else in one
        glide."""
        if self.chart is None or (self.chart_lo == 0 and self.chart_h == CHART_H):
            return
        if getattr(self, "chart_hidden", False):
            self.chart_view(0.0, CHART_H, 1.0)
            self.chart_closed = False
        else:
            self.chart_close(0, run_time=0.8, back=True)


class GrowInTurn(Animation):
    """Bars already on the chart (height ~0) grow to their values on the chart's axis as it
    is, one after another in `order`, each over three bars' share of the run (a sweep:
    neighbours overlap), at one steady pace."""

    SPAN = 3

    def __init__(self, scene: StreamPanels, order, **kw):
        self.scene_, self.order = scene, list(order)
        kw.setdefault("rate_func", lambda t: t)
        super().__init__(scene.bar_group, **kw)

    def create_starting_mobject(self):
        return self.mobject

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        n, w = len(self.order), self.SPAN
        top = self.scene_.bar_max
        for i, r in enumerate(self.order):
            g = min(1.0, max(0.0, (a * (n + w - 1) - i) / w))
            h = max(0.001, min(1.0, g * r.value / top) * self.scene_.chart_h)
            bottom = r.get_bottom()
            r.stretch_to_fit_height(h).move_to(bottom, aligned_edge=DOWN)


class BarsTo(Animation):
    """New bars grow while the chart's linear axis glides to `top` (every bar rescales)."""

    def __init__(self, scene: StreamPanels, new, top: float, k: int, **kw):
        self.scene_, self.new, self.top, self.k = scene, list(new), float(top), k
        self.top0 = scene.bar_max
        self.ticks = None                    # (old labels, values, new labels, values), begin()
        super().__init__(scene.bar_group, **kw)

    def create_starting_mobject(self):
        return self.mobject

    def begin(self) -> None:
        """The tick labels ride with the axis: the old ones slide down with the bars (fading),
        the new axis's come down from the top (one BarsTo of a play moves them)."""
        super().begin()
        sc = self.scene_
        self.ticks = None
        axes = sc.data["bars"]["linear"]
        old_v = [t["value"] for t in axes[getattr(sc, "tick_k", 0)]["ticks"]]
        new_v = [t["value"] for t in axes[self.k]["ticks"]]
        if old_v != new_v and getattr(sc, "ticks_moving", None) is None:
            sc.ticks_moving = self
            new = sc.ticks(self.k)
            self.ticks = (sc.tick_labels, old_v, new, new_v)
            sc.add(new)

    def place_ticks(self, a: float, top: float) -> None:
        if self.ticks is None:
            return
        y0 = self.scene_.chart_origin[1]
        old, old_v, new, new_v = self.ticks
        # the old labels are gone before the new ones come in (never two numbers on one tick)
        # the old labels fade where they stand (review 26: sliding down, "5" ran into "2.5"),
        # the new ones ride down with the axis only once the old are gone
        o_old, o_new = max(0.0, 1 - 5 * a), max(0.0, 3 * a - 2)
        for t in old:
            t.set_opacity(o_old)
        for t, v in zip(new, new_v):
            frac = v / top
            t.set_y(y0 + min(frac, 1.0) * self.scene_.chart_h)
            t.set_opacity(o_new if frac <= 1.001 else 0)

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        top = self.top0 + a * (self.top - self.top0)
        self.place_ticks(a, top)
        for r in self.scene_.bars.values():
            # a new bar grows to its height on the final axis, never above the gliding one's
            # top (a 28x step drawn on the old axis would run over the title)
            h = r.value / top if r not in self.new else min(a * r.value / self.top,
                                                             r.value / top)
            h = max(0.001, min(1.0, h) * self.scene_.chart_h)
            bottom = r.get_bottom()
            r.stretch_to_fit_height(h).move_to(bottom, aligned_edge=DOWN)

    def finish(self) -> None:
        super().finish()
        sc = self.scene_
        sc.bar_max = self.top
        if self.ticks is not None:                 # the new ticks are in place: keep them
            old, _, new, _ = self.ticks
            sc.remove(old)
            new.set_opacity(1)
            sc.tick_labels = new
            sc.tick_k = self.k
            sc.ticks_moving = None
        sc.set_ticks(self.k)
