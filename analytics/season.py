"""A season's standings: every evening placed, points per place, the season's table.

A season (analytics.club.Season: a named date range in the club file) ranks the
evenings of one game type in it. An evening is a day at a venue, the bots' games apart
(analytics.evenings.evening). On each, its players are placed by their net games: games
won minus games lost, both the engine's `game_end` fact (its winner and loser seat; in
team toepen and Troefcall a side's result is each of its players'). Players level on an
evening share their places, each with the average of those places' points (two level
second under 10, 8, 6: 7 each). A player's season is the sum of their evenings' points,
the `drop_worst` lowest left out as long as `min_evenings` still count; a player with
fewer than `min_evenings` evenings is listed, not ranked. Players level in the season
share a place. Nothing here knows a rule of the game: only the facts the engine wrote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import duckdb
import polars as pl

from kroeg.analytics.club import Season
from kroeg.analytics.evenings import evening, simulated
from kroeg.analytics.formats import long_day
from kroeg.analytics.stats import bots_apart
from kroeg.analytics.words import Words, words

__all__ = [
    "Standings", "default_season", "describe", "evening_results", "not_ranked", "shown_table",
    "standings", "standings_text",
]  # fmt: skip


@dataclass(frozen=True)
class Standings:
    """A season's evenings (one row per evening and player) and its table."""

    season: Season
    #: evening, day, venue, player, games, won, lost, net, place, points
    evenings: pl.DataFrame
    #: place (None if not ranked), player, evenings, counted, points, dropped, firsts
    table: pl.DataFrame

    @property
    def evening_count(self) -> int:
        return self.evenings["evening"].n_unique() if not self.evenings.is_empty() else 0


def default_season(seasons: Sequence[Season], today: date) -> Season:
    """The season a visitor means without naming one: one going on `today` (of those, the
    one begun latest, and of those begun that day the first the club file lists); else
    the one begun latest; else the file's first."""
    going_on = [s for s in seasons if s.first <= today <= s.last]
    begun = going_on or [s for s in seasons if s.first <= today]
    if not begun:
        return seasons[0]
    latest = max(s.first for s in begun)
    return next(s for s in begun if s.first == latest)


def evening_results(
    con: duckdb.DuckDBPyConnection, season: Season, include_simulated: bool = False
) -> pl.DataFrame:
    """Each player's finished games of the season's type, per evening: games, won, lost
    (a bot named like a member apart from them, `Anna (bot)`, when the bots' evenings are
    included: stats.bots_apart)."""
    bots = "" if include_simulated else f"AND NOT {simulated('g')}"
    frame: pl.DataFrame = con.sql(
        f"""
        WITH chosen AS (
            SELECT g.game_id, g.players, g.teams, {evening("g")} AS evening,
                   g.started_at::DATE AS day, g.venue, {simulated("g")} AS bots
            FROM games AS g
            WHERE g.game_type = ? AND g.started_at::DATE BETWEEN ? AND ? {bots}
        ), seats AS (
            SELECT c.evening, c.day, c.venue, c.bots, c.players[s.i + 1] AS player,
                   list_contains(r.winners, c.players[s.i + 1]) AS won,
                   list_contains(r.losers, c.players[s.i + 1]) AS lost
            FROM chosen AS c
            JOIN game_results AS r USING (game_id)
            CROSS JOIN LATERAL (
                SELECT unnest(generate_series(0, len(c.players) - 1)) AS i
            ) AS s
        )
        SELECT evening, any_value(day) AS day, any_value(venue) AS venue, player,
               any_value(bots) AS bots, count(*)::BIGINT AS games,
               count_if(won)::BIGINT AS won, count_if(lost)::BIGINT AS lost
        FROM seats
        GROUP BY evening, player
        ORDER BY day, evening, player
        """,
        params=[season.game, season.first, season.last],
    ).pl()
    # A bot named like a member is another player, in the season's table too.
    return bots_apart(con, frame).drop("bots")


def _placed(results: pl.DataFrame, season: Season) -> pl.DataFrame:
    """Each evening's places and points: level players share them (the average)."""
    net = results.with_columns(net=pl.col("won") - pl.col("lost"))
    better = pl.col("net").rank("max", descending=True).over("evening")  # places to here
    level = pl.len().over(["evening", "net"])
    placed = net.with_columns(place=(better - level + 1).cast(pl.Int64), level=level)
    points = [
        sum(season.points(p) for p in range(place, place + tied)) / tied
        for place, tied in zip(placed["place"], placed["level"], strict=True)
    ]
    return placed.with_columns(points=pl.Series(points, dtype=pl.Float64)).drop("level")


def _table(evenings: pl.DataFrame, season: Season) -> pl.DataFrame:
    """The season's table: each player's evenings, the worst dropped, ranked by points."""
    rows = []
    for (player,), mine in evenings.group_by(["player"], maintain_order=True):
        points = sorted(mine["points"].to_list(), reverse=True)
        dropped = min(season.drop_worst, max(0, len(points) - season.min_evenings))
        kept = points[: len(points) - dropped]
        rows.append({
            "player": player, "evenings": len(points), "counted": len(kept),
            "points": float(sum(kept)), "dropped": float(sum(points[len(kept):])),
            "firsts": int((mine["place"] == 1).sum()),
            "ranked": len(points) >= season.min_evenings,
        })  # fmt: skip
    schema = {"player": pl.String, "evenings": pl.Int64, "counted": pl.Int64,
              "points": pl.Float64, "dropped": pl.Float64, "firsts": pl.Int64,
              "ranked": pl.Boolean}  # fmt: skip
    table = pl.DataFrame(rows, schema=schema).sort(
        ["ranked", "points", "firsts", "player"], descending=[True, True, True, False]
    )
    better = pl.col("points").rank("min", descending=True).over("ranked")
    place = pl.when(pl.col("ranked")).then(better.cast(pl.Int64)).otherwise(None)
    return table.with_columns(place=place).select(
        "place", "player", "evenings", "counted", "points", "dropped", "firsts"
    )


def standings(
    con: duckdb.DuckDBPyConnection, season: Season, include_simulated: bool = False
) -> Standings:
    """The season's evenings placed and its table (docs/SEASONS.md)."""
    evenings = _placed(evening_results(con, season, include_simulated), season)
    return Standings(season, evenings, _table(evenings, season))


def points_text(value: float, w: Words) -> str:
    """Points as a club writes them, in `w`'s language: whole, or with the half a shared
    place gives (`3`, `1.5`, `1,5`)."""
    return w.number(value, 0 if float(value).is_integer() else 1)


def _evenings(n: int, w: Words) -> str:
    return w.count(n, "n_evenings")


def rules_sentence(found: Standings, w: Words) -> str:
    """How the season ranks, in a sentence: the CLI's, the page's and the bulletin's."""
    season = found.season
    dropped = ""
    if season.drop_worst:
        dropped = w.count(season.drop_worst, "season_dropped")
    points = ", ".join(w.number(p, 0) for p in season.placing_points)
    return w("season_rules", points=points, minimum=_evenings(season.min_evenings, w),
             dropped=dropped)  # fmt: skip


def describe(found: Standings, w: Words | None = None) -> list[str]:
    """What the season is and how it ranks, in two sentences (the CLI's, the page's)."""
    w = w or words("en")
    season = found.season
    summary = w("season_summary", season=season.name, game=season.game,
                first=long_day(season.first, w.lang), last=long_day(season.last, w.lang),
                evenings=_evenings(found.evening_count, w))  # fmt: skip
    return [summary, rules_sentence(found, w)]


def shown_table(found: Standings, w: Words | None = None) -> pl.DataFrame:
    """The ranked players, points as a club writes them (a shared place's half)."""
    w = w or words("en")
    return found.table.filter(pl.col("place").is_not_null()).with_columns(
        pl.col("points").map_elements(lambda v: points_text(v, w), return_dtype=pl.String),
        pl.col("dropped").map_elements(lambda v: points_text(v, w), return_dtype=pl.String),
    )


def not_ranked(found: Standings, w: Words | None = None) -> str:
    """Who played too few evenings, in a sentence ("" if nobody)."""
    w = w or words("en")
    others = found.table.filter(pl.col("place").is_null())["player"].to_list()
    if not others:
        return ""
    return w("season_unranked", minimum=_evenings(found.season.min_evenings, w),
             who=", ".join(others))  # fmt: skip


def standings_text(found: Standings) -> str:
    """The table as a terminal shows it: what the season is, who is ranked, who is not."""
    from kroeg.analytics.games import games_table
    from kroeg.recorder.text import plural

    lines = [*describe(found), ""]
    if found.table.is_empty():
        return "\n".join([*lines, "No finished games in this season.", ""])
    ranked = shown_table(found)
    if ranked.is_empty():
        lines.append(f"Nobody has played {plural(found.season.min_evenings, 'evening')} yet.")
    else:
        lines.append(games_table(ranked).rstrip("\n"))
    if not_ranked(found):
        lines += ["", not_ranked(found)]
    return "\n".join([*lines, ""])
