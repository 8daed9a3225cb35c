"""The `toy_loop` template: the chapter's toy loop: the code with a cursor, and on a plane the 2-d
X carried through each pass's three random W's.

spec.py: its registry entry (one line of layerwise_templates/__init__.py names it).
plan.py: storyboard + traces -> every number the scene shows.
scene*.py: the Manim scene; it reads the plan only.
toy_loop.yaml: the shipped storyboard.
"""
