"""A `tokenizers` tokenizer as the models use it: ids, display strings, character offsets.

The display string of a token is the text it stands for: WordPiece pieces as they are
("##ing", "[CLS]"), byte-level BPE pieces decoded from GPT-2's byte alphabet (" bank"; a token
holding only part of a UTF-8 character shows the missing bytes as escapes: " \\xe6" is the
first byte of " 東"), SentencePiece pieces with "▁" as a space and `<0xE6>` as "\\xe6".
"""

from __future__ import annotations

import json
import re

from tokenizers import Tokenizer

from ..tokens import Tokenized

_SP_BYTE = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")


def _byte_alphabet() -> dict[str, int]:
    """GPT-2's byte-level alphabet, inverted: the vocabulary character that stands for each byte."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = {}, 0
    for byte in range(256):
        if byte in printable:
            chars[chr(byte)] = byte
        else:
            chars[chr(256 + extra)] = byte
            extra += 1
    return chars


_BYTE_OF = _byte_alphabet()


def _style(tokenizer: Tokenizer) -> str:
    """"bytes" (byte-level BPE), "sentencepiece" (▁ for spaces) or "plain" (WordPiece...).
    Reads only the decoder's and pre-tokenizer's own JSON (not the whole vocabulary)."""
    def types(node) -> set[str]:
        if not isinstance(node, dict):
            return set()
        out = {node.get("type")}
        for key in ("decoders", "pretokenizers"):
            for sub in node.get(key) or []:
                out |= types(sub)
        return out

    found = set()
    for part in (tokenizer.decoder, tokenizer.pre_tokenizer):
        if part is not None:
            found |= types(json.loads(part.__getstate__()))
    if "ByteLevel" in found:
        return "bytes"
    if "Metaspace" in found or "Replace" in found or "ByteFallback" in found:
        return "sentencepiece"
    return "plain"


class Text:
    def __init__(self, tokenizer: Tokenizer):
        tokenizer.no_padding()      # a shipped tokenizer.json may pad every sentence
        tokenizer.no_truncation()   # and truncate; too-long sentences must raise instead
        self.tokenizer = tokenizer
        self.style = _style(tokenizer)
        self.specials = {t.content for t in tokenizer.get_added_tokens_decoder().values()}

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.get_vocab_size(with_added_tokens=True)

    def encode(self, sentence: str) -> Tokenized:
        """The tokenizer's own special tokens (BERT's [CLS] ... [SEP], a Llama's BOS) included."""
        enc = self.tokenizer.encode(sentence)
        return Tokenized(ids=tuple(enc.ids), tokens=tuple(self.token_string(i) for i in enc.ids),
                         offsets=tuple((int(s), int(e)) for s, e in enc.offsets))

    def token_string(self, token_id: int) -> str:
        piece = self.tokenizer.id_to_token(int(token_id))
        if piece is None:
            raise IndexError(f"token id {token_id} is outside the vocabulary "
                             f"({self.vocab_size} tokens)")
        if piece in self.specials or self.style == "plain":
            return piece
        if self.style == "bytes":
            if all(ch in _BYTE_OF for ch in piece):
                return bytes(_BYTE_OF[ch] for ch in piece).decode("utf-8", errors="backslashreplace")
            return piece
        m = _SP_BYTE.match(piece)
        return f"\\x{m.group(1).lower()}" if m else piece.replace("▁", " ")
