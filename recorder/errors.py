"""The errors kroeg raises. Every one is a `ValueError`.

    KroegError(ValueError)
    ├── CardError            a card, rank or suit that cannot be read
    ├── RulesError           a rule set that is not valid (unknown variant, bad value)
    ├── NotationError        a syntax error in a typed log; carries line and column
    ├── IllegalActionError   a rule broken: the engine refused an action or event
    └── DatasetError         a folder that is not a kroeg dataset, or a damaged file

Messages say what was found, what was expected and where.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "DatasetError",
    "IllegalActionError",
    "KroegError",
    "NotationError",
    "RulesError",
]


class KroegError(ValueError):
    """Base class of every error kroeg raises on purpose."""


class CardError(KroegError):
    """A card, rank or suit that cannot be read; `reason` says what was wrong with it."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class RulesError(KroegError):
    """A rule set that is not valid."""


class NotationError(KroegError):
    """A syntax error in a typed hand history, at a line and column (1-based)."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(self.located())

    def located(self) -> str:
        """The message prefixed with `file:line:col:` where known."""
        where = [str(x) for x in (self.source, self.line, self.column) if x is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message


class IllegalActionError(KroegError):
    """An action or event that breaks a rule; the message names the rule in words."""


class DatasetError(KroegError):
    """A folder that is not a kroeg dataset, or a file in it that is damaged."""
