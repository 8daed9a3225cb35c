"""layerwise core: real per-layer transformer traces as plain data.

Data flows one way: weights -> models (hookable forward) -> trace (arrays + JSON on disk)
-> analysis (pure functions) -> storyboard plan -> scenes.
"""

__version__ = "0.1.0"
