"""Whistling, laundry, armoede and checks: what may happen before the first lead.

A base of `recorder.toepen.Toepen` (over `ToepenSettlement`); every rule is in docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from kroeg.recorder.cards import Card, Rank
from kroeg.recorder.events import (
    Armoede,
    Check,
    Laundry,
    Redeal,
    Reveal,
    Whistle,
)
from kroeg.recorder.toepen_settle import ToepenSettlement
from kroeg.recorder.toepen_state import _FACE_CARDS, _SEVENS, SwapWindow

__all__ = ["ToepenSwaps"]


class ToepenSwaps(ToepenSettlement):
    """Whistles, swaps of a hand (laundry), armoede and the checks of both."""

    # -- whistling ----------------------------------------------------------------------------

    def can_whistle(self, seat: int, rank: Rank, count: int) -> bool:
        """Whether `seat` may announce `count` cards of `rank` now."""
        return self._can(self.verify_whistle, seat, rank, count)

    def verify_whistle(self, seat: int, rank: Rank, count: int) -> None:
        """Raise unless `seat` may whistle (3) or stand up (4) for `rank` now."""
        self._check_seat(seat)
        self._verify_before_lead(f"{self.name(seat)} whistles")
        if rank not in self.rules.whistle_must and rank not in self.rules.whistle_may:
            raise self._illegal(f"these rules have no whistling for {rank.english}s")
        if not self.dealt[seat]:
            raise self._illegal(f"{self.name(seat)} is not in the hand")
        if rank in self.whistled[seat]:
            raise self._illegal(f"{self.name(seat)} already announced {rank.english}s")
        if self.folded[seat] and rank not in self.rules.whistle_must:
            # Folding does not lift a duty to announce; a choice ends with the fold.
            raise self._illegal(f"{self.name(seat)} folded and need not announce {rank.english}s")
        known = self._count_known(seat, rank)
        unknown = self.hands[seat].count(None)
        if self.rules.whistle_or_stand:  # three or four: whistle (3) or stand up (4), either
            possible = count in (3, 4) and known <= 4 and known + unknown >= 3
        else:
            possible = count in (3, 4) and known <= count <= known + unknown
        if not possible:
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

    def owed_whistle(self, seat: int) -> tuple[Rank, int] | None:
        """A compulsory announcement `seat` has not made (rank, and how many of it they are
        known to hold), or None. A player who folded still owes it: the duty came with the
        cards, before the first card is played."""
        if not self.dealt[seat] or not self.alive[seat]:
            return None
        for rank in self.rules.whistle_must:
            if rank not in self.whistled[seat]:
                count = self._count_known(seat, rank)
                if count >= 3:
                    return rank, count
        return None

    # -- laundry, armoede and checks ----------------------------------------------------------

    def must_swap(self, seat: int) -> bool:
        """Whether `seat` must swap their hand before the first card (mandatory discard):
        real laundry (only A/K/Q/J: dirty laundry may be swapped, never must be) while a
        swap is allowed (the stock lasts; house rules: no knock yet, not swapped yet)."""
        return (
            self.rules.laundry_mandatory
            and self.is_laundry(self.hands[seat], dirty=False) is True
            and self.can_laundry(seat)  # in the hand, stock left, and (house rules) allowed
        )

    def is_laundry(self, cards: Sequence[Card | None], dirty: bool = True) -> bool | None:
        """Whether a hand is laundry under these rules (`dirty` False: real laundry only,
        whatever the rules say of dirty laundry); None if not every card is known."""
        if any(c is None for c in cards):
            return None
        faces = sum(1 for c in cards if c in _FACE_CARDS)
        if faces == len(cards):
            return True
        sevens = sum(1 for c in cards if c in _SEVENS)
        return dirty and self.rules.dirty_laundry and faces == len(cards) - 1 and sevens == 1

    def claim_genuine(self, kind: str, cards: Sequence[Card | None]) -> bool | None:
        """Whether a hand of `cards` makes the claim `kind` true: "laundry" (`is_laundry`,
        dirty laundry where the rules have it) or "armoede" (only J/Q/K/A). None if a card
        is unknown."""
        if kind == "laundry":
            return self.is_laundry(cards)
        if any(c is None for c in cards):
            return None
        return all(c in _FACE_CARDS for c in cards)

    def _genuine(self, window: SwapWindow) -> int | None:
        verdict = self.claim_genuine(window.kind, window.cards)
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
        if self.rules.laundry_before_knock:
            if self.knock_count:
                raise self._illegal(f"{doing}, but laundry comes before any knock")
            if seat in self.swapped:
                raise self._illegal(f"{doing}, but has already swapped in this hand")
        if self.stock < self.rules.hand_size:
            dealt = sum(self.dealt)
            if len(self.deck) - self.rules.hand_size * dealt <= 0:
                raise self._illegal(f"{doing}, but there is no stock with {dealt} players")
            raise self._illegal(f"{doing}, but the stock has only {self.stock} cards")

    def laundry(self, seat: int) -> Laundry:
        """Lay the hand down and take four new cards from the stock."""
        self.verify_laundry(seat)
        event = Laundry(seat)
        self.log.append(event)
        self.window = SwapWindow("laundry", seat, self.hands[seat])
        self.swapped.add(seat)
        self.hands[seat] = []
        self.whistled[seat] = set()
        self.stock -= self.rules.hand_size
        self.drawing_from_stock = seat
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
        self.window = SwapWindow("armoede", seat, list(self.hands[seat]))
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
        if self.deal_queue and not self._claim_unswapped(target):
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

    def claim_to_check(self) -> int | None:
        """Under `check_before_swap`: the seat whose laundry claim may be checked now,
        before any new card is dealt (None when no claim waits for its cards)."""
        window = self.window
        if window is not None and self._claim_unswapped(window.seat):
            return window.seat
        return None

    def _claim_unswapped(self, target: int) -> bool:
        """Under `check_before_swap`: whether `target` claimed laundry and none of the new
        cards is dealt yet, so the claim may be checked before the swap."""
        window = self.window
        return (
            self.rules.check_before_swap
            and window is not None
            and window.kind == "laundry"
            and window.seat == target
            and not self.hands[target]
            and list(self.deal_queue) == [target] * self.rules.hand_size
        )

    def _call_off_swap(self, target: int, window: SwapWindow) -> None:
        """A false laundry claim caught under `check_before_swap`: nothing is swapped. The
        swapper keeps the old hand; the new cards, if dealt already, go back on the stock
        (a seeded deck deals them next), and the stock counts them again."""
        returned = self.hands[target]
        self.deal_queue.clear()
        self.drawing_from_stock = None
        for card in returned:
            if card is not None:
                self.seen.discard(card)
        self.lay_on_stock(returned)
        self.hands[target] = list(window.cards)
        self.stock += self.rules.hand_size

    def lay_on_stock(self, cards: list[Card | None]) -> None:
        """Put `cards` on top of the stock, dealt next in their order: its known top
        (`stock_top`) and, in a seeded game, the deck it deals from."""
        if self.rng is not None:
            self.shuffled.extend(c for c in reversed(cards) if c is not None)
        self.stock_top = list(cards) + self.stock_top

    def _took_from_stock(self, cards: list[Card | None]) -> None:
        """`cards` were dealt from the stock: those of its known top (`stock_top`) leave
        it, and an unknown card is taken to be the next of it, as a seeded deck deals."""
        top = self.stock_top
        for card in cards:
            if card is None:
                if top:
                    top.pop(0)
            elif card in top:
                top.remove(card)

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
        payer = seat if verdict else target
        self._pay(payer, self.rules.check_penalty)
        if window.kind == "laundry":
            if not verdict and self.rules.check_before_swap:
                # Checked before the swap counts: a false claim swaps nothing, lays nothing
                # aside (this wins over false_swap_undone and face_up_penalty).
                self._call_off_swap(target, window)
            elif not verdict and self.rules.false_swap_undone:
                # The old hand (just shown) goes back to the swapper; the new cards aside.
                self.hands[target] = list(window.cards)
            elif not verdict and self.rules.face_up_penalty:
                for card in self.hands[target]:
                    if card is not None:
                        self.log.append(Reveal(target, card))
            self.window = None
        if self.rules.check_out_at_once:
            self._out_at_once(payer)
            if self.phase != "preplay":
                self.deal_queue.clear()  # the game or the hand ended before the swap
        return event

    def can_redeal(self, dealer: int) -> bool:
        """Whether `dealer` may gather the cards and deal again (after armoede)."""
        return self._can(self.verify_redeal, dealer)

    def verify_redeal(self, dealer: int) -> None:
        """Raise unless the dealer may redeal now."""
        self._check_seat(dealer)
        if self.phase != "preplay" or self.window is None or self.window.kind != "armoede":
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
