"""One Manim scene class per storyboard template, built over the shared kit in `scenes/`.

The registry of templates lives in `layerwise_core.templates` (it names each class here by
its import path), so the validator, the planner and the renderer read one list.
"""
