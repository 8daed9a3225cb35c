"""Storyboards as presentations: `layerwise slides [--quality l] FILE...` (`make slides`).

Each storyboard's plan is rendered by its template's scene mixed with manim-slides' `Slide`
(layerwise_render/slides.py): one slide per beat, the beat's narration as the slide's speaker notes
(press S in the browser). `manim-slides convert --to html --one-file --offline` then writes
one self-contained HTML file: the slide videos inlined as data URIs, reveal.js inlined from
the npm package `reveal.js` (packed once with `npm pack` into the cache; the presentation
itself never fetches anything). Output: media/slides/<name>.html, written to a temporary
name and renamed, so a failure leaves the previous file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from layerwise_core.media import MEDIA, Media
from layerwise_core.atomic import ensure_dir, replacing

from layerwise_render.session import QUALITIES, manim_options, manim_session

from .scene_render import (RenderError, load_plan, scene_class,
                           signals_at_checkpoints)
from .staging import work_folder

# the reveal.js files manim-slides' HTML template links (dist/...), by the name its offline
# mode caches them under
REVEAL_FILES = ("dist/reveal.css", "dist/theme/black.css", "dist/plugin/highlight/zenburn.css",
                "dist/reveal.js", "dist/plugin/notes.js", "dist/plugin/markdown.js")
PACKAGE_JSON = "package.json"       # kept beside them: the licence it declares (test_slides)


def reveal_version() -> str:
    from manim_slides.convert import RevealJS
    return RevealJS.model_fields["reveal_version"].default


def cache_dir() -> Path:
    env = os.environ.get("LAYERWISE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "layerwise"


def reveal_assets(cache: Path) -> Path:
    """An XDG cache root whose `manim-slides/revealjs<version>/` holds the reveal.js files
    manim-slides' offline mode inlines; packed from the npm registry the first time."""
    version = reveal_version()
    root = cache / "slides"
    folder = root / "manim-slides" / f"revealjs{version}"
    if all((folder / Path(f).name).is_file() for f in REVEAL_FILES + (PACKAGE_JSON,)):
        return root
    ensure_dir(folder, "slides asset cache")
    with tempfile.TemporaryDirectory(dir=folder, prefix=".npm-") as tmp:
        try:
            r = subprocess.run(["npm", "pack", f"reveal.js@{version}", "--silent",
                                "--pack-destination", tmp], cwd=tmp, capture_output=True,
                               text=True)
        except OSError:
            raise RenderError(f"slides need reveal.js {version} once, from npm: install npm "
                              f"(make slides does: apt-get install npm)") from None
        tgz = next(Path(tmp).glob("*.tgz"), None)
        if r.returncode or tgz is None:
            last = (r.stderr.strip().splitlines() or ["no message"])[-1]
            raise RenderError(f"npm pack reveal.js@{version} failed: {last}")
        with tarfile.open(tgz) as t:
            for f in REVEAL_FILES + (PACKAGE_JSON,):
                try:
                    data = t.extractfile(f"package/{f}").read()
                except (KeyError, AttributeError):
                    raise RenderError(f"reveal.js {version} from npm has no {f}") from None
                with replacing(folder / Path(f).name) as out:
                    out.write_bytes(data)
    return root


def build(plan: dict, quality: str = "l", media: Path = MEDIA) -> Path:
    """media/slides/<name>.html for one plan: render the slides, check there is one per
    beat, convert to one HTML file, rename it into place."""
    import logging

    from layerwise_render.slides import slides_class
    logging.getLogger("manim-slides").setLevel(logging.WARNING)
    name = plan["storyboard"]["name"]
    media = Path(media)
    out = Media(media).slides(name)
    assets = reveal_assets(cache_dir())
    with work_folder(media, f"slides-{name}") as work:
        with manim_session(manim_options(quality, work, name)):
            cls = slides_class(scene_class(plan["template"]))
            scene = cls(plan, output_folder=work / "slides")
            with signals_at_checkpoints(scene):
                scene.render()
        index = json.loads((work / "slides" / f"{cls.__name__}.json").read_text())
        if len(index["slides"]) != len(plan["beats"]):
            raise RenderError(f"{name}: {len(index['slides'])} slides for "
                              f"{len(plan['beats'])} beats")
        with replacing(out, suffix=".html") as tmp:
            convert(cls.__name__, work / "slides", tmp, plan["title"], assets)
    return out


def convert(scene: str, folder: Path, dest: Path, title: str, assets: Path) -> None:
    """`manim-slides convert --to html --one-file --offline` (its own process: click exits)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(assets.resolve())}
    r = subprocess.run([sys.executable, "-m", "manim_slides", "convert", "--to", "html",
                        "--one-file", "--offline", "--folder", str(folder), f"-ctitle={title}",
                        scene, str(dest)], capture_output=True, text=True, env=env)
    if r.returncode:
        last = (r.stderr.strip().splitlines() or ["no message"])[-1]
        raise RenderError(f"manim-slides convert failed (exit {r.returncode}): {last}")



def add_arguments(p) -> None:
    p.add_argument("storyboards", nargs="+", type=Path)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--media", type=Path, default=MEDIA)


def _main(args) -> int:
    plans = [load_plan(s, args.media) for s in args.storyboards]
    for plan in plans:
        print(build(plan, args.quality, args.media), flush=True)
    return 0

