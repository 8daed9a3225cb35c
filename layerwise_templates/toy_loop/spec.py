"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import template

TEMPLATE = template(
    __package__,
    shows={"code", "x", "q", "k", "v", "update", "note"},
    kinds={"toy"}, min_sentences=1, scene_class_name="ToyLoopScene",
    # the update adds 0.1 V tip to tail to X's arrow: both must be on stage (q/k/v draw X's
    # numbers themselves when they are missing, but only `x` draws its arrow)
    builds={"x": "x_arrow", "v": "v"},
    needs={"update": "x_arrow v"})
