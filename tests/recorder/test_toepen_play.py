"""Scenario tests: dealing, tricks, following suit, and partial knowledge."""

import pytest

from kroeg.recorder.cards import Card
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import Deal, TrickWon
from tests.recorder.table import deal, feed, rows, run, table


def test_ten_is_highest_and_an_off_suit_card_cannot_win():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Td Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Jh", "Ben Td", "Carla Kh", "Dan 8h")
    assert game.log[-1] == TrickWon(3, 1)  # 8h beats K and J; Ben's ten is off-suit
    run(game, "Dan Ts", "Anna 9s", "Ben Js", "Carla 7s")
    assert game.log[-1] == TrickWon(3, 2)


def test_rank_order_within_a_suit():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Ah Js Qc Jd", "Kh 7s Tc Kd", "Qh Ts Ac Ad"])
    run(game, "Anna Jh", "Ben Ah", "Carla Kh", "Dan Qh")
    assert game.log[-1] == TrickWon(1, 1)  # A > K > Q > J


def test_deal_goes_one_card_at_a_time_clockwise_from_the_dealers_left():
    game = table()
    deal(game, "Ben", ["Jh 9s 7c Qd", "Ah Js Qc Jd", "Kh 7s Tc Kd", "Qh Ts Ac Ad"])
    seats = [e.seat for e in game.log if isinstance(e, Deal)]
    assert seats == [2, 3, 0, 1] * 4
    assert game.to_move == 2  # Carla, left of the dealer, leads


def test_must_follow_suit():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Jh")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben Js")
    assert str(err.value) == "hand 1, trick 1: Ben must follow hearts (holds Qh)"


def test_playing_out_of_turn_is_refused():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben Qh")
    assert str(err.value) == (
        "hand 1, before the first lead: Ben cannot play Qh: it is Anna's turn, not Ben's"
    )


def test_a_card_not_held_is_refused():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Th")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna does not hold Th (holds Jh 9s 7c Qd)"
    )


def test_dealing_a_card_twice_is_refused():
    game = table()
    game.start_hand(3)
    game.deal(0, Card.parse("Th"))
    with pytest.raises(IllegalActionError) as err:
        game.deal(1, Card.parse("10♥"))
    assert str(err.value) == (
        "hand 1, before the first lead: Th dealt to Ben, but Th is already in Anna's hand"
    )


def test_dealing_to_the_wrong_player_is_refused():
    game = table()
    game.start_hand(3)
    with pytest.raises(IllegalActionError) as err:
        game.deal(2, Card.parse("Th"))
    assert str(err.value) == "hand 1, before the first lead: the next card goes to Anna, not Carla"


def test_unknown_hands_are_refereed_as_far_as_they_can_be():
    game = table()
    deal(game, "Dan", ["? ? ? ?", "Qh Js Qc Jd", "? ? ? ?", "? ? ? ?"])
    run(game, "Anna Th", "Ben Qh", "Carla 9h", "Dan 8h")
    assert game.log[-1] == TrickWon(0, 1)
    # Anna leads a spade; Carla plays a club, so she has shown out of spades.
    run(game, "Anna 9s", "Ben Js", "Carla 7c", "Dan Ts")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Dan Th")
    assert str(err.value) == "hand 1, trick 3: Dan cannot play Th: it is played or shown"
    run(game, "Dan Tc")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna 7s", "Ben Qc", "Carla 8s")
    assert str(err.value) == "hand 1, trick 3: Carla cannot play 8s: showed out of spades earlier"


def test_a_known_card_cannot_come_from_an_unknown_hand():
    game = table()
    deal(game, "Dan", ["? ? ? ?", "Qh Js Qc Jd", "? ? ? ?", "? ? ? ?"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Qh")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot play Qh: it is in Ben's hand"
    )


def test_folded_trick_winner_hands_the_lead_to_the_next_player_still_in():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan 8h")  # Dan wins trick 1
    run(game, "Carla knock", "Dan fold", "Anna stay", "Ben stay")
    assert game.to_move == 0  # Anna, left of Dan, leads trick 2


def test_a_card_played_before_its_owner_folds_cannot_win_the_trick():
    game = table()
    deal(game, "Dan", ["Th 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Th", "Ben Qh", "Carla knock", "Dan stay", "Anna fold", "Ben stay")
    run(game, "Carla Kh", "Dan 8h")
    assert game.log[-1] == TrickWon(3, 1)  # Anna's ten is dead; Dan's 8h wins


def test_the_last_to_play_folding_completes_the_trick():
    game = table()
    deal(game, "Dan", ["Th 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Th", "Ben Qh", "Carla Kh", "Anna knock", "Ben stay", "Carla stay", "Dan fold")
    assert rows(game.log[-3:]) == [
        ("fold", 3, None, 1, None),
        ("pay", 3, None, 1, None),
        ("trick", 0, None, 1, None),
    ]


def test_legal_actions_lists_exactly_the_cards_that_follow_suit():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Jh")
    plays = [e for e in game.legal_actions() if e.kind == "play"]
    assert [str(e.card) for e in plays] == ["Qh"]


def test_feed_helper_needs_the_whole_deal():
    game = table()
    game.start_hand(3)
    feed(game, ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    assert game.phase == "preplay"


def test_a_clone_keeps_the_log_and_shares_nothing_mutable():
    game = table()
    deal(game, "Dan", ["Jh 9s 7c Qd", "Td Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Anna Jh", "Ben knock", "Carla stay", "Dan fold")
    copy = game.clone()
    assert copy.log == game.log and copy.snapshot() == game.snapshot()
    run(copy, "Anna stay", "Ben Td", "Carla Kh")
    assert len(game.log) < len(copy.log)
    assert game.answer_queue and game.trick_plays == [(0, Card.parse("Jh"))]
    assert game.folded == [False, False, False, True]
