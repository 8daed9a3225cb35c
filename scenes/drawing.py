"""Cheaper drawing for Manim's Cairo camera, pixel for pixel the same frames.

Manim redraws, on every frame of a play, every mobject from the first one that moves to the
top of the scene (all that could be drawn over); each draw re-derives the path from the
points with numpy and goes through several layers of Python. `CachedDrawing` (a camera
mixin) makes the same Cairo calls with the same numbers, and skips only calls that cannot
change a pixel:

- **A prefix snapshot.** Drawing is deterministic: the same background, the same mobjects in
  the same order with the same points, colours, widths and joints, the same camera, give the
  same pixels. Each capture compares a key per mobject (everything a draw reads) with the
  previous capture on the same background; the pixels after the unchanged leading run are
  copied aside, and the next capture whose leading run still matches starts from that copy
  and draws only the rest (a `LaggedStart` over a grid: the finished cells). The static
  background of consecutive plays is cached the same way. Keys are computed for the
  unchanged run and a short window after it, not for every mobject of every frame.
- **Transparent paint skipped.** A fill or stroke whose colours all have alpha 0 (or whose
  width is 0) leaves every pixel as it was (Cairo's OVER with a clear source), so its calls
  are left out; a mobject with nothing visible is not drawn at all.
- **Families without generators.** The list of what to draw (every family member with
  points, the last occurrence of each kept, sorted by z-index) is built once per member
  with list copies, not by Manim's nested generators once per member of a flattened list.
- **Paths by points.** The subpath split and closing of a point array are computed once per
  distinct array (least recently used dropped); the same curve calls follow. A path drawn a
  second time in the same camera view is kept as Cairo's own copy (`copy_path`) and given
  back with `append_path`: the same device coordinates (Cairo rounds them to its fixed point
  when the path is built; the copy goes back to user space with the inverse matrix and
  comes back to the same fixed points), one call instead of one per curve.
- **Only what changed.** A capture on the same base (the background, or a play's static
  image) in the same view, with the same mobjects in the same order as the last one, starts
  from the last frame: each mobject whose key changed marks the tiles its box covers, where
  it was and where it is (points' box in device pixels, widened by its stroke's reach (the
  miter limit) and antialiasing); outside those tiles every pixel is the last frame's (the
  same base under the same mobjects). Inside them the base (or the prefix snapshot) is
  restored on a scratch frame and every mobject whose box meets a marked tile is drawn
  again, in order, without a clip (what it paints outside the tiles is not taken); the tiles
  are copied into a copy of the last frame. A capture where nothing changed hands out the
  last frame itself (the encoder then reuses its conversion). More than half the frame
  marked: the whole capture is drawn as before.
- **Frames without copies.** The frame goes to the encoder (or becomes a play's static
  image) as the array it was drawn in (`take_frame` replaces Manim's `get_frame` copy); the
  camera never writes to an array it handed out, and draws the next frame into a new one.
  A background is copied into the frame only when it is read, so a capture that starts from
  a snapshot copies once.

Anything else (images, background-image fills, mobject classes that draw or walk their
family their own way, a capture not starting from a freshly set background) takes Manim's
own path.
"""

from __future__ import annotations

import math
import os
import weakref
from collections import OrderedDict

import numpy as np
from manim import Mobject, VMobject
from manim.camera.camera import CAP_STYLE_MAP, LINE_JOIN_MAP

_PATHS_MAX = 4_000       # distinct point arrays whose subpaths are kept (least recent dropped)
_MIN_SNAPSHOT = 6        # a copy of the frame is worth it only when it saves this many draws
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
    converts only those rows (`layerwise_pipeline/encoder.py`)."""
    changed = None


class _Frame:
    """The last capture of a slot: its base, camera state, keys and pixels; `given` once the
    pixels were handed out (never written again, so the next capture may start from them)."""
    __slots__ = ("base", "state", "keys", "boxes", "pixels", "given")

    def __init__(self, base, state, keys, boxes, pixels):
        self.base, self.state, self.keys, self.pixels = base, state, keys, pixels
        self.boxes = boxes          # per key: its box (`_box`), None until needed
        self.given = False


class _Odd(Exception):
    """A family that Manim's generic walk would not treat as `_families` does."""


class CachedDrawing:
    """Mixin for a Manim `Camera` (see the module docstring)."""

    _base = None            # the array the pixels were last set from (identity)
    _fresh = False          # pixels equal `_base` (nothing drawn since)
    _given = False          # the pixel array was handed out (`take_frame`): never written again

    # --- the pixel array: set lazily, handed out without a copy -----------------------------
    @property
    def pixel_array(self):
        """The frame's pixels. Setting them from a background is deferred until they are
        read (`_pending`), so a capture that starts from a snapshot copies only once."""
        d = self.__dict__
        pending = d.get("_pending")
        if pending is not None:
            d["_pending"] = None
            np.copyto(self._own_pixels(), pending, casting="unsafe")
        try:
            return d["_pixel_array"]
        except KeyError:
            raise AttributeError("pixel_array") from None

    @pixel_array.setter
    def pixel_array(self, value) -> None:
        d = self.__dict__
        d["_pending"] = None
        d["_pixel_array"] = value
        d["_given"] = False

    def _own_pixels(self) -> np.ndarray:
        """The array to draw into: a new one if the current one was handed out."""
        d = self.__dict__
        if d.get("_given"):
            d["_pixel_array"] = np.empty_like(d["_pixel_array"])
            d["_given"] = False
        return d["_pixel_array"]

    def set_pixel_array(self, pixel_array, convert_from_floats: bool = False) -> None:
        current = self.__dict__.get("_pixel_array")
        if (not convert_from_floats and isinstance(pixel_array, np.ndarray)
                and current is not None and pixel_array.shape == current.shape):
            # Manim's in-place copy (`np.copyto(..., casting="unsafe")`), when first read
            self.__dict__["_pending"] = pixel_array
        else:
            if self._given:
                self._own_pixels()
            super().set_pixel_array(pixel_array, convert_from_floats)
        self._base = pixel_array if not convert_from_floats else None
        self._fresh = self._base is not None

    def take_frame(self) -> np.ndarray:
        """`CairoRenderer.get_frame`: the frame itself instead of a copy of it. The camera
        never writes to an array it handed out (the next frame is drawn into a new one), so
        the encoder, which owns what it is given, and a play's static image can keep it."""
        pixels = self.pixel_array
        self._given = True
        for last in self.__dict__.get("_lasts", {}).values():
            if last.pixels is pixels:
                last.given = True
        return pixels

    # A context per capture (as Manim's MovingCamera): the pixel array changes from frame to
    # frame, and a context cached by the id of a freed array could outlive it.
    def get_cached_cairo_context(self, pixel_array):
        return None

    def cache_cairo_context(self, pixel_array, ctx) -> None:
        pass

    # --- what to draw ---------------------------------------------------------------------
    def get_mobjects_to_display(self, mobjects, include_submobjects: bool = True,
                                excluded_mobjects=None):
        """Manim's `Camera.get_mobjects_to_display`: the same list in the same order."""
        mobjects = list(mobjects)
        if include_submobjects and not excluded_mobjects:
            try:
                kept = _families(mobjects)
            except _Odd:
                pass
            else:
                if self.use_z_index:
                    return sorted(kept, key=lambda m: m.z_index)
                return kept
        return super().get_mobjects_to_display(mobjects, include_submobjects,
                                               excluded_mobjects)

    # --- captures ------------------------------------------------------------------------
    def capture_mobjects(self, mobjects, **kwargs) -> None:
        d = self.__dict__
        if d.get("_given") and d.get("_pending") is None:     # drawing on a handed-out frame
            d["_pixel_array"], d["_given"] = d["_pixel_array"].copy(), False
        fresh, self._fresh = self._fresh, False
        mobs = self.get_mobjects_to_display(mobjects, **kwargs) if fresh else None
        if not fresh or not self._lean_camera() or not all(_plain(m) for m in mobs):
            d.pop("_lasts", None)
            super().capture_mobjects(mobjects, **kwargs)
            return
        if not mobs:
            return
        lw = (self.cairo_line_width_multiple, self.frame_width / self.frame_width)
        state = (self._camera_key(), lw)
        if state != d.get("_view_state"):          # a new view: Cairo's paths of the last
            d["_view_state"] = state               # one are in other device coordinates
            d["_view"] = d.get("_view", 0) + 1
        view = d["_view"]
        caches = self.__dict__.setdefault("_prefixes", {})
        slot = "reset" if self._base is getattr(self, "background", None) else "play"
        old = caches.get(slot)
        if old is not None and not (old.base is self._base and old.state == state):
            old = None
        keys = [_draw_key(m) for m in mobs]
        same = _same_run(keys, old.keys if old is not None else ())
        lasts = d.setdefault("_lasts", {})
        last = lasts.pop(slot, None)
        if (last is not None and last.given and last.base is self._base
                and last.state == state and self._damage(mobs, keys, last, old, same, lw, view,
                                                         slot, caches)):
            return
        start, at, pixels = 0, 0, None
        if old is not None and old.pixels is not None and same >= old.at:
            self.__dict__["_pending"] = None       # the background is covered by the copy
            np.copyto(self._own_pixels(), old.pixels)
            start = at = old.at
            pixels = old.pixels
        ctx = self.get_cairo_context(self.pixel_array)
        if same - start >= _MIN_SNAPSHOT:
            for m in mobs[start:same]:
                self._draw(m, ctx, lw, view)
            at, pixels = same, self.pixel_array.copy()
            start = same
        for m in mobs[start:]:
            self._draw(m, ctx, lw, view)
        caches[slot] = _Prefix(self._base, state, keys, at, pixels)
        lasts[slot] = _Frame(self._base, state, keys, [None] * len(keys), self.pixel_array)

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

    def _lean_camera(self) -> bool:
        """Whether this camera draws a VMobject as Manim's `Camera` does (no override)."""
        cls = type(self)
        ok = _LEAN.get(cls)
        if ok is None:
            from manim.camera.camera import Camera
            ok = _LEAN[cls] = all(getattr(cls, name) is getattr(Camera, name) for name in (
                "display_vectorized", "apply_fill", "apply_stroke", "get_fill_rgbas",
                "get_stroke_rgbas", "transform_points_pre_display", "set_cairo_context_color",
                "display_multiple_vectorized_mobjects",
                "display_multiple_non_background_colored_vmobjects"))
        return ok

    def _camera_key(self) -> tuple:
        return (np.asarray(self.frame_center, dtype=float).tobytes(), float(self.frame_width),
                float(self.frame_height), self.pixel_width, self.pixel_height,
                self.__dict__["_pixel_array"].shape)

    # --- one mobject -----------------------------------------------------------------------
    def _draw(self, m, ctx, lw, view=None) -> None:
        """`Camera.display_vectorized(m, ctx)` for a plain VMobject: background stroke, fill,
        stroke, each left out when it is transparent."""
        fill = m.get_fill_rgbas()
        stroke, back = m.get_stroke_rgbas(), m.get_stroke_rgbas(True)
        back_w, stroke_w = m.get_stroke_width(True), m.get_stroke_width()
        do_back = back_w != 0 and back[:, 3].any()
        do_fill = fill[:, 3].any()
        do_stroke = stroke_w != 0 and stroke[:, 3].any()
        if not (do_back or do_fill or do_stroke):
            return
        self.set_cairo_context_path(ctx, m, view)
        if do_back:
            self._stroke(ctx, m, back, back_w, lw)
        if do_fill:
            self.set_cairo_context_color(ctx, fill, m)
            ctx.fill_preserve()
        if do_stroke:
            self._stroke(ctx, m, stroke, stroke_w, lw)

    def _stroke(self, ctx, m, rgbas, width, lw) -> None:
        """`Camera.apply_stroke` once its width is known not to be 0."""
        self.set_cairo_context_color(ctx, rgbas, m)
        ctx.set_line_width(width * lw[0] * lw[1])
        ctx.set_line_join(LINE_JOIN_MAP[m.joint_type])
        ctx.set_line_cap(CAP_STYLE_MAP[m.cap_style])
        ctx.stroke_preserve()

    def set_cairo_context_path(self, ctx, vmobject, view: int | None = None):
        """Manim's `Camera.set_cairo_context_path`, with the subpaths of each distinct point
        array computed once. With `view` (a number for the camera's view, see
        `capture_mobjects`), a path drawn again in the same view is Cairo's copy of the one
        built the time before (`append_path`): the same device coordinates, rounded to
        Cairo's fixed point the same way, in one call instead of one per curve."""
        points = vmobject.points
        if len(points) == 0:
            return self
        paths = self.__dict__.get("_paths")
        if paths is None:
            paths = self._paths = OrderedDict()
        key = (points.shape, points.tobytes(), vmobject.n_points_per_cubic_curve,
               type(vmobject).consider_points_equals_2d, vmobject.tolerance_for_point_equality)
        plan = paths.get(key)
        if plan is None:
            # [flat xy, subpaths, Cairo's path, the view it is in, the view last drawn in]
            plan = paths[key] = [*self._path_plan(vmobject, points), None, None, None]
            if len(paths) > _PATHS_MAX:
                paths.popitem(last=False)
        else:
            paths.move_to_end(key)
        ctx.new_path()
        if view is not None and plan[3] == view:
            ctx.append_path(plan[2])
            return self
        xy, subpaths = plan[0], plan[1]
        _move_to, _curve_to = ctx.move_to, ctx.curve_to
        _new_sub_path, _close_path = ctx.new_sub_path, ctx.close_path
        for start, curves, closed in subpaths:
            _new_sub_path()
            _move_to(xy[start], xy[start + 1])
            for b in curves:
                _curve_to(xy[b], xy[b + 1], xy[b + 2], xy[b + 3], xy[b + 4], xy[b + 5])
            if closed:
                _close_path()
        if view is not None:
            if plan[4] == view:             # drawn a second time in this view: keep Cairo's
                plan[2], plan[3] = ctx.copy_path(), view
            plan[4] = view
        return self

    def _path_plan(self, vmobject, points):
        """(flat xy, [(start offset, curve offsets, closed)]): exactly the calls Manim's loop
        makes for these points."""
        points = self.transform_points_pre_display(vmobject, points)
        nppcc = vmobject.n_points_per_cubic_curve
        split = vmobject.get_subpath_split_indices_from_points(points, n_dims=2)
        xy = points[:, :2].ravel()
        subpaths = []
        for start_idx, end_idx in split:
            start_idx, end_idx = int(start_idx), int(end_idx)
            if end_idx - start_idx < nppcc:
                continue
            curves = tuple((i + 1) * 2 for i in range(start_idx, end_idx - nppcc + 1, nppcc))
            closed = bool(vmobject.consider_points_equals_2d(points[start_idx],
                                                             points[end_idx - 1]))
            subpaths.append((start_idx * 2, curves, closed))
        return xy.copy(), subpaths


_NO_RGBAS = np.zeros((1, 4))


def _draw_key(m) -> tuple:
    """Everything drawing `m` reads from it (what VMobject's getters return, read directly:
    `_plain` classes do not override them)."""
    fill = getattr(m, "fill_rgbas", _NO_RGBAS)
    stroke = getattr(m, "stroke_rgbas", _NO_RGBAS)
    back = getattr(m, "background_stroke_rgbas", _NO_RGBAS)
    width = m.stroke_width
    if isinstance(width, str):
        width = int(width)
    gradient = None
    if len(fill) > 1 or len(stroke) > 1 or len(back) > 1:
        gradient = np.asarray(m.get_gradient_start_and_end_points(), dtype=float).tobytes()
    points = m.points
    return (id(m), points.shape, points.tobytes(), fill.shape, fill.tobytes(),
            stroke.shape, stroke.tobytes(), back.shape, back.tobytes(),
            max(0.0, width), max(0.0, m.background_stroke_width), m.joint_type, m.cap_style,
            gradient)


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


def _same_run(keys: list, old: tuple | list) -> int:
    """The length of the leading run of `keys` equal to `old`'s."""
    n = min(len(keys), len(old))
    i = 0
    while i < n and keys[i] == old[i]:
        i += 1
    return i


_LEAN: dict[type, bool] = {}
_PLAIN: dict[type, bool] = {}
_STANDARD: dict[type, bool] = {}


def _plain(m) -> bool:
    """A VMobject drawn by `Camera.display_vectorized` (no background image), whose
    colours, widths and gradient are read by VMobject's own methods."""
    cls = type(m)
    ok = _PLAIN.get(cls)
    if ok is None:
        ok = _PLAIN[cls] = isinstance(m, VMobject) and all(
            getattr(cls, name) is getattr(VMobject, name) for name in (
                "get_fill_rgbas", "get_stroke_rgbas", "get_stroke_width",
                "get_background_image", "get_gradient_start_and_end_points",
                "get_subpath_split_indices_from_points", "consider_points_equals_2d"))
    return ok and not getattr(m, "background_image", None)


def _standard_family(m) -> bool:
    """Whether `m`'s class walks its family as `Mobject` does."""
    cls = type(m)
    ok = _STANDARD.get(cls)
    if ok is None:
        ok = _STANDARD[cls] = (
            isinstance(m, Mobject) and cls.get_family is Mobject.get_family
            and cls._iter_family is Mobject._iter_family
            and cls.family_members_with_points is Mobject.family_members_with_points
            and cls.get_num_points is Mobject.get_num_points)
    return ok


def _families(mobjects: list) -> list:
    """`extract_mobject_family_members(mobjects, only_those_with_points=True)` before its
    z-index sort. Each member's family (depth first, as `Mobject._iter_family`) is built once
    and reused by its ancestors; duplicates are dropped once over the whole list, keeping
    the last occurrence of each, which is what Manim's per-family then overall
    de-duplication keeps. A family that contains itself raises `_Odd` (Manim skips the
    repeat; no scene builds one)."""
    memo: dict = {}

    def family(m, active: set) -> list:
        f = memo.get(m)
        if f is not None:
            return f
        if m in active or not _standard_family(m):
            raise _Odd
        active.add(m)
        f = [m]
        for sub in m.submobjects:
            f.extend(family(sub, active))
        active.remove(m)
        memo[m] = f
        return f

    walked: list = []
    for m in mobjects:
        walked.extend(family(m, set()))
    kept = list(dict.fromkeys(reversed(walked)))
    kept.reverse()
    return [m for m in kept if len(m.points) > 0]
