"""The queries behind the dashboard's Replay and Players pages, and its connection: the
pages call these (as the CLI calls its own) and hold no SQL of their own.

The games a page's filters let through come as a list of ids (None: every game).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from kroeg.analytics.evenings import Games, chosen
from kroeg.analytics.views import connect

__all__ = [
    "BEHIND", "behind", "connect_limited", "hand_answers", "hand_folds", "hand_knocks",
    "hand_troef_sides",
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
    game_id, hand, seq, what, and the game's started_at and venue (a game is named by
    its day and venue, never by its id alone)."""
    alias = {"regrets": "f", "blunders": "a"}.get(kind, "")
    where, params = chosen(games, alias)
    hands = _frame(con, BEHIND[kind][1].format(where=where), [player, *params])
    named = _frame(
        con,
        "SELECT game_id, started_at, venue FROM games WHERE game_id IN (SELECT unnest(?))",
        [hands["game_id"].unique().to_list()],
    )
    return hands.join(named, on="game_id", how="left", maintain_order="left")
