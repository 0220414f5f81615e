"""A game as it is stored: the row of the `games` table and its events."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from kroeg.recorder.errors import NotFoundError
from kroeg.recorder.events import VERDICT_KINDS, Event, HandSkipped, HandStart, without_verdicts
from kroeg.recorder.rules import Ruleset, partners_opposite

__all__ = [
    "FORMAT_VERSION",
    "GameRecord",
    "content_id",
    "log_rows",
    "seats_name",
    "side_name",
    "side_seats",
]

#: Value of the `format_version` column and of the `kroeg.format_version` file metadata.
FORMAT_VERSION = 1


def content_id(prefix: str, *parts: object) -> str:
    """A short stable id derived from the given parts: same parts, same id."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return f"{prefix}{digest[:15]}"


def side_name(players: Sequence[str], teams: Sequence[int], side: int) -> str:
    """The players of a side in alphabetical order, joined: `Anna & Carla`, wherever they
    sat, so that a partnership has one name in every game and on every surface (`kroeg
    stats --by side`, `kroeg hill`, the replay). (SQL: games.side_names.)"""
    return " & ".join(sorted(p for p, team in zip(players, teams, strict=True) if team == side))


def side_seats(teams: Sequence[int] | None, seat: int) -> tuple[int, ...]:
    """The seats of `seat`'s side, by seat (the seat alone where nobody plays in teams)."""
    if not teams:
        return (seat,)
    return tuple(s for s, team in enumerate(teams) if team == teams[seat])


def seats_name(
    players: Sequence[str],
    teams: Sequence[int] | None,
    seats: Iterable[int],
    and_word: str = "and",
) -> str:
    """Who these seats are, in words, by seat: each whole side by its name, the others by
    theirs (`Anna`, `Ben & Dan`, `Anna and Ben`, `Anna & Dan and Ben & Eva`, `Ben & Eva
    and Frits`). How every surface names the winners of a hand or a game, and who is out;
    `and_word` in the reader's language (the newsletter's `en`, `nl`)."""
    chosen = sorted(set(seats))
    named: list[str] = []
    for seat in chosen:
        side = side_seats(teams, seat)
        if len(side) > 1 and set(side) <= set(chosen):
            if side[0] == seat:  # a whole side, named once, at its first seat
                named.append(side_name(players, teams or (), (teams or ())[seat]))
        else:
            named.append(players[seat])
    if not named:
        return "nobody"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" {and_word} " + named[-1]


def log_rows(events: Iterable[Event]) -> list[tuple[object, ...]]:
    """The rows that identify a log's content: the engine's verdicts left out, so a game
    keeps its id whichever version of kroeg recorded it."""
    return [without_verdicts(e).to_row() for e in events if e.kind not in _NOT_CONTENT]


#: What a game's id leaves out: the engine's verdicts, and the hands a lenient reading
#: passed over (`hand_skipped`, recorded since; the same text keeps the id it had).
_NOT_CONTENT = VERDICT_KINDS | {"hand_skipped"}


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
    #: The kind of evening the game was declared part of (`king-of-the-hill`,
    #: recorder.hill), or None: a game on its own.
    evening: str | None = None

    def __post_init__(self) -> None:
        if not self.ruleset:
            object.__setattr__(self, "ruleset", self.rules.name)
        if self.teams is None and (self.rules.game == "troefcall" or self.rules.teams):
            # The rules fix the partnerships: partners sit opposite.
            object.__setattr__(self, "teams", partners_opposite(len(self.players)))

    @property
    def game_type(self) -> str:
        """`toepen` or `troefcall`."""
        return self.rules.game

    @property
    def hands(self) -> int:
        """How many hands the game's log holds."""
        return len(self.hand_starts())

    def hand_starts(self) -> list[int]:
        """The position in `events` of each hand's first event: its `hand_start`, or the
        `hand_skipped` of a hand a lenient reading could not referee."""
        return [
            i for i, e in enumerate(self.events) if type(e) is HandStart or type(e) is HandSkipped
        ]

    def hand_bounds(self, number: int) -> tuple[int, int]:
        """Where hand `number` (1-based) begins and ends in `events`: the one way to slice
        a game into hands. NotFoundError names the hands there are."""
        starts = self.hand_starts()
        if not starts:
            raise NotFoundError(f"game {self.game_id} has no hands")
        if not 1 <= number <= len(starts):
            raise NotFoundError(
                f"game {self.game_id} has hands 1 to {len(starts)}, not hand {number}"
            )
        end = starts[number] if number < len(starts) else len(self.events)
        return starts[number - 1], end

    def side_name(self, side: int) -> str:
        """A side's players by seat, joined: `Anna & Carla` (games played in teams)."""
        return side_name(self.players, self.teams or (), side)
