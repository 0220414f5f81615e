"""Games whose hands' results the replay tests (terminal and dashboard) check."""

from __future__ import annotations

from kroeg.recorder.cards import Card
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from tests.recorder.troef_table import SEVEN_THEN_HEARTS, game, hand, play_out, play_tricks

#: The game `six_at_team_toepen` gives.
SIX_ID = "e854c9397d6ae178"


def six_at_team_toepen() -> GameRecord:
    """A simulated game of team toepen for six (three sides of two) that ends in hand 5:
    Carla takes the last trick and loses, Carla & Frits go out, Ben & Eva win the game."""
    rules = Ruleset.preset("lives").with_variants("team-toepen")
    return next(g for g in simulate(rules, 6, 30, 2, ["random"]) if g.game_id == SIX_ID)


def failed_baunie() -> GameRecord:
    """One Troefcall hand: Anna & Carla take the first seven tricks and go for all
    thirteen; Ben breaks it, so Ben & Dan score though they take fewer tricks."""
    g = game()
    hand(g, SEVEN_THEN_HEARTS)
    play_tricks(g, 7)
    g.baunie(2)
    g.play(0, Card.parse("2h"))
    g.play(1, Card.parse("Ah"))
    play_out(g)
    return GameRecord(game_id="baunie", rules=g.rules, players=g.players, events=tuple(g.log))
