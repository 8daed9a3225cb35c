"""The `residual_stream` template: one token's X as a vector being added to, layer by layer.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
residual_stream.yaml: the shipped storyboard.
"""
