"""Benchmark rendering: per storyboard, render time / video time at 480p15 and 1080p60,
process start-up (imports; torch must not be among them), plan build time, peak memory.

Each render is one process (`layerwise render --planned --jobs N`, a fresh media
folder, so Manim's text caches start empty): `--jobs 1` (the default) is one whole render,
`--jobs 2` the beats on a pool of two processes, as `make render` runs them. Besides wall seconds it reports CPU seconds
(user + system of the render process and its threads, from wait4) per second of video:
on a shared machine the wall time mostly measures the other jobs, the CPU seconds much
less so (they still grow somewhat under load: caches and hyper-threads are shared).

Prints a Markdown table of ratios; it passes or fails nothing. `make bench` runs it.
Targets on these 2-core machines: <= 0.5x real time at 480p15, <= 2x at 1080p60.
Usage: scripts/bench_render.py [--qualities l,h] [--jobs N] [STORYBOARD...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from layerwise_pipeline.estimate import FORMATS, video_frames  # noqa: E402

STARTUP = ("import time, sys; t = time.perf_counter(); import layerwise_pipeline.render, scenes.base, manim; "
           "print(json.dumps({'s': time.perf_counter() - t, 'torch': 'torch' in sys.modules}))")


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t


def cpu_run(args: list[str], jobs: int = 1) -> tuple[float, float, float]:
    """(wall s, CPU s = user + system, peak RSS MB) of `layerwise render --planned
    --jobs JOBS ARGS` in its own process (with its pool's processes: wait4 counts the
    children it waited for; the peak is the largest single process)."""
    start = time.perf_counter()
    pool = ["--scheduler", "none"] if jobs > 1 else []
    proc = subprocess.Popen([sys.executable, "-m", "layerwise_pipeline", "render", "--planned",
                             "--jobs", str(jobs), *pool, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace").strip()
    proc.stderr.close()
    if status:
        sys.exit(f"render {' '.join(args)} failed: {err.splitlines()[-1] if err else status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("storyboards", nargs="*", type=Path)
    p.add_argument("--qualities", default="l,h")
    p.add_argument("--jobs", type=int, default=1, help="render processes (1: a whole render)")
    args = p.parse_args()
    boards = args.storyboards or sorted((ROOT / "layerwise_templates").glob("*/*.yaml"))
    qualities = args.qualities.split(",")
    r = subprocess.run([sys.executable, "-c", "import json; " + STARTUP], capture_output=True,
                       text=True, cwd=ROOT, check=True)
    startup = json.loads(r.stdout)
    print(f"start-up (import scenes + manim): {startup['s']:.2f} s, torch imported: "
          f"{startup['torch']}; --jobs {args.jobs}")
    head = "| storyboard | plan (warm) s | video s | " + " | ".join(
        f"{q}: wall s | {q}: wall / video | {q}: CPU s | {q}: CPU s / video s | {q}: peak MB"
        for q in qualities) + " | load (1/5/15 min) |"
    print(head)
    print("|" + "---|" * (4 + 5 * len(qualities)))
    for sb in boards:
        with tempfile.TemporaryDirectory() as tmp:
            media = Path(tmp)
            cmd = [sys.executable, "-m", "layerwise_core", "plan", "--media", str(media), str(sb)]
            subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)   # warm the cache
            plan_s = timed(cmd)
            cells, video_s = [], None
            for q in qualities:
                wall, cpu, peak = cpu_run(["--quality", q, "--media", str(media), str(sb)], args.jobs)
                frames = video_frames(media, sb.stem, q)
                video_s = frames / FORMATS[q][2]
                cells += [f"{wall:.1f}", f"{wall / video_s:.2f}", f"{cpu:.1f}",
                          f"{cpu / video_s:.2f}", f"{peak:.0f}"]
            print(f"| {sb.stem} | {plan_s:.2f} | {video_s:.1f} | " + " | ".join(cells)
                  + f" | {load()} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
