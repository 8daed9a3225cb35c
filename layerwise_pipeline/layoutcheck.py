"""Layout check of a preview: on every beat's last frame, nothing drawn touches the frame's
edge and no text lies on other text.

A preview (`render --preview`) writes, per beat, `NN_<beat>.png` and `NN_<beat>.json` (what is
on screen: every mobject's kind, centre, size, text). Two checks:
- **edge**: the outer `EDGE_PX` pixels of the PNG are background (within `EDGE_TOLERANCE` per
  channel): pixels, not boxes, since the camera may have moved.
- **overlap**: no two texts (Text, Num, math) have boxes that overlap by more than
  `OVERLAP_UNITS` in both directions (scene units; a frame is 14.22 x 8), so a label on a
  label, a number under a title or a caption over a chart is found. Text hidden where they meet
  by a backdrop drawn after it (a rectangle filled with the background colour at
  `COVER_OPACITY` or more: a card over a dimmed chart) is not seen, so it is not an overlap.

    python -m layerwise_pipeline.layoutcheck media/frames/<storyboard> [...]

prints one line per problem (`<png>: ...`) and exits 1 when there is any.

    python -m layerwise_pipeline.layoutcheck --midplay media/frames/<storyboard> [...]

also checks the middle of every play, from a preview made with `--midplay` (its text records,
`text/NN_<beat>.json`): two texts that both stand still there (neither `travels` to another
place nor changes size, scenes/base.py `midplay_texts`) and can both be seen (glyph opacity at
least `MIDPLAY_OPACITY`: a text half faded in or out counts) must not overlap either: a caption
laid over an axis note for the length of a play, or one label cross-fading into another in the
same place, is found (a copy lying exactly on its original, the same text in the same box, is
one text to the eye and is not), unless a backdrop drawn between them covers the overlap
(the sample's `covers`, as on the last frames). And no text that can be seen there (the same
opacity) is under the legibility floor (`scenes.legibility.FLOOR_PX` of cap height at 854x480),
whether it stands, travels, grows or leaves: a number shrinking to a few pixels on its way into a
box is what a viewer sees mid-motion (tests/test_legibility.py checks the standing ones).
"""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path

import numpy as np

from scenes.legibility import FLOOR_PX

BACKGROUND = (0x0E, 0x11, 0x17)      # scenes/theme.py BACKGROUND
EDGE_PX = 3
EDGE_TOLERANCE = 24
OVERLAP_UNITS = 0.02
TEXT_KINDS = {"Text", "Num", "MarkupText", "Paragraph"}
COVER_OPACITY = 0.9
MIDPLAY_OPACITY = 0.35
COVER_KINDS = {"Rectangle", "SurroundingRectangle", "BackgroundRectangle", "RoundedRectangle"}
BACKGROUND_HEX = "#%02x%02x%02x" % BACKGROUND


def edge_problems(pixels: np.ndarray) -> list[str]:
    """The sides of an RGB frame whose outer band holds anything but background."""
    bg = np.array(BACKGROUND, dtype=np.int16)
    away = (np.abs(pixels[:, :, :3].astype(np.int16) - bg) > EDGE_TOLERANCE).any(axis=2)
    h, w = away.shape
    bands = {"top": away[:EDGE_PX, :], "bottom": away[h - EDGE_PX:, :],
             "left": away[:, :EDGE_PX], "right": away[:, w - EDGE_PX:]}
    out = []
    for side, band in bands.items():
        if band.any():
            along = np.nonzero(band.any(axis=0 if side in ("top", "bottom") else 1))[0]
            unit = "x" if side in ("top", "bottom") else "y"
            out.append(f"drawn at the {side} edge ({unit} {along.min()}-{along.max()} px)")
    return out


def drawn(mobjects: list[dict]) -> list[dict]:
    """Every mobject of a scene state, nested ones too, in drawing order (a family draws its
    parent, then its children in turn)."""
    out = []
    for m in mobjects:
        out.append(m)
        out += drawn(m.get("children", []))
    return out


def box(m: dict) -> tuple[float, float, float, float] | None:
    (cx, cy), (w, h) = m["center"], m["size"]
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2) if w > 0 and h > 0 else None


def texts(mobjects: list[dict]) -> list[tuple[str, float, float, float, float]]:
    """(text, left, bottom, right, top) of every text in a scene state, nested ones too."""
    return [t[1:] for t in ordered_texts(drawn(mobjects))]


def ordered_texts(flat: list[dict]) -> list[tuple]:
    """(drawing index, text, left, bottom, right, top) of every text of a flat state."""
    out = []
    for i, m in enumerate(flat):
        text = m.get("text") if m.get("kind") in TEXT_KINDS else m.get("math")
        b = box(m)
        if text and b:
            out.append((i, text, *b))
    return out


def covers(flat: list[dict]) -> list[tuple]:
    """(drawing index, left, bottom, right, top) of every backdrop: a rectangle filled with
    the background colour, opaque enough to hide what was drawn before it."""
    return [(i, *box(m)) for i, m in enumerate(flat)
            if m.get("kind") in COVER_KINDS and box(m)
            and float(m.get("fill_opacity") or 0) >= COVER_OPACITY
            and str(m.get("fill", "")).lower() == BACKGROUND_HEX]


def hidden(first: int, area: tuple[float, float, float, float], backdrops: list[tuple]) -> bool:
    """Whether a backdrop drawn after mobject `first` covers all of `area` (l, b, r, t)."""
    return any(c[0] > first and c[1] <= area[0] and c[2] <= area[1] and c[3] >= area[2]
               and c[4] >= area[3] for c in backdrops)


def meeting(a, b) -> tuple[float, float, float, float]:
    """Where two boxes (left, bottom, right, top) meet; negative width or height if apart."""
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def overlap_problems(state: dict) -> list[str]:
    """Every pair of texts whose boxes overlap (beyond `OVERLAP_UNITS` each way) where both
    can be seen (no backdrop drawn between them covers the overlap)."""
    flat = drawn(state["mobjects"])
    backdrops = covers(flat)
    out = []
    for a, b in combinations(ordered_texts(flat), 2):
        area = meeting(a[2:6], b[2:6])
        dx, dy = area[2] - area[0], area[3] - area[1]
        if dx > OVERLAP_UNITS and dy > OVERLAP_UNITS and not hidden(min(a[0], b[0]), area,
                                                                   backdrops):
            out.append(f"text {a[1][:30]!r} lies on {b[1][:30]!r} ({dx:.2f} x {dy:.2f} units)")
    return out


def midplay_problems(record: dict) -> list[str]:
    """Every pair of texts that overlap (beyond `OVERLAP_UNITS` each way) in the middle of a
    play of one beat's text record, both standing still and both visible: `at <time> s: ...`."""
    out = []
    for sample in record.get("midplay", []):
        still = [t for t in sample["texts"] if "box" in t and not t.get("travels")
                 and not t.get("moving") and t.get("opacity", 1.0) >= MIDPLAY_OPACITY]
        backdrops = [(c["order"], *c["box"]) for c in sample.get("covers", [])]
        for a, b in combinations(still, 2):
            if a["text"] == b["text"] and max(abs(u - v) for u, v in zip(a["box"], b["box"])) \
                    <= OVERLAP_UNITS:
                continue            # a copy lying exactly on its original: one text to the eye
            area = meeting(a["box"], b["box"])
            dx, dy = area[2] - area[0], area[3] - area[1]
            first = min(a.get("order", 0), b.get("order", 0))
            if dx > OVERLAP_UNITS and dy > OVERLAP_UNITS and not hidden(first, area, backdrops):
                out.append(f"at {sample['time']:.2f} s (mid-play): text {a['text'][:30]!r} lies on "
                           f"{b['text'][:30]!r} ({dx:.2f} x {dy:.2f} units)")
    return out


def midplay_size_problems(record: dict) -> list[str]:
    """Every text seen in the middle of a play (glyph opacity at least `MIDPLAY_OPACITY`) whose
    smallest glyphs are under `FLOOR_PX`, moving or not: `at <time> s: ...`, once per text per
    play, in the order of the record."""
    out = []
    for sample in record.get("midplay", []):
        small = {}
        for t in sample["texts"]:
            if t.get("opacity", 1.0) >= MIDPLAY_OPACITY and t.get("min_px", FLOOR_PX) < FLOOR_PX:
                small[t["text"]] = min(small.get(t["text"], t["min_px"]), t["min_px"])
        way = {True: "on its way", False: "standing"}
        for text, px in small.items():
            moving = any(t["text"] == text and (t.get("travels") or t.get("moving")
                                                or t.get("leaves")) for t in sample["texts"])
            out.append(f"at {sample['time']:.2f} s (mid-play): text {text[:30]!r} is {px:.1f} px "
                       f"{way[moving]} (floor {FLOOR_PX:g} px)")
    return out


def frame_problems(png: Path) -> list[str]:
    from PIL import Image
    problems = edge_problems(np.asarray(Image.open(png).convert("RGB")))
    state = png.with_suffix(".json")
    if state.is_file():
        problems += overlap_problems(json.loads(state.read_text()))
    return problems


def folder_problems(folder: Path, midplay: bool = False) -> list[str]:
    """`<png>: problem` for every beat frame of a preview folder; with `midplay`, also
    `<text record>: problem` for the middle of every play."""
    out = [f"{png}: {p}" for png in sorted(Path(folder).glob("[0-9][0-9]_*.png"))
           for p in frame_problems(png)]
    if midplay:
        records = sorted((Path(folder) / "text").glob("[0-9][0-9]_*.json"))
        if not records:
            out.append(f"{folder}/text: no text records (preview with --midplay)")
        out += [f"{r}: {p}" for r in records for record in [json.loads(r.read_text())]
                for p in midplay_problems(record) + midplay_size_problems(record)]
    return out


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    midplay = "--midplay" in args
    folders = [Path(a) for a in args if a != "--midplay"]
    if not folders:
        print("usage: python -m layerwise_pipeline.layoutcheck [--midplay] FRAMES_DIR [...]",
              file=sys.stderr)
        return 2
    problems = [p for f in folders for p in folder_problems(f, midplay)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
