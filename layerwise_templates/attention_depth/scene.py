"""Attention across depth: where the focus word looks at every layer, as arcs.

The sentence's tokens sit in a row; from the focus word an arc goes to every other token, its
width and opacity the focus word's attention weight there (the head-average: the mean of the
heads' rows, said on screen), its number under the token. Right: the share of the row on the
special tokens ([CLS], [SEP]), one bar per layer.

Beats (storyboard `show` names):
- `arcs`   the tokens are written, layer 0's arcs grow out of the focus word, its weights
           appear under the tokens; the heaviest arc is pointed at; the sink chart's first bar
- `depth`  layer 1, 2, ...: the arcs morph (Transform) to the next layer's row, the layer number
           counts up, the weights change, and the sink chart grows one bar per layer
- `sink`   the special tokens and the highest bar are ringed; the lowest and the last layer's
           bars are labelled from the plan; the arcs return to the last layer's row
- `heads`  the arcs return to the chosen layer, then they and the chart give way to that
           layer's heads, one row each (its head-average row splits into them), with each
           head's previous-token score; the strongest previous-token head's row and its weight
           on the token before are ringed

Every number drawn is a `Num` bound to its plan path; the scene does no model arithmetic.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, PI, RIGHT, UP, ArcBetweenPoints, Create, GrowFromEdge,
                   LaggedStart, Line, Rectangle, ReplacementTransform, SurroundingRectangle,
                   Transform, VGroup, Write)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.base import StoryboardScene
from scenes.mobjects import Num, inline, txt

S = T.TYPE.small
PITCH = 0.95                # token spacing in the arc diagram
ROW_Y = -1.0                # the token row
ARC_ANGLE = 2 * PI / 3      # arcs bulge upwards
WIDTH = 26.0                # stroke width of an arc with weight 1
BAR_H = 2.6                 # a bar of share 1
BAR_W = 0.46
BAR_PITCH = 0.68
CHART_X = 2.2               # the sink chart's left edge
CHART_Y = -1.5              # its baseline
GRID_TOP = 1.55             # heads: first row's centre
GRID_PITCH = 0.36
GRID_DX = 1.4               # heads: the token columns move right (room for the head names)


class AttentionDepthScene(StoryboardScene):

    def layout(self) -> None:
        d = self.data
        n = len(d["tokens"])
        self.x0 = -6.3
        self.xs = [self.x0 + PITCH * j for j in range(n)]
        self.bars = VGroup()

    # --- pieces ---------------------------------------------------------------------------
    def token_row(self) -> VGroup:
        d = self.data
        g = VGroup()
        for j, tok in enumerate(d["tokens"]):
            color = (T.HIGHLIGHT if j == d["focus"] else T.MUTED if j in d["special"] else T.TEXT)
            g.add(txt(tok, T.TYPE.label, color).move_to([self.xs[j], ROW_Y, 0]))
        return g

    def arcs(self, row: list[float]) -> VGroup:
        """One arc from the focus word to every other token; width and opacity = weight."""
        f = self.data["focus"]
        top = self.tokens.get_top()[1] + 0.08
        g = VGroup()
        for j, w in enumerate(row):
            if j == f:
                continue
            a = ArcBetweenPoints([self.xs[f], top, 0], [self.xs[j], top, 0],
                                 angle=ARC_ANGLE if j < f else -ARC_ANGLE)
            a.set_stroke(T.ATTN, width=max(0.6, WIDTH * w), opacity=0.3 + 0.7 * min(1.0, 2 * w))
            g.add(a)
        return g

    def weights(self, row: list[float], path: str, decimals: int) -> VGroup:
        y = self.tokens.get_bottom()[1] - 0.28
        return VGroup(*[Num(w, f"{path}[{j}]", decimals, S, T.ATTN).move_to([self.xs[j], y, 0])
                        for j, w in enumerate(row)])

    def counter(self, l: int) -> VGroup:
        g = inline(txt("layer", T.TYPE.body), Num(l, f"data.layers[{l}].layer", 0, T.TYPE.body))
        return g.move_to([0, 2.45, 0]).align_to([self.x0 - 0.3, 0, 0], LEFT)

    def layer_view(self, l: int) -> tuple:
        row = self.data["layers"][l]
        return (self.arcs(row["row"]),
                self.weights(row["row"], f"data.layers[{l}].row", row["decimals"]),
                self.counter(l))

    def bar(self, l: int) -> VGroup:
        share = self.data["layers"][l]["sink"]
        x = CHART_X + 0.35 + l * BAR_PITCH + BAR_W / 2
        r = Rectangle(width=BAR_W, height=max(0.01, BAR_H * share), stroke_width=0)
        r.set_fill(T.ATTN, 0.85).move_to([x, CHART_Y, 0], aligned_edge=DOWN)
        lab = Num(l, f"data.layers[{l}].layer", 0, S, T.MUTED).move_to([x, CHART_Y - 0.22, 0])
        g = VGroup(r, lab)
        g.rect = r
        return g

    def bar_value(self, l: int, color=T.TEXT) -> Num:
        r = self.bars[l].rect
        return Num(self.data["layers"][l]["sink"], f"data.layers[{l}].sink", 2, S,
                   color).next_to(r, UP, buff=0.08)

    def chart_frame(self) -> VGroup:
        L = len(self.data["layers"])
        right = CHART_X + 0.35 + L * BAR_PITCH + 0.1
        base = Line([CHART_X, CHART_Y, 0], [right, CHART_Y, 0], color=T.MUTED, stroke_width=2)
        names = " + ".join(self.data["special_tokens"])
        head = VGroup(txt(f"share on {names}", S), txt("per layer", S, T.MUTED))
        head.arrange(DOWN, buff=0.06, aligned_edge=LEFT)
        head.next_to([CHART_X, CHART_Y + BAR_H + 0.4, 0], RIGHT, buff=0)
        xname = txt("layer", S, T.MUTED).next_to(base, DOWN, buff=0.42)
        return VGroup(head, base, xname)

    # --- beats ----------------------------------------------------------------------------
    def beat_arcs(self, beat) -> None:
        d = self.data
        self.tokens = self.token_row()
        arcs, nums, count = self.layer_view(0)
        note = VGroup(inline(txt(f"\"{d['word']}\" → every other token · the mean of its",
                                 S, T.MUTED),
                             Num(d["n_heads"], "data.n_heads", 0, S, T.MUTED),
                             txt("heads", S, T.MUTED)),
                      txt("arc width = attention weight", S, T.MUTED))
        note.arrange(DOWN, buff=0.06, aligned_edge=LEFT).next_to(count, DOWN, buff=0.12)
        note.align_to(count, LEFT)
        top = d["layers"][0]["top"]["pos"]
        frame = self.chart_frame()
        self.bars.add(self.bar(0))
        self.fill_to(self.cue_at(1), [
            (3, lambda t: self.play(Write(self.tokens), run_time=t)),
            (1, lambda t: self.emphasize(self.tokens[d["focus"]], run_time=t)),
            (2, lambda t: self.play(FadeInPlace(count), FadeInPlace(note), run_time=t)),
        ])
        self.fill_to(self.cue_at(2), [
            (3, lambda t: self.play(LaggedStart(*[Create(a) for a in arcs], lag_ratio=0.15),
                                    run_time=t)),
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(n) for n in nums],
                                                lag_ratio=0.1), run_time=t)),
        ])
        self.fill_to(self.cue_at(3), [
            (1, lambda t: self.point_at(nums[top], run_time=t)),
            (1, lambda t: self.emphasize(self.tokens[top], run_time=t)),
            (2, lambda t: self.play(Create(frame), GrowFromEdge(self.bars[0].rect, DOWN),
                                    FadeInPlace(self.bars[0][1]), run_time=t)),
        ])
        self.as_one(self.bars[0])
        self.arc_g, self.nums, self.count, self.note, self.frame = arcs, nums, count, note, frame

    def show_layer(self, l: int, t: float, bar: bool = False) -> None:
        arcs, nums, count = self.layer_view(l)
        # replaced, not morphed in place: each Num on screen keeps its own plan path
        anims = [ReplacementTransform(self.arc_g, arcs), ReplacementTransform(self.nums, nums),
                 ReplacementTransform(self.count, count)]
        if bar:
            self.bars.add(self.bar(l))
            # the bar grows up from the axis; its layer number fades in below it
            anims += [GrowFromEdge(self.bars[l].rect, DOWN), FadeInPlace(self.bars[l][1])]
        self.play(*anims, run_time=t)
        if bar:
            self.as_one(self.bars[l])
        self.arc_g, self.nums, self.count = arcs, nums, count

    def as_one(self, g: VGroup) -> None:
        """Pieces animated one by one stay on screen as their group."""
        self.remove(*g)
        self.add(g)

    def beat_depth(self, beat) -> None:
        layers = [x["layer"] for x in self.data["layers"]][1:]
        self.fill_to(self.cue_at(self.n_cues()),
                   [(1, lambda t, l=l: self.show_layer(l, t, bar=True)) for l in layers[:-1]] +
                   [(1, lambda t: self.show_layer(layers[-1], t, bar=True)),
                    (1, lambda t: self.emphasize(self.bars[self.data["sink"]["max"]["layer"]],
                                                 run_time=t))])

    def beat_sink(self, beat) -> None:
        d = self.data
        sp = VGroup(*[self.tokens[j] for j in d["special"]])
        rings = VGroup(*[SurroundingRectangle(self.tokens[j], color=T.HIGHLIGHT, buff=0.06)
                         for j in d["special"]])
        hi, lo = d["sink"]["max"]["layer"], d["sink"]["min"]["layer"]
        L = len(d["layers"])
        values = VGroup(*[self.bar_value(l, T.HIGHLIGHT if l in (hi, lo, L - 1) else T.MUTED)
                          for l in range(L)])
        self.fill_to(self.cue_at(1), [
            (2, lambda t: self.play(Create(rings), run_time=t)),
            (1, lambda t: self.emphasize(sp, run_time=t)),
            (2, lambda t: self.play(LaggedStart(*[FadeInPlace(v) for v in values],
                                                lag_ratio=0.2), run_time=t)),
            (2, lambda t: self.show_layer(hi, t)),
        ])
        self.fill_to(self.cue_at(2), [
            (2, lambda t: self.show_layer(lo, t)),
            (1, lambda t: self.point_at(values[lo], run_time=t)),
            (2, lambda t: self.show_layer(L - 1, t)),
            (1, lambda t: self.point_at(values[L - 1], run_time=t)),
        ])
        self.rings, self.values = rings, values

    def head_grid(self) -> VGroup:
        """One row per head of the chosen layer: the focus word's weights under the tokens,
        each cell as bright as its weight; the head's previous-token score at the right."""
        h = self.data["heads"]
        gx = [x + GRID_DX for x in self.xs]
        rows = VGroup()
        for i, row in enumerate(h["rows"]):
            y = GRID_TOP - i * GRID_PITCH
            cells = VGroup(*[Rectangle(width=PITCH - 0.08, height=GRID_PITCH - 0.05,
                                       stroke_width=0).set_fill(T.ATTN, 0.08 + 0.55 * w)
                             .move_to([gx[j], y, 0]) for j, w in enumerate(row)])
            nums = VGroup(*[Num(w, f"data.heads.rows[{i}][{j}]", h["decimals"][i], S)
                            .move_to([gx[j], y, 0]) for j, w in enumerate(row)])
            name = inline(txt("head", S, T.MUTED), Num(h["ids"][i], f"data.heads.ids[{i}]", 0, S,
                                                        T.MUTED))
            name.move_to([0, y, 0]).align_to([gx[0] - 0.5, 0, 0], RIGHT)
            score = Num(h["prev_token"][i], f"data.heads.prev_token[{i}]", 2, S,
                        T.HIGHLIGHT if i == h["prev"]["head"] else T.TEXT)
            score.move_to([gx[-1] + 1.35, y, 0])
            g = VGroup(name, cells, nums, score)
            g.cells, g.nums, g.score = cells, nums, score
            rows.add(g)
        return rows

    def beat_heads(self, beat) -> None:
        d, h = self.data, self.data["heads"]
        L = h["layer"]
        top_y = GRID_TOP + 0.5
        grid = self.head_grid()
        head = VGroup(txt("prev-token", S, T.MUTED), txt("score", S, T.MUTED))
        head.arrange(DOWN, buff=0.02).move_to([self.xs[-1] + GRID_DX + 1.35, top_y + 0.2, 0])
        title = inline(txt("layer", T.TYPE.body), Num(L, "data.heads.layer", 0, T.TYPE.body),
                       txt(f"· the row of \"{d['word']}\", head by head", S, T.MUTED))
        title.move_to([0, 2.7, 0]).align_to([self.x0 - 0.3, 0, 0], LEFT)
        shift = UP * (top_y - ROW_Y) + RIGHT * GRID_DX
        moved_tokens = self.tokens.copy().shift(shift)
        moved_rings = self.rings.copy().shift(shift)
        p = h["prev"]["head"]
        before = h["prev"]["before"]["pos"] if h["prev"]["before"] else d["focus"]
        box = SurroundingRectangle(grid[p], color=T.HIGHLIGHT, buff=0.04, stroke_width=2.5)
        cell = SurroundingRectangle(grid[p].cells[before], color=T.HIGHLIGHT, buff=0.02,
                                    stroke_width=3)
        self.fill_to(self.cue_at(1), [
            (2, lambda t: self.show_layer(L, t)),          # the average row of that layer
            (2, lambda t: self.play(FadeOutPlace(VGroup(self.arc_g, self.frame, self.bars,
                                                        self.values, self.note, self.count)),
                                    Transform(self.tokens, moved_tokens),
                                    Transform(self.rings, moved_rings), run_time=t)),
            (1, lambda t: self.play(FadeInPlace(title), run_time=t)),
        ])
        # copies of the chosen layer's average row (now on screen), one per head
        splits = [self.nums.copy() for _ in grid]
        self.remove(self.nums)
        self.fill_to(self.cue_at(2), [
            (4, lambda t: self.play(
                LaggedStart(*[ReplacementTransform(s, g.nums) for s, g in zip(splits, grid)],
                            lag_ratio=0.08),
                LaggedStart(*[FadeInPlace(VGroup(g[0], g.cells)) for g in grid],
                            lag_ratio=0.08), run_time=t)),
            (2, lambda t: self.play(FadeInPlace(head),
                                    LaggedStart(*[FadeInPlace(g.score) for g in grid],
                                                lag_ratio=0.08), run_time=t)),
        ])
        self.fill_to(self.cue_at(self.n_cues()), [
            (2, lambda t: self.play(Create(box), run_time=t)),
            (1, lambda t: self.point_at(grid[p].score, run_time=t)),
            (2, lambda t: self.play(Create(cell), run_time=t)),
            (1, lambda t: self.emphasize(self.tokens[before], run_time=t)),
            (2, lambda t: self.emphasize(VGroup(*[g.score for g in grid]), run_time=t)),
        ])


__all__ = ["AttentionDepthScene"]
