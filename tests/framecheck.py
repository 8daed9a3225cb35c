"""Frame and scene-state snapshot comparison that survives anti-aliasing, not real changes.

Frames are compared after area-downsampling by `FACTOR` (block means), which averages away
the sub-pixel differences between Cairo 1.16 and 1.18 and between Pango versions' glyph
rasterisation. A frame fails when any block differs by more than `BLOCK_LIMIT` (0-255 scale)
in any channel, or when the mean difference exceeds `MEAN_LIMIT`. A changed digit, a bar 10 %
longer, an object a few pixels away or a changed colour moves whole blocks well past the
limit; edge noise does not (the figures behind these numbers are in README.md).

Scene states (what is on screen: kind, position, size, colour, text, value per mobject) are
compared per field, with a tolerance derived from what the field is. The same trace differs in
its last bits between CPU kernels (`ATEN_CPU_CAPABILITY=default|avx2|avx512`) and thread counts
(`OMP_NUM_THREADS`), so nothing is compared tighter than that noise allows:

- `text`, `math`, `shown`, `source`, `kind`, `beat`: exactly. What is written on screen must be
  the same on every machine (the plans guarantee it: analysis.robust.error_bound shows a fixed
  bound, plans.shown.stable rejects a value within noise of a rounding boundary).
- `value`, `scaled` (numbers from float32 activations, or activations divided by a robust limit
  and rounded to 6 decimals): `DATA_ABS` + `DATA_REL` * |golden|, both 1e-4. Noise is relative
  to the size of the quantity an entry belongs to, not to the entry: `scripts/bench_noise.py`
  (four configurations, every storyboard, fresh trace caches) measured 7.6e-6 on a SmolLM2
  lens probability of 0.42 after 30 layers (1.8e-5 relative: a CI run failed on it under the
  old 2e-6 + 1e-5) and 4e-5 on a 0.57 entry of SmolLM2's residual stream, whose norm is in the
  hundreds (7e-5 relative). 1e-4 + 1e-4 leaves 4x over the worst of these and is still far
  below anything a viewer sees (what a number shows is compared exactly, as `shown`).
- `center`, `size` (scene units; the 14.22 x 8 frame is 854 x 480 px at 480p): `POSITION_TOL`,
  0.05 px = 8.3e-4 units. Far below anything visible; float noise moved a bar (a probability
  times 6 units) and the number at its end by 0.0027 px at most (measured as above).
- `fill_opacity`: `OPACITY_TOL` 1e-4 (opacity from a value; 1/255 is the smallest visible step).
- `fill`, `stroke` (colours `#rrggbb`, some interpolated from a value): each channel within
  `COLOUR_STEPS` = 1 step of 255: a value within noise of an 8-bit quantisation boundary may
  flip one step, which no one can see; a changed colour moves many steps.
- `time` and any other float: `FLOAT_TOL` absolute.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from layerwise_templates import storyboard_path

FACTOR = 2
BLOCK_LIMIT = 24.0
MEAN_LIMIT = 0.5
FLOAT_TOL = 1e-6
DATA_ABS = 1e-4
DATA_REL = 1e-4
POSITION_TOL = 0.05 * (14.0 + 2 / 9) / 854          # 0.05 px at 480p, in scene units
OPACITY_TOL = 1e-4
COLOUR_STEPS = 1
EXACT = ("text", "math", "shown", "source", "kind", "beat")

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "snapshots"
FAILURES = ROOT / "tests" / "_failures"


def downsample(img: np.ndarray, factor: int = FACTOR) -> np.ndarray:
    h, w = (img.shape[0] // factor) * factor, (img.shape[1] // factor) * factor
    x = img[:h, :w].astype(np.float64)
    return x.reshape(h // factor, factor, w // factor, factor, -1).mean(axis=(1, 3))


def frame_difference(actual: np.ndarray, golden: np.ndarray) -> dict:
    if actual.shape != golden.shape:
        return {"shape": [list(actual.shape), list(golden.shape)], "max": 255.0, "mean": 255.0}
    d = np.abs(downsample(actual) - downsample(golden))
    return {"max": float(d.max()), "mean": float(d.mean()),
            "blocks_over": int((d.max(axis=-1) > BLOCK_LIMIT).sum())}


def frames_match(diff: dict) -> bool:
    return "shape" not in diff and diff["max"] <= BLOCK_LIMIT and diff["mean"] <= MEAN_LIMIT


def load_png(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def write_failure(name: str, stem: str, actual: np.ndarray, golden: np.ndarray) -> tuple[Path, Path]:
    """Save the actual frame and an amplified difference image; return their paths."""
    out = FAILURES / name
    out.mkdir(parents=True, exist_ok=True)
    a_path, d_path = out / f"{stem}.actual.png", out / f"{stem}.diff.png"
    Image.fromarray(actual).save(a_path)
    if actual.shape == golden.shape:
        diff = np.abs(actual.astype(int) - golden.astype(int)).max(axis=-1)
        Image.fromarray(np.clip(diff * 4, 0, 255).astype(np.uint8)).save(d_path)
    return a_path, d_path


def _tolerance(key: str, golden: float) -> float:
    if key in ("value", "scaled"):
        return DATA_ABS + DATA_REL * abs(golden)
    if key in ("center", "size"):
        return POSITION_TOL
    if key == "fill_opacity":
        return OPACITY_TOL
    return FLOAT_TOL


def _colours_match(a, g) -> bool:
    try:
        ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
        cg = [int(g[i:i + 2], 16) for i in (1, 3, 5)]
    except (TypeError, ValueError, IndexError):
        return a == g
    return len(a) == len(g) == 7 and max(abs(x - y) for x, y in zip(ca, cg)) <= COLOUR_STEPS


def state_differences(actual, golden, path: str = "", key: str = "") -> list[str]:
    """Every place where two scene states differ (each field to its tolerance, see above)."""
    if isinstance(actual, dict) and isinstance(golden, dict):
        out = []
        for k in sorted(set(actual) | set(golden)):
            if k not in actual or k not in golden:
                out.append(f"{path}.{k}: {'missing' if k not in actual else 'unexpected'}")
            else:
                out += state_differences(actual[k], golden[k], f"{path}.{k}", k)
        return out
    if isinstance(actual, list) and isinstance(golden, list):
        if len(actual) != len(golden):
            return [f"{path}: {len(actual)} items, golden has {len(golden)}"]
        return [d for i, (a, g) in enumerate(zip(actual, golden))
                for d in state_differences(a, g, f"{path}[{i}]", key)]
    if key in EXACT:
        if actual == golden:
            return []
    elif key in ("fill", "stroke") and isinstance(actual, str) and isinstance(golden, str):
        if _colours_match(actual, golden):
            return []
    elif isinstance(actual, float) or isinstance(golden, float):
        if isinstance(actual, (int, float)) and isinstance(golden, (int, float)) \
                and not isinstance(actual, bool) and not isinstance(golden, bool) \
                and abs(actual - golden) <= _tolerance(key, golden):
            return []
    elif actual == golden:
        return []
    return [f"{path}: {actual!r} != golden {golden!r}"]


def render_previews(plans_dir: Path, media: Path, names: list[str]) -> Path:
    """Render every beat's last frame of the named plans in a fresh process (no torch there),
    with the text sizes sampled in the middle of every play too (`--midplay`: the frames are
    the same; tests/test_legibility.py reads the text records)."""
    (media / "plans").mkdir(parents=True, exist_ok=True)
    boards = []
    for n in names:
        (media / "plans" / f"{n}.json").write_bytes((plans_dir / f"{n}.json").read_bytes())
        boards.append(str(storyboard_path(n)))
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs",
                        "1", "--preview", "--midplay", "--media", str(media), *boards],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"preview render failed:\n{r.stdout}\n{r.stderr}")
    return media / "frames"


class Rendered:
    """Plans and preview frames of the shipped storyboards, built on first use per storyboard
    (once per test session: the `rendered` fixture, shared by test_snapshots and
    test_legibility)."""

    def __init__(self, cache_dir, tmp):
        self.cache_dir, self.plans, self.media = cache_dir, tmp / "plans", tmp / "media"
        self.done: set[str] = set()

    def plan_path(self, name: str):
        from layerwise_core.plans import build_plan, write_plan
        from layerwise_core.storyboard.schema import load_storyboard
        path = self.plans / f"{name}.json"
        if not path.exists():
            sb = load_storyboard(storyboard_path(name))
            write_plan(build_plan(sb, self.cache_dir), path)
        return path

    def plan(self, name: str) -> dict:
        return load_json(self.plan_path(name))

    def frames(self, name: str):
        if name not in self.done:
            self.plan_path(name)
            render_previews(self.plans, self.media, [name])
            self.done.add(name)
        return self.media / "frames" / name


def plan_value(plan: dict, source: str):
    """Resolve a plan path like 'data.layers[0].x_in[1]'."""
    node = plan
    for part in source.replace("]", "").replace("[", ".").split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def numbers(state) -> list[dict]:
    """Every Num on screen (they carry 'source')."""
    if isinstance(state, dict):
        found = [state] if "source" in state else []
        for v in state.values():
            found += numbers(v)
        return found
    if isinstance(state, list):
        return [n for v in state for n in numbers(v)]
    return []


def load_json(path: Path):
    return json.loads(Path(path).read_text())
