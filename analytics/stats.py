"""Player statistics from the views: every figure with what it counts and out of what.

Each rate is `done / opportunities` (docs/STATS.md defines each one), and a row
whose sample is small is flagged. Rows are per player, or per player within a
session (game), a month, or a venue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

import duckdb
import polars as pl

from parsers.names import NameIndex, UnknownName
from recorder.errors import KroegError

__all__ = ["GROUPINGS", "SMALL_SAMPLE", "STATS", "Stat", "player_stats"]

#: Fewer opportunities than this and a figure is flagged as a small sample.
SMALL_SAMPLE = 20

GROUPINGS = {
    "player": [],
    "session": ["game_id"],
    "month": ["month"],
    "venue": ["venue"],
}


@dataclass(frozen=True)
class Stat:
    """A figure: `done` out of `opportunities`, shown as a rate or as an amount per unit."""

    name: str
    label: str
    done: str
    opportunities: str
    shown_as: str  # "rate" (a percentage) or "per" (an amount per opportunity)


# A stat's name never equals a count's name: the rate is added beside the counts.
STATS = (
    Stat("win_rate", "won", "won", "hands", "rate"),
    Stat("cost_per_hand", "lost/hand", "paid", "hands", "per"),
    Stat("knock_rate", "knocks", "knocks", "hands", "rate"),
    Stat("knock_success", "knock success", "knocks_won", "knocks", "rate"),
    Stat("fold_rate", "folds", "folds", "knocks_faced", "rate"),
    Stat("cost_per_fold", "fold cost", "fold_cost", "folds", "per"),
    Stat("bluff_rate", "bluffs", "bluffs", "knocks_known", "rate"),
    Stat("bluff_success", "bluff success", "bluffs_won", "bluffs", "rate"),
    Stat("profit_per_bluff", "bluff profit", "bluff_profit", "bluffs", "per"),
    Stat("regret_rate", "fold regret", "regrets", "folds_known", "rate"),
    Stat("cost_per_regret", "regret cost", "regret_cost", "regrets", "per"),
    Stat("swap_rate", "swaps", "swaps", "hands", "rate"),
    Stat("swaps_caught_rate", "swaps caught", "bluffs_caught", "swaps", "rate"),
    Stat("check_success", "checks won", "checks_won", "checks", "rate"),
)

_SUMS = (
    "hands", "won", "paid", "knocks", "knocks_won", "knocks_faced", "folds", "fold_cost",
    "swaps", "bluffs_caught", "checks", "checks_won", "knocks_known", "bluffs", "bluffs_won",
    "bluff_profit", "folds_known", "regrets", "regret_cost",
)  # fmt: skip
_QUERY = (
    "SELECT {keys} player, "
    + ", ".join(f"sum({c})::BIGINT AS {c}" for c in _SUMS)
    + " FROM {source} WHERE true {filters} GROUP BY ALL ORDER BY ALL"
)
_ALL_STORED = (
    "SELECT count(*) = 0 FROM games WHERE game_id NOT IN (SELECT game_id FROM seat_counts_stored)"
)


def player_stats(
    con: duckdb.DuckDBPyConnection,
    by: str = "player",
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    game_ids: Sequence[str] | None = None,
) -> pl.DataFrame:
    """One row per player (and session, month or venue): counts, rates, small-sample flags.

    `game_ids`, when given, limits the figures to those games (the dashboard's filters).
    """
    if by not in GROUPINGS:
        raise KroegError(f"unknown grouping {by!r}: expected one of {', '.join(GROUPINGS)}")
    filters: list[str] = []
    params: list[object] = []
    if player is not None:
        known = tuple(con.sql("SELECT DISTINCT player FROM seat_totals ORDER BY 1").pl()["player"])
        if not known:
            raise KroegError(f"no hands for player {player!r}: the dataset has no hands yet")
        try:
            player = known[NameIndex(known).resolve(player)]
        except UnknownName as exc:
            raise KroegError(f"no hands for player {player!r} ({exc})") from None
        filters.append("AND player = ?")
        params.append(player)
    if since is not None:
        filters.append("AND started_at >= ?")
        params.append(since.isoformat())
    if until is not None:
        filters.append("AND started_at < ?")
        params.append((until + timedelta(days=1)).isoformat())
    if game_ids is not None:
        filters.append("AND game_id IN (SELECT unnest(?::VARCHAR[]))")
        params.append(list(game_ids))
    keys = "".join(f"{k}, " for k in GROUPINGS[by])
    # Stored counts answer in a fraction of the time; live counts cover games not stored.
    stored = con.sql(_ALL_STORED).fetchall()[0][0]
    source = "seat_totals_stored" if stored else "seat_totals"
    query = _QUERY.format(keys=keys, filters=" ".join(filters), source=source)
    frame: pl.DataFrame = con.sql(query, params=params).pl()
    columns = []
    for stat in STATS:
        done, opp = pl.col(stat.done), pl.col(stat.opportunities)
        value = pl.when(opp > 0).then(done.cast(pl.Float64) / opp).otherwise(None)
        assert stat.name not in frame.columns, stat.name  # a rate never hides a count
        columns.append(value.alias(stat.name))
        columns.append((opp < SMALL_SAMPLE).alias(f"{stat.name}_small"))
    return frame.with_columns(columns)
