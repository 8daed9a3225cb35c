"""One theme for every scene: colours per quantity, type sizes, spacing, number formats."""

from __future__ import annotations

from manim import DOWN, LEFT, MED_LARGE_BUFF, MED_SMALL_BUFF, RIGHT, SMALL_BUFF, UP, ManimColor

# --- colours: each quantity keeps its colour in every scene ------------------------------------
BACKGROUND = ManimColor("#0E1117")
TEXT = ManimColor("#E6E6E6")
MUTED = ManimColor("#8A8F98")
FAINT = ManimColor("#3A3F4B")
HIGHLIGHT = ManimColor("#FFE066")
POINTER = TEXT                     # "look here" in every video: boxes, rings, pointer arrows
                                   # (white: yellow is Q's colour)
WEIGHTS = ManimColor("#B8C4CC")    # attention weights in every video: arcs, weight numbers, bars

X = ManimColor("#5DADE2")          # residual stream
LN = ManimColor("#A3A8B3")         # normalisation
Q = ManimColor("#F4D35E")          # queries
K = ManimColor("#4ECDC4")          # keys
V = ManimColor("#FF6B6B")          # values
ATTN = ManimColor("#C39BD3")       # attention output added to X
FFN = ManimColor("#F0A868")        # FFN output added to X
CONTEXTS = [ManimColor("#5DADE2"), ManimColor("#F0A868"), ManimColor("#7ED321"),
            ManimColor("#C39BD3")]  # one per sentence in comparisons
# per-sentence hues of their own (chapter.md §2: CONTEXTS reuses X blue, FFN orange and ATTN
# purple); none is a quantity's colour, the highlight, or a probe's
SENTENCES = [ManimColor("#8BD450"), ManimColor("#E0B080"), ManimColor("#8C9EFF"),
             ManimColor("#D98CB3")]
PROBE_SYNTAX = ManimColor("#A99BFF")   # a probe reading part of speech
PROBE_SENSE = ManimColor("#FF8FC8")    # a probe reading a word's sense
SINK = ManimColor("#66CC99")           # a row's share on the special tokens ([CLS], [SEP]):
                                       # attention_depth's stacked bars (green: no other hue)
COLOR_OF = {"x": X, "ln_x": LN, "q": Q, "k": K, "v": V, "attn_out": ATTN, "mlp_out": FFN,
            "resid_mid": X, "resid_post": X, "update": V}

# One colour per quantity, by its short key (the legend helper `scenes.motion.legend` reads this).
QUANTITY = {"x": X, "x_norm": LN, "q": Q, "k": K, "v": V, "d_attn": ATTN, "d_ffn": FFN}
QUANTITY_NAME = {"x": "X (residual stream)", "x_norm": "normalised X", "q": "Q", "k": "K",
                 "v": "V", "d_attn": "Δ attention", "d_ffn": "Δ FFN"}

# Value colour map (signs of numbers in strips and weight blocks): magenta < 0 < green
# (PiYG-like, colour-blind safe), chosen not to clash with any quantity colour above.
VALUE_NEG = ManimColor("#E052A8")
VALUE_ZERO = ManimColor("#2A2E37")
VALUE_POS = ManimColor("#7FC241")


# --- type ---------------------------------------------------------------------------------------
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
TITLE_SIZE = 34
CAPTION_SIZE = 24
LABEL_SIZE = 22
SMALL_SIZE = 18
TINY_SIZE = 18
MATH_SIZE = 30


class TYPE:
    """The named type scale (font sizes). The smallest, `small`, is 14 px tall at 854x480
    ('Hg', measured as tests/test_text_size.py does); never go below it."""
    title = 34
    heading = 30
    math = 30
    body = 24
    label = 22
    math_label = 27      # the smallest with scripts at the legibility floor (8 px cap height)
    small = 18
    code = 18


MIN_TEXT_PX = 14.0                 # at 854x480: tests/test_snapshots.py (all six scenes)

# --- spacing and sizes (scene units; the frame is 14.2 x 8) -------------------------------------
BUFF = MED_SMALL_BUFF
GAP = MED_LARGE_BUFF
TIGHT = SMALL_BUFF
STRIP_WIDTH = 6.0                  # a full d_model colour strip
STRIP_HEIGHT = 0.32
HEAD_STRIP_WIDTH = 1.6             # one head's d_head strip
CAPTION_WIDTH = 12.5
EDGE = 0.35                        # margin from the frame edge

# --- numbers ------------------------------------------------------------------------------------
DECIMALS = 2                       # toy vectors, cosines, probabilities
DETAIL_DIMS = 8                    # a long vector's first dimensions, shown as numbers


def _plain(value: float, decimals: int) -> str:
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if text in (f"-0.{'0' * decimals}",) else text


def _floor(value: float, decimals: int) -> str:
    """A value above 0 that would read as zero is written as the bound it is under: "<0.01"."""
    text = _plain(value, decimals)
    return "<" + _plain(10.0 ** -decimals, decimals) if value > 0 and float(text) == 0 else text


# how a number may be written: plain; "floor" (a bound where the digits would read zero: a
# probability of 1e-13 is not "0.00"); "group" (thousands grouped, as the voice reads them)
STYLES = {"": _plain, "floor": _floor, "group": lambda v, d: f"{v:,.{d}f}"}


def fmt(value: float, decimals: int = DECIMALS, style: str = "") -> str:
    """How every number is written on screen (tests compare against this); `style` one of
    STYLES."""
    if style not in STYLES:
        raise ValueError(f"number style {style!r}: one of {sorted(STYLES)}")
    return STYLES[style](value, decimals)


def X_l(l, base: str = "X") -> str:
    """The one notation for a layer's value, as Typst math: X_l(3) -> "X^((3))" (X⁽³⁾).
    Convention (say it once per video): layer l reads X^(l) and writes X^(l+1)."""
    return f"{base}^(({l}))"


def pct(value: float) -> str:
    return f"{100 * value:.0f}%"


__all__ = [n for n in dir() if n.isupper()] + ["fmt", "pct", "X_l", "UP", "DOWN", "LEFT", "RIGHT"]
