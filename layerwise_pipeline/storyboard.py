"""A storyboard from its beats: the beats' mp4s joined by stream copy into the same set a
whole render publishes (video, one section per beat, subtitles, manifest), atomically.

`plan_jobs` splits a plan into beat jobs and takes what the beat cache already holds;
`assemble` writes the set in a private work folder from the finished beats, verifies it
(reads whole, sections add up) and publishes it (`staging.publish`): a failure leaves the
previous set under the final names.
"""

from __future__ import annotations

import json
from pathlib import Path

from layerwise_core.media import Media
from layerwise_render.session import frame_facts

from .beats import BeatCache, pack, split_runs
from .concat import JoinError, beat_marks, join, merge_srt
from .provenance import manifest
from .scene_render import RenderError, _merge_caches, _verify, _video_set, write_json
from .staging import publish, work_folder


# What skipping a second of earlier beats costs, as a share of drawing a second, per quality:
# building mobjects costs the same at any size, drawing grows with pixels and frame rate
# (measured on fresh_qkv: at 480p15 skipping its first 7 beats took 0.6 of drawing them).
SKIP_SHARE = {"l": 0.6, "m": 0.3, "h": 0.12, "p": 0.08, "k": 0.03}


def plan_jobs(plans: list[dict], quality: str, cache_root: Path, workers: int
              ) -> tuple[list[dict], dict[str, dict[int, dict]]]:
    """(jobs to run, {name: {index: cached result}}) for a set of plans. The beats the
    cache lacks are cut into runs (`beats.split_runs`): a storyboard gets about its share
    of the workers by its running time, at least one run and at most `workers`."""
    todo, done = [], {}
    pending = []
    for plan in plans:
        name = plan["storyboard"]["name"]
        cache = BeatCache(cache_root, quality, name)
        keys = pack(plan, quality, list(range(len(plan["beats"]))))["keys"]
        done[name] = {}
        for i, key in enumerate(keys):
            hit = cache.get(key)
            if hit is not None:
                done[name][i] = hit
        missing = [i for i in range(len(keys)) if i not in done[name]]
        if missing:
            pending.append((plan, missing))
    durations = {p["storyboard"]["name"]: [float(b["duration"]) for b in p["beats"]]
                 for p, _ in pending}
    total = sum(sum(durations[p["storyboard"]["name"]][i] for i in m) for p, m in pending)
    for plan, missing in pending:
        d = durations[plan["storyboard"]["name"]]
        share = sum(d[i] for i in missing) / total if total else 1.0
        parts = min(max(1, workers), max(1, round(share * max(1, workers))))
        for run in split_runs(missing, d, parts, SKIP_SHARE.get(quality, 0.3)):
            todo.append(pack(plan, quality, run))
    return todo, done


def assemble(plan: dict, quality: str, media: Path, results: list[dict],
             seconds: float) -> Path:
    """Publish the storyboard's set under media/videos/<quality folder>/ from its beats'
    results (in beat order). Returns the video's path."""
    name = plan["storyboard"]["name"]
    if [r["index"] for r in results] != list(range(len(plan["beats"]))):
        raise RenderError(f"{name}: beats missing from the join")
    rate, size, folder = frame_facts(quality)
    media = Path(media)
    with work_folder(media, name) as work:
        staged, final = Media(work), Media(media)
        parts = staged.sections(folder)
        parts.mkdir(parents=True)
        sections, index = [], []
        for r in results:
            section = f"{name}_{r['index']:04d}_{r['beat']}.mp4"
            (parts / section).write_bytes(r["mp4"])
            sections.append(parts / section)
            index.append(_section_record(r["beat"], section, parts))
        staged.section_index(name, folder).write_text(json.dumps(index, indent=4))
        try:
            join([t for t, _ in beat_marks(plan, [0.0] * len(results))], sections,
                 staged.video(name, folder), plan["title"])     # a chapter marker a beat
        except JoinError as e:
            raise RenderError(f"{name}: {e}") from None
        srts = []
        for r in results:
            p = work / f"{r['index']:04d}.srt"
            p.write_text(r["srt"], encoding="utf-8")
            srts.append(p)
        cues = any(r["srt"].strip() for r in results)
        if cues:
            merge_srt(srts, [0.0] * len(srts), staged.subtitles(name, folder))  # scene times
        for p in srts:
            p.unlink()
        video = final.video(name, folder)
        video_facts, names = _verify(staged, name, folder)
        record = manifest(plan, quality, rate, size, seconds, video, video_facts, names)
        record["beats"] = [{"id": r["beat"], "key": r["key"], "frames": r["frames"],
                            "cached": bool(r.get("cached")), "seconds": r.get("seconds")}
                           for r in results]
        write_json(staged.manifest(name, folder), record)
        moves, remove = _video_set(staged, final, name, folder, names)
        publish(media, work, moves, remove)
        _merge_caches(work, media)
        return video


def _section_record(beat: str, video: str, folder: Path) -> dict:
    """The entry Manim writes in a sections index (name, type, video, stream metadata)."""
    from manim import get_video_metadata
    return dict({"name": beat, "type": "default.normal", "video": video},
                **get_video_metadata(folder / video))
