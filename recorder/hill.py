"""Troefcall's king-of-the-hill evening: the rule that links one game to the next.

Seed 002 ("Changement d'équipe"): "À la fin d'une partie, le partenariat gagnant reste
intact et affronte de nouveaux adversaires ; une structure de soirée « roi de la
colline »." A game is declared part of such an evening (`GameRecord.evening`, the
notation's `evening: king-of-the-hill`); its evening is its day (UTC) and venue, and its
games follow each other in the order played (`started_at`). This module is the rule's one
home: the notation, JSON Lines, an import and `kroeg record` all ask `HillReferee`.

When a king-of-the-hill game follows the previous one of its evening:

- **the winners stay**: the previous game's winning pair, read from the engine's
  `game_end` fact (never worked out again from the scores), sit as partners again;
- **the losers make way**: the other pair of the new game is not the previous game's
  losing pair, unless nobody else is there to challenge (everyone who has played on the
  hill this evening sits at that previous table: four players all evening);
- **a draw or an unfinished game crowns nobody**: no `game_end` winner, so the next game
  starts a new hill and any four may sit down.

docs/RULES.md ("King of the hill") says why.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import GameEnd
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import unknown_choice

__all__ = [
    "EVENINGS",
    "KING_OF_THE_HILL",
    "HillReferee",
    "Outcome",
    "Stored",
    "evening_key",
    "evening_problem",
    "next_table",
    "outcome",
    "pair_name",
]

#: The one kind of evening there is: the winning pair stays on, challengers come in.
KING_OF_THE_HILL = "king-of-the-hill"
#: Every value the `evening` header and column may hold.
EVENINGS = (KING_OF_THE_HILL,)


def evening_problem(evening: str, rules: Ruleset) -> str | None:
    """Why a game under `rules` cannot be declared part of this kind of evening, or None:
    every door that takes the header asks this (the notation, JSON Lines, `kroeg record`)."""
    if evening not in EVENINGS:
        return unknown_choice("evening", evening, EVENINGS)
    if rules.game != "troefcall":
        return (
            f"a {evening} evening is Troefcall's (seed 002: the winning pair stays on), "
            f"not {rules.game}'s"
        )
    return None


def pair_name(names: Iterable[str]) -> str:
    """A pair however they sit: their names in alphabetical order, `Anna & Carla`
    (analytics' standings name a pair the same way)."""
    return " & ".join(sorted(names, key=str.casefold))


@dataclass(frozen=True)
class Outcome:
    """Who won and who lost a game, by name, as its `game_end` row says."""

    winners: tuple[str, ...]
    losers: tuple[str, ...]


def outcome(record: GameRecord) -> Outcome | None:
    """The winning and losing pair of a finished game, from the engine's `game_end` fact;
    None for a draw (no winner) or a game whose log stops before its end."""
    end = next((e for e in reversed(record.events) if isinstance(e, GameEnd)), None)
    if end is None or end.seat is None or record.teams is None:
        return None
    teams = record.teams
    won = teams[end.seat]
    winners = tuple(p for p, t in zip(record.players, teams, strict=True) if t == won)
    losers = tuple(p for p, t in zip(record.players, teams, strict=True) if t != won)
    return Outcome(winners, losers)


def evening_key(record: GameRecord) -> tuple[date | None, str]:
    """A game's evening: its day (UTC, as analytics.evenings reads `started_at::DATE`)
    and its venue ('' for none)."""
    day = None if record.started_at is None else record.started_at.astimezone(UTC).date()
    return day, record.venue or ""


def _when(record: GameRecord) -> str:
    started = record.started_at
    return "" if started is None else f" ({started.astimezone(UTC):%H:%M})"


def _named(record: GameRecord) -> str:
    return f"game {record.game_id}{_when(record)}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sides(record: GameRecord) -> tuple[tuple[str, ...], ...]:
    teams = record.teams or ()
    return tuple(
        tuple(p for p, t in zip(record.players, teams, strict=True) if t == side)
        for side in sorted(set(teams))
    )


def _where(record: GameRecord) -> str:
    day, venue = evening_key(record)
    at = f" at {venue}" if venue else ""
    return f"king-of-the-hill evening of {day}{at}"


def check_follows(previous: GameRecord, game: GameRecord, present: Sequence[str]) -> None:
    """Raise IllegalActionError, naming both games and the players, if `game` breaks the
    rotation after `previous` (the game before it on the hill that evening). `present` is
    everyone who has played on the hill this evening up to and including `previous`."""
    result = outcome(previous)
    if result is None:
        return  # a draw or an unfinished game: nobody holds the hill
    sides = _sides(game)
    seated = " against ".join(pair_name(side) for side in sides)
    winners = pair_name(result.winners)
    stay = next((side for side in sides if set(side) == set(result.winners)), None)
    if stay is None:
        raise IllegalActionError(
            f"{_where(game)}: {_named(game)} follows {_named(previous)}, which {winners} won: "
            f"{winners} stay on the hill as partners, but the table is {seated}"
        )
    challengers = next(side for side in sides if side is not stay)
    waiting = [p for p in present if p not in previous.players]
    if set(challengers) == set(result.losers) and waiting:
        losers = pair_name(result.losers)
        raise IllegalActionError(
            f"{_where(game)}: {_named(game)} follows {_named(previous)}, which {losers} lost: "
            f"{losers} make way for challengers, and {_listed(waiting)} "
            f"{'is' if len(waiting) == 1 else 'are'} waiting"
        )


#: The games of a kind of evening already stored, given its day and venue.
Stored = Callable[[str, date | None, str], Iterable[GameRecord]]


@dataclass
class _Evening:
    games: list[GameRecord] = field(default_factory=list)
    times: list[datetime] = field(default_factory=list)


class HillReferee:
    """Every king-of-the-hill evening's games in the order played, each new one checked
    against the game before it and the game after it (`check`). Games of other evenings
    (or of none) pass untouched. Games already stored are `known` without a check."""

    def __init__(self, stored: Stored | None = None) -> None:
        self._evenings: dict[tuple[date | None, str], _Evening] = {}
        #: Where an evening's games already stored come from, asked once per evening the
        #: first time one of its games is checked (an import's dataset).
        self._stored = stored

    def _evening(self, record: GameRecord) -> _Evening:
        key = evening_key(record)
        evening = self._evenings.get(key)
        if evening is None:
            evening = self._evenings[key] = _Evening()
            if self._stored is not None:
                self.known(self._stored(KING_OF_THE_HILL, *key))
        return evening

    def known(self, records: Iterable[GameRecord]) -> None:
        """Remember games checked before (a dataset's): later games follow them."""
        for record in records:
            if record.evening == KING_OF_THE_HILL and record.started_at is not None:
                evening = self._evenings.setdefault(evening_key(record), _Evening())
                at = bisect.bisect_right(evening.times, record.started_at)
                if record.game_id not in {g.game_id for g in evening.games}:
                    evening.games.insert(at, record)
                    evening.times.insert(at, record.started_at)

    def check(self, record: GameRecord) -> None:
        """Refuse (IllegalActionError) a king-of-the-hill game that breaks its evening's
        rotation, then remember it."""
        if record.evening != KING_OF_THE_HILL:
            return
        if record.started_at is None:
            raise IllegalActionError(
                f"game {record.game_id}: a king-of-the-hill game needs its date and time "
                "(date: 2026-11-27 20:30): the hill goes by the order the games were played"
            )
        evening = self._evening(record)
        if any(g.game_id == record.game_id for g in evening.games):
            return  # the same game again (an import of a file twice): nothing to check
        at = bisect.bisect_left(evening.times, record.started_at)
        if at < len(evening.times) and evening.times[at] == record.started_at:
            raise IllegalActionError(
                f"{_where(record)}: {_named(record)} and {_named(evening.games[at])} start at "
                "the same time: give each game its time (date: 2026-11-27 20:30), so the "
                "order they were played is known"
            )
        games = evening.games
        if at > 0:
            check_follows(games[at - 1], record, _present(games[:at]))
        if at < len(games):
            check_follows(record, games[at], _present([*games[:at], record]))
        games.insert(at, record)
        evening.times.insert(at, record.started_at)

    def previous(self, record: GameRecord) -> GameRecord | None:
        """The game before `record` on its evening's hill (None if it opens the hill)."""
        if record.started_at is None:
            return None
        evening = self._evenings.get(evening_key(record))
        if evening is None:
            return None
        at = bisect.bisect_left(evening.times, record.started_at)
        return evening.games[at - 1] if at > 0 else None

    def present(self, record: GameRecord) -> list[str]:
        """Everyone who has played on `record`'s hill up to and including it."""
        evening = self._evenings.get(evening_key(record))
        return _present(evening.games if evening else [record])


def _present(games: Iterable[GameRecord]) -> list[str]:
    return list(dict.fromkeys(p for g in games for p in g.players))


def next_table(previous: GameRecord, challengers: Sequence[str]) -> tuple[str, ...] | None:
    """The players by seat of the game after `previous` on the hill: the winners keep
    their seats, the two challengers take the losers' (in the order named). None after
    a draw or an unfinished game (the hill is open)."""
    result = outcome(previous)
    if result is None:
        return None
    if len(challengers) != 2:
        raise IllegalActionError(
            f"two challengers take on {pair_name(result.winners)}, found {len(challengers)}"
        )
    taken = iter(challengers)
    return tuple(p if p in result.winners else next(taken) for p in previous.players)
