"""Per-head detail of one layer: one row per head with its own W_Q, W_K, W_V (thumbnails of a
fixed block), its Q, K, V for the focus word, and the focus word's attention over every token,
with the tokens it attends to most.

Beats (each optional, in storyboard order): `weights` (head labels and matrix thumbnails), `q`,
`k`, `v` (one strip per head), `pattern` (attention rows, token labels, most-attended tokens; with
`head` set, that head's row is boxed and its previous-token score shown).

Layout: a table. A header row of invisible slots fixes every column; row h of the table is head h.
Columns appear as their beats come; a beat at another layer swaps every shown column.
"""

from __future__ import annotations

from manim import (DOWN, LEFT, RIGHT, UP, Rectangle, SurroundingRectangle, VGroup, config)

from .. import theme as T
from ..animations import FadeInPlace, FadeOutPlace
from ..base import StoryboardScene
from ..motion.pointer import point_at
from ..mobjects import (BandStrip, ColorKey, MatrixThumb, Num, PatternRow, RampKey, highlighted,
                       labels_under, math, txt)

THUMB = 0.25                # matrix thumbnail height
THUMB_COL = 0.52            # column width of one thumbnail (room for its header)
STRIP = 1.05                # Q, K, V strip width
ROW = 0.25                  # row height
ROW_GAP = 0.065
PATTERN_WIDTH = 4.05        # attention row (all tokens)
TOP_WIDTH = 2.6             # most-attended tokens
QKV = ("q", "k", "v")
NAMES = {"q": "Q", "k": "K", "v": "V"}
COLORS = {"q": T.Q, "k": T.K, "v": T.V}
W_COLS = ("wq", "wk", "wv")


def slot(width: float, height: float = ROW) -> Rectangle:
    """An invisible placeholder: the table's geometry is fixed once, pieces move to slots."""
    return Rectangle(width=width, height=height, stroke_width=0, fill_opacity=0)


class PerHeadScene(StoryboardScene):
    def layout(self) -> None:
        d = self.data
        self.n_tok = len(d["tokens"])
        self.cell = min(0.5, PATTERN_WIDTH / self.n_tok)
        widths = {"head": 0.5, "wq": THUMB_COL, "wk": THUMB_COL, "wv": THUMB_COL,
                  "q": STRIP, "k": STRIP, "v": STRIP, "pattern": self.cell * self.n_tok,
                  "top": TOP_WIDTH}
        gaps = {"wq": 0.15, "wk": 0.0, "wv": 0.0, "q": 0.3, "k": 0.18, "v": 0.18,
                "pattern": 0.3, "top": 0.25}
        cols = {}
        prev = None
        for name, w in widths.items():
            cols[name] = slot(w, 0.34)
            if prev is not None:
                cols[name].next_to(prev, RIGHT, buff=gaps[name])
            prev = cols[name]
        header = VGroup(*cols.values())
        self.info = self.info_line()
        self.info.next_to(self.title, DOWN, buff=T.BUFF).to_edge(LEFT, buff=T.EDGE)
        header.next_to(self.info, DOWN, buff=0.12).to_edge(LEFT, buff=T.EDGE)
        n_rows = len(d["layers"][0]["heads"])
        rows = VGroup(*[slot(header.width, ROW) for _ in range(n_rows)])
        rows.arrange(DOWN, buff=ROW_GAP).next_to(header, DOWN, buff=0.06).align_to(header, LEFT)
        below = {"tokens": slot(header.width, 0.52), "w_note": slot(header.width, 0.25),
                 "key": slot(header.width, 0.25), "note": slot(header.width, 0.27)}
        VGroup(*below.values()).arrange(DOWN, buff=0.08).next_to(rows, DOWN, buff=0.04)
        below["tokens"].next_to(rows, DOWN, buff=0.04)
        self.add(header, rows, self.info, *below.values())
        self.cols, self.rows, self.below = cols, rows, below
        self.shown: dict[str, object] = {}      # column -> VGroup of its header and cells
        self.at_layer: int | None = None
        self.extra = {}                         # token labels, keys, notes
        self.box = None

    # --- helpers ------------------------------------------------------------------------
    def info_line(self) -> VGroup:
        focus = self.data["focus"]["word"]
        return VGroup(txt(f"query: '{focus}' in", T.SMALL_SIZE, T.MUTED),
                      highlighted(self.plan["sentences"][0], focus, T.HIGHLIGHT, T.SMALL_SIZE),
                      ).arrange(RIGHT, buff=0.15)

    def layer(self) -> int:
        l = self.beat["layer"]
        return l if l is not None else self.plan["layers"][0]

    def layer_data(self, l: int) -> tuple[dict, str]:
        for i, row in enumerate(self.data["layers"]):
            if row["layer"] == l:
                return row, f"data.layers[{i}]"
        raise KeyError(f"layer {l} is not in the plan")

    def at(self, piece, col: str, row: int, align: str = "center"):
        """Put `piece` in table cell (row, col); align="left": its left edge on the column's."""
        c = self.cols[col]
        piece.move_to([c.get_center()[0], self.rows[row].get_center()[1], 0])
        if align == "left":
            piece.align_to(c, LEFT)
        return piece

    def head_title(self, piece, col: str):
        return piece.move_to(self.cols[col])

    def show_column(self, name: str, group: VGroup, feed: str | None = None) -> None:
        """A new column arrives head by head (its header, then one row after another; with
        `feed`, a copy of X flies from the X chip into that weight column's cell of the row
        and the row's piece comes out of it); a column already on screen cross-fades."""
        if name in self.shown:
            self.shown[name] = self.swap(self.shown[name], group)
            return
        top = float(self.rows[0].get_top()[1])
        header = VGroup(*[m for m in group if float(m.get_center()[1]) > top])
        rows = self.row_pieces(VGroup(*[m for m in group if m not in header]))
        self.play(FadeInPlace(header), run_time=self.quick(0.05, 0.3))
        per = self.quick(0.4, 4.0) / max(1, len(rows))
        chip = self.extra.get("x")
        for i, pieces in enumerate(rows):
            if feed and chip is not None:
                target = [self.cols[feed].get_center()[0], self.rows[i].get_center()[1], 0]
                copy = chip[0].copy()
                self.play(copy.animate.move_to(target).set_opacity(0.4),
                          run_time=max(per * 0.5, 1 / config.frame_rate))
                self.remove(copy)
            self.play(*[FadeInPlace(p) for p in pieces],
                      run_time=max(per * (0.5 if feed else 1.0), 1 / config.frame_rate))
        self.remove(*group.get_family())
        self.add(group)
        self.shown[name] = group

    def row_pieces(self, group: VGroup) -> list[list]:
        """The pieces of `group` by table row, from their heights."""
        ys = [float(r.get_center()[1]) for r in self.rows]
        rows = [[] for _ in ys]
        for piece in group:
            y = float(piece.get_center()[1])
            rows[min(range(len(ys)), key=lambda i: abs(ys[i] - y))].append(piece)
        return [r for r in rows if r]

    def x_chip(self) -> None:
        """X, the one vector every head reads, on screen beside the sentence (once)."""
        if "x" in self.extra:
            return
        l, word = self.layer(), self.data["focus"]["word"]
        chip = VGroup(math(f"X^(({l}))", T.TYPE.math_label, T.X),
                      txt(f"of '{word}': {self.data['shape']['d_model']} numbers, read by "
                          f"every head", T.SMALL_SIZE, T.MUTED)).arrange(RIGHT, buff=0.12)
        chip.next_to(self.extra["tag"], RIGHT, buff=T.GAP)
        self.put_extra("x", chip)
        self.emphasize(chip[0])

    def ensure_layer(self) -> None:
        """A beat at another layer rebuilds every column already on screen."""
        l = self.layer()
        if self.at_layer == l:
            return
        self.at_layer = l
        tag = txt(f"layer {l}", T.SMALL_SIZE, T.HIGHLIGHT, weight="BOLD")
        tag.next_to(self.info, RIGHT, buff=T.GAP)
        self.extra["tag"] = self.swap(self.extra.get("tag"), tag)
        for name in list(self.shown):
            getattr(self, f"column_{name}")()

    def at_left(self, piece, name: str):
        """Put `piece` in the line `name` under the table, left-aligned with the table."""
        return piece.move_to(self.below[name]).align_to(self.below[name], LEFT)

    def drop_extra(self, name: str) -> None:
        old = self.extra.pop(name, None)
        if old is not None:
            self.play(FadeOutPlace(old), run_time=self.quick(0.1, 0.3))

    def put_extra(self, name: str, piece) -> None:
        self.extra[name] = self.swap(self.extra.get(name), piece)

    # --- columns: each builds its header and one cell per head ---------------------------
    def column_weights(self) -> None:
        l = self.layer()
        lay, src = self.layer_data(l)
        group = VGroup(self.head_title(txt("head", T.SMALL_SIZE, T.MUTED), "head"))
        for c, X in zip(W_COLS, "QKV"):
            group.add(self.head_title(math(f"W_{X}", T.TYPE.math_label, COLORS[X.lower()]), c))
        for i, h in enumerate(lay["heads"]):
            group.add(self.at(txt(f"h{h['head']}", T.SMALL_SIZE, T.TEXT), "head", i))
            for c, X in zip(W_COLS, "QKV"):
                group.add(self.at(MatrixThumb(h[f"W_{X}"]["values"], THUMB), c, i))
        self.show_column("weights", group)
        blk = self.data["weight_block"]
        d, dh = self.data["shape"]["d_model"], self.data["shape"]["d_head"]
        note = txt(f"W thumbnails: rows {blk['rows'][0]}–{blk['rows'][1] - 1} × columns "
                   f"{blk['cols'][0]}–{blk['cols'][1] - 1} of each head's {d} × {dh} matrix",
                   T.TINY_SIZE, T.MUTED)
        self.put_extra("w_note", self.at_left(note, "w_note"))
        self.place_keys()
        if "pattern" not in self.shown:
            self.put_extra("panel", self.weights_panel(lay, src, l))

    def weights_panel(self, lay: dict, src: str, l: int) -> VGroup:
        """Until the attention rows arrive, their space explains the matrices."""
        d, dh = self.data["shape"]["d_model"], self.data["shape"]["d_head"]
        n = len(lay["heads"])
        lines = [txt(f"{n} heads, each with its own three {d} × {dh} matrices:", T.SMALL_SIZE),
                 math(f"Q^(({l},h)) = X^(({l})) W_Q^(({l},h)) + b_Q^(({l},h))", T.TYPE.math_label,
                      T.Q),
                 txt("and the same for K and V.", T.SMALL_SIZE, T.MUTED),
                 txt(f"cosine between two heads' matrices ({lay['w_cos']['Q']['pairs']} pairs):",
                     T.SMALL_SIZE, T.MUTED)]
        for X in "QKV":
            c, cs = lay["w_cos"][X], f"{src}.w_cos.{X}"
            lines.append(VGroup(math(f"W_{X}", T.TYPE.math_label, COLORS[X.lower()]),
                                txt("mean", T.SMALL_SIZE, T.MUTED),
                                Num(c["mean"], f"{cs}.mean", color=COLORS[X.lower()]),
                                txt("max |cos|", T.SMALL_SIZE, T.MUTED),
                                Num(c["max_abs"], f"{cs}.max_abs", color=COLORS[X.lower()]))
                         .arrange(RIGHT, buff=0.12))
        lines.append(txt("separate parameters: no head shares a matrix", T.SMALL_SIZE, T.MUTED))
        panel = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=0.16)
        panel.align_to(self.cols["pattern"], LEFT).align_to(self.rows, UP)
        return panel

    def _column_vec(self, k: str) -> None:
        l = self.layer()
        lay, src = self.layer_data(l)
        X = NAMES[k]
        group = VGroup(self.head_title(math(f"{X}^(({l},h))", T.TYPE.math_label, COLORS[k]), k))
        for i, h in enumerate(lay["heads"]):
            group.add(self.at(BandStrip(h[k]["values"], STRIP, ROW - 0.04), k, i))
        self.x_chip()
        self.show_column(k, group, feed=f"w{k}" if "weights" in self.shown else None)
        self.place_keys()

    def column_q(self) -> None:
        self._column_vec("q")

    def column_k(self) -> None:
        self._column_vec("k")

    def column_v(self) -> None:
        self._column_vec("v")

    def column_pattern(self) -> None:
        l = self.layer()
        lay, src = self.layer_data(l)
        word = self.data["focus"]["word"]
        group = VGroup(self.head_title(txt(f"where '{word}' attends",
                                           T.SMALL_SIZE, T.ATTN), "pattern"),
                       self.head_title(txt("top two", T.SMALL_SIZE, T.ATTN), "top")
                       .align_to(self.cols["top"], LEFT))
        last = None
        self.pattern_rows = []
        for i, h in enumerate(lay["heads"]):
            row = PatternRow(h["pattern"], T.ATTN, self.cell, ROW)
            self.pattern_rows.append(row)
            group.add(self.at(row, "pattern", i))
            last = row
            hs = f"{src}.heads[{i}].top"
            best = [txt(h["top"][0]["token"], T.SMALL_SIZE, T.TEXT),
                    Num(h["top"][0]["weight"], f"{hs}[0].weight", size=T.SMALL_SIZE,
                        color=T.ATTN)]
            for j, t in enumerate(h["top"][1:], start=1):
                best += [txt(t["token"], T.TINY_SIZE, T.MUTED),
                         Num(t["weight"], f"{hs}[{j}].weight", size=T.TINY_SIZE,
                             color=T.MUTED)]
            top = VGroup(*best).arrange(RIGHT, buff=0.08)
            for m in best[2::2]:        # a little more room before each runner-up
                m.shift(RIGHT * 0.12)
            for m in best[3::2]:
                m.shift(RIGHT * 0.12)
            group.add(self.at(top, "top", i, align="left"))
        self.drop_extra("panel")
        self.show_column("pattern", group)
        labels = labels_under(last.cells, self.data["tokens"], T.TINY_SIZE, T.MUTED)
        self.put_extra("tokens", labels)
        self.place_keys()

    def place_keys(self) -> None:
        """The bottom line: what colours mean, for what is on screen."""
        lim = self.data["limits"]
        parts = []
        if any(k in self.shown for k in QKV) or "weights" in self.shown:
            parts += [txt("colour: value / limit, clipped to", T.TINY_SIZE, T.MUTED),
                      ColorKey(0.8, 0.13), txt("limit = 99th pct of |value|:", T.TINY_SIZE,
                                               T.MUTED)]
            for k, color in (("q", T.Q), ("k", T.K), ("v", T.V), ("w", T.TEXT)):
                if (k == "w" and "weights" in self.shown) or k in self.shown:
                    parts.append(Num(lim[k], f"data.limits.{k}", size=T.TINY_SIZE, color=color,
                                     prefix=f"{'W' if k == 'w' else k.upper()} "))
        key = self.at_left(VGroup(*parts).arrange(RIGHT, buff=0.1), "key")
        if "pattern" in self.shown:     # the attention ramp: right-aligned, one line up
            ramp = VGroup(txt("attention", T.TINY_SIZE, T.MUTED),
                          RampKey(txt("0", T.TINY_SIZE, T.MUTED), txt("1", T.TINY_SIZE, T.MUTED),
                                  T.ATTN, 0.8, 0.13)).arrange(RIGHT, buff=0.1)
            ramp.move_to(self.below["w_note"]).align_to(self.cols["top"], RIGHT)
            key = VGroup(key, ramp)
        self.put_extra("key", key)

    # --- beats --------------------------------------------------------------------------
    def beat_weights(self, beat) -> None:
        self.ensure_layer()
        self.column_weights()

    def beat_q(self, beat) -> None:
        self.ensure_layer()
        self.column_q()

    def beat_k(self, beat) -> None:
        self.ensure_layer()
        self.column_k()

    def beat_v(self, beat) -> None:
        self.ensure_layer()
        self.column_v()

    def beat_pattern(self, beat) -> None:
        self.ensure_layer()
        if "pattern" not in self.shown:
            self.column_pattern()
            if any(t in ("[CLS]", "[SEP]") for t in self.data["tokens"]):
                marks = txt("[CLS], [SEP]: marks the model adds at the start and end",
                            T.SMALL_SIZE, T.MUTED)
                self.put_extra("note", self.at_left(marks, "note"))
        if beat["head"] is None:
            return
        lay, src = self.layer_data(self.layer())
        i = next(i for i, h in enumerate(lay["heads"]) if h["head"] == beat["head"])
        h = lay["heads"][i]
        box = SurroundingRectangle(self.rows[i], color=T.HIGHLIGHT, buff=0.04, stroke_width=2)
        self.box = self.swap(self.box, box)
        note = VGroup(txt(f"head {h['head']}: mean attention of every token to the token just "
                          f"before it =", T.SMALL_SIZE, T.HIGHLIGHT),
                      Num(h["prev_token"], f"{src}.heads[{i}].prev_token", color=T.HIGHLIGHT)
                      ).arrange(RIGHT, buff=0.1)
        self.put_extra("note", self.at_left(note, "note"))
        j = max(range(len(h["pattern"])), key=lambda t: h["pattern"][t])
        point_at(self, self.pattern_rows[i].cells[j], direction=UP)   # where it lands
        self.emphasize(self.extra["tokens"][j])
