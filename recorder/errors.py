"""The errors kroeg raises: one tree, every class a `ValueError`.

    KroegError(ValueError)
    ├── UsageError           an option or argument out of its range: a count, a choice, a month
    ├── CardError            a card, rank or suit that cannot be read
    ├── RulesError           a rule set that is not valid (unknown variant, bad value)
    ├── NotationError        a typed log that cannot be read; carries line and column
    │   └── NotationRuleError    …that reads, but breaks a rule (the engine's message, located)
    ├── CommandError         a line typed at the table (manual entry) that cannot be read
    ├── UnknownName          a word that names no player, or more than one
    ├── IllegalActionError   a rule broken: the engine refused an action or event
    ├── NotFoundError        a game, hand, player or month the dataset does not hold
    ├── RejectedError        input refused as a whole after its errors were reported
    ├── DashboardError       the dashboard cannot start, or its server stopped by itself
    ├── WorkerError          a task failed in an analysis worker process
    ├── Interrupted          the work was stopped (Ctrl-C); what was finished is kept
    └── DatasetError         a folder that is not a kroeg dataset, or a damaged file
        ├── DatasetChanged       a file went away while it was read (a compaction): read again
        ├── AccessError          a file or folder kroeg may not read or write (its permissions)
        └── JournalError         a manual-entry journal that cannot be read or continued

Messages say what was found, what was expected and where. The command line
turns every one into a single line `Error: …`. Its exit code follows one rule: 2 when
the command line itself asks for something impossible (a `UsageError`: an option's
value, a count, names that cannot sit at a table; or a `RulesError`: a rule set that
is not one, from --rules, --variant or a club's rules file), as for the values typer
refuses; 1 when the command was right but its input, its dataset or its work was not.
An `Interrupted` is the one line `Interrupted: …` and exit 130, as a shell reports Ctrl-C.
"""

from __future__ import annotations

__all__ = [
    "AccessError",
    "CardError",
    "CommandError",
    "DashboardError",
    "DatasetChanged",
    "DatasetError",
    "IllegalActionError",
    "Interrupted",
    "JournalError",
    "KroegError",
    "NotFoundError",
    "NotationError",
    "NotationRuleError",
    "RejectedError",
    "RulesError",
    "UnknownName",
    "UsageError",
    "WorkerError",
]


class KroegError(ValueError):
    """Base class of every error kroeg raises on purpose."""


class UsageError(KroegError):
    """An option or argument outside what the command accepts."""


class CardError(KroegError):
    """A card, rank or suit that cannot be read; `reason` says what was wrong with it."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class RulesError(KroegError):
    """A rule set that is not valid."""


class NotationError(KroegError):
    """A typed hand history that cannot be read, at a line and column (1-based)."""

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

    def __reduce__(self) -> tuple[type[NotationError], tuple[object, ...]]:
        # As made, line and column kept (an exception pickles its message alone): errors
        # found in a worker process come back whole (`parsers.validate`).
        return type(self), (self.message, self.line, self.column, self.source)

    def located(self) -> str:
        """The message prefixed with `file:line:col:` where known."""
        where = [str(x) for x in (self.source, self.line, self.column) if x is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message


class NotationRuleError(NotationError):
    """A typed log that breaks a rule; the message is the engine's, with line and column."""


class CommandError(KroegError):
    """A line typed at the table that cannot be read as a card or an action."""


class UnknownName(KroegError):
    """A word that names no player, or more than one."""


class IllegalActionError(KroegError):
    """An action or event that breaks a rule; the message names the rule in words."""


class NotFoundError(KroegError):
    """Something asked for by name or number that the dataset does not hold."""


class RejectedError(KroegError):
    """Input refused as a whole; its errors were reported one by one before."""


class DashboardError(KroegError):
    """The dashboard cannot start (an address it cannot listen on, a port in use) or its
    server stopped by itself."""


class WorkerError(KroegError):
    """A task failed in a worker process (the message holds the worker's traceback)."""


class Interrupted(KroegError):
    """The person stopped the work (Ctrl-C, SIGINT); the message says what is kept."""


class DatasetError(KroegError):
    """A folder that is not a kroeg dataset, or a file in it that is damaged."""


class DatasetChanged(DatasetError):
    """A file went away while it was being read: a compaction swapped it. Read again."""


class AccessError(DatasetError):
    """A file or folder of the dataset that kroeg may not read or write: its permissions,
    not its content, are wrong."""


class JournalError(DatasetError):
    """A manual-entry journal that cannot be read or continued."""
