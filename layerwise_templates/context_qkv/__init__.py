"""The `context_qkv` template: one word in two sentences: the same W at every layer, a different X,
so different Q, K, V.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
context_qkv.yaml: the shipped storyboard.
"""
