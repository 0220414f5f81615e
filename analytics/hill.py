"""A king-of-the-hill evening's standings: its pairs and its players.

Troefcall's "Changement d'équipe" (seed 002, recorder.hill): the winning pair of a game
stays on and meets new challengers. The games of such an evening are those declared
`king-of-the-hill` (the `games.evening` column) on one day at one venue, in the order
played (`started_at`). Every figure is counted from the engine's `game_end` fact (its
winning side); nothing here works a result out again:

- **pairs**: each partnership that sat together (named by its players in alphabetical
  order, however they sat), its games played together, its wins, and its **longest
  reign**: the most games in a row the pair won on the hill (a game another pair won, a
  draw or an unfinished game ends a reign);
- **players**: each player's games and wins.

The dashboard's Evenings page would call `hill_standings` (and `hill_evenings` for the
choice of evening); `kroeg hill` prints it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

import duckdb
import polars as pl

from kroeg.recorder.errors import NotFoundError, UsageError
from kroeg.recorder.hill import KING_OF_THE_HILL

__all__ = [
    "HillStandings",
    "evening_hill",
    "hill_csv",
    "hill_evenings",
    "hill_json",
    "hill_standings",
    "hill_text",
]

#: The king-of-the-hill games: day, venue ('' for none), and each game's place in the
#: order played on its evening.
_HILL_GAMES = f"""
    SELECT g.game_id, g.started_at, g.started_at::DATE AS day, coalesce(g.venue, '') AS venue,
           g.players, g.teams
    FROM games AS g
    WHERE g.evening = '{KING_OF_THE_HILL}' AND g.game_type = 'troefcall'
      AND g.started_at IS NOT NULL
"""


def hill_evenings(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every king-of-the-hill evening, latest first: day, venue, games."""
    frame: pl.DataFrame = con.sql(
        f"""
        SELECT day, venue, count(*)::BIGINT AS games
        FROM ({_HILL_GAMES}) AS h
        GROUP BY day, venue
        ORDER BY day DESC, venue
        """
    ).pl()
    return frame


@dataclass(frozen=True)
class HillStandings:
    """One king-of-the-hill evening's standings."""

    day: date
    venue: str
    games: int
    #: pair, games, wins, longest_reign: most wins first, then the longest reign
    pairs: pl.DataFrame
    #: player, games, wins: most wins first, then fewest games
    players: pl.DataFrame


def hill_standings(
    con: duckdb.DuckDBPyConnection, day: date | None = None, venue: str | None = None
) -> HillStandings:
    """The standings of the king-of-the-hill evening on `day` at `venue` (venue '' is a
    game without one). Without a day, the latest such evening; a day with evenings at
    several venues needs the venue (UsageError naming them). NotFoundError when there is
    no such evening."""
    evenings = hill_evenings(con)
    if day is not None:
        evenings = evenings.filter(pl.col("day") == day)
    if venue is not None:
        evenings = evenings.filter(pl.col("venue") == venue)
    if evenings.is_empty():
        where = "" if day is None else f" on {day}"
        at = "" if venue is None else f" at {venue!r}"
        raise NotFoundError(f"no king-of-the-hill evening{where}{at}")
    chosen_day = evenings["day"][0]
    on_day = evenings.filter(pl.col("day") == chosen_day)
    if on_day.height > 1 and venue is None:
        venues = ", ".join(repr(v) for v in on_day["venue"].to_list())
        raise UsageError(
            f"{chosen_day} has king-of-the-hill evenings at {venues}: choose one with --venue"
        )
    chosen_venue: str = on_day["venue"][0]
    params = [chosen_day, chosen_venue]
    sides = f"""
        WITH hill AS (
            SELECT *, row_number() OVER (ORDER BY started_at, game_id) AS game_no
            FROM ({_HILL_GAMES}) AS h
            WHERE day = ? AND venue = ?
        ), ends AS (
            SELECT game_id, any_value(seat) AS winner
            FROM events
            WHERE kind = 'game_end' AND game_id IN (SELECT game_id FROM hill)
            GROUP BY game_id
        ), sides AS (
            SELECT h.game_no, s.side,
                   list_sort(list_filter(list_transform(
                       generate_series(1, len(h.players)),
                       lambda i: CASE WHEN h.teams[i] = s.side THEN h.players[i] END),
                       lambda name: name IS NOT NULL)) AS members,
                   coalesce(h.teams[e.winner + 1] = s.side, false) AS won
            FROM hill AS h
            CROSS JOIN (VALUES (0), (1)) AS s(side)
            LEFT JOIN ends AS e USING (game_id)
        )
    """
    pairs: pl.DataFrame = con.sql(
        sides
        + """
        , named AS (
            SELECT game_no, array_to_string(members, ' & ') AS pair, won FROM sides
        ), reigns AS (
            -- A reign: the pair's wins in consecutive games of the evening (gaps and
            -- islands: within a run, game_no minus the pair's count of wins is constant).
            SELECT pair, count(*) AS reign
            FROM (
                SELECT pair, game_no - row_number() OVER (PARTITION BY pair ORDER BY game_no)
                           AS run
                FROM named WHERE won
            )
            GROUP BY pair, run
        )
        SELECT n.pair, count(*)::BIGINT AS games, count_if(n.won)::BIGINT AS wins,
               coalesce(any_value(r.longest), 0)::BIGINT AS longest_reign
        FROM named AS n
        LEFT JOIN (SELECT pair, max(reign) AS longest FROM reigns GROUP BY pair) AS r
            USING (pair)
        GROUP BY n.pair
        ORDER BY wins DESC, longest_reign DESC, games, n.pair
        """,
        params=params,
    ).pl()
    players: pl.DataFrame = con.sql(
        sides
        + """
        SELECT player, count(*)::BIGINT AS games, count_if(won)::BIGINT AS wins
        FROM (SELECT unnest(members) AS player, won FROM sides)
        GROUP BY player
        ORDER BY wins DESC, games, player
        """,
        params=params,
    ).pl()
    games = int(on_day["games"][0])
    return HillStandings(chosen_day, chosen_venue, games, pairs, players)


def evening_hill(
    con: duckdb.DuckDBPyConnection, day: date | None, venue: str | None
) -> HillStandings | None:
    """The standings of the king-of-the-hill evening on `day` at `venue`, if that evening
    is one (the dashboard's Evenings page shows them under its games); else None."""
    if day is None:
        return None
    try:
        return hill_standings(con, day, venue or "")
    except NotFoundError:
        return None


def _title(found: HillStandings) -> str:
    at = f" at {found.venue}" if found.venue else ""
    return f"King of the hill, {found.day}{at}: {found.games} games"


def hill_text(found: HillStandings) -> str:
    """The standings as a terminal shows them: the pairs, then the players."""
    from kroeg.analytics.games import games_table

    return "\n".join(
        [
            _title(found),
            "",
            games_table(found.pairs).rstrip("\n"),
            "",
            games_table(found.players).rstrip("\n"),
            "",
        ]
    )


def hill_csv(found: HillStandings) -> str:
    """One CSV: a row per pair, then a row per player (`standing` says which; a player
    has no reign)."""
    from kroeg.analytics.report import stats_csv

    pairs = found.pairs.rename({"pair": "name"}).with_columns(standing=pl.lit("pair"))
    players = found.players.rename({"player": "name"}).with_columns(
        standing=pl.lit("player"), longest_reign=pl.lit(None, pl.Int64)
    )
    both = pl.concat([pairs, players.select(pairs.columns)])
    both = both.with_columns(day=pl.lit(str(found.day)), venue=pl.lit(found.venue))
    return stats_csv(both.select("day", "venue", "standing", "name", "games", "wins",
                                 "longest_reign"))  # fmt: skip


def hill_json(found: HillStandings) -> str:
    """A JSON object: the evening, its pairs and its players."""
    return (
        json.dumps(
            {
                "day": str(found.day),
                "venue": found.venue,
                "games": found.games,
                "pairs": found.pairs.to_dicts(),
                "players": found.players.to_dicts(),
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )
