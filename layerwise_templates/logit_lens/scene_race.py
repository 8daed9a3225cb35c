"""The bar chart across the states, as logit_lens draws it (a `LayerRace` made to keep each
token's identity in view):

- a step is two moves, then held: first the data in place (bars stretch on their tracks, the
  numbers and labels turn as they settle), then the re-sort: a row that changes track moves
  there as one card (name, bar, number), the rows that keep their order straight, the others
  out into a lane to the right clear of what they pass, across, and back in (r35, review:
  "re-sorts overlap"); a token that enters the top k fades in in its place at the end, one
  that leaves fades out at the start (the answer climbs in from its own row, its name in
  view): no two rows are ever drawn on each other, and no number is ever a ghost;
- the answer's own row under the rule is its rank on a log scale (a dot that moves along its
  track from state to state, r35), its name while it is outside the chart, and its rank as
  the row's large number;
- the counter (large, white) names the state the lens reads, X^(l+1) for layer l (the chapter's notation),
  and the header says what the marks it draws mean (␣; ↵ and nbsp only if drawn).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Dot, FadeIn, FadeOut, Line, Transform,
                   UpdateFromAlphaFunc, VGroup, linear, smooth)

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
SAME_LOOKING = {"\xa0": "nbsp", ".": "full stop", ",": "comma", " ": "space", "\n": "new line",
                "\n\n": "2 new lines"}    # (drawn "↵↵" it was a speck at 480p)


HEADER_SIZE = T.CAPTION_SIZE
COUNTER_GAP = 2.1          # the counter's right end to the tracks (the names' column, 1.7, between)


class LensRace(LayerRace):

    def __init__(self, data, answer: str, **kwargs):
        super().__init__(data, answer, **kwargs)
        self.axis = data.rank_axis       # the plan's log-rank axis (the gauge's heights)

    def entries(self, l: int) -> list:
        return [(k, SAME_LOOKING.get(str(e.text), name), p, c)
                for (k, name, p, c), e in zip(super().entries(l), self.layers[l].top)]

    def enter(self, l: int = 0) -> list:
        """The kit's first state, its ruler cursor white (yellow is Paris's alone), the other
        tokens' rows plain (`plain`)."""
        self.shown = [l]
        anims = super().enter(l)
        plain(self.rows, self.entries(l))
        self.extra[2].set_color(T.TEXT)
        return anims + [FadeIn(self.spark_open(l))]

    def header(self) -> VGroup:
        """What the bars are, and what the marks in the tokens' names mean, a size above the
        labels (grey at the label size it read ~12 px); "its" dropped for the room."""
        # r31: one name per mark: a mark the chart draws is keyed, a token the chart names
        # in words ("new line", "space") is not keyed again as a symbol ("↵ = new line" sat
        # over rows labelled "new line")
        size = HEADER_SIZE
        shown = [SAME_LOOKING.get(str(e.text), str(e.display))
                 for lay in self.layers for e in lay.top]
        keys = [("␣", "space")]
        if any("↵" in s for s in shown):
            keys.append(("↵", "new line"))
        if "nbsp" in shown:
            keys.append(("nbsp", "no-break space"))
        parts = []
        for i, (mark, name) in enumerate(keys):
            parts += [txt(mark, size, T.TEXT, mono=True),
                      txt("= " + name + ("," if i < len(keys) - 1 else ""), size, T.MUTED)]
        return inline(txt("top", size, T.MUTED),
                      Num(self.k, decimals=0, size=size, color=T.MUTED),
                      txt("guesses (bar = probability);", size, T.MUTED), *parts, buff=0.1)

    counter_word = "the lens\nreads"

    def place_counter(self, head: VGroup) -> None:
        # the counter stands left of the names' column, at the chart's top: the right of the
        # chart is the lanes the re-sorting rows step out into (`lanes`)
        self.counter_name.next_to(self.chart.tracks[0], LEFT, buff=COUNTER_GAP).align_to(
            self.chart.tracks[0], UP)

    def counter(self, l: int):
        """The state read, large and white (its superscript must read at 480p)."""
        return x_label(self.layers[l].state, STATE_INDEX_SIZE, T.TEXT).next_to(
            self.counter_name, DOWN, buff=0.15).align_to(self.counter_name, LEFT)

    def panel(self, prompt: VGroup) -> VGroup:
        out = self._panel(prompt)
        self.counter_name.set_color(T.TEXT)        # bright: the state on screen is never unknown
        return out

    def _panel(self, prompt: VGroup) -> VGroup:
        """The kit's panel, its depth ruler named by states (`state_ruler`), lowered by the
        room of the rank scale's labels under Paris's track."""
        out = super().panel(prompt)
        group = out[0]
        ruler = state_ruler(self.layers, self.ruler.line.width)
        room = txt("10", SCALE_TICK).height + 0.1
        ruler.shift(self.ruler.line.get_left() - ruler.line.get_left() + DOWN * room)
        group.submobjects[group.submobjects.index(self.ruler)] = ruler
        self.ruler = ruler
        return out

    # --- r35: Paris's rank on its own track (review: "the rank gauge is ~150 px with ~10 px
    # text: make it readable or fold it into the main chart") ----------------------------
    # Paris's row under the rule is a log-rank scale along its track (the plan's rank_axis
    # decades; the worst rank at the left, 1 at the right), its ticks' ranks under the track at
    # the labels' size and up; a yellow dot at the rank of the state read, which moves along
    # the scale from state to state and leaves a small faint dot where it was (the climb is
    # the dot running right). The row has no probability bar: until Paris enters the chart
    # it is under 0.01 (the chart's bars are probabilities, its own track is its rank).
    def spark_frame(self) -> VGroup:
        track = self.answer_track
        self.spark_box = (track.get_left()[0] + SCALE_PAD, track.get_right()[0] - SCALE_PAD,
                          track.get_center()[1])
        frame, last = VGroup(), None
        # (from rank 1 leftwards, a tick's rank is written only where it clears the one
        # written before: with five decades or more "100000" ran into "10000")
        for tick in sorted(self.axis.ticks, key=lambda t: -float(t.height)):
            x = self.spark_x(float(tick.height))
            frame.add(Line([x, track.get_bottom()[1], 0], [x, track.get_top()[1], 0],
                           stroke_width=1.5, color=T.MUTED))
            label = txt(str(int(tick.rank)), SCALE_TICK, T.MUTED).next_to(
                [x, track.get_bottom()[1], 0], DOWN, buff=0.08)
            if last is None or label.get_right()[0] + TICK_GAP <= last.get_left()[0]:
                frame.add(label)
                last = label
        return frame

    def spark_x(self, height: float) -> float:
        left, right, _ = self.spark_box
        lo, hi = (float(v) for v in self.axis.y_range)
        return left + (right - left) * (height - lo) / (hi - lo)

    def spark_point(self, l: int) -> np.ndarray:
        return np.array([self.spark_x(float(self.layers[l].height)), self.spark_box[2], 0.0])

    def spark_data(self, states: list) -> VGroup:
        """A faint small dot at each earlier state read, the state read now as the big dot,
        last (in front)."""
        out = VGroup(*[ghost_dot(self.spark_point(m)) for m in states[:-1]],
                     Dot(self.spark_point(states[-1]), radius=SPARK_DOT, color=T.HIGHLIGHT))
        out.states = list(states)
        return out

    def spark_open(self, l: int) -> VGroup:
        """The scale with its first dot (drawn with the chart)."""
        self.spark = VGroup(self.spark_frame(), self.spark_data([l]))
        return self.spark

    def spark_step(self, l: int) -> tuple[list, callable]:
        """Animations for the scale at state l (played with a step's first move), and what to
        do after: a state past the last one drawn moves the dot along the scale to its rank,
        a faint dot left where it was; any other change (going back up the stack) turns in
        one frame."""
        spark = getattr(self, "spark", None)
        if spark is None:
            return [], lambda scene: None
        old = spark[1]
        states = sorted({m for m in old.states if m < l} | {l})
        if states[:-1] == old.states and len(states) > len(old.states):
            ghost = ghost_dot(self.spark_point(states[-2]))

            def after(scene):
                scene.remove(ghost)
                spark.submobjects[1] = self.spark_data(states)
            return [old[-1].animate.move_to(self.spark_point(l)), FadeIn(ghost)], after
        new = self.spark_data(states)

        def turned(scene):
            old.states = list(states)
        return [midway(old, new, GONE)], turned

    def parts(self) -> list:
        return super().parts() + ([self.spark] if getattr(self, "spark", None) else [])

    def answer_row(self, l: int) -> VGroup:
        """Paris's own row: its name (while it is outside the chart) and its rank, the row's
        large number, right of its track (the rank scale, `spark_frame`), in the same place
        whether Paris is in the chart or not. Its bar and probability are kept, hidden, for
        the climb into the chart (they grow there from its name's row)."""
        lay = self.layers[l]
        rank = inline(txt("rank", T.LABEL_SIZE, T.MUTED),
                      Num(lay.rank, decimals=0, size=ANSWER_RANK, color=T.HIGHLIGHT),
                      buff=0.12).next_to(self.answer_track, RIGHT, buff=RANK_GAP)
        if int(lay.rank) <= int(self.k):      # its name is in the chart: no second copy
            return VGroup(rank)
        row = self.chart.row((self.answer, self.answer, lay.prob, T.HIGHLIGHT), 0,
                             self.answer_track)
        row.bar.set_opacity(0.0)
        row.num.set_opacity(0.0)
        return VGroup(row, rank)

    def step(self, scene, l: int, run_time: float) -> None:
        """One step to layer l in two moves, every row (name, bar, number, its track) one
        object throughout:

        1. the data change in place: the numbers fade out, the state label and Paris's rank
           turn in one frame, each bar stretches or shrinks on its own track to its new
           probability, and its new number fades in at its end as it settles (`ride`: no
           number ever counts through values of no state; a token that leaves fades out);
        2. the rows re-sort: the most rows that keep their order slide straight to their
           tracks; each other row steps out to the right into a lane clear of what it passes,
           moves there, and slots back in (`lanes`, `slot_in`): no row is ever drawn through
           another; a token that enters fades in in its place as the others land, and the
           answer climbs from its own row into the chart the same way.
        """
        new = plain(self.chart.rows(self.entries(l)), self.entries(l))
        answer, counter, dot = self.extra
        extra = VGroup(self.answer_row(l), self.counter(l), dot)
        old_row, new_row = answer, extra[0]
        key = next((k for k, _, _, c in self.entries(l) if k not in self.rows
                    and c == T.HIGHLIGHT and len(old_row) == 2), None)
        a_time, b_time = SHARE_A * run_time, (1 - SHARE_A) * run_time
        # --- move 1: the data, in place --------------------------------------------------
        first, turn, cards = [], [], []      # cards: (old row, its new number, new row)
        arriving = []
        for k, row in new.items():
            if k in self.rows:
                old = self.rows[k]
            elif k == key:
                old = old_row[0]
            else:
                continue
            bar = row.bar.copy().align_to(old.bar, LEFT).match_y(old.bar)
            num = row.num.copy().next_to(bar, RIGHT, buff=0.12).match_y(old.num)
            if k == key:    # Paris's bar and number come as its card lands in the chart
                # (on its own row they would sit on its rank scale): its name climbs alone
                bar.set_fill(opacity=0.0)
                num.set_opacity(0.0)
                first.append(Transform(old.bar, bar))
                arriving = [appear(old.bar, row.bar.get_fill_opacity()), appear(num, 1.0)]
            else:
                first += [Transform(old.bar, bar), ride(old.num, old.bar, num, self.chart.size)]
            turn.append((old.num, num))
            cards.append((old, num, row))
        for k, row in self.rows.items():
            if k not in new:    # (r33b: gone with the old numbers, not held to the switch)
                first.append(FadeOut(row, rate_func=lambda t: smooth(min(1.0, t / GONE))))
        # Paris's rank turns in its place with the state label (r35: it stands right of its
        # scale whether Paris is in the chart or not; its name, while outside, stays put)
        if len(old_row) == 2 and key is None and len(new_row) == 2:     # outside, both states
            turn.append((old_row[0], new_row[0]))
        elif len(old_row) == 2 and key is None:        # (back up the stack) its name leaves
            first.append(FadeOut(old_row[0]))
        if len(new_row) == 2 and len(old_row) == 1:    # (back up the stack) its name comes
            first.append(FadeIn(new_row[0], rate_func=_in))
            turn.append((VGroup(), new_row[0]))
        first.append(midway(old_row[-1], new_row[-1], BACK))
        turn.append((old_row[-1], new_row[-1]))
        first.append(dot.animate.move_to(self.ruler.dots[l]))
        # the state label (and the answer's rank) turn as the bars settle, with the new
        # numbers (r33b, review: the header read X(27) and the rank 34 while the bars still
        # stood at X(26)): while the bars move, bare, the old state is still named and no
        # number is shown (no number on screen ever belongs to another state than named)
        first.append(midway(counter, extra[1], BACK))
        gauge, after = self.spark_step(l)
        scene.play(*first, *gauge, run_time=a_time)
        after(scene)
        turn.append((counter, extra[1]))
        for old, fresh in turn:
            drop(scene, old)
            scene.add(fresh)
        # --- move 2: the rows re-sort, each as one card (name, bar, number), never through
        # another (r35, review: "X21-X23 re-sort fast with a row overlap"): the most rows
        # that keep their order move straight to their tracks (they never cross); every other
        # row first steps out to the right into a lane clear of what it passes (`lanes`),
        # moves up or down there, and slots back in as the others have closed up (`slot_in`);
        # the chart's tracks stay where they are, the places the cards leave and land in
        # (r35: the rows that keep their track are in the sort too: a row moving straight
        # past one of them would be drawn through it; it steps aside if it must)
        second, moved = list(arriving), []
        for old, num, row in cards:
            moved.append((VGroup(old.name, old.bar, num), old.bar.get_center()[1],
                          row.bar.get_center()[1]))
        for parts, dx, y0, y1 in lanes(moved, [], FRAME_RIGHT):
            if abs(dx) < 1e-6 and abs(y1 - y0) < 1e-6:
                continue
            drop(scene, parts)          # one scene entry each (its row's other parts gone)
            parts.set_z_index(10)       # over the tracks it passes
            scene.add(parts)
            second.append(slot_in(parts, dx, y1 - y0))
        for k, row in new.items():
            if k not in self.rows and k != key:
                second.append(FadeIn(row, rate_func=_in))
        if second:
            scene.play(*second, run_time=b_time)
        else:
            scene.wait(b_time)
        for parts, _, _ in moved:
            parts.set_z_index(0)
        drop(scene, *[parts for parts, _, _ in moved], *[fresh for _, fresh in turn], old_row,
             *self.rows.values())
        scene.add(*new.values(), extra)
        self.rows, self.extra, self.layer = new, extra, l
        self.shown = [*getattr(self, "shown", []), l]


FRAME_RIGHT = 6.9          # a lane's right end stays inside the frame (its half-width 7.1)
LANE_GAP = 0.25            # between a lane's cards and what they pass
OUT, ACROSS = 0.3, 0.4     # shares of the re-sort: stepping out (and back in), moving across


def lanes(going: list, still: list, right: float, floor: float = -1e9) -> list:
    """[(parts, dx, y0, y1)] for the rows that change track, (parts, old y, new y) each: dx 0
    for the most that keep their order (they move straight and never cross), a lane to the
    right for the others, far enough that nothing they pass shares their place (the rows of
    the column on their way, `still` ones included, and the cards of an earlier lane), as far
    as the frame allows, and right of `floor` (the tracks' right end) when given. The bars'
    lengths sum to at most one bar (probabilities), so a lane fits in the frame."""
    if not going:
        return []
    order = sorted(range(len(going)), key=lambda i: -going[i][1])       # top to bottom, before
    # (of the longest runs in order, the one that moves fewest rows off their track)
    keep = {order[i] for i in _increasing([-going[i][2] for i in order],
                                          [1.0 + 1e-3 * (abs(going[i][2] - going[i][1]) < 1e-6)
                                           for i in order])}
    out = [(going[i][0], 0.0, going[i][1], going[i][2]) for i in sorted(keep)]
    column = ([(going[i][0], going[i][1], going[i][2]) for i in keep]
              + [(m, m.get_center()[1], m.get_center()[1]) for m in still])
    laned: list[list[int]] = []
    for i in order:               # lanes in which the cards keep their order (never cross)
        if i in keep:
            continue
        for lane in laned:
            if going[lane[-1]][2] > going[i][2]:
                lane.append(i)
                break
        else:
            laned.append([i])
    # r36 (review: "labels touch while bars slide", 0:52 and 1:39): every card moves up or
    # down in the same window with the same easing (`slot_in`), so two cards that keep their
    # order are never nearer than their rows are (a row apart at least, as on the settled
    # chart); a lane clears, in x, every card near its path where the frame has room, else
    # only the cards it swaps places with (it was clamped back at the frame's edge over the
    # cards it had to clear, when a long bar near its path pushed it out)
    placed = [(m, a, b, 0.0) for m, a, b in column]    # (parts, y0, y1, dx) placed so far
    for lane in laned:
        widest = max(going[i][0].get_right()[0] for i in lane)
        dx = lane_dx(lane, going, placed, floor, near=True)
        if widest + dx > right:
            dx = lane_dx(lane, going, placed, floor, near=False)
        dx = max(0.0, min(dx, right - widest))
        out += [(going[i][0], dx, going[i][1], going[i][2]) for i in lane]
        placed += [(going[i][0], going[i][1], going[i][2], dx) for i in lane]
    return out


def lane_dx(lane: list, going: list, placed: list, floor: float, near: bool) -> float:
    """How far right a lane's cards must step to clear, in x, the placed cards (each moved by
    its own lane's dx) that are near their path (`near`: within a card's height of it) or,
    else, that they swap places with."""
    dx = 0.0
    for i in lane:
        parts, y0, y1 = going[i]
        lo, hi = min(y0, y1) - parts.height, max(y0, y1) + parts.height
        passed = [m.get_right()[0] + mdx for m, a, b, mdx in placed if m is not parts and (
            max(a, b) > lo and min(a, b) < hi if near else swaps(a, b, y0, y1))]
        dx = max(dx, max(passed + [floor]) + LANE_GAP - parts.get_left()[0])
    return dx


def swaps(a0: float, a1: float, b0: float, b1: float) -> bool:
    """Whether two cards moving from a0 to a1 and from b0 to b1 (their ys, moved together in
    one easing) pass each other: their order before and after differs, or they share a
    place at either end."""
    return (a0 - b0) * (a1 - b1) <= 0


ANSWER_RANK = 1.5 * T.LABEL_SIZE   # the answer's rank now, the row's large number (r32)
RANK_GAP = 0.9                     # between its scale's end and its rank
SCALE_PAD = 0.4                    # the scale's ends inside Paris's track (its end ticks'
                                   # ranks within the track's ends)
SCALE_TICK = T.LABEL_SIZE + 4      # the scale's ranks (r35, review: the gauge's read ~10 px)
TICK_GAP = 0.2                     # the least room between two of its ranks
SPARK_DOT = 0.1                    # Paris's dot on it, the state read now
GHOST_DOT, GHOST_OPACITY = 0.05, 0.45     # ... and where it was at the states read before


def appear(mob, opacity: float):
    """`mob` fades in (its fill, to `opacity`) over the last third of a move, wherever the
    move takes it (an updater on its opacity alone, not a copy interpolated)."""
    return UpdateFromAlphaFunc(mob, lambda m, a: m.set_fill(opacity=opacity * _in(a)))


def ghost_dot(point) -> Dot:
    """Where Paris's dot was on its rank scale at a state read before: small and faint."""
    return Dot(point, radius=GHOST_DOT, color=T.HIGHLIGHT).set_opacity(GHOST_OPACITY)


def prob_num(value, size: float, color) -> Num:
    """A probability as on every bar (two decimals), but "<0.01" where those would read
    0.00 for a probability above 0 (r33, review: Paris's "0.00" for 1e-13 read as no number):
    a Num in theme's "floor" style (the plan's value and path, the style recorded)."""
    return Num(value, decimals=T.DECIMALS, size=size, color=color, style="floor")


def _increasing(seq: list, weights: list | None = None) -> list:
    """Indices of a strictly increasing subsequence of `seq` of the greatest total weight
    (each item 1 by default: a longest one)."""
    w = weights or [1.0] * len(seq)
    best, prev = list(w), [-1] * len(seq)
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i] and best[j] + w[i] > best[i]:
                best[i], prev[i] = best[j] + w[i], j
    i = max(range(len(seq)), key=lambda i: best[i])
    out = []
    while i >= 0:
        out.append(i)
        i = prev[i]
    return out[::-1]


def slot_in(mob, dx: float, dy: float):
    """`mob` out `dx` to the right (its lane), `dy` up or down there, and back in: the three
    in turn over the move (a row of the column, dx 0, moves only while the lanes move across)."""
    start = mob.get_center().copy()

    def ease(a: float, lo: float, span: float) -> float:
        return smooth(min(1.0, max(0.0, (a - lo) / span)))

    def update(m, a):
        ox = dx * (ease(a, 0.0, OUT) - ease(a, 1.0 - OUT, OUT))
        oy = dy * ease(a, OUT, ACROSS)
        m.move_to(start + RIGHT * ox + UP * oy)
    return UpdateFromAlphaFunc(mob, update, rate_func=linear)


def midway(old, new, at: float = 0.5):
    """`old` turns into `new` in one frame at `at` of the move (a label's value turns, it
    does not morph or fade), in `old`'s place: `new` is already where `old` stands."""
    target = new.copy()
    done = []

    def update(mob, a):
        if a >= at and not done:
            mob.become(target)
            done.append(True)
    return UpdateFromAlphaFunc(old, update)


SHARE_A = 0.4           # a step's first move (the data, in place); the rest re-sorts the rows


def ride(num, bar, target, size: float):
    """The number at a bar's end while the bar stretches or shrinks: it never counts through
    values of no state, nor names a length the bar does not have. The old value fades out
    as the move starts (`GONE`), the bar moves bare, and the new value fades in at its end
    once the bar has (nearly) settled (`BACK`): settle, then change. It rides at the bar's end
    throughout."""
    v0 = float(getattr(num, "value", getattr(target, "value", 0.0)))
    v1 = float(getattr(target, "value", v0))
    color, y = num.get_color(), num.get_center()[1]
    source = getattr(target, "source", None) or getattr(num, "source", None) or "race"

    def update(mob, a):
        if a < BACK:
            shown = Num(v0, source, decimals=T.DECIMALS, size=size, color=color, style="floor")
            shown.set_opacity(max(0.0, 1.0 - a / GONE))
        else:
            shown = Num(v1, source, decimals=T.DECIMALS, size=size, color=color, style="floor")
            shown.set_opacity(1.0 if a >= 1.0 else (a - BACK) / (1.0 - BACK))
        shown.next_to(bar, RIGHT, buff=0.12).set_y(y)
        mob.become(shown)
    return UpdateFromAlphaFunc(num, update)


GONE, BACK = 0.2, 0.8     # shares of a data move: the old numbers gone by, the new from


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
