"""The Toepen engine: the single referee of every Toepen rule set.

A `Toepen` game is a state machine. Every action comes as a trio, after
pokerkit: `can_knock(seat)` answers, `verify_knock(seat)` raises
`IllegalActionError` with the rule in words, and `knock(seat)` applies it
and returns the event it recorded. Everything that follows from an action
(trick won, costs paid, end of the hand or game) the engine records itself.
`game.log` *is* the event log.

With a `seed` the engine shuffles and deals itself (simulations). Without
one, cards arrive from outside as `deal` events, possibly unknown (`None`):
that is how typed logs and manual entry are refereed. `replay()` rebuilds a
game from its events and checks every one of them on the way.

Phases of a hand: dealing, then *before the first lead* (whistles, laundry,
armoede, checks, poverty answers, knocks), then four tricks (knocks and
answers at any moment), then the result.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from recorder.cards import TOEPEN_DECK, TOEPEN_ORDER, Card, Rank
from recorder.errors import IllegalActionError
from recorder.events import (
    Armoede,
    CardPlayed,
    Check,
    Deal,
    Eliminated,
    Event,
    Fold,
    GameEnd,
    HandEnd,
    HandStart,
    HandWon,
    Knock,
    Laundry,
    Pay,
    Redeal,
    Reveal,
    Stay,
    Whistle,
)
from recorder.rules import Ruleset
from recorder.tricks import TrickGame

__all__ = ["MAX_STAKE", "Toepen"]

Phase = Literal["idle", "deal", "preplay", "play", "over"]

#: The highest stake any rule set allows: counter-knocks without a limit (kroegtoepen)
#: must stop somewhere, and the log's `amount` column is a 16-bit number.
MAX_STAKE = 999
_FACES = frozenset({Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK})


@dataclass
class _Window:
    """An open swap or armoede that others may still check."""

    kind: Literal["laundry", "armoede"]
    seat: int
    cards: list[Card | None]
    checked: bool = False


class Toepen(TrickGame):
    """A game of Toepen under one `Ruleset`, from the first deal to the game's end."""

    deck = TOEPEN_DECK
    rank_order = TOEPEN_ORDER

    def __init__(self, rules: Ruleset, players: Sequence[str], seed: int | None = None) -> None:
        if rules.game != "toepen":
            raise IllegalActionError(f"rule set {rules.name!r} is not a Toepen rule set")
        if not rules.min_players <= len(players) <= rules.max_players:
            raise IllegalActionError(
                f"{rules.name} needs {rules.min_players} to {rules.max_players} players, "
                f"found {len(players)}"
            )
        super().__init__(players, seed)
        self.rules = rules
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
        self.window: _Window | None = None
        self.stock = 0
        self.poor: int | None = None
        self.whistled: list[set[Rank]] = [set() for _ in range(self.n)]
        self.lives_before: list[int] = list(self.lives)
        self.paid_this_hand: list[int] = [0] * self.n
        self.poverty_asked = False
        self.declared_armoede: set[int] = set()

    # -- questions ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"

    def in_hand(self, seat: int) -> bool:
        """Whether `seat` was dealt into this hand and has not folded."""
        return self.dealt[seat] and not self.folded[seat]

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

    def takes_hand(self, seat: int, last_trick_by: int) -> bool:
        """Whether `seat`, still in, wins the hand when `last_trick_by` takes the last trick."""
        return (seat == last_trick_by) == (self.rules.last_trick == "wins")

    def points(self, seat: int) -> int:
        """Penalty points of a seat (the budget minus lives left)."""
        return self.rules.lives - self.lives[seat]

    def score_text(self, seat: int) -> str:
        """A seat's score as the rules show it: `3 points` or `7 lives`."""
        if self.rules.score_display == "points":
            points = self.points(seat)
            return f"{points} point{'' if points == 1 else 's'}"
        lives = self.lives[seat]
        return f"{lives} li{'fe' if lives == 1 else 'ves'}"

    def expected_dealer(self) -> int | None:
        """Who deals the next hand, if the rules already decide it."""
        return self.next_dealer

    def answerers(self) -> list[int]:
        """Seats that may answer a knock now (one, or all pending under fast folding)."""
        if not self.answer_queue:
            return []
        return list(self.answer_queue) if self.rules.fast_fold else [self.answer_queue[0]]

    def legal_actions(self) -> list[Event]:
        """Every event that may be applied next (cards of unknown hands not listed)."""
        if self.phase in ("over",):
            return []
        if self.phase == "idle":
            if self.cut_round:
                return []
            dealer = self.next_dealer
            seats = [dealer] if dealer is not None else [s for s in range(self.n) if self.alive[s]]
            return [HandStart(s, self._starting_stake(s)) for s in seats]
        if self.deal_queue:
            return []
        actions: list[Event] = []
        for seat in self.answerers():
            actions.append(Stay(seat))
            actions.append(Fold(seat, self.stake - 1))
        for seat in range(self.n):
            if self.can_knock(seat):
                actions.append(Knock(seat, self.stake + 1))
            if self.can_laundry(seat):
                actions.append(Laundry(seat))
            if self.can_armoede(seat):
                actions.append(Armoede(seat))
            if self.window is not None and self.can_check(seat, self.window.seat):
                actions.append(Check(seat, self._genuine(self.window) or 0, self.window.seat))
            for rank in (*self.rules.whistle_must, *self.rules.whistle_may):
                count = self._count_known(seat, rank)
                if count >= 3 and self.can_whistle(seat, rank, count):
                    actions.append(Whistle(seat, rank, count))
        if self.dealer is not None and self.can_redeal(self.dealer):
            actions.append(Redeal(self.dealer))
        mover = self.to_move
        if mover is not None and self._play_blocker(mover) is None:
            actions.extend(CardPlayed(mover, c) for c in self.legal_cards(mover))
        return actions

    @property
    def to_move(self) -> int | None:
        """The seat to play the next card (the leader before the first lead)."""
        if self.phase not in ("preplay", "play"):
            return None
        # Before the first lead this is the leader, or the next player still in if they folded.
        return self._next_player()

    # -- starting a hand ---------------------------------------------------------------------

    def _starting_stake(self, dealer: int) -> int:
        return 2 if self._poor_player(dealer) is not None else 1

    def _poor_player(self, dealer: int) -> int | None:
        if not self.rules.poverty or self.sudden_death:
            return None
        for seat in self.seats_from(dealer):
            if self.alive[seat] and self.lives[seat] == 1:
                return seat
        return None

    def _next_alive(self, seat: int) -> int:
        for s in self.seats_from(seat):
            if self.alive[s]:
                return s
        raise AssertionError("no player left")

    def cut(self, seat: int, card: Card) -> Reveal:
        """Record a card cut to choose the first dealer (highest card deals)."""
        self.verify_cut(seat, card)
        return self._apply_cut(seat, card)

    def can_cut(self, seat: int, card: Card) -> bool:
        """Whether `seat` may cut `card` now."""
        return self._can(self.verify_cut, seat, card)

    def verify_cut(self, seat: int, card: Card) -> None:
        """Raise unless `seat` may cut `card` for the first deal now."""
        self._check_seat(seat)
        if self.hand_no != 0 or self.phase != "idle" or self.dealer is not None:
            raise self._illegal("cards are cut only to choose the first dealer")
        if self.rules.first_dealer != "cut":
            raise self._illegal(f"{self.rules.name} chooses the first dealer at random, not by cut")
        order = self.cut_round or list(range(self.n))
        done = set(self.cut_cards)
        expected = next(s for s in order if s not in done)
        if seat != expected:
            raise self._illegal(f"{self.name(expected)} cuts next, not {self.name(seat)}")
        if card in self.cut_cards.values():
            raise self._illegal(f"{card} was already cut in this round")

    def _apply_cut(self, seat: int, card: Card) -> Reveal:
        if not self.cut_round:
            self.cut_round = list(range(self.n))
        self.cut_cards[seat] = card
        event = Reveal(seat, card)
        self.log.append(event)
        if len(self.cut_cards) == len(self.cut_round):
            best = max(self.power[c] for c in self.cut_cards.values())
            top = [s for s in self.cut_round if self.power[self.cut_cards[s]] == best]
            self.cut_cards = {}
            if len(top) == 1:
                self.cut_round = []
                self.next_dealer = top[0]
            else:
                self.cut_round = top
        return event

    def _auto_cut(self) -> None:
        assert self.rng is not None
        while self.next_dealer is None:
            order = self.cut_round or list(range(self.n))
            cards = self.rng.sample(list(self.deck), len(order))
            for seat, card in zip(order, cards, strict=True):
                self._apply_cut(seat, card)

    def can_start_hand(self, dealer: int | None = None) -> bool:
        """Whether a hand may start now (with `dealer` dealing, if given)."""
        return self._can(self.verify_start_hand, dealer)

    def verify_start_hand(self, dealer: int | None = None) -> None:
        """Raise unless a new hand may start now, dealt by `dealer`."""
        if self.phase == "over":
            raise self._illegal("the game is over")
        if self.phase != "idle":
            raise self._illegal("the current hand is not over")
        if self.cut_round:
            raise self._illegal("the cut for the first dealer is not finished")
        if dealer is None:
            if self.next_dealer is None and self.rng is None:
                raise self._illegal("the first dealer must be named")
            return
        self._check_seat(dealer)
        if not self.alive[dealer]:
            raise self._illegal(f"{self.name(dealer)} is out of the game and cannot deal")
        if self.next_dealer is not None and dealer != self.next_dealer:
            why = {
                "winner": "the winner of the last hand deals",
                "left": "the deal passes to the left",
            }[self.rules.next_dealer]
            if self.hand_no == 0:
                why = "the highest cut card deals"
            raise self._illegal(
                f"{self.name(self.next_dealer)} deals, not {self.name(dealer)} ({why})"
            )

    def start_hand(self, dealer: int | None = None) -> HandStart:
        """Start the next hand; the engine picks the dealer when the rules decide it."""
        if dealer is None and self.next_dealer is None and self.rng is not None:
            if self.rules.first_dealer == "cut":
                self._auto_cut()
            else:
                self.next_dealer = self.rng.choice([s for s in range(self.n) if self.alive[s]])
        self.verify_start_hand(dealer)
        dealer = self.next_dealer if dealer is None else dealer
        assert dealer is not None
        self._reset_hand()
        self.hand_no += 1
        self.dealer = dealer
        self.next_dealer = None
        self.poor = self._poor_player(dealer)
        self.stake = 2 if self.poor is not None else 1
        event = HandStart(dealer, self.stake)
        self.log.append(event)
        self.phase = "deal"
        order = [s for s in self.seats_from(dealer) if self.alive[s]]
        for s in order:
            self.dealt[s] = True
        self.stock = len(self.deck) - self.rules.hand_size * len(order)
        if self.stock < 0:
            raise self._illegal(f"{len(order)} players need more than {len(self.deck)} cards")
        self.leader = self.poor if self.poor is not None else order[0]
        self._start_deal(order * self.rules.hand_size)
        return event

    def _deal_complete(self) -> None:
        if self.phase == "deal":
            self.phase = "preplay"
            if self.poor is not None and not self.poverty_asked:
                # Poverty: as if the poor player had knocked; the others answer for 1.
                self.poverty_asked = True
                self.last_knocker = self.poor
                self.answer_queue = [s for s in self.seats_from(self.poor) if self.in_hand(s)]
                self.answer_queue.remove(self.poor)
        elif self.window is not None and self.window.kind == "laundry":
            pass  # the swapper's new cards are in: the swap may now be checked

    # -- whistling ----------------------------------------------------------------------------

    def _count_known(self, seat: int, rank: Rank) -> int:
        return sum(1 for c in self.hands[seat] if c is not None and c.rank is rank)

    def can_whistle(self, seat: int, rank: Rank, count: int) -> bool:
        """Whether `seat` may announce `count` cards of `rank` now."""
        return self._can(self.verify_whistle, seat, rank, count)

    def verify_whistle(self, seat: int, rank: Rank, count: int) -> None:
        """Raise unless `seat` may whistle (3) or stand up (4) for `rank` now."""
        self._check_seat(seat)
        self._verify_before_lead(f"{self.name(seat)} whistles")
        if rank not in self.rules.whistle_must and rank not in self.rules.whistle_may:
            raise self._illegal(f"these rules have no whistling for {rank.english}s")
        if not self.in_hand(seat):
            raise self._illegal(f"{self.name(seat)} is not in the hand")
        if rank in self.whistled[seat]:
            raise self._illegal(f"{self.name(seat)} already announced {rank.english}s")
        known = self._count_known(seat, rank)
        unknown = self.hands[seat].count(None)
        if count not in (3, 4) or not known <= count <= known + unknown:
            raise self._illegal(
                f"{self.name(seat)} cannot announce {count} {rank.english}s "
                f"(holds {known} known of them)"
            )

    def whistle(self, seat: int, rank: Rank, count: int | None = None) -> Whistle:
        """Announce three (whistle) or four (stand up) cards of `rank`."""
        if count is None:
            count = self._count_known(seat, rank)
        self.verify_whistle(seat, rank, count)
        self.window = None
        self.whistled[seat].add(rank)
        event = Whistle(seat, rank, count)
        self.log.append(event)
        return event

    # -- laundry, armoede and checks ----------------------------------------------------------

    def is_laundry(self, cards: Sequence[Card | None]) -> bool | None:
        """Whether a hand is laundry under these rules; None if not every card is known."""
        if any(c is None for c in cards):
            return None
        faces = sum(1 for c in cards if c is not None and c.rank in _FACES)
        if faces == len(cards):
            return True
        sevens = sum(1 for c in cards if c is not None and c.rank is Rank.SEVEN)
        return self.rules.dirty_laundry and faces == len(cards) - 1 and sevens == 1

    def _genuine(self, window: _Window) -> int | None:
        if window.kind == "laundry":
            verdict = self.is_laundry(window.cards)
        elif any(c is None for c in window.cards):
            verdict = None
        else:
            verdict = all(c is not None and c.rank in _FACES for c in window.cards)
        return None if verdict is None else int(verdict)

    def _verify_before_lead(self, doing: str) -> None:
        if self.phase in ("idle", "over"):
            raise self._illegal(f"{doing}, but no hand is being played")
        if self.deal_queue:
            raise self._illegal(f"{doing}, but the cards are still being dealt")
        if self.phase != "preplay":
            raise self._illegal(f"{doing}, but the first card has been played")

    def _verify_quiet(self, doing: str) -> None:
        if self.answer_queue:
            waiting = ", ".join(self.name(s) for s in self.answerers())
            raise self._illegal(f"{doing}, but the knock is still being answered ({waiting})")
        if self.window is not None and self.window.kind == "armoede":
            raise self._illegal(f"{doing}, but armoede awaits the redeal")

    def can_laundry(self, seat: int) -> bool:
        """Whether `seat` may swap their hand for four cards from the stock now."""
        return self._can(self.verify_laundry, seat)

    def verify_laundry(self, seat: int) -> None:
        """Raise unless `seat` may lay down their hand and take four from the stock."""
        self._check_seat(seat)
        doing = f"{self.name(seat)} swaps (laundry)"
        if not self.rules.laundry:
            raise self._illegal(f"{doing}, but these rules have no laundry")
        self._verify_before_lead(doing)
        self._verify_quiet(doing)
        if not self.in_hand(seat):
            raise self._illegal(f"{doing}, but is not in the hand")
        if self.stock < self.rules.hand_size:
            raise self._illegal(f"{doing}, but the stock has only {self.stock} cards")

    def laundry(self, seat: int) -> Laundry:
        """Lay the hand down and take four new cards from the stock."""
        self.verify_laundry(seat)
        event = Laundry(seat)
        self.log.append(event)
        self.window = _Window("laundry", seat, self.hands[seat])
        self.hands[seat] = []
        self.whistled[seat] = set()
        self.stock -= self.rules.hand_size
        self._start_deal([seat] * self.rules.hand_size)
        return event

    def can_armoede(self, seat: int) -> bool:
        """Whether `seat` may declare armoede now."""
        return self._can(self.verify_armoede, seat)

    def verify_armoede(self, seat: int) -> None:
        """Raise unless `seat` may declare armoede and ask for a redeal."""
        self._check_seat(seat)
        doing = f"{self.name(seat)} declares armoede"
        if not self.rules.armoede:
            raise self._illegal(f"{doing}, but these rules have no armoede")
        self._verify_before_lead(doing)
        self._verify_quiet(doing)
        if not self.in_hand(seat):
            raise self._illegal(f"{doing}, but is not in the hand")
        if seat in self.declared_armoede:
            raise self._illegal(f"{doing}, but already declared armoede in this hand")

    def armoede(self, seat: int) -> Armoede:
        """Declare armoede: the hand is only J/Q/K/A (or a bluff); the dealer deals again."""
        self.verify_armoede(seat)
        event = Armoede(seat)
        self.log.append(event)
        self.declared_armoede.add(seat)
        self.window = _Window("armoede", seat, list(self.hands[seat]))
        return event

    def can_check(self, seat: int, target: int) -> bool:
        """Whether `seat` may check the hand `target` swapped or declared."""
        return self._can(self.verify_check, seat, target)

    def verify_check(self, seat: int, target: int, genuine: int | None = None) -> None:
        """Raise unless `seat` may check `target`'s laundry or armoede now."""
        self._check_seat(seat)
        self._check_seat(target)
        window = self.window
        doing = f"{self.name(seat)} checks {self.name(target)}"
        if self.deal_queue:
            raise self._illegal(f"{doing}, but the cards are still being dealt")
        if window is None or window.seat != target:
            raise self._illegal(f"{doing}, but {self.name(target)} has no swap to check")
        if window.checked:
            raise self._illegal(f"{doing}, but that hand was already checked")
        if seat == target:
            raise self._illegal(f"{doing}: a player cannot check their own hand")
        if not self.in_hand(seat):
            raise self._illegal(f"{doing}, but is not in the hand")
        known = self._genuine(window)
        if known is None and genuine is None:
            raise self._illegal(f"{doing}: the hand is unknown, so say whether it was genuine")
        if known is not None and genuine is not None and genuine != known:
            held = " ".join(str(c) for c in window.cards)
            raise self._illegal(
                f"{doing}: the hand ({held}) {'was' if known else 'was not'} {window.kind}"
            )

    def check(self, seat: int, target: int, genuine: int | None = None) -> Check:
        """Check a swapped or armoede hand: the loser of the check pays the penalty."""
        self.verify_check(seat, target, genuine)
        window = self.window
        assert window is not None
        verdict = self._genuine(window)
        if verdict is None:
            assert genuine is not None
            verdict = int(bool(genuine))
        window.checked = True
        event = Check(seat, verdict, target)
        self.log.append(event)
        for card in window.cards:
            if card is not None:
                self.log.append(Reveal(target, card))
        self._pay(seat if verdict else target, self.rules.check_penalty)
        if window.kind == "laundry":
            if not verdict and self.rules.face_up_penalty:
                for card in self.hands[target]:
                    if card is not None:
                        self.log.append(Reveal(target, card))
            self.window = None
        return event

    def can_redeal(self, dealer: int) -> bool:
        """Whether `dealer` may gather the cards and deal again (after armoede)."""
        return self._can(self.verify_redeal, dealer)

    def verify_redeal(self, dealer: int) -> None:
        """Raise unless the dealer may redeal now."""
        self._check_seat(dealer)
        if self.window is None or self.window.kind != "armoede":
            raise self._illegal("a redeal follows only a declared armoede")
        if dealer != self.dealer:
            raise self._illegal(f"{self.name(self.dealer)} redeals, not {self.name(dealer)}")

    def redeal(self, dealer: int) -> Redeal:
        """All hands go back and the same dealer deals again."""
        self.verify_redeal(dealer)
        event = Redeal(dealer)
        self.log.append(event)
        # Stakes, knocks, folds, costs and poverty were decided before the redeal and stand.
        answers, knocker, stake = self.answer_queue, self.last_knocker, self.stake
        folded, count, lives_before = self.folded, self.knock_count, self.lives_before
        paid, poor, asked = self.paid_this_hand, self.poor, self.poverty_asked
        declared = self.declared_armoede
        self._reset_hand()
        self.declared_armoede = declared
        self.stake, self.folded, self.knock_count = stake, folded, count
        self.answer_queue, self.last_knocker = answers, knocker
        self.lives_before, self.paid_this_hand = lives_before, paid
        self.poor, self.poverty_asked = poor, asked
        order = [s for s in self.seats_from(dealer) if self.alive[s]]
        for s in order:
            self.dealt[s] = True
        self.stock = len(self.deck) - self.rules.hand_size * len(order)
        self.leader = self.poor if self.poor is not None else order[0]
        self.phase = "deal"
        self._start_deal(order * self.rules.hand_size)
        return event

    # -- knocking -----------------------------------------------------------------------------

    def can_knock(self, seat: int) -> bool:
        """Whether `seat` may knock now."""
        return self._can(self.verify_knock, seat)

    def verify_knock(self, seat: int) -> None:
        """Raise unless `seat` may knock (toep) now; the message names the rule."""
        self._check_seat(seat)
        who = self.name(seat)
        if self.phase not in ("preplay", "play") or self.deal_queue:
            raise self._illegal(f"{who} cannot knock: no hand is being played")
        if not self.in_hand(seat):
            raise self._illegal(f"{who} cannot knock: not in the hand")
        if self.answer_queue and (not self.rules.counter_knock or seat not in self.answerers()):
            raise self._illegal(f"{who} cannot knock: the last knock is still being answered")
        if self.window is not None and self.window.kind == "armoede":
            raise self._illegal(f"{who} cannot knock: armoede awaits the redeal")
        new = self.stake + 1
        if new > MAX_STAKE:
            raise self._illegal(f"{who} cannot knock: the stake cannot go above {MAX_STAKE}")
        cap = self.rules.stake_cap
        if cap is not None and new > cap:
            if cap == 1:
                raise self._illegal(f"{who} cannot knock: these rules have no knocking")
            raise self._illegal(f"{who} cannot knock: the stake is capped at {cap}")
        if seat == self.last_knocker and not self.rules.knock_twice:
            if seat == self.poor:
                raise self._illegal(f"{who} cannot knock: the poor player may not knock")
            raise self._illegal(f"{who} cannot knock twice in a row")
        if seat == self.poor:
            raise self._illegal(f"{who} cannot knock: the poor player may not knock")
        limit = self.rules.knock_limit
        if limit == "new_stake" and self.lives[seat] < new:
            raise self._illegal(
                f"{who} cannot knock: losing {new} would pass the limit of "
                f"{self.rules.lives} ({who} has {self.score_text(seat)})"
            )
        if limit == "stake" and self.lives[seat] < self.stake:
            raise self._illegal(
                f"{who} cannot knock: has {self.score_text(seat)}, fewer than the stake "
                f"of {self.stake}"
            )
        if self.rules.first_speaker_waits and self.phase == "preplay" and seat == self.leader:
            raise self._illegal(f"{who} speaks first and may not knock before a card is played")

    def knock(self, seat: int) -> Knock:
        """Knock: raise the stake by one; the others answer clockwise from the knocker's left."""
        self.verify_knock(seat)
        if self.window is not None:
            self.window = None
        self.stake += 1
        self.knock_count += 1
        self.last_knocker = seat
        self.answer_queue = [s for s in self.seats_from(seat) if self.in_hand(s) and s != seat]
        event = Knock(seat, self.stake)
        self.log.append(event)
        return event

    def _verify_answer(self, seat: int, doing: str) -> None:
        self._check_seat(seat)
        if not self.answer_queue:
            raise self._illegal(f"{self.name(seat)} {doing}, but there is no knock to answer")
        if seat not in self.answerers():
            if seat == self.last_knocker:
                raise self._illegal(f"{self.name(seat)} cannot {doing[:-1]} on their own knock")
            if seat not in self.answer_queue:
                raise self._illegal(f"{self.name(seat)} {doing}, but has no knock to answer")
            raise self._illegal(
                f"{self.name(seat)} {doing}, but {self.name(self.answer_queue[0])} answers first"
            )

    def can_stay(self, seat: int) -> bool:
        """Whether `seat` may answer the knock by staying in."""
        return self._can(self.verify_stay, seat)

    def verify_stay(self, seat: int) -> None:
        """Raise unless `seat` may stay in now."""
        self._verify_answer(seat, "stays")

    def stay(self, seat: int) -> Stay:
        """Answer the knock by staying in at the new stake."""
        self.verify_stay(seat)
        self.answer_queue.remove(seat)
        event = Stay(seat)
        self.log.append(event)
        return event

    def can_fold(self, seat: int) -> bool:
        """Whether `seat` may answer the knock by folding."""
        return self._can(self.verify_fold, seat)

    def verify_fold(self, seat: int) -> None:
        """Raise unless `seat` may fold now."""
        self._verify_answer(seat, "folds")

    def fold(self, seat: int) -> Fold:
        """Fold: pay the stake from before the knock and take no further part."""
        self.verify_fold(seat)
        self.answer_queue.remove(seat)
        paid = self.stake - 1
        event = Fold(seat, paid)
        self.log.append(event)
        self.folded[seat] = True
        self._pay(seat, paid)
        remaining = self.seats_in_hand()
        if len(remaining) == 1:
            self._end_hand(remaining[0], payers=[])
        elif self.phase == "play" and self.trick_plays and self._next_player() is None:
            self._finish_trick()
        return event

    # -- playing ------------------------------------------------------------------------------

    def _play_blocker(self, seat: int) -> str | None:
        """Why `seat` may not play a card now, or None."""
        if (
            self.phase == "play"
            and not self.answer_queue
            and self.window is None
            and seat == self._next_player()
        ):
            return None  # the common case, decided quickly
        if self.phase not in ("preplay", "play") or self.deal_queue:
            return "no card can be played now"
        if self.answer_queue:
            waiting = ", ".join(self.name(s) for s in self.answerers())
            return f"the knock must be answered first ({waiting})"
        if self.window is not None and self.window.kind == "armoede":
            return "armoede awaits the redeal"
        if seat != self.to_move:
            return f"it is {self.name(self.to_move)}'s turn, not {self.name(seat)}'s"
        if self.phase == "preplay":
            for s in self.seats_in_hand():
                hand = self.hands[s]
                for rank in self.rules.whistle_must:
                    if rank not in self.whistled[s] and self._count_known(s, rank) >= 3:
                        n = self._count_known(s, rank)
                        return f"{self.name(s)} must first announce {n} {rank.english}s"
                if (
                    self.rules.laundry_mandatory
                    and self.stock >= self.rules.hand_size
                    and self.is_laundry(hand)
                ):
                    return f"{self.name(s)} holds laundry and must swap it first"
        return None

    def can_play(self, seat: int, card: Card) -> bool:
        """Whether `seat` may play `card` now."""
        return self._can(self.verify_play, seat, card)

    def verify_play(self, seat: int, card: Card) -> None:
        """Raise unless `seat` may play `card` now; the message names the rule."""
        self._check_seat(seat)
        blocker = self._play_blocker(seat)
        if blocker is not None:
            raise self._illegal(f"{self.name(seat)} cannot play {card}: {blocker}")
        self._verify_card_play(seat, card)

    def play(self, seat: int, card: Card) -> CardPlayed:
        """Play a card to the current trick."""
        hand = self.hands[seat] if 0 <= seat < self.n else ()
        if (
            self.phase == "play"
            and not self.answer_queue
            and self.window is None
            and card in hand
            and seat == self._next_player()
        ):
            # The common case: a known card on the player's turn; only following suit is left.
            plays = self.trick_plays
            if plays and card.suit is not plays[0][1].suit:
                self._verify_card_play(seat, card)
            return self._apply_card_play(seat, card)
        self.verify_play(seat, card)
        if self.phase == "preplay":
            self.phase = "play"
            self.trick_no = 1
        self.window = None
        return self._apply_card_play(seat, card)

    def _trick_complete(self, winner: int) -> None:
        if self.trick_no == self.rules.hand_size:
            self._end_hand(winner, payers=None)
        else:
            self.trick_no += 1

    # -- results ------------------------------------------------------------------------------

    def _pay(self, seat: int, amount: int) -> None:
        if amount <= 0:
            return
        self.lives[seat] -= amount
        self.paid_this_hand[seat] += amount
        self.log.append(Pay(seat, amount))

    def _end_hand(self, winner: int, payers: list[int] | None) -> None:
        """Finish the hand won by `winner`; `payers` None means: score the last trick."""
        self.answer_queue = []
        if payers is None:
            if self.rules.last_trick == "wins":
                payers = [s for s in self.seats_from(winner) if self.in_hand(s) and s != winner]
            else:
                payers = [winner]
            self.hand_winners = tuple(s for s in self.seats_in_hand() if self.takes_hand(s, winner))
        else:  # everyone else folded
            self.hand_winners = (winner,)
        for seat in payers:
            self._pay(seat, self.stake)
        self.log.extend(HandWon(seat) for seat in self.hand_winners)
        self.log.append(HandEnd(winner, self.stake))
        self.phase = "idle"
        self.trick_no = 0
        self._settle(winner)

    def _settle(self, hand_winner: int) -> None:
        """Eliminations, the end of the game, and the next dealer."""
        alive = [s for s in range(self.n) if self.alive[s]]
        if self.sudden_death:
            out = [s for s in alive if self.paid_this_hand[s] > 0]
        else:
            out = [s for s in alive if self.lives[s] <= 0]
        if out and self.rules.game_end == "first_out_loses":
            # The first to run out loses; several at once: the lowest score, then the last payer.
            loser = out[0]
            if len(out) > 1:
                last_pay = {e.seat: i for i, e in enumerate(self.log) if isinstance(e, Pay)}
                loser = min(out, key=lambda s: (self.lives[s], -last_pay.get(s, -1)))
            self._end_game(None, loser)
            return
        remaining = [s for s in alive if s not in out]
        if not remaining:
            best = max(self.lives_before[s] for s in out)
            tied = [s for s in out if self.lives_before[s] == best]
            out = [s for s in out if s not in tied]
            remaining = tied
            if len(tied) > 1:
                self.sudden_death = True
        for seat in out:
            self.alive[seat] = False
            self.log.append(Eliminated(seat))
        if len(remaining) == 1:
            self._end_game(remaining[0], None)
            return
        if self.rules.next_dealer == "winner":
            nxt = hand_winner if self.alive[hand_winner] else self._next_alive(hand_winner)
        else:
            assert self.dealer is not None
            nxt = self._next_alive(self.dealer)
        self.next_dealer = nxt

    def _end_game(self, winner: int | None, loser: int | None) -> None:
        self.winner, self.loser = winner, loser
        self.log.append(GameEnd(winner, loser))
        self.phase = "over"
        self.next_dealer = None

    # -- replay -------------------------------------------------------------------------------

    def apply(self, event: Event) -> Event:
        """Apply an event that a player or the dealer causes; return the recorded event."""
        match event:
            case HandStart(seat=seat):
                return self.start_hand(seat)
            case Deal(seat=seat, card=card):
                return self.deal(seat, card)
            case CardPlayed(seat=seat, card=card):
                return self.play(seat, card)
            case Knock(seat=seat):
                return self.knock(seat)
            case Stay(seat=seat):
                return self.stay(seat)
            case Fold(seat=seat):
                return self.fold(seat)
            case Laundry(seat=seat):
                return self.laundry(seat)
            case Armoede(seat=seat):
                return self.armoede(seat)
            case Check(seat=seat, target=target, genuine=genuine):
                return self.check(seat, target, genuine)
            case Redeal(seat=seat):
                return self.redeal(seat)
            case Whistle(seat=seat, rank=rank, count=count):
                return self.whistle(seat, rank, count)
            case Reveal(seat=seat, card=card) if self.hand_no == 0 and card is not None:
                return self.cut(seat, card)
        raise self._illegal(
            f"{event.kind} by {self.name(getattr(event, 'seat', None))} "
            "is not something a player does here"
        )

    def play_out(self, policy: Callable[[Toepen, int], Card]) -> tuple[int, ...]:
        """Play the hand to its end, everyone still in staying and playing `policy`'s card.

        For what-if playouts on a `fork()`: a knock still being answered counts as stayed,
        an open swap as unchecked. Returns the hand's winners.
        """
        self.answer_queue = []
        self.window = None
        if self.phase == "preplay":
            self.phase = "play"
            self.trick_no = 1
        while self.phase == "play":
            mover = self.to_move
            assert mover is not None
            self.play(mover, policy(self, mover))
        return self.hand_winners

    def skip_hand(self, dealer: int | None = None) -> None:
        """Pass over a hand that could not be refereed (a lenient reading keeps the rest).

        Who deals next depended on how the hand went, so the next hand must name its dealer.
        """
        self.next_dealer = None

    def fork(self) -> Toepen:
        """A copy to play on without touching this game (its log starts empty).

        For what-if playouts: the copy shares nothing mutable with the original.
        """
        other = copy.copy(self)
        other._fork_core()
        other.lives, other.alive = list(self.lives), list(self.alive)
        other.folded, other.dealt = list(self.folded), list(self.dealt)
        other.answer_queue = list(self.answer_queue)
        other.whistled = [set(w) for w in self.whistled]
        other.lives_before, other.paid_this_hand = (
            list(self.lives_before),
            list(self.paid_this_hand),
        )
        other.declared_armoede = set(self.declared_armoede)
        other.cut_round, other.cut_cards = list(self.cut_round), dict(self.cut_cards)
        other.window = None if self.window is None else copy.copy(self.window)
        return other

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
            None
            if self.window is None
            else (self.window.kind, self.window.seat, self.window.checked),
        )
