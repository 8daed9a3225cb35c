"""Review sheets: every beat's last frame with its id, caption and narration on one PNG.

`make preview` writes media/review/<storyboard>.png, so a whole chapter can be checked in
seconds before a long render.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from layerwise_core.atomic import replacing

COLUMNS = 3
THUMB = (427, 240)
PAD = 16
TEXT_LINES = 9
LINE = 17
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def _font(bold: bool = False, size: int = 14):
    try:
        return ImageFont.truetype(FONT_FILES[bold], size)
    except OSError:
        return ImageFont.load_default()


def contact_sheet(plan: dict, frames: Path, out: Path) -> Path:
    beats = plan["beats"]
    rows = (len(beats) + COLUMNS - 1) // COLUMNS
    cell_w, cell_h = THUMB[0] + PAD, THUMB[1] + PAD + TEXT_LINES * LINE + PAD
    header = 48
    sheet = Image.new("RGB", (COLUMNS * cell_w + PAD, header + rows * cell_h), "#0E1117")
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 12), f"{plan['storyboard']['name']}: {plan['title']}  ·  "
                         f"{plan['model']['display']}  ·  {len(beats)} beats, "
                         f"{sum(b['duration'] for b in beats):.1f} s planned",
              fill="#E6E6E6", font=_font(True, 18))
    for i, beat in enumerate(beats):
        x = PAD + (i % COLUMNS) * cell_w
        y = header + (i // COLUMNS) * cell_h
        png = frames / f"{i:02d}_{beat['id']}.png"
        if png.is_file():
            sheet.paste(Image.open(png).convert("RGB").resize(THUMB, Image.LANCZOS), (x, y))
        else:
            draw.rectangle([x, y, x + THUMB[0], y + THUMB[1]], outline="#FF6B6B")
            draw.text((x + 8, y + 8), "no frame", fill="#FF6B6B", font=_font())
        ty = y + THUMB[1] + 6
        draw.text((x, ty), f"{i:02d} {beat['id']}  ({beat['duration']:.1f} s)", fill="#FFE066",
                  font=_font(True))
        caption = textwrap.wrap(beat["caption"], 52)[:2]
        narration = textwrap.wrap(beat["narration"], 56, max_lines=TEXT_LINES - 1 - len(caption),
                                  placeholder=" …")
        for j, line in enumerate(caption + narration):
            colour = "#E6E6E6" if j < len(caption) else "#8A8F98"
            draw.text((x, ty + (j + 1) * LINE), line, fill=colour, font=_font())
    with replacing(out, suffix=".png") as tmp:      # a reader never sees half a sheet
        sheet.save(tmp, format="PNG")
    return out
