"""Frame encoding for every render: Manim's segment encoder, minus work that cannot change the
video.

Manim 0.22 hands each frame to `VideoSegmentEncoder.write_frame` (in its encoder thread), which
copies the RGBA array into a new `av.VideoFrame`, and the encoder converts that to YUV 4:2:0
before x264 sees it, once for every frame, a held frame shown `repeat` times included. At
1080p the copy and the conversion cost about 2 and 5-6 ms of CPU a frame, beside x264's 7-8.

`SegmentEncoder` makes the same conversion with the same converter settings the encoder would
use (`VideoCodecContext._prepare_frames_for_encode`: size, format, thread count), so x264 gets
the same pictures and writes the same bytes (`tests/test_encoder.py` compares the packets),
and skips only repeated work:
- no copy: Manim gives up the array ("the caller must not mutate or reuse pixels"), so the
  frame wraps it (`from_numpy_buffer`);
- a frame shown `repeat` times is converted once;
- a frame equal to the previous one (a hold that Manim redraws because something has an
  updater) reuses its conversion: a sample of rows is compared first, the whole array only
  when the sample matches;
- a frame the camera drew from the previous one (`drawing_tiles.Frame`, which names the
  rows that changed) is the previous conversion with those rows converted again, from a
  band of rows around them (`_rows`).
"""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
from av.video.reformatter import VideoReformatter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

_ROW_SAMPLE = 37            # every 37th row is compared before the whole frame
_BAND_REACH = 8             # rows (even) next to changed ones whose conversion may change
_BAND_MARGIN = 16           # rows (even) converted beyond those on each side
_BAND_STEP = 64             # band heights are multiples of this (a converter per height)
_BAND_MAX = 0.6             # a band taller than this share of the frame: convert it whole


class SegmentEncoder(VideoSegmentEncoder):
    """Manim's `VideoSegmentEncoder` with the conversions above saved."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._reformatter = VideoReformatter()
        self._last: tuple[np.ndarray, av.VideoFrame] | None = None
        self.converted = 0          # conversions made (the test reads it)
        self.partial = 0            # of which of a band of rows only
        self._bands: dict[int, VideoReformatter] = {}

    def _picture(self, pixels: np.ndarray) -> av.VideoFrame:
        last = self._last
        changed = getattr(pixels, "changed", None)
        if last is not None and changed is not None and changed[0]() is last[0]:
            y0, y1 = changed[1], changed[2]
            if y1 <= y0:                     # equal to the frame before
                self._last = (pixels, last[1])
                return last[1]
            frame = self._rows(pixels, last[1], y0, y1)
            if frame is not None:
                self.partial += 1
                self._last = (pixels, frame)
                return frame
        if last is not None and same_pixels(pixels, last[0]):
            self._last = (pixels, last[1])
            return last[1]
        ctx = self._stream.codec_context
        frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
        if (frame.format.name, frame.width, frame.height) != (ctx.format.name, ctx.width,
                                                              ctx.height):
            frame = self._reformatter.reformat(frame, ctx.width, ctx.height, ctx.format,
                                               threads=ctx.thread_count)
        self.converted += 1
        self._last = (pixels, frame)
        return frame

    def _rows(self, pixels: np.ndarray, before: av.VideoFrame, y0: int, y1: int):
        """The conversion of `pixels`, equal to the frame `before` was converted from outside
        rows [y0, y1): `before`'s planes, with the rows [y0, y1) and `_BAND_REACH` rows on
        each side (whose chroma reads them), in whole chroma rows, taken from the conversion
        of a band of rows around those. swscale's result for a row depends only on the rows
        next to it (the chroma's vertical filter), so with `_BAND_MARGIN` rows more on each
        side (or the frame's own edge) the band gives the bytes of a whole conversion
        (tests/test_encoder.py compares the packets). None: a whole conversion costs about
        as little."""
        ctx = self._stream.codec_context
        h, w = pixels.shape[:2]
        if (ctx.format.name, ctx.width, ctx.height) != ("yuv420p", w, h) or h % 2 or w % 2:
            return None
        m, r = _BAND_MARGIN, _BAND_REACH
        q0 = max(0, (y0 - r) // 2 * 2)          # the rows taken: the changed ones and the
        q1 = min(h, (y1 + r + 1) // 2 * 2)      # rows whose chroma reads them
        b0 = max(0, q0 - m)                     # the rows converted (a few band heights)
        b1 = min(h, b0 + -(-(min(h, q1 + m) - b0) // _BAND_STEP) * _BAND_STEP)
        if b1 - b0 > _BAND_MAX * h:
            return None
        band = av.VideoFrame.from_numpy_buffer(pixels[b0:b1], format="rgba")
        fmt = self._bands.get(b1 - b0)
        if fmt is None:
            fmt = self._bands[b1 - b0] = VideoReformatter()
        part = fmt.reformat(band, w, b1 - b0, ctx.format, threads=ctx.thread_count)
        p0, p1 = q0, q1
        frame = av.VideoFrame(w, h, "yuv420p")
        for i, (dst, old, new) in enumerate(zip(frame.planes, before.planes, part.planes)):
            k = 1 if i == 0 else 2
            pw = w // k
            out = _plane(dst)
            out[:, :pw] = _plane(old)[:, :pw]
            out[p0 // k:p1 // k, :pw] = _plane(new)[(p0 - b0) // k:(p1 - b0) // k, :pw]
        return frame

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
        try:
            frame = self._picture(pixels)
            for _ in range(repeat):
                frame.pts = self._next_pts
                frame.time_base = time_base
                self._next_pts += 1
                for packet in self._stream.encode(frame):
                    self._container.mux(packet)
        except BaseException as error:
            raise self._operation_error("encode", error) from error


def _plane(plane) -> np.ndarray:
    """A plane's bytes as rows (line size wide, padding included), writable in place."""
    return np.frombuffer(plane, dtype=np.uint8).reshape(plane.height, plane.line_size)


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two frames are equal, byte for byte (a cheap sample of rows first)."""
    if a is b:
        return True
    return (a.shape == b.shape and np.array_equal(a[::_ROW_SAMPLE], b[::_ROW_SAMPLE])
            and np.array_equal(a, b))
