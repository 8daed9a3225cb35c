"""Typed views of a plan: read a plan's numbers with their plan path attached.

A template declares the shape of its plan's `data` as `View` classes (annotated fields):

    class Layer(View):
        x_norm: float
        q: list[float]

    class Data(View):
        layers: list[Layer]
        top: Top | None

`Data.at(plan)` (or `Data.at(plan["data"], "data")`) gives a view whose attributes are views
again, and whose leaves are `Value`s: a number, string or bool that carries its own plan path
(`view.layers[3].x_norm.path == "data.layers[3].x_norm"`). A scene writes the value and the
path follows (`Num(view.layers[3].x_norm)`), so no plan path is typed as a string in a scene,
and a field missing from the plan is an error naming its path when the scene reads it.

`Data.check(data, "data")` checks a plan builder's output against the same declaration at plan
time (every declared field present with its type, lists element by element) and returns the
problems as `path: message` lines; `layerwise plan` refuses a plan that has any. Fields not
declared are allowed (a view need not declare everything a plan holds).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from types import NoneType, UnionType


@dataclass(frozen=True)
class Value:
    """A plan leaf (number, text, bool or None) and where it is in the plan."""
    value: object
    path: str

    def __float__(self) -> float:
        return float(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)


def step(path: str, key) -> str:
    """The plan path one step below `path`: an index (`data.q` -> `data.q[2]`) or a field
    (`data` -> `data.layers`); the one path grammar for every piece that numbers a plan list."""
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


_step = step


def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def wrap(node, kind, path: str):
    """`node` (plan JSON) seen as `kind` (a View class, list[...], dict[str, ...], a scalar
    type, a union with None)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, UnionType):
        if node is None:
            return Value(None, path)
        kind = next(a for a in args if a is not NoneType)
        return wrap(node, kind, path)
    if isinstance(kind, type) and issubclass(kind, View):
        return kind(node, path)
    if origin is list:
        return ListView(node, args[0] if args else object, path)
    if origin is dict:
        return MapView(node, args[1] if len(args) > 1 else object, path)
    return Value(node, path)


class View:
    """A plan mapping seen through its declared fields (see the module docstring)."""

    def __init_subclass__(cls, **kw):
        # a declared field with a class default (`x: T | None = None`) would be found as a
        # class attribute, never read from the plan (context_qkv's one_head, round 31: the
        # plan's value silently read as None)
        super().__init_subclass__(**kw)
        own = cls.__dict__.get("__annotations__", {})
        shadow = [n for n in own if n in cls.__dict__]
        if shadow:
            raise TypeError(f"{cls.__name__}: declared fields with a class default "
                            f"{shadow} would shadow the plan: drop the default "
                            "(a field typed `T | None` may be missing from the plan)")

    def __init__(self, node: dict, path: str = "data"):
        self._node, self.path = node, path

    @classmethod
    def at(cls, plan_or_node: dict, path: str | None = None):
        """The view of a whole plan's `data` (or of `node` at `path`)."""
        if path is None:
            return cls(plan_or_node["data"], "data")
        return cls(plan_or_node, path)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str):
        """A field by name: `v["check"]` for a field a View's own attribute shadows (`check`,
        `at`, `raw`, `path`), `v.x` for every other."""
        hints = _hints(type(self))
        if name not in hints:
            raise AttributeError(f"{type(self).__name__} declares no field {name!r} "
                                 f"(at {self.path})")
        if name not in self._node:
            raise KeyError(f"{_step(self.path, name)}: not in the plan")
        return wrap(self._node[name], hints[name], _step(self.path, name))

    @property
    def raw(self) -> dict:
        return self._node

    @classmethod
    def check(cls, node, path: str = "data") -> list[str]:
        """Problems of `node` against this declaration, as `path: message` lines."""
        return check(node, cls, path)


class ListView:
    """A plan list whose items are seen as `kind`."""

    def __init__(self, node: list, kind, path: str):
        self._node, self._kind, self.path = node, kind, path

    def __len__(self) -> int:
        return len(self._node)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(len(self._node))[i]]
        j = i + len(self._node) if isinstance(i, int) and i < 0 else i
        return wrap(self._node[j], self._kind, _step(self.path, j))

    def __iter__(self):
        return (self[i] for i in range(len(self._node)))

    @property
    def raw(self) -> list:
        return self._node

    @property
    def values(self) -> list:
        """The plain values (for geometry: a chart's points), no paths."""
        return list(self._node)


class MapView:
    """A plan mapping with free keys (`dict[str, kind]`)."""

    def __init__(self, node: dict, kind, path: str):
        self._node, self._kind, self.path = node, kind, path

    def __getitem__(self, key: str):
        return wrap(self._node[key], self._kind, _step(self.path, key))

    def __iter__(self):
        return iter(self._node)

    def __len__(self) -> int:
        return len(self._node)

    def items(self):
        return ((k, self[k]) for k in self._node)

    @property
    def raw(self) -> dict:
        return self._node


_SCALARS = {float: (int, float), int: (int,), str: (str,), bool: (bool,), object: (object,)}


def check(node, kind, path: str) -> list[str]:
    """`node` against the declaration `kind`: every problem as a `path: message` line."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, UnionType):
        if node is None and NoneType in args:
            return []
        return check(node, next(a for a in args if a is not NoneType), path)
    if isinstance(kind, type) and issubclass(kind, View):
        if not isinstance(node, dict):
            return [f"{path}: expected a mapping ({kind.__name__}), got {type(node).__name__}"]
        out = []
        for name, hint in _hints(kind).items():
            if name not in node:
                optional = typing.get_origin(hint) in (typing.Union, UnionType) and \
                    NoneType in typing.get_args(hint)
                if not optional:
                    out.append(f"{_step(path, name)}: missing ({kind.__name__}.{name})")
                continue
            out += check(node[name], hint, _step(path, name))
        return out
    if origin is list:
        if not isinstance(node, list):
            return [f"{path}: expected a list, got {type(node).__name__}"]
        return [p for i, item in enumerate(node)
                for p in check(item, args[0] if args else object, _step(path, i))]
    if origin is dict:
        if not isinstance(node, dict):
            return [f"{path}: expected a mapping, got {type(node).__name__}"]
        return [p for k, item in node.items()
                for p in check(item, args[1] if len(args) > 1 else object, _step(path, k))]
    allowed = _SCALARS.get(kind, (kind,))
    if isinstance(node, bool) and bool not in allowed and object not in allowed:
        return [f"{path}: expected {kind.__name__}, got bool"]
    if not isinstance(node, allowed):
        return [f"{path}: expected {getattr(kind, '__name__', kind)}, got "
                f"{type(node).__name__}"]
    return []


__all__ = ["ListView", "MapView", "Value", "View", "check", "step", "wrap"]
