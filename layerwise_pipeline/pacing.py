"""Pacing, measured (issue 22, item 5): how much of a video is narrated, where it is silent and
whether the picture moves then, and where the layer on screen changes faster than a viewer
can read. `scripts/pacing_report.py` prints it; the functions here are pure but `frame_motion`.

- *Narrated*: the union of the `.srt` cue spans over the video's duration. Target: at least
  `NARRATED_TARGET` (75 %).
- *Silence*: a gap of more than `SILENCE_S` (3 s) between cues, or before the first or after
  the last. It *moves* when at least `MOVING_SHARE` (half) of its frames change from the frame
  before (a frame changes when more than `CHANGED_PX` grey pixels move by more than
  `PIXEL_STEP`/255, the still test of ../shared/tools/motion_report.py with a few pixels of
  slack for the encoder); target: no silence over 3 s unless the picture moves.
- *Montage*: a run of at least `MONTAGE_LAYERS` layers shown one after another, each for less
  than `MONTAGE_S` (1.5 s). 1.5 s is about the shortest time a short subtitle is left on screen
  in subtitling practice, and what the narration takes (at its 150 words a minute) to say
  "layer seventeen" and one word more: a layer shown for less is seen flicker past, not
  read. The layer on screen is read from the scene's text records (`text/NN_beat.json` of a
  preview with `--midplay`, scenes/base.py): a number bound to a plan path
  `...layers[l]...` that appears in the middle of a play shows layer l then; a play that
  brings in more than `MAX_NEW_LAYERS` layers at once (an axis, a table) is a whole picture,
  not a step.
"""

from __future__ import annotations

import re

NARRATED_TARGET = 0.75
SILENCE_S = 3.0
MOVING_SHARE = 0.5
PIXEL_STEP = 8
CHANGED_PX = 16
MONTAGE_S = 1.5
MONTAGE_LAYERS = 3
MAX_NEW_LAYERS = 2

_TIME = r"(\d+):(\d\d):(\d\d)[,.](\d{1,3})"
_CUE = re.compile(rf"^\s*{_TIME}\s*-->\s*{_TIME}")
_LAYER = re.compile(r"(?:^|\.)layers\[(\d+)\]")


class SrtError(ValueError):
    """A line of an .srt that is not what it should be (the message says which line)."""


def _seconds(h, m, s, ms) -> float:
    return int(h) * 3600 + int(m) * 60 + int(s) + int(ms.ljust(3, "0")) / 1000


def parse_srt(text: str) -> list[tuple[float, float, str]]:
    """(start, end, text) of every cue of an .srt, in file order; SrtError for a timing line
    that does not parse or ends before it starts."""
    cues, block = [], []
    for number, line in enumerate(text.splitlines() + [""], 1):
        if line.strip():
            block.append((number, line))
            continue
        if block:
            timing = [(n, ln) for n, ln in block if "-->" in ln]
            if not timing:
                raise SrtError(f"line {block[0][0]}: a cue without a 'start --> end' line")
            n, ln = timing[0]
            m = _CUE.match(ln)
            if m is None:
                raise SrtError(f"line {n}: not an srt timing line: {ln.strip()!r}")
            start, end = _seconds(*m.groups()[:4]), _seconds(*m.groups()[4:])
            if end < start:
                raise SrtError(f"line {n}: the cue ends before it starts")
            words = " ".join(ln.strip() for k, ln in block if k > n)
            cues.append((start, end, words))
            block = []
    return cues


def union(spans) -> list[tuple[float, float]]:
    """The spans merged where they overlap or touch, in time order."""
    out: list[list[float]] = []
    for a, b in sorted((float(a), float(b)) for a, b, *_ in spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def narrated_share(spans, duration: float) -> float:
    """The share of [0, duration] that the union of the spans covers."""
    if duration <= 0:
        return 0.0
    return sum(min(b, duration) - max(a, 0.0) for a, b in union(spans)
               if b > 0 and a < duration) / duration


def silences(spans, duration: float, longer_than: float = SILENCE_S) -> list[tuple[float, float]]:
    """Every gap of more than `longer_than` seconds in [0, duration] that no span covers."""
    gaps, t = [], 0.0
    for a, b in union(spans) + [(duration, duration)]:
        if a - t > longer_than:
            gaps.append((t, min(a, duration)))
        t = max(t, b)
    return gaps


def moving(changed: list[tuple[float, int]], start: float, end: float) -> dict:
    """Of the frames in [start, end) (each (time, grey pixels changed from the frame before)):
    the share that change, the longest still run in seconds, and whether the picture moves."""
    inside = [(t, c) for t, c in changed if start <= t < end]
    if not inside:
        return {"share": 0.0, "still_s": round(end - start, 2), "moves": False}
    step = (inside[-1][0] - inside[0][0]) / max(1, len(inside) - 1) if len(inside) > 1 else \
        end - start
    run = best = 0
    for _, c in inside:
        run = 0 if c > CHANGED_PX else run + 1
        best = max(best, run)
    share = sum(c > CHANGED_PX for _, c in inside) / len(inside)
    return {"share": round(share, 3), "still_s": round(best * step, 2),
            "moves": share >= MOVING_SHARE}


def layer_events(samples) -> list[tuple[float, int]]:
    """(time, layer) whenever the layer on screen changes: from mid-play samples (time, texts)
    in time order, a text bound to `...layers[l]...` that was not on screen in the sample
    before shows layer l (the largest, when two come in: a chart moving on from l - 1 to l);
    a sample bringing in more than MAX_NEW_LAYERS layers is a whole picture, not a step."""
    events, before = [], set()
    for time, texts in samples:
        now = {(t.get("source"), t.get("text")) for t in texts if t.get("source")}
        new = {int(m.group(1)) for source, _ in now - before
               for m in [_LAYER.search(source)] if m}
        before = now
        if not new or len(new) > MAX_NEW_LAYERS:
            continue
        layer = max(new)
        if not events or events[-1][1] != layer:
            events.append((float(time), layer))
    return events


def montages(events, faster_than: float = MONTAGE_S, at_least: int = MONTAGE_LAYERS) -> list:
    """Runs of at least `at_least` layer events each shown for less than `faster_than`
    seconds before the next: {start, end, layers (first, last), count, per_layer}."""
    out, run = [], events[:1]
    for prev, ev in zip(events, events[1:]):
        if ev[0] - prev[0] < faster_than:
            run.append(ev)
            continue
        out += _montage(run, at_least)
        run = [ev]
    out += _montage(run, at_least)
    return out


def _montage(run, at_least: int) -> list:
    if len(run) < at_least:
        return []
    span = run[-1][0] - run[0][0]
    return [{"start": round(run[0][0], 2), "end": round(run[-1][0], 2),
             "layers": (run[0][1], run[-1][1]), "count": len(run),
             "per_layer": round(span / (len(run) - 1), 2)}]


def beat_at(bounds, t: float) -> str:
    """The beat (id) whose [start, end) holds time t; bounds are (id, start, end)."""
    for name, a, b in bounds:
        if a <= t < b:
            return name
    return bounds[-1][0] if bounds else ""


def frame_motion(video) -> tuple[list[tuple[float, int]], float]:
    """(time, grey pixels changed by more than PIXEL_STEP from the frame before) per frame of
    a video (the first frame: 0 changed), and its duration in seconds (PyAV)."""
    import av
    import numpy as np
    out, prev, t = [], None, 0.0
    with av.open(str(video)) as c:
        st = c.streams.video[0]
        fps = float(st.average_rate or 15)
        for fr in c.decode(st):
            t = float(fr.pts * st.time_base) if fr.pts is not None else t + 1 / fps
            a = fr.to_ndarray(format="gray").astype(np.int16)
            out.append((t, 0 if prev is None else int((np.abs(a - prev) > PIXEL_STEP).sum())))
            prev = a
    return out, (out[-1][0] + 1 / fps) if out else 0.0
