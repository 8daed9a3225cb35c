"""Logit lens: every layer's stream decoded as if it were the last, for one prompt.

Two slots share the frame: the left holds the lens panel or the rank plot, the right the grid
or the credit table; a new piece replaces the old one in its slot.

Beats (each optional, in storyboard order):
- `lens` (uses the beat's `layer`): the top-5 next tokens after the focus token at that layer,
  with probabilities, and the final answer's rank and probability there. With the grid on
  screen, that layer's row is ringed.
- `grid`: layers x positions, the lens's top-1 token per cell, cells coloured by its
  probability, yellow where it equals the final layer's top-1 at that position. Rows are a
  subset (every 3rd layer, then every layer of the late window), each labelled.
- `rank`: first showing: the answer's rank (log scale, 1 at the top) and probability after
  every layer. Next showing: each late layer split into its attention add (resid_mid) and FFN
  add (resid_post), and the credit table replacing the grid.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Create, DashedLine, Dot, FadeIn, Line,
                   SurroundingRectangle, VGroup, VMobject)

from . import theme as T
from .base import StoryboardScene
from .mobjects import (Num, PlacedTickAxes, ProbBars, RampKey, TokenCells, highlighted, inline,
                       legend_item, txt)

COL_WIDTH = 6.5            # each of the two slots
RANK_PLOT = (5.6, 1.9)     # rank axes (width, height)
PROB_PLOT = (5.6, 1.05)    # probability axes, under the rank axes, same layer scale
CELL = (1.08, 0.245)       # grid cell (width, height)
GRID_SIZE = 15
BAR_WIDTH = 2.5


class LogitLensScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.layers, self.grid_data, self.credit = d["layers"], d["grid"], d["credit"]
        self.answer = d["answer"]["display"]
        self.top = self.title.get_bottom()[1] - T.BUFF
        self.slots: dict[str, VGroup | None] = {"left": None, "right": None}
        self.grid_rows: dict[int, VGroup] = {}
        self.ring = None
        self.rank_stage = 0

    # --- slots --------------------------------------------------------------------------
    def place(self, mob: VGroup, side: str) -> VGroup:
        mob.move_to([0, 0, 0])
        mob.set_y(self.top - mob.height / 2)
        if side == "left":
            mob.to_edge(LEFT, buff=T.EDGE + 0.1)
        else:
            mob.to_edge(RIGHT, buff=T.EDGE + 0.1)
        return mob

    def put(self, side: str, mob: VGroup) -> VGroup:
        if side == "right" or self.ring is not None and self.slots["right"] is None:
            self.drop_ring()
        self.slots[side] = self.swap(self.slots[side], self.place(mob, side))
        return mob

    def drop_ring(self) -> None:
        if self.ring is not None:
            self.remove(self.ring)
            self.ring = None

    def layer_of(self, beat) -> int:
        return beat["layer"] if beat["layer"] is not None else self.plan["layers"][-1]

    def prompt_line(self, size: float = T.LABEL_SIZE) -> VGroup:
        p = self.data["prompt"]
        sentence = self.plan["sentences"][0]
        word = self.plan["focus"][0].partition("#")[0]
        return inline(highlighted(sentence, word, T.X, size), txt("→ ?", size, T.MUTED),
                      buff=0.15)

    # --- beats --------------------------------------------------------------------------
    def beat_lens(self, beat) -> None:
        l = self.layer_of(beat)
        lay = self.layers[l]
        src = f"data.layers[{l}]"
        head = inline(txt("next token, read out after layer", T.LABEL_SIZE),
                      Num(lay["layer"], f"{src}.layer", 0, T.LABEL_SIZE, T.HIGHLIGHT),
                      txt("of", T.LABEL_SIZE, T.MUTED),
                      Num(self.data["n_layers"], "data.n_layers", 0, T.LABEL_SIZE, T.MUTED))
        rows = [(f"{i + 1}. {e['display']}", e["prob"], f"{src}.top[{i}].prob",
                 T.HIGHLIGHT if e["is_answer"] else T.X) for i, e in enumerate(lay["top"])]
        bars = ProbBars(rows, bar_width=BAR_WIDTH, label_width=1.7, size=T.LABEL_SIZE)
        top_note = txt(f"lens top-{self.data['top_k']}, probability", T.SMALL_SIZE, T.MUTED)
        answer = inline(txt(f"final answer {self.answer}:", T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                        txt("rank", T.LABEL_SIZE),
                        Num(lay["rank"], f"{src}.rank", 0, T.LABEL_SIZE, T.HIGHLIGHT),
                        txt("  p =", T.LABEL_SIZE),
                        Num(lay["prob"], f"{src}.prob", T.DECIMALS, T.LABEL_SIZE, T.HIGHLIGHT))
        panel = VGroup(self.prompt_line(), head, top_note, bars, answer)
        panel.arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
        top_note.next_to(head, DOWN, buff=T.BUFF + 0.05, aligned_edge=LEFT)
        bars.next_to(top_note, DOWN, buff=T.TIGHT, aligned_edge=LEFT)
        answer.next_to(bars, DOWN, buff=T.GAP, aligned_edge=LEFT)
        self.put("left", panel)
        self.ring_row(l)

    def ring_row(self, l: int) -> None:
        """Ring layer l's grid row when the grid is on screen."""
        self.drop_ring()
        row = self.grid_rows.get(l)
        if row is None or self.slots["right"] is None or row not in self.slots["right"].family:
            return
        ring = SurroundingRectangle(row, color=T.HIGHLIGHT, buff=0.03, stroke_width=2)
        self.play(Create(ring), run_time=self.quick(0.1, 0.4))
        self.ring = ring

    def beat_grid(self, beat) -> None:
        g = self.grid_data
        rows = g["rows"]
        cells = TokenCells([[c["display"] for c in r["cells"]] for r in rows],
                           [[c["prob"] for c in r["cells"]] for r in rows],
                           [[T.HIGHLIGHT if c["is_final"] else T.TEXT for c in r["cells"]]
                            for r in rows], T.X, CELL[0], CELL[1], GRID_SIZE)
        heads = VGroup(*[txt(p["display"], GRID_SIZE, T.MUTED, mono=True)
                         for p in g["positions"]])
        for j, h in enumerate(heads):
            if h.width > 0.95 * CELL[0]:
                h.scale_to_fit_width(0.95 * CELL[0])
            h.next_to(cells.cells[0][j], UP, buff=0.08)
        labels = VGroup(*[Num(r["layer"], f"data.grid.rows[{i}].layer", 0, GRID_SIZE, T.MUTED)
                          .next_to(cells.cells[i][0], LEFT, buff=0.12)
                          for i, r in enumerate(rows)])
        labels.align_to(labels[0], RIGHT)  # right-aligned column of layer numbers
        for i, lab in enumerate(labels):
            lab.next_to(cells.cells[i][0], LEFT, buff=0.12)
        name = txt("layer", T.SMALL_SIZE, T.MUTED).next_to(labels, UP, buff=0.08)
        name.match_y(heads)
        self.grid_rows = {r["layer"]: VGroup(*cells.cells[i]) for i, r in enumerate(rows)}
        caption = txt("lens top-1 at every position (input tokens across)", T.SMALL_SIZE)
        key = RampKey(Num(g["key"][0], "data.grid.key[0]", 0, T.TINY_SIZE, T.MUTED),
                      Num(g["key"][1], "data.grid.key[1]", 0, T.TINY_SIZE, T.MUTED), T.X)
        key_row = inline(txt("cell: top-1 probability", T.TINY_SIZE, T.MUTED), key,
                         txt("   yellow: = final layer's top-1", T.TINY_SIZE, T.HIGHLIGHT),
                         buff=0.12)
        body = VGroup(name, heads, labels, cells)
        caption.next_to(body, UP, buff=T.TIGHT).align_to(labels, LEFT)
        key_row.next_to(body, DOWN, buff=T.TIGHT + 0.05).align_to(labels, LEFT)
        self.put("right", VGroup(caption, body, key_row))
        self.grid_cells = cells

    def beat_rank(self, beat) -> None:
        if self.rank_stage == 0:
            self.draw_rank()
        else:
            self.draw_credit()
        self.rank_stage += 1

    # --- the rank plot ------------------------------------------------------------------
    def make_plots(self) -> VGroup:
        d = self.data
        L = d["n_layers"]
        ra = d["rank_axis"]
        xr = [-0.5, L - 0.5, 1]
        x_ticks = [(l, l, f"data.x_ticks[{i}]") for i, l in enumerate(d["x_ticks"])]
        self.rank_ax = PlacedTickAxes(
            xr, [ra["y_range"][0], ra["y_range"][1] + 0.15, 1], *RANK_PLOT, x_ticks=[],
            y_ticks=[(t["height"], t["rank"], f"data.rank_axis.ticks[{i}].rank")
                     for i, t in enumerate(ra["ticks"])])
        self.prob_ax = PlacedTickAxes(
            xr, [0, 1.08, 0.5], *PROB_PLOT, x_ticks=x_ticks,
            y_ticks=[(v, v, f"data.prob_axis.ticks[{i}]")
                     for i, v in enumerate(d["prob_axis"]["ticks"])], y_decimals=1)
        rank_head = txt(f"rank of {self.answer} after \"{self.prompt_word()}\" "
                        "(log scale, 1 = top)", T.SMALL_SIZE)
        prob_head = txt(f"probability of {self.answer}", T.SMALL_SIZE)
        xname = txt("layer", T.SMALL_SIZE, T.MUTED)
        plots = VGroup(rank_head, self.rank_ax, prob_head, self.prob_ax, xname)
        plots.arrange(DOWN, buff=T.TIGHT)
        self.prob_ax.next_to(self.rank_ax, DOWN, buff=0.45).align_to(self.rank_ax.axes, RIGHT)
        self.prob_ax.shift(RIGHT * (self.rank_ax.axes.get_left()[0] -
                                    self.prob_ax.axes.get_left()[0]))
        rank_head.next_to(self.rank_ax, UP, buff=T.TIGHT).align_to(self.rank_ax.y_labels, LEFT)
        prob_head.next_to(self.prob_ax.axes, UP, buff=0.06).align_to(rank_head, LEFT)
        xname.next_to(self.prob_ax.x_labels, DOWN, buff=0.05).match_x(self.prob_ax.axes)
        return plots

    def prompt_word(self) -> str:
        return self.plan["focus"][0].partition("#")[0]

    def rp(self, x: float, height: float):
        return self.rank_ax.axes.c2p(x, height)

    def pp(self, x: float, prob: float):
        return self.prob_ax.axes.c2p(x, prob)

    def polyline(self, points, color, width: float = 3) -> VMobject:
        return VMobject(stroke_color=color, stroke_width=width).set_points_as_corners(points)

    def draw_rank(self) -> None:
        plots = self.make_plots()
        self.put("left", plots)
        lays = self.layers
        rank_pts = [self.rp(r["layer"], r["height"]) for r in lays]
        prob_pts = [self.pp(r["layer"], r["prob"]) for r in lays]
        self.rank_line = self.polyline(rank_pts, T.X)
        self.prob_line = self.polyline(prob_pts, T.X)
        self.rank_dots = VGroup(*[Dot(p, radius=0.035, color=T.X) for p in rank_pts])
        self.prob_dots = VGroup(*[Dot(p, radius=0.035, color=T.X) for p in prob_pts])
        w = self.data["window"]
        start = w["start"]
        top = self.rank_ax.axes.c2p(start - 0.5, self.data["rank_axis"]["y_range"][1])
        bottom = self.prob_ax.axes.c2p(start - 0.5, 0)
        split = DashedLine(top, bottom, dash_length=0.06, stroke_color=T.MUTED, stroke_width=1.5)
        win = inline(txt("last", T.TINY_SIZE, T.MUTED),
                     Num(w["size"], "data.window.size", 0, T.TINY_SIZE, T.MUTED),
                     txt("layers", T.TINY_SIZE, T.MUTED), buff=0.06)
        self.play(Create(self.rank_line), Create(self.prob_line), FadeIn(self.rank_dots),
                  FadeIn(self.prob_dots), run_time=self.quick(0.35, 2.5))
        before, last = lays[start - 1], lays[-1]
        notes = VGroup(
            Num(before["rank"], f"data.layers[{start - 1}].rank", 0, T.TINY_SIZE, T.TEXT)
            .next_to(self.rp(start - 1, before["height"]), DOWN + LEFT, buff=0.04),
            Num(last["rank"], f"data.layers[{len(lays) - 1}].rank", 0, T.TINY_SIZE,
                T.HIGHLIGHT).next_to(self.rp(last["layer"], last["height"]), RIGHT, buff=0.08),
            Num(last["prob"], f"data.layers[{len(lays) - 1}].prob", T.DECIMALS, T.TINY_SIZE,
                T.HIGHLIGHT).next_to(self.pp(last["layer"], last["prob"]), RIGHT, buff=0.08))
        win.next_to(top, RIGHT, buff=0.08).shift(DOWN * 0.1)
        self.play(FadeIn(notes), Create(split), FadeIn(win), run_time=self.quick())
        plots.add(self.rank_line, self.prob_line, self.rank_dots, self.prob_dots, notes, split,
                  win)

    # --- sublayer credit ----------------------------------------------------------------
    def draw_credit(self) -> None:
        c = self.credit
        lays = self.layers
        segs, dots = VGroup(), VGroup()
        for row in c["rows"]:
            l = row["layer"]
            prev, lay = lays[l - 1], lays[l]
            for point, y0, ym, y1 in ((self.rp, prev["height"], lay["mid_height"], lay["height"]),
                                      (self.pp, prev["prob"], lay["mid_prob"], lay["prob"])):
                a, m, b = point(l - 1, y0), point(lay["mid_x"], ym), point(l, y1)
                segs.add(Line(a, m, stroke_color=T.ATTN, stroke_width=3.5),
                         Line(m, b, stroke_color=T.FFN, stroke_width=3.5))
                dots.add(Dot(m, radius=0.035, color=T.ATTN))
        key = VGroup(legend_item(T.ATTN, "after the attention add (resid_mid)", T.TINY_SIZE,
                                 line=True),
                     legend_item(T.FFN, "after the FFN add (resid_post)", T.TINY_SIZE, line=True))
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        key.next_to(self.rank_ax.axes.c2p(0, 0), DOWN + RIGHT, buff=0.12)
        self.right_table = self.credit_table()
        self.put("right", self.right_table)
        self.play(self.rank_line.animate.set_stroke(opacity=0.3),
                  self.prob_line.animate.set_stroke(opacity=0.3), run_time=self.quick(0.08, 0.3))
        self.play(Create(segs), FadeIn(dots), FadeIn(key), run_time=self.quick(0.3, 2.0))
        self.slots["left"].add(segs, dots, key)

    def credit_table(self) -> VGroup:
        c = self.credit
        size = T.SMALL_SIZE
        names = {"attn": ("attention", T.ATTN), "ffn": ("FFN", T.FFN)}
        header = [txt("layer", size, T.MUTED), txt("before", size, T.MUTED),
                  txt("+ attention", size, T.ATTN), txt("+ FFN", size, T.FFN),
                  txt("moved it more", size, T.MUTED)]
        cells = list(header)
        for i, r in enumerate(c["rows"]):
            s = f"data.credit.rows[{i}]"
            who, color = names[r["mover"]]
            cells += [Num(r["layer"], f"{s}.layer", 0, size, T.MUTED),
                      Num(r["before"], f"{s}.before", 0, size, T.X),
                      Num(r["after_attn"], f"{s}.after_attn", 0, size, T.ATTN),
                      Num(r["after_ffn"], f"{s}.after_ffn", 0, size, T.FFN),
                      txt(who, size, color)]
        table = VGroup(*cells).arrange_in_grid(rows=len(c["rows"]) + 1, cols=5,
                                               buff=(0.3, 0.13), cell_alignment=RIGHT)
        head = txt(f"rank of {self.answer}, each late layer in two steps", T.SMALL_SIZE)
        b = c["biggest_step"]
        who, color = names[b["sublayer"]]
        big = inline(txt("biggest single step:", size), txt(who, size, color),
                     txt("in layer", size),
                     Num(b["layer"], "data.credit.biggest_step.layer", 0, size),
                     txt(", rank", size),
                     Num(b["from"], "data.credit.biggest_step.from", 0, size),
                     txt("→", size),
                     Num(b["to"], "data.credit.biggest_step.to", 0, size, color))
        total = inline(txt("all together: rank ÷", size),
                       Num(c["attn_total"], "data.credit.attn_total", 1, size, T.ATTN),
                       txt("by attention, ÷", size),
                       Num(c["ffn_total"], "data.credit.ffn_total", 0, size, T.FFN),
                       txt("by the FFNs", size))
        last = c["rows"][-1]
        n = len(c["rows"]) - 1
        prob = inline(txt("probability in layer", size),
                      Num(last["layer"], f"data.credit.rows[{n}].layer", 0, size),
                      txt(":", size),
                      Num(last["prob_before"], f"data.credit.rows[{n}].prob_before", 2, size,
                          T.X),
                      txt("→", size),
                      Num(last["prob_after_attn"], f"data.credit.rows[{n}].prob_after_attn", 2,
                          size, T.ATTN),
                      txt("→", size),
                      Num(last["prob_after_ffn"], f"data.credit.rows[{n}].prob_after_ffn", 2,
                          size, T.FFN))
        notes = VGroup(big, total, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.TIGHT + 0.04)
        return VGroup(head, table, notes).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
