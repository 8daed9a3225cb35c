"""Render one plan with Manim into a verified, published video set.

The quality names, reading a plan (refusing a missing or stale one), holding Ctrl-C and SIGTERM
to the scene's next frame, and `render`: a whole plan (or its per-beat preview frames) drawn in a
private work folder and published with its sections, subtitles and manifest only when PyAV reads
the video whole. The CLI (`render.py`), the beat runs (`beats.py`), the chapter, the slides and
the estimate all build on this module; it imports none of them.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import signal
import threading
import time
from pathlib import Path

from layerwise_core.atomic import describe_os_error, replacing_dir, write_text
from layerwise_core.errors import ManyLinesError, OutputError, Terminated
from layerwise_core.media import MANIM_DIRS, MEDIA, Media
from layerwise_render.session import manim_options, manim_session
from layerwise_templates import TEMPLATES

from .concat import beat_marks, mark
from .provenance import manifest
from .staging import merge_cache, publish, seed_cache, work_folder
from .videocheck import BadVideo, facts

MANIM_CACHES = ("Tex", "texts")        # Manim's content-addressed SVG caches under media/


class RenderError(ManyLinesError):
    """A render, join or publish that failed for a reason the user can act on."""


def load_plan(storyboard: Path, media_dir: Path = MEDIA) -> dict:
    """The plan built for `storyboard`; refuses a missing, unreadable or stale one."""
    path = Media(media_dir).plan(storyboard.stem)
    if not path.is_file():
        raise RenderError(f"{storyboard}: no plan at {path}; run 'layerwise plan {storyboard}'")
    try:
        plan = json.loads(path.read_text(encoding="utf-8"))
        digest = hashlib.sha256(storyboard.read_bytes()).hexdigest()
        stored = plan["storyboard"]["sha256"]
    except OSError as e:
        raise RenderError(f"{storyboard}: cannot read: {e.strerror or e}") from None
    except (ValueError, KeyError, TypeError):
        raise RenderError(f"{storyboard}: plan {path} is not a valid plan; run "
                          f"'layerwise plan {storyboard}'") from None
    if stored != digest:
        raise RenderError(f"{storyboard}: plan {path} is stale (storyboard changed); "
                          f"run 'layerwise plan {storyboard}'")
    return plan


def write_json(path: Path, data: dict) -> None:
    """Atomic: a temp file in the same folder, then rename."""
    write_text(path, json.dumps(data, indent=1, sort_keys=True))


@contextlib.contextmanager
def signals_at_checkpoints(scene):
    """While Manim renders, Ctrl-C and SIGTERM are held until the scene's next checkpoint (a
    frame or a play/wait in the main thread) and raised there as KeyboardInterrupt or
    Terminated; a second signal is raised at once. After the render, a held signal is
    raised before anything is published."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def stop(signum: int):
        raise KeyboardInterrupt() if signum == signal.SIGINT else Terminated()

    def hold(signum, frame):
        if held:
            stop(signum)
        held.append(signum)

    def checkpoint():
        if held:
            stop(held[0])

    previous = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)
                if signal.getsignal(s) is not signal.SIG_IGN}  # a pool worker ignores Ctrl-C
    scene.checkpoint = checkpoint
    try:
        yield
    finally:
        scene.checkpoint = None
        for s, h in previous.items():
            signal.signal(s, h)
    checkpoint()


def scene_class(template: str):
    return TEMPLATES[template].scene_class()


def render(plan: dict, quality: str = "l", media_dir: Path = MEDIA, preview: bool = False,
           frames: Path | None = None, until: str | None = None,
           midplay: bool = False) -> Path | None:
    """Render one plan (up to beat `until`, if given). Returns the video path (None for a
    preview: frames only). `midplay`: a preview's text records also hold the text sizes in
    the middle of every play (`StoryboardScene`).

    Everything is rendered in a private work folder (`staging.work_folder`); only a finished
    video that PyAV reads whole, with sections that add up to it, is published, together with
    its sections, subtitles and manifest (`staging.publish`). A failure or Ctrl-C at any point
    leaves the previous set under the final names and no temporary file."""
    name = plan["storyboard"]["name"]
    media_dir = Path(media_dir)
    if preview:
        frames = frames or Media(media_dir).frames()
    with work_folder(media_dir, name) as work:
        for cache in MANIM_CACHES:
            seed_cache(media_dir / cache, work / cache)
        options = manim_options(quality, work, name, save_sections=True, **MANIM_DIRS)
        if preview:
            options.update(write_to_movie=False, save_sections=False, save_last_frame=True)
        with manim_session(options) as config:
            scene = scene_class(plan["template"])(
                plan, until=until, frames_dir=Media(work).frames() if frames else None,
                midplay=midplay)
            start = time.perf_counter()
            try:
                with signals_at_checkpoints(scene):
                    scene.render()
            except Exception as e:          # Manim wraps a full disk in RuntimeError
                cause = _os_cause(e)
                if cause is None:
                    raise                   # a bug in a scene: its traceback is wanted
                raise OutputError("cannot render: " + describe_os_error(
                    OSError(cause.errno, cause.strerror), media_dir)) from None
            seconds = time.perf_counter() - start
            rate, size = config.frame_rate, (config.pixel_width, config.pixel_height)
            video_dir = Path(config.get_dir("video_dir"))
        publish_frames = (lambda: _publish_frames(Media(work).frames(name), Path(frames) / name)) \
            if frames else None
        if preview:
            staged = Media(work).images()
            images = [f for f in staged.rglob("*") if f.is_file()] if staged.is_dir() else []
            publish(media_dir, work, [(f, media_dir / f.relative_to(work)) for f in images],
                    extra=publish_frames, manifest=False)
            _merge_caches(work, media_dir)
            return None
        folder, staged, final = video_dir.name, Media(work), Media(media_dir)
        video = final.video(name, folder)
        _mark_beats(plan, staged, name, folder)
        video_facts, sections = _verify(staged, name, folder)
        record = manifest(plan, quality, rate, size, seconds, video, video_facts, sections)
        write_json(staged.manifest(name, folder), record)
        moves, remove = _video_set(staged, final, name, folder, sections)
        publish(media_dir, work, moves, remove, extra=publish_frames)
        _merge_caches(work, media_dir)
        return video


def _os_cause(e: BaseException | None) -> OSError | None:
    """The filesystem error behind `e`, following `raise ... from` and `during handling`."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, OSError) and e.errno is not None:
            return e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


def _mark_beats(plan: dict, media: Media, name: str, folder: str) -> None:
    """One chapter marker per beat in the staged video, at its section's start (the
    beat-parallel join writes the same markers: `storyboard.assemble`)."""
    index = media.section_index(name, folder)
    if not index.is_file():
        return
    durations = [float(s["duration"]) for s in json.loads(index.read_text())]
    if len(durations) == len(plan["beats"]):
        mark(media.video(name, folder), beat_marks(plan, durations))


def _verify(media: Media, name: str, folder: str) -> tuple[dict, list[str]]:
    """The video's facts, after checking it opens, every packet reads, and its sections
    (each readable too) add up to it frame for frame."""
    try:
        whole = facts(media.video(name, folder))
        index = media.section_index(name, folder)
        sections = [s["video"] for s in json.loads(index.read_text())] if index.is_file() else []
        parts = sum(facts(media.sections(folder) / s)["frames"] for s in sections)
    except BadVideo as e:
        raise RenderError(f"render produced a broken video: {e}") from None
    if sections and parts != whole["frames"]:
        raise RenderError(f"{name}: sections hold {parts} frames, the video {whole['frames']}")
    return whole, sections


def _video_set(work: Media, final: Media, name: str, folder: str, sections: list[str]):
    """(moves, removals) that turn the final folder's set for `name` into the new one; the
    manifest is the last move."""
    moves = [(work.sections(folder) / s, final.sections(folder) / s) for s in sections]
    remove = []
    for part in (Media.section_index, Media.subtitles, Media.video):
        new, old = part(work, name, folder), part(final, name, folder)
        if new.is_file():
            moves.append((new, old))
        elif old.is_file():
            remove.append(old)
    old = re.compile(re.escape(name) + r"_\d{4}_.*\.mp4")
    if final.sections(folder).is_dir():
        remove += [f for f in final.sections(folder).iterdir()
                   if old.fullmatch(f.name) and f.name not in sections]
    moves.append((work.manifest(name, folder), final.manifest(name, folder)))
    return moves, remove


def _publish_frames(staged: Path, final: Path) -> None:
    """Swap the whole frames folder of one storyboard (old complete or new complete)."""
    if not staged.is_dir():
        return
    with replacing_dir(final) as tmp:
        try:
            os.replace(staged, tmp)                 # onto the empty folder: one rename
        except OSError as e:
            if e.errno != errno.EXDEV:              # --frames on another filesystem
                raise
            shutil.copytree(staged, tmp, dirs_exist_ok=True)


def _merge_caches(work: Path, media_dir: Path) -> None:
    for cache in MANIM_CACHES:
        try:
            merge_cache(work / cache, media_dir / cache)
        except OSError:
            pass                                    # a cache: the next render rebuilds it
