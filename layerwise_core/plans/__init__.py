"""Storyboard -> plan: every number a scene will show, computed here before Manim starts.

A plan is JSON: the validated storyboard (beats with captions, narration, durations), the
traces it used (paths and hashes) and a template-specific `data` section built by
`plans/<template>.py`. Scenes read only the plan (and the traces it names).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from .. import __version__
from ..atomic import write_text
from ..errors import (CorruptCacheError, InputError, LayerwiseError, OutputError,
                      StoryboardError, TraceFormatError)
from ..storyboard.reveals import steps
from ..storyboard.schema import Storyboard
from ..templates import TEMPLATES
from ..trace import Trace
from ..tracing import get_trace

PLAN_VERSION = 1
# errors that are not the storyboard's fault: reported as they are, never blamed on a field
_NOT_THE_STORYBOARDS = (CorruptCacheError, TraceFormatError, OutputError, InputError)


def storyboard_traces(sb: Storyboard, cache_dir: Path | None = None) -> list[Trace]:
    """One trace per sentence (from the cache when possible); errors name the storyboard."""
    traces = []
    for i, sentence in enumerate(sb.sentences):
        try:
            traces.append(get_trace(sb.model, sentence, cache_dir=cache_dir))
        except _NOT_THE_STORYBOARDS:
            raise                       # the cache or an output is at fault; it names the file
        except LayerwiseError as e:
            raise StoryboardError([f"{sb.path}:{sb.line(('sentences', i))}: sentences[{i}]: "
                                   f"{e}"]) from None
    return traces


def build_plan(sb: Storyboard, cache_dir: Path | None = None) -> dict:
    traces = storyboard_traces(sb, cache_dir)
    spec = traces[0].spec
    try:
        data = TEMPLATES[sb.template].build_plan(sb, traces)
    except _NOT_THE_STORYBOARDS:
        raise
    except LayerwiseError as e:
        raise StoryboardError([f"{sb.path}:{sb.line(('focus',))}: focus: {e}"]) from None
    footer = spec.display if sb.footer else None
    plan = {
        "plan_version": PLAN_VERSION,
        "storyboard": {"name": sb.name, "path": str(sb.path), "sha256": sb.sha256},
        "template": sb.template,
        "title": sb.title,
        "model": spec.to_json(),
        "footer": footer,
        "sentences": list(sb.sentences),
        "focus": list(sb.focus),
        "layers": list(sb.layers),
        "heads": list(sb.heads),
        "traces": [{"path": str(t.path), "inputs_sha256": t.meta["inputs_sha256"],
                    "arrays_sha256": t.meta["arrays_sha256"], "tokens": t.tokens,
                    "sentence": t.sentence, "source": t.meta["source"],
                    "code_version": t.meta["code_version"]} for t in traces],
        "layerwise_version": __version__,
        "beats": [beat_json(b, sb.words_per_minute) for b in sb.beats],
        "data": data,
    }
    if sb.voice:
        plan["voice"] = sb.voice
    return plan


def beat_json(beat, words_per_minute: float = 150.0) -> dict:
    """A beat as the plan records it: `cues` only when a voice spoke it (a silent plan is
    byte-identical to one made before voices existed); the storyboard's own minimum
    (`given_duration`) is folded into `duration` already; reveals keyed to the narration
    (`at`) become `steps` with their times (storyboard.reveals)."""
    d = asdict(beat)
    d.pop("given_duration")
    d.pop("at")
    if not d["cues"]:
        d.pop("cues")
    keyed = steps(beat, words_per_minute)
    if keyed is not None:
        d["steps"] = keyed
    return d


def plan_path(name: str, media_dir: Path = Path("media")) -> Path:
    return Path(media_dir) / "plans" / f"{name}.json"


def write_plan(plan: dict, path: Path) -> Path:
    """Atomic write (temp file + rename): a reader never sees half a plan."""
    return write_text(path, json.dumps(plan, indent=1, sort_keys=True, ensure_ascii=False))
