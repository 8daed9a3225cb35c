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
  are copied into a copy of the last frame (`drawing_tiles.py`). A capture where
  nothing changed hands out the last frame itself (the encoder then reuses its conversion).
  More than half the frame marked: the whole capture is drawn as before.
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

from collections import OrderedDict

import numpy as np
from manim import Mobject, VMobject
from manim.camera.camera import CAP_STYLE_MAP, LINE_JOIN_MAP

from .drawing_tiles import TileRedraw, _Frame, _Prefix

_PATHS_MAX = 4_000       # distinct point arrays whose subpaths are kept (least recent dropped)
_MIN_SNAPSHOT = 6        # a copy of the frame is worth it only when it saves this many draws


class _Odd(Exception):
    """A family that Manim's generic walk would not treat as `_families` does."""


class CachedDrawing(TileRedraw):
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
