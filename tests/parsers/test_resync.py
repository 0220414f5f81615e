"""After an error, a lenient reading reports it once and picks up at the next hand as it
is written: no renumbering, no errors that only follow from the first one."""

from __future__ import annotations

import re
from pathlib import Path

from kroeg.parsers import notation
from kroeg.parsers.reading import collect

EVENING = (Path(__file__).resolve().parents[2] / "sample_logs" / "classic-evening.txt").read_text(
    encoding="utf-8"
)
#: The evening's first game (four hands), as typed.
FIRST_GAME = EVENING.split("# Ben reached 10")[0]


def errors(text: str) -> list[str]:
    parsed = notation.parse(text, on_error=collect, source="evening.txt")
    return [str(e) for e in parsed.errors]


def after_hand(text: str, number: int, line: str) -> str:
    """The text with `line` added at the end of hand `number`."""
    parts = re.split(r"(?m)^(?=hand \d)", text)
    parts[number] = parts[number].rstrip("\n") + f"\n{line}\n\n"
    return "".join(parts)


def test_the_typed_scores_of_the_first_game_are_right() -> None:
    text = after_hand(FIRST_GAME, 2, "score: Anna 1, Ben 7, Carla 2, Dan 2")
    text = after_hand(text, 3, "score: Anna 2, Ben 9, Carla 3, Dan 2")
    assert errors(text) == []


def test_a_wrong_score_is_one_error_and_the_next_hand_is_checked_as_typed() -> None:
    text = after_hand(FIRST_GAME, 2, "score: Anna 1, Ben 7, Carla 2, Dan 3")
    text = after_hand(text, 3, "score: Anna 2, Ben 9, Carla 3, Dan 2")  # right
    found = errors(text)
    assert len(found) == 1 and found[0].endswith(
        "hand 2: the score says Dan has 3, but the rules give 2"
    )
    parsed = notation.parse(text, on_error=collect)
    assert parsed.games[0].hands == 4  # the hand was played as the rules say: it is kept


def test_a_rule_error_is_one_error_and_the_next_hands_find_their_dealer() -> None:
    broken = FIRST_GAME.replace("1. An Jh, Be Q♥", "1. An Jh, Be 8♠")
    for number, dealer in ((2, "Anna"), (3, "Dan"), (4, "Dan")):
        broken = broken.replace(f"hand {number}, dealer {dealer}", f"hand {number}")
    found = errors(broken)
    assert len(found) == 1, found
    assert found[0].endswith("hand 1, trick 1: Ben must follow hearts (holds Qh)")
    (game,) = notation.parse(broken, on_error=collect).games
    assert game.hands == 3
    assert [e.seat for e in game.events if e.kind == "hand_start"] == [0, 3, 3]


def test_messages_keep_the_typed_hand_numbers_after_a_skipped_hand() -> None:
    broken = FIRST_GAME.replace("1. An Jh, Be Q♥", "1. An Jh, Be 8♠")
    broken = broken.replace("3. Dan 7♣, Ben As", "3. Dan 7♣, Ben 8h")  # hand 2: not held
    found = errors(broken)
    assert len(found) == 2
    assert "hand 2, trick 3: Ben cannot play 8h" in found[1], found


def test_a_hand_whose_dealer_cannot_be_told_says_so() -> None:
    broken = FIRST_GAME.replace("1. An Jh, Be Q♥", "1. An Jh, Be 8♠")
    broken = broken.replace("hand 2, dealer Anna", "hand 2")
    broken = broken.replace("1. Ben 8h, Carla Kh", "Ben knocks, Carla folds\n1. Ben 8h, Carla Kh")
    found = errors(broken)
    assert found[0].endswith("hand 1, trick 1: Ben must follow hearts (holds Qh)")
    assert len(found) <= 2
