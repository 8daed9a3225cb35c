"""Every string on screen is the same on another machine's CPU kernels and thread count.

The same trace differs in its last bits under ATEN_CPU_CAPABILITY=default|avx2|avx512 and
OMP_NUM_THREADS=1|2. This re-plans every storyboard in a subprocess under another capability and
one thread, with a fresh empty trace cache (so the traces are recomputed there), renders the
per-beat preview states of both plans (previews skip animations) and compares every `text`,
`math` and `shown` field of every mobject: what a viewer reads. It also checks the plan-time
guards of the shown values (analysis.robust.error_bound, plans.shown.stable).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import framecheck as fc
from layerwise_core.analysis.robust import NoiseBoundError, error_bound
from layerwise_core.errors import LayerwiseError
from layerwise_core.plans.shown import fitting_decimals, near_boundary, stable, summed_decimals

STORYBOARDS = sorted((fc.ROOT / "layerwise_templates").glob("*/*.yaml"))
OTHER = {"ATEN_CPU_CAPABILITY": "default", "OMP_NUM_THREADS": "1"}


def strings(state, path: str = "") -> dict[str, str]:
    """Every on-screen string of a scene state, keyed by where it sits in the mobject tree."""
    out = {}
    if isinstance(state, dict):
        for k, v in state.items():
            if k in ("text", "math", "shown") and isinstance(v, str):
                out[f"{path}.{k}"] = v
            else:
                out.update(strings(v, f"{path}.{k}"))
    elif isinstance(state, list):
        for i, v in enumerate(state):
            out.update(strings(v, f"{path}[{i}]"))
    return out


def plan_and_preview(media, cache, env_extra: dict) -> dict[str, dict[str, str]]:
    env = {**os.environ, "LAYERWISE_CACHE": str(cache), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1", **env_extra}
    boards = [str(p) for p in STORYBOARDS]
    for cmd in ([sys.executable, "-m", "layerwise_core", "plan", "--media", str(media), *boards],
                [sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--preview", "--media",
                 str(media), *boards]):
        r = subprocess.run(cmd, cwd=fc.ROOT, env=env, capture_output=True, text=True)
        assert r.returncode == 0, f"{' '.join(cmd[2:4])} failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    found = {}
    for p in STORYBOARDS:
        states = sorted((media / "frames" / p.stem).glob("*.json"))
        assert states, f"no preview states for {p.stem}"
        for s in states:
            found[f"{p.stem}/{s.stem}"] = strings(fc.load_json(s))
    return found


@pytest.mark.slow
@pytest.mark.render
def test_every_on_screen_string_is_the_same_under_another_cpu_and_thread_count(
        cache_dir, tmp_path):
    here = plan_and_preview(tmp_path / "here", cache_dir, {})
    other_cache = tmp_path / "other-cache"
    other_cache.mkdir()
    there = plan_and_preview(tmp_path / "there", other_cache, OTHER)
    assert any(f"{p.stem}/" in k for p in STORYBOARDS for k in here)
    assert sum(len(v) for v in here.values()) > 100, "too few strings found to compare"
    assert set(here) == set(there)
    diffs = [f"{beat}{k}: {v!r} here, {there[beat].get(k)!r} under {OTHER}"
             for beat in sorted(here) for k, v in here[beat].items() if there[beat].get(k) != v]
    diffs += [f"{beat}{k}: only under {OTHER}" for beat in sorted(there)
              for k in there[beat] if k not in here[beat]]
    assert not diffs, f"{len(diffs)} on-screen strings differ: " + "; ".join(diffs[:10])


def test_error_bound_is_fixed_not_rounded_noise():
    # 9.9e-7 and 1.1e-6 straddle 1e-6: the old next-power-of-ten bound showed 1e-06 vs 1e-05
    assert error_bound(9.9e-7, 1e-5) == error_bound(1.1e-6, 1e-5) == {"bound": 1e-5, "decimals": 5}
    assert error_bound(1.16e-5, 1e-4) == {"bound": 1e-4, "decimals": 4}
    with pytest.raises(NoiseBoundError):
        error_bound(2e-5, 1e-5)
    with pytest.raises(NoiseBoundError):
        error_bound(float("nan"), 1e-4)


def test_values_within_noise_of_a_rounding_boundary_fail_at_plan_time():
    assert near_boundary(0.125, 2) and near_boundary(0.12500001, 2)
    assert near_boundary(870.05, 1) and near_boundary(2.5, 0)
    assert not near_boundary(0.1234, 2) and not near_boundary(870.07, 1)
    assert stable(0.1234, 2, "data.x") == 0.1234
    with pytest.raises(LayerwiseError, match="data.x.*rounding boundary"):
        stable(0.125000001, 2, "data.x")


def test_state_tolerances_follow_what_each_field_is():
    g = {"kind": "Num", "center": [1.0, 2.0], "size": [0.5, 0.2], "value": -0.575155,
         "scaled": 0.5, "text": "0.58", "fill": "#3b82f6", "fill_opacity": 1.0}
    px = (14.0 + 2 / 9) / 854
    # machine noise as scripts/bench_noise.py measured it: a MiniLM value 3.5e-6 relative, a
    # 0.57 entry of SmolLM2's residual stream 4e-5 apart (its norm is in the hundreds), a bar's
    # end 0.0027 px, a colour one 8-bit step
    for same in ({**g, "value": -0.575153, "center": [1.0 + 0.0027 * px, 2.0], "fill": "#3c82f6"},
                 {**g, "value": -0.575115}):
        assert not fc.state_differences(same, g)
    for changed in ({"center": [1.0 + 0.1 * px, 2.0]}, {"value": -0.5762}, {"scaled": 0.5003},
                    {"text": "0.57"}, {"fill": "#3d82f6"}, {"fill_opacity": 0.99}):
        assert fc.state_differences({**g, **changed}, g), changed


def test_entries_shown_together_move_their_decimals_away_from_a_boundary():
    # -1.0650067 at 2 decimals sits on -1.065: one fewer (1.1) is safe; 3 more at 2.5525038 too
    assert fitting_decimals([[0.5, -1.0650067], [3.21]], 2, "x") == 1
    assert fitting_decimals([[2.5525038, 0.4]], 3, "x") == 2
    assert fitting_decimals([[0.25, 0.333]], 1, "x") == 2          # 1 decimal: no fewer than 1
    assert fitting_decimals([[0.3, 0.7]], 1, "x") == 1
    with pytest.raises(LayerwiseError, match=r"x\[0\]\[1\].*rounding boundary"):
        fitting_decimals([[0.5, 0.05, 0.005]], 1, "x")      # near at 1, 2 and 0 decimals


def test_a_column_sum_takes_the_first_count_of_decimals_at_which_it_adds_up_and_ends():
    # 0.1234 + 0.1234 = 0.2468: at 3 decimals 0.123 + 0.123 = 0.246 is not 0.247; at 4 it adds
    assert summed_decimals([0.1234, 0.1234], 0.2468, [0.1234, 0.2468], 3, "s") == (4, True)
    assert summed_decimals([0.1, 0.2], 0.3, [0.1, 0.2, 0.3], 2, "s") == (2, True)
    # five 0.0004 shown at 3 decimals are 0.000 each, their sum 0.002: no count up to `most`
    # adds up, so the first count and False (the scene writes "≈"); it ends (an earlier loop
    # went 3 -> 4 -> 5 -> 4 ... forever when both 4 and 5 were noisy: CI timed out)
    assert summed_decimals([0.0004] * 5, 0.002, [0.0004, 0.002], 3, "s", most=3) == (3, False)
