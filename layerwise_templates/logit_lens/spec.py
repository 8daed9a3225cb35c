"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import template

TEMPLATE = template(
    __package__,
    shows={"lens", "race", "grid", "rank"},
    kinds={"decoder"}, min_sentences=1, scene_class_name="LogitLensScene")
