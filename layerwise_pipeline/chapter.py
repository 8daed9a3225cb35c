"""The finished chapter: `python -m layerwise_pipeline.chapter [--quality l] [--jobs N]` (`make chapter`).

Reads scenes/chapter.yaml (the storyboards in order, with titles), builds their plans (in a
separate process: this one never imports torch; with a voice, storyboard by storyboard),
renders every storyboard that changed as soon as its plan is written (so the parts render
while the voice speaks the later ones), in parallel, each in its own media folder (Manim's text and Typst caches are not safe to share),
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

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from multiprocessing import get_context
from pathlib import Path

import yaml

from layerwise_core.atomic import replacing, write_text
from layerwise_core.voice import BACKENDS

from . import videocheck
from .cli import run, say
from .provenance import ROOT, chapter_licences, render_key
from .render import QUALITIES, RenderError, load_plan, render, write_json
from .staging import chapter_lock, folder_lock, publish, sweep, work_folder

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


def planner(parts: list[Part], media: Path, voice: str, errors) -> subprocess.Popen:
    """`layerwise plan` in its own process (this one never imports torch): it prints each
    plan's path as soon as that plan is written (storyboard by storyboard, the voice speaking
    each in turn). Its stderr goes to the open file `errors`."""
    return subprocess.Popen([sys.executable, "-m", "layerwise_core", "plan", "--media",
                             str(media), "--voice", voice, *[str(p.storyboard) for p in parts]],
                            stdout=subprocess.PIPE, stderr=errors, text=True)


def planned(parts: list[Part], media: Path, voice: str = "none"):
    """Yield (part, plan) as the planner writes each plan. On failure: RenderError with the
    planner's messages; on Ctrl-C or SIGTERM it is stopped with SIGTERM, so it removes its
    own temporary files."""
    by_path = {str(p.storyboard.stem): p for p in parts}
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        proc = planner(parts, media, voice, errors)
        try:
            for line in proc.stdout:
                part = by_path.get(Path(line.strip()).stem)
                if part is not None:
                    yield part, load_plan(part.storyboard, media)
            proc.wait()
        except BaseException:
            _stop([proc])
            raise
        finally:
            proc.stdout.close()
        errors.seek(0)
        said = errors.read().strip().splitlines()
        if proc.returncode:
            lines = [ln.removeprefix("error: ") for ln in said]
            raise RenderError("\n".join(lines) or "planning failed")
        for line in said:                       # what the voice did (sentences, seconds)
            if line.startswith("voice "):
                say(line)


def _stop(procs) -> None:
    """SIGTERM each child (its `finally` blocks clean up), then SIGKILL the ones that hang."""
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError):
            pass
    for p in procs:
        try:
            if hasattr(p, "join"):
                p.join(30)
                if p.is_alive():
                    p.kill()
                    p.join()
            else:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        except (OSError, ValueError):
            pass


def part_media(media: Path, quality: str, name: str) -> Path:
    return media / "chapter" / quality / name


def part_video(media: Path, quality: str, name: str, plan: dict) -> Path:
    from manim import config, tempconfig
    with tempconfig({"quality": QUALITIES[quality]}):
        folder = f"{config.pixel_height}p{config.frame_rate:g}"
    return part_media(media, quality, name) / "videos" / folder / f"{name}.mp4"


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


def _render_one(args) -> str:
    plan, quality, media = args
    return str(render(plan, quality, Path(media)))


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them with SIGTERM; SIGTERM exits
    through every `finally` (the worker's work folder is removed) without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_exit)


def _worker_exit(signum, frame):
    raise SystemExit(143)


def render_parts(arriving, quality, media, jobs) -> tuple[dict, dict[str, bool]]:
    """Render each part whose plan changed, as its plan arrives ((part, plan) pairs from
    `planned`): the first parts render while the voice still speaks the later ones. Returns
    ({name: plan}, {name: rendered?}) in arrival order."""
    plans, rendered, pending = {}, {}, []
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                               initializer=_worker_init) if jobs > 1 else None
    try:
        for part, plan in arriving:
            plans[part.name] = plan
            video = part_video(media, quality, part.name, plan)
            rendered[part.name] = not is_fresh(video, render_key(plan, quality))
            if not rendered[part.name]:
                continue
            work = (plan, quality, str(part_media(media, quality, part.name)))
            if pool is None:
                _render_one(work)
            else:
                pending.append((part, pool.submit(_render_one, work)))
        for _, future in pending:
            future.result()
    except BaseException:
        if hasattr(arriving, "close"):
            arriving.close()                    # stops the planner if it still runs
        if pool is not None:
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            _stop(workers)
        for name, todo in rendered.items():     # work folders of workers that had to be killed
            folder = part_media(media, quality, name)
            if todo and folder.is_dir():
                with folder_lock(folder):
                    sweep(folder)
        raise
    if pool is not None:
        pool.shutdown()
    return plans, rendered


def _shifted(src, stream, out_stream, offset: int, dst) -> int:
    """Copy one stream's packets into `dst`, shifted by `offset`; returns the end time."""
    end = offset
    for packet in src.demux(stream):
        if packet.dts is None:
            continue
        packet.pts += offset
        packet.dts += offset
        end = max(end, packet.pts + packet.duration)
        packet.stream = out_stream
        dst.mux(packet)
    return end


def _silence(template, start: int, end: int, out_stream, dst) -> None:
    """Encoded silence (the template audio stream's codec, rate and layout) from `start` to
    `end` (in 1/rate units), muxed into `out_stream`: whole codec frames, never past `end`."""
    import av
    cc = template.codec_context
    rate, frame = cc.sample_rate, cc.frame_size or 1024
    n = (end - start) // frame
    if n <= 0:
        return
    enc = av.CodecContext.create(cc.name, "w")
    enc.sample_rate, enc.layout, enc.format = rate, cc.layout.name, cc.format.name
    enc.time_base = Fraction(1, rate)
    enc.open()
    packets = []
    for k in range(n + 1):                  # one frame more: the encoder's priming packet
        f = av.AudioFrame(format=cc.format.name, layout=cc.layout.name, samples=frame)
        for plane in f.planes:
            plane.update(bytes(plane.buffer_size))
        f.sample_rate, f.pts, f.time_base = rate, k * frame, Fraction(1, rate)
        packets += enc.encode(f)
    packets += enc.encode(None)
    packets = [p for p in packets if p.pts is None or p.pts >= 0][:n]
    for k, packet in enumerate(packets):
        packet.pts = packet.dts = start + k * frame
        packet.duration = frame
        packet.time_base = Fraction(1, rate)
        packet.stream = out_stream
        dst.mux(packet)


def join(parts: list[Part], videos: list[Path], out: Path, title: str) -> tuple[list[dict], bool]:
    """Concatenate the parts' mp4s (stream copy) with one chapter marker each; atomic.

    If any part has sound, the chapter has an audio track over its whole length: each part's
    audio is copied at the part's start, and silence (encoded in the same codec) fills a part
    without sound and the rest of a part whose sound ends before its video. Returns
    (chapters, has_audio)."""
    import av
    out.parent.mkdir(parents=True, exist_ok=True)
    has_audio = []
    for v in videos:
        with av.open(str(v)) as c:
            has_audio.append(bool(c.streams.audio))
    with_audio = any(has_audio)
    chapters, seconds = [], Fraction(0)
    with replacing(out, suffix=".mp4") as tmp:
        with av.open(str(tmp), "w", format="mp4") as dst:
            dst.metadata["title"] = title
            with av.open(str(videos[0])) as first:     # every stream before the first packet
                vout = dst.add_stream_from_template(first.streams.video[0])
                tb = first.streams.video[0].time_base
            aout = atemplate = None
            if with_audio:
                voiced = av.open(str(videos[has_audio.index(True)]))
                atemplate = voiced.streams.audio[0]
                aout = dst.add_stream_from_template(atemplate)
                rate = atemplate.codec_context.sample_rate
                sound = (rate, atemplate.codec_context.layout.name, atemplate.codec_context.name)
            try:
                for i, (part, video) in enumerate(zip(parts, videos)):
                    with av.open(str(video)) as src:
                        s = src.streams.video[0]
                        if s.time_base != tb:
                            raise RenderError(f"{video}: time base {s.time_base} differs from {tb}")
                        start = int(seconds / tb)
                        end = _shifted(src, s, vout, start, dst)
                    if with_audio:
                        a_start = int(seconds * rate)
                        a_end = int(Fraction(end) * tb * rate)
                        heard = a_start
                        if has_audio[i]:
                            with av.open(str(video)) as src:
                                a = src.streams.audio[0]
                                got = (a.codec_context.sample_rate, a.codec_context.layout.name,
                                       a.codec_context.name)
                                if got != sound:
                                    raise RenderError(f"{video}: audio {got} differs from "
                                                      f"{sound}")
                                heard = _shifted(src, a, aout, int(seconds / a.time_base), dst)
                                heard = int(Fraction(heard) * a.time_base * rate)
                        _silence(atemplate, heard, a_end, aout, dst)
                    chapters.append({"id": i + 1, "start": start, "end": end, "time_base": tb,
                                     "metadata": {"title": part.title}})
                    seconds = Fraction(end) * tb
            finally:
                if with_audio:
                    voiced.close()
            dst.set_chapters(chapters)
    return [{"title": c["metadata"]["title"], "start": float(c["start"] * c["time_base"]),
             "end": float(c["end"] * c["time_base"])} for c in chapters], with_audio


def merge_srt(srts: list[Path], starts: list[float], out: Path) -> None:
    import datetime

    import srt
    cues = []
    for path, start in zip(srts, starts):
        shift = datetime.timedelta(seconds=start)
        if path.is_file():
            for cue in srt.parse(path.read_text(encoding="utf-8")):
                cues.append(srt.Subtitle(len(cues) + 1, cue.start + shift, cue.end + shift,
                                         cue.content))
    write_text(out, srt.compose(cues, reindex=False))


def build_chapter(chapter: Path, quality: str, media: Path, jobs: int,
                  voice: str = "none", waiting=lambda pid: None) -> dict:
    """Plans, part renders, join; `waiting(pid)` is called if another build holds the lock.
    The chapter's mp4, srt and manifest are written in a work folder, verified (the joined
    video reads whole and has every part's frames) and published as one set."""
    title, parts = read_chapter(chapter)
    with chapter_lock(media, waiting):
        plans, rendered = render_parts(planned(parts, media, voice), quality, media, jobs)
        rendered = {p.name: rendered[p.name] for p in parts}
        videos = [part_video(media, quality, p.name, plans[p.name]) for p in parts]
        records = [json.loads(v.with_suffix(".manifest.json").read_text()) for v in videos]
        out_dir = media / "videos" / videos[0].parent.name
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
                      "rendered": rendered}
            write_json(work / names[2], record)
            publish(media, work, [(work / n, out_dir / n) for n in names])
    return record


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m layerwise_pipeline.chapter", description=__doc__)
    p.add_argument("--chapter", type=Path, default=CHAPTER)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--media", type=Path, default=Path("media"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--voice", choices=list(BACKENDS), default="none",
                   help="piper (neural, offline), draft (espeak-ng) or none (silent)")
    args = p.parse_args(argv)
    return run(lambda: _main(args), RenderError, where=args.media)


def _main(args) -> int:
    record = build_chapter(args.chapter, args.quality, args.media, args.jobs, args.voice,
                           waiting=lambda pid: say(f"another chapter build (pid {pid}) is "
                                                   f"running; waiting"))
    done = [n for n, r in record["rendered"].items() if r]
    print(f"chapter: {len(record['chapters'])} parts, rendered {len(done)} "
          f"({', '.join(done) or 'none: all up to date'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
