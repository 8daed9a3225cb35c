"""The bar chart across the states, as logit_lens draws it (a `LayerRace` made to keep each
token's identity in view):

- a step is short and then held: every row's name moves with its bar (`slide`); a
  climbing row's name steps out to pass the names it overtakes, in front of them; a
  token that enters the top k fades in in its place at the end, one that leaves fades out
  at the start (the answer climbs in from its own row): no two names are ever drawn on each
  other, no row ever loses its label mid-motion, and no number is ever a ghost;
- the answer's own row under the rule shows its label and bar only while it is outside the
  chart; once it is in the top k the row says just its rank (no second copy of the token);
- the counter (large, white) names the state the lens reads, X^(l+1) for layer l (the chapter's notation),
  and the header says what ␣ and ↵ mean.
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, Rectangle, ReplacementTransform,
                   Transform, UpdateFromAlphaFunc, VGroup)

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
        """The kit's first state, its ruler cursor white (yellow is Paris's alone), the other
        tokens' rows plain (`plain`)."""
        anims = super().enter(l)
        plain(self.rows, self.entries(l))
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
        """The state read, large and white (its superscript must read at 480p)."""
        return x_label(self.layers[l].state, STATE_INDEX_SIZE, T.TEXT).next_to(
            self.counter_name, DOWN, buff=0.15)

    def panel(self, prompt: VGroup) -> VGroup:
        out = self._panel(prompt)
        self.counter_name.set_color(T.TEXT)        # bright: the state on screen is never unknown
        return out

    def _panel(self, prompt: VGroup) -> VGroup:
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
        """One step to layer l in two moves, every row (name, bar, number, its track) one
        object throughout:

        1. the data change in place: each bar stretches or shrinks on its own track to its new
           probability, its number riding at its end (a token that leaves fades out); at the
           end of this move the numbers, Paris's rank and the state label turn together, in
           one frame (the label never lags or leads the data it names);
        2. the rows re-sort: each moves whole, as a card on a plate of the background's
           colour, straight to its new track (a climber in front of what it passes, never
           drawn through); a token that enters fades in in its place as the others land, and
           the answer climbs from its own row into the chart as one card.
        """
        new = plain(self.chart.rows(self.entries(l)), self.entries(l))
        answer, counter, dot = self.extra
        extra = VGroup(self.answer_row(l), self.counter(l), dot)
        was = {k: i for i, k in enumerate(self.rows)}
        now = {k: i for i, k in enumerate(new)}
        old_row, new_row = answer, extra[0]
        key = next((k for k, _, _, c in self.entries(l) if k not in self.rows
                    and c == T.HIGHLIGHT and len(old_row) == 2), None)
        a_time, b_time = SHARE_A * run_time, (1 - SHARE_A) * run_time
        # --- move 1: the data, in place --------------------------------------------------
        first, turn, cards = [], [], []      # cards: (old parts, shown number, target row, rise)
        for k, row in new.items():
            if k in self.rows:
                old = self.rows[k]
            elif k == key:
                old = old_row[0]
            else:
                continue
            bar = row.bar.copy().align_to(old.bar, LEFT).match_y(old.bar)
            num = row.num.copy().next_to(bar, RIGHT, buff=0.12).match_y(old.num)
            first += [Transform(old.bar, bar), ride(old.num, old.bar, num, self.chart.size)]
            turn.append((old.num, num))
            rise = (was[k] if k in was else len(was) + 1) - now[k]
            cards.append((old, num, row, rise))
        for k, row in self.rows.items():
            if k not in new:
                first.append(FadeOut(row))
        if key is None and len(old_row) == 2 and len(new_row) == 2:   # outside, both states
            bar = new_row[0].bar.copy()
            first += [Transform(old_row[0].bar, bar),
                      ride(old_row[0].num, old_row[0].bar, new_row[0].num, self.chart.size)]
            turn += [(old_row[0].num, new_row[0].num), (old_row[1], new_row[1])]
            settled = [old_row[0].name, old_row[0].bar]
        elif key is None and len(old_row) == 1 and len(new_row) == 1:   # inside, both states
            turn.append((old_row, new_row))
            settled = []
        else:
            first.append(FadeOut(old_row[1] if key is not None else old_row))
            settled = None
        first.append(dot.animate.move_to(self.ruler.dots[l]))
        scene.play(*first, run_time=a_time)
        turn.append((counter, extra[1]))     # the state label turns with the numbers
        for old, fresh in turn:
            drop(scene, old)
            scene.add(fresh)
        # --- move 2: the rows re-sort, each as one card -----------------------------------
        second, moved = [], []
        for old, num, row, rise in cards:
            dy = row.bar.get_center()[1] - old.bar.get_center()[1]
            parts = VGroup(old.name, old.bar, num)
            if abs(dy) < 1e-3:
                moved.append(parts)
                continue
            track = self.chart.tracks[0].copy().match_y(old.bar)
            plate = backing(VGroup(parts, track), buff=0.06)
            card = VGroup(plate, track, parts).set_z_index(10 + max(0.0, rise))
            drop(scene, parts)
            scene.add(card)
            second.append(card.animate.shift(UP * dy))
            moved.append(card)
        for k, row in new.items():
            if k not in self.rows and k != key:
                second.append(FadeIn(row, rate_func=_in))
        if settled is None:
            second.append(FadeIn(new_row, rate_func=_in))
        if second:
            scene.play(*second, run_time=b_time)
        else:
            scene.wait(b_time)
        drop(scene, *moved, *[fresh for _, fresh in turn], old_row, *(settled or []),
             *self.rows.values())
        scene.add(*new.values(), extra)
        self.rows, self.extra, self.layer = new, extra, l


SHARE_A = 0.45          # a step's first move (the data, in place); the rest re-sorts the rows


def ride(num, bar, target, size: float):
    """The number at a bar's end counts from its old value to the new one while the bar
    stretches or shrinks (it rides at the bar's end and always names the length drawn: never
    a long bar with its old short number). Each frame it is a whole number of the theme's
    format (no glyph morphs into another), the last frame the target's value."""
    v0 = float(getattr(num, "value", getattr(target, "value", 0.0)))
    v1 = float(getattr(target, "value", v0))
    color, y = num.get_color(), num.get_center()[1]
    source = getattr(target, "source", None) or getattr(num, "source", None) or "race"

    def update(mob, a):
        shown = Num(v0 + (v1 - v0) * a, source, decimals=T.DECIMALS, size=size, color=color)
        shown.next_to(bar, RIGHT, buff=0.12).set_y(y)
        mob.become(shown)
    return UpdateFromAlphaFunc(num, update)


def drop(scene, *mobs) -> None:
    """Take `mobs` and every part of them off the scene, whether they are scene entries or parts
    of one (Manim's `remove` leaves the parts of a group that is not itself an entry)."""
    scene.remove(*[m for mob in mobs for m in mob.get_family()])


def plain(rows: dict, entries: list) -> dict:
    """The rows of tokens other than the answer in grey bars with white names and numbers:
    blue is the stream's colour, not a guess's (the answer keeps its yellow)."""
    named = set(SAME_LOOKING.values())
    for key, label, _, color in entries:
        row = rows[key]
        if label in named:       # a name, not the token's text: in the text font, as in the
            name = txt(label, T.LABEL_SIZE, row.name.get_color())   # lens column (it moves
            name.move_to(row.name, aligned_edge=RIGHT)               # here as it is)
            row.submobjects[row.submobjects.index(row.name)] = name
            row.name = name
        if color != T.HIGHLIGHT:
            paint(row.name, row.bar, row.num)
    return rows


def paint(name, bar, num) -> None:
    """A row's parts plain: grey bar, white name and number."""
    bar.set_fill(T.MUTED, 0.9)
    name.set_color(T.TEXT)
    num.set_color(T.TEXT)


def _out(t: float) -> float:
    return min(1.0, 3.0 * t)


def _in(t: float) -> float:
    return max(0.0, 3.0 * t - 2.0)


def fade_swap(old, new) -> list:
    """`old` fades out in the first third of the step, `new` in over the last third, each in
    its own place: nothing morphs, and between them neither is drawn."""
    return [FadeOut(old, rate_func=_out), FadeIn(new, rate_func=_in)]


def slide(old, new, rise: float = 0.0) -> tuple[list, list]:
    """A chart row (name, bar, number) to its next state: (animations, [(old, new) to swap
    after them]). Its name moves with its bar all the way (a row never loses its label
    mid-motion, and nothing cross-fades). On its own track the name stays, the bar slides to
    its new length and the number rides at its end, turning when the bar stops (never a
    glyph morph). To another track the name and bar move there together; the number, whose
    value changes, shows before the row sets off and after it lands (two rows' numbers would
    cross on the bars). `rise` is how many tracks the row climbs (negative: it sinks): a
    climbing row's name steps out to a lane left of the names' column to pass (so a climber
    and a row it overtakes never share a place), in front, on a backing of the background's
    colour (two climbers crossing: the one climbing further in front, never drawn through)."""
    moves = abs(old.bar.get_center()[1] - new.bar.get_center()[1]) > 1e-3
    anims = [ReplacementTransform(old.bar, new.bar)]
    same_num = getattr(old.num, "shown", None) == getattr(new.num, "shown", 0)
    if not moves:
        anims.append(ReplacementTransform(old.name, new.name))
        if same_num:
            return anims + [ReplacementTransform(old.num, new.num)], []
        return anims + [old.num.animate.move_to(new.num, aligned_edge=LEFT)], [(old.num, new.num)]
    out = STEP_OUT if rise > 0 else 0.0      # a climber's lane, left of the names' column
    z = 10 + max(0.0, rise)                  # climbers in front of what they pass
    name0, name1 = old.name.get_center(), new.name.get_center()
    name = VGroup(backing(old.name), old.name).set_z_index(z)

    def move_name(mob, s):
        # out to its lane at once, along it, and back in as it lands (rows cross in between)
        bow = out * min(1.0, STEP_OUT_RATE * np.sin(np.pi * s))
        mob.move_to(name0 + (name1 - name0) * s + LEFT * bow)

    anims += [UpdateFromAlphaFunc(name, move_name),
              FadeOut(old.num, rate_func=_leave), FadeIn(new.num, rate_func=_land)]
    return anims, [(name, new.name)]


STEP_OUT = 1.85            # a climbing row's name steps out this far (past the widest name,
                           # the label column's 1.7), ...
STEP_OUT_RATE = 4.0        # ... reaching it in the slide's first tenth, leaving it in its last


def backing(mob, buff: float = 0.05) -> Rectangle:
    """A plate of the background's colour just behind `mob` (what passes behind is hidden,
    never drawn through it)."""
    return Rectangle(width=mob.width + 2 * buff, height=mob.height + 2 * buff, stroke_width=0,
                     fill_color=T.BACKGROUND, fill_opacity=1.0).move_to(mob)


def _leave(t: float) -> float:
    return min(1.0, 4.0 * t)


def _land(t: float) -> float:
    return max(0.0, 4.0 * t - 3.0)
