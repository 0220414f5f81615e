"""Counts per player per game, stored once per game so that statistics stay fast.

A landed game never changes, so what `seat_counts` (analytics/sql/views.sql)
works out from the events is stored as derived Parquet the first time it is
needed (`DATASET/derived/seat_counts/`). The `seat_totals` view reads the stored
counts and counts any game not stored yet live, so a figure never depends on
whether this has run; it only makes the statistics fast.
"""

from __future__ import annotations

import duckdb

from kroeg.analytics.schemas import COUNTS, SEAT_COUNTS_SCHEMA
from kroeg.analytics.views import connect
from kroeg.recorder.store import Dataset

__all__ = ["store_counts"]


def stored_games(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Games whose counts are stored."""
    rows = con.sql("SELECT DISTINCT game_id FROM seat_counts_stored").fetchall()
    return {row[0] for row in rows}


def store_counts(dataset: Dataset) -> int:
    """Store the counts of every game not stored yet; return how many games were added.
    The games are chosen with the writer lock held (a second writer waits, then finds
    them stored)."""
    with dataset.writing():
        return _store_counts(dataset)


def _store_counts(dataset: Dataset) -> int:
    con = connect(dataset)
    # Counts are Toepen's (Troefcall's statistics are counted live, docs/STATS.md).
    every = {row[0] for row in con.sql("SELECT game_id FROM games WHERE game_type = 'toepen'")
             .fetchall()}  # fmt: skip
    todo = sorted(every - stored_games(con))
    if not todo:
        return 0
    columns = ", ".join(f"{c}::BIGINT AS {c}" for c in COUNTS)
    query = f"SELECT game_id, seat::TINYINT AS seat, {columns} FROM seat_counts"
    if len(todo) < len(every):  # a few new games: count only those
        con.execute("CREATE TEMP TABLE todo (game_id VARCHAR)")
        con.executemany("INSERT INTO todo VALUES (?)", [(g,) for g in todo])
        query += " WHERE game_id IN (SELECT game_id FROM todo)"
    table = con.sql(query + " ORDER BY game_id, seat").to_arrow_table()
    dataset.write_derived("seat_counts", table.cast(SEAT_COUNTS_SCHEMA))
    return len(todo)
