"""'bank', layer by layer: one word in several sentences, and how far apart its vectors drift.

Sentence 0 is the reference; each other sentence k gives a curve cos(bank_0, bank_k) over the
layer states (0 = embedding ... L = output), coloured with that sentence's colour.

Beats (each optional, in storyboard order):
- `similarity`: first showing draws the raw cosines point by point, the angle each cosine
  stands for turning beside them; the next showing adds the anisotropy baseline (dashed, its
  definition beside the chart) and the baseline-adjusted curves (raw - baseline).
- `projection`: every vector in one shared PCA plane, each sentence's dot moving layer by
  layer and leaving a trail.
- `table`: the illustrative table of what tends to be readable at each depth (replaces the
  projection panel), captioned as an illustration, its early / middle / late mapped onto this
  model's layers (bands on the chart).
- `probe`: a linear probe's held-out accuracy per layer, part of speech and sense, with chance
  (scene_parts.ProbeBeat).
- `measured`: what this model's "bank" actually does, quoted from the plan, with the quoted
  points ringed on the plot.
"""

from __future__ import annotations

import textwrap

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Circle, Create, DashedLine, Dot, FadeIn,
                   FadeOut, GrowArrow, LaggedStart, Line, MoveAlongPath, NumberPlane, Rectangle,
                   SurroundingRectangle, VGroup, VMobject)

from scenes import theme as T
from scenes.animations import FadeInPlace
from scenes.base import StoryboardScene
from scenes.mobjects import (Num, TickAxes, highlighted, inline, swatch, text_table, txt, wrapped)
from .scene_parts import AnglePanel, ProbeBeat, baseline_definition

PLOT_WIDTH = 4.7
PLOT_HEIGHT = 2.3
NAME_WIDTH = 1.9                # the row-label column left of the plot's first layer
ROW_STEP = 0.33
PLANE_MAX = (5.2, 3.7)          # largest PCA plane (width, height); equal units on both axes
LEGEND_SIZE = 18
DOT = [0.12, 0.085, 0.05]       # dot radius per sentence: concentric where vectors coincide


class BankDriftScene(ProbeBeat, StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.states, self.curves = d["states"], d["curves"]
        self.colors = [T.CONTEXTS[i % len(T.CONTEXTS)] for i in range(len(d["contexts"]))]
        self.sim_stage = 0
        self.angles = None          # the angle panel beside the raw cosines
        self.legend = self.make_legend().next_to(self.title, DOWN, buff=T.BUFF)
        self.add(self.legend)
        self.plot = self.make_plot()
        self.add(self.plot)
        self.rows = VGroup()        # number rows under the plot, one per drawn curve
        self.dots: dict[str, VGroup] = {}   # the dots of each drawn curve, by its plan path
        self.right = None           # the right-hand panel: projection, then table

    # --- pieces -------------------------------------------------------------------------
    def make_legend(self) -> VGroup:
        items = VGroup()
        for i, c in enumerate(self.data["contexts"]):
            word = c["focus"].partition("#")[0]
            items.add(inline(Dot(radius=0.08, color=self.colors[i]),
                             highlighted(c["sentence"], word, self.colors[i], LEGEND_SIZE)))
        return items.arrange(RIGHT, buff=T.GAP)

    def make_plot(self) -> VGroup:
        d = self.data
        lo, hi = d["axes"]["y_range"]
        n = len(self.states) - 1
        self.ax = TickAxes(
            [0, n, 1], [lo, hi, hi - lo], PLOT_WIDTH, PLOT_HEIGHT,
            x_ticks=[(s["layer"], f"data.states[{i}].layer") for i, s in enumerate(self.states)],
            y_ticks=[(v, f"data.axes.y_ticks[{i}]") for i, v in enumerate(d["axes"]["y_ticks"])])
        a = self.ax.axes
        names = VGroup(txt(self.states[0]["label"], T.TINY_SIZE, T.MUTED),
                       txt("layer", T.SMALL_SIZE, T.MUTED),
                       txt(self.states[-1]["label"], T.TINY_SIZE, T.MUTED))
        names[1].next_to(self.ax.x_labels, DOWN, buff=0.06)
        names[0].next_to(self.ax.x_labels[0], DOWN, buff=0.06).align_to(a, LEFT)
        names[2].next_to(self.ax.x_labels[-1], DOWN, buff=0.06).align_to(a, RIGHT)
        for m in (names[0], names[2]):
            m.set_y(names[1].get_y())
        word = d["contexts"][0]["focus"].partition("#")[0]
        head = txt(f"cosine of the two \"{word}\" vectors", T.SMALL_SIZE, T.TEXT)
        head.next_to(a, UP, buff=T.BUFF).align_to(a, LEFT)
        plot = VGroup(head, self.ax, names)
        plot.next_to(self.legend, DOWN, buff=T.BUFF).to_edge(LEFT, buff=T.EDGE)
        # room on the left for the row labels under the plot
        plot.shift(RIGHT * max(0.0, self.plot_left() + NAME_WIDTH - a.c2p(0, lo)[0]))
        self.row_anchor = names
        return plot

    def plot_left(self) -> float:
        return -self.camera.frame_width / 2 + T.EDGE

    def p(self, state: float, value: float):
        return self.ax.axes.c2p(state, value)

    def place_row(self, key: VGroup, label: str, values, source: str, color) -> VGroup:
        """One row of numbers under the plot, each under its layer's tick, labelled at left."""
        below = self.rows[-1] if len(self.rows) else self.row_anchor
        y = below.get_bottom()[1] - ROW_STEP / 2 - (0.1 if not len(self.rows) else 0.03)
        nums = VGroup(*[Num(v, f"{source}[{s}]", size=T.TINY_SIZE, color=color)
                        .move_to([self.p(s, 0)[0], y, 0]) for s, v in enumerate(values)])
        name = inline(key, txt(label, T.TINY_SIZE, T.MUTED))
        name.move_to([0, y, 0]).set_x(self.plot_left() + name.width / 2)
        return VGroup(name, nums)

    def pair_key(self, k: int) -> VGroup:
        i, j = self.curves[k]["pair"]
        return swatch(self.colors[i], self.colors[j], radius=0.055)

    def draw_curve(self, values, source: str, color, label: str, key: VGroup,
                   dashed: bool = False, hollow: bool = False, per: float | None = None,
                   also=None) -> None:
        """Point by point: the dot, the segment from the previous layer, the number below
        (`per` seconds a point; by default a small share of the beat); `also(s)` gives more
        animations to play with point s."""
        row = self.place_row(key, label, values, source, color)
        self.play(FadeInPlace(row[0]), run_time=self.quick(0.05, 0.3))
        self.rows.add(row)
        dots, prev = VGroup(), None
        for s, v in enumerate(values):
            pt = self.p(s, v)
            dot = (Circle(radius=0.05, color=color, stroke_width=2) if hollow
                   else Dot(radius=0.05, color=color)).move_to(pt)
            anims = [FadeInPlace(dot), FadeInPlace(row[1][s])]
            if prev is not None:
                seg = (DashedLine(prev, pt, dash_length=0.06, color=color, stroke_width=2)
                       if dashed else Line(prev, pt, color=color, stroke_width=3))
                anims.append(Create(seg))
            if also is not None:
                anims += also(s)
            self.play(*anims, run_time=per or self.quick(0.04, 0.35))
            dots.add(dot)
            prev = pt
        self.dots[source] = dots

    def plot_note(self, text: str, sources: list[str], layers: slice) -> None:
        """A small label just above the drawn dots of `sources` at `layers`."""
        near = VGroup(*[m for src in sources for m in self.dots[src][layers]])
        note = txt(text, T.TINY_SIZE, T.MUTED).next_to(near, UP, buff=0.1)
        self.play(FadeInPlace(note), run_time=self.quick(0.05, 0.3))

    # --- beats --------------------------------------------------------------------------
    def beat_similarity(self, beat) -> None:
        n = len(self.states)
        if self.sim_stage == 0:
            for item in self.legend:                    # "the word bank in three sentences"
                self.emphasize(item, run_time=self.quick(0.07, 1.2))
            angles = AnglePanel(self.data, self.colors)     # what a cosine measures
            angles.move_to([(self.plot.get_right()[0] + self.camera.frame_width / 2) / 2,
                            self.plot.get_center()[1], 0])   # the middle of the right half
            self.play(*angles.show(), run_time=self.quick(0.05, 0.6))
            self.hold_until_cue(1)                      # "after every layer we measure ..."
            per = self.quick(0.3, 6.0) / (n * len(self.curves))
            for k, c in enumerate(self.curves):
                self.draw_curve(c["raw"], f"data.curves[{k}].raw", self.colors[c["pair"][1]],
                                "raw", self.pair_key(k), per=per,   # all arrows: one state
                                also=None if k else lambda s: [
                                    a for j in range(len(self.curves)) for a in angles.at(j, s)])
            self.hold_until_cue(2)                      # "at the embedding ... the same vector"
            self.play(*[a for k in range(len(self.curves)) for a in angles.at(k, 0)],
                      run_time=self.quick(0.1, 1.2))    # back to the embedding: one arrow
            first = [self.dots[f"data.curves[{k}].raw"][0] for k in range(len(self.curves))]
            self.point_at(first[0], run_time=self.quick(0.1, 1.5))
            self.emphasize(VGroup(*[r[1][0] for r in self.rows]), run_time=self.quick(0.1, 1.5))
            self.angles = angles
        elif self.sim_stage == 1:
            lines = baseline_definition(self.data["similarity"], self.plot,
                                        self.camera.frame_width)  # line by line
            if self.angles is not None:
                self.play(*self.angles.hide(), run_time=self.quick(0.05, 0.5))
                self.angles = None
            self.play(LaggedStart(*[FadeInPlace(m) for m in lines], lag_ratio=0.5),
                      run_time=self.quick(0.3, 4.5))
            self.remove(*lines.get_family())
            self.set_slot("definition", lines)
            self.hold_until_cue(1)                      # "so we measure that baseline ..."
            per = self.quick(0.3, 6.0) / (n * (1 + len(self.curves)))
            key = VGroup(DashedLine(LEFT * 0.12, RIGHT * 0.12, dash_length=0.06, color=T.MUTED,
                                    stroke_width=2))
            self.draw_curve(self.data["similarity"]["baseline"], "data.similarity.baseline",
                            T.MUTED, "baseline", key, dashed=True, per=per)
            self.plot_note("baseline: different words", ["data.similarity.baseline"],
                           slice(2, 5))
            for k, c in enumerate(self.curves):
                self.draw_curve(c["adjusted"], f"data.curves[{k}].adjusted",
                                self.colors[c["pair"][1]], "adjusted", self.pair_key(k),
                                dashed=True, hollow=True, per=per)
            self.plot_note("adjusted = raw − baseline",
                           [f"data.curves[{k}].adjusted" for k in range(len(self.curves))],
                           slice(2, 5))
            self.hold_until_cue(2)                      # "what remains still falls ..."
            ends = [self.dots[f"data.curves[{k}].adjusted"][-1]
                    for k in range(len(self.curves))]
            self.emphasize(VGroup(*ends))
        self.sim_stage += 1

    def right_top(self) -> float:
        return self.plot.get_top()[1]

    def beat_projection(self, beat) -> None:
        self.drop("definition")
        pr = self.data["projection"]
        (x0, x1), (y0, y1), step = pr["x_range"], pr["y_range"], pr["step"]
        unit = min(PLANE_MAX[0] / (x1 - x0), PLANE_MAX[1] / (y1 - y0))
        plane = NumberPlane(x_range=[x0, x1, step], y_range=[y0, y1, step],
                            x_length=unit * (x1 - x0), y_length=unit * (y1 - y0),
                            background_line_style={"stroke_color": T.FAINT, "stroke_width": 1,
                                                   "stroke_opacity": 0.5},
                            axis_config={"stroke_color": T.MUTED, "stroke_width": 1.5})
        head = inline(txt("one PCA plane for all", T.SMALL_SIZE),
                      Num(pr["n_points"], "data.projection.n_points", 0, T.SMALL_SIZE),
                      txt("vectors", T.SMALL_SIZE))
        pcs = inline(txt("axes keep", T.TINY_SIZE, T.MUTED),
                     Num(pr["explained_percent"][0], "data.projection.explained_percent[0]", 0,
                         T.TINY_SIZE, T.MUTED, suffix="%"),
                     txt("+", T.TINY_SIZE, T.MUTED),
                     Num(pr["explained_percent"][1], "data.projection.explained_percent[1]", 0,
                         T.TINY_SIZE, T.MUTED, suffix="%"),
                     txt("of the variance", T.TINY_SIZE, T.MUTED))
        which = txt("(every layer of every sentence)", T.TINY_SIZE, T.MUTED)
        panel = VGroup(head, which, plane, pcs).arrange(DOWN, buff=T.TIGHT + 0.05)
        panel.to_edge(RIGHT, buff=T.EDGE).set_y(self.right_top() - panel.height / 2)
        self.plane = plane
        self.right = self.swap(self.right, panel)

        xy, ref = pr["xy"], 0
        dots = VGroup(*[Dot(plane.c2p(*xy[c][0]), radius=DOT[c % len(DOT)], color=col)
                        for c, col in enumerate(self.colors)])
        self.play(FadeInPlace(dots), run_time=self.quick(0.05, 0.4))
        trails, tags = VGroup(), VGroup()
        self.add(trails)
        for s in range(1, len(self.states)):
            segs = [Line(plane.c2p(*xy[c][s - 1]), plane.c2p(*xy[c][s]), color=col,
                         stroke_width=2.5, stroke_opacity=0.8)
                    for c, col in enumerate(self.colors)]
            at = plane.c2p(*xy[ref][s])
            out = at - plane.get_center()          # label on the side away from the middle
            tag = Num(self.states[s]["layer"], f"data.states[{s}].layer", 0, T.TINY_SIZE,
                      T.MUTED).next_to(at, out / max(abs(out[0]), abs(out[1])), buff=0.08)
            self.play(*[Create(g) for g in segs], FadeInPlace(tag),
                      *[dots[c].animate.move_to(plane.c2p(*xy[c][s])) for c in range(len(dots))],
                      run_time=self.quick(0.07, 0.7))
            trails.add(*segs)
            tags.add(tag)
            self.bring_to_front(dots)
        ends = VGroup(txt(self.states[0]["label"], T.TINY_SIZE, T.MUTED)
                      .next_to(plane.c2p(*xy[ref][0]), DOWN, buff=0.15),
                      txt(self.states[-1]["label"], T.TINY_SIZE, T.MUTED)
                      .next_to(dots, RIGHT, buff=0.12))
        self.play(FadeInPlace(ends), run_time=self.quick(0.05, 0.3))
        # "all three travel nearly the same path": the three paths again, side by side
        self.hold_until_cue(1)
        runners = VGroup(*[Dot(plane.c2p(*xy[c][0]), radius=0.06, color=col)
                           for c, col in enumerate(self.colors)])
        paths = [VMobject().set_points_as_corners([plane.c2p(*p) for p in xy[c]])
                 for c in range(len(self.colors))]
        self.play(FadeIn(runners), run_time=0.2)
        self.play(*[MoveAlongPath(r, path) for r, path in zip(runners, paths)],
                  run_time=self.pace(self.said("each_layer"), 1, self.quick(0.2, 3.0),
                                     cap=3.0))
        self.play(FadeOut(runners), run_time=0.2)
        # "each layer moves a vector much further than the choice of sentence does": the
        # whole path, embedding to output, against the gap between two sentences' outputs
        self.hold_until_moment("each_layer")
        depth = Arrow(plane.c2p(*xy[ref][0]), plane.c2p(*xy[ref][-1]), buff=0.05,
                      color=T.HIGHLIGHT, stroke_width=3, max_tip_length_to_length_ratio=0.08)
        far = max(range(1, len(self.colors)),
                  key=lambda c: float(np.hypot(*np.subtract(xy[c][-1], xy[ref][-1]))))
        gap = Line(plane.c2p(*xy[ref][-1]), plane.c2p(*xy[far][-1]), color=T.HIGHLIGHT,
                   stroke_width=5)
        labels = VGroup(txt("layers", T.TINY_SIZE, T.HIGHLIGHT).next_to(depth.get_center(),
                                                                       UP + RIGHT, buff=0.05),
                        txt("sentence", T.TINY_SIZE, T.HIGHLIGHT).next_to(gap, LEFT, buff=0.12))
        self.play(GrowArrow(depth), FadeInPlace(labels[0]), run_time=self.quick(0.1, 1.5))
        self.hold_until_moment("choice")
        self.play(Create(gap), FadeInPlace(labels[1]), run_time=self.quick(0.05, 0.8))
        fall = self.dots.get(f"data.curves[{self.data['summary']['curve']}].raw")
        if fall is not None:                        # "the separation the cosines pick up"
            self.hold_until_moment("separation")
            self.emphasize(fall, run_time=self.quick(0.05, 1.0))
        self.hold_until_moment("flat_view")
        self.point_at(pcs)                          # "... this flat view cannot show"
        self.right = VGroup(panel, trails, dots, tags, ends, depth, gap, labels)

    def beat_table(self, beat) -> None:
        self.drop("definition")
        t = self.data["table"]
        table = text_table(t["header"], t["rows"], T.SMALL_SIZE, row_buff=0.16)
        note = wrapped(t["note"], 42, T.TINY_SIZE, T.HIGHLIGHT, max_width=6.0)
        for line in note:
            line.align_to(note, LEFT)
        panel = VGroup(note, table).arrange(DOWN, buff=T.BUFF, aligned_edge=LEFT)
        panel.to_edge(RIGHT, buff=T.EDGE).set_y(self.right_top() - panel.height / 2)
        rows = table[0]
        self.right = self.swap(self.right, VGroup(note, rows[0], table[1][0]),
                               run_time=self.quick(0.1, 0.8))
        lines = textwrap.wrap(t["note"], 42)

        def line_with(word: str):
            return next((note[i] for i, ln in enumerate(lines) if word in ln), note)
        self.hold_until_moment("studies")           # "probing studies of BERT"
        self.emphasize(line_with("BERT"), run_time=self.quick(0.05, 0.8))
        # each row arrives with a band over its third of the depth (an illustration's
        # "early / middle / late" laid over this model's layers: the plan's `spans`) as the
        # narration names its layers; its middle cell is circled as its content is named
        band = None
        named = [("early", "identity"), ("middle", "syntax"), ("late", "meaning")]
        for i in range(1, len(rows)):
            layers, what = named[i - 1] if i <= len(named) else (None, None)
            if layers:
                self.hold_until_moment(layers)
            anims = [FadeInPlace(rows[i]), *self.move_band(band, t["spans"][i - 1])]
            if i < len(table[1]):                   # the rule under this row
                anims.append(FadeInPlace(table[1][i]))
            self.play(*anims, run_time=self.quick(0.04, 0.6))
            band = anims[1].mobject
            if what:
                self.hold_until_moment(what)
                self.emphasize(table.cells[i][1], run_time=self.quick(0.04, 0.7))
        self.hold_until_moment("overlap")           # "... plenty of overlap between them"
        self.emphasize(line_with("overlap"), run_time=self.quick(0.05, 0.8))
        self.hold_until_cue(2)                      # "on this model's axis, early is ..."
        self.emphasize(self.ax.x_labels, run_time=self.quick(0.05, 0.8))
        for i, name in zip(range(1, len(rows)), ["early_span", "middle_span", "late_span"]):
            self.hold_until_moment(name)
            anims = self.move_band(band, t["spans"][i - 1])
            self.play(*anims, run_time=self.quick(0.03, 0.4))
            band = anims[0].mobject
            self.emphasize(rows[i][0], run_time=self.quick(0.04, 0.7))
        if band is not None:
            self.play(FadeOut(band), run_time=self.quick(0.05, 0.4))
        self.right = panel

    def move_band(self, band, span) -> list:
        """Animations bringing a faint band over the layer states `span` (first, last): the
        new band fades in, the old one (if any) out. The new band is the first's mobject."""
        n, a = len(self.states) - 1, self.ax.axes
        lo, hi = span
        x0, x1 = self.p(max(lo - 0.4, -0.1), 0)[0], self.p(min(hi + 0.4, n + 0.1), 0)[0]
        new = Rectangle(width=x1 - x0, height=a.height, stroke_width=0, fill_color=T.HIGHLIGHT,
                        fill_opacity=0.10).move_to([(x0 + x1) / 2, a.get_center()[1], 0])
        return [FadeIn(new)] + ([FadeOut(band)] if band is not None else [])

    def beat_measured(self, beat) -> None:
        self.drop("definition")
        sm = self.data["summary"]
        k = sm["curve"]
        size = T.SMALL_SIZE

        def n(curve: int, key: str, s: int, **kw) -> Num:
            return Num(self.curves[curve][key][s], f"data.curves[{curve}].{key}[{s}]",
                       size=size, **kw)

        def layer(s: int, **kw) -> Num:
            return Num(self.states[s]["layer"], f"data.states[{s}].layer", 0, size, **kw)

        first, last = sm["first"], sm["last"]
        span = f"({self.states[first]['label']} → {self.states[last]['label']})"
        lines = [txt(f"measured in {self.plan['model']['display']}:", size, T.HIGHLIGHT),
                 inline(self.pair_key(k), txt("cos =", size), n(k, "raw", first),
                        txt("→", size), n(k, "raw", last), txt(span, size, T.MUTED))]
        if not sm["monotonic"]:
            steps = [txt("not steadily: down to", size, T.MUTED), n(k, "raw", sm["dip"]),
                     txt("at layer", size, T.MUTED),
                     layer(sm["dip"], suffix="," if sm["rebounds"] else "")]
            lines.append(inline(*steps))
            if sm["rebounds"]:
                lines.append(inline(txt("then up to", size, T.MUTED), n(k, "raw", sm["rebound"]),
                                    txt("at layer", size, T.MUTED), layer(sm["rebound"])))
        lines.append(inline(txt("minus the baseline:", size, T.MUTED), n(k, "adjusted", first),
                            txt("→", size), n(k, "adjusted", last)))
        for j in range(len(self.curves)):
            if j != k:
                lines.append(inline(self.pair_key(j), txt("cos =", size), n(j, "raw", first),
                                    txt("→", size), n(j, "raw", last)))
        body = VGroup(*lines).arrange(DOWN, buff=T.TIGHT, aligned_edge=LEFT)
        box = SurroundingRectangle(body, color=T.MUTED, buff=T.TIGHT + 0.05, corner_radius=0.08,
                                   stroke_width=1.5)
        panel = VGroup(box, body)
        # in place of the illustration it is set against (both do not fit at a readable size)
        panel.to_edge(RIGHT, buff=T.EDGE)      # under the curves' right end, clear of them
        panel.set_y(self.ax.axes.get_bottom()[1] - panel.height / 2)
        self.right = self.swap(self.right, VGroup())
        drawn = self.dots.get(f"data.curves[{k}].raw")

        def rings(states) -> VGroup:
            return VGroup(*[Circle(radius=0.11, color=T.HIGHLIGHT, stroke_width=2)
                            .move_to(drawn[s]) for s in sorted(set(states))])
        # each piece as the narration names it: the model, the two senses (their sentences
        # above), the start, the end; then a dot runs the curve, stopping at the dip and the
        # rebound as they are named
        line = body[1]
        self.play(FadeInPlace(VGroup(box, body[0])), run_time=self.quick(0.05, 0.6))
        i, j = self.curves[k]["pair"]
        self.hold_until_moment("river")
        self.emphasize(self.legend[i], run_time=self.quick(0.03, 0.6))
        self.hold_until_moment("money")
        self.emphasize(self.legend[j], run_time=self.quick(0.03, 0.6))
        self.hold_until_moment("start")
        anims = [FadeInPlace(VGroup(*line[:3]))]
        if drawn is not None:
            anims.append(Create(rings([first])))
        self.play(*anims, run_time=self.quick(0.04, 0.6))
        self.hold_until_moment("end")
        anims = [FadeInPlace(VGroup(*line[3:]))]
        if drawn is not None:
            anims.append(Create(rings([last])))
        self.play(*anims, run_time=self.quick(0.04, 0.6))
        self.hold_until_cue(1)
        rest = list(body[2:])
        if drawn is not None:       # "not steady": a dot runs the curve, start to end
            stops = []
            if not sm["monotonic"]:
                stops.append((sm["dip"], "dip", rest.pop(0) if rest else None))
                if sm["rebounds"]:
                    stops.append((sm["rebound"], "come_back", rest.pop(0) if rest else None))
            stops.append((len(drawn) - 1, "output", None))
            runner = Dot(drawn[0].get_center(), radius=0.08, color=T.HIGHLIGHT)
            self.play(FadeIn(runner), run_time=0.2)
            at = 0
            for s, moment, said in stops:
                if s > at:
                    path = VMobject().set_points_as_corners([d.get_center()
                                                             for d in drawn[at:s + 1]])
                    self.play(MoveAlongPath(runner, path),
                              run_time=self.pace(self.said(moment), 1,
                                                 self.quick(0.1, 1.3), cap=3.0))
                    at = s
                if said is not None:
                    self.play(FadeInPlace(said), Create(rings([s])),
                              run_time=self.quick(0.04, 0.6))
            self.play(FadeOut(runner), run_time=0.2)
        for said in rest:
            self.play(FadeInPlace(said), run_time=self.quick(0.04, 0.5))
        self.remove(*[m for m in panel.get_family()])
        self.add(panel)
