"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the plan's typed view (layerwise_core/templates.py)."""

from layerwise_core.templates import ANY_MODEL, template

from .view import Data

TEMPLATE = template(
    __package__,
    shows={"x", "ffn", "project", "fresh", "matrices", "compare", "sweep", "check"},
    kinds=ANY_MODEL, min_sentences=1, scene_class_name="FreshQKVScene", view=Data)
# A whole layer, then the next (docs/chapter.md 4.3): X^(0) + Δattn^(0) along the skip path, the
# LayerNorm after the add, the FFN's update on a second skip path and LayerNorm again (X^(1)),
# layer 1 multiplying X^(1) by its own W_Q, W_K, W_V, its W_Q against layer 0's (every pair of
# heads), the new X alone through layer 0's matrices, the sweep, and the recompute check. Every
# handler builds what it needs from the plan (the scene's Stage keeps what an earlier beat left
# on screen, so a following beat continues it), so every arrangement of the beats renders: no
# needs/builds to declare.
