"""A progress bar for renders and chapter builds (rich): beats done / total, elapsed,
estimate. Off when stderr is not a terminal (logs, tests, CI)."""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, total: int, what: str = "beats", enabled: bool | None = None):
        self.total, self.done = total, 0
        enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar = None
        if enabled and total:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar,
                                       TextColumn, TimeElapsedColumn, TimeRemainingColumn)
            from rich.console import Console
            self._bar = Bar(TextColumn(f"rendering {what}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("elapsed"), TimeElapsedColumn(),
                            TextColumn("left"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=False)
            self._task = self._bar.add_task(what, total=total)

    def __enter__(self) -> "Progress":
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
