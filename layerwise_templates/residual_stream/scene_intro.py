"""The residual_stream scene's new beats (`IntroBeats`, a mixin of ResidualStreamScene):
`switch` (MiniLM's post-LN block beside SmolLM2's pre-norm block), `plane` (what the PCA plane
is, before anything moves on it) and `copies` (what W_Q, W_K, W_V read: RMSNorm(X), small,
while X grows)."""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, Animation, AnimationGroup, Arrow, Brace, Circle, Create, DashedLine, Dot, FadeIn, FadeOut,
                   GrowFromEdge, Indicate, LaggedStart, Line, UpdateFromAlphaFunc, smooth,
                   MoveAlongPath,
                   ManimColor, Rectangle, RoundedRectangle, Transform, VGroup, VMobject, linear,
                   squish_rate_func, there_and_back)

from scenes import theme as T
from scenes.animations import FadeOutPlace
from scenes.mobjects import Num, inline, math, txt
from . import moments as M
from scenes.motion.tip_to_tail import PlaneStep
from .scene_parts import ASIDE, ML, S, X_l, appear

L_ = T.TYPE.label
FORMULA_SCALE = 1.25       # the copies beat's bar labels, read at 480p
FORMULA_BIG = 1.6          # ... its path X -> RMSNorm -> W -> Q, K, V (the scripts read at 480p)
# the cosine bars: a neutral grey (round 28: blue, the colour of |X| everywhere else)
COS_BAR = ManimColor("#A7AFB8")
AXIS_SCALE = 1.25          # the copy strip's and the cosine strip's axis numbers, read at 480p


def _box(word: str, color, w: float | None = None) -> VGroup:
    t = txt(word, L_, color)
    r = RoundedRectangle(corner_radius=0.08, width=w or t.width + 0.3, height=0.5,
                         stroke_color=color, stroke_width=2)
    return VGroup(r, t.move_to(r))


def _draw(g) -> AnimationGroup:
    """A diagram drawn: its lines and boxes traced (Create), its words faded in whole at
    reading size (round 31, layoutcheck --midplay: a traced word is a 7 px partial glyph)."""
    from manim import MarkupText, SingleStringMathTex, Text
    words, lines = [], []

    def walk(m):
        if isinstance(m, (Text, MarkupText, SingleStringMathTex)):
            words.append(m)
        elif len(m.points):             # a line, a box, an arrow with its tip: traced whole
            lines.append(m)
        else:
            for c in m.submobjects:
                walk(c)
    walk(g)
    return AnimationGroup(*[Create(m) for m in lines], *[FadeIn(m) for m in words])


def _plus(at) -> VGroup:
    c = Circle(radius=0.17, stroke_color=T.X, stroke_width=3).move_to(at)
    return VGroup(c, txt("+", L_, T.X).move_to(at))


def _arrow(a, b, color=T.MUTED) -> Arrow:
    return Arrow(a, b, buff=0.0, stroke_width=3, color=color, tip_length=0.15,
                 max_tip_length_to_length_ratio=0.4)


class LaggedFade(Animation):
    """`group` fades in piece by piece (`parts`, in order, each starting `lag` of a piece's
    time after the one before) as one animation of the group: the pieces stay in it (a
    LaggedStart of FadeIns would add each piece to the scene on its own)."""

    def __init__(self, group, parts, lag: float = 0.3, **kw):
        self.parts, self.lag = list(parts), lag
        super().__init__(group, introducer=True, **kw)

    def create_starting_mobject(self):
        return self.mobject

    def begin(self) -> None:
        from scenes.animations import _plain_alpha
        self.members = [[(m, m.get_fill_opacity(), m.get_stroke_opacity(), _plain_alpha(m))
                         for m in p.get_family() if isinstance(m, VMobject)]
                        for p in self.parts]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        from scenes.animations import set_opacities
        n = len(self.parts)
        d = 1.0 / (1.0 + self.lag * (n - 1))
        a = self.rate_func(alpha)
        for i, members in enumerate(self.members):
            k = min(1.0, max(0.0, (a - i * self.lag * d) / d))
            for m, fill, stroke, plain in members:
                set_opacities(m, fill * k, stroke * k, plain)

    def finish(self) -> None:
        super().finish()
        from scenes.animations import set_opacities
        for members in self.members:
            for m, fill, stroke, plain in members:
                set_opacities(m, fill, stroke, plain)


class IntroBeats:
    def clear_stage(self, keep=()) -> None:
        """Drop every slot but `keep` (one idea on screen at a time)."""
        self.drop(*[s for s in list(self.shown) if s not in keep])

    # --- switch -------------------------------------------------------------------------------
    def post_ln_diagram(self) -> VGroup:
        """MiniLM's block: the normalisation sits on X's own path, after each addition."""
        x0, top = -4.6, 1.75
        title = txt("MiniLM (post-LN)", L_, T.TEXT).move_to([-3.6, top + 0.45, 0])
        ys = [top - 0.25, top - 1.05, top - 1.85, top - 2.65, top - 3.45]
        p1, ln1, p2, ln2 = _plus([x0, ys[1], 0]), _box("LayerNorm", T.LN), \
            _plus([x0, ys[3], 0]), _box("LayerNorm", T.LN)
        ln1.move_to([x0, ys[2], 0])
        ln2.move_to([x0, ys[4], 0])
        x_in = math("X", ML, T.X).move_to([x0, ys[0] + 0.15, 0])
        att = _box("attention", T.ATTN).move_to([x0 + 2.0, ys[1], 0])
        ffn = _box("feed-forward (FFN)", T.FFN).move_to([x0 + 2.0, ys[3], 0])
        line = VGroup(_arrow(x_in.get_bottom(), p1.get_top(), T.X),
                      _arrow(p1.get_bottom(), ln1.get_top(), T.X),
                      _arrow(ln1.get_bottom(), p2.get_top(), T.X),
                      _arrow(p2.get_bottom(), ln2.get_top(), T.X),
                      _arrow(ln2.get_bottom(), ln2.get_bottom() + DOWN * 0.45, T.X))
        feeds = VGroup(_arrow(att.get_left(), p1.get_right(), T.ATTN),
                       _arrow(ffn.get_left(), p2.get_right(), T.FFN))
        # each sublayer reads X (the stream before its +): a branch off X's path into it
        reads = VGroup()
        for sub, y in ((att, (x_in.get_bottom()[1] + p1.get_top()[1]) / 2),
                       (ffn, (ln1.get_bottom()[1] + p2.get_top()[1]) / 2)):
            corner = [sub.get_x(), y, 0]
            reads.add(Line([x0, y, 0], corner, stroke_width=3, color=T.X),
                      _arrow(corner, sub.get_top(), T.X))
        g = VGroup(title, x_in, line, p1, p2, ln1, ln2, att, ffn, reads, feeds)
        g.lns = VGroup(ln1, ln2)
        g.path = VMobject().set_points_as_corners(
            [x_in.get_bottom(), ln1.get_center(), ln2.get_center(),
             ln2.get_bottom() + DOWN * 0.45])
        return g

    def pre_norm_diagram(self) -> VGroup:
        """SmolLM2's block: X's own path only adds; each sublayer reads an RMSNorm copy."""
        x0, top = 0.8, 1.75          # (left a little: its "feed-forward (FFN)" box is wide)
        title = txt("SmolLM2 (pre-norm)", L_, T.TEXT).move_to([2.8, top + 0.45, 0])
        x_in = math("X", ML, T.X).move_to([x0, top - 0.1, 0])
        p1, p2 = _plus([x0, top - 1.45, 0]), _plus([x0, top - 3.05, 0])
        n1 = _box("RMSNorm", T.LN).move_to([x0 + 1.55, top - 0.75, 0])
        a1 = _box("attention", T.ATTN).move_to([x0 + 3.75, top - 0.75, 0])
        n2 = _box("RMSNorm", T.LN).move_to([x0 + 1.55, top - 2.35, 0])
        f2 = _box("feed-forward (FFN)", T.FFN).next_to(n2, RIGHT, buff=0.4)   # clear of it
        a1.set_x(f2.get_x())                 # the two sublayers in one column
        end = [x0, top - 3.9, 0]
        line = VGroup(_arrow(x_in.get_bottom(), p1.get_top(), T.X),
                      _arrow(p1.get_bottom(), p2.get_top(), T.X),
                      _arrow(p2.get_bottom(), end, T.X))
        tap1, tap2 = [x0, n1.get_y(), 0], [x0, n2.get_y(), 0]
        branch = VGroup(_arrow(tap1, n1.get_left(), T.LN), _arrow(n1.get_right(), a1.get_left()),
                        _arrow(a1.get_bottom(), p1.get_right() + RIGHT * 0.02, T.ATTN),
                        _arrow(tap2, n2.get_left(), T.LN), _arrow(n2.get_right(), f2.get_left()),
                        _arrow(f2.get_bottom(), p2.get_right() + RIGHT * 0.02, T.FFN))
        g = VGroup(title, x_in, line, p1, p2, n1, a1, n2, f2, branch)
        g.norms, g.line = VGroup(n1, n2), line
        g.path = VMobject().set_points_as_corners([x_in.get_bottom(), end])
        g.branches = [VMobject().set_points_as_corners(
            [tap, n.get_center(), sub.get_center(), p.get_center()])
            for tap, n, sub, p in ((tap1, n1, a1, p1), (tap2, n2, f2, p2))]
        return g

    def beat_switch(self, beat) -> None:
        """MiniLM's post-LN block beside SmolLM2's pre-norm block, a dot running down each:
        through both LayerNorms in one, past copies that leave and come back in the other."""
        self.clear_stage()
        left, right = self.post_ln_diagram(), self.pre_norm_diagram()
        # "Until now our model was MiniLM."
        self.put("post", left, anim=_draw(left), run_time=self.to_cue(1, 1.0))
        # "From here on it is SmolLM2, pre-norm like most recent decoders."
        self.hold_until_cue(1)
        self.put("pre", right, anim=_draw(right), run_time=self.to_cue(2, 1.0))
        # "MiniLM normalises X itself after each addition": a dot runs down X's own path,
        # through each LayerNorm (lit as it passes)
        self.hold_until_cue(2)
        self.run_dot(left.path, [(left.lns[0], 0.3, 0.55), (left.lns[1], 0.75, 1.0)],
                     self.to_cue(3, 2.5))
        # "SmolLM2 normalises only a copy ... adds the update to X itself": X's dot runs
        # straight down; a copy leaves it through each RMSNorm and comes back as an update
        self.hold_until_cue(3)
        named = self.cue_with("residual stream")
        until = self.cue_at(named if named is not None and named > 3 else self.n_cues())
        self.run_dot(right.path, [(right.norms[0], 0.1, 0.4), (right.norms[1], 0.5, 0.8)],
                     self.fill(until, 2.5, 0.7), extra=right.branches)
        if "residual stream" not in str(self.beat.get("narration") or ""):
            self.emphasize(VGroup(right[1], right.line),
                           run_time=self.fill(self.cue_at(self.n_cues()), 1.0), buff=0.12)
            return
        # "This X, only ever added to, is called the residual stream": its name written under
        # X's own line as it is said (round 33: "residual stream" never written), the line lit
        if named is not None:
            self.hold_until_cue(named)
        name = txt("residual stream", L_, T.X).next_to(right.line, DOWN, buff=0.15)
        self.keep_inside(name)
        self.put("stream_name", name, anim=appear(name), run_time=0.5)
        # a box round X's line and one round its name (round 35: one box round both was as
        # wide as the name and cut through the RMSNorm labels)
        self.emphasize(VGroup(right[1], right.line), name,
                       run_time=self.fill(self.cue_at(self.n_cues()), 1.0), buff=0.12)

    def run_dot(self, path, lit, run_time: float, extra=()) -> None:
        """A dot runs along `path` (and one along each of `extra`), lighting each (mobject,
        a, b) over its share a..b of the run."""
        dots = [Dot(radius=0.08, color=T.POINTER) for _ in range(1 + len(extra))]
        spans = [(0.0, 1.0)] + [(0.05 + 0.45 * k, 0.45 + 0.45 * k) for k in range(len(extra))]
        anims = [MoveAlongPath(d, p, rate_func=squish_rate_func(linear, a, b))
                 for d, p, (a, b) in zip(dots, [path, *extra], spans)]
        anims += [Indicate(m, color=T.POINTER, scale_factor=1.15,
                           rate_func=squish_rate_func(there_and_back, a, b)) for m, a, b in lit]
        self.add(*dots)
        self.play(*anims, run_time=run_time)
        self.remove(*dots)

    # --- plane --------------------------------------------------------------------------------
    def beat_plane(self, beat) -> None:
        """The PCA plane of the followed token's states: it opens on the whole path, every
        state a dot along it; the share of their squared length it keeps; then one glide to
        X^(0), its shadow drawn beside an arrow of its true length; the bars that give
        true lengths. One change of scale in the beat (round 35: three in 10 s)."""
        d = self.data
        self.clear_stage(keep=("a",))
        # "We draw X on a flat plane": the plane large, right, top to bottom, in the view of
        # the whole path from the start (the bars come only at the beat's end)
        views = d["plane"]["views"]
        last = len(self.stages) - 1
        self.ensure_plane(big="wide", hold=(views[last], self.v.plane.views[last]))
        # (short lines, left of the plane: each said line in two rows where it is long)
        lines = [
            VGroup(inline(Num(self.v.plane.n_points, decimals=0, size=L_), txt("states:", L_)),
                   inline(math(X_l(0), ML, T.X), txt("and X after each addition", L_))
                   ).arrange(DOWN, buff=0.12, aligned_edge=LEFT),
            VGroup(inline(txt("the plane keeps", L_),
                          self.n(self.v.plane.energy_pct, T.TEXT, L_, suffix="%")),
                   txt("of their squared length", L_)
                   ).arrange(DOWN, buff=0.12, aligned_edge=LEFT),
            inline(math(X_l(0), ML, T.X), txt("itself:", L_),
                   self.n(self.v.summary.norm_first, T.X, L_), txt("long", L_)),
            inline(txt("its shadow:", L_),
                   self.n(self.v.stages[0].captured_pct, T.TEXT, L_, suffix="%"),
                   txt("of that", L_)),
        ]
        col = self.shown.get("a")
        left_x = (col.get_right()[0] + 0.4) if col is not None else -5.9
        box = VGroup(*lines).arrange(DOWN, buff=0.32, aligned_edge=LEFT)
        box.move_to([0, 0.55, 0]).align_to([left_x, 0, 0], LEFT)
        lines[3].shift(UP * 0.05)
        # (round 31: the box round 2.18 ran into "long") a space after the boxed number
        lines[2][3].shift(RIGHT * 0.12)
        # "We draw X on a flat plane, fitted by PCA to bank's 61 states": every state's shadow
        # is a dot on the plane, one after another along the path, from the sentence's start
        # (the view already frames the whole path); "61 states" written as it is said
        dots = self.state_dots()
        n = len(dots)
        run = self.to_moment(M.SPREAD, 2.5, 0.8)
        at = min(0.8, max(0.0, (self.said(M.STATES) - self.time) / max(run, 1e-6)))

        def show_dots(m, a):
            self.place_dots(dots, [min(1.0, max(0.0, (a - 0.05 - 0.8 * k / n) * 20))
                                   for k in range(n)])

        self.shown["p0"] = lines[0]
        self.play(UpdateFromAlphaFunc(dots, show_dots, suspend_mobject_updating=False),
                  FadeIn(lines[0], shift=0.1 * UP,
                         rate_func=squish_rate_func(smooth, at, min(1.0, at + 0.15))),
                  run_time=run)
        # where the path starts and ends (X^(0) by the origin, X^(L) last)
        # X^(L)'s name beyond the path's end, away from the last states before it (not on them)
        tail = np.mean([d.get_center() for d in dots[-6:-1]], axis=0)
        away = dots[-1].get_center() - tail
        away = away / np.linalg.norm(away) if np.linalg.norm(away) > 1e-6 else UP
        ends = VGroup(math(X_l(0), ML, T.X).next_to(dots[0], DOWN + LEFT, buff=0.05),
                      math(X_l(self.L), ML, T.X).next_to(dots[-1], away, buff=0.12))
        self.keep_inside(ends)
        self.play(FadeIn(ends), run_time=0.4)
        # "PCA picks the two directions ...; the plane keeps 90 percent"
        self.hold_until_moment(M.SPREAD)
        # "... picks the two directions": the plane's two axes (the origin on them) lit
        self.play(Indicate(self.plane.axes, color=T.POINTER, scale_factor=1.0), run_time=1.4)
        self.put("p1", lines[1], anim=appear(lines[1]), run_time=0.8)
        self.emphasize(lines[1][0][1], self.plane.frame,
                       run_time=self.to_moment(M.SHADOW, 1.2, 0.7))
        # "the plane is a shadow: X of zero's shadow is only 9 percent as long as X of zero":
        # the one glide of the beat, to a view that frames X^(0)'s shadow (drawn as it lands)
        # and, beside it along the same direction, an arrow of X^(0)'s true length 2.18
        self.hold_until_moment(M.SHADOW)
        # the first two lines, said, leave; the shadow's two lines take their place (review
        # 26: four statements piled up in the left column)
        up = lines[0].get_top()[1] - lines[2].get_top()[1]
        lines[2].shift(UP * up)
        lines[3].shift(UP * up)
        self.play(dots.animate.set_opacity(0), FadeOut(ends),
                  FadeOutPlace(lines[0]), FadeOutPlace(lines[1]), run_time=0.4)
        self.shown.pop("p0", None)
        self.shown.pop("p1", None)
        self.remove(dots, ends)
        sv = d["plane"]["shadow_view"]
        s0 = self.stages[0]["xy"]
        self.x_arrow = self.plane.arrow((0, 0), s0, T.X, 5)
        self.progress = 0
        self.hold_view(sv, self.v.plane.shadow_view, 1.6, grow=[self.x_arrow])
        xy0 = np.asarray(s0, float)
        n0 = self.data["summary"]["norm_first"]["value"]
        u = xy0 / max(float(np.linalg.norm(xy0)), 1e-12)
        side = np.array([-u[1], u[0]]) * 0.045 * sv["width"]       # beside it, not on it
        if side[0] < 0:
            side = -side                        # to the right of the shadow
        tall = self.plane.arrow(tuple(side), tuple(side + u * n0), T.X, 5, opacity=0.55)
        self.put("p2", lines[2], anim=appear(lines[2]), run_time=0.4)
        self.play(PlaneStep(self.plane, [tall], sv), run_time=1.0)
        c = self.plane.frame.get_center()
        mid = self.plane.to_screen(side + u * n0 * 0.5, center=c)
        # the true-length arrow is not in the plane: drawn along its shadow, named an
        # illustration (review 24: the 2.18 arrow read as measured on the plane)
        true_lab = VGroup(inline(self.n(self.v.summary.norm_first, T.X, ASIDE),
                                 txt("true length,", ASIDE, T.X)),
                          txt("an illustration", ASIDE, T.TEXT)
                          ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        true_lab.next_to(mid, RIGHT, buff=0.2)
        self.keep_inside(true_lab)
        tip0 = self.plane.to_screen(xy0, center=c)
        shadow_lab = inline(txt("shadow:", ASIDE, T.TEXT),
                            self.n(self.v.stages[0].captured_pct, T.TEXT, ASIDE, suffix="%"))
        shadow_lab.next_to(tip0, LEFT + DOWN, buff=0.2)       # below the plane's axis line
        self.keep_inside(shadow_lab)
        self.shown["shadow_labs"] = VGroup(true_lab, shadow_lab)
        self.play(FadeIn(true_lab), run_time=0.4)
        self.emphasize(lines[2][2], true_lab[0][0], run_time=0.8)
        self.put("p3", lines[3], anim=appear(lines[3]), run_time=0.4)
        self.play(FadeIn(shadow_lab), run_time=0.4)
        # (the plane's leaving below takes about 1 s: it starts that long before "bars")
        self.emphasize(lines[3][1], shadow_lab[1],
                       run_time=max(0.8, self.said(M.BARS) - 1.0 - self.time)
                       if self.beat.get("cues") else 1.0)
        # the true-length arrow and the names leave, then the plane (it comes back in layer
        # 0's own view, unseen: no second change of scale on screen); the bars come in as
        # "bars" is said
        self.play(tall.animate.set_opacity(0), FadeOut(self.shown.pop("shadow_labs")),
                  run_time=0.4)
        self.plane.forget(tall)
        self.plane.remove(tall)
        self.hide_plane()
        self.hold_until_moment(M.BARS)
        self.ensure_chart()
        self.play(self.bar_for_x(0), run_time=0.8)
        self.emphasize(self.bars[("x", 0)], lines[2][2],
                       run_time=self.fill(self.cue_at(self.n_cues()), 1.0))

    def state_dots(self) -> VGroup:
        """Each state's shadow on the plane as a dot (X^(0) first, along the path), drawn by
        `place_dots` (none shown yet)."""
        dots = VGroup(*[Dot(radius=0.04, color=T.X) for _ in self.stages])
        dots.set_opacity(0)
        self.add(dots)
        return dots

    def place_dots(self, dots, shown) -> None:
        """Each dot at its state's point in the plane's current view, at opacity `shown[k]`,
        hidden outside the plane's frame."""
        fr = self.plane.frame
        lo, hi = fr.get_corner(DOWN + LEFT), fr.get_corner(UP + RIGHT)
        for dt, st, op in zip(dots, self.stages, shown):
            p = self.plane.to_screen(st["xy"])
            dt.move_to(p)
            inside = lo[0] <= p[0] <= hi[0] and lo[1] <= p[1] <= hi[1]
            dt.set_opacity(op if inside else 0.0)

    def copy_strip(self, c, above, below) -> VGroup:
        """Every layer's copy length |RMSNorm(X^(l))| as a bar (layer 0 muted: the range is
        from copies.from_layer on), on a scale of its own between the range's row and the
        long bars, with the range's two ends as dashed lines across."""
        norms = [n["value"] for n in c["norm"]]
        top_v = max(norms)
        y0 = below.get_top()[1] + 0.6            # room under the axis for the layer numbers
        h = max(0.4, above.get_bottom()[1] - 0.25 - y0)
        x0, x1 = -5.9, 5.0          # the range's two numbers right of the strip, off the bars
        bw = (x1 - x0) / len(norms)
        bars = VGroup(*[Rectangle(width=bw * 0.7, height=h * v / top_v, stroke_width=0,
                                  fill_color=T.LN if l >= c["from_layer"] else T.MUTED,
                                  fill_opacity=1)
                        .move_to([x0 + bw * (l + 0.5), y0, 0], aligned_edge=DOWN)
                        for l, v in enumerate(norms)])
        axis = Line([x0, y0, 0], [x1, y0, 0], stroke_width=2, color=T.MUTED)
        lines = VGroup(*[DashedLine([x0, y0 + h * c[k]["value"] / top_v, 0],
                                    [x1, y0 + h * c[k]["value"] / top_v, 0],
                                    stroke_width=2, color=T.TEXT, dash_length=0.08)
                         for k in ("min", "max")])
        # each dashed line named by its length, right of it; the axis by its first and last layer
        cp = self.v.copies
        # both right of their lines, past the last bar (never on a bar or the layer axis); a
        # narrow range moves the low one down so the two never touch
        ends = VGroup(*[self.n(getattr(cp, k), T.LN, T.TYPE.label).scale(AXIS_SCALE)
                        .next_to(line, RIGHT, buff=0.12)
                        for k, line in zip(("min", "max"), lines)])
        clash = ends[1].get_bottom()[1] - 0.05 - ends[0].get_top()[1]
        if clash < 0:
            ends[0].shift(DOWN * -clash)
        ticks = VGroup(
            Num(self.v.layers[0].layer, decimals=0, size=T.TYPE.label, color=T.TEXT)
            .scale(AXIS_SCALE).next_to(bars[0], DOWN, buff=0.08).set_y(y0 - 0.25),
            Num(cp.last_layer, decimals=0, size=T.TYPE.label, color=T.TEXT)
            .scale(AXIS_SCALE).next_to(bars[-1], DOWN, buff=0.08).set_y(y0 - 0.25))
        # (the axis's name after its last layer: the lengths' axis has the left)
        name = txt("layer", T.TYPE.label, T.TEXT).scale(AXIS_SCALE).next_to(ticks[1], RIGHT,
                                                                             buff=0.15)
        # (round 37: no y axis) the lengths' own axis, from 0, a tick every 5
        y_axis = VGroup(Line([x0 - 0.08, y0, 0], [x0 - 0.08, y0 + h, 0], stroke_width=2,
                             color=T.MUTED))
        for v in np.arange(0.0, top_v + 1e-9, 5.0):
            y = y0 + h * v / top_v
            y_axis.add(Line([x0 - 0.18, y, 0], [x0 - 0.08, y, 0], stroke_width=2,
                            color=T.MUTED))
            y_axis.add(txt(f"{v:g}", T.TYPE.label, T.TEXT)
                       .scale(AXIS_SCALE).next_to([x0 - 0.18, y, 0], LEFT, buff=0.08))
        axis = VGroup(axis, y_axis)
        axis_labels = VGroup(ticks, name)
        g = VGroup(axis, bars, lines, ends, axis_labels)
        g.bars, g.axis, g.lines, g.ends, g.axis_labels = bars, axis, lines, ends, axis_labels
        return g

    # --- copies -------------------------------------------------------------------------------
    def copy_path(self) -> VGroup:
        """"X of l reaches W Q, W K and W V only through such a copy": X^(l) -> RMSNorm -> the
        copy, fanned out to the three matrices, each making its Q, K or V (parts in the order
        drawn: X, RMSNorm, the copy's arrow, the three rows)."""
        ml = ML
        x = math("X^((l))", ml, T.X).scale(FORMULA_BIG).move_to([-5.0, -0.35, 0])
        norm = _box("RMSNorm", T.LN).move_to([-2.9, -0.35, 0])
        to_norm = _arrow(x.get_right() + RIGHT * 0.12, norm.get_left(), T.X)
        rows = VGroup()
        # (Q in the text colour: yellow is the followed token's alone in this video)
        for k, (w, out, color) in enumerate((("W_Q^((l))", "Q^((l))", T.TEXT),
                                             ("W_K^((l))", "K^((l))", T.K),
                                             ("W_V^((l))", "V^((l))", T.V))):
            y = 0.55 - 0.9 * k
            wm = math(w, ml, T.TEXT).scale(FORMULA_BIG).move_to([0.6, y, 0])
            om = math(out, ml, color).scale(FORMULA_BIG).move_to([2.9, y, 0])
            rows.add(VGroup(_arrow(norm.get_right() + RIGHT * 0.1, wm.get_left() + LEFT * 0.12,
                                   T.LN),
                            wm, _arrow(wm.get_right() + RIGHT * 0.12,
                                       om.get_left() + LEFT * 0.12, color), om))
        copy = txt("a copy", L_, T.LN).next_to(norm, DOWN, buff=0.2)
        g = VGroup(x, to_norm, norm, copy, rows)
        self.keep_inside(g)
        return g

    def beat_copies(self, beat) -> None:
        """What W_Q, W_K, W_V read: RMSNorm(X), a copy between two lengths, on one scale with
        X's own length (a post-LN model: X itself is normalised); then (`turns`, `apart`) what
        does change: each layer's cos(X^(l), X^(l+1)) under the copy's flat lengths, and how far
        apart the first and last X end up."""
        # nothing here is on the plane nor on the bars (the copy's own two bars say it): they
        # and the last beat's pieces leave in one short play, so the diagram comes as its
        # sentence starts (round 23: the stage stood blank ~2 s while the voice began)
        self.clear_all()
        c = self.data.get("copies")
        if c is None:           # a post-LN model: X itself is normalised, there is no copy
            self.put("q", txt("X itself is normalised after every addition", L_))
            return
        last = c["last_layer"]
        # (round 35: "Q = RMSNorm(X) W_Q" left out the rotation by position) no formula: the
        # path from X to Q, K, V, and the rotation said in words beside Q and K
        top = Line([-5.9, 1.95, 0], [-5.8, 1.95, 0])       # where the range line is written
        cp = self.v.copies
        R_ = ASIDE           # (round 37: "(layer 0: 1.32)" read 11-13 px at the label size)
        rng = inline(txt("from layer", R_), Num(cp.from_layer, decimals=0, size=R_),
                     txt("on, attention's copy is", R_), self.n(cp.min, T.LN, R_),
                     txt("to", R_), self.n(cp.max, T.LN, R_), txt("long", R_),
                     # the strip's first, shorter bar (muted like it): layer 0's copy
                     txt("(layer", R_, T.TEXT),
                     Num(self.v.layers[0].layer, decimals=0, size=R_, color=T.TEXT,
                         suffix=":"),
                     self.n(cp.norm[0], T.TEXT, R_, suffix=")"))
        # (round 31: the box round 9.3 ran into "long") a space after each boxed number
        VGroup(*rng[4:]).shift(RIGHT * 0.1)
        VGroup(*rng[6:]).shift(RIGHT * 0.1)
        rng.move_to(top).align_to(top, LEFT)
        # two wide bars on one scale: |X^(29)| and the longest copy (a sliver under it); the
        # copy is X's bar normalised: the long bar shrinks down into the sliver
        w, hgt = 8.4, 0.42
        xv, cv = c["x_last_in"]["value"], c["max"]["value"]
        # (round 37: "≈ 780" here, "= 703" beside it on the bars) one way to write a length
        x_lab = inline(math(f"|X^(({last}))| =", ML, T.X),
                       self.n(cp.x_last_in, T.X, L_)).scale(FORMULA_SCALE)
        # (its scope, "from layer 1 on", is the range line's: a short label, so both bars
        # start early and are long enough to compare on their one scale; round 37: the FFN's
        # own copy reaches 9.6, so the label says whose copy it bounds)
        c_lab = inline(math("|\"RMSNorm\"(X^((l)))|", ML, T.TEXT), txt("\u2264", L_),
                       self.n(cp.max, T.LN, L_), txt("(attention's copy)", L_, T.LN)
                       ).scale(FORMULA_SCALE)
        labs = VGroup(x_lab, c_lab).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
        labs.move_to([0, -1.5, 0]).align_to(top, LEFT)   # low: the copy strip above gets the room
        bar_x = 5.9 - w
        x_bar = Rectangle(width=w, height=hgt, stroke_width=0, fill_color=T.X, fill_opacity=1)
        c_bar = Rectangle(width=max(0.03, w * cv / xv), height=hgt, stroke_width=0,
                          fill_color=T.LN, fill_opacity=1)
        x_bar.move_to([bar_x, x_lab.get_y(), 0], aligned_edge=LEFT)
        c_bar.move_to([bar_x, c_lab.get_y(), 0], aligned_edge=LEFT)
        if labs.get_right()[0] + 0.25 > bar_x:          # a long label: the bars start after it
            shift = labs.get_right()[0] + 0.25 - bar_x
            x_bar.stretch(1 - shift / w, 0, about_edge=RIGHT)
            c_bar.move_to([bar_x + shift, c_lab.get_y(), 0], aligned_edge=LEFT)
        # "W Q, W K and W V also see X only through such a copy: each multiplies that copy":
        # the path, then the three matrices lit
        path = self.copy_path()
        self.put("path", path, anim=LaggedFade(path, [*path[:4], *path[4]], lag=0.15),
                 run_time=min(1.5, self.to_moment(M.FORMULA, 1.5, 0.4)))
        ws = VGroup(*[row[1] for row in path[4]])
        self.emphasize(ws, buff=0.12, run_time=self.to_moment(M.FORMULA, 1.0, 0.8))
        # "... and then Q and K are rotated by position": said in words beside Q and K
        self.hold_until_moment(M.FORMULA)
        if self.data["model"].get("rotary"):
            qk = VGroup(path[4][0][3], path[4][1][3])
            brace = Brace(qk, RIGHT, color=T.TEXT, buff=0.15)
            rot = VGroup(txt("then rotated", L_), txt("by position", L_)
                         ).arrange(DOWN, buff=0.08, aligned_edge=LEFT).next_to(brace, RIGHT, 0.15)
            self.keep_inside(rot)
            self.put("rotated", VGroup(brace, rot), anim=appear(VGroup(brace, rot)),
                     run_time=0.6)
            self.emphasize(rot, run_time=self.fill(self.cue_at(int(
                ((self.beat.get("moments") or {}).get(M.RANGE) or {}).get("cue", 1))), 1.0))
        # "From layer 1 on, attention's copy stays between 4.8 and 9.3 long": the range
        # written, then every layer's copy length as a bar on its own axis, the range's two
        # ends dashed across them, held while the sentence says it (round 37: ~1 s, no axis)
        rng_cue = int(((self.beat.get("moments") or {}).get(M.RANGE) or {}).get("cue", 1))
        self.hold_until(min(self.said(M.RANGE), self.cue_at(rng_cue) + 0.2))
        self.drop("path", "rotated", run_time=0.4)           # the strip takes its place
        # (round 37: squeezed over the two bars' labels) the strip has the stage to itself
        strip = self.copy_strip(c, rng, Line([-5.9, -2.3, 0], [-5.8, -2.3, 0]))
        self.put("range", rng, anim=appear(rng), run_time=0.6)
        self.shown["copy_strip"] = strip
        self.play(LaggedStart(*[GrowFromEdge(b, DOWN) for b in strip.bars], lag_ratio=0.08),
                  FadeIn(strip.axis), FadeIn(strip.axis_labels),
                  run_time=min(1.5, self.to_moment(M.X_GROWS, 1.2, 0.35)))
        self.play(Create(strip.lines), FadeIn(strip.ends), run_time=0.4)
        self.emphasize(rng[3], rng[5], *strip.ends, run_time=max(
            0.5, min(2.5, self.said(M.X_GROWS) - self.time - 0.6)))
        # "while X itself reaches 782.5 at X of 29": X's long bar; then its copy: the same bar
        # divided down to the sliver beneath it
        self.hold_until_moment(M.X_GROWS)
        # (round 29: six groups at once, labels on the frame's edges) the strip leaves; the
        # range line stays over the two bars, which move up under it
        self.play(FadeOutPlace(strip), run_time=0.4)
        self.shown.pop("copy_strip", None)
        VGroup(x_lab, c_lab, x_bar, c_bar).shift(UP * 1.75)
        self.put("x_lab", x_lab, run_time=0.4)
        self.shown["x_bar"] = x_bar
        after_x = int(((self.beat.get("moments") or {}).get(M.X_GROWS) or {}).get("cue", 1)) + 1
        self.play(GrowFromEdge(x_bar, LEFT), run_time=self.to_cue(after_x, 1.2, 0.45))
        shrink = x_bar.copy()
        self.put("c_lab", c_lab, run_time=0.4)
        self.play(Transform(shrink, c_bar), run_time=self.to_cue(after_x, 1.2, 0.8))
        self.remove(shrink)
        self.shown["c_bar"] = c_bar
        self.add(c_bar)
        twice = self.cue_with("Scale X up")
        if twice is not None:
            # "Scale X up, and the copy stays the same: the factor cancels" (round 37: "only its
            # direction reaches them" was asserted): RMSNorm(2X) written out, the 2 cancelling
            self.twice_x(labs, top, twice)
        gain = self.cue_with("Without the gain")
        if gain is not None:
            self.gain_line(gain)
        point = self.cue_with("What changes") is not None
        self.hold_until_cue(self.n_cues() - 1)
        self.emphasize(c_bar, c_lab, buff=0.15, run_time=self.fill(self.cue_at(
            self.n_cues() - 1 if point else self.n_cues()), 1.2))
        if not point:
            if M.TURNS in (self.beat.get("moments") or {}) and self.data.get("direction"):
                self.direction_strip(strip)
            return
        # "... is the direction of X, and each layer's own weights": the chapter's point, under
        # the two bars (the length is the same short one every layer; these are what change)
        self.hold_until_cue(self.cue_with("What changes", 3))
        self.drop("twice", "gain", run_time=0.3)
        line = inline(txt("Q, K, V change per layer with", L_),
                      txt("X's direction", L_, T.X), txt("and that layer's weights", L_))
        line.next_to(labs, DOWN, buff=0.32).align_to(top, LEFT)
        self.keep_inside(line)
        self.put("point", line, anim=appear(line), run_time=0.8)
        turns = M.TURNS in (self.beat.get("moments") or {}) and bool(self.data.get("direction"))
        self.emphasize(VGroup(line[1], line[2]),      # one box: the two things that change
                       run_time=self.fill(self.said(M.TURNS) if turns
                                          else self.cue_at(self.n_cues()), 1.0))
        if turns:
            self.direction_strip(strip)

    def twice_x(self, labs, top, cue: int) -> None:
        """"Scale X up, and the copy stays the same": RMSNorm(2X) written out under the two
        bars, step by step, the 2 cancelling into "= RMSNorm(X)" (the formula of layer 0's
        attention beat, X / rms(X) · g)."""
        self.hold_until_cue(cue)
        a = math("\"RMSNorm\"(2X) = (2X) / (\"rms\"(2X)) dot g", ML, T.TEXT)
        b = math("= (2X) / (2 \"rms\"(X)) dot g", ML, T.TEXT)
        c = math("= \"RMSNorm\"(X)", ML, T.LN)
        line = VGroup(a, b, c).arrange(RIGHT, buff=0.2).scale(FORMULA_SCALE)
        line.next_to(labs, DOWN, buff=0.3).align_to(top, LEFT)
        self.keep_inside(line)
        end = self.cue_at(cue + 1)
        share = max(0.5, 0.25 * (end - self.time))
        self.put("twice", VGroup(a, b, c), anim=appear(a), run_time=share)
        self.remove(b, c)
        self.play(appear(b), run_time=share)
        self.play(appear(c), run_time=min(0.8, share))
        self.emphasize(c, run_time=max(0.5, end - self.time - 0.3))

    def gain_line(self, cue: int) -> None:
        """"Without the gain g, every copy would be 24.0 long; g, weighting X's direction,
        makes it 4.8 to 9.3": the copy before its gain, one length for every X, then g's range,
        under the formula."""
        self.hold_until_cue(cue)
        cp = self.v.copies
        a = inline(txt("without g:", L_), math("|X \\/ \"rms\"(X)| =", ML, T.TEXT),
                   self.n(cp.unit, T.TEXT, L_), txt("for every X", L_))
        b = inline(txt("g, weighting X's direction:", L_, T.LN), self.n(cp.min, T.LN, L_),
                   txt("to", L_, T.LN), self.n(cp.max, T.LN, L_))
        g = VGroup(a, b).arrange(DOWN, buff=0.2, aligned_edge=LEFT).scale(1.1)
        above = self.shown.get("twice", self.shown["c_lab"])
        g.next_to(above, DOWN, buff=0.25).align_to(above, LEFT)
        self.keep_inside(g)
        dur = float(self.beat["cues"][cue]["duration"])
        self.put("gain", g, anim=appear(a), run_time=0.6)
        self.remove(b)
        self.hold_until(self.cue_at(cue) + 0.45 * dur)
        self.play(appear(b), run_time=0.6)
        self.emphasize(b[1], b[3], run_time=max(0.6, self.cue_at(cue + 1) - self.time - 0.3))

    def beat_direction(self, beat) -> None:
        """"And X's direction does change": a beat of its own (round 23: one 57 s beat carried
        the copy's length and the direction), the copy's stage cleared as it starts."""
        self.ensure_tokens()
        self.clear_all()
        if self.data.get("direction"):
            self.direction_strip(None)

    def demo_angle(self, def_cue: int, zero_cue: int | None) -> None:
        """"the cosine of the angle between X before and after a layer: 1 means the same
        direction; 0, a right angle": drawn, then layer 0's own turn; the demo leaves before
        the per-layer bars grow where it stood."""
        from manim import Arc, Arrow, PI, UpdateFromAlphaFunc, smooth
        dv = self.v.direction
        L_ = T.TYPE.label
        o = np.array([-2.6, -1.45, 0.0])
        r = 2.2
        theta = [0.0]

        def vec(a):
            return o + r * np.array([np.cos(a), np.sin(a), 0.0])
        # (round 31: X^(l+1) was white, X is blue everywhere else) both X's blue, the one
        # before the layer ghosted
        a_arr = Arrow(o, vec(0.0), buff=0, color=T.X, stroke_width=5).set_opacity(0.45)
        b_arr = Arrow(o, vec(0.0), buff=0, color=T.X, stroke_width=5)
        a_lab = math(X_l("l"), ML, T.X).set_opacity(0.6).next_to(vec(0.0), DOWN, buff=0.15)
        b_lab = math(X_l("l+1"), ML, T.X)
        arc = Arc(radius=0.6, start_angle=0, angle=0.001, arc_center=o, color=T.TEXT)

        def turn(m, a):
            t = theta[0] + smooth(a) * (turn.to - theta[0])
            b_arr.put_start_and_end_on(o, vec(t))
            arc.become(Arc(radius=0.6, start_angle=0, angle=max(t, 0.001), arc_center=o,
                           color=T.TEXT))
            # above its tip, never right of it (round 31: it ran into "cos = 0: a right angle")
            b_lab.next_to(vec(t), UP, buff=0.12)
        turn.to = 0.0
        b_lab.next_to(vec(0.0), UP, buff=0.12)
        # (two lines at the aside size: one ran off the frame)
        tag = VGroup(txt("an illustration:", ASIDE, T.TEXT),
                     txt("the lengths drawn equal", ASIDE, T.TEXT)
                     ).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        tag.move_to([1.6, 1.15, 0]).align_to([0.7, 0, 0], LEFT)
        self.keep_inside(tag)
        read = VGroup(txt("cos = 1: the same direction", L_, T.TEXT),
                      txt("cos = 0: a right angle", L_, T.TEXT)
                      ).arrange(DOWN, buff=0.3, aligned_edge=LEFT)
        read.move_to([1.6, -0.4, 0]).align_to(tag, LEFT)
        demo = VGroup(a_arr, b_arr, arc, a_lab, b_lab, tag)
        # "And X's direction does change": the two directions drawn as it is said (the stage
        # was blank until the definition before)
        self.put("cos_demo", demo, anim=appear(demo), run_time=0.6)
        self.hold_until_cue(def_cue)
        self.put("cos_read1", read[0], anim=appear(read[0]), run_time=0.4)
        said0 = self.cue_at(def_cue + 1) if def_cue + 1 < self.n_cues() else self.time + 4
        self.emphasize(read[0], run_time=max(0.6, 0.3 * (said0 - self.time)))
        turn.to = PI / 2
        nxt = self.cue_at(zero_cue if zero_cue is not None else min(def_cue + 1, self.n_cues()))
        self.play(UpdateFromAlphaFunc(b_arr, turn), FadeIn(read[1]),
                  run_time=max(1.0, 0.6 * (nxt - self.time)))
        self.shown["cos_read2"] = read[1]
        theta[0] = PI / 2
        if zero_cue is None:          # a draft that does not name layer 0: the demo leaves
            self.hold_until(nxt - 0.4)
            self.drop("cos_demo", "cos_read1", "cos_read2", run_time=0.4)
            return
        self.hold_until_cue(zero_cue)
        # "Layer 0 turns X almost a right angle": the second arrow to layer 0's own angle
        zero = inline(txt("layer", L_, T.POINTER),
                      Num(self.v.layers[0].layer, decimals=0, size=L_, color=T.POINTER,
                          suffix=":"),
                      txt("cos =", L_, T.POINTER), self.n(dv.first, T.POINTER, L_))
        zero.next_to(read, DOWN, buff=0.3).align_to(read, LEFT)
        turn.to = float(np.arccos(np.clip(self.data["direction"]["first"]["value"], -1, 1)))
        self.play(UpdateFromAlphaFunc(b_arr, turn), appear(zero), run_time=1.0)
        self.shown["cos_read3"] = zero
        self.emphasize(zero, arc, run_time=0.8)
        self.drop("cos_demo", "cos_read1", "cos_read2", "cos_read3", run_time=0.4)

    def direction_strip(self, strip) -> None:
        """"And X's direction does change": a stage of its own (the copy's stage leaves): each
        layer's cos(X^(l), X^(l+1)) as a bar on a layer axis with a 0-1 cosine axis (1: the
        same direction, 0: a right angle), layer 0's grey bar named, then "they add up":
        cos(X^(1), X^(L)), written under them."""
        d, v = self.data, self.v
        dr = d["direction"]
        self.hold_until_moment(M.TURNS)
        self.drop("x_lab", "x_bar", "c_lab", "c_bar", "point", "twice", "gain", "formula", "range",
                  "copy_strip",
                  run_time=0.5)
        n = len(dr["cos_next"])
        x0, x1, y0, h = -4.9, 5.7, -1.55, 2.3
        bw = (x1 - x0) / n
        bars = VGroup(*[Rectangle(width=bw * 0.7, height=max(0.01, h * max(c["value"], 0.0)),
                                  stroke_width=0, fill_opacity=1,
                                  fill_color=COS_BAR if l >= dr["from_layer"] else T.FAINT)
                        .move_to([x0 + bw * (l + 0.5), y0, 0], aligned_edge=DOWN)
                        for l, c in enumerate(dr["cos_next"])])
        axis = Line([x0, y0, 0], [x1, y0, 0], stroke_width=2, color=T.MUTED)
        y_axis = Line([x0, y0, 0], [x0, y0 + h, 0], stroke_width=2, color=T.MUTED)
        one = DashedLine([x0, y0 + h, 0], [x1, y0 + h, 0], stroke_width=2, color=T.TEXT,
                         dash_length=0.08)
        y_ticks = VGroup(*[txt(t, L_, T.TEXT).scale(AXIS_SCALE * 0.8)
                           .next_to([x0, y0 + h * f, 0], LEFT, buff=0.12)
                           for t, f in (("0", 0.0), ("1", 1.0))])
        y_name = txt("cos", L_, T.TEXT).scale(AXIS_SCALE * 0.8).next_to(
            [x0, y0 + h * 0.5, 0], LEFT, buff=0.12)
        # the layer axis: every tenth layer and the last, under its bar
        shown_l = sorted({*range(0, n, 10), n - 1})
        x_ticks = VGroup(*[Num(v.layers[l].layer, decimals=0, size=L_, color=T.TEXT)
                           .scale(AXIS_SCALE * 0.8).move_to([bars[l].get_x(), y0 - 0.25, 0])
                           for l in shown_l])
        x_name = txt("layer", L_, T.TEXT).scale(AXIS_SCALE * 0.8).next_to(
            [x0, y0 - 0.25, 0], LEFT, buff=0.12)
        one_lab = txt("1: same direction", L_, T.TEXT).next_to(one, UP, buff=0.06).align_to(
            one, RIGHT)
        dv = v.direction
        # layer 0's bar, a sliver: named above the chart, left, clear of the "1" tick, with a
        # thin pointer down the gap between the y axis and layer 1's bar
        zero_lab = inline(txt("layer", ASIDE, T.TEXT), Num(v.layers[0].layer, decimals=0,
                                                           size=ASIDE, color=T.TEXT, suffix=":"),
                          self.n(dv.first, T.TEXT, ASIDE))
        zero_lab[-1].shift(RIGHT * 0.1)          # "layer 0: 0.03", a space after the colon
        zero_lab.move_to([0, y0 + h + 0.5, 0]).align_to([x0 + 0.05, 0, 0], LEFT)
        gap_x = bars[0].get_x()
        zero_ptr = Line([gap_x, zero_lab.get_bottom()[1] - 0.06, 0],
                        [gap_x, bars[0].get_top()[1] + 0.08, 0], stroke_width=2,
                        color=T.MUTED)
        head = inline(math(f"cos({X_l('l')}, {X_l('l+1')})", ML, COS_BAR),
                      txt("from layer", L_), Num(dv.from_layer, decimals=0, size=L_),
                      txt("on:", L_), self.n(dv.min_later, COS_BAR, L_), txt("to", L_),
                      self.n(dv.max_later, COS_BAR, L_, suffix=","),
                      # (round 37: "a small turn" for up to 33 degrees) the turns in degrees
                      txt("turns of", L_), self.n(dv.deg_min_later, COS_BAR, L_, suffix="\u00b0"),
                      txt("to", L_), self.n(dv.deg_max_later, COS_BAR, L_, suffix="\u00b0"))
        head.move_to([0, y0 + h + 1.05, 0]).align_to([x0, 0, 0], LEFT)
        # how the turns add up: cos(X^(1), X^(l)) as a white line over the bars, from 1 at
        # X^(1) (the left edge of layer 1's slot) to cos_1_last at X^(L) (the right end)
        f0 = dr["from_layer"]
        # each point over its layer's bar: at layer l, cos(X^(1), X^(l+1)) (X^(l+1) is what
        # layer l writes, the bars' own convention), so legend, axis and points agree
        # (review 24 read points at the slots' edges as off by one)
        pts = [[x0 + bw * (f0 - 1 + k + 0.5), y0 + h * max(c["value"], 0.0), 0]
               for k, c in enumerate(dr["cos_from_first"])]
        acc = VMobject(stroke_color=T.TEXT, stroke_width=5)
        acc.set_points_as_corners(pts)
        # its end's value right of the chart, clear of the last bar (review 26: it overlapped)
        acc_end = self.n(dv.cos_from_first[-1], T.TEXT, L_).next_to([x1, pts[-1][1], 0], RIGHT,
                                                                     buff=0.12)
        # the line's point at the right edge of layer l's slot is X^(l+1), what layer l writes
        # (the bars' own convention, cos(X^(l), X^(l+1))): named so (review 23 read the old
        # cos(X^(1), X^(l)) on the layer-l axis as off by one)
        # in words (review 26: at 480p "cos(X^(1), X^(l+1))" read as the bars' own label)
        said = inline(txt("cosine with", L_, T.TEXT), math(X_l(f0), ML, T.TEXT),
                      txt("ends at", L_, T.TEXT), self.n(dv.cos_1_last, T.TEXT, L_),
                      txt("at", L_, T.TEXT), math(X_l(self.L), ML, T.TEXT),
                      txt(": almost a right angle", L_, T.TEXT))
        swatch = Line(ORIGIN, RIGHT * 0.55, stroke_width=5, color=T.TEXT)
        apart = VGroup(swatch, said).arrange(RIGHT, buff=0.2)
        apart.move_to([0, y0 - 0.75, 0]).align_to([x0, 0, 0], LEFT)
        self.keep_inside(apart)
        self.keep_inside(head)
        g = VGroup(axis, y_axis, one, one_lab, y_ticks, y_name, x_ticks, x_name)
        self.shown["cos_strip"] = VGroup(g, bars)
        zero_cue = self.cue_with("Layer 0")
        def_cue = self.cue_with("cosine of the angle")
        if def_cue is not None:
            # the cosine drawn before it is used (review 24: "cosine and angles only said"):
            # two arrows from one point, X before and after a layer, the second turning from
            # the first (cos 1) to a right angle (cos 0); at "Layer 0 ..." it turns to layer
            # 0's own angle (arccos of the plan's cosine); lengths drawn equal: an illustration
            self.demo_angle(def_cue, zero_cue)
        self.put("cos_head", head, anim=appear(head), run_time=0.6)
        # the bars grow as the voice goes from layer 0 to "from layer 1 on ..."
        nxt0 = self.said(M.MOST) if self.named(M.MOST) else self.said(M.APART)
        self.play(FadeIn(g), LaggedStart(*[GrowFromEdge(b, DOWN) for b in bars],
                                         lag_ratio=0.08),
                  run_time=self.fill(nxt0, 1.5, 0.35) if def_cue is not None
                  else self.fill(self.cue_at(zero_cue) if zero_cue is not None
                                 else self.said(M.APART), 1.5, 0.9))
        if zero_cue is not None:
            self.hold_until_cue(zero_cue)
        self.put("cos_zero", VGroup(zero_lab, zero_ptr), anim=appear(VGroup(zero_lab, zero_ptr)),
                 run_time=0.4)
        self.emphasize(bars[0], zero_lab, run_time=1.0)
        most = self.named(M.MOST) and dr.get("sharpest_mid_layer") is not None
        nxt = self.said(M.MOST) if most else self.said(M.APART)
        later = self.cue_with("From layer")
        if later is not None:                     # "From layer 1 on, each cosine is ..."
            self.hold_until_cue(later)
        self.emphasize(head[4], head[6], run_time=max(0.6, min(1.5, 0.4 * (nxt - self.time))))
        # "... a turn of 10 to 32 degrees"
        self.emphasize(head[8], head[10], run_time=max(0.6, min(1.5, 0.8 * (nxt - self.time))))
        if most:
            # "the layers that turn it most are layer 24 and the last layer, 29": their two
            # bars (the shortest after layer 0) boxed, each named under the axis
            self.hold_until_moment(M.MOST)
            picks = [dr["sharpest_mid_layer"], dr["min_later_layer"]]
            self.drop("cos_zero", run_time=0.3)
            names = VGroup(*[Num(v.layers[l].layer, decimals=0, size=L_, color=T.POINTER)
                             .move_to([bars[l].get_x(), y0 - 0.3, 0]) for l in picks])
            hide = [t for l_, t in zip(shown_l, x_ticks) if l_ in picks]
            for t in hide:
                t.set_opacity(0)
            self.put("cos_most", names, anim=appear(names), run_time=0.4)
            self.emphasize(*[VGroup(bars[l], names[k]) for k, l in enumerate(picks)],
                           run_time=max(0.8, 0.85 * (self.said(M.APART) - self.time)), buff=0.06)
            self.drop("cos_most", run_time=0.3)
            for t in hide:
                t.set_opacity(1)
        # "... and the turns add up": the line drawn from X^(1) to X^(L) while it is said,
        # falling from 1 to 0.10 (X^(L) almost at right angles to X^(1)), its end's value last
        self.hold_until_moment(M.APART)
        self.drop("cos_zero", run_time=0.3)
        self.put("cos_apart", apart, anim=appear(apart), run_time=0.5)
        self.shown["cos_line"] = acc
        self.play(Create(acc, rate_func=linear),
                  run_time=self.fill(self.cue_at(self.n_cues()), 2.0, 0.55))
        self.put("cos_end", acc_end, anim=appear(acc_end), run_time=0.4)
        self.emphasize(acc_end, said[3], run_time=self.fill(self.cue_at(self.n_cues()), 1.0))

