"""The chapter's toy loop, faithfully: the code with a cursor, and on a plane the 2-d X carried
through each pass's three random W's.

Beats (each optional, in storyboard order): `code` (the loop on screen; "# layer 0" beside its
`for` line when "counted from zero" is said), `x` (the current X as numbers and as an arrow;
when a new layer begins the last pass's rows leave first, then the X it wrote moves up into
the X row, round whatever is still on screen; after layer 0 the loop's lines move down into
the panel's lower left and stay there for every layer, the current line lit and "# layer l"
beside `for`; the rule "layer l reads X^(l) → writes X^(l+1)" comes large, in the band
between the rows and the code, for its sentence only (no header goes stale); the last pass's V arrow stays as a faint ghost, its own
name dimmed with it when it is long enough to see: no legend; the code and the plane are
there from the first frame), `q`/`k`/`v` (each W comes on its name, with the code's box: the
W before it slides away as the sentence before it ends; X's numbers and W's rows are boxed
in turn, and the rows' sum, written under W, rises into the product's row;
after layer 0 V's arrow grows on the plane (V^(0), drawn to fit V^(1), was a few pixels: it
stays a row; Q and K stay numbers: they are never added to X); at layer 0,
X = [1, 0] times W_Q is acted as said: X's 1 and the top row boxed, X's 0 and the bottom
row, which fades, then the top row slides into Q; layer 1's X^(1) · W_Q^(1) is read the same
way (one view of the product all video): X's first number and W's top row, then its second
and the bottom row, boxed and flown into a written sum `x0 × [row] + x1 × [row]`, whose
value rises into Q's row; layer 1's three new W's, shown side by side, each move into the
product's place in turn; layer 2 runs the recipe straight through), `update` (V slides along its row
and its numbers arc over it into Δ = 0.1 V, in Δ's own pale shade; on the plane a lens
(as tall as the plane, wider, reaching left of it up to the rows) grows out of a rectangle
round the step, with a round scale bar (layers after 0 share one
magnification, the bar labelled with what it means), and draws Δ tip to tail from X, X's arrow sliding along it from X^(l)'s tip to
X^(l+1)'s (the plane's view is the plan's: not centred on the origin, every X and V with
room for their names); then, at "Added tip to tail", the new X's row
is written between X's and Δ's (Δ's line is V's own row, V sliding along it): X's numbers
come over and down into its upper lane, Δ's up into its lower lane, stacked in each slot
like a written column sum, and fade before the sum
appears ("≈" where the sum as written does not add up: `layers[l].sum_gap`); the X it
leaves stays, faint: a trail X^(0) → X^(1) → ... ("faint" means "from an
earlier layer" everywhere); as the lens shuts its X^(l+1) name moves to the plane's, and
the step's length, its number flown out of the lens's readout, joins a table of bars on one
scale (bars on a faint track from a zero tick) under the plane, after the lens has shut;
layer 0's close-up shows V^(0) faint beyond Δ (its first tenth); layer 0's bar is outlined as
it lands, while "its length starts a row of bars" is said), at layer 2 the split of V's
change (`split_v`): Q's and K's rows and the code leave first; at "enlarged" the plane and
all on it grow (one zoom about its top right corner, the lengths under it stepping out: the
plane's own scale, one scale for the whole split) while V's row moves under W; "had X stayed"
writes X^(1) x W_V^(2) under it in grey, and "the grey V" draws that V on the plane dashed (the
video's one style for "would be"; faint solid is "an earlier layer"); "the matrix swap moves V
3.0" draws a solid white line from V^(1)'s tip to the grey tip, "X's move shifts V 0.54" one
from the grey tip to V^(2)'s, each whole, named "matrix swap / length 3.0", "X's move /
length 0.54" where the plane is free (off it, on the left, with a leader, when it is not);
"Both changed V" outlines the two names; the split leaves and the plane shrinks back as that
sentence ends); after layer 0 the code panel is cut to the active line (the `for` line stays, dim,
with "# layer l"); layer 1's "new matrices" shows the three W^(1) side by side; the lens's X
arrows are the true arrows clipped at its edge (the same picture through a zoom about the
tip), `table` (on a cleared stage: X^(l), Q, K, V, X^(l+1) of every layer
side by side, the last layer's numbers moving into its column, the "computed once and
reused" case: at "every column differs" each column's Q, K, V are outlined, a box a
column; the real values stay; under the X^(l+1) row a grey sub-row, dimmer, tagged "if reused",
the X^(l+1)'s reuse would give ("same" in layer 0's); then it leaves, the rows close
up, and each column's X^(l) is outlined with the Q, K, V made from it; arrows carry each
column's X^(l+1) into the next column's X^(l)), `note` (voiced: the table leaves; a sketch of
a real layer (most models): X^(l) → two "+" on a stream → X^(l+1); at each sublayer a copy of X
branches up through a norm into attention, then the feed-forward, and its output comes down
into the "+" where X, carried along the stream, meets it, as said; under
it "The chapter's point (not measured in this toy)": a later X holds more context, so what
the token asks for (Q), advertises (K) and offers (V) changes). Layer 1's close-up opens at layer 0's magnification and
zooms out as "zoomed out" is said (layer 0's bar shrinking, then growing back, relabelled
as "now means" is said); only then is Δ^(1) drawn, whole in the lens. The table has a lane under each X row for the would-be X's
(grey); the note beat keeps it full size, the notes under it.
Every number is a `Num` bound to its plan path (`self.num`, `WeightBlock`, `row_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from manim import config, interpolate_color, there_and_back
from manim import (DOWN, LEFT, ORIGIN, RIGHT, UP, Arrow, Create, DashedLine, FadeIn, GrowArrow, Line, ManimColor,
                   Rectangle, Square, Succession, Circle, Dot, ReplacementTransform, UpdateFromAlphaFunc, linear, smooth, SurroundingRectangle, Transform, TransformFromCopy, VGroup)


from scenes import theme as T
from scenes.animations import DimPlace, FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene, overlaps
from scenes.mobjects import Num, NumberGrid, code_block, math, txt, wrapped
from scenes.motion import VectorPlane, WeightBlock
from scenes.motion.matvec import row_of

from .view import Data, Layer

PLANE_SIZE = 4.8        # (just under the title, as wide as the rows on its left allow; the
                        # lengths under it clear of the caption)
LENS_W = 5.9            # the close-ups: as tall as the plane and wider, over the plane and
                        # left of it, up to the rows (reviews 35: the plane was 260 px)
BIG = 5.9               # the plane, grown while the voice talks about it (layer 2's split):
                        # down over the lengths under it, as far left as the close-ups
CODE_SIZE = 21          # the code panel, 'Hg' at least 14 px at 480p
PLANE_LABEL = 40        # labels on the plane, so their layer superscripts stay readable
MATH_LABEL = 34         # row names like X^(0) =: their superscripts well above the 8 px floor
HEADER = 38             # the layer tag over the plane and the lens's labels (serif superscripts)
RULE_SIZE = 44          # the layer convention, when it is spoken
CURSOR = T.MUTED        # the code cursor and the layer tag: neutral (gold is Q)
NAMES = {"q": "Q", "k": "K", "v": "V"}
W_TOP = 1.12            # the × W block's top under the panel's top: clear of the caption
CODE_DIM = 0.5         # code lines not boxed, once the code has been read
HYPO = ManimColor("#B9BEC7")   # the table's hypothetical: grey, at HYPO_OPACITY (dimmer than
HYPO_OPACITY = 0.6              # the real values it sits under, still readable), HYPO_SIZE of
HYPO_SIZE = 0.9                 # their size
GHOST = 0.3             # last layer's Q, K, V: faint, yet V^(0) stays seen beside V^(1)
GHOST_LABEL = 0.6       # a faint arrow's own name, dimmed with it (still readable)
NOTES_W = 3.3           # the table's column of notes (legend, "unused"), scene units
DELTA = ManimColor("#FFBABA")   # the update Δ = 0.1 V: a pale shade of V's red, its own colour


def _box_gap(c, half, pts) -> float:
    """The smallest distance from the box (centre `c`, half sizes `half`) to points `pts`."""
    d = np.maximum(np.abs(pts[:, :2] - c[:2]) - half, 0.0)
    return float(np.sqrt((d ** 2).sum(axis=1)).min()) if len(pts) else 9.0


def reach_of(m, d) -> float:
    """How far the box of `m` reaches from its centre along the unit direction `d` (so a
    label put that far plus a gap from a point, along d, stands clear of it)."""
    return 0.5 * (abs(float(d[0])) * m.width + abs(float(d[1])) * m.height)


CLEAR = 0.1     # a label this far (scene units) from every shaft and label is clear of them


def label_gap(m, arrows, labels) -> float:
    """How far label `m` is from every arrow shaft and every other label."""
    half = np.array([m.width / 2, m.height / 2])
    shafts = [np.linspace(a.get_start(), a.get_end(),
                          max(24, int(np.linalg.norm(a.get_end() - a.get_start()) / 0.04)))
              for a in arrows]
    gap = _box_gap(m.get_center(), half, np.concatenate(shafts)) if shafts else 9.0
    for l in labels:
        d = np.maximum(np.abs(m.get_center()[:2] - l.get_center()[:2]) - half
                       - np.array([l.width / 2, l.height / 2]), 0.0)
        gap = min(gap, float(np.hypot(*d)))
    return gap


def place_label(m, tip, plane, arrows, labels, reach: float = 0.12,
                rings=(0.4, 0.75)) -> None:
    """Move label `m` to the free spot around `tip`: of twelve places round it, the one whose
    box is farthest from every arrow (sampled along its shaft) and every label, inside
    `plane`; ties go to the place pointing away from the origin. When none of them is
    `CLEAR`, a ring of twelve a little farther out competes too (a crowded tip), and so on
    out through `rings`."""
    half = np.array([m.width / 2, m.height / 2])
    shafts = [np.linspace(a.get_start(), a.get_end(),
                          max(24, int(np.linalg.norm(a.get_end() - a.get_start()) / 0.04)))
              for a in arrows]
    pts = np.concatenate(shafts) if shafts else np.zeros((0, 3))
    boxes = [(l.get_center(), np.array([l.width / 2, l.height / 2])) for l in labels]
    origin = plane.p((0, 0))
    out = tip - origin
    out = out / (np.linalg.norm(out) or 1.0)
    lo, hi = plane.get_corner(DOWN + LEFT), plane.get_corner(UP + RIGHT)

    def ring(r):
        """(score, gap, centre) of the twelve places at distance `r` round the tip."""
        for i in range(12):
            u = np.array([np.cos(i * np.pi / 6), np.sin(i * np.pi / 6), 0.0])
            c = tip + u * (r + abs(u[0]) * half[0] + abs(u[1]) * half[1])
            gap = _box_gap(c, half, pts)
            for bc, bh in boxes:
                d = np.maximum(np.abs(c[:2] - bc[:2]) - half - bh, 0.0)
                gap = min(gap, float(np.hypot(*d)))
            inside = (lo[0] <= c[0] - half[0] and c[0] + half[0] <= hi[0]
                      and lo[1] <= c[1] - half[1] and c[1] + half[1] <= hi[1])
            yield min(gap, 0.5) + 0.05 * float(u @ out) - (0 if inside else 5), gap, c

    near = max(ring(reach), key=lambda t: t[0])
    for r in rings:
        if near[1] >= CLEAR:
            break
        near = max([near, *ring(r)], key=lambda t: t[0])
    m.move_to(near[2])


@dataclass
class Stage:
    """What the beats leave on the plane for later beats: handlers read and fill this, not
    ad-hoc attributes (the `x` show builds `x_arrow`; `update` needs it, spec.py says so)."""
    x_arrow: VGroup | None = None          # X's arrow and label, moved by each update
    ghosts: list = field(default_factory=list)        # last layer's V, dimmed
    trail: list = field(default_factory=list)         # earlier layers' X arrows, dimmed
    ghost_v: VGroup | None = None          # last layer's V among them (compared with V)
    legend: VGroup | None = None           # "faint: the layer before's Q, K, V", from the
                                           # first ghosts on (top of the plane)
    lengths: VGroup = field(default_factory=VGroup)   # |Δ^(l)| of each layer so far
    tag_layer: int | None = None           # the layer the "layer l reads X^(l)" tag names
    tag_said: bool = False                 # layer 0's tag waits until the voice says it
    away: list = field(default_factory=list)          # the plane and all on it, while the
    away_qkv: dict = field(default_factory=dict)      # table has the stage (its Q, K, V arrows)
    table_all: VGroup | None = None        # the table on screen (heads, rows, carry arrows)


class _Follow:
    """Mixin for FadeInPlace/FadeOutPlace: while it fades, the mobject keeps its place relative
    to a point of `arrow` (its tip; `at` = 0.5: its middle), so a label stays on its arrow's
    tip while the arrow grows or moves. `ref`: where that point is when the mobject is where it
    sits now (default: the arrow as it is now; pass the arrow's final tip for a label placed for
    where the arrow is going). Play it after the arrow's own animation, in the same play."""

    def __init__(self, mobject, arrow, at: float = 1.0, ref=None, **kwargs):
        self.arrow, self.at = arrow, at
        self.home = mobject.get_center().copy()
        self.ref = np.array(ref, dtype=float) if ref is not None else self._anchor()
        super().__init__(mobject, **kwargs)

    def _anchor(self):
        s, e = self.arrow.get_start(), self.arrow.get_end()
        return s + (e - s) * self.at

    def interpolate_mobject(self, alpha: float) -> None:
        super().interpolate_mobject(alpha)
        self.mobject.move_to(self.home + self._anchor() - self.ref)


def converge(m, points, size: float = 1.0) -> UpdateFromAlphaFunc:
    """`m` goes along `points` (start, corner, end: the first leg in the first 40 % of the
    time, the second by 75 %), then shrinks to a point and fades out where it ended: two
    numbers meeting in a sum's place vanish there before the sum appears (a linear play).
    `size` < 1: it shrinks to that size on the way and arrives faint (a tenth of V going to
    Δ's slot: V's digits never sit readable in Δ's place, "Δ = 0.1 × V = V")."""
    start = m.copy()
    p0, p1, p2 = (np.asarray(p, dtype=float) for p in points)

    def update(mob, alpha):
        mob.become(start)
        way = smooth(min(alpha / 0.75, 1.0))
        if size != 1.0:
            mob.scale(1 + (size - 1) * way).set_opacity(1 - 0.6 * way)
        if alpha < 0.4:
            mob.move_to(p0 + (p1 - p0) * smooth(alpha / 0.4))
        elif alpha < 0.75:
            mob.move_to(p1 + (p2 - p1) * smooth((alpha - 0.4) / 0.35))
        else:
            k = smooth((alpha - 0.75) / 0.25)
            mob.move_to(p2).scale(1 - 0.7 * k).set_opacity((1 - 0.6 * way) * (1 - k)
                                                           if size != 1.0 else 1 - k)
    return UpdateFromAlphaFunc(m, update, rate_func=linear)


def glide(m, points, t0: float = 0.0, t1: float = 1.0, scale: float = 1.0,
          vanish: float | None = None, rate=smooth, dip: float | None = None,
          tint=None) -> UpdateFromAlphaFunc:
    """`m` moves along the polyline `points` (each leg its share of the way by length) between
    shares `t0` and `t1` of the play, `rate` over the whole way, scaling to `scale` as it goes;
    with `vanish`, from that share on it shrinks to a point and fades out where it ended (two
    numbers meeting in a sum's place); with `dip`, it shrinks to that size while it travels
    and is its own size again where it lands (a number moving into a written sum). Paths go
    round the rows on the way: lanes of empty space, so no digit passes over another (a
    linear play). `tint`: (colour, opacity) it turns to on the way (a value becoming a
    hypothetical copy: grey and dimmer than the real ones)."""
    start = m.copy()
    pts = [np.asarray(p, dtype=float) for p in points]
    legs = [float(np.linalg.norm(b - a)) for a, b in zip(pts, pts[1:])]
    total = sum(legs) or 1.0

    def where(u):
        d = u * total
        for i, (a, b, n) in enumerate(zip(pts, pts[1:], legs)):
            if d <= n or i == len(legs) - 1:
                return a + (b - a) * (min(d, n) / (n or 1.0))
            d -= n
        return pts[-1]

    def update(mob, alpha):
        mob.become(start)
        u = rate(min(1.0, max(0.0, (alpha - t0) / max(1e-6, t1 - t0))))
        mob.scale(1 + (scale - 1) * u)
        if dip is not None:
            mob.scale(1 - (1 - dip) * min(1.0, u / 0.12, (1 - u) / 0.12))
        mob.move_to(where(u))
        if tint is not None:
            # (fade, not set_opacity: a bracket drawn as a stroke is not filled in)
            mob.set_color(interpolate_color(start.get_color(), tint[0], u))
            mob.fade((1 - tint[1]) * u)
        if vanish is not None and alpha > vanish:
            k = smooth((alpha - vanish) / max(1e-6, 1 - vanish))
            mob.set_opacity(1 - k)      # (fades where it lands: never shrinks to a speck)
    return UpdateFromAlphaFunc(m, update, rate_func=linear)


class FollowIn(_Follow, FadeInPlace):
    """A label fades in riding on its arrow's tip (see _Follow)."""


class FollowOut(_Follow, FadeOutPlace):
    """A label fades out riding on its arrow's tip (see _Follow)."""

    def finish(self) -> None:
        super().finish()
        self.mobject.move_to(self.home)


def grid_of(vec, color) -> NumberGrid:
    """A plan vector (a view: its numbers carry their paths) as a row of numbers."""
    return NumberGrid([vec.values], vec.path, color, T.TYPE.label)


class ToyLoopScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.v = Data.at(self.plan)
        # (the view the plan chose: every X and V with room for their names, not centred on
        # the origin, so a unit is drawn as large as the panel allows)
        self.plane = VectorPlane(d["extent"], 0.5, PLANE_SIZE, center=tuple(d["center"]))
        self.plane.next_to(self.title, DOWN, buff=0.3).to_edge(RIGHT, buff=T.EDGE)
        self.add(self.plane)
        # the code is placed once, in the panel's lower left, blank lines closed up (its lines
        # before the loop leave after layer 0; the loop stays where it is): the rows of
        # numbers take the panel's top from the start
        self.code_lines = code_block(d["code"], size=CODE_SIZE, line_height=0.335)
        h = 0.335
        real = [line for line, src in zip(self.code_lines, d["code"].split("\n")) if src.strip()]
        # (where it has stood since the plane was 4.4 wide: clear of the caption)
        low = self.plane.get_bottom()[1] - 0.39
        for i, line in enumerate(real):
            line.set_y(low + (len(real) - 1 - i) * h)
        self.code_lines.to_edge(LEFT, buff=T.EDGE + 0.2)
        self.code = VGroup(*real)
        self.panel_top = np.array([self.code.get_left()[0], self.plane.get_top()[1] - 0.15, 0.0])
        self.results_x = self.code.get_left()[0] + 4.6     # the column of Q, K, V rows
        self.stage = Stage()
        self.loop_only = False      # the lines before the loop have left (layers after 0)
        self.code_low = True
        self.code_top = None

    # --- helpers ------------------------------------------------------------------------
    def lay(self, l: int | None = None) -> tuple[dict, Layer]:
        """Layer l's plan numbers, plain (for geometry) and as a view (numbers with paths)."""
        l = self.layer if l is None else l
        return self.data["layers"][l], self.v.layers[l]

    def code_part(self, n: int, text: str) -> VGroup:
        """The glyphs of `text` in code line `n` (a Text's glyphs skip its spaces)."""
        src = self.data["code"].split("\n")[n - 1].strip().replace(" ", "")
        sub = text.replace(" ", "")
        i = src.index(sub)
        return VGroup(*self.code_lines[n - 1][i:i + len(sub)])

    def cursor(self, numbers: list[int], *parts, play: bool = True) -> list:
        """Box code lines `numbers` (one box), and each of `parts` (a box each); nothing once
        the code has left (after layer 0). `play=False`: the animations that do it, in one
        play (the old box out as the new one comes), returned for the caller to play with
        its own."""
        if self.code not in self.mobjects:
            return []
        groups = ([VGroup(*[self.code_lines[n - 1] for n in numbers])] if numbers else []) \
            + list(parts)
        box = VGroup(*[self.code_box(g) for g in groups])
        focus = self.code_focus(set(numbers) | {i + 1 for i, line in enumerate(self.code_lines)
                                                for p in parts if p[0] in line})
        old = self.shown.get("cursor")
        if not play:
            same = old is not None and old in self.mobjects and \
                np.allclose(old.get_center(), box.get_center()) and \
                abs(old.height - box.height) <= 1e-3
            if same:
                return focus
            self.shown["cursor"] = box
            return [*([FadeOutPlace(old)] if old is not None and old in self.mobjects else []),
                    FadeInPlace(box), *focus]
        if old is None or old not in self.mobjects:
            # (the box and the lines it boxes lit together: a box round dark lines read as
            # an empty frame for a moment)
            self.shown["cursor"] = box
            self.play(FadeInPlace(box), *focus, run_time=self.quick(0.1, 0.4))
        elif np.allclose(old.get_center(), box.get_center()) and \
                abs(old.height - box.height) <= 1e-3:
            if focus:                   # the same box: only the code's brightness changes
                self.play(*focus, run_time=self.quick(0.1, 0.4))
        else:
            # the old box goes, then the new one comes where the voice now is (a box sliding
            # between lines cut through the code as it moved)
            self.play(FadeOutPlace(old), *focus, run_time=self.quick(0.05, 0.25))
            self.shown["cursor"] = box
            self.play(FadeInPlace(box), run_time=self.quick(0.05, 0.25))
        return []

    def code_box(self, g) -> Rectangle:
        """A box round code glyphs `g` whose top and bottom lie halfway to the code lines above
        and below (a SurroundingRectangle's edge ran along the neighbouring lines)."""
        top, bottom = g.get_top()[1], g.get_bottom()[1]
        here = [l for l in self.code.submobjects if len(l)]     # (lines still on screen)
        above = [l.get_bottom()[1] for l in here if l.get_center()[1] > top]
        below = [l.get_top()[1] for l in here if l.get_center()[1] < bottom]
        hi = (top + min(above)) / 2 if above else top + 0.05
        lo = (bottom + max(below)) / 2 if below else bottom - 0.05
        hi, lo = max(hi, top + 0.005), min(lo, bottom - 0.005)
        box = Rectangle(width=g.width + 0.14, height=hi - lo, color=CURSOR, stroke_width=2)
        return box.move_to([g.get_center()[0], (hi + lo) / 2, 0.0])

    def code_focus(self, bright: set) -> list:
        """Once the code has been read (every beat after `code`), only the lines the cursor
        boxes stay bright; the rest dim, so the panel does not compete with the numbers and the
        plane (the animations that do it; none when nothing changes)."""
        if self.beat.get("id") == "code" or self.code not in self.mobjects:
            return []
        anims = []
        source = self.data["code"].split("\n")
        shown = set(map(id, self.code.submobjects))
        loop = self.data["lines"]["loop"]
        for i, line in enumerate(self.code_lines, start=1):
            # (after layer 0 the panel is cut to the active line: the rest of the loop, read
            # once, goes; only its `for` line stays, dim, with "# layer l" beside it)
            rest = CODE_DIM if not self.loop_only or i == loop else 0.0
            want = 1.0 if i in bright else rest
            if id(line) not in shown:       # (a line that has left)
                continue
            if source[i - 1].strip() and abs(line[0].get_fill_opacity() - want) > 1e-3:
                anims.append(line.animate.set_opacity(want))
        return anims

    def row(self, label: str, vec, color, y: int) -> VGroup:
        grid = grid_of(vec, color)
        r = VGroup(math(label, MATH_LABEL, color), grid).arrange(RIGHT, buff=T.BUFF)
        return r.move_to(self.panel_top + DOWN * 0.6 * y, aligned_edge=UP + LEFT) \
            .align_to(self.code, LEFT)

    def tag(self, key: str, color, xy, own=None, index=None) -> VGroup:
        """A label next to an arrow's tip, in the free spot around it: of twelve places round
        the tip, the one farthest from every arrow shaft (its own too) and every label on the
        plane, inside the plane (so labels never sit on a shaft, a head or another label)."""
        m = math(T.X_l(self.layer if index is None else index, NAMES.get(key, "X")),
                 PLANE_LABEL, color)
        # (by its tip, clear of every arrow, label and the axes: X along the x-axis has its
        # name above or below the axis, not on it; a stub of an arrow its name at its tip,
        # no leader line that reads as a second arrow)
        place_label(m, self.plane.p(xy), self.plane, self.plane_arrows() + self.axes(),
                    self.plane_labels(own), reach=0.12)
        return m

    def axes(self) -> list:
        """The plane's two axes, as lines (obstacles for labels)."""
        o, lo, hi = self.plane.p((0, 0)), self.plane.get_corner(DOWN + LEFT), \
            self.plane.get_corner(UP + RIGHT)
        return [Line([lo[0], o[1], 0], [hi[0], o[1], 0]), Line([o[0], lo[1], 0], [o[0], hi[1], 0])]

    def plane_arrows(self) -> list:
        """Every arrow on the plane (X, this layer's Q, K, V, last layer's ghosts)."""
        groups = [self.stage.x_arrow] + [self.shown.get(f"p{c}") for c in "qkv"] \
            + self.stage.ghosts + self.stage.trail
        return [g[0] for g in groups if g is not None]

    def plane_labels(self, own=None) -> list:
        groups = [self.stage.x_arrow] + [self.shown.get(f"p{c}") for c in "qkv"] \
            + [g for g in self.stage.ghosts if len(g) > 1]
        return [g[1] for g in groups if g is not None and g[1] is not own]

    def layer_tag(self) -> None:
        anims = self.tag_anims()
        if anims:
            self.play(*anims, run_time=self.quick())

    def tag_anims(self) -> list:
        """"layer l reads X^(l) → writes X^(l+1)" over the plane, for this layer: the
        animations that put it there (none when it already names this layer)."""
        l = self.layer
        if self.stage.tag_layer in (l, "rule") or (l == 0 and not self.stage.tag_said):
            return []       # (once the rule for every l is up, it stays: no stale header)
        tag = math(f"\"layer {l} reads \" {T.X_l(l)} \" → writes \" {T.X_l(l + 1)}",
                   HEADER, T.TEXT)
        tag.next_to(self.plane, UP, buff=0.12).align_to(self.plane, RIGHT)
        self.stage.tag_layer = l
        old = self.shown.get("layer")
        self.shown["layer"] = tag
        if old is not None:
            # the old header is gone before the new one comes (no letters on top of each
            # other; a Succession brought the old one back for a frame)
            self.play(FadeOutPlace(old), run_time=self.quick(0.05, 0.3))
        return [FadeInPlace(tag)]

    # --- beats --------------------------------------------------------------------------
    def beat_code(self, beat) -> None:
        # the code appears as the voice says "the whole toy, as code"; each line is boxed as it
        # is named (X zero by `x`, then the matrices, the seed, the loop: walk_code)
        # (with `x` in the beat, the code comes with X zero's row and arrow, at once: the
        # voice opens on "X zero"; reviews 34: an empty stage for 1.5 s)
        if "x" in beat.get("show", []):
            return
        self.play(FadeInPlace(self.code), run_time=self.quick(0.2, 0.8))

    def walk_code(self) -> None:
        """After X zero (cue 0): the three matrices (cue 1), the loop (cue 2)."""
        lines = self.data["lines"]
        steps = [lines["weights"], [lines["loop"]]]
        n = len(self.beat.get("cues") or [])
        for i, rows in enumerate(steps, start=1):
            if n and i >= n:
                break
            self.hold_until_cue(i)
            self.cursor(rows)
            if not n:
                self.wait(0.5)
            elif i == 1:
                # "three random matrices": each of the three lines, in turn
                for r in rows:
                    self.emphasize(self.code_part(r, "np.random.randn(2, 2)"), run_time=0.9)
            else:
                # "three layers, counted from zero": range(3), and the pass this is
                self.emphasize(self.code_part(rows[0], "range(3)"), run_time=1.2)
                self.mark_pass()
        if "pass" not in self.shown:
            self.mark_pass()

    def busy(self, *ms) -> None:
        """While the voice reads out what was just drawn, outline it (no still picture)."""
        if self.beat.get("cues") and self.next_reveal() - self.time > 1.5:
            self.wait(0.6)
            self.emphasize(*ms)

    def beat_x(self, beat) -> None:
        lay, src = self.lay()
        made = self.shown.pop("upd", None)
        gone, move_code = [], False
        if made is not None and self.code in self.mobjects and not self.loop_only:
            # the recipe has been read once (layer 0): its first lines leave; the loop stays
            # where it is, its current line lit, for every layer
            self.loop_only = True
            first = self.detach_loop()
            gone = [*first, *[self.shown.pop(k) for k in ("cursor", "rs") if k in self.shown]]
        elif made is not None:
            gone = [self.shown.pop(k) for k in ("cursor", "rs") if k in self.shown]
        if made is not None and self.layer == 1 and "layer" in self.shown:
            # the convention was said and shown at layer 0; from layer 1 on the rows' own
            # names (X^(l), X^(l+1)) carry it: the header leaves (less on screen at once)
            gone.append(self.shown.pop("layer"))
        row = self.row(f"{T.X_l(self.layer)} =", src.x_in, T.X, 0)
        if made is not None:
            # the last pass's rows leave first (the sum it wrote stays), then the X it wrote
            # moves up into the X row: the same numbers, now this layer's input. It goes
            # round what is still on screen (the code, at layer 0's end: right of it, up,
            # and back), so it never passes over other text
            step_row, sum_row = made
            old = [self.shown.pop(k) for k in ("x", "w", "q", "k", "v", "pass")
                   if k in self.shown]
            # (the last pass's arrows turn to ghosts as its rows leave)
            self.play(*[FadeOutPlace(m) for m in (*old, *gone, step_row, sum_row[0])],
                      *self.ghost_anims(), run_time=self.quick(0.1, 0.5))
            grid = sum_row[1]
            a, b = grid.get_center(), row[1].get_center()
            if move_code:
                side = max(self.code.get_right()[0] + 0.3 + grid.width / 2, a[0])
                path = [a, [side, a[1], 0.0], [side, b[1], 0.0], b]
            else:
                path = [a, [a[0], b[1], 0.0], b]
            self.play(glide(grid, path), run_time=self.quick(0.1, 0.8 if move_code else 0.5))
            self.remove(grid)
            self.add(row[1])
            # X's name, and (after layer 0) the loop moving down; the new pass's mark
            anims = [FadeInPlace(row[0])]
            back = getattr(self, "code_away", None)
            if back:            # the code, back for the loop's next pass (its mark comes below)
                # (cut to its `for` line, dim: the line lit when the code left is not this
                # pass's; set while it is away, so it comes back as it should be)
                loop = self.data["lines"]["loop"]
                here = set(map(id, back[0].submobjects))
                for i, ln in enumerate(self.code_lines, start=1):
                    if id(ln) in here and self.loop_only:
                        ln.set_opacity(CODE_DIM if i == loop else 0.0)
                anims.append(FadeInPlace(back[0]))
                self.code_away = None
            if move_code:
                anims += self.code_down()
            self.play(*anims, run_time=self.quick(0.1, 0.7))
            # (the mark once its line has arrived: the line never passes under it)
            mark = self.mark_pass(play=False)
            if mark:
                self.play(*mark, run_time=self.quick(0.05, 0.3))
            self.remove(row[0], row[1])
            self.set_slot("x", row)
            # the loop goes round: its `for` line again (layer 2's product boxes the loop's
            # lines at once, as "new matrices: V two is ..." is said: no time for both)
            cues = self.beat.get("cues") or []
            if self.layer < 2 and not (cues and "new matrices" in cues[0]["text"]):
                self.cursor([self.data["lines"]["loop"]])
        elif "code" in self.beat.get("show", []) and self.stage.x_arrow is None:
            # "X zero": its row and its arrow together, on the word (reviews 33: they came
            # 2-3 s after it); then the code line that makes it is boxed
            self.drop("w", "q", "k", "v")
            arrow = self.plane.arrow(lay["x_in"], T.X, width=5)
            label = self.tag("x", T.X, lay["x_in"])
            self.stage.x_arrow = VGroup(arrow, label)
            self.shown["x"] = row
            # (the code is there from the first frame: reviews 35, an empty first second)
            self.add(self.code)
            self.play(FadeInPlace(row), GrowArrow(arrow), FollowIn(label, arrow),
                      run_time=self.quick(0.2, 0.7))
            self.set_slot("x_arrow", self.stage.x_arrow)
            self.cursor([self.data["lines"]["x0"]])
        else:
            self.drop("w", "q", "k", "v")
            self.put("x", row)
            self.ghost_previous()
        self.layer_tag()
        arrow = self.plane.arrow(lay["x_in"], T.X, width=5)
        label = self.tag("x", T.X, lay["x_in"])
        if self.stage.x_arrow is None:
            self.stage.x_arrow = VGroup(arrow, label)
            self.play(GrowArrow(arrow), FollowIn(label, arrow), run_time=self.quick(0.2, 0.8))
            self.set_slot("x_arrow", self.stage.x_arrow)
        if self.layer < 2 and (self.beat.get("cues") or self.layer == 0):
            self.emphasize(self.shown["x"])     # "X one": the row the voice names
        if "code" in self.beat.get("show", []):
            self.walk_code()
        else:       # X, and the step that brought it here (how far it moved), time allowing
            cues = self.beat.get("cues") or []
            if self.layer < 2 and not (cues and "new matrices" in cues[0]["text"]):
                self.busy(self.stage.x_arrow, *self.stage.lengths[-1:])
            self.new_matrices()

    def detach_loop(self) -> list:
        """The code splits: the loop's lines (blank ones dropped) become `self.code`, the lines
        before the loop stand alone (returned: they leave). `self.code_lines` still numbers
        every line as the source does."""
        loop = self.data["lines"]["loop"]
        source = self.data["code"].split("\n")
        first = [self.code_lines[i] for i in range(loop - 1) if source[i].strip()]
        kept = [self.code_lines[i] for i in range(loop - 1, len(source)) if source[i].strip()]
        self.remove(self.code)
        self.code = VGroup(*kept)
        self.add(self.code, *first)
        return first

    def code_down(self) -> list:
        """The loop's lines move down into the panel's lower left (blank lines closed up),
        under the rows and left of the table of step lengths, and stay there (the
        animations that do it)."""
        h = 0.335
        top = self.plane.get_bottom()[1] - 1.1 + h * (len(self.code) - 1)
        anims = []
        for i, line in enumerate(self.code):
            anims.append(line.animate.set_y(top - i * h))
        self.code_low = True
        self.code_top = top
        return anims

    def mark_pass(self, play: bool = True) -> list:
        """"# layer l" beside the loop's `for` line: which pass of the loop this is (the old
        mark leaves before the new one comes). `play=False`: the new mark's animation is
        returned (the old one has gone already), for the caller to play with others."""
        if self.code not in self.mobjects:
            return []
        line = self.code_lines[self.data["lines"]["loop"] - 1]
        mark = txt(f"# layer {self.layer}", CODE_SIZE, T.MUTED, mono=True)
        mark.next_to(line, RIGHT, buff=0.45).align_to(line, DOWN)
        if self.code_low and getattr(self, "code_top", None) is not None:
            mark.shift(UP * (self.code_top - line.get_y()))   # (where its line is going)
        old = self.shown.pop("pass", None)
        if not play:
            if old is not None:
                self.remove(old)
            self.shown["pass"] = mark
            return [FadeInPlace(mark)]
        if old is not None:
            self.play(FadeOutPlace(old), run_time=self.quick(0.05, 0.25))
        self.put("pass", mark, run_time=self.quick(0.05, 0.4))
        return []

    def new_matrices(self) -> None:
        """"...and new matrices": the three lines that draw them, boxed when the voice says
        so (where those words fall in the sentence; at its end when it words it otherwise)."""
        cues = self.beat.get("cues") or []
        if cues:
            text = cues[0]["text"]
            at = text.find("new matrices")
            share = (at if at >= 0 else len(text)) / max(1, len(text))
            self.hold_until(min(self.beat_start + float(cues[0]["start"])
                                + share * float(cues[0]["duration"]), self.next_reveal() - 0.6))
        blocks_due = bool(cues) and 0 < self.layer < 2 and "new matrices" in cues[0]["text"]
        if self.layer < 2 and not blocks_due:  # (layer 2's product boxes them with its own line)
            self.cursor(self.data["lines"]["weights"])
        if blocks_due:
            # "and new matrices": the three themselves, side by side under X's row, while it
            # is said (reviews 33: only their code lines were lit); they leave as the first
            # product begins, each coming back when it is used
            _, src = self.lay()
            blocks = VGroup(*[VGroup(math(T.X_l(self.layer, 'W_' + NAMES[c]), MATH_LABEL,
                                          T.QUANTITY[c]),
                                     WeightBlock.from_plan(self.plan,
                                                           getattr(src, f"W_{NAMES[c]}").path,
                                                           color=T.QUANTITY[c],
                                                           size=T.TYPE.label))
                                .arrange(DOWN, buff=0.12) for c in "qkv"])
            blocks.arrange(RIGHT, buff=0.5, aligned_edge=UP)
            blocks.move_to(self.panel_top + DOWN * 0.85, aligned_edge=UP + LEFT)
            blocks.align_to(self.code, LEFT).shift(RIGHT * 0.3)
            self.shown["neww"] = blocks
            self.play(FadeInPlace(blocks), *self.code_focus(set(self.data["lines"]["weights"])),
                      run_time=0.5)
            return
        if self.layer < 2 and self.code in self.mobjects:
            self.busy(*[self.code_lines[n - 1] for n in self.data["lines"]["weights"]])

    def ghost_previous(self) -> None:
        anims = self.ghost_anims()
        if anims:
            self.play(*anims, run_time=self.quick(0.1, 0.6))

    def ghost_anims(self) -> list:
        """The last pass's Q, K, V arrows stay, dimmed and unlabelled, so the new ones are
        seen to differ; ghosts from earlier passes go (the animations that do it)."""
        anims = [FadeOutPlace(g) for g in self.stage.ghosts]
        self.stage.ghosts = []
        for c in "qkv":
            a = self.shown.pop(f"p{c}", None)
            if a is not None:
                anims += self.to_ghost(a)
                if c == "v":
                    self.stage.ghost_v = self.stage.ghosts[-1]
        return anims

    def to_ghost(self, a) -> list:
        """Arrow group `a` (arrow, label, leader) turns into a ghost: the arrow dims; its own
        label dims with it when the arrow is long enough to be seen (then the faint arrow says
        which layer's it is, where it is: no legend), else the label goes."""
        # (a short one too: V^(0), a stub by V^(1), stayed unnamed through layer 1; reviews 33b)
        keep = list(a[1:2])
        anims = [DimPlace(a[0], GHOST), *[DimPlace(m, GHOST_LABEL) for m in keep],
                 *[FadeOutPlace(m) for m in a[1:] if all(m is not k for k in keep)]]
        self.stage.ghosts.append(VGroup(a[0], *keep))
        return anims

    def _projection(self, key: str) -> None:
        lay, src = self.lay()
        l, name, color = self.layer, NAMES[key], T.QUANTITY[key]
        self.layer_tag()
        lines = self.data["lines"]
        # the voice names this W: its line, and its product in the Q, K, V line (layer 2,
        # the recipe run straight through: one box on the three W lines and the Q, K, V line)
        # (played with W's entrance, next: W comes on its name; reviews 35: K and V came about
        # a second after the voice named them, behind the box and the last W's exit)
        if l == 2:
            marks = self.cursor([*lines["weights"], lines["qkv"]], play=False)
        else:
            marks = self.cursor([lines["weights"]["qkv".index(key)]],
                                self.code_part(lines["qkv"], f"X @ W{key}"), play=False)
        if "x" not in self.shown:
            self.put("x", self.row(f"{T.X_l(l)} =", src.x_in, T.X, 0))
        W = WeightBlock.from_plan(self.plan, getattr(src, f"W_{name}").path, color=color,
                                  size=T.TYPE.label)
        w_row = VGroup(math(f"× {T.X_l(l, 'W_' + name)} =", MATH_LABEL, color), W)
        w_row.arrange(RIGHT, buff=T.BUFF)
        w_row.move_to(self.panel_top + DOWN * W_TOP, aligned_edge=UP + LEFT)
        w_row.align_to(self.code, LEFT).shift(RIGHT * 0.3)
        # the last W goes before this one comes (two matrices: no cross-fade between them;
        # it has normally left already, as the last sentence ended: clear_w)
        marks = self.clear_w(marks)
        anims = [*marks]
        trio = self.shown.pop("neww", None)
        if trio is not None:
            # layer 1's three new matrices, side by side: this one moves into the product's
            # place (the same matrix: it keeps its identity), the other two leave
            mine = trio["qkv".index(key)]
            anims += [ReplacementTransform(mine[1], W), FadeOutPlace(mine[0]),
                      FadeInPlace(w_row[0]),
                      *[FadeOutPlace(b) for b in trio if b is not mine]]
        else:
            anims.append(FadeInPlace(w_row))
        if key == "v":
            # (one product at a time: Q and K, made, step back while V is made)
            anims += [DimPlace(self.shown[k], 0.4) for k in ("q", "k") if k in self.shown]
        self.play(*anims, run_time=0.45 if trio is not None else 0.35)
        if trio is not None:
            self.remove(W)          # (moved in alone: from now on a part of its row)
        self.set_slot("w", w_row)
        # ("≈" where the product redone from the digits shown does not give the digits
        # shown: the plan's check, as for the sum)
        label = math(f"{T.X_l(l, name)} " + ("≈" if lay["prod_gap"][key] > 0.005 else "="),
                     MATH_LABEL, color)
        label.move_to(self.panel_top + DOWN * 0.6 * "qkv".index(key), aligned_edge=UP + LEFT)
        label.set_x(self.results_x, direction=LEFT)
        x_grid = self.shown["x"][1]
        first = l == 0 and key == "q" and W.as_numbers
        wavy_now = False
        if first:
            # "X zero times layer zero's own W Q": the two, in turn. Then the product happens
            # as it is said: "1 times its top row" boxes X's 1 and W_Q's top row; "plus 0 times
            # its bottom row" moves X's box onto the 0 and the bottom row fades away (it adds
            # nothing); "So Q zero is the top row": the top row slides into Q^(0)
            cues = self.beat.get("cues") or []
            if len(cues) > 1:
                self.emphasize(x_grid)
                self.emphasize(W)
            n = len(lay["x_in"])
            top, bottom = VGroup(*W.nums[:n]), VGroup(*W.nums[n:])
            if cues:
                self.hold_until(self.phrase_time(0, "times its top row") - 0.35)
            box = SurroundingRectangle(top, color=T.POINTER, buff=0.08, stroke_width=3)
            xbox = SurroundingRectangle(x_grid.nums[0], color=T.POINTER, buff=0.06,
                                        stroke_width=3)
            self.play(FadeInPlace(box), FadeInPlace(xbox), run_time=0.5)
            if cues:
                self.hold_until(self.phrase_time(0, "times its bottom row") - 0.35)
            low = SurroundingRectangle(bottom, color=T.POINTER, buff=0.08, stroke_width=3)
            self.play(xbox.animate.move_to(SurroundingRectangle(
                          x_grid.nums[1], buff=0.06)), FadeInPlace(low), run_time=0.5)
            self.play(DimPlace(bottom, 0.25), FadeOutPlace(low), run_time=0.8)
            self.play(FadeOutPlace(xbox), run_time=0.3)
            if len(cues) > 1:
                self.hold_until_cue(1)
            # X^(0) = [1, 0] picks out W_Q's top ROW: it slides into Q^(0) (a copy; W stays
            # whole), its own numbers becoming Q's; the bottom row comes back
            result = row_of(getattr(src, key).values, getattr(src, key).path, color,
                            T.TYPE.label)
            result.next_to(label, RIGHT, buff=T.BUFF)
            # (copies at full size, lifted into the empty lane between X's row and W, along it,
            # and up into Q's slots: side by side all the way, never over other digits)
            copies = [a.copy() for a in top]
            lane = (x_grid.get_bottom()[1] + W.get_top()[1]) / 2
            paths = []
            for c, b in zip(copies, result.nums):
                a0, b0 = c.get_center(), b.get_center()
                paths.append([a0, [a0[0], lane, 0.0], [b0[0], lane, 0.0], b0])
            self.add(*copies)
            self.play(FadeOutPlace(box), FadeInPlace(VGroup(result[0], result[2])),
                      FadeInPlace(label), run_time=0.3)
            self.play(*[glide(c, p) for c, p in zip(copies, paths)], run_time=1.0)
            self.remove(*copies)
            self.add(result)
            self.play(DimPlace(bottom, 4.0), run_time=0.4)
        elif l == 1 and key == "q" and W.as_numbers:
            # layer 1's X is not [1, 0]: its first product is walked with real weights
            result = self.walk_product(x_grid, W, src, key, color, label, w_row)
        else:
            # layer 0 walks each product slowly; later layers repeat the recipe faster
            # ("its wavy equals sign": the "≈" outlined as it comes, with the product, on its
            # word; after the product it came ~2 s late; reviews 34)
            wavy_now = key == "v" and lay["prod_gap"][key] > 0.005 and \
                self.cue_with("wavy", -1) >= 0
            result = self.product(x_grid, W, getattr(src, key).path, color, label,
                                  1.5 if l == 0 else self.later_product(), mark=wavy_now)
        self.add(label)
        self.set_slot(key, VGroup(label, result))
        if key != "v":
            # Q and K stay numbers: only V (which makes the step) and X are drawn on the
            # plane (Q's and K's arrows crowded X's tip and are never added to X)
            if not first and l < 2:
                self.busy(result)
            self.clear_w(ahead=True)
            return
        wavy = self.cue_with("wavy", -1) if lay["prod_gap"][key] > 0.005 else -1
        if wavy >= 0 and not wavy_now:
            # "its wavy equals sign": V's "≈", outlined as it is said
            self.hold_until(self.phrase_time(wavy, "wavy") - 0.1)
            self.emphasize(label, run_time=0.8)
        # V^(0) too is drawn on the plane (short: about 0.4 against V^(1)'s 2.5), so "this V
        # is longer" at layer 1 compares two arrows the viewer has seen
        old = self.shown.get(f"p{key}")
        arrow = VGroup(self.plane.arrow(lay[key], color), self.tag(key, color, lay[key]))
        arrow.add(*self.leader(arrow[0].get_end(), arrow[1], color))
        # (the label and its leader ride on the tip as the arrow grows)
        anims = [GrowArrow(arrow[0]), *[FollowIn(m, arrow[0]) for m in arrow[1:]]]
        if old is not None:
            anims += self.to_ghost(old)
            self.shown.pop(f"p{key}")
        self.shown[f"p{key}"] = arrow
        anims += self.relabel(arrow)
        self.play(*anims, run_time=self.quick(0.15, 0.7))
        only = self.cue_with("only V", -1) if l == 0 else -1
        only = only if self.code in self.mobjects else -1
        if only >= 0:
            # "only V feeds this toy's update": V's arrow, then the update line's 0.1 * V
            self.emphasize(arrow, run_time=0.8)
            self.hold_until(self.phrase_time(only, "only V") - 0.1)
            self.emphasize(self.code_part(self.data["lines"]["update"], "0.1 * V"),
                           run_time=1.4)
        counts = self.cue_with("X stayed", -1) if l > 0 else -1
        if only < 0 and not first and counts < 0:
            self.busy(result, arrow)
        if counts >= 0:
            self.split_v(counts, key, arrow, w_row)

    def clear_w(self, also=(), ahead: bool = False) -> list:
        """The W just used slides left and away (it dissolved into the next W in the same
        spot; reviews 34), with the animations `also`. `ahead`: just before the next keyed
        sentence, so the next W comes on its name (voiced, with time for it; else the next
        product takes it out, briskly, with its own first animations). Returns what is left
        of `also` to play (all of it when no W was there)."""
        if "w" not in self.shown:
            return list(also)
        if ahead:
            t = self.next_reveal()
            if not self.beat.get("cues") or t - self.time < 0.25:
                return list(also)
            self.hold_until(t - 0.3)
        old = self.shown.pop("w")
        self.play(old.animate.shift(LEFT * 0.3).set_opacity(0), *also,
                  run_time=0.3 if ahead else 0.25)
        self.remove(old)
        return []

    def dashed_arrow(self, xy, width: float = 4.0, start=None, end=None,
                     tip_len: float = 0.18) -> VGroup:
        """A dashed arrow in the hypothetical's grey (the video's one style for "would be"):
        from the origin to `xy` on the plane, or between two scene points."""
        if start is None:
            start, end = self.plane.p((0, 0)), self.plane.p(xy)
        length = float(np.linalg.norm(end - start))
        tip_len = min(tip_len, 0.35 * length)
        d = (end - start) / (length or 1.0)
        tip = Arrow(end - d * max(2 * tip_len, 0.3), end, buff=0, color=HYPO,
                    stroke_width=width, tip_length=tip_len,
                    max_tip_length_to_length_ratio=0.5).tip
        shaft = DashedLine(start, end - d * tip_len * 0.9, color=HYPO, stroke_width=width,
                           dash_length=0.1)
        return VGroup(shaft, tip)

    def split_v(self, counts: int, key: str, arrow, w_row) -> None:
        """Layer l's V against layer l-1's, on the plane grown to BIG (the voice talks about
        it; one scale, the plane's own, said as "enlarged"): "had X stayed X one, W V two would
        give the grey V" (X^(l-1) x W_V^(l), the plan's meeting point of the two parts, dashed:
        the video's one style for "would be"); "the matrix swap moves V 3.0, from V one to the
        grey V" and "X's move shifts V 0.54, from the grey tip to V two's", each a solid white
        line drawn whole on the plane at its words, named with its length beside it; "Both
        changed V" outlines the two names; the split leaves, and the plane shrinks back, as
        its sentence ends. On the left meanwhile: X, W_V, V's row under W, the grey V's row
        under it."""
        l, name = self.layer, NAMES[key]
        lay, _ = self.lay()
        # the split takes the left of the stage alone: Q's and K's rows and the code leave
        # first (reviews 33: the split's frame was the video's most crowded)
        gone = [self.shown.pop(k_) for k_ in ("q", "k", "cursor", "pass") if k_ in self.shown]
        if self.code in self.mobjects:
            gone.append(self.code)
        if gone:
            self.play(*[FadeOutPlace(m) for m in gone], run_time=self.quick(0.05, 0.4))
        # "On the plane, enlarged": the plane and all on it grow, the lengths under it step
        # out; V's row moves under W, out of the grown plane's way
        v_row = self.shown.get(key)
        self.hold_until(self.phrase_time(counts, "enlarged") - 0.2)
        under = v_row.copy().next_to(w_row, DOWN, buff=0.35).align_to(w_row, LEFT)
        self.grow_plane(True, v_row.animate.move_to(under))
        # "had X stayed X one, W V two would give the grey V": that product, under V's row,
        # in grey (the plan's split: the meeting point of its two parts)
        self.hold_until(self.phrase_time(counts, "X stayed") - 0.3)
        via = self.v.fresh.split[l - 1].via[name]
        alt = VGroup(math(f"{T.X_l(l - 1)} × {T.X_l(l, 'W_' + name)} =", MATH_LABEL, HYPO),
                     NumberGrid([via.values], via.path, HYPO, T.TYPE.label))
        alt.arrange(RIGHT, buff=T.BUFF)
        alt.next_to(v_row, DOWN, buff=0.35).align_to(w_row, LEFT)
        self.play(FadeInPlace(alt), run_time=self.quick(0.05, 0.5))
        # and on the plane, at "the grey V", that V beside this layer's, dashed, named
        ghost = self.dashed_arrow(via.values)
        vl = arrow[1]
        prev = self.data["layers"][l - 1][key]
        legs = [Line(self.plane.p(prev), self.plane.p(via.values), color=T.TEXT, stroke_width=4),
                Line(self.plane.p(via.values), self.plane.p(lay[key]), color=T.TEXT,
                     stroke_width=4)]
        if len(arrow) == 2 and any(overlaps(vl, m, pad=0.04) for m in (ghost, *legs)):
            # (V^(l)'s name steps clear of the grey V and the two legs first)
            moved = vl.copy()
            place_label(moved, self.plane.p(lay[key]), self.plane,
                        self.plane_arrows() + [ghost[0], *legs] + self.axes(),
                        self.plane_labels(own=vl), reach=0.12)
            self.play(vl.animate.move_to(moved), run_time=self.quick(0.05, 0.4))
        self.hold_until(self.phrase_time(counts, "the grey V") - 0.6)
        gl = math(f"{T.X_l(l - 1)} {T.X_l(l, 'W_' + name)}", MATH_LABEL, HYPO)
        place_label(gl, self.plane.p(via.values), self.plane,
                    self.plane_arrows() + [ghost[0], *legs] + self.axes(),
                    self.plane_labels(), reach=0.12)
        ghost.add(gl)
        self.play(Create(VGroup(*ghost[:2])), FadeInPlace(gl), run_time=0.7)
        self.bring_to_front(ghost)
        self.shown["alt"] = VGroup(alt, ghost)
        self.emphasize(alt[1], ghost, run_time=1.0)
        # the plan's split of V's change from layer l-1 to layer l: the two legs of the path
        # V^(l-1) -> grey V (new matrices, old X) -> V^(l) (the moved X), each drawn whole,
        # on the one scale, named in words with its length, at its own sentence
        sp = self.v.fresh.split[l - 1]
        parts = [("matrix swap", sp.w_parts[name], 1, "matrix swap"),
                 ("X's move shifts", sp.x_parts[name], 2, "X's move")]
        drawn, names = [], [gl]
        for (phrase, size, digits, words), leg in zip(parts, legs):
            k = self.cue_with(phrase, -1)
            if k < 0:
                continue
            self.hold_until(self.phrase_time(k, phrase) - 0.1)
            # (two short lines, "matrix swap" over "length 3.0": narrow enough for the free
            # parts of the plane)
            num = VGroup(txt(words, T.TYPE.body, T.TEXT),
                         VGroup(txt("length", T.TYPE.body, T.TEXT),
                                Num(float(size), size.path, digits, MATH_LABEL * 0.8, T.TEXT))
                         .arrange(RIGHT, buff=0.12, aligned_edge=DOWN))
            num.arrange(DOWN, buff=0.08, aligned_edge=LEFT)
            # (beside the leg where nothing else is; out in the empty part of the plane, with
            # a thin leader to the leg's middle, when round the tips is crowded)
            busy = self.plane_arrows() + [ghost[0], *legs] + self.axes()
            place_label(num, leg.get_center(), self.plane, busy, self.plane_labels() + names,
                        reach=0.15, rings=(0.4, 0.75, 1.1, 1.5, 1.9))
            at = leg.get_center()
            if label_gap(num, busy, self.plane_labels() + names) < CLEAR:
                # (no room on the plane: off it, on the left, level with a point low on the
                # leg, under the rows there)
                at = leg.point_from_proportion(0.7)
                num.move_to(at)
                num.shift(LEFT * (num.get_right()[0] - self.plane.get_left()[0] + 0.25))
            tie = self.leader(at, num, T.MUTED)
            self.play(Create(leg), FadeInPlace(num), *[Create(t) for t in tie], run_time=0.8)
            drawn += tie
            # (the box round the name only; the leg itself swells and settles)
            self.emphasize(num, run_time=0.8,
                           extra=[leg.animate(rate_func=there_and_back).set_stroke(width=8)])
            drawn += [leg, num]
            names.append(num)
        self.shown["alt"] = VGroup(alt, ghost, *drawn)
        both = self.cue_with("Both changed", -1)
        if both < 0:
            return
        # "Both changed V; with these random matrices, the swap more": the two names
        self.hold_until(self.phrase_time(both, "Both changed") - 0.1)
        self.emphasize(*names[1:], run_time=1.2)
        cues = self.beat.get("cues") or []
        self.hold_until(self.cue_at(both) + float(cues[both]["duration"]) - 0.6)
        # the split leaves as its sentence ends, before the step is said: the plane shrinks
        # back, the lengths return (reviews 34: it ghosted out under the next picture)
        self.drop("alt", "w", run_time=0.35)
        self.grow_plane(False)

    def grow_plane(self, big: bool, *also) -> None:
        """The plane and everything on it grow to BIG wide (about its top right corner: down
        over the lengths under it, which step out, and left), or shrink back: one zoom, the
        plane's own scale on both. `also`: animations played with it."""
        f = BIG / PLANE_SIZE if big else PLANE_SIZE / BIG
        corner = self.plane.get_corner(UP + RIGHT)
        on = VGroup(self.plane, *[m for m in [self.stage.x_arrow, *self.stage.trail,
                                               *self.stage.ghosts,
                                               *[self.shown.get(f"p{c}") for c in "qkv"]]
                                  if m is not None])
        bars = [FadeOutPlace(self.stage.lengths) if big else FadeInPlace(self.stage.lengths)] \
            if len(self.stage.lengths) else []
        if not big and bars:
            self.add(self.stage.lengths)
        self.play(on.animate.scale(f, about_point=corner), *bars, *also,
                  run_time=self.quick(0.1, 0.8))
        self.plane.units *= f

    def product(self, x_grid, W, out_path: str, color, label, run_time: float,
                mark: bool = False):
        """X · W in the row view the video teaches (layer 0's Q, layer 1's Q): X's first
        number and W's top row boxed together, then the box moves to X's second number and
        the bottom row; then the result, the rows' sum, is written under W and rises into
        its row after `label` (the walk, shortened: the same operation every time; reviews
        35: the entries faded in where they stand). Returns the result's row."""
        values = self.value(out_path)
        result = row_of(values, out_path, color, T.TYPE.label)
        result.next_to(label, RIGHT, buff=T.BUFF)
        n = len(values)
        rows = [VGroup(*W.nums[i * n:(i + 1) * n]) for i in range(n)]

        def boxes(i):
            return (SurroundingRectangle(rows[i], color=T.POINTER, buff=0.08, stroke_width=3),
                    SurroundingRectangle(x_grid.nums[i], color=T.POINTER, buff=0.06,
                                         stroke_width=3))
        box, xbox = boxes(0)
        # (`mark`: the label ("≈") outlined while the product runs, as "wavy" is said)
        lbox = VGroup(*([SurroundingRectangle(label, color=T.POINTER, buff=0.06,
                                              stroke_width=3)] if mark else []))
        self.play(FadeInPlace(VGroup(label, result[0], result[2])), FadeInPlace(box),
                  FadeInPlace(xbox), *([FadeInPlace(lbox)] if mark else []),
                  run_time=0.3 * run_time)
        for i in range(1, n):
            b, xb = boxes(i)
            self.play(box.animate.become(b), xbox.animate.become(xb), run_time=0.3 * run_time)
        # the sum under W, as the walk writes it; then along the lane under W and straight
        # up into its slot (nothing is made yet below it in the Q, K, V column)
        made = VGroup(*[m.copy() for m in result.nums])
        made.next_to(W, DOWN, buff=0.3)
        self.play(FadeOutPlace(VGroup(box, xbox, *lbox)), FadeInPlace(made),
                  run_time=0.2 * run_time)
        a, b = made.get_center(), VGroup(*result.nums).get_center()
        self.play(glide(made, [a, [b[0], a[1], 0.0], b]), run_time=0.4 * run_time)
        self.remove(made, result[0], result[2])
        self.add(result)
        return result

    def walk_product(self, x_grid, W, src, key, color, label, w_row):
        """X^(l) · W, read as layer 0 read it (one view of the product all video): X's first
        number times W's top row, plus its second times the bottom row. "x0 times its top
        row": X's first number and W's top row boxed, then they fly (copies) into a sum
        written under W, `x0 × [top row]`; "plus x1 times its bottom row": the same for the
        second number and the bottom row; then "= [result]" under them, which rises into the
        result's row. Each step at its words (the sentence with "times its top row"), or at
        once when silent. Returns the result's row."""
        vec = getattr(src, key)
        k0 = self.cue_with("times its top row", None)
        if k0 is None:
            k0 = self.step_cue()
        result = row_of(vec.values, vec.path, color, T.TYPE.label)
        result.next_to(label, RIGHT, buff=T.BUFF)
        # Q^(1)'s name and brackets wait for its entries, from the start
        self.play(FadeInPlace(VGroup(label, result[0], result[2])), run_time=0.3)
        n = len(vec.values)

        def op(sym):
            return math(sym, MATH_LABEL * 0.8, T.TEXT)

        def bracket(m):
            return [result[0].copy().set_color(m.get_color()),
                    result[2].copy().set_color(m.get_color())]

        rows = [VGroup(*W.nums[i * n:(i + 1) * n]) for i in range(n)]
        x_copies = [x_grid.nums[i].copy() for i in range(n)]
        w_copies = [r.copy() for r in rows]
        r0 = VGroup(*[m.copy() for m in result.nums])
        parts, brs = [], []
        for i in range(n):
            if i:
                parts.append(op("+"))
            lb, rb = bracket(w_copies[i])
            brs.append((lb, rb))
            parts += [x_copies[i], op("×"), lb, w_copies[i], rb]
        lr, rr = bracket(r0)
        parts += [op("="), lr, r0, rr]
        terms = VGroup(*parts).arrange(RIGHT, buff=0.1)
        terms.next_to(w_row, DOWN, buff=0.45).align_to(self.code, LEFT)
        # (its result, at the line's end, stays left of the plane: it faded in across the
        # plane's edge; reviews 34)
        room = self.plane.get_left()[0] - 0.3 - terms.get_left()[0]
        if terms.width > room:
            terms.scale(max(0.85, room / terms.width), about_edge=LEFT)
        # (the code line under it, the dim `for` line and its "# layer l", steps out while
        # the sum is written: the sum nearly touched it; reviews 34)
        loop_line = self.code_lines[self.data["lines"]["loop"] - 1]
        live = [loop_line] if self.code in self.mobjects and any(
            loop_line is ln for ln in self.code.submobjects) else []
        if self.shown.get("pass") is not None and self.shown["pass"] in self.mobjects:
            live.append(self.shown["pass"])
        under = [m for m in live if m.get_top()[1] > terms.get_bottom()[1] - 0.7]
        if under:
            self.play(*[m.animate.set_opacity(0) for m in under], run_time=0.3)
        cues = self.beat.get("cues") or []
        # the lanes the numbers travel in, clear of every row: between X's row and W
        # (lane_top), between W and the written sum (lane_mid); X's number goes first, then
        # W's row: one thing in a lane at a time
        x_row = self.shown["x"]
        lane_top = (x_row.get_bottom()[1] + W.get_top()[1]) / 2
        lane_mid = (W.get_bottom()[1] + terms.get_top()[1]) / 2
        right = max(W.get_right()[0], terms.get_right()[0]) + 0.3
        box = xbox = None
        for i in range(n):
            if cues:
                self.hold_until(self.phrase_time(k0, "times its top row" if i == 0 else
                                                 "plus") - 0.35)
            at = 5 * i + (1 if i else 0)            # x_i's place in `parts`
            ops = [parts[at - 1]] if i else []
            new_box = SurroundingRectangle(rows[i], color=T.POINTER, buff=0.08, stroke_width=3)
            new_x = SurroundingRectangle(x_grid.nums[i], color=T.POINTER, buff=0.06,
                                         stroke_width=3)
            if box is None:
                box, xbox = new_box, new_x
                self.play(FadeInPlace(box), FadeInPlace(xbox), run_time=0.4)
            else:
                self.play(box.animate.become(new_box), xbox.animate.become(new_x), run_time=0.4)
            xs, ws = x_grid.nums[i].copy(), rows[i].copy()
            a, b = xs.get_center(), x_copies[i].get_center()
            # (X's number: up into the lane over W, round by the right, down to the sum's
            # line; W's row: straight down, out of W, into the lane under it, along to its
            # place: the top row passes the bottom row's right, never over its digits)
            x_path = [a, [a[0], lane_top, 0.0], [right, lane_top, 0.0], [right, b[1], 0.0], b]
            c, d = ws.get_center(), w_copies[i].get_center()
            # (out of the matrix first, vertically: a copy sliding along its own row garbled
            # the digits under it; reviews 33. The top row up into the lane over W (X's number
            # has left it), round by the right, down to the lane under W; the bottom row
            # straight down into that lane)
            if i == 0:
                w_path = [c, [c[0], lane_top, 0.0], [right, lane_top, 0.0],
                          [right, lane_mid, 0.0], [d[0], lane_mid, 0.0], d]
            else:
                w_path = [c, [c[0], lane_mid, 0.0], [d[0], lane_mid, 0.0], d]
            self.add(xs, ws)
            self.play(glide(xs, x_path, 0.0, 0.5), glide(ws, w_path, 0.5, 1.0),
                      FadeInPlace(VGroup(*ops, parts[at + 1], *brs[i])), run_time=1.6)
            self.remove(xs, ws)
            self.add(x_copies[i], w_copies[i])
        self.play(FadeOutPlace(VGroup(box, xbox)), run_time=0.3)
        if cues:
            end = self.cue_at(k0) + float(cues[k0].get("duration", 0.0))
            self.hold_until(min(end - 1.2, self.phrase_time(k0, ": Q") - 0.3)
                            if ": Q" in str(cues[k0].get("text", "")) else end - 1.2)
        # the sum's value, both entries at once (each is its column's weighted sum), then it
        # rises into Q's row: up W's right side, along the lane over W, and up into place
        self.play(FadeInPlace(VGroup(parts[-4], lr, rr)), FadeInPlace(r0), run_time=0.4)
        a, b = r0.get_center(), VGroup(*result.nums).get_center()
        up = max(a[0], right)
        # (its brackets go before it moves: passing over its own "]" garbled the digits)
        self.play(FadeOutPlace(VGroup(lr, rr)), run_time=0.2)
        self.play(glide(r0, [a, [up, a[1], 0.0], [up, lane_top, 0.0], [b[0], lane_top, 0.0], b]),
                  run_time=0.7)
        self.remove(r0)
        self.remove(result[0], result[2])
        self.add(result)
        self.play(FadeOutPlace(VGroup(*parts[:-4])), FadeOutPlace(parts[-4]),
                  *[m.animate.set_opacity(CODE_DIM if m is loop_line else 1.0)
                    for m in under], run_time=0.3)
        return result

    def step_cue(self) -> int:
        """The sentence this step is keyed to (its `at`), 0 when it has none or the plan no
        cues."""
        cues = self.beat.get("cues") or []
        at = self.steps(self.beat)[self.step_index].get("at")
        if at is None or not cues:
            return 0
        return min(range(len(cues)), key=lambda i: abs(float(cues[i]["start"]) - float(at)))

    def later_product(self) -> float:
        """Run time of a later layer's product: 1.2 s when voiced (the voice waits for it);
        silent, what is left before the next step (less its arrow), between 0.6 and 1.2 s."""
        if self.layer >= 2:         # layer 2: Q's, K's, V's products (silent: quicker)
            return 1.2 if self.beat.get("cues") else 0.7
        if self.beat.get("cues"):
            return 1.2              # (within "Then K one, the same way")
        return max(0.6, min(1.2, self.next_reveal() - self.time - 1.4))

    def leader(self, tip, label, color) -> list:
        """A thin line from an arrow's tip to its label, when the label had to sit away from
        the tip (a crowded spot): which arrow it names stays plain."""
        half = np.array([label.width / 2, label.height / 2, 0.0])
        c = label.get_center()
        near = np.clip(tip, c - half, c + half)          # the label box's point nearest the tip
        if np.linalg.norm(near - tip) < 0.3:
            return []
        u = (near - tip) / np.linalg.norm(near - tip)
        return [Line(tip + u * 0.06, near - u * 0.05, color=color, stroke_width=2.5,
                     stroke_opacity=0.9)]

    def relabel(self, new) -> list:
        """Labels already on the plane move (do not jump) to a free spot when a new arrow
        (`new`: its arrow and label) lands on them."""
        groups = [self.stage.x_arrow] + [self.shown.get(f"p{c}") for c in "qkv"]
        anims = []
        for g in groups:
            if g is None or g is new or len(g) > 2:
                continue
            lab = g[1]
            if getattr(lab, "pinned", False):
                continue
            others = [l for l in self.plane_labels(lab) if l is not new[1]] + [new[1]]
            if label_gap(lab, self.plane_arrows() + [new[0]] + self.axes(), others) >= CLEAR:
                continue
            spot = lab.copy()
            place_label(spot, g[0].get_end(), self.plane,
                        self.plane_arrows() + [new[0]] + self.axes(), others)
            if float(np.linalg.norm(spot.get_center() - lab.get_center())) > 0.05:
                anims.append(lab.animate.move_to(spot))
        return anims

    def beat_q(self, beat) -> None:
        self._projection("q")

    def beat_k(self, beat) -> None:
        self._projection("k")

    def beat_v(self, beat) -> None:
        self._projection("v")

    def beat_update(self, beat) -> None:
        lay, src = self.lay()
        l = self.layer
        self.layer_tag()
        early = l == 1 and bool(self.beat.get("cues")) and self.code in self.mobjects
        if not early:
            self.cursor([self.data["lines"]["update"]])
        if l == 1 and "pv" in self.shown and self.stage.ghost_v in self.stage.ghosts:
            # "this V is longer": this V and last layer's, faint, outlined together (voiced,
            # the code steps out meanwhile: the close-up, with |Δ^(1)|, is open when "0.26
            # against 0.04" is said; reviews 33)
            away = []
            if early:
                self.code_away = [self.code, *[self.shown.pop(k) for k in ("cursor", "pass")
                                               if k in self.shown]]
                away = [FadeOutPlace(m) for m in self.code_away]
            self.emphasize(self.shown["pv"][0], self.stage.ghost_v, run_time=0.6, extra=away)
        brisk = l >= 2 and bool(self.beat.get("cues")) and "v" in self.shown
        # (layer 1, voiced: Δ's numbers come as the code steps out, so the close-up, with its
        # readout |Δ^(1)|, is open when "0.26 against 0.04" is said)
        # (and after layer 0 always: Δ's numbers come as the code steps out, one step)
        merge = brisk or l >= 1
        if not brisk:
            self.drop("w", "q", "k", "alt")
        # V becomes 0.1 V (its numbers shrink in place), then X + 0.1 V becomes the new X
        x_row = self.shown["x"]
        v_row = self.shown.pop("v", None)
        # Δ = 0.1 × [V's numbers, moved here whole] = [Δ's numbers]: V keeps its identity
        lab = math(f"{T.X_l(l, 'Δ')} = 0.1 ×", MATH_LABEL, DELTA)
        v_grid = grid_of(src.v, T.V)
        eq = math("=", MATH_LABEL, DELTA)
        d_grid = grid_of(src.update, DELTA)
        # (Δ on the bottom row, V's own row: V slides along it; the sum comes in between, so
        # X's and Δ's numbers each move one row to it and cross no other row)
        # (a little closer than the rows' usual gap: the line ends left of the close-up)
        line = VGroup(lab, v_grid, eq, d_grid).arrange(RIGHT, buff=0.18)
        # (on V's own row, row 2: V's numbers slide straight along it; the sum is written in
        # row 1, between X's row and this one, so X's numbers come down into it and Δ's up,
        # and none goes round the rows into the close-up open on the right; reviews 35)
        line.move_to(self.panel_top + DOWN * 1.2, aligned_edge=UP + LEFT).align_to(self.code, LEFT)
        if v_row is not None:
            # V's own row of numbers slides into the line (the same object: no morph between
            # two layouts of the same digits)
            # (its name goes first: the numbers sliding left passed over it)
            gone = [self.shown.pop(s_) for s_ in ("w", "q", "k", "alt") if s_ in self.shown] \
                if brisk else []
            self.play(FadeOutPlace(v_row[0]), *[FadeOutPlace(m) for m in gone],
                      run_time=self.quick(0.05, 0.25 if not brisk else 0.4))
            self.play(v_row[1].animate.move_to(v_grid),
                      run_time=self.quick(0.12, 0.8 if l == 0 else 0.5))
            v_grid = v_row[1]
        step_row = VGroup(lab, d_grid, v_grid, eq)
        # every layer's step length joins the table under the plane out of its close-up, after
        # the step is drawn there (its number flies from the lens's readout to its bar)
        entry = []
        if v_row is not None:
            # Δ's numbers are written in their own slot after "= 0.1 ×" and V's row (no copy of
            # V's digits flies over to them: a copy leaving its original read as a double
            # exposure, and one shrunk on the way was unreadable)
            self.play(FadeInPlace(VGroup(lab, eq, d_grid[0], d_grid[2])),
                      run_time=self.quick(0.1, 0.4))
            if not merge:
                self.play(FadeInPlace(VGroup(*d_grid.nums)), run_time=self.quick(0.05, 0.4))
            if entry:
                self.play(FadeInPlace(entry[0]), run_time=self.quick(0.05, 0.3))
        else:
            self.play(FadeInPlace(VGroup(step_row, *entry)), run_time=self.quick(0.1, 0.6))
        self.add(step_row)
        if entry:
            self.stage.lengths.add(*entry)
            self.add(self.stage.lengths)
        if l == 1 and not self.beat.get("cues") and len(self.stage.lengths):
            # (voiced: in the close-up, as said)
            self.emphasize(*self.stage.lengths[-1:], run_time=0.6)
        lens_first = bool(self.beat.get("cues"))
        if l > 0 and self.code in self.mobjects:
            # the geometry has the stage: the code (its line said) steps out while the close-up
            # is open, and comes back when the loop goes round (one thing at a time)
            self.code_away = [self.code, *[self.shown.pop(k) for k in ("cursor", "pass")
                                           if k in self.shown]]
            self.play(*[FadeOutPlace(m) for m in self.code_away],
                      *([FadeInPlace(VGroup(*d_grid.nums))] if merge and v_row is not None
                        else []),
                      run_time=self.quick(0.05, 0.4))
        elif merge and v_row is not None:
            self.play(FadeInPlace(VGroup(*d_grid.nums)), run_time=self.quick(0.05, 0.4))
        if lens_first:
            # the close-up (after layer 0 with the last layer's step beside this one) is shown
            # while it is said ("Magnified: ... tip to tail"), before the sum is written out:
            # the new X's row comes after the arrows meet
            if l == 0:
                self.hold_until_cue(1)
            self.lens_open(lay, src)
        # ("≈" where the sum as written, to two decimals, does not add up: the plan's check)
        new_row = self.row(f"{T.X_l(l + 1)} = {T.X_l(l)} + {T.X_l(l, 'Δ')} "
                           + ("=" if lay["sum_gap"] < 0.005 else "≈"), src.x_out, T.X, 1)
        # "Added tip to tail, it carries X to the next X": the sum, as it is said
        # (layer 0 says it mid-sentence: "Magnified: delta, ..., added tip to tail, gives X
        # one"). In the open lens X slides along Δ as it is said, the sum is written beside it
        phrase = "Added tip to tail"
        added = self.cue_with(phrase, -1) if lens_first else -1
        if added < 0 and lens_first:
            phrase = "added tip to tail"
            added = self.cue_with(phrase, -1)
        if added >= 0:
            self.hold_until(self.phrase_time(added, phrase) - 0.1)
        if lens_first:
            self.lens_slide()
        # the sum, written as it happens: X's numbers drop straight down into the new row
        # (still empty: its name comes with the sum) and slide along it in its upper half; Δ's
        # rise straight up out of their row and slide along its lower half; stacked in each
        # slot like a written column sum, they shrink into one point, and only then does the
        # sum appear there, with the row's name. Each moves in its own lane: no digit passes
        # over a row or another digit, and none morphs into another
        t = self.quick(0.15, 2.0 if l == 0 else 1.3 if l < 2 else 0.8 if brisk else 1.0)
        flying, merged = [], []
        lane = 0.2              # the two lanes, above and below the new row's middle
        # (X's numbers, at full size, rise out of their row into the free lane over it, go
        # right to their slots and down into the sum's UPPER lane (the row is empty there);
        # then Δ's rise straight up from the row under it into the LOWER lane and along it:
        # stacked in a column, X's over Δ's, a moment, before they merge into the sum. No
        # number passes over a row or another number)
        # (under the title: the rows stand just below it)
        over = min(x_row.get_top()[1] + 0.2,
                   self.title.get_bottom()[1] - 0.08 - x_row[1].nums[0].height / 2)
        for j, num in enumerate(new_row[1].nums):
            xc = x_row[1].nums[j].copy()
            dc = step_row[1].nums[j].copy()
            s_ = num.get_center()
            xa, da = xc.get_center(), dc.get_center()
            up, down = s_[1] + lane, s_[1] - lane
            flying.append(glide(xc, [xa, [xa[0], over, 0.0], [s_[0], over, 0.0],
                                     [s_[0], up, 0.0]], 0.0, 0.45, vanish=0.86))
            flying.append(glide(dc, [da, [da[0], down, 0.0], [s_[0], down, 0.0]], 0.48, 0.66,
                                vanish=0.86))
            merged += [xc, dc]
        self.add(*merged)
        rest = VGroup(new_row[0], new_row[1][0], new_row[1][2])     # label and brackets
        # (Δ's own numbers dim while their copies drop out of them, so the one that moves
        # is seen: two bright copies overlapped as they parted; reviews 34)
        d_nums = VGroup(*step_row[1].nums)
        self.play(*flying, DimPlace(d_nums, 0.35), run_time=t)
        self.remove(*merged)
        self.play(FadeInPlace(VGroup(*new_row[1].nums)), FadeInPlace(rest),
                  DimPlace(d_nums, 1 / 0.35), run_time=self.quick(0.05, 0.4))
        self.remove(*rest, *new_row[1].nums, step_row)
        self.set_slot("upd", VGroup(step_row, new_row))
        # on the plane: Δ drawn tip to tail from X, and X moves along it. Every step is too
        # short to compare at home size, so each gets a close-up (the panel on the left steps
        # aside, the camera glides in and back), and its length joins the row under the plane.
        x0, x1 = lay["x_in"], lay["x_out"]
        if not lens_first:      # (silent: the lens after the sum)
            self.lens_open(lay, src)
            self.lens_slide()
        elif added >= 0 and l == 0:
            # layer 0's lens stays open until the sentence that says the step has ended;
            # later layers' shut right after the sum, as "its length joins the bars" is said
            # (no silent tail)
            # (or, when the voice introduces the bars, until it does: "its length starts a
            # row of bars under the plane" is said as the length flies to its bar)
            bars0 = self.cue_with("row of bars", -1)
            cue = self.beat["cues"][added]
            self.hold_until(self.cue_at(bars0) - 0.7 if bars0 > added else
                            self.cue_at(added) + float(cue["duration"]) + 0.2)
        # X^(l+1)'s name on the plane: the lens's own X^(l+1) name moves there as the lens
        # shuts (lens_close), so the name travels with the tip and X^(l)'s never meets it
        new_arrow = VGroup(self.plane.arrow(x1, T.X, width=5),
                           self.tag("x", T.X, x1, self.stage.x_arrow[1], index=l + 1))

        def advance(*also):
            """X's arrow moves to X^(l+1) (its name is there already); the old X stays, faint."""
            # the X it leaves stays behind, faint: X^(0) -> X^(1) -> ... a trail of what carries over
            trail = VGroup(self.stage.x_arrow[0].copy())
            # (at the plane's scale the steps are a few pixels: the close-ups show the path)
            self.stage.trail.append(trail)
            self.add(trail)
            self.bring_to_front(self.stage.x_arrow)
            self.play(Transform(self.stage.x_arrow[0], new_arrow[0]), DimPlace(trail, GHOST),
                      *also, run_time=self.quick(0.15, 0.6))

        # (X's name turns to X^(l+1) as soon as the lens has shut, before layer 0's length
        # travels to its table: the voice says "wrote X one" then)
        self.lens_close(after=advance, x_name=new_arrow[1])
        if l == 0 and len(self.beat.get("cues") or []) > 3:
            # "layer zero read X zero and wrote X one": the two rows, in turn
            self.hold_until_cue(self.cue_with("read X", 2))
            self.stage.tag_said = True
            self.stage.tag_layer = "rule"       # (no per-layer header: the rows carry it)
            self.emphasize(x_row)
            self.emphasize(self.shown["upd"][1])
            # (the code's lines before the loop, read once, leave now: the rule, next, gets a
            # band of its own over the loop, not squeezed against `np.random.seed`: review 32b)
            if self.code in self.mobjects and not self.loop_only:
                self.loop_only = True
                pre = self.detach_loop()
                self.play(*[FadeOutPlace(m) for m in pre], run_time=self.quick(0.05, 0.4))
            self.hold_until_cue(self.cue_with("All chapter", 3))
            # the convention, at its own moment, large, in the empty band between the rows
            # and the code (over nothing), outlined while it is said; it leaves with its
            # sentence
            rule = self.rule_in_band()
            self.play(FadeInPlace(rule), run_time=self.quick(0.05, 0.5))
            self.emphasize(rule, run_time=1.6, buff=0.04)
            self.hold_until_cue(self.cue_with("residual stream", 4))
            self.play(FadeOutPlace(rule), run_time=self.quick(0.05, 0.4))
            # "X, carried and added to: the residual stream": the term, written under X's
            # arrow as it is said, with X's arrow, the faint X it left, and the sum that added to it
            self.name_stream()
            self.emphasize(self.stage.x_arrow, *self.stage.trail, self.shown["upd"][1])
        if l == 0 and not self.stage.tag_said:     # (no cues: the rule after the step)
            self.stage.tag_said = True
            self.stage.tag_layer = "rule"
            rule = self.rule_in_band()
            self.play(FadeInPlace(rule), run_time=self.quick(0.05, 0.4))
            self.play(FadeOutPlace(rule), run_time=self.quick(0.05, 0.3))
            self.name_stream()
        bars = self.cue_with("longest bar", -1) if l > 0 and self.beat.get("cues") else -1
        if bars >= 0 and len(self.stage.lengths) >= len(self.data["layers"]):
            # "the longest bar, layer one's, came from the longest V": that bar (the plan's
            # pick; every bar is in place by now), then layer one's V, faint on the plane, if
            # it is still there, as "the longest V" is said
            self.hold_until(self.phrase_time(bars, "longest bar") - 0.1)
            i = int(self.data["fresh"]["longest_step"])
            self.emphasize(self.stage.lengths[i], run_time=1.0)
            if i == l - 1 and self.stage.ghost_v is not None \
                    and self.stage.ghost_v in self.stage.ghosts:
                self.hold_until(self.phrase_time(bars, "longest V") - 0.1)
                self.emphasize(self.stage.ghost_v, run_time=1.0)
        # the sum stays on screen until the next layer begins

    def name_stream(self) -> None:
        """"residual stream", on the plane under X's name (what the voice calls X); it leaves
        with the code when layer 1 begins."""
        label, arrow = self.stage.x_arrow[1], self.stage.x_arrow[0]
        rs = txt("residual stream", T.TYPE.body, T.X)
        # (on X's side of the axis away from its name: clear of the arrow, the axis, the name)
        tip = arrow.get_end()
        below = label.get_y() > tip[1]
        rs.next_to(tip, DOWN if below else UP, buff=0.2)
        # (clear of the x-axis too: the words stood on its line; reviews 33)
        axis_y = self.plane.p((0, 0))[1]
        if below and rs.get_top()[1] > axis_y - 0.35:
            rs.shift(DOWN * (rs.get_top()[1] - (axis_y - 0.35)))
        elif not below and rs.get_bottom()[1] < axis_y + 0.35:
            rs.shift(UP * (axis_y + 0.35 - rs.get_bottom()[1]))
        right = self.plane.get_right()[0] - 0.1
        if rs.get_right()[0] > right:
            rs.shift(LEFT * (rs.get_right()[0] - right))
        rs.add_background_rectangle(color=T.BACKGROUND, opacity=1.0, buff=0.04)
        self.put("rs", rs)

    def rule_in_band(self) -> VGroup:
        """"layer l reads X^(l) → writes X^(l+1)", at RULE_SIZE (smaller only if the band is
        narrower), centred in the empty band between the panel's rows and the code, left of
        the plane."""
        rule = math(f"\"layer \" l \" reads \" {T.X_l('l')} \" → writes \" {T.X_l('l+1')}",
                    RULE_SIZE, T.TEXT)
        left = self.code.get_left()[0]
        right = self.plane.get_left()[0] - 0.3
        if rule.width > right - left:
            rule.scale((right - left) / rule.width)
        rows = [m for m in (self.shown.get("x"), self.shown.get("upd")) if m is not None]
        above = min(m.get_bottom()[1] for m in rows)
        below = self.code.get_top()[1]
        rule.move_to([left + rule.width / 2, (above + below) / 2, 0.0])
        return rule

    def lens_open(self, lay: dict, src: Layer) -> None:
        """The step 0.1 V is a few pixels long at home size, so it is shown magnified in place:
        a small square marks it on the plane, a lens the plane's size grows out of that square
        (the code and the numbers stay where they are), draws X, Δ tip to tail and the new X
        with a round scale bar, then shrinks back into the square; Δ stays as a trail and
        its length flies into the table of lengths under the plane."""
        l, z = self.layer, lay["zoom"]
        # later layers repeat the close-up faster; layer 1's comparison with layer 0's step is
        # spoken over it, so voiced it takes longer
        f = 1.0 if l == 0 else (0.55 if l == 1 and self.beat.get("cues") else 0.45)
        x0, x1 = lay["x_in"], lay["x_out"]
        plane = self.plane
        c = plane.p(z["center"])
        # the lens magnifies the plan's width to its own width, LENS_W, exactly (so a later
        # close-up is layer 0's zoomed out `fresh.zoom_out` times on screen too): as tall as
        # the plane and wider, reaching left of it up to the rows (reviews 35: the close-up
        # was the plane's 260 px); the rectangle marking it on the plane (the lens shrunk to
        # what it shows) is drawn at least 0.22 high, to be seen
        k = LENS_W / (z["width"] * plane.units)
        shrink = max(1.0 / k, 0.22 / PLANE_SIZE)
        # (the lens covers the plane and any name standing past its right edge: X's name sits
        # right of its tip when X lies along the x-axis; nothing of the plane peeks out)
        right = max([m.get_right()[0] for m in self.plane_labels()] + [plane.get_right()[0]])
        extra = right - plane.get_right()[0] + (0.06 if right > plane.get_right()[0] else 0.0)
        lens = Rectangle(width=LENS_W + extra, height=PLANE_SIZE, color=T.TEXT, stroke_width=2)
        lens.align_to(plane, UP).align_to(plane, RIGHT).shift(RIGHT * extra)
        spot = Rectangle(width=lens.width * shrink, height=lens.height * shrink, color=T.TEXT,
                         stroke_width=2).move_to(c)
        # (a plane name half under the lens's edge would be cut by it: it steps out while the
        # lens is open, back as it shuts; reviews 34: "V^(1" clipped at the lens's left)
        lo_l, hi_l = lens.get_corner(DOWN + LEFT), lens.get_corner(UP + RIGHT)

        def cut_by(mob):
            a_, b_ = mob.get_corner(DOWN + LEFT), mob.get_corner(UP + RIGHT)
            meets = all(a_[i] < hi_l[i] and b_[i] > lo_l[i] for i in range(2))
            within = all(a_[i] >= lo_l[i] and b_[i] <= hi_l[i] for i in range(2))
            return meets and not within
        hidden = []
        for mob in self.plane_labels(own=self.stage.x_arrow[1]):    # (X's: the lens renames it)
            if cut_by(mob) or overlaps(mob, spot, pad=0.02):
                pts = mob.family_members_with_points()
                hidden.append((mob, pts[0].get_fill_opacity() if pts else 1.0))
        self.play(FadeInPlace(spot), *[mob.animate.set_opacity(0) for mob, _ in hidden],
                  run_time=f * self.quick(0.05, 0.3))
        lens.set_fill(T.BACKGROUND, opacity=1.0)     # nothing of the plane shows through

        # after layer 0 the scale's note fills the lens's lower part: the step is drawn in
        # the upper part, clear of it
        lift = UP * 0.0               # (no note under the step any more: centred)

        def m(xy):                         # a data point, as seen through the lens
            return lens.get_center() + lift + (plane.p(xy) - c) * k

        a, b = m(x0), m(x1)

        def tip(at, xy):                   # X's arrow, its last stretch: it comes in from 0
            d = plane.p(xy) - plane.p((0, 0))
            d = d / (np.linalg.norm(d) or 1.0)
            # (the true arrow, clipped where it leaves the lens: not a cut-down stub, so it
            # is the same picture at every magnification of a zoom about its tip; reviews 33)
            lo, hi = lens.get_corner(DOWN + LEFT) + 0.03, lens.get_corner(UP + RIGHT) - 0.03
            reach = [((lo[i] if -d[i] < 0 else hi[i]) - at[i]) / -d[i]
                     for i in range(2) if abs(d[i]) > 1e-6]
            n = min([r for r in reach if r > 0] or [1.3])
            n = min(n, float(np.linalg.norm(at - m((0.0, 0.0)))))
            return Arrow(at - d * n, at, buff=0, color=T.X, stroke_width=5, tip_length=0.2,
                         max_tip_length_to_length_ratio=0.5)

        here = VGroup(tip(a, x0), math(T.X_l(l), HEADER, T.X))
        there = VGroup(tip(b, x1), math(T.X_l(l + 1), HEADER, T.X))
        u = (b - a) / (np.linalg.norm(b - a) or 1.0)
        # X^(l)'s name where nothing meets X^(l)'s tip: not along Δ^(l) leaving it, nor along
        # X's arrow coming in. (No faint copy of last layer's Δ: drawn beside this one it was
        # not where the plan's Δ^(l-1) lies, and where it lies, ending at X^(l), it hid under
        # X's arrowheads; the lengths under the plane, one scale, compare the steps.)
        # (and, after layer 0, not into the lens's lower left: the scale and its note are there)
        note_side = [DOWN + LEFT, DOWN] if l > 0 else []
        sides = [np.array([np.cos(i * np.pi / 4), np.sin(i * np.pi / 4), 0.0]) for i in range(8)]

        def away(*busy):            # the side furthest, in angle, from every busy direction
            busy = [v / (np.linalg.norm(v) or 1.0) for v in busy]
            return max(sides, key=lambda w: min(float(np.arccos(np.clip(w @ v, -1, 1)))
                                                for v in busy))

        # X's path so far, faint (after layer 0): the earlier steps Δ^(0) ... Δ^(l-1) tip to
        # tail into X^(l), where they are inside the lens; each earlier X named, faint, on the
        # side of its point where nothing else is
        inner_lo = lens.get_corner(DOWN + LEFT) + 0.25
        inner_hi = lens.get_corner(UP + RIGHT) - 0.25

        def inside(p):
            return bool(np.all((inner_lo[:2] <= p[:2]) & (p[:2] <= inner_hi[:2])))

        trail, trail_names, came = VGroup(), [], []
        for i in range(l):
            li = self.data["layers"][i]
            p, q = m(li["x_in"]), m(li["x_out"])
            if not (inside(p) and inside(q)):
                continue
            n_ = float(np.linalg.norm(q - p))
            trail.add(Arrow(p, q, buff=0, color=DELTA, stroke_width=4,
                            tip_length=min(0.16, 0.45 * n_),
                            max_tip_length_to_length_ratio=0.5).set_opacity(0.55))
            if i == l - 1:
                came.append(p - q)          # (Δ^(l-1) arrives at X^(l) from there)
        here[1].next_to(a, away(u, -(a - tip(a, x0).get_start()), *came, *note_side),
                        buff=0.15)
        for i in range(l):
            li = self.data["layers"][i]
            p = m(li["x_in"])
            if not any(np.allclose(s_.get_start(), p) for s_ in trail):
                continue
            nm = math(T.X_l(i), HEADER, T.X).set_opacity(GHOST_LABEL)
            q = m(li["x_out"])
            busy = [q - p] + ([m(self.data["layers"][i - 1]["x_in"]) - p] if i else [])
            taken = [here[0], here[1], *trail_names]

            def hits(side):
                nm.next_to(p, side, buff=0.12)
                return sum(overlaps(nm, o, pad=0.04) for o in taken) \
                    + (0 if inside(nm.get_center()) else 5)
            first_side = away(*busy)
            best = min([first_side, *sides], key=hits)
            nm.next_to(p, best, buff=0.12)
            if hits(best) == 0:
                trail_names.append(nm)
            nm.next_to(p, best, buff=0.12)
        trail.add(*trail_names)
        step = Arrow(a, b, buff=0, color=DELTA, stroke_width=6, tip_length=0.22)
        normal = np.array([-u[1], u[0], 0.0])
        if l > 0 and normal[1] < 0:     # Δ's name on the upper side, clear of the scale's note
            normal = -normal
        name = math(T.X_l(l, "Δ"), HEADER, DELTA)
        length = self.length_label(src, MATH_LABEL)
        # what |Δ| is, said in words in the lens's readout (beside the table's first value it
        # sat where the V row slides by)
        # (the word beside the name, not inside it: a sibling, so neither lies on the other)
        word = txt("length", T.TYPE.body, DELTA).next_to(length[0], LEFT, buff=0.15)
        length = VGroup(VGroup(word, length[0]), length[1])
        digits = max(0, -int(np.floor(np.log10(z["bar"]))))
        bar_len = z["bar"] * plane.units * k
        bar = Line(ORIGIN, RIGHT * bar_len, color=T.TEXT, stroke_width=6)
        bar_text = Num(float(src.zoom.bar), src.zoom.bar.path, digits, T.TYPE.body, T.TEXT)
        # the bar, then "= 0.05" beside it (a word over a short bar read as underlined)
        bar_text = VGroup(txt("=", T.TYPE.body, T.TEXT), bar_text) \
            .arrange(RIGHT, buff=0.12, aligned_edge=DOWN)
        scale = VGroup(bar, bar_text.next_to(bar, RIGHT, buff=0.15))
        # the first zoomed-out close-up (layer 1): its bar starts as layer 0's, seen from
        # further out (as many times shorter as the zoom), and grows back to its length,
        # meaning that many times more, as the zoom is said
        zoom_out = int(self.data["fresh"].get("zoom_out", 1))
        shown_scale = scale
        if l == 1 and zoom_out > 1:
            prev = self.v.layers[0].zoom.bar
            p_digits = max(0, -int(np.floor(np.log10(float(prev)))))
            # (it opens at layer 0's magnification: layer 0's bar, its full length, "= 0.05")
            old_bar = Line(ORIGIN, RIGHT * bar_len, color=T.TEXT, stroke_width=6)
            old_text = VGroup(txt("=", T.TYPE.body, T.TEXT),
                              Num(float(prev), prev.path, p_digits, T.TYPE.body, T.TEXT)) \
                .arrange(RIGHT, buff=0.12, aligned_edge=DOWN)
            shown_scale = VGroup(old_bar, old_text.next_to(old_bar, RIGHT, buff=0.15))
        # (after layer 0 no note on the changed magnification: the bar says its own length,
        # and the lengths under the plane, on one scale, compare the steps)
        # the readout in the lens's top right corner (clear of the scale's lines)
        length.next_to(lens.get_corner(UP + RIGHT), DOWN + LEFT, buff=0.25)
        scale.next_to(lens.get_corner(DOWN + LEFT), UP + RIGHT, buff=0.25)
        if shown_scale is not scale:
            shown_scale[0].move_to(bar, aligned_edge=LEFT)
            shown_scale[1].next_to(shown_scale[0], RIGHT, buff=0.15).align_to(bar_text, DOWN)
        # layer 0: V^(0) itself, faint, from X^(0)'s tip along Δ (Δ is its first tenth), on
        # to the lens's edge (under the readout): the vector whose tenth is the step is seen
        vline = None
        if False:       # (round 32: V^(0) ran off the lens, its name clipped: left out)
            lo = lens.get_corner(DOWN + LEFT) + 0.15
            hi = lens.get_corner(UP + RIGHT) - 0.15
            hi[1] = min(hi[1], length.get_bottom()[1] - 0.15)
            reach = min(((hi[i] if u[i] > 0 else lo[i]) - a[i]) / u[i]
                        for i in range(2) if abs(u[i]) > 1e-6)
            if reach > 1.4 * float(np.linalg.norm(b - a)):
                vline = Line(a, a + u * reach, color=T.V, stroke_width=4).set_opacity(0.45)
                vname = math(T.X_l(0, "V"), HEADER, T.V).set_opacity(GHOST_LABEL)
                # (by the line's far end, on the side clear of X's arrows and the readout)
                for at_, side in ((1.0, -normal), (1.0, normal), (0.8, -normal), (0.8, normal)):
                    vname.move_to(a + u * reach * at_
                                  + side * (0.15 + 0.5 * max(vname.width, vname.height)))
                    if not any(overlaps(vname, o, pad=0.06) for o in
                               (here[0], here[1], there[0], length, scale, vline)):
                        break
                trail.add(vline, vname)
                trail_names.append(vname)
        # Δ's name beside the step's middle, on the first side where it meets neither X's arrow
        # nor the scale (the upper side if neither is clear)
        def beside_step(side):
            return name.move_to((a + b) / 2 + side * (0.25 + 0.5 * max(name.width, name.height)))

        clear = [s for s in (normal, -normal)
                 if not any(overlaps(beside_step(s), o, pad=0.05)
                            for o in (here[0], here[1], scale, length, *trail_names))]
        # (of the clear sides, the one further from X^(l)'s arrow: the name reads as Δ's,
        # not as the X shaft's next to it)
        far = max(clear or [normal], key=lambda s_: float(np.linalg.norm(
            beside_step(s_).get_center() - here[0].get_center())))
        beside_step(far)
        # X^(l+1)'s name clear of Δ's, X^(l)'s and the scale's: the first side of its tip,
        # from the step's own direction round, where it meets none of them (layer 2's step
        # points down, and its name sat on Δ^(2)'s)
        others = (name, here[1], scale, length, here[0], there[0], *trail_names,
                  *([vline] if vline is not None else []))

        def met(side):              # how many of the others the name meets on that side
            there[1].next_to(b, side, buff=0.15)
            return sum(overlaps(there[1], o, pad=0.05 if o is not name else 0.2)
                       for o in others)

        order = [u, *sorted(sides, key=lambda w: -float(w @ u))]
        there[1].next_to(b, min(order, key=met), buff=0.15)    # (ties: the first in order)
        # the lens grows out of the square with X's tip and the scale already in it (a zoom:
        # never an empty box), the square's contents seen larger
        zoom_in = shown_scale is not scale
        # a faint grid in the lens, one line every layer 0's bar (data units), anchored at
        # X^(l)'s tip: a zoom out is seen as the grid closing up, not only as the bar
        unit = float(self.data["layers"][0]["zoom"]["bar"]) * plane.units * k
        grid = self.lens_grid(lens, a, unit * (zoom_out if zoom_in else 1))
        # (zoomed in at first, layer 0's magnification: the earlier steps come after the zoom)
        # (only the drawing grows: the names and the scale's number come in once the lens is
        # open, at their size; text growing with the lens was a few pixels high on its way)
        names = [here[1], shown_scale[1]] + ([] if zoom_in else list(trail_names))
        full = VGroup(lens, grid, here[0], shown_scale[0]) if zoom_in else \
            VGroup(lens, grid, *[m for m in trail if all(m is not t for t in trail_names)],
                   here[0], shown_scale[0])
        small = full.copy().scale(shrink, about_point=lens.get_center()) \
            .shift(c - lens.get_center())
        self.play(ReplacementTransform(small, full), run_time=f * self.quick(0.1, 0.8))
        pre = None
        if zoom_in:
            # at layer 0's magnification this Δ runs off the lens: it is drawn so, cut at the
            # lens's edge, with its length read out ("0.26 against 0.04"); the zoom out then
            # brings it whole into the lens (reviews 33: the number came before the arrow)
            lo_e, hi_e = lens.get_corner(DOWN + LEFT) + 0.03, lens.get_corner(UP + RIGHT) - 0.03
            edge = min([((hi_e[i] if u[i] > 0 else lo_e[i]) - a[i]) / u[i]
                        for i in range(2) if abs(u[i]) > 1e-6] or [9.0])
            full_len = float(np.linalg.norm(b - a))

            def cut(sc):
                return a + u * max(1e-3, min(full_len * sc, edge))
            pre = Line(a, cut(zoom_out), color=DELTA, stroke_width=6)
            self.play(FadeInPlace(VGroup(*names)), Create(pre), FadeInPlace(length),
                      run_time=self.quick(0.05, 0.6))
        else:
            self.play(FadeInPlace(VGroup(*names)), run_time=f * self.quick(0.05, 0.3))
        bar_said = self.cue_with("white bar", -1) if l == 0 else -1
        if bar_said >= 0:
            # "the white bar meaning 0.05": the scale bar, outlined as it is said, before Δ
            # (reviews 34: its number went unexplained for a layer)
            self.hold_until(self.phrase_time(bar_said, "white bar") - 0.1)
            self.emphasize(shown_scale, run_time=1.0)
            self.hold_until(self.phrase_time(bar_said, "delta") - 0.3)
        if zoom_in:
            pass
        else:
            # (layer 0: Δ's length comes with Δ, as "delta, 0.04 long" is said)
            self.play(GrowArrow(step), FollowIn(name, step, at=0.5),
                      *([FadeInPlace(length)] if l == 0 else []),
                      run_time=f * self.quick(0.1, 1.0))
            if l > 0:
                self.play(FadeInPlace(length), run_time=f * self.quick(0.05, 0.4))
        ghost = VGroup()
        if l == 0:
            # (its length joins the table under the plane as the lens closes: lens_close)
            pass
        else:
            # its length, spoken "against" layer 0's: the two outlined with the readout
            # (layer 2, voiced: its length is not compared aloud; no outline)
            if l < 2 or not self.beat.get("cues"):
                self.emphasize(length, *self.stage.lengths[-2 if l == 1 else -1:],
                               run_time=max(0.6, f * 0.8))
            ghost.add(length)
            zoomed = self.cue_with("zoomed out", -1) if shown_scale is not scale else -1
            if zoom_in:
                # "zoomed out 4 times": as it is said, the view zooms out: layer 0's bar
                # shrinks (still "= 0.05", its number riding on its end); then "the same bar
                # now means 0.2": the bar grows back, its number changing as it is said; only
                # then is Δ drawn, tip to tail, whole inside the lens
                if zoomed >= 0:
                    self.hold_until(self.phrase_time(zoomed, "zoomed out") - 0.1)
                old_bar, old_text = shown_scale
                b0 = old_bar.get_start()

                def zoom(mob, alpha):
                    sc = zoom_out ** (1.0 - alpha)          # a steady zoom: zoom_out -> 1
                    old_bar.put_start_and_end_on(b0, b0 + RIGHT * bar_len * sc / zoom_out)
                    old_text.set_x(old_bar.get_right()[0] + 0.15 + old_text.width / 2)
                    grid.become(self.lens_grid(lens, a, unit * sc))
                    pre.put_start_and_end_on(a, cut(sc))
                self.play(UpdateFromAlphaFunc(VGroup(old_bar, old_text, grid, pre), zoom),
                          run_time=1.6, rate_func=smooth)
                if zoomed >= 0:
                    self.hold_until(self.phrase_time(zoomed, "scale bar") - 0.1)
                # (its old number goes first: a long bar never reads "= 0.05"; the new one
                # comes as the bar reaches its length, as "now means 0.2" is said)
                self.play(FadeOutPlace(old_text), run_time=0.3)
                self.play(old_bar.animate.put_start_and_end_on(bar.get_start(), bar.get_end()),
                          run_time=0.8)
                self.remove(old_bar)
                self.add(bar)
                if zoomed >= 0:
                    self.hold_until(self.phrase_time(zoomed, "now means") - 0.3)
                self.play(FadeInPlace(bar_text), run_time=0.4)
                # now Δ, whole in the lens, tip to tail from X^(l)'s tip (and the earlier
                # steps, faint)
                self.play(ReplacementTransform(pre, step), FadeInPlace(name),
                          *([FadeInPlace(trail)] if len(trail) else []), run_time=0.8)
            # "the close-up keeps layer one's magnification": said while the lens is open,
            # its scale bar outlined as it is said
            keeps = self.cue_with("close-up keeps", -1)
            if keeps >= 0:
                self.hold_until(self.phrase_time(keeps, "close-up keeps") - 0.2)
                self.emphasize(scale, run_time=1.0)
            # "faint in it, the earlier steps": X's path, outlined as it is said
            path = self.cue_with("earlier steps", -1)
            if path >= 0 and len(trail):
                self.hold_until(self.phrase_time(path, "earlier steps") - 0.2)
                # (the faint path brightens and fades back: a box round it ran through
                # X's labels)
                self.play(trail.animate(rate_func=there_and_back).set_opacity(1.0),
                          run_time=1.6)
        ghost.add(trail)
        self._lens = dict(f=f, spot=spot, lens=lens, here=here, there=there, step=step,
                          hidden=hidden,
                          name=name, scale=scale, ghost=ghost, c=c, shrink=shrink, length=length,
                          trail=trail, trail_names=trail_names, extra=[grid])

    def lens_grid(self, lens, anchor, step: float) -> VGroup:
        """Faint grid lines `step` apart through `anchor`, inside `lens`."""
        lo = lens.get_corner(DOWN + LEFT) + 0.05
        hi = lens.get_corner(UP + RIGHT) - 0.05
        lines = VGroup()
        step = max(step, 0.12)
        for ax in (0, 1):
            i0 = int(np.ceil((lo[ax] - anchor[ax]) / step))
            i1 = int(np.floor((hi[ax] - anchor[ax]) / step))
            for i in range(i0, i1 + 1):
                v = anchor[ax] + i * step
                if ax == 0:
                    lines.add(Line([v, lo[1], 0.0], [v, hi[1], 0.0]))
                else:
                    lines.add(Line([lo[0], v, 0.0], [hi[0], v, 0.0]))
        lines.set_stroke(T.MUTED, width=1.2, opacity=0.3)
        return lines

    def lens_slide(self) -> None:
        """"Added tip to tail": in the open lens X's arrow (its last stretch) slides along Δ
        from X^(l)'s tip to X^(l+1)'s: the same arrow moving, not a second one fading in;
        where it was stays, faint."""
        z = self._lens
        here, there, f = z["here"], z["there"], z["f"]
        moving = here[0].copy()
        self.add(moving)
        self.play(ReplacementTransform(moving, there[0]), DimPlace(here, GHOST + 0.1),
                  run_time=max(0.6, f * self.quick(0.1, 1.0)))
        self.play(FadeInPlace(there[1]), run_time=f * self.quick(0.05, 0.4))

    def lens_close(self, after=None, x_name=None) -> None:
        """The lens shrinks back into its square with all it shows (a zoom out), and the
        square goes; its X^(l+1) name moves, at its size, to X's new name's place on the
        plane (X^(l)'s plane name, hidden under the lens, is gone: the two never meet); the
        readout's name leaves with the lens, its number flies to its bar in the table under
        the plane; then `after` (X's arrow moving on)."""
        z = self._lens
        f, spot, lens = z["f"], z["spot"], z["lens"]
        # the names and the scale's number go first, at their size; then only the drawing
        # shrinks back (text shrinking with it was a few pixels high on its way)
        names = [z["here"][1], z["name"], z["scale"][1], *z["trail_names"]]
        there = z["there"][1]
        if x_name is None:
            names.append(there)
        drawn = [m for m in z["trail"] if all(m is not t for t in z["trail_names"])]
        inside = VGroup(lens, z["here"][0], z["there"][0], z["step"], z["scale"][0], *drawn,
                        *z.get("extra", []))
        length = z["length"]
        _, src = self.lay()
        entry = self.length_entry(src)
        c0 = length[1]
        a0, b0 = c0.get_center(), entry[1].get_center()
        # (over the plane's names too: V^(1)'s stands near its top)
        top = max([self.plane.get_top()[1]] + [m.get_top()[1] for m in self.plane_labels()]) \
            + 0.1 + c0.height / 2
        # (over the plane's top and down its left side: it crosses no arrow or name; to a
        # later layer's slot along the lane under the table's values: over no other entry)
        side_x = min(self.plane.get_left()[0] - 0.45, entry[0].get_left()[0] - 0.35)
        path = [a0, [a0[0], top, 0.0], [side_x, top, 0.0]]
        if self.stage.lengths is not None and len(self.stage.lengths):
            low = min(m.get_bottom()[1] for m in self.stage.lengths) - 0.06 - c0.height / 2
            path += [[side_x, low, 0.0], [b0[0], low, 0.0], b0]
        else:
            path += [[side_x, b0[1], 0.0], b0]
        old = self.stage.x_arrow[1] if x_name is not None else None
        if old is not None:
            # (under the opaque lens: it goes unseen, and X^(l+1)'s name takes its place)
            self.stage.x_arrow.remove(old)
            self.remove(old)
        # the readout's name leaves with the other names; its number flies out of the lens
        # (the lens's drawing shrinking meanwhile) to the step's bar, at reading size
        self.play(*[FadeOutPlace(m) for m in names + [length[0]]],
                  run_time=self.quick(0.05, 0.3 if self.layer == 0 else 0.2))
        self.add(inside, c0, *([there] if x_name is not None else []))
        moves = [inside.animate.scale(z["shrink"], about_point=lens.get_center())
                 .shift(z["c"] - lens.get_center())]
        if x_name is not None:
            moves.append(glide(there, [there.get_center(), x_name.get_center()],
                               scale=x_name.height / there.height))
        # (first the lens shrinks, the length's number waiting in its place; then, the lens
        # gone, the number flies to its bar: it never passes over the shrinking lens or what
        # the lens uncovers while it moves)
        voiced = bool(self.beat.get("cues"))
        late = self.layer >= 2 and voiced    # (layer 2: its bar in place by "the longest bar")
        self.play(*moves, run_time=self.quick(0.1, 0.6 if self.layer == 0 else
                                              0.4 if late else 0.5 if voiced else 0.3))
        self.remove(inside)
        self.play(glide(c0, path, scale=entry[1].height / c0.height),
                  FadeInPlace(VGroup(entry[0], entry[2]), rate_func=lambda t: smooth(
                      max(0.0, t - 0.8) / 0.2)),
                  run_time=self.quick(0.1, 0.9 if self.layer == 0 else 0.6 if late else
                                      0.7 if voiced else 0.45))
        self.remove(c0)
        if x_name is not None:
            self.remove(there)
            self.stage.x_arrow.add(x_name)
            self.add(self.stage.x_arrow)
        self.stage.lengths.add(entry)
        self.add(self.stage.lengths)
        if self.layer == 0 and self.cue_with("row of bars", -1) >= 0:
            # ("its length starts a row of bars under the plane": the bar, as it lands)
            self.emphasize(entry, run_time=0.9)
        back = [mob.animate.set_opacity(o) for mob, o in z.get("hidden", [])]
        if after is not None:
            after(FadeOutPlace(spot), *back)
        else:
            self.play(FadeOutPlace(spot), *back, run_time=self.quick(0.05, 0.3))
        self._lens = None

    def length_entry(self, src: Layer) -> VGroup:
        """Layer l's column of the table of step lengths under the plane: |Δ^(l)| over its
        value, in a slot fixed by l (the table ends at the plane's right edge)."""
        n = len(self.data["layers"])
        l = int(src.layer)
        name = math(f"lr(|{T.X_l(l, 'Δ')}|)", MATH_LABEL, DELTA)
        value = Num(float(src.step_len), src.step_len.path, 2, MATH_LABEL * 0.85, DELTA)
        # the length as a bar beside it too, on one scale for every layer (the longest: 0.6),
        # over a faint track as long as the longest, from a zero tick: a short bar is read
        # against its axis, not as a speck
        longest = max(lay["step_len"] for lay in self.data["layers"])
        full = 0.8          # (layer 0's 0.04 bar some 8 px, not a speck by the zero tick)
        line = Line(ORIGIN, RIGHT * max(0.06, full * float(src.step_len) / longest),
                    color=DELTA, stroke_width=18)
        track = Line(ORIGIN, RIGHT * full, color=T.MUTED, stroke_width=2, stroke_opacity=0.7)
        tick = Line(UP * 0.14, DOWN * 0.14, color=T.MUTED, stroke_width=2.5)
        bar = VGroup(track, tick, line)
        col = VGroup(name, value).arrange(DOWN, buff=0.1)
        slot = 2.0          # room for a value and its bar (the word "length" then stays clear
                            # of the code panel's lowest rows)
        x = self.plane.get_right()[0] - (n - 1 - l + 0.5) * slot
        col.next_to(self.plane, DOWN, buff=0.12)     # clear of the lens's border too
        col.set_x(x)
        # (the value left of the slot's middle, its bar right of it: clear of the next slot)
        value.set_x(x - 0.5)
        line.next_to(value, RIGHT, buff=0.12)
        track.move_to(line, aligned_edge=LEFT)
        tick.move_to(line.get_left())
        return VGroup(name, value, bar)

    def length_label(self, src: Layer, size: float) -> VGroup:
        """|Δ^(l)| = its length, in Δ's colour."""
        name = math(f"lr(|{T.X_l(int(src.layer), 'Δ')}|) =", size, DELTA)
        value = Num(float(src.step_len), src.step_len.path, 2, size * 0.85, DELTA)
        return VGroup(name, value).arrange(RIGHT, buff=0.1)

    def beat_table(self, beat) -> None:
        """X^(l), Q, K, V and X^(l+1) of every layer side by side (a column per layer), on a
        cleared stage (the code and the plane step away). Then the misconception acted out:
        layer 0's Q, K, V copied into the other columns ("computed once and reused") do not
        match what is there, and go back. Last, what carries over: each column's X^(l+1)
        travels along an arrow into the next column's X^(l)."""
        layers = self.data["layers"]
        n = len(layers)
        # the last layer's readouts on screen (X^(l), V^(l), X^(l+1)) move into its column
        last = {}
        if "x" in self.shown:
            last["x_in"] = self.shown["x"][1]
        if "upd" in self.shown:
            last["x_out"] = self.shown["upd"][1][1]
        rest = []           # the rows' names and the step's other numbers: they go (V too:
        if "x" in self.shown:   # the later columns' Q, K, V come in after the hypothetical)
            rest.append(self.shown.pop("x")[0])
        if "upd" in self.shown:
            step_row, sum_row = self.shown.pop("upd")
            # (V's numbers, in the step's row, move into the last column's V cell too)
            last["v"] = step_row[2]
            rest += [step_row[0], step_row[1], step_row[3], sum_row[0]]
        self.drop("cursor", "pass", "w", "q", "k", "v", "note", "layer")
        # the plane and all on it leave with the code (the note brings them back)
        self.stage.away_qkv = {f"p{c}": self.shown.pop(f"p{c}") for c in "qkv"
                               if f"p{c}" in self.shown}
        away = [self.plane] + [m for m in [self.stage.x_arrow] if m is not None] \
            + list(self.stage.away_qkv.values()) + list(self.stage.ghosts) \
            + list(self.stage.trail) \
            + [m for m in [self.stage.legend] if m is not None] \
            + ([self.stage.lengths] if len(self.stage.lengths) else [])
        self.stage.away = away
        out = [self.code] if self.code in self.mobjects else []
        self.play(*[FadeOutPlace(m) for m in out + away + rest], run_time=self.quick(0.05, 0.6))
        keys = [("x_in", T.X_l("l"), T.X), ("q", T.X_l("l", "Q"), T.Q),
                ("k", T.X_l("l", "K"), T.K), ("v", T.X_l("l", "V"), T.V),
                ("x_out", T.X_l("l+1"), T.X)]
        cells = [[grid_of(getattr(self.v.layers[i], k), c) for i in range(n)]
                 for k, _, c in keys]
        heads = [math(f"\"layer {i}\"", MATH_LABEL, T.MUTED) for i in range(n)]
        names = [math(name, MATH_LABEL, c) for _, name, c in keys]
        grid = VGroup(names[0].copy().set_opacity(0), *heads,
                      *[m for nm, row in zip(names, cells) for m in [nm, *row]])
        # wide gaps between the columns: the carry arrows run through them
        grid.arrange_in_grid(rows=len(keys) + 1, cols=n + 1, buff=(0.9, 0.1))
        room = self.HOME_WIDTH - 2 * T.EDGE
        # (larger than the rows' own size where the frame has room: the table is the stage;
        # the legend goes under it)
        # (and low enough that the lanes for the hypothetical's grey copies under the Q, K,
        # V and X^(l+1) rows, and the legend under them, stay over the caption)
        low = -config.frame_height / 2 + 1.2
        tall = self.title.get_bottom()[1] - T.GAP - low - 0.55
        # (a lane under every row, for the hypothetical's grey copies: a cell's height and
        # 0.1 more, so a copy's brackets stand clear of the real row's)
        # (lanes only under the two X rows, for the grey X's: room round them, so a grey
        # row is not squeezed between two real ones; Q, K, V's copies slide along their
        # own rows into the emptied cells)
        cell_h = max(c.height for row in cells for c in row)
        # (one extra row under the table: the hypothetical X^(l+1), grey, at full size)
        big = min(1.3, room / grid.width, tall / (grid.height + cell_h + 0.7))
        grid.scale(big)
        grid.next_to(self.title, DOWN, buff=T.GAP).set_x(0)
        rows = [VGroup(nm, *row) for nm, row in zip(names, cells)]
        GAP = 0.0
        # the heads come in as the last layer's numbers move into their column (same numbers)
        keyed = [k for k, _, _ in keys]
        moved = {keyed.index(k): m for k, m in last.items()}
        # (V's numbers, in the row under the new X's, go second: their cell is above the new
        # X's, and moving together the two crossed on the way)
        first_half = lambda t: smooth(min(1.0, t / 0.55))          # noqa: E731
        second_half = lambda t: smooth(max(0.0, t - 0.45) / 0.55)  # noqa: E731
        self.play(FadeInPlace(VGroup(*heads)),
                  *[ReplacementTransform(m, cells[i][n - 1],
                                         rate_func=second_half if keyed[i] == "v" else first_half)
                    for i, m in moved.items()],
                  run_time=self.quick(0.05, 1.0))
        # the real table first, row by row (every value in its own cell: nothing hypothetical
        # yet, so no grey value is read as a real one)
        dims = [cell for row in cells[1:4] for cell in row[1:]]
        # (the sentences: "Every column differs: ..." (its first, or second after a "One column
        # per layer."), "If Q, K and V were computed once ...", "Only X carries over ...")
        d = self.cue_with("Every column", 1) - 1 if self.beat.get("cues") else 0
        # ("Side by side, layer by layer: every column differs. Each layer ...": the rows
        # come in while "side by side" is said, and at "every column differs" each column's
        # Q, K and V are outlined, a box a column: what is said is boxed (reviews 35: the rows
        # were)
        said = self.cue_with("every column", -1)
        built = self.phrase_time(said, "every column") - 0.1 if said >= 0 else None
        for i, r in enumerate(rows):
            new = VGroup(*[m for m in r if m is not cells[i][n - 1] or i not in moved])
            self.play(FadeInPlace(new), run_time=0.5 if d < 0 and built is None else
                      self.pace(built if built is not None else self.cue_at(1 + d),
                                len(rows), 0.5, 0.8))
        if said >= 0:
            self.hold_until(built)
            self.emphasize(*[VGroup(*[cells[r][i] for r in (1, 2, 3)]) for i in range(n)],
                           run_time=1.4, buff=0.03)
            d = self.cue_with("Each layer", said + 1) - 1
        self.hold_until_cue(1 + d)
        # "every column differs: each layer multiplies the current X by its own matrices":
        # each column's X^(l) with the Q, K, V made from it, column by column, as it is said
        for i in range(n):
            self.emphasize(VGroup(*[row[i] for row in cells[0:4]]),
                           run_time=self.pace(self.cue_at(2 + d), n, 0.6, 1.0))
        self.hold_until_cue(2 + d)
        # then the misconception, tagged as a hypothetical, in its own sub-rows: under each
        # real row, grey and dimmer than it, labelled "if reused" (the real values stay as
        # they are: what reuse would give is seen beside what the layers did). Layer 0's Q,
        # K, V slide down out of their cells into the lane under their row and along it into
        # the later columns (the farthest first: a copy only ever passes empty lane)
        pitch = cells[1][0].get_y() - cells[2][0].get_y()        # row to row
        def sub_at(r, j):
            return cells[r][j].get_center() + DOWN * (pitch + 0.1)

        def hypo_tag(r):
            # (under X^(l+1)'s own name: "if reused" alone, clear of layer 0's "same")
            tag = VGroup(txt("if reused", T.TYPE.body, HYPO))
            tag.scale(big).fade(1 - HYPO_OPACITY)
            tag.set_y(sub_at(r, 0)[1]).align_to(names[0], LEFT)
            return tag
        copies = []
        reuse = self.data["fresh"].get("reuse") or {}
        x_hyp = []
        for key, r in (("x_out", 4),):
            for j, f in enumerate(reuse.get(f"{key}_differs", [])):
                if f and j < n:
                    g = grid_of(getattr(self.v.fresh.reuse, key)[j], HYPO)
                    g.scale(big).move_to(sub_at(r, j))
                    g.fade(1 - HYPO_OPACITY)
                    x_hyp.append((r, g))
        tags = {r: hypo_tag(r) for r, _ in x_hyp}
        # (one label for the grey row, its tag: a legend under it said the same again; where
        # reuse changes nothing (layer 0 reads its own Q, K, V) the cell says "same", not
        # blank; reviews 34)
        hypo = VGroup()
        if x_hyp:
            r4 = x_hyp[0][0]
            for j, f in enumerate(reuse.get("x_out_differs", [])):
                if not f and j < n:
                    same = txt("same", T.TYPE.body, HYPO).scale(big).move_to(sub_at(r4, j))
                    same.fade(1 - HYPO_OPACITY)
                    hypo.add(same)
        zero = self.cue_with("layer zero's Q", -1)
        if zero >= 0 and n:
            # "had layer zero's Q, K and V been reused": those three, as it is said
            self.hold_until(self.phrase_time(zero, "layer zero's Q") - 0.1)
            self.emphasize(VGroup(*[cells[r][0] for r in (1, 2, 3)]), run_time=1.2)
        if x_hyp:
            said = self.cue_with("X would end up", -1)
            if said >= 0:
                self.hold_until(self.phrase_time(said, "X would end up") - 0.1)
            # the grey X's in the row under the real X^(l+1) row, then each beside its real
            # one (the columns where reuse would change X)
            self.play(FadeInPlace(hypo), *[FadeInPlace(tags[r]) for r in tags],
                      *[FadeInPlace(g) for _, g in x_hyp], run_time=self.quick(0.1, 0.6))
            js = [j for j, f in enumerate(reuse.get("x_out_differs", [])) if f and j < n]
            self.emphasize(*[VGroup(g, cells[4][j]) for (_, g), j in zip(x_hyp, js)],
                           run_time=1.2)
        carry = self.cue_with("carries over", 7)
        self.hold_until_cue(carry)
        # the hypothetical goes (copies, grey X's, tags, legend); the real table closes up
        ghosts = VGroup(*[c for _, _, c in copies], *[g for _, g in x_hyp], *tags.values(),
                        hypo)
        self.play(FadeOutPlace(ghosts), run_time=self.quick(0.05, 0.4))
        # (and the closed-up table moves down to the stage's middle: no empty lower half)
        table = VGroup(VGroup(*heads), *rows)
        top = table.get_top()[1]
        bottom = rows[-1].get_bottom()[1] + GAP * (len(rows) - 2)
        low = -config.frame_height / 2 + 1.2      # (over the caption)
        down = max(0.0, (top + bottom) / 2 - (self.title.get_bottom()[1] + low) / 2)
        self.play(*[rows[i].animate.shift(UP * GAP * max(0, i - 1) + DOWN * down)
                    for i in range(1, len(rows))],
                  *[m.animate.shift(DOWN * down) for m in (VGroup(*heads), rows[0])],
                  run_time=self.quick(0.05, 0.6))
        # (the closed-up table, alone on the stage now, grows to the frame's width)
        wide = min(1.3, (self.HOME_WIDTH - 2 * T.EDGE) / table.width)
        self.play(table.animate.scale(wide).set_x(0), run_time=self.quick(0.05, 0.6))
        self.set_slot("table", table)
        self.stage.table_all = table
        self.table_rows = rows
        # "only X carries over, into the next column": an arrow from each column's X^(l+1)
        # (bottom) up through the gap to the next column's X^(l) (top); then the two ends of
        # each arrow, the same numbers, are outlined together
        arrows = []
        for i in range(n - 1):
            # (ends well inside the gap: the arrow passes the next column's brackets clear)
            right = max(row[i].get_right()[0] for row in cells) + 0.1
            left = min(row[i + 1].get_left()[0] for row in cells) - 0.22
            start = np.array([right, cells[4][i].get_center()[1], 0.0])
            end = np.array([left, cells[0][i + 1].get_center()[1], 0.0])
            arrows.append(Arrow(start, end, buff=0, color=T.X, stroke_width=4,
                                tip_length=0.2))
        if arrows:
            self.play(*[GrowArrow(a) for a in arrows], run_time=self.quick(0.1, 0.9))
            self.set_slot("table", VGroup(VGroup(*heads), *rows, *arrows))
            self.stage.table_all = self.shown["table"]
            self.emphasize(*cells[4][:-1], *cells[0][1:])
            # and the next layer's Q comes from the X that arrived: X^(l) and Q^(l) of each
            # later column, together, while the sentence ends
            if self.beat.get("cues") and self.next_reveal() - self.time > 2.0:
                self.emphasize(*[VGroup(cells[0][i], cells[1][i]) for i in range(1, n)],
                               run_time=1.2)

    def phrase_time(self, k: int, phrase: str) -> float:
        """Scene time when `phrase` of cue k is spoken (its place in the sentence's text, as a
        share of the sentence's audio); the cue's start when the phrase is not in it (now,
        when silent)."""
        cues = self.beat.get("cues") or []
        if k >= len(cues):
            return max(self.time, self.cue_at(k)) if cues else self.time
        text = str(cues[k].get("text", ""))
        f = text.find(phrase) / max(1, len(text)) if phrase in text else 0.0
        return self.cue_at(k) + f * float(cues[k].get("duration", 0.0))

    def note_lines(self, text: str, color) -> VGroup:
        """A note for the table's right-hand column: body size, left-aligned lines."""
        w = wrapped(text, 17, T.TYPE.body, color, max_width=NOTES_W)
        for line in w[1:]:
            line.align_to(w[0], LEFT)
        return w

    def beat_note(self, beat) -> None:
        """The table stays, at its size (it moves up under the title): Q's and K's rows dim,
        "Q, K: unused here" under the table (the toy leaves attention out), then V → Δ = 0.1 V
        beside it; then what a real model does instead, in a note under them (attention and
        feed-forward sublayers add their outputs; Q and K steer attention), V's row and Q's
        and K's outlined as it is said."""
        self.drop("x", "upd", "w", "q", "k", "v", "rs", "pass", "cursor")
        rows = getattr(self, "table_rows", None)
        if rows is None or "table" not in self.shown:
            toy = self.note_lines("The toy leaves attention out: Q and K unused", T.TEXT)
            toy.next_to(self.title, DOWN, buff=T.GAP + 0.3).to_edge(LEFT, buff=T.EDGE)
            self.put("note", toy)
            return
        cues = self.beat.get("cues") or []
        first = VGroup()
        # (voiced without "Q and K sit unused", which the table's "only V moves X" has said:
        # the real layer comes at once)
        if not cues or self.cue_with("unused", -1) >= 0:
            # (the table keeps its size: it moves up under the title, and the notes go in the
            # room under it, left-aligned with it: no small digits, no empty lower third)
            table = self.shown["table"]
            top = self.title.get_bottom()[1] - T.GAP
            self.play(table.animate.shift(UP * (top - table.get_top()[1])),
                      run_time=self.quick(0.05, 0.6))
            unused = txt("Q, K: unused here", T.TYPE.body, T.MUTED)
            used = math(f"{T.X_l('l', 'V')} → {T.X_l('l', 'Δ')} = 0.1 × {T.X_l('l', 'V')}",
                        MATH_LABEL, DELTA)
            first = VGroup(unused, used).arrange(RIGHT, buff=0.9, aligned_edge=DOWN)
            first.next_to(table, DOWN, buff=0.35).align_to(table, LEFT)
            # "so Q and K sit unused": their rows dim as it is said, the note under the table
            self.play(DimPlace(rows[1], 0.35), DimPlace(rows[2], 0.35), FadeInPlace(unused),
                      run_time=self.quick(0.1, 0.8))
            only = self.cue_with("only V", -1)
            if only >= 0:
                self.hold_until(self.phrase_time(only, "only V") - 0.1)
            self.play(FadeInPlace(used), run_time=self.quick(0.05, 0.5))
            self.emphasize(rows[3], used)
            self.set_slot("note", first)
        real = self.cue_with("a real layer", 1 if len(cues) > 1 else -1)
        if real >= 0:
            self.hold_until_cue(real)
        # "A real layer adds ...": the table and the toy's note leave (the voice has left
        # them); a real layer's update takes the stage, large, as the toy's own line was
        # written: two adds in sequence, the second reading X after the first (reviews 33)
        self.shown.pop("table", None)
        self.shown.pop("note", None)
        # (reviews 33: the code card was 13 s of still text; now a sketch of a real layer: X
        # flows along the stream; at each sublayer a copy branches off through a norm into
        # attention, then the feed-forward, whose output comes down into a "+" on the stream)
        head = txt("A real layer (most models), sketched:", T.TYPE.body * 1.2, T.TEXT)
        y0, up = 0.0, 1.25

        def box(word, color, small=None):
            t = txt(word, T.TYPE.body, color)
            r = Rectangle(width=t.width + 0.45, height=0.8, color=color, stroke_width=3)
            # (filled: X's dot passes behind the box's word, in and out; it ran over it)
            r.set_fill(T.BACKGROUND, opacity=1.0)
            g = VGroup(r, t.move_to(r))
            if small is not None:
                g.add(txt(small, T.TYPE.body * 0.9, T.TEXT).next_to(r, UP, buff=0.12))
            return g

        # each sublayer: its branch point, a norm, the sublayer, then down into its "+"
        # (boxes in sequence, each as wide as its word)
        x_in = math(T.X_l("l"), HEADER * 1.1, T.X).move_to([-6.4, y0, 0.0])
        x0_, gap = -5.8, 0.3
        branches = []
        for word, color, small in (("attention", T.ATTN, "Q, K steer it"),
                                   ("feed-forward", T.FFN, None)):
            nb = box("norm", T.LN)
            nb.shift(np.array([x0_ + gap + nb[0].width / 2, y0 + up, 0.0]) - nb[0].get_center())
            fb = box(word, color, small)
            fb.shift(np.array([nb[0].get_right()[0] + gap + fb[0].width / 2, y0 + up, 0.0])
                     - fb[0].get_center())
            xc = fb[0].get_right()[0] + 0.4
            wire = VGroup(Line([x0_, y0, 0.0], [x0_, y0 + up, 0.0]),
                          Line([x0_, y0 + up, 0.0], nb[0].get_left()),
                          Line(nb[0].get_right(), fb[0].get_left()),
                          Line(fb[0].get_right(), [xc, y0 + up, 0.0]))
            wire.set_stroke(T.MUTED, width=3)
            down = Arrow([xc, y0 + up, 0.0], [xc, y0 + 0.24, 0.0], buff=0, color=color,
                         stroke_width=4, tip_length=0.18, max_tip_length_to_length_ratio=0.4)
            branches.append((nb, fb, wire, down, color))
            x0_ = xc + 0.55
        xcs = [br[3].get_start()[0] for br in branches]
        x_out = math(T.X_l("l+1"), HEADER * 1.1, T.X)
        x_out.move_to([xcs[1] + 0.55 + x_out.width / 2, y0, 0.0])
        xa, xb = x_in.get_right()[0] + 0.15, x_out.get_left()[0] - 0.15
        adds = []
        for xc in xcs:
            ring = Circle(radius=0.24, color=T.TEXT, stroke_width=3).move_to([xc, y0, 0.0])
            adds.append(VGroup(ring, txt("+", T.TYPE.body * 1.2, T.TEXT).move_to(ring)))
        stream = VGroup(Line([xa, y0, 0.0], [xcs[0] - 0.24, y0, 0.0]),
                        Line([xcs[0] + 0.24, y0, 0.0], [xcs[1] - 0.24, y0, 0.0]),
                        Line([xcs[1] + 0.24, y0, 0.0], [xb, y0, 0.0]))
        stream.set_stroke(T.X, width=4)
        diagram = VGroup(x_in, x_out, stream, *adds,
                         *[VGroup(nb, fb, wire, down) for nb, fb, wire, down, _ in branches])
        block = VGroup(head, diagram).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
        # "The chapter's point, not measured in this toy: ...": the why, under the two adds,
        # labelled as the chapter's point, not as a finding of the toy
        why = VGroup(txt("The chapter's point (not measured in this toy):", T.TYPE.body * 1.2,
                         T.MUTED),
                     wrapped("a later X holds more context, so what the token asks for "
                             "(Q), advertises (K) and offers (V) changes", 52,
                             T.TYPE.body * 1.25, T.TEXT, max_width=12.0))
        for line in why[1]:
            line.align_to(why[1][0], LEFT)
        why.arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        # (the two, together, centred on the stage between the title and the caption)
        both = VGroup(block, why).arrange(DOWN, buff=0.7, aligned_edge=LEFT)
        low = -config.frame_height / 2 + 1.2    # (over the caption)
        both.move_to([0.0, (self.title.get_bottom()[1] - T.GAP + low) / 2, 0.0])
        # (the table slides down and away before the sketch comes: it dissolved into it;
        # reviews 34)
        gone_t = VGroup(self.table_rows_group(), first)
        self.play(gone_t.animate.shift(DOWN * 0.5).set_opacity(0), run_time=self.quick(0.05, 0.5))
        self.remove(gone_t)
        # "a real layer": the stream, X^(l) to X^(l+1), through two "+"s
        self.play(FadeInPlace(head), FadeInPlace(x_in), Create(stream), FadeInPlace(x_out),
                  *[FadeInPlace(a_) for a_ in adds], run_time=0.8)
        steer = self.cue_with("Q and K steer", -1)
        here = stream[0].get_start() + RIGHT * 0.1
        for i, ((nb, fb, wire, down, color), phrase) in enumerate(
                zip(branches, ("adds attention", "then a feed-forward"))):
            if steer >= 0:
                self.hold_until(self.phrase_time(steer, phrase) - 0.3)
            # the sublayer comes; then X flows: a copy branches up through the norm into it,
            # its output (the sublayer's colour) comes down into the "+", where X, carried
            # along the stream, meets it
            self.play(Create(wire), FadeInPlace(nb), FadeInPlace(fb), run_time=0.4)
            plus = adds[i].get_center()
            carried = Dot(here, radius=0.1, color=T.X)
            copy = carried.copy()
            meet = plus + LEFT * 0.36
            self.add(carried, copy)
            self.bring_to_front(nb, fb)
            self.play(glide(copy, [here, wire[0].get_start(), wire[0].get_end(),
                                   wire[3].get_end()], rate=linear, tint=(color, 1.0)),
                      glide(carried, [here, meet], t1=0.6), run_time=1.0)
            self.play(GrowArrow(down), FadeOutPlace(copy), run_time=0.3)
            self.play(glide(carried, [meet, plus], vanish=0.7), self.flash_add(adds[i]),
                      run_time=0.4)
            self.remove(carried)
            here = plus + RIGHT * 0.34
            if steer >= 0 and i == 0:
                self.hold_until(self.phrase_time(steer, "Q and K steer") - 0.1)
                self.emphasize(fb[2], run_time=0.9)
        # the new X leaves the second "+" into X^(l+1)
        end = Dot(here, radius=0.1, color=T.X)
        self.add(end)
        self.play(glide(end, [here, x_out.get_left() + LEFT * 0.2], vanish=0.75),
                  run_time=0.5)
        self.remove(end)
        if steer >= 0:
            self.hold_until(self.phrase_time(steer, "through a norm") - 0.1)
        self.emphasize(branches[0][0], branches[1][0], run_time=1.0)
        self.set_slot("note_real", block)
        why_at = self.cue_with("chapter's point", -1)
        if why_at >= 0:
            self.hold_until_cue(why_at)
        self.put("note_why", why, run_time=0.6)
        if why_at >= 0:
            # its label as it is said, then the why itself as "holds more context" is said
            self.emphasize(why[0], run_time=1.2)
            self.hold_until(self.phrase_time(why_at, "holds more context") - 0.2)
            self.emphasize(why[1], run_time=1.6)

    def flash_add(self, add):
        """A "+" where two things meet: it swells and settles."""
        return add.animate(rate_func=there_and_back).scale(1.35)

    def table_rows_group(self) -> VGroup:
        """The table on screen (its rows, heads and carry arrows), as one group."""
        return self.stage.table_all

    def code_word(self, line, text: str) -> VGroup:
        """The glyphs of `text` in the code Text `line` (a Text's glyphs skip its spaces)."""
        src = line.text.replace(" ", "")
        sub = text.replace(" ", "")
        i = src.index(sub)
        return VGroup(*line[i:i + len(sub)])
