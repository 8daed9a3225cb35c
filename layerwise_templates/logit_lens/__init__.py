"""The `logit_lens` template: every layer's stream decoded as if it were the last, for one prompt.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
logit_lens.yaml: the shipped storyboard.
"""
