"""The state of a Toepen game and the questions it answers, shared by the engine's parts.

`recorder.toepen.Toepen` is built from this base, the swap machinery
(`recorder.toepen_swaps`) and the settling of a hand (`recorder.toepen_settle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Self

from kroeg.recorder.cards import FULL_DECK, TOEPEN_DECK, TOEPEN_ORDER, Card, Rank
from kroeg.recorder.events import (
    Pay,
)
from kroeg.recorder.rules import partners_opposite, shared_lives
from kroeg.recorder.tricks import TrickGame, shared_event

__all__ = ["Phase", "SwapWindow", "ToepenState"]

Phase = Literal["idle", "deal", "preplay", "play", "over"]

#: The ranks that make laundry and armoede.
_FACES = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK})
#: Those ranks' cards, and the sevens (dirty laundry), as sets of cards, asked by
#: `is_laundry` for every seat of every swap verdict's play-out: a member read off an Enum
#: class (`Rank.SEVEN`) costs 67 ns on Python 3.11, compiled or not.
_FACE_CARDS = frozenset(card for card in FULL_DECK if card.rank in _FACES)
_SEVENS = frozenset(card for card in FULL_DECK if card.rank is Rank.SEVEN)


@dataclass
class SwapWindow:
    """An open swap or armoede that others may still check."""

    kind: Literal["laundry", "armoede"]
    seat: int
    cards: list[Card | None]
    checked: bool = False


class ToepenState(TrickGame):
    """What a game of Toepen knows: the table, the hand in play, and the answers to
    questions about them."""

    deck = TOEPEN_DECK
    rank_order = TOEPEN_ORDER
    game_name = "Toepen"

    def _begin(self) -> None:
        rules = self.rules
        #: Team toepen: each seat's side (partners opposite); None when each plays alone.
        self.teams: tuple[int, ...] | None = partners_opposite(self.n) if rules.teams else None
        #: The seats that share each seat's lives: its side, or the seat alone.
        self.side_seats: list[tuple[int, ...]] = shared_lives(self.teams, self.n)
        self.lives: list[int] = [rules.lives] * self.n
        self.alive: list[bool] = [True] * self.n
        self.phase: Phase = "idle"
        self.dealer: int | None = None
        self.next_dealer: int | None = None
        self.cut_round: list[int] = []
        self.cut_cards: dict[int, Card] = {}
        self.sudden_death = False
        self.winner: int | None = None
        self.loser: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._reset_hand_knowledge()
        self.stake = 1
        self.folded: list[bool] = [False] * self.n
        self.dealt: list[bool] = [False] * self.n
        self.answer_queue: list[int] = []
        #: The seats that won the hand, once it is over (the `win` events).
        self.hand_winners: tuple[int, ...] = ()
        self.last_knocker: int | None = None
        self.knock_count = 0
        self.window: SwapWindow | None = None
        self.stock = 0
        #: The new cards of a false claim caught before the swap (`check_before_swap`),
        #: back on the stock in the order it deals them again (`_call_off_swap`; None an
        #: unknown card): only the player who was dealt them knows them.
        self.stock_top: list[Card | None] = []
        #: The swapper whose new cards are being dealt from the stock, until they are in
        #: (a check before the swap may come between the claim and its cards).
        self.drawing_from_stock: int | None = None
        self.poor: int | None = None
        self.whistled: list[set[Rank]] = [set() for _ in range(self.n)]
        self.lives_before: list[int] = list(self.lives)
        self.paid_this_hand: list[int] = [0] * self.n
        self.poverty_asked = False
        self.declared_armoede: set[int] = set()
        #: Who swapped their hand (laundry) in this hand.
        self.swapped: set[int] = set()

    # -- questions ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"

    def in_hand(self, seat: int) -> bool:
        """Whether `seat` was dealt into this hand and has not folded."""
        return self.dealt[seat] and not self.folded[seat]

    def partner_in(self, seat: int) -> bool:
        """Whether a partner of `seat` (team toepen) is still in the hand: who plays on
        for the side if `seat` folds."""
        return any(self.in_hand(s) for s in self.side_seats[seat] if s != seat)

    def live_mask(self) -> int:
        """The seats still in the hand as the core's bit mask (`in_hand`, asked per play)."""
        live = 0
        dealt, folded = self.dealt, self.folded
        for seat in range(self.n):
            if dealt[seat] and not folded[seat]:
                live |= 1 << seat
        return live

    def between_hands(self) -> bool:
        """Whether the last hand is over and the next has not started."""
        return self.phase in ("idle", "over")

    def seats_in_hand(self) -> list[int]:
        """Seats still in the hand, in seat order."""
        return [s for s in range(self.n) if self.dealt[s] and not self.folded[s]]

    def fair_share(self, players_in: int | None = None) -> float:
        """What an average seat still in can expect of the hand (docs/STATS.md).

        1/players where the last trick wins, 1 - 1/players where it loses; `players_in`
        defaults to the seats still in now (at least two).
        """
        players = max(2, len(self.seats_in_hand()) if players_in is None else players_in)
        return 1 / players if self.rules.last_trick == "wins" else 1 - 1 / players

    def side_share(self) -> float:
        """What an average side still in can expect of the hand: `fair_share` counted by
        sides (in team toepen a partner's win is the side's; elsewhere each seat is one)."""
        return self.fair_share(len(self.sides(self.seats_in_hand())))

    def takes_hand(self, seat: int, last_trick_by: int) -> bool:
        """Whether `seat`, still in, wins the hand when `last_trick_by` takes the last trick
        (in team toepen: when their side does)."""
        same = seat == last_trick_by or (
            self.teams is not None and self.teams[seat] == self.teams[last_trick_by]
        )
        return same == (self.rules.last_trick == "wins")

    def sides(self, seats: Sequence[int]) -> set[int]:
        """The sides these seats play for (each seat its own side when nobody plays in teams)."""
        return {s if self.teams is None else self.teams[s] for s in seats}

    def points(self, seat: int) -> int:
        """Penalty points of a seat (the budget minus lives left)."""
        return self.rules.lives - self.lives[seat]

    def score_text(self, seat: int, upto: int | None = None) -> str:
        """A seat's score as the rules show it: `3 points` or `7 lives`; with `upto`, as
        the log stood after its first `upto` events, read from its pay rows (the facts: an
        action pays before the log's next row says so, as a fold and the pay after it)."""
        lives = self.lives[seat]
        if upto is not None:
            paid = (e.amount for e in self.log[:upto] if isinstance(e, Pay)
                    and seat in self.side_seats[e.seat])  # fmt: skip
            lives = self.rules.lives - sum(paid)
        if self.rules.score_display == "points":
            points = self.rules.lives - lives
            return f"{points} point{'' if points == 1 else 's'}"
        # A player who pays more lives than they have left is out with none: never
        # "-2 lives".
        lives = max(lives, 0)
        return f"{lives} li{'fe' if lives == 1 else 'ves'}"

    def expected_dealer(self) -> int | None:
        """Who deals the next hand, if the rules already decide it."""
        return self.next_dealer

    def answerers(self) -> list[int]:
        """Seats that may answer a knock now (one, or all pending under fast folding)."""
        if not self.answer_queue:
            return []
        return list(self.answer_queue) if self.rules.fast_fold else [self.answer_queue[0]]

    def _next_alive(self, seat: int) -> int:
        for s in self.seats_from(seat):
            if self.alive[s]:
                return s
        raise AssertionError("no player left")

    def _count_known(self, seat: int, rank: Rank) -> int:
        return sum(1 for c in self.hands[seat] if c is not None and c.rank is rank)

    def _pay(self, seat: int, amount: int) -> None:
        """`seat` pays: from their own lives, or in team toepen from their side's pool
        (every member's lives are the pool)."""
        if amount <= 0:
            return
        for member in self.side_seats[seat]:
            self.lives[member] -= amount
            self.paid_this_hand[member] += amount
        self.log.append(shared_event(Pay, seat, amount))

    def _copy_fields(self, other: Self) -> None:
        super()._copy_fields(other)
        other.teams = self.teams
        other.side_seats = self.side_seats
        other.lives = self.lives
        other.alive = self.alive
        other.phase = self.phase
        other.dealer = self.dealer
        other.next_dealer = self.next_dealer
        other.cut_round = self.cut_round
        other.cut_cards = self.cut_cards
        other.sudden_death = self.sudden_death
        other.winner = self.winner
        other.loser = self.loser
        other.stake = self.stake
        other.folded = self.folded
        other.dealt = self.dealt
        other.answer_queue = self.answer_queue
        other.hand_winners = self.hand_winners
        other.last_knocker = self.last_knocker
        other.knock_count = self.knock_count
        other.window = self.window
        other.stock = self.stock
        other.stock_top = self.stock_top
        other.drawing_from_stock = self.drawing_from_stock
        other.poor = self.poor
        other.whistled = self.whistled
        other.lives_before = self.lives_before
        other.paid_this_hand = self.paid_this_hand
        other.poverty_asked = self.poverty_asked
        other.declared_armoede = self.declared_armoede
        other.swapped = self.swapped

    def _fork_core(self) -> None:
        super()._fork_core()
        self.lives, self.alive = list(self.lives), list(self.alive)
        self.folded, self.dealt = list(self.folded), list(self.dealt)
        self.answer_queue = list(self.answer_queue)
        self.whistled = [set(w) for w in self.whistled]
        self.lives_before, self.paid_this_hand = list(self.lives_before), list(self.paid_this_hand)
        self.declared_armoede = set(self.declared_armoede)
        self.swapped = set(self.swapped)
        self.stock_top = list(self.stock_top)
        self.cut_round, self.cut_cards = list(self.cut_round), dict(self.cut_cards)
        window = self.window
        self.window = None if window is None else replace(window, cards=list(window.cards))

    def snapshot(self) -> tuple[object, ...]:
        """Everything the table can see and the score: equal for equal positions."""
        return (
            self.phase,
            self.hand_no,
            self.dealer,
            self.next_dealer,
            self.stake,
            tuple(self.lives),
            tuple(self.alive),
            tuple(self.folded),
            tuple(self.dealt),
            tuple(tuple(h) for h in self.hands),
            tuple(self.answer_queue),
            self.last_knocker,
            self.trick_no,
            tuple(self.trick_plays),
            self.leader,
            tuple(self.tricks_won),
            self.stock,
            self.poor,
            self.winner,
            self.loser,
            self.sudden_death,
            tuple(sorted(self.swapped)),
            None
            if self.window is None
            else (self.window.kind, self.window.seat, self.window.checked),
        )
