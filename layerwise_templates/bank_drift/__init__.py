"""The `bank_drift` template: one word in several sentences, and how far apart its vectors drift
layer by layer.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
draft.py: a storyboard of this template drafted from a sentence.
scene*.py: the Manim scene; it reads the plan only.
bank_drift.yaml: the shipped storyboard.
"""
