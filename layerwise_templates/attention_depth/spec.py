"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the plan's typed view (layerwise_core/templates.py). Every handler
builds the stage it needs itself (scene.Stage), so no show needs another first."""

from layerwise_core.templates import ANY_MODEL, template

from .view import Data

SHOWS = ("arcs", "depth", "why", "why_last", "sink", "deep_heads", "summary")

TEMPLATE = template(
    __package__,
    shows=set(SHOWS),
    kinds=ANY_MODEL, min_sentences=1, max_sentences=1, scene_class_name="AttentionDepthScene",
    view=Data)
