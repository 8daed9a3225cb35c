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
