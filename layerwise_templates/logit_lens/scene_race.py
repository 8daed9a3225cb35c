"""The bar chart across the states, as logit_lens draws it (a `LayerRace` made to keep each
token's identity in view):

- a token that enters the top k rises into its place from under the chart, one that leaves
  sinks under it: no label is ever faded in where another is fading out;
- the answer's own row under the rule shows its label and bar only while it is outside the
  chart; once it is in the top k the row says just its rank (no second copy of the token);
- the counter names the state the lens reads, X^(l+1) for layer l (the chapter's notation),
  and the header says what ␣ and ↵ mean.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, ReplacementTransform, VGroup

from scenes import theme as T
from scenes.mobjects import Num, inline, layer_ruler, math, txt
from scenes.motion import LayerRace


STATE_INDEX_SIZE = 1.3 * T.MATH_SIZE   # "the lens reads X^(l)" under a chart: its superscript legible


def x_label(state, size: float = T.MATH_SIZE, color=T.TEXT):
    """X^(n): the state n (the lens after layer l reads X^(l+1); see docs/chapter.md §2)."""
    n = state if isinstance(state, str) else int(state)
    return math(f"X^(({n}))", size, color)


def state_ruler(layers, width: float):
    """The kit's depth ruler with its ends named by the states the lens reads, X^(1) ... X^(L),
    as the charts' axes name them (not "layer 0 ... L-1": no off-by-one left to the viewer)."""
    ruler = layer_ruler(layers, width)
    ends = VGroup(x_label(layers[0].state, T.MATH_SIZE, T.MUTED).next_to(ruler.dots[0], LEFT,
                                                                         buff=0.15),
                  x_label(layers[-1].state, T.MATH_SIZE, T.MUTED).next_to(ruler.dots[-1], RIGHT,
                                                                          buff=0.15))
    ruler.submobjects = [ruler.line, ruler.dots, ends]      # no "layer" word in front
    return ruler


# tokens whose display would look like another's, or be a speck at 480p: the no-break space
# is drawn "␣" like the space (at X^(1) two rows would read "␣"), and the full stop and comma
# are a dot each; they get their names (the voice says "a full stop", "a comma")
SAME_LOOKING = {"\xa0": "nbsp", ".": "full stop", ",": "comma"}


class LensRace(LayerRace):
    counter_word = "the lens reads"

    def entries(self, l: int) -> list:
        return [(k, SAME_LOOKING.get(str(e.text), name), p, c)
                for (k, name, p, c), e in zip(super().entries(l), self.layers[l].top)]

    def enter(self, l: int = 0) -> list:
        """The kit's first state, its ruler cursor white (yellow is Paris's alone)."""
        anims = super().enter(l)
        self.extra[2].set_color(T.TEXT)
        return anims

    def header(self) -> VGroup:
        return inline(txt("its top", T.LABEL_SIZE, T.MUTED),
                      Num(self.k, decimals=0, size=T.LABEL_SIZE, color=T.MUTED),
                      txt("guesses (bar = probability);", T.LABEL_SIZE, T.MUTED),
                      txt("␣", T.LABEL_SIZE, T.TEXT, mono=True),
                      txt("= space,", T.LABEL_SIZE, T.MUTED),
                      txt("↵", T.LABEL_SIZE, T.TEXT, mono=True),
                      txt("= new line,", T.LABEL_SIZE, T.MUTED),
                      txt("nbsp", T.LABEL_SIZE, T.TEXT, mono=True),
                      txt("= no-break space", T.LABEL_SIZE, T.MUTED), buff=0.12)

    def place_counter(self, head: VGroup) -> None:
        # the counter stands to the right of the chart's top, clear of the header
        self.counter_name.next_to(self.chart.tracks[0], RIGHT, buff=1.3).align_to(
            self.chart.tracks[0], UP)

    def counter(self, l: int):
        return x_label(self.layers[l].state, T.MATH_SIZE, T.TEXT).next_to(
            self.counter_name, DOWN, buff=0.15)

    def panel(self, prompt: VGroup) -> VGroup:
        """The kit's panel, its depth ruler named by states (`state_ruler`)."""
        out = super().panel(prompt)
        group = out[0]
        ruler = state_ruler(self.layers, self.ruler.line.width)
        ruler.shift(self.ruler.line.get_left() - ruler.line.get_left())
        group.submobjects[group.submobjects.index(self.ruler)] = ruler
        self.ruler = ruler
        return out

    def answer_row(self, l: int) -> VGroup:
        lay = self.layers[l]
        inside = int(lay.rank) <= int(self.k)
        rank = inline(txt("rank", T.LABEL_SIZE, T.MUTED),
                      Num(lay.rank, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT),
                      *([txt("(in the chart)", T.LABEL_SIZE, T.MUTED)] if inside else []),
                      buff=0.12)
        if inside:       # on its empty track, in place of a second copy of the token
            rank.move_to(self.answer_track, aligned_edge=LEFT).shift(RIGHT * 0.1)
            return VGroup(rank)
        rank.next_to(self.answer_track, RIGHT, buff=0.9)
        row = self.chart.row((self.answer, self.answer, lay.prob, T.HIGHLIGHT), 0,
                             self.answer_track)
        return VGroup(row, rank)

    def step(self, scene, l: int, run_time: float) -> None:
        """One step to layer l. A row that keeps its track keeps its label, its bar slides
        to the new length; a row that changes track slides there with its label; a changed
        number fades out and in, never morphs. A token that
        enters rises from under the chart, one that leaves sinks under it."""
        new = self.chart.rows(self.entries(l))
        answer, counter, dot = self.extra
        extra = VGroup(self.answer_row(l), self.counter(l), dot)
        floor = self.chart.tracks[-1].get_center()[1] - self.pitch
        anims = []
        for k, row in new.items():
            if k in self.rows:
                anims += swap(self.rows[k], row)
            else:        # rises from under the chart into its place
                anims.append(FadeIn(row, shift=UP * (row.get_center()[1] - floor)))
        for k, row in self.rows.items():
            if k not in new:     # sinks under the chart
                anims.append(FadeOut(row, shift=DOWN * (row.get_center()[1] - floor)))
        old_row, new_row = answer, extra[0]
        if len(old_row) == 2 and len(new_row) == 2:      # outside the chart, before and after
            anims += swap(old_row[0], new_row[0]) + roll(old_row[1], new_row[1])
        else:
            anims += roll(old_row, new_row)
        scene.play(*anims, *roll(counter, extra[1]),
                   dot.animate.move_to(self.ruler.dots[l]), run_time=run_time)
        scene.remove(old_row, counter)
        for r in self.rows.values():
            scene.remove(r)
        scene.add(*new.values(), extra)
        self.rows, self.extra, self.layer = new, extra, l


def _out(t: float) -> float:
    return min(1.0, 3.0 * t)


def _in(t: float) -> float:
    return max(0.0, 3.0 * t - 2.0)


def fade_swap(old, new) -> list:
    """`old` fades out in the first third of the step, `new` in over the last third, each in
    its own place: nothing morphs, and between them neither is drawn."""
    return [FadeOut(old, rate_func=_out), FadeIn(new, rate_func=_in)]


def roll(old, new) -> list:
    """A label that must stay in view (the state read, Paris's rank): the old one rolls up
    and out over the first half of the step, the new one up and in over the second half, so
    one of them is drawn at every frame but the middle one, and they never overlap."""
    return [FadeOut(old, shift=0.2 * UP, rate_func=lambda t: min(1.0, 2.0 * t)),
            FadeIn(new, shift=0.2 * UP, rate_func=lambda t: max(0.0, 2.0 * t - 1.0))]


def swap(old, new) -> list:
    """A chart row (name, bar, number) to its next state: the bar slides and its name moves
    with it (a token keeps its name in view while it changes place); the number moves with
    the bar when it stays the same, and fades out and in where it changes (never morphs)."""
    same_num = getattr(old.num, "shown", None) == getattr(new.num, "shown", 0)
    anims = [ReplacementTransform(old.bar, new.bar), ReplacementTransform(old.name, new.name)]
    anims += [ReplacementTransform(old.num, new.num)] if same_num else \
        fade_swap(old.num, new.num)
    return anims
