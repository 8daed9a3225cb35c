"""The `prompts` beat: the lens over every sentence of the storyboard. First the prompts and
their final answers (a list, as the voice says how they are scored), then the list leaves and
the median rank of each prompt's own answer is drawn state by state on a log axis, with the
shown prompt's curve faint behind it; the top-k line is drawn and the median's points inside
it are boxed where the voice says the median enters it."""

from __future__ import annotations

import math as pymath


from manim import (DOWN, LEFT, RIGHT, UP, AnimationGroup, Arrow, Circle, RoundedRectangle, Create, DashedLine, Dot, FadeIn, FadeOut,
                   GrowArrow, GrowFromEdge,
                   ShowPassingFlash,
                   LaggedStart, Line, Rectangle, ReplacementTransform, Restore,
                   UpdateFromAlphaFunc, VGroup, VMobject, linear, there_and_back)

from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from scenes.mobjects import Num, PlacedTickAxes, inline, legend_item, txt
from scenes.motion.pointer import point_at

from .scene_race import SAME_LOOKING, STATE_INDEX_SIZE, x_label

PLOT = (7.6, 4.35)        # the median-rank axes (width, height), its legend beside (one line;
                          # r32: taller, the stage's lower third was empty)
SPREAD = (9.4, 4.3)       # the entropy and the KL axes (one at a time, near centre:
                          # the last point's number and note right of it)
LIST_ROWS = 10            # prompts per column of the list: one column, at full size (two
                          # side by side were scaled down to ~11 px to fit the width)
LIST_GAP = 0.2            # between its rows
LIST_SIZE = T.LABEL_SIZE  # their text: the list fills the frame (at the small size it sat in
                          # its top third, ~10 px)
MEDIAN = T.TEXT           # the medians' lines: white (blue is the stream's, yellow Paris's)
LEGEND_WIDTH = 4.4        # the legend's widest entry, beside the median-rank axes
KEY_SIZE = T.LABEL_SIZE   # the legend's text (at the small size it read ~11 px)


def prompt_list(v) -> VGroup:
    """The prompts, each with its final answer, in two columns."""
    p = v.prompts
    rows = [inline(txt(str(it.sentence), LIST_SIZE, T.TEXT),
                   txt("→", LIST_SIZE, T.MUTED),
                   txt(str(it.answer.display), LIST_SIZE, T.HIGHLIGHT if i == 0 else T.TEXT,
                       mono=True), buff=0.12)        # yellow: Paris's prompt alone
            for i, it in enumerate(p.items)]
    cols = VGroup(*[VGroup(*rows[i:i + LIST_ROWS]).arrange(DOWN, aligned_edge=LEFT, buff=LIST_GAP)
                    for i in range(0, len(rows), LIST_ROWS)]).arrange(RIGHT, buff=0.6,
                                                                     aligned_edge=UP)
    if cols.width > 12.6:
        cols.scale_to_fit_width(12.6)     # only for very long prompts (the floor: see tests)
    head = inline(Num(p.n, decimals=0, size=T.LABEL_SIZE, color=T.TEXT),
                  txt("prompts, each read at its last token → the model's final answer",
                      T.LABEL_SIZE, T.TEXT), buff=0.12)
    return VGroup(head, cols).arrange(DOWN, aligned_edge=LEFT, buff=0.3)


class MedianPlot:
    """Log-rank axes over the states X^(1)..X^(L) (the lens after layers 0..L-1)."""

    def __init__(self, v):
        p, L = v.prompts, int(v.n_layers)
        ax = p.rank_axis
        self.decades = int(ax.decades)
        step = 5
        ticks = sorted(set(range(step - 1, L, step)) | {0})
        self.axes = PlacedTickAxes(
            [-0.5, L - 0.5, 1], [0, self.decades + 0.15, 1], *PLOT,
            x_ticks=[(l, v.layers[l].state.value, v.layers[l].state.path) for l in ticks],
            y_ticks=[(t.height.value, t.rank.value, t.rank.path) for t in ax.ticks],
            size=T.LABEL_SIZE)
        head = inline(txt("rank of each prompt's own answer (1 = top), and the median over the",
                          T.LABEL_SIZE), Num(p.n, decimals=0, size=T.LABEL_SIZE),
                      txt("prompts", T.LABEL_SIZE), buff=0.1)
        head.next_to(self.axes, UP, buff=0.25).align_to(self.axes, LEFT)
        name = inline(txt("the lens reads", T.LABEL_SIZE, T.TEXT),
                      x_label("l", STATE_INDEX_SIZE, T.TEXT), buff=0.12)
        name.next_to(self.axes.x_labels, DOWN, buff=0.12).match_x(self.axes.axes)
        self.group = VGroup(head, self.axes, name)

    def y(self, rank: float) -> float:
        return self.decades - pymath.log10(max(1.0, float(rank)))

    def pt(self, l: int, rank: float):
        return self.axes.axes.c2p(l, self.y(rank))

    def line(self, ranks, color, width: float, opacity: float = 1.0) -> VMobject:
        return VMobject(stroke_color=color, stroke_width=width, stroke_opacity=opacity
                        ).set_points_as_corners([self.pt(l, r) for l, r in enumerate(ranks)])


def timeline(scene, n_said: int):
    """(cue, at): a beat's sentence index clamped to its cues, and the scene time sentence i
    starts. Silent (no cues), sentence i of `n_said` starts i / n_said into the beat (r32:
    every sentence was at the beat's end, and the scene's least run times added up to ~10 s
    past its planned duration)."""
    cues = scene.beat.get("cues") or []
    if cues:
        cue = lambda i: min(i, len(cues) - 1)      # noqa: E731
        return cue, lambda i: scene.cue_at(cue(i))
    dur, t0 = float(scene.beat["duration"]), scene.beat_start
    return (lambda i: i), (lambda i: t0 + dur * min(i, n_said) / n_said)


def beat_prompts(scene, v) -> None:
    """The handler (called by LogitLensScene.beat_prompts with the plan's view)."""
    p = v.prompts
    n_cues = scene.n_cues()
    cue, at = timeline(scene, 6)
    # "at X^(21) the median is 836.5 ...": in the lines' sentence (cue 2) or one of its own;
    # the later sentences move on by as many
    nums = scene.cue_with("the median is", 2)
    o = nums - 2
    listing = prompt_list(v)
    head, cols = listing
    rows = [r for c in cols for r in c]
    listing.set_y(scene.top - listing.height / 2).set_x(0)
    line = getattr(scene, "rank_line", None)       # the one prompt's rank line, if drawn
    # the stage is cleared first (the one prompt's plot leaves; its yellow line stays), then
    # the list comes and that line moves into the first prompt's row, as the underline of its
    # answer: never one layout fading in over another, and Paris's line is never redrawn
    gone = [m for m in scene.slots.values() if m is not None]
    if gone:
        scene.play(*[FadeOutPlace(m) for m in gone], run_time=scene.quick(0.05, 0.6))
        scene.slots.update({k: None for k in scene.slots})
    scene.rank_line = None
    answers = [r[2] for r in rows]
    marks = VGroup(*[Line(a.get_corner(DOWN + LEFT), a.get_corner(DOWN + RIGHT),
                          stroke_color=a.get_color(), stroke_width=2.5).shift(0.06 * DOWN)
                     for a in answers])
    frame = scene.put("wide", VGroup(head), placed=True)
    # the prompts arrive in one quick cascade as the voice introduces them, so the whole list
    # is up while the sentence about it is said (read, not watched arriving)
    rest = rows
    if line is not None:    # Paris's line first, on the empty stage, to its row's answer;
        # then the rows come round it (it never crosses the list)
        scene.play(ReplacementTransform(line, marks[0]), FadeIn(rows[0], shift=0.1 * UP),
                   run_time=0.8)
        rest = rows[1:]
    scene.play(LaggedStart(*[FadeIn(r, shift=0.1 * UP) for r in rest], lag_ratio=0.25),
               run_time=scene.pace(at(1) + 1.0, 1, 1.5, cap=2.2))
    # "... scored against its own final answer": each answer underlined in turn, down the list
    # (the first already is: Paris's line)
    romeo = scene.cue_with("for Romeo", None)
    lines_at = scene.cue_with("becomes one line", None)
    named = scene.cue_with("white line", nums - 1)
    todo = marks[1:] if line is not None else marks
    # r33 (review: "during 'becomes one line' the list only gets underlined"): the underlines
    # fill the first sentence (which names each prompt's answer); the lines form in their own
    until = at(romeo if romeo is not None else lines_at if lines_at is not None else named)
    scene.play(LaggedStart(*[Create(m) for m in todo], lag_ratio=0.6),
               run_time=max(0.6, until - scene.time - 0.3))
    scene.adopt(frame, *rows)
    scene.remove(*[m for mob in marks for m in mob.get_family()])
    scene.add(*marks)
    listing = frame
    if romeo is not None:
        # "for Romeo and, that answer is the model's own next token": its row boxed
        scene.hold_until(at(romeo))
        scene.emphasize(VGroup(rows[-1], marks[-1]),
                        run_time=max(1.0, at(romeo + 1) - scene.time - 0.3))
    scene.hold_until(at(lines_at if lines_at is not None else named))
    mp = MedianPlot(v)
    plot = mp.group
    plot.set_y(scene.top - plot.height / 2).set_x(0)
    key = legend(p)
    # (r32: 0.45 off the axes: the box round the median's last points touched the key)
    key.next_to(mp.axes.axes, RIGHT, buff=0.45).align_to(mp.axes.axes, UP)
    VGroup(plot, key).set_x(0)
    ranks = [float(x) for x in p.median_rank]
    # "each answer's rank, state by state, becomes one line": the prompts' words leave, their
    # answers' underlines stay and each moves onto the axes as its prompt's line (all grey:
    # Paris's turns yellow when the voice names it)
    own = VGroup(*[mp.line([float(r) for r in it.ranks], T.HIGHLIGHT, 2.5, 0.95) if i == 0
                   else mp.line([float(r) for r in it.ranks], T.MUTED, 1.5, 0.6)
                   for i, it in enumerate(p.items)])
    # the list leaves with its underlines (none is left on the stage under the axes, none
    # flies over the list); the axes come, then each prompt's line is drawn on them in turn
    # the prompts' words leave first (their answers and underlines stay), then the axes
    # come as the answers' names go, and each answer's underline moves onto the axes and
    # bends into its prompt's line (no cross-fade from the list to the chart: the underline
    # the viewer saw under each answer is the line)
    words = VGroup(head, *[VGroup(*[m for m in r if m is not r[2]]) for r in rows])
    # r31: the words and the answers leave together (only the underlines stay, on an empty
    # stage); each underline moves, straight and whole, to where its line will be, level at
    # its line's first rank and spanning the states (never past X^(L)); the axes come in
    # under them; then each bends into its line. The axes' name under them comes after the
    # lines have landed (r30: the underlines flying up from the list struck through it)
    scene.play(FadeOutPlace(words), *[FadeOut(r[2]) for r in rows], run_time=0.5)
    scene.remove(listing)
    axis_name = plot[2]
    plot.remove(axis_name)
    t_move = scene.time
    t_named = at(named)
    L0 = len(p.items[0].ranks)
    # r31b: Paris's underline stays yellow all the way (it turned grey, then yellow again)
    flat = VGroup(*[Line(mp.pt(0, float(it.ranks[0])), mp.pt(L0 - 1, float(it.ranks[0])),
                         stroke_color=T.HIGHLIGHT if i == 0 else T.MUTED,
                         stroke_width=2.5 if i == 0 else 1.5,
                         stroke_opacity=0.95 if i == 0 else 0.6)
                    for i, it in enumerate(p.items)])
    scene.play(*[ReplacementTransform(m, f) for m, f in zip(marks, flat)],
               run_time=max(0.8, min(1.2, 0.3 * (t_named - scene.time))))
    scene.play(FadeInPlace(plot), run_time=0.5)
    marks = flat
    # "each answer's rank, state by state, becomes one line": the ten lines in grey, named
    # as a class by their key entry as they come ("each prompt"): none of them is told
    # apart here; the median and Paris are, next, and the three that cross early get their
    # names when they are said
    scene.play(LaggedStart(*[ReplacementTransform(m, o) for m, o in zip(marks, own)],
                           lag_ratio=0.2),
               FadeIn(key[2], shift=0.1 * LEFT),
               run_time=max(1.2, min(3.0, t_named - scene.time - 0.7)))
    scene.play(FadeIn(axis_name, shift=0.1 * UP), run_time=0.4)
    scene.adopt(plot, axis_name)
    scene.slots["wide"] = plot
    L = len(ranks)
    cut = DashedLine(mp.pt(-0.5, float(p.top)), mp.pt(L - 0.5, float(p.top)), dash_length=0.08,
                     stroke_color=T.TEXT, stroke_width=1.5, stroke_opacity=0.7)
    # r33b (review: "label the dashed rank-10 line 'top 10'"): named above the line, right
    # of the early prompts' callouts and left of where Romeo's line and the median cross it
    # (the band over it holds only Monday's line, near rank 1-3, from X^(2) on)
    cut_name = inline(txt("top", T.LABEL_SIZE, T.TEXT),
                      Num(p.top, decimals=0, size=T.LABEL_SIZE, color=T.TEXT), buff=0.14)
    cut_name.next_to(mp.pt(TOP_NAME_AT, float(p.top)), UP, buff=0.08).align_to(
        mp.pt(TOP_NAME_AT, float(p.top)), RIGHT)
    med = mp.line(ranks, MEDIAN, 4)
    dots = VGroup(*[Dot(mp.pt(l, r), radius=0.04, color=MEDIAN) for l, r in enumerate(ranks)])
    # "the white line is their median rank": drawn, with its key, as that is said; "the
    # yellow one Paris": Paris's line turns yellow, with its key, as that is said
    scene.hold_until(t_named)
    t_end = at(named + 1)
    scene.play(Create(med, rate_func=linear), FadeIn(key[0], shift=0.1 * LEFT),
               run_time=max(1.0, 0.5 * (t_end - t_named)))
    scene.play(ShowPassingFlash(own[0].copy().set_stroke(T.HIGHLIGHT, 6, 1.0), time_width=0.5),
               FadeIn(key[1], shift=0.1 * LEFT),
               run_time=max(0.8, min(1.2, t_end - scene.time - 0.9)))
    # the prompts' own lines step back (still there, fainter): the eye keeps to the median
    # and Paris
    scene.play(FadeIn(dots),
               *[m.animate.set_stroke(opacity=0.1) for m in own[1:]], run_time=0.6)
    scene.adopt(plot, own, med, dots, key)
    # "at X^(21) the median is still 836.5 and Paris is at 3,241": each point circled with
    # its number as it is said (the median above its line, Paris under its own)
    t2, t3 = t_move, at(3 + o)
    said = []
    l = min(20, L - 1)
    if len(p.items[0].ranks) > l:
        # each number says what it is: "median 836.5", "Paris rank 3,241"
        said = [(dots[l], inline(txt("median", T.LABEL_SIZE, MEDIAN),
                                 Num(p.median_rank[l], decimals=1, size=T.LABEL_SIZE,
                                     color=MEDIAN), buff=0.08),
                 UP + LEFT, 0.55),
                (Dot(mp.pt(l, float(p.items[0].ranks[l])), radius=0.05, color=T.HIGHLIGHT),
                 inline(txt(str(p.items[0].answer.display), T.LABEL_SIZE, T.HIGHLIGHT,
                            mono=True),
                        Num(v.layers[l].rank, decimals=0, size=T.LABEL_SIZE,
                            color=T.HIGHLIGHT), buff=0.08),
                 DOWN, 0.72)]
    if nums != 2:       # said in a sentence of their own: spread over it
        t2, t3 = at(nums), at(nums + 1)
        said = [(spot, num, side, w) for (spot, num, side, _), w in zip(said, (0.3, 0.65))]
    callouts = []
    for spot, num, side, when in said:
        # a ring on the very point the number names, the number straight above/below it
        ring = Circle(radius=0.1, stroke_color=spot.get_color(), stroke_width=2.5
                      ).move_to(spot.get_center())
        num.next_to(ring, UP if side[1] > 0 else DOWN, buff=0.08)
        if side[1] > 0:       # its right end over the ring: the median climbs steeply right
            num.align_to(ring, RIGHT)      # of it (a number there sat on the line)
        scene.hold_until(t2 + when * (t3 - t2))
        scene.play(Create(ring), FadeIn(num), run_time=0.6)
        scene.adopt(plot, ring, num)
        callouts.append(VGroup(ring, num))
    # "the median enters the top 10 only at X^(27): ... the readable answer comes late": the
    # call-outs leave (one idea: where the median crosses), the rank-10 line is drawn, and
    # the median's points from its first one in the top 10 on are boxed. (r32: the "3 of 10
    # answers in the top 10 for good" passage, its green lines, dots, names and key, was cut:
    # the frame held ten lines, the median, Paris, three green lines and a five-entry key)
    scene.hold_until(at(3 + o))
    for c in callouts:
        scene.detach(plot, *c)
    scene.play(Create(cut), FadeIn(cut_name), *[FadeOut(c) for c in callouts],
               run_time=scene.quick(0.05, 0.8))
    scene.adopt(plot, cut, cut_name)
    inside = next((l for l in range(L) if all(float(r) <= float(p.top) for r in ranks[l:])), L - 1)
    scene.emphasize(VGroup(*dots[inside:]),
                    run_time=max(1.0, at(4 + o) - scene.time - 0.3))
    # r32b (review: "two prompts are readable early and the voice never points them out"):
    # the prompts whose answer is in the top 10 for good before the late window, their lines
    # brought back and named under them as the sentence says them
    early_at = scene.cue_with("read early", None)
    early = [i for i, it in enumerate(p.items) if i > 0 and it.top_from is not None
             and int(it.top_from) < int(v.window.start)]
    if early_at is not None and early:
        # r33b (review: the callouts pointed at X~13 while the voice named X^(1) and X^(20)):
        # a dot where each line enters the top 10 for good (its top_from), on the line, as
        # the voice names that state, the name beside it clear of the lines
        scene.hold_until(at(early_at))
        span = max(1.0, scene.cue_at(n_cues) - scene.time - 0.3)
        scene.play(*[own[i].animate.set_stroke(T.MUTED, 2.5, opacity=1.0) for i in early],
                   run_time=0.5)
        for k, i in enumerate(early):
            it = p.items[i]
            words = str(it.sentence).split()
            short = str(it.sentence) if len(words) <= 2 else words[0].rstrip(",") + " …"
            # (the answer as a token, ␣ and all, as in the list and the legend: r35)
            name = inline(txt(str(it.answer.display), T.LABEL_SIZE, T.TEXT, mono=True),
                          txt(f"({short})", T.LABEL_SIZE, T.TEXT), buff=0.14)
            l0 = int(it.top_from)
            spot = mp.pt(l0, float(it.ranks[l0]))
            dot = Dot(spot, radius=0.07, color=T.TEXT)
            ring = Circle(radius=0.12, stroke_color=T.TEXT, stroke_width=2).move_to(spot)
            if l0 <= 2:
                # at the left end: in the band between its own line (rank <= 3 from X^(2)
                # on) and the dashed line, just right of the dot
                name.next_to(mp.pt(l0, float(p.top)), UP, buff=0.05).align_to(
                    ring.get_right() + 0.12 * RIGHT, LEFT)
            else:
                # under the dashed line and its own line (ranks 10-20 before it enters),
                # ending left of the dot, a leader from the name up to it
                name.next_to(mp.pt(l0, 30.0), DOWN, buff=0.05).align_to(
                    ring.get_left() + 0.05 * LEFT, RIGHT)
            lead = Line(name.get_corner(UP + RIGHT) + 0.05 * UP, ring.get_bottom(),
                        stroke_color=T.TEXT, stroke_width=1.5) if l0 > 2 else VGroup()
            scene.hold_until(scene.time if k == 0 else at(early_at) + 0.55 * span)
            scene.play(FadeIn(dot, scale=2.0), Create(ring),
                       *([Create(lead)] if l0 > 2 else []), FadeIn(name, shift=0.1 * UP),
                       run_time=0.6)
            scene.adopt(plot, VGroup(dot, ring, lead, name))
            # r35: "... is in the top 10 from X 1": its line traced from there to the end
            # while that is said (the chart held still ~3.4 s a prompt)
            until = (at(early_at) + 0.55 * span if k < len(early) - 1
                     else scene.cue_at(n_cues)) - 0.3
            if until - scene.time > 0.8:
                stays = VMobject(stroke_color=T.TEXT, stroke_width=5).set_points_as_corners(
                    [mp.pt(l, float(r)) for l, r in enumerate(it.ranks) if l >= l0])
                scene.play(ShowPassingFlash(stays, time_width=0.5),
                           run_time=min(3.0, until - scene.time))
    scene.spread_from = plot        # what the spread plots replace (a beat of their own)


def beat_spread(scene, v) -> None:
    """The `spread` beat: the median entropy of the lens over the prompts, alone on the stage
    (the prompts' rank plot, if shown, leaves as it starts); the `kl` beat follows with the
    KL chart in its place."""
    plot = getattr(scene, "spread_from", None)
    gone = [m for m in scene.slots.values() if m is not None and m is not plot]
    if gone:
        scene.play(*[FadeOutPlace(m) for m in gone], run_time=0.4)
        scene.slots.update({k: None for k in scene.slots if scene.slots[k] is not plot})
    entropy_part(scene, v, plot)


def beat_kl(scene, v) -> None:
    """The `kl` beat: the median KL from the output, alone on the stage (the entropy chart,
    or whatever is up, leaves as it starts)."""
    gone = [m for m in scene.slots.values() if m is not None]
    gone += [m for m in (getattr(scene, "spread_from", None),) if m is not None
             and m not in gone and m in scene.mobjects]
    kl_part(scene, v, gone)


def spread_pair(scene, v) -> "SpreadPlots":
    """The two charts, each centred on the stage (one at a time), made once."""
    pair = getattr(scene, "spread_pair", None)
    if pair is None:
        pair = scene.spread_pair = SpreadPlots(v)
        for box in pair.group:
            box.set_y(scene.top - box.height / 2 - 0.05)
            box.shift(RIGHT * (SPREAD_X - pair.axes_x(box)))   # by its axes
        # (r35: the two axes exactly in one place: one chart turns into the other on them)
        ent, kl = pair.group
        ent.shift(kl[2].axes.c2p(0, 0) - ent[2].axes.c2p(0, 0))
        pair.lines = pair.curves()
    return pair


def cue_chain(scene, *phrases: str) -> list[int]:
    """The cue of each phrase in turn (`scene.cue_with`), each defaulting to the cue after the
    one before (the first to cue 1): the sentences of a beat, in their spoken order."""
    out, default = [], 1
    for phrase in phrases:
        out.append(scene.cue_with(phrase, default))
        default = out[-1] + 1
    return out


def entropy_part(scene, v, plot) -> None:
    """Entropy alone, drawn as its sentence defines it, its points marked as they are said."""
    n_cues = scene.n_cues()
    cue = lambda i: min(i, max(0, n_cues - 1))
    ours_at, wide_at, med_at, high_at, own_at = cue_chain(
        scene, "In our prompt", "spreads its guesses", "median over", "higher than",
        "own output")
    end = scene.cue_at(n_cues)
    cue, at = timeline(scene, 6)
    pair = spread_pair(scene, v)
    ent_box = pair.group[0]
    ent, ent_marks = pair.lines[0]
    if plot is not None and plot in scene.mobjects:
        scene.play(FadeOutPlace(plot), run_time=0.45)      # one, then the other
    # r31 (review: entropy was defined over empty axes for ~6 s): defined on two bar charts
    # the viewer saw in the race, our prompt's X^(20) (one spike) and X^(29) (spread out),
    # each's entropy written under it as it is said; then the median chart comes and
    # X^(20)'s entropy travels, at its size, to its yellow point there, which stays
    low = pair.low[0]
    spike = low               # our prompt's one-spike state (where the median is lowest)
    wide = pair.L - 2
    cards = VGroup(*[guess_bars(v, l) for l in (spike, wide)]).arrange(RIGHT, buff=1.6)
    cards.set_y(scene.top - 0.25 - cards.height / 2).set_x(0)
    scene.play(*[FadeIn(c[0], shift=0.1 * DOWN) for c in cards],
               *[FadeIn(VGroup(c[1], c[2])) for c in cards],
               *[GrowFromEdge(b, LEFT) for c in cards for b in c[3]], run_time=1.2)
    scene.hold_until(at(ours_at))
    # "in our prompt, X^(20) put 0.98 on a space: entropy 0.13"
    for card, i in ((cards[0], ours_at), (cards[1], wide_at)):
        scene.hold_until(at(i))
        span = max(1.6, at(i + 1) - scene.time - 0.3)
        if card is cards[0]:    # (X^(20)'s top probability is said; X^(29)'s is not)
            scene.play(FadeIn(card[4], shift=0.1 * LEFT), run_time=0.5)
        scene.hold_until(scene.time + 0.35 * span)
        scene.play(FadeIn(card[5], shift=0.1 * UP), run_time=0.5)
        scene.emphasize(card[5], run_time=max(1.0, at(i + 1) - scene.time - 0.5))
    # the cards leave but X^(20)'s entropy, which moves to its point on the median's chart
    ax0 = pair.series[0][0]
    spot = Dot(ax0.axes.c2p(low, float(v.layers[low].entropy)), radius=0.08,
               color=T.HIGHLIGHT)
    moving = cards[0][5]
    spot2 = Dot(ax0.axes.c2p(wide, float(v.layers[wide].entropy)), radius=0.08,
                color=T.HIGHLIGHT)
    moving2 = cards[1][5]
    rest = VGroup(*[m for c in cards for m in c
                    if m is not moving and m is not moving2 and m is not cards[1][4]])
    scene.play(FadeOutPlace(rest), run_time=0.4)
    scene.play(FadeInPlace(ent_box), run_time=0.5)
    scene.slots["wide"] = ent_box
    # the same words and number, at their size, to the right of the point; whose it is
    # written left of it ("our prompt ● entropy 0.13"), under the median's line
    whose = our_prompt(v, low).next_to(spot, LEFT, buff=0.15)
    whose2 = our_prompt(v, wide).next_to(spot2, LEFT, buff=0.15)
    scene.play(moving.animate.next_to(spot, RIGHT, buff=0.15), FadeIn(spot, scale=1.5),
               moving2.animate.next_to(spot2, RIGHT, buff=0.15), FadeIn(spot2, scale=1.5),
               run_time=0.8)
    scene.play(FadeIn(whose, shift=0.1 * RIGHT), FadeIn(whose2, shift=0.1 * RIGHT),
               run_time=0.4)
    scene.adopt(ent_box, spot, moving, whose, spot2, moving2, whose2)
    # "the white line is the median ...: up to X^(27) it stays at or below 1.58": our
    # prompt's note leaves, the median's line is drawn as it is named, then a dashed level
    # at 1.58 runs up to X^(27) (the number said, with its point), the line traced under it
    scene.hold_until(at(med_at))
    early = pair.series[0][3]
    ax, series, vals, _, _ = pair.series[0]
    # (white, the pointer's colour: yellow is Paris's)
    flat = VMobject(stroke_color=T.POINTER, stroke_width=5).set_points_as_corners(
        [ax.axes.c2p(l, vals[l]) for l in range(early)])
    # (our prompt's point and its entropy stay beside the median: r31)
    t0, t1 = at(med_at), at(high_at)
    scene.play(Create(ent, rate_func=linear), run_time=max(1.0, min(2.0, 0.3 * (t1 - t0))))
    scene.adopt(ent_box, ent)
    hi = max(vals[:early])
    level = DashedLine(ax.axes.c2p(-0.5, hi), ax.axes.c2p(early - 1 + WINDOW_PAD, hi),
                       dash_length=0.08, stroke_color=T.TEXT, stroke_width=1.5,
                       stroke_opacity=0.7)
    scene.play(Create(level), FadeIn(ent_marks[1]), run_time=0.6)
    scene.adopt(ent_box, level)
    scene.play(ShowPassingFlash(flat, time_width=0.5),
               run_time=max(1.0, 0.3 * (t1 - t0)))
    scene.emphasize(ent_marks[1], run_time=max(1.0, t1 - scene.time - 0.3))
    scene.adopt(ent_box, ent_marks[1])
    # "from X^(28) on it is higher than anywhere before": the last three points, without
    # numbers (the shape is what is said), boxed together
    scene.hold_until(at(high_at))
    last3 = pair.last_values(0, 3)
    dots3 = VGroup(*[m[0] for m in last3])
    scene.play(LaggedStart(*[FadeIn(d, scale=1.4) for d in dots3], lag_ratio=0.4),
               run_time=1.0)
    scene.emphasize(dots3, run_time=max(1.0, at(own_at) - scene.time - 0.3))
    scene.adopt(ent_box, dots3)
    # "X^(30) is the model's own output: 2.30 there is the model's own uncertainty": the
    # last point's number as it is said, and the note under it (well clear of that number)
    scene.hold_until(at(own_at))
    L = pair.L
    own_note = VGroup(inline(x_label(v.layers[L - 1].state, T.MATH_SIZE, T.TEXT),
                             txt("is", T.LABEL_SIZE, T.TEXT), buff=0.1),
                      txt("the model's", T.LABEL_SIZE, T.TEXT),
                      txt("own output", T.LABEL_SIZE, T.TEXT)
                      ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)
    own_note.next_to(last3[-1][1], DOWN, buff=0.45, aligned_edge=LEFT)
    scene.play(FadeIn(last3[-1][1], scale=1.4), FadeIn(own_note, shift=0.1 * UP), run_time=0.6)
    scene.emphasize(own_note, run_time=max(1.0, end - scene.time - 0.4))
    scene.adopt(ent_box, last3[-1][1], own_note)


def kl_part(scene, v, gone: list) -> None:
    """KL alone: its axes as it is defined, its first point as its start is said, its line
    drawn as its shape is said (r36, both round-35 reviewers: the whole curve was drawn ~15 s
    before its shape was the topic), the late states shaded as the voice closes; then the
    chart turns into entropy's (`confidence_part`)."""
    n_cues = scene.n_cues()
    nat_at, kl_nums, kl_drop, shade_at, chap_at, here_at = cue_chain(
        scene, "the median over the prompts is", "Its median climbs", "back below", "Shaded", "chapter says",
        "what sharpens")
    end = scene.cue_at(n_cues)
    cue, at = timeline(scene, 12)      # (silent: the beat's twelve sentences evenly)
    pair = spread_pair(scene, v)
    kl_box = pair.group[1]
    kl, kl_marks = pair.lines[1]
    L = pair.L
    ent_box = pair.group[0]
    if ent_box in gone and ent_box in scene.mobjects:
        # from the entropy chart: the same x axis stays (`turn_chart`)
        turn_chart(scene, ent_box, kl_box, [m for m in gone if m is not ent_box])
    else:
        if gone:
            scene.play(*[FadeOutPlace(m) for m in gone], run_time=0.3)
    scene.slots.update({k: None for k in scene.slots})
    scene.slots["wide"] = kl_box
    # "KL divergence ... measures how far the lens's guesses are from the model's output":
    # the axes and their titles, no line yet
    if kl_box not in scene.mobjects:
        scene.play(FadeInPlace(kl_box), run_time=0.6)
        scene.add(kl_box)
    sub = pair.subs[1]
    said = scene.cue_with("weights each token", None)
    under = lambda part: Line(part.get_corner(DOWN + LEFT), part.get_corner(DOWN + RIGHT),  # noqa
                              stroke_color=T.TEXT, stroke_width=2).shift(0.05 * DOWN)
    if said is not None and said < nat_at and len(sub) == len(KL_TERMS):
        # "... how far the lens's guesses are from the model's output": the title boxed;
        # "0 when they agree": its term underlined (r36: the axes stood empty ~5 s)
        span = at(said) - scene.time
        scene.emphasize(pair.heads[1], run_time=max(1.0, 0.45 * span))
        scene.hold_until(at(said) - 0.3 * span)
        marks = [under(sub[3])]
        scene.play(Create(marks[0]), run_time=0.6)
        # "it weights each token's log probability, the output's minus the lens's, by the
        # output's probability, and sums": the formula's terms underlined as said
        for part, share in ((sub[2], 0.0), (sub[1], 0.45), (sub[0], 0.8)):
            scene.hold_until(at(said) + share * (at(nat_at) - at(said)))
            marks.append(under(part))
            scene.play(Create(marks[-1]), run_time=0.6)
        scene.hold_until(at(nat_at) - 0.5)
        scene.play(*[FadeOut(m) for m in marks], run_time=0.4)
    # "at X^(1) the median is 19.4 nats: ... one chance in 273,000,000": its first point
    # alone, with its number, and the case written under it
    scene.hold_until(at(nat_at))
    scene.play(FadeIn(kl_marks[0], scale=1.5), run_time=0.6)
    ax1 = pair.series[1][0].axes
    scale = nat_scale(v).next_to(ax1.c2p(1.5, float(v.prompts.median_kl[0]) - 3.5),
                                 DOWN + RIGHT, buff=0)
    clear_of_line(scale, kl, ax1.c2p(0, 0)[1])
    # (its three lines as the voice reaches each, then its number boxed: r36, the example
    # stood still ~8 s)
    for k, share in enumerate((0.3, 0.58, 0.76)):
        scene.hold_until(at(nat_at) + share * (at(kl_nums) - at(nat_at)))
        scene.play(FadeIn(scale[k], shift=0.1 * UP), run_time=0.5)
    scene.emphasize(scale[2][1], run_time=max(1.0, at(kl_nums) - scene.time - 0.7))
    scene.adopt(kl_box, kl_marks[0])
    scene.play(FadeOutPlace(scale), run_time=0.4)
    # "its median climbs first, to its peak at X^(17)": the line drawn up to the peak as it
    # is said, the peak marked; "and only at X^(24) comes back below its start": the start's
    # level across, the line on to X^(24), its point pointed at; "it is 0 at X^(30)": the
    # rest of the line, then its 0
    start = int(v.window.start)
    peak = pair.series[1][2].index(max(pair.series[1][2]))
    t_a, t_b = at(kl_nums), at(kl_drop)
    if kl_drop == kl_nums:      # one sentence says the peak, then "back below"
        t_b = t_a + 0.5 * (at(kl_drop + 1) - t_a)
    zero_at = at(kl_drop + 1)
    pieces = [pair.piece(1, 0, peak), pair.piece(1, peak, start), pair.piece(1, start, L - 1)]
    scene.play(Create(pieces[0], rate_func=linear), run_time=max(1.0, 0.7 * (t_b - t_a)))
    scene.play(FadeIn(kl_marks[1], scale=1.5), run_time=0.5)
    scene.emphasize(kl_marks[1], run_time=max(1.0, t_b - scene.time - 0.2))
    level, bands, names = pair.closing(v)
    falling = pair.last_points(1, L - start)        # X^(24) .. X^(30): the window's states
    first = falling[0]
    scene.play(Create(level), run_time=0.6)
    scene.play(Create(pieces[1], rate_func=linear), run_time=1.2)
    scene.play(FadeIn(first, scale=1.5), run_time=0.4)
    point_at(scene, first, run_time=max(1.0, zero_at - scene.time - 0.2),
             direction=(UP + RIGHT) / pymath.sqrt(2))
    scene.hold_until(zero_at)
    scene.play(Create(pieces[2], rate_func=linear), run_time=1.0)
    scene.play(FadeIn(kl_marks[2], scale=1.5), run_time=0.5)
    # (its number boxed, not the point: the point sits on the axis over the tick "30")
    scene.emphasize(kl_marks[2][1], run_time=max(1.0, at(shade_at) - scene.time - 0.3))
    scene.remove(*pieces)
    scene.adopt(kl_box, kl, kl_marks[1], level, first, kl_marks[2])
    # "shaded are X^(24) to X^(30), written by the last 7 layers; in our prompt, Paris's
    # rank is below 1,000 there": the band and its name (the states, then our prompt's rule)
    scene.hold_until(at(shade_at))
    band, name = bands[1], names[1]
    scene.play(sweep_in(band), FadeIn(name[:2]), run_time=1.0)
    scene.hold_until(at(shade_at) + 0.45 * (at(shade_at + 1) - at(shade_at)))
    scene.play(FadeIn(name[2:], shift=0.1 * UP), run_time=0.5)
    scene.emphasize(name[2:], run_time=max(1.0, at(shade_at + 1) - scene.time - 0.3))
    # "over them, the median answer enters the top 10, and the median KL falls toward 0":
    # the band's points in turn
    rest = list(falling[1:])
    scene.play(LaggedStart(*[FadeIn(d, scale=1.5) for d in rest], lag_ratio=0.4),
               run_time=max(1.0, at(chap_at) - scene.time - 0.3))
    scene.adopt(kl_box, band, name, *rest)
    # "the chapter says predictions usually sharpen with depth": the chapter's claim is the
    # caption line while it is said (r30: the chart keeps its title)
    scene.hold_until(at(chap_at))
    quoted = scene.burned is None and bool(scene.beat.get("caption"))
    if quoted:
        scene.set_caption(CHAPTER_CLAIM)
    scene.hold_until(at(here_at))
    conf = scene.cue_with("Not its confidence", None)
    stop = at(conf) if conf is not None and conf < n_cues else end
    if here_at == chap_at:      # one sentence says both (the chapter's, then "here")
        scene.hold_until(at(chap_at) + 0.35 * (stop - at(chap_at)))
    # "here, what sharpens ... is the lens's match with the output": the conclusion the
    # caption, the band outlined, the line's fall in it traced as it is said
    if quoted:
        scene.set_caption(here_claim(v))
    scene.play(band.animate.set_fill(opacity=0.16).set_stroke(T.POINTER, 2.5, opacity=1.0),
               run_time=1.0)
    fall = VMobject(stroke_color=T.POINTER, stroke_width=6).set_points_as_corners(
        [d.get_center() for d in falling])
    if stop - scene.time > 1.3:
        scene.play(ShowPassingFlash(fall, time_width=0.6),
                   run_time=min(4.5, stop - scene.time - 0.3))
    if conf is not None and conf < n_cues:
        confidence_part(scene, v, pair, kl_box, (band, name), conf, at, end)
    scene.hold_until(end - 0.2)


def confidence_part(scene, v, pair, kl_box, keep, conf: int, at, end: float) -> None:
    """"Not its confidence" (r36, both round-35 reviewers: 11 s on a new chart, with no link
    to the X^(20) seen earlier): the KL chart turns into entropy's on the same x axis (the
    shade kept); our prompt's X^(20) comes back as a card over the chart's empty top (its
    bars, 0.98 on a space, Paris's rank) as it is recalled; entropy is defined on it (its
    0.13); then the median entropy's line is drawn, its low at X^(20) ringed and joined to
    the card, and its X^(30) marked, each as said."""
    recall_at, define_at, median_at = cue_chain(scene, "Back at X", "Entropy measures",
                                                "median entropy is")
    scene.hold_until(at(conf))
    ent_box = pair.group[0]
    ent, ent_marks = pair.lines[0]
    turn_chart(scene, kl_box, ent_box, [], keep=list(keep))
    scene.slots["wide"] = ent_box
    low = pair.low[0]                         # the median's low: X^(20)
    ax = pair.series[0][0].axes
    card = recall_card(v, low)
    spot = ax.c2p(low, float(pair.series[0][2][low]))
    # over the chart's empty top, its right edge a little past X^(20)'s x (the line is low
    # there; the shade, right of it, starts at X^(24))
    card.next_to(ax.c2p(low + 1.2, 0.96 * pair.top(0)), DOWN + LEFT, buff=0)
    title, names, tracks, bars, top, ent_num, rank = card[1:]
    # "back at X^(20) in our prompt, the lens was almost sure of a bare space, at 0.98,
    # with Paris in the thousands": the card, its 0.98 boxed, then Paris's rank
    scene.hold_until(at(recall_at))
    scene.play(FadeIn(card[0]), FadeIn(title, shift=0.1 * DOWN), FadeIn(names),
               FadeIn(tracks), *[GrowFromEdge(b, LEFT) for b in bars], run_time=0.9)
    span = at(define_at) - at(recall_at)
    scene.hold_until(at(recall_at) + 0.35 * span)
    scene.play(FadeIn(top, shift=0.1 * LEFT), run_time=0.4)
    scene.emphasize(top, run_time=max(1.0, 0.25 * span))
    scene.hold_until(at(recall_at) + 0.7 * span)
    scene.play(FadeIn(rank, shift=0.1 * UP), run_time=0.4)
    scene.emphasize(rank, run_time=max(1.0, at(define_at) - scene.time - 0.3))
    # "entropy measures how spread the lens's guesses are: 0 nats when it is sure of one
    # token; there it is 0.13": the chart's own definition underlined, then the card's 0.13
    scene.hold_until(at(define_at))
    sub = pair.subs[0]
    under = Line(sub.get_corner(DOWN + LEFT), sub.get_corner(DOWN + RIGHT),
                 stroke_color=T.TEXT, stroke_width=2).shift(0.05 * DOWN)
    scene.play(Create(under), run_time=0.6)
    span = at(median_at) - at(define_at)
    # "... 0 nats when it is sure of one token": the card's one tall bar boxed
    scene.hold_until(at(define_at) + 0.3 * span)
    scene.emphasize(bars, run_time=max(1.0, 0.3 * span))
    scene.hold_until(at(define_at) + 0.65 * span)
    scene.play(FadeOut(under), FadeIn(ent_num, shift=0.1 * UP), run_time=0.5)
    scene.emphasize(ent_num, run_time=max(1.0, at(median_at) - scene.time - 0.3))
    # "the median entropy is lowest at X^(20), 0.54 nats, far from the answer; at X^(30)
    # it is 2.30": the line, its low ringed and joined to the card, then its end
    scene.hold_until(at(median_at))
    t0 = scene.time
    scene.play(Create(ent, rate_func=linear), run_time=max(1.0, 0.2 * (end - t0)))
    lo = ent_marks[0]                       # "median 0.54" at X^(20)
    last = pair.last_values(0, 1)[0]        # X^(30), its number right of it
    ring = Circle(radius=0.13, stroke_color=T.TEXT, stroke_width=2.5).move_to(lo[0])
    link = DashedLine(card[0].get_bottom() * [0, 1, 0] + [spot[0], 0, 0],
                      spot + UP * 0.16, dash_length=0.08, stroke_color=T.HIGHLIGHT,
                      stroke_width=2)
    scene.play(FadeIn(lo[0], scale=1.5), FadeIn(lo[1], shift=0.1 * UP), Create(ring),
               Create(link), run_time=0.8)
    # (the ring swells and settles while "far from the answer" is said: a box round the
    # number touched the x axis)
    scene.play(ring.animate(rate_func=there_and_back).scale(1.6),
               run_time=max(1.0, t0 + 0.7 * (end - t0) - scene.time - 0.1))
    scene.hold_until(t0 + 0.7 * (end - t0))
    scene.play(FadeIn(last[0], scale=1.5), FadeIn(last[1], shift=0.1 * UP), run_time=0.5)
    scene.emphasize(last[1], run_time=max(1.0, end - scene.time - 0.3))
    scene.adopt(ent_box, ent, lo, ring, last, card, link)


def turn_chart(scene, old_box, new_box, gone: list, keep=()) -> None:
    """One median chart clears into the other on the same axes (r35, review: "KL and the
    entropy chart cross-fade into each other"): first all that is the old chart's own leaves
    (its title, its y scale and grid, its line and marks, and `gone`); then the new chart's
    title and y scale come. The axes' lines, the states under them and the axis's name are
    the same in both (`spread_pair` puts the axes in one place) and stay, as does `keep` (the
    shaded layers, which become the new chart's)."""
    head, sub, ax, name = old_box.submobjects[:4]
    extra = [m for m in old_box.submobjects[4:] if all(m is not k for k in keep)]
    leaving = [head, sub, ax.grid, ax.y_labels, *extra, *gone]
    scene.remove(old_box)
    scene.add(ax.axes, ax.x_labels, name, *keep, *leaving)
    scene.play(*[FadeOutPlace(m) for m in leaving], run_time=0.5)
    n_head, n_sub, n_ax, n_name = new_box.submobjects[:4]
    scene.remove(ax.axes, ax.x_labels, name)
    scene.add(n_ax.axes, n_ax.x_labels, n_name)
    scene.play(FadeIn(n_head, shift=0.1 * UP), FadeIn(n_sub, shift=0.1 * UP),
               FadeIn(n_ax.grid), FadeIn(n_ax.y_labels), run_time=0.6)
    scene.remove(*[m for part in (n_head, n_sub, n_ax, n_name) for m in part.get_family()])
    scene.add(new_box)
    scene.adopt(new_box, *keep)


def clear_of_line(mob, line, floor: float, pad: float = 0.25) -> None:
    """Move `mob` down until no point of `line` (a chart's polyline) is within `pad` of it
    (the box a pointer draws round it included), or until it would reach `floor` (r35,
    review: "the KL chart's box touches the curve")."""
    corners = line.get_anchors()
    pts = [a + (b - a) * t for a, b in zip(corners, corners[1:]) for t in (0.0, 0.25, 0.5, 0.75)]

    def touches() -> bool:
        lo, hi = mob.get_corner(DOWN + LEFT) - pad, mob.get_corner(UP + RIGHT) + pad
        return any(lo[0] < p[0] < hi[0] and lo[1] < p[1] < hi[1] for p in pts)
    while touches() and mob.get_bottom()[1] - 0.1 > floor + pad:
        mob.shift(DOWN * 0.1)


HEAD_SIZE = T.LABEL_SIZE + 4    # a median chart's title and its definition under it (~16 px)
SUB_COLOR = T.TEXT              # ... the definition (grey read low in contrast)

KL_TERMS = ("Σ over tokens:", "p_output ×", "log(p_output ÷ p_lens);", "0 = they agree")

CHAPTER_CLAIM = "The chapter: predictions usually sharpen with depth."


def here_claim(v) -> str:
    """The video's conclusion, as the caption while it is said."""
    return "Here: the lens's match with the output sharpens, not its confidence."


def nat_scale(v) -> VGroup:
    """The median's first KL read as one concrete case (an illustration, said as one): were
    the output sure of one token, KL would be minus the log of the lens's probability for
    it, so 19.4 nats is one chance in e^19.4 (the plan's kl_start_factor), about 273,000,000."""
    # r33b (review: "273,000,000 times, averaged in logs" was hard to follow, and 19.4 a
    # median): the median, and one case, in words (e^19.4's superscript read ~8 px)
    # (the 19.4 itself is the first point's number, written once)
    return VGroup(txt("e.g. were the output sure of one token,", T.LABEL_SIZE, T.TEXT),
                  txt("the lens would give that token", T.LABEL_SIZE, T.TEXT),
                  inline(txt("1 chance in", T.LABEL_SIZE, T.TEXT),
                         Num(v.prompts.kl_start_factor, decimals=0, size=T.LABEL_SIZE,
                             color=T.TEXT, style="group"), buff=0.12),
                  ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)


def our_prompt(v, l: int) -> VGroup:
    """Whose the yellow point is (not a median): "our prompt, X^(20)", left of it."""
    return inline(txt("our prompt,", T.LABEL_SIZE, T.HIGHLIGHT),
                  x_label(v.layers[l].state, STATE_INDEX_SIZE, T.HIGHLIGHT), buff=0.1)


def guess_bars(v, l: int, rows: int | None = None) -> VGroup:
    """Our prompt's lens at state l as the race drew it, small (its first `rows` tokens, all
    where None): [title X^(l), the tokens' names, their tracks, their bars, the top guess's
    probability (said), its entropy (said)]."""
    lay = v.layers[l]
    title = inline(txt("our prompt at", T.LABEL_SIZE, T.TEXT),
                   x_label(lay.state, STATE_INDEX_SIZE, T.TEXT), buff=0.12)
    names, tracks, bars = VGroup(), VGroup(), VGroup()
    for i, e in enumerate(list(lay.top)[:rows]):
        y = -i * GUESS_PITCH
        name = txt(SAME_LOOKING.get(str(e.text), str(e.display)), T.LABEL_SIZE, T.TEXT,
                   mono=True)
        name.move_to([-0.15, y, 0], aligned_edge=RIGHT)
        track = Rectangle(width=GUESS_BAR, height=0.26, stroke_width=0, fill_color=T.FAINT,
                          fill_opacity=0.5).move_to([GUESS_BAR / 2, y, 0])
        bar = Rectangle(width=max(0.02, GUESS_BAR * float(e.prob)), height=0.26,
                        stroke_width=0, fill_color=T.MUTED, fill_opacity=1.0
                        ).move_to(track, aligned_edge=LEFT)
        names.add(name)
        tracks.add(track)
        bars.add(bar)
    top = Num(lay.top[0].prob, decimals=T.DECIMALS, size=T.LABEL_SIZE, color=T.TEXT)
    top.next_to(bars[0], RIGHT, buff=0.12)
    ent = inline(txt("entropy", T.LABEL_SIZE, T.HIGHLIGHT),
                 Num(lay.entropy, decimals=T.DECIMALS, size=T.LABEL_SIZE, color=T.HIGHLIGHT),
                 buff=0.12)
    title.next_to(VGroup(names, tracks), UP, buff=0.25).align_to(names, LEFT)
    ent.next_to(VGroup(names, tracks), DOWN, buff=0.25).align_to(tracks, LEFT)
    return VGroup(title, names, tracks, bars, top, ent)


def recall_card(v, l: int) -> VGroup:
    """Our prompt's state l recalled over a median chart (r36: "not its confidence" tied to
    the confident, wrong X^(20) the race showed): [its backing, then `guess_bars`' parts
    (its top `RECALL_ROWS` tokens), then the answer's rank there, in its yellow]."""
    bars = guess_bars(v, l, RECALL_ROWS)
    bars[5].set_color(T.TEXT)       # (its entropy: yellow is Paris's)
    rank = inline(txt(f"{v.answer.display}: rank", T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                  Num(v.layers[l].rank, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT,
                      style="group"), buff=0.12)
    rank.next_to(bars[5], DOWN, buff=0.12).align_to(bars[5], LEFT)
    body = VGroup(*bars, rank)
    back = RoundedRectangle(corner_radius=0.08, width=body.width + 0.4,
                            height=body.height + 0.3, stroke_color=T.FAINT, stroke_width=1.5,
                            fill_color=T.BACKGROUND, fill_opacity=1.0).move_to(body)
    return VGroup(back, *bars, rank)


RECALL_ROWS = 1           # the recalled state's tokens: its spike (the next reads 0.00)


GUESS_BAR = 3.0           # a guess card's bar at probability 1
GUESS_PITCH = 0.44        # its rows' spacing (the two cards fill the stage's height)


def window_name(v, why: bool = False) -> VGroup:
    """The name of the shaded late window, under an axis: "last 7 layers"; on a median chart
    (`why`) the states it covers and the rule it was picked by, said as our prompt's (r36,
    both round-35 reviewers: the band spanned X^(23) .. X^(30) and was read as covering X^(23),
    where Paris is at rank 2,079; and one prompt's rule sat unsaid over a 10-prompt median):
    "shaded:", "X^(24)…X^(30)", "in our prompt,", "Paris's rank", "< 1,000 there", beside
    the shade."""
    if not why:
        return inline(txt("last", T.LABEL_SIZE, T.TEXT),
                      Num(v.window.size, decimals=0, size=T.LABEL_SIZE, color=T.TEXT),
                      txt("layers", T.LABEL_SIZE, T.TEXT), buff=0.12)
    whose = str(v.answer.display).replace("␣", "").strip()
    first, last = window_states(v)
    return VGroup(txt("shaded:", T.LABEL_SIZE, T.TEXT),
                  inline(x_label(v.layers[first].state, STATE_INDEX_SIZE, T.TEXT),
                         txt("…", T.LABEL_SIZE, T.TEXT),
                         x_label(v.layers[last].state, STATE_INDEX_SIZE, T.TEXT), buff=0.08),
                  txt("in our prompt,", T.LABEL_SIZE, T.HIGHLIGHT),
                  txt(f"{whose}'s rank", T.LABEL_SIZE, T.HIGHLIGHT),
                  inline(txt("<", T.LABEL_SIZE, T.HIGHLIGHT),
                         Num(v.window.threshold, decimals=0, size=T.LABEL_SIZE,
                             color=T.HIGHLIGHT, style="group"),
                         txt("there", T.LABEL_SIZE, T.HIGHLIGHT), buff=0.12)
                  ).arrange(DOWN, aligned_edge=LEFT, buff=0.12)


def window_states(v) -> tuple[int, int]:
    """The indices (into `v.layers`) of the first and last state the window's layers write:
    layers[i] is X^(i+1), the state layer i writes, so layers start .. L-1 write exactly
    layers[start] .. layers[L-1] (X^(24) .. X^(30) for layers 23-29)."""
    return int(v.window.start), int(v.n_layers) - 1


def window_band(c2p, v, y0: float, y1: float) -> Rectangle:
    """The last layers' shade, the same on every chart: over exactly the states the window's
    layers write (`window_states`: X^(24) .. X^(30), not the X^(23) they read first; r36), a
    little past both end points so neither sits on its edge; `c2p(x, y)` maps (state index,
    value)."""
    first, last = window_states(v)
    lo, hi = c2p(first - WINDOW_PAD, y0), c2p(last + WINDOW_PAD, y1)
    return Rectangle(width=hi[0] - lo[0], height=hi[1] - lo[1], stroke_width=0,
                     fill_color=T.TEXT, fill_opacity=0.08).move_to((lo + hi) / 2)


WINDOW_PAD = 0.3
BAND_TOP = 0.94      # the shade's top, as a share of its axis's
TOP_NAME_AT = 17.5   # the dashed top-10 line's name ends here (a state index)
SPREAD_X = -0.8           # the spread axes' centre (the notes right of them fit the frame:
                          # r35, the shade's rule in three lines beside it)


def sweep_in(band: Rectangle):
    """A shaded stretch of states drawn left to right at its full height (a grow from the
    edge would scale its height too)."""
    band.save_state()
    band.stretch(1e-3, 0, about_edge=LEFT)
    return Restore(band)


def draw_series(scene, line, marks, i: int, end: float) -> None:
    """One spread plot's line, drawn from cue `i` over the sentence's first 40 %, then its
    marked points in turn over the rest (the sentence reads them, until `end`)."""
    scene.hold_until_cue(i)
    total = end - scene.time - 0.2
    # the line while the measure is defined, then its points one by one as they are said
    draw = max(1.0, 0.4 * total)
    dots = max(0.6, total - draw)
    scene.play(Create(line, rate_func=linear), run_time=draw)
    scene.play(LaggedStart(*[FadeIn(m) for m in marks], lag_ratio=0.5), run_time=dots)


def legend(p) -> VGroup:
    """What each line of the median plot is: the median, the prompt followed so far (its
    answer, and the prompt under it: two prompts answer the same), the other prompts."""
    first = p.items[0]
    answer = txt(str(first.answer.display), KEY_SIZE, T.HIGHLIGHT, mono=True)
    words = str(first.sentence).split()
    for cut in range(len(words)):      # a long prompt keeps its end (the frame's width)
        said = txt("(" + ("… " if cut else "") + " ".join(words[cut:]) + ")", KEY_SIZE,
                   T.MUTED)
        if answer.width + said.width <= LEGEND_WIDTH:
            break
    return VGroup(
        legend_item(MEDIAN, "median", KEY_SIZE, line=True),
        VGroup(Line(LEFT * 0.14, RIGHT * 0.14, stroke_color=T.HIGHLIGHT, stroke_width=2.5),
               VGroup(answer, said).arrange(RIGHT, buff=0.08)   # one entry: answer (its prompt)
               ).arrange(RIGHT, buff=0.08),
        VGroup(Line(LEFT * 0.14, RIGHT * 0.14, stroke_color=T.MUTED, stroke_width=1.5),
               txt("each prompt's answer", KEY_SIZE, T.MUTED)).arrange(RIGHT, buff=0.08),
    ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)


class SpreadPlots:
    """Two plots over the states X^(1)..X^(L), side by side: the median entropy of the lens
    and the median KL divergence from the final reading, each with what it measures under its
    title; no y numbers but the points the voice names (a Num, with its plan path, at each).
    `group` is the axes; place it, then `curves()` draws each series where its axes are."""

    def __init__(self, v):
        p, L = v.prompts, int(v.n_layers)
        self.L, self.n = L, p.n
        ticks = sorted(set(range(4, L, 5)) | {0})
        self.series = []
        boxes, self.subs, self.heads = VGroup(), [], []
        for series, title, what, early, decimals in (
                (p.median_entropy, "median entropy of the lens (nats)",
                 "its guesses' spread: 0 = one token sure", L - 3, 2),
                # r35 (review: "KL's direction is unsaid"): which distribution weighs
                (p.median_kl, "median KL divergence of the lens from the output (nats)",
                 KL_TERMS, L - 7, 1)):
            vals = [float(x) for x in series]
            # r31b: the entropy axis reaches our prompt's X^(29) too (its 4.37 travels to
            # its point there; the axis topped out at ~2.6, under it)
            ours = [float(v.layers[L - 2].entropy)] if decimals == 2 else []
            top = max(vals + ours) * 1.15
            self.tops = getattr(self, "tops", []) + [top]
            # round ticks (0, 1, 2 ...; 0, 10, 20 ...): no plan value is printed before the
            # voice says it (the points' numbers come as they are said)
            step = 1 if top < 6 else 10
            ax = PlacedTickAxes([-0.5, L - 0.5, 1], [0, top, top], *SPREAD, x_ticks=[
                (l, v.layers[l].state.value, v.layers[l].state.path) for l in ticks],
                y_ticks=[(float(t), t, "axis") for t in range(0, int(top) + 1, step)],
                y_decimals=0, size=T.LABEL_SIZE)
            # (round marks of the scale, not plan values: plain text, each where its Num was)
            for i, t in enumerate(range(0, int(top) + 1, step)):
                lab = ax.y_labels[i]
                ax.y_labels.submobjects[i] = txt(str(t), T.LABEL_SIZE, T.MUTED, mono=True
                                                 ).move_to(lab, aligned_edge=RIGHT)
            head = txt(title, HEAD_SIZE, T.TEXT).next_to(ax, UP, buff=0.45).align_to(ax, LEFT)
            # (a formula in its terms, each underlined as it is said: `kl_part`; r36, review:
            # "the grey formula line ~13-15 px": as large as the title, a lighter grey)
            sub = (txt(what, HEAD_SIZE, SUB_COLOR) if isinstance(what, str) else
                   inline(*[txt(w, HEAD_SIZE, SUB_COLOR) for w in what], buff=0.12))
            sub.next_to(head, DOWN, buff=0.08).align_to(head, LEFT)
            name = inline(txt("the lens reads", T.LABEL_SIZE, T.TEXT),
                          x_label("l", STATE_INDEX_SIZE, T.TEXT), buff=0.12)
            name.next_to(ax.x_labels, DOWN, buff=0.12).align_to(ax.axes, LEFT)
            self.series.append((ax, series, vals, early, decimals))
            self.subs.append(sub)
            self.heads.append(head)
            boxes.add(VGroup(head, sub, ax, name))
        self.group = boxes

    def axes_x(self, box) -> float:
        """The x of the centre of `box`'s axes (the box is centred by its axes)."""
        return box[2].axes.get_center()[0]

    def last_values(self, i: int, n: int) -> VGroup:
        """Plot i's last n states, a dot on its line at each with its value beside it (left
        of the dot where the line climbs into it, above at the peak, right at the end)."""
        ax, series, vals, _, decimals = self.series[i]
        out = VGroup()
        for l in range(self.L - n, self.L):
            d = Dot(ax.axes.c2p(l, vals[l]), radius=0.085, color=T.TEXT)
            num = Num(series[l], decimals=decimals, size=T.LABEL_SIZE, color=T.TEXT)
            # (the last one under and right of its point: right of it, it touched the
            # shade's name beside the band, r36)
            side = (DOWN + RIGHT if l == self.L - 1 else
                    UP if vals[l] >= max(vals[l - 1], vals[l + 1]) else LEFT)
            num.next_to(d, side, buff=0.1)
            out.add(VGroup(d, num))
        return out

    def piece(self, i: int, a: int, b: int) -> VMobject:
        """Plot i's line from state index a to b, where `curves()` draws it whole (drawn in
        pieces as the voice reaches each)."""
        ax, _, vals, _, _ = self.series[i]
        return VMobject(stroke_color=MEDIAN, stroke_width=3).set_points_as_corners(
            [ax.axes.c2p(l, vals[l]) for l in range(a, b + 1)])

    def top(self, i: int) -> float:
        """Plot i's y axis top (its axes' coordinate)."""
        return self.tops[i]

    def last_points(self, i: int, n: int) -> VGroup:
        """Plot i's last n states, a dot on its line at each."""
        ax, _, vals, _, _ = self.series[i]
        return VGroup(*[Dot(ax.axes.c2p(l, vals[l]), radius=0.085, color=T.TEXT)
                        for l in range(self.L - n, self.L)])

    def curves(self) -> list:
        """[(line, marks)] per plot, where its axes now are: the marks are the lowest and
        highest points before the stretch the voice describes apart, and the peak of the whole
        line (the last state's instead where that peak is the one before the stretch)."""
        out, self.low = [], []
        for ax, series, vals, early, decimals in self.series:
            pt = ax.axes.c2p
            line = VMobject(stroke_color=MEDIAN, stroke_width=3).set_points_as_corners(
                [pt(l, y) for l, y in enumerate(vals)])
            lo = min(range(early), key=lambda l: vals[l])
            hi = max(range(early), key=lambda l: vals[l])
            peak = max(range(self.L), key=lambda l: vals[l])
            marks = VGroup()
            for l, side in ((lo, DOWN), (hi, UP),
                            (peak, UP) if peak != hi else (self.L - 1, UP + RIGHT)):
                d = Dot(pt(l, vals[l]), radius=0.06, color=T.TEXT)
                n = Num(series[l], decimals=decimals, size=T.LABEL_SIZE, color=T.TEXT)
                if l == lo and not out:     # the entropy's low: a median, not our prompt's
                    n = inline(txt("median", T.LABEL_SIZE, T.MUTED), n, buff=0.08)
                    # below the point and left of it: off the shaded late layers (right of
                    # the point) and off the x axis
                    n.next_to(d, DOWN + LEFT, buff=0.04).shift(LEFT * 0.12)
                    # r33b: clear of the x axis and of the ring round the point
                    floor = pt(0, 0)[1] + 0.1
                    if n.get_bottom()[1] < floor:
                        n.shift(UP * (floor - n.get_bottom()[1]))
                elif l == lo:      # KL's first point: its number right of the y axis
                    n.next_to(d, DOWN + RIGHT, buff=0.04)
                elif l == self.L - 1 and l != peak:
                    # the last point, on the x axis: its number above and right of it (r30:
                    # beside it, its box covered the tick "30" under the point; r35, review:
                    # above it, its box touched the line coming down into the point)
                    n.next_to(d, UP + RIGHT, buff=0.15)
                else:       # (r35: clear of the line, its box too)
                    n.next_to(d, side, buff=0.2)
                marks.add(VGroup(d, n))
            self.low.append(lo)
            out.append((line, marks))
        return out

    def closing(self, v):
        """The KL plot's level of its first state (a dashed line across), and a shade over
        the late window's states on both plots (the states Paris climbs over)."""
        start = int(v.window.start)
        kl_ax, _, kl_vals, _, _ = self.series[1]
        a = kl_ax.axes
        level = DashedLine(a.c2p(-0.5, kl_vals[0]), a.c2p(self.L - 0.5, kl_vals[0]),
                           dash_length=0.08, stroke_color=T.TEXT, stroke_width=1.5,
                           stroke_opacity=0.7)
        bands, names = [], []
        for i, (ax, _, vals, _, _) in enumerate(self.series):
            # (a little under the axis's top: at its top it touched the line under the title;
            # the same share of each axis, so it stays as one chart turns into the other)
            bands.append(window_band(ax.axes.c2p, v, 0, BAND_TOP * self.tops[i]))
            # right of the band, level with its top (r35: under the axis it ran into the
            # axis's name; inside the band it sat on the line or beside "29.4")
            name = window_name(v, why=True).next_to(bands[-1], RIGHT, buff=0.2).align_to(
                bands[-1], UP)
            names.append(name)
        return level, bands, names
