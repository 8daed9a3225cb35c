"""Benchmark rendering: per storyboard, render time / video time at 480p15 and 1080p60,
process start-up (imports; torch must not be among them), plan build time, peak memory.

Prints a Markdown table of ratios; it passes or fails nothing. `make bench` runs it.
Targets on these 2-core machines: <= 0.5x real time at 480p15, <= 2x at 1080p60.
Usage: scripts/bench_render.py [--qualities l,h] [STORYBOARD...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from layerwise_pipeline.estimate import FORMATS, measured_run, video_frames  # noqa: E402

STARTUP = ("import time, sys; t = time.perf_counter(); import layerwise_pipeline.render, scenes.base, manim; "
           "print(json.dumps({'s': time.perf_counter() - t, 'torch': 'torch' in sys.modules}))")


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - t


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("storyboards", nargs="*", type=Path)
    p.add_argument("--qualities", default="l,h")
    args = p.parse_args()
    boards = args.storyboards or sorted((ROOT / "scenes" / "storyboards").glob("*.yaml"))
    qualities = args.qualities.split(",")
    r = subprocess.run([sys.executable, "-c", "import json; " + STARTUP], capture_output=True,
                       text=True, cwd=ROOT, check=True)
    startup = json.loads(r.stdout)
    print(f"start-up (import scenes + manim): {startup['s']:.2f} s, torch imported: "
          f"{startup['torch']}")
    head = "| storyboard | plan (warm) s | video s | " + " | ".join(
        f"{q}: render s | {q}: ratio | {q}: peak MB" for q in qualities) + " |"
    print(head)
    print("|" + "---|" * (3 + 3 * len(qualities)))
    for sb in boards:
        with tempfile.TemporaryDirectory() as tmp:
            media = Path(tmp)
            cmd = [sys.executable, "-m", "layerwise_core", "plan", "--media", str(media), str(sb)]
            subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)   # warm the cache
            plan_s = timed(cmd)
            cells, video_s = [], None
            for q in qualities:
                seconds, peak = measured_run(["--quality", q, "--media", str(media), str(sb)])
                frames = video_frames(media, sb.stem, q)
                video_s = frames / FORMATS[q][2]
                cells += [f"{seconds:.1f}", f"{seconds / video_s:.2f}", f"{peak:.0f}"]
            print(f"| {sb.stem} | {plan_s:.2f} | {video_s:.1f} | " + " | ".join(cells) + " |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
