"""`yaml.safe_load` that also remembers the line of every key, for error messages."""

from __future__ import annotations

from pathlib import Path

import yaml


class Located:
    """Parsed YAML plus `line(path)`: the 1-based line of a key path like ("beats", 2, "show")."""

    def __init__(self, data, lines: dict[tuple, int]):
        self.data = data
        self.lines = lines

    def line(self, path: tuple) -> int:
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, 1)


def _walk(node, path: tuple, lines: dict) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value if isinstance(k, yaml.ScalarNode) else str(k.value)
            lines[path + (key,)] = k.start_mark.line + 1
            _walk(v, path + (key,), lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _walk(v, path + (i,), lines)


def load_located(text: str) -> Located:
    """Parse with the safe loader only; raises yaml.YAMLError on bad syntax."""
    data = yaml.safe_load(text)
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    lines: dict[tuple, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return Located(data, lines)


def read_located(path: Path) -> Located:
    return load_located(Path(path).read_text(encoding="utf-8"))
