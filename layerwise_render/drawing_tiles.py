"""Drawing only what changed (mixed into `drawing.CachedDrawing`, which its docstring
describes under "Only what changed"): a capture on the same base, in the same view, with the
same mobjects in the same order as the last one starts from the last frame and redraws only
the tiles the changed mobjects cover, where they were and where they are."""

from __future__ import annotations

import math
import os
import weakref

import numpy as np

_DAMAGE_MAX = 0.5        # redraw only what changed when its box is at most this share
_TILE = 32               # the changed area is counted in tiles of this many pixels a side
_MITER_REACH = 6.0       # a stroke reaches at most miter limit (Cairo's 10) / 2 widths out


class _Prefix:
    """The keys of one capture's first mobjects on `base`, and the pixels after `at` of them."""
    __slots__ = ("base", "state", "keys", "at", "pixels")

    def __init__(self, base, state, keys, at, pixels):
        self.base, self.state, self.keys, self.at, self.pixels = base, state, keys, at, pixels


# Counts of how captures went (LAYERWISE_DRAW_STATS=1 prints them at exit): "damage" (drawn
# from the last frame), "same" (the last frame again), "big" (too much changed), "drawn" and
# "skipped" (mobjects after the prefix drawn again or not in "damage" captures), "shares"
# (marked share of the frame, tenths: count).
_STATS: dict = {}
if os.environ.get("LAYERWISE_DRAW_STATS"):
    import atexit

    atexit.register(lambda: print("DRAW_STATS", _STATS))


def _count(name: str, n: int = 1) -> None:
    _STATS[name] = _STATS.get(name, 0) + n


class Frame(np.ndarray):
    """A frame drawn from the one before it: `changed` is (a weak reference to that frame,
    first row, end row), the rows outside [first, end) being that frame's. The encoder
    converts only those rows (`encoder.py`)."""
    changed = None


class _Frame:
    """The last capture of a slot: its base, camera state, keys and pixels; `given` once the
    pixels were handed out (never written again, so the next capture may start from them)."""
    __slots__ = ("base", "state", "keys", "boxes", "pixels", "given")

    def __init__(self, base, state, keys, boxes, pixels):
        self.base, self.state, self.keys, self.pixels = base, state, keys, pixels
        self.boxes = boxes          # per key: its box (`_box`), None until needed
        self.given = False


class TileRedraw:
    """The tile redraw of `CachedDrawing` (it supplies `_draw`, `get_cairo_context` and the
    camera's geometry)."""

    def _damage(self, mobs, keys, last, old, same, lw, view, slot, caches) -> bool:
        """Draw this capture from the last frame of the same slot when little changed: the
        pixels outside the boxes of what changed (where it was and where it is) are the last
        frame's (every mobject over them and the base are the same); inside, the base (or
        the prefix snapshot) and every mobject whose box meets them are drawn again, in
        order, on a scratch copy, and only those pixels are taken from it. False: not done
        (the caller draws the whole capture)."""
        old_keys = last.keys
        if len(old_keys) != len(keys):
            return False
        changed = [i for i, (a, b) in enumerate(zip(keys, old_keys)) if a != b]
        d = self.__dict__
        lasts = d["_lasts"]
        if not changed:                      # the very frame of last time: hand it out again
            _count("same")
            d["_pending"] = None
            d["_pixel_array"], d["_given"] = last.pixels, True
            lasts[slot] = last
            return True
        box = self._box_of(lw)
        ph, pw = last.pixels.shape[:2]
        old_boxes = last.boxes
        boxes = list(old_boxes)
        T = _TILE
        grid = np.zeros(((ph + T - 1) // T, (pw + T - 1) // T), dtype=bool)
        for i in changed:
            b_old = old_boxes[i]
            if b_old is None:
                b_old = box(old_keys[i])
            b_new = boxes[i] = box(keys[i])
            for b in (b_old, b_new):
                if b is None:
                    return False
                x0, y0, x1, y1 = max(b[0], 0), max(b[1], 0), min(b[2], pw), min(b[3], ph)
                if x1 > x0 and y1 > y0:
                    grid[y0 // T:(y1 - 1) // T + 1, x0 // T:(x1 - 1) // T + 1] = True
        share = grid.mean()
        if share > _DAMAGE_MAX:
            _count("big")
            return False
        scratch = d.get("_scratch")
        if scratch is None or scratch.shape != last.pixels.shape:
            scratch = d["_scratch"] = np.empty_like(last.pixels)
        start, src = 0, self._base
        if old is not None and old.pixels is not None and same >= old.at:
            start, src = old.at, old.pixels
        draw = []
        for i in range(start, len(mobs)):
            b = boxes[i]
            if b is None:
                b = boxes[i] = box(keys[i])
                if b is None:
                    return False
            x0, y0, x1, y1 = max(b[0], 0), max(b[1], 0), min(b[2], pw), min(b[3], ph)
            if (x1 > x0 and y1 > y0
                    and grid[y0 // T:(y1 - 1) // T + 1, x0 // T:(x1 - 1) // T + 1].any()):
                draw.append(mobs[i])
        rects = _runs(grid, T, pw, ph)
        _count("damage")
        _count("drawn", len(draw))
        _count("skipped", len(mobs) - start - len(draw))
        shares = _STATS.setdefault("shares", {})
        tenth = round(float(share), 1)
        shares[tenth] = shares.get(tenth, 0) + 1
        for y0, y1, x0, x1 in rects:
            scratch[y0:y1, x0:x1] = src[y0:y1, x0:x1]
        if draw:
            ctx = self.get_cairo_context(scratch)
            for m in draw:
                self._draw(m, ctx, lw, view)
        d["_pending"] = None
        out = np.empty_like(last.pixels)
        np.copyto(out, last.pixels)
        for y0, y1, x0, x1 in rects:
            out[y0:y1, x0:x1] = scratch[y0:y1, x0:x1]
        out = out.view(Frame)
        out.changed = (weakref.ref(last.pixels), min((r[0] for r in rects), default=0),
                       max((r[1] for r in rects), default=0))
        d["_pixel_array"], d["_given"] = out, False
        if old is not None:
            caches[slot] = _Prefix(old.base, old.state, keys, old.at if same >= old.at else 0,
                                   old.pixels if same >= old.at else None)
        lasts[slot] = _Frame(self._base, last.state, keys, boxes, out)
        return True

    def _box_of(self, lw):
        """key -> (x0, y0, x1, y1), the pixels a mobject drawn with that key can touch in
        this view (its points' box in device coordinates, widened by its stroke's reach and
        two pixels of antialiasing), or None when that is not known."""
        sx = self.pixel_width / self.frame_width
        sy = self.pixel_height / self.frame_height
        cx, cy = float(self.frame_center[0]), float(self.frame_center[1])
        hw, hh = self.pixel_width / 2, self.pixel_height / 2
        reach = lw[0] * lw[1] * max(sx, sy) * _MITER_REACH
        floor, ceil = math.floor, math.ceil

        def box(key):
            shape, data = key[1], key[2]
            if len(shape) != 2 or shape[1] < 2 or len(data) != 8 * shape[0] * shape[1]:
                return None
            pts = np.frombuffer(data, dtype=np.float64).reshape(shape)[:, :2]
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            if not (np.isfinite(lo).all() and np.isfinite(hi).all()):
                return None
            w = max(key[9], key[10]) * reach + 2.0
            return (floor((lo[0] - cx) * sx + hw - w), floor(-(hi[1] - cy) * sy + hh - w),
                    ceil((hi[0] - cx) * sx + hw + w) + 1, ceil(-(lo[1] - cy) * sy + hh + w) + 1)
        return box


def _runs(grid: np.ndarray, T: int, pw: int, ph: int) -> list[tuple[int, int, int, int]]:
    """The marked tiles of `grid` as pixel rectangles (y0, y1, x0, x1): runs of marked tiles
    along each row of tiles, a run repeated on the next rows taken as one rectangle."""
    out: list = []
    open_runs: dict = {}                 # (x0, x1) -> index in out, still growing downwards
    for r in range(grid.shape[0]):
        row = grid[r]
        y0, y1 = r * T, min((r + 1) * T, ph)
        runs = []
        if row.any():
            edges = np.flatnonzero(np.diff(np.concatenate(([0], row.view(np.int8), [0]))))
            runs = [(int(a) * T, min(int(b) * T, pw)) for a, b in zip(edges[::2], edges[1::2])]
        grown = {}
        for run in runs:
            j = open_runs.get(run)
            if j is not None:
                ry0, _, rx0, rx1 = out[j]
                out[j] = (ry0, y1, rx0, rx1)
            else:
                j = len(out)
                out.append((y0, y1, run[0], run[1]))
            grown[run] = j
        open_runs = grown
    return out
