"""Layout check of a preview: on every beat's last frame, nothing drawn touches the frame's
edge and no text lies on other text.

A preview (`render --preview`) writes, per beat, `NN_<beat>.png` and `NN_<beat>.json` (what is
on screen: every mobject's kind, centre, size, text). Two checks:
- **edge**: the outer `EDGE_PX` pixels of the PNG are background (within `EDGE_TOLERANCE` per
  channel): pixels, not boxes, since the camera may have moved.
- **overlap**: no two texts (Text, Num, math) have boxes that overlap by more than
  `OVERLAP_UNITS` in both directions (scene units; a frame is 14.22 x 8), so a label on a
  label, a number under a title or a caption over a chart is found.

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


def texts(mobjects: list[dict]) -> list[tuple[str, float, float, float, float]]:
    """(text, left, bottom, right, top) of every text in a scene state, nested ones too."""
    out = []
    for m in mobjects:
        text = m.get("text") if m.get("kind") in TEXT_KINDS else m.get("math")
        (cx, cy), (w, h) = m["center"], m["size"]
        if text and w > 0 and h > 0:
            out.append((text, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        out += texts(m.get("children", []))
    return out


def overlap_problems(state: dict) -> list[str]:
    """Every pair of texts whose boxes overlap (beyond `OVERLAP_UNITS` each way)."""
    out = []
    for a, b in combinations(texts(state["mobjects"]), 2):
        dx = min(a[3], b[3]) - max(a[1], b[1])
        dy = min(a[4], b[4]) - max(a[2], b[2])
        if dx > OVERLAP_UNITS and dy > OVERLAP_UNITS:
            out.append(f"text {a[0][:30]!r} lies on {b[0][:30]!r} ({dx:.2f} x {dy:.2f} units)")
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
