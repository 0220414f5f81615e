"""A game as it is stored: the row of the `games` table and its events."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from recorder.events import VERDICT_KINDS, Event
from recorder.rules import Ruleset
from recorder.troefcall import TEAMS

__all__ = ["FORMAT_VERSION", "GameRecord", "content_id", "log_rows"]

#: Value of the `format_version` column and of the `kroeg.format_version` file metadata.
FORMAT_VERSION = 1


def content_id(prefix: str, *parts: object) -> str:
    """A short stable id derived from the given parts: same parts, same id."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return f"{prefix}{digest[:15]}"


def log_rows(events: Iterable[Event]) -> list[tuple[object, ...]]:
    """The rows that identify a log's content: the engine's verdicts left out, so a game
    keeps its id whichever version of kroeg recorded it."""
    return [e.to_row() for e in events if e.kind not in VERDICT_KINDS]


@dataclass(frozen=True)
class GameRecord:
    """One game: everything in its `games` row, and its events in play order."""

    game_id: str
    rules: Ruleset
    players: tuple[str, ...]
    events: tuple[Event, ...]
    source: str = "engine"
    started_at: datetime | None = None
    venue: str | None = None
    seed: int | None = None
    teams: tuple[int, ...] | None = None
    ruleset: str = field(default="")

    def __post_init__(self) -> None:
        if not self.ruleset:
            object.__setattr__(self, "ruleset", self.rules.name)
        if self.teams is None and self.rules.game == "troefcall":
            object.__setattr__(self, "teams", TEAMS)  # the rules fix the partnerships

    @property
    def game_type(self) -> str:
        """`toepen` or `troefcall`."""
        return self.rules.game

    @property
    def hands(self) -> int:
        """How many hands the game's log holds."""
        return sum(1 for e in self.events if e.kind == "hand_start")
