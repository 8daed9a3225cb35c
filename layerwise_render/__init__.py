"""The render backend: how layerwise drives Manim, below the scenes and the pipeline.

- `session.py`: Manim's configuration for a render (`manim_session(manim_options(...))`), the
  quality names and the encoder settings.
- `manim_patches.py`: every place layerwise reaches into Manim or manim-slides beyond their
  public API, listed and checked against the pinned versions.
- `camera.py`: `KitCamera`, the camera every scene draws with; `drawing.py` and
  `drawing_tiles.py`: drawing only what changed, paths reused, frames without copies.
- `encoder.py`: Manim's segment encoder minus conversions that cannot change the video.
- `slides.py`: a scene as a manim-slides presentation (one slide per beat).

Nothing here imports the scenes, the templates or the pipeline: a scene receives what it
renders (plan, beat range, frames folder) in its constructor.
"""
