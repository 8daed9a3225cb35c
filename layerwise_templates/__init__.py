"""The one registry of storyboard templates, read by the validator, the planner, the drafter
and the renderer. Each template is one folder here (its spec, plan, draft, scene, shipped
storyboard and README); a new template is one folder and one line below.
"""

from __future__ import annotations

from pathlib import Path

from layerwise_core.templates import Template

from .attention_depth.spec import TEMPLATE as attention_depth
from .bank_drift.spec import TEMPLATE as bank_drift
from .context_qkv.spec import TEMPLATE as context_qkv
from .fresh_qkv.spec import TEMPLATE as fresh_qkv
from .logit_lens.spec import TEMPLATE as logit_lens
from .per_head.spec import TEMPLATE as per_head
from .residual_stream.spec import TEMPLATE as residual_stream
from .toy_loop.spec import TEMPLATE as toy_loop

TEMPLATES: dict[str, Template] = {t.name: t for t in (
    toy_loop, fresh_qkv, residual_stream, per_head, bank_drift, context_qkv, attention_depth,
    logit_lens)}

HERE = Path(__file__).resolve().parent


def storyboard_path(name: str) -> Path:
    """The shipped storyboard of template `name`."""
    return HERE / name / f"{name}.yaml"


def shipped_storyboards() -> list[Path]:
    """Every shipped storyboard, sorted by name."""
    return sorted(storyboard_path(n) for n in TEMPLATES)


__all__ = ["TEMPLATES", "Template", "shipped_storyboards", "storyboard_path"]
