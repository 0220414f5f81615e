"""Scenario tests: scoring, dealers, elimination, the end of the game, and replay."""

import dataclasses

import pytest

from kroeg.recorder.cards import Card
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.events import Eliminated, GameEnd
from kroeg.recorder.referee import replay
from kroeg.recorder.toepen import Toepen
from tests.recorder.table import costs, deal, play_example, rows, run, seat, table

HANDS = ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"]


def play_out(game):
    """Dan deals HANDS; Dan wins tricks 1, 2 and 4, Carla trick 3."""
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan 8h")
    run(game, "Dan Ts", "Anna 9s", "Ben Js", "Carla 7s")
    run(game, "Dan Ac", "Anna 7c", "Ben Qc", "Carla Tc")
    run(game, "Carla Kd", "Dan Ad", "Anna Qd", "Ben Jd")


def test_classic_every_player_still_in_pays_the_hand_value_but_the_winner():
    game = table("classic")
    deal(game, "Dan", HANDS)
    play_out(game)
    assert costs(game) == {"Anna": 1, "Ben": 1, "Carla": 1, "Dan": 0}
    assert game.expected_dealer() == 3


def test_classic_first_to_reach_the_limit_loses_and_the_game_ends():
    game = table("classic")
    game.lives[0] = 1
    deal(game, "Dan", HANDS)
    play_out(game)
    assert game.log[-1] == GameEnd(None, 0)
    assert game.over and game.loser == 0 and game.winner is None
    with pytest.raises(IllegalActionError) as err:
        game.start_hand()
    assert str(err.value) == "after hand 1: the game is over"


def test_classic_two_reaching_the_limit_together_the_last_payer_loses():
    game = table("classic")
    game.lives[0] = game.lives[1] = 1
    deal(game, "Dan", HANDS)
    play_out(game)
    assert game.log[-1] == GameEnd(None, 1)


def test_play_to_the_end_drops_the_player_and_plays_on():
    game = table("classic", 4, "play-to-end")
    game.lives[0] = 1
    deal(game, "Dan", HANDS)
    play_out(game)
    assert game.log[-1] == Eliminated(0)
    assert not game.over
    deal(game, None, ["", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    assert game.dealer == 3
    assert [e.seat for e in game.log if e.kind == "deal"][-12:] == [1, 2, 3] * 4


def test_lives_deal_passes_to_the_left():
    game = table("lives")
    deal(game, "Dan", HANDS)
    play_out(game)
    assert rows(game.log[-5:]) == [
        ("pay", 3, None, 1, None),
        *(("win", s, None, None, None) for s in (0, 1, 2)),
        ("hand_end", 3, None, 1, None),
    ]
    assert game.expected_dealer() == 0


def test_lives_player_at_zero_is_eliminated_and_the_deal_skips_them():
    game = table("lives")
    game.lives[3] = 1
    deal(game, "Carla", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Kh 7s Tc Kd", "8h Ts Ac Ad"])
    run(game, "Dan 8h", "Anna Jh", "Ben Qh", "Carla Kh")
    run(game, "Dan Ts", "Anna 9s", "Ben Js", "Carla 7s")
    run(game, "Dan Ac", "Anna 7c", "Ben Qc", "Carla Tc")
    run(game, "Carla Kd", "Dan Ad", "Anna Qd", "Ben Jd")
    assert game.log[-1] == Eliminated(3)
    assert game.expected_dealer() == 0  # left of Carla is Dan, who is out


def _three_player_lives(anna, ben):
    game = table("lives", 3)
    game.lives[:] = [anna, ben, 1]
    # Hand 1: Carla wins every trick, so she loses the hand and is out.
    deal(game, "Carla", ["Jh 9s 7c Qd", "Qh Js Qc Jd", "Th Ts Tc Td"])
    run(game, "Anna Jh", "Ben Qh", "Carla Th", "Carla Ts", "Anna 9s", "Ben Js")
    run(game, "Carla Tc", "Anna 7c", "Ben Qc", "Carla Td", "Anna Qd", "Ben Jd")
    assert game.log[-1] == Eliminated(2)
    # Hand 2: Anna bluffs armoede and is caught; after the redeal Ben takes every trick.
    deal(game, None, ["Ah Kh Qs 9d", "Qh Js Qc Jd", ""])
    assert game.dealer == 0
    run(game, "Anna armoede", "Ben check Anna", "Anna redeal")
    game_feed = ["Jh Js Jc Jd", "Th 9s 8c 7d", ""]
    from tests.recorder.table import feed

    feed(game, game_feed)
    return game


def test_lives_last_two_out_together_more_lives_before_the_hand_wins():
    game = _three_player_lives(anna=1, ben=2)
    run(game, "Ben knock", "Anna stay")
    run(game, "Ben Th", "Anna Jh", "Ben 9s", "Anna Js", "Ben 8c", "Anna Jc", "Ben 7d", "Anna Jd")
    assert game.lives[:2] == [0, 0]
    assert game.log[-2:] == [Eliminated(0), GameEnd(1, None)]


def test_lives_perfect_tie_plays_a_sudden_death_hand():
    game = _three_player_lives(anna=1, ben=1)
    run(game, "Ben Th", "Anna Jh", "Ben 9s", "Anna Js", "Ben 8c", "Anna Jc", "Ben 7d", "Anna Jd")
    assert game.lives[:2] == [0, 0]
    assert game.sudden_death and not game.over
    deal(game, None, ["Th 9s 8c 7d", "Jh Js Jc Jd", ""])
    assert game.dealer == 1
    run(game, "Anna Th", "Ben Jh", "Anna 9s", "Ben Js", "Anna 8c", "Ben Jc", "Anna 7d", "Ben Jd")
    assert game.log[-2:] == [Eliminated(0), GameEnd(1, None)]


def test_lives_first_dealer_by_cut_with_a_recut_on_a_tie():
    game = table("lives")
    for s, code in enumerate(["Td", "9h", "Th", "8s"]):
        game.cut(s, Card.parse(code))
    assert game.cut_round == [0, 2]
    game.cut(0, Card.parse("As"))
    game.cut(2, Card.parse("7h"))
    with pytest.raises(IllegalActionError) as err:
        game.start_hand(0)
    assert str(err.value) == (
        "before the first hand: Carla deals, not Anna (the highest cut card deals)"
    )
    game.start_hand()
    assert game.dealer == 2
    assert [e.to_row()[:3] for e in game.log[:6]] == [
        ("reveal", 0, "Td"),
        ("reveal", 1, "9h"),
        ("reveal", 2, "Th"),
        ("reveal", 3, "8s"),
        ("reveal", 0, "As"),
        ("reveal", 2, "7h"),
    ]


def test_a_cut_card_outside_the_deck_is_refused():
    """Found by the fuzz test: a cut of the 2 of hearts in a 32-card game raised KeyError
    when the round was scored; it is an illegal move, said at the cut, the log untouched."""
    game = table("lives")
    with pytest.raises(IllegalActionError, match="2h is not in this game's deck"):
        game.cut(0, Card.parse("2h"))
    assert not game.log and not game.can_cut(0, Card.parse("2h"))
    game.cut(0, Card.parse("Td"))  # the round goes on


def test_classic_first_dealer_must_be_named_without_a_seed():
    game = table("classic")
    with pytest.raises(IllegalActionError) as err:
        game.start_hand()
    assert str(err.value) == "before the first hand: the first dealer must be named"


def test_seeded_games_are_deterministic_and_deal_themselves():
    rules = table("lives").rules
    first, second = Toepen(rules, ["A", "B", "C"], seed=5), Toepen(rules, ["A", "B", "C"], seed=5)
    first.start_hand()
    second.start_hand()
    assert first.log == second.log
    assert sum(1 for e in first.log if e.kind == "deal") == 12


def test_replay_refuses_a_log_whose_costs_disagree_with_the_rules():
    game = play_example()
    log = list(game.log)
    index = max(i for i, e in enumerate(log) if e.kind == "pay")
    log[index] = dataclasses.replace(log[index], amount=2)
    with pytest.raises(IllegalActionError) as err:
        replay(game.rules, game.players, log)
    assert str(err.value) == (
        f"after hand 1: event {index + 1} is pay by Ben (2), but the rules give pay by Ben (3)"
    )


def test_replay_refuses_a_log_that_stops_early():
    game = play_example()
    with pytest.raises(IllegalActionError) as err:
        replay(game.rules, game.players, game.log[:-4])
    assert str(err.value) == "after hand 1: the log stops before trick by Anna (4)"


def test_a_log_written_before_win_events_replays_and_gains_them():
    game = play_example()
    older = [e for e in game.log if e.kind != "win"]
    assert len(older) == len(game.log) - 1
    assert replay(game.rules, game.players, older).log == game.log


def test_replay_refuses_a_wrong_fold_amount():
    game = play_example()
    log = [dataclasses.replace(e, stake=5) if e.kind == "fold" else e for e in game.log]
    with pytest.raises(IllegalActionError) as err:
        replay(game.rules, game.players, log)
    assert "is fold by Carla (5), but the rules give fold by Carla (1)" in str(err.value)


def test_seat_helper():
    assert seat(table(), "Dan") == 3


def test_a_sudden_death_hand_is_called_one():
    from kroeg.parsers.render import describe_events

    game = _three_player_lives(anna=1, ben=1)
    run(game, "Ben Th", "Anna Jh", "Ben 9s", "Anna Js", "Ben 8c", "Anna Jc", "Ben 7d", "Anna Jd")
    deal(game, None, ["Th 9s 8c 7d", "Jh Js Jc Jd", ""])
    start = next(e for e in reversed(game.log) if e.kind == "hand_start")
    (line,) = [t for t in describe_events(game, [start]) if "deals" in t]
    assert line.endswith("sudden death: the last players tied, whoever pays in this hand is out")
