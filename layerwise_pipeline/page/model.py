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
Template specs (`specs.SPECS`) name the panels and their groups in words, and say which
panels a beat is about and which layer it shows.
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


SUPER = str.maketrans("0123456789()-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾⁻")


def pretty(text: str) -> str:
    """Layer notation as the video draws it: `X^(3)` -> `X⁽³⁾`."""
    return re.sub(r"\^\((-?\d+)\)", lambda m: f"({m.group(1)})".translate(SUPER), text)


def states(plan: dict) -> list[dict] | None:
    s = plan["data"].get("states") if isinstance(plan.get("data"), dict) else None
    ok = isinstance(s, list) and s and all(isinstance(x, dict) and "label" in x for x in s)
    return s if ok else None


def state_name(x: dict) -> str:
    """A state as the video's axis writes it: its `math` (`X^((6))`, MathTex) as X⁽⁶⁾."""
    math = x.get("math")
    if isinstance(math, str) and re.fullmatch(r"\w+\^\(\(-?\d+\)\)", math):
        return pretty(math.replace("((", "(").replace("))", ")"))
    return pretty(str(x["label"]))


def axis(plan: dict) -> list[str]:
    """The layer control's positions: the plan's states (`X⁽³⁾`) or else its layers."""
    s = states(plan)
    if s:
        return [state_name(x) for x in s]
    return [f"layer {layer}" for layer in plan["layers"]]


def axis_notes(plan: dict) -> list[str]:
    """What each position is, in words (said once, under the control)."""
    s = states(plan)
    if not s:
        return ["" for _ in plan["layers"]]
    last = max(x.get("layer", 0) for x in s if str(x.get("hook", "")).endswith("resid_pre"))
    entering = [str(x.get("hook", "")).endswith("resid_pre") for x in s]
    return [("the embedding: " if x["label"] == "embedding" else "") +
            f"the state entering layer {x['layer']}" if e
            else f"the {x['label']}, after the last layer ({last})" if x["label"] == "output"
            else str(x["label"]) for x, e in zip(s, entering)]


def axis_index(plan: dict, layer) -> int | None:
    """The control's position showing model layer `layer` (the state it reads)."""
    if not isinstance(layer, int) or isinstance(layer, bool):
        return None
    s = states(plan)
    if s:
        return next((i for i, x in enumerate(s) if x.get("layer") == layer
                     and str(x.get("hook", "")).endswith("resid_pre")), None)
    layers = list(plan.get("layers") or [])
    return layers.index(layer) if layer in layers else None


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


def pattern(p: str) -> re.Pattern:
    """A spec's path pattern: literal but for `*` (any run of characters)."""
    return re.compile(".*".join(re.escape(part) for part in p.split("*")))


def spec_of(plan: dict) -> dict:
    return SPECS.get(plan.get("template", ""), {})


def first_match(table, path: str):
    return next((v for k, v in table if pattern(k).fullmatch(path)), None)


WORDS = {"cos": "cosine", "norm": "length", "prev": "previous token", "w": "weight matrices",
         "x": "X", "q": "query Q", "k": "key K", "v": "value V", "max": "largest",
         "min": "smallest", "top": "top", "n": "number of", "pos": "position",
         "prob": "probability", "raw": "raw", "sink": "share on [CLS] and [SEP]",
         "on": "on", "special": "[CLS] and [SEP]", "delta": "update Δ", "mid": "X + Δ",
         "attn": "attention", "mlp": "MLP", "ffn": "feed-forward", "rel": "relative",
         "abs": "absolute", "ln": "LayerNorm", "err": "error"}


def words(key: str) -> str:
    return " ".join(WORDS.get(w, w) for w in key.split("_") if w)


def generic_label(tmpl: str) -> tuple[str, str]:
    """A draft's plan field in words: `layers[{l}].top_word.weight` -> "weight, top word"."""
    keys = [k for k in re.findall(r"[A-Za-z]\w*", tmpl.removeprefix("data."))
            if k != "layers" and k != "l"]
    if len(keys) > 1 and keys[-1] == "value":           # `norm_x.value`: the value of norm_x
        keys.pop()
    index = [int(i) + 1 for i in re.findall(r"\[(\d+)\]", tmpl)]
    name = words(keys[-1]) if keys else "value"
    name = name[0].upper() + name[1:]
    where = ", ".join(words(k) for k in reversed(keys[:-1]))
    text = name + (f" ({where})" if where else "") + \
        "".join(f", number {i}" for i in index)
    return text, "A number from the plan of this video."


def fill(plan: dict, text: str, extra: dict) -> str:
    """`{focus}`, `{pair}` and `{data.x.y}` placeholders of a spec's words."""
    from .rounding import resolve

    def one(m):
        key = m.group(1)
        if key in extra:
            return str(extra[key])
        try:
            return str(resolve(plan, key))
        except (KeyError, IndexError, TypeError):
            return m.group(0)
    return re.sub(r"\{([\w.\[\]]+)\}", one, text)


def pair_of(plan: dict, tmpl: str) -> str | None:
    """`x[i][{l}]` next to a `pairs` list: the pair's sentences, "sentences 1 and 2"."""
    from .rounding import resolve
    m = re.fullmatch(r"(.*)\.\w+\[(\d+)\]\[\{l\}\](.*)", tmpl)
    if not m:
        return None
    try:
        pair = resolve(plan, f"{m.group(1)}.pairs[{m.group(2)}]")
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(pair, list) and len(pair) == 2:
        return f"sentences {pair[0] + 1} and {pair[1] + 1}"
    return None


def label_of(plan: dict, tmpl: str) -> tuple[str, str]:
    """(label, explanation) of a panel: the template's words, else the path in words."""
    found = first_match(spec_of(plan).get("labels", {}).items(), tmpl)
    pair = pair_of(plan, tmpl)
    if found is None:
        text, tip = generic_label(re.sub(r"\[\d+\]\[\{l\}\]$", "[{l}]", tmpl)
                                  if pair else tmpl)
        return (text + f": {pair}" if pair else text), tip
    extra = {"focus": (plan.get("focus") or [""])[0], "pair": pair or ""}
    return pretty(fill(plan, found[0], extra)), pretty(fill(plan, found[1], extra))


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
        label, tip = label_of(self.plan, tmpl)
        self.panels.append({"kind": kind, "id": f"p{len(self.panels)}", "key": key,
                            "path": tmpl, "label": label, "tip": tip, "cells": cells,
                            "raw": [self.get(tmpl, l) for l in range(self.n)], **extra})

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


def duplicates(panels: list[dict]) -> list[dict]:
    """Without the cards that always equal an earlier one (context_qkv's `cos.in` is `cos.x`):
    the plan's values equal at every layer. One layer of whole numbers is not enough to call
    two cards the same (a head number and a count may coincide)."""
    out, seen = [], []
    for p in panels:
        raw = p["raw"]
        present = [v for v in raw if v is not None]
        whole = all(isinstance(v, int) for v in present)
        if raw in seen and not (whole and len(present) < 2):
            continue
        seen.append(raw)
        out.append(p)
    return out


def grouped(plan: dict, panels: list[dict]) -> list[dict]:
    """Each panel's group (the spec's first matching pattern, else its key under `data`), the
    panels ordered by group, then by the spec's label order, then as found."""
    spec = spec_of(plan)
    groups = spec.get("groups", [])
    labels = list(spec.get("labels", {}))
    kinds = {"attention": 0, "ranked": 1, "series": 2, "vector": 3}

    def where(p):
        g = next((i for i, (k, _) in enumerate(groups) if pattern(k).fullmatch(p["path"])), None)
        return g

    for p in panels:
        g = where(p)
        p["group"] = groups[g][1].replace("'bank'", f"'{(plan.get('focus') or ['bank'])[0]}'") \
            if g is not None else words(p["key"]).capitalize()
        p["_label"] = next((i for i, k in enumerate(labels) if pattern(k).fullmatch(p["path"])),
                           len(labels))
        p["_group"] = len(groups) if g is None else g
    first = {}                     # a group is shown where its first label is in the table
    for p in panels:
        first[p["_group"]] = min(first.get(p["_group"], p["_label"]), p["_label"])
    for p in panels:
        p["_order"] = (first[p["_group"]], p["_group"], kinds[p["kind"]], p["_label"])
    out = sorted(panels, key=lambda p: p["_order"])
    for p in out:
        del p["_order"], p["_group"], p["_label"]
    return out


def beat_position(plan: dict, b: dict, rule: dict) -> int | None:
    """Where the layer control goes when beat `b` plays: the beat's `layer`, else the spec's
    plan path of its layer (`layer`) or axis position (`state`), else the one layer its
    caption's numbers come from (`{data.layers[2]...}`, `{layers[0]}`)."""
    from .rounding import resolve
    if b.get("layer") is not None:
        return axis_index(plan, b["layer"])
    for key, to_index in (("layer", lambda v: axis_index(plan, v)),
                          ("state", lambda v: v if isinstance(v, int) and
                           0 <= v < len(axis(plan)) else None)):
        if key in rule:
            try:
                return to_index(resolve(plan, rule[key]))
            except (KeyError, IndexError, TypeError):
                return None
    written = " ".join(str(v) for v in (b.get("written") or {}).values())
    found = {int(i) for i in re.findall(r"\{data\.layers\[(\d+)\]", written)}
    found |= {("plan", int(i)) for i in re.findall(r"\{layers\[(\d+)\]\}", written)}
    if len(found) != 1:
        return None
    (one,) = found
    layers = list(plan.get("layers") or [])
    if isinstance(one, tuple):
        return axis_index(plan, layers[one[1]]) if one[1] < len(layers) else None
    try:
        return axis_index(plan, resolve(plan, f"data.layers[{one}].layer"))
    except (KeyError, IndexError, TypeError):
        return one if one < len(axis(plan)) and not states(plan) else None


def beat_panels(plan: dict, b: dict, rule: dict, panels: list[dict]) -> list[str]:
    """The ids of the cards beat `b` is about: the spec's patterns, else the panels under the
    beat's `show` names."""
    if "panels" in rule:
        pats = [pattern(k) for k in rule["panels"]]
        return [p["id"] for p in panels if any(r.fullmatch(p["path"]) for r in pats)]
    show = set(b.get("show") or [])
    return [p["id"] for p in panels if p["key"] in show]


def beats(plan: dict, panels: list[dict]) -> list[dict]:
    spec = spec_of(plan).get("beats", {})
    out, t = [], 0.0
    for b in plan["beats"]:
        d = float(b.get("duration") or 0)
        rule = spec.get(b["id"], {})
        out.append({"id": b["id"], "start": round(t, 3), "end": round(t + d, 3),
                    "caption": pretty(b.get("caption") or ""),
                    "narration": b.get("narration") or "",
                    "at": beat_position(plan, b, rule), "head": b.get("head"),
                    "panels": beat_panels(plan, b, rule, panels)})
        t += d
    return out


def part(plan: dict, title: str | None = None, offset: float = 0.0) -> dict:
    f = Finder(plan)
    f.walk(plan.get("data", {}), "data")
    panels = duplicates(grouped(plan, f.panels))
    for i, p in enumerate(panels):
        p["id"] = f"p{i}"
        del p["raw"]
    model = plan.get("model", {})
    return {"name": plan["storyboard"]["name"], "title": title or plan.get("title", ""),
            "template": plan["template"], "offset": round(offset, 3),
            "model": model.get("display", model.get("name", "")) if isinstance(model, dict)
            else str(model),
            "sentences": list(plan.get("sentences") or []), "focus": list(plan.get("focus") or []),
            "axis": axis(plan), "notes": axis_notes(plan),
            "layers": list(plan.get("layers") or []),
            "beats": beats(plan, panels), "panels": panels}
