"""Pure functions on traces: every number a scene shows is computed here, never in a scene."""
