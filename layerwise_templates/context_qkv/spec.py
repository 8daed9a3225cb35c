"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import ANY_MODEL, template

from .view import Data

TEMPLATE = template(
    __package__,
    shows={"sentences", "same", "entered", "layers", "compare"},
    kinds=ANY_MODEL, min_sentences=2, max_sentences=2, scene_class_name="ContextQKVScene", view=Data)
