"""Benchmark what the narration voice costs a cold chapter render at 480p15.

Four `python -m layerwise_pipeline.chapter --quality l` runs, each into an empty media folder
(every part rendered cold) with the same trace cache, warmed by an untimed silent run first:
  1. `--voice none`;
  2. `--voice piper` with an empty voice cache (every sentence synthesised);
  3. `--voice piper` again with the voice cache that run 2 filled (narration unchanged);
  4. `--voice none` again: the silent baseline is the mean of 1 and 4, and their difference
     shows how much a shared machine moves the figures.
Prints the wall times, what the voice synthesised, and the ratios. Passes or fails nothing.
Target (issue 11): run 2 at most 10 % slower than the silent baseline; run 3 synthesises
nothing.

The voiced videos are not the silent ones: their beats last as long as the spoken sentences,
so the frame counts differ; the table prints both lengths.
Usage: scripts/bench_voice.py [--storyboards per_head,bank_drift] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import re
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--storyboards", default="", help="comma-separated names (default: the "
                                                      "whole chapter)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = p.parse_args()
    names = [n for n in args.storyboards.split(",") if n]
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


if __name__ == "__main__":
    sys.exit(main())
