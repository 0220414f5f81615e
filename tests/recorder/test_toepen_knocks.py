"""Scenario tests: knocking, answering, folding, and the limits on knocking."""

import pytest

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import Fold, HandEnd, HandWon, Knock, Pay, Stay
from tests.recorder.table import costs, deal, rows, run, seat, table

HANDS = ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"]


def dealt(rules="classic", *variants, dealer="Dan", hands=HANDS, players=4, lives=None):
    game = table(rules, players, *variants)
    for name, value in (lives or {}).items():
        game.lives[seat(game, name)] = value
    deal(game, dealer, hands)
    return game


def test_knock_raises_the_stake_and_others_answer_clockwise_from_the_knockers_left():
    game = dealt()
    assert run(game, "Ben knock") == [Knock(1, 2)]
    assert game.answer_queue == [2, 3, 0]
    with pytest.raises(IllegalActionError) as err:
        run(game, "Dan stay")
    assert str(err.value) == "hand 1, before the first lead: Dan stays, but Carla answers first"


def test_knock_is_possible_mid_trick_and_during_the_last_trick():
    game = dealt()
    run(game, "Anna Jh", "Ben knock", "Carla stay", "Dan stay", "Anna stay")
    run(game, "Ben Qh", "Carla Kh", "Dan 8h")
    run(game, "Dan Ts", "Anna 9s", "Ben Js", "Carla 7s")
    run(game, "Dan Ac", "Anna 7c", "Ben Qc", "Carla Tc")
    run(game, "Carla Kd", "Dan knock", "Anna stay", "Ben stay", "Carla stay")
    assert game.stake == 3
    run(game, "Dan Ad", "Anna Qd", "Ben Jd")
    assert game.log[-1] == HandEnd(3, 3)  # Dan's Ad wins the last trick
    assert costs(game) == {"Anna": 3, "Ben": 3, "Carla": 3, "Dan": 0}


def test_fold_pays_the_stake_from_before_the_knock():
    game = dealt()
    run(game, "Ben knock", "Carla fold")
    assert rows(game.log[-2:]) == [("fold", 2, None, 1, None), ("pay", 2, None, 1, None)]
    run(game, "Dan stay", "Anna stay", "Anna knock", "Ben fold")
    assert rows(game.log[-2:]) == [("fold", 1, None, 2, None), ("pay", 1, None, 2, None)]


def test_knocker_cannot_fold_on_their_own_knock():
    game = dealt()
    run(game, "Ben knock")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben fold")
    assert str(err.value) == "hand 1, before the first lead: Ben cannot fold on their own knock"


def test_everyone_folding_makes_the_knocker_win_at_once_and_deal_next():
    game = dealt()
    run(game, "Anna Jh", "Ben knock", "Carla fold", "Dan fold", "Anna fold")
    assert rows(game.log[-5:]) == [
        ("fold", 0, None, 1, None),
        ("pay", 0, None, 1, None),
        ("all_folded", 1, None, None, None),  # the engine says why the hand ended
        ("win", 1, None, None, None),
        ("hand_end", 1, None, 2, None),
    ]
    assert costs(game) == {"Anna": 1, "Ben": 0, "Carla": 1, "Dan": 1}
    assert game.expected_dealer() == 1


def test_no_knocking_twice_in_a_row():
    game = dealt()
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna stay")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben knock")
    assert str(err.value) == "hand 1, before the first lead: Ben cannot knock twice in a row"
    run(game, "Carla knock", "Dan stay", "Anna stay", "Ben stay", "Ben knock")
    assert game.stake == 4


def test_classic_has_no_counter_knock_while_answering():
    game = dealt()
    run(game, "Ben knock")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Carla cannot knock: the last knock is still being answered"
    )


def test_classic_limit_nine_points_may_not_knock():
    game = dealt(lives={"Anna": 1})
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot knock: losing 2 would pass the limit of 10 "
        "(Anna has 9 points)"
    )


def test_classic_limit_eight_points_may_not_make_the_second_knock():
    game = dealt(lives={"Anna": 2})
    assert game.can_knock(0)
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna stay")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot knock: losing 3 would pass the limit of 10 "
        "(Anna has 8 points)"
    )


def test_limit_15_variant_moves_the_knock_limit():
    game = dealt("classic", "limit-15", lives={"Anna": 1})
    assert game.rules.lives == 15
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value).endswith("losing 2 would pass the limit of 15 (Anna has 14 points)")


def test_lives_counter_knock_sends_the_answers_round_again():
    game = dealt("lives")
    run(game, "Anna knock", "Ben knock")
    assert game.stake == 3
    assert game.answer_queue == [2, 3, 0]  # Carla, Dan, and Anna, who must answer now
    run(game, "Carla stay", "Dan fold", "Anna fold")
    assert rows(game.log[-4:]) == [
        ("fold", 3, None, 2, None),
        ("pay", 3, None, 2, None),
        ("fold", 0, None, 2, None),
        ("pay", 0, None, 2, None),
    ]


def test_lives_limit_fewer_lives_than_the_stake_may_not_knock():
    game = dealt("lives", lives={"Anna": 1})
    run(game, "Anna Jh", "Ben knock", "Carla stay", "Dan stay", "Anna stay")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben Qh", "Carla Kh", "Dan 8h", "Dan Ts", "Anna knock")
    assert str(err.value) == (
        "hand 1, trick 2: Anna cannot knock: has 1 life, fewer than the stake of 2"
    )


def test_lives_last_trick_winner_pays_the_final_stake_and_nobody_else():
    game = dealt("lives")
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan 8h")
    run(game, "Dan knock", "Anna stay", "Ben stay", "Carla stay")
    run(game, "Dan Ts", "Anna 9s", "Ben Js", "Carla 7s")
    run(game, "Dan Ac", "Anna 7c", "Ben Qc", "Carla Tc")
    run(game, "Carla Kd", "Dan Ad", "Anna Qd", "Ben Jd")
    # The last trick loses: the three others still in win the hand.
    assert game.log[-5:] == [Pay(3, 2), HandWon(0), HandWon(1), HandWon(2), HandEnd(3, 2)]
    assert costs(game) == {"Anna": 0, "Ben": 0, "Carla": 0, "Dan": 2}


def test_lives_everyone_folding_costs_only_the_folders():
    game = dealt("lives")
    run(game, "Ben knock", "Carla fold", "Dan fold", "Anna fold")
    assert costs(game) == {"Anna": 1, "Ben": 0, "Carla": 1, "Dan": 1}
    assert game.log[-1] == HandEnd(1, 2)


def test_first_speaker_house_rule():
    game = dealt("lives", "first-speaker-waits")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna speaks first and may not knock before a card is played"
    )
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna stay", "Anna Jh", "Anna knock")
    assert game.stake == 3


def test_fast_fold_lets_answers_come_in_any_order():
    game = dealt("classic", "fast-fold")
    run(game, "Ben knock", "Anna fold", "Dan stay", "Carla stay")
    assert [e for e in game.log if isinstance(e, Fold | Stay)] == [Fold(0, 1), Stay(3), Stay(2)]


def test_gezinstoepen_caps_the_stake_at_two_and_the_table_at_four():
    game = dealt("lives", "gezinstoepen")
    assert game.lives == [5, 5, 5, 5]
    run(game, "Ben knock", "Carla stay", "Dan stay", "Anna stay")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Carla knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Carla cannot knock: the stake is capped at 2"
    )
    with pytest.raises(IllegalActionError) as err:
        table("lives", 5, "gezinstoepen")
    assert str(err.value) == "lives + gezinstoepen needs 3 to 4 players, found 5"


def test_kroegtoepen_lifts_the_limit_on_knocking():
    game = dealt("lives", "kroegtoepen", lives={"Anna": 1})
    run(game, "Anna Jh", "Ben knock", "Carla stay", "Dan stay", "Anna knock")
    assert game.stake == 3


def test_no_knock_variant():
    game = dealt("classic", "no-knock")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot knock: these rules have no knocking"
    )


def test_answers_block_play_until_complete():
    game = dealt()
    run(game, "Ben knock", "Carla stay")
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Jh")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot play Jh: the knock must be answered first (Dan)"
    )


def test_a_leader_who_folds_before_the_first_lead_hands_the_lead_on():
    game = dealt("lives")
    run(game, "Dan knock", "Anna fold", "Ben stay", "Carla stay")
    assert game.to_move == 1
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna Jh")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot play Jh: Anna folded in this hand"
    )
    run(game, "Ben Qh")


def test_redeal_keeps_poverty_decided_at_the_start_of_the_hand():
    rules = table("lives").rules.with_variants("poverty")
    game = table(rules)
    game.lives[1] = 1  # Ben is poor; Carla will drop to 1 life through a lost check
    game.lives[2] = 2
    deal(game, "Dan", ["Ah Kh Qs Jd", "9s 7c Td 8h", "Jh Kc 7d As", "Qh Tc 8d Js"])
    assert game.poor == 1
    run(game, "Carla stay", "Dan stay", "Anna stay", "Anna armoede", "Carla check Anna")
    assert game.lives[2] == 1
    run(game, "Dan redeal")
    from tests.recorder.table import feed

    feed(game, ["Jc 9d Ts Kd", "7h Qc 9c Ad", "8s Th 7d Qd", "Ah 8c Kh Jh"])
    assert game.poor == 1 and game.answer_queue == [] and game.stake == 2
    assert game.to_move == 1


def test_the_stake_has_a_ceiling_even_without_a_knock_limit():
    from kroeg.recorder.toepen import MAX_STAKE

    game = dealt("lives", "kroegtoepen")
    game.stake = MAX_STAKE  # as after a very long knock war
    with pytest.raises(IllegalActionError) as err:
        run(game, "Anna knock")
    assert str(err.value) == (
        "hand 1, before the first lead: Anna cannot knock: the stake cannot go above 999"
    )


def test_bots_stop_raising_where_the_rules_set_no_limit():
    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate

    rules = Ruleset.preset("classic").with_variants("kroegtoepen", "fast-fold")
    games = list(simulate(rules, 8, 200, 79, ["random", "bluffer", "cautious", "sharp"]))
    stakes = [e.stake for g in games for e in g.events if isinstance(e, Knock)]
    assert stakes and max(stakes) <= 8 + 1  # a bluffer knocks up to 8, a counter to 9


def test_a_player_out_of_the_game_is_told_so():
    from dataclasses import replace

    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.toepen import Toepen

    rules = replace(Ruleset.preset("classic").with_variants("play-to-end"), lives=2)
    game = Toepen(rules, ["Anna", "Ben", "Carla", "Dan"])
    deal(game, "Dan", ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"])
    run(game, "Ben knock", "Carla fold", "Dan fold", "Anna stay")
    run(game, "Anna Jh", "Ben Qh", "Ben Qc", "Anna Jc", "Ben Jd", "Anna Td", "Anna 9s", "Ben 8s")
    assert [e.seat for e in game.log if e.kind == "eliminated"] == [1]  # Ben paid 2
    deal(game, "Anna", ["Jh Jc Td 9s", "", "Kh Kc 7d As", "Ah 7c 8d Qd"])
    with pytest.raises(IllegalActionError) as err:
        run(game, "Ben Qh")
    assert str(err.value) == (
        "hand 2, before the first lead: Ben cannot play Qh: Ben is out of the game"
    )
