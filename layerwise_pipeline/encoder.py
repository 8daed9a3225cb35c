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
  when the sample matches.
"""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
from av.video.reformatter import VideoReformatter
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

_ROW_SAMPLE = 37            # every 37th row is compared before the whole frame


class SegmentEncoder(VideoSegmentEncoder):
    """Manim's `VideoSegmentEncoder` with the conversions above saved."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._reformatter = VideoReformatter()
        self._last: tuple[np.ndarray, av.VideoFrame] | None = None
        self.converted = 0          # conversions made (the test reads it)

    def _picture(self, pixels: np.ndarray) -> av.VideoFrame:
        last = self._last
        if last is not None and same_pixels(pixels, last[0]):
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


def same_pixels(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two frames are equal, byte for byte (a cheap sample of rows first)."""
    if a is b:
        return True
    return (a.shape == b.shape and np.array_equal(a[::_ROW_SAMPLE], b[::_ROW_SAMPLE])
            and np.array_equal(a, b))


def _create_segment_encoder(self, target):
    if self.video_encoder is None:
        raise RuntimeError("Video segment encoding requires resolved settings.")
    return SegmentEncoder(target=target, spec=self.video_encoder)


def install() -> None:
    """Make every Manim render in this process encode with `SegmentEncoder` (idempotent)."""
    SceneFileWriter._create_segment_encoder = _create_segment_encoder
