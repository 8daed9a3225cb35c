"""Joining videos by stream copy: a chapter from its parts, a storyboard from its beats.

`join(titles, videos, out, title)` concatenates mp4s without re-encoding (one chapter
marker per part when `titles` is given), with one audio track over the whole length when
any part has sound (silence, encoded in the same codec, fills the rest); `merge_srt` merges
the parts' subtitles, each shifted by its part's start; `mark` gives a finished mp4 one chapter
marker per beat (`beat_marks`), so a player's chapter list walks a video beat by beat.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from layerwise_core.atomic import replacing, write_text
from layerwise_core.errors import LayerwiseError


class JoinError(LayerwiseError):
    """Videos that cannot be joined (the message says which and why)."""


def _shifted(src, stream, out_stream, offset: int, dst) -> int:
    """Copy one stream's packets into `dst`, shifted by `offset`; returns the end time."""
    end = offset
    for packet in src.demux(stream):
        if packet.dts is None:
            continue
        packet.pts += offset
        packet.dts += offset
        end = max(end, packet.pts + packet.duration)
        packet.stream = out_stream
        dst.mux(packet)
    return end


def _silence(template, start: int, end: int, out_stream, dst) -> None:
    """Encoded silence (the template audio stream's codec, rate and layout) from `start` to
    `end` (in 1/rate units), muxed into `out_stream`: whole codec frames, never past `end`."""
    import av
    cc = template.codec_context
    rate, frame = cc.sample_rate, cc.frame_size or 1024
    n = (end - start) // frame
    if n <= 0:
        return
    enc = av.CodecContext.create(cc.name, "w")
    enc.sample_rate, enc.layout, enc.format = rate, cc.layout.name, cc.format.name
    enc.time_base = Fraction(1, rate)
    enc.open()
    packets = []
    for k in range(n + 1):                  # one frame more: the encoder's priming packet
        f = av.AudioFrame(format=cc.format.name, layout=cc.layout.name, samples=frame)
        for plane in f.planes:
            plane.update(bytes(plane.buffer_size))
        f.sample_rate, f.pts, f.time_base = rate, k * frame, Fraction(1, rate)
        packets += enc.encode(f)
    packets += enc.encode(None)
    packets = [p for p in packets if p.pts is None or p.pts >= 0][:n]
    for k, packet in enumerate(packets):
        packet.pts = packet.dts = start + k * frame
        packet.duration = frame
        packet.time_base = Fraction(1, rate)
        packet.stream = out_stream
        dst.mux(packet)


def join(titles: list[str] | None, videos: list[Path], out: Path, title: str
         ) -> tuple[list[dict], bool]:
    """Concatenate the mp4s (stream copy), with one chapter marker per part when `titles`
    is given; atomic. Returns the parts' (title, start, end) and whether there is sound.

    If any part has sound, the chapter has an audio track over its whole length: each part's
    audio is copied at the part's start, and silence (encoded in the same codec) fills a part
    without sound and the rest of a part whose sound ends before its video. Returns
    (chapters, has_audio)."""
    import av
    out.parent.mkdir(parents=True, exist_ok=True)
    has_audio = []
    for v in videos:
        with av.open(str(v)) as c:
            has_audio.append(bool(c.streams.audio))
    with_audio = any(has_audio)
    chapters, seconds = [], Fraction(0)
    with replacing(out, suffix=".mp4") as tmp:
        with av.open(str(tmp), "w", format="mp4") as dst:
            dst.metadata["title"] = title
            with av.open(str(videos[0])) as first:     # every stream before the first packet
                vout = dst.add_stream_from_template(first.streams.video[0])
                tb = first.streams.video[0].time_base
            aout = atemplate = None
            if with_audio:
                voiced = av.open(str(videos[has_audio.index(True)]))
                atemplate = voiced.streams.audio[0]
                aout = dst.add_stream_from_template(atemplate)
                rate = atemplate.codec_context.sample_rate
                sound = (rate, atemplate.codec_context.layout.name, atemplate.codec_context.name)
            try:
                for i, video in enumerate(videos):
                    with av.open(str(video)) as src:
                        s = src.streams.video[0]
                        if s.time_base != tb:
                            raise JoinError(f"{video}: time base {s.time_base} differs from {tb}")
                        start = int(seconds / tb)
                        end = _shifted(src, s, vout, start, dst)
                    if with_audio:
                        a_start = int(seconds * rate)
                        a_end = int(Fraction(end) * tb * rate)
                        heard = a_start
                        if has_audio[i]:
                            with av.open(str(video)) as src:
                                a = src.streams.audio[0]
                                got = (a.codec_context.sample_rate, a.codec_context.layout.name,
                                       a.codec_context.name)
                                if got != sound:
                                    raise JoinError(f"{video}: audio {got} differs from "
                                                      f"{sound}")
                                heard = _shifted(src, a, aout, int(seconds / a.time_base), dst)
                                heard = int(Fraction(heard) * a.time_base * rate)
                        _silence(atemplate, heard, a_end, aout, dst)
                    chapters.append({"id": i + 1, "start": start, "end": end, "time_base": tb,
                                     "metadata": {"title": titles[i] if titles else str(i + 1)}})
                    seconds = Fraction(end) * tb
            finally:
                if with_audio:
                    voiced.close()
            if titles:
                dst.set_chapters(chapters)
    return [{"title": c["metadata"]["title"], "start": float(c["start"] * c["time_base"]),
             "end": float(c["end"] * c["time_base"])} for c in chapters], with_audio


def beat_marks(plan: dict, durations: list[float]) -> list[tuple[str, float]]:
    """(title, start in seconds) of each beat: its caption (its id when it has none), from
    the beats' durations in order."""
    starts = [sum(durations[:i]) for i in range(len(durations))]
    return [(b.get("caption") or b["id"], t) for b, t in zip(plan["beats"], starts)]


def mark(video: Path, marks: list[tuple[str, float]]) -> None:
    """Rewrite `video` by stream copy (atomic) with one chapter marker per (title, start):
    each ends where the next begins, the last at the video's end."""
    import av
    ms = Fraction(1, 1000)
    with replacing(video, suffix=".mp4") as tmp:
        with av.open(str(video)) as src, av.open(str(tmp), "w", format="mp4") as dst:
            dst.metadata.update(src.metadata)
            outs = {s.index: dst.add_stream_from_template(s) for s in src.streams
                    if s.type in ("video", "audio")}
            end = 0
            for packet in src.demux(*[s for s in src.streams if s.index in outs]):
                if packet.dts is None:
                    continue
                end = max(end, float((packet.pts + (packet.duration or 0))
                                     * packet.stream.time_base))
                packet.stream = outs[packet.stream.index]
                dst.mux(packet)
            bounds = [t for _, t in marks[1:]] + [end]
            dst.set_chapters([{"id": i + 1, "start": round(t / ms), "end": round(b / ms),
                               "time_base": ms, "metadata": {"title": title}}
                              for i, ((title, t), b) in enumerate(zip(marks, bounds))])


def merge_srt(srts: list[Path], starts: list[float], out: Path) -> None:
    import datetime

    import srt
    cues = []
    for path, start in zip(srts, starts):
        shift = datetime.timedelta(seconds=start)
        if path.is_file():
            for cue in srt.parse(path.read_text(encoding="utf-8")):
                cues.append(srt.Subtitle(len(cues) + 1, cue.start + shift, cue.end + shift,
                                         cue.content))
    write_text(out, srt.compose(cues, reindex=False))
