"""The queries behind the dashboard's Replay and Players pages, and its connection: the
pages call these (as the CLI calls its own) and hold no SQL of their own.

The games a page's filters let through come as a list of ids (None: every game).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from kroeg.analytics.evenings import PLAYED, Games, chosen, game_names, simulated
from kroeg.analytics.stats import BOTS, STAT_BY_NAME, Stat, totals_source, with_rates
from kroeg.analytics.views import connect

__all__ = [
    "BEFORE_HAND",
    "BEHIND",
    "before_game",
    "before_hand",
    "behind",
    "connect_limited",
    "counts_before_game",
    "counts_before_games",
    "game_hand_counts",
    "hand_announcements",
    "hand_answers",
    "hand_calls",
    "hand_folds",
    "hand_knocks",
    "hand_swaps",
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
    """The analysed knocks of a hand (none for a game not analysed): the strength, and
    the knock as a choice (the stake before it, its expected cost, the other choice's, the
    EV lost, the grade; NULL where not judged)."""
    return _frame(
        con,
        "SELECT seq, player, strength, fair_share, bluff, bluff_won, all_folded, knocker_won, "
        "stake_before, cost_knock, cost_other, other_choice, knock_ev_lost, knock_grade "
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


def hand_swaps(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed laundry swaps and armoedes of a hand: the claim, whether the cards
    bore it out, the expected cost of swapping and of keeping the hand from what the
    swapper could see, the EV lost and the grade (none for a game not analysed)."""
    return _frame(
        con,
        "SELECT seq, seat, kind, genuine, stake, cost_swap, cost_keep, ev_lost, grade "
        "FROM swap_facts WHERE game_id = ? AND hand = ? ORDER BY seq",
        [game_id, hand],
    )


def hand_calls(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed trump call of a Troefcall hand: the suit named and the best, each
    suit's value from the caller's cards, the EV lost and the grade (none for a game not
    analysed, or a call whose cards were not given)."""
    return _frame(
        con,
        "SELECT seq, seat, trump, best, value_clubs, value_diamonds, value_hearts, "
        "value_spades, ev_lost, grade FROM call_facts WHERE game_id = ? AND hand = ? "
        "ORDER BY seq",
        [game_id, hand],
    )


def hand_announcements(con: duckdb.DuckDBPyConnection, game_id: str, hand: int) -> pl.DataFrame:
    """The analysed choice at seven tricks in a row of a Troefcall hand: what was chosen
    and the best, each option's value from the chooser's cards (NULL: no option), the
    chance of a baunie, the EV lost and the grade (none for a game not analysed)."""
    return _frame(
        con,
        "SELECT seq, seat, chosen, best, value_kap, value_baunie, value_stop, value_play, "
        "baunie_chance, ev_lost, grade FROM announce_facts WHERE game_id = ? AND hand = ? "
        "ORDER BY seq",
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


#: A player's hands behind a number, by kind: the query listing them, with the figures
#: the page says of each (stake, strength, cost: the Players page writes them in words, in
#: the visitor's language).
BEHIND = {
    "bluffs": (
        "SELECT game_id, hand, seq, stake, strength, fair_share, all_folded "
        "FROM knock_outcomes WHERE player = ? AND bluff AND {where} ORDER BY game_id, hand "
        "LIMIT 50"
    ),
    "won": (
        "SELECT game_id, hand, seq, stake, strength, fair_share, folded_to_it "
        "FROM knock_outcomes WHERE player = ? AND bluff_won AND {where} "
        "ORDER BY game_id, hand LIMIT 50"
    ),
    "folds": (
        "SELECT game_id, hand, seq, cost FROM folds "
        "WHERE player = ? AND {where} ORDER BY cost DESC, game_id, hand LIMIT 50"
    ),
    "regrets": (
        "SELECT f.game_id, f.hand, f.seq, f.cost FROM folds AS f "
        "JOIN fold_facts AS x USING (game_id, hand, seq) "
        "WHERE f.player = ? AND x.regret AND {where} ORDER BY f.cost DESC, f.game_id, f.hand "
        "LIMIT 50"
    ),
    "blunders": (
        "SELECT a.game_id, a.hand, a.seq, a.answer, a.stake, a.ev_lost "
        "FROM answer_facts AS a JOIN games AS g USING (game_id) "
        "WHERE g.players[a.seat + 1] = ? AND a.grade = 'blunder' AND {where} "
        "ORDER BY a.ev_lost DESC, a.game_id, a.hand LIMIT 50"
    ),
}


def behind(
    con: duckdb.DuckDBPyConnection, kind: str, player: str, games: Games, bots: bool | None = None
) -> pl.DataFrame:
    """At most 50 of `player`'s hands behind a number (`BEHIND`'s kinds), among `games`
    (and only the bots' games, or only the club's, when `bots` says which: a statistics
    row's `bots`): game_id, hand, seq, the kind's figures, and `game`, the game's name
    (`game_names`: never its id)."""
    alias = {"regrets": "f", "blunders": "a"}.get(kind, "")
    where, params = chosen(games, alias)
    if bots is not None:
        where += f" AND {f'{alias}.' if alias else ''}{BOTS} = ?"
        params = [*params, bots]
    hands = _frame(con, BEHIND[kind].format(where=where), [player, *params])
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


def counts_before_games(con: duckdb.DuckDBPyConnection, games: Games) -> pl.DataFrame:
    """`BEFORE_HAND`'s counts before every game, a row per game and player: the player's
    counts over the games among `games` played before it, in the order played (`PLAYED`: a
    game without a start time last); no row for a player without such a game.

    One pass over every game's counts, a running sum per player: a game's figures are then
    a lookup (`counts_before_game`), the same at 10,000 hands as at 100,000, where summing
    the earlier games for each game took seconds (docs/BENCHMARKS.md, issue 29)."""
    _, counts = _before_counts()
    where, params = chosen(games, "t")
    added = ", ".join(f"sum(t.{c}) AS {c}" for c in counts)
    running = ", ".join(f"sum(n.{c}) OVER earlier AS {c}" for c in counts)
    return _frame(
        con,
        f"WITH played AS (SELECT game_id, players, {simulated()} AS bots, "
        f"row_number() OVER (ORDER BY {PLAYED}) AS n FROM games), "
        f"counted AS (SELECT t.game_id, t.player, {added} FROM {totals_source(con)} AS t "
        f"WHERE {where} GROUP BY t.game_id, t.player), "
        # Every game's players, with their counts in it when it counts (among `games`,
        # with a finished hand): the game outside `games` still has the earlier ones'.
        # A bot named like a member is another player (stats.bots_apart): apart.
        "seated AS (SELECT DISTINCT o.game_id, o.n, o.bots, p.player FROM played AS o, "
        "unnest(o.players) AS p(player)), "
        f"summed AS (SELECT s.game_id, s.player, {running}, "
        "count(n.game_id) OVER earlier AS games_before "
        "FROM seated AS s LEFT JOIN counted AS n USING (game_id, player) "
        "WINDOW earlier AS (PARTITION BY s.player, s.bots ORDER BY s.n "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) "
        f"SELECT game_id, player, {', '.join(counts)} FROM summed WHERE games_before > 0 "
        "ORDER BY game_id, player",
        params,
    )


def counts_before_game(con: duckdb.DuckDBPyConnection, game_id: str, games: Games) -> pl.DataFrame:
    """`BEFORE_HAND`'s counts for each player of a game over the games among `games`
    played before it, in the order played (`PLAYED`: a game without a start time last):
    its rows of `counts_before_games`."""
    return before_game(counts_before_games(con, games), game_id)


def before_game(every: pl.DataFrame, game_id: str) -> pl.DataFrame:
    """A game's rows of `counts_before_games`' answer, without the game's id."""
    return every.filter(pl.col("game_id") == game_id).drop("game_id")


def game_hand_counts(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """`BEFORE_HAND`'s counts of a game's finished hands, a row per hand and player (the
    view `hand_counts`: the same figures seat_totals adds up, hand by hand: a hand before
    the one replayed is finished), players in seat order."""
    _, counts = _before_counts()
    return _frame(
        con,
        f"SELECT hand, player, {', '.join(counts)} FROM hand_counts WHERE game_id = ? "
        "ORDER BY seat, hand",
        [game_id],
    )


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
