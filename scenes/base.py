"""The scene every template extends: title, footer, one section and one subtitle per beat.

A template implements `beat_<name>` handlers, called for each name in a beat's `show` list,
and `layout()` to build its persistent pieces. The base class owns timing: a beat lasts at
least its planned duration (the animations take what they need, the rest is a wait), its
narration becomes a subtitle cue over exactly that beat, and, when frames are requested, the
beat's last frame is written as PNG plus a JSON of what is on screen.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
from manim import DOWN, RIGHT, UP, Mobject, Scene, Text, VMobject, config

from . import theme as T
from .animations import FadeInPlace, FadeOutPlace
from .mobjects import Num, txt, wrapped

FRAMES_ENV = "LAYERWISE_FRAMES"     # folder for per-beat PNG + state JSON (preview, tests)


class StoryboardScene(Scene):
    plan: dict = {}
    until: str | None = None        # stop after this beat (previews of one beat, tests)

    # --- lifecycle ------------------------------------------------------------------------
    def setup(self) -> None:
        self.camera.background_color = T.BACKGROUND
        self.data = self.plan["data"]
        self.beat_index = 0
        self.caption: Mobject | None = None
        frames = os.environ.get(FRAMES_ENV)
        self.frames_dir = Path(frames) / self.plan["storyboard"]["name"] if frames else None
        if self.frames_dir:
            self.frames_dir.mkdir(parents=True, exist_ok=True)

    def construct(self) -> None:
        self.add_chrome()
        self.layout()
        for i, beat in enumerate(self.plan["beats"]):
            self.beat_index, self.beat = i, beat
            self.next_section(beat["id"])
            start = self.time
            if beat.get("audio"):
                self.add_sound(beat["audio"])
            self.update_footer(beat)
            self.set_caption(beat["caption"])
            for name in beat["show"]:
                getattr(self, f"beat_{name}")(beat)
            self.hold_until(start + beat["duration"])
            if beat["narration"]:
                self.add_subcaption(beat["narration"], duration=self.time - start,
                                    offset=start - self.time)
            self.capture(beat)
            if beat["id"] == self.until:
                break

    def layout(self) -> None:
        """Build the template's persistent pieces (override)."""

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
        self.title = title
        self.add(title)
        self.footer = None

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
        new = txt(text, T.TINY_SIZE, T.MUTED).to_corner(DOWN + RIGHT, buff=T.TIGHT)
        if self.footer is not None:
            self.remove(self.footer)
        self.footer = new
        self.add(new)

    def set_caption(self, text: str) -> None:
        """Captions change on the beat's first frame (a cross-fade would copy the text twice)."""
        new = wrapped(text, 90, T.CAPTION_SIZE).to_edge(DOWN, buff=T.EDGE + 0.15)
        if self.caption is not None:
            self.remove(self.caption)
        self.caption = new
        self.add(new)

    def swap(self, old: Mobject | None, new: Mobject, run_time: float | None = None) -> Mobject:
        """Fade `old` out and `new` in; returns `new` (the piece to keep a handle on)."""
        anims = [FadeInPlace(new)] + ([FadeOutPlace(old)] if old is not None else [])
        self.play(*anims, run_time=run_time or self.quick())
        return new

    def quick(self, share: float = 0.15, cap: float = 0.6) -> float:
        """Run time for a small transition: a share of the beat, at most `cap` seconds."""
        return max(0.2, min(cap, share * self.beat["duration"]))

    # --- frames and state for previews and snapshot tests ---------------------------------
    def capture(self, beat: dict) -> None:
        if not self.frames_dir:
            return
        from PIL import Image
        self.renderer.update_frame(self)
        stem = self.frames_dir / f"{self.beat_index:02d}_{beat['id']}"
        Image.fromarray(np.asarray(self.renderer.get_frame())[:, :, :3]).save(f"{stem}.png")
        state = {"beat": beat["id"], "time": round(self.time, 4),
                 "mobjects": [describe(m) for m in self.mobjects]}
        Path(f"{stem}.json").write_text(json.dumps(state, indent=1, sort_keys=True))


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
    elif isinstance(m, Text):
        d["text"] = m.text
    elif hasattr(m, "typst_code"):
        d["math"] = m.typst_code
    if m.submobjects and not isinstance(m, Text) and not hasattr(m, "typst_code"):
        d["children"] = [describe(s) for s in m.submobjects]
    return d
