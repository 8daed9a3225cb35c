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
INSET = "inset"                 # (round 36) "magnified here": the X^(L) corner's box
# (round 37) "In all 384 coordinates": the own arrows' full lengths as bars (the box leaves);
# "the shared arrow lies nearly in the plane": its shadow, drawn side-on, fills its bar;
# "each own arrow points mostly off the plane": one own arrow's shadow, then every own fill;
# "so the net moves ... mostly the shared arrow": the shared arrows and their bar lit
FULL, LIES_IN, LIES_OFF, NET = "full", "lies_in", "lies_off", "net"
# (round 38) "what differs between the banks, their own arrows ...": the own arrows and their
# bars lit (the split tied to the title's question; round 39 cut "banks one and two start at
# the same X zero", same_start)
NET_OWN = "net_own"
# (round 39) "for scale, sentence one's output state is 10.1 long": said under the shared bar
# (the caption names it); "so most of the money bank's raw last fall is a fall all words
# share": the adjusted curves' last steps lit again
NORM, LESSON = "norm", "lesson"
# gap
GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT = (
    "gap_defined", "cancels", "together", "opens", "gap_end", "caveat")
SHARED, POSITION = "shared", "position"     # the gap's caveats, one at a time
# (round 36, each optional) the near curve, the far curve, then the bars, each as it is named;
# "its widest": a line from the last bar's top back over the others
NEAR_CURVE, FAR_CURVE, BARS, WIDEST = "near_curve", "far_curve", "bars", "widest"
# answer (round 35: the closing, on the gap's chart): the gap named, its end (the last bar and
# its number), (round 37) the part of it the last step adds; the shared word underlined in the
# key; then the split's bars: the move all three share, and the parts off the plane
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
    "split": (SPLIT, ONE_ARROW, MEAN_START, MEAN_END, NORM, INSET, OWN_START, OWN, FULL, HALF,
              SHARED_SUM, NOT_MEASURED, WAYS, LIES_IN, LIES_OFF, NET, NET_OWN),
    "gap": (GAP_DEFINED, NEAR_CURVE, FAR_CURVE, BARS, CANCELS, TOGETHER, OPENS, GAP_END, WIDEST,
            CAVEAT, SHARED, POSITION),
    "answer": (CLOSE_GAP, CLOSE_END, CLOSE_LAST, CLOSE_SHARED, CLOSE_MOVE, CLOSE_OFF),
}
