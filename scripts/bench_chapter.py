"""Benchmark `make chapter`: serial vs parallel wall time, and a re-run with nothing changed.

Prints ratios; passes or fails nothing. Targets: parallel faster than serial on 2 cores; a
re-run with nothing changed <= 5 % of a cold run.
Usage: scripts/bench_chapter.py [--chapter scenes/chapter.yaml] [--qualities l,h]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def chapter(chapter: Path, media: Path, quality: str, jobs: int) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter", str(chapter),
                    "--media", str(media), "--quality", quality, "--jobs", str(jobs)],
                   check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--chapter", type=Path, default=ROOT / "scenes" / "chapter.yaml")
    p.add_argument("--qualities", default="l,h")
    args = p.parse_args()
    jobs = os.cpu_count() or 2
    print(f"chapter {args.chapter.name}, {jobs} cores")
    print("| quality | serial s | parallel s | parallel / serial | re-run s | re-run / cold |")
    print("|---|---|---|---|---|---|")
    for q in args.qualities.split(","):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            serial = chapter(args.chapter, Path(a), q, 1)
            parallel = chapter(args.chapter, Path(b), q, jobs)
            rerun = chapter(args.chapter, Path(b), q, jobs)
        print(f"| {q} | {serial:.1f} | {parallel:.1f} | {parallel / serial:.2f} | {rerun:.1f} | "
              f"{rerun / parallel:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
