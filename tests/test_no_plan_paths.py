"""No plan path typed as a string in a scene (house rule; issue 26): scenes read the plan
through typed views (layerwise_core/planview.py), whose values bring their own path
(`Num(v.layers[3].x_norm)`). This scans every module under `scenes/` and every
`layerwise_templates/*/scene*.py` for string literals and f-strings that look like plan paths
(`"data.layers[3]"`, `f"{src}.top[{i}].prob"`, `"beats[0]"`) and names each as file:line.
Docstrings are prose and are not scanned."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOLE = "\x00"           # an f-string's {…} part, in the text the patterns see

PATTERNS = [
    re.compile(r"^(data|model|plan|storyboard)(\.[A-Za-z_]|\[)"),   # "data.x", "model.d_model"
    re.compile(r"(^|[^\w])beats\["),                                  # "beats[0]"
    re.compile(r"\.(layers|top|tokens|stages|steps|rows|cells|heads|ticks)\["),  # ".layers[3]"
    re.compile(HOLE + r"(\.(?!(png|json|mp4|wav|yaml|srt|svg)$)[A-Za-z_]\w*|\[\d*" + HOLE +
               r"?\])"),                                   # f"{src}.rank", f"{p}[{i}]", not f"{n}.png"
]


def scanned() -> list[Path]:
    return sorted(ROOT.glob("scenes/**/*.py")) + sorted(ROOT.glob("layerwise_templates/*/scene*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            out.add(id(body[0].value))
    return out


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else HOLE for v in node.values)
    return None


def plan_path_strings(source: str, name: str) -> list[str]:
    """`name:line: text` for every string literal or f-string in `source` that looks like a
    plan path (docstrings excepted)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if id(node) in skip or id(node) in inner:
            continue
        text = _text(node)
        if text is not None and any(p.search(text) for p in PATTERNS):
            out.append(f"{name}:{node.lineno}: {text.replace(HOLE, '{…}')!r}")
    return sorted(out, key=lambda s: (s.split(":")[0], int(s.split(":")[1])))


def test_no_scene_module_types_a_plan_path():
    found = [hit for path in scanned()
             for hit in plan_path_strings(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "plan paths typed as strings (read them from the plan's view):\n" + \
        "\n".join(found)


def test_the_scan_finds_a_planted_path():
    planted = '''"""A docstring may say data.layers[3].x_norm."""
def beat(self, l, src):
    a = Num(1.0, "data.layers[3].x_norm")
    b = Num(2.0, f"data.layers[{l}].rank")
    c = Num(3.0, f"{src}.top[{l}].prob")
    d = Num(4.0, f"{src}.rank")
    e = self.plan["beats"][0]
    f = txt("the layers of the model")          # prose, not a path
    g = "beats[2]"
    h = Num(5.0, f"{src}[{l}]")
    i = f"{name}.png"                               # a file, not a path
'''
    assert plan_path_strings(planted, "planted.py") == [
        "planted.py:3: 'data.layers[3].x_norm'",
        "planted.py:4: 'data.layers[{…}].rank'",
        "planted.py:5: '{…}.top[{…}].prob'",
        "planted.py:6: '{…}.rank'",
        "planted.py:9: 'beats[2]'",
        "planted.py:10: '{…}[{…}]'",
    ]
    assert scanned(), "no scene modules found"
