"""The replayer's states: stake, cards and who is in at given steps, in both views."""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path

import pytest

from kroeg.dashboard.replay import HIDDEN, hand_numbers, hand_states
from kroeg.parsers import notation
from kroeg.recorder.errors import NotFoundError
from kroeg.recorder.records import GameRecord
from tests.parsers.results import failed_baunie, six_at_team_toepen
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
    assert states[fold].scores[2] == "0 points"  # the fold; its pay is the next row
    assert states[fold + 1].kind == "pay" and states[fold + 1].scores[2] == "1 point"
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


SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def sample(name: str, index: int = 0) -> GameRecord:
    return notation.load(SAMPLES / name)[index]


@pytest.mark.parametrize(
    ("record", "number", "verdict", "banner"),
    [
        pytest.param(
            lambda: sample("lives-armoede-cut.txt"), 1,
            "Anna took the last trick and loses the hand; Ben wins (stake 9)",
            "Anna took the last trick and loses the hand; Ben wins (stake 9). "
            "Paid: Anna 9, Carla 7, Dan 1. "
            "Scores after the hand: Anna 1 life, Ben 10 lives, Carla 3 lives, Dan 9 lives.",
            id="lives",
        ),
        pytest.param(
            lambda: sample("lives-armoede-cut.txt"), 2,
            "Anna took the last trick and loses the hand; Ben wins (stake 3)",
            "Anna took the last trick and loses the hand; Ben wins (stake 3). "
            "Anna is out of the game. Paid: Anna 3, Carla 1, Dan 1. "
            "Scores after the hand: Ben 10 lives, Carla 2 lives, Dan 8 lives.",
            id="lives-out",
        ),
        pytest.param(
            lambda: sample("team-toepen-evening.txt"), 1,
            "Anna took the last trick: Anna & Carla lose the hand; Ben & Dan win (stake 1)",
            "Anna took the last trick: Anna & Carla lose the hand; Ben & Dan win (stake 1). "
            "Paid: Anna 1. Scores after the hand: Anna & Carla 9 lives, Ben & Dan 10 lives.",
            id="team-toepen",
        ),
        pytest.param(
            lambda: sample("team-toepen-evening.txt"), 2,
            "Ben took the last trick: Ben & Dan lose the hand; Anna wins (stake 2)",
            "Ben took the last trick: Ben & Dan lose the hand; Anna wins (stake 2). "
            "Paid: Ben 2, Carla 1. Scores after the hand: Anna & Carla 8 lives, Ben & Dan 8 lives.",
            id="team-toepen-partner-folded",
        ),
        pytest.param(
            six_at_team_toepen, 5,
            "Carla took the last trick: Carla & Frits lose the hand; Ben & Eva win (stake 2)",
            "Carla took the last trick: Carla & Frits lose the hand; Ben & Eva win (stake 2). "
            "Carla & Frits are out of the game. Game over: Ben & Eva win the game. "
            "Paid: Carla 2, Frits 1. Scores after the hand: Ben & Eva 1 life.",
            id="team-toepen-six",
        ),
        pytest.param(
            lambda: sample("classic-evening.txt", 0), 4,
            "Dan wins the hand (stake 2)",
            "Dan wins the hand (stake 2). Game over: Ben loses the game. "
            "Paid: Anna 1, Ben 3, Carla 1. "
            "Scores after the hand: Anna 3 points, Ben 12 points, Carla 4 points, Dan 2 points.",
            id="classic",
        ),
        pytest.param(
            lambda: sample("troefcall-evening.txt"), 2,
            "Hand over: Ben & Dan win the hand (Anna & Carla 5 tricks, Ben & Dan 8)",
            "Hand over: Ben & Dan win the hand (Anna & Carla 5 tricks, Ben & Dan 8). "
            "Ben & Dan score 2. Scores after the hand: Anna & Carla 5 points, Ben & Dan 2 points.",
            id="troefcall",
        ),
        pytest.param(
            failed_baunie, 1,
            "Hand over: Ben & Dan win the hand, Anna & Carla's baunie failed "
            "(Anna & Carla 7 tricks, Ben & Dan 6)",
            "Hand over: Ben & Dan win the hand, Anna & Carla's baunie failed "
            "(Anna & Carla 7 tricks, Ben & Dan 6). "
            "Ben & Dan score 2. Scores after the hand: Anna & Carla 0 points, Ben & Dan 2 points.",
            id="troefcall-failed-baunie",
        ),
    ],
)  # fmt: skip
def test_a_hands_result_is_the_engines_in_every_rule_set(record, number, verdict, banner) -> None:
    """The step that ends the hand and the Result banner say who won as the `win` rows
    (Troefcall: the `score` row's side) say, and who paid as the `pay` rows say."""
    from kroeg.dashboard.table import moves_html

    game = record()
    states = hand_states(game, number, reveal_all=False)
    (end,) = [s for s in states if s.kind == "hand_end"]
    assert end.text == verdict
    assert f'<li data-kroeg-step="{end.step}">{html.escape(verdict)}</li>' in moves_html(states, 0)
    from kroeg.parsers.render import hand_result  # the banner's words (views/replay.py)

    assert hand_result(game, number).text == banner


def test_a_log_without_win_rows_gets_the_engines_verdict() -> None:
    # A log written before `win` rows existed: the engine's verdict stands, not the taker.
    game = sample("lives-armoede-cut.txt")
    old = dataclasses.replace(game, events=tuple(e for e in game.events if e.kind != "win"))
    states = hand_states(old, 1, reveal_all=False)
    assert states[-1].text == "Anna took the last trick and loses the hand; Ben wins (stake 9)"


def test_a_hand_passed_over_on_import_is_one_step_that_says_so() -> None:
    """A lenient import keeps a hand it could not referee as `hand_skipped`: the replay
    lists it by its number and shows an empty table with the reason, then the next hand
    as it was played."""
    from kroeg.dashboard.table import table_html
    from kroeg.parsers.reading import collect
    from kroeg.parsers.render import PLAIN_ENGLISH, hand_result, skipped_text
    from tests.parsers.test_resync import FIRST_GAME

    broken = FIRST_GAME.replace("Da kc, Be toep, Da s, Ben Ts", "Da kc, Be toep, Da s, Ben Qs")
    (game,) = notation.parse(broken, on_error=collect).games
    assert hand_numbers(game) == [1, 2, 3, 4]
    (state,) = hand_states(game, 2, reveal_all=True)
    assert state.text == skipped_text() and state.kind == "hand_skipped"
    assert state.hands == ((),) * 4 and state.trick == ()
    # Nothing of hand 1 is shown as this hand's: no stake, nobody out, its dealer as typed.
    assert (state.stake, state.over, state.dealer) == (0, False, 0)
    assert state.in_hand == (True,) * 4 and state.folded == (False,) * 4
    assert "not read" in table_html(state, game.players)
    assert "hand over" not in table_html(state, game.players)
    assert hand_result(game, 2).text_for(PLAIN_ENGLISH) == skipped_text()
    assert "wins the hand" in hand_result(game, 1).text_for(PLAIN_ENGLISH)
    after = hand_states(game, 3, reveal_all=True)
    assert after[0].kind == "hand_start" and after[-1].kind == "hand_end"
