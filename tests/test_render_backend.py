"""The render backend is one package: every reach into Manim beyond its public API is in
`layerwise_render/manim_patches.py`, checked against the pinned versions; nothing below the
pipeline imports it back."""

from __future__ import annotations

import re

import pytest

import framecheck as fc

# Assignments into Manim's modules, classes or renderer, or its global config: a patch.
PATCH = re.compile(r"^\s*(?:SceneFileWriter|Camera|MovingCamera|Scene|cam|manim(?:\.\w+)+)"
                   r"\.\w+\s*=(?!=)"
                   r"|renderer\.(?:_\w+|get_frame|skip_animations)\s*=(?!=)"
                   r"|^\s*config\[[^\]]+\]\s*=(?!=)", re.M)
CODE = ["layerwise_core", "layerwise_templates", "layerwise_pipeline", "scenes", "scripts"]


def patches_in(text: str) -> list[str]:
    return [m.group(0).strip() for m in PATCH.finditer(text)]


def test_the_pattern_finds_patches():
    assert patches_in("SceneFileWriter._create_segment_encoder = f\n") != []
    assert patches_in("    self.renderer._original_skipping_status = on\n") != []
    assert patches_in('    config["max_files_cached"] = -1\n') != []
    assert patches_in("    cam.Image = X\n") != []
    assert patches_in("x = config['a']\nif renderer.get_frame == f: pass\n") == []


def test_no_manim_patch_outside_the_backend():
    found = {str(p.relative_to(fc.ROOT)): patches_in(p.read_text())
             for d in CODE for p in (fc.ROOT / d).rglob("*.py")}
    assert {k: v for k, v in found.items() if v} == {}
    backend = (fc.ROOT / "layerwise_render" / "manim_patches.py").read_text()
    assert len(patches_in(backend)) >= 4


def test_the_backend_imports_nothing_above_it():
    for p in (fc.ROOT / "layerwise_render").rglob("*.py"):
        text = p.read_text()
        assert not re.search(r"^\s*(from|import) (scenes|layerwise_pipeline|layerwise_templates)",
                             text, re.M), p


def test_another_manim_version_is_refused(monkeypatch):
    from layerwise_render import manim_patches as mp
    monkeypatch.setattr(mp, "_checked", set())
    monkeypatch.setitem(mp.PINNED, "manim", "0.0.1")
    with pytest.raises(mp.PatchedVersionError, match=r"manim 0\.22\.0 is installed; .* 0\.0\.1"):
        mp.check_versions("manim")
