"""The probing set layerwise ships (`data/probe_set.yaml`): short sentences whose every word has
a coarse part of speech, and one ambiguous noun per sentence labelled with its sense.

Each sentence is written `word/TAG word/TAG ...`; its text is the words joined by spaces with
no space before a PUNCT word. The split is by sentence: the last `held_out` sentences of every
(noun, sense) group are held out, the others train the probe, so no sentence is in both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

PROBE_SET = Path(__file__).parent / "data" / "probe_set.yaml"
PUNCT = "PUNCT"


@dataclass(frozen=True)
class ProbeSentence:
    text: str
    words: tuple[tuple[str, str, int, int], ...]    # (word, tag, start, end) character spans
    target: int             # index into `words` of the ambiguous noun
    noun: str
    sense: str
    held_out: bool


def _sentence(spec: str, noun: str, sense: str, held_out: bool, where: str) -> ProbeSentence:
    text, words, target = "", [], None
    for item in spec.split():
        word, sep, tag = item.rpartition("/")
        if not sep or not word or not tag.isupper():
            raise ValueError(f"{where}: {item!r} is not word/TAG")
        if text and tag != PUNCT:
            text += " "
        words.append((word, tag, len(text), len(text) + len(word)))
        text += word
        if target is None and word.lower() == noun:
            target = len(words) - 1
    if target is None:
        raise ValueError(f"{where}: the noun {noun!r} is not in {text!r}")
    return ProbeSentence(text, tuple(words), target, noun, sense, held_out)


def load_probe_set(path: Path = PROBE_SET) -> list[ProbeSentence]:
    """Every sentence of the set in file order; errors name the file and the group."""
    doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    held, senses = int(doc["held_out"]), list(doc["senses"])
    out = []
    for noun, groups in doc["words"].items():
        if sorted(groups) != sorted(senses):
            raise ValueError(f"{path}: words.{noun}: senses {sorted(groups)}, expected {senses}")
        for sense in senses:
            items = groups[sense]
            if len(items) <= held:
                raise ValueError(f"{path}: words.{noun}.{sense}: {len(items)} sentences, "
                                 f"need more than held_out = {held}")
            for i, spec in enumerate(items):
                out.append(_sentence(spec, noun, sense, i >= len(items) - held,
                                     f"{path}: words.{noun}.{sense}[{i}]"))
    texts = [s.text for s in out]
    if len(set(texts)) != len(texts):
        raise ValueError(f"{path}: a sentence appears twice")
    return out
