"""The `attention_depth` template: where the focus word looks at every layer, as arcs.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
attention_depth.yaml: the shipped storyboard.
"""
