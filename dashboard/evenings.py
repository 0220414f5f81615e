"""Club evenings: the games played on one day at one venue, told as a club tells them.

What an evening is (the games of one date and venue, the club's own and simulated ones
kept apart) is defined once, in kroeg.analytics.evenings, with the queries this module
asks; here they are told in words. The Evenings page and the Games page both write hands
and standings with the functions here: one wording everywhere.

`games` is what the sidebar's filters let through (a list of game ids; None: all).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

import polars as pl

from kroeg.analytics.evenings import (
    GameName,
    Games,
    evening_games_frame,
    evening_moments,
    evening_numbers,
    evenings_frame,
    game_names,
    toepen_out,
    toepen_seats,
    troefcall_hands,
    troefcall_running,
    troefcall_totals,
)
from kroeg.analytics.games import hand_costs, recent_games
from kroeg.analytics.pages import (
    hand_answers,
    hand_folds,
    hand_knocks,
    hand_troef_sides,
)
from kroeg.dashboard.data import ask, before_this_hand, figures, states, toepen_units
from kroeg.dashboard.data import game as game_record
from kroeg.dashboard.filters import day_text, default_games, game_count
from kroeg.dashboard.replay import hand_numbers
from kroeg.parsers.render import reason_text
from kroeg.recorder.cards import Suit
from kroeg.recorder.records import seats_name
from kroeg.recorder.text import markdown_text as md
from kroeg.recorder.text import plural

__all__ = [
    "GAMES_SHOWN",
    "Evening",
    "EveningGame",
    "evening_games",
    "evenings",
    "hand_lines",
    "moments",
    "names",
    "numbers",
    "prefetch",
    "replay_link",
    "standings",
]


#: Games of one evening told hand by hand; a bigger (simulated) evening lists the rest.
GAMES_SHOWN = 6


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


def evenings(path: Path, games: Games) -> list[Evening]:
    """The evenings of the games the filters let through, latest first."""
    frame: pl.DataFrame = ask(path, evenings_frame, games)
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
    """Each seat of each hand of a Toepen game: one query for its lines and standings."""
    seats: pl.DataFrame = ask(path, toepen_seats, game_id)
    return seats


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
    hands: pl.DataFrame = ask(path, troefcall_hands, game_id)
    lines = []
    for r in hands.iter_rows(named=True):
        scorer = r["side_0"] if r["score_side"] == 0 else r["side_1"]
        other = r["side_1"] if r["score_side"] == 0 else r["side_0"]
        extra = md(reason_text(r["score_reason"], other))
        trump = Suit(r["trump"]).symbol if r["trump"] else "?"
        lines.append(
            f"- [hand {r['hand']}]({replay_link(game_id, r['hand'])}) — "
            f"{md(str(r['caller']))} called {trump}; "
            f"tricks {md(r['side_0'])} {r['tricks_0']}, {md(r['side_1'])} {r['tricks_1']}; "
            f"{r['points']} to {md(scorer)}{extra}"
        )
    return lines


def standings(path: Path, game_id: str, game_type: str) -> str:
    """The scores at the end of a game, best first, from the engine's facts: `Anna 0 points,
    Ben 3 points` (the `pay` rows added up), `Anna 8 lives, Ben 5 lives, Carla out` (the
    rule set's lives less the `pay` rows; out as the engine's `eliminated` or `game_end`
    rows say), or each side's points (Troefcall)."""
    if game_type == "troefcall":
        sides: pl.DataFrame = ask(path, troefcall_totals, game_id)
        return ", ".join(
            f"{md(r['side_name'])} {plural(r['points'], 'point')}"
            for r in sides.iter_rows(named=True)
        )
    seats = _seats(path, game_id)
    if seats.is_empty():
        return "no hand played"
    gone: list[int] = ask(path, toepen_out, game_id)
    seats = seats.with_columns(pl.col("seat").is_in(gone).alias("out"))
    if seats["side"].is_not_null().any():  # team toepen: a side pays from one pool
        seats = seats.with_columns(
            pl.col("side").alias("player"), pl.col("seat").min().over("side")
        )
    totals = (
        seats.group_by("seat", "player", maintain_order=True)
        .agg(
            pl.col("paid").sum(),
            pl.col("display").first(),
            pl.col("lives").first(),
            pl.col("out").any(),
        )
        .sort("out", "paid", "seat")
    )
    parts = []
    for r in totals.iter_rows(named=True):
        if r["display"] == "lives":
            left = int(r["lives"]) - int(r["paid"])  # the engine's lives: its pays, no floor
            said = "out" if r["out"] else f"{left} {'life' if left == 1 else 'lives'}"
            parts.append(f"{md(r['player'])} {said}")
        else:
            paid = int(r["paid"])
            parts.append(f"{md(r['player'])} {paid} {'point' if paid == 1 else 'points'}")
    return ", ".join(parts)


def names(path: Path, ids: list[str]) -> dict[str, GameName]:
    """The names of these games (analytics.evenings.game_names), by id."""
    named: dict[str, GameName] = ask(path, game_names, sorted(set(ids)))
    return named


def moments(path: Path, key: str, games: Games) -> list[str]:
    """An evening's notable moves, each a Markdown line linking to it in the replay: the
    biggest bluff that worked, the costliest fold, and every regrettable fold (from the
    analysis: none for games not analysed). A move is named by its player, its game's
    order in the evening (where it has several) and its hand: `Dan, game 2, hand 1`."""
    lines = []
    bluff, fold, regrets = ask(path, evening_moments, key, games)
    named = names(path, [*bluff["game_id"], *fold["game_id"], *regrets["game_id"]])

    def move(r: dict[str, Any]) -> str:
        said = [md(r["player"]), named[r["game_id"]].order, f"hand {r['hand']}"]
        link = replay_link(r["game_id"], r["hand"], r["seq"])
        return f"[{', '.join(p for p in said if p)}]({link})"

    for r in bluff.iter_rows(named=True):
        lines.append(
            f"- **Biggest bluff that worked:** {move(r)} — everyone folded to the "
            f"knock (stake {r['stake']}), paying {r['folded_to_it']} in all"
        )
    for r in fold.iter_rows(named=True):
        lines.append(f"- **Costliest fold:** {move(r)} — the fold cost {r['cost']}")
    if not regrets.is_empty():
        links = ", ".join(f"{move(r)} (cost {r['cost']})" for r in regrets.iter_rows(named=True))
        lines.append(f"- **Regrettable folds** (playing on would have won): {links}")
    return lines


def game_times(path: Path, key: str, games: Games, limit: int) -> tuple[pl.DataFrame, int]:
    """The evening's first `limit` games in order (id, start time, rule set, game type),
    and how many games it has."""
    frame: pl.DataFrame = ask(path, evening_games_frame, key, games, limit)
    return frame, int(frame["n"][0]) if frame.height else 0


@dataclass(frozen=True)
class EveningGame:
    """One game of an evening as the landing page tells it."""

    name: GameName
    ruleset: str
    standings: str
    lines: list[str]


def evening_games(path: Path, key: str, chosen: Games) -> tuple[list[EveningGame], int]:
    """The evening's first GAMES_SHOWN games told hand by hand, and how many it has."""
    games, count = game_times(path, key, chosen, GAMES_SHOWN)
    named = names(path, games["game_id"].to_list())
    told = [
        EveningGame(
            name=named[r["game_id"]],
            ruleset=r["ruleset"],
            standings=standings(path, r["game_id"], r["game_type"]),
            lines=hand_lines(path, r["game_id"], r["game_type"]),
        )
        for r in games.iter_rows(named=True)
    ]
    return told, count


def numbers(path: Path, games: Games) -> dict[str, int]:
    """The dataset in numbers (the games the filters let through)."""
    figures: dict[str, int] = ask(path, evening_numbers, games)
    return figures


def prefetch(path: Path) -> None:
    """Ask what a new visitor's landing page, Players, Games and Replay pages ask (the latest
    evening, every player's figures, the latest game and its first hand, with the filters
    untouched), so that the server's first visitor finds the answers ready."""
    if not game_count(path):
        return
    chosen = default_games(path)
    for game in ("toepen", "troefcall"):
        figures(path, game, None, chosen)
    for unit in toepen_units(path, chosen):
        figures(path, "toepen", unit, chosen)
    nights = evenings(path, chosen)
    if nights:
        moments(path, nights[0].key, chosen)
        evening_games(path, nights[0].key, chosen)
    numbers(path, chosen)
    # The Games and Replay pages open on the most recent game (its first hand): asked now,
    # a first visit to either page finds it ready (it took 0.3 and 1.2 s cold).
    latest = ask(path, recent_games, "", chosen)
    if latest.is_empty():
        return
    row = latest.row(0, named=True)
    kind, game_id = row["game_type"], row["game_id"]
    if kind == "toepen":
        ask(path, hand_costs, game_id)
    else:
        ask(path, troefcall_running, game_id)
    standings(path, game_id, kind)
    hand_lines(path, game_id, kind)
    record = game_record(path, game_id)
    numbers_of = hand_numbers(record)
    if numbers_of:
        steps = states(path, game_id, numbers_of[0], False)
        if steps[0].troefcall:
            ask(path, hand_troef_sides, game_id, numbers_of[0])
        else:
            ask(path, hand_knocks, game_id, numbers_of[0])
            ask(path, hand_folds, game_id, numbers_of[0])
            ask(path, hand_answers, game_id, numbers_of[0])
            # The figures before the hand: every game's earlier counts, and this game's.
            before_this_hand(path, game_id, numbers_of[0], record.players, chosen)
