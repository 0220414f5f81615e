"""The club's months and evenings, and which games are its own: each defined once.

- A game is **simulated** when the engine's bots played it: its `source` is `engine`
  (`kroeg simulate`, the demo). A typed log or a game recorded at the table is the club's.
- A game is **of a month** when it started in it: the `YYYY-MM` of `started_at`, the
  views' `month` column.
- An **evening** is the games of one day (of `started_at`) at one venue, the club's own
  and the simulated ones kept apart.

Each is SQL over a `games` row (with an alias, or none), for every report to share: the
newsletter, `kroeg games`' sources (analytics/games.py), and the dashboard's Evenings and
Games pages, which call the queries below (`evenings_frame`, `evening_games_frame`,
`toepen_seats`, `troefcall_totals` …) and hold no SQL of their own.

The dashboard's queries take the games its filters let through as a list of ids (None:
every game), never as SQL text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import duckdb
import polars as pl

from kroeg.analytics.moments import biggest_bluff, costliest_fold, regrettable_folds
from kroeg.recorder.errors import UsageError

__all__ = ["SIMULATED_SOURCE", "MonthGames", "chosen", "evening", "evening_games_frame",
           "evening_moments", "evening_numbers", "evenings_frame", "in_month", "month_games",
           "month_range", "simulated", "toepen_out", "toepen_seats", "troefcall_hands",
           "troefcall_running", "troefcall_totals"]  # fmt: skip

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


#: The games a query is asked about, by id; None: every game.
Games = Sequence[str] | None


def chosen(games: Games, alias: str = "") -> tuple[str, list[object]]:
    """SQL and its parameters: the game is among `games` (None: every game)."""
    if games is None:
        return "true", []
    return f"{_column(alias, 'game_id')} IN (SELECT unnest(?::VARCHAR[]))", [list(games)]


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=params).pl()
    return frame


def evenings_frame(con: duckdb.DuckDBPyConnection, games: Games, limit: int = 500) -> pl.DataFrame:
    """The evenings of `games`, latest first: key, day, venue, simulated, games, players."""
    where, params = chosen(games)
    return _frame(
        con,
        f"SELECT {evening()} AS key, "
        "any_value(started_at::DATE) AS day, any_value(venue) AS venue, "
        f"bool_and({simulated()}) AS simulated, count(*) AS games, "
        "list_sort(list_distinct(flatten(list(players)))) AS players, "
        "max(started_at) AS last_start "
        f"FROM games WHERE {where} GROUP BY key "
        f"ORDER BY last_start DESC NULLS LAST, key LIMIT {int(limit)}",
        params,
    )


def _in_evening(games: Games) -> tuple[str, list[object]]:
    """SQL on `game_id`: the games of the evening `?` among `games`; its parameters want
    the evening's key first."""
    where, params = chosen(games)
    return f"game_id IN (SELECT game_id FROM games WHERE {evening()} = ? AND {where})", params


def evening_games_frame(
    con: duckdb.DuckDBPyConnection, key: str, games: Games, limit: int
) -> pl.DataFrame:
    """The evening's first `limit` games in order: game_id, time, ruleset, game_type, and
    `n`, how many games the evening has."""
    where, params = _in_evening(games)
    return _frame(
        con,
        "SELECT game_id, strftime(started_at, '%H:%M') AS time, label AS ruleset, game_type, "
        f"count(*) OVER () AS n FROM games WHERE {where} "
        f"ORDER BY started_at NULLS LAST, game_id LIMIT {int(limit)}",
        [key, *params],
    )


def evening_moments(
    con: duckdb.DuckDBPyConnection, key: str, games: Games
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The evening's biggest bluff that worked, costliest fold and regrettable folds
    (analytics.moments)."""
    where, params = _in_evening(games)
    return tuple(  # type: ignore[return-value]
        _frame(con, ask(where), [key, *params])
        for ask in (biggest_bluff, costliest_fold, regrettable_folds)
    )


def evening_numbers(con: duckdb.DuckDBPyConnection, games: Games) -> dict[str, int]:
    """Games, hands, events and players among `games`."""
    where, params = chosen(games)
    row: dict[str, int] = _frame(
        con,
        f"SELECT (SELECT count(*) FROM games WHERE {where}) AS games, "
        f"(SELECT count(*) FROM hands WHERE {where}) AS hands, "
        f"(SELECT count(*) FROM events WHERE {where}) AS events, "
        # Players from the games' own lists: no per-seat totals to add up for a count.
        f"(SELECT count(DISTINCT p) FROM (SELECT unnest(players) AS p FROM games WHERE {where}))"
        " AS players",
        params * 4,
    ).row(0, named=True)
    return row


def toepen_seats(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each seat of each hand of a Toepen game (by `game_id = ?`, which DuckDB pushes into
    the Parquet scan): what it did, what it paid (the engine's `pay` rows), the hand's
    stake, and the game's scoring and seating."""
    return _frame(
        con,
        "SELECT p.hand, p.seat, p.player, p.knocks, p.folds, p.paid, p.won, h.stake, "
        "h.finished, g.score_display AS display, g.lives, g.players AS seated, g.teams, "
        "g.side_names[g.teams[p.seat + 1] + 1] AS side FROM hand_players AS p "
        "JOIN hands AS h USING (game_id, hand) JOIN games AS g USING (game_id) "
        "WHERE game_id = ? ORDER BY p.hand, p.seat",
        [game_id],
    )


def troefcall_hands(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each hand of a Troefcall game: caller, trump, tricks, points, who scored and why
    (the score's reason: majority, kap, partner-kap, silent-kap, baunie, failed-baunie)."""
    return _frame(
        con,
        "SELECT h.hand, g.players[h.caller + 1] AS caller, h.trump, h.tricks_0, h.tricks_1, "
        "h.points, h.score_side, h.score_reason, "
        "g.side_names[1] AS side_0, g.side_names[2] AS side_1 "
        "FROM troef_hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        [game_id],
    )


def troefcall_running(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each Troefcall side's points after each hand: hand, side, side_name, points."""
    return _frame(
        con,
        "SELECT hand, side, side_name, "
        "(sum(points) OVER (PARTITION BY side ORDER BY hand))::BIGINT AS points "
        "FROM troef_sides WHERE game_id = ? ORDER BY hand, side",
        [game_id],
    )


def troefcall_totals(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """Each Troefcall side's points at the end, best first: side_name, points."""
    return _frame(
        con,
        "SELECT side_name, sum(points)::BIGINT AS points FROM troef_sides "
        "WHERE game_id = ? GROUP BY side, side_name ORDER BY points DESC, side",
        [game_id],
    )


def toepen_out(con: duckdb.DuckDBPyConnection, game_id: str) -> list[int]:
    """The seats of a Toepen game that went out, as the engine says: its `eliminated`
    rows, and the loser its `game_end` names (where the first out loses)."""
    sql = (
        "SELECT DISTINCT seat FROM (SELECT seat FROM events WHERE game_id = ? AND "
        "kind = 'eliminated' UNION ALL SELECT target AS seat FROM events WHERE game_id = ? "
        "AND kind = 'game_end') WHERE seat IS NOT NULL ORDER BY seat"
    )
    return [int(r[0]) for r in con.sql(sql, params=[game_id, game_id]).fetchall()]
