"""The docs hold together: every relative link and image of README.md and docs/*.md points at a
file of the repository, the README stays a front page (at most 12 KB), and each template's
README names its show names and its shipped storyboard's beats."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

import framecheck as fc
from layerwise_templates import TEMPLATES, storyboard_path

PAGES = [fc.ROOT / "README.md", *sorted((fc.ROOT / "docs").glob("*.md")),
         *sorted((fc.ROOT / "layerwise_templates").glob("*/README.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def links(text: str) -> list[str]:
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def test_the_pattern_finds_links_and_images():
    assert links("see [a](docs/a.md#x) and ![s](b/c.png), not [w](https://x.org)") == \
        ["docs/a.md", "b/c.png"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(fc.ROOT)))
def test_every_relative_link_exists(page):
    missing = [t for t in links(page.read_text()) if not (page.parent / t).exists()]
    assert missing == []


def test_the_readme_is_a_front_page():
    assert len((fc.ROOT / "README.md").read_bytes()) <= 12 * 1024


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_each_template_readme_names_every_show_name_and_shipped_beat(name):
    """A template's README (scripts/template_readmes.py writes it from the scene's docstrings,
    the registry and the shipped storyboard) speaks of the beats the template has now."""
    text = (fc.ROOT / "layerwise_templates" / name / "README.md").read_text()
    missing = [s for s in sorted(TEMPLATES[name].shows) if f"`{s}`" not in text]
    beats = yaml.safe_load(storyboard_path(name).read_text())["beats"]
    missing += [b["id"] for b in beats if f"`{b['id']}`" not in text]
    assert missing == []


def test_template_readmes_are_current():
    """Each template's README is what scripts/template_readmes.py writes from today's scene
    docstrings, registry and storyboard (its `--check`): a scene or storyboard changed without
    rerunning the script once left six READMEs describing round 31's beats."""
    done = subprocess.run([sys.executable, "scripts/template_readmes.py", "--check"],
                          cwd=fc.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
