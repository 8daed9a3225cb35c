"""An offline page beside each video: `layerwise page [--quality l] FILE...` (`make page`).

One self-contained HTML file per storyboard, written next to its video under the media layout
(media/videos/<480p15|...>/<name>.html, beside <name>.mp4 and <name>.srt), and with `--chapter`
one for the chapter (chapter.html beside chapter.mp4). The page opens from file:// with no
network and no server: the video is referenced as the relative file next to it (never
embedded: the page stays within its size budget, docs/page.md); its beats are a clickable,
keyboard-operable outline; the subtitles are the render's .srt (or, before a render, each beat's
narration); the panels (`model.part`) show the plan's numbers per layer, rounded as in the video
(`rounding.ROUNDING`). HTML, CSS and JavaScript are files of this package (assets/), written in
the project and inlined; nothing is fetched at build time or when the page is opened.
"""

from __future__ import annotations

import json
from pathlib import Path

from layerwise_core.atomic import write_text
from layerwise_core.media import MEDIA, Media

from .model import part

ASSETS = Path(__file__).resolve().parent / "assets"
BUDGET = 100_000           # bytes per storyboard's page, the video excluded (docs/page.md)
CHAPTER_BUDGET = 400_000   # bytes for the chapter's page (every part's panels), the video excluded


def read_cues(srt_path: Path) -> list[dict] | None:
    if not srt_path.is_file():
        return None
    import srt
    return [{"start": c.start.total_seconds(), "end": c.end.total_seconds(),
             "text": c.content.replace("\n", " ")}
            for c in srt.parse(srt_path.read_text(encoding="utf-8"))]


def narration_cues(parts: list[dict]) -> list[dict]:
    """Before a render (no .srt): each beat's narration over the beat."""
    return [{"start": p["offset"] + b["start"], "end": p["offset"] + b["end"],
             "text": b["narration"]} for p in parts for b in p["beats"] if b["narration"]]


def vtt(cues: list[dict]) -> str:
    """WebVTT of the subtitles (the .srt's cues)."""
    def stamp(t: float) -> str:
        ms = round(t * 1000)
        h, m, sec = ms // 3_600_000, ms // 60_000 % 60, ms // 1000 % 60
        return f"{h:02d}:{m:02d}:{sec:02d}.{ms % 1000:03d}"
    return "WEBVTT\n\n" + "\n".join(f"{stamp(c['start'])} --> {stamp(c['end'])}\n"
                                     f"{c['text'].replace('-->', '->')}\n" for c in cues)


def track(cues: list[dict]) -> str:
    """The subtitles as a <track>, inlined as a data: URL: Chromium refuses a track file from
    file:// (another origin), and the page makes no request but its video and poster."""
    import base64
    if not cues:
        return ""
    src = "data:text/vtt;base64," + base64.b64encode(vtt(cues).encode()).decode()
    return f'<track kind="subtitles" srclang="en" label="English" default src="{src}">'


def poster(frames: Path, plan: dict, video: Path) -> str | None:
    """The first beat's last frame from a preview (media/frames/<name>/00_<beat>.png), copied
    next to the page as <name>.poster.png; None without a preview."""
    name, first = plan["storyboard"]["name"], plan["beats"][0]["id"] if plan["beats"] else ""
    png = frames / name / f"00_{first}.png"
    if not png.is_file():
        return None
    out = video.with_name(f"{video.stem}.poster.png")
    from layerwise_core.atomic import write_bytes
    write_bytes(out, png.read_bytes())
    return out.name


def html(data: dict) -> str:
    """The page: the assets with the data inlined (`</` escaped so no text ends the script)."""
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    from html import escape
    out = (ASSETS / "page.html").read_text(encoding="utf-8")
    for key, value in (("CSS", (ASSETS / "page.css").read_text(encoding="utf-8")),
                       ("JS", (ASSETS / "page.js").read_text(encoding="utf-8")),
                       ("TITLE", escape(data["title"])), ("VIDEO", escape(data["video"])),
                       ("POSTER", f' poster="{escape(data["poster"])}"' if data.get("poster")
                        else ""),
                       ("TRACK", track(data["cues"])), ("DATA", blob)):
        out = out.replace("{{" + key + "}}", value)
    return out


def page_data(title: str, parts: list[dict], video: Path, missing: str) -> dict:
    return {"title": title, "video": video.name, "missing": missing, "parts": parts,
            "cues": read_cues(video.with_suffix(".srt")) or narration_cues(parts)}


def video_of(media: Path, quality: str, name: str) -> Path:
    """The video a page goes beside (the media layout's `videos/<480p15|...>/<name>.mp4`)."""
    from layerwise_render.session import frame_facts
    return Media(media).video(name, frame_facts(quality)[2])


def build(plan: dict, quality: str = "l", media: Path = MEDIA) -> Path:
    """<name>.html next to <name>.mp4 for one plan; returns its path."""
    name = plan["storyboard"]["name"]
    video = video_of(media, quality, name)
    data = page_data(plan.get("title", name), [part(plan)], video,
                     f"Render it with: layerwise render --quality {quality} "
                     f"{plan['storyboard'].get('path', name + '.yaml')}.")
    data["poster"] = poster(Media(media).frames(), plan, video)
    out = video.with_suffix(".html")
    write_text(out, html(data))
    return out


def build_chapter(title: str, titled_plans: list[tuple[str, dict]], quality: str = "l",
                  media: Path = MEDIA, name: str = "chapter") -> Path:
    """chapter.html next to chapter.mp4: every part's beats, at the part's start in the
    chapter (from chapter.manifest.json when the chapter is rendered; else the parts'
    durations added up), and the playing part's panels."""
    video = video_of(media, quality, name)
    starts = _chapter_starts(video.with_suffix(".manifest.json"), len(titled_plans))
    parts, t = [], 0.0
    for i, (part_title, plan) in enumerate(titled_plans):
        parts.append(part(plan, part_title, starts[i] if starts else t))
        t += sum(float(b.get("duration") or 0) for b in plan["beats"])
    data = page_data(title, parts, video,
                     f"Render it with: layerwise chapter --quality {quality}.")
    data["poster"] = poster(Media(media).frames(), titled_plans[0][1], video) \
        if titled_plans else None
    out = video.with_suffix(".html")
    write_text(out, html(data))
    return out


def _chapter_starts(manifest: Path, n: int) -> list[float] | None:
    try:
        marks = json.loads(manifest.read_text())["chapters"]
        starts = [float(m["start"]) for m in marks]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return starts if len(starts) == n else None


def add_arguments(p) -> None:
    from layerwise_render.session import QUALITIES
    p.add_argument("storyboards", nargs="*", type=Path)
    p.add_argument("--quality", choices=QUALITIES, default="l",
                   help="which render's folder the page sits in (and whose video it shows)")
    p.add_argument("--media", type=Path, default=MEDIA)
    p.add_argument("--chapter", action="store_const", const=True, default=None,
                   help="also the chapter's page (scenes/chapter.yaml)")


def _main(args) -> int:
    from ..scene_render import load_plan
    for sb in args.storyboards:
        print(build(load_plan(sb, args.media), args.quality, args.media), flush=True)
    if args.chapter is not None:
        from ..chapter import CHAPTER, read_chapter
        path = CHAPTER if args.chapter is True else args.chapter
        title, parts = read_chapter(path)
        plans = [(p.title, load_plan(p.storyboard, args.media)) for p in parts]
        print(build_chapter(title, plans, args.quality, args.media, path.stem), flush=True)
    return 0
