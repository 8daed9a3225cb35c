"""This template's registry entry: what its beats may show, the models and sentences it
takes, the scene class, the moments its handlers wait for (layerwise_core/templates.py)."""

from layerwise_core.templates import ANY_MODEL, template

TEMPLATE = template(
    __package__,
    shows={"similarity", "projection", "table", "probe", "measured"},
    kinds=ANY_MODEL, min_sentences=2, scene_class_name="BankDriftScene",
    moments={
        "projection": "each_layer choice separation flat_view",
        "table": "studies early identity middle syntax late meaning overlap early_span "
                 "middle_span late_span",
        "probe": "read_label vectors_of scored_on itself pos_embedding pos_middle pos_output "
                 "guessing coin_toss sense_embedding sense_percent not_known by_layer "
                 "keeps_it set_small one_noun probe_shows not_what",
        "measured": "river money start end dip come_back output"})
