"""The logit lens's pieces: the prompt and its question, one layer's lens column (its top
tokens as probability bars, the answer's rank and probability), the lens drawn as its steps
(the stream, the final norm, the unembedding, softmax), a depth ruler numbered from the plan,
and how to read a column. Every number is a `Num` of a typed plan view
(`layerwise_core.planview`): its value brings its plan path.

    col = lens_column(v.layers[12], "␣Paris")
    pipe = StepBoxes(lens_steps(model_view)).fit_into(free_region)
"""

from __future__ import annotations

from typing import Sequence

from manim import DOWN, LEFT, RIGHT, RoundedRectangle, VGroup

from .. import theme as T
from .charts import ProbBars
from .numbers import Num
from .race import DepthRuler
from .text import highlighted, inline, txt


def prompt_line(sentence: str, word: str, size: float = T.LABEL_SIZE) -> VGroup:
    """"prompt: <sentence, `word` in the stream's colour> → next token?"."""
    return inline(txt("prompt:", size, T.MUTED), highlighted(sentence, word, T.X, size),
                  txt("→ next token?", size, T.MUTED), buff=0.15)


def lens_column(layer, answer: str, rows: int = 5,
                box: tuple[float, float] = (3.2, 3.2), bar_width: float = 0.8) -> VGroup:
    """One layer's stream read by the lens, in a rounded box at least `box` big: "after layer
    l", its top `rows` tokens as bars (the answer in yellow), the answer's rank and probability.
    `layer` is a view of a plan layer (layer, top[i].display/prob/is_answer, rank, prob).
    Returns VGroup(frame, VGroup(head, bars, rank, prob))."""
    head = inline(txt("after layer", T.LABEL_SIZE),
                  Num(layer.layer, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT))
    entries = [(str(e.display), e.prob, T.HIGHLIGHT if e.is_answer else T.X)
               for e in layer.top[:rows]]
    bars = ProbBars(entries, bar_width=bar_width, label_width=1.2, size=T.LABEL_SIZE,
                    row_buff=0.16)
    rank = inline(txt(answer, T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                  txt("rank", T.SMALL_SIZE, T.MUTED),
                  Num(layer.rank, decimals=0, size=T.LABEL_SIZE, color=T.HIGHLIGHT), buff=0.12)
    prob = inline(txt("probability", T.SMALL_SIZE, T.MUTED),
                  Num(layer.prob, decimals=T.DECIMALS, size=T.LABEL_SIZE, color=T.HIGHLIGHT),
                  buff=0.12)
    body = VGroup(head, bars, rank, prob).arrange(DOWN, aligned_edge=LEFT, buff=T.BUFF)
    bars.next_to(head, DOWN, buff=T.BUFF + 0.05, aligned_edge=LEFT)
    rank.next_to(bars, DOWN, buff=T.BUFF + 0.1, aligned_edge=LEFT)
    prob.next_to(rank, DOWN, buff=T.TIGHT + 0.04, aligned_edge=LEFT)
    frame = RoundedRectangle(width=box[0], height=max(box[1], body.height + 0.3),
                             corner_radius=0.1, stroke_color=T.FAINT, stroke_width=1.5)
    body.move_to(frame)
    return VGroup(frame, body)


def column_places(n: int, height: float, width: float = 3.2, buff: float = 0.2) -> VGroup:
    """`n` invisible column frames side by side: where lens columns (or the steps) go."""
    return VGroup(*[RoundedRectangle(width=width, height=height, corner_radius=0.1,
                                     stroke_opacity=0) for _ in range(n)]).arrange(RIGHT,
                                                                                   buff=buff)


def column_guide(answer: str, rows: int) -> VGroup:
    """How to read a lens column, and what the space mark in `answer` means."""
    return VGroup(txt("each column: the stream after one layer, decoded by the final norm and "
                      f"unembedding (top {rows}, probability)", T.SMALL_SIZE, T.MUTED),
                  inline(txt("␣", T.SMALL_SIZE, T.HIGHLIGHT, mono=True),
                         txt("marks a space:", T.SMALL_SIZE, T.MUTED),
                         txt(f"{answer}", T.SMALL_SIZE, T.TEXT, mono=True),
                         txt("is \"" + answer.replace("␣", " ") + "\"", T.SMALL_SIZE, T.MUTED))
                  ).arrange(DOWN, aligned_edge=LEFT, buff=0.08)


def layer_ruler(layers: Sequence, width: float) -> DepthRuler:
    """A `DepthRuler` over `layers` (a view of the plan's layers), its end layers numbered
    from them."""
    return DepthRuler(len(layers), width,
                      Num(layers[0].layer, decimals=0, size=T.SMALL_SIZE, color=T.MUTED),
                      Num(layers[-1].layer, decimals=0, size=T.SMALL_SIZE, color=T.MUTED))


def lens_steps(model, size: float = T.TYPE.small) -> list[VGroup]:
    """The lens as its steps, for `StepBoxes`: the stream's numbers, the final norm (the stream
    divided by its own RMS, times the norm's weights), the unembedding, softmax. `model` is a
    view of the plan's model entry (d_model, d_vocab, norm)."""
    norm = "RMSNorm" if str(model.norm) == "rmsnorm" else "LayerNorm"
    n = lambda v, color: Num(v, decimals=0, size=size, color=color)      # noqa: E731
    return [
        VGroup(txt("the stream X", size, T.X),
               inline(n(model.d_model, T.X), txt("numbers", size, T.MUTED))),
        VGroup(txt(f"final {norm}", size, T.LN),
               txt("÷ its own RMS, × weights", size, T.MUTED)),
        VGroup(txt("× unembedding", size, T.TEXT),
               inline(n(model.d_model, T.MUTED), txt("×", size, T.MUTED),
                      n(model.d_vocab, T.MUTED))),
        VGroup(txt("softmax", size, T.TEXT),
               inline(n(model.d_vocab, T.MUTED), txt("probabilities", size, T.MUTED))),
    ]


__all__ = ["prompt_line", "lens_column", "column_places", "column_guide", "layer_ruler",
           "lens_steps"]
