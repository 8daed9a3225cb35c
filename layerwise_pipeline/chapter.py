"""The finished chapter: `layerwise chapter [--quality l] [--jobs N] [--scheduler local|tls://host:8786 --tls-ca F --tls-cert F --tls-key F]` (`make chapter`).

Reads scenes/chapter.yaml (the storyboards in order, with titles), builds their plans (in a
separate process: this one never imports torch), renders every storyboard that changed, in
parallel, each in its own media folder (Manim's text and Typst caches are not safe to share),
then joins them into media/videos/<quality>/chapter.mp4 with one chapter marker per storyboard
and one merged chapter.srt. A storyboard whose render key (plan, quality, scene code, library
versions) matches its last manifest is not rendered again. The chapter files are replaced
atomically, so a failed run leaves the previous chapter intact.

A part is reused only if its video is still the one its manifest describes (it opens, every
packet reads, same frames, bytes and sha256); a truncated or damaged part is rendered again.
One build runs per media folder at a time (`staging.chapter_lock`); a second one waits.
Ctrl-C or SIGTERM stops the render workers, removes their work folders, and exits 130/143.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from layerwise_core.media import Media
from layerwise_core.voice import BACKENDS
from layerwise_render.session import QUALITIES, frame_facts

from . import videocheck
from .cli import say
from .cluster_security import add_options as add_cluster_options
from .cluster_security import cluster_tls
from .concat import JoinError, merge_srt
from .concat import join as join_videos
from .provenance import ROOT, chapter_licences, render_key
from .scene_render import RenderError, load_plan, render, write_json
from .planning import plan_in_child
from .staging import chapter_lock, publish, work_folder

CHAPTER = ROOT / "scenes" / "chapter.yaml"


@dataclass(frozen=True)
class Part:
    name: str
    title: str
    storyboard: Path


def read_chapter(path: Path) -> tuple[str, list[Part]]:
    """Validate the chapter file; every problem as `file:line: field: message`."""
    from layerwise_core.storyboard.yamlsource import describe, read_located
    try:
        src = read_located(path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise RenderError(describe(e, path)) from None
    d, problems = src.data, []
    if not isinstance(d, dict) or not isinstance(d.get("storyboards"), list) \
            or not d["storyboards"]:
        raise RenderError(f"{path}:{src.line(('storyboards',))}: storyboards: needs a "
                          f"non-empty list of storyboards")
    title = d.get("title", "Chapter")
    parts, seen = [], set()
    for i, entry in enumerate(d["storyboards"]):
        line = src.line(("storyboards", i))
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            problems.append(f"{path}:{line}: storyboards[{i}]: needs 'file' (and 'title')")
            continue
        sb = (path.parent / entry["file"]).resolve()
        if not sb.is_file():
            problems.append(f"{path}:{line}: storyboards[{i}].file: no storyboard {sb}")
        elif sb.stem in seen:
            problems.append(f"{path}:{line}: storyboards[{i}].file: {entry['file']} is listed "
                            f"twice")
        seen.add(sb.stem)
        parts.append(Part(sb.stem, str(entry.get("title", sb.stem)), sb))
    if problems:
        raise RenderError("\n".join(problems))
    return str(title), parts


def build_plans(parts: list[Part], media: Path, voice: str = "none") -> None:
    """`layerwise plan` of every part in its own process (this one never imports torch)."""
    plan_in_child([p.storyboard for p in parts], media, voice)


def part_media(media: Path, quality: str, name: str) -> Path:
    return Media(media).chapter_part(quality, name).root


def part_video(media: Path, quality: str, name: str, plan: dict) -> Path:
    return Media(media).chapter_part(quality, name).video(name, frame_facts(quality)[2])


def is_fresh(video: Path, key: str) -> bool:
    """The part's manifest has this render key AND the video is still the one it describes
    (opens, every packet reads, same frames/bytes/sha256): a damaged part is rebuilt."""
    manifest = video.with_suffix(".manifest.json")
    if not (video.is_file() and manifest.is_file()):
        return False
    try:
        record = json.loads(manifest.read_text())
        if record["render_key"] != key:
            return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return videocheck.matches(video, record.get("video_facts"))


def render_parts(parts, plans, quality, media, jobs, scheduler=None,
                 stats: dict | None = None, tls=None) -> dict[str, bool]:
    """Render what changed, beat by beat in parallel (`jobs.render_storyboards`: on the
    local pool, or on Dask with `scheduler`); returns {name: rendered?}. Every part's beats
    are one pool of jobs, so a long part does not leave a core idle. With one job and no
    scheduler: one whole render per part, one after another. `stats` gets the runner's name,
    its tasks and the bytes it moved; `tls`: the certificate files for a tls:// scheduler
    (`cluster_security.TlsFiles`)."""
    from .cluster import runner_for
    from .jobs import render_storyboards
    todo = [p for p in parts if not is_fresh(part_video(media, quality, p.name, plans[p.name]),
                                             render_key(plans[p.name], quality))]
    if todo and jobs <= 1 and scheduler in (None, "none"):
        for p in todo:                  # one whole render after another
            render(plans[p.name], quality, part_media(media, quality, p.name))
    elif todo:
        with runner_for(scheduler, jobs, tls) as runner:
            render_storyboards([plans[p.name] for p in todo], quality, media, runner,
                               media_of=lambda name: part_media(media, quality, name))
            if stats is not None:
                stats.update(runner.stats, runner=runner.name)
    return {p.name: p in todo for p in parts}


def join(parts: list[Part], videos: list[Path], out: Path, title: str) -> tuple[list[dict], bool]:
    """The parts' mp4s joined by stream copy, one chapter marker per part (see concat.join)."""
    try:
        return join_videos([p.title for p in parts], videos, out, title)
    except JoinError as e:
        raise RenderError(str(e)) from None


def build_chapter(chapter: Path, quality: str, media: Path, jobs: int,
                  voice: str = "none", waiting=lambda pid: None,
                  scheduler: str | None = None, tls=None) -> dict:
    """Plans, part renders, join; `waiting(pid)` is called if another build holds the lock.
    The chapter's mp4, srt and manifest are written in a work folder, verified (the joined
    video reads whole and has every part's frames) and published as one set."""
    title, parts = read_chapter(chapter)
    with chapter_lock(media, waiting):
        build_plans(parts, media, voice)
        plans = {p.name: load_plan(p.storyboard, media) for p in parts}
        stats: dict = {}
        rendered = render_parts(parts, plans, quality, media, jobs, scheduler, stats, tls)
        videos = [part_video(media, quality, p.name, plans[p.name]) for p in parts]
        records = [json.loads(v.with_suffix(".manifest.json").read_text()) for v in videos]
        out_dir = Media(media).videos(videos[0].parent.name)
        with work_folder(media, chapter.stem) as work:
            names = [f"{chapter.stem}{ext}" for ext in (".mp4", ".srt", ".manifest.json")]
            marks, audio = join(parts, videos, work / names[0], title)
            merge_srt([v.with_suffix(".srt") for v in videos], [m["start"] for m in marks],
                      work / names[1])
            joined = sum(r["video_facts"]["frames"] for r in records)
            try:
                got = videocheck.facts(work / names[0])["frames"]
            except videocheck.BadVideo as e:
                raise RenderError(f"the joined chapter is broken: {e}") from None
            if got != joined:
                raise RenderError(f"the joined chapter has {got} frames, its parts {joined}")
            record = {"title": title, "quality": quality, "chapters": marks, "audio": audio,
                      "licences": chapter_licences(records), "parts": records,
                      "rendered": rendered, "beat_jobs": stats}
            write_json(work / names[2], record)
            publish(media, work, [(work / n, out_dir / n) for n in names])
    return record



def add_arguments(p) -> None:
    p.add_argument("--chapter", type=Path, default=CHAPTER)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--media", type=Path, default=Path("media"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--voice", choices=list(BACKENDS), default="none",
                   help="piper (neural, offline), draft (espeak-ng) or none (silent)")
    add_cluster_options(p, "render the beats on Dask: 'local' (a LocalCluster of --jobs "
                           "single-thread workers) or tls://host:8786 (tcp:// on a trusted "
                           "network only); default: a process pool")


def _main(args) -> int:
    tls = cluster_tls(args, say)
    record = build_chapter(args.chapter, args.quality, args.media, args.jobs, args.voice,
                           waiting=lambda pid: say(f"another chapter build (pid {pid}) is "
                                                   f"running; waiting"),
                           scheduler=args.scheduler, tls=tls)
    done = [n for n, r in record["rendered"].items() if r]
    print(f"chapter: {len(record['chapters'])} parts, rendered {len(done)} "
          f"({', '.join(done) or 'none: all up to date'})")
    return 0

