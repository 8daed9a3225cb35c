"""Storyboard validation: every problem at once, each as `file:line: field: message`.

A storyboard (YAML, one per video) names its scene template, the model, the sentence(s), the
focus word (`bank`, `bank#2`), layers, heads and a list of beats, each with an id, what to show,
a caption, narration and an optional duration. Examples: layerwise_templates/*/*.yaml.
Placeholders in captions and narration (`{data.layers[21].rank:,}`, storyboard/placeholders.py)
and a beat's `expect:` claims (storyboard/claims.py) are checked for syntax here; they are
filled and checked against the plan at plan time (storyboard/filled.py).
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..audio import AudioError, audio_seconds
from ..errors import LayerwiseError, StoryboardError, shorten
from ..models import resolve
from ..names import VECTORS
from layerwise_templates import TEMPLATES
from ..tokens import words
from .claims import ClaimError, parse_claim
from .placeholders import PlaceholderError, parse
from .reveals import check_at, check_moments
from .yamlsource import Located, describe, field_name, load_located, read_text

WORDS_PER_MINUTE = 150      # default speaking rate for beats without a duration
MIN_BEAT_SECONDS = 2.0

TOP_KEYS = {"template", "title", "model", "sentences", "focus", "layers", "heads", "footer",
            "words_per_minute", "captions", "beats"}
# where the spoken words are shown: `subtitles` (the .srt beside the video; the frame shows
# each beat's short caption) or `burned` (each cue's text drawn at the bottom of the frame
# while it is spoken, for platforms without subtitles; it takes the caption's place)
CAPTIONS = ("subtitles", "burned")
REQUIRED_TOP = ("template", "title", "model", "sentences", "focus", "beats")
BEAT_KEYS = {"id", "show", "caption", "narration", "duration", "layer", "head", "audio", "at",
             "moments", "expect"}
AUDIO_PAD = 0.3             # seconds of silence after recorded narration
REQUIRED_BEAT = ("id", "caption")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Cue:
    """One spoken sentence of a beat: `start` (seconds after the beat starts) and `duration`
    are those of its synthesised `audio` file."""
    text: str
    start: float
    duration: float
    audio: str | None = None
    spoken: str | None = None       # what the voice was given, when it differs from `text`


@dataclass(frozen=True)
class Beat:
    id: str
    show: tuple[str, ...]
    caption: str
    narration: str
    duration: float
    layer: int | None = None
    head: int | None = None
    audio: str | None = None        # recorded narration (absolute path); the beat lasts as long
    cues: tuple[Cue, ...] = ()      # the narration spoken sentence by sentence (a voice backend)
    given_duration: float | None = None     # the storyboard's own `duration`, if it set one
    at: tuple = ()                  # reveals keyed to the narration: ((show name, cue), ...)
    moments: tuple = ()             # times the handlers wait for: ((moment name, cue), ...)
    expect: tuple[str, ...] = ()    # claims about the plan (storyboard/claims.py)
    written: tuple = ()             # (field, text as written) for fields with placeholders
    checked: tuple = ()             # (claim, the plan value it was checked on), at plan time


@dataclass(frozen=True)
class Storyboard:
    path: Path
    name: str
    template: str
    title: str
    model: str
    sentences: tuple[str, ...]
    focus: tuple[str, ...]          # one word reference per sentence
    layers: tuple[int, ...]
    heads: tuple[int, ...]
    footer: bool
    beats: tuple[Beat, ...]
    sha256: str = field(compare=False)
    words_per_minute: float = WORDS_PER_MINUTE
    source: Located | None = field(default=None, compare=False, repr=False)
    voice: dict | None = field(default=None, compare=False)    # who spoke the cues, if any
    captions: str = "subtitles"     # CAPTIONS: subtitles (the .srt) or burned into the frame

    def line(self, where: tuple) -> int:
        """The 1-based line of a key path like ("sentences", 1) in the storyboard file."""
        return self.source.line(where) if self.source is not None else 1


class _Problems:
    def __init__(self, path: Path, src: Located | None):
        self.path, self.src, self.items = path, src, []

    def add(self, where: tuple, message: str) -> None:
        line = self.src.line(where) if self.src else 1
        name = field_name(where)
        self.items.append(f"{self.path}:{line}: {name}: {shorten(message)}")


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(str(word), sorted(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _index_list(value, where, limit, what, bad) -> tuple[int, ...]:
    if value is None or value == "all":
        return tuple(range(limit))
    if not isinstance(value, list) or not value or not all(_is_int(v) for v in value):
        bad.add(where, f"must be 'all' or a non-empty list of integers, got {value!r}")
        return ()
    out = [v for v in value if 0 <= v < limit]
    for v in value:
        if not 0 <= v < limit:
            bad.add(where, f"{what} {v} is out of range 0..{limit - 1} for this model")
    if len(set(value)) != len(value):
        bad.add(where, f"repeats a {what}")
    return tuple(out)


def validate_text(text: str, path: Path, model_override: str | None = None) -> Storyboard:
    """Validate storyboard YAML; raise StoryboardError listing every problem. `model` (a name
    or a path relative to the current folder: `plan --model`) replaces the storyboard's own
    where the template takes that model's kind; elsewhere the storyboard keeps its own."""
    try:
        src = load_located(text)
    except yaml.YAMLError as e:
        raise StoryboardError([describe(e, path)]) from None
    bad = _Problems(path, src)
    d = src.data
    if not isinstance(d, dict):
        bad.add((), f"a storyboard is a mapping of keys, got {type(d).__name__}")
        raise StoryboardError(bad.items)
    for k in d:
        if k not in TOP_KEYS:
            bad.add((k,), f"unknown key{_suggest(k, TOP_KEYS)}")
    for k in REQUIRED_TOP:
        if k not in d:
            bad.add((), f"missing required key {k!r}")

    template = d.get("template")
    if "template" in d and (not isinstance(template, str) or template not in TEMPLATES):
        bad.add(("template",), f"unknown template {template!r}{_suggest(template, TEMPLATES)}; "
                               f"known: {', '.join(TEMPLATES)}")
    t = TEMPLATES.get(template) if isinstance(template, str) else None
    shows, kinds, min_sentences, max_sentences = \
        (t.shows, t.kinds, t.min_sentences, t.max_sentences) if t else \
        (frozenset(), frozenset(), 1, None)

    title = d.get("title")
    if "title" in d and (not isinstance(title, str) or not title.strip()):
        bad.add(("title",), "must be non-empty text")

    model = d.get("model")
    via = ""                    # how the model was named, for messages: "" or "--model ...: "
    if model_override is not None and _takes(model_override, kinds):
        model, via = model_override, f"--model {model_override}: "
    spec = None
    if "model" in d or via:
        try:                    # a built-in name, or a path relative to the storyboard file
            ref = resolve(model if isinstance(model, str) else repr(model),
                          base=None if via else path.parent)
            spec = ref.spec()
            model = ref.name if ref.entry else str(ref.path)
        except LayerwiseError as e:
            bad.add(("model",), via + str(e))
        else:
            if kinds and spec.kind not in kinds:
                bad.add(("model",), f"{via}template {template!r} needs a "
                                    f"{'/'.join(sorted(kinds))} model, {model!r} is a {spec.kind}")

    sentences = d.get("sentences")
    if isinstance(sentences, str):
        sentences = [sentences]
    if "sentences" in d:
        if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
            bad.add(("sentences",), "must be a list of sentences (text)")
            sentences = []
        for i, s in enumerate(sentences):
            if not s.strip():
                bad.add(("sentences", i), "sentence is empty")
        if len(sentences) < min_sentences:
            bad.add(("sentences",), f"template {template!r} needs at least {min_sentences} "
                                    f"sentences, got {len(sentences)}")
        if max_sentences is not None and len(sentences) > max_sentences:
            bad.add(("sentences",), f"template {template!r} compares exactly {max_sentences} "
                                    f"sentences, got {len(sentences)}")
    sentences = sentences or []

    focus = d.get("focus")
    focus_list: list = []
    if "focus" in d:
        focus_list = focus if isinstance(focus, list) else [focus] * max(1, len(sentences))
        if not all(isinstance(f, str) and f.strip() for f in focus_list):
            bad.add(("focus",), f"must be a word (or a list, one per sentence), got {focus!r}")
            focus_list = []
        elif len(focus_list) != len(sentences) and sentences:
            bad.add(("focus",), f"has {len(focus_list)} words for {len(sentences)} sentences")
        for i, (f, s) in enumerate(zip(focus_list, sentences)):
            name, _, nth = f.partition("#")
            n = int(nth) if nth.isdigit() else 1
            found = [w for w, _, _ in words(s) if w.lower() == name.lower()]
            if (nth and not nth.isdigit()) or n < 1 or len(found) < n:
                listed = " ".join(w for w, _, _ in words(s))
                bad.add(("focus",) if not isinstance(focus, list) else ("focus", i),
                        f"{f!r} is not in sentence {i} ({s!r}); its words: {listed}")

    n_layers = spec.n_layers if spec else 10 ** 6
    n_heads = spec.n_heads if spec else 10 ** 6
    layers = _index_list(d.get("layers"), ("layers",), n_layers, "layer", bad)
    heads = _index_list(d.get("heads"), ("heads",), n_heads, "head", bad)

    footer = d.get("footer", True)
    if not isinstance(footer, bool):
        bad.add(("footer",), f"must be true or false, got {footer!r}")
    wpm = d.get("words_per_minute", WORDS_PER_MINUTE)
    if not (isinstance(wpm, (int, float)) and not isinstance(wpm, bool) and wpm > 0):
        bad.add(("words_per_minute",), f"must be a positive number, got {wpm!r}")
        wpm = WORDS_PER_MINUTE
    captions = d.get("captions", CAPTIONS[0])
    if captions not in CAPTIONS:
        bad.add(("captions",), f"must be one of {', '.join(CAPTIONS)}, got {captions!r}")
        captions = CAPTIONS[0]

    beats = []
    raw_beats = d.get("beats")
    if "beats" in d and (not isinstance(raw_beats, list) or not raw_beats):
        bad.add(("beats",), "must be a non-empty list of beats")
        raw_beats = []
    seen: set[str] = set()
    for i, b in enumerate(raw_beats or []):
        w = ("beats", i)
        if not isinstance(b, dict):
            bad.add(w, f"a beat is a mapping, got {type(b).__name__}")
            continue
        for k in b:
            if k not in BEAT_KEYS:
                bad.add(w + (k,), f"unknown key{_suggest(k, BEAT_KEYS)}")
        for k in REQUIRED_BEAT:
            if k not in b:
                bad.add(w, f"missing required key {k!r}")
        bid = b.get("id")
        if "id" in b and (not isinstance(bid, str) or not _ID.match(bid)):
            bad.add(w + ("id",), f"must be a lower-case identifier like 'intro', got {bid!r}")
        elif bid in seen:
            bad.add(w + ("id",), f"duplicate beat id {bid!r}")
        else:
            seen.add(bid)
        show = b.get("show", [])
        if isinstance(show, str):
            show = [show]
        if not isinstance(show, list) or not all(isinstance(s, str) for s in show):
            bad.add(w + ("show",), f"must be a list of names, got {show!r}")
            show = []
        for j, s in enumerate(show):
            if shows and s not in shows:       # an unknown template is reported once, above
                where = "a vector" if s in VECTORS else "a name"
                bad.add(w + ("show", j), f"{where} {s!r} that template {template!r} cannot show"
                                         f"{_suggest(s, shows)}; it shows: "
                                         f"{', '.join(sorted(shows))}")
        for k in ("caption", "narration"):
            if k in b and not isinstance(b[k], str):
                bad.add(w + (k,), f"must be text, got {type(b[k]).__name__}")
            elif k in b:
                try:
                    parse(b[k])
                except PlaceholderError as e:
                    bad.add(w + (k,), str(e))
        expect = b.get("expect", [])
        if isinstance(expect, str):
            expect = [expect]
        if not isinstance(expect, list):
            bad.add(w + ("expect",), f"must be a list of claims like 'data.layers[29].rank "
                                     f"== 1', got {type(expect).__name__}")
            expect = []
        for j, claim in enumerate(expect):
            try:
                parse_claim(claim)
            except ClaimError as e:
                bad.add(w + ("expect", j), str(e))
        narration = b.get("narration", "") if isinstance(b.get("narration", ""), str) else ""
        dur = b.get("duration")
        if dur is not None and not (isinstance(dur, (int, float)) and not isinstance(dur, bool)
                                    and 0 < dur <= 600):
            bad.add(w + ("duration",), f"must be seconds between 0 and 600, got {dur!r}")
            dur = None
        given = dur
        if dur is None:
            dur = narration_seconds(narration, wpm)
        audio = b.get("audio")
        if audio is not None:
            if not isinstance(audio, str) or not audio.strip():
                bad.add(w + ("audio",), f"must be a path to an audio file, got {audio!r}")
                audio = None
            else:
                audio = str((path.parent / audio).resolve())
                try:
                    dur = max(dur, round(audio_seconds(Path(audio)) + AUDIO_PAD, 3))
                except AudioError as e:
                    bad.add(w + ("audio",), str(e))
        at = ()
        if "at" in b:
            pairs, problems = check_at(b["at"], list(show), narration)
            for key, message in problems:
                bad.add(w + ("at",) + key, message)
            at = tuple(pairs)
        moments = _moments(b, w, t, list(show), narration, bad)
        for k, limit, allowed in (("layer", n_layers, layers), ("head", n_heads, heads)):
            v = b.get(k)
            if v is None:
                continue
            if not _is_int(v) or not 0 <= v < limit:
                bad.add(w + (k,), f"{k} {v!r} is out of range 0..{limit - 1} for this model")
            elif allowed and v not in allowed:
                bad.add(w + (k,), f"{k} {v} is not among the storyboard's {k}s {list(allowed)}")
        beats.append(Beat(id=str(bid), show=tuple(show), caption=str(b.get("caption", "")),
                          narration=narration, duration=float(dur),
                          layer=b.get("layer") if _is_int(b.get("layer")) else None,
                          head=b.get("head") if _is_int(b.get("head")) else None,
                          audio=audio, at=at, moments=moments,
                          expect=tuple(c for c in expect if isinstance(c, str)),
                          given_duration=float(given) if given is not None else None))
    if t is not None and not bad.items:
        for i, show, message in t.arrangement([b.show for b in beats]):
            bad.add(("beats", i, "show", list(beats[i].show).index(show)),
                    f"{show!r} {message}")
    if bad.items:
        raise StoryboardError(bad.items)
    return Storyboard(path=path, name=path.stem, template=template, title=title.strip(),
                      model=model, sentences=tuple(sentences), focus=tuple(focus_list),
                      layers=layers, heads=heads, footer=footer, beats=tuple(beats),
                      sha256=hashlib.sha256(text.encode()).hexdigest(), words_per_minute=wpm,
                      source=src, captions=captions)


def _moments(b: dict, w: tuple, t, show: list[str], narration: str, bad) -> tuple:
    """A beat's `moments` (storyboard/reveals.py): each one its handlers wait for is named,
    and each named is one they wait for and is said."""
    needed = t.moments_of(show) if t else ()
    given = b.get("moments")
    moments = ()
    if given is not None:
        pairs, problems = check_moments(given, needed, narration)
        for key, message in problems:
            bad.add(w + ("moments",) + key, message)
        moments = tuple(pairs)
    named = set(given) if isinstance(given, dict) else set()
    missing = [m for m in needed if m not in named]
    if missing and not (given is not None and not isinstance(given, dict)):
        wanted = dict(t.moments)
        which = sorted({s for s in show for m in missing if m in wanted.get(s, ())})
        bad.add(w + (("moments",) if given is not None else ()),
                f"missing moment{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
                f"template {t.name!r} waits for {'them' if len(missing) > 1 else 'it'} in "
                f"{', '.join(which)}; say where in the narration, e.g. `moments: "
                f"{{{missing[0]}: <sentence number or words said>}}`")
    return moments


def _takes(model: str, kinds: frozenset) -> bool:
    """Whether a template of `kinds` takes `model` (True when either is unknown, so that the
    model's own error is reported where it is used)."""
    if not kinds:
        return True
    try:
        return resolve(model).kind in kinds
    except LayerwiseError:
        return True


def narration_seconds(narration: str, words_per_minute: float) -> float:
    """How long a beat without a set duration lasts: its narration at the speaking rate."""
    return max(MIN_BEAT_SECONDS, round(len(narration.split()) * 60.0 / words_per_minute, 1))


def load_storyboard(path: Path, model_override: str | None = None) -> Storyboard:
    path = Path(path)
    try:
        text = read_text(path)          # bounded: never reads a whole endless stream
    except (OSError, UnicodeDecodeError) as e:
        raise StoryboardError([describe(e, path)]) from None
    return validate_text(text, path, model_override)


def validate_files(paths: list[Path], model_override: str | None = None) -> list[Storyboard]:
    """Validate every file; raise one StoryboardError with all problems from all files."""
    problems, boards = [], []
    for p in paths:
        try:
            boards.append(load_storyboard(p, model_override))
        except StoryboardError as e:
            problems += e.problems
    if problems:
        raise StoryboardError(problems)
    return boards


__all__ = ["Beat", "Storyboard", "TEMPLATES", "load_storyboard", "validate_files",
           "validate_text", "LayerwiseError"]
