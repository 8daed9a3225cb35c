"""Benchmark what the narration voice costs a cold chapter render at 480p15, in CPU seconds.

CPU seconds (user + system, the process and every child it waited for: Piper, the render
workers) move much less with the machine's load than wall time, though not nothing (a silent
plan of the same storyboards measured 20 and 33 CPU-s at load averages 8 and 11). Runs, each
with `LAYERWISE_CACHE` pointing to a temporary cache that shares the real trace cache and has
its own voice cache:
  1. synthesis: in a fresh process, the storyboards are validated and planned (untimed), then
     the voice speaks all their narration with an empty voice cache (`with_voice`, what
     `layerwise plan --voice piper` does): the CPU-s of that call alone, Piper's processes
     included; `--repeat N` does it N times, each with an empty voice cache;
  2. the same with the voice cache that run 1 filled: must synthesise nothing;
  3. a cold chapter render at 480p15 (`layerwise chapter --voice piper`, empty media
     folder, warm voice cache: every part rendered, nothing synthesised), minus the CPU-s of a
     silent `layerwise plan` of the same storyboards (its own planning). `--render-cpu S`
     gives that figure instead of rendering.
Prints the synthesis CPU-s, the seconds of speech, the CPU-s per speech-s, the render CPU-s and
the ratio. Target (issue 11): synthesis at most 10 % of the cold render; run 2 synthesises
nothing. Passes or fails nothing.

`--wall`: the older comparison by wall time instead: four cold chapter renders (silent, voiced
with an empty voice cache, voiced with a warm one, silent again; the silent baseline is the mean
of the two silent runs). The voiced videos are not the silent ones: their beats last as long as
the spoken sentences, so the frame counts differ; the table prints both lengths.
Usage: scripts/bench_voice.py [--storyboards per_head,bank_drift] [--jobs 2]
                              [--render-cpu SECONDS] [--repeat N] [--wall]
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
    cache.mkdir(parents=True)
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
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
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


SPEAK = """
import json, resource, sys
from pathlib import Path
from layerwise_core.plans import prepare_plan
from layerwise_core.storyboard.schema import validate_files
from layerwise_core.storyboard.voice import with_voice
from layerwise_core.tracing import default_cache_dir
boards = [prepare_plan(b, None)[0] for b in validate_files([Path(f) for f in sys.argv[1:]])]
def cpu():
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))
c = cpu()
_, stats = with_voice(boards, "piper", default_cache_dir())
print(json.dumps({"cpu": cpu() - c, "synthesised": stats.synthesised, "cached": stats.cached,
                  "speech": stats.audio_seconds, "wall": stats.synth_seconds}))
"""


def synthesis(files: list[str], cache: Path) -> dict:
    """CPU-s of speaking every narration of `files` with `cache`'s voice cache (see SPEAK)."""
    r = subprocess.run([sys.executable, "-c", SPEAK, *files], cwd=ROOT, capture_output=True,
                       text=True, env={**os.environ, "LAYERWISE_CACHE": str(cache)})
    if r.returncode:
        sys.exit(f"synthesis failed: {r.stderr.strip()}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def cpu_main(args, names: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        chapter = chapter_file(tmp, names)
        files = storyboard_files(chapter)
        runs = []
        for i in range(args.repeat):
            (tmp / f"voice-{i}").mkdir()
            cache = cache_with_traces(tmp / f"run-{i}", tmp / f"voice-{i}")
            runs.append(synthesis(files, cache))
            r = runs[-1]
            print(f"# synthesis, empty voice cache: {r['cpu']:.1f} CPU-s, {r['synthesised']} "
                  f"sentences, {r['speech']:.1f} s of speech ({r['wall']:.1f} s wall)",
                  flush=True)
        warm = synthesis(files, cache)
        print(f"# again, warm voice cache: {warm['cpu']:.2f} CPU-s, {warm['synthesised']} "
              f"synthesised, {warm['cached']} from the cache", flush=True)
        if args.render_cpu is None:
            plan = measured([sys.executable, "-m", "layerwise_core", "plan", "--media",
                             str(tmp / "plan-media"), "--voice", "none", *files], cache)
            media = tmp / "render-media"
            done = measured([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
                             str(chapter), "--media", str(media), "--quality", "l", "--jobs",
                             str(args.jobs), "--voice", "piper"], cache)
            record = json.loads(next(media.glob(f"videos/*/{chapter.stem}.manifest.json"))
                                .read_text())
            render = done[0] - plan[0]
            print(f"# cold render, voiced (warm voice cache): {done[0]:.1f} CPU-s "
                  f"({done[1]:.1f} s wall, {record['chapters'][-1]['end']:.1f} s of video); "
                  f"its plan, silent: {plan[0]:.1f} CPU-s; {voice_line(done[2])}", flush=True)
            source = f"measured: cold 480p15 chapter render, --jobs {args.jobs}, minus its plan"
        else:
            render, source = args.render_cpu, "given with --render-cpu"
    synth = sorted(r["cpu"] for r in runs)[len(runs) // 2]
    speech = runs[0]["speech"]
    print(f"chapter: {', '.join(names) or 'scenes/chapter.yaml'} ({len(files)} storyboards); "
          f"{os.cpu_count()} cores, load average now {os.getloadavg()[0]:.1f}")
    print(f"synthesis: {synth:.1f} CPU-s (median of {len(runs)}: "
          f"{', '.join(format(r['cpu'], '.1f') for r in runs)}) for {speech:.1f} s of speech "
          f"({synth / speech:.3f} CPU-s per speech-s), {runs[0]['synthesised']} sentences")
    print(f"re-plan with unchanged narration: {warm['synthesised']} synthesised, "
          f"{warm['cpu']:.2f} CPU-s")
    print(f"render: {render:.1f} CPU-s ({source})")
    print(f"synthesis / render: {100 * synth / render:.1f} % (target: at most 10 %)")
    return 0


def wall_main(args, names: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        chapter = chapter_file(tmp, names)
        (tmp / "voice").mkdir()
        cache = cache_with_traces(tmp, tmp / "voice")
        warm = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter",
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
    p.add_argument("--repeat", type=int, default=1, help="synthesis runs (median)")
    p.add_argument("--wall", action="store_true", help="the four-render wall-time comparison")
    args = p.parse_args()
    names = [n for n in args.storyboards.split(",") if n]
    return (wall_main if args.wall else cpu_main)(args, names)


if __name__ == "__main__":
    sys.exit(main())
