"""Troefcall's trump calls judged from the caller's cards (analytics.verdicts.call_values):
a sure call is seen as sure, the same game gives the same verdicts, the sharp bot calls
better than the random one under two seeds, and the verdicts reach the statistics."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich, facts_for_game
from kroeg.analytics.stats import troefcall_stats
from kroeg.analytics.verdicts import CALL_GRADES, CALL_STAKE, call_values, grade
from kroeg.analytics.views import connect
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate, simulate_into
from kroeg.recorder.store import Dataset
from kroeg.recorder.troefcall import Troefcall

SUITS = list(Suit)


def _dealt(rules: Ruleset, caller_cards: list[Card]) -> Troefcall:
    """A game at its first call, the caller (seat 1) holding `caller_cards` first and the
    rest of the deck going round in order: dealt by hand, as a typed log deals."""
    game = Troefcall(rules, ("Anna", "Ben", "Carla", "Dan"))
    game.start_hand(dealer=0)
    rest = [c for c in game.deck if c not in caller_cards]
    mine = list(caller_cards)
    while game.deal_queue:
        seat = game.deal_queue[0]
        game.deal(seat, mine.pop(0) if seat == 1 and mine else rest.pop(0))
    assert game.phase == "call" and game.caller == 1
    return game


def test_holding_every_trump_the_suit_is_worth_a_baunie_and_the_others_less() -> None:
    rules = Ruleset.preset("troefcall").with_variants("free-trump-call")
    spades = [c for c in Troefcall(rules, ("A", "B", "C", "D")).deck if c.suit is Suit.SPADES]
    game = _dealt(rules, spades)
    values = call_values(game, 1, random.Random(3), samples=6)
    assert values is not None
    # Whatever the others hold, thirteen trumps take every trick: the reference policy
    # goes for baunie and makes it, 15 points, on every deal.
    assert values[SUITS.index(Suit.SPADES)] == 15
    assert all(v < 15 for s, v in zip(SUITS, values, strict=True) if s is not Suit.SPADES)
    assert grade(15 - values[SUITS.index(Suit.HEARTS)], CALL_STAKE, CALL_GRADES) == "blunder"


def test_the_caller_sees_only_their_five_cards() -> None:
    rules = Ruleset.preset("troefcall")
    five = [Card.parse(c) for c in ("As", "Ks", "Qs", "Js", "Ts")]
    game = _dealt(rules, five)
    assert [c for c in game.hands[1]] == five and not any(game.hands[s] for s in (0, 2, 3))
    values = call_values(game, 1, random.Random(5), samples=8)
    assert values is not None
    # Five top spades: spades is the best call, and it scores for the caller's side.
    assert max(values) == values[SUITS.index(Suit.SPADES)] > 0
    assert game.hands[1] == five and game.phase == "call"  # the game itself is untouched
    assert call_values(game, 1, random.Random(5), samples=8) == values  # seeded: the same


def test_the_same_game_gives_the_same_call_verdicts() -> None:
    record = next(iter(simulate(Ruleset.preset("troefcall"), 4, 12, 4, ("sharp", "random"))))
    first, again = facts_for_game(record).calls, facts_for_game(record).calls
    assert first and first == again
    calls = [e for e in record.events if e.kind == "trump"]
    assert [(c["seat"], c["trump"]) for c in first] == [(e.seat, e.suit.value) for e in calls]  # type: ignore[attr-defined]
    for row in first:
        values = [float(row[f"value_{s.name.lower()}"]) for s in SUITS]  # type: ignore[arg-type]
        named = values[SUITS.index(Suit(str(row["trump"])))]
        assert row["ev_lost"] == max(values) - named >= 0
        assert row["best"] == SUITS[values.index(max(values))].value


@pytest.mark.parametrize("seed", [11, 12])
def test_the_sharp_bot_calls_trump_better_than_the_random_one(seed: int) -> None:
    accuracy = {}
    for style in ("sharp", "random"):
        rows = [
            call
            for record in simulate(Ruleset.preset("troefcall"), 4, 90, seed, (style,))
            for call in facts_for_game(record).calls
        ]
        assert len(rows) >= 80
        accuracy[style] = statistics.mean(float(r["accuracy"]) for r in rows)  # type: ignore[arg-type]
    # Measured (bench/grades.py --troefcall): about 75 % against 42 %.
    assert accuracy["sharp"] > accuracy["random"] + 0.15, accuracy


def test_the_call_verdicts_reach_the_troefcall_statistics(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "troef").create()
    simulate_into(dataset, Ruleset.preset("troefcall"), 4, 40, 3, ("sharp", "random"))
    enrich(dataset)
    frame = troefcall_stats(connect(dataset))
    stored = (
        connect(dataset)
        .sql(
            "SELECT g.players[c.seat + 1], count(*), sum(c.accuracy) FROM call_facts c "
            "JOIN games g USING (game_id) GROUP BY 1"
        )
        .fetchall()
    )
    by_player = {name: (n, points) for name, n, points in stored}
    assert sum(frame["calls_judged"]) == sum(n for n, _ in by_player.values()) > 0
    for row in frame.iter_rows(named=True):
        n, points = by_player.get(row["player"], (0, 0.0))
        assert row["calls_judged"] == n == row["calls"]
        assert row["call_accuracy"] == pytest.approx(points / n if n else None)
    sides = troefcall_stats(connect(dataset), by="side")
    assert sum(sides["calls_judged"]) == sum(frame["calls_judged"])
