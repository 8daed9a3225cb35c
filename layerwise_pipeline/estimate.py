"""Predict a long render's time and peak memory from short measured ones.

`layerwise estimate --quality k STORYBOARD...` (`make estimate`). Four measured runs per storyboard, each in its own process:
  1. a preview (animations skipped): the fixed cost of building the scene, T0;
  2. the whole storyboard at 480p15: frames F_l in time T_l, peak memory M_l;
  3. its first beat at 480p15 and 4. at 720p30: frames F_l1, F_m1 in times T_l1, T_m1.
Per-frame cost is modelled as c = a + b * pixels (a: scene updates and Python, b: rasterising
and encoding). Run 2 gives c_l = (T_l - T0) / F_l; runs 3 and 4 share their start-up and scene
building, so T_m1 - T_l1 = F_m1 * c_m - F_l1 * c_l, which fixes b. Peak memory grows with pixels * frame rate (about
one second of frames is in flight between renderer and encoder), with the slope m1 from runs
3 and 4. Then
    time(q)   = T0 + frames(q) * (a + b * pixels(q))
    memory(q) = M_l + m1 * (pixels(q) * fps(q) - pixels(l) * fps(l))
where frames(q) is the planned video length times the frame rate.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from layerwise_core.media import Media

from .scene_render import RenderError, load_plan

FORMATS = {"l": (854, 480, 15), "m": (1280, 720, 30), "h": (1920, 1080, 60),
           "p": (2560, 1440, 60), "k": (3840, 2160, 60)}


def measured_run(args: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of `layerwise render --planned ARGS` in its own process."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-m", "layerwise_pipeline", "render",
                                 "--planned", "--jobs", "1", *args],
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:               # Ctrl-C / SIGTERM: the render cleans up itself
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        if status:
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines()
            raise RenderError(f"measuring render failed: "
                              f"{(lines[-1] if lines else '').removeprefix('error: ')[-400:]}")
    return seconds, usage.ru_maxrss / 1024


def video_frames(media: Path, name: str, quality: str) -> int:
    import av
    w, h, fps = FORMATS[quality]
    with av.open(str(Media(media).video(name, f"{h}p{fps}"))) as c:
        return c.streams.video[0].frames


def estimate(storyboard: Path, quality: str, media: Path) -> dict:
    plan = load_plan(storyboard, media)
    name, beats = plan["storyboard"]["name"], plan["beats"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        path = Media(tmp).plan(name)
        path.parent.mkdir()
        path.write_text(json.dumps(plan))
        base = ["--media", str(tmp), str(storyboard)]
        t0, _ = measured_run(["--preview", *base])
        t_l, m_l = measured_run(["--quality", "l", *base])
        f_l = video_frames(tmp, name, "l")
        t_l1, m_l1 = measured_run(["--quality", "l", "--until", beats[0]["id"], *base])
        f_l1 = video_frames(tmp, name, "l")
        t_m, m_m = measured_run(["--quality", "m", "--until", beats[0]["id"], *base])
        f_m = video_frames(tmp, name, "m")
    p_l, p_m = (FORMATS[q][0] * FORMATS[q][1] for q in ("l", "m"))
    c_l = (t_l - t0) / f_l
    # T_m1 - T_l1 = F_m1 (a + b p_m) - F_l1 (a + b p_l), with a = c_l - b p_l:
    b = max(0.0, (t_m - t_l1 - (f_m - f_l1) * c_l) / (f_m * (p_m - p_l)))
    a = max(0.0, c_l - b * p_l)
    rate_l, rate_m = p_l * FORMATS["l"][2], p_m * FORMATS["m"][2]        # pixels per second
    m1 = max(0.0, (m_m - m_l1) / (rate_m - rate_l))
    w, h, fps = FORMATS[quality]
    frames = round(f_l / FORMATS["l"][2] * fps)
    return {"storyboard": name, "quality": quality, "frames": frames,
            "seconds": round(t0 + frames * (a + b * w * h), 1),
            "peak_mb": round(m_l + m1 * (w * h * fps - rate_l)),
            "measured": {"preview_s": round(t0, 2), "l_s": round(t_l, 2), "l_frames": f_l,
                         "l_peak_mb": round(m_l), "l_first_beat_s": round(t_l1, 2),
                         "l_first_beat_peak_mb": round(m_l1),
                         "m_first_beat_s": round(t_m, 2),
                         "m_frames": f_m, "m_peak_mb": round(m_m)}}



def add_arguments(p) -> None:
    p.add_argument("storyboards", nargs="+", type=Path)
    p.add_argument("--quality", choices=FORMATS, default="k")
    p.add_argument("--media", type=Path, default=Path("media"))
    p.add_argument("--json", action="store_true", help="print the estimates as JSON")


def _main(args) -> int:
    results = [estimate(s, args.quality, args.media) for s in args.storyboards]
    for r in results:
        print(json.dumps(r) if args.json else
              f"{r['storyboard']}: at {args.quality} ({r['frames']} frames) about "
              f"{r['seconds'] / 60:.1f} min and {r['peak_mb']} MB peak")
    return 0

