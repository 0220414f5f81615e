"""Club evenings: the games played on one day at one venue, told as a club tells them.

An evening is the games of one date (UTC day of `started_at`) and venue, the club's own
(imported or recorded) and simulated ones kept apart. The Evenings page and the Games
page both write hands and standings with the functions here: one wording everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import quote

import polars as pl

from kroeg.analytics.moments import biggest_bluff, costliest_fold, regrettable_folds
from kroeg.analytics.report import plural
from kroeg.dashboard.data import figures, query, toepen_units
from kroeg.dashboard.filters import condition, day_text, default_games, game_count
from kroeg.recorder.cards import Suit
from kroeg.recorder.records import seats_name
from kroeg.recorder.text import markdown_text as md

__all__ = [
    "GAMES_SHOWN",
    "Evening",
    "EveningGame",
    "evening_games",
    "evenings",
    "hand_lines",
    "moments",
    "numbers",
    "prefetch",
    "replay_link",
    "standings",
]


#: Games of one evening told hand by hand; a bigger (simulated) evening lists the rest.
GAMES_SHOWN = 6

#: An evening's key, from a `games` row: its day, venue and whether the bots played it.
#: Queries select an evening's games by it (a short parameter, not thousands of ids).
EVENING = (
    "coalesce(started_at::DATE::VARCHAR, 'undated') || '|' || coalesce(venue, '') "
    "|| '|' || (source = 'engine')::VARCHAR"
)


def _in_evening(where: str) -> str:
    """The SQL condition for the games of the evening `?` that the filters let through."""
    return f"game_id IN (SELECT game_id FROM games WHERE {EVENING} = ? AND {where})"


@dataclass(frozen=True)
class Evening:
    """The games of one day at one venue."""

    key: str
    day: date | None
    venue: str | None
    simulated: bool
    games: int
    players: tuple[str, ...]

    @property
    def title(self) -> str:
        """`Fri 20 Nov 2026 at De Kroon`."""
        when = day_text(self.day) if self.day else "Undated games"
        where = f" at {self.venue}" if self.venue else ""
        return f"{when}{where}"

    @property
    def label(self) -> str:
        """The title with its players and games: never a hash alone."""
        bots = " · simulated" if self.simulated else ""
        return f"{self.title} · {', '.join(self.players)} · {plural(self.games, 'game')}{bots}"


def evenings(path: Path, where: str, args: tuple[object, ...]) -> list[Evening]:
    """The evenings of the games the filters let through, latest first."""
    frame = query(
        path,
        f"SELECT {EVENING} AS key, "
        "any_value(started_at::DATE) AS day, any_value(venue) AS venue, "
        "bool_and(source = 'engine') AS simulated, count(*) AS games, "
        "list_sort(list_distinct(flatten(list(players)))) AS players, "
        "max(started_at) AS last_start "
        f"FROM games WHERE {where} GROUP BY key "
        "ORDER BY last_start DESC NULLS LAST, key LIMIT 500",
        *args,
    )
    return [
        Evening(
            key=r["key"],
            day=r["day"],
            venue=r["venue"],
            simulated=r["simulated"],
            games=r["games"],
            players=tuple(r["players"]),
        )
        for r in frame.iter_rows(named=True)
    ]


def replay_link(game_id: str, hand: int, seq: int | None = None) -> str:
    """The Replay page's address for a hand (at a move, by its event number)."""
    step = "" if seq is None else f"&step={seq}"
    return f"replay?game={quote(game_id, safe='')}&hand={hand}{step}"


def _names(names: list[str]) -> str:
    return ", ".join(md(n) for n in names)


def _seats(path: Path, game_id: str) -> pl.DataFrame:
    """Each seat of each hand of a Toepen game, with the game's scoring: one query (by
    `game_id = ?`, which DuckDB pushes into the Parquet scan) for its lines and standings."""
    return query(
        path,
        "SELECT p.hand, p.seat, p.player, p.knocks, p.folds, p.paid, p.won, h.stake, "
        "h.finished, g.score_display AS display, g.lives, g.players AS seated, g.teams, "
        "g.side_names[g.teams[p.seat + 1] + 1] AS side FROM hand_players AS p "
        "JOIN hands AS h USING (game_id, hand) JOIN games AS g USING (game_id) "
        "WHERE game_id = ? ORDER BY p.hand, p.seat",
        game_id,
    )


def hand_lines(path: Path, game_id: str, game_type: str) -> list[str]:
    """Each hand of a game in one Markdown line, linked to its replay: who knocked, who
    folded, who won and who paid what (Toepen); who called what, the tricks and the
    points (Troefcall)."""
    if game_type == "troefcall":
        return _troefcall_lines(path, game_id)
    seats = _seats(path, game_id)
    lines = []
    for (hand,), rows in seats.group_by(["hand"], maintain_order=True):
        parts = []
        knocked = [r["player"] for r in rows.iter_rows(named=True) if r["knocks"]]
        folded = [r["player"] for r in rows.iter_rows(named=True) if r["folds"]]
        won = [r["seat"] for r in rows.iter_rows(named=True) if r["won"]]
        paid = [f"{md(r['player'])} {r['paid']}" for r in rows.iter_rows(named=True) if r["paid"]]
        if knocked:
            parts.append(f"{_names(knocked)} knocked")
        if folded:
            parts.append(f"{_names(folded)} folded")
        stake = rows["stake"][0]
        finished = bool(rows["finished"][0])
        if not finished:
            parts.append("not finished")
        elif won:  # the engine's `win` rows, a whole side named as a side
            first = rows.row(0, named=True)
            who = seats_name(first["seated"], first["teams"], won)
            parts.append(f"{md(who)} won (stake {stake})")
        if paid:
            parts.append("paid: " + ", ".join(paid))
        text = "; ".join(parts) or "no knock, nobody paid"
        lines.append(f"- [hand {hand}]({replay_link(game_id, int(str(hand)))}) — {text}")
    return lines


def _troefcall_lines(path: Path, game_id: str) -> list[str]:
    hands = query(
        path,
        "SELECT h.hand, g.players[h.caller + 1] AS caller, h.trump, h.tricks_0, h.tricks_1, "
        "h.points, h.score_side, h.kap_side IS NOT NULL AS kap, "
        "h.baunie_side IS NOT NULL AS baunie, "
        "g.side_names[1] AS side_0, g.side_names[2] AS side_1 "
        "FROM troef_hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        game_id,
    )
    lines = []
    for r in hands.iter_rows(named=True):
        scorer = r["side_0"] if r["score_side"] == 0 else r["side_1"]
        extra = ", kap" if r["kap"] else ", baunie" if r["baunie"] else ""
        trump = Suit(r["trump"]).symbol if r["trump"] else "?"
        lines.append(
            f"- [hand {r['hand']}]({replay_link(game_id, r['hand'])}) — "
            f"{md(str(r['caller']))} called {trump}; "
            f"tricks {md(r['side_0'])} {r['tricks_0']}, {md(r['side_1'])} {r['tricks_1']}; "
            f"{r['points']} to {md(scorer)}{extra}"
        )
    return lines


def standings(path: Path, game_id: str, game_type: str) -> str:
    """The scores at the end of a game, best first: `Anna 0 points, Ben 3 points` (points
    paid), `Anna 8 lives, Ben 5 lives` (lives left), or each side's points (Troefcall)."""
    if game_type == "troefcall":
        sides = query(
            path,
            "SELECT side_name, sum(points)::BIGINT AS points FROM troef_sides "
            "WHERE game_id = ? GROUP BY side, side_name ORDER BY points DESC, side",
            game_id,
        )
        return ", ".join(f"{md(r['side_name'])} {r['points']}" for r in sides.iter_rows(named=True))
    seats = _seats(path, game_id)
    if seats.is_empty():
        return "no hand played"
    if seats["side"].is_not_null().any():  # team toepen: a side pays from one pool
        seats = seats.with_columns(
            pl.col("side").alias("player"), pl.col("seat").min().over("side")
        )
    totals = (
        seats.group_by("seat", "player", maintain_order=True)
        .agg(pl.col("paid").sum(), pl.col("display").first(), pl.col("lives").first())
        .sort("paid", "seat")
    )
    parts = []
    for r in totals.iter_rows(named=True):
        if r["display"] == "lives":
            left = max(0, int(r["lives"]) - int(r["paid"]))
            parts.append(f"{md(r['player'])} {left} {'life' if left == 1 else 'lives'}")
        else:
            paid = int(r["paid"])
            parts.append(f"{md(r['player'])} {paid} {'point' if paid == 1 else 'points'}")
    return ", ".join(parts)


def moments(path: Path, key: str, where: str, args: tuple[object, ...]) -> list[str]:
    """An evening's notable moves, each a Markdown line linking to it in the replay: the
    biggest bluff that worked, the costliest fold, and every regrettable fold (from the
    analysis: none for games not analysed)."""
    chosen = _in_evening(where)
    lines = []
    bluff = query(path, biggest_bluff(chosen), key, *args)
    for r in bluff.iter_rows(named=True):
        lines.append(
            f"- **Biggest bluff that worked:** [{md(r['player'])}, hand {r['hand']}]"
            f"({replay_link(r['game_id'], r['hand'], r['seq'])}) — everyone folded to the "
            f"knock (stake {r['stake']}), paying {r['folded_to_it']} in all"
        )
    fold = query(path, costliest_fold(chosen), key, *args)
    for r in fold.iter_rows(named=True):
        lines.append(
            f"- **Costliest fold:** [{md(r['player'])}, hand {r['hand']}]"
            f"({replay_link(r['game_id'], r['hand'], r['seq'])}) — the fold cost {r['cost']}"
        )
    regrets = query(path, regrettable_folds(chosen), key, *args)
    if not regrets.is_empty():
        links = ", ".join(
            f"[{md(r['player'])}, hand {r['hand']}]"
            f"({replay_link(r['game_id'], r['hand'], r['seq'])}) (cost {r['cost']})"
            for r in regrets.iter_rows(named=True)
        )
        lines.append(f"- **Regrettable folds** (playing on would have won): {links}")
    return lines


def game_times(
    path: Path, key: str, where: str, args: tuple[object, ...], limit: int
) -> tuple[pl.DataFrame, int]:
    """The evening's first `limit` games in order (id, start time, rule set, game type),
    and how many games it has."""
    games = query(
        path,
        "SELECT game_id, strftime(started_at, '%H:%M') AS time, label AS ruleset, game_type, "
        f"count(*) OVER () AS n FROM games WHERE {_in_evening(where)} "
        f"ORDER BY started_at NULLS LAST, game_id LIMIT {int(limit)}",
        key, *args,
    )  # fmt: skip
    return games, int(games["n"][0]) if games.height else 0


@dataclass(frozen=True)
class EveningGame:
    """One game of an evening as the landing page tells it."""

    time: str | None
    ruleset: str
    standings: str
    lines: list[str]


def evening_games(
    path: Path, key: str, where: str, args: tuple[object, ...]
) -> tuple[list[EveningGame], int]:
    """The evening's first GAMES_SHOWN games told hand by hand, and how many it has."""
    games, count = game_times(path, key, where, args, GAMES_SHOWN)
    told = [
        EveningGame(
            time=r["time"],
            ruleset=r["ruleset"],
            standings=standings(path, r["game_id"], r["game_type"]),
            lines=hand_lines(path, r["game_id"], r["game_type"]),
        )
        for r in games.iter_rows(named=True)
    ]
    return told, count


def numbers(path: Path, where: str, args: tuple[object, ...]) -> dict[str, int]:
    """The dataset in numbers (the games the filters let through)."""
    return query(
        path,
        f"SELECT (SELECT count(*) FROM games WHERE {where}) AS games, "
        f"(SELECT count(*) FROM hands WHERE {where}) AS hands, "
        f"(SELECT count(*) FROM events WHERE {where}) AS events, "
        # Players from the games' own lists: no per-seat totals to add up for a count.
        f"(SELECT count(DISTINCT p) FROM (SELECT unnest(players) AS p FROM games WHERE {where}))"
        " AS players",
        *(args * 4),
    ).row(0, named=True)


def prefetch(path: Path) -> None:
    """Ask what a new visitor's landing page and Players page ask (the latest evening, every
    player's figures, with the filters untouched), so that the server's first visitor finds
    the answers ready."""
    if not game_count(path):
        return
    chosen = default_games(path)
    where, args = condition(chosen)
    for game in ("toepen", "troefcall"):
        figures(path, game, None, chosen)
    for unit in toepen_units(path, where, args):
        figures(path, "toepen", unit, chosen)
    nights = evenings(path, where, args)
    if nights:
        moments(path, nights[0].key, where, args)
        evening_games(path, nights[0].key, where, args)
    numbers(path, where, args)
