"""One command line: `layerwise` has every command, `layerwise render` plans and renders in one
step, `layerwise watch` sees a save by rename and re-renders only the changed beat, and the
make targets call it (no `python -m layerwise_pipeline.<module>` left in the Makefile)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import framecheck as fc
from layerwise_pipeline.watch import signature

DATA = Path(__file__).parent / "data"
COMMANDS = {"trace", "info", "models", "validate", "lint", "plan", "estimate", "draft", "render",
            "preview", "slides", "page", "chapter", "watch", "certs"}


def layerwise(*args, cwd, cache_dir):
    env = {**os.environ, "LAYERWISE_CACHE": str(cache_dir)}
    return subprocess.run([sys.executable, "-m", "layerwise_pipeline", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, env=env)


def test_every_command_is_one_command_line(cache_dir, tmp_path):
    r = layerwise("--help", cwd=tmp_path, cache_dir=cache_dir)
    assert r.returncode == 0
    listed = set(re.search(r"\{([a-z,]+)\}", r.stdout).group(1).split(","))
    assert listed == COMMANDS


def test_the_makefile_calls_the_command_line():
    make = (fc.ROOT / "Makefile").read_text()
    assert not re.search(r"-m layerwise_pipeline\.\w+", make)
    assert not re.search(r"-m layerwise_core\b", make)
    for target in ("render", "preview", "slides", "page", "chapter", "watch", "certs",
                   "estimate"):
        assert re.search(rf"^{target}:.*\n(\t.*\n)*\t\$\(LW\) {target}\b", make, re.M), target


def test_no_module_is_an_entry_point_of_its_own():
    """`layerwise …` (`python -m layerwise_pipeline …`) is the only way in: no pipeline module
    has a `main` or a `__main__` block (but `main.py`, the command line, and `layoutcheck.py`,
    a developer's frame checker), and nothing calls `python -m layerwise_pipeline.<module>`."""
    for f in sorted((fc.ROOT / "layerwise_pipeline").glob("*.py")):
        if f.name in ("__main__.py", "layoutcheck.py"):
            continue
        text = f.read_text()
        assert "__main__" not in text, f.name
        assert f.name == "main.py" or not re.search(r"^def main\(", text, re.M), f.name
    callers = [p for d in ("tests", "scripts", "docs", "layerwise_core", "layerwise_pipeline")
               for p in (fc.ROOT / d).rglob("*") if p.suffix in (".py", ".md", ".yml", ".yaml")]
    callers += [fc.ROOT / "Makefile", fc.ROOT / "README.md"]
    module = re.compile(r"layerwise_pipeline\.(render|chapter|slides|estimate|tls_certs)"
                        r"(\b(?!\.)| import main)")
    found = [f"{p.relative_to(fc.ROOT)}:{i}" for p in callers if p.is_file()
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if module.search(line) and ("-m" in line or "import main" in line or "`" in line)]
    assert not found, found


def test_a_save_by_rename_changes_the_signature(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("x: 1\n")
    before = signature(f)
    tmp = tmp_path / ".a.yaml.swp"
    tmp.write_text("x: 1\n")                  # same size, a new inode
    os.replace(tmp, f)
    assert signature(f) != before and signature(tmp_path / "gone.yaml") is None


@pytest.mark.render
def test_render_plans_and_renders_in_one_step_then_watch_renders_only_a_changed_beat(
        cache_dir, tmp_path):
    board = tmp_path / "my.yaml"
    board.write_text((DATA / "toy_a.yaml").read_text())
    media = tmp_path / "course" / "media"
    r = layerwise("render", "--voice", "none", "--jobs", "2", "--media", media, board,
                  cwd=tmp_path, cache_dir=cache_dir)
    assert r.returncode == 0, r.stderr
    assert (media / "plans" / "my.json").is_file()
    assert Path(r.stdout.strip().splitlines()[-1]).resolve() == \
        (media / "videos" / "480p15" / "my.mp4").resolve()
    text = board.read_text()
    first_caption = re.search(r"caption: .*", text).group(0)
    tmp = tmp_path / ".my.yaml.swp"
    tmp.write_text(text.replace(first_caption, 'caption: "An edited caption"', 1))
    os.replace(tmp, board)
    r = layerwise("watch", "--once", "--jobs", "2", "--media", media, board, cwd=tmp_path,
                  cache_dir=cache_dir)
    assert r.returncode == 0, r.stderr
    assert re.search(r": 1 beat\(s\) rendered \(\w+\)", r.stdout), r.stdout
    assert len(list((media / "frames" / "my").glob("00_*.png"))) == 1


def test_a_missing_storyboard_is_one_line_exit_2(cache_dir, tmp_path):
    r = layerwise("render", "--voice", "none", "--media", tmp_path / "m", tmp_path / "no.yaml",
                  cwd=tmp_path, cache_dir=cache_dir)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("error: ") and "no.yaml" in r.stderr
    assert not (tmp_path / "m" / "videos").exists()
