"""The queries behind the dashboard's Replay and Players pages, and its connection: the
pages call these (as the CLI calls its own) and hold no SQL of their own.

The games a page's filters let through come as a list of ids (None: every game).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from kroeg.analytics.evenings import PLAYED, Games, chosen, game_names
from kroeg.analytics.stats import STAT_BY_NAME, Stat, totals_source, with_rates
from kroeg.analytics.views import connect

__all__ = [
    "BEFORE_HAND", "BEHIND", "before_hand", "behind", "connect_limited", "counts_before_game",
    "game_hand_counts", "hand_answers", "hand_folds", "hand_knocks", "hand_troef_sides",
]  # fmt: skip


def connect_limited(path: str | Path, memory_limit: str) -> duckdb.DuckDBPyConnection:
    """A connection to the dataset's views whose DuckDB uses at most `memory_limit`."""
    con = connect(path)
    con.execute(f"SET memory_limit = '{memory_limit}'")
    return con


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    frame: pl.DataFrame = con.sql(sql, params=params).pl()
    return frame


def hand_knocks(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed knocks of a hand (none for a game not analysed)."""
    return _frame(
        con,
        "SELECT seq, player, strength, fair_share, bluff, bluff_won, all_folded, knocker_won "
        "FROM knock_outcomes WHERE game_id = ? AND hand = ? ORDER BY seq",
        [game_id, hand],
    )


def hand_folds(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed folds of a hand, with what each cost and whether it was regrettable."""
    return _frame(
        con,
        "SELECT f.seq, f.player, x.regret, f.cost FROM folds AS f "
        "JOIN fold_facts AS x USING (game_id, hand, seq) "
        "WHERE f.game_id = ? AND f.hand = ? ORDER BY f.seq",
        [game_id, hand],
    )


def hand_answers(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed answers to knocks of a hand: the expected cost of each choice from
    what the player could see, the EV lost and the grade (none for a game not analysed)."""
    return _frame(
        con,
        "SELECT seq, seat, answer, stake, win_chance, cost_stay, cost_fold, ev_lost, grade, "
        "coalesce(partners_play_on, false) AS partners_play_on "
        "FROM answer_facts WHERE game_id = ? AND hand = ? ORDER BY seq",
        [game_id, hand],
    )


def hand_troef_sides(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """Each side of a finished Troefcall hand: its calls and baunies, and how they came out."""
    return _frame(
        con,
        "SELECT s.side, s.calls, s.calls_made, s.tricks, s.baunies, s.baunies_won, h.hand_size "
        "FROM troef_sides AS s JOIN troef_hands AS h USING (game_id, hand) "
        "WHERE s.game_id = ? AND s.hand = ?",
        [game_id, hand],
    )


#: A player's hands behind a number: what they are, in words, and the query listing them.
BEHIND = {
    "bluffs": (
        "bluffs",
        "SELECT game_id, hand, seq, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| ' below the fair share ' || round(fair_share, 2) "
        "|| CASE WHEN all_folded THEN ', everyone folded' ELSE '' END AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff AND {where} ORDER BY game_id, hand "
        "LIMIT 50",
    ),
    "won": (
        "bluffs that won (everyone folded)",
        "SELECT game_id, hand, seq, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| ' below the fair share ' || round(fair_share, 2) "
        "|| '; the folds paid ' || folded_to_it || ' in all' AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff_won AND {where} "
        "ORDER BY game_id, hand LIMIT 50",
    ),
    "folds": (
        "folds",
        "SELECT game_id, hand, seq, 'the fold cost ' || cost AS what FROM folds "
        "WHERE player = ? AND {where} ORDER BY cost DESC, game_id, hand LIMIT 50",
    ),
    "regrets": (
        "regrettable folds",
        "SELECT f.game_id, f.hand, f.seq, 'the fold cost ' || f.cost "
        "|| '; playing on would have won' AS what FROM folds AS f "
        "JOIN fold_facts AS x USING (game_id, hand, seq) "
        "WHERE f.player = ? AND x.regret AND {where} ORDER BY f.cost DESC, f.game_id, f.hand "
        "LIMIT 50",
    ),
    "blunders": (
        "blunders answering a knock",
        "SELECT a.game_id, a.hand, a.seq, CASE a.answer WHEN 'stay' THEN 'stayed in' "
        "ELSE 'folded' END || ' at a stake of ' || a.stake || ', losing ' "
        "|| round(a.ev_lost, 1) || ' in expectation' AS what "
        "FROM answer_facts AS a JOIN games AS g USING (game_id) "
        "WHERE g.players[a.seat + 1] = ? AND a.grade = 'blunder' AND {where} "
        "ORDER BY a.ev_lost DESC, a.game_id, a.hand LIMIT 50",
    ),
}


def behind(con: duckdb.DuckDBPyConnection, kind: str, player: str, games: Games) -> pl.DataFrame:
    """At most 50 of `player`'s hands behind a number (`BEHIND`'s kinds), among `games`:
    game_id, hand, seq, what, and `game`, the game's name (`game_names`: never its id)."""
    alias = {"regrets": "f", "blunders": "a"}.get(kind, "")
    where, params = chosen(games, alias)
    hands = _frame(con, BEHIND[kind][1].format(where=where), [player, *params])
    names = game_names(con, hands["game_id"].unique().to_list())
    return hands.with_columns(
        pl.Series("game", [str(names[g]) for g in hands["game_id"]], dtype=pl.String)
    )


#: What the replay shows of each player before a hand, as a poker tracker's heads-up
#: display does: statistics of the registry (analytics.stats), by name.
BEFORE_HAND = ("bluff_rate", "fold_rate")


def _before_counts() -> tuple[list[Stat], list[str]]:
    stats = [STAT_BY_NAME[name] for name in BEFORE_HAND]
    return stats, list(dict.fromkeys(c for s in stats for c in (s.done, s.opportunities)))


def counts_before_game(con: duckdb.DuckDBPyConnection, game_id: str, games: Games) -> pl.DataFrame:
    """`BEFORE_HAND`'s counts for each player of a game over the games among `games`
    played before it, in the order played (`PLAYED`: a game without a start time last)."""
    _, counts = _before_counts()
    where, params = chosen(games, "t")
    added = ", ".join(f"sum(t.{c}) AS {c}" for c in counts)
    return _frame(
        con,
        f"WITH played AS (SELECT game_id, players, row_number() OVER (ORDER BY {PLAYED}) AS n "
        f"FROM games) SELECT t.player, {added} FROM {totals_source(con)} AS t "
        "JOIN played AS o ON o.game_id = t.game_id, "
        "(SELECT n, players FROM played WHERE game_id = ?) AS g "
        f"WHERE list_contains(g.players, t.player) AND o.n < g.n AND {where} GROUP BY t.player",
        [game_id, *params],
    )


def game_hand_counts(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """`BEFORE_HAND`'s counts of a game's finished hands, a row per hand and player (the
    same figures seat_totals adds up, hand by hand: a hand before the one replayed is
    finished), players in seat order."""
    _, counts = _before_counts()
    return _frame(
        con,
        "SELECT g.players[s.seat + 1] AS player, s.*, f.* EXCLUDE (game_id, hand, seat) "
        "FROM (SELECT * FROM seat_hands WHERE game_id = ? AND finished) AS s "
        "LEFT JOIN (SELECT * FROM hand_facts WHERE game_id = ?) AS f "
        "USING (game_id, hand, seat) JOIN games AS g ON g.game_id = s.game_id ORDER BY s.seat",
        [game_id, game_id],
    ).select("hand", "player", *counts)


def before_hand(
    players: tuple[str, ...], earlier: pl.DataFrame, hands: pl.DataFrame, hand: int
) -> pl.DataFrame:
    """Each of `players`, in seat order: `BEFORE_HAND`'s counts and rates over the hands
    they played before hand `hand` of a game: earlier games (`counts_before_game`) and
    this game's earlier hands (`game_hand_counts`)."""
    stats, counts = _before_counts()
    this_game = hands.filter(pl.col("hand") < hand).drop("hand")
    summed = (
        pl.concat([earlier, this_game], how="diagonal_relaxed")
        .group_by("player")
        .agg([pl.col(c).sum() for c in counts])
    )
    frame = (
        pl.DataFrame({"player": list(players)}, schema={"player": pl.String})
        .join(summed, on="player", how="left", maintain_order="left")
        .with_columns([pl.col(c).fill_null(0).cast(pl.Int64) for c in counts])
    )
    return with_rates(frame, stats)
