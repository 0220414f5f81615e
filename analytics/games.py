"""`kroeg games`: one line per game, so that a game id can be found and typed.

A game's source says how it came: typed (imported from a log), recorded (entered at the
table) or simulated (played by the engine's bots).
"""

from __future__ import annotations

from datetime import date

import duckdb
import polars as pl

from kroeg.analytics.evenings import SIMULATED_SOURCE

__all__ = ["SOURCES", "games_frame", "games_table"]

#: The `source` column (docs/FORMAT.md) in the words a club uses.
SOURCES = {SIMULATED_SOURCE: "simulated", "manual": "recorded"}


def _source(column: str) -> str:
    cases = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in SOURCES.items())
    return f"CASE {column} {cases} ELSE 'typed' END"


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
            SELECT game_id, max(hand) AS hands FROM events WHERE kind = 'hand_start'
            GROUP BY game_id
        ), finished AS (
            SELECT game_id, any_value(seat) AS winner, any_value(target) AS loser
            FROM events WHERE kind = 'game_end' GROUP BY game_id
        )
        SELECT g.game_id AS game,
               coalesce(strftime(g.started_at, '%Y-%m-%d %H:%M'), '') AS date,
               coalesce(g.venue, '') AS venue,
               g.label AS rules,  -- with its variants: lives + team-toepen
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


def games_table(frame: pl.DataFrame) -> str:
    """The games as aligned text columns, a header first."""
    if frame.is_empty():
        return "No games match.\n"
    columns = frame.columns
    cells = [[str(v) for v in row] for row in frame.iter_rows()]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    for row in cells:
        lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines) + "\n"
