"""Player statistics from the views: every figure with what it counts and out of what.

Each rate is `done / opportunities` (docs/STATS.md defines each one), and a row
whose sample is small is flagged. Rows are per player, or per player within a
game, a month, or a venue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

import duckdb
import polars as pl

from kroeg.analytics import formats
from kroeg.analytics.evenings import BOT_MARK, simulated
from kroeg.parsers.names import NameIndex
from kroeg.recorder.errors import NotFoundError, UnknownName, UsageError

__all__ = [
    "BOTS",
    "GAME_TYPES",
    "GROUPINGS",
    "SMALL_SAMPLE",
    "STATS",
    "STAT_BY_NAME",
    "TROEFCALL_GROUPINGS",
    "TROEFCALL_STATS",
    "Stat",
    "StatsBlock",
    "bots_apart",
    "player_stats",
    "ruleset_totals",
    "stats_blocks",
    "totals_source",
    "troefcall_stats",
    "with_rates",
]

#: Fewer opportunities than this and a figure is flagged as a small sample.
SMALL_SAMPLE = 20

GROUPINGS = {
    "player": [],
    "game": ["game_id"],
    "session": ["game_id"],  # the old name of "game"
    "month": ["month"],
    "venue": ["venue"],
    "side": [],  # team toepen's partnerships (Troefcall's have their own figures)
}


@dataclass(frozen=True)
class Stat:
    """One statistic: `done` out of `opportunities`, the one definition every surface uses.

    `kroeg stats` (every format), the newsletter and the dashboard's charts and tables
    all read this registry; adding a statistic is one entry here (plus its counts in
    the SQL views if they are new).
    """

    name: str  # the rate's column, beside the counts
    label: str  # a short heading
    done: str  # the count column of what was done
    opportunities: str  # the count column of the chances to do it
    unit: Literal["%", "per"]  # a percentage, or an amount per opportunity
    definition: str  # one line; docs/STATS.md says more
    lower_is_better: bool = False
    small_sample: int = SMALL_SAMPLE  # fewer opportunities than this: flagged with *
    digits: int = 0  # decimals of a percentage (luck is a point or two either way)

    def is_small(self, opportunities: int) -> bool:
        """Whether a sample of this many opportunities is flagged as small."""
        return opportunities < self.small_sample

    def value(self, done: float, opportunities: int) -> float | None:
        """The rate (a fraction for %, an amount per opportunity), None without chances."""
        return done / opportunities if opportunities else None

    def cell(self, done: float, opportunities: int, counts: bool = True, lang: str = "en") -> str:
        """The figure as text, the one way every surface writes it: `42% 5/12*`, `0.75 3/4`
        (`0,75 3/4` in Dutch: numbers as `lang` writes them, analytics.formats).

        `-` where there was no chance; `*` marks a small sample.
        """
        value = self.value(done, opportunities)
        if value is None:
            return "-"
        if self.unit == "%":
            shown = formats.percent(value, self.digits, lang)
        else:
            shown = formats.decimal(value, 2, lang)
        if not counts:
            return shown
        small = "*" if self.is_small(opportunities) else ""
        # A sum of fractions (accuracy points, EV lost) to one decimal, a count as it is;
        # both, and the chances, with the language's thousands separator (`1,021.5/1,211`).
        whole = float(done).is_integer()
        count = formats.integer(int(done), lang) if whole else formats.decimal(done, 1, lang)
        return f"{shown} {count}/{formats.integer(opportunities, lang)}{small}"


# A stat's name never equals a count's name: the rate is added beside the counts.
STATS = (
    Stat("win_rate", "won", "won", "hands", "%", "hands won, of hands played"),
    Stat("cost_per_hand", "lost/hand", "paid", "hands", "per",
         "lives or penalty points paid per hand played", lower_is_better=True),
    Stat("knock_rate", "knocks/hand", "knocks", "hands", "per",
         "knocks per hand played (a knock war gives a player more than one a hand)"),
    Stat("knock_success", "knock success", "knocks_won", "knocks", "%",
         "knocks in hands the knocker then won (all folded, or won at the end)"),
    Stat("fold_rate", "folds", "folds", "knocks_faced", "%", "knocks answered by folding"),
    Stat("cost_per_fold", "fold cost", "fold_cost", "folds", "per",
         "lives or points paid per fold", lower_is_better=True),
    Stat("bluff_rate", "bluffs", "bluffs", "knocks_known", "%",
         "knocks with less than a fair share of winning, of knocks whose cards are known"),
    Stat("bluff_success", "bluff success", "bluffs_won", "bluffs", "%",
         "bluffs every other player folded to"),
    Stat("profit_per_bluff", "bluff profit", "bluff_profit", "bluffs", "per",
         "what a bluff brought in (folds paid to it, less an extra stake lost)"),
    Stat("regret_rate", "fold regret", "regrets", "folds_known", "%",
         "in hindsight, with every card as it lay: folds where the folder could have made "
         "sure of winning, of folds with known cards", lower_is_better=True),
    Stat("cost_per_regret", "regret cost", "regret_cost", "regrets", "per",
         "lives or points paid per regrettable fold (hindsight)", lower_is_better=True),
    Stat("answer_accuracy", "accuracy", "accuracy_points", "answers_known", "%",
         "how well knocks were answered (stay or fold), from what the player could see: "
         "100% is the best answer every time"),
    Stat("ev_lost_per_answer", "EV lost", "ev_lost", "answers_known", "per",
         "lives or points an answer to a knock lost in expectation against the best answer, "
         "from what the player could see", lower_is_better=True),
    Stat("mistake_rate", "mistakes", "mistakes", "answers_known", "%",
         "answers to a knock graded a mistake", lower_is_better=True),
    Stat("blunder_rate", "blunders", "blunders", "answers_known", "%",
         "answers to a knock graded a blunder", lower_is_better=True),
    Stat("knock_accuracy", "knock accuracy", "knock_accuracy_points", "knocks_judged", "%",
         "how well knocks were chosen (knocking, against playing on or, for a "
         "counter-knock, the better answer), from what the knocker could see"),
    Stat("ev_lost_per_knock", "EV lost/knock", "knock_ev_lost", "knocks_judged", "per",
         "lives or points a knock lost in expectation against not knocking, from what "
         "the knocker could see", lower_is_better=True),
    Stat("knock_mistake_rate", "knock mistakes", "knock_mistakes", "knocks_judged", "%",
         "knocks graded a mistake", lower_is_better=True),
    Stat("knock_blunder_rate", "knock blunders", "knock_blunders", "knocks_judged", "%",
         "knocks graded a blunder", lower_is_better=True),
    Stat("luck_per_hand", "luck", "luck", "luck_hands", "%",
         "the chance of winning the hand the cards dealt gave, above an average hand's "
         "(positive: better cards), per hand", digits=1),
    Stat("luck_adjusted_cost", "lost/hand, luck apart", "luck_adjusted_paid", "hands", "per",
         "lives or points paid per hand, with what the cards dealt saved added back",
         lower_is_better=True),
    Stat("swap_rate", "swaps", "swaps", "hands", "%", "laundry or armoede per hand played"),
    Stat("swaps_caught_rate", "swaps caught", "bluffs_caught", "swaps", "%",
         "false swaps a check caught, of swaps", lower_is_better=True),
    Stat("check_success", "checks won", "checks_won", "checks", "%",
         "checks that found a false swap"),
    Stat("swap_accuracy", "swap accuracy", "swap_accuracy_points", "swaps_judged", "%",
         "how well swaps (laundry, armoede) were chosen, against keeping the hand, from "
         "what the swapper could see"),
    Stat("ev_lost_per_swap", "EV lost/swap", "swap_ev_lost", "swaps_judged", "per",
         "lives or points a swap lost in expectation against keeping the hand, from what "
         "the swapper could see", lower_is_better=True),
)  # fmt: skip


#: The counts that add up fractions (an answer's accuracy, its EV lost, luck), not events.
FRACTIONS = (
    "accuracy_points", "ev_lost", "luck", "luck_value", "luck_adjusted_paid",
    "call_accuracy_points", "call_ev_lost", "announce_accuracy_points", "announce_ev_lost",
    "knock_accuracy_points", "knock_ev_lost", "swap_accuracy_points", "swap_ev_lost",
)  # fmt: skip


def _type(count: str) -> str:
    """The SQL type a count is summed as."""
    return "DOUBLE" if count in FRACTIONS else "BIGINT"


def _summed(count: str) -> str:
    """SQL: a count summed. A sum of fractions is rounded to 9 places: added in another
    order (DuckDB's threads, Spark's tasks) it may differ in its last bits, and a figure
    such as 351.75 shown to one place would read 351.7 on one engine and 351.8 on another."""
    total = f"sum({count})::{_type(count)}"
    return f"round({total}, 9)" if count in FRACTIONS else total


def _counts(stats: Sequence[Stat]) -> tuple[str, ...]:
    """Every count the statistics add up, each once, opportunities first."""
    return tuple(dict.fromkeys(c for s in stats for c in (s.opportunities, s.done)))


_SUMS = _counts(STATS)
_ALL_STORED = (
    "SELECT count(*) = 0 FROM games "
    "WHERE game_type = 'toepen' AND game_id NOT IN (SELECT game_id FROM seat_counts_stored)"
)


def _filters(
    con: duckdb.DuckDBPyConnection,
    names_sql: str,
    player: str | None,
    since: date | None,
    until: date | None,
    game_ids: Sequence[str] | None,
) -> tuple[list[str], list[object]]:
    """SQL conditions (and their parameters) for a player, dates and games."""
    filters: list[str] = []
    params: list[object] = []
    if player is not None:
        known = tuple(con.sql(names_sql).pl()["player"])
        if not known:
            raise NotFoundError(f"no hands for player {player!r}: the dataset has no hands yet")
        try:
            player = known[NameIndex(known).resolve(player)]
        except UnknownName as exc:
            raise NotFoundError(f"no hands for player {player!r} ({exc})") from None
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
    return filters, params


def with_rates(frame: pl.DataFrame, stats: Sequence[Stat]) -> pl.DataFrame:
    columns = []
    for stat in stats:
        done, opp = pl.col(stat.done), pl.col(stat.opportunities)
        value = pl.when(opp > 0).then(done.cast(pl.Float64) / opp).otherwise(None)
        assert stat.name not in frame.columns, stat.name  # a rate never hides a count
        columns.append(value.alias(stat.name))
        columns.append((opp < stat.small_sample).alias(f"{stat.name}_small"))
    return frame.with_columns(columns)


def totals_source(con: duckdb.DuckDBPyConnection) -> str:
    """The view of each player's counts per Toepen game to add up: the stored counts
    (fast) once every game's are stored, else the view that counts the rest live."""
    stored = con.sql(_ALL_STORED).fetchall()[0][0]
    return "seat_totals_stored" if stored else "seat_totals"


def player_stats(
    con: duckdb.DuckDBPyConnection,
    by: str = "player",
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    game_ids: Sequence[str] | None = None,
    unit: str | None = None,
) -> pl.DataFrame:
    """Toepen: one row per player (and game, month or venue) with counts, rates, flags.

    `game_ids`, when given, limits the figures to those games (the dashboard's filters);
    `unit` to the games whose scores count it (`units_of`: penalty points and lives are
    never added up).
    """
    if by not in GROUPINGS:
        named = ", ".join(g for g in GROUPINGS if g != "session")  # not the old alias
        raise UsageError(f"unknown grouping {by!r}: expected one of {named}")
    names = "SELECT DISTINCT player FROM seat_totals ORDER BY 1"
    filters, params = _filters(con, names, player, since, until, game_ids)
    # Stored counts answer in a fraction of the time; live counts cover games not stored.
    if unit is not None:
        filters.append("AND unit = ?")
        params.append(unit)
    source = totals_source(con)
    if by == "side":  # a partnership: its hands and wins, and its players' counts added up
        added = ", ".join(f"sum(t.{c}) AS {c}" for c in _SUMS if c not in ("hands", "won"))
        source = (
            "(SELECT t.side AS player, t.game_id, any_value(t.started_at) AS started_at, "
            f"any_value(t.venue) AS venue, any_value(t.month) AS month, "
            f"any_value(t.unit) AS unit, {added}, "
            "any_value(h.hands) AS hands, any_value(h.won) AS won "
            f"FROM {source} AS t JOIN side_hands AS h ON h.game_id = t.game_id "
            "AND h.side = t.side GROUP BY t.side, t.game_id)"
        )
    frame = _sums(con, source, GROUPINGS[by], _SUMS, filters, params)
    return with_rates(frame, STATS)


def _sums(
    con: duckdb.DuckDBPyConnection,
    source: str,
    keys: Sequence[str],
    counts: Sequence[str],
    filters: list[str],
    params: list[object],
) -> pl.DataFrame:
    """Each count summed per player (and grouping keys) over the rows of `source`."""
    query = (
        f"SELECT {''.join(f'{k}, ' for k in keys)} player, player AS name, {BOTS} AS bots, "
        + ", ".join(f"{_summed(c)} AS {c}" for c in counts)
        + f" FROM {source} WHERE true {' '.join(filters)} GROUP BY ALL ORDER BY ALL"
    )
    return bots_apart(con, con.sql(query, params=params).pl())


#: SQL: whether a row's game was played by the bots, by its `game_id` (evenings.simulated).
BOTS = f"game_id IN (SELECT game_id FROM games WHERE {simulated()})"


def bots_apart(con: duckdb.DuckDBPyConnection, frame: pl.DataFrame) -> pl.DataFrame:
    """Players of the bots' games told apart from the club's, by the frame's `bots` column:
    in a dataset that holds games of the club, a bot's `player` gets BOT_MARK (`Anna
    (bot)`), so a bot named like a member is never added to the member's figures nor shown
    under their name, in any table. A dataset of the bots' games alone names them as they
    are. `name`, where the frame has it, stays the name the games give."""
    if frame.is_empty() or not frame["bots"].any():
        return frame
    if not con.sql(f"SELECT count(*) > 0 FROM games WHERE NOT {simulated()}").fetchall()[0][0]:
        return frame
    marked = pl.when(pl.col("bots")).then(pl.col("player") + BOT_MARK).otherwise("player")
    return frame.with_columns(marked.alias("player"))


#: Troefcall's figures (docs/STATS.md): a player shares the side's tricks and announcements.
TROEFCALL_STATS = (
    Stat("call_rate", "calls", "calls", "hands", "%", "hands as trump caller"),
    Stat("calls_made_rate", "calls made good", "calls_made", "calls", "%",
         "calls whose side took the majority of the tricks"),
    Stat("kap_rate", "kap partij", "kaps", "hands", "%",
         "hands the side took the first tricks in a row and announced kap (or scored it)"),
    Stat("baunie_rate", "baunie tried", "baunies", "hands", "%",
         "hands the side went for every trick"),
    Stat("baunie_success", "baunie made", "baunies_won", "baunies", "%",
         "baunies that took every trick"),
    Stat("tricks_per_hand", "tricks/hand", "tricks", "hands", "per", "tricks the side took"),
    Stat("tricks_against_per_hand", "tricks against", "tricks_against", "hands", "per",
         "tricks the other side took", lower_is_better=True),
    Stat("points_per_hand", "points/hand", "points", "hands", "per", "points the side scored"),
    Stat("call_accuracy", "call accuracy", "call_accuracy_points", "calls_judged", "%",
         "how well trump was called, from the caller's cards: 100% is the best suit every "
         "time"),
    Stat("ev_lost_per_call", "EV lost/call", "call_ev_lost", "calls_judged", "per",
         "points a trump call lost in expectation against the best suit (the side's points "
         "less the other side's), from the caller's cards", lower_is_better=True),
    Stat("call_mistake_rate", "call mistakes", "call_mistakes", "calls_judged", "%",
         "trump calls graded a mistake", lower_is_better=True),
    Stat("call_blunder_rate", "call blunders", "call_blunders", "calls_judged", "%",
         "trump calls graded a blunder", lower_is_better=True),
    Stat("announce_accuracy", "kap/baunie accuracy", "announce_accuracy_points",
         "announcements_judged", "%",
         "how well the choice at seven tricks in a row was made (kap, baunie, play on), from "
         "the chooser's cards: 100% is the best choice every time"),
    Stat("ev_lost_per_announcement", "EV lost/kap choice", "announce_ev_lost",
         "announcements_judged", "per",
         "points a choice at seven tricks in a row lost in expectation against the best "
         "(the side's points less the other side's), from the chooser's cards",
         lower_is_better=True),
    Stat("announce_mistake_rate", "kap choice mistakes", "announce_mistakes",
         "announcements_judged", "%", "choices at seven tricks in a row graded a mistake",
         lower_is_better=True),
    Stat("announce_blunder_rate", "kap choice blunders", "announce_blunders",
         "announcements_judged", "%", "choices at seven tricks in a row graded a blunder",
         lower_is_better=True),
)  # fmt: skip
_TROEF_SUMS = _counts(TROEFCALL_STATS)
#: Every statistic by name.
STAT_BY_NAME = {s.name: s for s in (*STATS, *TROEFCALL_STATS)}
#: Troefcall rows may also be whole sides (partnerships) instead of players.
TROEFCALL_GROUPINGS = {**GROUPINGS, "side": []}


def troefcall_stats(
    con: duckdb.DuckDBPyConnection,
    by: str = "player",
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    game_ids: Sequence[str] | None = None,
) -> pl.DataFrame:
    """Troefcall: one row per player (or side, with `by="side"`) with counts, rates, flags.

    In a `side` row the `player` column holds the side's names (`Anna & Carla`).
    """
    if by not in TROEFCALL_GROUPINGS:
        raise UsageError(
            f"unknown grouping {by!r}: expected one of {', '.join(TROEFCALL_GROUPINGS)}"
        )
    source = "(SELECT *, side_name AS player FROM troef_sides)" if by == "side" else "troef_seats"
    names = f"SELECT DISTINCT player FROM {source} ORDER BY 1"
    filters, params = _filters(con, names, player, since, until, game_ids)
    frame = _sums(con, source, TROEFCALL_GROUPINGS[by], _TROEF_SUMS, filters, params)
    return with_rates(frame, TROEFCALL_STATS)


def ruleset_totals(
    con: duckdb.DuckDBPyConnection,
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Each player's totals per rule set (a penalty point and a life are not one unit).

    Toepen rows: (ruleset, player, games, hands, knocks, folds, cost), least cost per
    hand first; Troefcall rows: (ruleset, player, games, hands, calls, side points).
    """
    toepen = (
        bots_apart(
            con,
            con.sql(
                f"SELECT ruleset, player, {simulated()} AS bots, count(DISTINCT game_id) AS games, "
                "sum(hands)::BIGINT AS hands, sum(knocks)::BIGINT AS knocks, "
                "sum(folds)::BIGINT AS folds, sum(paid)::BIGINT AS cost "
                "FROM seat_totals JOIN games USING (game_id) GROUP BY ALL"
            ).pl(),
        )
        .drop("bots")
        .rows()
    )
    toepen.sort(key=lambda r: (r[0], r[6] / r[3], r[1]))
    troefcall = (
        bots_apart(
            con,
            con.sql(
                f"SELECT g.ruleset, t.player, {simulated('g')} AS bots, "
                "count(DISTINCT t.game_id) AS games, sum(t.hands)::BIGINT AS hands, "
                "sum(t.calls)::BIGINT AS calls, sum(t.points)::BIGINT AS points "
                "FROM troef_seats t JOIN games g USING (game_id) GROUP BY ALL"
            ).pl(),
        )
        .drop("bots")
        .sort(["ruleset", "player"])
        .rows()
    )
    return toepen, troefcall


#: The games with statistics of their own, in the order they are shown.
GAME_TYPES = ("toepen", "troefcall")


@dataclass(frozen=True)
class StatsBlock:
    """The statistics of one game type (in one unit): its rows and their figures."""

    game_type: str
    frame: pl.DataFrame
    stats: Sequence[Stat]
    #: What its costs count (`penalty points`, `lives`) where a dataset has Toepen in more
    #: than one unit; None otherwise.
    unit: str | None = None

    @property
    def title(self) -> str:
        """How the block is headed: `Toepen`, `Toepen, in lives`."""
        name = self.game_type.capitalize()
        return name if self.unit is None else f"{name}, in {self.unit}"


def units_of(con: duckdb.DuckDBPyConnection, game_type: str = "toepen") -> list[str]:
    """The units the dataset's games of `game_type` count their scores in, sorted."""
    rows = con.sql(
        "SELECT DISTINCT unit FROM games WHERE game_type = ? ORDER BY 1", params=[game_type]
    ).fetchall()
    return [row[0] for row in rows]


def stats_blocks(
    con: duckdb.DuckDBPyConnection,
    game_type: str | None = None,
    by: str = "player",
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
    one_only: str | None = None,
) -> list[StatsBlock]:
    """The statistics of every game type the dataset holds (or of `game_type`), non-empty.

    `by="side"` is Troefcall's; `one_only` names a format that holds one game type (csv,
    json): a dataset with both is refused unless one is chosen.
    """
    if game_type is not None and game_type not in GAME_TYPES:
        raise UsageError(f"unknown game {game_type!r}: expected one of {', '.join(GAME_TYPES)}")
    present = {row[0] for row in con.sql("SELECT DISTINCT game_type FROM games").fetchall()}
    kinds = [g for g in GAME_TYPES if g in present and game_type in (None, g)]
    if by == "side":  # Troefcall, and Toepen played in teams
        teams = con.sql("SELECT DISTINCT game_type FROM games WHERE teams IS NOT NULL").fetchall()
        kinds = [g for g in kinds if (g,) in teams]
        if not kinds:
            raise UsageError(
                "--by side needs games played in partnerships (Troefcall, or team toepen: "
                "--variant team-toepen); "
                + (f"the {game_type} games here have none" if game_type else "there are none")
            )
    if one_only and len(kinds) > 1:
        raise UsageError(
            f"the dataset holds Toepen and Troefcall games: choose one for {one_only} with --type"
        )
    blocks = []
    for kind in kinds:
        parts: list[tuple[str | None, pl.DataFrame]]
        if kind == "troefcall":
            parts = [(None, troefcall_stats(con, by, player, since, until))]
        else:  # a block per unit: a penalty point and a life are never added up
            units = units_of(con, kind)
            parts = [
                (unit if len(units) > 1 else None, player_stats(con, by, player, since, until,
                                                                unit=unit))
                for unit in units
            ]  # fmt: skip
        stats: Sequence[Stat] = TROEFCALL_STATS if kind == "troefcall" else STATS
        found = []
        for unit, frame in parts:
            if by == "side":  # what a reader of the table, CSV or JSON finds: sides, named so
                frame = frame.rename({"player": "side"})
            if not frame.is_empty():
                found.append(StatsBlock(kind, frame, stats, unit))
        if one_only and len(found) > 1:  # one table for CSV or JSON: the unit on each row
            frame = pl.concat(
                [b.frame.select(pl.lit(b.unit).alias("unit"), pl.all()) for b in found]
            )
            found = [StatsBlock(kind, frame, stats)]
        blocks.extend(found)
    return blocks
