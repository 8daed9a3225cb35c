"""Fresh Q, K, V at every layer: one word's X^l, where the normalisation sits, this layer's own
W_Q, W_K, W_V (thumbnails of a fixed block), and Q^l, K^l, V^l split per head; then the next
layer, with the measured cosines to the previous layer and a recompute check.

Beats (each optional, in storyboard order): `x` (X^l as a strip, its first dims as numbers),
`ln_x` (the normalisation before the projections: post-LN vs pre-norm), `weights` (this layer's
matrices and the formulas), `q`/`k`/`v` (per-head strips), `cos` (cosines to layer l-1, per head
under each strip, means and the recompute error in the side panel).

Layout: the data path runs down the left (X, matrices, Q, K, V); the side panel on the right holds
the current explanation or measurements. A new layer's `x` dims the previous layer's pieces until
they are recomputed.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Arrow, Rectangle, VGroup

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace, DimPlace
from ..base import StoryboardScene
from ..mobjects import (BandStrip, ColorKey, HeadStrips, MatrixThumb, Num, NumberGrid, math, txt,
                       wrapped)

PIPE_WIDTH = 7.6            # X strip and the Q, K, V head rows
LABEL_WIDTH = 1.05          # the label column left of the strips
PANEL_WIDTH = 4.35          # side panel on the right
THUMB = 1.0                 # matrix thumbnail height
ROW_HEIGHT = 0.3            # Q, K, V head strips
DIM = 0.25                  # opacity of a previous layer's pieces
QKV = ("q", "k", "v")
NAMES = {"q": "Q", "k": "K", "v": "V"}
COLORS = {"q": T.Q, "k": T.K, "v": T.V}


def slot(height: float, width: float = PIPE_WIDTH) -> Rectangle:
    """An invisible placeholder: the layout is fixed once, pieces move to their slot."""
    return Rectangle(width=width, height=height, stroke_width=0, fill_opacity=0)


class FreshQKVScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.rows = {row["layer"]: i for i, row in enumerate(d["layers"])}
        s = {"x": slot(T.STRIP_HEIGHT), "w": slot(THUMB + 0.45), "heads": slot(0.2),
             "key": slot(0.45)}
        for k in QKV:
            s[k], s[f"{k}_cos"] = slot(ROW_HEIGHT), slot(0.2)
        # (slot above, slot below, gap between them)
        chain = [("x", "w", 0.4), ("w", "heads", 0.25), ("heads", "q", 0.06),
                 ("q", "q_cos", 0.06), ("q_cos", "k", 0.14), ("k", "k_cos", 0.06),
                 ("k_cos", "v", 0.14), ("v", "v_cos", 0.06), ("v_cos", "key", 0.2)]
        for above, below, gap in chain:
            s[below].next_to(s[above], DOWN, buff=gap)
        skeleton = VGroup(*s.values())
        skeleton.next_to(self.title, DOWN, buff=T.GAP).to_edge(LEFT, buff=T.EDGE + LABEL_WIDTH)
        self.add(skeleton)
        self.slot = s
        self.panel_slot = slot(0.1, PANEL_WIDTH).next_to(self.title, DOWN, buff=T.GAP)
        self.panel_slot.to_edge(RIGHT, buff=T.EDGE)
        self.add(self.panel_slot)
        self.key = self.color_key().move_to(s["key"]).align_to(s["key"], LEFT)
        self.shown: dict[str, object] = {}      # slot name -> piece on screen
        self.current: dict[str, int] = {}       # slot name -> layer it shows
        self.panel = None
        self.tag = None

    # --- helpers ------------------------------------------------------------------------
    def layer(self) -> int:
        l = self.beat["layer"]
        return l if l is not None else self.plan["layers"][0]

    def row(self, l: int | None = None) -> tuple[dict, str]:
        """This layer's plan data and its path in the plan."""
        i = self.rows[self.layer() if l is None else l]
        return self.data["layers"][i], f"data.layers[{i}]"

    def color_key(self) -> VGroup:
        lim = self.data["limits"]
        first = VGroup(txt("colour = value / limit, clipped to", T.TINY_SIZE, T.MUTED),
                       ColorKey(0.9, 0.14),
                       txt("; limit = 99th percentile of |value|", T.TINY_SIZE, T.MUTED)
                       ).arrange(RIGHT, buff=0.12)
        second = [txt("over all layers:", T.TINY_SIZE, T.MUTED)]
        for k, color in (("x", T.X), ("q", T.Q), ("k", T.K), ("v", T.V), ("w", T.TEXT)):
            second.append(Num(lim[k], f"data.limits.{k}", size=T.TINY_SIZE, color=color,
                              prefix=f"{'W' if k == 'w' else k.upper()} "))
        second = VGroup(*second).arrange(RIGHT, buff=0.14)
        return VGroup(first, second).arrange(DOWN, aligned_edge=LEFT, buff=0.08)

    def put(self, name: str, piece, l: int) -> None:
        """Show `piece` in slot `name`, replacing (fading out) what was there."""
        self.shown[name] = self.swap(self.shown.get(name), piece)
        self.current[name] = l

    def drop(self, *names: str) -> None:
        old = [self.shown.pop(n) for n in names if n in self.shown]
        for n in names:
            self.current.pop(n, None)
        if old:
            self.play(*[FadeOutPlace(m) for m in old], run_time=self.quick(0.1, 0.3))

    def set_panel(self, *items, buff: float = T.BUFF) -> None:
        panel = VGroup(*items).arrange(DOWN, aligned_edge=LEFT, buff=buff)
        if panel.width > PANEL_WIDTH:
            panel.scale_to_fit_width(PANEL_WIDTH)
        panel.next_to(self.panel_slot, DOWN, buff=0).align_to(self.panel_slot, LEFT)
        if self.tag is not None:
            panel.next_to(self.tag, DOWN, buff=T.BUFF).align_to(self.panel_slot, LEFT)
        self.panel = self.swap(self.panel, panel)

    def show_tag(self, l: int) -> None:
        n = self.plan["model"]["n_layers"]
        tag = txt(f"layer {l}", T.LABEL_SIZE, T.HIGHLIGHT, weight="BOLD")
        note = txt(f"(of layers 0–{n - 1})", T.SMALL_SIZE, T.MUTED)
        tag = VGroup(tag, note).arrange(RIGHT, buff=T.BUFF, aligned_edge=DOWN)
        tag.next_to(self.panel_slot, DOWN, buff=0).align_to(self.panel_slot, LEFT)
        if self.tag is None or self.current.get("tag") != l:
            self.tag = self.swap(self.tag, tag)
            self.current["tag"] = l

    def label(self, source: str, color, name: str, size: float = T.MATH_SIZE - 6):
        """A row label in the label column, right-aligned against the strips."""
        lab = math(source, size, color)
        return lab.next_to(self.slot[name], LEFT, buff=T.BUFF)

    def dim_previous(self, l: int) -> None:
        """Pieces computed at another layer fade back until this layer recomputes them."""
        stale = [self.shown[n] for n in ("w", "q", "k", "v") if n in self.shown
                 and self.current.get(n) != l]
        anims = [DimPlace(m, DIM) for m in stale]
        if stale and self.panel is not None:      # its numbers belong to the old layer
            anims.append(FadeOutPlace(self.panel))
            self.panel = None
        if anims:
            self.play(*anims, run_time=self.quick(0.1, 0.3))
        self.drop(*[f"{k}_cos" for k in QKV if self.current.get(f"{k}_cos", l) != l])

    def strip_of(self, scaled_values, width: float) -> BandStrip:
        return BandStrip(scaled_values, width, T.STRIP_HEIGHT)

    # --- beats --------------------------------------------------------------------------
    def beat_x(self, beat) -> None:
        l = self.layer()
        row, src = self.row()
        self.dim_previous(l)
        self.show_tag(l)
        if self.key not in self.mobjects:
            self.play(FadeInPlace(self.key), run_time=self.quick(0.1, 0.3))
        strip = self.strip_of(row["x"]["values"], PIPE_WIDTH).move_to(self.slot["x"])
        piece = VGroup(self.label(f"X^(({l}))", T.X, "x"), strip)
        self.put("x", piece, l)
        word = self.data["focus"]["word"]
        first = NumberGrid(row["x_first"], f"{src}.x_first", T.X)
        d = self.data["shape"]["d_model"]
        self.set_panel(
            txt(f"'{word}' entering layer {l}: {d} numbers", T.SMALL_SIZE),
            txt(f"first {self.data['detail_dims']} of {d} dims:", T.SMALL_SIZE, T.MUTED),
            first,
            VGroup(math(f"|X^(({l}))| =", T.MATH_SIZE - 10, T.X),
                   Num(row["x_norm"], f"{src}.x_norm", color=T.X)).arrange(RIGHT, buff=0.1))

    def beat_ln_x(self, beat) -> None:
        l = self.layer()
        row, src = self.row()
        self.show_tag(l)
        n = row["norm"]
        placement = self.data["norm"]["placement"]
        kind = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}.get(self.data["norm"]["kind"],
                                                                     "norm")
        post = placement == "post"
        short = self.plan["model"]["display"].split("-")[0]         # "MiniLM", "SmolLM2"
        head = txt(f"{short}: {'post-LN' if post else 'pre-norm'} ({kind})", T.LABEL_SIZE, T.LN)
        if post:
            where = "The stream is re-normalised after every add, so X arrives normalised " \
                    "and W_Q, W_K, W_V multiply X itself."
            other = "Pre-norm models (SmolLM2, Llama, most current LLMs) instead normalise a " \
                    "copy of X just before the projections: Q\u00a0=\u00a0RMSNorm(X)\u00a0W_Q."
        else:
            where = f"A copy of X is normalised just before the projections, " \
                    f"Q\u00a0=\u00a0{kind}(X)\u00a0W_Q; " \
                    "the stream itself is never normalised."
            other = "Post-LN models (BERT, MiniLM) instead re-normalise the stream after every " \
                    "add, so X arrives normalised."
        where = self.left_wrapped(where, 34, T.SMALL_SIZE, T.TEXT)
        other = self.left_wrapped(other, 42, T.TINY_SIZE, T.MUTED)
        before = VGroup(
            txt(f"before: {n['label']}", T.TINY_SIZE, T.MUTED),
            self.strip_of(n["before"]["values"], PANEL_WIDTH - 0.2),
            VGroup(txt("own colour limit", T.TINY_SIZE, T.MUTED),
                   Num(n["before"]["limit"], f"{src}.norm.before.limit", size=T.TINY_SIZE,
                       color=T.MUTED),
                   txt("· length", T.TINY_SIZE, T.MUTED),
                   Num(n["norm_before"], f"{src}.norm.norm_before", size=T.TINY_SIZE,
                       color=T.MUTED)).arrange(RIGHT, buff=0.08),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        step = VGroup(
            VGroup(txt("subtract mean, divide by σ =", T.SMALL_SIZE, T.LN),
                   Num(n["sigma"], f"{src}.norm.sigma", color=T.LN)).arrange(RIGHT, buff=0.08),
            txt("then × w + b (learned)", T.SMALL_SIZE, T.LN)).arrange(DOWN, aligned_edge=LEFT,
                                                                       buff=0.06)
        arrow = Arrow(UP * 0.25, DOWN * 0.25, buff=0, color=T.LN, stroke_width=3,
                      max_tip_length_to_length_ratio=0.35)
        after_name = f"X^(({l}))" if post else f"\"{kind}\"(X^(({l})))"
        after = VGroup(math(f"= {after_name}", T.MATH_SIZE - 8, T.X),
                       txt("  (length", T.TINY_SIZE, T.MUTED),
                       Num(n["norm_after"], f"{src}.norm.norm_after", size=T.TINY_SIZE,
                           color=T.X, suffix=")")).arrange(RIGHT, buff=0.08)
        self.set_panel(head, where, before, VGroup(arrow, step).arrange(RIGHT, buff=0.15),
                       after, other, buff=0.14)
        note = txt("post-LN: X is already normalised; W_Q, W_K, W_V multiply it as is"
                   if post else f"pre-norm: W_Q, W_K, W_V multiply {kind}(X), not X itself",
                   T.TINY_SIZE, T.LN)
        note.next_to(self.slot["x"], DOWN, buff=0.08).align_to(self.slot["x"], LEFT)
        if "ln" not in self.shown:
            self.put("ln", note, l)

    def left_wrapped(self, text: str, chars: int, size: float, color) -> VGroup:
        """Wrapped text, lines left-aligned, at most the panel's width."""
        lines = wrapped(text, chars, size, color, max_width=PANEL_WIDTH)
        for line in lines:
            line.align_to(lines, LEFT)
        return lines

    def beat_weights(self, beat) -> None:
        l = self.layer()
        row, src = self.row()
        self.show_tag(l)
        blk = self.data["weight_block"]
        d, dh = self.data["shape"]["d_model"], self.data["shape"]["d_head"]
        groups = []
        for k in QKV:
            X = NAMES[k]
            thumb = MatrixThumb(row[f"W_{X}"]["values"], THUMB)
            lab = math(f"W_{X}^(({l}))", T.MATH_SIZE - 6, COLORS[k]).next_to(thumb, UP, 0.08)
            groups.append((lab, thumb))
        trio = VGroup(*[VGroup(lab, th) for lab, th in groups]).arrange(RIGHT, buff=0.55,
                                                                      aligned_edge=DOWN)
        note = wrapped(f"each thumbnail: rows 0–{blk['rows'][1] - 1} (input dims) × head "
                       f"{blk['head']}'s {dh} columns, a corner of the full {d} × {d} matrix",
                       34, T.TINY_SIZE, T.MUTED, max_width=2.6)
        for line in note:
            line.align_to(note, LEFT)
        piece = VGroup(trio, note).arrange(RIGHT, buff=T.GAP)
        piece.move_to(self.slot["w"]).align_to(self.slot["w"], LEFT)
        self.put("w", piece, l)
        lines = [txt("this layer's own matrices:", T.SMALL_SIZE, T.MUTED)]
        x_in = f"X^(({l}))" if self.data["norm"]["placement"] != "pre" else \
            f"\"LN\"(X^(({l})))"
        for k in QKV:
            X = NAMES[k]
            lines.append(math(f"{X}^(({l})) = {x_in} W_{X}^(({l})) + b_{X}^(({l}))",
                              T.MATH_SIZE - 10, COLORS[k]))
        lines.append(txt(f"{d} → {self.data['shape']['n_heads']} heads × {dh} dims",
                         T.SMALL_SIZE, T.MUTED))
        lines.append(self.identity_line(row, src))
        self.set_panel(*lines)

    def identity_line(self, row: dict, src: str) -> VGroup:
        nums = [txt("recomputed from X: max error", T.SMALL_SIZE, T.MUTED)]
        for k in QKV:
            b = row["identity_bound"][k]            # a bound: float noise differs by CPU
            nums.append(Num(b["bound"], f"{src}.identity_bound.{k}.bound", b["decimals"],
                            color=COLORS[k], prefix=f"{NAMES[k]} < "))
        top = VGroup(*nums[:1])
        rest = VGroup(*nums[1:]).arrange(RIGHT, buff=0.2)
        return VGroup(top, rest).arrange(DOWN, aligned_edge=LEFT, buff=0.06)

    def _projection(self, k: str) -> None:
        l = self.layer()
        row, src = self.row()
        self.show_tag(l)
        strips = HeadStrips(row[k]["values"], PIPE_WIDTH, ROW_HEIGHT).move_to(self.slot[k])
        piece = VGroup(self.label(f"{NAMES[k]}^(({l}))", COLORS[k], k), strips)
        if "heads" not in self.shown:
            heads = VGroup(*[txt(f"h{h}", T.TINY_SIZE, T.MUTED).move_to(s)
                             for h, s in enumerate(strips.strips)])
            heads.move_to(self.slot["heads"], coor_mask=[0, 1, 0])
            note = txt("head", T.TINY_SIZE, T.MUTED).next_to(self.slot["heads"], LEFT, T.BUFF)
            self.put("heads", VGroup(note, heads), l)
        self.put(k, piece, l)
        self.drop(f"{k}_cos")

    def beat_q(self, beat) -> None:
        self._projection("q")

    def beat_k(self, beat) -> None:
        self._projection("k")

    def beat_v(self, beat) -> None:
        self._projection("v")

    def beat_cos(self, beat) -> None:
        l = self.layer()
        row, src = self.row()
        self.show_tag(l)
        c = row["cos"]
        if c is None:
            self.set_panel(txt(f"layer {l} has no previous layer to compare with",
                               T.SMALL_SIZE, T.MUTED))
            return
        p = c["prev"]
        for k in QKV:
            if k not in self.shown:
                continue
            strips = self.shown[k][1].strips
            nums = VGroup(*[Num(v, f"{src}.cos.{k}[{h}]", size=T.TINY_SIZE, color=COLORS[k])
                            .move_to(s) for h, (v, s) in enumerate(zip(c[k], strips))])
            nums.move_to(self.slot[f"{k}_cos"], coor_mask=[0, 1, 0])
            lab = txt(f"cos vs L{p}", T.TINY_SIZE, T.MUTED)
            lab.next_to(self.slot[f"{k}_cos"], LEFT, buff=T.BUFF)
            self.put(f"{k}_cos", VGroup(lab, nums), l)

        def line(label: str, value: float, source: str, color):
            return VGroup(math(label, T.MATH_SIZE - 10, color),
                          Num(value, source, color=color)).arrange(RIGHT, buff=0.12)

        x_line = line(f"cos(X^(({l})), X^(({p}))) =", c["x"], f"{src}.cos.x", T.X)
        means = [txt("mean over heads:", T.SMALL_SIZE, T.MUTED)]
        for k in QKV:
            X = NAMES[k]
            means.append(line(f"cos({X}^(({l})), {X}^(({p}))) =", c[f"{k}_mean"],
                              f"{src}.cos.{k}_mean", COLORS[k]))
        w = [txt("separate parameters, mean over heads:", T.SMALL_SIZE, T.MUTED),
             math(f"cos(W^(({l})), W^(({p}))):", T.MATH_SIZE - 10)]
        w.append(VGroup(*[line(f"W_{NAMES[k]}", c[f"W_{NAMES[k]}_mean"],
                               f"{src}.cos.W_{NAMES[k]}_mean", COLORS[k]) for k in QKV])
                 .arrange(RIGHT, buff=0.3))
        head = txt(f"layer {l} vs layer {p}, measured", T.SMALL_SIZE, T.TEXT)
        self.set_panel(head, x_line, *means, *w, self.identity_line(row, src))
