"""Beats of a storyboard, rendered on their own: the jobs, their cache keys, their cache.

A job is a *run* of consecutive beats, as data only (the plan, with the run's audio as bytes
instead of paths), so it can run in another process or on another machine. `render_run`
builds the scene up to the run's first beat with every earlier animation skipped
(`StoryboardScene.start`: the state and the scene time are the ones a whole render reaches),
draws the run's beats in a private scratch folder, and returns one result per beat: the
beat's mp4 (its own partial movies joined, its sound timed from the beat's start), its
subtitles (in the storyboard's time, as a whole render writes them) and the mp4's sha256,
as data. A beat is the same whichever run drew it. `storyboard.py` joins the beats.

Skipping is not free (the earlier beats' mobjects are still built), so a storyboard is cut
into as few runs as there are workers to keep busy (`split_runs`), not one job per beat.

The cache key of beat k covers what its frames depend on: the beat itself, the plan's
header and data, and of the earlier beats what shapes the state at beat k's start (ids,
steps, layers, durations and cue timing: not their captions, narration text or audio,
which only show or sound during their own beat), plus quality, the encoder's settings, scene
code and versions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

from layerwise_core.atomic import write_bytes, write_text
from layerwise_core.media import Media
from layerwise_render.session import X264, manim_options, manim_session

from .provenance import scenes_code_hash, versions
from .cli import Terminated
from .scene_render import RenderError

OWN_ONLY = ("caption", "narration", "audio", "written")  # fields that only show in their own beat
# ("written": the caption and narration as typed, before their placeholders were filled)
CUE_OWN_ONLY = ("text", "audio")


class BeatError(RenderError):
    """A beat failed: names the storyboard and the beat."""


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _state_part(beat: dict) -> dict:
    d = {k: v for k, v in beat.items() if k not in OWN_ONLY}
    if d.get("cues"):
        d["cues"] = [{k: v for k, v in c.items() if k not in CUE_OWN_ONLY} for c in d["cues"]]
    return d


def _audio_paths(beat: dict) -> list[str]:
    paths = [beat["audio"]] if beat.get("audio") else []
    return paths + [c["audio"] for c in beat.get("cues") or [] if c.get("audio")]


def pack(plan: dict, quality: str, indices: list[int]) -> dict:
    """The job for the run of beats `indices` (consecutive): the plan with those beats'
    audio files replaced by names of their content (the bytes travel in the job; other
    beats' sound is never played here), and each beat's cache key."""
    plan = json.loads(json.dumps(plan))
    audio: dict[str, bytes] = {}
    names: dict[str, str] = {}
    for i, beat in enumerate(plan["beats"]):
        if i not in indices:
            beat.pop("audio", None)
            for c in beat.get("cues") or []:
                c.pop("audio", None)
            continue
        for path in _audio_paths(beat):
            if path not in names:
                try:
                    data = Path(path).read_bytes()
                except OSError as e:
                    raise BeatError(f"{plan['storyboard']['name']}: beat {beat['id']}: cannot "
                                    f"read audio {path}: {e.strerror or e}") from None
                names[path] = _sha(data)[:24] + Path(path).suffix
                audio[names[path]] = data
        if beat.get("audio"):
            beat["audio"] = names[beat["audio"]]
        for c in beat.get("cues") or []:
            if c.get("audio"):
                c["audio"] = names[c["audio"]]
    return {"plan": plan, "quality": quality, "indices": list(indices), "audio": audio,
            "keys": [beat_key(plan, quality, i) for i in indices]}


def split_runs(indices: list[int], durations: list[float], parts: int,
               skip_share: float) -> list[list[int]]:
    """Cut the beats `indices` (of one storyboard, ascending) into at most `parts` runs of
    consecutive beats whose costs are as even as possible. A run's cost is the running time
    it draws plus `skip_share` times the running time before it that it skips (building,
    not drawing, the earlier beats), so later runs are shorter. Non-consecutive beats (the
    cache holds the ones between) never share a run."""
    groups: list[list[int]] = []
    for i in indices:
        if groups and groups[-1][-1] == i - 1:
            groups[-1].append(i)
        else:
            groups.append([i])
    before = [sum(durations[:i]) for i in range(len(durations))]

    def cut(limit: float) -> list[list[int]]:
        runs = []
        for g in groups:
            run: list[int] = []
            for i in g:
                start = run[0] if run else i
                cost = skip_share * before[start] + before[i] + durations[i] - before[start]
                if run and cost > limit:
                    runs.append(run)
                    run = []
                run.append(i)
            runs.append(run)
        return runs

    lo, hi = 0.0, skip_share * sum(durations) + sum(durations)
    for _ in range(40):                   # the least limit that needs no more than `parts` runs
        mid = (lo + hi) / 2
        if len(cut(mid)) <= max(parts, len(groups)):
            hi = mid
        else:
            lo = mid
    return cut(hi)


def beat_key(plan: dict, quality: str, index: int) -> str:
    """See the module docstring. `plan` as packed (audio named by content)."""
    header = {k: v for k, v in plan.items() if k not in ("beats", "storyboard")}
    blob = json.dumps({"header": header, "name": plan["storyboard"]["name"],
                       "before": [_state_part(b) for b in plan["beats"][:index]],
                       "beat": plan["beats"][index], "index": index, "quality": quality,
                       "x264": X264,
                       "scenes": scenes_code_hash(), "versions": versions()},
                      sort_keys=True, default=str)
    return _sha(blob.encode())


def render_run(job: dict) -> list[dict]:
    """Render a packed run of beats in a private scratch folder (removed afterwards);
    returns, per beat, {"name", "index", "beat", "key", "mp4" (bytes), "sha256", "frames",
    "srt", "seconds"}. Any failure is one BeatError naming the storyboard and the beat that
    was being drawn."""
    plan, indices = job["plan"], job["indices"]
    name = plan["storyboard"]["name"]
    scratch = Path(tempfile.mkdtemp(prefix=f"layerwise-{name}-{indices[0]:02d}-"))
    where = {"index": indices[0]}
    try:
        try:
            return _render(job, scratch, where)
        except (KeyboardInterrupt, SystemExit, Terminated):
            raise
        except BeatError:
            raise
        except BaseException as e:
            cause = " ".join(str(e).split()) or type(e).__name__
            i = where["index"]
            raise BeatError(f"{name}: beat {i} '{plan['beats'][i]['id']}': "
                            f"{type(e).__name__}: {cause[:300]}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _render(job: dict, scratch: Path, where: dict) -> list[dict]:
    from .scene_render import scene_class, signals_at_checkpoints

    plan, indices, quality = job["plan"], job["indices"], job["quality"]
    name, beats = plan["storyboard"]["name"], plan["beats"]
    (scratch / "audio").mkdir()
    for fname, data in job["audio"].items():
        (scratch / "audio" / fname).write_bytes(data)
    for i in indices:
        for b in [beats[i]] + list(beats[i].get("cues") or []):
            if b.get("audio"):
                b["audio"] = str(scratch / "audio" / b["audio"])
    # the beats are joined from the partial movies after the render: Manim must not prune
    # them (it keeps 100 by default; a run has hundreds of plays)
    options = manim_options(quality, scratch, name, save_sections=False, max_files_cached=-1,
                            video_dir="{media_dir}/videos", images_dir="{media_dir}/images")
    start = time.perf_counter()
    with manim_session(options):
        scene = scene_class(plan["template"])(
            plan, split=True, start=beats[indices[0]]["id"], until=beats[indices[-1]]["id"],
            on_beat=lambda i: where.update(index=i))     # a failure names the beat it was in
        with signals_at_checkpoints(scene):
            scene.render()
        writer = scene.renderer.file_writer
        sections = {s.name: s for s in writer.sections}
        seconds = round((time.perf_counter() - start) / len(indices), 3)
        out = []
        for i, key in zip(indices, job["keys"]):
            where["index"] = i
            beat = beats[i]["id"]
            video = scratch / "beats" / f"{i:04d}.mp4"
            part = scene.beat_parts[beat]
            _join_beat(writer, sections[beat].get_clean_partial_movie_files(), part["sound"],
                       video)
            data = video.read_bytes()
            out.append({"name": name, "index": i, "beat": beat, "key": key, "mp4": data,
                        "sha256": _sha(data), "frames": _frames(video),
                        "srt": _srt(part["subcaptions"]), "seconds": seconds})
    return out


def _join_beat(writer, partial_movies: list[str], sound, video: Path) -> None:
    """A beat's partial movies joined by stream copy, and its sound (a pydub segment timed
    from the beat's start, or None) muxed in as AAC cut to the video's length, as Manim
    muxes a scene's sound."""
    import av
    from manim.scene.scene_file_writer import convert_audio

    video.parent.mkdir(parents=True, exist_ok=True)
    silent = video.with_name(video.stem + "-video.mp4")
    writer.combine_files(partial_movies, silent if sound is not None else video)
    if sound is None:
        return
    wav, aac = video.with_suffix(".wav"), video.with_suffix(".aac")
    sound.export(wav, format="wav")
    convert_audio(wav, aac, "aac")
    with av.open(str(silent)) as vin, av.open(str(aac)) as ain, \
            av.open(str(video), mode="w", options={"shortest": "1"}) as out:
        streams = [(vin, vin.streams.video[0]), (ain, ain.streams.audio[0])]
        outs = [out.add_stream_from_template(template=st) for _, st in streams]
        for (container, stream), target in zip(streams, outs):
            for packet in container.demux(stream):
                if packet.dts is None:              # the demuxer's flushing packets
                    continue
                packet.stream = target
                out.mux(packet)
    for f in (silent, wav, aac):
        f.unlink()


def _frames(video: Path) -> int:
    from .videocheck import facts
    return facts(video)["frames"]


def _srt(subcaptions: list) -> str:
    import srt
    return srt.compose(subcaptions) if subcaptions else ""


def check(result: dict) -> dict:
    """A result that came back as data: its bytes are the ones its worker hashed."""
    if _sha(result["mp4"]) != result["sha256"]:
        raise BeatError(f"{result['name']}: beat {result['index']} '{result['beat']}': the "
                        f"video came back damaged (sha256 differs)")
    return result


class BeatCache:
    """Finished beats under <media>/beats/<quality>/<storyboard>/<key>.{mp4,json}; a hit is
    only returned if the mp4 still has the sha256 its record names."""

    def __init__(self, media: Path, quality: str, name: str):
        self.folder = Media(media).beats(quality, name)

    def get(self, key: str) -> dict | None:
        try:
            record = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            data = (self.folder / f"{key}.mp4").read_bytes()
        except (OSError, ValueError):
            return None
        if _sha(data) != record.get("sha256"):
            return None
        return dict(record, mp4=data, cached=True)

    def put(self, result: dict) -> None:
        """The mp4 first, then its record (a record never names a missing video)."""
        key = result["key"]
        write_bytes(self.folder / f"{key}.mp4", result["mp4"])
        write_text(self.folder / f"{key}.json", json.dumps(
            {k: v for k, v in result.items() if k not in ("mp4", "cached")}, sort_keys=True))

    def prune(self, keep: set[str]) -> None:
        """Remove beats of this storyboard that no current key names."""
        if not self.folder.is_dir():
            return
        for f in self.folder.iterdir():
            if f.suffix in (".mp4", ".json") and f.stem not in keep:
                f.unlink(missing_ok=True)
