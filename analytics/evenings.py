"""The club's months and evenings, and which games are its own: each defined once.

- A game is **simulated** when the engine's bots played it: its `source` is `engine`
  (`kroeg simulate`, the demo). A typed log or a game recorded at the table is the club's.
- A game is **of a month** when it started in it: the `YYYY-MM` of `started_at`, the
  views' `month` column.
- An **evening** is the games of one day (of `started_at`) at one venue, the club's own
  and the simulated ones kept apart; its games are in the order played (`started_at`,
  then, at one start time or with none, the game id: the only order a dataset knows).
- A game is **named** by its evening and its order in it, never by its id
  (`game_names`, `GameName`): `20 Nov, game 2, 20:30 — Anna, Ben, Carla, Dan`.

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
from datetime import date, datetime

import duckdb
import polars as pl

from kroeg.analytics.formats import integer, short_day
from kroeg.analytics.moments import biggest_bluff, costliest_fold, regrettable_folds
from kroeg.analytics.words import Words, words
from kroeg.recorder.errors import UsageError
from kroeg.recorder.records import side_name, side_seats
from kroeg.recorder.text import isolated

__all__ = [
    "BOT_MARK",
    "PLAYED",
    "ROSTER_WIDTH",
    "SIMULATED_SOURCE",
    "GameName",
    "MonthGames",
    "chosen",
    "evening",
    "evening_games_frame",
    "evening_moments",
    "evening_numbers",
    "evenings_frame",
    "game_names",
    "in_month",
    "month_games",
    "month_range",
    "simulated",
    "skipped_hands",
    "toepen_out",
    "toepen_seats",
    "troefcall_hands",
    "troefcall_running",
    "troefcall_totals",
]  # fmt: skip

#: The `source` of a game the engine's bots played.
SIMULATED_SOURCE = "engine"
#: What follows a bot's name where the bots' figures are shown beside the club's: a bot
#: named like a member is another player (analytics.stats.bots_apart).
BOT_MARK = " (bot)"


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


#: SQL: the games of an evening in the order played (a game without a start time last).
PLAYED = "started_at NULLS LAST, game_id"


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
        f"ORDER BY {PLAYED} LIMIT {int(limit)}",
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


def skipped_hands(con: duckdb.DuckDBPyConnection, game_id: str) -> list[int]:
    """The hands of a game a lenient reading passed over (`hand_skipped`, docs/FORMAT.md):
    nothing of them is known but their numbers."""
    rows = con.sql(
        "SELECT hand FROM events WHERE game_id = ? AND kind = 'hand_skipped' ORDER BY hand",
        params=[game_id],
    ).fetchall()
    return [int(hand) for (hand,) in rows]


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


#: A game's players in its name at most this many characters long, cut as `Anna, Ben +3`:
#: what tells games apart (day, order, time) comes first, and a name of 7 players of
#: long names still fits a phone's select box (390 px) as well as one of four.
ROSTER_WIDTH = 24

#: A player in a game's name at most this long (`Bartholomeus v…`).
PLAYER_WIDTH = 16


def _short(name: str) -> str:
    return name if len(name) <= PLAYER_WIDTH else name[: PLAYER_WIDTH - 1].rstrip() + "…"


def _cut(names: Sequence[str], width: int, bidi: bool = False) -> str:
    """`Anna, Ben, Carla` while it fits in `width`, else as many as fit and `+3`: the
    first always shown, however long (shortened to PLAYER_WIDTH); `bidi`: a right-to-left
    name isolated (`text.isolated`), for a page."""
    names = [_short(n) for n in names]
    shown: list[str] = []
    for at, name in enumerate(names):
        rest = len(names) - at - 1
        text = ", ".join([*shown, name]) + (f" +{rest}" if rest else "")
        if shown and len(text) > width:
            break
        shown.append(name)
    more = len(names) - len(shown)
    if bidi:
        shown = [isolated(n) for n in shown]
    return ", ".join(shown) + (f" +{more}" if more else "")


@dataclass(frozen=True)
class GameName:
    """A game as people call it: its evening's day, its order in that evening, its start
    time and its players (`20 Nov, game 2, 20:30 — Anna, Ben, Carla, Dan`). Plain text:
    a page writing it in Markdown escapes it (`markdown_text`), as it does every name."""

    game_id: str
    #: The day of its evening; None for a game without a start time.
    day: date | None
    #: Its place in its evening, from 1, in the order played (PLAYED).
    number: int
    #: How many games its evening has.
    of: int
    #: When it started, `20:30`; None without a start time.
    time: str | None
    venue: str | None
    simulated: bool
    players: tuple[str, ...]
    #: Each seat's side where seats play in teams (games.teams), else None.
    teams: tuple[int, ...] | None
    #: Whether the day has other evenings of its kind (the club's, or the bots') at other
    #: venues: then the venue is said.
    venue_said: bool = False
    #: Whether the year is said: a game of another year than the dataset's latest game.
    year_said: bool = False

    def evening_in(self, w: Words) -> str:
        """Its evening in a few words, in `w`'s language: `20 Nov`, `20 Nov 2025`, `20 Nov
        at De Kroon`, `20 Nov (bots)` (every game the bots played), `Undated`."""
        if self.day is None:
            when = w.say("evening_name_undated", "Undated")
        else:
            when = short_day(self.day, w.lang)
            if self.year_said:
                when += f" {self.day.year}"
        if self.venue_said and self.venue:
            when += w("at_venue", venue=self.venue)  # the bulletin's ` at {venue}`
        return when + (w.say("evening_name_bots", " (bots)") if self.simulated else "")

    def order_in(self, w: Words) -> str:
        """`game 2`, `spel 2`: its place in its evening; "" when the evening has one game
        (a reader takes `game 1` to say there were more)."""
        if self.of <= 1:
            return ""
        return w.say("evening_game_order", "game {number}", number=integer(self.number, w.lang))

    def in_evening_in(self, w: Words, bidi: bool = False) -> str:
        """The name where its evening is already said (the Evenings page's heading), in
        `w`'s language: `Game 2, 20:30 — Anna, Ben, Carla, Dan` (`bidi`: see roster_in)."""
        said = ", ".join(p for p in (self.order_in(w), self.time or "") if p)
        roster = self.roster_in(w, bidi)
        return f"{said[:1].upper()}{said[1:]} — {roster}" if said else roster

    def said(self, w: Words, bidi: bool = False) -> str:
        """Its whole name in `w`'s language: `20 Nov, game 2, 20:30 — Anna, Ben, Carla,
        Dan`, `20 nov, spel 2, 20:30 — …` (`bidi`: see roster_in)."""
        parts = (self.evening_in(w), self.order_in(w), self.time or "")
        return f"{', '.join(p for p in parts if p)} — {self.roster_in(w, bidi)}"

    @property
    def evening(self) -> str:
        """`evening_in` in English."""
        return self.evening_in(words("en"))

    @property
    def order(self) -> str:
        """`order_in` in English."""
        return self.order_in(words("en"))

    def roster_in(self, w: Words, bidi: bool = False) -> str:
        """Its players by seat (`Anna, Ben, Carla`), or its sides (`Anna & Carla v Ben &
        Dan`, `… tegen …`), cut to ROSTER_WIDTH: `Anna, Ben, Carla, Dan +3`, `Anna +1 v
        Ben +1 v Eva +1`. `bidi`: each right-to-left name isolated (`text.isolated`), for
        a page; a terminal would show the isolates as escapes."""
        if not self.teams:
            return _cut(self.players, ROSTER_WIDTH, bidi)
        versus = w.say("evening_versus", " v ")
        players = [_short(p) for p in self.players]
        sides = range(max(self.teams) + 1)
        whole = versus.join(side_name(players, self.teams, side) for side in sides)
        if bidi:
            players = [isolated(p) for p in players]
        if len(whole) <= ROSTER_WIDTH:
            return versus.join(side_name(players, self.teams, side) for side in sides)
        firsts = [side_seats(self.teams, self.teams.index(side)) for side in sides]
        return versus.join(
            players[seats[0]] + (f" +{len(seats) - 1}" if len(seats) > 1 else "")
            for seats in firsts
        )

    @property
    def roster(self) -> str:
        """`roster_in` in English."""
        return self.roster_in(words("en"))

    @property
    def in_evening(self) -> str:
        """`in_evening_in` in English."""
        return self.in_evening_in(words("en"))

    def __str__(self) -> str:
        """`said` in English: `20 Nov, game 2, 20:30 — Anna, Ben, Carla, Dan`."""
        return self.said(words("en"))


def game_names(con: duckdb.DuckDBPyConnection, games: Games) -> dict[str, GameName]:
    """The name of each of `games` (None: every game), by id. A game's number counts
    every game of its evening, whatever a filter hides: a game keeps its name."""
    where, params = chosen(games)
    frame = _frame(
        con,
        f"""WITH named AS (
            SELECT game_id, started_at, started_at::DATE AS day, venue, players, teams,
                   {simulated()} AS bots,
                   row_number() OVER (PARTITION BY {evening()} ORDER BY {PLAYED}) AS number,
                   count(*) OVER (PARTITION BY {evening()}) AS of
            FROM games
        ), kinds AS (  -- a day's evenings of the club's, or of the bots'
            SELECT day, bots, count(DISTINCT coalesce(venue, '')) AS venues
            FROM named GROUP BY day, bots
        )
        SELECT n.*, k.venues,
               year(n.day) <> (SELECT max(year(day)) FROM named) AS other_year
        FROM named AS n
        JOIN kinds AS k ON n.day IS NOT DISTINCT FROM k.day AND n.bots = k.bots
        WHERE {where}""",
        params,
    )
    names = {}
    for r in frame.iter_rows(named=True):
        started = r["started_at"]
        names[r["game_id"]] = GameName(
            game_id=r["game_id"],
            day=r["day"],
            number=int(r["number"]),
            of=int(r["of"]),
            time=f"{started:%H:%M}" if isinstance(started, datetime) else None,
            venue=r["venue"],
            simulated=bool(r["bots"]),
            players=tuple(r["players"]),
            teams=tuple(r["teams"]) if r["teams"] else None,
            venue_said=r["venues"] > 1,
            year_said=bool(r["other_year"]),
        )
    return names
