"""Scenes read plans only: importing every scene module (and rendering tools) loads no torch."""

import subprocess
import sys

import framecheck as fc

MODULES = ["layerwise_pipeline.render", "layerwise_pipeline.chapter", "layerwise_pipeline.estimate", "layerwise_pipeline.review",
           "layerwise_pipeline.provenance", "scenes.base", "scenes.mobjects"] + [
    ".".join(p.relative_to(fc.ROOT).with_suffix("").parts)
    for p in sorted((fc.ROOT / "scenes").rglob("*.py"))
    + sorted((fc.ROOT / "layerwise_templates").glob("*/scene*.py"))
    + sorted((fc.ROOT / "layerwise_templates").glob("*/spec.py"))
    + sorted((fc.ROOT / "layerwise_render").glob("*.py"))
    if p.stem not in ("__init__", "base")]


def test_no_scene_module_imports_torch():
    code = ("import importlib, sys\n"
            f"for m in {MODULES!r}: importlib.import_module(m)\n"
            "bad = [m for m in ('torch', 'transformers') if m in sys.modules]\n"
            "print(','.join(bad))")
    r = subprocess.run([sys.executable, "-c", code], cwd=fc.ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "", f"imported {r.stdout.strip()}"
    assert len(MODULES) >= 30


def test_no_scene_source_mentions_torch():
    for p in [*(fc.ROOT / "scenes").rglob("*.py"),
              *(fc.ROOT / "layerwise_templates").glob("*/scene*.py")]:
        text = p.read_text()
        assert "import torch" not in text and "from torch" not in text, p
