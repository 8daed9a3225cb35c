"""The moments bank_drift's handlers wait for, declared once: spec.py registers them and the
scene waits on these very names (a storyboard's `moments:` says where each is spoken)."""

# similarity: the raw curves
SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END = (
    "sentences", "reference", "each_other", "money_end", "river_end")
TURN_AWAY = "turn_away"         # the raw curves' answer: both ends lit
# baseline
UNRELATED, BASELINE_PEAK, SUBTRACT, ADJUSTED_ENDS = (
    "unrelated", "baseline_peak", "subtract", "adjusted_ends")
BASE_FALLS = "base_falls"       # the baseline's last step, with the money curve's
# projection
PLANE, AXES, SAME_PATH, UNITS, IN_PLANE, SENTENCE_MOVES, OFF_PLANE, ANSWER = (
    "plane", "axes", "same_path", "units", "in_plane", "sentence_moves", "off_plane", "answer")
CLOUD, DIRECTIONS, PC2 = "cloud", "directions", "pc2"     # PCA happening: states, PC1, PC2
# the answer, one statement at a time: the move against X^(L)'s own length; the shared part;
# each sentence's own part
FAR, SPLIT, OWN = "far", "split", "own"
ACROSS, WAYS = "across", "ways"     # the parts add as arrows; the own arrows point apart
MOVE_FAR = "move_far"           # "the layers move it far": the reference's full move lit
OWN_LENGTH = "own_length"       # "sentence one's bank at the output is itself 10.1 long": its bar, to scale
HALF = "half"                   # "under half as long": the own arrow laid beside the shared one
OWN_START = "own_start"         # "drawn from each bank's own start": the columns' start dots
MEAN_START, MEAN_END, PATH_TOGETHER = "mean_start", "mean_end", "path_together"   # the
# shared arrow's ends named, then the paths it stands for
NEARLY_ACROSS, SIMPLY_SUM = "nearly_across", "simply_sum"   # each own arrow's angle marked
SHARED_SUM, ADDS_MOST = "shared_sum", "adds_most"   # the answer: the shared arrow, then the
# longest own arrow (what context adds), each lit as its number is said
ONE_ARROW = "one_arrow"         # "one arrow all three banks share": the mean start, the arrow grows
# probe
BOTH_SENSES = "both_senses"
READ_LABEL = "read_label"
VECTORS_OF = "vectors_of"
SCORED_ON = "scored_on"
ITSELF = "itself"
POS_EMBEDDING = "pos_embedding"
TOKEN_ONLY = "token_only"       # X^(0) holds only the token and its position
POS_MIDDLE = "pos_middle"
POS_OUTPUT = "pos_output"
GUESSING = "guessing"
COIN_TOSS = "coin_toss"
SENSE_EMBEDDING = "sense_embedding"
SENSE_PERCENT = "sense_percent"
TOKEN_ALONE = "token_alone"
BY_LAYER = "by_layer"
KEEPS_IT = "keeps_it"
AT_ONCE = "at_once"
SENSE_TO = "sense_to"           # "from near a coin toss to 86": X^(0), then X^(1) lit
POS_ALREADY = "pos_already"     # "while part of speech ... is already 92": its X^(0) lit
NEIGHBOURS = "neighbours"       # "a noun's state already carries its neighbouring words"
BAND = "band"                   # the chapter's late span, named as the project's mapping
EARLIER = "earlier"             # sense readable well before that band (X^(1) lit)
NOT_BANK = "not_bank"           # other nouns, not bank: bank's gap bars come back
PROBE_ASKS = "probe_asks"       # "a probe asks ...": sense's X^(1) lit
GAP_ASKS = "gap_asks"           # "the cosine gap asks ...": the gap's X^(L) bar lit
SET_SMALL = "set_small"
ONE_NOUN = "one_noun"
PROBE_SHOWS = "probe_shows"
NOT_WHAT = "not_what"
PROBE = (BOTH_SENSES, READ_LABEL, VECTORS_OF, SCORED_ON, ITSELF, POS_EMBEDDING, TOKEN_ONLY,
         POS_MIDDLE, POS_OUTPUT, GUESSING, COIN_TOSS, SENSE_EMBEDDING, SENSE_PERCENT,
         TOKEN_ALONE, BY_LAYER, KEEPS_IT,
         BAND, EARLIER, NEIGHBOURS, NOT_BANK, PROBE_ASKS, GAP_ASKS, SET_SMALL, ONE_NOUN, PROBE_SHOWS, NOT_WHAT)
# gap
GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT = (
    "gap_defined", "cancels", "together", "opens", "gap_end", "caveat")
SHARED, POSITION = "shared", "position"     # the gap's caveats, one at a time

BY_SHOW = {
    "similarity": (SENTENCES, REFERENCE, EACH_OTHER, MONEY_END, RIVER_END, TURN_AWAY),
    "baseline": (UNRELATED, BASELINE_PEAK, BASE_FALLS, SUBTRACT, ADJUSTED_ENDS),
    "projection": (CLOUD, DIRECTIONS, PLANE, AXES, PC2, SAME_PATH, UNITS, IN_PLANE, SENTENCE_MOVES, OFF_PLANE, SPLIT, ONE_ARROW, MEAN_START, MEAN_END, PATH_TOGETHER, OWN_START, OWN, HALF, ACROSS, NEARLY_ACROSS, SIMPLY_SUM, SHARED_SUM, ADDS_MOST, WAYS),
    "probe": PROBE,
    "gap": (GAP_DEFINED, CANCELS, TOGETHER, OPENS, GAP_END, CAVEAT, SHARED, POSITION),
}
