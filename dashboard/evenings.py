"""Club evenings: the games played on one day at one venue, told as a club tells them.

What an evening is (the games of one date and venue, the club's own and simulated ones
kept apart) is defined once, in kroeg.analytics.evenings, with the queries this module
asks; here they are told in words. The Evenings page and the Games page both write hands
and standings with the functions here: one wording everywhere.

`games` is what the sidebar's filters let through (a list of game ids; None: all).

Every function that says something takes the words of a language (`w`, an
analytics.words.Words; English when not given): none of them is cached, the queries
under them are (`ask`), and those return facts, never words.
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
    skipped_hands,
    toepen_out,
    toepen_seats,
    troefcall_hands,
    troefcall_running,
    troefcall_totals,
)
from kroeg.analytics.formats import integer
from kroeg.analytics.games import hand_costs, recent_games
from kroeg.analytics.pages import (
    hand_announcements,
    hand_answers,
    hand_calls,
    hand_folds,
    hand_knocks,
    hand_swaps,
    hand_troef_sides,
)
from kroeg.analytics.words import Words, words
from kroeg.dashboard.data import ask, before_this_hand, figures, states, toepen_units
from kroeg.dashboard.data import game as game_record
from kroeg.dashboard.filters import day_text, default_games, game_count
from kroeg.dashboard.replay import hand_numbers
from kroeg.parsers.render import reason_text, say_amount
from kroeg.recorder.cards import Suit
from kroeg.recorder.records import seats_name
from kroeg.recorder.text import isolated
from kroeg.recorder.text import markdown_text as md

__all__ = [
    "GAMES_SHOWN",
    "Evening",
    "EveningGame",
    "evening_games",
    "evenings",
    "game_name",
    "game_title",
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


def _words(w: Words | None) -> Words:
    """The words given, or English's."""
    return w if w is not None else words("en")


def _figure(value: object, w: Words) -> str:
    """A stake, a payment or a cost as the language writes it (`1,234`, `1.234`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if float(value).is_integer():
        return integer(int(value), w.lang)
    return w.number(float(value), 2)


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
        """`Fri 20 Nov 2026 at De Kroon` (in English: `title_in` says it in a language)."""
        return self.title_in(words("en"))

    @property
    def label(self) -> str:
        """The title with its players and games, in English (`label_in`)."""
        return self.label_in(words("en"))

    def title_in(self, w: Words) -> str:
        """`Fri 20 Nov 2026 at De Kroon`, `vr 20 nov 2026 in De Kroon`."""
        undated = w.say("evening_undated", "Undated games")
        when = day_text(self.day, w.lang) if self.day else undated
        where = w("at_venue", venue=self.venue) if self.venue else ""  # the bulletin's
        return f"{when}{where}"

    def label_in(self, w: Words) -> str:
        """The title with its players and games: never a hash alone."""
        bots = " · " + w.say("evening_label_simulated", "simulated") if self.simulated else ""
        games = w.count(self.games, "n_games")
        players = ", ".join(isolated(p) for p in self.players)
        return f"{self.title_in(w)} · {players} · {games}{bots}"


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
    return ", ".join(md(isolated(n)) for n in names)


def game_name(name: GameName, w: Words | None = None) -> str:
    """A game as people call it, plain text, in `w`'s language (GameName.said): `20 Nov,
    game 2, 20:30 — Anna, Ben, Carla, Dan`; a page writing it in Markdown escapes it."""
    return name.said(_words(w), bidi=True)


def game_title(name: GameName, ruleset: str, w: Words | None = None) -> str:
    """A game and its rules, as every game picker shows it: `20 Nov, game 2, 20:15 — Anna,
    Ben, Carla · lives` (analytics.games.recent_games' `title`, in `w`'s language)."""
    w = _words(w)
    return f"{game_name(name, w)} · {w.ruleset(ruleset)}"


def _seats(path: Path, game_id: str) -> pl.DataFrame:
    """Each seat of each hand of a Toepen game: one query for its lines and standings."""
    seats: pl.DataFrame = ask(path, toepen_seats, game_id)
    return seats


def _hand_link(game_id: str, hand: int, w: Words) -> str:
    """`[hand 3](replay?game=…&hand=3)`: a hand's line starts with its replay."""
    said = w.say("evening_hand", "hand {hand}", hand=integer(hand, w.lang))
    return f"[{said}]({replay_link(game_id, hand)})"


def hand_lines(path: Path, game_id: str, game_type: str, w: Words | None = None) -> list[str]:
    """Each hand of a game in one Markdown line, linked to its replay: who knocked, who
    folded, who won and who paid what (Toepen); who called what, the tricks and the
    points (Troefcall); in `w`'s language (English when not given)."""
    w = _words(w)
    # A hand passed over on import (`hand_skipped`) keeps its line, saying so.
    skipped: list[int] = ask(path, skipped_hands, game_id)
    said = w.say("evening_hand_skipped", "not read when its log was imported")
    lines = [(hand, f"- {_hand_link(game_id, hand, w)} — {said}") for hand in skipped]
    if game_type == "troefcall":
        lines += _troefcall_lines(path, game_id, w)
    else:
        lines += _toepen_lines(path, game_id, w)
    return [line for _, line in sorted(lines, key=lambda numbered: numbered[0])]


def _toepen_lines(path: Path, game_id: str, w: Words) -> list[tuple[int, str]]:
    seats = _seats(path, game_id)
    lines = []
    for (hand,), rows in seats.group_by(["hand"], maintain_order=True):
        parts = []
        knocked = [r["player"] for r in rows.iter_rows(named=True) if r["knocks"]]
        folded = [r["player"] for r in rows.iter_rows(named=True) if r["folds"]]
        won = [r["seat"] for r in rows.iter_rows(named=True) if r["won"]]
        paid = [
            f"{md(isolated(r['player']))} {_figure(r['paid'], w)}"
            for r in rows.iter_rows(named=True)
            if r["paid"]
        ]
        if knocked:
            parts.append(
                w.say("evening_hand_knocked", "{players} knocked", players=_names(knocked))
            )
        if folded:
            parts.append(w.say("evening_hand_folded", "{players} folded", players=_names(folded)))
        stake = _figure(rows["stake"][0], w)
        finished = bool(rows["finished"][0])
        if not finished:
            parts.append(w.say("evening_hand_unfinished", "not finished"))
        elif won:  # the engine's `win` rows, a whole side named as a side
            first = rows.row(0, named=True)
            who = seats_name(first["seated"], first["teams"], won, and_word=w("and"))
            parts.append(
                w.say("evening_hand_won", "{who} won (stake {stake})", who=md(who), stake=stake)
            )
        if paid:
            parts.append(w.say("evening_hand_paid", "paid: {payments}", payments=", ".join(paid)))
        text = "; ".join(parts) or w.say("evening_hand_quiet", "no knock, nobody paid")
        number = int(str(hand))
        lines.append((number, f"- {_hand_link(game_id, number, w)} — {text}"))
    return lines


def _troefcall_lines(path: Path, game_id: str, w: Words) -> list[tuple[int, str]]:
    hands: pl.DataFrame = ask(path, troefcall_hands, game_id)
    lines = []
    for r in hands.iter_rows(named=True):
        scorer = r["side_0"] if r["score_side"] == 0 else r["side_1"]
        other = r["side_1"] if r["score_side"] == 0 else r["side_0"]
        # Why the hand scored (kap partij, baunie): the replay's words (parsers.render).
        extra = md(reason_text(r["score_reason"], other, w))
        trump = Suit(r["trump"]).symbol if r["trump"] else "?"
        told = w.say(
            "evening_troef_hand",
            "{caller} called {trump}; tricks {side_0} {tricks_0}, {side_1} {tricks_1}; "
            "{points} to {scorer}{reason}",
            caller=md(str(r["caller"])), trump=trump,
            side_0=md(r["side_0"]), tricks_0=_figure(r["tricks_0"], w),
            side_1=md(r["side_1"]), tricks_1=_figure(r["tricks_1"], w),
            points=_figure(r["points"], w), scorer=md(scorer), reason=extra,
        )  # fmt: skip
        lines.append((int(r["hand"]), f"- {_hand_link(game_id, int(r['hand']), w)} — {told}"))
    return lines


def _points(n: int, w: Words, troefcall: bool = False) -> str:
    """A score as the replay says it: Toepen's points are penalty points, Troefcall's a
    side's."""
    return say_amount(w, n, "points" if troefcall else "penalty points")


def standings(path: Path, game_id: str, game_type: str, w: Words | None = None) -> str:
    """The scores at the end of a game, best first, from the engine's facts: `Anna 0 points,
    Ben 3 points` (the `pay` rows added up), `Anna 8 lives, Ben 5 lives, Carla out` (the
    rule set's lives less the `pay` rows; out as the engine's `eliminated` or `game_end`
    rows say), or each side's points (Troefcall); in `w`'s language."""
    w = _words(w)
    if game_type == "troefcall":
        sides: pl.DataFrame = ask(path, troefcall_totals, game_id)
        return ", ".join(
            f"{md(isolated(r['side_name']))} {_points(int(r['points']), w, troefcall=True)}"
            for r in sides.iter_rows(named=True)
        )
    seats = _seats(path, game_id)
    if seats.is_empty():
        return w.say("evening_standing_no_hand", "no hand played")
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
            if r["out"]:
                said = w.say("evening_standing_out", "out")
            else:
                said = say_amount(w, left, "lives")
            parts.append(f"{md(isolated(r['player']))} {said}")
        else:
            parts.append(f"{md(isolated(r['player']))} {_points(int(r['paid']), w)}")
    return ", ".join(parts)


def names(path: Path, ids: list[str]) -> dict[str, GameName]:
    """The names of these games (analytics.evenings.game_names), by id."""
    named: dict[str, GameName] = ask(path, game_names, sorted(set(ids)))
    return named


def moments(path: Path, key: str, games: Games, w: Words | None = None) -> list[str]:
    """An evening's notable moves, each a Markdown line linking to it in the replay: the
    biggest bluff that worked, the costliest fold, and every regrettable fold (from the
    analysis: none for games not analysed). A move is named by its player, its game's
    order in the evening (where it has several) and its hand: `Dan, game 2, hand 1`; in
    `w`'s language (English when not given)."""
    w = _words(w)
    lines = []
    bluff, fold, regrets = ask(path, evening_moments, key, games)
    named = names(path, [*bluff["game_id"], *fold["game_id"], *regrets["game_id"]])

    def move(r: dict[str, Any]) -> str:
        hand = w.say("evening_hand", "hand {hand}", hand=integer(int(r["hand"]), w.lang))
        said = [md(r["player"]), named[r["game_id"]].order_in(_words(w)), hand]
        link = replay_link(r["game_id"], r["hand"], r["seq"])
        return f"[{', '.join(p for p in said if p)}]({link})"

    for r in bluff.iter_rows(named=True):
        told = w.say(
            "evening_moment_bluff",
            "**Biggest bluff that worked:** {move} — everyone folded to the knock (stake "
            "{stake}), paying {paid} in all",
            move=move(r), stake=_figure(r["stake"], w), paid=_figure(r["folded_to_it"], w),
        )  # fmt: skip
        lines.append(f"- {told}")
    for r in fold.iter_rows(named=True):
        told = w.say(
            "evening_moment_costliest",
            "**Costliest fold:** {move} — the fold cost {cost}",
            move=move(r), cost=_figure(r["cost"], w),
        )  # fmt: skip
        lines.append(f"- {told}")
    if not regrets.is_empty():
        links = ", ".join(
            w.say(
                "evening_moment_regret",
                "{move} (cost {cost})",
                move=move(r),
                cost=_figure(r["cost"], w),
            )
            for r in regrets.iter_rows(named=True)
        )
        told = w.say(
            "evening_moment_regrets",
            "**Regrettable folds** (playing on would have won): {folds}",
            folds=links,
        )
        lines.append(f"- {told}")
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


def evening_games(
    path: Path, key: str, chosen: Games, w: Words | None = None
) -> tuple[list[EveningGame], int]:
    """The evening's first GAMES_SHOWN games told hand by hand (in `w`'s language), and
    how many it has."""
    games, count = game_times(path, key, chosen, GAMES_SHOWN)
    named = names(path, games["game_id"].to_list())
    told = [
        EveningGame(
            name=named[r["game_id"]],
            ruleset=r["ruleset"],
            standings=standings(path, r["game_id"], r["game_type"], w),
            lines=hand_lines(path, r["game_id"], r["game_type"], w),
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
            ask(path, hand_calls, game_id, numbers_of[0])
            ask(path, hand_announcements, game_id, numbers_of[0])
        else:
            ask(path, hand_knocks, game_id, numbers_of[0])
            ask(path, hand_folds, game_id, numbers_of[0])
            ask(path, hand_answers, game_id, numbers_of[0])
            ask(path, hand_swaps, game_id, numbers_of[0])
            # The figures before the hand: every game's earlier counts, and this game's.
            before_this_hand(path, game_id, numbers_of[0], record.players, chosen)
