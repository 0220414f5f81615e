"""Bots that play Toepen through the engine, each with a seeded style.

| style    | knocks                      | answers a knock          | plays                    |
|----------|-----------------------------|--------------------------|--------------------------|
| random   | now and then, at random     | stays or folds at random | any legal card           |
| cautious | only on a near-certain hand | folds unless strong      | any legal card           |
| bluffer  | often, and mostly on weak   | nearly always stays      | any legal card           |
| sharp    | on strong hands             | by the pot odds (1)      | keeps its best card last |

"Strong" reads the rules: where the last trick wins (classic) a high card
kept for the end is strong; where it loses (lives) a low one is. Bots only
look at what their seat can see. They never break a rule: the driver in
`recorder.simulate` asks the engine what is legal and the engine referees.

(1) In team toepen where the last trick wins, it stays while a partner is still in: a
fold there pays and leaves the side to pay again unless the partners win.

Measured at a table of all four styles (20,000 hands; see
`tests/recorder/test_bots.py` and `kroeg info` on a simulated dataset): under
`lives` the sharp bot loses the fewest lives per hand, the cautious bot folds
most often and the bluffer knocks most. Under `classic`, folding is cheap (the
stake before the knock) and a table of folders pays the bluffer, which then
edges out the sharp bot on cost per hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import ClassVar, Literal

from kroeg.recorder import trickcore
from kroeg.recorder.cards import Card, Rank
from kroeg.recorder.errors import UsageError
from kroeg.recorder.text import unknown_choice
from kroeg.recorder.toepen import Toepen

__all__ = ["BOT_STYLES", "Bot", "make_bot", "reference_card", "reference_choice"]

Answer = Literal["stay", "fold", "knock"]


def _unseen_beaters(game: Toepen, card: Card) -> int:
    """How many cards of `card`'s suit that beat it the engine has not seen: the deck
    lists each suit strongest first (the trick core's numbers), so they are the unseen
    cards before `card` in its suit's run."""
    number = game.index[card]
    deck, seen = game.deck, game.seen
    beaters = 0
    for i in range(number - number % game.ranks, number):
        if deck[i] not in seen:
            beaters += 1
    return beaters


class Bot:
    """The random style; the other styles override its decisions."""

    style: ClassVar[str] = "random"
    knock_chance: ClassVar[float] = 0.12
    counter_chance: ClassVar[float] = 0.05
    check_chance: ClassVar[float] = 0.2
    #: The bot raises no further once the stake reaches this: where the rules set no
    #: limit (kroegtoepen), two strong hands would otherwise counter-knock for ever.
    max_stake: ClassVar[int] = 6

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's own random source, seeded with `seed` at its first draw: the same
        draws as seeded at the start, and a bot that never draws costs no seeding (4 µs;
        a swap verdict's play-outs make a reference bot for every seat, and most draw
        nothing: 279,375 seedings over 3,000 hands, docs/BENCHMARKS.md)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng

    # -- what the seat can see ----------------------------------------------------------------

    @staticmethod
    def strength(game: Toepen, seat: int) -> float:
        """A quick 0..1 reading of the seat's chance to come out of the hand well.

        Only what the seat can see is used: its own cards and the cards shown or
        played. The card that matters is the one kept for the last trick: the
        highest where the last trick wins (classic), the lowest where it loses
        (lives). Its danger is the number of unseen cards of its suit that beat it,
        each held by an opponent with the chance `q`.
        """
        cards = [c for c in game.hands[seat] if c is not None]
        if not cards:
            return 0.5
        power = game.power
        unseen = len(game.deck) - len(game.seen)  # the engine sees only the deck's cards
        others = sum(len(game.hands[s]) for s in game.seats_in_hand() if s != seat)
        q = min(1.0, others / unseen) if unseen else 0.0
        players = max(2, len(game.seats_in_hand()))
        wins_last = game.rules.last_trick == "wins"

        # The chance that no opponent holds a card of the suit that beats a card:
        # clear ** its unseen beaters.
        clear = 1.0 - q

        if len(cards) == 1 and game.trick_no == game.rules.hand_size:
            # The last trick is being played: read the table exactly where it can be read.
            card = cards[0]
            live = [c for s, c in game.trick_plays if game.in_hand(s)]
            if not game.trick_plays:
                takes = clear ** _unseen_beaters(game, card)
            elif card.suit is not game.trick_plays[0][1].suit or any(
                c.suit is card.suit and power[c] > power[card] for c in live
            ):
                takes = 0.0
            else:
                takes = clear ** _unseen_beaters(game, card)
            return takes if wins_last else 1.0 - takes
        if wins_last:
            best = max(clear ** _unseen_beaters(game, card) for card in cards)
            # Holding the top card is not enough: the last trick must also fall your way.
            return best * (0.2 + 0.8 / players) + (1 - best) * 0.3 / players
        losing = clear ** _unseen_beaters(game, min(cards, key=lambda c: power[c]))
        return 1.0 - losing * (0.35 + 0.65 / players) - (1 - losing) * 0.5 / players

    def edge(self, game: Toepen, seat: int) -> float:
        """-1..1: how far this hand looks above (toward certain) or below an average seat."""
        strength, fair = self.strength(game, seat), game.fair_share()
        if strength >= fair:
            return (strength - fair) / (1 - fair)
        return (strength - fair) / fair

    # -- decisions ----------------------------------------------------------------------------

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        """Knock now (asked only when the engine allows it)?"""
        return self.rng.random() < self.knock_chance

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        """Stay, fold, or (where the rules allow) counter-knock."""
        if can_counter and self.rng.random() < self.counter_chance:
            return "knock"
        return "stay" if self.rng.random() < 0.5 else "fold"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        """Swap (laundry) or declare armoede with this hand?"""
        return genuine and self.rng.random() < 0.5

    def wants_check(self, game: Toepen, seat: int, target: int) -> bool:
        """Check the hand `target` swapped or declared?"""
        return self.check_draw() < self.check_chance

    def check_draw(self) -> float:
        """The uniform draw that decides a check (a verdict's bots draw theirs up front)."""
        return self.rng.random()

    def wants_whistle(self, game: Toepen, seat: int, rank: Rank) -> bool:
        """Announce three or four of `rank` where the rules only allow it?"""
        return self.rng.random() < 0.5

    def choose_card(self, game: Toepen, seat: int) -> Card:
        """The card to play."""
        return trickcore.choice(game.legal_cards(seat), self.rng)


class CautiousBot(Bot):
    """Folds readily and seldom knocks."""

    style = "cautious"
    check_chance = 0.05
    max_stake = 3

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        return self.edge(game, seat) > 0.6 and self.rng.random() < 0.5

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        return "stay" if self.edge(game, seat) > 0.6 else "fold"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return genuine


class BluffingBot(Bot):
    """Knocks often, mostly on weak hands, and rarely folds."""

    style = "bluffer"
    counter_chance = 0.25
    check_chance = 0.3
    max_stake = 8

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        weak = self.edge(game, seat) < 0
        return self.rng.random() < (0.5 if weak else 0.25)

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        if can_counter and self.rng.random() < self.counter_chance:
            return "knock"
        return "fold" if self.rng.random() < 0.12 else "stay"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return genuine or self.rng.random() < 0.25


class SharpBot(Bot):
    """Knocks on strong hands, folds weak ones, keeps its best card for the last trick."""

    style = "sharp"
    check_chance = 0.25

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        return self.strength(game, seat) > game.fair_share() + 0.2

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        strength = self.strength(game, seat)
        if can_counter and strength > max(0.6, game.fair_share() + 0.25):
            return "knock"
        if game.rules.last_trick == "wins" and game.partner_in(seat):
            # Team toepen: a fold pays stake - 1 now and the side pays the stake again
            # unless the partners still in win; the cards held only add to their chance
            # of taking the last trick, so staying costs less whatever they are.
            return "stay"
        # Pot odds: folding costs stake - 1 now, staying costs the stake if the hand goes
        # wrong, so staying pays when the chance of coming out well beats 1 / stake. (In
        # team toepen under lives the same holds: the cards held add to the side's chance
        # of taking the last trick, by about 1 - strength, against the stake - 1 a fold
        # pays.)
        return "stay" if strength > 1 / game.stake else "fold"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return genuine

    def wants_whistle(self, game: Toepen, seat: int, rank: Rank) -> bool:
        return False

    def choose_card(self, game: Toepen, seat: int) -> Card:
        return reference_card(game, seat)


def reference_choice(game: Toepen) -> Callable[[list[Card]], Card]:
    """The fixed reference policy of the sharp bot and of the analytics' playouts.

    Of the legal cards, spend first the one that matters least for the last trick: the
    lowest where the last trick wins (keep the best for the end), the highest where it
    loses. (Among equal ranks, the first held.) The rule is `trickcore.reference_pick`'s.
    """
    return partial(_reference_pick, game.index, game.ranks, game.rules.last_trick == "wins")


def _reference_pick(index: dict[Card, int], ranks: int, lowest: bool, legal: list[Card]) -> Card:
    return legal[trickcore.reference_pick([index[c] for c in legal], -1, ranks, lowest)]


def reference_card(game: Toepen, seat: int) -> Card:
    """The reference policy's card for `seat` now (see `reference_choice`)."""
    legal = game.legal_cards(seat)
    if len(legal) == 1:
        return legal[0]
    return _reference_pick(game.index, game.ranks, game.rules.last_trick == "wins", legal)


BOT_STYLES: dict[str, type[Bot]] = {
    cls.style: cls for cls in (Bot, CautiousBot, BluffingBot, SharpBot)
}


def make_bot(style: str, seed: int) -> Bot:
    """A bot of the named style with its own seeded random source."""
    try:
        return BOT_STYLES[style](seed)
    except KeyError:
        raise UsageError(unknown_choice("bot style", style, BOT_STYLES)) from None
