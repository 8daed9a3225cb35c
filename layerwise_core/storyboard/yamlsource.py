"""Safe, bounded YAML that also remembers the line of every key, for error messages.

Storyboards and the chapter file are small hand-written YAML, so anything far beyond that is
refused before it can cost memory or time:
- at most `MAX_BYTES` are ever read from a file (`/dev/zero` or a 10 GB file stops there);
- nesting deeper than `MAX_DEPTH` is refused while composing (never a RecursionError);
- the document, with every alias expanded, may hold at most `MAX_NODES` values, a long text
  counting as many ("billion laughs" is refused after a little work, not after gigabytes);
- an alias to a node that contains it (a recursive structure) is refused;
- a mapping key given twice is refused, naming both lines.
Only the safe loader's tags are known (no Python objects). Every refusal is a `YamlSourceError`
(a `yaml.MarkedYAMLError`) carrying the 1-based line and the key path; `describe(e, path)`
turns it, or any other YAMLError, into `file:line: field: message`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000         # values, aliases expanded; a text counts 1 per CHARS_PER_NODE
CHARS_PER_NODE = 50         # so the expanded document holds at most ~10 M characters
_MERGE = "tag:yaml.org,2002:merge"


class YamlSourceError(yaml.MarkedYAMLError):
    """A refused YAML document: `line` (1-based), `field` (key path text), `message`."""

    def __init__(self, line: int, field: str, message: str, mark=None):
        super().__init__(problem=message, problem_mark=mark)
        self.line, self.field, self.message = line, field, message

    def __str__(self) -> str:
        return f"line {self.line}: {self.field}: {self.message}"


class FileTooLargeError(OSError):
    """The file holds more than the limit (or never ends)."""


def field_name(where: tuple) -> str:
    """("beats", 0, "layer") -> "beats[0].layer"; () -> "(top)"."""
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                   for i, p in enumerate(where)) or "(top)"


class _Anchors(dict):
    """The composer's anchor table; marks a collection open the moment its anchor is
    registered (PyYAML registers it before composing the children)."""

    def __init__(self, loader):
        super().__init__()
        self.loader = loader

    def __setitem__(self, key, node):
        super().__setitem__(key, node)
        if isinstance(node, (SequenceNode, MappingNode)):
            self.loader._open.add(id(node))


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader whose composer bounds depth and alias expansion and refuses recursion."""

    def __init__(self, stream):
        super().__init__(stream)
        self.anchors = _Anchors(self)
        self._depth = 0
        self._total = 0                         # nodes so far, aliases expanded
        self._sizes: dict[int, int] = {}        # id(node) -> its expanded node count
        self._open: set[int] = set()            # collections being composed

    def compose_document(self):
        node = super().compose_document()
        self.anchors = _Anchors(self)           # PyYAML resets it to a plain dict
        return node

    def _refuse(self, mark, message: str):
        raise YamlSourceError(mark.line + 1 if mark is not None else 1, "(yaml)", message, mark)

    def _count(self, n: int, mark) -> None:
        self._total += n
        if self._total > MAX_NODES:
            self._refuse(mark, f"more than {MAX_NODES} values once aliases are expanded "
                               f"(an alias bomb?)")

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = self.anchors.get(event.anchor)
            if target is not None and id(target) in self._open:
                self._refuse(event.start_mark, f"alias *{event.anchor} refers to a node that "
                                               f"contains it (recursive structure)")
            node = super().compose_node(parent, index)      # undefined alias: ComposerError
            self._count(self._sizes.get(id(node), 1), event.start_mark)
            return node
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                self._refuse(self.peek_event().start_mark,
                             f"nested deeper than {MAX_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_scalar_node(self, anchor):
        node = super().compose_scalar_node(anchor)
        weight = 1 + len(node.value) // CHARS_PER_NODE     # a long text aliased 10^5 times
        self._count(weight, node.start_mark)                # is a bomb too
        self._sizes[id(node)] = weight
        return node

    def _collection(self, compose, anchor):
        start = self._total
        self._count(1, self.peek_event().start_mark)
        node = compose(anchor)
        self._open.discard(id(node))
        self._sizes[id(node)] = self._total - start
        return node

    def compose_sequence_node(self, anchor):
        return self._collection(super().compose_sequence_node, anchor)

    def compose_mapping_node(self, anchor):
        return self._collection(super().compose_mapping_node, anchor)


class Located:
    """Parsed YAML plus `line(path)`: the 1-based line of a key path like ("beats", 2, "show")."""

    def __init__(self, data, lines: dict[tuple, int]):
        self.data = data
        self.lines = lines

    def line(self, path: tuple) -> int:
        path = tuple(path)
        while path and path not in self.lines:
            path = path[:-1]
        return self.lines.get(path, 1)


def _key_text(k) -> str:
    return k.value if isinstance(k, ScalarNode) else str(k.value)


def _walk(node, path: tuple, lines: dict, budget: list) -> None:
    budget[0] -= 1
    if budget[0] < 0:           # cannot happen after the composer's bound; belt and braces
        raise YamlSourceError(node.start_mark.line + 1, field_name(path), "document too large")
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, MappingNode):
        first: dict[tuple, int] = {}
        for k, v in node.value:
            if k.tag == _MERGE:
                continue
            key = _key_text(k)
            ident = (k.tag, key) if isinstance(k, ScalarNode) else None
            here = k.start_mark.line + 1
            if ident is not None and ident in first:
                raise YamlSourceError(here, field_name(path + (key,)),
                                      f"duplicate key (first at line {first[ident]})",
                                      k.start_mark)
            if ident is not None:
                first[ident] = here
            lines[path + (key,)] = here
            _walk(v, path + (key,), lines, budget)
    elif isinstance(node, SequenceNode):
        for i, v in enumerate(node.value):
            _walk(v, path + (i,), lines, budget)


def load_located(text: str) -> Located:
    """Parse with the bounded safe loader; raises yaml.YAMLError (YamlSourceError for limits,
    recursion and duplicate keys) on bad input."""
    if len(text) > MAX_BYTES:
        raise YamlSourceError(1, "(file)", f"larger than {MAX_BYTES // 1000} kB; a storyboard "
                                           f"is a few kB of text")
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        lines: dict[tuple, int] = {}
        if node is None:
            return Located(None, lines)
        _walk(node, (), lines, [MAX_NODES])
        data = loader.construct_document(node)
    except RecursionError:      # not reachable with MAX_DEPTH; never let one escape
        raise YamlSourceError(1, "(yaml)", "nested too deeply") from None
    finally:
        loader.dispose()
    return Located(data, lines)


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The file's text, reading at most `limit` + 1 bytes (never a whole endless stream).

    Raises OSError (FileTooLargeError over the limit, IsADirectoryError for a folder) or
    UnicodeDecodeError."""
    path = Path(path)
    with open(path, "rb") as f:
        if stat.S_ISDIR(os.fstat(f.fileno()).st_mode):
            raise IsADirectoryError(21, "is a folder, not a file", str(path))
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(f"larger than {limit // 1000} kB (read stopped there); a "
                                f"storyboard is a few kB of text")
    return data.decode("utf-8")


def read_located(path: Path) -> Located:
    return load_located(read_text(path))


def describe(e: Exception, path: Path | str) -> str:
    """Any error from `read_text`/`load_located` as one line `file:line: field: message`."""
    if isinstance(e, YamlSourceError):
        return f"{path}:{e.line}: {e.field}: {e.message}"
    if isinstance(e, yaml.YAMLError):
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        msg = " ".join(str(getattr(e, "problem", None) or e).split())
        return f"{path}:{line}: (yaml): {msg}"
    if isinstance(e, UnicodeDecodeError):
        return f"{path}:1: (file): not UTF-8 text (byte {e.start})"
    if isinstance(e, FileTooLargeError):
        return f"{path}:1: (file): {e}"
    if isinstance(e, OSError):
        return f"{path}:1: (file): cannot read: {e.strerror or e}"
    return f"{path}:1: (file): {' '.join(str(e).split())}"
