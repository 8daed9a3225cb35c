"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import ANY_MODEL, template

TEMPLATE = template(
    __package__,
    shows={"heads", "x", "query", "keys", "dots", "scale", "softmax", "values", "matrix",
           "diagonal", "grid"},
    kinds=ANY_MODEL, min_sentences=1, scene_class_name="PerHeadScene")
