"""The `per_head` template: one layer's heads: each reads the same X with its own W_Q, W_K, W_V;
one head worked through for the focus word with its real numbers.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
per_head.yaml: the shipped storyboard.
"""
