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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card
from kroeg.recorder.events import (
    Armoede,
    CardPlayed,
    Check,
    Deal,
    Event,
    Fold,
    HandSkipped,
    HandStart,
    Knock,
    Laundry,
    Redeal,
    Reveal,
    Stay,
    Whistle,
)
from kroeg.recorder.rules import MAX_STAKE
from kroeg.recorder.toepen_swaps import ToepenSwaps
from kroeg.recorder.tricks import shared_event, shared_seat_event, suit_number

__all__ = ["MAX_STAKE", "Toepen"]

# MAX_STAKE, the highest stake any rule set allows (counter-knocks without a limit must
# stop somewhere, and the log's `amount` column is a 16-bit number), is stated with the
# other bounds of the rule parameters in `recorder/rules.py`.


class Toepen(ToepenSwaps):
    """A game of Toepen under one `Ruleset`, from the first deal to the game's end.

    One chain of classes (single inheritance, which the compiled build needs):
    `ToepenState` (the state and its questions), `ToepenSettlement` (the end of a hand),
    `ToepenSwaps` (whistles, swaps and checks), and this class. Here: what may happen
    next, the deal, knocks and answers, card play, replay and forks."""

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
                for count in (3, 4):  # whistle, stand up
                    if self.can_whistle(seat, rank, count):
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
        if card not in self.power:  # found by the fuzz test: a cut '2h' under 32 cards
            raise self._illegal(f"{card} is not in this game's deck (cut for the first deal)")
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
                self.next_dealer = trickcore.choice(
                    [s for s in range(self.n) if self.alive[s]], self.rng
                )
        self.verify_start_hand(dealer)
        dealer = self.next_dealer if dealer is None else dealer
        assert dealer is not None
        self._reset_hand()
        self.hand_no += 1
        self.dealer = dealer
        self.next_dealer = None
        self.poor = self._poor_player(dealer)
        self.stake = 2 if self.poor is not None else 1
        event = shared_event(HandStart, dealer, self.stake)
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
        elif self.drawing_from_stock is not None:
            # A swapper's new cards are in (the swap may now be checked, unless a check
            # before the swap came first): they leave the stock's known top.
            drawer, self.drawing_from_stock = self.drawing_from_stock, None
            if self.stock_top:
                self._took_from_stock(self.hands[drawer])

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
        if self.rules.knock_on_turn and not self.answer_queue and seat != self.to_move:
            raise self._illegal(
                f"{who} cannot knock: a knock comes on one's turn to play, "
                f"and it is {self.name(self.to_move)}'s turn"
            )
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
        event = shared_event(Knock, seat, self.stake)
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
        event = shared_seat_event(Stay, seat)
        self.log.append(event)
        return event

    def can_fold(self, seat: int) -> bool:
        """Whether `seat` may answer the knock by folding."""
        return self._can(self.verify_fold, seat)

    def verify_fold(self, seat: int) -> None:
        """Raise unless `seat` may fold now."""
        self._verify_answer(seat, "folds")

    def fold_price(self) -> int:
        """What a fold pays now: the stake from before the knock (a side that plays on
        and loses pays the stake itself)."""
        return self.stake - 1

    def fold(self, seat: int) -> Fold:
        """Fold: pay the stake from before the knock and take no further part."""
        self.verify_fold(seat)
        self.answer_queue.remove(seat)
        paid = self.fold_price()
        event = shared_event(Fold, seat, paid)
        self.log.append(event)
        self.folded[seat] = True
        if self.rules.folded_card_leaves and self.trick_plays:
            # The card goes with its player; the first card left gives the suit to follow.
            self.trick_plays = [(s, c) for s, c in self.trick_plays if s != seat]
        self._pay(seat, paid)
        if self._end_if_one_side_left():
            pass
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
            who = self.name(seat)
            if not self.alive[seat]:
                return f"{who} is out of the game"
            if self.dealt[seat] and self.folded[seat]:
                return f"{who} folded in this hand"
            return f"it is {self.name(self.to_move)}'s turn, not {who}'s"
        if self.phase == "preplay":
            for s in range(self.n):
                owed = self.owed_whistle(s)
                if owed is not None:
                    rank, n = owed
                    return f"{self.name(s)} must first announce {n} {rank.english}s"
                if self.must_swap(s):
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

    # -- replay -------------------------------------------------------------------------------

    def apply(self, event: Event) -> Event:
        """Apply an event that a player or the dealer causes; return the recorded event."""
        match event:
            case HandStart(seat=seat):
                return self.start_hand(seat)
            case HandSkipped(seat=seat):
                return self.skip_hand(seat)
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

    def play_out(self, hands: Mapping[int, Sequence[Card]] | None = None) -> tuple[int, ...]:
        """The hand's winners if everyone still in played on from here to the last trick.

        Each card is the reference policy's (`bots.reference_card`); nobody knocks, folds or
        checks any more (a knock still being answered counts as stayed). `hands` supposes
        other cards for some seats (what-if play); every seat still in must hold known cards.
        The game itself is not changed. The same trick rules as `play` (`recorder.trickcore`:
        follow suit, who plays next, who wins a trick), without a log: analyses call this
        tens of thousands of times, and a test holds it to playing the same cards through
        `play`.
        """
        return self.play_outs([hands or {}])[0]

    def play_outs(self, supposed: Iterable[Mapping[int, Sequence[Card]]]) -> list[tuple[int, ...]]:
        """`play_out` from this position once for each of the `supposed` hands (each a
        mapping of seat to cards; seats not in it keep theirs)."""
        live = self.seats_in_hand()
        index = self.index
        known: list[list[int]] = [[] for _ in range(self.n)]
        unknown: set[int] = set()
        for s in live:
            if None in self.hands[s]:
                unknown.add(s)
            else:
                known[s] = [index[c] for c in self.hands[s] if c is not None]
        deals: list[list[list[int]]] = []
        for hands in supposed:
            if unknown and unknown - hands.keys():
                seat = min(unknown - hands.keys())
                raise self._illegal(f"{self.name(seat)}'s cards are not known: nothing to play out")
            deal = list(known)
            for s in live:
                if s in hands:
                    deal[s] = [index[c] for c in hands[s]]
            deals.append(deal)
        # Who wins the hand, for each possible taker of the last trick.
        outcome = {last: tuple(s for s in live if self.takes_hand(s, last)) for last in live}
        return [outcome[taker] for taker in self.last_trick_takers(deals)]

    def last_trick_takers(self, deals: Sequence[Sequence[Sequence[int]]]) -> list[int]:
        """For each of `deals` (every seat's cards as the core's numbers, `index`, in the
        order held), who takes the last trick when everyone still in plays on from here with
        the reference policy: `trickcore.play_outs`, in C where it was built."""
        return trickcore.play_outs(
            self.n, self.live_mask(), self.ranks, suit_number(self.trump),
            self.rules.last_trick == "wins", self.rules.hand_size, self.trick_no, self.leader,
            [s for s, _ in self.trick_plays], [self.index[c] for _, c in self.trick_plays],
            deals,
        )  # fmt: skip

    def sampled_last_trick_takers(
        self,
        fixed: Sequence[Sequence[int]],
        hidden: Sequence[tuple[int, int, int]],
        pool: Sequence[int],
        samples: int,
        draws: Any,
    ) -> list[int]:
        """`last_trick_takers` of `samples` supposed deals, drawn with `draws`
        (`trickcore.draws`): each seat's `fixed` cards and, for each of `hidden` (seat,
        cards to deal, void suits as a mask), that many of `pool` (`trickcore.python_supposed`:
        every deal keeping the voids equally likely). In C where it was built."""
        return trickcore.sampled_play_outs(
            self.n, self.live_mask(), self.ranks, suit_number(self.trump),
            self.rules.last_trick == "wins", self.rules.hand_size, self.trick_no, self.leader,
            [s for s, _ in self.trick_plays], [self.index[c] for _, c in self.trick_plays],
            fixed, hidden, pool, samples, draws,
        )  # fmt: skip

    def skip_hand(self, dealer: int | None = None) -> HandSkipped:
        """Pass over a hand that could not be refereed (a lenient reading keeps the rest),
        and record it (`hand_skipped`), so that the stored game replays as it was read.

        The hand still counts, so that later messages and the stored hand numbers name
        hands as they were typed. Where the deal passes left, the next dealer follows from
        `dealer` (who dealt the skipped hand, if known); where the winner deals, nobody can
        tell (None).
        """
        event = self._log_skipped(dealer, self.phase == "idle")
        if self.rules.next_dealer == "left" and dealer is not None and self.alive[dealer]:
            self.next_dealer = self._next_alive(dealer)
        else:
            self.next_dealer = None
        return event
