"""Claims that cannot overstate: every comparison or superlative a beat says is backed.

A storyboard's caption or narration that says "most", "only", "the same", "grows" or "never"
makes a claim about the numbers, and a claim that is not checked goes false, silently, when a
teacher changes the sentence or the model. `findings(sb)` lists each such word that nothing
backs, as `file:line: beats[i].narration: 'most' has no claim behind it (add an expect: or a
placeholder): "<its sentence>"`, at the line of the field (`layerwise lint`).

**The words** (`WORDS`, every inflection listed; matched as whole words, any case):
- more or less of something: more, most, mostly, less, least, fewer, fewest;
- superlatives and comparatives of size and order: larger/largest, smaller/smallest,
  higher/highest, lower/lowest, bigger/biggest, stronger/strongest, weaker/weakest,
  heavier/heaviest, greater/greatest, closer/closest, further/furthest, farther/farthest,
  better/best, worse/worst, sharper/sharpest;
- exclusives and orders: only, first;
- certainty: sure, surely, certain, certainly, confident, confidently;
- sameness and difference: same, identical, identically, differ (differs, differed,
  differing), different, differently, difference(s);
- trends: grow (grows, grew, grown, growing, growth), shrink (shrinks, shrank, shrunk,
  shrinking), rise (rises, rose, risen, rising), fall (falls, fell, fallen, falling), drop
  (drops, dropped, dropping), climb (climbs, climbed, climbing), sharpen (sharpens, sharpened,
  sharpening);
- universals: every, all, always, never, none.
Left out, on purpose: positions in the stack ("deeper", "earlier", "later", "last"), which
say where a layer is, not what was measured; "each" (it distributes, it does not compare);
"top" (always said with its rank, "the top 10").

**Structure is not a claim.** `every`, `all` and `first` quantify over the model's parts far
more often than over measurements ("every layer", "all {data.n_heads} heads", "the first
layer"): they are not findings when the next word, after at most `MAX_FILLERS` of `FILLERS`
(articles, possessives, "of", numbers, a placeholder), is one of `STRUCTURE` (layer, head,
token, sentence, pass, position, entry, number, word, matrix, query, key, value, input,
output, addition, update, sublayer, and plurals). Nor is `same` before what is the same by
construction (`FIXED`: "the same matrices", "the same W", "the same recipe"). "Every row puts
its weight on the token before it" and "the same X" are findings; "every token's key" is
not. `EXEMPT_BEFORE` is the table.

**Backed** means either of:
1. the *sentence* holding the word (the text split into sentences as the voice splits it,
   voice/cues.py, with each placeholder standing for one word) has a placeholder that reads the
   plan's data, a path starting `data.` (`{data.top.word}`, `{max(data.layers[0:23].rank):,}`,
   `{data.a / beat.layer}`): the sentence names what the plan measured, so it says the number
   the comparison rests on, for whatever sentence and model it is planned with;
2. the *beat* has an `expect:` claim that reads the plan's data (a `data.` path): the plan
   stops when it is false. One such claim backs every word of its beat's caption and
   narration: which words a claim is about cannot be read off the text, and a rule that
   guessed would be unsatisfiable or easy to fool. So the rule is loose here, and tight where
   it matters most: a beat with no data claim and no data placeholder in the sentence.
Placeholders and claims on `beat.*` (the storyboard's own layer and head), `model.*` (the
model's shape), `layers`, `sentences` do not back a word: they are what the storyboard or the
architecture fixed, not what the plan measured ("len(sentences) == 3" does not make "all
three take the same path" true).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..voice.cues import split_cues
from .claims import parse_claim
from .paths import PathError, parse_expression
from .placeholders import Placeholder, PlaceholderError, parse

FIELDS = ("caption", "narration")

_FORMS = {                      # lemma: every form matched
    "more": "more", "most": "most mostly", "less": "less", "least": "least",
    "few": "fewer fewest",
    "large": "larger largest", "small": "smaller smallest", "high": "higher highest",
    "low": "lower lowest", "big": "bigger biggest", "strong": "stronger strongest",
    "weak": "weaker weakest", "heavy": "heavier heaviest", "great": "greater greatest",
    "close": "closer closest", "far": "further furthest farther farthest",
    "good": "better best", "bad": "worse worst", "sharp": "sharper sharpest",
    "only": "only", "first": "first",
    "sure": "sure surely certain certainly confident confidently",
    "same": "same identical identically",
    "differ": "differ differs differed differing different differently difference differences",
    "grow": "grow grows grew grown growing growth",
    "shrink": "shrink shrinks shrank shrunk shrinking",
    "rise": "rise rises rose risen rising", "fall": "fall falls fell fallen falling",
    "drop": "drop drops dropped dropping", "climb": "climb climbs climbed climbing",
    "sharpen": "sharpen sharpens sharpened sharpening",
    "every": "every", "all": "all", "always": "always", "never": "never", "none": "none",
}
WORDS = {form: lemma for lemma, forms in _FORMS.items() for form in forms.split()}

STRUCTURE = frozenset(         # the model's parts, and what the plan steps through
    "layer layers head heads token tokens sentence sentences pass passes position positions "
    "entry entries number numbers word words matrix matrices query queries key keys value "
    "values input inputs output outputs addition additions update updates sublayer sublayers"
    .split())
FIXED = frozenset("matrix matrices W weights recipe way".split())   # the same by construction
EXEMPT_BEFORE = {"every": STRUCTURE, "all": STRUCTURE, "first": STRUCTURE, "same": FIXED}
FILLERS = frozenset("the its their his her this these those of a an".split())
MAX_FILLERS = 2
HOLE = "\x00"                   # a placeholder, as one word of its sentence

_WORD = re.compile(r"[A-Za-z]+(?:'s)?|\x00|\d[\d,.]*")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    field: str              # "beats[3].narration"
    word: str               # as written
    sentence: str           # its sentence, placeholders shown as written

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: {self.field}: {self.word!r} has no claim behind it "
                f"(add an expect: or a placeholder): \"{self.sentence}\"")


def reads_data(expression: str) -> bool:
    """Whether a placeholder's or claim's expression reads a `data.` path of the plan."""
    try:
        top, _, bottom = parse_expression(expression)
    except PathError:
        return False
    return any(_term_root(t) == "data" for t in (top, bottom) if t is not None)


def _term_root(term: tuple):
    if term[0] == "#":
        return None
    steps = term[2] if term[0] == "()" else term
    return steps[0]


def claims_data(expect) -> bool:
    """Whether any of a beat's `expect:` claims reads the plan's data."""
    for text in expect:
        try:
            claim = parse_claim(text)
        except ValueError:
            continue
        if any(_term_root(t) == "data" for t in claim.expression[::2] if t is not None):
            return True
    return False


def sentences(text: str) -> list[tuple[str, bool, str]]:
    """(sentence with placeholders as HOLE, whether a placeholder in it reads data, the
    sentence as written) for each sentence of a caption or narration."""
    try:
        pieces = parse(text)
    except PlaceholderError:
        return []                       # `layerwise validate` reports it
    holes = [p for p in pieces if isinstance(p, Placeholder)]
    flat = "".join(p if isinstance(p, str) else HOLE for p in pieces)
    out, k = [], 0
    for s in split_cues(flat):
        mine = holes[k:k + s.count(HOLE)]
        k += len(mine)
        holes_left = iter(mine)
        written = re.sub(HOLE, lambda _: next(holes_left).text, s)
        out.append((s, any(reads_data(h.expression) for h in mine), written))
    return out


def said(sentence: str) -> list[str]:
    """The comparison words of a sentence (placeholders as HOLE), as written, in order; one
    of EXEMPT_BEFORE before one of its nouns is left out."""
    tokens = _WORD.findall(sentence)
    out = []
    for i, t in enumerate(tokens):
        if t.lower() not in WORDS:
            continue
        if _before(tokens[i + 1:], EXEMPT_BEFORE.get(t.lower(), ())):
            continue
        out.append(t)
    return out


def _before(rest: list[str], nouns) -> bool:
    """Whether one of `nouns` comes next, after at most MAX_FILLERS FILLERS."""
    for t in rest[:MAX_FILLERS + 1]:
        word = t.removesuffix("'s")
        if word in nouns or word.lower() in nouns:
            return True
        if not (word in FILLERS or t == HOLE or t[0].isdigit()):
            return False
    return False


def findings(sb) -> list[Finding]:
    """Every comparison word of a validated storyboard that nothing backs (see above), in the
    order of the file."""
    out = []
    for i, beat in enumerate(sb.beats):
        if claims_data(beat.expect):
            continue
        for name in FIELDS:
            for flat, backed, written in sentences(getattr(beat, name)):
                if backed:
                    continue
                out += [Finding(str(sb.path), sb.line(("beats", i, name)),
                                f"beats[{i}].{name}", word, written) for word in said(flat)]
    return out
