"""The trick rules on integers: the one home of following suit, the trick's winner, who
plays next, the reference play-out and the perfect-information search.

The engine (`recorder.tricks`, `Toepen.play_outs`) and the analysis' verdicts
(`analytics.verdicts`) both come here. This module is the reference; `_trickcore.c` is its
C twin with the same functions and the same answers (tests/recorder/test_trickcore.py
holds them equal on random positions of every rule set). `NATIVE` says whether the twin
was built; `play_outs` and `can_force` below run in it where it was (`use_native`).

Integers, not objects:

- a **card** is its index in the game's deck. A deck lists its cards suit by suit (in
  `Suit` order), each suit strongest first, `ranks` cards a suit; so a card's suit is
  `card // ranks` and, within a suit, the smaller index wins;
- a **hand** is a bit mask of cards (bit `card`), or, where the order in which the cards
  are held matters (the reference policy picks the first of equal ranks), a sequence;
- a **suit** is 0 to 3, -1 for none (nothing led, no trump); a **seat** is 0 to 7, and
  the seats still in the hand are a bit mask `live`, -1 for no seat.
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar

__all__ = [
    "NATIVE",
    "REJECTIONS",
    "PythonDraws",
    "can_force",
    "choice",
    "draws",
    "next_to_play",
    "play_outs",
    "playable",
    "python_can_force",
    "python_play_outs",
    "python_sampled_play_outs",
    "python_supposed",
    "reference_pick",
    "sampled_play_outs",
    "shuffle",
    "trick_winner",
    "use_native",
]

#: No suit (nothing led yet, no trump) and no seat.
NONE: Final = -1

T = TypeVar("T")


def playable(hand: int, led: int, ranks: int) -> int:
    """The cards of `hand` that may be played to a trick led with `led`: follow suit if able."""
    if led >= 0:
        follow = hand & (((1 << ranks) - 1) << (led * ranks))
        if follow:
            return follow
    return hand


def trick_winner(cards: Sequence[int], led: int, trump: int, ranks: int) -> int:
    """Which of `cards` (the live cards, in play order) wins: the highest trump, else the
    highest of the led suit; if none follows suit or trumps, the first. A position in `cards`."""
    best, best_key = 0, 0
    for i, card in enumerate(cards):
        suit = card // ranks
        if suit == trump:
            key = 2 * ranks - card % ranks
        elif suit == led:
            key = ranks - card % ranks
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def next_to_play(n: int, live: int, leader: int, first: int, last: int) -> int:
    """Who plays next to a trick led by `leader` whose first and last cards came from the
    seats `first` and `last` (-1: no card yet); -1 when the trick is complete. Seats out of
    the hand (not in `live`) are passed over; a trick is complete when play comes round to
    the seat that played its first card."""
    if last < 0:
        # The leader, or if the leader is out of the hand, the next player to the left.
        for i in range(n):
            seat = (leader + i) % n
            if live >> seat & 1:
                return seat
        return NONE
    for i in range(1, n + 1):
        seat = (last + i) % n
        if seat == first:
            return NONE
        if live >> seat & 1:
            return seat
    return NONE


def reference_pick(hand: Sequence[int], led: int, ranks: int, lowest: bool) -> int:
    """The reference policy's card from `hand` (in the order held) for a trick led with
    `led`: of the legal cards, the lowest (`lowest`: where the last trick wins, the best is
    kept for the end) or the highest; among equal ranks, the first held. A position in
    `hand`."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    legal = playable(mask, led, ranks)
    best, best_rank = -1, -1
    for i, card in enumerate(hand):
        if not legal >> card & 1:
            continue
        rank = card % ranks  # 0 is the strongest rank
        if best < 0 or (rank > best_rank if lowest else rank < best_rank):
            best, best_rank = i, rank
    if best < 0:
        raise ValueError("no card to play: the hand is empty")
    return best


def python_play_outs(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    lowest: bool,
    hand_size: int,
    trick_no: int,
    leader: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    deals: Sequence[Sequence[Sequence[int]]],
) -> list[int]:
    """For each of `deals` (each the cards every seat holds, in the order held), the seat
    taking the last trick when everyone in plays on from trick `trick_no` (of `hand_size`)
    with the reference policy (`reference_pick`). The trick under way has `trick_cards`
    from `trick_seats` (a folded player's card may lead it)."""
    takers: list[int] = []
    for deal in deals:
        held = [list(hand) for hand in deal]
        seats, cards = list(trick_seats), list(trick_cards)
        lead, trick = leader, max(trick_no, 1)
        while True:
            first = seats[0] if seats else NONE
            last = seats[-1] if seats else NONE
            mover = next_to_play(n, live, lead, first, last)
            if mover >= 0:
                hand = held[mover]
                led = cards[0] // ranks if cards else NONE
                card = hand.pop(reference_pick(hand, led, ranks, lowest))
                seats.append(mover)
                cards.append(card)
                continue
            # The trick is complete: the cards of players still in decide it.
            led = cards[0] // ranks
            counted = [i for i, seat in enumerate(seats) if live >> seat & 1]
            won = trick_winner([cards[i] for i in counted], led, trump, ranks)
            lead = seats[counted[won]]
            if trick >= hand_size:
                takers.append(lead)
                break
            trick += 1
            seats, cards = [], []
    return takers


#: Draws of a deal that keeps the voids before the slower deal that always keeps them.
REJECTIONS: Final = 64


def python_supposed(
    hidden: Sequence[tuple[int, int, int]], pool: Sequence[int], ranks: int, draws: Any
) -> list[list[int]]:
    """One supposed deal of the unseen cards `pool` to the seats of `hidden` (each: seat,
    how many cards, the suits it showed out of as a bit mask), in that order, with the
    shuffles of `draws`: every deal that keeps the voids equally likely.

    Consecutive slices of a shuffle, drawn again until no seat gets a suit it is void in
    (rejection sampling: exactly uniform). After `REJECTIONS` draws, each seat in turn
    takes the first cards it may hold (quick, slightly biased); where no draw keeps every
    void (20 more), the voids are ignored. A pool too small gives short hands."""
    for _attempt in range(REJECTIONS):
        cards = list(pool)
        draws.shuffle(cards)
        dealt: list[list[int]] = []
        start = 0
        kept = True
        for _seat, need, void in hidden:
            hand = cards[start : start + need]
            start += need
            if void and any(void >> (c // ranks) & 1 for c in hand):
                kept = False
                break
            dealt.append(hand)
        if kept:
            return dealt
    for _attempt in range(20):
        cards = list(pool)
        draws.shuffle(cards)
        dealt = []
        kept = True
        for _seat, need, void in hidden:
            fit: list[int] = []
            rest: list[int] = []
            for c in cards:  # the first `need` cards of a suit the seat may hold; the rest stay
                if len(fit) < need and not void >> (c // ranks) & 1:
                    fit.append(c)
                else:
                    rest.append(c)
            if len(fit) < need:
                kept = False
                break
            dealt.append(fit)
            cards = rest
        if kept:
            return dealt
    cards = list(pool)
    draws.shuffle(cards)
    dealt = []
    for _seat, need, _void in hidden:
        dealt.append(cards[:need])
        cards = cards[need:]
    return dealt


def python_sampled_play_outs(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    lowest: bool,
    hand_size: int,
    trick_no: int,
    leader: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    fixed: Sequence[Sequence[int]],
    hidden: Sequence[tuple[int, int, int]],
    pool: Sequence[int],
    samples: int,
    draws: Any,
) -> list[int]:
    """`python_play_outs` of `samples` supposed deals: each seat holds its `fixed` cards
    (what the one judging saw: their own, a hand played face up), then the cards
    `python_supposed` deals it from `pool`."""
    deals: list[list[list[int]]] = []
    for _ in range(samples):
        deal = [list(hand) for hand in fixed]
        for (seat, _need, _void), cards in zip(
            hidden, python_supposed(hidden, pool, ranks, draws), strict=False
        ):
            deal[seat] += cards
        deals.append(deal)
    return python_play_outs(
        n, live, ranks, trump, lowest, hand_size, trick_no, leader, trick_seats, trick_cards, deals
    )


class _Search:
    """Can `seat` make sure that the last trick goes to one of the seats in `takes`,
    whatever the others play? An AND-OR search over every card play, each position solved
    once."""

    def __init__(self, n: int, live: int, ranks: int, trump: int, seat: int, takes: int) -> None:
        self.n, self.live, self.ranks, self.trump = n, live, ranks, trump
        self.seat, self.takes = seat, takes
        self.solved: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int], bool] = {}

    def can_force(
        self, hands: tuple[int, ...], seats: tuple[int, ...], cards: tuple[int, ...], leader: int
    ) -> bool:
        key = (hands, seats, cards, leader)
        known = self.solved.get(key)
        if known is not None:
            return known
        answer = self._solve(hands, seats, cards, leader)
        self.solved[key] = answer
        return answer

    def _solve(
        self, hands: tuple[int, ...], seats: tuple[int, ...], cards: tuple[int, ...], leader: int
    ) -> bool:
        live, ranks = self.live, self.ranks
        first = seats[0] if seats else NONE
        last = seats[-1] if seats else NONE
        mover = next_to_play(self.n, live, leader, first, last)
        if mover < 0:  # the trick is complete
            counted = [i for i, seat in enumerate(seats) if live >> seat & 1]
            won = trick_winner([cards[i] for i in counted], cards[0] // ranks, self.trump, ranks)
            winner = seats[counted[won]]
            if not any(hands):
                return bool(self.takes >> winner & 1)
            return self.can_force(hands, (), (), winner)
        led = cards[0] // ranks if cards else NONE
        forcing = mover == self.seat
        legal = playable(hands[mover], led, ranks)
        while legal:
            low = legal & -legal
            legal ^= low
            card = low.bit_length() - 1
            after = tuple(h & ~low if s == mover else h for s, h in enumerate(hands))
            if self.can_force(after, (*seats, mover), (*cards, card), leader) == forcing:
                return forcing  # one good card is enough for `seat`; one refutation for the others
        return not forcing


def python_can_force(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    seat: int,
    takes: int,
    hands: Sequence[int],
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    leader: int,
) -> bool:
    """Whether `seat` can make sure, whatever the others play, that the last trick goes to a
    seat in the mask `takes`, everyone in (`live`) playing on with the cards as they lie
    (`hands`: a mask a seat, the seats out of the hand holding none) from the trick under
    way (`trick_cards` from `trick_seats`, led by `leader`)."""
    search = _Search(n, live, ranks, trump, seat, takes)
    return search.can_force(tuple(hands), tuple(trick_seats), tuple(trick_cards), leader)


def shuffle(cards: list[T], rng: random.Random) -> None:
    """`rng.shuffle(cards)`, the same draws in the same order (CPython's Fisher-Yates over
    `getrandbits`), written out so that it compiles; a test holds it to `random.shuffle`.
    Compiled, a 32-card deck's shuffle takes 1.7 µs against `random.shuffle`'s 13 µs
    (measured): the engine deals with it."""
    for i in range(len(cards) - 1, 0, -1):
        j = _below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def choice(items: Sequence[T], rng: random.Random) -> T:
    """`rng.choice(items)`, the same draw (CPython's `_randbelow` over `getrandbits`),
    compiled: the bots' card at random. A test holds it to `random.choice`."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[_below(rng, len(items))]


def _below(rng: random.Random, n: int) -> int:
    """`rng._randbelow(n)` (n > 0): a draw of n's bit length, again until below n."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


class PythonDraws:
    """Shuffles drawn from `rng` (`shuffle`), then `finish()`: the twin's `Draws` in Python.
    The twin runs Python's Mersenne Twister from `rng.getstate()` and hands the state back
    at `finish`, so both leave `rng` exactly where `random.shuffle` would."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, cards: list[int]) -> None:
        """`random.shuffle(cards)` with `rng`."""
        shuffle(cards, self.rng)

    def finish(self) -> None:
        """Nothing to hand back: the draws came from `rng` itself."""


def draws(rng: random.Random) -> Any:
    """A source of shuffles from `rng` (`shuffle(cards)`, then `finish()`, using `rng` for
    nothing else in between): the C twin's `Draws` where it runs and `rng` is a plain
    `random.Random`, else `PythonDraws`. The same shuffles either way."""
    if _native_on[0] and type(rng) is random.Random:
        return _TWIN.Draws(rng)
    return PythonDraws(rng)


def _load_native() -> Any:
    """The C twin, or None where it was not built (or KROEG_PURE_PYTHON=1 says not to)."""
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        return None
    try:
        return importlib.import_module("kroeg.recorder._trickcore")
    except ImportError:
        return None


_TWIN: Final[Any] = _load_native()
#: Whether the C twin (`kroeg.recorder._trickcore`) was built and loads here.
NATIVE: Final = _TWIN is not None
_native_on: list[bool] = [NATIVE]


def use_native(on: bool) -> bool:
    """Run `play_outs` and `can_force` in the C twin (`on`, where built) or in Python; returns
    whether the twin now runs. For measuring one against the other in one process."""
    _native_on[0] = on and NATIVE
    return _native_on[0]


def play_outs(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    lowest: bool,
    hand_size: int,
    trick_no: int,
    leader: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    deals: Sequence[Sequence[Sequence[int]]],
) -> list[int]:
    """`python_play_outs`, in the C twin where it runs."""
    if _native_on[0]:
        takers: list[int] = _TWIN.play_outs(
            n, live, ranks, trump, lowest, hand_size, trick_no, leader,
            trick_seats, trick_cards, deals,
        )  # fmt: skip
        return takers
    return python_play_outs(
        n, live, ranks, trump, lowest, hand_size, trick_no, leader, trick_seats, trick_cards, deals
    )


def sampled_play_outs(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    lowest: bool,
    hand_size: int,
    trick_no: int,
    leader: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    fixed: Sequence[Sequence[int]],
    hidden: Sequence[tuple[int, int, int]],
    pool: Sequence[int],
    samples: int,
    draws: Any,
) -> list[int]:
    """`python_sampled_play_outs`, in the C twin where `draws` is the twin's (`draws`)."""
    if _native_on[0] and isinstance(draws, _TWIN.Draws):
        takers: list[int] = draws.sampled_play_outs(
            n, live, ranks, trump, lowest, hand_size, trick_no, leader, trick_seats,
            trick_cards, fixed, hidden, pool, samples,
        )  # fmt: skip
        return takers
    return python_sampled_play_outs(
        n, live, ranks, trump, lowest, hand_size, trick_no, leader, trick_seats, trick_cards,
        fixed, hidden, pool, samples, draws,
    )  # fmt: skip


def can_force(
    n: int,
    live: int,
    ranks: int,
    trump: int,
    seat: int,
    takes: int,
    hands: Sequence[int],
    trick_seats: Sequence[int],
    trick_cards: Sequence[int],
    leader: int,
) -> bool:
    """`python_can_force`, in the C twin where it runs."""
    if _native_on[0]:
        forced: bool = _TWIN.can_force(
            n, live, ranks, trump, seat, takes, hands, trick_seats, trick_cards, leader
        )
        return forced
    return python_can_force(
        n, live, ranks, trump, seat, takes, hands, trick_seats, trick_cards, leader
    )
