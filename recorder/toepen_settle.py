"""The settling of a hand: who pays, who won, who is out, who deals next.

A base of `recorder.toepen.Toepen` (over `ToepenState`, under `ToepenSwaps`).
"""

from __future__ import annotations

from kroeg.recorder.events import (
    AllFolded,
    Eliminated,
    GameEnd,
    HandEnd,
    HandWon,
    Pay,
)
from kroeg.recorder.toepen_state import ToepenState
from kroeg.recorder.tricks import shared_event, shared_seat_event

__all__ = ["ToepenSettlement"]


class ToepenSettlement(ToepenState):
    """The end of a hand and of the game."""

    def _end_hand(self, winner: int, payers: list[int] | None, folded_to: bool = False) -> None:
        """Finish the hand won by `winner`; `payers` None means: score the last trick;
        `folded_to`: every opponent of `winner` folded to its knock (recorded as a fact)."""
        self.answer_queue = []
        self.window = None
        if payers is None:
            if self.rules.last_trick == "wins":
                payers = [s for s in self.seats_from(winner) if self.in_hand(s) and s != winner]
                if self.teams is not None:  # each losing side pays once, from its pool
                    paying: list[int] = []
                    for s in payers:
                        if not self.takes_hand(s, winner) and self.sides([s]) - self.sides(paying):
                            paying.append(s)
                    payers = paying
            else:
                payers = [winner]
            self.hand_winners = tuple(s for s in self.seats_in_hand() if self.takes_hand(s, winner))
        else:  # everyone else folded: the one player (or the partners) still in win
            self.hand_winners = tuple(self.seats_in_hand()) or (winner,)
        for seat in payers:
            self._pay(seat, self.stake)
        if folded_to:
            self.log.append(AllFolded(winner))
        self.log.extend(shared_seat_event(HandWon, seat) for seat in self.hand_winners)
        self.log.append(shared_event(HandEnd, winner, self.stake))
        self.phase = "idle"
        self.trick_no = 0
        self._settle(winner)

    def _out_at_once(self, seat: int) -> None:
        """Under `check_out_at_once`: a player a check penalty took to the limit is out now.
        Where the first out loses, the game ends here; else they leave the hand (and the
        game), and a hand left with one player is theirs."""
        out = self.paid_this_hand[seat] > 0 if self.sudden_death else self.lives[seat] <= 0
        if not out or not self.alive[seat]:
            return
        if self.rules.game_end == "first_out_loses":
            self.answer_queue = []
            self.window = None
            self._end_game(None, seat)
            return
        self.alive[seat] = False
        self.folded[seat] = True  # out of the hand as well
        if seat in self.answer_queue:
            self.answer_queue.remove(seat)
        self.log.append(Eliminated(seat))
        self._end_if_one_side_left()

    def _end_if_one_side_left(self) -> bool:
        """End the hand when the players still in it all play for one side (one player, or
        partners): nobody is left to play against. The last knocker, if still in, is named
        as the one everyone folded to. True if the hand ended."""
        remaining = self.seats_in_hand()
        if len(self.sides(remaining)) != 1:
            return False
        knocker = self.last_knocker
        if knocker is not None and knocker in remaining:
            self._end_hand(knocker, payers=[], folded_to=self._folded_to(knocker))
        else:
            self._end_hand(remaining[0], payers=[])
        return True

    def _folded_to(self, knocker: int) -> bool:
        """Whether the hand ends because every opponent of `knocker` folded to a knock of
        theirs (not to poverty's opening stake, not by going out under check-out-at-once)."""
        mine = self.sides([knocker])
        return self.knock_count > 0 and all(
            self.folded[s] and self.alive[s]
            for s in range(self.n)
            if self.dealt[s] and self.sides([s]) != mine
        )

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
            if len(self.sides(tied)) > 1:
                self.sudden_death = True
        for seat in out:
            self.alive[seat] = False
            self.log.append(Eliminated(seat))
        if len(self.sides(remaining)) == 1:  # one player, or one side, left
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
