"""`layerwise`: the one command line. The core's commands (trace, info, models, validate,
plan, estimate, draft: `layerwise_core.cli`) and the pipeline's:

    layerwise render FILE...     plan (with the voice) and render the videos, in one step
    layerwise preview FILE...    plan and write every beat's last frame (and a review sheet)
    layerwise slides FILE...     plan and write one HTML slide deck per storyboard
    layerwise chapter            plan and render the whole chapter (scenes/chapter.yaml)
    layerwise estimate FILE...   plan and predict a render's time and peak memory at a quality
    layerwise page FILE...       an offline HTML page beside each video (--chapter: the chapter's)
    layerwise watch FILE         re-plan and re-render whenever the file is saved
    layerwise certs DIR          a cluster's TLS authority and certificates

`render`, `preview`, `slides` and `estimate` plan first; with `--planned` they take the plans
already under `--media` as they are (no planning, no torch in this process: tests, and the
measured renders of `estimate`). There is no other entry point: the modules have no `main`.
Every command ends through one error boundary (`layerwise_core.cli.boundary`).
"""

from __future__ import annotations

import os

from layerwise_core.cli import main as core_main
from layerwise_core.cli.storyboard import MODEL_HELP
from layerwise_core.voice import BACKENDS

from . import chapter, estimate, page, render, slides, tls_certs, watch
from .planning import plan_in_child


def _voice_option(p, default: str) -> None:
    p.add_argument("--voice", choices=list(BACKENDS), default=default,
                   help="narration: piper (neural, offline), draft (espeak-ng), none (silent)")


def _model_option(p) -> None:
    p.add_argument("--model", default=None, help=MODEL_HELP)


def _planned_option(p) -> None:
    p.add_argument("--planned", action="store_true",
                   help="take the plans already under --media as they are (no planning)")


def _preview(args) -> int:
    args.preview = True
    return render._main(args)


# the commands that plan first (unless --planned): name, help, module (its add_arguments),
# the voice they plan with (None: no --voice, silent), what they run then
PLANNING = [
    ("render", "plan (with the voice) and render storyboards to video", render, "piper",
     render._main),
    ("preview", "plan and write every beat's last frame (fast)", render, None, _preview),
    ("slides", "plan and write one HTML slide deck per storyboard", slides, "none",
     slides._main),
    ("estimate", "plan and predict render time and memory at a quality", estimate, None,
     estimate._main),
]


def _planning(then):
    def cmd(args) -> int:
        if not args.planned:
            plan_in_child(args.storyboards, args.media, getattr(args, "voice", "none"),
                          args.model, args.cache)
        return then(args)
    return cmd


def cmd_page(args) -> int:
    """Plans the storyboards (and chapter parts) that have no fresh plan, then the pages. A
    rendered video's plan is kept as it is: its beat times are the video's."""
    from .scene_render import RenderError, load_plan
    files = list(args.storyboards)
    if args.chapter is not None:
        path = chapter.CHAPTER if args.chapter is True else args.chapter
        files += [p.storyboard for p in chapter.read_chapter(path)[1]]
    if not files:
        raise RenderError("page: name storyboards (FILE...) or --chapter")
    stale = []
    for f in files:
        try:
            load_plan(f, args.media)
        except RenderError:
            stale.append(f)
    if stale:
        plan_in_child(stale, args.media, args.voice, args.model, args.cache)
    return page._main(args)


def extend(sub) -> None:
    """The pipeline's commands, added to the core's parser."""
    for name, help_, module, voice, then in PLANNING:
        p = sub.add_parser(name, help=help_)
        module.add_arguments(p)
        if voice is not None:
            _voice_option(p, voice)
        _model_option(p)
        _planned_option(p)
        p.set_defaults(func=_planning(then))
    sub.choices["render"].set_defaults(jobs=os.cpu_count() or 1)
    g = sub.add_parser("page", help="write an offline HTML page beside each storyboard's video")
    page.add_arguments(g)
    _voice_option(g, "none")
    _model_option(g)
    g.set_defaults(func=cmd_page)
    c = sub.add_parser("chapter", help="plan and render the chapter, one video with markers")
    chapter.add_arguments(c)
    c.set_defaults(func=chapter._main)
    w = sub.add_parser("watch", help="re-plan and re-render a storyboard each time it is saved")
    watch.add_arguments(w)
    w.set_defaults(func=watch.run_watch)
    t = sub.add_parser("certs", help="write a cluster's TLS authority and certificates")
    tls_certs.add_arguments(t)
    t.set_defaults(func=tls_certs._main)


def main(argv: list[str] | None = None) -> int:
    return core_main(argv, extend=extend)

