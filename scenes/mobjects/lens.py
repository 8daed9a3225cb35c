"""The logit lens's pieces: the prompt and its question, one layer's lens column (its top
tokens as probability bars, the answer's rank and probability), the lens drawn as its steps
(the stream, the final norm, the unembedding, softmax), a depth ruler numbered from the plan,
and how to read a column. Every number is a `Num` bound to the plan path it is read from.

    col = lens_column(plan["data"]["layers"][12], "data.layers[12]", "␣Paris")
    pipe = StepBoxes(lens_steps(plan["model"])).fit_into(free_region)
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


def lens_column(layer: dict, src: str, answer: str, rows: int = 5,
                box: tuple[float, float] = (3.2, 3.2), bar_width: float = 0.8) -> VGroup:
    """One layer's stream read by the lens, in a rounded box at least `box` big: "after layer
    l", its top `rows` tokens as bars (the answer in yellow), the answer's rank and probability.
    `layer` is the plan entry at `src` (layer, top[i].display/prob/is_answer, rank, prob).
    Returns VGroup(frame, VGroup(head, bars, rank, prob))."""
    head = inline(txt("after layer", T.LABEL_SIZE),
                  Num(layer["layer"], f"{src}.layer", 0, T.LABEL_SIZE, T.HIGHLIGHT))
    entries = [(e["display"], e["prob"], f"{src}.top[{i}].prob",
                T.HIGHLIGHT if e["is_answer"] else T.X)
               for i, e in enumerate(layer["top"][:rows])]
    bars = ProbBars(entries, bar_width=bar_width, label_width=1.2, size=T.LABEL_SIZE,
                    row_buff=0.16)
    rank = inline(txt(answer, T.LABEL_SIZE, T.HIGHLIGHT, mono=True),
                  txt("rank", T.SMALL_SIZE, T.MUTED),
                  Num(layer["rank"], f"{src}.rank", 0, T.LABEL_SIZE, T.HIGHLIGHT), buff=0.12)
    prob = inline(txt("probability", T.SMALL_SIZE, T.MUTED),
                  Num(layer["prob"], f"{src}.prob", T.DECIMALS, T.LABEL_SIZE, T.HIGHLIGHT),
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


def layer_ruler(layers: Sequence[dict], width: float, src: str = "data.layers") -> DepthRuler:
    """A `DepthRuler` over `layers` (plan entries at `src`), its end layers numbered from them."""
    n = len(layers)
    return DepthRuler(n, width,
                      Num(layers[0]["layer"], f"{src}[0].layer", 0, T.SMALL_SIZE, T.MUTED),
                      Num(layers[-1]["layer"], f"{src}[{n - 1}].layer", 0, T.SMALL_SIZE,
                          T.MUTED))


def lens_steps(model: dict, size: float = T.TYPE.small, src: str = "model") -> list[VGroup]:
    """The lens as its steps, for `StepBoxes`: the stream's numbers, the final norm (the stream
    divided by its own RMS, times the norm's weights), the unembedding, softmax. `model` is the
    plan's model entry at `src` (d_model, d_vocab, norm)."""
    norm = "RMSNorm" if model.get("norm") == "rmsnorm" else "LayerNorm"
    return [
        VGroup(txt("the stream X", size, T.X),
               inline(Num(model["d_model"], f"{src}.d_model", 0, size, T.X),
                      txt("numbers", size, T.MUTED))),
        VGroup(txt(f"final {norm}", size, T.LN),
               txt("÷ its own RMS, × γ", size, T.MUTED)),
        VGroup(txt("× unembedding", size, T.TEXT),
               inline(Num(model["d_model"], f"{src}.d_model", 0, size, T.MUTED),
                      txt("×", size, T.MUTED),
                      Num(model["d_vocab"], f"{src}.d_vocab", 0, size, T.MUTED))),
        VGroup(txt("softmax", size, T.TEXT),
               inline(Num(model["d_vocab"], f"{src}.d_vocab", 0, size, T.MUTED),
                      txt("probabilities", size, T.MUTED))),
    ]


__all__ = ["prompt_line", "lens_column", "column_places", "column_guide", "layer_ruler",
           "lens_steps"]
