"""Every sample log reads; every broken one fails with its exact message."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.parsers.files import read_file
from kroeg.parsers.notation import NotationRuleError
from kroeg.recorder.errors import NotationError

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"

GOOD = {
    "classic-evening.txt": (2, 9),
    "team-side-folds.txt": (1, 2),
    "troefcall-club-points.txt": (3, 5),
    "laundry-and-checks.txt": (1, 2),
    "lives-armoede-cut.txt": (1, 8),
    "poverty-short-game.txt": (1, 3),
    "knock-war.txt": (1, 1),
    "unknown-hands.txt": (1, 6),
    "utf8-bom-crlf.txt": (1, 1),
    "dutch-card-letters.txt": (1, 1),
    "engine-export.jsonl": (1, 6),
    "troefcall-evening.txt": (1, 3),
    "troefcall-king-of-the-hill.txt": (4, 37),
    "markup-in-names.txt": (1, 1),
    "house-rules-night.txt": (1, 2),
    "whistle-after-fold.txt": (1, 1),
    "answers-in-narration-order.txt": (1, 2),
    "troefcall-kap-partij.txt": (1, 1),
    "troefcall-partner-kap-no-stop.txt": (1, 1),
    "team-toepen-evening.txt": (1, 2),
    "dirty-laundry-kept.txt": (1, 1),
    "whistle-or-stand.txt": (1, 1),
    "laundry-checked-before-swap.txt": (1, 2),
    "lives-evening.txt": (1, 3),
    "classic-short-night.txt": (1, 2),
    "team-six-players.txt": (1, 3),
}

BROKEN = {
    "escape-in-name.txt": (
        "2:10: a player name '\\x1b[2JDan' holds a control or invisible character (U+001B)"
    ),
    "typo-in-suit.txt": "8:10: expected a card like Th, 10h or 10♥, found 'Jx': unknown suit 'x'",
    "not-following-suit.txt": "12:13: hand 1, trick 1: Ben must follow hearts (holds Qh)",
    "unknown-player.txt": "14:1: expected a player (Anna, Ben, Carla, Dan), found 'Bert'",
    "card-dealt-twice.txt": (
        "11:1: hand 1, before the first lead: Jh dealt to Dan, but Jh is already in Anna's hand"
    ),
    "result-disagrees.txt": "18:1: hand 1: the result says Ben paid 2, but the rules give 3",
    "missing-players.txt": "2:1: the header has no 'players:' line",
    "knock-twice-in-a-row.txt": "16:1: hand 1, trick 4: Ben cannot knock twice in a row",
    "hand-not-finished.txt": "7:1: hand 1 is not finished (Ben to act)",
    "date-not-iso.txt": (
        "3:7: expected a date like 2026-11-27 or 2026-11-27 20:30, found '27/11/2026'"
    ),
    "ambiguous-name.txt": "12:4: 'Ann' could be Anna, Annemiek: write more of the name",
    "wrong-trick-number.txt": "15:4: the line is marked trick 4, but the card opens trick 3",
    "not-utf8.txt": "4: the file is not UTF-8 text",
    "truncated-line.jsonl": "13:41: not JSON: Expecting value",
    "troefcall-kap-too-early.txt": (
        "13:1: hand 1, trick 7: kap is announced only at once after a side wins the first "
        "7 tricks in a row"
    ),
    "whistle-forgotten-after-fold.txt": (
        "15:4: hand 1, before the first lead: Ben cannot play Qh: Anna must first announce 3 tens"
    ),
    "answers-out-of-turn-with-a-raise.txt": (
        "26:12: Ben stays before Anna, and Anna raises among the answers: then the order "
        "changes what is paid, so write the answers clockwise (Anna, Ben)"
    ),
    "caller-mark-after-four-cards.txt": (
        "12:1: the caller gets 5 cards first: the mark | comes after 5 cards, found after 4"
    ),
    "score-typed-wrong.txt": "33:1: hand 2: the score says Dan has 3, but the rules give 2",
    "folded-player-plays.txt": (
        "15:29: hand 1, trick 4: Carla cannot play 7d: Carla folded in this hand"
    ),
    "laundry-with-eight-players.txt": (
        "8:1: hand 1, before the first lead: Carla swaps (laundry), but there is no stock "
        "with 8 players"
    ),
    "eliminated-player-plays.txt": (
        "21:1: hand 2, before the first lead: Ben cannot play Qh: Ben is out of the game"
    ),
    "gezinstoepen-five-players.txt": "4:10: lives + gezinstoepen needs 3 to 4 players, found 5",
    "knock-out-of-turn.txt": (
        "14:1: hand 1, before the first lead: Ben cannot knock: a knock comes on one's turn "
        "to play, and it is Anna's turn"
    ),
    "king-of-the-hill-losers-stay.txt": (
        "63:1: king-of-the-hill evening of 2026-11-27 at Café Paramaribo: game g03212395cc7afce "
        "(21:00) follows game gabbfcc995053e58 (20:30), which Ben & Dan lost: Ben & Dan make "
        "way for challengers, and Anna and Carla are waiting"
    ),
}

RULE_BROKEN = {
    "not-following-suit.txt", "card-dealt-twice.txt", "knock-twice-in-a-row.txt",
    "troefcall-kap-too-early.txt", "whistle-forgotten-after-fold.txt", "knock-out-of-turn.txt",
    "folded-player-plays.txt", "laundry-with-eight-players.txt", "eliminated-player-plays.txt",
    "king-of-the-hill-losers-stay.txt",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GOOD))
def test_sample_log_reads_and_referees(name: str) -> None:
    parsed = read_file(SAMPLES / name)
    assert parsed.errors == []
    games, hands = GOOD[name]
    assert (len(parsed.games), sum(g.hands for g in parsed.games)) == (games, hands)


def test_every_sample_file_is_covered() -> None:
    present = {p.name for p in SAMPLES.iterdir() if p.is_file()}
    assert present == set(GOOD)
    broken = {p.name for p in (SAMPLES / "broken").iterdir()}
    assert broken == set(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_file_gives_its_exact_message(name: str) -> None:
    path = SAMPLES / "broken" / name
    with pytest.raises(NotationError) as err:
        read_file(path)
    assert str(err.value) == f"{path}:{BROKEN[name]}"
    assert isinstance(err.value, NotationRuleError) == (name in RULE_BROKEN)


def test_the_classic_evening_holds_the_seed_example_and_a_second_game() -> None:
    first, second = read_file(SAMPLES / "classic-evening.txt").games
    paid = {name: 0 for name in first.players}
    for event in first.events:
        if event.kind == "pay":
            paid[first.players[event.seat]] += event.amount  # type: ignore[attr-defined]
    assert first.events[-1].to_row() == ("game_end", None, None, None, 1)  # Ben loses
    # "Ben reached 10 in hand 4" (the file's comment): the limit is 10 points, the others
    # stayed below it, and hand 1's result line (Ben 3, Carla 1, Dan 2) is part of it.
    assert paid["Ben"] >= 10 > max(paid["Anna"], paid["Carla"], paid["Dan"])
    assert paid["Carla"] >= 1 and paid["Dan"] >= 2
    assert second.started_at is not None and second.started_at.hour == 21
    assert first.game_id != second.game_id


def test_unknown_hands_keep_their_cards_unknown() -> None:
    (game,) = read_file(SAMPLES / "unknown-hands.txt").games
    deals = [e.to_row() for e in game.events if e.kind == "deal"]
    known = {row[1] for row in deals if row[2] is not None}
    assert known == {0}  # only Anna's cards were written down
    assert any(row[2] is None for row in deals)


def test_a_partner_kap_without_a_stop_line_ends_the_hand_as_its_result_says() -> None:
    (game,) = read_file(SAMPLES / "troefcall-partner-kap-no-stop.txt").games
    kinds = [(e.kind, getattr(e, "seat", None)) for e in game.events[-7:]]
    assert ("kap", 0) in kinds and ("stop", 0) in kinds  # Anna's kap, and her stop inferred
    assert [e.amount for e in game.events if e.kind == "score"] == [2]


def test_a_wrong_typed_score_is_the_only_error_of_a_lenient_reading() -> None:
    from kroeg.parsers.reading import collect

    parsed = read_file(SAMPLES / "broken" / "score-typed-wrong.txt", on_error=collect)
    assert [str(e).split(".txt:")[1] for e in parsed.errors] == [
        "33:1: hand 2: the score says Dan has 3, but the rules give 2"
    ]
    assert [g.hands for g in parsed.games] == [4]


def test_export_writes_the_score_lines_a_club_types() -> None:
    from kroeg.parsers import notation

    games = read_file(SAMPLES / "classic-evening.txt").games
    text = notation.dumps(games)
    assert "score: Anna 0, Ben 3, Carla 1, Dan 2" in text  # after the seed's example hand
    assert text.count("score:") == text.count("result:")
    assert notation.loads(text) == games  # and they are checked when read back


def test_laundry_checked_before_the_swap_reads_writes_and_reads_back() -> None:
    from kroeg.parsers import jsonl, notation

    (game,) = read_file(SAMPLES / "laundry-checked-before-swap.txt").games
    names = game.players
    rows = [
        (e.kind, names[e.seat], getattr(e, "genuine", None))  # type: ignore[attr-defined]
        for e in game.events
        if e.kind in ("laundry", "check", "pay", "deal")
    ]
    first = rows.index(("laundry", "Carla", None))
    # Carla's bluff, caught before the swap: she pays, and no card is dealt to her; the
    # stock's four cards then go to Eva.
    assert rows[first : first + 8] == [
        ("laundry", "Carla", None), ("check", "Ben", 0), ("pay", "Carla", None),
        ("laundry", "Eva", None), *[("deal", "Eva", None)] * 4,
    ]  # fmt: skip
    second = rows.index(("laundry", "Ben", None))
    assert rows[second : second + 7] == [
        ("laundry", "Ben", None), ("check", "Anna", 1), ("pay", "Anna", None),
        *[("deal", "Ben", None)] * 4,
    ]  # fmt: skip
    text = notation.dumps([game])
    # Written back, each check follows its laundry line, the genuine one's new cards after it.
    assert "Carla laundry\nBen checks Carla bluff" in text
    assert "Ben laundry\nAnna checks Ben genuine\nBen: As 7d 8d Jd" in text
    assert notation.loads(text) == [game]
    assert jsonl.loads(jsonl.dumps([game])) == [game]
