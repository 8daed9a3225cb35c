"""The one registry of storyboard templates, read by the validator, the planner and the renderer.

Each template names what a beat may show, the model kinds it accepts, how many sentences it
needs, the module that builds its plan (`layerwise_core.plans.<name>`), the module that drafts
a storyboard of it from a sentence (`layerwise_core.drafts.<name>`, where there is one) and the
Manim scene class that draws it. The scene is named by import path, not imported: this package sits below
`scenes` and never imports it. A template whose handlers wait for words of the narration names
those **moments** here, per handler: a beat showing that handler must say where each is
(`moments:` in the storyboard, storyboard/reveals.py), and the scene asks for them by name
(`StoryboardScene.said(name)`).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

ANY_MODEL = frozenset({"encoder", "decoder"})


@dataclass(frozen=True)
class Template:
    name: str
    shows: frozenset          # the names a beat's `show` list may use
    kinds: frozenset          # model kinds (encoder, decoder, toy)
    min_sentences: int
    scene: str                # "module:Class" of the scene that renders it
    max_sentences: int | None = None    # None: any number
    moments: tuple = ()       # ((show name, (moment names its handler waits for)), ...)

    def moments_of(self, shows) -> tuple[str, ...]:
        """The moments a beat showing `shows` must name, in order, each once."""
        wanted = dict(self.moments)
        return tuple(dict.fromkeys(m for s in shows for m in wanted.get(s, ())))

    @property
    def plan_module(self) -> str:
        return f"layerwise_core.plans.{self.name}"

    def build_plan(self, sb, traces) -> dict:
        return importlib.import_module(self.plan_module).build(sb, traces)

    @property
    def draft_module(self) -> str:
        return f"layerwise_core.drafts.{self.name}"

    @property
    def has_draft(self) -> bool:
        return importlib.util.find_spec(self.draft_module) is not None

    def build_draft(self, context):
        return importlib.import_module(self.draft_module).build(context)

    def scene_class(self):
        module, _, cls = self.scene.partition(":")
        return getattr(importlib.import_module(module), cls)


def _t(name, shows, kinds, min_sentences, cls, max_sentences=None, moments=None) -> Template:
    return Template(name, frozenset(shows), frozenset(kinds), min_sentences,
                    f"scenes.templates.{name}:{cls}", max_sentences,
                    tuple((show, tuple(names.split())) for show, names in (moments or {}).items()))


TEMPLATES: dict[str, Template] = {t.name: t for t in (
    _t("toy_loop", {"code", "x", "q", "k", "v", "update", "note"}, {"toy"}, 1, "ToyLoopScene"),
    _t("fresh_qkv", {"x", "norm", "project", "update", "causes", "check"}, ANY_MODEL, 1,
       "FreshQKVScene"),
    _t("residual_stream", {"tokens", "x", "attn_out", "mlp_out", "journey", "sizes", "identity"},
       ANY_MODEL, 1, "ResidualStreamScene", moments={
           "tokens": "space_mark",
           "x": "numbers length reads writes",
           "journey": "plane_note",
           "sizes": "norm_first norm_last growth first_token outlier_norm left_out",
           "identity": "updates is_x within every_entry"}),
    _t("per_head", {"heads", "x", "query", "keys", "dots", "scale", "softmax", "values",
                    "matrix", "diagonal", "grid"}, ANY_MODEL, 1, "PerHeadScene"),
    _t("bank_drift", {"similarity", "projection", "table", "probe", "measured"}, ANY_MODEL, 2,
       "BankDriftScene", moments={
           "projection": "each_layer choice separation flat_view",
           "table": "studies early identity middle syntax late meaning overlap early_span "
                    "middle_span late_span",
           "probe": "read_label vectors_of scored_on itself pos_embedding pos_middle pos_output "
                    "guessing coin_toss sense_embedding sense_percent not_known by_layer "
                    "keeps_it set_small one_noun probe_shows not_what",
           "measured": "river money start end dip come_back output"}),
    _t("context_qkv", {"sentences", "same", "layers", "compare"}, ANY_MODEL, 2,
       "ContextQKVScene", max_sentences=2),
    _t("attention_depth", {"arcs", "depth", "sink", "heads"}, ANY_MODEL, 1,
       "AttentionDepthScene", max_sentences=1),
    _t("logit_lens", {"lens", "race", "grid", "rank"}, {"decoder"}, 1, "LogitLensScene"),
)}

__all__ = ["ANY_MODEL", "TEMPLATES", "Template"]
