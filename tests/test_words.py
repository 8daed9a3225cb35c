"""Words of a sentence -> token positions, for both tokenizers' offsets."""

from layerwise_core.tokens import Tokenized, word_positions, word_table, words


def tok(*pieces):
    """A fake tokenizer output from (text, start, end) triples."""
    return Tokenized(ids=tuple(range(len(pieces))), tokens=tuple(p[0] for p in pieces),
                     offsets=tuple((p[1], p[2]) for p in pieces))


def test_split_word_gives_all_its_tokens():
    s = "the embeddings"
    t = tok(("[CLS]", 0, 0), ("the", 0, 3), ("em", 4, 6), ("##bed", 6, 9), ("##dings", 9, 14),
            ("[SEP]", 0, 0))
    assert word_positions(s, t, "embeddings") == [2, 3, 4]
    assert word_positions(s, t, "THE") == [1]


def test_second_occurrence_and_byte_level_offsets():
    s = "bank by the bank"
    # byte-level BPE offsets may include the leading space (" bank")
    t = tok(("bank", 0, 4), (" by", 4, 7), (" the", 7, 11), (" bank", 11, 16))
    assert word_positions(s, t, "bank") == [0]
    assert word_positions(s, t, "bank#2") == [3]
    refs = [w["ref"] for w in word_table(s, t)]
    assert refs == ["bank", "by", "the", "bank#2"]


def test_words_keep_punctuation_and_contractions():
    assert [w for w, _, _ in words("Don't stop, bank!")] == ["Don't", "stop", ",", "bank", "!"]


def test_real_tokenizer_positions(minilm_bank):
    from layerwise_core.analysis.vectors import positions
    assert minilm_bank.tokens[positions(minilm_bank, "bank")[0]] == "bank"
    assert minilm_bank.tokens[positions(minilm_bank, "river")[0]] == "river"


class _Trace:
    """Just what the word helpers and `context_pick` read: tokens, the word table, one
    attention pattern."""
    def __init__(self, sentence, t, pattern):
        self.sentence, self.tokens = sentence, list(t.tokens)
        self.meta = {"words": word_table(sentence, t)}
        self._p = pattern

    def __getitem__(self, key):
        assert key == "blocks.0.attn.hook_pattern"
        return self._p


def test_a_split_word_is_one_word_in_every_plan_helper():
    """'riverbank' tokenized as 'river' + '##bank' is one word with two positions for the
    special and content positions and for fresh_qkv's pick, whose weight is the word's sum:
    0.2 + 0.2 = 0.4 beats 'money''s 0.3, though each piece alone would lose to it."""
    import numpy as np
    from layerwise_core.analysis.vectors import content_positions, content_words, \
        special_positions
    from layerwise_templates.fresh_qkv.plan import context_pick
    s = "bank riverbank money ."
    t = tok(("[CLS]", 0, 0), ("bank", 0, 4), ("river", 5, 10), ("##bank", 10, 14),
            ("money", 15, 20), (".", 21, 22), ("[SEP]", 0, 0))
    row = np.array([0.05, 0.0, 0.2, 0.2, 0.3, 0.2, 0.05])
    trace = _Trace(s, t, np.tile(row, (2, 7, 1)))
    assert special_positions(trace) == [0, 6]
    assert [(w["word"], w["positions"]) for w in content_words(trace, {1})] == \
        [("riverbank", [2, 3]), ("money", [4])]
    assert content_positions(trace, {1}) == [2, 3, 4]
    pick = context_pick(trace, [1])
    assert (pick["token"], pick["positions"], pick["position"]) == ("riverbank", [2, 3], 2)
    assert abs(pick["weight"] - 0.4) < 1e-12 and abs(pick["own"]) < 1e-12


def test_a_stray_space_is_no_special_token(cache_dir):
    """SmolLM2 adds no special tokens and splits "At 9:30" into 'At' ' ' '9': the lone space
    is in no word but covers text, so it is not a special token (it was taken for one, and
    attention_depth's draft named a blank token its sink); MiniLM's [CLS] and [SEP] are."""
    from layerwise_core.analysis.vectors import special_positions
    from layerwise_core.tracing import get_trace
    s = "At 9:30, José's bank opened its doors."
    t = get_trace("smollm2-135m", s, cache_dir=cache_dir)
    assert t.tokens[:3] == ["At", " ", "9"]
    assert all(1 not in w["positions"] for w in t.meta["words"])
    assert special_positions(t) == []
    m = get_trace("minilm-l6", s, cache_dir=cache_dir)
    assert [m.tokens[i] for i in special_positions(m)] == ["[CLS]", "[SEP]"]


def test_a_decoders_sink_is_its_first_token(cache_dir):
    """attention_depth's sink (analysis.attention_depth.sink_of): MiniLM's [CLS] and
    [SEP]; SmolLM2 adds none, so its first token, 'At' (the one every later token sees), and the
    sink share the plan charts is the focus row's weight there; the plan refuses a focus word
    that is that token, one line naming the limit."""
    import numpy as np
    from layerwise_core.analysis.attention_depth import attention_rows, sink_of
    from layerwise_core.tracing import get_trace
    from layerwise_templates.attention_depth.plan import cannot_chart
    s = "At 9:30, José's bank opened its doors."
    t = get_trace("smollm2-135m", s, cache_dir=cache_dir)
    assert sink_of(t) == ("first", [0]) and t.tokens[0] == "At"
    rows = attention_rows(t, [9])
    assert t.tokens[9] == " bank" and rows["sink_kind"] == "first" and rows["special"] == [0]
    p = np.asarray(t["blocks.5.attn.hook_pattern"], np.float64)
    assert abs(rows["sink"][5] - p[:, 9, 0].mean()) < 1e-12
    assert cannot_chart(t, "bank", [9]) is None
    assert "'At' is the first token" in cannot_chart(t, "At", [0])
    m = get_trace("minilm-l6", s, cache_dir=cache_dir)
    assert sink_of(m) == ("special", [0, len(m.tokens) - 1])
