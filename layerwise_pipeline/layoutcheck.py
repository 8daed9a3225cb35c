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
"""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path

import numpy as np

BACKGROUND = (0x0E, 0x11, 0x17)      # scenes/theme.py BACKGROUND
EDGE_PX = 3
EDGE_TOLERANCE = 24
OVERLAP_UNITS = 0.02
TEXT_KINDS = {"Text", "Num", "MarkupText", "Paragraph"}
COVER_OPACITY = 0.9
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


def overlap_problems(state: dict) -> list[str]:
    """Every pair of texts whose boxes overlap (beyond `OVERLAP_UNITS` each way) where both
    can be seen (no backdrop drawn between them covers the overlap)."""
    flat = drawn(state["mobjects"])
    backdrops = covers(flat)
    out = []
    for a, b in combinations(ordered_texts(flat), 2):
        area = (max(a[2], b[2]), max(a[3], b[3]), min(a[4], b[4]), min(a[5], b[5]))
        dx, dy = area[2] - area[0], area[3] - area[1]
        if dx > OVERLAP_UNITS and dy > OVERLAP_UNITS and not hidden(min(a[0], b[0]), area,
                                                                   backdrops):
            out.append(f"text {a[1][:30]!r} lies on {b[1][:30]!r} ({dx:.2f} x {dy:.2f} units)")
    return out


def frame_problems(png: Path) -> list[str]:
    from PIL import Image
    problems = edge_problems(np.asarray(Image.open(png).convert("RGB")))
    state = png.with_suffix(".json")
    if state.is_file():
        problems += overlap_problems(json.loads(state.read_text()))
    return problems


def folder_problems(folder: Path) -> list[str]:
    """`<png>: problem` for every beat frame of a preview folder."""
    return [f"{png}: {p}" for png in sorted(Path(folder).glob("[0-9][0-9]_*.png"))
            for p in frame_problems(png)]


def main(argv: list[str] | None = None) -> int:
    folders = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not folders:
        print("usage: python -m layerwise_pipeline.layoutcheck FRAMES_DIR [...]", file=sys.stderr)
        return 2
    problems = [p for f in folders for p in folder_problems(f)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
