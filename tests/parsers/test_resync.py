"""After an error, a lenient reading reports it once and picks up at the next hand as it
is written: no renumbering, no errors that only follow from the first one."""

from __future__ import annotations

import re
from pathlib import Path

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import player_stats
from kroeg.analytics.views import connect
from kroeg.parsers import jsonl, notation
from kroeg.parsers._rows import SKIPPED_LINE
from kroeg.parsers.reading import collect
from kroeg.parsers.render import skipped_text, view_hand
from kroeg.recorder.events import HAND_OPENERS, VERDICT_KINDS, number_events
from kroeg.recorder.records import content_id
from kroeg.recorder.referee import replay
from kroeg.recorder.store import Dataset

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
    assert game.hands == 4  # hand 1 kept as a `hand_skipped` row: the others keep their numbers
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


def test_a_skipped_hand_is_stored_so_the_game_replays_and_keeps_its_hand_numbers(
    tmp_path: Path,
) -> None:
    """A lenient reading stored hands 1, 3 and 4 as 1, 2 and 3, and the stored game did
    not replay (Dan dealt hand 3, the winner of the stored hand 1 was due): the analysis,
    and so `kroeg stats`, stopped on the whole dataset. The engine now records the hand it
    passed over (`hand_skipped`, its dealer as typed)."""
    broken = FIRST_GAME.replace("Da kc, Be toep, Da s, Ben Ts", "Da kc, Be toep, Da s, Ben Qs")
    parsed = notation.parse(broken, on_error=collect)
    assert [str(e).split(": ", 1)[1] for e in parsed.errors] == [
        "hand 2, trick 2: Ben cannot play Qs: it is in Anna's hand"
    ]
    (game,) = parsed.games
    numbered = [(hand, e) for hand, _, e in number_events(game.events) if hand > 0]
    assert [(h, e.kind, e.seat) for h, e in numbered if e.kind in HAND_OPENERS] == [
        (1, "hand_start", 3), (2, "hand_skipped", 0), (3, "hand_start", 3), (4, "hand_start", 3)
    ]  # fmt: skip
    replay(game.rules, game.players, game.events)  # raises if the stored game does not replay
    # The id is the text's as before: the skipped hand is not the game's content.
    assert game.game_id == content_id(
        "g", game.rules.to_json(), game.players, game.started_at, game.venue,
        [e.to_row() for e in game.events if e.kind not in {*VERDICT_KINDS, "hand_skipped"}],
    )  # fmt: skip
    # Landed and analysed: the hands keep their numbers, and the statistics are made.
    dataset = Dataset(tmp_path / "club")
    dataset.write([game])
    enrich(dataset, workers=1)
    con = connect(dataset)
    rows = con.sql("SELECT hand, kind FROM events WHERE seq = 0 AND hand > 0 ORDER BY hand")
    assert rows.fetchall() == [(1, "hand_start"), (2, "hand_skipped"), (3, "hand_start"),
                               (4, "hand_start")]  # fmt: skip
    assert player_stats(con)["hands"].to_list() == [3, 3, 3, 3]
    # Written back, in either notation, it reads back the same (the text leniently: its
    # hand 2 is a comment under the hand's line, which a strict reading refuses).
    text = notation.dumps([game])
    assert f"hand 2, dealer Anna\n{SKIPPED_LINE}\n" in text
    assert notation.parse(text, on_error=collect).games == [game]
    assert jsonl.loads(jsonl.dumps([game])) == [game]
    view = view_hand(game, 2)
    assert view.heading[1] == skipped_text() and view.steps == []


def test_a_game_of_one_hand_says_one_hand() -> None:
    """`kroeg replay` said "(classic, 1 hands)"."""
    (game,) = notation.parse(FIRST_GAME.split("hand 2,")[0]).games
    assert view_hand(game, 1).heading[0] == f"Hand 1 of game {game.game_id} (classic, 1 hand)"
