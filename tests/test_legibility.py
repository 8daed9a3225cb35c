"""A legibility floor (issue 22, item 4): no glyph under `legibility.FLOOR_PX` of cap height at
854x480, superscripts and subscripts included, on any beat's last frame or standing still in
the middle of any play.

The measurement (scenes/legibility.py, scenes/base.py `text_sizes` and `midplay_texts`) is
checked here against the ink of rendered pixels, for a Typst superscript, a Typst script of a
script and a Unicode superscript in a Text; a measurement that ignored scripts would be 3 to 6
px off and fail. The shipped storyboards are previewed with the mid-play sampling on and what
is under the floor must be exactly today's list, `TODAY`: a new one fails, and so does one
fixed (delete it from the list: it only shrinks).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import framecheck as fc
from scenes.legibility import (FLOOR_PX, SCRIPT_SCALE, script_depth, smallest, text_scale,
                               under_floor)

FONT = "DejaVu Sans"


# --- the measurement ------------------------------------------------------------------------
@pytest.mark.parametrize("code,depth", [
    ("X", 0), ("X^((30))", 1), ("W_Q", 1), ('|Delta_"attn"^((l))|', 1), ("e^(x_i)", 2),
    ("e^(x_(a^2))", 3), ('"a^b and c_d" x', 0), ("x^2 y_1", 1), ("a \\^ b", 0),
    ('sum_(l=0)^(29) (Delta_"attn"^((l)))', 1), ("(a^b)_c", 1),
])
def test_script_depth(code, depth):
    assert script_depth(code) == depth


def test_typst_script_scales_are_those_the_glyphs_have():
    """A digit at levels 0, 1, 2 (`0^(0^0)`): the glyphs' heights are in SCRIPT_SCALE's ratios."""
    from manim import MathTypst
    h = [g.height for g in MathTypst("0^(0^0)", font_size=48).submobjects]
    assert len(h) == 3
    assert [h[1] / h[0], h[2] / h[0]] == pytest.approx(SCRIPT_SCALE[1:], abs=0.01)


def test_unicode_scripts_are_measured_by_their_own_glyphs():
    assert text_scale("³", FONT) == pytest.approx(0.56, abs=0.03)
    assert text_scale("₀", FONT) == pytest.approx(0.56, abs=0.03)


def render_png(m, tmp_path) -> np.ndarray:
    """`m` drawn at 854x480 (white on black), written as PNG and read back, as grey 0-1."""
    from manim import Camera
    from PIL import Image
    cam = Camera()
    cam.capture_mobject(m)
    path = tmp_path / "glyphs.png"
    cam.get_image().save(path)
    return np.asarray(Image.open(path).convert("L"), dtype=float) / 255


def ink_rows(img: np.ndarray, glyphs, width: float, px_per_unit: float) -> int:
    """Rows of more than half-covered ink in the pixel columns of `glyphs`."""
    left = min(g.get_left()[0] for g in glyphs) + width / 2
    right = max(g.get_right()[0] for g in glyphs) + width / 2
    cols = img[:, int(round(left * px_per_unit)):int(round(right * px_per_unit)) + 1]
    return int((cols.max(axis=1) > 0.5).sum())


@pytest.mark.parametrize("kind,source,size,digits", [
    ("math", "X^((30))", 26, [2, 3]),           # the chapter's label size: 7.8 px digits
    ("math", "e^(x_(30))", 30, [2, 3]),         # a script of a script
    ("text", "X⁽³⁰⁾", 24, [2, 3]),              # the caption size, Unicode superscripts
])
def test_script_sizes_match_the_pixels(tmp_path, kind, source, size, digits):
    """The predicted cap height of the smallest glyphs equals the ink height of those digits
    in the rendered PNG within 1.5 px, and is at least 3 px from the main size's (what a
    measurement ignoring scripts would report): the check can fail."""
    from manim import MathTypst, Text, config, tempconfig
    from scenes.base import text_sizes
    with tempconfig({"quality": "low_quality"}):
        m = MathTypst(source, font_size=size) if kind == "math" else \
            Text(source, font=FONT, font_size=size)
        ppu = config.pixel_height / config.frame_height
        scene = SimpleNamespace(mobjects=[m], camera=SimpleNamespace(
            frame=SimpleNamespace(height=config.frame_height)))
        (record,) = text_sizes(scene)
        ink = ink_rows(render_png(m, tmp_path), [m.submobjects[i] for i in digits],
                       config.frame_width, ppu)
    assert abs(ink - record["min_px"]) <= 1.5, (ink, record)
    assert record["cap_px"] - record["min_px"] >= 3, record
    assert record["script"]


def test_camera_zoom_scales_every_size():
    from manim import MathTypst
    from scenes.base import text_sizes
    m = MathTypst("X^((30))", font_size=26)
    at = {h: text_sizes(SimpleNamespace(mobjects=[m], camera=SimpleNamespace(
        frame=SimpleNamespace(height=h))))[0] for h in (8.0, 4.0, 16.0)}
    assert at[4.0]["min_px"] == pytest.approx(2 * at[8.0]["min_px"], abs=0.02)
    assert at[16.0]["cap_px"] == pytest.approx(at[8.0]["cap_px"] / 2, abs=0.02)
    assert at[8.0]["min_px"] == pytest.approx(7.78, abs=0.02)


def test_midplay_sample_is_the_middle_and_tells_still_from_moving(tmp_path):
    """In a preview (plays skipped), the hook samples each play at alpha 0.5: a text that
    shrinks is `moving` at 3/4 of its size, one fading in is still at its full size; waits
    are not sampled; the play still ends where it would have."""
    from manim import DOWN, FadeIn, MovingCameraScene, Text, tempconfig
    from scenes.base import midplay_texts
    samples = []

    class Probe(MovingCameraScene):
        def construct(self):
            self.shrinking = Text("shrinks", font=FONT, font_size=24)
            self.add(self.shrinking)
            self.play(self.shrinking.animate.scale(0.5),
                      FadeIn(Text("fades", font=FONT, font_size=24).shift(DOWN)), run_time=1)
            self.wait(0.5)

        def begin_animations(self):
            super().begin_animations()
            samples.append(midplay_texts(self))

    with tempconfig({"quality": "low_quality", "media_dir": str(tmp_path),
                     "write_to_movie": False, "save_last_frame": True, "verbosity": "ERROR"}):
        scene = Probe()
        scene.render()
    first, wait = samples
    assert wait is None and first["time"] == pytest.approx(0.5)
    by_text = {t["text"]: t for t in first["texts"]}
    full = by_text["fades"]["cap_px"]
    assert by_text["fades"]["moving"] is False
    assert by_text["shrinks"]["moving"] is True
    assert by_text["shrinks"]["cap_px"] == pytest.approx(0.75 * full, rel=0.01)
    assert scene.shrinking.font_size == pytest.approx(12)


def test_a_text_faded_by_animate_is_not_measured(tmp_path):
    """`.animate.set_opacity(0)` fades a Text's glyphs but leaves the Text's own opacity at 1:
    visibility is the glyphs'. Mid-way through a LaggedStart, a copy that has already shrunk
    and faded is not on screen (it was counted, still, at 40 %, in per_head's heads beat)."""
    from manim import LaggedStart, MovingCameraScene, RIGHT, Text, tempconfig
    from scenes.base import midplay_texts
    samples = []

    class Probe(MovingCameraScene):
        def construct(self):
            copies = [Text(f"c{i}", font=FONT, font_size=24).shift(RIGHT * i) for i in range(3)]
            self.play(LaggedStart(*[c.animate.scale(0.4).set_opacity(0) for c in copies],
                                  lag_ratio=1), run_time=3)

        def begin_animations(self):
            super().begin_animations()
            samples.append(midplay_texts(self))

    with tempconfig({"quality": "low_quality", "media_dir": str(tmp_path),
                     "write_to_movie": False, "save_last_frame": True, "verbosity": "ERROR"}):
        Probe().render()
    (mid,) = samples
    by_text = {t["text"]: t for t in mid["texts"]}
    assert "c0" not in by_text                              # shrunk and faded: gone
    assert {"c1", "c2"} <= set(by_text)                     # under way; not started


def test_math_is_never_drawn_with_scripts_under_the_floor():
    """`math()` raises a formula to the smallest whole size whose deepest script reaches the
    floor (27 with scripts, 38 with scripts of scripts); larger sizes are kept."""
    from scenes.legibility import legible_math_size
    from scenes.mobjects.text import math
    assert [legible_math_size(c, 26) for c in ("X", "X^((0))", "e^(x_i)")] == [26, 27, 38]
    assert legible_math_size("X^((0))", 30) == 30
    m = math('Delta_"attn"^((29))', 22)
    assert m.font_size == pytest.approx(27)
    from scenes.base import text_sizes
    (r,) = text_sizes(SimpleNamespace(mobjects=[m], camera=SimpleNamespace(
        frame=SimpleNamespace(height=8.0))))
    assert FLOOR_PX <= r["min_px"] < FLOOR_PX + 0.4


def test_weighted_sum_shows_less_not_smaller(tmp_path):
    """per_head's values: a copy shrunk by its weight loses the numbers that would be under the
    floor (its brackets still show the weight as a size); a heavy one keeps them."""
    from manim import MovingCameraScene, RIGHT, tempconfig
    from scenes.motion.attention_steps import weighted_sum
    from scenes.motion.vector import VectorColumn
    seen = []

    class Probe(MovingCameraScene):
        def construct(self):
            parts = [VectorColumn([0.5, -0.25], "data.v", show=2).shift(RIGHT * 2 * i)
                     for i in range(2)]
            out = VectorColumn([0.1, 0.2], "data.out", show=2).shift(3 * RIGHT)
            self.add(*parts)
            weighted_sum(self, parts, [0.95, 0.05], out, run_time=1)

        def begin_animations(self):
            super().begin_animations()
            seen.append(midplay_texts(self))

    from scenes.base import midplay_texts
    with tempconfig({"quality": "low_quality", "media_dir": str(tmp_path),
                     "write_to_movie": False, "save_last_frame": True, "verbosity": "ERROR"}):
        Probe().render()
    flight = seen[1]["texts"]                   # the copies fly to the output: none moving
    still = [t for t in flight if not t["moving"]]
    assert still and min(t["min_px"] for t in still) >= FLOOR_PX
    assert sorted({t["text"] for t in still}) == ["-0.25", "0.50"]


def record(end=(), mids=()):
    text = lambda name, px, moving=False: {"text": name, "script": "", "min_px": px,  # noqa
                                           "moving": moving}
    return {"texts": [text(*e) for e in end],
            "midplay": [{"texts": [text(*t) for t in m]} for m in mids]}


def test_under_floor_keeps_still_text_once_at_its_smallest():
    r = record(end=[("a", 10.0), ("b", 7.0)],
               mids=[[("b", 6.0), ("c", 1.0, True), ("d", 7.9)], [("d", 7.5), ("e", FLOOR_PX)]])
    assert [(v["when"], v["text"], v["px"]) for v in under_floor(r)] == [
        ("mid", "b", 6.0), ("end", "b", 7.0), ("mid", "d", 7.5)]
    assert smallest(r)["min_px"] == 6.0
    assert under_floor(record(end=[("a", 9.0)]), floor=9.5)[0]["text"] == "a"
    assert under_floor(record()) == [] and smallest(record()) is None


# --- the shipped storyboards: today's list --------------------------------------------------
# storyboard | smallest cap height in px | what is drawn that small (script) | text as drawn
# Empty since math() draws formulas with scripts at 27 or more (it was 125 texts: size-26
# labels' superscripts at 7.8 px in six storyboards; in per_head, value copies shrunk by their
# weights to 0.4 px flying to the output, and copies already faded into the head cards, which
# the measurement counted by their Text's own opacity). A regression fails with its rows.
TODAY = """
"""


def today() -> list[tuple]:
    rows = [line.split(" | ") for line in TODAY.strip().splitlines()]
    return [(name, float(px), script.strip(), text) for name, px, script, text in rows]


def under_floor_of(frames: Path) -> list[tuple]:
    """(px rounded to 0.1, script, text) of each text under the floor in any beat of one
    storyboard's preview, at its smallest, smallest first."""
    found: dict[tuple, float] = {}
    for f in sorted((frames / "text").glob("*.json")):
        for v in under_floor(json.loads(f.read_text())):
            key = (v["script"], v["text"])
            found[key] = min(found.get(key, v["px"]), v["px"])
    return sorted((round(px, 1), s, t) for (s, t), px in found.items())


NAMES = sorted(p.stem for p in fc.ROOT.glob("layerwise_templates/*/*.yaml"))


def test_todays_list_names_shipped_storyboards():
    assert len(NAMES) == 8
    assert {row[0] for row in today()} <= set(NAMES)


@pytest.mark.render
@pytest.mark.parametrize("name", NAMES)
def test_shipped_storyboard_has_exactly_todays_text_under_the_floor(rendered, name):
    """The preview test_snapshots compares with its goldens (rendered once per session, text
    sizes sampled mid-play too): a text record for every beat, mid-play samples in each."""
    from layerwise_core.storyboard.schema import load_storyboard
    from layerwise_templates import storyboard_path
    frames = rendered.frames(name)
    records = [json.loads(f.read_text()) for f in sorted((frames / "text").glob("*.json"))]
    assert len(records) == len(load_storyboard(storyboard_path(name)).beats)
    assert all(r["midplay"] for r in records)
    assert under_floor_of(frames) == [row[1:] for row in today() if row[0] == name]


# --- in flight: what a viewer sees mid-motion ------------------------------------------------
# The floor above skips text that moves or changes size in a play (it is not yet meant to be
# read); reviewers kept finding numbers shrinking to 1-7 px on their way into a box
# (layerwise_pipeline.layoutcheck `midplay_size_problems`: any visible text, moving or not).
# storyboard | beat: problem as layoutcheck prints it, without its time. Empty: a regression
# fails with its lines.
IN_FLIGHT_TODAY = """
"""


@pytest.mark.render
@pytest.mark.parametrize("name", NAMES)
def test_shipped_storyboard_shows_no_text_under_the_floor_in_flight(rendered, name):
    from layerwise_pipeline.layoutcheck import midplay_size_problems
    frames = rendered.frames(name)
    found = [f"{f.stem}: {p.split(': ', 1)[1]}" for f in sorted((frames / "text").glob("*.json"))
             for p in midplay_size_problems(json.loads(f.read_text()))]     # without the time
    today = [line.split(" | ", 1)[1] for line in IN_FLIGHT_TODAY.strip().splitlines()
             if line.split(" | ", 1)[0] == name]
    assert found == today
