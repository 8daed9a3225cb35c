"""Manim scenes that render layerwise plans. Nothing here imports torch or does model math:
every number arrives in the plan (see layerwise_core.plans)."""
