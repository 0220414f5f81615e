"""Bots that play Toepen through the engine, each with a seeded style.

| style    | knocks                      | answers a knock          | plays                    |
|----------|-----------------------------|--------------------------|--------------------------|
| random   | now and then, at random     | stays or folds at random | any legal card           |
| cautious | only on a near-certain hand | folds unless strong      | any legal card           |
| bluffer  | often, and mostly on weak   | nearly always stays      | any legal card           |
| sharp    | on strong hands             | folds weak hands         | keeps its best card last |

"Strong" reads the rules: where the last trick wins (classic) a high card
kept for the end is strong; where it loses (lives) a low one is. Bots only
look at what their seat can see. They never break a rule: the driver in
`recorder.simulate` asks the engine what is legal and the engine referees.
"""

from __future__ import annotations

import random
from typing import Literal

from recorder.cards import Card, Rank
from recorder.toepen import Toepen

__all__ = ["BOT_STYLES", "Bot", "make_bot"]

Answer = Literal["stay", "fold", "knock"]


class Bot:
    """The random style; the other styles override its decisions."""

    style = "random"
    knock_chance = 0.12
    counter_chance = 0.05
    check_chance = 0.2

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # -- what the seat can see ----------------------------------------------------------------

    @staticmethod
    def strength(game: Toepen, seat: int) -> float:
        """A quick 0..1 reading of the seat's chances from its own remaining cards."""
        cards = [c for c in game.hands[seat] if c is not None]
        if not cards:
            return 0.5
        power = game.power
        if game.rules.last_trick == "wins":
            # The best card decides the last trick; a second high card helps to keep it.
            ranked = sorted((power[c] for c in cards), reverse=True)
            best = ranked[0] / 8
            second = ranked[1] / 8 if len(ranked) > 1 else best
            return min(1.0, 0.75 * best + 0.25 * second)
        # Lives: avoid the last trick; the lowest card kept for the end decides.
        low = min(power[c] for c in cards)
        return 1.0 - (low - 1) / 7

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
        return self.rng.random() < self.check_chance

    def wants_whistle(self, game: Toepen, seat: int, rank: Rank) -> bool:
        """Announce three or four of `rank` where the rules only allow it?"""
        return self.rng.random() < 0.5

    def choose_card(self, game: Toepen, seat: int) -> Card:
        """The card to play."""
        return self.rng.choice(game.legal_cards(seat))


class CautiousBot(Bot):
    """Folds readily and seldom knocks."""

    style = "cautious"
    check_chance = 0.05

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        return self.strength(game, seat) > 0.9 and self.rng.random() < 0.5

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        return "stay" if self.strength(game, seat) > 0.85 else "fold"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return genuine


class BluffingBot(Bot):
    """Knocks often, mostly on weak hands, and rarely folds."""

    style = "bluffer"
    counter_chance = 0.25
    check_chance = 0.3

    def wants_knock(self, game: Toepen, seat: int) -> bool:
        weak = self.strength(game, seat) < 0.5
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
        return self.strength(game, seat) > 0.8

    def answer(self, game: Toepen, seat: int, can_counter: bool) -> Answer:
        strength = self.strength(game, seat)
        if can_counter and strength > 0.9:
            return "knock"
        return "stay" if strength >= 0.5 else "fold"

    def wants_swap(self, game: Toepen, seat: int, genuine: bool) -> bool:
        return genuine

    def wants_whistle(self, game: Toepen, seat: int, rank: Rank) -> bool:
        return False

    def choose_card(self, game: Toepen, seat: int) -> Card:
        legal = game.legal_cards(seat)
        if len(legal) == 1:
            return legal[0]
        power = game.power
        keep_high = game.rules.last_trick == "wins"
        # Spend the cards that matter least for the last trick first.
        if keep_high:
            return min(legal, key=lambda c: power[c])
        return max(legal, key=lambda c: power[c])


BOT_STYLES: dict[str, type[Bot]] = {
    cls.style: cls for cls in (Bot, CautiousBot, BluffingBot, SharpBot)
}


def make_bot(style: str, seed: int) -> Bot:
    """A bot of the named style with its own seeded random source."""
    try:
        return BOT_STYLES[style](seed)
    except KeyError:
        from recorder.errors import KroegError

        raise KroegError(
            f"unknown bot style {style!r}: expected one of {', '.join(BOT_STYLES)}"
        ) from None
