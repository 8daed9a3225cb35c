"""The moments bank_drift's handlers wait for, declared once: spec.py registers them and the
scene waits on these very names (a storyboard's `moments:` says where each is spoken)."""

# similarity: the raw curves
SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END = (
    "sentences", "reference", "each_other", "money_end", "river_end")
SAME_POS = "same_pos"           # "the same position": the positions come, the curve waits
TURN_AWAY = "turn_away"         # the raw curves' answer: both ends lit
# (round 36, each optional) "... starts at 1.00": X^(0)'s dot and number lit; "as the same
# token": the two banks' words boxed (no still picture before the positions come)
STARTS, SAME_TOKEN = "starts", "same_token"
# (round 38) "another position": the second curve's position tag comes on those words (it
# came a second before them)
OTHER_POS = "other_pos"
# baseline
UNRELATED, BASELINE_PEAK, SUBTRACT, ADJUSTED_ENDS = (
    "unrelated", "baseline_peak", "subtract", "adjusted_ends")
BASE_FALLS = "base_falls"       # the baseline's last step, with the money curve's
RISES = "rises"                 # the adjusted curves' last step: the near one rises, far falls
# (round 36, optional) "is mostly": the baseline's fall bar moves onto the money curve's;
# "the money bank falls": the far curve's last step and its number (after the near one's)
MOSTLY, FALLS_FAR = "mostly", "falls_far"
# projection
PLANE, AXES, SAME_PATH, IN_PLANE, SENTENCE_MOVES, OFF_PLANE = (
    "plane", "axes", "same_path", "in_plane", "sentence_moves", "off_plane")
CLOUD, DIRECTIONS, PC2 = "cloud", "directions", "pc2"     # PCA happening: states, PC1, PC2
# (round 39) "so most of the money bank's raw last fall is a fall all words share": the
# adjusted curves' last steps lit again
LESSON = "lesson"
# gap
GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT = (
    "gap_defined", "cancels", "together", "opens", "gap_end", "caveat")
SHARED, POSITION = "shared", "position"     # the gap's caveats, one at a time
# (round 36, each optional) the near curve, the far curve, then the bars, each as it is named;
# "its widest": a line from the last bar's top back over the others
NEAR_CURVE, FAR_CURVE, BARS, WIDEST = "near_curve", "far_curve", "bars", "widest"
# answer (round 35: the closing, on the gap's chart): the gap named, its end (the last bar and
# its number), (round 37) the part of it the last step adds; the shared word underlined in the
# key; then (round 40: the split into shared and own arrows cut) the PCA plane recalled: the
# three paths alike in it, then the two ends' distances, in it and in the full space
CLOSE_GAP, CLOSE_END, CLOSE_LAST = "close_gap", "close_end", "close_last"
CLOSE_SHARED = "close_shared"
CLOSE_MOVE, CLOSE_OFF = "close_move", "close_off"

BY_SHOW = {
    "similarity": (SENTENCES, REFERENCE, EACH_OTHER, STARTS, SAME_TOKEN, SAME_POS, MONEY_END,
                   OTHER_POS, RIVER_END, TURN_AWAY),
    "baseline": (UNRELATED, BASELINE_PEAK, BASE_FALLS, MOSTLY, SUBTRACT, ADJUSTED_ENDS, RISES,
                 FALLS_FAR, LESSON),
    "projection": (CLOUD, DIRECTIONS, PLANE, AXES, PC2, SAME_PATH, IN_PLANE, SENTENCE_MOVES,
                   OFF_PLANE),
    "gap": (GAP_DEFINED, NEAR_CURVE, FAR_CURVE, BARS, CANCELS, TOGETHER, OPENS, GAP_END, WIDEST,
            CAVEAT, SHARED, POSITION),
    "answer": (CLOSE_GAP, CLOSE_END, CLOSE_LAST, CLOSE_SHARED, CLOSE_MOVE, CLOSE_OFF),
}
