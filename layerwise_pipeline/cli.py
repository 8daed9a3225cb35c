"""How the pipeline commands end: one stderr line and an exit code, never a traceback.

`run(body, *user_errors)`: bad input or an unwritable place -> `error: ...` and 2; Ctrl-C ->
130 and SIGTERM -> 143 (raised as exceptions, so every `finally` removes its work folder
first). Programming errors still raise: they are bugs to see, not user errors.
"""

from __future__ import annotations

import signal
import sys
from typing import Callable

from layerwise_core.atomic import describe_os_error
from layerwise_core.errors import LayerwiseError, shorten

from .videocheck import BadVideo


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C so every `finally` removes its temporary files."""


def on_sigterm(signum, frame):
    raise Terminated()


def say(line: str) -> None:
    print(shorten(line, 2000) if "\n" not in line else line, file=sys.stderr, flush=True)


def run(body: Callable[[], int], *user_errors: type[BaseException], where=None) -> int:
    """`where`: the place named for a filesystem error that names no file (the media)."""
    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:                      # not the main thread
        previous = None
    try:
        return body()
    except (LayerwiseError, BadVideo, *user_errors) as e:
        say(f"error: {e}")
        return 2
    except OSError as e:                    # a filesystem failure no layer anticipated
        say(f"error: {describe_os_error(e, e.filename or where or 'output')}")
        return 2
    except KeyboardInterrupt:
        say("error: interrupted (Ctrl-C); no partial output was kept")
        return 130
    except Terminated:
        say("error: terminated (SIGTERM); no partial output was kept")
        return 143
    finally:
        if previous is not None:
            try:
                signal.signal(signal.SIGTERM, previous)
            except ValueError:
                pass
