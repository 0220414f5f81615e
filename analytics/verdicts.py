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
trick rules (`recorder.trickcore`, as the engine).

A hand with unknown cards gives None, never a guess. docs/STATS.md has more.
"""

from __future__ import annotations

import random
from typing import Any

from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.trickcore import shuffle
from kroeg.recorder.tricks import suit_number

__all__ = ["SAMPLES", "fold_regret", "knock_strength", "shuffle"]

#: Playouts per knock. The standard error of a strength is at most 0.5 / sqrt(SAMPLES).
SAMPLES = 48


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
    # Cards as the trick core numbers them: their place in the deck.
    pool = [i for i, c in enumerate(game.deck) if c not in seen]
    others = [s for s in range(game.n) if game.in_hand(s) and s != seat]
    index = game.index
    base: list[list[int]] = [[] for _ in range(game.n)]
    for s in game.seats_in_hand():
        base[s] = [index[c] for c in game.hands[s] if c is not None]
    deals: list[list[list[int]]] = []
    draws = trickcore.draws(rng)  # rng.shuffle's draws (in C where the twin runs)
    try:
        hidden = _hidden_deals(game, others, pool, draws, samples)
    finally:
        draws.finish()
    for supposed in hidden:
        deal = list(base)
        for s, cards in supposed.items():
            deal[s] = cards
        deals.append(deal)
    wins = 0
    for taker in game.last_trick_takers(deals):
        if game.takes_hand(seat, taker):
            wins += 1
    return wins / samples


def _hidden_deals(
    game: Toepen, others: list[int], pool: list[int], draws: Any, samples: int
) -> list[dict[int, list[int]]]:
    """`samples` supposed hands of the other players: each gets as many random unseen
    cards as they hold, none of a suit they showed out of (if the pool allows it)."""
    order = sorted(others, key=lambda s: -len(game.voids[s]))
    needs = [(s, len(game.hands[s])) for s in order]
    if any(game.voids[s] for s in order) or sum(n for _, n in needs) > len(pool):
        return [_deal_keeping_voids(game, order, pool, draws) for _ in range(samples)]
    deals: list[dict[int, list[int]]] = []
    for _ in range(samples):  # no suit to avoid: consecutive slices of one shuffle
        cards = pool[:]
        draws.shuffle(cards)
        hands: dict[int, list[int]] = {}
        start = 0
        for s, need in needs:
            hands[s] = cards[start : start + need]
            start += need
        deals.append(hands)
    return deals


def _deal_keeping_voids(
    game: Toepen, order: list[int], pool: list[int], draws: Any
) -> dict[int, list[int]]:
    ranks = game.ranks
    for _attempt in range(20):
        cards = pool[:]
        draws.shuffle(cards)
        hands: dict[int, list[int]] = {}
        kept = True
        for s in order:
            need = len(game.hands[s])
            void = [suit_number(suit) for suit in game.voids[s]]
            fit: list[int] = []
            rest: list[int] = []
            for c in cards:  # the first `need` cards of a suit `s` may hold; the rest stay
                if len(fit) < need and c // ranks not in void:
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
    draws.shuffle(cards)
    hands = {}
    for s in order:
        need = len(game.hands[s])
        hands[s], cards = cards[:need], cards[need:]
    return hands


def fold_regret(game: Toepen, seat: int) -> bool | None:
    """Could the folder have made sure of winning by playing on? (None: cards unknown.)

    Solved by `trickcore.can_force` (in C where it was built) on the cards as they lie."""
    live = game.seats_in_hand()
    if any(c is None for s in live for c in game.hands[s]):
        return None
    index = game.index
    hands = [0] * game.n
    for s in live:
        for c in game.hands[s]:
            if c is not None:
                hands[s] |= 1 << index[c]
    takes = 0  # the takers of the last trick with whom the folder wins the hand
    for s in live:
        if game.takes_hand(seat, s):
            takes |= 1 << s
    return trickcore.can_force(
        game.n, game.live_mask(), game.ranks, suit_number(game.trump), seat, takes, hands,
        [s for s, _ in game.trick_plays], [index[c] for _, c in game.trick_plays], game.leader,
    )  # fmt: skip
