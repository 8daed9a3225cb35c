"""Is this mp4 whole? Open it with PyAV, read every packet, count the frames.

`facts(path)` -> {"frames", "duration", "bytes", "sha256"} of a video that opens and whose
packets can all be read (a truncated or zeroed file fails here, not later in a join);
`matches(path, record)` checks a video against the facts its manifest recorded.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from layerwise_core.errors import LayerwiseError


class BadVideo(LayerwiseError):
    """The file is missing, does not open, or is not the video its record describes."""


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def facts(path: Path) -> dict:
    import av
    path = Path(path)
    try:
        size = path.stat().st_size
        with av.open(str(path)) as c:
            if not c.streams.video:
                raise BadVideo(f"{path}: no video stream")
            s = c.streams.video[0]
            frames, first, end = 0, None, 0
            for packet in c.demux(s):
                if packet.dts is None:                 # the flush packet at the end
                    continue
                if packet.size == 0:
                    raise BadVideo(f"{path}: empty packet {frames}")
                frames += 1
                first = packet.pts if first is None else min(first, packet.pts)
                end = max(end, packet.pts + (packet.duration or 0))
            declared = s.frames
            time_base = s.time_base
    except BadVideo:
        raise
    except (OSError, ValueError, av.error.FFmpegError) as e:
        raise BadVideo(f"{path}: not a readable video ({' '.join(str(e).split())})") from None
    if frames == 0:
        raise BadVideo(f"{path}: no frames")
    if declared and declared != frames:
        raise BadVideo(f"{path}: {frames} of its {declared} frames can be read")
    return {"frames": frames, "duration": round(float((end - (first or 0)) * time_base), 6),
            "bytes": size, "sha256": sha256(path)}


def matches(path: Path, record: dict) -> bool:
    """True when `path` is the whole video `record` (a manifest's `video_facts`) describes."""
    path = Path(path)
    want = record or {}
    try:
        if not want or path.stat().st_size != want.get("bytes"):
            return False
        got = facts(path)
    except (OSError, BadVideo):
        return False
    return all(got[k] == want.get(k) for k in ("frames", "bytes", "sha256"))
