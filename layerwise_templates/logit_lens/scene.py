"""Logit lens: every layer's stream decoded as if it were the last, for one prompt.

The frame has a wide slot (the lens columns, full width) or two side slots (left: grid, then
credit table; right: rank plot). A new piece replaces the old one in its slot; the wide slot
and the side slots replace each other.

Beats (each optional, in storyboard order):
- `lens` (uses the beat's `layer`): a column with the top-5 next tokens after the focus token
  at that layer, with probabilities, and the final answer's rank and probability there. Each
  lens beat adds a column (up to `MAX_COLUMNS`, then the oldest is replaced), so layers compare
  side by side; the newest column is outlined. Shown happening: a dot (the stream) runs along
  the depth ruler to the layer, the first time through the lens drawn as its steps (the
  stream's numbers, final norm, unembedding, softmax), into the column, whose bars then grow
  one by one; the answer's rank is circled as the narration's second sentence starts.
- `grid`: layers x positions, the lens's top-1 token per cell, cells coloured by its
  probability, yellow where it equals the final layer's top-1 at that position. Rows are the
  plan's subset (every 3rd layer, then every layer of the late window), each labelled; they
  arrive top to bottom, and the last row (the model's output) is circled at the last sentence.
- `rank`: first showing: the answer's rank (log scale, 1 at the top) and probability after
  every layer, drawn layer by layer. Next showing: each late layer split into its attention
  add and FFN add on the plot, drawn one layer at a time with its row of the credit table;
  the table's three summaries arrive with the sentences that say them.
- `race` (uses the beat's `layer`): one bar chart of the lens's top k morphs layer by layer up
  to the beat's layer (fast before the late window, slowly in it), the answer on its own row.
- `prompts`: every prompt of the storyboard read at its last token: the list with each final
  answer, then the median rank of each prompt's own answer over the states
  (`scene_prompts`).
- `spread`: the same prompts' median entropy of the lens, one chart alone
  (`scene_prompts.beat_spread`).
- `kl`: their median KL from the final output, one chart alone, the late layers shaded
  (`scene_prompts.beat_kl`).

The pieces come from the kit (this file only composes them, beat by beat):
`mobjects.lens` (prompt, lens column, column places, depth ruler, the lens's steps),
`mobjects.lens_grid` (the grid and its guide), `mobjects.rank_plot` (rank over probability
axes, curve, a layer's two adds), `mobjects.credit` (the credit table), `motion.race`
(`LayerRace`, the bar chart across the layers), `motion.steps` (a dot through the steps).
"""

from __future__ import annotations

from manim import (ArcBetweenPoints, Arrow, DOWN, LEFT, RIGHT, UP, Create, config, DashedLine, Dot, FadeIn, FadeOut,
                   RoundedRectangle, Transform,
                   FadeTransform, GrowFromEdge, ReplacementTransform, GrowFromPoint, LaggedStart, Line, Rectangle,
                   ShowPassingFlash, Succession, UpdateFromAlphaFunc, VGroup,
                   linear, smooth)

from layerwise_core.models import measured_as
from scenes import theme as T
from scenes.animations import FadeInPlace, FadeOutPlace
from .scene_prompts import WINDOW_PAD, beat_kl, beat_prompts, beat_spread, sweep_in, window_name
from .scene_race import (STATE_INDEX_SIZE, SAME_LOOKING, LensRace, fade_swap, paint, prob_num,
                         state_ruler,
                         x_label)
from .view import Data, Model
from scenes.base import StoryboardScene
from scenes.motion import run_through
from scenes.mobjects import (Num, RankPlots, StepBoxes, column_guide, column_places, credit_rows,
                       credit_table, final_outlines, grid_guide, inline, layer_ruler, legend_item,
                       glyph_span, lens_column, lens_grid, lens_steps, prompt_line, txt)

MAX_COLUMNS = 4            # lens columns side by side
COL_WIDTH = 6.5            # a side slot
COLUMN = (3.2, 3.2)        # a lens column's box (width, height)
COLUMN_ROWS = 5            # tokens in a lens column (the plan keeps top_k, the bar chart shows all)
RACE_BAR = 6.2             # the bar chart's bar at probability 1
RACE_PITCH = 0.38          # its rows' spacing (r35: 0.42, less the room of the rank scale's
                           # labels under Paris's row)
RACE_FAST = (1.0, 3.0)     # seconds per shown state before the late window (a quick run)
RACE_MOVE = 2.0            # ... of which the chart moves this long (two moves: data, re-sort,
                           # the re-sort's lanes out, across and in), then holds still (r35,
                           # review: at 1.0 the re-sorts were too fast to follow)
RACE_THIN = 6              # a run longer than this many states ...
RACE_STRIDE = 12           # ... shows every 12th one (ending on the beat's state): 2 stops
                           # each named by its own sentence (r31: X^(14)'s stop cut for length)
RACE_SLOW = (1.0, 3.0)     # seconds per layer in the window: the beat's time shared, in this range
RACE_SLIDE = 2.0           # ... of which the chart moves at most this long (the first slide, said, too)
WIDE_RANK = {"rank_size": (9.0, 2.8), "prob_size": (9.0, 1.3)}   # the rank plot alone
GUIDE_GAP = 0.25           # the space guide line over the lens boxes
SLOW_UPDATES = 2           # the opening's updates shown one by one before the fast-forward
RACE_SAID = 2.2            # the step the voice describes ("slides as it moves"), slow
RACE_TAIL = 1.0            # seconds kept at the end of a race beat after the last step
POINT_TIME = 1.0           # ... and for the pointer at the answer as it enters the top k
STRIP = 12                 # cells drawn each side of the stream's "…" (the opening)
PIPE_BOX = (3.3, 1.55)     # a step of the lens: its words on top, what it does to the row under
PIPE_BOX_WAS = 3.1         # ... its width before r36 (the column places were laid out for it)
PIPE_GAP = 0.45            # between the steps (their arrows)
LABEL_MARGIN = 0.6         # a text's least distance from the frame's side (~36 px at 854x480)
PIPE_TEXT = T.LABEL_SIZE + 3   # the steps' words (r36, review: the grey second lines read
                               # ~12-13 px at 22; at the small size they were ~10 px)
BIG_PROMPT = 1.6           # the prompt said in the middle of the stage, at most this scale


def _at_once(t: float) -> float:
    """A swap in one frame (a label's value turns, it does not morph or fade)."""
    return 1.0


def _on_arrival(t: float) -> float:
    """A swap in one frame as the move ends (r30: the ruler's dot gets there first, then the
    label turns; it had turned while the dot trailed it)."""
    return 1.0 if t >= 0.85 else 0.0


def carry(old, new):
    """`old` moves to `new`'s place and size: the same glyphs (the same text, the same font)
    travel as they are (a move, never a morph); a text that differs from its new form moves
    whole as it turns into it (a cross-fade in motion, never glyph into glyph)."""
    if _shape(old) == _shape(new):
        return ReplacementTransform(old, new)
    return FadeTransform(old, new, stretch=False)


def _across_down(start, end, alpha: float):
    """A path across, then down (or up): the column's head X^(l) goes left along its own line,
    past the column's box, then down the margin to the counter's place, never over the rows
    moving into the chart."""
    # (it waits while the head's words fade, `_gone_soon`, then goes over where they were)
    a1 = min(1.0, max(0.0, (alpha - 0.15) / 0.4))
    a2 = min(1.0, max(0.0, (alpha - 0.55) / 0.45))
    out = start.copy()
    out[:, 0] = start[:, 0] + (end[:, 0] - start[:, 0]) * a1
    out[:, 1] = start[:, 1] + (end[:, 1] - start[:, 1]) * a2
    return out


def _gone_soon(t: float) -> float:
    """A fade over the first 15 % of a move (what moves next goes over where it was)."""
    return min(1.0, t / 0.15)


def _shape(mob) -> list:
    """What a text is drawn with: the point counts of its parts (the same string in the same
    font gives the same list at any size or place)."""
    return [len(m.points) for m in mob.get_family() if len(m.points)]


def updates(row: VGroup, layers, gap: bool = False) -> list:
    """One update per later layer named in `layers` ("…" in front of the last where `gap`:
    layers between are left out): a strip of the stream's shape, in grey (values not drawn), over the
    stream row, with its layer's name left of it: [(strip, label)]."""
    out = []
    for i, layer in enumerate(layers):
        strip = row.copy()
        for cell in (*strip[0], *strip[2]):
            cell.set_stroke(T.MUTED, 1.5).set_fill(T.MUTED, 0.35)
        strip[1].set_color(T.MUTED)
        strip.next_to(row, UP, buff=0.35)
        # r31: no "+ … +" in the last label: the layers between are run through on the
        # ruler first (the dot and the name reach X^(L-1)), so the label and the state agree
        # (white: in grey at the label size they read as a blur in motion)
        words = [txt("+ layer", T.LABEL_SIZE, T.TEXT),
                 Num(layer, decimals=0, size=T.LABEL_SIZE, color=T.TEXT),
                 txt("update", T.LABEL_SIZE, T.TEXT)]
        label = inline(*words, buff=0.12).next_to(strip, LEFT, buff=0.3)
        if label.get_left()[0] < -config.frame_width / 2 + LABEL_MARGIN:
            # r30: too near the frame's edge on one line ("+ … + layer 29 update" sat 15 px
            # from it): "update" goes under the rest, both right-aligned by the strip
            label = VGroup(inline(*words[:2], buff=0.12), words[2]).arrange(
                DOWN, aligned_edge=RIGHT, buff=0.08).next_to(strip, LEFT, buff=0.3)
        out.append((strip, label))
    return out


# the beats whose caption turns on a later cue: the phrase that starts what it says
CAPTION_CUES = {"climb": "Then it climbs", "prompts": "Here are"}


def answer_focus(race) -> VGroup:
    """Paris's row: its name, its rank scale (the ticks' ranks under it) and its rank (a box
    round the name and the rank alone cut through the scale's tick labels)."""
    spark = getattr(race, "spark", None)
    return VGroup(race.extra[0], *([spark] if spark is not None else []))


class LogitLensScene(StoryboardScene):
    def update_footer(self, beat: dict) -> None:
        """The footer names the weights exactly as traced, from the plan's `data.weights` (the
        file the model package ships: SmolLM2-135M-Instruct, Q4_1, 4 bits), not the registry's
        family name (the storyboard sets `footer: false`, so the plan holds no second name).
        Without a named file, the kit's footer. The layer a frame shows is on the chart."""
        w = self.plan.get("data", {}).get("weights")
        if not w:
            super().update_footer({k: v for k, v in beat.items() if k != "layer"})
            return
        quant = w.get("quant")
        text = (measured_as(w, w["name"]) if w.get("bits") else
                f"{w['name']} · {quant}" if quant else w["name"])
        if self.footer is not None and self.footer.text == text:
            return
        if self.footer is not None:
            self.remove(self.footer)
        self.footer = self.pin(txt(text, T.TYPE.small, T.MUTED).to_corner(DOWN + RIGHT,
                                                                          buff=T.TIGHT))
        self.add(self.footer)

    def set_caption(self, text: str) -> None:
        """A beat whose first sentence still speaks of the one before (`CAPTION_CUES`: the
        phrase that starts what its caption says) keeps the last caption until that cue
        starts; its own caption turns then, in one frame (r30: captions were ahead of the
        voice). Without that cue (a draft, a silent plan), at the beat's start as usual.
        Both captions carry an updater while they wait, so both are drawn frame by frame
        (a static one would stay baked into a play's still background); the old one leaves
        the scene at the next play."""
        self.drop_stale_caption()
        phrase = CAPTION_CUES.get(self.beat.get("id"))
        k = self.cue_with(phrase, None) if phrase and text else None
        if not k or self.caption is None:
            super().set_caption(text)
            return
        at = self.cue_at(k) - self.time
        old = self.caption
        super().set_caption(text)
        new = self.caption
        self.add(old)
        new.set_opacity(0)
        clock = [0.0]

        def turn(m, dt):
            clock[0] += dt
            if clock[0] >= at - 1e-6 and self._stale_caption is None:
                old.set_opacity(0)
                new.set_opacity(1)
                self._stale_caption = old
        self._stale_caption = None
        old.add_updater(turn)
        new.add_updater(lambda m, dt: None)

    _stale_caption = None

    def drop_stale_caption(self) -> None:
        if self._stale_caption is not None:
            self.remove(self._stale_caption)
            self._stale_caption = None

    def play(self, *args, **kwargs):
        self.drop_stale_caption()
        return super().play(*args, **kwargs)

    def capture(self, beat) -> None:
        self.drop_stale_caption()
        return super().capture(beat)

    def beat_prompts(self, beat) -> None:
        """The prompts with their final answers, then the median rank of each one's own answer
        state by state on a log scale (`scene_prompts.beat_prompts`)."""
        beat_prompts(self, self.v)

    def beat_spread(self, beat) -> None:
        """The median entropy of the lens over the same prompts, one chart alone
        (`scene_prompts.beat_spread`)."""
        beat_spread(self, self.v)

    def beat_kl(self, beat) -> None:
        """The median KL of the lens from the final output over the same prompts, the late
        layers shaded (`scene_prompts.beat_kl`)."""
        beat_kl(self, self.v)

    def layout(self) -> None:
        d = self.data
        self.v = Data.at(self.plan)
        self.layers, self.grid_data, self.credit = d["layers"], d["grid"], d["credit"]
        self.answer = d["answer"]["display"]
        self.word = self.plan["focus"][0].partition("#")[0]
        self.top = min(2.9, self.title.get_bottom()[1] - T.BUFF)     # content's top edge
        self.slots: dict[str, VGroup | None] = {"wide": None, "left": None, "right": None}
        self.columns: list[VGroup | None] = []
        # column places: one per lens beat (at most MAX_COLUMNS), three at least, the free ones
        # holding the lens drawn as its steps
        self.n_columns = max(3, min(MAX_COLUMNS,
                                    sum("lens" in b["show"] for b in self.plan["beats"])))
        self.lens_count = 0
        self.last_lens = 0         # where the stream dot starts its run along the ruler
        self.pipeline = None       # the lens drawn as its steps (first lens beat only)
        self.rank_stage = 0
        self.race: LensRace | None = None
        self.rank_line = None      # the answer's rank line, kept for the prompts beat
        self.race_panel: VGroup | None = None      # the wide slot's piece while the race shows
        self.guide: VGroup | None = None             # the lens panel's space-mark line
        self.lens_panel_mob: VGroup | None = None  # ... while the lens columns show    # the bar chart across the layers

    # --- slots --------------------------------------------------------------------------
    def place(self, mob: VGroup, side: str) -> VGroup:
        mob.set_y(self.top - mob.height / 2)
        if side == "wide":
            mob.set_x(0)
        else:
            mob.to_edge(LEFT if side == "left" else RIGHT, buff=T.EDGE + 0.1)
        return mob

    def put(self, side: str, mob: VGroup, placed: bool = False) -> VGroup:
        """Show `mob` in `side`, replacing what is there (the wide slot and the side slots
        replace each other)."""
        others = ["left", "right"] if side == "wide" else ["wide"]
        gone = [self.slots[s] for s in others if self.slots[s] is not None]
        for s in others:
            self.slots[s] = None
        if side != "wide":
            self.columns = []
        old = self.slots[side]
        new = mob if placed else self.place(mob, side)
        anims = [FadeInPlace(new)] + [FadeOutPlace(m) for m in gone + ([old] if old else [])]
        self.play(*anims, run_time=self.quick())
        self.slots[side] = new
        return new

    def detach(self, container: VGroup, *mobs) -> None:
        """Take `mobs` out of `container` as scene entries of their own, to fade them out:
        Manim's `Scene.remove` (a fade-out's last step) dissolves every scene entry whose family
        holds what it removes, so fading a column out of the panel took the panel off the scene
        and the next lens beat's column, added to the panel, was never drawn."""
        container.remove(*mobs)
        self.add(*mobs)

    def adopt(self, container: VGroup, *mobs) -> None:
        """Make freshly animated `mobs` part of `container` (one scene entry, so fading the
        container out takes them along)."""
        self.remove(*[m for mob in mobs for m in mob.get_family()])
        container.add(*mobs)
        if container not in self.mobjects:
            # r33: an animation of one of the container's parts (the prompt's "is" scaled as
            # the stream leaves it) made Manim's `Scene.add` split the container into its
            # parts on the scene; what was then added to it was never drawn (0:38-0:44 of
            # round 32b: the lens column, its rank and the pipeline vanished for 6 s). The
            # container is put back whole (its loose parts leave the scene list first).
            self.add(container)

    # --- lens columns -------------------------------------------------------------------
    def lens_column(self, l: int) -> VGroup:
        """The kit's column, headed by the state it reads, X^(l+1), not "after layer l"."""
        col = lens_column(self.v.layers[l], self.answer, COLUMN_ROWS, COLUMN)
        old = col[1][0]
        head = inline(txt("the lens on", T.LABEL_SIZE, T.MUTED),
                      x_label(self.v.layers[l].state, STATE_INDEX_SIZE, T.TEXT), buff=0.12)
        head.move_to(old, aligned_edge=LEFT)
        col[1].submobjects[0] = head
        # "rank" and "probability" at the label size (the kit's small grey read ~11 px)
        rank, prob = col[1][2], col[1][3]
        at = rank.get_left()          # (before its parts move into the new rows)
        big_rank = inline(rank[0], txt("rank", T.LABEL_SIZE, T.MUTED), rank[2], buff=0.12)
        big_prob = inline(txt("probability", T.LABEL_SIZE, T.MUTED),
                          prob_num(self.v.layers[l].prob, T.LABEL_SIZE, prob[1].get_color()),
                          buff=0.12)
        big_rank.move_to(at, aligned_edge=LEFT)
        big_prob.next_to(big_rank, DOWN, buff=T.TIGHT + 0.04, aligned_edge=LEFT)
        col[1].submobjects[2], col[1].submobjects[3] = big_rank, big_prob
        # a full stop or comma is named, not drawn as a speck (as in the bar chart); the other
        # tokens' rows plain, as in the chart (blue is the stream's colour)
        for row, e in zip(col[1][1].rows, self.v.layers[l].top):
            if not e.is_answer:
                paint(row[0], row[2], row[3])
            word = SAME_LOOKING.get(str(e.text))
            if word is not None:
                name = txt(word, T.LABEL_SIZE, row[0].get_color())   # a name, not token text
                name.move_to(row[0], aligned_edge=LEFT)
                row.submobjects[0] = name
        return col

    def lens_guide(self) -> VGroup:
        """How to read the column, and what the space mark means."""
        return VGroup(      # (what the lens does is drawn as its steps and said: not written)
            inline(txt("␣", T.LABEL_SIZE, T.TEXT, mono=True),
                   txt("marks a space:", T.LABEL_SIZE, T.TEXT),     # r33: full contrast
                   txt(self.answer, T.LABEL_SIZE, T.TEXT, mono=True),
                   txt("is \"" + self.answer.replace("␣", " ") + "\"", T.LABEL_SIZE, T.TEXT),
                   buff=0.16)      # r31: "␣Paris is" ran together at the default gap
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)

    def prompt(self) -> VGroup:
        """The prompt line, fitted to the frame: a long sentence keeps its end (the lens reads
        the last token) and an ellipsis marks the words left out at its start."""
        words = self.plan["sentences"][0].split()
        room = self.HOME_WIDTH - 2 * T.EDGE
        for cut in range(len(words)):
            self.prompt_source = ("… " if cut else "") + " ".join(words[cut:])
            line = prompt_line(self.prompt_source, self.word)
            if line.width <= room:
                return line
        return line

    def focus_glyphs(self, prompt: VGroup):
        """The glyphs of the prompt's focus word (its last occurrence: the token the lens
        reads), or None."""
        src, word = getattr(self, "prompt_source", None), str(self.word)
        if not src or word not in src:
            return None
        i = src.rfind(word)
        glyphs = glyph_span(prompt[1], src, i, i + len(word))
        return glyphs if len(glyphs) else None

    def lens_panel(self) -> VGroup:
        """Prompt, how to read a column, empty column places, and a depth ruler under them."""
        prompt = self.prompt()
        how = self.lens_guide()
        height = self.lens_column(0)[0].height        # every column's box is this tall
        self.frames = column_places(self.n_columns, height, COLUMN[0])
        ruler = state_ruler(self.v.layers, self.frames.width - 1.6)
        self.ruler_dots = ruler.dots
        panel = VGroup(prompt, how, self.frames, ruler).arrange(DOWN, buff=T.BUFF)
        ruler.next_to(self.frames, DOWN, buff=0.5).match_x(self.frames)
        ruler.shift(RIGHT * (self.frames.get_center()[0] - ruler.line.get_center()[0]))
        prompt.align_to(self.frames, LEFT)
        how.align_to(self.frames, LEFT)
        return panel

    def beat_lens(self, beat) -> None:
        """The stream is taken after layer l (a dot runs along the depth ruler to it), goes up
        through the lens into its column, and the top-5 bars grow one by one; the answer's rank
        is pointed at when the narration's second sentence starts."""
        l = beat["layer"] if beat["layer"] is not None else self.plan["layers"][-1]
        n = len(self.beat.get("cues") or [])
        why = self.beat_index == 0 and n >= 4    # the video's opening: why a decoder, first
        if why:
            self.why_card(self.cue_at(2), l)      # (then the prompt, said with the panel)
        if self.slots["wide"] is None or self.slots["wide"] is not self.lens_panel_mob:
            # the lens panel is built here whatever came before (another piece in the wide
            # slot, or nothing): an arrangement may show a lens beat after the race
            self.columns = [None] * self.n_columns
            self.lens_count, self.last_lens, self.pipeline = 0, 0, None
            fresh_panel = self.lens_panel()
            self.guide = fresh_panel[1]
            if why:
                # r31: the guide line ("␣ marks a space: ␣Paris is ' Paris'") comes with the
                # rank sentence that needs it, not with the prompt (0:30-0:47 held it, the
                # lens's name and the steps all at once); its place kept by an empty group
                fresh_panel.submobjects[1] = VGroup()
            take = self.cue_with("Take X", None) if why else None
            small = fresh_panel[0]
            if take is not None:
                # r35 (review: "a ~6-s near-empty stage" while the prompt is said): the prompt
                # is said large, in the middle of the stage, then moves up to its line (the
                # same glyphs, moved and scaled: nothing redrawn) as the stream is taken
                shown = small.copy()
                small.set_opacity(0.0)
            self.lens_panel_mob = self.put("wide", fresh_panel)
            if take is not None:     # r32 "our prompt is The capital of France is, and the
                # lens reads its last token, is": the prompt boxed while it is said, then
                # (r32b, review: "the stream X^(7) is never tied to the token is") its last
                # token alone, from which the stream dot then drops
                shown.move_to(small)
                big = shown.copy()
                big.scale(min(BIG_PROMPT, (self.HOME_WIDTH - 2 * LABEL_MARGIN) / big.width))
                big.move_to([0, self.frames.get_center()[1], 0])
                self.play(FadeIn(big, shift=0.1 * UP), run_time=0.5)
                span = self.cue_at(take) - self.time
                word = self.focus_glyphs(big)
                self.emphasize(big, run_time=max(1.0, (0.55 if word is not None
                                                       else 1.0) * span - 0.3))
                if word is not None:
                    self.emphasize(word, run_time=max(1.0, self.cue_at(take) - self.time
                                                      - 0.3))
                self.hold_until_cue(take)
                self.play(Transform(big, shown.copy()), run_time=0.6)
                self.remove(big)
                small.become(shown)
            # r31: the guide, out of the panel while it waits, is placed by the column places
            # as the panel now stands (left out of the panel's move, it sat on the lens box's
            # top edge), ~15 px over them
            self.guide.next_to(self.frames, UP, buff=GUIDE_GAP).align_to(self.frames, LEFT)
        panel = self.slots["wide"]
        slot = self.lens_count % self.n_columns
        self.lens_count += 1
        col = self.lens_column(l).move_to(self.frames[slot])
        col[0].set_stroke(T.TEXT, 2)          # yellow is Paris's alone
        dot = self.ruler_dots[l]
        link = Line(col[0].get_bottom(), dot.get_center(), stroke_color=T.TEXT,
                    stroke_width=1.5, buff=0.06)
        mark = Dot(dot.get_center(), radius=0.07, color=T.TEXT)
        old = self.columns[slot]
        dims = []
        for c in self.columns:
            if c is not None and c is not old:
                dims += [c[0].animate.set_stroke(T.FAINT, 1.5),
                         c[2].animate.set_stroke(T.FAINT), c[3].animate.set_color(T.MUTED)]
        # 1. the stream after layer l: a dot runs along the ruler from the last lens to l
        runner = Dot(self.ruler_dots[self.last_lens].get_center(), radius=0.09, color=T.X)
        word = self.focus_glyphs(panel[0]) if why and self.pipeline is None else None
        if word is not None:    # r32b: the stream leaves the token "is" (the lens reads it)
            runner.next_to(word, DOWN, buff=0.08)
            self.play(FadeIn(runner, scale=2.0), word.animate.scale(1.15), run_time=0.4)
            self.play(word.animate.scale(1 / 1.15), run_time=0.2)
        if old is not None:
            self.detach(panel, old)
        if why:     # r32: the dot sets off, and the lens's steps come, with "Take X 7 there"
            # (they were up while the voice was still on the prompt)
            self.hold_until_cue(self.cue_with("Take X", max(0, self.n_cues() - 3)))
        self.play(runner.animate.move_to(dot), *dims,
                  *([FadeOutPlace(old)] if old is not None else []),
                  run_time=self.quick(0.12, 1.4))
        self.last_lens = l
        if why and l > 0:
            # r33 (review: "'the state that layer 6 wrote': layer 6 never appears"): the step
            # from X^(l) to X^(l+1) under the ruler, an arrow named by its layer
            a, b = self.ruler_dots[l - 1].get_center(), dot.get_center()
            step = ArcBetweenPoints(a + 0.1 * DOWN, b + 0.1 * DOWN, angle=1.9,
                                    stroke_color=T.TEXT, stroke_width=2)
            step.add_tip(tip_length=0.09, tip_width=0.09)
            wrote = inline(txt("layer", T.LABEL_SIZE, T.TEXT),
                           Num(self.v.layers[l].layer, decimals=0, size=T.LABEL_SIZE,
                               color=T.TEXT), buff=0.1)
            # right of its arrow, just under the ruler (under the arrow it touched the caption)
            wrote.next_to(step, RIGHT, buff=0.06)
            wrote.shift(UP * (dot.get_bottom()[1] - 0.04 - wrote.get_top()[1]))
            self.play(Create(step), FadeIn(wrote, shift=0.1 * UP), run_time=0.5)
            self.adopt(panel, step, wrote)
        # 2. through the lens (final norm, unembedding, softmax) into its column; the first
        #    time, the lens is drawn as its steps and the stream runs through each
        fresh = self.pipeline is None
        named = self.cue_with("nostalgebraist", None) if why else None
        if fresh:
            # r33b (review: the name came 3 s after it was said): the steps are paced to end
            # as "that is the logit lens, named by nostalgebraist" starts
            self.show_pipeline(runner, slot, paced=why,
                               until=(self.cue_at(named) if named is not None else
                                      self.cue_at(self.n_cues() - 2)) if why else None)
        elif self.pipeline in panel:
            self.detach(panel, self.pipeline)
            self.play(FadeOutPlace(self.pipeline), run_time=self.quick(0.05, 0.4))
        head, bars, rank, prob = col[1]
        if named is not None:
            # "that is the logit lens, named by nostalgebraist": the name written as said,
            # right of the guide line (the chapter's citation)
            self.hold_until_cue(named)
            tag = txt("the logit lens (nostalgebraist, 2020)", T.LABEL_SIZE, T.TEXT)
            tag.to_edge(RIGHT, buff=T.EDGE).match_y(self.guide)
            self.play(FadeIn(tag, shift=0.1 * UP), run_time=0.6)
            self.adopt(panel, tag)
        else:
            tag = None
        if fresh and why:   # the column is drawn as its contents are said (an empty box
            # held on the stage read as a blank): it grows just before "its top guesses"
            self.hold_until(self.cue_at(n - 2) - self.quick(0.08, 0.7) - self.quick(0.06, 0.6))
        if fresh:       # the column grows out of softmax, where the stream dot stopped, and
                        # is then tied to its state on the ruler
            # the box grows first, then its title comes inside it (never on its moving edge)
            self.play(GrowFromPoint(col[0], runner.get_center()), FadeOut(runner),
                      run_time=self.quick(0.08, 0.7))
            self.play(FadeIn(head), Create(link), FadeIn(mark), run_time=self.quick(0.06, 0.6))
        else:
            self.play(Create(link), FadeIn(mark), runner.animate.move_to(col[0].get_bottom()),
                      run_time=self.quick(0.06, 0.6))
            self.play(GrowFromPoint(col[0], runner.get_center()), FadeOut(runner),
                      run_time=self.quick(0.08, 0.7))
            self.play(FadeIn(head), run_time=self.quick(0.04, 0.4))
        # 3. the top five, best first, as the voice reads them out (cue 2 of the opening)
        if why:
            self.hold_until_cue(n - 2)
            if tag is not None:     # the name was read: it leaves as the guesses come
                self.detach(panel, tag)
                self.play(FadeOutPlace(tag), run_time=0.3)
        per = self.pace(self.cue_at(n - 1), len(bars.rows), 0.35, cap=1.6) if why else \
            self.quick(0.04, 0.35)
        for row, e in zip(bars.rows, self.v.layers[l].top):
            name, track, bar, num = row
            # r31b: the guide ("␣ marks a space") comes with the first token drawn with a ␣
            # (it came 3 s after "␣a" and "␣(")
            marked = (SAME_LOOKING.get(str(e.text)) is None and "␣" in str(e.display)
                      and self.guide not in panel.get_family())
            self.play(FadeIn(name), FadeIn(track), GrowFromEdge(bar, LEFT), FadeIn(num),
                      *([FadeIn(self.guide, shift=0.1 * DOWN)] if marked else []),
                      run_time=per)
            if marked:
                self.adopt(panel, self.guide)
        self.play(FadeIn(rank, shift=0.1 * UP), FadeIn(prob, shift=0.1 * UP),
                  run_time=self.quick(0.06, 0.5))
        col.add(link, mark)
        self.adopt(panel, col)
        self.columns[slot] = col
        self.hold_until_cue(max(0, self.n_cues() - 1))
        if self.guide not in panel.get_family():
            # "a token's rank ...: Paris is at rank 5,012": the space mark explained as the
            # answer's name (␣Paris) is read
            self.play(FadeIn(self.guide, shift=0.1 * DOWN), run_time=0.5)
            self.adopt(panel, self.guide)
        # circled, not pointed at (a pointer would cover "rank"), slowly, while it is said
        self.emphasize(rank, run_time=max(1.0, min(5.0, 0.9 * (self.cue_at(self.n_cues())
                                                                - self.time))))

    def why_card(self, until: float, l: int) -> None:
        """Why the lens is allowed: every state is the same stream of d_model numbers (a row of
        cells fills in as it is said), so the output head that reads the last state can read
        an earlier one. The first sentence draws the stream and X^(L) = X^(l) + updates; the
        second the two readings, each as it is said."""
        v = self.v.layers
        model = Model.at(self.plan["model"], "model")
        cells = VGroup(*[Rectangle(width=0.2, height=0.32, stroke_color=T.X, stroke_width=1.5,
                                   fill_color=T.X, fill_opacity=0.25) for _ in range(2 * STRIP)])
        left, right = VGroup(*cells[:STRIP]), VGroup(*cells[STRIP:])
        left.arrange(RIGHT, buff=0.04)
        right.arrange(RIGHT, buff=0.04)
        dots = txt("…", T.LABEL_SIZE, T.X)
        row = VGroup(left, dots, right).arrange(RIGHT, buff=0.15)
        name = inline(txt("each state X: one vector of", T.LABEL_SIZE, T.MUTED),
                      Num(model.d_model, decimals=0, size=T.LABEL_SIZE, color=T.X),
                      txt("numbers, the stream", T.LABEL_SIZE, T.MUTED), buff=0.12)
        stream = VGroup(name, row).arrange(DOWN, buff=1.0)      # an update drops in between
        lines = VGroup(
            inline(x_label(v[-1].state, STATE_INDEX_SIZE, T.X), txt("=", T.LABEL_SIZE),
                   x_label(v[l].state, STATE_INDEX_SIZE, T.X),
                   txt("+ the updates of the later layers", T.LABEL_SIZE), buff=0.15),
            inline(x_label(v[-1].state, STATE_INDEX_SIZE, T.X),
                   txt("→ output head → next-token guesses", T.LABEL_SIZE), buff=0.15),
            inline(x_label(v[l].state, STATE_INDEX_SIZE, T.X),
                   txt("→ the same output head → the lens's guesses", T.LABEL_SIZE, T.TEXT),
                   buff=0.15),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.35)
        # the states in depth order, X^(1) ... X^(L): a dot on it travels from X^(l) to
        # X^(L) as each update is added (the stream moving down the stack, not only a
        # label ticking up); the same ruler the lens's panel stands on next
        ruler = state_ruler(v, 8.0)
        card = VGroup(stream, ruler, lines).arrange(DOWN, buff=0.5)
        card.set_y(self.top - 0.3 - card.height / 2).set_x(0)
        here = Dot(ruler.dots[l].get_center(), radius=0.1, color=T.X)
        two = self.n_cues() >= 2
        mid = self.cue_at(1) if two else self.time + (until - self.time) / 2
        # sentence 1: the stream fills in, cell by cell, named X^(7) at its left; the later
        # layers' updates drop onto it one after another (layer 7, layer 8, ..., layer 29),
        # and it is X^(30); then X^(30) = X^(7) + updates is written under it
        tag = x_label(v[l].state, STATE_INDEX_SIZE, T.X).next_to(row, LEFT, buff=0.3)
        end_tag = x_label(v[-1].state, STATE_INDEX_SIZE, T.X).move_to(tag, aligned_edge=RIGHT)
        span = mid - self.time
        fill = max(0.8, min(1.2, 0.15 * span))
        # r33b (review: "0:00-0:01.5 the stage is empty while the voice has started"): the
        # stream's name and the ruler are up on the first frame, the cells fill at once
        self.add(name, ruler)
        self.play(LaggedStart(*[FadeIn(c, scale=0.5) for c in left], lag_ratio=0.5),
                  FadeIn(dots, rate_func=lambda t: max(0.0, 2 * t - 1)),
                  LaggedStart(*[FadeIn(c, scale=0.5) for c in right], lag_ratio=0.5),
                  FadeIn(tag, rate_func=lambda t: max(0.0, 2 * t - 1)),
                  FadeIn(here, scale=2, rate_func=lambda t: max(0.0, 2 * t - 1)),
                  run_time=fill, rate_func=linear)
        idx = list(range(l + 1, len(v)))
        later = [v[j].layer for j in idx]
        # r31 (review: 23 labels flashed at ~0.2 s each, none readable): the first SLOW
        # updates one by one, each label held long enough to read, then the layers between
        # fast-forwarded as ONE label whose layer number counts up (with the stream's name
        # and the ruler's dot in step), then the last update slowly again
        gap = len(later) > SLOW_UPDATES + 1
        slow = idx[:SLOW_UPDATES] if gap else idx
        fast = idx[SLOW_UPDATES:-1] if gap else []
        steps = slow + ([idx[-1]] if gap else [])
        ups = updates(row, [v[j].layer for j in steps])
        under = Line(row.get_corner(DOWN + LEFT), row.get_corner(DOWN + RIGHT),
                     stroke_color=T.TEXT, stroke_width=5).shift(0.08 * DOWN)
        budget = max(0.0, mid - self.time - 0.7)
        weight = len(steps) + (1.0 if fast else 0.0)
        per = max(1.4, min(2.2, budget / max(1.0, weight)))

        def one_update(strip, label, j: int, last: bool) -> None:
            nonlocal tag
            # an update appears over the stream, named (held: read), drops onto it, is added
            self.play(FadeIn(strip, shift=0.15 * DOWN), FadeIn(label, shift=0.15 * DOWN),
                      run_time=0.3 * per)
            self.wait(0.25 * per)
            self.play(strip.animate.move_to(row), FadeOut(label), run_time=0.25 * per)
            nxt = end_tag if last else x_label(v[j].state, STATE_INDEX_SIZE,
                                               T.X).move_to(tag, aligned_edge=RIGHT)
            self.play(FadeOut(strip), ShowPassingFlash(under.copy(), time_width=0.5),
                      FadeOut(tag, rate_func=_on_arrival), FadeIn(nxt, rate_func=_on_arrival),
                      here.animate(rate_func=lambda t: smooth(min(1.0, t / 0.85))).move_to(
                          ruler.dots[j]),
                      run_time=0.2 * per)
            tag = nxt

        for (strip, label), j in zip(ups[:len(slow)], slow):
            one_update(strip, label, j, not gap and j == idx[-1])
        if fast:
            # one label, at reading size, its layer number counting through the layers left
            # out (each value the plan's), the stream's name X^(l) and the dot counting with it
            fl = updates(row, [v[j].layer for j in fast])
            # r33b (review: "'+ layer 28 update' sits beside X(29)"): each label paired with
            # the state its layer reads (layer j reads X^(j), written by layer j-1); the sum
            # is named once the fast-forward ends
            names = [x_label(v[j - 1].state, STATE_INDEX_SIZE, T.X).move_to(
                tag, aligned_edge=RIGHT) for j in fast]
            after = x_label(v[fast[-1]].state, STATE_INDEX_SIZE, T.X).move_to(
                tag, aligned_edge=RIGHT)
            strip0, label0 = fl[0]
            shown = VGroup(label0.copy())
            # said on screen: the layers between go by fast (the voice does not name them)
            skip = txt("fast-forward", T.LABEL_SIZE, T.MUTED).next_to(strip0, RIGHT, buff=0.2)
            self.play(FadeIn(strip0, shift=0.15 * DOWN), FadeIn(shown, shift=0.15 * DOWN),
                      FadeIn(skip, shift=0.15 * DOWN), run_time=0.3)
            state = {"i": -1}
            now_tag = VGroup(tag.copy())
            self.remove(tag)
            self.add(now_tag)

            def count(m, a):
                i = min(len(fast) - 1, int(a * len(fast)))
                if i != state["i"]:
                    state["i"] = i
                    shown.become(fl[i][1])
                    now_tag.become(names[i])
                return m

            run = max(1.2, 0.9 * per)
            self.play(UpdateFromAlphaFunc(VGroup(), count),
                      here.animate(rate_func=linear).move_to(ruler.dots[fast[-1] - 1]),
                      Succession(*[ShowPassingFlash(under.copy(), time_width=0.5,
                                                    run_time=run / 4) for _ in range(4)]),
                      run_time=run, rate_func=linear)
            self.play(FadeOut(strip0), FadeOut(shown), FadeOut(skip),
                      FadeOut(now_tag, rate_func=_on_arrival),
                      FadeIn(after, rate_func=_on_arrival),
                      here.animate.move_to(ruler.dots[fast[-1]]), run_time=0.35)
            self.wait(0.15)
            tag = after
        if gap:
            strip, label = ups[-1]
            one_update(strip, label, idx[-1], True)
        end_tag = tag
        self.play(FadeIn(lines[0], shift=0.15 * UP),
                  run_time=max(0.6, min(1.0, mid - self.time - 0.2)))
        # sentence 2: the output head reads the last state, and the same head an earlier one
        self.hold_until(mid)
        per = max(0.6, (until - self.time) / 2)
        for line in lines[1:]:
            self.play(FadeIn(line, shift=0.15 * UP), run_time=min(2.0, per * 0.6))
            self.hold_until(self.time + per - min(2.0, per * 0.6) - 0.25)
        self.play(FadeOut(card, end_tag, here, shift=0.3 * UP), run_time=0.4)

    def show_pipeline(self, runner: Dot, slot: int, paced: bool = False,
                      until: float | None = None) -> None:
        """The lens as its steps, in the empty column places beside `slot`, in a U that ends
        next to the column it fills (stream → RMSNorm, down to the unembedding, ← softmax),
        and the operation seen in each: the stream dot becomes the state's row of cells; the
        final RMSNorm rescales it (÷ its own RMS, × weights: the row shrinks to one scale, in
        the norm's colour); the unembedding widens it into one score per vocabulary token
        (a far longer row of thin cells); softmax turns the scores into probabilities: the
        row flattens to a baseline from which the top tokens' bars stand, each at its token
        id's place in the vocabulary and as tall as its probability (plan values). Paced (the
        opening): each step as its sentence reaches it, spread up to `until`."""
        free = VGroup(*[f for i, f in enumerate(self.frames) if i != slot])
        model = Model.at(self.plan["model"], "model")
        steps = lens_steps(model, PIPE_TEXT)
        # the stream's box names the state read, X^(l+1) (not a bare X)
        steps[0].submobjects[0] = inline(
            txt("the stream", PIPE_TEXT, T.X),
            x_label(self.v.layers[self.last_lens].state, STATE_INDEX_SIZE, T.X), buff=0.1)
        steps[1].submobjects[1] = txt("÷ RMS, × weights", PIPE_TEXT, T.MUTED)   # r32b: unscaled (22 px)
        boxes = VGroup()
        for i, body in enumerate(steps):
            body.arrange(DOWN, buff=0.06)
            frame = RoundedRectangle(width=PIPE_BOX[0], height=PIPE_BOX[1], corner_radius=0.08,
                                     stroke_color=T.FAINT, stroke_width=1.5)
            # the lower two boxes (entered from above, then across) hold their picture on
            # top, their words under it: the row coming down from the norm and going on to
            # softmax never passes over words
            if i >= 2:
                body.next_to(frame.get_bottom(), UP, buff=0.1)
            else:
                body.next_to(frame.get_top(), DOWN, buff=0.1)
            if body.width > PIPE_BOX[0] - 0.2:
                body.scale_to_fit_width(PIPE_BOX[0] - 0.2)
            boxes.add(VGroup(frame, body))
        b = boxes
        top = VGroup(b[0], b[1]).arrange(RIGHT, buff=PIPE_GAP)
        bottom = VGroup(b[3], b[2]).arrange(RIGHT, buff=PIPE_GAP)      # softmax left: the U
        # (r36: the boxes wider for their larger words; the U moved right by as much, off
        # the lens column on its left)
        VGroup(top, bottom).arrange(DOWN, buff=PIPE_GAP).move_to(free).shift(
            RIGHT * (PIPE_BOX[0] - PIPE_BOX_WAS))
        arrow = lambda p0, p1: Arrow(p0, p1, buff=0.05, stroke_width=2, color=T.MUTED,  # noqa
                                     max_tip_length_to_length_ratio=0.25, max_stroke_width_to_length_ratio=6)
        arrows = VGroup(arrow(b[0][0].get_right(), b[1][0].get_left()),
                        arrow(b[1][0].get_bottom(), b[2][0].get_top()),
                        arrow(b[2][0].get_left(), b[3][0].get_right()))
        pipe = VGroup(boxes, arrows)

        def area(i: int):       # where a step's picture goes: beside its words, in its box
            frame, body = boxes[i]
            if i >= 2:
                return (body.get_top()[1] + frame.get_top()[1]) / 2, frame.get_center()[0]
            return (body.get_bottom()[1] + frame.get_bottom()[1]) / 2, frame.get_center()[0]

        def row(n: int, w: float, h: float, color, width: float) -> VGroup:
            cells = VGroup(*[Rectangle(width=w, height=h, stroke_color=color, stroke_width=1,
                                       fill_color=color, fill_opacity=0.3) for _ in range(n)])
            cells.arrange(RIGHT, buff=0.03)
            if cells.width > width:
                cells.stretch_to_fit_width(width)
            return cells

        inner = PIPE_BOX[0] - 0.4
        y0, x0 = area(0)
        stream = row(16, 0.11, 0.3, T.X, inner).move_to([x0, y0, 0])
        y1, x1 = area(1)
        normed = row(16, 0.11, 0.18, T.LN, inner).move_to([x1, y1, 0])
        y2, x2 = area(2)
        logits = row(64, 0.02, 0.3, T.TEXT, inner).set_stroke(width=0.6).move_to([x2, y2, 0])
        y3, x3 = area(3)
        base = Line(LEFT * inner / 2, RIGHT * inner / 2, stroke_color=T.MUTED,
                    stroke_width=1.5).move_to([x3, y3 - 0.22, 0])
        top_entries = list(self.v.layers[self.last_lens].top)[:COLUMN_ROWS]
        # best first at the row's start (sorted, as the column lists them), the rest of the
        # vocabulary flat along the baseline
        bars = VGroup(*[Rectangle(width=0.12, height=max(0.02, 0.6 * float(e.prob)),
                                  stroke_width=0, fill_color=T.TEXT, fill_opacity=0.9)
                        for e in top_entries]).arrange(RIGHT, buff=0.06, aligned_edge=DOWN)
        bars.next_to(base.get_left(), RIGHT, buff=0.05, aligned_edge=DOWN).align_to(base, DOWN)
        times = ([0.6, 0.9, 1.0, 1.0] if paced else [0.4, 0.5, 0.5, 0.5])
        self.play(LaggedStart(*[FadeInPlace(x) for x in boxes], lag_ratio=0.3),
                  FadeInPlace(arrows), run_time=self.quick(0.08, 0.7 if paced else 1.0))
        if paced:       # "take X^(7) there ...": the pipeline's sentence (or sentences)
            self.hold_until_cue(self.cue_with("Take X", max(0, self.n_cues() - 3)))
        t0 = self.time
        span = max(4.0, (until if until is not None else t0 + 6.0) - t0)
        # as the sentence names each step ("Take X^(7) there ... Push it through the final
        # RMSNorm, the unembedding and softmax"); `until` the next sentence's start (r33b)
        at = ([0.0, 0.47, 0.61, 0.74] if paced else [0.0, 0.0, 0.0, 0.0])
        push = self.cue_with("Push it", None) if paced else None
        if push is not None and until is not None:
            # r33b: each step as its word is said in "Push it through the final RMSNorm, the
            # unembedding and softmax" (the steps ran 2-3 s behind it, the lens's name late)
            tp = self.cue_at(push)
            d = max(3.0, until - tp)
            at = [0.0] + [(tp + f * d - t0) / span for f in (0.15, 0.45, 0.7)]

        def lit(i):
            return boxes[i][0].animate.set_stroke(T.TEXT, 2.5)

        def dim(i):
            return boxes[i][0].animate.set_stroke(T.FAINT, 1.5)

        # 1. the stream: the dot that ran along the ruler becomes the state's row of cells
        self.hold_until(t0 + at[0] * span)
        self.play(ReplacementTransform(runner.copy(), stream), FadeOut(runner), lit(0),
                  run_time=times[0])
        # 2. final RMSNorm: the row moves in and is rescaled, in the norm's colour
        self.hold_until(t0 + at[1] * span)
        moving = stream.copy()
        self.play(moving.animate.move_to(normed), dim(0), lit(1), run_time=0.5 * times[1])
        self.play(Transform(moving, normed), run_time=0.5 * times[1])
        # 3. unembedding: one score per vocabulary token, a far longer row
        self.hold_until(t0 + at[2] * span)
        moving2 = normed.copy()
        self.add(normed)
        self.remove(moving)
        self.play(moving2.animate.move_to([x2, y2, 0]), dim(1), lit(2), run_time=0.4 * times[2])
        self.play(ReplacementTransform(moving2, logits), run_time=0.6 * times[2])
        # 4. softmax: the scores become probabilities: nearly all flat, the top few standing
        self.hold_until(t0 + at[3] * span)
        moving3 = logits.copy()
        self.play(moving3.animate.move_to([x3, y3, 0]), dim(2), lit(3), run_time=0.4 * times[3])
        self.play(ReplacementTransform(moving3, VGroup(base, bars)), run_time=0.6 * times[3])
        self.play(dim(3), run_time=0.3)
        pipe.add(stream, normed, logits, base, bars)
        # the column comes out of softmax's left side, where the U ends
        runner.move_to(b[3][0].get_left()).set_opacity(0)
        self.pipeline = pipe
        self.adopt(self.slots["wide"], pipe)

    # --- one bar chart across the layers ------------------------------------------------
    def beat_race(self, beat) -> None:
        """The chart morphs from the layer it shows to the beat's layer: fast through the
        layers before the late window, slowly through the window (its steps share the time
        left in the beat); the answer is pointed at when it enters the top k."""
        target = beat["layer"] if beat["layer"] is not None else self.plan["layers"][-1]
        race = self.race
        if race is None or self.slots["wide"] is not self.race_panel:   # (re)open the chart
            race = self.race = LensRace(self.v, self.answer, bar_width=RACE_BAR,
                                        pitch=RACE_PITCH)
            col = self.last_column()
            if col is None:
                panel = self.race_panel = self.put(
                    "wide", race.panel(self.prompt()))
                self.play(*race.enter(0), run_time=self.quick(0.1, 1.2))
            else:       # the lens column just read becomes the chart, then it goes back to
                        # X^(1) as the voice says "from X 1"
                panel = self.race_panel = self.morph_column(race, col)
                race.step(self, 0, RACE_SLIDE)
        else:
            panel = self.slots["wide"]
            panel.remove(*race.parts())
            self.add(*race.parts())
        start, enter = self.data["window"]["start"], self.data["answer"]["enters_top"]
        steps = list(range(race.layer + 1, target + 1))
        if target < race.layer:      # an arrangement that goes back up the stack: one move
            race.step(self, target, self.quick(0.1, 1.5))
        fast = [l for l in steps if l < start]
        slow = [l for l in steps if l >= start]
        if slow and len(fast) > 1:
            # r35 (review: "X21-X23 re-sort fast"): before the window the chart jumps, as the
            # run's stops did, straight to the state the window starts from; the states in
            # the window are stepped through one by one
            fast = fast[-1:]
        cues = self.beat.get("cues") or []
        if fast:
            if not slow and len(cues) >= 3:
                # the chart is read on its first state while the voice explains it: the bar
                # slides to the next state as the sentence says it does, then Paris's own row
                # is pointed at, and the run starts with the sentence that names it
                # X^(1) held while "Each token keeps its bar" is said; the step plays on
                # "which slides as it moves" (a third into the sentence), slowly
                # r32b: "... moves to X 2" (the step lands as the state is named); "Paris has
                # its own row" (pointed at); "and its rank on a log scale at the right" (the
                # gauge boxed)
                span = self.cue_at(2) - self.cue_at(1)
                self.hold_until(self.cue_at(1) + 0.2 * span)
                race.step(self, fast.pop(0), RACE_SAID)
                self.hold_until(self.cue_at(1) + 0.5 * span)
                self.point_at(race.extra[0][0] if len(race.extra[0]) > 1 else race.extra[0])
                if getattr(race, "spark", None) is not None:
                    self.hold_until(self.cue_at(1) + 0.72 * span)
                    self.emphasize(race.spark, run_time=max(1.0, self.cue_at(2) - self.time - 0.2))
                self.hold_until_cue(self.cue_with("jumps ahead", len(cues) - 2))
            # a long run steps by RACE_STRIDE states (ending on the beat's own), each held
            # so its numbers can be read
            if len(fast) > RACE_THIN:      # the plan's stride (the voice says it)
                stride = RACE_STRIDE   # few enough states that each can be read (the
                # voice names no stride; the timeline's dot jumps)
                fast = list(range(fast[-1], fast[0] - 1, -stride))[::-1]
            # the run ends where the next sentence starts: the window's first (slow) states,
            # else the beat's last sentence
            until = (self.cue_at(1) if slow and len(cues) >= 2 else
                     self.beat_start + float(cues[-1]["start"]) if cues else
                     self.beat_start + self.beat_end(beat) - RACE_TAIL - 1.0)
            # each stop on a sentence of its own ("At X 8 the top guess is a space, at
            # 0.43"): the chart lands as the voice names the state, then holds while the
            # sentence reads it (no stop named after it has gone)
            jump = self.cue_with("jumps ahead", None)
            synced = (not slow and jump is not None
                      and len(cues) >= jump + 1 + len(fast) + 1)
            per = max(RACE_FAST[0], min(RACE_FAST[1], (until - self.time) / max(1, len(fast))))
            for i, l in enumerate(fast):
                if synced:
                    self.hold_until(self.cue_at(jump + 1 + i) - 0.3)
                    race.step(self, l, RACE_MOVE)
                    continue
                move = min(RACE_MOVE, 0.75 * per)     # each state held a moment, read
                race.step(self, l, move)
                self.hold_until(self.time + per - move)
            if synced:      # the last stop's leader boxed while its sentence names it, then
                # Paris's row as the closing sentence says where it stayed
                stop_end = self.cue_at(jump + len(fast) + 1)
                self.emphasize(race.rows[self.layers[race.layer]["top"][0]["id"]],
                               run_time=max(1.0, stop_end - self.time - 0.3))
                self.hold_until(stop_end)
                self.adopt(panel, *race.parts())
                end = self.beat_start + self.beat_end(beat)
                self.emphasize(answer_focus(race), run_time=max(1.0, min(4.0, end - self.time - 0.3)))
                return
        if slow and cues:
            # the window's states, each as the voice names it: shared out over the sentences
            # left (after the one the fast run took), in order, each sentence's states spread
            # over its length, the first as it starts
            first = 1 if fast and len(cues) >= 2 else 0
            groups = len(cues) - first
            size = -(-len(slow) // groups)
            for g in range(groups):
                part = slow[g * size:(g + 1) * size]
                t0, t1 = self.cue_at(first + g), self.cue_at(first + g + 1)
                for j, l in enumerate(part):
                    self.hold_until(t0 + (t1 - t0) * j / len(part))
                    race.step(self, l, min(RACE_SLIDE, 0.8 * (t1 - t0) / len(part)))
                    if l == enter:
                        self.point_at(race.rows[self.data["answer"]["id"]])
        elif slow:
            left = self.beat_start + self.beat_end(beat) - self.time - RACE_TAIL
            if enter in slow:       # r32: the pointer's flick is time too (silent plans ran
                left -= POINT_TIME  # 0.7 s past the beat)
            per = max(RACE_SLOW[0], min(RACE_SLOW[1], left / len(slow)))
            for l in slow:
                move = min(RACE_SLIDE, per)
                race.step(self, l, move)
                self.hold_until(self.time + per - move)
                if l == enter:
                    self.point_at(race.rows[self.data["answer"]["id"]])
        self.adopt(panel, *race.parts())
        top = self.layers[race.layer]["top"]      # what the chart shows now
        end = self.beat_start + self.beat_end(beat)
        if target == len(self.layers) - 1:     # the output: the winner, then the runner-up
            # Paris circled slowly while its share is said, then the runner-up
            self.emphasize(race.rows[top[0]["id"]],   # Paris
                           run_time=max(1.0, 0.55 * (end - self.time) - 0.3))
            # (boxed, not pointed at: an arrow to its number would cross its name and bar)
            self.emphasize(race.rows[top[1]["id"]],
                           run_time=max(1.0, min(2.5, end - self.time - 0.5)))
            return
        if not slow:            # the leader, then the answer still far down, as the beat ends
            self.hold_until_cue(len(self.beat.get("cues") or []) - 1)
            self.emphasize(race.rows[top[0]["id"]],   # "almost sure of a bare space"
                           run_time=max(1.0, min(4.0, 0.85 * (end - self.time))))
            return
        self.emphasize(answer_focus(race), run_time=max(1.0, min(4.0, 0.8 * (end - self.time))))

    def last_column(self) -> VGroup | None:
        """The lens column drawn last, while the lens panel is on screen (else None)."""
        if self.slots["wide"] is None or self.slots["wide"] is not self.lens_panel_mob:
            return None
        if not self.lens_count or not self.columns:
            return None
        return self.columns[(self.lens_count - 1) % self.n_columns]

    def morph_column(self, race: LensRace, col: VGroup) -> VGroup:
        """The chart opens on the column's own state: each of the column's bars moves to its
        token's row, its box widens into the chart's frame (then fades), its head becomes the
        counter, its rank the answer's row, its ruler mark the chart's cursor; the rest of the
        lens panel fades out as the chart's fixed parts fade in."""
        l = self.last_lens
        lens_panel = self.slots["wide"]
        new = self.place(race.panel(self.prompt()), "wide")
        race.enter(l)
        self.detach(lens_panel, col)
        box, (head, bars, rank, prob), link, mark = col[0], col[1], col[2], col[3]
        rows = list(race.rows.values())
        # the frame the box widens into holds the rows' names too (never cuts through them)
        held = VGroup(race.chart, *[r.name for r in rows])
        frame = Rectangle(width=held.width + 0.3, height=held.height + 0.3,
                          stroke_color=box.get_stroke_color(), stroke_width=2
                          ).move_to(held)
        # each row's name and number move to their places whole (never a glyph morph), its
        # bar slides and stretches to its chart bar, its track goes
        moved = [a for (name, track, bar, num), r in zip(bars.rows, rows)
                 for a in (carry(name, r.name), ReplacementTransform(bar, r.bar),
                           carry(num, r.num), FadeOut(track))]
        # the rows the column had no room for: their bars grow, their names and numbers fade
        # in at full size (r31: the whole row grew from its edge, its text 1-7 px mid-play)
        grown = [a for r in rows[len(bars.rows):]
                 for a in (GrowFromEdge(r.bar, LEFT),
                           *[FadeIn(m) for m in r.submobjects if m is not r.bar])]
        answer, counter, dot = race.extra
        # the head's X^(l) moves to the counter (its words fade); Paris's name, rank and
        # probability move whole to the answer's row, whose bar grows from its start
        if len(answer) == 2:        # (its probability is not on its row: r35, the row's
            # track is its rank scale, which comes with the chart's fixed parts)
            said = [carry(rank[0], answer[0].name), carry(VGroup(*rank[1:]), answer[1]),
                    FadeOut(prob, rate_func=_gone_soon)]
        else:
            said = fade_swap(VGroup(rank, prob), answer)
        # the prompt line and the depth ruler move to their places in the chart's panel; the
        # rest of the lens panel leaves before the chart's header comes (never both at once)
        (prompt, head_line, body, ruler), name = new[0], new[1]
        old_prompt, old_ruler = lens_panel[0], lens_panel[3]
        self.detach(lens_panel, old_prompt, old_ruler)
        # first the stage is cleared (the lens's steps, the guide, the other columns), then
        # the column alone becomes the chart: never two layouts drawn over each other
        self.play(FadeOutPlace(lens_panel), run_time=self.quick(0.04, 0.5))
        # the box stretches to the frame (its own outline, never re-drawn point by point:
        # a rectangle morphing into another went wavy mid-move)
        self.play(box.animate.stretch_to_fit_width(frame.width).stretch_to_fit_height(
                      frame.height).move_to(frame), *moved,
                  FadeOut(head[0], rate_func=_gone_soon),
                  ReplacementTransform(head[1], counter, path_func=_across_down)
                  if _shape(head[1]) == _shape(counter) else carry(head[1], counter), *said,
                  ReplacementTransform(mark, dot), FadeOut(link),
                  ReplacementTransform(old_prompt, prompt), ReplacementTransform(old_ruler, ruler),
                  run_time=self.quick(0.1, 1.6))
        still = VGroup(head_line, body, name).set_z_index(-1)     # under the bars as it fades in
        self.play(*grown, FadeOut(box), FadeInPlace(still), FadeIn(race.spark),
                  run_time=self.quick(0.05, 0.8))
        still.set_z_index(0)
        self.remove(*[m for part in (prompt, ruler, head_line, body, name, *rows, answer,
                                     counter) for m in part.get_family()])
        self.add(new, *rows, answer, counter, race.spark)
        self.bring_to_back(new)
        self.slots["wide"], self.columns = new, []
        return new

    # --- the grid -----------------------------------------------------------------------
    def beat_grid(self, beat) -> None:
        """Layers down, positions across, the lens's top-1 token in every cell, rows arriving
        top to bottom; the cells that already match the output flash, the last row is ringed."""
        grid = lens_grid(self.v.grid, int(self.v.prompt.focus_pos))
        head, (name, heads, labels, cells), key_row = grid
        had_right = self.slots["right"] is not None
        self.place(grid, "left")                  # fixes every piece's place
        frame = self.put("left", VGroup(head, name, heads, key_row), placed=True)
        if not had_right:                 # an empty right slot gets the reading guide
            self.put("right", grid_guide(self.v.grid, width=COL_WIDTH))
        # the rows arrive top to bottom, layer by layer, as the narration walks down the stack
        per = self.quick(0.45, 11.0) / len(labels)
        for i in range(len(labels)):
            self.play(FadeInPlace(labels[i]), FadeInPlace(VGroup(*cells.cells[i])),
                      run_time=max(per, 1.0 / config.frame_rate))
        self.adopt(frame, labels, cells)
        # "yellow marks a guess that already matches": those cells light up, top to bottom;
        # then the last row (the model's output) is circled
        self.hold_until_cue(len(self.beat.get("cues") or []) - 1)
        flashes = final_outlines(self.v.grid, cells)
        self.play(LaggedStart(*[ShowPassingFlash(f, time_width=0.6) for f in flashes],
                              lag_ratio=0.08), run_time=self.quick(0.25, 6.0))
        self.hold_until(self.beat_start + self.beat_end(beat) - 2.0)
        self.emphasize(VGroup(labels[-1], *cells.cells[-1]))

    # --- the rank plot ------------------------------------------------------------------
    def beat_rank(self, beat) -> None:
        """First showing: the answer's rank (log scale) and probability after every layer,
        drawn layer by layer. Next showing: the late layers split into attention and FFN adds,
        with the credit table."""
        if self.rank_stage == 0:
            self.draw_rank()
        else:
            self.draw_credit()
        self.rank_stage += 1

    def rank_side(self) -> str:
        """The rank plot's slot: right, beside the grid or the credit table that the left slot
        holds or will hold; the middle (the wide slot) when neither comes, so that half the
        frame is not left empty (a draft for a sentence too long for the grid has neither)."""
        later = self.plan["beats"][self.beat_index + 1:]
        beside = self.slots["left"] is not None or any(
            "grid" in b["show"] or "rank" in b["show"] for b in later)
        return "right" if beside else "wide"

    def draw_rank(self) -> None:
        d = self.data
        lays = self.layers
        L = len(lays)
        ticks = [self.v.layers[l].layer for l in sorted({0, *range(4, L, 5)})]
        side = self.rank_side()
        sizes = WIDE_RANK if side == "wide" else {}      # alone on the frame: use its width
        title = f"rank of {self.answer} after \"{self.word}\" (log scale, 1 = top)"
        rp = RankPlots(self.v, 0, ticks, title, self.answer, **sizes)
        labels = rp.prob_ax.x_labels     # the states X^(l+1), not the layers, under the axis
        for i, l in enumerate(sorted({0, *range(4, L, 5)})):
            labels.submobjects[i] = Num(self.v.layers[l].state, decimals=0, size=T.LABEL_SIZE,
                                        color=T.MUTED).move_to(labels[i])
        # the rank and probability axes' numbers at the label size (the shared plot draws
        # them at the tiny size, ~10 px at 854x480), each kept at the axis's side
        for ys in (rp.rank_ax.y_labels, rp.prob_ax.y_labels):
            for lab in ys:
                right = lab.get_right()
                lab.scale(T.LABEL_SIZE / T.TINY_SIZE).move_to(right, aligned_edge=RIGHT)
        # the two plots' titles at the label size too (the small size read ~11 px)
        for i, words in ((0, title), (2, f"probability of {self.answer}")):
            head = rp.group[i]
            big = txt(words, T.LABEL_SIZE, head.get_color())
            big.move_to(head, aligned_edge=DOWN + LEFT)
            rp.group.submobjects[i] = big
        rp.group.submobjects[4] = inline(txt("the lens reads", T.LABEL_SIZE, T.TEXT),
                                         x_label("l", STATE_INDEX_SIZE, T.TEXT), buff=0.12
                                         ).move_to(rp.group[4]).shift(DOWN * 0.08)
        race_row = None
        if self.race is not None and self.slots["wide"] is self.race_panel:
            # Paris's row of the chart is the line's start: it moves there, it is not faded
            race_row = self.race.rows.get(self.data["answer"]["id"])
            if race_row is not None:
                # the bar stays (it shrinks to the line's dot); its number leaves with the
                # chart (a text squashed into a dot would not read)
                bar = race_row.bar if hasattr(race_row, "bar") else race_row
                # its name stays too: it moves over the dot as the dot's tag (a second
                # "Paris" fading in over the leaving one read as two labels)
                name = getattr(race_row, "name", None)
                self.detach(self.race_panel, race_row)
                rest = [m for m in race_row.submobjects if m is not bar and m is not name]
                race_row.remove(*rest)
                self.race_panel.add(*rest)
        self.place(rp.group, side)       # placed first: the bar's point is known before it
        point = None
        if race_row is not None:
            # the stage is cleared first: the chart leaves while Paris's bar shrinks to a dot
            # where it starts (it never floats over the new axes as a block); the axes come
            # alone, then the dot moves to the rank line's first point (never two layouts
            # drawn over each other)
            # Paris was just at rank 1, at X^(L): its dot goes there (the line is then drawn
            # from X^(1) up to it)
            last_state = self.v.layers[-1]
            point = Dot(rp.rp(float(last_state.layer), float(last_state.height)),
                        radius=0.05, color=T.HIGHLIGHT)
            # the bar a scene entry of its own: what replaces it (the point at X^(L)) must not
            # end up inside the row taken off below
            self.remove(race_row)
            race_row.remove(bar)
            self.add(bar)
            if name is not None:
                race_row.remove(name)
                self.add(name)
            gone = [m for m in self.slots.values() if m is not None]
            # the chart leaves around the bar (it stays where it was), then the new axes come
            # as the bar shrinks and moves to its point on them: never a lone dot on an
            # empty stage, never two layouts drawn over each other
            # the bar shrinks in place to a dot with its name (a marker, never a dash in
            # flight), the chart leaving round it; the axes come, then the named dot moves
            # to its point at X^(L)
            dot0 = Dot(bar.get_left() + RIGHT * 0.08, radius=0.07, color=T.HIGHLIGHT)
            tag = txt(str(self.answer), T.LABEL_SIZE, T.HIGHLIGHT, mono=True)
            stick = lambda m: m.next_to(dot0, UP, buff=0.08)
            stick(tag)
            self.play(*[FadeOutPlace(m) for m in gone], ReplacementTransform(bar, dot0),
                      ReplacementTransform(name, tag) if name is not None else FadeIn(tag),
                      run_time=self.quick(0.1, 0.7))
            self.slots.update({k: None for k in self.slots})
            # the axes come as the dot flies to its point: it is never shown still at a
            # place of the new axes that is not its value
            tag.add_updater(stick)
            self.play(FadeInPlace(rp.group),
                      dot0.animate.move_to(point.get_center()).set(width=point.width),
                      run_time=self.quick(0.08, 1.0))
            tag.clear_updaters()
            self.remove(dot0)
            self.add(point)
            self.slots[side] = plots = rp.group
        else:
            plots = self.put(side, rp.group, placed=True)
        if side == "wide":
            self.columns = []
        paris = lambda layers: rp.curve(layers).set_color(T.HIGHLIGHT)   # Paris keeps its colour
        w = d["window"]
        start = w["start"]
        # the late window shaded over both plots and named under them, the same span as on
        # the prompts' plots: the states its layers write, X^(start+1) .. X^(L) (r36: from
        # X^(start) it was read as covering the state before the window)
        a = rp.pp(start - WINDOW_PAD, 0)
        b = rp.rp(L - 1 + WINDOW_PAD, rp.rank_top + 0.15)
        split = Rectangle(width=b[0] - a[0], height=b[1] - a[1], stroke_width=0,
                          fill_color=T.TEXT, fill_opacity=0.08).move_to((a + b) / 2)
        # named inside the band, at the foot of the rank axes (Paris is far above it there),
        # right-aligned: under the axis it sat on the axis's own title and its "30"
        win = window_name(self.v).align_to(split, RIGHT).shift(LEFT * 0.08)
        win.set_y(rp.rp(L - 1, 0)[1] + 0.08 + win.height / 2)
        # drawn layer by layer (both plots in step), a dot per layer as the line reaches it:
        # the flat stretch while the voice says it wanders, the climb on its own sentence (cue 2)
        # the climb's sentence ("over the last 7 layers"): cue 2, or later when the caveat
        # about the early ranks has a sentence of its own
        climb = self.cue_with("Over the last", 2)
        paced = start > 1 and self.n_cues() > climb
        parts = ([paris(self.v.layers[:start]), paris(self.v.layers[start - 1:])]
                 if paced else [paris(self.v.layers)])
        before, last = self.v.layers[start - 1], self.v.layers[-1]
        notes = VGroup(
            Num(before.rank, decimals=0, size=T.LABEL_SIZE, color=T.TEXT)
            .next_to(rp.rp(start - 1, float(before.height)), UP + LEFT, buff=0.06),
            Num(last.rank, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT)
            .next_to(rp.rp(int(last.layer), float(last.height)), RIGHT, buff=0.08),
            Num(last.prob, decimals=T.DECIMALS, size=T.LABEL_SIZE, color=T.HIGHLIGHT)
            .next_to(rp.pp(int(last.layer), float(last.prob)), LEFT, buff=0.12))
        if race_row is not None:
            self.remove(race_row)
        early_note = False
        for k, part in enumerate(parts):
            if paced and k == 1:       # "over the last 7 layers": shaded, then the climb
                self.hold_until_cue(climb)
                # r31: "... climbs from rank 2,079 at X^(23)": its number comes as it is said
                # (it appeared unsaid at the end of the climb)
                early_note = True
                self.play(sweep_in(split), FadeIn(win), FadeIn(notes[0], shift=0.1 * UP),
                          run_time=0.6)
            n_pts = len(part[1]) // 2
            dots = list(part[1])
            shown = range(1 if k else 0, n_pts)        # the climb's first point is already drawn
            run = (max(1.0, self.cue_at(climb) - self.time - 0.3) if paced and k == 0 else
                   max(1.0, min(4.0, 0.8 * (self.cue_at(climb + 1) - self.time))) if paced else
                   self.quick(0.4, 9.0))
            # both lines in lockstep, state by state (Create's default lag drew the rank
            # line first and the probability line after it)
            self.play(Create(part[0], rate_func=linear, lag_ratio=0.0),
                      LaggedStart(*[FadeIn(VGroup(dots[i], dots[n_pts + i])) for i in shown],
                                  lag_ratio=1.0, rate_func=linear),
                      run_time=run)
        curve = VGroup(*parts)
        if point is not None:       # the line has reached Paris's dot: the line's own dot now
            self.remove(point)
        # the whole rank line, one piece over the drawn ones: the prompts beat moves it on
        self.rank_line = paris(self.v.layers)[0][0]
        if start == 0:                    # no flat stretch to mark off
            notes.remove(notes[0])
            split, win = VGroup(), VGroup()
        late = [] if paced or start == 0 else [sweep_in(split), FadeIn(win)]
        named = [FadeOut(tag)] if race_row is not None else []    # the "1" names it now
        self.play(FadeInPlace(VGroup(*notes[1:]) if early_note else notes), *late, *named,
                  run_time=self.quick())
        self.adopt(plots, split, win, curve, notes)
        self.add(self.rank_line)
        self.hold_until_cue(climb)
        # "... it climbs to rank 1": the 1 circled
        # "... it climbs to rank 1, and its probability, in the lower chart, ends at 0.77":
        # the 1 circled, then the 0.77
        left = self.cue_at(self.n_cues()) - self.time - 0.2
        self.emphasize(notes[-2], run_time=max(1.0, min(2.5, 0.45 * left)))
        self.emphasize(notes[-1], run_time=max(1.0, min(2.5, self.cue_at(self.n_cues())
                                                         - self.time - 0.2)))
        if self.n_cues() < climb + 2 or L < 3:
            return
        # "its probability is 0.011 at X^(28), 0.070 at X^(29) and 0.773 at X^(30)": each point
        # circled with its number, as it is said
        self.hold_until_cue(climb + 1)
        parts = []
        for lay in self.v.layers[-3:]:
            parts.append(inline(x_label(lay.state, T.MATH_SIZE, T.MUTED),
                                Num(lay.prob, decimals=3, size=T.SMALL_SIZE, color=T.HIGHLIGHT),
                                buff=0.1))
        said = VGroup(*parts).arrange(RIGHT, buff=0.45)
        said.next_to(rp.pp(5, 1.0), DOWN + RIGHT, buff=0.05)
        per = self.pace(self.cue_at(climb + 2), 3, 0.8, cap=1.2)
        for part, lay in zip(said, self.v.layers[-3:]):
            self.emphasize(Dot(rp.pp(int(lay.layer), float(lay.prob)), radius=0.06),
                           extra=[FadeInPlace(part)], run_time=per)
        self.adopt(plots, said)

    # --- sublayer credit ----------------------------------------------------------------
    def draw_credit(self) -> None:
        """The late layers close up, each split into its attention and FFN add, and the table."""
        lays = self.v.layers
        first = self.credit["rows"][0]["layer"] - 1
        ticks = [lays[l].layer for l in range(first, len(lays))]
        rp = RankPlots(self.v, first, ticks, f"rank of {self.answer}, late layers close up "
                                                "(log scale, 1 = top)", self.answer)
        group = self.place(credit_table(self.v.credit, self.answer, width=COL_WIDTH), "left")
        head, table, notes = group
        rows = credit_rows(table)
        frame = self.put("left", VGroup(head, *rows[0]), placed=True)   # title, header row
        plots = self.put("right", rp.group)
        curve = rp.curve(lays[first:], width=2, opacity=0.5)
        key = VGroup(legend_item(T.ATTN, "read after the attention add", T.TINY_SIZE, line=True),
                     legend_item(T.FFN, "read after the FFN add", T.TINY_SIZE, line=True))
        key.arrange(DOWN, aligned_edge=LEFT, buff=0.06)
        key.next_to(rp.rp(first - 0.5, rp.rank_top), DOWN + RIGHT, buff=0.12)
        self.play(FadeInPlace(curve), FadeInPlace(key), run_time=self.quick(0.06, 0.6))
        # layer by layer: its attention add, then its FFN add, and its row of the table
        segs, mids = VGroup(), VGroup()
        per = self.quick(0.45, 16.0) / len(self.credit["rows"])
        for k, row in enumerate(self.credit["rows"]):
            l = row["layer"]
            attn, ffn, mid = rp.adds(lays[l - 1], lays[l])
            line = rows[k + 1]
            self.play(FadeInPlace(line[:3]), Create(attn), run_time=per / 2)
            self.play(FadeInPlace(line[3:]), Create(ffn), FadeIn(mid), run_time=per / 2)
            segs.add(attn, ffn)
            mids.add(mid)
            self.adopt(frame, line)
        self.adopt(plots, curve, segs, mids, key)
        for i, note in enumerate(notes):     # the three summaries, each as it is spoken
            self.hold_until_cue(i + 1)
            self.play(FadeInPlace(note), run_time=self.quick(0.05, 0.5))
            self.adopt(frame, note)
