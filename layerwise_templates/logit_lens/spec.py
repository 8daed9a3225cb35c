"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the beat state each handler needs and builds, and the plan's view
(layerwise_core/templates.py)."""

from layerwise_core.templates import template

from .moments import GRID, KL, LENS, PROMPTS, RACE, RANK, SHOWS, SPREAD
from .view import Data

TEMPLATE = template(
    __package__,
    shows=set(SHOWS),
    kinds={"decoder"}, min_sentences=1, scene_class_name="LogitLensScene",
    # every handler builds what it draws from the plan alone (the race opens its own chart,
    # the rank plot and the prompts plot their own axes): nothing is needed from earlier beats
    needs={},
    builds={LENS: "lens_panel", RACE: "race", GRID: "grid", RANK: "rank_plot",
            PROMPTS: "prompts_plot", SPREAD: "entropy_plot",
            KL: "kl_plot"},
    view=Data)
