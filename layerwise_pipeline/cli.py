"""How the pipeline's commands end: the one error boundary of `layerwise`
(`layerwise_core.cli.boundary`), for the modules' own `python -m` entry points too."""

from __future__ import annotations

from layerwise_core.cli.boundary import guarded as run
from layerwise_core.cli.boundary import say
from layerwise_core.errors import Terminated

__all__ = ["Terminated", "run", "say"]
