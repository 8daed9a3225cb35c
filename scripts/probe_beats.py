"""Render some beats of a storyboard in this process (as a beat job does) and report CPU
seconds (the whole process, and the encoder thread apart), frames, and the sha1 of every
decoded frame of each beat; optionally a cProfile of the main (drawing) thread.

Usage: scripts/probe_beats.py STORYBOARD INDEX[,INDEX...] [--quality h] [--profile OUT]
                              [--sha OUT.json]
Run from the repository root (the cwd's code is what runs).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())        # the code of the directory it runs from


def frame_sha1s(mp4: bytes) -> list[str]:
    import av
    with av.open(io.BytesIO(mp4)) as c:
        return [hashlib.sha1(f.to_ndarray(format="rgb24").tobytes()).hexdigest()
                for f in c.decode(video=0)]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("storyboard", type=Path)
    p.add_argument("indices")
    p.add_argument("--quality", default="h")
    p.add_argument("--profile")
    p.add_argument("--sha")
    a = p.parse_args()
    from layerwise_core.plans import build_plan
    from layerwise_core.storyboard.schema import load_storyboard
    from layerwise_pipeline import beats
    from layerwise_render import encoder
    cache = Path(os.environ.get("LAYERWISE_CACHE", "/work/main/.cache/layerwise"))
    plan = build_plan(load_storyboard(a.storyboard), cache)
    indices = [int(x) for x in a.indices.split(",")]
    job = beats.pack(plan, a.quality, indices)

    enc = {"cpu": 0.0, "calls": 0, "converted": 0}
    write = encoder.SegmentEncoder.write_frame

    def timed_write(self, pixels, *, repeat=1):
        t = time.thread_time()
        before = self.converted
        try:
            return write(self, pixels, repeat=repeat)
        finally:
            enc["cpu"] += time.thread_time() - t
            enc["calls"] += 1
            enc["converted"] += self.converted - before
    encoder.SegmentEncoder.write_frame = timed_write

    import resource
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    main_t0 = time.thread_time()
    t0, w0 = time.process_time(), time.perf_counter()
    if a.profile:
        import cProfile
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
    results = beats.render_run(job)
    if a.profile:
        prof.disable()
        prof.dump_stats(a.profile)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    main_cpu = time.thread_time() - main_t0
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    frames = sum(r["frames"] for r in results)
    print(json.dumps({"storyboard": a.storyboard.stem, "indices": indices,
                      "quality": a.quality, "frames": frames, "cpu_s": round(cpu, 2),
                      "sys_s": round(ru1.ru_stime - ru0.ru_stime, 2),
                      "minflt": ru1.ru_minflt - ru0.ru_minflt,
                      "main_thread_cpu_s": round(main_cpu, 2),
                      "encoder_cpu_s": round(enc["cpu"], 2), "encoder_calls": enc["calls"],
                      "conversions": enc["converted"],
                      "wall_s": round(wall, 2), "code": str(Path(beats.__file__).parents[1]),
                      "cpu_ms_per_frame": round(1000 * cpu / max(frames, 1), 2),
                      "main_ms_per_frame": round(1000 * main_cpu / max(frames, 1), 2),
                      "enc_ms_per_frame": round(1000 * enc["cpu"] / max(frames, 1), 2)}))
    if a.sha:
        Path(a.sha).write_text(json.dumps({r["beat"]: frame_sha1s(r["mp4"]) for r in results},
                                          indent=0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
