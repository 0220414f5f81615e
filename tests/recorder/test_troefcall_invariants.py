"""Random Troefcall games: invariants checked after every event, by code independent of the engine.

Games are played by choosing among `legal_actions()` (tilted so that one
side often sweeps, and every announcement, stop and variant path gets
exercised), under every mix of the variants. A mirror engine is fed the log
event by event (`Replay`) and must reach the very same state after every
action; an auditor that knows the rules from docs/RULES.md, not from the
engine, checks the cards, every trick winner and every score.
"""

from __future__ import annotations

import itertools
import random

import pytest

from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import (
    Baunie,
    CardPlayed,
    Deal,
    Event,
    GameEnd,
    HandEnd,
    HandStart,
    HandWon,
    Kap,
    Score,
    Stop,
    TrickWon,
    TrumpCalled,
)
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.troefcall import Troefcall

NAMES = ("Anna", "Ben", "Carla", "Dan")
RANKS = "23456789TJQKA"
VARIANT_MIXES = [
    combo
    for r in range(4)
    for combo in itertools.combinations(["free-trump-call", "silent-kap", "no-baunie"], r)
]


class Auditor:
    """Follows a Troefcall log and checks it against the written rules."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.scores = [0, 0]
        self.hands = 0

    def start(self, event: HandStart) -> None:
        assert event.caller == (event.seat + 1) % 4, "the caller sits to the dealer's left"
        self.hands += 1
        self.dealt: list[list[Card]] = [[], [], [], []]
        self.played: set[Card] = set()
        self.trick: list[tuple[int, Card]] = []
        self.trump = None
        self.winners: list[int] = []
        self.kap: int | None = None
        self.baunie: int | None = None
        self.stopped = False
        self.scored: list[tuple[int, int, str | None]] = []
        self.won: list[int] = []
        self.caller = event.caller

    def see(self, event: Event) -> None:
        match event:
            case HandStart():
                self.start(event)
            case Deal(seat=seat, card=card):
                assert card is not None
                self.dealt[seat].append(card)
                everything = [c for h in self.dealt for c in h]
                assert len(set(everything)) == len(everything), "a card dealt twice"
            case TrumpCalled(seat=seat, suit=suit):
                assert seat == self.caller
                expected = 13 if self.rules.free_trump_call else 5
                assert len(self.dealt[seat]) == expected
                assert sum(len(h) for h in self.dealt) == (52 if expected == 13 else 5)
                self.trump = suit
            case CardPlayed(seat=seat, card=card):
                assert all(len(h) == 13 for h in self.dealt), "play before the deal is complete"
                assert len({c for h in self.dealt for c in h}) == 52
                assert card in self.dealt[seat] and card not in self.played
                if self.trick:
                    led = self.trick[0][1].suit
                    holds = [c for c in self.dealt[seat] if c not in self.played and c.suit is led]
                    assert card.suit is led or not holds, "did not follow suit"
                elif not self.winners:
                    assert seat == self.caller, "the caller leads the first trick"
                else:
                    assert seat == self.winners[-1], "the trick winner leads"
                self.played.add(card)
                self.trick.append((seat, card))
            case TrickWon(seat=seat, number=number):
                assert len(self.trick) == 4 and number == len(self.winners) + 1
                assert seat == self.winner_of(self.trick), "wrong trick winner"
                self.winners.append(seat)
                self.trick = []
            case Kap(seat=seat):
                self.check_sweep(seat)
                self.kap = seat
            case Baunie(seat=seat):
                self.check_sweep(seat)
                self.baunie = seat
            case Stop():
                self.stopped = True
            case Score(seat=seat, amount=amount, reason=reason):
                self.scored.append((seat % 2, amount, reason))
                self.scores[seat % 2] += amount
            case HandWon(seat=seat):
                assert self.scored, "a hand is won by the side that scores, after its score"
                self.won.append(seat)
            case HandEnd():
                assert self.scored == [self.expected_score()], (self.scored, self.winners)
                side = self.scored[0][0]
                assert self.won == [s for s in range(4) if s % 2 == side]
                assert not self.trick
            case GameEnd(seat=winner):
                target, fixed = self.rules.target_score, self.rules.fixed_hands
                assert (target is not None and max(self.scores) >= target) or (
                    fixed is not None and self.hands == fixed
                )
                if self.scores[0] == self.scores[1]:
                    assert winner is None
                else:
                    assert winner == (0 if self.scores[0] > self.scores[1] else 1)

    def winner_of(self, trick: list[tuple[int, Card]]) -> int:
        led = trick[0][1].suit

        def key(play: tuple[int, Card]) -> tuple[int, int]:
            card = play[1]
            rank = RANKS.index(card.rank.value)
            return (
                (2, rank) if card.suit is self.trump else (1, rank) if card.suit is led else (0, 0)
            )

        return max(trick, key=key)[0]

    def check_sweep(self, seat: int) -> None:
        assert len(self.winners) == 7 and {w % 2 for w in self.winners} == {seat % 2}

    def expected_score(self) -> tuple[int, int, str]:
        """The side that scores, its points, and why (the score row's reason)."""
        sides = [w % 2 for w in self.winners]
        swept = len(sides) >= 7 and len(set(sides[:7])) == 1
        if self.rules.silent_kap and swept and self.baunie is None:
            assert len(sides) == 7
            return (sides[0], 5, "silent-kap")
        if self.kap is not None:
            if self.kap == self.winners[6]:
                assert len(sides) == 7, "kap by the trick winner ends the hand at once"
                return (self.kap % 2, 5, "kap")
            return (self.kap % 2, 2, "partner-kap")
        if self.baunie is not None:
            assert len(sides) == 13
            side = self.baunie % 2
            return (
                (side, 15, "baunie") if sides.count(side) == 13 else (1 - side, 2, "failed-baunie")
            )
        if not self.rules.baunie and swept:  # stopped at seven in a row: kap forgone
            assert self.stopped and len(sides) == 7
            return (sides[0], 2, "majority")
        assert len(sides) == 13 and not self.stopped
        return (0 if sides.count(0) >= 7 else 1, 2, "majority")


def choose(game: Troefcall, actions: list[Event], rng: random.Random) -> Event:
    """A random legal action, tilted so that sweeps (and so announcements) are common.

    Anna and Carla mostly play their strongest card, Ben and Dan their weakest; at an
    announcement every kind of answer (kap, baunie, stop, playing on) is equally likely.
    """
    plays = [a for a in actions if isinstance(a, CardPlayed)]
    others = [a for a in actions if not isinstance(a, CardPlayed)]
    if others and plays:
        kinds = [*sorted({a.kind for a in others}), "play"]
        kind = rng.choice(kinds)
        if kind != "play":
            return rng.choice([a for a in others if a.kind == kind])
    if not plays:
        return rng.choice(actions)
    if rng.random() < 0.8:

        def strength(a: CardPlayed) -> tuple[bool, int]:
            return (a.card.suit is game.trump, game.power[a.card])

        return (max if plays[0].seat % 2 == 0 else min)(plays, key=strength)
    return rng.choice(plays)


def random_game(rules: Ruleset, seed: int) -> tuple[Troefcall, Auditor]:
    rng = random.Random(seed)
    game = Troefcall(rules, NAMES, seed=seed)
    mirror = Replay(rules, NAMES)
    auditor = Auditor(rules)
    fed = 0
    while not game.over and game.hand_no <= 40:
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase}"
        game.apply(choose(game, actions, rng))
        for event in game.log[fed:]:
            mirror.feed(event)
            auditor.see(event)
        fed = len(game.log)
        assert mirror.game.snapshot() == game.snapshot()
    mirror.finish()
    return game, auditor


@pytest.mark.parametrize("variants", VARIANT_MIXES, ids=lambda v: "+".join(v) or "standard")
def test_random_games_keep_every_invariant(variants: tuple[str, ...]) -> None:
    rules = Ruleset.preset("troefcall").with_variants("target-15", *variants)
    kinds: set[str] = set()
    reasons: set[str] = set()
    for seed in range(30):
        game, auditor = random_game(rules, seed)
        kinds |= {e.kind for e in game.log}
        reasons |= {e.reason for e in game.log if isinstance(e, Score) and e.reason}
        assert auditor.scores == game.scores
    # Random choices reach the announcements this rule set allows, and every reason the
    # auditor checked a score's row for.
    if "silent-kap" not in variants:
        assert "kap" in kinds
        assert {"kap", "partner-kap"} <= reasons
    else:
        assert "silent-kap" in reasons
    if "no-baunie" not in variants:
        assert "baunie" in kinds
        assert {"baunie", "failed-baunie"} & reasons
    assert "majority" in reasons


def test_fixed_hands_games_end_after_that_many_hands() -> None:
    rules = Ruleset.from_dict({"base": "troefcall", "target_score": None, "fixed_hands": 3})
    for seed in range(5):
        game, auditor = random_game(rules, seed)
        assert game.over and auditor.hands == 3


def test_an_action_is_accepted_exactly_when_it_is_listed_as_legal() -> None:
    rules = Ruleset.preset("troefcall").with_variants("target-15")
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game = Troefcall(rules, NAMES, seed=seed)
        while not game.over and game.hand_no <= 12:
            legal = game.legal_actions()
            candidates: list[Event] = [Kap(s) for s in range(4)] + [Baunie(s) for s in range(4)]
            candidates += [Stop(s) for s in range(4)]
            candidates += [CardPlayed(s, c) for s in range(4) for c in game.hands[s] if c]
            if game.phase == "call":
                candidates += [TrumpCalled(s, suit) for s in range(4) for suit in Suit]
            for action in candidates:
                trial = game.fork()
                try:
                    trial.apply(action)
                    accepted = True
                except IllegalActionError:
                    accepted = False
                assert accepted == (action in legal), (action, game.phase)
                checked += 1
            game.apply(choose(game, legal, rng))
    assert checked > 10_000
