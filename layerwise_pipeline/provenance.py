"""Where a render came from: versions, commit, hashes. Written beside every video as JSON."""

from __future__ import annotations

import hashlib
import json
import subprocess
from functools import lru_cache
from pathlib import Path

from layerwise_core.licences import merge_licences, plan_licences

ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def versions() -> dict:
    """Versions of everything that changes pixels."""
    import cairo
    import manim
    import manimpango
    debian = Path("/etc/debian_version")
    return {"manim": manim.__version__, "cairo": cairo.cairo_version_string(),
            "pycairo": cairo.version, "pango": manimpango.pango_version(),
            "debian": debian.read_text().strip() if debian.exists() else None}


def git_commit() -> str | None:
    """HEAD of this checkout, with '+dirty' when tracked files differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


# every package whose code draws a frame: a change to any of them re-renders a cached beat
DRAWING_CODE = ("scenes", "layerwise_templates", "layerwise_render")


def code_files(root: Path = ROOT) -> list[Path]:
    return sorted(f for d in DRAWING_CODE for f in (root / d).rglob("*.py"))


@lru_cache(maxsize=1)
def scenes_code_hash() -> str:
    """The hash of the drawing code (scenes, the templates' scenes and views, the backend)."""
    h = hashlib.sha256()
    for f in code_files():
        h.update(str(f.relative_to(ROOT)).encode() + f.read_bytes())
    return h.hexdigest()[:16]


def render_key(plan: dict, quality: str) -> str:
    """Changes whenever anything that could change the video, or what its manifest says about
    its licences, changes."""
    blob = json.dumps({"plan": plan, "quality": quality, "scenes": scenes_code_hash(),
                       "versions": versions(), "licences": plan_licences(plan)},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def manifest(plan: dict, quality: str, frame_rate: float, size: tuple[int, int],
             seconds: float, video: Path, video_facts: dict | None = None,
             sections: list[str] = ()) -> dict:
    """`video_facts` (frames, duration, bytes, sha256 of the verified video) let a later run
    check the video is still the one this manifest describes before reusing it."""
    return {
        "storyboard": plan["storyboard"],
        "template": plan["template"],
        "model": {"name": plan["model"]["name"], "display": plan["model"]["display"]},
        "sentences": plan["sentences"],
        "traces": [{k: t[k] for k in ("inputs_sha256", "arrays_sha256", "source", "sentence")}
                   for t in plan["traces"]],
        "layerwise_version": plan.get("layerwise_version"),
        "git_commit": git_commit(),
        "versions": versions(),
        "quality": quality,
        "frame_rate": frame_rate,
        "size": list(size),
        "render_seconds": round(seconds, 3),
        "render_key": render_key(plan, quality),
        "video": video.name,
        "video_facts": video_facts,
        "sections": list(sections),
        "licences": plan_licences(plan),
    }


def chapter_licences(part_records: list[dict]) -> dict:
    """For the chapter's manifest: every model and voice of its parts' manifests, once
    (`complete` is False if a part's manifest predates licence records)."""
    return merge_licences(part_records)
