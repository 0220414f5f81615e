"""Bots that play Troefcall through the engine: `random` and `sharp`.

A bot sees only what its seat may see (its own hand, the cards played, the
trump) and answers three questions: which trump to call, which card to play,
and what to announce when its side has won the first seven tricks. The
engine lists what is legal and records everything; a bot only chooses.

The sharp bot calls its longest strong suit, leads trumps while the
opponents may still hold some (drawing trumps), wins tricks as cheaply as it
can, lets a winning partner be, and at seven in a row announces kap, or
baunie when its own hand is sure to take every trick left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import UsageError
from kroeg.recorder.events import Baunie, CardPlayed, Event, Kap, Stop
from kroeg.recorder.text import unknown_choice
from kroeg.recorder.tricks import winning_play
from kroeg.recorder.troefcall import TEAMS, Troefcall

__all__ = [
    "TROEFCALL_STYLES", "TroefcallBot", "announcement", "make_troefcall_bot", "play_on",
    "play_troefcall_hand",
]  # fmt: skip

_HONOURS = {Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1}


class TroefcallBot:
    """The random bot: any legal choice, with its own seeded generator."""

    style: ClassVar[str] = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def call_trump(self, game: Troefcall, seat: int) -> Suit:
        """The suit to name as trump."""
        return self.rng.choice(list(Suit))

    def choose_card(self, game: Troefcall, seat: int) -> Card:
        """The card to play now."""
        return trickcore.choice(game.legal_cards(seat), self.rng)

    def announce(
        self, game: Troefcall, seat: int, options: list[Event], must: bool
    ) -> Event | None:
        """An announcement from `options` (kap, baunie, stop), or None to let play go on."""
        if must or self.rng.random() < 0.4:
            return self.rng.choice(options)
        return None


class SharpBot(TroefcallBot):
    """Calls its longest strong suit, draws trumps, chases kap, and goes for baunie when sure."""

    style = "sharp"

    def call_trump(self, game: Troefcall, seat: int) -> Suit:
        known = [c for c in game.hands[seat] if c is not None]

        def strength(suit: Suit) -> tuple[int, int]:
            cards = [c for c in known if c.suit is suit]
            return len(cards), sum(_HONOURS.get(c.rank, 0) for c in cards)

        return max(Suit, key=strength)

    def choose_card(self, game: Troefcall, seat: int) -> Card:
        legal = game.legal_cards(seat)
        power = game.power
        if len(legal) == 1:
            return legal[0]
        trump = game.trump
        if not game.trick_plays:
            return self._lead(game, seat, legal)
        plays = game.trick_plays
        winner = game.trick_winner()
        best = dict(plays)[winner]
        partner_wins = TEAMS[winner] == TEAMS[seat]
        last = len(plays) == 3
        if partner_wins and (last or _is_master(game, best, _unplayed(game, seat))):
            return _lowest(legal, power, trump)
        led = plays[0][1].suit  # the engine's own rule says which cards would take the trick
        beating = [c for c in legal if winning_play([*plays, (seat, c)], led, power, trump) == seat]
        if beating:
            # The cheapest winner; a winning partner is overtaken only when it is not safe.
            return min(beating, key=lambda c: (c.suit is trump, power[c]))
        return _lowest(legal, power, trump)

    def _lead(self, game: Troefcall, seat: int, legal: list[Card]) -> Card:
        power, trump = game.power, game.trump
        others = _unplayed(game, seat)
        trumps = [c for c in legal if c.suit is trump]
        top_trump = max(trumps, key=power.__getitem__) if trumps else None
        calling = game.caller is not None and TEAMS[seat] == TEAMS[game.caller]
        if top_trump is not None and calling and any(c.suit is trump for c in others):
            return top_trump  # draw the opponents' trumps
        masters = [c for c in legal if c.suit is not trump and _is_master(game, c, others)]
        if masters:
            return max(masters, key=power.__getitem__)
        if top_trump is not None and _is_master(game, top_trump, others):
            return top_trump
        if game.sweeping == TEAMS[seat] and game.trick_no <= game.rules.kap_tricks:
            # Chasing kap: a low lead would give the streak away.
            return max(legal, key=lambda c: (c.suit is trump, power[c]))
        return _lowest(legal, power, trump)

    def announce(
        self, game: Troefcall, seat: int, options: list[Event], must: bool
    ) -> Event | None:
        kinds = {type(o): o for o in options}
        if seat == game.leader:  # won the 7th trick: the one who should announce
            if Baunie in kinds and _sure_of_every_trick(game, seat):
                return kinds[Baunie]
            if Kap in kinds:
                return kinds[Kap]
        if Stop in kinds and (game.phase == "after_kap" or game.rules.silent_kap):
            return kinds[Stop]  # the score is settled: take it
        return options[0] if must else None


TROEFCALL_STYLES: dict[str, type[TroefcallBot]] = {"random": TroefcallBot, "sharp": SharpBot}


def make_troefcall_bot(style: str, seed: int) -> TroefcallBot:
    """A Troefcall bot of the named style."""
    try:
        return TROEFCALL_STYLES[style](seed)
    except KeyError:
        raise UsageError(unknown_choice("troefcall bot style", style, TROEFCALL_STYLES)) from None


def play_troefcall_hand(game: Troefcall, bots: Sequence[TroefcallBot]) -> None:
    """Play one hand to its end: every choice from a bot, every ruling from the engine."""
    game.start_hand()
    play_on(game, bots)


def play_on(game: Troefcall, bots: Sequence[TroefcallBot]) -> None:
    """Play the hand under way to its end, from wherever it stands (the trump call, an
    announcement, a card): every choice from a bot, every ruling from the engine."""
    while game.phase not in ("idle", "over"):
        if game.phase == "call":
            caller = game.caller
            assert caller is not None
            game.call_trump(caller, bots[caller].call_trump(game, caller))
        elif game.phase in ("announce", "after_kap"):
            game.apply(announcement(game, bots))
        else:
            mover = game.to_move
            assert mover is not None
            game.play(mover, bots[mover].choose_card(game, mover))


def announcement(game: Troefcall, bots: Sequence[TroefcallBot]) -> Event:
    """Ask the winner of the 7th trick first, then the partner, then the others."""
    actions = game.legal_actions()
    plays = [a for a in actions if isinstance(a, CardPlayed)]
    leader = game.leader
    order = [leader, game.partner(leader), (leader + 1) % 4, (leader + 3) % 4]
    for seat in order:
        options = [a for a in actions if not isinstance(a, CardPlayed) and a.seat == seat]  # type: ignore[attr-defined]
        if options:
            chosen = bots[seat].announce(game, seat, options, must=False)
            if chosen is not None:
                return chosen
    if plays:
        return CardPlayed(leader, bots[leader].choose_card(game, leader))
    options = [a for a in actions if a.seat == leader] or actions  # type: ignore[attr-defined]
    chosen = bots[leader].announce(game, leader, options, must=True)
    assert chosen is not None
    return chosen


def _lowest(cards: list[Card], power: dict[Card, int], trump: Suit | None) -> Card:
    """The cheapest card: a low card of a plain suit before any trump."""
    return min(cards, key=lambda c: (c.suit is trump, power[c]))


def _unplayed(game: Troefcall, seat: int) -> list[Card]:
    """Cards not yet played and not in `seat`'s hand: where the others' cards may be."""
    mine = set(game.hands[seat])
    played = game.played
    return [c for c in game.deck if c not in mine and c not in played]


def _is_master(game: Troefcall, card: Card, others: list[Card]) -> bool:
    """Whether none of `others` (the cards the viewer cannot place) beats it in its suit."""
    power = game.power
    return not any(c.suit is card.suit and power[c] > power[card] for c in others)


def _sure_of_every_trick(game: Troefcall, seat: int) -> bool:
    """Leading from this hand takes every trick left, wherever the other cards are.

    Every card must be the best left in its suit, and the trumps alone must outlast
    every trump the others may hold (led first, they draw them all, even if one
    player holds them all), so that no plain card can be ruffed.
    """
    hand = [c for c in game.hands[seat] if c is not None]
    if len(hand) != len(game.hands[seat]):
        return False
    trump = game.trump
    others = _unplayed(game, seat)
    if not all(_is_master(game, card, others) for card in hand):
        return False
    outstanding = sum(1 for c in others if c.suit is trump)
    mine = sum(1 for c in hand if c.suit is trump)
    return outstanding == 0 or mine >= outstanding
