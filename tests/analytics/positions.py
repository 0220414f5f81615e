"""Positions late in simulated hands, and every hidden deal consistent with what a player
saw there: for the tests that hold a sampled verdict to an exact enumeration (the
answers', the knocks')."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator

from kroeg.analytics.verdicts import seen_by
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen
from kroeg.recorder.tricks import suit_number


def hidden(game: Toepen, seat: int) -> tuple[list[int], dict[int, list[int]], dict[int, int]]:
    """What `seat` cannot see: the unseen cards, and each other player still in's cards
    `seat` saw shown (a hand played face up) and how many more they hold."""
    seen = seen_by(game, seat)
    pool = [i for i, c in enumerate(game.deck) if c not in seen]
    known = {
        s: [game.index[c] for c in game.hands[s] if c is not None and c in seen]
        for s in game.seats_in_hand()
        if s != seat
    }
    return pool, known, {s: len(game.hands[s]) - len(cards) for s, cards in known.items()}


def deals_to_count(game: Toepen, seat: int) -> int:
    """How many ordered deals an exact enumeration plays out (before voids are kept)."""
    pool, _, needs = hidden(game, seat)
    left, count = len(pool), 1
    for need in needs.values():
        count *= math.perm(left, need)
        left -= need
    return count


def consistent_deals(game: Toepen, seat: int) -> list[list[list[int]]]:
    """Every deal of the unseen cards to the others still in that keeps the suits they
    showed out of, equally likely, in every order a hand can be held (the reference
    policy breaks ties by the order held, as the deal gave it): each seat's cards in the
    trick core's numbers, [] for a seat out of the hand."""
    pool, known, needs = hidden(game, seat)
    others = list(needs)
    index = game.index
    base = [[index[c] for c in game.hands[s] if c is not None] for s in range(game.n)]
    base = [cards if game.in_hand(s) else [] for s, cards in enumerate(base)]
    deals: list[list[list[int]]] = []

    def fill(i: int, left: list[int], deal: list[list[int]]) -> None:
        if i == len(others):
            deals.append([list(cards) for cards in deal])
            return
        s = others[i]
        void = {suit_number(suit) for suit in game.voids[s]}
        for cards in itertools.permutations(left, needs[s]):
            if any(c // game.ranks in void for c in cards):
                continue
            deal[s] = known[s] + list(cards)
            fill(i + 1, [c for c in left if c not in cards], deal)

    fill(0, pool, [list(cards) for cards in base])
    assert deals, "some deal is consistent with what the player saw"
    return deals


def decisions_late_in_the_hand(
    rules: Ruleset,
    players: int,
    seed: int,
    kinds: tuple[str, ...],
    most_deals: int,
    when: Callable[[Toepen], bool] = lambda game: True,
) -> Iterator[tuple[Toepen, int]]:
    """Positions of 400 simulated hands where a player makes a decision of one of `kinds`
    (the event's kind) late enough in the hand that every hidden deal can be played out
    (at most `most_deals`), and `when` holds of the game; each is used before the replay
    goes on."""
    bots = ("random", "bluffer", "sharp", "cautious", "random", "bluffer")[:players]
    for record in simulate(rules, players, 400, seed, bots):
        replay = Replay(record.rules, record.players)
        for _hand, _seq, event in number_events(record.events):
            game = replay.game
            if (
                event.kind in kinds
                and isinstance(game, Toepen)
                and event.seat is not None
                and when(game)
                and deals_to_count(game, event.seat) <= most_deals
            ):
                yield game, event.seat
            replay.feed(event)
