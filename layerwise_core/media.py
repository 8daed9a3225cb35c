"""Where everything a storyboard makes lives under a media folder: the one layout.

    media = Media(Path("course/media"))
    media.plan("bank")                 # course/media/plans/bank.json
    media.video("bank", "480p15")      # course/media/videos/480p15/bank.mp4 (+ .srt, manifest)
    media.frames("bank")               # course/media/frames/bank/ (a beat's PNG and JSON)
    media.chapter_part("l", "bank")    # a Media of its own: course/media/chapter/l/bank/

Every place that names a file under media (planning, render, preview, slides, chapter,
watch, the beat cache, estimate) asks this object; a work folder that is published into media
later (`layerwise_pipeline.staging`) has the same layout: `Media(work)`. The video folder is
Manim's `<height>p<rate>` (480p15), from the quality (`layerwise_render.session`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MEDIA = Path("media")           # the default media folder
PLANS, VIDEOS, IMAGES, FRAMES, REVIEW, SLIDES, BEATS, CHAPTER, SECTIONS = (
    "plans", "videos", "images", "frames", "review", "slides", "beats", "chapter", "sections")
# the same layout told to Manim (it fills in its own `media_dir` and `quality`, e.g. 480p15)
MANIM_DIRS = {"video_dir": f"{{media_dir}}/{VIDEOS}/{{quality}}",
              "images_dir": f"{{media_dir}}/{IMAGES}/{{quality}}"}


@dataclass(frozen=True)
class Media:
    """The layout under `root` (see the module docstring)."""
    root: Path = MEDIA

    def __post_init__(self):
        object.__setattr__(self, "root", Path(self.root))

    def plan(self, name: str) -> Path:
        return self.root / PLANS / f"{name}.json"

    def videos(self, folder: str) -> Path:
        """The folder of the videos at one quality (`480p15`)."""
        return self.root / VIDEOS / folder

    def video(self, name: str, folder: str) -> Path:
        return self.videos(folder) / f"{name}.mp4"

    def subtitles(self, name: str, folder: str) -> Path:
        return self.videos(folder) / f"{name}.srt"

    def manifest(self, name: str, folder: str) -> Path:
        return self.videos(folder) / f"{name}.manifest.json"

    def sections(self, folder: str) -> Path:
        """A video's sections (one mp4 a beat) and their index (`section_index`)."""
        return self.videos(folder) / SECTIONS

    def section_index(self, name: str, folder: str) -> Path:
        return self.sections(folder) / f"{name}.json"

    def images(self) -> Path:
        """Manim's still images (a preview's last frames), by quality."""
        return self.root / IMAGES

    def frames(self, name: str | None = None) -> Path:
        """The preview frames (every storyboard's, or one storyboard's folder)."""
        return self.root / FRAMES if name is None else self.root / FRAMES / name

    def review(self, name: str) -> Path:
        """A preview's contact sheet."""
        return self.root / REVIEW / f"{name}.png"

    def slides(self, name: str) -> Path:
        return self.root / SLIDES / f"{name}.html"

    def beats(self, quality: str, name: str) -> Path:
        """The cache of rendered beats of one storyboard at one quality."""
        return self.root / BEATS / quality / name

    def chapter_part(self, quality: str, name: str) -> "Media":
        """A chapter part's own media folder (its plan, videos and manifest)."""
        return Media(self.root / CHAPTER / quality / name)



__all__ = ["MANIM_DIRS", "MEDIA", "Media"]
