"""Moment names (none yet: the handlers wait for narration cues by index); the show names,
declared once for spec.py and the scene."""

LENS, RACE, GRID, RANK, PROMPTS, SPREAD, KL = ("lens", "race", "grid", "rank", "prompts",
                                              "spread", "kl")
SHOWS = (LENS, RACE, GRID, RANK, PROMPTS, SPREAD, KL)
