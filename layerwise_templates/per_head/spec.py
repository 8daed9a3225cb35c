"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, and the beat state each handler needs and builds
(layerwise_core/templates.py): `layerwise validate` refuses an arrangement the scene cannot
render."""

from layerwise_core.templates import ANY_MODEL, template

from . import moments as M
from .view import Data

TEMPLATE = template(
    __package__,
    shows=set(M.SHOWS),
    kinds=ANY_MODEL, min_sentences=1, scene_class_name="PerHeadScene", view=Data,
    needs={M.QUERY: "x", M.KEYS: "q", M.DOTS: "keys", M.SCALE: "dots", M.EXP: "scores",
           M.SOFTMAX: "exps", M.VALUES: "weights", M.DIAGONAL: "matrix"},
    builds={M.X: "x", M.QUERY: "q", M.KEYS: "keys", M.DOTS: "dots", M.SCALE: "scores",
            M.EXP: "exps", M.SOFTMAX: "weights", M.VALUES: "out", M.MATRIX: "matrix",
            M.JOIN: "join"})
