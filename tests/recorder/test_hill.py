"""Troefcall's king-of-the-hill evening (seed 002, "Changement d'équipe"): the rule that
links a game to the next, in the engine (recorder.hill) and in manual entry."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from kroeg.recorder.errors import IllegalActionError, UsageError
from kroeg.recorder.hill import (
    KING_OF_THE_HILL,
    HillReferee,
    evening_problem,
    next_table,
    outcome,
)
from kroeg.recorder.manual import ManualGame
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.store import Dataset
from tests.recorder.hill_games import EVENING, ONE_HAND, TWO_HANDS, played

FOUR = ("Anna", "Ben", "Carla", "Dan")


def six_player_evening() -> list[GameRecord]:
    """Anna & Carla lose to Ben & Dan; Ben & Dan lose to Eva & Frits, who waited; Eva &
    Frits beat Anna & Carla, back from waiting."""
    first = played(FOUR, ("Ben", "Dan"), 1)
    second_table = next_table(first, ("Eva", "Frits"))
    assert second_table == ("Eva", "Ben", "Frits", "Dan")  # winners keep their seats
    second = played(second_table, ("Eva", "Frits"), 2)
    third_table = next_table(second, ("Anna", "Carla"))
    assert third_table == ("Eva", "Anna", "Frits", "Carla")
    third = played(third_table, ("Eva", "Frits"), 3)
    return [first, second, third]


def test_a_legal_evening_is_accepted() -> None:
    hill = HillReferee()
    games = six_player_evening()
    for game in games:
        hill.check(game)
    assert hill.previous(games[2]) == games[1]
    assert hill.present(games[2]) == ["Anna", "Ben", "Carla", "Dan", "Eva", "Frits"]


def test_the_winners_are_read_from_the_engines_game_end() -> None:
    game = played(FOUR, ("Ben", "Dan"), 1)
    result = outcome(game)
    assert result is not None
    assert (result.winners, result.losers) == (("Ben", "Dan"), ("Anna", "Carla"))


def test_winners_split_up_is_refused_naming_the_games_and_the_players() -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    split = played(("Ben", "Eva", "Dan", "Frits"), ("Ben", "Dan"), 2)  # Ben & Dan sit opposite
    assert split.teams == (0, 1, 0, 1)
    broken = played(("Eva", "Ben", "Frits", "Dan"), ("Eva", "Frits"), 2)
    broken = dataclasses.replace(broken, players=("Ben", "Eva", "Frits", "Dan"))
    hill = HillReferee()
    hill.check(first)
    with pytest.raises(IllegalActionError) as err:
        hill.check(broken)
    assert str(err.value) == (
        "king-of-the-hill evening of 2026-11-27 at Café Paramaribo: game hill-2 (20:30) "
        "follows game hill-1 (20:00), which Ben & Dan won: Ben & Dan stay on the hill as "
        "partners, but the table is Ben & Frits against Dan & Eva"
    )
    HillReferee().check(first)  # and the legal one passes
    hill = HillReferee()
    hill.check(first)
    hill.check(split)


def test_the_losers_make_way_while_others_wait() -> None:
    first, second, _ = six_player_evening()
    # After Ben & Dan lost game 2, they come back at once, while Anna and Carla wait.
    again = played(("Eva", "Ben", "Frits", "Dan"), ("Eva", "Frits"), 3)
    hill = HillReferee()
    hill.check(first)
    hill.check(second)
    with pytest.raises(IllegalActionError) as err:
        hill.check(again)
    assert str(err.value) == (
        "king-of-the-hill evening of 2026-11-27 at Café Paramaribo: game hill-3 (21:00) "
        "follows game hill-2 (20:30), which Ben & Dan lost: Ben & Dan make way for "
        "challengers, and Anna and Carla are waiting"
    )


def test_with_four_players_all_evening_the_same_two_come_back() -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    second = played(FOUR, ("Anna", "Carla"), 2)
    third = played(FOUR, ("Anna", "Carla"), 3)
    hill = HillReferee()
    for game in (first, second, third):
        hill.check(game)


def test_one_loser_may_come_back_with_a_newcomer() -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    second = played(("Eva", "Ben", "Carla", "Dan"), ("Ben", "Dan"), 2)
    hill = HillReferee()
    hill.check(first)
    hill.check(second)


def test_after_a_draw_or_an_unfinished_game_the_hill_is_open() -> None:
    draw = played(FOUR, None, 1, rules=TWO_HANDS)
    assert outcome(draw) is None
    anyone = played(("Eva", "Anna", "Frits", "Ben"), ("Anna", "Ben"), 2)
    hill = HillReferee()
    hill.check(draw)
    hill.check(anyone)
    # A game whose log stops before its end (no game_end): no winner is worked out.
    whole = played(FOUR, ("Ben", "Dan"), 1, rules=TWO_HANDS)
    first_hand = whole.events[: whole.hand_starts()[1]]
    cut = dataclasses.replace(whole, events=first_hand)
    assert outcome(cut) is None
    hill = HillReferee()
    hill.check(cut)
    hill.check(dataclasses.replace(anyone, started_at=anyone.started_at))


def test_a_game_written_out_of_order_is_checked_against_the_game_after_it() -> None:
    first, second, third = six_player_evening()
    hill = HillReferee()
    hill.check(second)  # written first: it opens the hill, for now
    hill.check(third)
    hill.check(first)  # game 1 (20:00) comes before game 2, and fits
    other_first = dataclasses.replace(played(FOUR, ("Anna", "Carla"), 1), game_id="hill-1b")
    hill = HillReferee()
    hill.check(second)
    with pytest.raises(IllegalActionError) as err:
        hill.check(other_first)
    assert "game hill-2 (20:30) follows game hill-1b (20:00), which Anna & Carla won" in str(
        err.value
    )


def test_a_hill_game_needs_its_time_and_one_of_its_own() -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    with pytest.raises(IllegalActionError, match="needs its date and time"):
        HillReferee().check(dataclasses.replace(first, started_at=None))
    hill = HillReferee()
    hill.check(first)
    twin = dataclasses.replace(played(FOUR, ("Anna", "Carla"), 1), game_id="hill-1b")
    with pytest.raises(IllegalActionError, match="start at the same time"):
        hill.check(twin)
    hill.check(first)  # the same game again (a file imported twice): nothing to check


def test_other_evenings_and_games_on_their_own_are_left_alone() -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    hill = HillReferee()
    hill.check(first)
    hill.check(played(("Ben", "Anna", "Dan", "Carla"), ("Anna", "Carla"), 2, evening=None))
    hill.check(played(("Ben", "Anna", "Dan", "Carla"), ("Anna", "Carla"), 2, venue="Elsewhere"))


def test_only_troefcall_has_the_evening_and_only_this_one() -> None:
    troefcall = Ruleset.preset("troefcall")
    assert evening_problem(KING_OF_THE_HILL, troefcall) is None
    assert evening_problem(KING_OF_THE_HILL, Ruleset.preset("classic")) == (
        "a king-of-the-hill evening is Troefcall's (seed 002: the winning pair stays on), "
        "not toepen's"
    )
    assert evening_problem("king-of-the-hil", troefcall) == (
        "unknown evening 'king-of-the-hil': did you mean king-of-the-hill? "
        "Expected one of king-of-the-hill"
    )


def test_the_dataset_gives_the_evenings_games_already_stored(tmp_path: Path) -> None:
    first, second, third = six_player_evening()
    dataset = Dataset(tmp_path / "club").create()
    dataset.write([first, second, played(FOUR, ("Ben", "Dan"), 5, evening=None)])
    stored = dataset.evening_games(KING_OF_THE_HILL, EVENING.date(), "Café Paramaribo")
    assert [g.game_id for g in stored] == ["hill-1", "hill-2"]
    assert stored[0].evening == KING_OF_THE_HILL
    HillReferee(dataset.evening_games).check(third)
    back = played(("Eva", "Ben", "Frits", "Dan"), ("Eva", "Frits"), 3)
    with pytest.raises(IllegalActionError, match="Ben & Dan make way"):
        HillReferee(dataset.evening_games).check(back)


def test_manual_entry_refuses_a_broken_table_and_proposes_the_next(tmp_path: Path) -> None:
    first = played(FOUR, ("Ben", "Dan"), 1)
    dataset = tmp_path / "club"
    Dataset(dataset).create().write([first])
    later = first.started_at.replace(hour=21)  # type: ignore[union-attr]
    hour = timedelta(hours=1)
    with pytest.raises(IllegalActionError, match="Ben & Dan stay on the hill as partners"):
        ManualGame.start(("Ben", "Eva", "Frits", "Dan"), ONE_HAND, tmp_path / "j1.jsonl",
                         dataset=dataset, venue="Café Paramaribo", started_at=later,
                         evening=KING_OF_THE_HILL)  # fmt: skip
    with pytest.raises(UsageError, match="Troefcall's"):
        ManualGame.start(FOUR, Ruleset.preset("classic"), tmp_path / "j2.jsonl",
                         evening=KING_OF_THE_HILL)  # fmt: skip
    manual = ManualGame.start(("Eva", "Ben", "Frits", "Dan"), ONE_HAND, tmp_path / "j3.jsonl",
                              dataset=dataset, venue="Café Paramaribo", started_at=later,
                              evening=KING_OF_THE_HILL)  # fmt: skip
    assert manual.record().evening == KING_OF_THE_HILL
    assert ManualGame.resume(tmp_path / "j3.jsonl").header["evening"] == KING_OF_THE_HILL
    # Played to its end: the inputs of a game Eva & Frits won, as the table types them.
    won = played(("Eva", "Ben", "Frits", "Dan"), ("Eva", "Frits"), 2)
    assert manual.hill_holders() is None  # not over yet
    for at, event in enumerate(won.events):
        if at >= len(manual.game.log):  # what the engine records by itself is there already
            manual._apply(event)
    assert manual.over and manual.hill_holders() == ("Eva", "Frits")
    manual.land()
    with pytest.raises(IllegalActionError, match="Ben & Dan make way for challengers, and Anna"):
        manual.next_on_the_hill(("Ben", "Dan"), tmp_path / "j4.jsonl", later + hour)
    following = manual.next_on_the_hill(("Anna", "Carla"), tmp_path / "j5.jsonl", later + hour)
    assert following.players == ("Eva", "Anna", "Frits", "Carla")
    assert following.header["evening"] == KING_OF_THE_HILL
    assert following.header["venue"] == "Café Paramaribo"
