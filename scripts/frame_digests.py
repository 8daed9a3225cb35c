"""The sha1 of every decoded frame of every beat of storyboards, rendered silent in this
process: the proof that a move of code is pure (the digests before and after are equal).

Usage: scripts/frame_digests.py OUT.json [STORYBOARD ...] [--quality l]
       scripts/frame_digests.py --compare A.json B.json
With no storyboard: every storyboard of the chapter (scenes/chapter.yaml's order is not
needed; every shipped storyboard is rendered). Run from the repository root: the code of
the directory it runs from is what renders.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())        # the code of the directory it runs from


def frame_sha1s(mp4: bytes) -> list[str]:
    import av
    with av.open(io.BytesIO(mp4)) as c:
        return [hashlib.sha1(f.to_ndarray(format="rgb24").tobytes()).hexdigest()
                for f in c.decode(video=0)]


def shipped() -> list[Path]:
    return sorted(Path().glob("layerwise_templates/*/*.yaml")) or \
        sorted(Path("scenes/storyboards").glob("*.yaml"))


def digests(storyboard: Path, quality: str) -> dict[str, list[str]]:
    from layerwise_core.plans import build_plan
    from layerwise_core.storyboard.schema import load_storyboard
    try:
        from layerwise_render import beats
    except ImportError:
        from layerwise_pipeline import beats
    cache = Path(os.environ.get("LAYERWISE_CACHE", ".cache/layerwise"))
    plan = build_plan(load_storyboard(storyboard), cache)
    job = beats.pack(plan, quality, list(range(len(plan["beats"]))))
    return {f"{plan['storyboard']['name']}/{r['beat']}": frame_sha1s(r["mp4"])
            for r in beats.render_run(job)}


def compare(a: Path, b: Path) -> int:
    x, y = json.loads(a.read_text()), json.loads(b.read_text())
    frames = sum(len(v) for v in x.values())
    differ = [k for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)]
    for k in differ:
        print(f"differs: {k}: {len(x.get(k) or [])} vs {len(y.get(k) or [])} frames")
    print(f"{len(x)} beats, {frames} frames: {'identical' if not differ else f'{len(differ)} beats differ'}")
    return 1 if differ else 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("storyboards", type=Path, nargs="*")
    p.add_argument("--quality", default="l")
    p.add_argument("--compare", type=Path)
    a = p.parse_args()
    if a.compare:
        return compare(a.out, a.compare)
    result = {}
    for sb in a.storyboards or shipped():
        result.update(digests(sb, a.quality))
        print(f"{sb}: {sum(1 for k in result if k.startswith(sb.stem))} beats", flush=True)
    a.out.write_text(json.dumps(result, indent=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
