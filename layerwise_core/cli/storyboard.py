"""`layerwise validate`, `lint`, `plan` and `draft`: the storyboard commands of the CLI
(`estimate` renders, so it is the pipeline's: `layerwise_pipeline.main`)."""

from __future__ import annotations

from pathlib import Path

from ..voice import BACKENDS

MODEL_HELP = ("use this model (a built-in name, or a path relative to the current folder) in "
              "place of each storyboard's own, where its template takes that kind of model")


def boards_for(args) -> list:
    """Every storyboard validated, with `--model` in place of its own model where its template
    takes that model's kind (a note on stderr names the others; none taking it is an error)."""
    import sys
    from ..drafts import a_kind
    from ..errors import InputError
    from ..models import resolve
    from ..storyboard.schema import validate_files
    boards = validate_files(args.files, args.model)
    if args.model is None:
        return boards
    ref = resolve(args.model)
    name = ref.name if ref.entry else str(ref.path)
    kept = [b for b in boards if b.model != name]
    if len(kept) == len(boards):
        raise InputError(f"--model {args.model}: {a_kind(ref.kind)} model fits none of the "
                         f"templates {', '.join(sorted({b.template for b in boards}))}")
    for b in kept:
        print(f"note: {b.path}: keeps its model {b.model} (template {b.template} does not "
              f"take {a_kind(ref.kind)} model)", file=sys.stderr)
    return boards


def cmd_validate(args) -> None:
    boards = boards_for(args)
    for b in boards:
        print(f"{b.path}: ok ({b.template}, {b.model}, {len(b.beats)} beats)")


def cmd_lint(args) -> int:
    """Every comparison or superlative that no placeholder or claim backs
    (storyboard/overstate.py), one line each on stdout; exit 1 when there is any, 0 when
    none. A storyboard that does not validate is an error (exit 2), as in `validate`."""
    import sys
    from ..storyboard.overstate import findings
    boards = boards_for(args)
    found = [f for b in boards for f in findings(b)]
    for f in found:
        print(f)
    print(f"lint: {len(found)} unbacked comparison word{'s' if len(found) != 1 else ''} in "
          f"{len({f.path for f in found})} of {len(boards)} storyboard"
          f"{'s' if len(boards) != 1 else ''}", file=sys.stderr)
    return 1 if found else 0


def cmd_plan(args) -> None:
    """Validate every file and compute every plan (placeholders filled, `expect:` claims
    checked): a false claim in any storyboard writes none of them and leaves earlier plan
    files as they were. Then speak the filled narration of all of them in one batch (a voice:
    its model loads once, not once per storyboard), and write each plan and print its path."""
    import sys
    from ..errors import StoryboardError
    from ..plans import finish_plan, plan_path, prepare_plan, write_plan
    boards = boards_for(args)                 # every file checked before any work
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


def cmd_draft(args) -> None:
    """A storyboard chosen from the data of the sentence(s), validated and planned, to stdout."""
    import shlex
    import sys
    from ..drafts import checked, choose_template, draft
    from ..models import resolve
    from ..tracing import get_trace
    ref = resolve(args.model)
    model = ref.name if ref.entry else str(ref.path)     # absolute: the YAML may go anywhere
    template = choose_template(args.template, ref.kind, model, len(args.sentence))
    traces = [get_trace(ref, s, cache_dir=args.cache) for s in args.sentence]
    command = shlex.join(["layerwise", "draft", "--model", args.model, "--template", template,
                          *[a for s in args.sentence for a in ("--sentence", s)],
                          "--focus", args.focus])
    text = draft(template, model, traces, args.focus, command)
    checked(text, template, args.cache, Path.cwd() / "draft.yaml")
    sys.stdout.write(text)


def add_commands(sub) -> None:
    v = sub.add_parser("validate", help="check storyboards (all errors, file:line: field)")
    v.add_argument("files", nargs="+", type=Path)
    v.add_argument("--model", default=None, help=MODEL_HELP)
    v.set_defaults(func=cmd_validate)
    lint = sub.add_parser("lint", help="comparisons and superlatives that no placeholder or "
                                       "expect: claim backs (file:line: field: word)")
    lint.add_argument("files", nargs="+", type=Path)
    lint.set_defaults(func=cmd_lint, model=None)
    p = sub.add_parser("plan", help="validate storyboards, compute their traces and plans")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--media", type=Path, default=Path("media"))
    p.add_argument("--model", default=None, help=MODEL_HELP)
    p.add_argument("--voice", choices=list(BACKENDS), default="none",
                   help="speak the narration: piper (neural, offline), draft (espeak-ng), "
                        "none (silent)")
    p.set_defaults(func=cmd_plan)
    d = sub.add_parser("draft", help="write a storyboard chosen from the data of a sentence "
                                     "(to stdout)")
    d.add_argument("--model", required=True,
                   help="a built-in name (layerwise models) or a path: a Hugging Face folder "
                        "or a .gguf file")
    d.add_argument("--sentence", action="append", required=True,
                   help="the sentence; give it again for templates that compare sentences "
                        "(bank_drift, context_qkv)")
    d.add_argument("--focus", required=True, help="the word to follow (`bank`, `bank#2`)")
    d.add_argument("--template", default=None,
                   help="the storyboard template (default: logit_lens for a decoder, per_head "
                        "for an encoder)")
    d.set_defaults(func=cmd_draft)
