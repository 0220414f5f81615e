"""Scenario tests: laundry, armoede, checks, poverty and whistling."""

import pytest

from kroeg.recorder.cards import Rank
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import Whistle
from tests.recorder.table import costs, deal, feed, rows, run, seat, table

LAUNDRY = "Ah Kh Qs Jd"
NOT_LAUNDRY = "Ah Kh Qs 9d"
OTHERS = ["Jh 9s 7c Qd", "Qh Js 7s Jc", None, "8h Ts Ac Ad"]
NEW = "7h 8c 9c Tc"


def hands_with(carla):
    hands = list(OTHERS)
    hands[2] = carla
    return hands


def test_laundry_swaps_four_cards_from_the_stock_and_a_true_check_costs_the_checker():
    game = table("classic")
    deal(game, "Dan", hands_with(LAUNDRY))
    assert game.stock == 16
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    assert game.stock == 12
    assert [str(c) for c in game.hands[2]] == NEW.split()
    run(game, "Ben check Carla")
    assert rows(game.log[-6:]) == [
        ("check", 1, None, 1, 2),
        ("reveal", 2, "Ah", None, None),
        ("reveal", 2, "Kh", None, None),
        ("reveal", 2, "Qs", None, None),
        ("reveal", 2, "Jd", None, None),
        ("pay", 1, None, 1, None),
    ]
    assert costs(game)["Ben"] == 1


def test_swapping_a_hand_that_is_not_laundry_is_a_bluff_that_costs_when_checked():
    game = table("classic")
    deal(game, "Dan", hands_with(NOT_LAUNDRY))
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    run(game, "Dan check Carla")
    assert rows(game.log[-2:]) == [("reveal", 2, "9d", None, None), ("pay", 2, None, 1, None)]
    assert [str(c) for c in game.hands[2]] == NEW.split()  # keeps the new hand


def test_a_check_must_match_the_hand_when_it_is_known():
    game = table("classic")
    deal(game, "Dan", hands_with(NOT_LAUNDRY))
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Dan check Carla 1")
    assert str(err.value) == (
        "hand 1, before the first lead: Dan checks Carla: the hand (Ah Kh Qs 9d) was not laundry"
    )


def test_a_swap_of_an_unknown_hand_takes_the_checks_word():
    game = table("classic")
    deal(game, "Dan", ["? ? ? ?", "? ? ? ?", "? ? ? ?", "? ? ? ?"])
    run(game, "Carla laundry")
    feed(game, ["", "", "? ? ? ?", ""])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Dan check Carla")
    assert str(err.value).endswith("the hand is unknown, so say whether it was genuine")
    run(game, "Dan check Carla 0")
    assert costs(game)["Carla"] == 1


def test_laundry_only_before_the_first_card():
    game = table("classic")
    deal(game, "Dan", hands_with(LAUNDRY))
    run(game, "Anna Jh")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla laundry")
    assert str(err.value) == (
        "hand 1, trick 1: Carla swaps (laundry), but the first card has been played"
    )


def test_no_laundry_with_eight_players_because_there_is_no_stock():
    game = table("classic", 8)
    deal(game, "Anna", ["? ? ? ?"] * 8)
    assert game.stock == 0
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla laundry")
    assert str(err.value) == (
        "hand 1, before the first lead: Carla swaps (laundry), but there is no stock with 8 players"
    )


def test_several_swaps_until_the_stock_runs_out():
    game = table("classic", 6)
    deal(game, "Frits", ["? ? ? ?"] * 6)
    assert game.stock == 8
    run(game, "Anna laundry")
    feed(game, ["? ? ? ?", "", "", "", "", ""])
    run(game, "Anna laundry")
    feed(game, ["? ? ? ?", "", "", "", "", ""])
    assert game.stock == 0
    assert not game.can_laundry(seat(game, "Ben"))


def test_dirty_laundry_counts_three_faces_and_a_seven():
    dirty = "Ah Kh Qs 7d"
    for variants, genuine in (((), 0), (("dirty-laundry",), 1)):
        game = table("classic", 4, *variants)
        deal(game, "Dan", hands_with(dirty))
        run(game, "Carla laundry")
        feed(game, ["", "", NEW, ""])
        assert run(game, "Ben check Carla")[0].genuine == genuine


def test_cards_face_up_after_a_caught_bluff_swap():
    game = table("classic", 4, "face-up")
    deal(game, "Dan", hands_with(NOT_LAUNDRY))
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    run(game, "Dan check Carla")
    assert rows(game.log[-4:]) == [("reveal", 2, c, None, None) for c in NEW.split()]


def test_mandatory_discard_of_a_laundry_hand():
    game = table("classic", 4, "mandatory-discard")
    deal(game, "Dan", hands_with(LAUNDRY))
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Jh")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot play Jh: "
        "Carla holds laundry and must swap it first"
    )
    run(game, "Carla laundry")
    feed(game, ["", "", NEW, ""])
    run(game, "Anna Jh")


def test_armoede_true_costs_the_challenger_a_life_and_the_same_dealer_redeals():
    game = table("lives")
    deal(game, "Dan", hands_with(LAUNDRY))
    run(game, "Carla armoede", "Ben check Carla")
    assert rows(game.log[-6:]) == [
        ("check", 1, None, 1, 2),
        ("reveal", 2, "Ah", None, None),
        ("reveal", 2, "Kh", None, None),
        ("reveal", 2, "Qs", None, None),
        ("reveal", 2, "Jd", None, None),
        ("pay", 1, None, 1, None),
    ]
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna redeal")
    assert str(err.value) == "hand 1, before the first lead: Dan redeals, not Anna"
    run(game, "Dan redeal")
    feed(game, ["Jh 9s 7c Qd", "Qh Js Qc Jc", "7h 8c 9c Tc", "8h Ts Ac Ad"])
    assert game.lives == [10, 9, 10, 10]
    run(game, "Anna Jh")


def test_armoede_bluff_costs_the_declarer():
    game = table("lives")
    deal(game, "Dan", hands_with(NOT_LAUNDRY))
    run(game, "Carla armoede", "Anna check Carla", "Dan redeal")
    assert costs(game) == {"Anna": 0, "Ben": 0, "Carla": 1, "Dan": 0}


def test_armoede_must_be_settled_before_play_and_can_be_switched_off():
    game = table("lives")
    deal(game, "Dan", hands_with(LAUNDRY))
    run(game, "Carla armoede")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Jh")
    assert str(err.value).endswith("Anna cannot play Jh: armoede awaits the redeal")
    game = table("lives", 4, "no-armoede")
    deal(game, "Dan", hands_with(LAUNDRY))
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla armoede")
    assert str(err.value).endswith("Carla declares armoede, but these rules have no armoede")


def test_poverty_starts_at_two_the_poor_player_leads_and_may_not_knock():
    game = table("classic", 4, "poverty")
    game.lives[3] = 1  # Dan has 9 points
    deal(game, "Carla", ["Jh 9s 7c Qd", "Qh Js Qc Jc", "Ah Kh Qs 9d", "8h Ts Ac Ad"])
    assert rows(game.log[:1]) == [("hand_start", 2, None, 2, None)]
    assert game.answer_queue == [0, 1, 2]
    run(game, "Anna fold", "Ben stay", "Carla stay")
    assert costs(game)["Anna"] == 1
    assert game.to_move == 3
    with pytest.raises(IllegalActionError) as err:
        run(game, "Dan knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Dan cannot knock: the poor player may not knock"
    )
    run(game, "Dan 8h")


def test_poverty_everyone_folding_makes_the_poor_player_win():
    game = table("classic", 4, "poverty")
    game.lives[3] = 1
    deal(game, "Carla", ["Jh 9s 7c Qd", "Qh Js Qc Jc", "Ah Kh Qs 9d", "8h Ts Ac Ad"])
    run(game, "Anna fold", "Ben fold", "Carla fold")
    assert rows(game.log[-1:]) == [("hand_end", 3, None, 2, None)]
    assert game.lives[3] == 1


def test_three_tens_must_whistle_before_the_first_card():
    game = table("classic", 4, "whistling")
    deal(game, "Dan", ["Th Ts Tc 7d", "Qh Js Qc Jc", "Ah Kh Qs 9d", "8h 9s Ac Ad"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Th")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot play Th: Anna must first announce 3 tens"
    )
    assert run(game, "Anna whistle T") == [Whistle(0, Rank.TEN, 3)]
    run(game, "Anna Th")


def test_four_jacks_may_stand_up_but_need_not():
    game = table("classic", 4, "whistling")
    deal(game, "Dan", ["Jh Js Jc Jd", "Qh 9s Qc Tc", "Ah Kh Qs 9d", "8h Ts Ac Ad"])
    assert game.can_whistle(0, Rank.JACK, 4)
    run(game, "Anna Jh")  # no obligation for jacks in the English rules


def test_malay_whistling_makes_three_jacks_compulsory():
    game = table("classic", 4, "whistling-malay")
    deal(game, "Dan", ["Jh Js Jc 7d", "Qh 9s Qc Tc", "Ah Kh Qs 9d", "8h Ts Ac Ad"])
    with pytest.raises(IllegalActionError):
        run(game, "Anna Jh")
    run(game, "Anna whistle J 3", "Anna Jh")


def test_whistling_needs_the_cards():
    game = table("classic", 4, "whistling")
    deal(game, "Dan", ["Th Ts 9c 7d", "Qh Js Qc Jc", "Ah Kh Qs 9d", "8h Tc Ac Ad"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna whistle T 3")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot announce 3 tens (holds 2 known of them)"
    )


def test_armoede_once_per_player_per_hand():
    game = table("lives")
    deal(game, "Dan", hands_with(LAUNDRY))
    run(game, "Carla armoede", "Dan redeal")
    feed(game, ["Jh 9s 7c Qd", "Qh Js 7s Jc", LAUNDRY, "8h Ts Ac Ad"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla armoede")
    assert str(err.value) == (
        "hand 1, before the first lead: Carla declares armoede, "
        "but already declared armoede in this hand"
    )


# -- seed variants that were refereed wrongly (issue: every club's rules) -------------------


def test_dirty_laundry_may_be_swapped_but_need_not_under_mandatory_discard():
    """Seed 003: dirty laundry "may also be swapped"; seed 004 forces a discard only for a
    hand of "only" aces, kings, queens and jacks."""
    game = table("classic", 4, "mandatory-discard", "dirty-laundry")
    deal(game, "Dan", hands_with("Ah Kh Qs 7d"))
    assert not game.must_swap(seat(game, "Carla"))
    assert game.can_laundry(seat(game, "Carla"))
    run(game, "Anna Jh")  # nobody is made to swap it
    game = table("classic", 4, "mandatory-discard", "dirty-laundry")
    deal(game, "Dan", hands_with("Ah Kh Qs 7d"))
    run(game, "Carla laundry")  # and it may be swapped, checked as laundry
    feed(game, ["", "", NEW, ""])
    assert run(game, "Ben check Carla")[0].genuine == 1


def test_a_player_who_folds_still_owes_the_whistle():
    game = table("classic", 4, "whistling")
    deal(game, "Dan", ["Th Ts Tc 7d", "Qh Js Qc Jc", "Ah Kh Qs 9d", "8h 9s Ac Ad"])
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna fold")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben Qh")
    assert str(err.value) == (
        "hand 1, before the first lead: Ben cannot play Qh: Anna must first announce 3 tens"
    )
    run(game, "Anna whistle T", "Ben Qh")


def test_a_folded_player_makes_no_announcement_that_was_a_choice():
    game = table("classic", 4, "whistling")
    deal(game, "Dan", ["Jh Js Jc 7d", "Qh 9s Qc Tc", "Ah Kh Qs 9d", "8h Ts Ac Ad"])
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna fold")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna whistle J")
    assert str(err.value).endswith("Anna folded and need not announce jacks")


def test_three_or_four_tens_whistle_or_stand_under_the_french_rule():
    """Seed 000: "trois ou quatre 10 doit siffler ou se lever"; seed 003: three whistle,
    four stand up."""
    four, three = "Th Ts Tc Td", "Th Ts Tc 7d"
    others = ["Qh 9h Qc 8c", "Ah Kh Qs 9d", "8h 9s Ac Ad"]
    for cards, count in ((four, 3), (four, 4), (three, 3), (three, 4)):
        game = table("lives", 4, "whistle-or-stand")
        deal(game, "Dan", [cards, *others])
        assert run(game, f"Anna whistle T {count}") == [Whistle(0, Rank.TEN, count)]
        run(game, "Anna Th")
    game = table("classic", 4, "whistling")
    deal(game, "Dan", [four, *others])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna whistle T 3")
    assert str(err.value).endswith("Anna cannot announce 3 tens (holds 4 known of them)")
    game = table("lives", 4, "whistle-or-stand-jacks")
    deal(game, "Dan", ["Jh Js Jc Jd", *others])
    with pytest.raises(IllegalActionError):
        run(game, "Anna Jh")  # jacks too, where the club says so
    run(game, "Anna whistle J 3", "Anna Jh")
