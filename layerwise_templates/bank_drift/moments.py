"""The moments bank_drift's handlers wait for, declared once: spec.py registers them and the
scene waits on these very names (a storyboard's `moments:` says where each is spoken)."""

# similarity: the raw curves
SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END = (
    "sentences", "reference", "each_other", "money_end", "river_end")
# baseline
UNRELATED, BASELINE_PEAK, SUBTRACT, ADJUSTED_ENDS = (
    "unrelated", "baseline_peak", "subtract", "adjusted_ends")
# projection
PLANE, SAME_PATH, LAYERS_MOVE, SENTENCE_MOVES, FARTHEST, OFF_PLANE = (
    "plane", "same_path", "layers_move", "sentence_moves", "farthest", "off_plane")
# table (unchanged names)
TABLE = ("studies", "early", "identity", "middle", "syntax", "late", "meaning", "overlap",
         "early_span", "middle_span", "late_span")
# probe (unchanged names)
PROBE = ("read_label", "vectors_of", "scored_on", "itself", "pos_embedding", "pos_middle",
         "pos_output", "guessing", "coin_toss", "sense_embedding", "sense_percent", "not_known",
         "by_layer", "keeps_it", "at_once", "set_small", "one_noun", "probe_shows", "not_what")
# gap
GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, LAST_DROP, BASELINE_DROP, RIVER_RISE, CAVEAT = (
    "gap_defined", "cancels", "together", "opens", "gap_end", "last_drop", "baseline_drop",
    "river_rise", "caveat")

BY_SHOW = {
    "similarity": (SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END),
    "baseline": (UNRELATED, BASELINE_PEAK, SUBTRACT, ADJUSTED_ENDS),
    "projection": (PLANE, SAME_PATH, LAYERS_MOVE, SENTENCE_MOVES, FARTHEST, OFF_PLANE),
    "table": TABLE,
    "probe": PROBE,
    "gap": (GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, LAST_DROP, BASELINE_DROP, RIVER_RISE,
            CAVEAT),
}
