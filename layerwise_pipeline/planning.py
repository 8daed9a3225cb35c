"""`layerwise plan` in its own process, for commands of this (torch-free) process: render,
preview, slides, chapter. On Ctrl-C or SIGTERM the child is stopped with SIGTERM, so it removes
its own temporary files; its errors (one `file:line: ...` line each) become one RenderError."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .jobs import stop_processes
from .scene_render import RenderError


def plan_command(files: list[Path], media: Path, voice: str = "none", model: str | None = None,
                 cache: Path | None = None) -> list[str]:
    return [sys.executable, "-m", "layerwise_core",
            *(["--cache", str(cache)] if cache else []), "plan", "--media", str(media),
            "--voice", voice, *(["--model", model] if model else []), *map(str, files)]


def plan_in_child(files: list[Path], media: Path, voice: str = "none",
                  model: str | None = None, cache: Path | None = None) -> None:
    proc = subprocess.Popen(plan_command(files, media, voice, model, cache),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate()
    except BaseException:
        stop_processes([proc])
        raise
    if proc.returncode:
        lines = [ln.removeprefix("error: ") for ln in err.strip().splitlines()]
        raise RenderError("\n".join(lines) or "planning failed")
