"""Scenario tests: team toepen (seeds 000/001, "Toepen en équipe"): 4 or 6 players,
partners opposite, one pool of lives per side; the side losing the last trick pays."""

from dataclasses import replace

import pytest

from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.toepen import Toepen
from tests.recorder.table import NAMES, deal, rows, run

HANDS = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"]


def team_game(players: int = 4, lives: int = 10) -> Toepen:
    rules = replace(Ruleset.preset("lives").with_variants("team-toepen"), lives=lives)
    return Toepen(rules, NAMES[:players])


def test_partners_sit_opposite_and_share_one_pool():
    assert team_game(4).teams == (0, 1, 0, 1)
    assert team_game(6).teams == (0, 1, 2, 0, 1, 2)


def test_the_side_that_takes_the_last_trick_pays_from_its_pool():
    game = team_game()
    deal(game, "Dan", HANDS)
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah")  # Dan
    run(game, "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")  # Dan
    run(game, "Dan 8d", "Anna Td", "Ben Jd", "Carla 7d")  # Anna
    run(game, "Anna 9s", "Ben 8s", "Carla As", "Dan Qd")  # Anna takes the last trick
    paid = [r for r in rows(game.log) if r[0] == "pay"]
    assert paid == [("pay", 0, None, 1, None)]  # once, by the player who took it
    assert game.lives == [9, 10, 9, 10]  # from Anna and Carla's pool
    assert [r[1] for r in rows(game.log) if r[0] == "win"] == [1, 3]  # Ben and Dan win


def test_a_partner_who_folds_pays_from_the_pool_and_the_other_plays_on():
    game = team_game()
    deal(game, "Dan", HANDS)
    run(game, "Ben knock", "Carla stay", "Dan fold", "Anna stay")
    assert game.lives == [10, 9, 10, 9]
    run(game, "Anna Jh", "Ben Qh", "Carla Kh")  # Carla
    run(game, "Carla Kc", "Anna Jc", "Ben Qc")  # Carla
    run(game, "Carla 7d", "Anna Td", "Ben Jd")  # Anna
    run(game, "Anna 9s", "Ben 8s", "Carla As")  # Anna takes the last trick: stake 2
    assert game.lives == [8, 9, 8, 9]


def test_a_hand_ends_when_only_partners_are_left_in_it():
    game = team_game()
    deal(game, "Dan", HANDS)
    run(game, "Anna knock", "Ben fold", "Carla stay", "Dan fold")
    assert game.phase == "idle"  # nobody left to play against
    assert [r[1] for r in rows(game.log) if r[0] == "win"] == [0, 2]
    assert game.lives == [10, 8, 10, 8]  # two folds from Ben and Dan's one pool


def test_a_pool_at_zero_puts_the_side_out_and_the_last_side_wins():
    game = team_game(lives=1)
    deal(game, "Dan", HANDS)
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah", "Dan 7c", "Anna Jc", "Ben Qc")
    run(game, "Carla Kc", "Dan 8d", "Anna Td", "Ben Jd", "Carla 7d")
    run(game, "Anna 9s", "Ben 8s", "Carla As", "Dan Qd")
    assert rows(game.log[-3:]) == [
        ("eliminated", 0, None, None, None),
        ("eliminated", 2, None, None, None),
        ("game_end", 1, None, None, None),
    ]


def test_six_players_play_in_three_sides():
    game = team_game(6, lives=1)
    hands = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd", "Th 9h 8h 7h",
             "Ts 9c 8c Tc"]  # fmt: skip
    deal(game, "Frits", hands)
    run(game, "Anna knock", "Ben fold", "Carla fold", "Dan stay", "Eva fold", "Frits fold")
    assert game.over and game.winner == 0  # Anna and Dan are the last side standing
    out = [r[1] for r in rows(game.log) if r[0] == "eliminated"]
    assert sorted(out) == [1, 2, 4, 5]


def test_team_toepen_is_for_four_or_six_players():
    with pytest.raises(IllegalActionError) as err:
        Toepen(Ruleset.preset("lives").with_variants("team-toepen"), NAMES[:5])
    assert str(err.value) == (
        "lives + team-toepen is played by 4 or 6 players, partners opposite; found 5"
    )
