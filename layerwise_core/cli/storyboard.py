"""`layerwise validate`, `plan` and `estimate`: the storyboard commands of the CLI layer."""

from __future__ import annotations

from pathlib import Path

from ..voice import BACKENDS


def cmd_validate(args) -> None:
    from ..storyboard.schema import validate_files
    boards = validate_files(args.files)
    for b in boards:
        print(f"{b.path}: ok ({b.template}, {b.model}, {len(b.beats)} beats)")


def cmd_plan(args) -> None:
    """Validate every file and compute every plan (placeholders filled, `expect:` claims
    checked): a false claim in any storyboard writes none of them and leaves earlier plan
    files as they were. Then speak the filled narration of all of them in one batch (a voice:
    its model loads once, not once per storyboard), and write each plan and print its path."""
    import sys
    from ..errors import StoryboardError
    from ..plans import finish_plan, plan_path, prepare_plan, write_plan
    from ..storyboard.schema import validate_files
    boards = validate_files(args.files)       # every file checked before any work
    prepared, problems = [], []
    for b in boards:
        try:
            prepared.append(prepare_plan(b, args.cache))
        except StoryboardError as e:
            problems += e.problems
    if problems:
        raise StoryboardError(problems)
    voiced = not BACKENDS[args.voice].silent
    if voiced:
        from ..storyboard.voice import with_voice
        from ..tracing import default_cache_dir
        spoken, total = with_voice([b for b, _ in prepared], args.voice,
                                   args.cache or default_cache_dir())
        prepared = [(b, plan) for b, (_, plan) in zip(spoken, prepared)]
    for b, plan in prepared:
        path = write_plan(finish_plan(b, plan), plan_path(b.name, args.media))
        print(f"{path}", flush=True)
    if voiced:
        print(f"voice {args.voice}: {total.cached + total.synthesised} sentences, "
              f"{total.cached} from the cache, {total.synthesised} synthesised"
              + (f" ({total.audio_seconds:.1f} s of speech in {total.synth_seconds:.1f} s)"
                 if total.synthesised else ""), file=sys.stderr)


def cmd_estimate(args) -> None:
    """Delegates to layerwise_pipeline.estimate in a fresh process (it renders; this one stays light)."""
    import subprocess
    import sys
    cmd_plan(args)
    code = subprocess.run([sys.executable, "-m", "layerwise_pipeline.estimate", "--quality", args.quality,
                           "--media", str(args.media), *map(str, args.files)]).returncode
    if code:
        raise SystemExit(code)


def add_commands(sub) -> None:
    v = sub.add_parser("validate", help="check storyboards (all errors, file:line: field)")
    v.add_argument("files", nargs="+", type=Path)
    v.set_defaults(func=cmd_validate)
    p = sub.add_parser("plan", help="validate storyboards, compute their traces and plans")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--media", type=Path, default=Path("media"))
    p.add_argument("--voice", choices=list(BACKENDS), default="none",
                   help="speak the narration: piper (neural, offline), draft (espeak-ng), "
                        "none (silent)")
    p.set_defaults(func=cmd_plan)
    e = sub.add_parser("estimate", help="predict render time and memory at a quality")
    e.add_argument("files", nargs="+", type=Path)
    e.add_argument("--quality", choices=["l", "m", "h", "p", "k"], default="k")
    e.add_argument("--media", type=Path, default=Path("media"))
    e.set_defaults(func=cmd_estimate, voice="none")
