"""`layerwise validate`, `plan` and `estimate`: the storyboard commands of the CLI layer."""

from __future__ import annotations

from pathlib import Path



def cmd_validate(args) -> None:
    from ..storyboard.schema import validate_files
    boards = validate_files(args.files)
    for b in boards:
        print(f"{b.path}: ok ({b.template}, {b.model}, {len(b.beats)} beats)")


def cmd_plan(args) -> None:
    from ..plans import build_plan, plan_path, write_plan
    from ..storyboard.schema import validate_files
    boards = validate_files(args.files)       # every file checked before any work
    if args.voice == "draft":
        from ..storyboard.voice import with_draft_voice
        boards = [with_draft_voice(b, args.media / "voice" / b.name) for b in boards]
    for b in boards:
        path = write_plan(build_plan(b, args.cache), plan_path(b.name, args.media))
        print(f"{path}")


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
    p.add_argument("--voice", choices=["none", "draft"], default="none",
                   help="draft: speak narration offline with espeak-ng as a scratch track")
    p.set_defaults(func=cmd_plan)
    e = sub.add_parser("estimate", help="predict render time and memory at a quality")
    e.add_argument("files", nargs="+", type=Path)
    e.add_argument("--quality", choices=["l", "m", "h", "p", "k"], default="k")
    e.add_argument("--media", type=Path, default=Path("media"))
    e.set_defaults(func=cmd_estimate, voice="none")
