"""Render storyboards from their plans: `python -m layerwise_pipeline.render [--quality l] [--preview] FILE...`.

Plans must be built first (`layerwise plan FILE...`, which `make render` does); this process
never imports torch. Outputs follow Manim's layout under media/: videos/<quality>/<name>.mp4,
sections/, the .srt subtitles, and with --preview (or --frames DIR) one PNG per beat.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

from layerwise_core.atomic import write_text
from layerwise_core.templates import TEMPLATES

from .provenance import manifest
from .review import contact_sheet

QUALITIES = {"l": "low_quality", "m": "medium_quality", "h": "high_quality",
             "p": "production_quality", "k": "fourk_quality"}
MEDIA = Path("media")


class RenderError(Exception):
    pass


def load_plan(storyboard: Path, media_dir: Path = MEDIA) -> dict:
    """The plan built for `storyboard`; refuses a missing or stale one."""
    path = media_dir / "plans" / f"{storyboard.stem}.json"
    if not path.is_file():
        raise RenderError(f"{storyboard}: no plan at {path}; run 'layerwise plan {storyboard}'")
    plan = json.loads(path.read_text(encoding="utf-8"))
    digest = hashlib.sha256(storyboard.read_bytes()).hexdigest()
    if plan["storyboard"]["sha256"] != digest:
        raise RenderError(f"{storyboard}: plan {path} is stale (storyboard changed); "
                          f"run 'layerwise plan {storyboard}'")
    return plan


def write_json(path: Path, data: dict) -> None:
    """Atomic: a temp file in the same folder, then rename."""
    write_text(path, json.dumps(data, indent=1, sort_keys=True))


def scene_class(template: str):
    return TEMPLATES[template].scene_class()


def render(plan: dict, quality: str = "l", media_dir: Path = MEDIA, preview: bool = False,
           frames: Path | None = None, until: str | None = None) -> Path | None:
    """Render one plan (up to beat `until`, if given). Returns the video path (None for a
    preview: frames only)."""
    from manim import tempconfig
    name = plan["storyboard"]["name"]
    options = {"quality": QUALITIES[quality], "media_dir": str(media_dir), "output_file": name,
               "save_sections": True, "disable_caching": True, "verbosity": "WARNING",
               "progress_bar": "none", "video_dir": "{media_dir}/videos/{quality}",
               "images_dir": "{media_dir}/images/{quality}"}
    if preview:
        options.update(write_to_movie=False, save_sections=False, save_last_frame=True)  # skip animations
        frames = frames or media_dir / "frames"
    if frames:
        os.environ["LAYERWISE_FRAMES"] = str(frames)
    try:
        with tempconfig(options):
            from manim import config
            cls = scene_class(plan["template"])
            scene = cls()
            scene.plan, scene.until = plan, until
            start = time.perf_counter()
            scene.render()
            if preview:
                return None
            video = Path(config.get_dir("video_dir")) / f"{name}.mp4"
            record = manifest(plan, quality, config.frame_rate,
                              (config.pixel_width, config.pixel_height),
                              time.perf_counter() - start, video)
            write_json(video.with_suffix(".manifest.json"), record)
            return video
    finally:
        os.environ.pop("LAYERWISE_FRAMES", None)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m layerwise_pipeline.render", description=__doc__)
    p.add_argument("storyboards", nargs="+", type=Path)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--preview", action="store_true", help="per-beat PNG frames only, fast")
    p.add_argument("--frames", type=Path, default=None, help="also write per-beat PNG frames")
    p.add_argument("--media", type=Path, default=MEDIA)
    p.add_argument("--until", default=None, help="stop after this beat id")
    args = p.parse_args(argv)
    try:
        plans = [load_plan(s, args.media) for s in args.storyboards]
    except RenderError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for plan in plans:
        out = render(plan, args.quality, args.media, args.preview, args.frames, args.until)
        if args.preview:
            name = plan["storyboard"]["name"]
            frames = (args.frames or args.media / "frames") / name
            out = contact_sheet(plan, frames, args.media / "review" / f"{name}.png")
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
