"""`layerwise watch FILE`: re-plan and re-render a storyboard each time it is saved.

The file is polled (`POLL` s): its inode, size and modification time, so an editor that saves
by writing a new file and renaming it over the old one is seen like one that writes in place;
a save is acted on once the file has stood still for `SETTLE` s. Each build:
1. `layerwise plan` in a child process (this process never imports torch; traces and speech
   come from their caches, so only what changed is computed);
2. the beats whose inputs changed are rendered (a beat is cached by the hash of everything it
   depends on: `beats.beat_key`), the others are taken from the cache, and the video is
   joined and published as `layerwise render` publishes it;
3. each re-rendered beat's last frame is written to `media/frames/<name>/NN_<beat>.png`.
A build that fails prints its one-line errors and the watch goes on; Ctrl-C ends it (130).
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

from layerwise_core.media import MEDIA, Media
from layerwise_core.atomic import replacing
from layerwise_core.errors import LayerwiseError
from layerwise_core.voice import BACKENDS
from layerwise_render.session import QUALITIES

from .beats import BeatCache, beat_key
from .cli import say
from .jobs import LocalPool, render_storyboards
from .planning import plan_in_child

from .scene_render import load_plan

POLL = 0.25
SETTLE = 0.15


def add_arguments(p) -> None:
    p.add_argument("storyboard", type=Path)
    p.add_argument("--media", type=Path, default=MEDIA)
    p.add_argument("--quality", choices=QUALITIES, default="l")
    p.add_argument("--voice", choices=list(BACKENDS), default="none",
                   help="narration: none (default: fastest), draft, piper")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="beats rendered in parallel (processes)")
    p.add_argument("--once", action="store_true", help="build once and stop (scripts, tests)")


def signature(path: Path) -> tuple | None:
    """What changes when the file is saved, in place or by rename; None while it is absent."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def last_frame_png(mp4: bytes) -> bytes:
    import av
    from PIL import Image
    with av.open(io.BytesIO(mp4)) as c:
        frame = None
        for frame in c.decode(video=0):
            pass
    out = io.BytesIO()
    Image.fromarray(frame.to_ndarray(format="rgb24")).save(out, format="PNG")
    return out.getvalue()


def write_beat_frames(plan: dict, quality: str, media: Path, beats: list[str]) -> list[Path]:
    """The last frame of each named beat, from its cached video, as the preview's PNG."""
    name = plan["storyboard"]["name"]
    cache, folder = BeatCache(media, quality, name), Media(media).frames(name)
    folder.mkdir(parents=True, exist_ok=True)
    ids = [b["id"] for b in plan["beats"]]
    out = []
    for beat in beats:
        i = ids.index(beat)
        record = cache.get(beat_key(plan, quality, i))
        if record is None:
            continue
        path = folder / f"{i:02d}_{beat}.png"
        with replacing(path, suffix=".png") as tmp:
            Path(tmp).write_bytes(last_frame_png(record["mp4"]))
        out.append(path)
    return out


def build(args, pool) -> dict:
    """One build; returns {"seconds", "video", "rendered", "frames"}."""
    start = time.perf_counter()
    plan_in_child([args.storyboard], args.media, args.voice, cache=args.cache)
    plan = load_plan(args.storyboard, args.media)
    name = plan["storyboard"]["name"]
    out = render_storyboards([plan], args.quality, args.media, pool,
                             media_of=lambda n: args.media)[name]
    frames = write_beat_frames(plan, args.quality, args.media, out["rendered"])
    return {"seconds": time.perf_counter() - start, "video": out["video"],
            "rendered": out["rendered"], "frames": frames}


def run_watch(args) -> int:
    pool = LocalPool(max(1, args.jobs))
    last = None
    try:
        while True:
            now = signature(args.storyboard)
            if now is not None and now != last:
                time.sleep(SETTLE)
                if signature(args.storyboard) != now:
                    continue                                # still being written
                last = now
                try:
                    r = build(args, pool)
                except LayerwiseError as e:
                    say(f"error: {e}")
                else:
                    print(f"{time.strftime('%H:%M:%S')} {args.storyboard}: "
                          f"{len(r['rendered'])} beat(s) rendered "
                          f"({', '.join(r['rendered']) or 'none changed'}) in "
                          f"{r['seconds']:.1f} s: {r['video']}", flush=True)
                if args.once:
                    return 0
            elif now is None and args.once:
                raise LayerwiseError(f"{args.storyboard}: no such file")
            time.sleep(POLL)
    finally:
        pool.close()
