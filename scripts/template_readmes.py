"""Write each template's README.md from what the code and the shipped storyboard say, so it
cannot describe beats that are gone: the scene module's docstring, per show name its
handler's docstring and the moments it waits for (the registry), and the shipped storyboard's
beats (id, what they show, layer, caption).

Usage: scripts/template_readmes.py            (re)write layerwise_templates/*/README.md
       scripts/template_readmes.py --check    exit 1 naming each README that is not current
Run from the repository root. Reads the scene modules as text (ast): no Manim is imported.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import yaml

sys.path.insert(0, os.getcwd())

ROOT = Path.cwd()


def handler_docs(folder: Path) -> dict[str, str]:
    """{show name: the first paragraph of its `beat_<show>` docstring} over scene*.py."""
    out = {}
    for path in sorted(folder.glob("scene*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("beat_"):
                doc = ast.get_docstring(node)
                if doc and node.name[5:] not in out:
                    out[node.name[5:]] = " ".join(doc.split("\n\n")[0].split())
    return out


def cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def readme(name: str) -> str:
    from layerwise_templates import TEMPLATES, storyboard_path
    t = TEMPLATES[name]
    folder = ROOT / "layerwise_templates" / name
    scene_doc = ast.get_docstring(ast.parse((folder / "scene.py").read_text())) or ""
    docs, moments = handler_docs(folder), dict(t.moments)
    needs, builds = dict(t.needs), dict(t.builds)
    sb = yaml.safe_load(storyboard_path(name).read_text())
    sentences = sb.get("sentences") or []
    lines = [
        f"# `{name}`",
        "",
        "<!-- written by scripts/template_readmes.py from the scene's docstrings, the registry "
        "(spec.py) and the shipped storyboard: edit those, then run it -->",
        "",
        f"Models: {', '.join(sorted(t.kinds))}; sentences: {t.min_sentences}"
        + (f" to {t.max_sentences}" if t.max_sentences else " or more")
        + f". Scene: `{t.scene}`. Shipped storyboard: [`{name}.yaml`]({name}.yaml).",
        "",
        "## The scene",
        "",
        scene_doc,
        "",
        "## Show names",
        "",
        "| show | what its handler draws | moments it waits for | needs / builds |",
        "| --- | --- | --- | --- |",
    ]
    for show in sorted(t.shows):
        state = " / ".join(", ".join(x) or "–" for x in (needs.get(show, ()),
                                                           builds.get(show, ())))
        lines.append(f"| `{show}` | {cell(docs.get(show, 'see the scene above'))} | "
                     f"{', '.join(moments.get(show, ())) or '–'} | {state} |")
    lines += [
        "",
        f"## The shipped storyboard: {sb.get('title', name)}",
        "",
        f"Model `{sb.get('model')}`; {len(sentences)} sentence{'s' * (len(sentences) != 1)}: "
        + "; ".join(f"\"{s}\"" for s in sentences[:3]) + (" …" if len(sentences) > 3 else "")
        + ".",
        "",
        "| beat | shows | layer | caption |",
        "| --- | --- | --- | --- |",
    ]
    for b in sb.get("beats", []):
        layer = b.get("layer")
        lines.append(f"| `{b['id']}` | {', '.join(f'`{s}`' for s in b['show'])} | "
                     f"{'–' if layer is None else layer} | {cell(b.get('caption', ''))} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    from layerwise_templates import TEMPLATES
    stale = []
    for name in sorted(TEMPLATES):
        path = ROOT / "layerwise_templates" / name / "README.md"
        text = readme(name)
        if "--check" in sys.argv[1:]:
            if not path.is_file() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.write_text(text)
    for s in stale:
        print(f"{s}: not current; run scripts/template_readmes.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
