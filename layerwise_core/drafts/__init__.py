"""`layerwise draft`: a storyboard chosen from the data of the traced sentence(s).

A course author names a model, a sentence and a word; the draft picks what is worth showing from
the trace (analysis.choices): the layers where the word's vector moves most, the head that
attends most from it, the layer from which the logit lens keeps the final prediction in its top
10. The narration says numbers only as placeholders (`{data.layers[27].rank:,}`), filled from the
plan at plan time, so they are true for the sentence; what the choice rests on is pinned by
`expect:` claims, so an edit that makes it false fails `layerwise plan` instead of lying. Every
draft is validated and planned before it is printed.

One module per template, `drafts/<template>.py` with `build(Context) -> Draft`, found
through the template registry (`Template.draft_module`); templates whose scenes need something a
sentence does not have (special tokens for the sink chart, a word after the first token in a
decoder) refuse with one line.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..analysis.vectors import positions
from layerwise_templates import TEMPLATES
from ..trace import Trace
from .base import Context, Draft, DraftError

DEFAULT_TEMPLATE = {"decoder": "logit_lens", "encoder": "per_head"}


def choose_template(template: str | None, kind: str, model: str, n_sentences: int) -> str:
    """The template to draft (the kind's default when None); DraftError when it does not fit
    the model kind, has no drafter, or needs another number of sentences."""
    fits = [n for n, t in TEMPLATES.items() if kind in t.kinds and t.has_draft]
    if kind not in DEFAULT_TEMPLATE:
        raise DraftError(f"{model} is {a_kind(kind)} model; draft writes storyboards for encoder "
                         f"and decoder models")
    if template is None:
        template = DEFAULT_TEMPLATE[kind]
    if template not in TEMPLATES:
        raise DraftError(f"unknown template {template!r}; for {a_kind(kind)} model: "
                         f"{', '.join(fits) or 'none'}")
    t = TEMPLATES[template]
    if kind not in t.kinds:
        raise DraftError(f"template {template!r} needs a {'/'.join(sorted(t.kinds))} model; "
                         f"{model} is {a_kind(kind)}" + (f" (for {a_kind(kind)}: {', '.join(fits)})"
                                                   if fits else ""))
    if not t.has_draft:
        drafts = ", ".join(n for n, x in TEMPLATES.items() if x.has_draft)
        raise DraftError(f"template {template!r} has no draft; drafts: {drafts}")
    if n_sentences < t.min_sentences:
        raise DraftError(f"template {template!r} compares {t.min_sentences} or more sentences; "
                         f"give --sentence {t.min_sentences} times")
    if t.max_sentences is not None and n_sentences > t.max_sentences:
        raise DraftError(f"template {template!r} takes at most {t.max_sentences} sentence"
                         f"{'s' if t.max_sentences > 1 else ''}, got {n_sentences}")
    return template


def check_focus(traces: list[Trace], focus: str) -> None:
    """The focus word in every sentence, as whole tokens; else one line listing the tokens
    (`positions` refuses a word not in the sentence or left without a token)."""
    for t in traces:
        positions(t, focus)


def a_kind(kind: str) -> str:
    """"an encoder", "a decoder", "a toy"."""
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)      # a JSON string is a YAML double-quoted one


def _flow(items) -> str:
    return "[" + ", ".join(str(i) if isinstance(i, int) else i for i in items) + "]"


def to_yaml(c: Context, d: Draft, command: str) -> str:
    sents = [t.sentence for t in c.traces]
    lines = [f"# Drafted by `{command}`.",
             "# Chosen from this trace (what each choice rests on is an `expect:` claim, so an",
             "# edit that makes it false fails `layerwise plan`; numbers in the narration are",
             "# placeholders, filled from the plan):"]
    lines += [f"#   {n}" for n in d.notes]
    lines += [f"template: {c.template}", f"title: {_q(d.title)}", f"model: {_q(c.model)}",
              "sentences:"] + [f"  - {_q(s)}" for s in sents]
    lines.append(f"focus: {_q(c.focus)}")
    lines.append(f"layers: {d.layers if isinstance(d.layers, str) else _flow(d.layers)}")
    if d.heads is not None:
        lines.append(f"heads: {d.heads if isinstance(d.heads, str) else _flow(d.heads)}")
    lines.append("beats:")
    for b in d.beats:
        lines.append(f"  - id: {b.id}")
        lines.append(f"    show: {_flow(b.show)}")
        if b.layer is not None:
            lines.append(f"    layer: {b.layer}")
        if b.head is not None:
            lines.append(f"    head: {b.head}")
        lines.append(f"    caption: {_q(b.caption)}")
        lines.append(f"    narration: {_q(b.narration)}")
        if b.moments:
            lines.append("    moments:")
            lines += [f"      {k}: {v if isinstance(v, int) else _q(v)}"
                      for k, v in b.moments.items()]
        if b.expect:
            lines.append("    expect:")
            lines += [f"      - {_q(e)}" for e in b.expect]
    return "\n".join(lines) + "\n"


def draft(template: str, model: str, traces: list[Trace], focus: str, command: str) -> str:
    """The storyboard YAML of `template` for `traces` (one per sentence) of `model`."""
    check_focus(traces, focus)
    c = Context(template, model, tuple(traces), focus)
    return to_yaml(c, TEMPLATES[template].build_draft(c), command)


def checked(text: str, template: str, cache_dir: Path | None, where: Path) -> None:
    """Validate and plan a draft (placeholders filled, claims checked); nothing is written.
    A draft that does not validate or plan is one DraftError line (its first problem)."""
    from ..errors import StoryboardError
    from ..plans import prepare_plan
    from ..storyboard.schema import validate_text
    try:
        prepare_plan(validate_text(text, where), cache_dir)
    except StoryboardError as e:
        first = e.problems[0].removeprefix(f"{where}:").partition(": ")[2]
        more = f" (and {len(e.problems) - 1} more)" if len(e.problems) > 1 else ""
        raise DraftError(f"the {template} draft does not plan for this sentence: "
                         f"{first}{more}") from None


__all__ = ["DEFAULT_TEMPLATE", "DraftError", "a_kind", "checked", "choose_template",
           "draft"]
