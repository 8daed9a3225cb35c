"""`layerwise watch`, measured: from saving a changed caption (written to a new file and renamed
over the old one, as editors do) to the beat's updated preview frame, in seconds.

Usage: scripts/bench_watch.py [STORYBOARD] [--beat N] [--saves 3] [--jobs 2]
Prints one line per save and the median; run from the repository root.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def wait_for(proc, pattern: str, timeout: float = 600) -> str:
    end = time.time() + timeout
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"watch ended: {proc.stderr.read()}")
        if re.search(pattern, line):
            return line
    raise SystemExit("timed out")


def save_by_rename(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.swp")
    tmp.write_text(text)
    os.replace(tmp, path)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("storyboard", nargs="?", type=Path,
                   default=ROOT / "layerwise_templates" / "context_qkv" / "context_qkv.yaml")
    p.add_argument("--beat", type=int, default=1)
    p.add_argument("--saves", type=int, default=3)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-watch-"))
    try:
        board = work / a.storyboard.name
        shutil.copy(a.storyboard, board)
        env = {**os.environ, "LAYERWISE_CACHE": os.environ.get("LAYERWISE_CACHE",
                                                                str(ROOT / ".cache" / "layerwise"))}
        proc = subprocess.Popen([sys.executable, "-m", "layerwise_pipeline", "watch", "--media",
                                 str(work / "media"), "--jobs", str(a.jobs), str(board)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            t0 = time.perf_counter()
            wait_for(proc, r"beat\(s\) rendered")
            print(f"first build (every beat): {time.perf_counter() - t0:.1f} s", flush=True)
            times = []
            for i in range(a.saves):
                lines = board.read_text().splitlines()
                captions = [j for j, ln in enumerate(lines) if ln.strip().startswith("caption:")]
                j = captions[a.beat]
                lines[j] = re.sub(r"caption: .*", f'caption: "Edited caption, save {i + 1}"',
                                  lines[j])
                t = time.perf_counter()
                save_by_rename(board, "\n".join(lines) + "\n")
                line = wait_for(proc, r"beat\(s\) rendered")
                times.append(time.perf_counter() - t)
                print(f"save {i + 1}: {times[-1]:.1f} s to an updated beat frame ({line.strip()})",
                      flush=True)
            print(f"median {statistics.median(times):.1f} s over {len(times)} saves; "
                  f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                  f"{time.strftime('%Y-%m-%d')}")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
