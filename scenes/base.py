"""The scene every template extends: title, footer, one section and one subtitle per beat.

A template implements `beat_<name>` handlers, called for each name in a beat's `show` list
(or, when the plan gives `steps: [{"show", "at"}]`, at `at` seconds into the beat), and
`layout()` to build its persistent pieces.

The scene kit (one for every template):
- `self.put(slot, m)`, `self.drop(*slots)`, `self.swap(slot, m)`, `self.shown[slot]`: named
  places on screen; putting into a full slot cross-fades (in place, no copies).
- `self.layer`: the beat's layer (beat `layer`, else the storyboard's first layer).
- `self.v = Data.at(self.plan)` (the template's typed view, `view.py`), then
  `Num(self.v.layers[3].x_norm, decimals=2)`: a `Num` whose value brings its plan path (no plan
  path is typed as a string in a scene; tests/test_no_plan_paths.py).
- `self.point_at(m)` / `self.emphasize(m)`: short pointer / circumscribe for what is named.
- `self.hold_until_cue(i)`: wait until the beat's narration cue i starts;
  `self.hold_until_moment("dip")` until the storyboard's moment `dip` is spoken (`said(name)`
  the time; the template registry declares the names, the storyboard's `moments:` says where,
  the plan times them), `self.pace(t, n, default)` the run time of n steps spread until then.
  A handler never types the words it waits for: an edited narration would silently stop
  matching them, where a moment that is no longer said fails the plan.
- `self.fill_to(t, [(weight, fn(run_time)), ...])`: spread animations over the time left
  until `t` (`self.cue_at(i)`, default `self.next_reveal()`), so the picture moves while the
  voice speaks.
- The camera moves (`self.camera.frame.animate...`); title, caption and footer stay on screen.

Example::

    class Demo(StoryboardScene):
        def beat_x(self, beat):
            self.put("x", Num(self.v.layers[self.layer].x_norm, decimals=2))
            self.emphasize(self.shown["x"])
 The base class owns timing: a beat lasts at
least its planned duration (the animations take what they need, the rest is a wait), its
narration becomes a subtitle cue over exactly that beat, and, when frames are requested, the
beat's last frame is written as PNG plus a JSON of what is on screen.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from manim import (DOWN, ORIGIN, RIGHT, UP, Mobject, MovingCameraScene, Text,
                   VGroup, VMobject, config)

from layerwise_render.camera import KitCamera
from layerwise_render.manim_patches import frames_without_copies, skip_animations

from . import legibility
from . import theme as T
from .animations import FadeInPlace, FadeOutPlace
from .mobjects import Num, txt, wrapped
from .mobjects.numbers import resolve


class StoryboardScene(MovingCameraScene):
    """A template's scene, made for one plan: `Scene(plan, start=, until=, split=,
    frames_dir=, midplay=, on_beat=)`; everything it renders arrives here, nothing through the
    environment.

    - `until`: stop after this beat (previews of one beat, tests).
    - `start`: draw from this beat on: the beats before it are built (every play runs to its
      end state, scene time advances by the frames a render would have drawn) but not drawn,
      so one beat renders in its own process from the same state as in a whole render. Its
      sound is timed from that beat's start (`origin`: the beat's video has its own audio
      track); its subtitles keep the scene's time, the very floats a whole render writes.
    - `split`: a run of beats rendered in one process (with `start`/`until`): each drawn beat
      keeps its own sound (timed from its start, as a one-beat render times it) and its own
      subtitles, in `beat_parts[beat id]`, so the run gives the very beats one-beat renders
      give.
    - `frames_dir`: write each beat's last frame (PNG) and what is on screen (JSON) under
      `frames_dir/<storyboard name>/` (previews, snapshot tests).
    - `midplay`: with `frames_dir`, in a preview, also the text sizes in the middle of every
      play (`midplay_texts`; scripts/legibility_report.py, scripts/pacing_report.py).
    - `on_beat(i)`: called as beat i opens (a beat run names the beat a failure was in).
    """

    origin = 0.0
    _skipping = False

    def __init__(self, plan: dict, *args, start: str | None = None, until: str | None = None,
                 split: bool = False, frames_dir: Path | None = None, midplay: bool = False,
                 on_beat=None, **kwargs):
        kwargs.setdefault("camera_class", KitCamera)
        self.plan, self.start, self.until, self.split = plan, start, until, split
        self.frames_dir = Path(frames_dir) / plan["storyboard"]["name"] if frames_dir else None
        self.midplay, self._midplay = midplay, []
        self.on_beat = on_beat
        super().__init__(*args, **kwargs)

    # --- lifecycle ------------------------------------------------------------------------
    def setup(self) -> None:
        self.camera.background_color = T.BACKGROUND
        # each frame goes to the encoder (or becomes a play's static image) as drawn, not as
        # a copy: the camera draws the next one into a new array (`drawing.take_frame`)
        frames_without_copies(self.renderer, self.camera)
        self.data = self.plan["data"]
        self.beat_index = self.step_index = 0
        self.caption: Mobject | None = None
        self._pinned: list[Mobject] = []        # title, caption, footer (see `pin`)
        self.shown: dict[str, Mobject] = {}
        self.beat: dict = {}
        self.beat_start = 0.0
        self.beat_parts: dict[str, dict] = {}
        if self.frames_dir:
            self.frames_dir.mkdir(parents=True, exist_ok=True)

    def construct(self) -> None:
        if self.start is not None:
            if self.start not in [b["id"] for b in self.plan["beats"]]:
                raise ValueError(f"no beat {self.start!r} to start from")
            self._skip(True)
        self.add_chrome()
        self.layout()
        for i, beat in enumerate(self.plan["beats"]):
            self.beat_index, self.beat = i, beat
            if self._skipping and beat["id"] == self.start:
                self._skip(False)
                self.origin = self.time
            elif self.split and not self._skipping:
                self.origin = self.time
            if self.on_beat:
                self.on_beat(i)
            self.open_section(beat)
            if self.split and not self._skipping:
                self._open_beat_sound()
            start = self.time
            self.beat_start = start
            cues = beat.get("cues") or []
            self.cue_shift = [0.0] * len(cues)
            if beat.get("audio"):
                self.add_sound(beat["audio"])
            self.update_footer(beat)
            self.set_caption("" if self.burned is not None else beat.get("caption") or "")
            for self.step_index, step in enumerate(self.steps(beat)):
                if step.get("at") is not None:
                    self.wait_for_reveal(float(step["at"]))
                getattr(self, f"beat_{step['show']}")(beat)
            self.hold_until(start + self.beat_end(beat))
            for i, cue in enumerate(cues):          # sound and subtitle at the cue's real time
                at = start + cue["start"] + self.cue_shift[i] - self.time
                if cue.get("audio") and not beat.get("audio"):
                    self.add_sound(cue["audio"], time_offset=at)
                self.add_subcaption(cue["text"], duration=cue["duration"], offset=at)
            if not cues and beat["narration"]:
                self.add_subcaption(beat["narration"], duration=self.time - start,
                                    offset=start - self.time)
            if self.split and not self._skipping:
                self._close_beat_sound(beat)
            self.capture(beat)
            if beat["id"] == self.until:
                break

    def open_section(self, beat: dict) -> None:
        """Each beat is one Manim section (the slides scene makes it one slide as well); a
        beat before the one a beat-parallel render starts at is skipped."""
        self.next_section(beat["id"], skip_animations=self._skipping)

    def layout(self) -> None:
        """Build the template's persistent pieces (override)."""

    # --- starting at a beat (see `start`) ---------------------------------------------------
    def _skip(self, on: bool) -> None:
        """Skip (or stop skipping) animations. While skipping, Manim still draws the static
        background and a frame for every skipped play (and throws them away); drawing
        nothing then is safe, since every drawn play starts by drawing its own background."""
        self._skipping = on
        skip_animations(self.renderer, on)
        if on:
            self.renderer.update_frame = lambda *args, **kwargs: None
        else:
            self.renderer.__dict__.pop("update_frame", None)

    def _open_beat_sound(self) -> None:
        """A beat of a run starts with no sound and no subtitles of its own yet."""
        writer = self.renderer.file_writer
        writer.includes_sound, writer.audio_segment = False, None
        self._subs_from = len(writer.subcaptions)

    def _close_beat_sound(self, beat: dict) -> None:
        writer = self.renderer.file_writer
        self.beat_parts[beat["id"]] = {
            "sound": writer.audio_segment if writer.includes_sound else None,
            "subcaptions": list(writer.subcaptions[self._subs_from:])}

    def _advance_as_drawn(self, t0: float) -> None:
        """After a skipped play, set scene time to what drawing it would have given: Manim
        adds the exact run time when it skips, but one frame at a time (or int(d / dt)
        frames for a still wait) when it draws, and later waits are counted in frames."""
        dt = 1 / self.camera.frame_rate
        if self.is_current_animation_frozen_frame():
            t = t0 + int(self.duration / dt) * dt
        else:
            t = t0
            for _ in range(len(np.arange(0, self.duration, 1 / config["frame_rate"]))):
                t += dt
        self.renderer.time = t

    def add_sound(self, sound_file, time_offset: float = 0, gain=None, **kwargs) -> None:
        if not self._skipping:
            # where the sound starts in this video (in a beat of a run, from the beat's own
            # start): a cue at the beat's start is 0 there only up to float rounding (start +
            # 0 - now - origin + now), and Manim refuses a time below 0 (-3.6e-15 stopped
            # logit_lens's second beat in a run); a later time is passed as it is
            at = self.time + time_offset - self.origin
            if -1e-6 < at < 0:
                at = 0.0
            super().add_sound(sound_file, at - self.time, gain, **kwargs)

    def add_subcaption(self, content: str, duration: float = 1, offset: float = 0) -> None:
        if not self._skipping:
            super().add_subcaption(content, duration, offset)

    @staticmethod
    def steps(beat: dict) -> list[dict]:
        """The beat's handlers in order: `steps` from the plan, else its `show` list."""
        if beat.get("steps"):
            return list(beat["steps"])
        return [{"show": name, "at": None} for name in beat["show"]]

    def hold_until_cue(self, i: int) -> None:
        """Wait until narration cue `i` of this beat starts (no-op without cues)."""
        cues = self.beat.get("cues") or []
        if 0 <= i < len(cues):
            self.hold_until(self.beat_start + float(cues[i]["start"]) + self.cue_shift[i])

    def said(self, name: str) -> float:
        """Scene time when the beat's moment `name` is spoken: the time the plan gave it
        (`moments`: its cue and seconds after that cue's start, plus any delay a late reveal
        put on that cue); now when the plan has no cues (silent: no wait)."""
        moments = self.beat.get("moments") or {}
        if name not in moments:
            raise KeyError(f"beat {self.beat['id']!r} has no moment {name!r} in its plan "
                           f"(it has: {', '.join(sorted(moments)) or 'none'}); declare it in "
                           f"the template's spec.py (layerwise_templates/<name>/) and plan the "
                           f"storyboard again")
        if not self.beat.get("cues"):
            return self.time
        m = moments[name]
        return self.cue_at(int(m["cue"])) + float(m["after"])

    def hold_until_moment(self, name: str) -> None:
        """Wait until the beat's moment `name` is spoken (no-op without cues)."""
        self.hold_until(self.said(name))

    def pace(self, t: float, n: int, default: float, cap: float = 1.2) -> float:
        """Run time of each of `n` steps spread over the time left until scene time `t`
        (`default` when the plan has no cues, e.g. silent)."""
        if not self.beat.get("cues"):
            return default
        return max(0.15, min(cap, 0.9 * (t - self.time) / max(1, n)))

    def beat_end(self, beat: dict) -> float:
        """Seconds from the beat's start to its end: its planned duration, or longer when a
        late reveal delayed its last sentence (then that sentence's end plus the voice's pad),
        never the whole delay on top of a duration that already had room for it."""
        cues = beat.get("cues") or []
        if not cues:
            return float(beat["duration"])
        last = cues[-1]
        pad = float((self.plan.get("voice") or {}).get("pad", 0.5))
        spoken = float(last["start"]) + float(last["duration"]) + self.cue_shift[-1] + pad
        return max(float(beat["duration"]), spoken)

    def _cue_of(self, at: float) -> int:
        """The cue spoken `at` seconds into the beat (as planned; `at` is rounded to ms)."""
        cues = self.beat.get("cues") or []
        return max([i for i, c in enumerate(cues) if float(c["start"]) <= at + 2e-3] or [0])

    def wait_for_reveal(self, at: float) -> None:
        """A step keyed to the narration (`at` seconds into the beat, as planned): wait until
        then. If the animations before it ran past that moment, the sentence that names it
        (and every later one) is spoken that much later, so words and picture stay together:
        the voice waits for the picture, never the other way round."""
        cues = self.beat.get("cues") or []
        target = self.beat_start + at
        if cues:
            k = self._cue_of(at)
            target += self.cue_shift[k]
            late = self.time - target
            if late > 0:
                for i in range(k, len(cues)):
                    self.cue_shift[i] += late
                target = self.time
        self.hold_until(target)

    # --- pacing: animations spread over the narration -------------------------------------
    def cue_at(self, i: int) -> float:
        """Scene time when cue i of this beat starts (the beat's end past the last cue)."""
        cues = self.beat.get("cues") or []
        if i < len(cues):
            return self.beat_start + float(cues[i]["start"]) + self.cue_shift[i]
        return self.beat_start + self.beat_end(self.beat)

    def cue_with(self, phrase: str, default: int | None = None) -> int | None:
        """The first cue of this beat whose sentence contains `phrase` (`default` when none
        does: a draft or another arrangement may say less, and a silent plan has no cues)."""
        for k, c in enumerate(self.beat.get("cues") or []):
            if phrase in str(c.get("text", "")):
                return k
        return default

    def left(self) -> float:
        """Seconds left of this beat's planned duration."""
        return max(0.0, self.beat_start + float(self.beat["duration"]) - self.time)

    def n_cues(self) -> int:
        return max(1, len(self.beat.get("cues") or []))

    def next_reveal(self) -> float:
        """Scene time when this beat's next keyed step starts (`at`), else the beat's end."""
        for step in self.steps(self.beat)[self.step_index + 1:]:
            if step.get("at") is not None:
                at = float(step["at"])
                shift = self.cue_shift[self._cue_of(at)] if self.beat.get("cues") else 0.0
                return self.beat_start + at + shift
        return self.beat_start + self.beat_end(self.beat)

    def fill_to(self, t_end: float | None, steps: list, fill: float = 0.92) -> None:
        """Run `steps` [(weight, fn(run_time))] over `fill` of the time left until `t_end`
        (default: the next keyed step, or the beat's end), each its weight's share."""
        t_end = self.next_reveal() if t_end is None else t_end
        total = sum(w for w, _ in steps)
        budget = fill * max(0.0, t_end - self.time)
        for w, fn in steps:
            fn(max(0.25, budget * w / total))

    # --- data: layers, values, numbers ----------------------------------------------------
    @property
    def layer(self) -> int:
        """The beat's layer: its `layer`, else the storyboard's first layer (every template)."""
        l = self.beat.get("layer")
        if l is not None:
            return int(l)
        layers = self.plan.get("layers") or [0]
        return int(layers[0])

    def value(self, path: str):
        """The plan value at `path` ('data.layers[3].x_norm')."""
        return resolve(self.plan, path)

    # --- slots: named places on screen -----------------------------------------------------
    def put(self, slot: str, m: Mobject, anim=None, run_time: float | None = None) -> Mobject:
        """Show `m` in `slot`; an occupied slot cross-fades. `anim` (an animation of `m`, e.g.
        GrowArrow(m)) replaces the fade-in. Returns `m`."""
        old = self.shown.get(slot)
        if old is m:
            return m
        anims = [anim if anim is not None else FadeInPlace(m)]
        if old is not None:
            anims.append(FadeOutPlace(old))
        self.shown[slot] = m
        self.play(*anims, run_time=run_time or self.quick())
        return m

    def drop(self, *slots: str, run_time: float | None = None) -> None:
        """Fade out the named slots (missing ones are ignored), together."""
        gone = [self.shown.pop(s) for s in slots if s in self.shown]
        if gone:
            self.play(*[FadeOutPlace(m) for m in gone], run_time=run_time or self.quick())

    def set_slot(self, slot: str, m: Mobject | None) -> None:
        """Put or clear a slot without animating (for pieces drawn by a larger animation)."""
        old = self.shown.pop(slot, None)
        if old is not None and old is not m:
            self.remove(old)
        if m is not None:
            self.shown[slot] = m
            self.add(m)

    def keep_inside(self, m: Mobject, margin: float = T.EDGE) -> Mobject:
        """Shift `m` so it lies inside the home frame with `margin` to spare (a label placed
        by its centre can otherwise run off the left or right edge). Returns `m`."""
        half_w, half_h = self.HOME_WIDTH / 2 - margin, config.frame_height / 2 - margin
        dx = max(0.0, -half_w - m.get_left()[0]) - max(0.0, m.get_right()[0] - half_w)
        dy = max(0.0, -half_h - m.get_bottom()[1]) - max(0.0, m.get_top()[1] - half_h)
        return m.shift(np.array([dx, dy, 0.0]))

    def point_at(self, m: Mobject, color=T.POINTER, run_time: float | None = None) -> None:
        """A short arrow flicks to `m` and away: 'this one' for what the narration names."""
        from .motion.pointer import point_at
        point_at(self, m, color=color, run_time=run_time)

    def emphasize(self, *ms: Mobject, color=T.POINTER, run_time: float | None = None,
                  extra=(), buff: float = 0.1) -> None:
        """A box round each of `ms` fades in and out, together; `extra` animations play
        alongside."""
        from .motion.pointer import emphasize
        emphasize(self, *ms, color=color, run_time=run_time, extra=extra, buff=buff)

    def hold_until(self, t: float) -> None:
        """Wait until scene time `t`, in whole frames (a static wait floors its frame count,
        so ask for half a frame more than needed)."""
        fps = config.frame_rate
        frames = math.ceil((t - self.time) * fps - 1e-6)
        if frames > 0:
            self.wait((frames + 0.5) / fps)

    # --- chrome: title, caption, footer ----------------------------------------------------
    def add_chrome(self) -> None:
        title = txt(self.plan["title"], T.TITLE_SIZE, weight="BOLD").to_edge(UP, buff=T.EDGE)
        self.title = self.pin(title)
        self.add(title)
        self.footer = None
        self.burned = None
        if self.plan.get("captions") == "burned":
            self.burned = self.pin(VGroup())
            self.burned.cue = None
            self.burned.add_updater(lambda m, dt: self.burn_cue(m))
            self.add_foreground_mobject(self.burned)

    HOME_WIDTH = config.frame_width

    def pin(self, m: Mobject) -> Mobject:
        """Keep `m` (built in the unmoved frame's coordinates) fixed on screen however the
        camera moves: it follows the frame's centre and scale. It follows only while an
        animation moves the camera (`play` adds the updater for that animation alone): a
        mobject with an updater makes Manim redraw it and everything above it on every frame,
        so a pinned title would otherwise disable the static-frame cache of every scene."""
        m._frame_ref = (self.HOME_WIDTH, np.array(ORIGIN, dtype=float))
        self._follow_frame(m)
        self._pinned = [p for p in self._pinned if p in self.mobjects] + [m]
        return m

    def moves_camera(self, anim) -> bool:
        """Whether `anim` (or an animation inside a group) changes the camera frame."""
        frame = self.camera.frame
        if getattr(anim, "mobject", None) is frame:
            return True
        return any(self.moves_camera(a) for a in getattr(anim, "animations", []) or [])

    # Set by the render pipeline: called in the main thread before every play/wait and every
    # frame, where Manim's encoder thread is in a consistent state. Ctrl-C is raised there,
    # not at whatever bytecode the signal lands on (inside the encoder queue's lock, it can
    # leave the encoder's worker waiting forever).
    checkpoint = None

    def update_to_time(self, t: float) -> None:
        if self.checkpoint is not None:
            self.checkpoint()
        super().update_to_time(t)

    def play(self, *anims, **kwargs) -> None:
        if self.checkpoint is not None:
            self.checkpoint()
        t0 = self.time
        self._play(*anims, **kwargs)
        if self._skipping:
            self._advance_as_drawn(t0)

    def _play(self, *anims, **kwargs) -> None:
        if not any(self.moves_camera(a) for a in anims):
            super().play(*anims, **kwargs)
            return
        pinned = list(self._pinned)
        for m in pinned:
            m.add_updater(self._follow_frame)
        try:
            super().play(*anims, **kwargs)
        finally:
            for m in pinned:
                m.remove_updater(self._follow_frame)
                self._follow_frame(m)

    def _follow_frame(self, m: Mobject) -> None:
        frame = self.camera.frame
        w, c = float(frame.width), np.array(frame.get_center(), dtype=float)
        lw, lc = m._frame_ref
        if abs(w - lw) < 1e-9 and np.allclose(c, lc, atol=1e-9):
            return
        m.shift(-lc).scale(w / lw, about_point=np.array(ORIGIN, dtype=float)).shift(c)
        m._frame_ref = (w, c)

    def update_footer(self, beat: dict) -> None:
        """"MiniLM-L6-H384 · layer 3 · head 0": which model and which numbers this frame shows."""
        if not self.plan.get("footer"):
            return
        parts = [self.plan["footer"]]
        if beat.get("layer") is not None:
            parts.append(f"layer {beat['layer']}")
        if beat.get("head") is not None:
            parts.append(f"head {beat['head']}")
        text = " · ".join(parts)
        if self.footer is not None and self.footer.text == text:
            return
        new = txt(text, T.TYPE.small, T.MUTED).to_corner(DOWN + RIGHT, buff=T.TIGHT)
        if self.footer is not None:
            self.remove(self.footer)
        self.footer = self.pin(new)
        self.add(new)

    def set_caption(self, text: str) -> None:
        """Captions change on the beat's first frame (a cross-fade would copy the text twice)."""
        new = wrapped(text, 90, T.CAPTION_SIZE).to_edge(DOWN, buff=T.EDGE + 0.15)
        if self.caption is not None:
            self.remove(self.caption)
        self.caption = self.pin(new)
        self.add(new)

    def spoken_now(self) -> str:
        """The words being spoken at this frame: the cue whose time (with any delay a late
        reveal gave it) covers the scene's time, as its subtitle does; a beat without cues
        (a silent plan) shows its whole narration, as its subtitle does. "" between cues."""
        cues = self.beat.get("cues") or []
        t = self.time - self.beat_start
        if not cues:
            return self.beat.get("narration") or ""
        for i, cue in enumerate(cues):
            begin = float(cue["start"]) + self.cue_shift[i]
            if begin - 1e-6 <= t < begin + float(cue["duration"]) - 1e-6:
                return cue["text"]
        return ""

    def burn_cue(self, m: VGroup) -> None:
        """`captions: burned`: the spoken cue's text at the bottom of the frame, changed on
        the frame its cue starts or ends (an updater on a foreground mobject, so Manim still
        reuses the still picture under it)."""
        text = self.spoken_now() if self.beat else ""
        if text == m.cue:
            return
        m.cue = text
        m.remove(*m.submobjects)
        if text:
            lines = wrapped(text, 90, T.CAPTION_SIZE).to_edge(DOWN, buff=T.EDGE + 0.15)
            w, c = m._frame_ref                 # built in the home frame, put where m is now
            lines.scale(w / self.HOME_WIDTH, about_point=np.array(ORIGIN, dtype=float)).shift(c)
            m.add(*lines.submobjects)

    def swap(self, old, new: Mobject, run_time: float | None = None) -> Mobject:
        """`swap("slot", m)`: put `m` in that slot (cross-fade). `swap(old_m, new_m)`: fade a
        mobject out and another in (the older form). Returns `new`."""
        if isinstance(old, str):
            return self.put(old, new, run_time=run_time)
        anims = [FadeInPlace(new)] + ([FadeOutPlace(old)] if old is not None else [])
        self.play(*anims, run_time=run_time or self.quick())
        return new

    def quick(self, share: float = 0.15, cap: float = 0.6) -> float:
        """Run time for a small transition: a share of the beat, at most `cap` seconds."""
        return max(0.2, min(cap, share * self.beat.get("duration", 1.0)))

    # --- frames and state for previews and snapshot tests ---------------------------------
    def capture(self, beat: dict) -> None:
        if not self.frames_dir or self._skipping:
            return
        from PIL import Image
        # after a wait Manim keeps the still part of the frame as a background image; drawing
        # every mobject over it again would draw the still ones twice (bolder edges)
        self.renderer.static_image = None
        self.renderer.update_frame(self)
        stem = self.frames_dir / f"{self.beat_index:02d}_{beat['id']}"
        Image.fromarray(np.asarray(self.renderer.get_frame())[:, :, :3]).save(f"{stem}.png")
        state = {"beat": beat["id"], "time": round(self.time, 4),
                 "mobjects": [describe(m) for m in self.mobjects]}
        Path(f"{stem}.json").write_text(json.dumps(state, indent=1, sort_keys=True))
        text_dir = self.frames_dir / "text"
        text_dir.mkdir(exist_ok=True)
        record = {"beat": beat["id"], "texts": text_sizes(self)}
        if self.midplay:
            record["midplay"], self._midplay = self._midplay, []
        (text_dir / f"{stem.name}.json").write_text(json.dumps(record, indent=1, sort_keys=True))

    def begin_animations(self) -> None:
        """With `midplay` and frames in a preview (plays skipped to their end): the text sizes
        at the middle of each play, for `capture` (`midplay_texts`)."""
        super().begin_animations()
        if self.frames_dir and self.midplay and not self._skipping \
                and self.renderer.skip_animations:
            sample = midplay_texts(self)
            if sample is not None:
                self._midplay.append(sample)


_REF_HEIGHT: dict = {}
# a text whose box in the middle of a play is further than this (scene units) from its box at
# the end is travelling (`midplay_texts`): not yet where it is meant to be read
TRAVEL_UNITS = 0.02


def overlaps(a: Mobject, b: Mobject, pad: float = 0.0) -> bool:
    """Whether the bounding boxes of `a` and `b` (each grown by `pad`) meet: a label's test for a
    clear spot."""
    return (a.get_right()[0] + pad > b.get_left()[0] and a.get_left()[0] - pad < b.get_right()[0]
            and a.get_top()[1] + pad > b.get_bottom()[1]
            and a.get_bottom()[1] - pad < b.get_top()[1])


def _ref_height(m) -> float:
    """Height of 'Hg' (cap top to descender) at font size 48 in the kind and font of `m`."""
    from manim import MathTypst
    key = (type(m).__name__, getattr(m, "font", None))
    if key not in _REF_HEIGHT:
        if isinstance(m, Text):
            _REF_HEIGHT[key] = Text("Hg", font=m.font or T.FONT, font_size=48).height
        else:
            _REF_HEIGHT[key] = MathTypst("H g", font_size=48).height
    return _REF_HEIGHT[key]


def text_sizes(scene) -> list[dict]:
    """Every visible text and formula on screen with its height in px at 854x480: the height
    'Hg' would have at its effective font size (after any scaling), divided by the camera's
    zoom. A label made only of small letters is measured like any other at its size. Also
    its cap heights (scenes/legibility.py): `cap_px` at its main size, `min_px` at its
    smallest (a superscript or subscript), `script` what is drawn that small."""
    return [d for _, d in _measured(scene)]


COVER_OPACITY = 0.9        # as layerwise_pipeline.layoutcheck: a backdrop hides what is under it


def _box(m) -> list[float]:
    return [round(float(v), 4) for v in (m.get_left()[0], m.get_bottom()[1],
                                         m.get_right()[0], m.get_top()[1])]


def _is_cover(m) -> bool:
    """A rectangle filled with the background colour, opaque enough to hide what was drawn
    before it (a card over a dimmed chart, a close-up's lens)."""
    from manim import Rectangle
    return isinstance(m, Rectangle) and len(m.points) > 0 \
        and m.get_fill_opacity() >= COVER_OPACITY \
        and m.get_fill_color().to_hex().lower() == T.BACKGROUND.to_hex().lower()


def _measured(scene, covers: list | None = None) -> list[tuple]:
    """(mobject, its `text_sizes` record) for every visible text and formula. With `covers`
    (a list), each record also gets its drawing `order`, and every backdrop (`_is_cover`) is
    appended to `covers` as {order, box}."""
    px_per_unit = 480 / float(scene.camera.frame.height)
    out = []
    order = -1
    for top in scene.mobjects:
        for m in top.get_family():
            order += 1
            if covers is not None and _is_cover(m):
                covers.append({"order": order, "box": _box(m)})
            if not (isinstance(m, Text) or hasattr(m, "typst_code")):
                continue
            # visible: by its glyphs (a Text keeps its own opacity when .animate fades them)
            opacity = max((s.get_fill_opacity() for s in m.get_family()
                           if isinstance(s, VMobject) and len(s.points)), default=0)
            if opacity < 0.05:
                continue
            try:
                fs = float(m.font_size)
            except (AttributeError, ZeroDivisionError, TypeError):
                continue
            px = _ref_height(m) * fs / 48 * px_per_unit
            out.append((m, {"text": getattr(m, "text", None) or getattr(m, "typst_code", ""),
                            "px": round(px, 2), "font_size": round(fs, 2),
                            "source": getattr(m, "source", None),
                            "box": _box(m), "opacity": round(float(opacity), 3),
                            **({"order": order} if covers is not None else {}),
                            **legibility.sizes(m, px_per_unit, T.FONT)}))
    return out


def travels(box: list[float], end: list[float], tol: float = TRAVEL_UNITS) -> bool:
    """Whether a text's box (left, bottom, right, top) in the middle of a play lies more than
    `tol` scene units from where it ends: it is on its way somewhere (or changes size)."""
    return max(abs(a - b) for a, b in zip(box, end)) > tol


def midplay_texts(scene) -> dict | None:
    """The text sizes in the middle of the play being started: every animation moved to
    alpha 0.5 (updaters run with dt 0), {"play", "time", "texts"}; a text is `moving` when
    its size there differs (by over 1 %) from its size at the play's end (alpha 1), which is
    measured next: one growing into place, or zoomed past, is not yet meant to be read. Only
    for a skipped play (a preview), which then sets alpha 1 itself, so alpha only goes
    0 -> 0.5 -> 1, as in a render. None for a wait. A text `travels` when its box there is
    not where it ends (`travels`): on its way, not yet placed; it `leaves` when it is gone
    (or invisible) at the end; each text's `box` (left,
    bottom, right, top, scene units), glyph `opacity` and drawing `order` are kept, with the
    backdrops drawn then (`covers`: {order, box}), for the layout check of the middle of the play (layerwise_pipeline.layoutcheck `midplay_problems`)."""
    from manim import Wait
    anims = scene.animations or []
    if all(isinstance(a, Wait) for a in anims):
        return None
    sample, covers = [], []
    for alpha in (0.5, 1.0):
        for a in anims:
            a.interpolate(alpha)
        scene.update_mobjects(0)
        sample.append(_measured(scene, covers if alpha == 0.5 else None))
    end = {id(m): d for m, d in sample[1]}
    texts = [{**d, "moving": bool(abs(end.get(id(m), {}).get("min_px", 0.0) - d["min_px"])
                                  > 0.01 * d["min_px"]),
              "travels": id(m) in end and travels(d["box"], end[id(m)]["box"]),
              "leaves": id(m) not in end}
             for m, d in sample[0]]
    middle = scene.time - scene.get_run_time(anims) / 2     # a skipped play's time is its end
    return {"play": scene.renderer.num_plays, "time": round(middle, 4), "texts": texts,
            "covers": covers}


def _hex(color) -> str | None:
    try:
        return color.to_hex().lower() if color is not None else None
    except AttributeError:
        return None


def describe(m: Mobject) -> dict:
    """What is on screen, machine-independently: kind, position, size, colour, text, value."""
    d = {"kind": type(m).__name__, "center": [round(float(c), 7) for c in m.get_center()[:2]],
         "size": [round(float(m.width), 7), round(float(m.height), 7)]}
    if isinstance(m, VMobject) and len(m.points):
        if m.get_fill_opacity() > 0:
            d["fill"] = _hex(m.get_fill_color())
            d["fill_opacity"] = round(float(m.get_fill_opacity()), 4)
        if m.get_stroke_width() > 0 and m.get_stroke_opacity() > 0:
            d["stroke"] = _hex(m.get_stroke_color())
    if getattr(m, "scaled", None) is not None:          # value strips: every cell's value
        d["scaled"] = np.round(np.asarray(m.scaled, dtype=float), 9).tolist()
    if isinstance(m, Num):
        d.update(text=m.text, shown=m.shown, value=m.value, source=m.source,
                 decimals=m.decimals)
        if m.style:                                     # (recorded only when not plain)
            d["style"] = m.style
    elif isinstance(m, Text):
        d["text"] = m.text
    elif hasattr(m, "typst_code"):
        d["math"] = m.typst_code
    if m.submobjects and not isinstance(m, Text) and not hasattr(m, "typst_code"):
        d["children"] = [describe(s) for s in m.submobjects]
    return d
