"""Benchmark what the narration voice costs a cold chapter render at 480p15, in CPU seconds.

CPU seconds (user + system, the process and every child it waited for: the planner, Piper, the
render workers) hardly move with the machine's load, unlike wall time. Default runs, each with
`LAYERWISE_CACHE` pointing to a temporary cache that shares the real trace cache and has its own
empty voice cache:
  1. `layerwise plan --voice none` of every storyboard of the chapter (after an untimed one that
     warms the traces): what planning costs without a voice;
  2. `layerwise plan --voice piper` with the empty voice cache: every sentence synthesised;
     synthesis CPU = run 2 - run 1;
  3. the same again with the voice cache that run 2 filled: must synthesise nothing;
  4. a cold chapter render at 480p15 (`layerwise_pipeline.chapter --voice piper`, empty media
     folder, warm voice cache: every part rendered, nothing synthesised); render CPU = run 4 -
     run 3 (its planning). `--render-cpu S` gives that figure instead of rendering.
Prints the synthesis CPU-s, the seconds of speech, the CPU-s per speech-s, the render CPU-s and
the ratio. Target (issue 11): synthesis at most 10 % of the cold render; run 3 synthesises
nothing. Passes or fails nothing.

`--wall`: the older comparison by wall time instead: four cold chapter renders (silent, voiced
with an empty voice cache, voiced with a warm one, silent again; the silent baseline is the mean
of the two silent runs). The voiced videos are not the silent ones: their beats last as long as
the spoken sentences, so the frame counts differ; the table prints both lengths.
Usage: scripts/bench_voice.py [--storyboards per_head,bank_drift] [--jobs 2]
                              [--render-cpu SECONDS] [--wall]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def chapter_file(folder: Path, names: list[str] | None) -> Path:
    """The project's chapter, or one of just the named storyboards."""
    if not names:
        return ROOT / "scenes" / "chapter.yaml"
    path = folder / "bench_chapter.yaml"
    entries = "".join(f"  - file: {ROOT / 'scenes' / 'storyboards' / n}.yaml\n    title: {n}\n"
                      for n in names)
    path.write_text(f"title: bench\nstoryboards:\n{entries}")
    return path


def cache_with_traces(folder: Path, voice_dir: Path) -> Path:
    """A cache folder sharing the real trace cache, with its own voice cache `voice_dir`."""
    real = Path(os.environ.get("LAYERWISE_CACHE", ROOT / ".cache" / "layerwise"))
    cache = folder / "cache"
    cache.mkdir()
    (real / "traces").mkdir(parents=True, exist_ok=True)
    (cache / "traces").symlink_to((real / "traces").resolve())
    if (real / "weights").is_dir():
        (cache / "weights").symlink_to((real / "weights").resolve())
    (cache / "voice").symlink_to(voice_dir)
    return cache


def run(chapter: Path, media: Path, cache: Path, voice: str, jobs: int) -> tuple[float, str, float]:
    """(wall seconds, the voice's report line, seconds of video)."""
    env = {**os.environ, "LAYERWISE_CACHE": str(cache)}
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline.chapter", "--chapter",
                        str(chapter), "--media", str(media), "--quality", "l", "--jobs",
                        str(jobs), "--voice", voice], cwd=ROOT, env=env, capture_output=True,
                       text=True)
    wall = time.perf_counter() - t
    if r.returncode:
        sys.exit(f"chapter failed: {r.stderr.strip()}")
    said = next((ln for ln in r.stderr.splitlines() if ln.startswith("voice ")), "no voice")
    record = json.loads(next(media.glob(f"videos/*/{chapter.stem}.manifest.json")).read_text())
    return wall, said, record["chapters"][-1]["end"]


def cpu_seconds() -> float:
    """User + system CPU of every child process waited for so far (grandchildren included)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measured(cmd: list[str], cache: Path) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stderr) of one command run with `cache` as its cache."""
    cpu, t = cpu_seconds(), time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "LAYERWISE_CACHE": str(cache)},
                       capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, cpu_seconds() - cpu
    if r.returncode:
        sys.exit(f"{' '.join(cmd[1:4])} failed: {r.stderr.strip()}")
    return cpu, wall, r.stderr


def storyboard_files(chapter: Path) -> list[str]:
    import yaml
    data = yaml.safe_load(chapter.read_text())
    return [str((chapter.parent / e["file"]).resolve()) for e in data["storyboards"]]


def voice_line(stderr: str) -> str:
    return next((ln for ln in stderr.splitlines() if ln.startswith("voice ")), "no voice line")


def cpu_main(args, names: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        chapter = chapter_file(tmp, names)
        files = storyboard_files(chapter)
        (tmp / "voice").mkdir()
        cache = cache_with_traces(tmp, tmp / "voice")

        def plan(voice: str) -> tuple[float, float, str]:
            return measured([sys.executable, "-m", "layerwise_core", "plan", "--media",
                             str(tmp / "plan-media"), "--voice", voice, *files], cache)

        plan("none")                                                  # traces, untimed
        silent = plan("none")
        print(f"# plan, silent: {silent[0]:.1f} CPU-s ({silent[1]:.1f} s wall)", flush=True)
        cold = plan("piper")
        print(f"# plan, voice, empty voice cache: {cold[0]:.1f} CPU-s ({cold[1]:.1f} s wall); "
              f"{voice_line(cold[2])}", flush=True)
        warm = plan("piper")
        print(f"# plan, voice, warm voice cache: {warm[0]:.1f} CPU-s ({warm[1]:.1f} s wall); "
              f"{voice_line(warm[2])}", flush=True)
        if args.render_cpu is None:
            media = tmp / "render-media"
            done = measured([sys.executable, "-m", "layerwise_pipeline.chapter", "--chapter",
                             str(chapter), "--media", str(media), "--quality", "l", "--jobs",
                             str(args.jobs), "--voice", "piper"], cache)
            record = json.loads(next(media.glob(f"videos/*/{chapter.stem}.manifest.json"))
                                .read_text())
            render = done[0] - warm[0]
            print(f"# cold render, voiced (warm voice cache): {done[0]:.1f} CPU-s "
                  f"({done[1]:.1f} s wall, {record['chapters'][-1]['end']:.1f} s of video); "
                  f"{voice_line(done[2])}", flush=True)
            source = f"measured: cold 480p15 chapter render, --jobs {args.jobs}, minus its plan"
        else:
            render, source = args.render_cpu, "given with --render-cpu"
    synth = cold[0] - silent[0]
    speech = re.search(r"\(([\d.]+) s of speech", cold[2])
    speech = float(speech.group(1)) if speech else float("nan")
    load = os.getloadavg()[0]
    print(f"chapter: {', '.join(names) or 'scenes/chapter.yaml'} ({len(files)} storyboards); "
          f"{os.cpu_count()} cores, load average now {load:.1f}")
    print(f"synthesis: {synth:.1f} CPU-s for {speech:.1f} s of speech "
          f"({synth / speech:.3f} CPU-s per speech-s); {voice_line(cold[2])}")
    print(f"re-plan with unchanged narration: {voice_line(warm[2])}; "
          f"{warm[0] - silent[0]:+.1f} CPU-s against the silent plan")
    print(f"render: {render:.1f} CPU-s ({source})")
    print(f"synthesis / render: {100 * synth / render:.1f} % (target: at most 10 %)")
    return 0


def wall_main(args, names: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        chapter = chapter_file(tmp, names)
        (tmp / "voice").mkdir()
        cache = cache_with_traces(tmp, tmp / "voice")
        warm = subprocess.run([sys.executable, "-m", "layerwise_pipeline.chapter", "--chapter",
                               str(chapter), "--media", str(tmp / "warm-up"), "--quality", "l",
                               "--jobs", str(args.jobs), "--voice", "none"], cwd=ROOT,
                              env={**os.environ, "LAYERWISE_CACHE": str(cache)},
                              capture_output=True, text=True)     # traces, untimed
        if warm.returncode:
            sys.exit(f"warm-up failed: {warm.stderr.strip()}")
        rows = []
        for label, voice in (("silent", "none"), ("voice, cold cache", "piper"),
                             ("voice, warm cache", "piper"), ("silent again", "none")):
            media = tmp / f"media-{len(rows)}"
            rows.append((label, *run(chapter, media, cache, voice, args.jobs)))
            print(f"# {label}: {rows[-1][1]:.1f} s, {rows[-1][2]}", flush=True)
    base = (rows[0][1] + rows[3][1]) / 2
    print(f"chapter: {', '.join(names) or 'scenes/chapter.yaml'}; 480p15, --jobs {args.jobs}, "
          f"{os.cpu_count()} cores; every run renders every part cold")
    print(f"silent baseline: {base:.1f} s (mean of the two silent runs)")
    print("| run | wall s | vs silent | video s | voice |")
    print("|---|---|---|---|---|")
    for label, wall, said, video in rows:
        print(f"| {label} | {wall:.1f} | {100 * (wall - base) / base:+.1f} % | {video:.1f} | "
              f"{said} |", flush=True)
    synth = re.search(r"in ([\d.]+) s\)", rows[1][2])
    if synth:
        print(f"synthesis (cold): {synth.group(1)} s inside the planner, overlapped with the "
              f"renders; added wall time {rows[1][1] - base:+.1f} s "
              f"({100 * (rows[1][1] - base) / base:+.1f} %)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--storyboards", default="", help="comma-separated names (default: the "
                                                      "whole chapter)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--render-cpu", type=float, default=None, metavar="SECONDS",
                   help="CPU seconds of the cold render, instead of rendering")
    p.add_argument("--wall", action="store_true", help="the four-render wall-time comparison")
    args = p.parse_args()
    names = [n for n in args.storyboards.split(",") if n]
    return (wall_main if args.wall else cpu_main)(args, names)


if __name__ == "__main__":
    sys.exit(main())
