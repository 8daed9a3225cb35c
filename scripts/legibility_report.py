"""The smallest text of every beat, and everything under the legibility floor.

Usage: scripts/legibility_report.py [STORYBOARD ...] [--media DIR] [--floor PX] [--no-render]
With no storyboard: every shipped one. Each is planned (silent) and previewed at 854x480 into
DIR (default /tmp/legibility-media), one at a time, with the text sizes sampled at every
beat's last frame and in the middle of every play (`render --preview --midplay`, scenes/base.py);
`--no-render` reads the text records already in DIR/frames. Sizes are cap heights in px
(scenes/legibility.py: superscripts and subscripts at their own, smaller size); the floor is
`legibility.FLOOR_PX`. Prints, per storyboard and beat, the smallest text and each text under
the floor ("end": on the beat's last frame; "mid": standing still in the middle of a play),
then a summary line per storyboard. Run from the repository root: the code of the directory
it runs from is what is measured. Exit 1 when anything is under the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())        # the code of the directory it runs from


def shipped() -> list[Path]:
    return sorted(Path().glob("layerwise_templates/*/*.yaml"))


def measure(storyboard: Path, media: Path) -> None:
    """Plan (silent) and preview one storyboard into `media`, sampling text mid-play too."""
    for cmd in ([sys.executable, "-m", "layerwise_core", "plan", "--media", str(media),
                 str(storyboard)],
                [sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1",
                 "--preview", "--midplay", "--media", str(media), str(storyboard)]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(f"{storyboard}: {' '.join(cmd[2:4])} failed:\n{r.stderr[-2000:]}")


def records(frames: Path) -> list[tuple[str, dict]]:
    """(beat stem like '02_scores', its text record) in beat order."""
    return [(f.stem, json.loads(f.read_text())) for f in sorted((frames / "text").glob("*.json"))]


def show(t: dict) -> str:
    script = f" (script {t['script']})" if t["script"] else ""
    return f"{t['min_px'] if 'min_px' in t else t['px']:.1f} px {t['text'][:48]!r}{script}"


def report(name: str, frames: Path, floor: float) -> int:
    from scenes.legibility import smallest, under_floor
    print(f"{name} (floor {floor:g} px cap height at 854x480)")
    beats = records(frames)
    if not beats:
        raise SystemExit(f"{name}: no text records in {frames / 'text'}")
    flagged, texts = 0, set()
    for stem, record in beats:
        low = smallest(record)
        mids = len(record.get("midplay", []))
        print(f"  {stem:22s} smallest {show(low) if low else '(no text)'}  [{mids} plays sampled]")
        under = under_floor(record, floor)
        flagged += bool(under)
        for v in under:
            texts.add((v["text"], v["script"]))
            script = f" (script {v['script']})" if v["script"] else ""
            print(f"      under: {v['when']:3s} {v['px']:.1f} px {v['text'][:60]!r}{script}")
    print(f"  = {len(beats)} beats, {flagged} with text under {floor:g} px, "
          f"{len(texts)} distinct texts")
    return flagged


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("storyboards", type=Path, nargs="*")
    p.add_argument("--media", type=Path, default=Path("/tmp/legibility-media"))
    p.add_argument("--floor", type=float, default=None)
    p.add_argument("--no-render", action="store_true")
    a = p.parse_args()
    from scenes.legibility import FLOOR_PX
    floor = FLOOR_PX if a.floor is None else a.floor
    flagged = 0
    for sb in a.storyboards or shipped():
        if not a.no_render:
            measure(sb, a.media)
        flagged += report(sb.stem, a.media / "frames" / sb.stem, floor)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
