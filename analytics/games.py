"""`kroeg games`: one line per game, so that a game id can be found and typed.

A game's source says how it came: typed (imported from a log), recorded (entered at the
table) or simulated (played by the engine's bots).
"""

from __future__ import annotations

from datetime import date

import duckdb
import polars as pl

from kroeg.analytics.evenings import SIMULATED_SOURCE, Games, chosen, game_names, simulated
from kroeg.recorder.text import cut_to_width, text_table, text_width, visible_text

__all__ = ["SOURCES", "filter_frame", "game_count", "games_frame", "games_table", "hand_costs",
           "recent_games", "toepen_ids", "toepen_units"]  # fmt: skip

#: The `source` column (docs/FORMAT.md) in the words a club uses.
SOURCES = {SIMULATED_SOURCE: "simulated", "manual": "recorded"}


def _source(column: str) -> str:
    cases = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in SOURCES.items())
    return f"CASE {column} {cases} ELSE 'typed' END"


def _rules(alias: str = "") -> str:
    """SQL: a game's rule set named with its variants (`lives + team-toepen`); a game whose
    stored rules the engine refuses today is still named, by the name it was stored under."""
    at = f"{alias}." if alias else ""
    return f"coalesce({at}label, {at}ruleset || ' (unreadable rules)')"


def games_frame(
    con: duckdb.DuckDBPyConnection,
    since: date | None = None,
    player: str | None = None,
    venue: str | None = None,
    source: str | None = None,
) -> pl.DataFrame:
    """Every game (newest first) with its date, venue, rules, players, hands, result and
    source; filtered by a first date, a player, a venue and a source (typed, recorded,
    simulated)."""
    conditions: list[str] = ["true"]
    params: list[object] = []
    if since is not None:
        conditions.append("g.started_at::DATE >= ?")
        params.append(since)
    if player is not None:
        conditions.append("list_contains(g.players, ?)")
        params.append(player)
    if venue is not None:
        conditions.append("g.venue = ?")
        params.append(venue)
    if source is not None:
        conditions.append(f"{_source('g.source')} = ?")
        params.append(source)
    sql = f"""
        WITH ends AS (
            SELECT game_id, max(hand) AS hands FROM events
            WHERE kind IN ('hand_start', 'hand_skipped')
            GROUP BY game_id
        ), finished AS (
            SELECT game_id, any_value(seat) AS winner, any_value(target) AS loser
            FROM events WHERE kind = 'game_end' GROUP BY game_id
        )
        SELECT g.game_id AS game,
               coalesce(strftime(g.started_at, '%Y-%m-%d %H:%M'), '') AS date,
               coalesce(g.venue, '') AS venue,
               {_rules("g")} AS rules,
               array_to_string(g.players, ', ') AS players,
               coalesce(e.hands, 0)::BIGINT AS hands,
               CASE WHEN f.game_id IS NULL THEN 'unfinished'
                    ELSE concat_ws('; ',
                        CASE WHEN f.winner IS NOT NULL  -- a side, where seats play in teams
                             THEN coalesce(g.side_names[g.teams[f.winner + 1] + 1],
                                           g.players[f.winner + 1]) || ' won' END,
                        CASE WHEN f.loser IS NOT NULL
                             THEN coalesce(g.side_names[g.teams[f.loser + 1] + 1],
                                           g.players[f.loser + 1]) || ' lost' END)
               END AS result,
               {_source("g.source")} AS source
        FROM games AS g
        LEFT JOIN ends AS e USING (game_id)
        LEFT JOIN finished AS f USING (game_id)
        WHERE {" AND ".join(conditions)}
        ORDER BY g.started_at DESC NULLS LAST, g.game_id
    """
    frame: pl.DataFrame = con.sql(sql, params=params).pl()
    return frame


#: The widest a `games_table` cell of these columns is, longer ones cut with `…`: one
#: venue of 57 characters padded every row of the list to 280 (CSV and JSON keep all).
TABLE_WIDTHS = {"venue": 24, "rules": 40, "players": 40, "result": 40}
#: The narrowest those columns are cut to, to fit a terminal (`games_table`'s `width`).
NARROWEST = 10


def games_table(frame: pl.DataFrame, width: int | None = None) -> str:
    """The games as aligned text columns, a header first, each as wide as it shows on a
    terminal: the cells of `TABLE_WIDTHS`' columns cut to it, and, to fit `width`
    columns where given, the widest of them cut further (not below `NARROWEST`)."""
    if frame.is_empty():
        return "No games match.\n"
    columns = frame.columns
    # Each cell as a terminal will show it (an invisible character as its escape), measured so.
    rows = [[visible_text(str(v)) for v in row] for row in frame.iter_rows()]
    widths = [max(text_width(c), *(text_width(r[i]) for r in rows)) for i, c in enumerate(columns)]
    cut = [i for i, c in enumerate(columns) if c in TABLE_WIDTHS]
    for i in cut:
        widths[i] = min(widths[i], max(TABLE_WIDTHS[columns[i]], text_width(columns[i])))
    over = 0 if width is None else sum(widths) + 2 * (len(widths) - 1) - width
    while over > 0 and cut:
        widest = max(cut, key=widths.__getitem__)
        if widths[widest] <= max(NARROWEST, text_width(columns[widest])):
            break  # as narrow as they go: the terminal wraps the rest
        widths[widest] -= 1
        over -= 1
    cells = [[cut_to_width(v, widths[i]) if i in cut else v for i, v in enumerate(row)]
             for row in rows]  # fmt: skip
    return "\n".join(text_table([list(columns), *cells], "l" * len(columns))) + "\n"


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=params).pl()
    return frame


def filter_frame(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every game with what the dashboard's filters choose by: game_id, day, venue, ruleset
    (named with its variants: `lives + team-toepen`), players, simulated."""
    return _frame(
        con,
        "SELECT game_id, started_at::DATE AS day, coalesce(venue, '') AS venue, "
        f"{_rules()} AS ruleset, "
        f"players, {simulated()} AS simulated FROM games",
        [],
    )


def unreadable_rules(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """The games whose stored rules the engine cannot read (a value an older kroeg let in),
    each with why, in game order: listed and counted by their events, never analysed."""
    rows = con.sql(
        "SELECT game_id, rules_problem FROM games WHERE rules_problem IS NOT NULL ORDER BY game_id"
    ).fetchall()
    return [(str(game), str(problem)) for game, problem in rows]


def game_count(con: duckdb.DuckDBPyConnection) -> int:
    """How many games the dataset holds."""
    return int(_frame(con, "SELECT count(*) AS n FROM games", [])["n"][0])


def recent_games(
    con: duckdb.DuckDBPyConnection, wanted: str, games: Games, limit: int = 500
) -> pl.DataFrame:
    """The `limit` most recent of `games` (None: all), and the game `wanted` first if
    there is one: game_id, day, time (`2026-11-20 20:15`), venue, players, label,
    score_display, lives, game_type, simulated, `recency` (1 for the most recent: the
    order played, whichever game comes first), `name`, the game's name (`game_names`:
    `20 Nov, game 2, 20:15 — Anna, Ben, Carla`), and `title`, the name and the rules, as
    every game picker shows it (`20 Nov, game 2, 20:15 — Anna, Ben, Carla · lives`)."""
    where, params = chosen(games)
    frame = _frame(
        con,
        "SELECT game_id, coalesce(strftime(started_at, '%Y-%m-%d'), '') AS day, "
        "coalesce(strftime(started_at, '%Y-%m-%d %H:%M'), '') AS time, venue, "
        f"array_to_string(players, ', ') AS players, {_rules()} AS label, score_display, lives, "
        f"game_type, {simulated()} AS simulated, "
        # Newest first: the evenings' order played (PLAYED) backwards, undated games last.
        "row_number() OVER (ORDER BY started_at DESC NULLS LAST, game_id DESC) AS recency "
        f"FROM games WHERE game_id = ? OR {where} "
        "ORDER BY (game_id = ?) DESC, started_at DESC NULLS LAST, game_id DESC "
        f"LIMIT {int(limit)}",
        [wanted, *params, wanted],
    )
    named = game_names(con, frame["game_id"].to_list())
    names = [str(named[g]) for g in frame["game_id"]]
    titles = [f"{n} · {rules}" for n, rules in zip(names, frame["label"], strict=True)]
    return frame.with_columns(
        pl.Series("name", names, dtype=pl.String), pl.Series("title", titles, dtype=pl.String)
    )


def toepen_units(con: duckdb.DuckDBPyConnection, games: Games) -> list[str]:
    """The units the Toepen games among `games` are paid in (games.unit: `lives`,
    `penalty points`), sorted: figures in different units are never added."""
    where, params = chosen(games)
    sql = f"SELECT DISTINCT unit FROM games WHERE game_type = 'toepen' AND {where} ORDER BY unit"
    return [r[0] for r in con.sql(sql, params=params).fetchall()]


def toepen_ids(con: duckdb.DuckDBPyConnection, unit: str) -> list[str]:
    """The Toepen games paid in `unit` (games.unit: `lives`, `penalty points`)."""
    sql = "SELECT game_id FROM games WHERE game_type = 'toepen' AND unit = ? ORDER BY game_id"
    return [r[0] for r in con.sql(sql, params=[unit]).fetchall()]


def hand_costs(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """What each player of a Toepen game paid in each hand (the engine's `pay` rows):
    hand, seat, player, side, paid."""
    return _frame(
        con,
        "SELECT p.hand, p.seat, p.player, g.side_names[g.teams[p.seat + 1] + 1] AS side, "
        "p.paid::BIGINT AS paid FROM hand_players AS p JOIN games AS g USING (game_id) "
        "WHERE game_id = ? ORDER BY p.hand, p.seat",
        [game_id],
    )
