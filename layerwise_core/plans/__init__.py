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
from ..storyboard.filled import fill_storyboard
from ..storyboard.reveals import moments, steps
from ..storyboard.schema import Storyboard
from layerwise_templates import TEMPLATES
from ..trace import Trace
from ..tracing import get_trace
from ..media import MEDIA, Media

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
    """The plan of a storyboard, placeholders filled and claims checked (no voice)."""
    return finish_plan(*prepare_plan(sb, cache_dir))


def prepare_plan(sb: Storyboard, cache_dir: Path | None = None) -> tuple[Storyboard, dict]:
    """(the storyboard with its placeholders filled from the plan and its `expect:` claims
    checked, the plan without its beats). Raises StoryboardError naming file, line and field;
    nothing is written. A voice may then speak the filled storyboard (`finish_plan`)."""
    traces = storyboard_traces(sb, cache_dir)
    spec = traces[0].spec
    template = TEMPLATES[sb.template]
    try:
        data = template.build_plan(sb, traces)
    except _NOT_THE_STORYBOARDS:
        raise
    except LayerwiseError as e:
        raise StoryboardError([f"{sb.path}:{sb.line(('focus',))}: focus: {e}"]) from None
    problems = template.check_data(data)
    if problems:                    # the plan builder broke its own declared shape: a bug
        raise TypeError(f"{template.plan_module} built a plan that does not match its view: "
                        + "; ".join(problems[:5]))
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
        "data": data,
    }
    return fill_storyboard(sb, plan), plan


def finish_plan(sb: Storyboard, plan: dict) -> dict:
    """The plan with the (filled, perhaps spoken) storyboard's beats and voice."""
    plan = {**plan, "beats": [beat_json(b, sb.words_per_minute) for b in sb.beats]}
    if sb.voice:
        plan["voice"] = sb.voice
    if sb.captions != "subtitles":      # default plans stay as they were
        plan["captions"] = sb.captions
    return plan


def beat_json(beat, words_per_minute: float = 150.0) -> dict:
    """A beat as the plan records it: `cues` only when a voice spoke it (a silent plan is
    byte-identical to one made before voices existed); the storyboard's own minimum
    (`given_duration`) is folded into `duration` already; reveals keyed to the narration
    (`at`) become `steps` with their times, moments the handlers wait for `moments` with
    theirs (storyboard.reveals). A beat with placeholders
    keeps its text as written under `written` (`caption`/`narration` are the filled text); a
    beat with `expect:` claims lists each with the plan value it was checked on. A cue whose
    spoken form differs from its text (numbers in words) records it as `spoken`."""
    d = asdict(beat)
    for key in ("given_duration", "at", "moments", "expect", "written", "checked"):
        d.pop(key)
    if not d["cues"]:
        d.pop("cues")
    for cue in d.get("cues", []):
        if cue["spoken"] is None:
            cue.pop("spoken")
    if beat.written:
        d["written"] = dict(beat.written)
    if beat.checked:
        d["expect"] = [{"claim": c, "value": v} for c, v in beat.checked]
    keyed = steps(beat, words_per_minute)
    if keyed is not None:
        d["steps"] = keyed
    named = moments(beat, words_per_minute)
    if named is not None:
        d["moments"] = named
    return d


def plan_path(name: str, media_dir: Path = MEDIA) -> Path:
    return Media(media_dir).plan(name)


def write_plan(plan: dict, path: Path) -> Path:
    """Atomic write (temp file + rename): a reader never sees half a plan."""
    return write_text(path, json.dumps(plan, indent=1, sort_keys=True, ensure_ascii=False))
