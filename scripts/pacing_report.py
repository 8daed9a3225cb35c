"""Pacing, measured: narrated share, silences over 3 s and what the picture does in them, and
montages (layers shown faster than a viewer can read), per rendered video.

Usage: scripts/pacing_report.py VIDEO.mp4 [...] [--frames DIR] [--work DIR]
Reads VIDEO.srt beside the video, its beats from `sections/<name>.json` beside it, and the plan
it was rendered from (`<media>/plans/<name>.json`, media being three folders up from the
video). The layer on screen comes from the scene's mid-play text records: DIR/<name>/text/
when `--frames DIR` is given, else a preview of that plan is made in --work (default
/tmp/pacing-work) with `render --preview --midplay`. The rules and thresholds are documented in
layerwise_pipeline/pacing.py. Prints each video's silences and montages, then a table;
exit 1 when a video misses a target (narrated < 75 %, a still silence over 3 s, a montage).
Run from the repository root (the code of the directory it runs from is what previews).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())        # the code of the directory it runs from


def bounds(video: Path, plan: dict) -> list[tuple[str, float, float]]:
    """(beat id, start, end) in the video, from the sections record beside it (the plan's
    durations when there is none)."""
    record = video.parent / "sections" / f"{video.stem}.json"
    durations = ([float(s["duration"]) for s in json.loads(record.read_text())]
                 if record.is_file() else [float(b["duration"]) for b in plan["beats"]])
    out, t = [], 0.0
    for beat, d in zip(plan["beats"], durations):
        out.append((beat["id"], t, t + d))
        t += d
    return out


def text_records(name: str, plan_path: Path, plan: dict, frames: Path | None,
                 work: Path) -> list[dict]:
    """The mid-play text records of every beat (a preview of the plan when not given)."""
    if frames is None:
        (work / "plans").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(plan_path, work / "plans" / f"{name}.json")
        r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned",
                            "--jobs", "1", "--preview", "--midplay", "--media", str(work), plan["storyboard"]["path"]],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"{name}: preview failed:\n{r.stderr[-2000:]}")
        frames = work / "frames"
    files = sorted((frames / name / "text").glob("*.json"))
    if not files:
        raise SystemExit(f"{name}: no text records in {frames / name / 'text'}")
    return [json.loads(f.read_text()) for f in files]


def measure(video: Path, frames: Path | None, work: Path) -> dict:
    from layerwise_pipeline import pacing as P
    srt = video.with_suffix(".srt")
    plan_path = video.parents[2] / "plans" / f"{video.stem}.json"
    for need in (video, srt, plan_path):
        if not need.is_file():
            raise SystemExit(f"{video}: needs {need}, which is missing")
    plan = json.loads(plan_path.read_text())
    try:
        cues = P.parse_srt(srt.read_text())
    except P.SrtError as e:
        raise SystemExit(f"{srt}:{e}") from None
    changed, duration = P.frame_motion(video)
    beats = bounds(video, plan)
    quiet = [(a, b, P.moving(changed, a, b)) for a, b in P.silences(cues, duration)]
    samples = sorted((s["time"], s["texts"]) for r in text_records(
        video.stem, plan_path, plan, frames, work) for s in r.get("midplay", []))
    fast = P.montages(P.layer_events(samples))
    return {"name": video.stem, "duration": duration,
            "narrated": P.narrated_share(cues, duration), "silences": quiet,
            "montages": fast, "beats": beats}


def show(m: dict) -> list[str]:
    from layerwise_pipeline import pacing as P
    at = lambda t: P.beat_at(m["beats"], t)          # noqa: E731
    lines = [f"{m['name']}: {m['duration']:.1f} s, narrated {m['narrated']:.0%} "
             f"(target {P.NARRATED_TARGET:.0%}), {len(m['silences'])} silences over "
             f"{P.SILENCE_S:g} s ({sum(not s[2]['moves'] for s in m['silences'])} still), "
             f"{len(m['montages'])} montages"]
    for a, b, mv in m["silences"]:
        lines.append(f"  silence {a:6.1f}-{b:6.1f} s ({b - a:4.1f} s, {at(a)}"
                     f"{'' if at(a) == at(b - 1e-3) else ' -> ' + at(b - 1e-3)}): picture "
                     f"{'moves' if mv['moves'] else 'STILL'}, {mv['share']:.0%} of frames "
                     f"change, longest still {mv['still_s']:.1f} s")
    for x in m["montages"]:
        lines.append(f"  montage {x['start']:6.1f}-{x['end']:6.1f} s ({at(x['start'])}): layers "
                     f"{x['layers'][0]}-{x['layers'][1]}, {x['count']} seen coming in, "
                     f"{x['per_layer']:.2f} s each")
    return lines


def misses(m: dict) -> bool:
    from layerwise_pipeline import pacing as P
    return m["narrated"] < P.NARRATED_TARGET or any(not s[2]["moves"] for s in m["silences"]) \
        or bool(m["montages"])


def table(measured: list[dict]) -> list[str]:
    out = ["| video | duration | narrated | silences > 3 s (still) | montages (< 1.5 s/layer) |",
           "| --- | --- | --- | --- | --- |"]
    for m in measured:
        still = sum(not s[2]["moves"] for s in m["silences"])
        mont = "; ".join(f"{x['layers'][0]}-{x['layers'][1]} at {x['per_layer']:.2f} s"
                         for x in m["montages"]) or "none"
        out.append(f"| {m['name']} | {m['duration']:.1f} s | {m['narrated']:.0%} | "
                   f"{len(m['silences'])} ({still}) | {mont} |")
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("videos", type=Path, nargs="+")
    p.add_argument("--frames", type=Path, default=None,
                   help="frames folder with <name>/text/*.json mid-play records")
    p.add_argument("--work", type=Path, default=Path("/tmp/pacing-work"))
    a = p.parse_args()
    measured = []
    for v in a.videos:
        m = measure(v, a.frames, a.work)
        measured.append(m)
        print("\n".join(show(m)), flush=True)
    print("\n".join(table(measured)))
    return 1 if any(misses(m) for m in measured) else 0


if __name__ == "__main__":
    sys.exit(main())
