"""The bar chart across the states, as logit_lens draws it (a `LayerRace` made to keep each
token's identity in view):

- a step is short and then held: a row that changes track slides there as one card (name,
  bar, number on an opaque plate; r32: names that stepped off and back on could not be
  followed), a climber in front of what it passes; a token that enters the top k fades in in
  its place at the end, one that leaves fades out at the start (the answer climbs in from
  its own row, its name in view): no two names are ever drawn on each other, and no number
  is ever a ghost;
- the answer's own row under the rule shows its label and bar only while it is outside the
  chart; once it is in the top k the row says just its rank (no second copy of the token);
- the counter (large, white) names the state the lens reads, X^(l+1) for layer l (the chapter's notation),
  and the header says what the marks it draws mean (␣; ↵ and nbsp only if drawn).
"""

from __future__ import annotations

import numpy as np
from manim import (DOWN, LEFT, RIGHT, UP, Create, DashedLine, Dot, FadeIn, FadeOut, Line,
                   Rectangle, ReplacementTransform,
                   Transform, UpdateFromAlphaFunc, VGroup, linear, smooth)

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
        """The kit's panel, its depth ruler named by states (`state_ruler`)."""
        out = super().panel(prompt)
        group = out[0]
        ruler = state_ruler(self.layers, self.ruler.line.width)
        ruler.shift(self.ruler.line.get_left() - ruler.line.get_left())
        group.submobjects[group.submobjects.index(self.ruler)] = ruler
        self.ruler = ruler
        return out

    # --- r32b: Paris's rank gauge (review: "the climb is only a corner number moving") -----
    # a log-rank axis (rank 1 at the top, the plan's rank_axis decades) right of the chart,
    # over the answer's row; one yellow point per state read, joined in depth order, the
    # newest drawn as its rank is said (the segment to it grows from the last point)
    def spark_frame(self) -> VGroup:
        axis = self.axis
        track = self.chart.tracks[0]
        left, right = track.get_right()[0] + SPARK_LEFT, SPARK_RIGHT
        # (its top a row down: the first row's number may reach past the track's end)
        top, bottom = self.chart.tracks[1].get_top()[1], self.chart.tracks[-1].get_bottom()[1]
        self.spark_box = (left, right, top, bottom)
        name = txt(str(self.answer).replace("␣", "").strip() + "'s rank", T.LABEL_SIZE,
                   T.HIGHLIGHT)
        frame = VGroup()
        ys = []
        for tick in axis.ticks:
            y = self.spark_y(float(tick.height))
            ys.append(y)
            r = int(tick.rank)
            label = txt(str(r), SPARK_TICK, T.MUTED).next_to([left, y, 0], LEFT, buff=0.1)
            frame.add(Line([left, y, 0], [right, y, 0], stroke_width=1, color=T.MUTED
                           ).set_opacity(0.35), label)
        frame.add(Line([left, ys[0], 0], [left, ys[-1], 0], stroke_width=1.5, color=T.MUTED))
        ends = VGroup(x_label(self.layers[0].state, SPARK_MATH, T.MUTED),
                      x_label(self.layers[-1].state, SPARK_MATH, T.MUTED))
        # (the ends inside the axis: X^(1) right of the tick labels, X^(30) off the frame edge)
        ends[0].next_to([left, min(ys), 0], DOWN, buff=0.08).align_to([left, 0, 0], LEFT)
        ends[1].next_to([right, min(ys), 0], DOWN, buff=0.08).align_to([right, 0, 0], RIGHT)
        name.next_to([ (left + right) / 2, max(ys), 0], UP, buff=0.12)
        frame.add(ends, name)
        return frame

    def spark_x(self, l: int) -> float:
        left, right, _, _ = self.spark_box
        return left + 0.12 + (right - left - 0.12) * l / max(1, len(self.layers) - 1)

    def spark_y(self, height: float) -> float:
        _, _, top, bottom = self.spark_box
        lo, hi = (float(v) for v in self.axis.y_range)
        return bottom + 0.45 + (top - 0.4 - bottom - 0.45) * (height - lo) / (hi - lo)

    def spark_point(self, l: int) -> np.ndarray:
        return np.array([self.spark_x(l), self.spark_y(float(self.layers[l].height)), 0.0])

    def spark_states(self, l: int) -> list:
        return sorted({m for m in getattr(self, "shown", []) if m <= l} | {l})

    def spark_data(self, states: list) -> VGroup:
        pts = [self.spark_point(m) for m in states]
        out = VGroup()
        for (a, b), (m0, m1) in zip(zip(pts, pts[1:]), zip(states, states[1:])):
            out.add(spark_segment(a, b, m1 - m0 > 1))
        for i, pt in enumerate(pts):
            out.add(Dot(pt, radius=SPARK_DOT if i == len(pts) - 1 else 0.6 * SPARK_DOT,
                        color=T.HIGHLIGHT))
        out.states = list(states)
        return out

    def spark_open(self, l: int) -> VGroup:
        """The gauge with its first point (drawn with the chart)."""
        frame = self.spark_frame()
        self.spark = VGroup(frame, self.spark_data([l]))
        return self.spark

    def spark_step(self, l: int) -> tuple[list, callable]:
        """Animations for the gauge at state l (played with a step's first move), and what to
        do after: a state past the last one drawn grows its segment and point; any other
        change (going back up the stack) turns in one frame."""
        spark = getattr(self, "spark", None)
        if spark is None:
            return [], lambda scene: None
        old = spark[1]
        states = sorted({m for m in old.states if m < l} | {l})
        if states[:-1] == old.states and len(states) > len(old.states):
            a, b = self.spark_point(states[-2]), self.spark_point(l)
            dot = Dot(b, radius=SPARK_DOT, color=T.HIGHLIGHT)
            if l - states[-2] > 1:      # states skipped: dotted, drawn from the last point
                seg = spark_segment(a, b, True)
                grow = Create(seg)
            else:
                seg = Line(a, a + 1e-3 * RIGHT, stroke_width=2.5,
                           color=T.HIGHLIGHT).set_opacity(0.6)
                grow = UpdateFromAlphaFunc(seg, lambda m, t: m.put_start_and_end_on(
                    a, a + (b - a) * max(t, 1e-3)))
            shrink = [d.animate.scale(0.6) for d in old if isinstance(d, Dot)
                      and np.allclose(d.get_center(), a)]

            def after(scene):
                scene.remove(seg, dot)
                spark.submobjects[1] = self.spark_data(states)
            return [grow, FadeIn(dot, scale=2.5, rate_func=_in), *shrink], after
        new = self.spark_data(states)

        def turned(scene):
            old.states = list(states)
        return [midway(old, new, GONE)], turned

    def parts(self) -> list:
        return super().parts() + ([self.spark] if getattr(self, "spark", None) else [])

    def card_plate(self, bar, num=None) -> Rectangle:
        """A moving row's plate: the background's colour over the row's whole width (the
        names' column, the track, its number: r32, to the number's end, not a fixed room past
        the track, which clipped the "Paris, earlier" column right of the chart) and one pitch
        high less a hair, at `bar`'s height."""
        track = self.chart.tracks[0]
        left = track.get_left()[0] - self.chart.label_width - 0.1
        right = (max(track.get_right()[0], num.get_right()[0]) + 0.05 if num is not None
                 else track.get_right()[0] + CARD_NUMBER)
        return Rectangle(width=right - left, height=self.pitch - 0.02, stroke_width=0,
                         fill_color=T.BACKGROUND, fill_opacity=1.0
                         ).move_to([(left + right) / 2, bar.get_center()[1], 0])

    def answer_row(self, l: int) -> VGroup:
        lay = self.layers[l]
        inside = int(lay.rank) <= int(self.k)
        # r32: the rank is the row's large number (it is what changes; the probability, 0.00
        # for most of the depth, is small and grey beside the bar)
        rank = inline(txt("rank", T.LABEL_SIZE, T.MUTED),
                      Num(lay.rank, decimals=0, size=ANSWER_RANK, color=T.HIGHLIGHT),
                      *([txt("(in the chart)", T.LABEL_SIZE, T.MUTED)] if inside else []),
                      buff=0.12)
        if inside:       # on its empty track, in place of a second copy of the token
            rank.move_to(self.answer_track, aligned_edge=LEFT).shift(RIGHT * 0.1)
            return VGroup(rank)
        rank.next_to(self.answer_track, RIGHT, buff=0.9)
        # r32b: the trail of earlier ranks (a column of small numbers) gave way to the rank
        # gauge (`spark`) above this row, which fills one point per state as it is read
        row = self.chart.row((self.answer, self.answer, lay.prob, T.HIGHLIGHT), 0,
                             self.answer_track)
        small = prob_num(lay.prob, ANSWER_PROB, T.MUTED).next_to(row.bar, RIGHT, buff=0.12)
        row.submobjects[row.submobjects.index(row.num)] = small
        row.num = small
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
            cards.append((old, num, row, rise, k == key))
        for k, row in self.rows.items():
            if k not in new:    # (r33b: gone with the old numbers, not held to the switch)
                first.append(FadeOut(row, rate_func=lambda t: smooth(min(1.0, t / GONE))))
        if key is None and len(old_row) == 2 and len(new_row) == 2:   # outside, both states
            bar = new_row[0].bar.copy()
            first += [Transform(old_row[0].bar, bar),
                      ride(old_row[0].num, old_row[0].bar, new_row[0].num, ANSWER_PROB)]
            first.append(midway(old_row[1], new_row[1], BACK))   # with the state label
            turn += [(old_row[0].num, new_row[0].num), (old_row[1], new_row[1])]
            settled = [old_row[0].name, old_row[0].bar]
        elif key is None and len(old_row) == 1 and len(new_row) == 1:   # inside, both states
            first.append(midway(old_row, new_row, BACK))
            turn.append((old_row, new_row))
            settled = []
        else:
            first.append(FadeOut(old_row[1] if key is not None else old_row))
            settled = None
        first.append(dot.animate.move_to(self.ruler.dots[l]))
        # the state label (and the answer's rank, above) turn as the bars settle, with the
        # new numbers (r33b, review: the header read X(27) and the rank 34 while the bars
        # still stood at X(26)): while the bars move, bare, the old state is still named and
        # no number is shown (no number on screen ever belongs to another state than named)
        first.append(midway(counter, extra[1], BACK))
        gauge, after = self.spark_step(l)
        scene.play(*first, *gauge, run_time=a_time)
        after(scene)
        turn.append((counter, extra[1]))
        for old, fresh in turn:
            drop(scene, old)
            scene.add(fresh)
        # --- move 2: the rows re-sort, each as one card, never through another -----------
        # the most rows that keep their order move straight to their tracks (they never
        # cross); every other row first steps out to the right into a lane clear of the rows
        # it passes, moves up or down there, and slots back in as the others have closed up
        second, moved, going, still = [], [], [], []
        for old, num, row, rise, is_key in cards:
            dy = row.bar.get_center()[1] - old.bar.get_center()[1]
            parts = VGroup(old.name, old.bar, num)
            moved.append(parts)
            if abs(dy) >= 1e-3:
                going.append((parts, old.bar.get_center()[1], row.bar.get_center()[1],
                              is_key))
            else:
                still.append(parts)
        # a straight vertical slide: each row moves up or down its own column to its new
        # track (rows swap places; nothing swings out sideways), as one card: an opaque
        # plate the width of a whole row (name column, track, number), its own track on it,
        # its name, bar and number. A row that climbs is in front of the rows it overtakes
        # (the further it climbs, the more in front), so what it passes is hidden under the
        # card, never drawn through it: no name over another name or over a track
        # The chart's own rows re-sort in two phases, words apart from bars: a moving row's
        # name and number step off (fade) as it sets off, its bar slides to its new track
        # (under the words of the rows it passes), and the name and number step back on at
        # the new place as it lands: no name is ever drawn over another mid-swap. Only the
        # answer climbing in from its own row moves as one card (its name in view all the
        # way, in front of what it passes), and no card is edged: nothing is boxed but
        # what the voice names
        # r30: every moving row's name rides with its bar all the way (a row never loses its
        # label mid-motion); where names cross, a climber's name passes in front on a plate
        # of the background's colour and the names it overtakes dim a little as they pass
        # under it (never all blanked at once); the numbers still step off and back on
        # r32 (review: "the token labels fade out while the bars slide: 'each token keeps its
        # bar' cannot be followed"): every moving row is one card, its name, bar and number
        # riding together on an opaque plate of the background's colour with its own track;
        # a climber's card is in front of what it passes (the further it climbs, the more in
        # front), a sinking card behind the climbers but in front of the rows that stay, so
        # a row passed is hidden under the card, never drawn through it: no name is ever
        # drawn over another, and none fades
        plates = []
        for parts, y0, y1, is_key in going:
            drop(scene, parts)          # one scene entry each (its row's other parts gone)
            plate = self.card_plate(parts[1], parts[2])
            track = self.chart.tracks[0].copy().match_y(parts[1])
            plates += [plate, track]
            card = VGroup(plate, track, parts)
            card.set_z_index(10 + (y1 - y0) if y1 > y0 else 1 + 0.01 * (y0 - y1))
            scene.add(card)
            second.append(card.animate(rate_func=smooth).shift(UP * (y1 - y0)))
        for k, row in new.items():
            if k not in self.rows and k != key:
                second.append(FadeIn(row, rate_func=_in))
        if settled is None:
            second.append(FadeIn(new_row, rate_func=_in))
        if second:
            scene.play(*second, run_time=b_time)
        else:
            scene.wait(b_time)
        drop(scene, *moved, *plates, *[fresh for _, fresh in turn], old_row, *(settled or []),
             *self.rows.values())
        scene.add(*new.values(), extra)
        self.rows, self.extra, self.layer = new, extra, l
        self.shown = [*getattr(self, "shown", []), l]


CARD_NUMBER = 0.8          # a moving card's plate past the track's end: its number's room
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
    keep = {order[i] for i in _increasing([-going[i][2] for i in order])}
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
    earlier = -1e9                # the right end of the lanes so far
    for lane in laned:
        dx = 0.0
        for i in lane:
            parts, y0, y1 = going[i]
            lo, hi = min(y0, y1) - parts.height, max(y0, y1) + parts.height
            passed = [m.get_right()[0] for m, a, b in column
                      if max(a, b) > lo and min(a, b) < hi]
            clear = max(passed + [earlier, floor])
            dx = max(dx, clear + LANE_GAP - parts.get_left()[0])
        dx = max(0.0, min(dx, right - max(going[i][0].get_right()[0] for i in lane)))
        out += [(going[i][0], dx, going[i][1], going[i][2]) for i in lane]
        earlier = max(going[i][0].get_right()[0] + dx for i in lane)
    return out


TRAIL_SIZE = T.CAPTION_SIZE   # its ranks' numbers
ANSWER_RANK = 1.5 * T.LABEL_SIZE   # the answer's rank now, the row's large number (r32)
ANSWER_PROB = T.LABEL_SIZE         # its probability beside its bar, as the bars' (r33: at 18 it read ~9 px)
TRAIL_MATH = STATE_INDEX_SIZE   # its states' names X^(l)
TRAIL_GAP = 0.2               # between its lines
TRAIL_LIFT = 0.5              # its last line over the rank (the rule between, clear of the larger text)
TRAIL = 3       # Paris's earlier ranks kept beside its row (r30)
SPARK_LEFT = 1.1    # the rank gauge's axis past the tracks' end (its tick labels between;
                    # r33b: 1.1 for the larger ticks: a moving row's plate cut "10000")
SPARK_RIGHT = 6.55  # its right end (the frame's half-width 7.1)
SPARK_TICK = T.LABEL_SIZE + 2   # its ticks' ranks (r33b: >= 14 px at 480p)
SPARK_MATH = T.MATH_SIZE + 6    # its ends' X^(1), X^(30) (r33b: >= 14 px)
SPARK_DOT = 0.085
DIM = 0.5       # a passed row's name at mid-move (it rides, dimmed, under the climber's)


def spark_segment(a, b, skipped: bool):
    """The rank gauge's step from one state read to the next: solid between neighbours,
    dotted where states were skipped (r33b, review: a straight segment over X2->X8->X20 read
    as if the states between were interpolated)."""
    if skipped:
        return DashedLine(a, b, dash_length=0.04, dashed_ratio=0.35, stroke_width=2.5,
                          color=T.HIGHLIGHT).set_opacity(0.6)
    return Line(a, b, stroke_width=2.5, color=T.HIGHLIGHT).set_opacity(0.6)


def prob_num(value, size: float, color) -> Num:
    """A probability as on every bar (two decimals), but "<0.01" where those would read
    0.00 for a probability above 0 (r33, review: Paris's "0.00" for 1e-13 read as no number):
    a Num in theme's "floor" style (the plan's value and path, the style recorded)."""
    return Num(value, decimals=T.DECIMALS, size=size, color=color, style="floor")


def ride_dim(mob, dy: float, low: float = DIM):
    """A moving row's name: carried `dy` with its bar (the same easing), dimmed to `low` of
    its opacity at mid-move and back at full as it lands (never blanked)."""
    start = mob.get_center().copy()
    base = [m.get_fill_opacity() for m in mob.family_members_with_points()]

    def update(m, a):
        m.move_to(start + UP * dy * smooth(a))
        k = 1.0 - (1.0 - low) * np.sin(np.pi * a)
        for part, o in zip(m.family_members_with_points(), base):
            part.set_fill(opacity=o * k)
    return UpdateFromAlphaFunc(mob, update, rate_func=linear)


def open_track(track, edge: float = 0.05):
    """A chart track gone while a card passes along it (back at its fill as the card lands):
    out in the move's first `edge`, in again over its last."""
    base = track.get_fill_opacity()

    def update(m, a):
        k = min(1.0, a / edge, (1.0 - a) / edge)
        m.set_fill(opacity=base * (1.0 - smooth(max(0.0, k))))
    return UpdateFromAlphaFunc(track, update, rate_func=linear)


def _increasing(seq: list) -> list:
    """Indices of a longest strictly increasing subsequence of `seq`."""
    best, prev = [1] * len(seq), [-1] * len(seq)
    for i in range(len(seq)):
        for j in range(i):
            if seq[j] < seq[i] and best[j] + 1 > best[i]:
                best[i], prev[i] = best[j] + 1, j
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


SHARE_A = 0.45          # a step's first move (the data, in place); the rest re-sorts the rows


def ride(num, bar, target, size: float):
    """The number at a bar's end while the bar stretches or shrinks: it never counts through
    values of no state, nor names a length the bar does not have. The old value fades out
    as the move starts (`GONE`), the bar moves bare, and the new value fades in at its end
    once the bar has (nearly) settled (`BACK`): settle, then change. It rides at the bar's
    end throughout."""
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
