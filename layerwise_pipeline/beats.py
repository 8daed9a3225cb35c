"""One beat of a storyboard, rendered on its own: the job, its cache key, its cache.

A beat job is data only (the plan, with the beat's audio as bytes instead of paths), so it
can run in another process or on another machine. `render_beat` builds the scene up to the
beat's start with every earlier animation skipped (`StoryboardScene.start`: the state and
the scene time are the ones a whole render reaches), draws only that beat's frames in a
private scratch folder, and returns the beat's mp4 (its sound timed from the beat's start),
its subtitles (in the storyboard's time, as a whole render writes them) and the mp4's
sha256 as data. `storyboard.py` joins the beats.

The cache key of beat k covers what its frames depend on: the beat itself, the plan's
header and data, and of the earlier beats what shapes the state at beat k's start (ids,
steps, layers, durations and cue timing: not their captions, narration text or audio,
which only show or sound during their own beat), plus quality, scene code and versions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import time
from pathlib import Path

from layerwise_core.atomic import write_bytes, write_text

from .provenance import scenes_code_hash, versions
from .cli import Terminated
from .render import RenderError

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


def pack(plan: dict, quality: str, index: int) -> dict:
    """The job for beat `index`: the plan with that beat's audio files replaced by names
    of their content (the bytes travel in the job), and the beat's cache key."""
    plan = json.loads(json.dumps(plan))
    audio: dict[str, bytes] = {}
    names: dict[str, str] = {}
    beat = plan["beats"][index]
    for path in _audio_paths(beat):
        if path not in names:
            try:
                data = Path(path).read_bytes()
            except OSError as e:
                raise BeatError(f"{plan['storyboard']['name']}: beat {beat['id']}: cannot read "
                                f"audio {path}: {e.strerror or e}") from None
            names[path] = _sha(data)[:24] + Path(path).suffix
            audio[names[path]] = data
    if beat.get("audio"):
        beat["audio"] = names[beat["audio"]]
    for c in beat.get("cues") or []:
        if c.get("audio"):
            c["audio"] = names[c["audio"]]
    for b in plan["beats"][:index] + plan["beats"][index + 1:]:
        for k in ("audio",):                   # other beats' sound is never played here
            b.pop(k, None)
        for c in b.get("cues") or []:
            c.pop("audio", None)
    return {"plan": plan, "quality": quality, "index": index, "audio": audio,
            "key": beat_key(plan, quality, index)}


def beat_key(plan: dict, quality: str, index: int) -> str:
    """See the module docstring. `plan` as packed (audio named by content)."""
    header = {k: v for k, v in plan.items() if k not in ("beats", "storyboard")}
    blob = json.dumps({"header": header, "name": plan["storyboard"]["name"],
                       "before": [_state_part(b) for b in plan["beats"][:index]],
                       "beat": plan["beats"][index], "index": index, "quality": quality,
                       "scenes": scenes_code_hash(), "versions": versions()},
                      sort_keys=True, default=str)
    return _sha(blob.encode())


def render_beat(job: dict) -> dict:
    """Render one packed beat in a private scratch folder (removed afterwards); returns
    {"name", "index", "beat", "key", "mp4" (bytes), "sha256", "frames", "srt", "seconds"}.
    Any failure is one BeatError naming the storyboard and the beat."""
    plan, index = job["plan"], job["index"]
    name, beat = plan["storyboard"]["name"], plan["beats"][index]["id"]
    scratch = Path(tempfile.mkdtemp(prefix=f"layerwise-{name}-{index:02d}-"))
    try:
        try:
            return _render(job, scratch)
        except (KeyboardInterrupt, SystemExit, Terminated):
            raise
        except BeatError:
            raise
        except BaseException as e:
            cause = " ".join(str(e).split()) or type(e).__name__
            raise BeatError(f"{name}: beat {index} '{beat}': {type(e).__name__}: "
                            f"{cause[:300]}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _render(job: dict, scratch: Path) -> dict:
    from manim import config, tempconfig

    from .render import QUALITIES, _QuietSoundMux, scene_class, signals_at_checkpoints
    from .videocheck import facts
    import logging

    plan, index, quality = job["plan"], job["index"], job["quality"]
    name, beat = plan["storyboard"]["name"], plan["beats"][index]
    (scratch / "audio").mkdir()
    for fname, data in job["audio"].items():
        (scratch / "audio" / fname).write_bytes(data)
    for b in [beat] + list(beat.get("cues") or []):
        if b.get("audio"):
            b["audio"] = str(scratch / "audio" / b["audio"])
    options = {"quality": QUALITIES[quality], "media_dir": str(scratch), "output_file": name,
               "save_sections": False, "disable_caching": True, "verbosity": "WARNING",
               "progress_bar": "none", "video_dir": "{media_dir}/videos",
               "images_dir": "{media_dir}/images"}
    start = time.perf_counter()
    with tempconfig(options):
        mux_log = logging.getLogger("av.container.output")
        if not any(isinstance(f, _QuietSoundMux) for f in mux_log.filters):
            mux_log.addFilter(_QuietSoundMux())
        scene = scene_class(plan["template"])()
        scene.plan, scene.start, scene.until = plan, beat["id"], beat["id"]
        with signals_at_checkpoints(scene):
            scene.render()
        video_dir = Path(config.get_dir("video_dir"))
    video = video_dir / f"{name}.mp4"
    srt = video_dir / f"{name}.srt"
    data = video.read_bytes()
    return {"name": name, "index": index, "beat": beat["id"], "key": job["key"],
            "mp4": data, "sha256": _sha(data), "frames": facts(video)["frames"],
            "srt": srt.read_text(encoding="utf-8") if srt.is_file() else "",
            "seconds": round(time.perf_counter() - start, 3)}


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
        self.folder = Path(media) / "beats" / quality / name

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
