"""The Troefcall engine: the referee of the Surinamese partnership game.

Four players, seats 0 and 2 against 1 and 3, a 52-card deck ranked A high.
Dealing, following suit, trumps and trick winners come from the shared
trick-taking core (`recorder.tricks`); this module adds what Troefcall has of
its own: the first caller found by dealing cards face up until a Jack, the
caller's five cards and trump call before the rest of the deal, and the
scoring (majority, kap partij, baunie) with its announcements.

Every action comes as a trio like the Toepen engine's: `can_kap(seat)`,
`verify_kap(seat)` (raises `IllegalActionError` naming the rule) and
`kap(seat)`. Tricks won, scores, the end of a hand and of the game are
recorded by the engine itself.

Phases: `idle` (between hands), `deal`, `call` (the caller names trump),
`play`, `announce` (a side has just won the first seven tricks in a row:
kap, baunie or play on), `after_kap` (the partner announced kap: either side
may stop), `over`. docs/RULES.md gives every choice made where the rule
texts are silent.
"""

from __future__ import annotations

from typing import Literal, Self

from kroeg.recorder.cards import FULL_DECK, FULL_ORDER, Card, Rank, Suit
from kroeg.recorder.events import (
    Baunie,
    CardPlayed,
    Deal,
    Event,
    GameEnd,
    HandEnd,
    HandSkipped,
    HandStart,
    HandWon,
    Kap,
    Reveal,
    Score,
    ScoreReason,
    Stop,
    TrumpCalled,
)
from kroeg.recorder.rules import partners_opposite
from kroeg.recorder.text import quoted
from kroeg.recorder.tricks import TrickGame

__all__ = ["CALLER_PACKET", "TEAMS", "Troefcall"]

Phase = Literal["idle", "deal", "call", "play", "announce", "after_kap", "over"]

#: The side of each seat: partners sit opposite.
TEAMS = partners_opposite(4)
#: The caller's first packet (dealt before trump is called), then each later packet.
CALLER_PACKET, _PACKET = 5, 4


class Troefcall(TrickGame):
    """A game of Troefcall under one `Ruleset`, from the first caller to the game's end."""

    deck = FULL_DECK
    rank_order = FULL_ORDER
    game_name = "Troefcall"

    def _begin(self) -> None:
        self.teams = TEAMS
        self.scores: list[int] = [0, 0]
        self.phase: Phase = "idle"
        self.dealer: int | None = None
        self.caller: int | None = None
        self.next_dealer: int | None = None
        #: Cards dealt face up to find the first caller: (seat, card), in order.
        self.jack_deal: list[tuple[int, Card]] = []
        self.winner: int | None = None
        self.loser: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._reset_hand_knowledge()
        self.trump = None
        #: The side that has won every trick so far (None once both have won one).
        self.sweeping: int | None = None
        self.last_taker: list[int | None] = [None, None]
        self.kapped_by: int | None = None  # a partner's kap: 2 points, the hand may go on
        self.baunie_by: int | None = None
        self.scored_by: int | None = None  # the seat the hand's score went to
        self._rest_of_deal: list[int] = []

    # -- questions ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"

    def between_hands(self) -> bool:
        """Whether the last hand is over and the next has not started."""
        return self.phase in ("idle", "over")

    @property
    def side_tricks(self) -> tuple[int, int]:
        """The tricks each side has taken in this hand (side 0: seats 0 and 2)."""
        won = self.tricks_won
        return won[0] + won[2], won[1] + won[3]

    @staticmethod
    def partner(seat: int) -> int:
        """The seat opposite."""
        return (seat + 2) % 4

    def score_text(self, seat: int, upto: int | None = None) -> str:
        """The score of a seat's side: `7 points`; with `upto`, as the log stood after its
        first `upto` events, read from its score rows (the facts: a kap scores before the
        log's next row says so)."""
        side = TEAMS[seat]
        points = self.scores[side]
        if upto is not None:
            points = sum(e.amount for e in self.log[:upto]
                         if isinstance(e, Score) and TEAMS[e.seat] == side)  # fmt: skip
        return f"{points} point{'' if points == 1 else 's'}"

    def expected_dealer(self) -> int | None:
        """Who deals the next hand, if already decided (the caller sits to the dealer's left)."""
        return self.next_dealer

    @property
    def to_move(self) -> int | None:
        """The seat to play the next card (in `announce`/`after_kap`: the next leader)."""
        if self.phase in ("announce", "after_kap"):
            return self.leader
        if self.phase != "play":
            return None
        return self._next_player()

    def legal_actions(self) -> list[Event]:
        """Every event that may be applied next (cards of unknown hands not listed)."""
        actions: list[Event] = []
        if self.phase == "idle":
            dealers = list(range(4)) if self.next_dealer is None else [self.next_dealer]
            return [HandStart(d, None, (d + 1) % 4) for d in dealers]
        if self.phase == "call":
            assert self.caller is not None
            return [TrumpCalled(self.caller, suit) for suit in Suit]
        if self.phase in ("announce", "after_kap"):
            for seat in range(4):
                if self.can_kap(seat):
                    actions.append(Kap(seat))
                if self.can_baunie(seat):
                    actions.append(Baunie(seat))
                if self.can_stop(seat):
                    actions.append(Stop(seat))
        mover = self.to_move
        if mover is not None and self._lead_blocker() is None:
            actions.extend(CardPlayed(mover, c) for c in self.legal_cards(mover))
        return actions

    def legal_cards(self, seat: int) -> list[Card]:
        """Known cards in `seat`'s hand that may be played now."""
        if self.phase not in ("play", "announce", "after_kap") or seat != self.to_move:
            return []
        return super().legal_cards(seat)

    # -- the first caller ---------------------------------------------------------------------

    def can_draw_for_caller(self, seat: int, card: Card) -> bool:
        """Whether `card` may be dealt face up to `seat` now, to find the first caller."""
        return self._can(self.verify_draw_for_caller, seat, card)

    def verify_draw_for_caller(self, seat: int, card: Card) -> None:
        """Raise unless `card` may be dealt face up to `seat` to find the first caller."""
        self._check_seat(seat)
        if self.hand_no != 0 or self.phase != "idle" or self.next_dealer is not None:
            raise self._illegal("cards are dealt face up only to find the first trump caller")
        if self.rules.first_dealer != "jack":
            raise self._illegal(f"{self.rules.name} does not find its first caller by a Jack")
        if card not in self.power:
            raise self._illegal(f"{card} is not in this game's deck")
        if self.jack_deal:
            expected = (self.jack_deal[-1][0] + 1) % 4
            if seat != expected:
                raise self._illegal(
                    f"the next face-up card goes to {self.name(expected)}, not {self.name(seat)}"
                )
            if any(c is card for _, c in self.jack_deal):
                raise self._illegal(f"{card} was already dealt face up")

    def draw_for_caller(self, seat: int, card: Card) -> Reveal:
        """Deal one card face up to `seat`; the first Jack makes its receiver the first caller."""
        self.verify_draw_for_caller(seat, card)
        self.jack_deal.append((seat, card))
        event = Reveal(seat, card)
        self.log.append(event)
        if card.rank is Rank.JACK:
            self.next_dealer = (seat - 1) % 4  # the dealer sits to the caller's right
        return event

    def _auto_jack_deal(self) -> None:
        assert self.rng is not None
        cards = list(self.deck)
        self.rng.shuffle(cards)
        seat = 0
        while self.next_dealer is None:
            self.draw_for_caller(seat, cards.pop())
            seat = (seat + 1) % 4

    # -- a hand -------------------------------------------------------------------------------

    def can_start_hand(self, dealer: int | None = None) -> bool:
        """Whether a hand may start now (with `dealer` dealing, if given)."""
        return self._can(self.verify_start_hand, dealer)

    def verify_start_hand(self, dealer: int | None = None, caller: int | None = None) -> None:
        """Raise unless a new hand may start now, dealt by `dealer` (caller to their left)."""
        if self.phase == "over":
            raise self._illegal("the game is over")
        if self.phase != "idle":
            raise self._illegal("the current hand is not over")
        if dealer is None:
            if self.next_dealer is None:
                if self.rng is None:
                    raise self._illegal("the first dealer must be named (or the Jack deal given)")
                return  # a seeded game finds its first caller itself
            dealer = self.next_dealer
        self._check_seat(dealer)
        assert dealer is not None
        if self.next_dealer is not None and dealer != self.next_dealer:
            why = (
                "the dealer sits to the right of the first Jack's receiver"
                if self.hand_no == 0
                else "the deal moves one seat clockwise after every hand"
            )
            raise self._illegal(
                f"{self.name(self.next_dealer)} deals, not {self.name(dealer)} ({why})"
            )
        if caller is not None and caller != (dealer + 1) % 4:
            raise self._illegal(
                f"{self.name((dealer + 1) % 4)} calls trump, not {self.name(caller)} "
                "(the caller sits to the dealer's left)"
            )

    def start_hand(self, dealer: int | None = None, caller: int | None = None) -> HandStart:
        """Start the next hand: the caller gets 5 cards (all 13 under free trump call)."""
        if dealer is None and self.next_dealer is None and self.rng is not None:
            if self.rules.first_dealer == "jack":
                self._auto_jack_deal()
            else:
                self.next_dealer = self.rng.randrange(4)
        self.verify_start_hand(dealer, caller)
        dealer = self.next_dealer if dealer is None else dealer
        assert dealer is not None
        self._reset_hand()
        self.hand_no += 1
        self.dealer = dealer
        self.caller = (dealer + 1) % 4
        self.next_dealer = None
        event = HandStart(dealer, None, self.caller)
        self.log.append(event)
        self.phase = "deal"
        first = [self.caller] * CALLER_PACKET
        rest = [s for s in self.seats_from(self.caller)[:-1] for _ in range(CALLER_PACKET)]
        rest += [s for _ in range(2) for s in self.seats_from(dealer) for _ in range(_PACKET)]
        if self.rules.free_trump_call:
            self._start_deal(first + rest)
        else:
            self._rest_of_deal = rest
            self._start_deal(first)
        return event

    def _deal_complete(self) -> None:
        if self.trump is None:
            self.phase = "call"
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        assert self.caller is not None
        self.phase = "play"
        self.trick_no = 1
        self.leader = self.caller

    def can_call_trump(self, seat: int, suit: Suit) -> bool:
        """Whether `seat` may name `suit` as trump now."""
        return self._can(self.verify_call_trump, seat, suit)

    def verify_call_trump(self, seat: int, suit: Suit) -> None:
        """Raise unless `seat` may name trump now."""
        self._check_seat(seat)
        if self.phase != "call":
            when = "after all 13 cards" if self.rules.free_trump_call else "after the first 5 cards"
            raise self._illegal(f"trump is called {when}, by the caller")
        if seat != self.caller:
            raise self._illegal(f"{self.name(self.caller)} calls trump, not {self.name(seat)}")
        if not isinstance(suit, Suit):
            raise self._illegal(f"{quoted(suit)} is not a suit")

    def call_trump(self, seat: int, suit: Suit) -> TrumpCalled:
        """The caller names trump; the rest of the deal follows."""
        self.verify_call_trump(seat, suit)
        self.trump = suit
        event = TrumpCalled(seat, suit)
        self.log.append(event)
        rest, self._rest_of_deal = self._rest_of_deal, []
        if rest:
            self.phase = "deal"
            self._start_deal(rest)
        else:
            self._begin_play()
        return event

    # -- playing ------------------------------------------------------------------------------

    def _lead_blocker(self) -> str | None:
        """Why the next card may not be played now (None: it may)."""
        if self.phase in ("play", "after_kap"):
            return None
        if self.phase == "announce":
            if self.rules.silent_kap:
                return "the first seven tricks scored kap: announce baunie to play on, or stop"
            if not self.rules.baunie:
                return "without baunie the hand ends at seven in a row: announce kap, or stop"
            return None
        if self.phase == "call":
            return "trump has not been called"
        if self.phase == "deal":
            return "the cards are still being dealt"
        return "no hand is being played"

    def can_play(self, seat: int, card: Card) -> bool:
        """Whether `seat` may play `card` now."""
        return self._can(self.verify_play, seat, card)

    def verify_play(self, seat: int, card: Card) -> None:
        """Raise unless `seat` may play `card` now; the message names the rule."""
        self._check_seat(seat)
        blocker = self._lead_blocker()
        if blocker is not None:
            raise self._illegal(f"{self.name(seat)} cannot play {card}: {blocker}")
        mover = self.to_move
        if seat != mover:
            raise self._illegal(f"{self.name(mover)} plays next, not {self.name(seat)}")
        self._verify_card_play(seat, card)

    def play(self, seat: int, card: Card) -> CardPlayed:
        """Play a card to the current trick (after a sweep of seven: playing on)."""
        if self.phase == "play" and card in self.hands[seat] and seat == self._next_player():
            plays = self.trick_plays
            if plays and card.suit is not plays[0][1].suit:
                self._verify_card_play(seat, card)
            return self._apply_card_play(seat, card)
        self.verify_play(seat, card)
        self.phase = "play"
        return self._apply_card_play(seat, card)

    def _trick_complete(self, winner: int) -> None:
        side = TEAMS[winner]
        self.last_taker[side] = winner
        if self.trick_no == 1:
            self.sweeping = side
        elif self.sweeping != side:
            self.sweeping = None
        if self.trick_no == len(self.deck) // 4:
            self._end_hand()
            return
        self.trick_no += 1
        if self.trick_no == self.rules.kap_tricks + 1 and self.sweeping is not None:
            if self.rules.silent_kap and not self.rules.baunie:
                self._score(winner, self.rules.kap_points, ScoreReason.SILENT_KAP)
                self._end_hand(scored=True)
            else:
                self.phase = "announce"

    # -- announcements ------------------------------------------------------------------------

    def can_kap(self, seat: int) -> bool:
        """Whether `seat` may announce kap now."""
        return self._can(self.verify_kap, seat)

    def verify_kap(self, seat: int) -> None:
        """Raise unless `seat` may announce kap partij now."""
        self._check_seat(seat)
        self._verify_announcing_side(seat, "kap")
        if self.rules.silent_kap:
            raise self._illegal("kap is silent here: the first seven tricks already scored 5")

    def kap(self, seat: int) -> Kap:
        """Kap partij: 5 by the winner of the 7th trick (the hand ends), 2 by the partner."""
        self.verify_kap(seat)
        event = Kap(seat)
        self.log.append(event)
        if seat == self.leader:
            self._score(seat, self.rules.kap_points, ScoreReason.KAP)
            self._end_hand(scored=True)
        else:
            self.kapped_by = seat
            if self.rules.baunie:
                self.phase = "after_kap"  # either side may stop; else the hand plays on
            else:
                self._end_hand()
        return event

    def can_baunie(self, seat: int) -> bool:
        """Whether `seat` may announce baunie now."""
        return self._can(self.verify_baunie, seat)

    def verify_baunie(self, seat: int) -> None:
        """Raise unless `seat` may announce that its side goes for all 13 tricks."""
        self._check_seat(seat)
        if not self.rules.baunie:
            raise self._illegal(f"{self.rules.name} plays without baunie")
        self._verify_announcing_side(seat, "baunie")

    def baunie(self, seat: int) -> Baunie:
        """Baunie: the side plays on for all 13 tricks (15 points; 2 to the others if it fails)."""
        self.verify_baunie(seat)
        self.baunie_by = seat
        event = Baunie(seat)
        self.log.append(event)
        self.phase = "play"
        return event

    def _verify_announcing_side(self, seat: int, what: str) -> None:
        if self.phase != "announce":
            if self.phase == "after_kap":
                raise self._illegal(f"kap was announced: {what} comes too late")
            raise self._illegal(
                f"{what} is announced only at once after a side wins the first "
                f"{self.rules.kap_tricks} tricks in a row"
            )
        assert self.sweeping is not None
        if TEAMS[seat] != self.sweeping:
            raise self._illegal(
                f"{self.name(seat)}'s side did not win the first {self.rules.kap_tricks} tricks"
            )

    def can_stop(self, seat: int) -> bool:
        """Whether `seat` may stop the hand now."""
        return self._can(self.verify_stop, seat)

    def verify_stop(self, seat: int) -> None:
        """Raise unless `seat` may stop the hand now."""
        self._check_seat(seat)
        if self.phase == "after_kap":
            return  # after a partner's kap either side may stop
        if self.phase == "announce" and self.rules.silent_kap:
            assert self.sweeping is not None
            if TEAMS[seat] != self.sweeping:
                raise self._illegal(
                    f"only the side with the first {self.rules.kap_tricks} tricks stops here"
                )
            return
        if self.phase == "announce" and not self.rules.baunie:
            return  # the hand ends at seven in a row; stopping forgoes kap
        raise self._illegal("a hand is stopped only after a partner's kap")

    def stop(self, seat: int) -> Stop:
        """End the hand now."""
        self.verify_stop(seat)
        event = Stop(seat)
        self.log.append(event)
        if self.phase == "announce" and self.rules.silent_kap:
            assert self.sweeping is not None
            taker = self.last_taker[self.sweeping]
            assert taker is not None
            self._score(taker, self.rules.kap_points, ScoreReason.SILENT_KAP)
            self._end_hand(scored=True)
        else:
            self._end_hand()
        return event

    # -- results ------------------------------------------------------------------------------

    def _score(self, seat: int, points: int, reason: ScoreReason) -> None:
        self.scores[TEAMS[seat]] += points
        self.scored_by = seat
        self.log.append(Score(seat, points, reason))

    def _end_hand(self, *, scored: bool = False) -> None:
        """Score the hand (unless a kap already did) and settle the game."""
        if not scored:
            if self.baunie_by is not None:
                side = TEAMS[self.baunie_by]
                if self.side_tricks[side] == len(self.deck) // 4:
                    self._score(self.baunie_by, self.rules.baunie_points, ScoreReason.BAUNIE)
                else:
                    taker = self.last_taker[1 - side]
                    assert taker is not None
                    self._score(taker, self.rules.failed_baunie_points, ScoreReason.FAILED_BAUNIE)
            elif self.kapped_by is not None:
                self._score(self.kapped_by, self.rules.partner_kap_points, ScoreReason.PARTNER_KAP)
            else:
                side = 0 if self.side_tricks[0] > self.side_tricks[1] else 1
                taker = self.last_taker[side]
                assert taker is not None
                self._score(taker, self.rules.majority_points, ScoreReason.MAJORITY)
        # The side that scored won the hand: the engine's verdict, as Toepen's `win` rows.
        assert self.scored_by is not None
        self.log.extend(HandWon(s) for s in range(4) if TEAMS[s] == TEAMS[self.scored_by])
        self.log.append(HandEnd(self.leader, None))
        self.phase = "idle"
        self.trick_no = 0
        self.trick_plays = []
        target, hands = self.rules.target_score, self.rules.fixed_hands
        reached = target is not None and max(self.scores) >= target
        if reached or (hands is not None and self.hand_no >= hands):
            if self.scores[0] == self.scores[1]:
                self._end_game(None, None)
            else:
                best = 0 if self.scores[0] > self.scores[1] else 1
                self._end_game(best, 1 - best)  # each side named by its first seat
            return
        assert self.dealer is not None
        self.next_dealer = (self.dealer + 1) % 4

    def _end_game(self, winner: int | None, loser: int | None) -> None:
        self.winner, self.loser = winner, loser
        self.log.append(GameEnd(winner, loser))
        self.phase = "over"
        self.next_dealer = None

    # -- replay -------------------------------------------------------------------------------

    def apply(self, event: Event) -> Event:
        """Apply an event that a player or the dealer causes; return the recorded event."""
        match event:
            case HandSkipped(seat=seat):
                return self.skip_hand(seat)
            case HandStart(seat=seat, caller=caller):
                return self.start_hand(seat, caller)
            case Deal(seat=seat, card=card):
                return self.deal(seat, card)
            case TrumpCalled(seat=seat, suit=suit):
                return self.call_trump(seat, suit)
            case CardPlayed(seat=seat, card=card):
                return self.play(seat, card)
            case Kap(seat=seat):
                return self.kap(seat)
            case Baunie(seat=seat):
                return self.baunie(seat)
            case Stop(seat=seat):
                return self.stop(seat)
            case Reveal(seat=seat, card=card) if self.hand_no == 0 and card is not None:
                return self.draw_for_caller(seat, card)
        raise self._illegal(
            f"{event.kind} by {self.name(getattr(event, 'seat', None))} "
            "is not something a player does in Troefcall"
        )

    def skip_hand(self, dealer: int | None = None) -> HandSkipped:
        """Pass over a hand that could not be refereed (a lenient reading keeps the rest),
        and record it (`hand_skipped`), so that the stored game replays as it was read.

        The deal moves on one seat from `dealer` (or from the expected dealer) regardless.
        """
        event = self._log_skipped(dealer, self.phase == "idle")
        dealt = self.next_dealer if dealer is None else dealer
        self.next_dealer = None if dealt is None else (dealt + 1) % self.n
        return event

    def _copy_fields(self, other: Self) -> None:
        super()._copy_fields(other)
        other.teams = self.teams
        other.scores = self.scores
        other.phase = self.phase
        other.dealer = self.dealer
        other.caller = self.caller
        other.next_dealer = self.next_dealer
        other.jack_deal = self.jack_deal
        other.winner = self.winner
        other.loser = self.loser
        other.sweeping = self.sweeping
        other.last_taker = self.last_taker
        other.kapped_by = self.kapped_by
        other.baunie_by = self.baunie_by
        other.scored_by = self.scored_by
        other._rest_of_deal = self._rest_of_deal

    def _fork_core(self) -> None:
        super()._fork_core()
        self.scores = list(self.scores)
        self.last_taker = list(self.last_taker)
        self.jack_deal = list(self.jack_deal)
        self._rest_of_deal = list(self._rest_of_deal)

    def snapshot(self) -> tuple[object, ...]:
        """Everything the table can see and the score: equal for equal positions."""
        return (
            self.phase,
            self.hand_no,
            self.dealer,
            self.caller,
            self.next_dealer,
            self.trump,
            tuple(self.scores),
            tuple(tuple(h) for h in self.hands),
            self.trick_no,
            tuple(self.trick_plays),
            self.leader,
            tuple(self.tricks_won),
            self.sweeping,
            self.kapped_by,
            self.baunie_by,
            tuple(self.jack_deal),
            self.winner,
            self.loser,
        )
