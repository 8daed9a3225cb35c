"""Storyboards: YAML that says what a video shows, validated, then turned into a plan of numbers."""
