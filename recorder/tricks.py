"""The trick-taking game that Toepen and Troefcall share.

`TrickGame` owns what both games do the same way: seats and names, the log,
dealing (from a seeded deck, or card by card from outside when replaying a
typed log), what is known about each hand, following suit, and deciding a
trick. The games add their own rules on top by overriding a few hooks
(`in_hand`, `_trick_complete`, `_deal_complete`). The trick rules themselves
(follow suit, the trick's winner, who plays next) are `recorder.trickcore`'s,
on integers; `playable`, `winning_play` and `next_to_play` hand it `Card`s as
numbers and take its answer back.

Partial knowledge: a hand may hold unknown cards (`None`). A play of a card
is then accepted if nobody can be shown to hold it elsewhere and the player
has not earlier shown out of its suit; showing out of a suit is remembered.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import ClassVar, Final, Self, TypeVar, cast

from kroeg.recorder import trickcore
from kroeg.recorder.cards import FULL_ORDER, Card, Rank, Suit
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import CardPlayed, Deal, Event, HandSkipped, TrickWon
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.text import quoted

__all__ = [
    "SUITS", "TrickGame", "deck_index", "deck_power", "playable", "suit_number", "winning_play",
]  # fmt: skip


#: The core's suit numbers: a suit's place in `Suit` (-1: none).
SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
#: What `playable` and `winning_play` hand the core for a card of any deck: 16 numbers a
#: suit (`trickcore` numbers cards suit by suit), the card's suit first.
_WIDE: Final = 16
_SUIT_BASE: Final[dict[Card, int]] = {
    Card(rank, suit): SUITS.index(suit) * _WIDE for suit in Suit for rank in Rank
}
#: Each card's bit in a hand's mask for `playable`.
_BIT: Final[dict[Card, int]] = {
    card: 1 << (base + FULL_ORDER.index(card.rank)) for card, base in _SUIT_BASE.items()
}


def suit_number(suit: Suit | None) -> int:
    """The core's number of a suit (-1: none)."""
    return -1 if suit is None else SUITS.index(suit)


def deck_index(deck: tuple[Card, ...], rank_order: tuple[Rank, ...]) -> dict[Card, int]:
    """Each card's number in the core: its place in `deck`, which must list the cards suit
    by suit in `Suit` order, each suit in `rank_order` (strongest first)."""
    index = _DECK_INDEXES.get(deck)
    if index is None:
        ranks = len(rank_order)
        for i, card in enumerate(deck):
            if card.suit is not SUITS[i // ranks] or card.rank is not rank_order[i % ranks]:
                raise ValueError(f"the deck is not in the core's order at {card} (place {i})")
        index = _DECK_INDEXES[deck] = {card: i for i, card in enumerate(deck)}
    return index


_DECK_INDEXES: Final[dict[tuple[Card, ...], dict[Card, int]]] = {}


def deck_power(deck: tuple[Card, ...], rank_order: tuple[Rank, ...]) -> dict[Card, int]:
    """Each card's power within its suit (higher beats lower): the same table for every
    game of that deck and order, made once and only read (a fork copies a game often)."""
    key = (deck, rank_order)
    power = _DECK_POWERS.get(key)
    if power is None:
        ranks = len(rank_order)
        power = _DECK_POWERS[key] = {card: ranks - rank_order.index(card.rank) for card in deck}
    return power


_DECK_POWERS: Final[dict[tuple[tuple[Card, ...], tuple[Rank, ...]], dict[Card, int]]] = {}


def playable(hand: Sequence[Card], led: Suit | None) -> list[Card]:
    """The cards of `hand` that may be played to a trick led with `led`: follow suit if able
    (`trickcore.playable`), in the order held."""
    bit = _BIT
    mask = 0
    for card in hand:
        mask |= bit[card]
    legal = trickcore.playable(mask, suit_number(led), _WIDE)
    if legal == mask:
        return list(hand)
    return [c for c in hand if legal & bit[c]]


def winning_play(
    plays: Sequence[tuple[int, Card]], led: Suit, power: dict[Card, int], trump: Suit | None
) -> int:
    """The seat whose card wins: the highest trump, else the highest card of the led suit
    (`trickcore.trick_winner`).

    `plays` are the live cards (of players still in), in play order; if none follows suit
    or trumps, the first of them wins. `power` ranks the cards within a suit (higher wins).
    """
    base = _SUIT_BASE
    cards = [base[card] + _WIDE - power[card] for _, card in plays]
    return plays[trickcore.trick_winner(cards, SUITS.index(led), suit_number(trump), _WIDE)][0]


# Events are immutable values and a game only ever makes a few hundred distinct deals
# and plays, so each is made once and shared: the hot loop then allocates nothing.
_DEALS: dict[tuple[int, Card | None], Deal] = {}
_PLAYS: dict[tuple[int, Card], CardPlayed] = {}


def _deal_event(seat: int, card: Card | None) -> Deal:
    event = _DEALS.get((seat, card))
    if event is None:
        event = _DEALS[(seat, card)] = Deal(seat, card)
    return event


def _play_event(seat: int, card: Card) -> CardPlayed:
    event = _PLAYS.get((seat, card))
    if event is None:
        event = _PLAYS[(seat, card)] = CardPlayed(seat, card)
    return event


#: The same for the events of a seat and a number (a stake, a trick, a payment), by
#: their class: a game makes a few dozen. At most `_SHARED_MOST` are kept, so a log of
#: ever new numbers cannot grow it without end (the rest are made each time).
_SHARED: dict[tuple[object, int, int], Event] = {}
_SHARED_MOST = 4096
_E = TypeVar("_E", bound=Event)


def shared_event(make: Callable[[int, int], _E], seat: int, number: int) -> _E:
    """`make(seat, number)`, made once and shared (`_SHARED`): an event is a value."""
    key = (make, seat, number)
    event = _SHARED.get(key)
    if event is None:
        event = make(seat, number)
        if len(_SHARED) < _SHARED_MOST:
            _SHARED[key] = event
    return cast(_E, event)


def shared_seat_event(make: Callable[[int], _E], seat: int) -> _E:
    """`make(seat)`, made once and shared (`shared_event`)."""
    key = (make, seat, -1)
    event = _SHARED.get(key)
    if event is None:
        event = make(seat)
        if len(_SHARED) < _SHARED_MOST:
            _SHARED[key] = event
    return cast(_E, event)


class TrickGame:
    """Seats, log, dealing, hand knowledge, follow-suit and trick winners."""

    #: The cards of the game, and their strength within a suit (higher wins).
    deck: tuple[Card, ...] = ()
    rank_order: tuple[Rank, ...] = ()
    #: The game's name, as a rule set names its game (`Ruleset.game`), capitalised.
    game_name: ClassVar[str] = ""

    def __init__(
        self,
        rules: Ruleset,
        players: Sequence[str],
        seed: int | None = None,
        *,
        empty: bool = False,
    ) -> None:
        if empty:  # `_blank`: every attribute is about to be copied in
            return
        if rules.game != self.game_name.lower():
            raise IllegalActionError(f"rule set {rules.name!r} is not a {self.game_name} rule set")
        problem = rules.table_problem(len(players))
        if problem is not None:
            raise IllegalActionError(problem)
        self.rules = rules
        self.players: tuple[str, ...] = tuple(players)
        self.n = len(self.players)
        if len(set(self.players)) != self.n:
            raise IllegalActionError(f"player names must differ: {', '.join(self.players)}")
        self.seed = seed
        #: With a seed the game shuffles and deals itself; without, deals come from outside.
        self.rng: random.Random | None = random.Random(seed) if seed is not None else None
        self.log: list[Event] = []
        self.hand_no = 0
        self.power: dict[Card, int] = deck_power(self.deck, self.rank_order)
        #: Each card's number in the trick core (`trickcore`), and the cards a suit.
        self.index: dict[Card, int] = deck_index(self.deck, self.rank_order)
        self.ranks = len(self.rank_order)
        self.trump: Suit | None = None
        self._clockwise = [
            tuple((s + i) % self.n for i in range(1, self.n + 1)) for s in range(self.n)
        ]
        self._reset_hand_knowledge()
        self._begin()

    def _begin(self) -> None:
        """Hook: each game's own state at its start, after the table's (no hand dealt)."""

    # -- bookkeeping --------------------------------------------------------------------------

    def _reset_hand_knowledge(self) -> None:
        self.hands: list[list[Card | None]] = [[] for _ in range(self.n)]
        self.seen: set[Card] = set()
        self.voids: list[set[Suit]] = [set() for _ in range(self.n)]
        self.deal_queue: deque[int] = deque()
        self.shuffled: list[Card] = []
        self.trick_no = 0
        self.trick_plays: list[tuple[int, Card]] = []
        #: Every card played in this hand so far, the current trick's included: what all
        #: at the table have seen fall (a bot reads it where it would walk the log).
        self.played: set[Card] = set()
        self.leader = 0
        self.tricks_won: list[int] = [0] * self.n
        self._mover_stamp = -1
        self._mover: int | None = None

    def name(self, seat: int | None) -> str:
        """The player's name at a seat."""
        return "nobody" if seat is None else self.players[seat]

    def where(self) -> str:
        """Where the game is, for messages: `hand 3, trick 2`."""
        if self.hand_no == 0:
            return "before the first hand"
        if self.between_hands():
            return f"after hand {self.hand_no}"
        if self.trick_no == 0:
            return f"hand {self.hand_no}, before the first lead"
        return f"hand {self.hand_no}, trick {self.trick_no}"

    def _illegal(self, message: str) -> IllegalActionError:
        return IllegalActionError(f"{self.where()}: {message}")

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise self._illegal(f"there is no seat {quoted(seat)} (seats are 0 to {self.n - 1})")
        return seat

    def _log_skipped(self, dealer: int | None, idle: bool) -> HandSkipped:
        """What every game's `skip_hand` does first: only between hands (`idle`), `dealer`
        a seat or None, the hand recorded (`hand_skipped`) and counted, so that later
        messages and the stored hand numbers name hands as they were typed."""
        if not idle:
            raise self._illegal("a hand is passed over only between hands")
        if dealer is not None:
            self._check_seat(dealer)
        event = HandSkipped(dealer)
        self.log.append(event)
        self.hand_no += 1
        return event

    def in_hand(self, seat: int) -> bool:
        """Whether the player at `seat` takes part in the current hand (overridden)."""
        return True

    def between_hands(self) -> bool:
        """Whether the last hand is over and the next has not started (overridden)."""
        return False

    def seats_from(self, seat: int) -> tuple[int, ...]:
        """Seats clockwise starting left of `seat`, ending with `seat` itself."""
        return self._clockwise[seat]

    # -- dealing ------------------------------------------------------------------------------

    def _start_deal(self, order: list[int]) -> None:
        """Queue one card for each seat in `order`; with a seed, deal them at once."""
        self.deal_queue.extend(order)
        if self.rng is not None:
            if not self.shuffled:
                self.shuffled = list(self.deck)
                trickcore.shuffle(self.shuffled, self.rng)  # random.shuffle's draws
            log, hands, seen, shuffled = self.log, self.hands, self.seen, self.shuffled
            queue = self.deal_queue
            while queue:
                seat = queue.popleft()
                card = shuffled.pop()
                hands[seat].append(card)
                seen.add(card)
                log.append(_deal_event(seat, card))
            self._deal_complete()

    def _draw_unseen(self) -> Card:
        """The next card of a seeded deck (cuts, which draw outside the hand's deal)."""
        assert self.rng is not None
        return trickcore.choice([c for c in self.deck if c not in self.seen], self.rng)

    def can_deal(self, seat: int, card: Card | None) -> bool:
        """Whether `card` (None: unknown) may be dealt to `seat` now."""
        try:
            self.verify_deal(seat, card)
        except IllegalActionError:
            return False
        return True

    def verify_deal(self, seat: int, card: Card | None) -> None:
        """Raise IllegalActionError unless `card` may be dealt to `seat` now."""
        self._check_seat(seat)
        if not self.deal_queue:
            raise self._illegal(f"no card is being dealt now (dealt to {self.name(seat)})")
        expected = self.deal_queue[0]
        if seat != expected:
            raise self._illegal(
                f"the next card goes to {self.name(expected)}, not {self.name(seat)}"
            )
        if card is not None:
            self._verify_unseen(card, f"dealt to {self.name(seat)}")

    def deal(self, seat: int, card: Card | None) -> Deal:
        """Deal one card (None: unknown) to `seat`, when dealing from outside."""
        self.verify_deal(seat, card)
        self.deal_queue.popleft()
        self.hands[seat].append(card)
        if card is not None:
            self.seen.add(card)
        event = _deal_event(seat, card)
        self.log.append(event)
        if not self.deal_queue:
            self._deal_complete()
        return event

    def _deal_complete(self) -> None:
        """Hook: every queued card has been dealt."""

    def _verify_unseen(self, card: Card, doing: str) -> None:
        if card not in self.power:
            raise self._illegal(f"{card} is not in this game's deck ({doing})")
        if card in self.seen:
            raise self._illegal(f"{card} {doing}, but {card} is already {self._location(card)}")

    def _location(self, card: Card) -> str:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"in {self.name(seat)}'s hand"
        return "played or shown"

    # -- playing ------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat that plays the next card, or None when no card can be played."""
        return self._next_player() if self.trick_no else None

    def _next_player(self) -> int | None:
        """Next seat to play to the current trick; None when everyone in has played."""
        # Every change of state appends to the log, so the log's length keys a cache.
        stamp = len(self.log)
        if self._mover_stamp == stamp:
            return self._mover
        self._mover = mover = self.next_to_play(self.trick_plays, self.leader, self.live_mask())
        self._mover_stamp = stamp
        return mover

    def next_to_play(self, plays: Sequence[tuple[int, Card]], leader: int, live: int) -> int | None:
        """Who plays next to a trick of `plays` led by `leader` (None: the trick is complete),
        the seats in the mask `live` still in (`trickcore.next_to_play`).

        Analyses ask this of positions they imagine; the engine asks it of its own.
        """
        if plays:
            seat = trickcore.next_to_play(self.n, live, leader, plays[0][0], plays[-1][0])
        else:
            seat = trickcore.next_to_play(self.n, live, leader, -1, -1)
        return None if seat < 0 else seat

    def live_mask(self) -> int:
        """The seats still in the hand, as the core's bit mask (`in_hand`, overridden)."""
        live = 0
        for seat in range(self.n):
            if self.in_hand(seat):
                live |= 1 << seat
        return live

    def led_suit(self) -> Suit | None:
        """The suit led to the current trick, if a card has been led."""
        return self.trick_plays[0][1].suit if self.trick_plays else None

    def legal_cards(self, seat: int) -> list[Card]:
        """Known cards in `seat`'s hand that may be played now (empty if not their turn)."""
        if seat != self.to_move:
            return []
        # `playable` with the unknown cards left out, in one pass over the hand.
        bit = _BIT
        known: list[Card] = []
        mask = 0
        for card in self.hands[seat]:
            if card is not None:
                known.append(card)
                mask |= bit[card]
        legal = trickcore.playable(mask, suit_number(self.led_suit()), _WIDE)
        if legal == mask:
            return known
        return [c for c in known if legal & bit[c]]

    def _verify_card_play(self, seat: int, card: Card) -> None:
        """Follow-suit and ownership checks of playing `card` from `seat`."""
        hand = self.hands[seat]
        if card not in hand:
            if card in self.seen or card not in self.power:
                raise self._illegal(
                    f"{self.name(seat)} cannot play {card}: "
                    + (f"it is {self._location(card)}" if card in self.power else "not in the deck")
                )
            if None not in hand:
                held = " ".join(str(c) for c in hand)
                raise self._illegal(f"{self.name(seat)} does not hold {card} (holds {held})")
            if card.suit in self.voids[seat]:
                raise self._illegal(
                    f"{self.name(seat)} cannot play {card}: showed out of "
                    f"{card.suit.english} earlier"
                )
        led = self.led_suit()
        if led is not None and card.suit is not led:
            known = [c for c in hand if c is not None]
            follow = [c for c in playable(known, led) if c.suit is led]
            if follow:
                held = " ".join(str(c) for c in follow)
                raise self._illegal(f"{self.name(seat)} must follow {led.english} (holds {held})")

    def _apply_card_play(self, seat: int, card: Card) -> CardPlayed:
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        else:
            hand.remove(None)
            self.seen.add(card)
        plays = self.trick_plays
        if plays and card.suit is not plays[0][1].suit:
            self.voids[seat].add(plays[0][1].suit)
        plays.append((seat, card))
        self.played.add(card)
        event = _play_event(seat, card)
        self.log.append(event)
        if self._next_player() is None:
            self._finish_trick()
        return event

    def trick_winner(self) -> int:
        """The seat winning the current trick: highest trump, else highest of the led suit.

        Cards of players no longer in the hand cannot win; if no card of a player
        still in follows suit (or trumps), the first card played by a player still in wins.
        """
        live = [(seat, card) for seat, card in self.trick_plays if self.in_hand(seat)]
        return winning_play(live, self.trick_plays[0][1].suit, self.power, self.trump)

    def _finish_trick(self) -> None:
        winner = self.trick_winner()
        self.tricks_won[winner] += 1
        self.log.append(shared_event(TrickWon, winner, self.trick_no))
        self.trick_plays = []
        self.leader = winner
        self._trick_complete(winner)

    def _trick_complete(self, winner: int) -> None:
        """Hook: a trick has just been won by `winner`."""

    # -- helpers for the games ----------------------------------------------------------------

    @staticmethod
    def _can(verify: object, *args: object) -> bool:
        """Whether `verify(*args)` passes: each game's `can_x` asks its `verify_x`."""
        try:
            verify(*args)  # type: ignore[operator]
        except IllegalActionError:
            return False
        return True

    def _blank(self) -> Self:
        """A new game of the same kind, to copy a state into: each game's class makes it
        without the constructor's work (`empty=True`: no attribute set, the rules not
        checked again, no deck indexed), which was two thirds of a fork (3.7 of 5.4 µs;
        docs/BENCHMARKS.md)."""
        return type(self)(self.rules, self.players, empty=True)

    def _shallow_copy(self) -> Self:
        """What `copy.copy` does, spelled out where it cannot: a compiled class (mypyc)
        has no `__dict__` to copy, and names its attributes in `__mypyc_attrs__`."""
        if getattr(type(self), "__mypyc_attrs__", None) is None:
            return copy.copy(self)
        return self._copy_into(self._blank())

    def _copy_into(self, other: Self) -> Self:
        """Make `other`, another game of the same kind, share every attribute of this one."""
        if other is self or type(other) is not type(self):
            raise TypeError(f"a {type(self).__name__} is copied into another of its kind")
        if getattr(type(self), "__mypyc_attrs__", None) is None:  # plain Python: a dict
            other.__dict__.clear()
            other.__dict__.update(self.__dict__)
        else:
            self._copy_fields(other)
        return other

    def _copy_fields(self, other: Self) -> None:
        """`_copy_into` in a compiled class: each attribute named in the code, so that it
        is a field copied (all of a Toepen's 58 in 0.2 µs, against 2.0 µs looked up by
        name at run time). Each class that sets attributes of its own copies them after
        its parent's; tests/recorder/test_fork.py holds every attribute set anywhere in
        a game's classes to be copied here."""
        other.deck = self.deck
        other.rank_order = self.rank_order
        other.rules = self.rules
        other.players = self.players
        other.n = self.n
        other.seed = self.seed
        other.rng = self.rng
        other.log = self.log
        other.hand_no = self.hand_no
        other.power = self.power
        other.index = self.index
        other.ranks = self.ranks
        other.trump = self.trump
        other._clockwise = self._clockwise
        other.hands = self.hands
        other.seen = self.seen
        other.voids = self.voids
        other.deal_queue = self.deal_queue
        other.shuffled = self.shuffled
        other.trick_no = self.trick_no
        other.trick_plays = self.trick_plays
        other.played = self.played
        other.leader = self.leader
        other.tricks_won = self.tricks_won
        other._mover_stamp = self._mover_stamp
        other._mover = self._mover

    def clone(self) -> Self:
        """An independent copy of the game, its log and random source included: a
        position to come back to (a lenient reader skipping a hand it cannot referee)."""
        other = self.fork()
        other.log = list(self.log)
        if self.rng is not None:
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        return other

    def fork(self) -> Self:
        """A copy to play on without touching this game (its log starts empty).

        For what-if playouts: the copy shares nothing mutable with the original.
        """
        other = self._shallow_copy()
        other._fork_core()
        return other

    def fork_into(self, other: Self) -> Self:
        """`fork`, made in `other` (a fork of this game, played on and no longer needed)
        rather than in a new game: a verdict that plays many copies of one position on,
        one after the other, makes and frees no game for each (docs/BENCHMARKS.md)."""
        self._copy_into(other)
        other._fork_core()
        return other

    def _fork_core(self) -> None:
        """Give this shallow copy its own copies of the mutable state, and no log (each
        game's class adds its own state)."""
        self.log = []
        self._mover_stamp = -1
        self.hands = [list(h) for h in self.hands]
        self.seen = set(self.seen)
        self.voids = [set(v) for v in self.voids]
        self.deal_queue = deque(self.deal_queue)
        self.trick_plays = list(self.trick_plays)
        self.played = set(self.played)
        self.tricks_won = list(self.tricks_won)
        self.shuffled = list(self.shuffled)
        self.rng = None
