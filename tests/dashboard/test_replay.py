"""The replayer's states: stake, cards and who is in at given steps, in both views."""

from __future__ import annotations

import pytest

from kroeg.dashboard.replay import HIDDEN, hand_numbers, hand_states
from kroeg.recorder.errors import NotFoundError
from kroeg.recorder.records import GameRecord
from tests.recorder.table import play_example


def example() -> GameRecord:
    game = play_example()
    return GameRecord(
        game_id="seed", rules=game.rules, players=game.players, events=tuple(game.log)
    )


def step_of(states, text: str) -> int:
    return next(s.step for s in states if s.text.startswith(text))


def test_what_the_table_saw() -> None:
    states = hand_states(example(), 1, reveal_all=False)
    dealt = step_of(states, "Anna plays J♥") - 1
    assert states[dealt].hands[0] == (HIDDEN,) * 4  # nobody's cards are shown yet
    first = step_of(states, "Anna plays J♥")
    assert states[first].hands[0] == (HIDDEN,) * 3
    assert states[first].trick == ((0, "Jh"),)
    knock = step_of(states, "Ben knocks")
    assert states[knock].stake == 2 and all(states[knock].in_hand)
    fold = step_of(states, "Carla folds")
    assert states[fold].folded == (False, False, True, False)
    assert states[fold].in_hand == (True, True, False, True)
    assert states[fold].scores[2] == "1 point"
    last = states[-1]
    assert last.stake == 3 and last.scores == ("0 points", "3 points", "1 point", "2 points")
    assert last.hands == ((), (), (HIDDEN, HIDDEN), (HIDDEN,))  # folded cards stay face down
    assert last.trick == ((0, "9s"), (1, "8s"))


def test_all_cards() -> None:
    states = hand_states(example(), 1, reveal_all=True)
    dealt = step_of(states, "Anna plays J♥") - 1
    assert states[dealt].hands[0] == ("Jh", "Jc", "Td", "9s")
    assert states[dealt].hands[3] == ("Ah", "7c", "8d", "Qd")
    trick2 = step_of(states, "Dan plays 7♣")
    assert states[trick2].trick == ((3, "7c"),)  # trick 1 cleared when trick 2 is led
    assert states[-1].hands[2] == ("7d", "As")


def test_hand_numbers_and_bounds() -> None:
    record = example()
    assert hand_numbers(record) == [1]
    # The same error, in the same words, as the terminal replay's: one way to slice hands.
    with pytest.raises(NotFoundError) as err:
        hand_states(record, 2, reveal_all=True)
    assert str(err.value) == "game seed has hands 1 to 1, not hand 2"


def test_a_team_toepen_hand_shows_each_seats_side() -> None:
    from pathlib import Path

    from kroeg.dashboard.table import table_html
    from kroeg.parsers.files import read_file

    log = Path(__file__).resolve().parents[2] / "sample_logs" / "team-toepen-evening.txt"
    (record,) = read_file(log).games
    states = hand_states(record, 1, reveal_all=True)
    assert states[0].teams == (0, 1, 0, 1) and not states[0].troefcall
    board = table_html(states[-1], record.players)
    assert board.count('class="kroeg-side s0"') == 3  # two seats and the key in the middle
    assert board.count('class="kroeg-side s1"') == 3
    assert "stake 1" in board  # Toepen's middle of the table, not Troefcall's trump
    assert states[-1].scores == ("9 lives", "10 lives", "9 lives", "10 lives")  # one pool a side


def test_the_table_says_which_colour_is_which_side() -> None:
    from pathlib import Path

    from kroeg.dashboard.table import table_html
    from kroeg.parsers.files import read_file

    log = Path(__file__).resolve().parents[2] / "sample_logs" / "team-toepen-evening.txt"
    (record,) = read_file(log).games
    board = table_html(hand_states(record, 1, reveal_all=False)[0], record.players)
    assert '<span class="kroeg-side s0"></span>Anna &amp; Carla' in board
    assert '<span class="kroeg-side s1"></span>Ben &amp; Dan' in board
