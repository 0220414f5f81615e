"""The bot styles differ clearly in the data: the statistics will be validated against them."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from kroeg.recorder.bots import BOT_STYLES, Bot, make_bot
from kroeg.recorder.cards import Card
from kroeg.recorder.errors import KroegError
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen

STYLES = ["random", "cautious", "bluffer", "sharp"]


@functools.cache
def table_stats(preset: str, hands: int = 4000, seed: int = 21) -> dict[str, dict[str, float]]:
    """Per style: knocks per hand, fold rate (folds / knocks answered), cost per hand."""
    counts: dict[str, Counter[str]] = {s: Counter() for s in STYLES}
    for game in simulate(Ruleset.preset(preset), 4, hands, seed, STYLES):
        dealt: set[int] = set()
        for event in game.events:
            kind, seat, _, amount, _ = event.to_row()
            if kind == "hand_start":
                dealt = set()
            elif kind == "deal" and seat not in dealt:
                dealt.add(seat)
                counts[STYLES[seat]]["hands"] += 1
            elif kind in ("knock", "fold", "stay"):
                counts[STYLES[seat]][kind] += 1
            elif kind == "pay":
                counts[STYLES[seat]]["cost"] += amount
    return {
        style: {
            "knocks": c["knock"] / c["hands"],
            "fold_rate": c["fold"] / (c["fold"] + c["stay"]),
            "cost": c["cost"] / c["hands"],
        }
        for style, c in counts.items()
    }


@pytest.mark.parametrize("preset", ["classic", "lives"])
def test_bluffer_knocks_most_and_cautious_folds_most(preset: str) -> None:
    stats = table_stats(preset)
    assert max(STYLES, key=lambda s: stats[s]["knocks"]) == "bluffer"
    assert max(STYLES, key=lambda s: stats[s]["fold_rate"]) == "cautious"
    assert min(STYLES, key=lambda s: stats[s]["fold_rate"]) == "bluffer"


def test_sharp_loses_the_fewest_lives_per_hand_under_lives() -> None:
    stats = table_stats("lives")
    assert min(STYLES, key=lambda s: stats[s]["cost"]) == "sharp"


def test_random_bot_folds_about_half_the_time() -> None:
    stats = table_stats("classic")
    assert 0.4 < stats["random"]["fold_rate"] < 0.6


def test_bots_are_seeded() -> None:
    a = list(simulate(Ruleset.preset("lives"), 4, 200, 3, STYLES))
    b = list(simulate(Ruleset.preset("lives"), 4, 200, 3, STYLES))
    assert [g.events for g in a] == [g.events for g in b]


def test_unknown_style_is_refused() -> None:
    with pytest.raises(KroegError) as err:
        make_bot("shark", 1)
    assert str(err.value) == (
        "unknown bot style 'shark': did you mean sharp? "
        "Expected one of random, cautious, bluffer, sharp"
    )
    assert set(BOT_STYLES) == set(STYLES)


def test_a_whistle_owed_again_after_a_caught_laundry_is_announced_again() -> None:
    """Under whistle-or-stand a hand of three jacks must be announced. Frits announces, swaps
    it as laundry, is checked and found bluffing, and takes the same hand back: the
    announcement is owed again, and the bots' driver makes it (it once skipped it, having
    asked about that very hand, and the engine refused the lead: found by the round-trip
    property test of tests/parsers/test_notation.py at seed 367)."""
    rules = Ruleset.preset("classic").with_variants(
        "check-before-swap", "whistle-or-stand-jacks", "team-toepen"
    )
    styles = ["random", "bluffer", "cautious", "sharp"]
    games = list(simulate(rules, 6, 20, 367, styles))
    whistles = Counter(
        (g.game_id, hand, e.seat)
        for g in games
        for hand, _, e in number_events(g.events)
        if e.kind == "whistle"
    )
    assert sum(g.hands for g in games) >= 20
    assert max(whistles.values()) >= 2  # the same seat, the same hand, announced again


def _strength_read_plainly(game: Toepen, seat: int) -> float:
    """`Bot.strength` as it read before it counted a card's beaters along its suit's run
    of the deck: the unseen cards as a list, each card's beaters counted over it."""
    cards = [c for c in game.hands[seat] if c is not None]
    if not cards:
        return 0.5
    power = game.power
    unseen = [c for c in game.deck if c not in game.seen]
    others = sum(len(game.hands[s]) for s in game.seats_in_hand() if s != seat)
    q = min(1.0, others / len(unseen)) if unseen else 0.0
    players = max(2, len(game.seats_in_hand()))
    wins_last = game.rules.last_trick == "wins"

    def clear(card: Card) -> float:
        beaters = sum(1 for c in unseen if c.suit is card.suit and power[c] > power[card])
        return (1.0 - q) ** beaters

    if len(cards) == 1 and game.trick_no == game.rules.hand_size:
        card = cards[0]
        live = [c for s, c in game.trick_plays if game.in_hand(s)]
        if game.trick_plays and (
            card.suit is not game.trick_plays[0][1].suit
            or any(c.suit is card.suit and power[c] > power[card] for c in live)
        ):
            takes = 0.0
        else:
            takes = clear(card)
        return takes if wins_last else 1.0 - takes
    if wins_last:
        best = max(clear(card) for card in cards)
        return best * (0.2 + 0.8 / players) + (1 - best) * 0.3 / players
    losing = clear(min(cards, key=lambda c: power[c]))
    return 1.0 - losing * (0.35 + 0.65 / players) - (1 - losing) * 0.5 / players


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("lives", 5), ("classic", 6)])
def test_strength_counts_the_beaters_as_the_plain_reading_does(preset: str, players: int) -> None:
    """Exactly the same figure, float for float, at every moment of simulated hands (the
    stored verdicts' digests depend on it: tests/analytics/test_same_answers.py)."""
    compared = 0
    for record in simulate(Ruleset.preset(preset), players, 30, 11, ["random", "sharp"]):
        replay = Replay(record.rules, record.players)
        for event in record.events:
            game = replay.game
            assert isinstance(game, Toepen)
            for seat in range(game.n):
                if game.hands[seat] and None not in game.hands[seat]:
                    assert Bot.strength(game, seat) == _strength_read_plainly(game, seat)
                    compared += 1
            replay.feed(event)
    assert compared > 1000
