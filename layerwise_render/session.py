"""A Manim session: the one place where Manim's global configuration is set for a render.

Every render (a whole video, a run of beats, a slide deck) runs its scene inside
`manim_session(manim_options(...))`: Manim's `tempconfig` with layerwise's settings, the
patches of `manim_patches` installed, and PyAV's noise about sound muxing filtered out.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from .manim_patches import check_versions, use_segment_encoder

QUALITIES = {"l": "low_quality", "m": "medium_quality", "h": "high_quality",
             "p": "production_quality", "k": "fourk_quality"}
# libx264 at Manim's quality (crf 23) with the "ultrafast" preset instead of its default
# "medium". Measured on 450 frames of a 1080p60 context_qkv render, re-encoded from a
# lossless encode of it: encoder CPU 9.9 ms a frame instead of 25.5; PSNR against the
# lossless frames 57.2 dB mean / 53.5 worst frame instead of 49.3 / 44.1; files 2.9x as
# large (about 2 Mbit/s at 1080p60). ("superfast", 14.4 ms, left a beat's packet timestamps
# a few ticks off a frame after Manim's concat join; the chapter test caught it.) Every
# render, beat run and slide export uses it; it is part of every beat's cache key.
X264 = {"crf": "23", "preset": "ultrafast"}


def manim_options(quality: str, media_dir: Path, name: str, **overrides) -> dict:
    """Manim's configuration for rendering storyboard `name` at `quality` ("l", "h", ...)
    into `media_dir`: no Manim cache, quiet, layerwise's encoder settings; `overrides` last."""
    return {"quality": QUALITIES[quality], "media_dir": str(media_dir), "output_file": name,
            "disable_caching": True, "verbosity": "WARNING", "progress_bar": "none",
            "video_encoder_options": X264, **overrides}


class _QuietSoundMux:
    """Drops PyAV's "Some options were not used" warning, printed for every video with sound
    (Manim's sound muxing passes options PyAV does not use); every other message passes."""

    def filter(self, record) -> bool:
        return not str(record.msg).startswith("Some options were not used")


@contextlib.contextmanager
def manim_session(options: dict):
    """Manim configured by `options` for the block, layerwise's patches installed."""
    from manim import config, tempconfig
    check_versions("manim")
    use_segment_encoder()
    with tempconfig(options):
        mux_log = logging.getLogger("av.container.output")
        if not any(isinstance(f, _QuietSoundMux) for f in mux_log.filters):
            mux_log.addFilter(_QuietSoundMux())
        yield config


def frame_facts(quality: str) -> tuple[float, tuple[int, int], str]:
    """(frame rate, (width, height) in px, Manim's video folder name such as "480p15")."""
    from manim import config, tempconfig
    with tempconfig({"quality": QUALITIES[quality]}):
        return (config.frame_rate, (config.pixel_width, config.pixel_height),
                f"{config.pixel_height}p{config.frame_rate:g}")
