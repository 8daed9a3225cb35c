"""Logit lens: every layer's stream decoded as if it were the last, for one prompt.

The frame has a wide slot (the lens columns, full width) or two side slots (left: grid, then
credit table; right: rank plot). A new piece replaces the old one in its slot; the wide slot
and the side slots replace each other.

Beats (each optional, in storyboard order):
- `lens` (uses the beat's `layer`): a column with the top-5 next tokens after the focus token
  at that layer, with probabilities, and the final answer's rank and probability there. Each
  lens beat adds a column (up to `MAX_COLUMNS`, then the oldest is replaced), so layers compare
  side by side; the newest column is outlined. Shown happening: a dot (the stream) runs along
  the depth ruler to the layer, the first time through the lens drawn as its steps (the
  stream's numbers, final norm, unembedding, softmax), into the column, whose bars then grow
  one by one; the answer's rank is circled as the narration's second sentence starts.
- `grid`: layers x positions, the lens's top-1 token per cell, cells coloured by its
  probability, yellow where it equals the final layer's top-1 at that position. Rows are the
  plan's subset (every 3rd layer, then every layer of the late window), each labelled; they
  arrive top to bottom, and the last row (the model's output) is circled at the last sentence.
- `rank`: first showing: the answer's rank (log scale, 1 at the top) and probability after
  every layer, drawn layer by layer. Next showing: each late layer split into its attention
  add and FFN add on the plot, drawn one layer at a time with its row of the credit table;
  the table's three summaries arrive with the sentences that say them.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Arrow, Create, config, DashedLine, Dot, FadeIn, FadeOut,
                   GrowFromEdge, GrowFromPoint, LaggedStart, Line, ReplacementTransform,
                   Rectangle, RoundedRectangle, ShowPassingFlash, VGroup,
                   VMobject, interpolate_color, linear)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..base import StoryboardScene
from ..motion import race_step
from ..mobjects import (DepthRuler, Num, PlacedTickAxes, ProbBars, RaceChart, RampKey, StepBoxes,
                       TokenCells, highlighted, inline, legend_item, txt)

MAX_COLUMNS = 4            # lens columns side by side
COL_WIDTH = 6.5            # a side slot
COLUMN = (3.2, 3.2)        # a lens column's box (width, height)
RANK_PLOT = (5.0, 2.3)     # rank axes (width, height)
PROB_PLOT = (5.0, 1.2)     # probability axes, under the rank axes, same layer scale
CELL = (1.27, 0.285)       # grid cell (width, height)
GRID_SIZE = T.LABEL_SIZE
GRID_FILL = 0.7            # the grid's fill at probability 1: this far from ZERO to T.X
BAR_WIDTH = 0.8
COLUMN_ROWS = 5            # tokens in a lens column (the plan keeps top_k, the bar chart shows all)
RACE_BAR = 6.0             # the bar chart's bar at probability 1
RACE_PITCH = 0.42          # its rows' spacing
RACE_FAST = (0.3, 0.7)     # seconds per layer before the late window (a quick run)
RACE_SLOW = (1.0, 3.0)     # seconds per layer in the window: the beat's time shared, in this range
RACE_TAIL = 1.0            # seconds kept at the end of a race beat after the last step


class LogitLensScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.layers, self.grid_data, self.credit = d["layers"], d["grid"], d["credit"]
        self.answer = d["answer"]["display"]
        self.word = self.plan["focus"][0].partition("#")[0]
        self.top = min(2.9, self.title.get_bottom()[1] - T.BUFF)     # content's top edge
        self.slots: dict[str, VGroup | None] = {"wide": None, "left": None, "right": None}
        self.columns: list[VGroup | None] = []
        # column places: one per lens beat (at most MAX_COLUMNS), three at least, the free ones
        # holding the lens drawn as its steps
        self.n_columns = max(3, min(MAX_COLUMNS,
                                    sum("lens" in b["show"] for b in self.plan["beats"])))
        self.lens_count = 0
        self.last_lens = 0         # where the stream dot starts its run along the ruler
        self.pipeline = None       # the lens drawn as its steps (first lens beat only)
        self.rank_stage = 0
        self.race_rows: dict | None = None    # the bar chart's rows, by token id

    # --- slots --------------------------------------------------------------------------
    def place(self, mob: VGroup, side: str) -> VGroup:
        mob.set_y(self.top - mob.height / 2)
        if side == "wide":
            mob.set_x(0)
        else:
            mob.to_edge(LEFT if side == "left" else RIGHT, buff=T.EDGE + 0.1)
        return mob

    def put(self, side: str, mob: VGroup, placed: bool = False) -> VGroup:
        """Show `mob` in `side`, replacing what is there (the wide slot and the side slots
        replace each other)."""
        others = ["left", "right"] if side == "wide" else ["wide"]
        gone = [self.slots[s] for s in others if self.slots[s] is not None]
        for s in others:
            self.slots[s] = None
        if side != "wide":
            self.columns = []
        old = self.slots[side]
        new = mob if placed else self.place(mob, side)
        anims = [FadeInPlace(new)] + [FadeOutPlace(m) for m in gone + ([old] if old else [])]
        self.play(*anims, run_time=self.quick())
        self.slots[side] = new
        return new

    def adopt(self, container: VGroup, *mobs) -> None:
        """Make freshly animated `mobs` part of `container` (one scene entry, so fading the
        container out takes them along)."""
        self.remove(*[m for mob in mobs for m in mob.get_family()])
        container.add(*mobs)

    # --- lens columns -------------------------------------------------------------------
    def lens_column(self, l: int) -> VGroup:
        lay = self.layers[l]
        src = f"data.layers[{l}]"
        head = inline(txt("after layer", T.LABEL_SIZE),
                      Num(lay["layer"], f"{src}.layer", 0, T.LABEL_SIZE, T.HIGHLIGHT))
        rows = [(e["display"], e["prob"], f"{src}.top[{i}].prob",
                 T.HIGHLIGHT if e["is_answer"] else T.X)
                for i, e in enumerate(lay["top"][:COLUMN_ROWS])]
        bars = ProbBars(rows, bar_width=BAR_WIDTH, label_width=1.2, size=T.LABEL_SIZE,
                        row_buff=0.16)
        rank = inline(txt(self.answer, T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                      txt("rank", T.SMALL_SIZE, T.MUTED),
                      Num(lay["rank"], f"{src}.rank", 0, T.LABEL_SIZE, T.HIGHLIGHT), buff=0.12)
        prob = inline(txt("probability", T.SMALL_SIZE, T.MUTED),
                      Num(lay["prob"], f"{src}.prob", T.DECIMALS, T.LABEL_SIZE, T.HIGHLIGHT),
                      buff=0.12)
        body = VGroup(head, bars, rank, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
        bars.next_to(head, DOWN, buff=T.BUFF + 0.05, aligned_edge=LEFT)
        rank.next_to(bars, DOWN, buff=T.BUFF + 0.1, aligned_edge=LEFT)
        prob.next_to(rank, DOWN, buff=T.TIGHT + 0.04, aligned_edge=LEFT)
        box = RoundedRectangle(width=COLUMN[0], height=max(COLUMN[1], body.height + 0.3),
                               corner_radius=0.1, stroke_color=T.FAINT, stroke_width=1.5)
        body.move_to(box)
        return VGroup(box, body)

    def depth_ruler(self, width: float) -> DepthRuler:
        L = self.data["n_layers"]
        return DepthRuler(L, width,
                          Num(self.layers[0]["layer"], "data.layers[0].layer", 0, T.SMALL_SIZE,
                              T.MUTED),
                          Num(self.layers[-1]["layer"], f"data.layers[{L - 1}].layer", 0,
                              T.SMALL_SIZE, T.MUTED))

    def lens_panel(self) -> VGroup:
        """Prompt, how to read a column, empty column places, and a depth ruler under them."""
        prompt = inline(txt("prompt:", T.LABEL_SIZE, T.MUTED),
                        highlighted(self.plan["sentences"][0], self.word, T.X, T.LABEL_SIZE),
                        txt("→ next token?", T.LABEL_SIZE, T.MUTED), buff=0.15)
        how = VGroup(txt("each column: the stream after one layer, decoded by the final norm and "
                         f"unembedding (top {COLUMN_ROWS}, probability)", T.SMALL_SIZE, T.MUTED),
                     inline(txt("␣", T.SMALL_SIZE, T.HIGHLIGHT, mono=True),
                            txt("marks a space:", T.SMALL_SIZE, T.MUTED),
                            txt(f"{self.answer}", T.SMALL_SIZE, T.TEXT, mono=True),
                            txt("is \"" + self.answer.replace("␣", " ") + "\"", T.SMALL_SIZE,
                                T.MUTED))
                     ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        height = self.lens_column(0)[0].height        # every column's box is this tall
        self.frames = VGroup(*[RoundedRectangle(width=COLUMN[0], height=height,
                                                corner_radius=0.1, stroke_opacity=0)
                               for _ in range(self.n_columns)]).arrange(RIGHT, buff=0.2)
        ruler = self.depth_ruler(self.frames.width - 1.6)
        self.ruler_dots = ruler.dots
        panel = VGroup(prompt, how, self.frames, ruler).arrange(DOWN, buff=T.BUFF)
        ruler.next_to(self.frames, DOWN, buff=0.5).match_x(self.frames)
        ruler.shift(RIGHT * (self.frames.get_center()[0] - ruler.line.get_center()[0]))
        prompt.align_to(self.frames, LEFT)
        how.align_to(self.frames, LEFT)
        return panel

    def beat_lens(self, beat) -> None:
        """The stream is taken after layer l (a dot runs along the depth ruler to it), goes up
        through the lens into its column, and the top-5 bars grow one by one; the answer's rank
        is pointed at when the narration's second sentence starts."""
        l = beat["layer"] if beat["layer"] is not None else self.plan["layers"][-1]
        if self.slots["wide"] is None:
            self.columns = [None] * self.n_columns
            self.put("wide", self.lens_panel())
        panel = self.slots["wide"]
        slot = self.lens_count % self.n_columns
        self.lens_count += 1
        col = self.lens_column(l).move_to(self.frames[slot])
        col[0].set_stroke(T.HIGHLIGHT, 2)
        dot = self.ruler_dots[l]
        link = Line(col[0].get_bottom(), dot.get_center(), stroke_color=T.HIGHLIGHT,
                    stroke_width=1.5, buff=0.06)
        mark = Dot(dot.get_center(), radius=0.07, color=T.HIGHLIGHT)
        old = self.columns[slot]
        dims = []
        for c in self.columns:
            if c is not None and c is not old:
                dims += [c[0].animate.set_stroke(T.FAINT, 1.5),
                         c[2].animate.set_stroke(T.FAINT), c[3].animate.set_color(T.MUTED)]
        # 1. the stream after layer l: a dot runs along the ruler from the last lens to l
        runner = Dot(self.ruler_dots[self.last_lens].get_center(), radius=0.09, color=T.X)
        self.play(runner.animate.move_to(dot), *dims,
                  *([FadeOutPlace(old)] if old is not None else []),
                  run_time=self.quick(0.12, 1.4))
        if old is not None:
            panel.remove(old)
        self.last_lens = l
        # 2. through the lens (final norm, unembedding, softmax) into its column; the first
        #    time, the lens is drawn as its steps and the stream runs through each
        if self.pipeline is None:
            self.show_pipeline(runner, slot)
        elif self.pipeline is not None and self.pipeline in self.slots["wide"]:
            self.play(FadeOutPlace(self.pipeline), run_time=self.quick(0.05, 0.4))
            self.slots["wide"].remove(self.pipeline)
        self.play(Create(link), FadeIn(mark),
                  runner.animate.move_to(col[0].get_bottom()), run_time=self.quick(0.06, 0.6))
        head, bars, rank, prob = col[1]
        self.play(GrowFromPoint(col[0], runner.get_center()), FadeIn(head),
                  FadeOut(runner), run_time=self.quick(0.08, 0.7))
        # 3. the top five, best first
        for row in bars.rows:
            name, track, bar, num = row
            self.play(FadeIn(name), FadeIn(track), GrowFromEdge(bar, LEFT), FadeIn(num),
                      run_time=self.quick(0.04, 0.35))
        self.play(FadeIn(rank, shift=0.1 * UP), FadeIn(prob, shift=0.1 * UP),
                  run_time=self.quick(0.06, 0.5))
        col.add(link, mark)
        self.adopt(panel, col)
        self.columns[slot] = col
        self.hold_until_cue(1)
        self.emphasize(rank)

    def show_pipeline(self, runner: Dot, slot: int) -> None:
        """The lens as its steps, in the empty column places beside `slot`: the stream's
        numbers, the final RMSNorm (the stream divided by its own RMS, times the norm's
        weights), the unembedding, softmax. The stream dot runs through each in turn."""
        m, size = self.plan["model"], T.TYPE.small
        norm = "RMSNorm" if m.get("norm") == "rmsnorm" else "LayerNorm"
        steps = [
            VGroup(txt("the stream X", size, T.X),
                   inline(Num(m["d_model"], "model.d_model", 0, size, T.X),
                          txt("numbers", size, T.MUTED))),
            VGroup(txt(f"final {norm}", size, T.LN),
                   txt("÷ its own RMS, × γ", size, T.MUTED)),
            VGroup(txt("× unembedding", size, T.TEXT),
                   inline(Num(m["d_model"], "model.d_model", 0, size, T.MUTED),
                          txt("×", size, T.MUTED),
                          Num(m["d_vocab"], "model.d_vocab", 0, size, T.MUTED))),
            VGroup(txt("softmax", size, T.TEXT),
                   inline(Num(m["d_vocab"], "model.d_vocab", 0, size, T.MUTED),
                          txt("probabilities", size, T.MUTED))),
        ]
        free = VGroup(*[f for i, f in enumerate(self.frames) if i != slot])
        pipe = StepBoxes(steps).fit_into(free)
        boxes, arrows = pipe.boxes, pipe.arrows
        self.play(LaggedStart(*[FadeInPlace(b) for b in boxes], lag_ratio=0.3),
                  FadeInPlace(arrows), run_time=self.quick(0.08, 1.0))
        for box in boxes:                  # the dot passes through each step, which lights up
            self.play(runner.animate.move_to(box[0].get_center()),
                      box[0].animate.set_stroke(T.HIGHLIGHT, 2.5), run_time=self.quick(0.04, 0.5))
            self.play(box[0].animate.set_stroke(T.FAINT, 1.5), run_time=self.quick(0.02, 0.2))
        self.pipeline = pipe
        self.adopt(self.slots["wide"], pipe)

    # --- one bar chart across the layers ------------------------------------------------
    def race_entries(self, l: int) -> list:
        """Layer l's top tokens as bar-chart entries, keyed by token id; the answer in yellow."""
        return [(e["id"], e["display"], e["prob"], f"data.layers[{l}].top[{i}].prob",
                 T.HIGHLIGHT if e["is_answer"] else T.X)
                for i, e in enumerate(self.layers[l]["top"])]

    def race_answer(self, l: int) -> VGroup:
        """The answer's own row under the chart: its bar on the answer track, rank beside."""
        row = self.chart.row((self.answer, self.answer, self.layers[l]["prob"],
                              f"data.layers[{l}].prob", T.HIGHLIGHT), 0, self.answer_track)
        rank = inline(txt("rank", T.LABEL_SIZE, T.MUTED),
                      Num(self.layers[l]["rank"], f"data.layers[{l}].rank", 0, T.LABEL_SIZE,
                          T.HIGHLIGHT), buff=0.12)
        rank.next_to(self.answer_track, RIGHT, buff=1.1)
        return VGroup(row, rank)

    def race_counter(self, l: int) -> Num:
        return Num(self.layers[l]["layer"], f"data.layers[{l}].layer", 0, T.TYPE.heading,
                   T.HIGHLIGHT).next_to(self.counter_name, RIGHT, buff=0.15)

    def race_panel(self) -> VGroup:
        """Prompt, the chart's tracks, the answer's track under a rule, a layer counter, and
        the depth ruler; the state of layer 0 is drawn on it by `beat_race`."""
        k = self.data["top_k"]
        prompt = inline(txt("prompt:", T.LABEL_SIZE, T.MUTED),
                        highlighted(self.plan["sentences"][0], self.word, T.X, T.LABEL_SIZE),
                        txt("→ next token?", T.LABEL_SIZE, T.MUTED), buff=0.15)
        self.counter_name = txt("after layer", T.LABEL_SIZE, T.MUTED)
        head = inline(txt("the lens's top", T.LABEL_SIZE, T.MUTED),
                      Num(k, "data.top_k", 0, T.LABEL_SIZE, T.MUTED),
                      txt("(bar = probability)", T.LABEL_SIZE, T.MUTED), buff=0.12)
        self.chart = RaceChart(k, bar_width=RACE_BAR, label_width=1.7, pitch=RACE_PITCH)
        self.answer_track = self.chart.tracks[-1].copy().next_to(self.chart.tracks[-1], DOWN,
                                                                  buff=RACE_PITCH + 0.1)
        line = Line(LEFT, RIGHT, stroke_color=T.FAINT, stroke_width=1.5)
        line.set_width(self.chart.width + 2.6).move_to(
            (self.chart.tracks[-1].get_center() + self.answer_track.get_center()) / 2)
        line.align_to(self.chart, RIGHT).shift(RIGHT * 1.2)
        body = VGroup(self.chart, self.answer_track, line)
        ruler = self.depth_ruler(body.width)
        group = VGroup(prompt, head, body, ruler).arrange(DOWN, buff=T.BUFF + 0.05)
        prompt.align_to(body, LEFT).shift(LEFT * 1.9)
        head.align_to(prompt, LEFT)
        self.counter_name.next_to(head, RIGHT, buff=0.8)
        self.counter_name.align_to(self.answer_track, RIGHT).shift(LEFT * 0.6)
        self.race_ruler = ruler
        return VGroup(group, self.counter_name)

    def beat_race(self, beat) -> None:
        """The chart morphs from the layer it shows to the beat's layer: fast through the
        layers before the late window, slowly through the window (its steps share the time
        left in the beat); the answer is pointed at when it enters the top k."""
        target = beat["layer"] if beat["layer"] is not None else self.plan["layers"][-1]
        if self.race_rows is None:
            panel = self.put("wide", self.race_panel())
            self.race_layer = 0
            self.race_rows = self.chart.rows(self.race_entries(0))
            self.race_extra = VGroup(self.race_answer(0), self.race_counter(0),
                                     Dot(self.race_ruler.dots[0].get_center(), radius=0.09,
                                         color=T.HIGHLIGHT))
            rows = list(self.race_rows.values())
            self.play(LaggedStart(*[GrowFromEdge(r, LEFT) for r in rows], lag_ratio=0.15),
                      FadeIn(self.race_extra), run_time=self.quick(0.1, 1.2))
        else:
            panel = self.slots["wide"]
            parts = list(self.race_rows.values()) + [self.race_extra]
            panel.remove(*parts)
            self.add(*parts)
        start, enter = self.data["window"]["start"], self.data["answer"]["enters_top"]
        steps = list(range(self.race_layer + 1, target + 1))
        fast = [l for l in steps if l < start]
        if fast:                # the quick run: its steps share the beat up to its last sentence
            cues = self.beat.get("cues") or []
            until = (self.beat_start + float(cues[-1]["start"]) if cues else
                     self.beat_start + self.beat_end(beat) - RACE_TAIL - 1.0)
            per = max(RACE_FAST[0], min(RACE_FAST[1], (until - self.time) / len(fast)))
            for l in fast:
                self.race_to(l, per)
        slow = [l for l in steps if l >= start]
        if slow:
            left = self.beat_start + self.beat_end(beat) - self.time - RACE_TAIL
            per = max(RACE_SLOW[0], min(RACE_SLOW[1], left / len(slow)))
            for l in slow:
                self.race_to(l, per)
                if l == enter:
                    self.point_at(self.race_rows[self.data["answer"]["id"]])
        self.adopt(panel, *self.race_rows.values(), self.race_extra)
        if not slow:            # the leader, then the answer still far down, as the beat ends
            self.hold_until_cue(len(self.beat.get("cues") or []) - 1)
            self.emphasize(self.race_rows[self.layers[target]["top"][0]["id"]])
        self.emphasize(self.race_extra[0])

    def race_to(self, l: int, run_time: float) -> None:
        """One step of the chart: bars re-sort and change length, the answer's row, the
        counter and the ruler's dot follow."""
        new = self.chart.rows(self.race_entries(l))
        answer, counter, dot = self.race_extra
        extra = VGroup(self.race_answer(l), self.race_counter(l), dot)
        self.play(*race_step(self.race_rows, new, shift=0.25),
                  ReplacementTransform(answer, extra[0]), ReplacementTransform(counter, extra[1]),
                  dot.animate.move_to(self.race_ruler.dots[l]), run_time=run_time)
        self.race_rows, self.race_extra, self.race_layer = new, extra, l

    # --- the grid -----------------------------------------------------------------------
    def beat_grid(self, beat) -> None:
        g = self.grid_data
        rows = g["rows"]
        fill = interpolate_color(T.VALUE_ZERO, T.X, GRID_FILL)
        cells = TokenCells([[c["display"] for c in r["cells"]] for r in rows],
                           [[c["prob"] for c in r["cells"]] for r in rows],
                           [[T.HIGHLIGHT if c["is_final"] else T.TEXT for c in r["cells"]]
                            for r in rows], fill, CELL[0], CELL[1], GRID_SIZE)
        heads = VGroup()
        for j, p in enumerate(g["positions"]):
            h = txt(p["display"], GRID_SIZE,
                    T.X if j == self.data["prompt"]["focus_pos"] else T.MUTED, mono=True)
            if h.width > 0.95 * CELL[0]:
                h.scale_to_fit_width(0.95 * CELL[0])
            heads.add(h.next_to(cells.cells[0][j], UP, buff=0.1))
        labels = VGroup(*[Num(r["layer"], f"data.grid.rows[{i}].layer", 0, GRID_SIZE, T.MUTED)
                          for i, r in enumerate(rows)])
        for i, lab in enumerate(labels):
            lab.next_to(cells.cells[i][0], LEFT, buff=0.12)
        name = txt("layer", GRID_SIZE, T.MUTED).next_to(labels, UP, buff=0.1)
        name.align_to(labels, RIGHT).match_y(heads)
        head = txt("lens top-1 at every position (input tokens across)", T.SMALL_SIZE)
        key = RampKey(Num(g["key"][0], "data.grid.key[0]", 0, T.TINY_SIZE, T.MUTED),
                      Num(g["key"][1], "data.grid.key[1]", 0, T.TINY_SIZE, T.MUTED), fill,
                      width=0.9)
        key_row = inline(txt("fill: top-1 probability", T.TINY_SIZE, T.MUTED), key,
                         txt("  yellow: same as the last layer's top-1", T.TINY_SIZE,
                             T.HIGHLIGHT), buff=0.1)
        body = VGroup(name, heads, labels, cells)
        head.next_to(body, UP, buff=T.TIGHT).align_to(labels, LEFT)
        key_row.next_to(body, DOWN, buff=T.TIGHT + 0.05).align_to(labels, LEFT)
        had_right = self.slots["right"] is not None
        self.place(VGroup(head, body, key_row), "left")     # fixes every piece's place
        frame = self.put("left", VGroup(head, name, heads, key_row), placed=True)
        if not had_right:                 # an empty right slot gets the reading guide
            self.put("right", self.grid_guide())
        # the rows arrive top to bottom, layer by layer, as the narration walks down the stack
        per = self.quick(0.45, 11.0) / len(rows)
        for i in range(len(rows)):
            self.play(FadeInPlace(labels[i]), FadeInPlace(VGroup(*cells.cells[i])),
                      run_time=max(per, 1.0 / config.frame_rate))
        self.adopt(frame, labels, cells)
        # "yellow marks a guess that already matches": those cells light up, top to bottom;
        # then the last row (the model's output) is circled
        self.hold_until_cue(len(self.beat.get("cues") or []) - 1)
        flashes = [Rectangle(width=CELL[0], height=CELL[1], stroke_color=T.HIGHLIGHT,
                             stroke_width=3).move_to(cells.cells[i][j])
                   for i, r in enumerate(rows) for j, c in enumerate(r["cells"]) if c["is_final"]]
        self.play(LaggedStart(*[ShowPassingFlash(f, time_width=0.6) for f in flashes],
                              lag_ratio=0.08), run_time=self.quick(0.25, 6.0))
        self.hold_until(self.beat_start + self.beat_end(beat) - 2.0)
        self.emphasize(VGroup(labels[-1], *cells.cells[-1]))

    def grid_guide(self) -> VGroup:
        """How to read the grid: rows, columns, the space mark, which layers are shown."""
        g, size = self.grid_data, T.TYPE.small
        lines = [txt("How to read it", size, T.TEXT, weight="BOLD"),
                 txt("row: one layer's stream, read by the lens", size, T.MUTED),
                 txt("column: the guess after that input token", size, T.MUTED),
                 inline(txt("␣", size, T.HIGHLIGHT, mono=True),
                        txt("marks a space:", size, T.MUTED),
                        txt("␣of", size, T.TEXT, mono=True),
                        txt("is \" of\"", size, T.MUTED)),
                 inline(txt("a lone", size, T.MUTED), txt("␣", size, T.TEXT, mono=True),
                        txt("is a token that is just a space", size, T.MUTED))]
        if g["sparse_until"] is not None:
            lines.append(inline(txt("rows: every", size, T.MUTED),
                                Num(g["every"], "data.grid.every", 0, size),
                                txt("layers up to", size, T.MUTED),
                                Num(g["sparse_until"], "data.grid.sparse_until", 0, size)))
            lines.append(inline(txt("then every layer from", size, T.MUTED),
                                Num(g["dense_from"], "data.grid.dense_from", 0, size)))
        lines.append(txt("the last row is the model's real output", size, T.MUTED))
        group = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF + 0.05)
        if group.width > COL_WIDTH:
            group.scale_to_fit_width(COL_WIDTH)
        return group

    # --- the rank plot ------------------------------------------------------------------
    def beat_rank(self, beat) -> None:
        if self.rank_stage == 0:
            self.draw_rank()
        else:
            self.draw_credit()
        self.rank_stage += 1

    def make_plots(self, first: int, x_ticks: list[tuple[int, str]], rank_title: str) -> VGroup:
        """Rank axes (log scale, 1 at the top) over probability axes, layers `first`..last."""
        d = self.data
        ra = d["rank_axis"]
        xr = [first - 0.5, d["n_layers"] - 0.5, 1]
        self.rank_ax = PlacedTickAxes(
            xr, [0, ra["y_range"][1] + 0.15, 1], *RANK_PLOT, x_ticks=[],
            y_ticks=[(t["height"], t["rank"], f"data.rank_axis.ticks[{i}].rank")
                     for i, t in enumerate(ra["ticks"])])
        self.prob_ax = PlacedTickAxes(
            xr, [0, 1.08, 0.5], *PROB_PLOT, x_ticks=[(l, l, src) for l, src in x_ticks],
            y_ticks=[(v, v, f"data.prob_axis.ticks[{i}]")
                     for i, v in enumerate(d["prob_axis"]["ticks"])], y_decimals=1)
        self.prob_ax.next_to(self.rank_ax, DOWN, buff=0.5)
        self.prob_ax.shift(RIGHT * (self.rank_ax.axes.get_left()[0] -
                                    self.prob_ax.axes.get_left()[0]))
        rank_head = txt(rank_title, T.SMALL_SIZE)
        rank_head.next_to(self.rank_ax, UP, buff=T.BUFF).align_to(self.rank_ax, LEFT)
        prob_head = txt(f"probability of {self.answer}", T.SMALL_SIZE)
        prob_head.next_to(self.prob_ax.axes, UP, buff=0.1).align_to(rank_head, LEFT)
        xname = txt("layer", T.SMALL_SIZE, T.MUTED)
        xname.next_to(self.prob_ax.x_labels, DOWN, buff=0.06).match_x(self.prob_ax.axes)
        return VGroup(rank_head, self.rank_ax, prob_head, self.prob_ax, xname)

    def rp(self, x: float, height: float):
        return self.rank_ax.axes.c2p(x, height)

    def pp(self, x: float, prob: float):
        return self.prob_ax.axes.c2p(x, prob)

    def curve(self, layers: list[dict], width: float = 3, opacity: float = 1.0) -> VGroup:
        """The answer's rank and probability after each of `layers`: lines and dots."""
        rank_pts = [self.rp(r["layer"], r["height"]) for r in layers]
        prob_pts = [self.pp(r["layer"], r["prob"]) for r in layers]
        lines = VGroup(*[VMobject(stroke_color=T.X, stroke_width=width, stroke_opacity=opacity)
                         .set_points_as_corners(pts) for pts in (rank_pts, prob_pts)])
        dots = VGroup(*[Dot(p, radius=0.04, color=T.X) for p in rank_pts + prob_pts])
        return VGroup(lines, dots)

    def draw_rank(self) -> None:
        d = self.data
        lays = self.layers
        ticks = [(l, f"data.x_ticks[{i}]") for i, l in enumerate(d["x_ticks"])]
        plots = self.put("right", self.make_plots(
            0, ticks, f"rank of {self.answer} after \"{self.word}\" (log scale, 1 = top)"))
        curve = self.curve(lays)
        w = d["window"]
        start = w["start"]
        top = self.rp(start - 0.5, d["rank_axis"]["y_range"][1])
        split = DashedLine(top, self.pp(start - 0.5, 0), dash_length=0.06,
                           stroke_color=T.MUTED, stroke_width=1.5)
        win = inline(txt("last", T.TINY_SIZE, T.MUTED),
                     Num(w["size"], "data.window.size", 0, T.TINY_SIZE, T.MUTED),
                     txt("layers", T.TINY_SIZE, T.MUTED), buff=0.06)
        win.next_to(top, LEFT, buff=0.1).shift(DOWN * 0.3)
        # drawn layer by layer (both plots in step), a dot per layer as the line reaches it
        n_pts = len(lays)
        dots = list(curve[1])
        self.play(Create(curve[0], rate_func=linear),
                  LaggedStart(*[FadeIn(VGroup(dots[i], dots[n_pts + i])) for i in range(n_pts)],
                              lag_ratio=1.0, rate_func=linear),
                  run_time=self.quick(0.4, 9.0))
        before, last = lays[start - 1], lays[-1]
        n = len(lays) - 1
        notes = VGroup(
            Num(before["rank"], f"data.layers[{start - 1}].rank", 0, T.TINY_SIZE, T.TEXT)
            .next_to(self.rp(start - 1, before["height"]), DOWN, buff=0.1),
            Num(last["rank"], f"data.layers[{n}].rank", 0, T.TINY_SIZE, T.HIGHLIGHT)
            .next_to(self.rp(last["layer"], last["height"]), RIGHT, buff=0.08),
            Num(last["prob"], f"data.layers[{n}].prob", T.DECIMALS, T.TINY_SIZE, T.HIGHLIGHT)
            .next_to(self.pp(last["layer"], last["prob"]), LEFT, buff=0.12))
        if start == 0:                    # no flat stretch to mark off
            notes.remove(notes[0])
            split, win = VGroup(), VGroup()
        self.play(FadeInPlace(notes), Create(split), FadeInPlace(win), run_time=self.quick())
        self.adopt(plots, curve, notes, split, win)
        self.hold_until_cue(1)
        if len(notes) == 3:               # "then drops fast over the last layers"
            self.emphasize(VGroup(notes[0], notes[1]))
        self.hold_until_cue(2)
        self.point_at(notes[-1])

    # --- sublayer credit ----------------------------------------------------------------
    def draw_credit(self) -> None:
        """The late layers close up, each split into its attention and FFN add, and the table."""
        lays = self.layers
        first = self.credit["rows"][0]["layer"] - 1
        ticks = [(l, f"data.layers[{l}].layer") for l in range(first, len(lays))]
        plots = self.make_plots(first, ticks, f"rank of {self.answer}, late layers close up "
                                              "(log scale, 1 = top)")
        group = self.place(self.credit_table(), "left")
        head, table, notes = group
        n_rows = len(self.credit["rows"])
        cells = list(table)
        frame = self.put("left", VGroup(head, *cells[:5]), placed=True)   # title, header row
        self.put("right", plots)
        curve = self.curve(lays[first:], width=2, opacity=0.5)
        key = VGroup(legend_item(T.ATTN, "read after the attention add", T.TINY_SIZE, line=True),
                     legend_item(T.FFN, "read after the FFN add", T.TINY_SIZE, line=True))
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        key.next_to(self.rp(first - 0.5, self.data["rank_axis"]["y_range"][1]), DOWN + RIGHT,
                    buff=0.12)
        self.play(FadeInPlace(curve), FadeInPlace(key), run_time=self.quick(0.06, 0.6))
        # layer by layer: its attention add, then its FFN add, and its row of the table
        segs, mids = VGroup(), VGroup()
        per = self.quick(0.45, 16.0) / n_rows
        for k, row in enumerate(self.credit["rows"]):
            l = row["layer"]
            prev, lay = lays[l - 1], lays[l]
            attn, ffn, mid = VGroup(), VGroup(), VGroup()
            for point, y0, ym, y1 in ((self.rp, prev["height"], lay["mid_height"], lay["height"]),
                                      (self.pp, prev["prob"], lay["mid_prob"], lay["prob"])):
                a, m, b = point(l - 1, y0), point(lay["mid_x"], ym), point(l, y1)
                attn.add(Line(a, m, stroke_color=T.ATTN, stroke_width=4))
                ffn.add(Line(m, b, stroke_color=T.FFN, stroke_width=4))
                mid.add(Dot(m, radius=0.045, color=T.ATTN))
            line = VGroup(*cells[5 * (k + 1): 5 * (k + 2)])
            self.play(FadeInPlace(line[:3]), Create(attn), run_time=per / 2)
            self.play(FadeInPlace(line[3:]), Create(ffn), FadeIn(mid), run_time=per / 2)
            segs.add(attn, ffn)
            mids.add(mid)
            self.adopt(frame, line)
        self.adopt(plots, curve, segs, mids, key)
        for i, note in enumerate(notes):     # the three summaries, each as it is spoken
            self.hold_until_cue(i + 1)
            self.play(FadeInPlace(note), run_time=self.quick(0.05, 0.5))
            self.adopt(frame, note)

    def credit_table(self) -> VGroup:
        c = self.credit
        size = T.LABEL_SIZE
        names = {"attn": ("attention", T.ATTN), "ffn": ("FFN", T.FFN)}
        cells = [txt("layer", T.SMALL_SIZE, T.MUTED), txt("before", T.SMALL_SIZE, T.MUTED),
                 txt("+ attention", T.SMALL_SIZE, T.ATTN), txt("+ FFN", T.SMALL_SIZE, T.FFN),
                 txt("moved it more", T.SMALL_SIZE, T.MUTED)]
        for i, r in enumerate(c["rows"]):
            s = f"data.credit.rows[{i}]"
            who, color = names[r["mover"]]
            cells += [Num(r["layer"], f"{s}.layer", 0, size, T.MUTED),
                      Num(r["before"], f"{s}.before", 0, size, T.X),
                      Num(r["after_attn"], f"{s}.after_attn", 0, size, T.ATTN),
                      Num(r["after_ffn"], f"{s}.after_ffn", 0, size, T.FFN),
                      txt(who, T.SMALL_SIZE, color)]
        table = VGroup(*cells).arrange_in_grid(rows=len(c["rows"]) + 1, cols=5,
                                               buff=(0.3, 0.1), cell_alignment=RIGHT)
        head = txt(f"rank of {self.answer}: before the layer, after each add", T.SMALL_SIZE)
        size = T.SMALL_SIZE
        b = c["biggest_step"]
        who, color = names[b["sublayer"]]
        big = VGroup(
            inline(txt("biggest single step:", size), txt(who, size, color), txt("in layer", size),
                   Num(b["layer"], "data.credit.biggest_step.layer", 0, size)),
            inline(txt("moves it from rank", size),
                   Num(b["from"], "data.credit.biggest_step.from", 0, size),
                   txt("to", size), Num(b["to"], "data.credit.biggest_step.to", 0, size, color)),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        total = VGroup(
            txt("over these layers the rank is divided by", size),
            inline(Num(c["attn_total"], "data.credit.attn_total", 1, size, T.ATTN),
                   txt("by the attention adds,", size),
                   Num(c["ffn_total"], "data.credit.ffn_total", 0, size, T.FFN),
                   txt("by the FFN adds", size))).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        n = len(c["rows"]) - 1
        last, s = c["rows"][n], f"data.credit.rows[{n}]"
        prob = VGroup(
            inline(txt("in layer", size), Num(last["layer"], f"{s}.layer", 0, size),
                   txt(f"the probability of {self.answer} goes", size, mono=False)),
            inline(Num(last["prob_before"], f"{s}.prob_before", T.DECIMALS, size, T.X),
                   txt("→", size),
                   Num(last["prob_after_attn"], f"{s}.prob_after_attn", T.DECIMALS, size,
                       T.ATTN),
                   txt("→", size),
                   Num(last["prob_after_ffn"], f"{s}.prob_after_ffn", T.DECIMALS, size,
                       T.FFN))).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
        notes = VGroup(big, total, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.TIGHT + 0.06)
        group = VGroup(head, table, notes).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
        if group.width > COL_WIDTH:
            group.scale_to_fit_width(COL_WIDTH)
        return group
