"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import ANY_MODEL, template

TEMPLATE = template(
    __package__,
    shows={"tokens", "x", "attn_out", "mlp_out", "journey", "sizes", "identity"},
    kinds=ANY_MODEL, min_sentences=1, scene_class_name="ResidualStreamScene",
    moments={
        "tokens": "space_mark",
        "x": "numbers length reads writes",
        "journey": "plane_note",
        "sizes": "norm_first norm_last growth first_token outlier_norm left_out",
        "identity": "updates is_x within every_entry"})
