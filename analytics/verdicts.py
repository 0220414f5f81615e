"""The verdicts on one knock and one fold, from a position of the engine: the analysis'
hot loops, compiled with the engine at install time (setup.py) and plain Python otherwise.

**Strength** of a knock: the knocker's chance of winning the hand from that moment, from
what the knocker could see (their own cards, the cards played and shown since the cards
now held were dealt). The hidden cards are dealt at random to the others (who keep the
suits they showed out of void), and the hand is played out by the engine's trick rules
(`Toepen.play_outs`) with the fixed reference policy, nobody knocking or folding any more.

**Regret** of a fold: with the cards as they lay, could the folder have made sure of
winning the hand, whatever the others did, had everyone played on? Solved exactly by
searching every card play (the others play against the folder), with the engine's own
trick rules (`recorder.tricks`).

A hand with unknown cards gives None, never a guess. docs/STATS.md has more.
"""

from __future__ import annotations

import random

from kroeg.recorder.bots import reference_choice
from kroeg.recorder.cards import Card
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.tricks import playable, winning_play

__all__ = ["SAMPLES", "fold_regret", "knock_strength", "shuffle"]

#: Playouts per knock. The standard error of a strength is at most 0.5 / sqrt(SAMPLES).
SAMPLES = 48

Hands = tuple[frozenset[Card], ...]
Trick = tuple[tuple[int, Card], ...]


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """`rng.shuffle(cards)`, the same draws in the same order (CPython's Fisher-Yates over
    `getrandbits`), written out so that it compiles; a test holds it to `random.shuffle`."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _deal_start(game: Toepen) -> int:
    """Where the cards now held were dealt: the hand's start, or its last redeal (after
    armoede every card goes back and is dealt again)."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        if log[i].kind in ("hand_start", "redeal"):
            return i
    return 0


def knock_strength(
    game: Toepen, seat: int, rng: random.Random, samples: int = SAMPLES
) -> float | None:
    """The knocker's chance of winning from here, seen from the knocker's seat (None: unknown)."""
    own = game.hands[seat]
    if any(c is None for c in own):
        return None
    # What the knocker has seen: their own cards and every card played or shown.
    seen: set[Card] = set()
    for event in game.log[_deal_start(game) :]:
        kind, who, card, _, _ = event.to_row()
        if card is not None and (kind in ("play", "reveal") or (kind == "deal" and who == seat)):
            seen.add(Card.parse(card))
    seen.update(c for c in own if c is not None)
    pool = [c for c in game.deck if c not in seen]
    others = [s for s in range(game.n) if game.in_hand(s) and s != seat]
    wins = 0
    deals = _hidden_deals(game, others, pool, rng, samples)
    for winners in game.play_outs(reference_choice(game), deals):
        if seat in winners:
            wins += 1
    return wins / samples


def _hidden_deals(
    game: Toepen, others: list[int], pool: list[Card], rng: random.Random, samples: int
) -> list[dict[int, list[Card]]]:
    """`samples` supposed hands of the other players: each gets as many random unseen
    cards as they hold, none of a suit they showed out of (if the pool allows it)."""
    order = sorted(others, key=lambda s: -len(game.voids[s]))
    needs = [(s, len(game.hands[s])) for s in order]
    if any(game.voids[s] for s in order) or sum(n for _, n in needs) > len(pool):
        return [_deal_keeping_voids(game, order, pool, rng) for _ in range(samples)]
    deals: list[dict[int, list[Card]]] = []
    for _ in range(samples):  # no suit to avoid: consecutive slices of one shuffle
        cards = pool[:]
        shuffle(cards, rng)
        hands: dict[int, list[Card]] = {}
        start = 0
        for s, need in needs:
            hands[s] = cards[start : start + need]
            start += need
        deals.append(hands)
    return deals


def _deal_keeping_voids(
    game: Toepen, order: list[int], pool: list[Card], rng: random.Random
) -> dict[int, list[Card]]:
    for _attempt in range(20):
        cards = pool[:]
        shuffle(cards, rng)
        hands: dict[int, list[Card]] = {}
        kept = True
        for s in order:
            need = len(game.hands[s])
            void = tuple(game.voids[s])  # Suit hashes in Python (Enum): compare, do not hash
            fit: list[Card] = []
            rest: list[Card] = []
            for c in cards:  # the first `need` cards of a suit `s` may hold; the rest stay
                if len(fit) < need and c.suit not in void:
                    fit.append(c)
                else:
                    rest.append(c)
            if len(fit) < need:
                kept = False
                break
            hands[s] = fit
            cards = rest
        if kept:
            return hands
    # the voids cannot all be kept: deal ignoring them
    cards = pool[:]
    shuffle(cards, rng)
    hands = {}
    for s in order:
        need = len(game.hands[s])
        hands[s], cards = cards[:need], cards[need:]
    return hands


class _RegretSearch:
    """Can `seat` make sure of winning the hand from a position, whatever the others play?
    An AND-OR search over every card play, each position solved once."""

    def __init__(self, game: Toepen, seat: int, live: tuple[int, ...]) -> None:
        self.game = game
        self.seat = seat
        self.index = {s: i for i, s in enumerate(live)}
        self.solved: dict[tuple[Hands, Trick, int], bool] = {}

    def can_force(self, hands: Hands, trick: Trick, leader: int) -> bool:
        key = (hands, trick, leader)
        known = self.solved.get(key)
        if known is not None:
            return known
        answer = self._solve(hands, trick, leader)
        self.solved[key] = answer
        return answer

    def _solve(self, hands: Hands, trick: Trick, leader: int) -> bool:
        game, index = self.game, self.index
        mover = game.next_to_play(trick, leader, index.__contains__)
        if mover is None:  # the trick is complete
            plays = [(s, c) for s, c in trick if s in index]
            winner = winning_play(plays, trick[0][1].suit, game.power, game.trump)
            if not any(hands):
                return game.takes_hand(self.seat, winner)
            return self.can_force(hands, (), winner)
        at = index[mover]
        led = trick[0][1].suit if trick else None
        forcing = mover == self.seat
        for card in playable(sorted(hands[at], key=lambda c: c.code), led):
            after = tuple(h - {card} if i == at else h for i, h in enumerate(hands))
            if self.can_force(after, (*trick, (mover, card)), leader) == forcing:
                return forcing  # one good card is enough for the folder; one refutation
        return not forcing  # for the others


def fold_regret(game: Toepen, seat: int) -> bool | None:
    """Could the folder have made sure of winning by playing on? (None: cards unknown.)"""
    live = tuple(s for s in range(game.n) if game.in_hand(s))
    if any(c is None for s in live for c in game.hands[s]):
        return None
    hands = tuple(frozenset(c for c in game.hands[s] if c is not None) for s in live)
    return _RegretSearch(game, seat, live).can_force(hands, tuple(game.trick_plays), game.leader)
