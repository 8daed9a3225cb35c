"""Measure how far float noise moves what the snapshot tests pin, against their tolerances.

The same trace differs in its last bits between CPU kernels (ATEN_CPU_CAPABILITY) and thread
counts (OMP_NUM_THREADS). This plans every storyboard once per configuration, each with its own
empty trace cache (so every trace is recomputed there), renders the per-beat preview states,
and prints, per compared field of the scene states (`tests/framecheck.py`), the largest
difference between configurations as a share of the field's tolerance, and where it is. A
share near 1 means a golden could fail on another machine; the tolerances should keep every
share well below it. It also prints the plan's own floats against the `value` tolerance.
It passes or fails nothing.

Usage: scripts/bench_noise.py [--configs default:1,avx2:1,default:2,avx2:2] [STORYBOARD...]
(a capability this CPU lacks, e.g. avx512 here, dies with SIGILL and is reported as skipped)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import framecheck as fc  # noqa: E402


def run_config(cap: str, threads: str, boards: list[str], work: Path) -> Path | None:
    media, cache = work / f"{cap}_{threads}" / "media", work / f"{cap}_{threads}" / "cache"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": cap, "OMP_NUM_THREADS": threads,
           "LAYERWISE_CACHE": str(cache), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    for cmd in ([sys.executable, "-m", "layerwise_core", "plan", "--media", str(media), *boards],
                [sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--preview", "--media",
                 str(media), *boards]):
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if r.returncode:
            print(f"{cap}:{threads}: skipped ({' '.join(cmd[2:4])} exit {r.returncode}: "
                  f"{(r.stderr.strip().splitlines() or ['no message'])[-1]})")
            return None
    return media


def shares(actual, golden, path: str, key: str, worst: dict) -> None:
    """Record, per field key, the largest |difference| / tolerance (colours: in 8-bit steps
    over COLOUR_STEPS)."""
    if isinstance(actual, dict) and isinstance(golden, dict):
        for k in actual.keys() & golden.keys():
            shares(actual[k], golden[k], f"{path}.{k}", k, worst)
    elif isinstance(actual, list) and isinstance(golden, list) and len(actual) == len(golden):
        for i, (a, g) in enumerate(zip(actual, golden)):
            shares(a, g, f"{path}[{i}]", key, worst)
    elif key in ("fill", "stroke") and isinstance(actual, str) and isinstance(golden, str):
        if len(actual) == len(golden) == 7 and actual != golden:
            step = max(abs(int(actual[i:i + 2], 16) - int(golden[i:i + 2], 16)) for i in (1, 3, 5))
            _keep(worst, key, step / fc.COLOUR_STEPS, path, actual, golden)
    elif isinstance(actual, float) and isinstance(golden, (int, float)) and key not in fc.EXACT:
        _keep(worst, key, abs(actual - golden) / fc._tolerance(key, golden), path, actual, golden)


def _keep(worst: dict, key: str, share: float, *where) -> None:
    if share > worst.get(key, (-1.0,))[0]:
        worst[key] = (share, *where)


def plan_floats(a, g, path: str, worst: dict) -> None:
    if isinstance(a, dict) and isinstance(g, dict):
        for k in a.keys() & g.keys():
            if k not in ("time", "duration", "traces", "audio", "cues"):
                plan_floats(a[k], g[k], f"{path}.{k}", worst)
    elif isinstance(a, list) and isinstance(g, list) and len(a) == len(g):
        for i, (x, y) in enumerate(zip(a, g)):
            plan_floats(x, y, f"{path}[{i}]", worst)
    elif isinstance(a, float) and isinstance(g, (int, float)) and "error" not in path:
        _keep(worst, "plan value", abs(a - g) / fc._tolerance("value", g), path, a, g)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("storyboards", nargs="*")
    p.add_argument("--configs", default="default:1,avx2:1,default:2,avx2:2")
    args = p.parse_args()
    boards = args.storyboards or [str(b) for b in sorted((ROOT / "layerwise_templates").glob("*/*.yaml"))]
    with tempfile.TemporaryDirectory(prefix="layerwise-noise-") as tmp:
        medias = {}
        for c in args.configs.split(","):
            cap, threads = c.split(":")
            m = run_config(cap, threads, boards, Path(tmp))
            if m is not None:
                medias[c] = m
        if len(medias) < 2:
            print("fewer than two configurations ran: nothing to compare")
            return 1
        (ref_name, ref), *others = medias.items()
        worst: dict = {}
        for name, media in others:
            for s in sorted((ref / "frames").glob("*/*.json")):
                rel = s.relative_to(ref / "frames")
                shares(fc.load_json(media / "frames" / rel), fc.load_json(s), f"{name} {rel}", "", worst)
            for plan in sorted((ref / "plans").glob("*.json")):
                plan_floats(json.loads((media / "plans" / plan.name).read_text()),
                            json.loads(plan.read_text()), f"{name} {plan.stem}", worst)
        print(f"against {ref_name}, {len(others)} other configuration(s): {', '.join(n for n, _ in others)}")
        print("| field | worst difference / tolerance | where | value | reference |")
        print("| --- | --- | --- | --- | --- |")
        for key, (share, where, a, g) in sorted(worst.items()):
            print(f"| {key} | {share:.3f} | {where} | {a} | {g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
