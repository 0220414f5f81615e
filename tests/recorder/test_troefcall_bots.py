"""The Troefcall bots: the sharp bot's habits, and both styles through whole games."""

from __future__ import annotations

import pytest

from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.errors import KroegError
from kroeg.recorder.events import Baunie, Kap
from kroeg.recorder.troefcall_bots import SharpBot, make_troefcall_bot, play_troefcall_hand
from tests.recorder.troef_table import ALL_SPADES, SEVEN_THEN_HEARTS, game, hand, play_tricks


def five(cards: str) -> list[Card]:
    return [Card.parse(c) for c in cards.split()]


@pytest.mark.parametrize(
    ("cards", "suit"),
    [
        ("As 2h 3h 4h Kd", Suit.HEARTS),  # the longest suit, however low
        ("As Ks 2h 3h Qd", Suit.SPADES),  # as long as hearts, with the honours
        ("Ac Ad Ah 2s 3c", Suit.CLUBS),  # three aces, no long suit: the one with a second card
    ],
)
def test_sharp_calls_its_longest_strong_suit(cards: str, suit: Suit) -> None:
    g = game()
    g.start_hand(3)
    for card in five(cards):
        g.deal(0, card)
    assert SharpBot(1).call_trump(g, 0) is suit


def test_sharp_caller_draws_trumps_first() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS, trump=Suit.HEARTS)  # Ben holds the high hearts
    # Anna calls hearts on her low ones: Ben's trumps are out, so she leads her best trump.
    assert SharpBot(1).choose_card(g, 0) == Card.parse("7h")


def test_sharp_lets_a_partners_sure_winner_stand_and_beats_cheaply() -> None:
    g = game()
    hand(g, SEVEN_THEN_HEARTS)  # spades trump; Anna holds the top seven
    g.play(0, Card.parse("As"))
    g.play(1, Card.parse("9d"))
    assert SharpBot(1).choose_card(g, 2) == Card.parse("2s")  # Anna's ace is sure: lowest
    g.play(2, Card.parse("2s"))
    g.play(3, Card.parse("2c"))
    g.play(0, Card.parse("2h"))  # a low heart: Ben may win it
    assert SharpBot(1).choose_card(g, 1) == Card.parse("8h")  # the cheapest card that wins


def test_sharp_announces_kap_or_baunie_when_sure_of_all_thirteen() -> None:
    sure = game()
    hand(sure, ALL_SPADES)  # Anna holds every trump: nothing can beat her
    play_tricks(sure, 7)
    options = sure.legal_actions()
    chosen = SharpBot(1).announce(sure, 0, [a for a in options if a.seat == 0], must=False)  # type: ignore[attr-defined]
    assert chosen == Baunie(0)
    unsure = game()
    hand(unsure, SEVEN_THEN_HEARTS)  # Anna's hearts are low: take the kap
    play_tricks(unsure, 7)
    options = unsure.legal_actions()
    chosen = SharpBot(1).announce(unsure, 0, [a for a in options if a.seat == 0], must=False)  # type: ignore[attr-defined]
    assert chosen == Kap(0)


def test_both_styles_play_whole_games_through_the_engine() -> None:
    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.troefcall import Troefcall

    for styles in (["random"] * 4, ["sharp"] * 4, ["sharp", "random"] * 2):
        g = Troefcall(Ruleset.preset("troefcall").with_variants("target-15"), "ABCD", seed=3)
        bots = [make_troefcall_bot(s, i) for i, s in enumerate(styles)]
        while not g.over:
            play_troefcall_hand(g, bots)
        assert max(g.scores) >= 15
    with pytest.raises(KroegError, match="unknown troefcall bot style 'cautious'"):
        make_troefcall_bot("cautious", 0)


def test_a_copy_played_on_remembers_the_cards_played_before_it() -> None:
    # The verdicts play a kap choice on from a copy of the game (its log starts empty):
    # the sharp bot must still know the 28 cards gone, as everyone at the table does.
    g = game()
    hand(g, ALL_SPADES)  # Anna leads her top spades: after seven tricks 7s..2s are left
    play_tricks(g, 7)
    copy = g.fork()
    options = [a for a in copy.legal_actions() if a.seat == 0]  # type: ignore[attr-defined]
    assert SharpBot(1).announce(copy, 0, options, must=False) == Baunie(0)
    assert copy.log == [] and len(copy.played) == 28 and copy.played == g.played
    copy.play(0, Card.parse("7s"))
    assert Card.parse("7s") in copy.played and Card.parse("7s") not in g.played
