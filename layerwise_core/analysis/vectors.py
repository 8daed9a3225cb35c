"""Where a word sits in a trace, and the stream vectors of that word at every layer."""

from __future__ import annotations

import numpy as np

from ..errors import WordNotFoundError
from ..tokens import Tokenized, word_positions
from ..trace import Trace


def positions(trace: Trace, word: str) -> list[int]:
    """The token positions of `word` ('word' or 'word#N') in the trace's sentence, never
    empty: a word not in the sentence, or one the tokenizer left without a token of its own,
    is a WordNotFoundError listing the tokens."""
    tok = Tokenized(ids=tuple(trace.meta["token_ids"]), tokens=tuple(trace.tokens),
                    offsets=tuple(tuple(o) for o in trace.meta["offsets"]))
    pos = word_positions(trace.sentence, tok, word)
    if not pos:
        raise WordNotFoundError(f"focus {word!r} has no token in {trace.sentence!r}; tokens: "
                                f"{' '.join(repr(s) for s in trace.tokens)}")
    return pos


# What a word is, once for every plan: an entry of the trace's word table (`trace.meta["words"]`,
# layerwise_core.tokens.word_table: the sentence's words and punctuation marks by the same
# pattern `words` splits on, each with all its token positions). A word the tokenizer splits
# ("riverbank" -> "river", "##bank") is one word with two positions everywhere: attention to it
# is the sum over its tokens, its vector the mean of its tokens' (`focus_row`).

def special_positions(trace: Trace) -> list[int]:
    """Token positions the tokenizer added ([CLS], [SEP], BOS): in no word of the sentence and
    covering none of its text (an empty offset span). A piece of the text in no word is not
    one: SmolLM2 splits "At 9:30" into 'At' ' ' '9' ..., and its lone ' ' (span 2..3) was
    counted as a special token, so attention_depth's draft named a blank token the sink."""
    inside = {p for w in trace.meta["words"] for p in w["positions"]}
    spans = trace.meta.get("offsets")
    return [i for i in range(len(trace.tokens)) if i not in inside
            and (spans is None or spans[i][0] == spans[i][1])]


def content_words(trace: Trace, exclude: set[int] = frozenset()) -> list[dict]:
    """The sentence's words proper (not punctuation, not special tokens) in order, each
    {word, ref, positions}, leaving out every word with a token in `exclude` (the focus
    word's own positions) and words the tokenizer gave no token."""
    return [{"word": w["word"], "ref": w["ref"], "positions": list(w["positions"])}
            for w in trace.meta["words"]
            if w["word"][0].isalnum() and w["positions"]
            and not set(w["positions"]) & set(exclude)]


def content_positions(trace: Trace, exclude: set[int] = frozenset()) -> list[int]:
    """Token positions of `content_words` (every token of each), in order."""
    return sorted(p for w in content_words(trace, exclude) for p in w["positions"])


def stream_stages(trace: Trace) -> list[tuple[str, str]]:
    """(label, hook) of every state of the residual stream in order: embedding, then after each
    sublayer's add (and, for post-LN models, after each re-normalisation)."""
    stages = [("embed", "blocks.0.hook_resid_pre")]
    for l in range(trace.n_layers):
        stages += [(label.format(l=l), hook.format(l=l))
                   for label, hook in trace.spec.placement.stages]
    return stages


def layer_states(trace: Trace) -> list[str]:
    """Hook of X^l for l = 0..L: the stream entering each layer, then the final output."""
    L = trace.n_layers
    last = trace.spec.placement.layer_out.format(l=L - 1)
    return [f"blocks.{l}.hook_resid_pre" for l in range(L)] + [last]


def word_vectors(trace: Trace, word: str, hooks: list[str] | None = None) -> np.ndarray:
    """[n_states, d_model]: the word's vector (mean over its tokens) at each hook."""
    pos = positions(trace, word)
    return np.stack([trace[h][pos].mean(axis=0) for h in (hooks or layer_states(trace))])


def attn_input(trace: Trace, layer: int) -> np.ndarray:
    """What W_Q, W_K, W_V multiply at `layer`: LN(X) for pre-norm models, X itself for post-LN
    (where X was already normalised at the end of the previous layer), X for the toy."""
    return trace[trace.spec.placement.attn_in.format(l=layer)]
