"""A plan as the page's data: the layer axis, the beats, and panels found in `plan["data"]`.

Discovery is generic, so a drafted storyboard gets a page with no code of its own:
- the axis is the plan's states (`data.states`, each with a label) or else its `layers`;
- a list as long as the axis holds one value per layer: numbers give a *series*, vectors give
  a *vector* panel (first numbers), a few such lists side by side (`raw[pair][layer]`) give one
  series each, and a list of per-layer records (`data.layers[i]`, dicts) is read key by key;
- inside a per-layer record, `[head][query][key]` weights over the sentence's tokens give an
  *attention* panel (the focus token's row per head, arcs of thickness = weight), a list as long
  as the sentence gives a token row, and a list of `{display|text|token, prob|weight}` gives the
  lens's *ranked* tokens.
Every number carries its plan path and its text as the video writes it (`rounding.shown`).
Template specs (`specs.SPECS`) only rename panels and say which panels a beat shows.
"""

from __future__ import annotations

import re
from numbers import Real

from .rounding import shown
from .specs import SPECS

L = "{l}"                  # the layer index in a panel's path template
FIRST = 4                  # a long vector shows its first numbers (scenes show 3-4)
WHOLE = 12                 # a vector this short (one number per head) is shown whole
RANKED = 8                 # the lens's top tokens per layer
SKIP = re.compile(r"(layer|index|pos|state|decimals|\w+_decimals|stage_\w+|step_\w+|xy|x_range|"
                  r"y_range|axes|\w*ticks|zoom|height|mid_height|mid_x|identity\w*|redo_\w+|"
                  r"hook|label|math|positions|token_ids|spans|id|lines|seed|window|slots|"
                  r"focus|special|extra|order|heads|tokens|pairs|pair|pair_index|words)")


def is_num(x) -> bool:
    return isinstance(x, Real) and not isinstance(x, bool)


def is_vec(x) -> bool:
    return isinstance(x, list) and bool(x) and all(is_num(v) for v in x)


def axis(plan: dict) -> list[str]:
    states = plan["data"].get("states") if isinstance(plan.get("data"), dict) else None
    if isinstance(states, list) and states and all(isinstance(s, dict) and "label" in s
                                                   for s in states):
        return [f"{s['label']}, read by layer {s['layer']}"
                if str(s.get("hook", "")).endswith("resid_pre") else str(s["label"])
                for s in states]
    return [f"layer {layer}" for layer in plan["layers"]]


def tokens(plan: dict) -> list[str]:
    traces = plan.get("traces") or []
    if traces and isinstance(traces[0].get("tokens"), list):
        return [str(t) for t in traces[0]["tokens"]]
    toks = plan.get("data", {}).get("tokens")
    return [t if isinstance(t, str) else str(t.get("display", t.get("text", "")))
            for t in toks] if isinstance(toks, list) else []


def focus_index(plan: dict, toks: list[str]) -> int:
    word = (plan.get("focus") or [""])[0].lower()
    clean = [re.sub(r"^(##|␣|Ġ|▁)", "", t).strip().lower() for t in toks]
    return clean.index(word) if word in clean else len(toks) - 1


def label_of(plan: dict, tmpl: str) -> str:
    spec = SPECS.get(plan["template"], {}).get("labels", {})
    if tmpl in spec:
        return spec[tmpl]
    text = re.sub(r"^layers\[\{l\}\]\.", "", tmpl.removeprefix("data.")).replace(f"[{L}]", "")
    text = re.sub(r"\[(\d+)\]", lambda m: f" {int(m.group(1)) + 1}", text)
    return text.replace(".", " › ").replace("_", " ")


def cell(plan: dict, path: str) -> dict:
    return {"p": path, "t": shown(plan, path)}


class Finder:
    def __init__(self, plan: dict):
        self.plan, self.n = plan, len(axis(plan))
        self.toks = tokens(plan)
        self.focus = focus_index(plan, self.toks)
        self.panels: list[dict] = []

    def at(self, tmpl: str, l: int) -> str:
        return tmpl.replace(L, str(l))

    def get(self, tmpl: str, l: int):
        from .rounding import resolve
        try:
            return resolve(self.plan, self.at(tmpl, l))
        except (KeyError, IndexError, TypeError):
            return None

    def add(self, kind: str, tmpl: str, cells: list, **extra) -> None:
        if all(c is None for c in cells):
            return
        key = tmpl.split(".")[1].split("[")[0]
        self.panels.append({"kind": kind, "id": f"p{len(self.panels)}", "key": key,
                            "path": tmpl, "label": label_of(self.plan, tmpl), "cells": cells,
                            **extra})

    # --- a value per layer, by its shape at the first layer that has it ---
    def per_layer(self, tmpl: str, depth: int = 0) -> None:
        vals = [self.get(tmpl, l) for l in range(self.n)]
        v0 = next((v for v in vals if v is not None), None)
        if v0 is None:
            return
        name = re.sub(r"\[.*", "", tmpl.rsplit(".", 1)[-1])
        if vals == self.plan.get("layers"):
            return                                       # the layer numbers themselves
        if is_num(v0):
            self.add("series", tmpl, [cell(self.plan, self.at(tmpl, l)) if is_num(v) else None
                                      for l, v in enumerate(vals)])
        elif isinstance(v0, dict) and is_num(v0.get("value")):
            self.per_layer(tmpl + ".value", depth)
        elif self.is_attention(v0):
            self.attention(tmpl, vals)
        elif is_vec(v0) and len(v0) == len(self.toks) and len(v0) > WHOLE:
            pass                                         # a per-token vector of a long prompt
        elif is_vec(v0) and len(v0) == len(self.toks) and name in ("row",):
            self.attention(tmpl, [[v] if v else None for v in vals], heads=[None])
        elif is_vec(v0):
            self.add("vector", tmpl, [self.vector(self.at(tmpl, l), v) if is_vec(v) else None
                                      for l, v in enumerate(vals)])
        elif isinstance(v0, list) and v0 and all(is_vec(x) for x in v0) and len(v0) <= 4:
            for s in range(len(v0)):                     # [layer][sentence][dim]
                self.per_layer(f"{tmpl}[{s}]", depth + 1)
        elif isinstance(v0, list) and v0 and isinstance(v0[0], dict) and self.ranked_key(v0[0]):
            self.ranked(tmpl, vals)
        elif isinstance(v0, dict) and depth < 2:
            for k in v0:
                if not SKIP.fullmatch(k):
                    self.per_layer(f"{tmpl}.{k}", depth + 1)

    def vector(self, path: str, v: list) -> dict:
        k = len(v) if len(v) <= WHOLE else FIRST
        return {"items": [cell(self.plan, f"{path}[{j}]") for j in range(k)], "n": len(v)}

    def is_attention(self, v) -> bool:
        t = len(self.toks)
        return (isinstance(v, list) and len(v) > 0 and t > 0
                and all(isinstance(h, list) and len(h) == t and all(is_vec(r) and len(r) == t
                                                                     for r in h) for h in v))

    def attention(self, tmpl: str, vals: list, heads: list | None = None) -> None:
        q = self.focus
        cells = []
        for l, v in enumerate(vals):
            if v is None:
                cells.append(None)
                continue
            per_head = []
            for h in range(len(v)):
                row = v[h][q] if heads is None else v[h]
                base = f"{self.at(tmpl, l)}[{h}][{q}]" if heads is None else self.at(tmpl, l)
                per_head.append([{**cell(self.plan, f"{base}[{k}]"), "w": float(w)}
                                 for k, w in enumerate(row)])
            cells.append(per_head)
        n_heads = max(len(c) for c in cells if c)
        self.add("attention", tmpl, cells, tokens=self.toks, focus=q,
                 heads=heads if heads is not None else list(range(n_heads)))

    @staticmethod
    def ranked_key(d: dict) -> tuple[str, str] | None:
        word = next((k for k in ("display", "token", "text") if isinstance(d.get(k), str)), None)
        num = next((k for k in ("prob", "weight", "p") if is_num(d.get(k))), None)
        return (word, num) if word and num else None

    def ranked(self, tmpl: str, vals: list) -> None:
        cells = []
        for l, v in enumerate(vals):
            if not isinstance(v, list):
                cells.append(None)
                continue
            row = []
            for j, d in enumerate(v[:RANKED]):
                word, num = self.ranked_key(d)
                row.append({**cell(self.plan, f"{self.at(tmpl, l)}[{j}].{num}"), "tok": d[word]})
            cells.append(row)
        self.add("ranked", tmpl, cells)

    # --- the walk over plan["data"] ---
    def walk(self, node, path: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if not SKIP.fullmatch(k):
                    self.walk(v, f"{path}.{k}")
        elif isinstance(node, list) and node:
            if len(node) == self.n and all(isinstance(r, dict) for r in node):
                self.per_layer(f"{path}[{L}]")
            elif self.n > 1 and len(node) == self.n:
                self.per_layer(f"{path}[{L}]")
            elif (self.n > 1 and len(node) <= 6 and all(is_vec(r) and len(r) == self.n
                                                        for r in node)):
                for i in range(len(node)):           # raw[pair][layer]: one series each
                    self.per_layer(f"{path}[{i}][{L}]")


def pair_labels(plan: dict, panels: list[dict]) -> None:
    """`x[i][{l}]` next to a `pairs` list: name the pair's sentences."""
    from .rounding import resolve
    for p in panels:
        m = re.fullmatch(r"(.*)\.\w+\[(\d+)\]\[\{l\}\](.*)", p["path"])
        if not m or p["path"] in SPECS.get(plan["template"], {}).get("labels", {}):
            continue
        try:
            pair = resolve(plan, f"{m.group(1)}.pairs[{m.group(2)}]")
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(pair, list) and len(pair) == 2:
            p["label"] = re.sub(r" \d+$", "", p["label"]) + \
                f": sentences {pair[0] + 1} and {pair[1] + 1}"


def beats(plan: dict) -> list[dict]:
    spec = SPECS.get(plan["template"], {}).get("beats", {})
    out, t = [], 0.0
    for b in plan["beats"]:
        d = float(b.get("duration") or 0)
        out.append({"id": b["id"], "start": round(t, 3), "end": round(t + d, 3),
                    "caption": b.get("caption") or "", "narration": b.get("narration") or "",
                    "layer": b.get("layer"), "head": b.get("head"),
                    "keys": sorted(set(b.get("show") or []) | set(spec.get(b["id"], [])))})
        t += d
    return out


def part(plan: dict, title: str | None = None, offset: float = 0.0) -> dict:
    f = Finder(plan)
    f.walk(plan.get("data", {}), "data")
    pair_labels(plan, f.panels)
    order = {"attention": 0, "ranked": 1, "series": 2, "vector": 3}
    f.panels.sort(key=lambda p: order[p["kind"]])        # stable: plan order within a kind
    for i, p in enumerate(f.panels):
        p["id"] = f"p{i}"
    model = plan.get("model", {})
    return {"name": plan["storyboard"]["name"], "title": title or plan.get("title", ""),
            "template": plan["template"], "offset": round(offset, 3),
            "model": model.get("display", model.get("name", "")) if isinstance(model, dict)
            else str(model),
            "sentences": list(plan.get("sentences") or []), "focus": list(plan.get("focus") or []),
            "axis": axis(plan), "layers": list(plan.get("layers") or []),
            "beats": beats(plan), "panels": f.panels}
