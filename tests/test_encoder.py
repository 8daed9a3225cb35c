"""The render's segment encoder (layerwise_render/encoder.py) writes the bytes Manim's own
encoder writes, converting each distinct frame once."""

from fractions import Fraction

import av
import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from layerwise_render.encoder import SegmentEncoder, same_pixels
from layerwise_render.session import X264


def frames():
    """(pixels, repeat): moving frames, a held frame repeated, an equal copy of it, a frame
    that differs from it in one pixel of a row the sample skips, and motion again."""
    rng = np.random.default_rng(3)
    base = rng.integers(0, 256, (120, 160, 4), dtype=np.uint8)
    base[..., 3] = 255
    out = []
    for i in range(6):
        f = base.copy()
        f[10 + 5 * i:30 + 5 * i, 20:60, :3] = 40 * i
        out.append((f, 1))
    held = out[-1][0]
    out += [(held, 3), (held.copy(), 1), (held.copy(), 2)]
    odd = held.copy()
    odd[1, 7, 0] ^= 0xFF            # row 1: not in the sample of every 37th row
    out += [(odd, 1), (held.copy(), 1)]
    for i in range(4):
        f = base.copy()
        f[50:70, 30 + 10 * i:60 + 10 * i, 1] = 200
        out.append((f, 1))
    return out


def encode(cls, target):
    spec = VideoEncoderSpec(container_format="mp4", codec="libx264", pixel_format="yuv420p",
                            width=160, height=120, frame_rate=Fraction(15),
                            options=tuple(X264.items()))
    enc = cls(target=target, spec=spec)
    for pixels, repeat in frames():
        enc.write_frame(pixels.copy(), repeat=repeat)     # the writer owns what it gets
    enc.finish()
    with av.open(str(target)) as c:
        packets = [(p.pts, bytes(p)) for p in c.demux(video=0) if p.size]
    return enc, packets


def test_the_packets_are_manims_own(tmp_path):
    _, theirs = encode(VideoSegmentEncoder, tmp_path / "manim.mp4")
    ours_enc, ours = encode(SegmentEncoder, tmp_path / "ours.mp4")
    assert len(ours) == sum(r for _, r in frames()) == len(theirs)
    assert ours == theirs
    # 6 moving (the last is the held one), odd, held again, 4 moving: the repeats and the
    # equal copies reuse a conversion
    assert ours_enc.converted == 12


def test_equal_frames_are_found_and_unequal_ones_are_not():
    a = np.zeros((74, 8, 4), np.uint8)
    assert same_pixels(a, a.copy())
    b = a.copy()
    b[36, 3, 2] = 1                  # a row outside the sample
    assert not same_pixels(a, b)
    b = a.copy()
    b[37, 0, 0] = 1                  # a sampled row
    assert not same_pixels(a, b)
    assert not same_pixels(a, np.zeros((74, 9, 4), np.uint8))


@pytest.mark.parametrize("bad", [0, -1, True])
def test_a_bad_repeat_is_refused_as_manims_is(tmp_path, bad):
    spec = VideoEncoderSpec(container_format="mp4", codec="libx264", pixel_format="yuv420p",
                            width=160, height=120, frame_rate=Fraction(15),
                            options=tuple(X264.items()))
    enc = SegmentEncoder(target=tmp_path / "x.mp4", spec=spec)
    with pytest.raises(ValueError):
        enc.write_frame(np.zeros((120, 160, 4), np.uint8), repeat=bad)
    enc.abort()


@pytest.mark.parametrize("h, w", [(240, 320), (1080, 1920)])
def test_a_band_of_changed_rows_converts_as_the_whole_frame(tmp_path, h, w):
    """Frames drawn from the one before (`layerwise_render.drawing_tiles.Frame`, which names the rows that
    changed) are converted a band of rows at a time: the packets are still Manim's own. Bands
    at the top and bottom edges, in the middle, one row high, odd and even rows, empty, and
    changes taller than a band."""
    import weakref
    from layerwise_render.drawing_tiles import Frame
    rng = np.random.default_rng(11)
    first = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
    first[..., 3] = 255
    plain, annotated = [first], [first.view(Frame)]
    bands = [(0, 7), (100, 131), (h - 7, h), (57, 58), (0, 0), (10, h - 10), (120, 122),
             (1, h - 1), (64, 65), (h // 2 - 1, h // 2 + 2), (h - 1, h), (0, 1), (33, 34)]
    for y0, y1 in bands:
        f = plain[-1].copy()
        f[y0:y1, 5:w - 3, :3] = rng.integers(0, 256, (y1 - y0, w - 8, 3), dtype=np.uint8)
        plain.append(f)
        a = f.copy().view(Frame)
        a.changed = (weakref.ref(annotated[-1]), y0, y1)
        annotated.append(a)
    spec = VideoEncoderSpec(container_format="mp4", codec="libx264", pixel_format="yuv420p",
                            width=w, height=h, frame_rate=Fraction(60),
                            options=tuple(X264.items()))

    def run(cls, frames, target):
        enc = cls(target=target, spec=spec)
        for f in frames:
            enc.write_frame(f, repeat=1)
        enc.finish()
        with av.open(str(target)) as c:
            return enc, [(p.pts, bytes(p)) for p in c.demux(video=0) if p.size]
    _, theirs = run(VideoSegmentEncoder, [f.copy() for f in plain], tmp_path / "manim.mp4")
    ours_enc, ours = run(SegmentEncoder, annotated, tmp_path / "ours.mp4")
    assert ours == theirs
    assert ours_enc.partial >= 8
