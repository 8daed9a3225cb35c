"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import template

from .moments import SHOWS, V, X
from .view import Data

TEMPLATE = template(
    __package__,
    shows=SHOWS,
    kinds={"toy"}, min_sentences=1, scene_class_name="ToyLoopScene",
    # the update adds 0.1 V tip to tail to X's arrow: both must be on stage (q/k/v draw X's
    # numbers themselves when they are missing, but only `x` draws its arrow)
    builds={X: "x_arrow", V: "v"},
    needs={"update": "x_arrow v"},
    view=Data)
