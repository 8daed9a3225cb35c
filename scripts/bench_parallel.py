"""Benchmark beat-parallel and Dask rendering, side by side in one run (`make bench`).

1. One storyboard (default: the longest), whole render vs beats in parallel on the local
   pool, run in turn (A B A B ...) from cold beat caches; the ratio is taken pair by pair.
2. A chapter, beats on the local process pool vs on a Dask LocalCluster with as many
   single-thread workers, in turn: Dask's overhead.
3. The same chapter on LocalClusters of N = 1, 2, 4 single-thread workers: tasks, bytes
   moved (jobs sent + videos returned), wall time.
Prints the machine's load with every figure; passes or fails nothing.
Usage: scripts/bench_parallel.py [--storyboard S] [--chapter C] [--quality l] [--runs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    return "load %.1f/%.1f/%.1f" % os.getloadavg()


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{r.stderr}")
    return time.perf_counter() - t


def render(media: Path, sb: Path, quality: str, *extra: str) -> float:
    return timed([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", quality,
                  "--media", str(media), *extra, str(sb)])


def chapter(media: Path, ch: Path, quality: str, *extra: str) -> tuple[float, dict]:
    s = timed([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter", str(ch),
               "--media", str(media), "--quality", quality, *extra])
    folder = next((media / "videos").iterdir())
    record = json.loads((folder / f"{ch.stem}.manifest.json").read_text())
    return s, record


def fresh(media: Path) -> None:
    """Keep the plans (built once), drop every video and the beat cache."""
    for d in ("videos", "beats", "chapter"):
        shutil.rmtree(media / d, ignore_errors=True)


def longest(media: Path) -> Path:
    """The storyboard whose plan is longest (planned beat durations)."""
    boards = sorted((ROOT / "layerwise_templates").glob("*/*.yaml"))
    subprocess.run([sys.executable, "-m", "layerwise_core", "plan", "--media", str(media),
                    "--voice", "none", *map(str, boards)], check=True, capture_output=True,
                   cwd=ROOT)
    return max(boards, key=lambda p: sum(float(b["duration"]) for b in json.loads(
        (media / "plans" / f"{p.stem}.json").read_text())["beats"]))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--storyboard", type=Path, default=None)
    p.add_argument("--chapter", type=Path, default=ROOT / "scenes" / "chapter.yaml")
    p.add_argument("--quality", default="l")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--skip", default="", help="comma list of parts to skip: beats,dask,nodes")
    args = p.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    cores = os.cpu_count() or 2
    print(f"{cores} cores, quality {args.quality}, {load()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        media = Path(tmp)
        sb = args.storyboard or longest(media)
        if "beats" not in skip:
            subprocess.run([sys.executable, "-m", "layerwise_core", "plan", "--media",
                            str(media), "--voice", "none", str(sb)], check=True,
                           capture_output=True, cwd=ROOT)
            print(f"\n1. {sb.stem}: whole render vs {cores} beat processes (cold caches)")
            print("| run | whole s | beats s | whole / beats | beat work s | load |\n"
                  "|---|---|---|---|---|---|")
            for i in range(args.runs):
                fresh(media)
                a = render(media, sb, args.quality)
                fresh(media)
                b = render(media, sb, args.quality, "--jobs", str(cores), "--scheduler", "none")
                record = json.loads(next(media.glob(f"videos/*/{sb.stem}.manifest.json"))
                                    .read_text())
                work = sum(x["seconds"] for x in record["beats"])   # each beat, in its worker
                print(f"| {i + 1} | {a:.1f} | {b:.1f} | {a / b:.2f} | {work:.1f} | {load()} |",
                      flush=True)
        if "dask" not in skip:
            print(f"\n2. chapter {args.chapter.name}: local pool vs Dask LocalCluster, "
                  f"{cores} workers each (cold caches)")
            print("| run | pool s | Dask s | Dask / pool | load |\n|---|---|---|---|---|")
            for i in range(args.runs):
                fresh(media)
                a, _ = chapter(media, args.chapter, args.quality, "--jobs", str(cores),
                               "--scheduler", "none")
                fresh(media)
                b, record = chapter(media, args.chapter, args.quality, "--jobs", str(cores),
                                    "--scheduler", "local")
                print(f"| {i + 1} | {a:.1f} | {b:.1f} | {b / a:.3f} | {load()} |", flush=True)
                dask_2 = (b, record)
        if "nodes" not in skip:
            print(f"\n3. chapter {args.chapter.name} on a LocalCluster of N single-thread "
                  f"workers ({cores} cores)")
            print("| N | tasks | MB moved | s | s / s(N=1) | load |\n|---|---|---|---|---|---|")
            base = None
            for n in (1, 2, 4):
                if n == cores and "dask" not in skip:
                    s, record = dask_2                  # the run of part 2 (same set-up)
                else:
                    fresh(media)
                    s, record = chapter(media, args.chapter, args.quality, "--jobs", str(n),
                                        "--scheduler", "local")
                stats = record.get("beat_jobs") or {}
                base = base or s
                print(f"| {n} | {stats.get('tasks')} | {stats.get('bytes', 0) / 1e6:.1f} | "
                      f"{s:.1f} | {s / base:.2f} | {load()} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
