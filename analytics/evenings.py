"""The club's months and evenings, and which games are its own: each defined once.

- A game is **simulated** when the engine's bots played it: its `source` is `engine`
  (`kroeg simulate`, the demo). A typed log or a game recorded at the table is the club's.
- A game is **of a month** when it started in it: the `YYYY-MM` of `started_at`, the
  views' `month` column.
- An **evening** is the games of one day (of `started_at`) at one venue, the club's own
  and the simulated ones kept apart.

Each is SQL over a `games` row (with an alias, or none), for every report to share: the
newsletter, `kroeg games`' sources (analytics/games.py), and the dashboard's evenings
(`EVENING` in dashboard/evenings.py says the same as `evening()`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import duckdb

from kroeg.recorder.errors import UsageError

__all__ = ["SIMULATED_SOURCE", "MonthGames", "evening", "in_month", "month_games",
           "month_range", "simulated"]  # fmt: skip

#: The `source` of a game the engine's bots played.
SIMULATED_SOURCE = "engine"


def _column(alias: str, name: str) -> str:
    return f"{alias}.{name}" if alias else name


def simulated(alias: str = "") -> str:
    """SQL: whether the game of a `games` row was played by the bots."""
    return f"({_column(alias, 'source')} = '{SIMULATED_SOURCE}')"


def evening(alias: str = "") -> str:
    """SQL: the key of a game's evening, `2026-11-20|Café De Kroeg|false` (its day, its
    venue, whether the bots played it); a game without a date is `undated`."""
    started, venue = _column(alias, "started_at"), _column(alias, "venue")
    return (
        f"coalesce({started}::DATE::VARCHAR, 'undated') || '|' || coalesce({venue}, '') "
        f"|| '|' || {simulated(alias)}::VARCHAR"
    )


def in_month(alias: str = "") -> str:
    """SQL: whether a game started in the month given as its one parameter (`2026-11`)."""
    return f"strftime({_column(alias, 'started_at')}, '%Y-%m') = ?"


def month_range(month: str) -> tuple[date, date]:
    """The first and last day of `2026-11`; UsageError for anything else."""
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}", month):
            raise ValueError(month)
        year, number = (int(x) for x in month.split("-"))
        first = date(year, number, 1)
        following = date(year + number // 12, number % 12 + 1, 1)
    except ValueError:
        raise UsageError(f"expected a month like 2026-11, found {month!r}") from None
    return first, date.fromordinal(following.toordinal() - 1)


@dataclass(frozen=True)
class MonthGames:
    """The games of a month a report tells: the club's own, and the simulated ones too
    when asked for."""

    month: str
    first: date
    last: date
    #: The games told, by id, in id order.
    game_ids: tuple[str, ...]
    #: How many of the month's games the bots played, told or not.
    simulated: int
    #: Whether those are among `game_ids`.
    with_simulated: bool

    @property
    def left_out(self) -> int:
        """How many simulated games of the month are not told."""
        return 0 if self.with_simulated else self.simulated


def month_games(
    con: duckdb.DuckDBPyConnection, month: str, with_simulated: bool = False
) -> MonthGames:
    """The games of `month` (`2026-11`): the club's own, and the simulated ones too if
    `with_simulated`."""
    first, last = month_range(month)
    rows = con.sql(
        f"SELECT game_id, {simulated()} AS bots FROM games WHERE {in_month()} ORDER BY game_id",
        params=[month],
    ).fetchall()
    told = tuple(game_id for game_id, bots in rows if with_simulated or not bots)
    return MonthGames(month, first, last, told, sum(1 for _, bots in rows if bots), with_simulated)
