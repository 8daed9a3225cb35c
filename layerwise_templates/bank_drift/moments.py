"""The moments bank_drift's handlers wait for, declared once: spec.py registers them and the
scene waits on these very names (a storyboard's `moments:` says where each is spoken)."""

# similarity: the raw curves
SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END = (
    "sentences", "reference", "each_other", "money_end", "river_end")
SAME_POS = "same_pos"           # "the same position": the positions come, the curve waits
TURN_AWAY = "turn_away"         # the raw curves' answer: both ends lit
# baseline
UNRELATED, BASELINE_PEAK, SUBTRACT, ADJUSTED_ENDS = (
    "unrelated", "baseline_peak", "subtract", "adjusted_ends")
BASE_FALLS = "base_falls"       # the baseline's last step, with the money curve's
RISES = "rises"                 # the adjusted curves' last step: the near one rises, far falls
# projection
PLANE, AXES, SAME_PATH, IN_PLANE, SENTENCE_MOVES, OFF_PLANE = (
    "plane", "axes", "same_path", "in_plane", "sentence_moves", "off_plane")
CLOUD, DIRECTIONS, PC2 = "cloud", "directions", "pc2"     # PCA happening: states, PC1, PC2
# the split, one statement at a time: the shared part; each sentence's own part
SPLIT, OWN = "split", "own"
WAYS = "ways"                   # the own arrows lie mostly off the plane: the bars fill
HALF = "half"                   # "under half as long": the own arrow laid beside the shared one
OWN_START = "own_start"         # "drawn from each bank's own start": the columns' start dots
MEAN_START, MEAN_END, PATH_TOGETHER = "mean_start", "mean_end", "path_together"   # the
# shared arrow's ends named, then the paths it stands for
SHARED_SUM = "shared_sum"       # the answer: the shared arrow, lit as it is said
NOT_MEASURED = "not_measured"   # "why they share it is not measured here": said on screen too
ONE_ARROW = "one_arrow"         # "one arrow all three banks share": the mean start, the arrow grows
# gap
GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT = (
    "gap_defined", "cancels", "together", "opens", "gap_end", "caveat")
SHARED, POSITION = "shared", "position"     # the gap's caveats, one at a time
# answer (round 35: the closing, on the gap's chart alone): the gap named (its bars rise),
# its early flat part (the band), its end (the last bar and its number)
CLOSE_GAP, CLOSE_FLAT, CLOSE_END = "close_gap", "close_flat", "close_end"

BY_SHOW = {
    "similarity": (SENTENCES, REFERENCE, EACH_OTHER, SAME_POS, MONEY_END, RIVER_END, TURN_AWAY),
    "baseline": (UNRELATED, BASELINE_PEAK, BASE_FALLS, SUBTRACT, ADJUSTED_ENDS, RISES),
    "projection": (CLOUD, DIRECTIONS, PLANE, AXES, PC2, SAME_PATH, IN_PLANE, SENTENCE_MOVES,
                   OFF_PLANE),
    "split": (SPLIT, ONE_ARROW, MEAN_START, MEAN_END, OWN_START, OWN, HALF,
              SHARED_SUM, NOT_MEASURED, WAYS),
    "gap": (GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT, SHARED, POSITION),
    "answer": (CLOSE_GAP, CLOSE_FLAT, CLOSE_END),
}
