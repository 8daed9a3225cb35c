"""Text, math, captions and small layout helpers."""

from __future__ import annotations

import textwrap
from typing import Sequence

from manim import (DOWN, Dot, LEFT, Line, MathTypst, RIGHT, Rectangle, Text, UP, VGroup)

from .. import theme as T
from ..legibility import legible_math_size


def light(m, groups: bool = False):
    """Drop what only building glyphs needed: each glyph's parsed SVG path (svgelements) and,
    unless `groups`, the SVG's id groups. Manim copies a mobject for every Transform and fade,
    and a copy deep-copies those too: a ten-letter Text copies in ~3 ms instead of ~120 ms.
    The points, and so every frame, are unchanged. Returns `m`."""
    for part in m.get_family():
        if "path_obj" in part.__dict__:
            part.path_obj = None
    if not groups and hasattr(m, "id_to_vgroup_dict"):
        m.id_to_vgroup_dict = {}
    return m


_TEXTS: dict[tuple, Text] = {}       # built once per process, handed out as copies


def txt(text: str, size: float = T.LABEL_SIZE, color=T.TEXT, mono: bool = False,
        weight: str = "NORMAL") -> Text:
    key = (text, float(size), str(color), mono, weight)
    if key not in _TEXTS:
        _TEXTS[key] = light(Text(text, font=T.MONO if mono else T.FONT, font_size=size,
                                 color=color, weight=weight))
    return _TEXTS[key].copy()


def math(source: str, size: float = T.MATH_SIZE, color=T.TEXT) -> MathTypst:
    """Typst math (no TeX needed): math("W_Q^((3))"). Never smaller than its scripts need to
    reach the legibility floor (`legibility.legible_math_size`: 27 with scripts)."""
    size = legible_math_size(source, size)
    return light(MathTypst(source, font_size=size, color=color), groups=True)


def wrapped(text: str, width_chars: int = 80, size: float = T.CAPTION_SIZE, color=T.TEXT,
            max_width: float = T.CAPTION_WIDTH) -> VGroup:
    """Multi-line text, wrapped at `width_chars`, centred lines, at most `max_width` wide."""
    lines = textwrap.wrap(text, width_chars) or [""]
    group = VGroup(*[txt(line, size, color) for line in lines]).arrange(DOWN, buff=T.TIGHT)
    if group.width > max_width:
        group.scale_to_fit_width(max_width)
    return group


def code_block(source: str, size: float = 15, line_height: float = 0.27) -> VGroup:
    """Monospace code, one Text per line (blank lines keep their height), indentation kept.
    `code_block(...)[i]` is line i + 1, for highlighting."""
    char = txt("M", size, mono=True).width
    lines = VGroup()
    for i, src in enumerate(source.split("\n")):
        line = txt(src.strip() or ".", size, T.TEXT, mono=True)
        if not src.strip():
            line.set_opacity(0)
        line.move_to(DOWN * i * line_height, aligned_edge=LEFT)
        line.shift(RIGHT * (len(src) - len(src.lstrip())) * char)
        lines.add(line)
    return lines


def highlighted(text: str, word: str, color, size: float = T.LABEL_SIZE, base=T.TEXT) -> Text:
    """A sentence with every occurrence of `word` in `color` and bold."""
    return light(Text(text, font=T.FONT, font_size=size, color=base, t2c={word: color},
                      t2w={word: "BOLD"}))


def glyph_span(text: Text, source: str, start: int, stop: int) -> VGroup:
    """The glyphs of `text`, a Text made from `source`, that draw source[start:stop] (a Text
    has one glyph per character that is not white space)."""
    i = len("".join(source[:start].split()))
    return VGroup(*text[i:i + len("".join(source[start:stop].split()))])


def baseline(text: Text) -> float:
    """y of a Text's baseline: the median bottom of its glyphs (descenders are the minority)."""
    bottoms = sorted(float(g.get_bottom()[1]) for g in text.submobjects if g.height > 0)
    return bottoms[len(bottoms) // 2] if bottoms else float(text.get_bottom()[1])


def on_baseline(texts: Sequence[Text], y: float) -> VGroup:
    """Texts placed (each where it is in x) with their baselines at `y`: a row of token labels
    reads as one line ("on" does not float above "the", "." sits low like a full stop)."""
    for t in texts:
        t.shift(UP * (y - baseline(t)))
    return VGroup(*texts)


def inline(*parts, buff: float = 0.09) -> VGroup:
    """Text and `Num` pieces in one row, read as one sentence: inline(txt("cos ="), Num(...)).
    Texts share one baseline (a mono Num beside sans text would otherwise sit too high); other
    pieces (dots, swatches, nested rows) are centred on the first text's lower-case letters."""
    row = VGroup(*parts).arrange(RIGHT, buff=buff)
    texts = [p for p in parts if isinstance(p, Text)]
    if texts:
        ref = baseline(texts[0])
        middle = ref + 0.5 * Text("x", font=T.FONT, font_size=texts[0].font_size).height
        for p in parts:
            if isinstance(p, Text):
                p.shift(UP * (ref - baseline(p)))
            elif not isinstance(p, VGroup) or not any(isinstance(m, Text) for m in p.submobjects):
                p.set_y(middle)
    return row


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], size: float = T.SMALL_SIZE,
               header_color=T.MUTED, color=T.TEXT, col_buff: float = 0.35,
               row_buff: float = 0.22) -> VGroup:
    """A table of short texts, left-aligned columns, a rule under the header. A cell may hold
    line breaks ("\\n"). `table.cells[r][c]` (row 0 is the header), `table.rules`."""
    def cell(text, c):
        return VGroup(*[txt(line, size, c) for line in text.split("\n")]).arrange(
            DOWN, buff=0.06, aligned_edge=LEFT)
    grid = [[cell(h, header_color) for h in header]] + [[cell(v, color) for v in r] for r in rows]
    n_cols = len(header)
    widths = [max(row[c].width for row in grid) for c in range(n_cols)]
    lines = VGroup()
    for row in grid:                  # cells top-aligned in their row, columns left-aligned
        x = 0.0
        for c, m in enumerate(row):
            m.move_to([x, 0, 0], aligned_edge=LEFT + UP)
            x += widths[c] + col_buff
        lines.add(VGroup(*row))
    for i in range(1, len(lines)):
        lines[i].next_to(lines[i - 1], DOWN, buff=row_buff, aligned_edge=LEFT)
    total = sum(widths) + col_buff * (n_cols - 1)
    rules = VGroup(*[rule(total, T.FAINT).next_to(lines[i], DOWN, buff=row_buff / 2)
                     .align_to(lines[0], LEFT) for i in range(len(lines) - 1)])
    table = VGroup(lines, rules)
    table.cells, table.rules = grid, rules
    return table


def legend_item(color, text: str, size: float = T.SMALL_SIZE, line: bool = False) -> VGroup:
    """A colour key entry: a small square (or, with `line`, a short stroke) and its text."""
    if line:
        mark = Line(LEFT * 0.14, RIGHT * 0.14, stroke_color=color, stroke_width=4)
    else:
        mark = Rectangle(width=0.16, height=0.16, stroke_width=0, fill_color=color,
                         fill_opacity=1)
    return VGroup(mark, txt(text, size, T.TEXT)).arrange(RIGHT, buff=0.08)


def labelled(mob, label, direction=LEFT, buff: float = T.BUFF) -> VGroup:
    """`label` placed beside `mob`, grouped."""
    return VGroup(label.next_to(mob, direction, buff=buff), mob)


def rule(width: float, color=T.FAINT) -> Line:
    return Line(LEFT * width / 2, RIGHT * width / 2, stroke_color=color, stroke_width=1)


def swatch(*colors, radius: float = 0.07, buff: float = 0.05) -> VGroup:
    """Coloured dots side by side: the key of a pair of contexts (or any set of colours)."""
    return VGroup(*[Dot(radius=radius, color=c) for c in colors]).arrange(RIGHT, buff=buff)


__all__ = ['light', 'txt', 'math', 'wrapped', 'code_block', 'highlighted', 'glyph_span', 'baseline', 'inline', 'text_table', 'legend_item', 'labelled', 'rule', 'swatch', 'on_baseline']
