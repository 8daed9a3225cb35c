"""One theme for every scene: colours per quantity, type sizes, spacing, number formats."""

from __future__ import annotations

from manim import DOWN, LEFT, MED_LARGE_BUFF, MED_SMALL_BUFF, RIGHT, SMALL_BUFF, UP, ManimColor

# --- colours: each quantity keeps its colour in every scene ------------------------------------
BACKGROUND = ManimColor("#0E1117")
TEXT = ManimColor("#E6E6E6")
MUTED = ManimColor("#8A8F98")
FAINT = ManimColor("#3A3F4B")
HIGHLIGHT = ManimColor("#FFE066")

X = ManimColor("#5DADE2")          # residual stream
LN = ManimColor("#A3A8B3")         # normalisation
Q = ManimColor("#F4D35E")          # queries
K = ManimColor("#4ECDC4")          # keys
V = ManimColor("#FF6B6B")          # values
ATTN = ManimColor("#C39BD3")       # attention output added to X
FFN = ManimColor("#F0A868")        # FFN output added to X
CONTEXTS = [ManimColor("#5DADE2"), ManimColor("#F0A868"), ManimColor("#7ED321"),
            ManimColor("#C39BD3")]  # one per sentence in comparisons
COLOR_OF = {"x": X, "ln_x": LN, "q": Q, "k": K, "v": V, "attn_out": ATTN, "mlp_out": FFN,
            "resid_mid": X, "resid_post": X, "update": V}

# diverging map for value strips: scaled values in [-1, 1]
NEGATIVE = ManimColor("#3B82F6")
ZERO = ManimColor("#2A2E37")
POSITIVE = ManimColor("#F97316")

# --- type ---------------------------------------------------------------------------------------
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
TITLE_SIZE = 34
CAPTION_SIZE = 24
LABEL_SIZE = 22
SMALL_SIZE = 16
TINY_SIZE = 13
MATH_SIZE = 30

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


def fmt(value: float, decimals: int = DECIMALS) -> str:
    """How every number is written on screen (tests compare against this)."""
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if text in (f"-0.{'0' * decimals}",) else text


def pct(value: float) -> str:
    return f"{100 * value:.0f}%"


__all__ = [n for n in dir() if n.isupper()] + ["fmt", "pct", "UP", "DOWN", "LEFT", "RIGHT"]
