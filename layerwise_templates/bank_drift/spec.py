"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (moments.py), the plan's typed view
(view.py). Every handler builds what it draws on itself (each analysis gets the frame); `answer`
recalls the plane `projection` drew when that beat came before it (round 40 cut `split`, which
drew on it)."""

from layerwise_core.templates import ANY_MODEL, template

from .moments import BY_SHOW
from .view import Data

TEMPLATE = template(
    __package__,
    shows=set(BY_SHOW),
    kinds=ANY_MODEL, min_sentences=3, max_sentences=4, scene_class_name="BankDriftScene",
    moments={show: " ".join(names) for show, names in BY_SHOW.items()},
    view=Data)
