"""The multi-prompt summary of the logit_lens plan, re-derived from the traces directly."""

import numpy as np
import pytest

from layerwise_core.analysis.logit_lens_prompts import prompt_rows, top_from_counts
from layerwise_templates.logit_lens.view import Data

from test_plan_logit_lens import board, plan  # noqa: F401  (fixtures)
from layerwise_core.tracing import get_trace


@pytest.fixture(scope="module")
def traces(board, cache_dir):
    return [get_trace(board.model, s, cache_dir=cache_dir) for s in board.sentences]


def test_median_rank_rederived(plan, traces, board):
    """The median, over the prompts, of the answer's rank after each layer, computed here from
    the raw lens arrays (argsort of nothing: the trace's final_rank and final_ids)."""
    from layerwise_core.analysis.vectors import positions
    d = plan["data"]["prompts"]
    assert d["n"] == len(board.sentences) == 10
    ranks = []
    for t, f in zip(traces, board.focus):
        pos = positions(t, f)[-1]
        ranks.append(t["lens.resid_post.final_rank"][:, pos] + 1)
    med = np.median(np.array(ranks, float), axis=0)
    assert d["median_rank"] == pytest.approx(med.tolist())
    assert d["median_rank"][-1] == 1            # the last layer is every prompt's output
    # in the top 10 for good: counted here from the ranks, from the end backwards
    for l in range(len(med)):
        n = sum(1 for r in ranks if all(x <= d["top"] for x in r[l:]))
        assert d["in_top"][l] == n
    assert d["in_top"][-1] == d["n"]


def test_top_from_counts():
    rows = [{"top_from": 0}, {"top_from": 3}, {"top_from": None}]
    assert top_from_counts(rows, 5) == [1, 1, 1, 2, 2]


def test_view_checks_the_plan(plan):
    assert Data.check(plan["data"], "data") == []
    v = Data.at(plan)
    assert v.prompts.median_rank[20].path == "data.prompts.median_rank[20]"
    assert int(v.layers[6].state) == 7


def test_styled_numbers_are_the_plans(plan):
    """The numbers drawn as a bound or grouped (r33b: a styled Num, not a Text): KL's start
    as a factor ("273,000,000", style "group") and a probability under 0.005 ("<0.01", style
    "floor") keep the plan's value and path, and show fmt(value, decimals, style) (as
    test_snapshots' numbers check; the factor is gone by the kl beat's last frame)."""
    import framecheck as fc
    from scenes.base import describe
    from scenes.mobjects import Num
    from scenes.theme import fmt
    from layerwise_templates.logit_lens.scene_prompts import nat_scale
    from layerwise_templates.logit_lens.scene_race import prob_num
    v = Data.at(plan)
    nums = [m for m in nat_scale(v).get_family() if isinstance(m, Num)]
    small = min((e for lay in v.layers for e in lay.top), key=lambda e: float(e.prob)).prob
    nums.append(prob_num(small, 20, "#ffffff"))
    styles = set()
    for n in nums:
        d = describe(n)
        value = fc.plan_value(plan, d["source"])
        assert d["value"] == pytest.approx(value, abs=1e-12)
        assert d["shown"] == fmt(value, d["decimals"], d.get("style", ""))
        styles.add(d.get("style", ""))
    assert {"group", "floor"} <= styles
    assert "273,000,000" in [describe(n)["shown"] for n in nums]
