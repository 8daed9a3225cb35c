"""The one error boundary of every `layerwise` command: how a command ends.

Bad input or an unwritable place -> one `error: ...` line (a line per problem where several
were found) and exit 2; Ctrl-C -> 130, SIGTERM -> 143 (raised as exceptions, so every
`finally` removes its temporary files first); a reader that left the pipe -> 141, quietly.
Programming errors still raise: they are bugs to see, not user errors.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Callable

from ..atomic import describe_os_error
from ..errors import LayerwiseError, Terminated, shorten


def on_sigterm(signum, frame):
    raise Terminated()


def say(line: str) -> None:
    print(shorten(line, 2000) if "\n" not in line else line, file=sys.stderr, flush=True)


def guarded(body: Callable[[], int | None], *user_errors: type[BaseException],
            where=None) -> int:
    """Run `body` inside the boundary; `where`: the place named for a filesystem error that
    names no file (the media folder)."""
    try:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:                      # not the main thread (a test runner, a worker)
        previous = None
    try:
        code = body() or 0
        sys.stdout.flush()
        return code
    except (LayerwiseError, *user_errors) as e:
        say(f"error: {e}")
        return 2
    except BrokenPipeError:
        return _broken_pipe()
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


def _broken_pipe() -> int:
    """`layerwise info t.npz | head -1`: the reader left; stop quietly, as `cat` does."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError:
        pass
    return 141
