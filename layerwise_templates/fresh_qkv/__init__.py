"""The `fresh_qkv` template: fresh Q, K, V at every layer, shown happening on a few real numbers of
one word.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
fresh_qkv.yaml: the shipped storyboard.
"""
