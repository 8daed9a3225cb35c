"""The moments residual_stream's handlers wait for, per show name: declared once, read by
spec.py (so `layerwise validate` knows them) and by the scene (`hold_until_moment(M.LENGTH)`)."""

SPACE_MARK = "space_mark"
NUMBERS, LENGTH, ALONE = "numbers", "length", "alone"
STATES, SPREAD, SHADOW, BARS = "states", "spread", "shadow", "bars"
FORMULA, RANGE, X_GROWS = "formula", "range", "x_grows"
NORM_FIRST, NORM_LAST, GROWTH = "norm_first", "norm_last", "growth"
FIRST_TOKEN, OUTLIER_NORM, SHARE = "first_token", "outlier_norm", "share"
OTHERS = "others"
UPDATE, LENGTHS, ZOOM, EVERY = "update", "lengths", "zoom", "every"
DIVIDES, SHRINKS = "divides", "shrinks"
LARGEST, X_ENDS, MEDIANS = "largest", "x_ends", "medians"
UPDATES, IS_X, WITHIN, EVERY_ENTRY = "updates", "is_x", "within", "every_entry"
DIPS, REACH, CLOSE = "dips", "reach", "close"
TURNS, APART, MOST = "turns", "apart", "most"
Z_ATTN, Z_FFN, Z_ANGLE, Z_NEXT = "z_attn", "z_ffn", "z_angle", "z_next"
Z_X, AMONG, Z_READS = "z_x", "among", "z_reads"
FFN_READ = "ffn_read"     # a short leg's FFN lengths start being read: its walk starts

BY_SHOW = {
    "tokens": (SPACE_MARK,),
    "x": (NUMBERS, LENGTH, ALONE),
    "plane": (STATES, SPREAD, SHADOW, BARS),
    "attn_out": (DIVIDES, SHRINKS),
    "mlp_out": (UPDATE, LENGTHS, ZOOM, EVERY),
    "zoom": (Z_X, Z_READS, Z_ATTN, Z_FFN, Z_ANGLE, Z_NEXT),
    "journey": (DIPS, REACH, CLOSE, MEDIANS, AMONG, FFN_READ),
    "journey_bars": (REACH, MEDIANS, FFN_READ),
    "journey_last": (LARGEST, X_ENDS, MEDIANS),
    "copies": (FORMULA, RANGE, X_GROWS),
    "direction": (TURNS, MOST, APART),
    "sizes": (NORM_FIRST, NORM_LAST, GROWTH),
    "sink": (OTHERS, FIRST_TOKEN, OUTLIER_NORM, SHARE),
    "identity": (UPDATES, IS_X, WITHIN, EVERY_ENTRY),
}
