"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for and the plan's view (layerwise_core/templates.py).
Every handler builds what it needs itself (the token row, the plane, the bars), so any
arrangement of the beats renders: no show needs another's state."""

from layerwise_core.templates import ANY_MODEL, template

from .moments import BY_SHOW
from .view import Data

TEMPLATE = template(
    __package__,
    shows={"switch", "tokens", "x", "plane", "attn_out", "mlp_out", "zoom", "journey", "journey_bars", "journey_last", "copies", "direction",
           "sizes", "sink", "identity"},
    kinds=ANY_MODEL, min_sentences=1, scene_class_name="ResidualStreamScene",
    moments={show: " ".join(names) for show, names in BY_SHOW.items()}, view=Data)
