"""`layerwise`: the one command line. The core's commands (trace, info, models, validate,
plan, estimate, draft: `layerwise_core.cli`) and the pipeline's:

    layerwise render FILE...     plan (with the voice) and render the videos, in one step
    layerwise preview FILE...    plan and write every beat's last frame (and a review sheet)
    layerwise slides FILE...     plan and write one HTML slide deck per storyboard
    layerwise chapter            plan and render the whole chapter (scenes/chapter.yaml)
    layerwise estimate FILE...   plan and predict a render's time and peak memory at a quality
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

from . import chapter, estimate, render, slides, tls_certs, watch
from .planning import plan_in_child


def _voice_option(p, default: str) -> None:
    p.add_argument("--voice", choices=list(BACKENDS), default=default,
                   help="narration: piper (neural, offline), draft (espeak-ng), none (silent)")


def _model_option(p) -> None:
    p.add_argument("--model", default=None, help=MODEL_HELP)


def _planned_option(p) -> None:
    p.add_argument("--planned", action="store_true",
                   help="take the plans already under --media as they are (no planning)")


def _plan(args, voice: str) -> None:
    if not args.planned:
        plan_in_child(args.storyboards, args.media, voice, args.model, args.cache)


def cmd_render(args) -> int:
    _plan(args, args.voice)
    return render._main(args)


def cmd_preview(args) -> int:
    _plan(args, "none")
    args.preview = True
    return render._main(args)


def cmd_slides(args) -> int:
    _plan(args, args.voice)
    return slides._main(args)


def cmd_estimate(args) -> int:
    _plan(args, "none")
    return estimate._main(args)


def extend(sub) -> None:
    """The pipeline's commands, added to the core's parser."""
    r = sub.add_parser("render", help="plan (with the voice) and render storyboards to video")
    render.add_arguments(r)
    _voice_option(r, "piper")
    _model_option(r)
    _planned_option(r)
    r.set_defaults(func=cmd_render, jobs=os.cpu_count() or 1)
    v = sub.add_parser("preview", help="plan and write every beat's last frame (fast)")
    render.add_arguments(v)
    _model_option(v)
    _planned_option(v)
    v.set_defaults(func=cmd_preview)
    s = sub.add_parser("slides", help="plan and write one HTML slide deck per storyboard")
    slides.add_arguments(s)
    _voice_option(s, "none")
    _model_option(s)
    _planned_option(s)
    s.set_defaults(func=cmd_slides)
    e = sub.add_parser("estimate", help="plan and predict render time and memory at a quality")
    estimate.add_arguments(e)
    _model_option(e)
    _planned_option(e)
    e.set_defaults(func=cmd_estimate)
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

