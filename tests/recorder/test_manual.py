"""Guided entry: prompts, refusals, undo, the journal, resume, landing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kroeg.recorder.cards import Card
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.manual import JournalError, ManualGame
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.store import Dataset
from tests.recorder.table import HANDS, play_example

PLAYERS = ["Anna", "Ben", "Carla", "Dan"]
STEPS = [
    ("play", 0, "Jh"), ("play", 1, "Qh"), ("play", 2, "Kh"), ("play", 3, "Ah"),
    ("play", 3, "7c"), ("play", 0, "Jc"), ("play", 1, "Qc"), ("play", 2, "Kc"),
    ("knock", 1, None), ("fold", 2, None), ("stay", 3, None), ("stay", 0, None),
    ("play", 3, "8d"), ("play", 0, "Td"), ("play", 1, "Jd"),
    ("knock", 0, None), ("stay", 1, None), ("fold", 3, None),
    ("play", 0, "9s"), ("play", 1, "8s"),
]  # fmt: skip


def new(tmp_path: Path) -> ManualGame:
    return ManualGame.start(
        PLAYERS, Ruleset.preset("classic"), tmp_path / "j.jsonl", dataset=tmp_path / "ds"
    )


def cards(text: str) -> list[Card | None]:
    return [Card.parse(c) for c in text.split()]


def enter(manual: ManualGame, steps=STEPS) -> None:
    for verb, seat, card in steps:
        if card is None:
            getattr(manual, verb)(seat)
        else:
            manual.play(seat, Card.parse(card))


def test_prompts_follow_the_table(tmp_path: Path) -> None:
    manual = new(tmp_path)
    assert manual.prompt().text == "hand 1: name the dealer"
    manual.start_hand(3)
    assert manual.prompt().text == "cards for Anna, Ben, Carla, Dan (or skip)"
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    assert manual.prompt().text == "hand 1, trick 1: Anna leads (stake 1)"
    enter(manual, STEPS[:9])
    prompt = manual.prompt()
    assert (prompt.kind, prompt.seats, prompt.stake) == ("answer", (2,), 2)
    assert prompt.text == "Carla: stay or fold (stake 2)"
    enter(manual, STEPS[9:])
    assert manual.prompt().text == "hand 2: Anna deals"
    assert manual.scores() == [
        ("Anna", "0 points"),
        ("Ben", "3 points"),
        ("Carla", "1 point"),
        ("Dan", "2 points"),
    ]
    assert manual.last_hand_costs() == {"Ben": 3, "Carla": 1, "Dan": 2}


def test_the_entered_game_is_the_refereed_game(tmp_path: Path) -> None:
    manual = new(tmp_path)
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    enter(manual)
    assert manual.game.log == play_example().log


def test_an_illegal_step_is_refused_with_the_reason_and_nothing_changes(tmp_path: Path) -> None:
    manual = new(tmp_path)
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    manual.play(0, Card.parse("Jh"))
    journal = (tmp_path / "j.jsonl").read_text()
    before = manual.game.snapshot()
    with pytest.raises(IllegalActionError) as err:
        manual.play(1, Card.parse("8s"))
    assert str(err.value) == "hand 1, trick 1: Ben must follow hearts (holds Qh)"
    assert manual.game.snapshot() == before
    assert (tmp_path / "j.jsonl").read_text() == journal


def test_unknown_hands_and_an_all_or_nothing_deal(tmp_path: Path) -> None:
    manual = new(tmp_path)
    manual.start_hand(3)
    with pytest.raises(IllegalActionError) as err:
        manual.deal({0: cards("Jh Jc Td 9s"), 1: cards("Qh Jh Jd 8s")})
    assert str(err.value) == (
        "hand 1, before the first lead: Jh dealt to Ben, but Jh is already in Anna's hand"
    )
    assert len(manual.game.deal_queue) == 16  # taken back whole
    manual.deal({0: cards("Jh Jc Td 9s")})  # only the scorekeeper's own cards
    assert manual.game.hands[1] == [None] * 4
    manual.play(0, Card.parse("Jh"))
    manual.play(1, Card.parse("Kh"))


def test_undo_takes_back_the_last_step_and_the_journal_remembers(tmp_path: Path) -> None:
    manual = new(tmp_path)
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    manual.knock(1)
    assert manual.game.stake == 2
    assert manual.undo().to_row() == ("knock", 1, None, 2, None)
    assert manual.game.stake == 1 and manual.game.answer_queue == []
    lines = (tmp_path / "j.jsonl").read_text().splitlines()
    assert json.loads(lines[-1]) == {"undo": True}
    again = ManualGame.resume(tmp_path / "j.jsonl")
    assert again.game.snapshot() == manual.game.snapshot()


def test_resume_rebuilds_the_same_game_and_ignores_a_half_written_line(tmp_path: Path) -> None:
    manual = new(tmp_path)
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    enter(manual, STEPS[:12])
    with open(tmp_path / "j.jsonl", "a") as handle:
        handle.write('{"event": ["play", 3, "8')  # killed in the middle of a write
    again = ManualGame.resume(tmp_path / "j.jsonl")
    assert again.game.log == manual.game.log
    assert again.game.snapshot() == manual.game.snapshot()


def test_landing_stores_finished_hands_once(tmp_path: Path) -> None:
    manual = new(tmp_path)
    with pytest.raises(JournalError) as err:
        manual.land()
    assert str(err.value) == "no finished hand to store yet"
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    enter(manual)
    manual.start_hand()  # hand 2 begun but not finished: it is left out
    report = manual.land()
    (record,) = Dataset(tmp_path / "ds").read_games()
    assert report.added == (record.game_id,) and record.source == "manual"
    assert record.hands == 1 and record.events == tuple(play_example().log)
    with pytest.raises(JournalError) as err:
        manual.land()
    assert str(err.value) == f"this game was already stored as {record.game_id}"
    assert ManualGame.resume(tmp_path / "j.jsonl").landed == record.game_id


def test_a_journal_is_never_overwritten(tmp_path: Path) -> None:
    new(tmp_path)
    with pytest.raises(JournalError) as err:
        new(tmp_path)
    assert str(err.value) == (
        f"{tmp_path / 'j.jsonl'}: a journal is already there; resume it or choose another"
    )


def test_troefcall_at_the_table_prompts_for_each_step(tmp_path: Path) -> None:
    from kroeg.recorder.cards import Suit
    from kroeg.recorder.events import Kap

    manual = ManualGame.start(
        ["Anna", "Ben", "Carla", "Dan"], Ruleset.preset("troefcall"), tmp_path / "j.jsonl"
    )
    assert manual.prompt().text.startswith("hand 1: name the dealer, or the face-up deal")
    for seat, card in [(0, "4d"), (1, "Jh")]:
        manual.draw_for_caller(seat, Card.parse(card))
    assert manual.prompt().text == "hand 1: Anna deals, Ben calls"
    manual.start_hand()
    assert manual.prompt().text == "cards for Ben (the caller's first five) (or skip)"
    manual.deal({1: [Card.parse(c) for c in ("As", "Ks", "Qs", "Js", "Ts")]})
    prompt = manual.prompt()
    assert (prompt.kind, prompt.seats, prompt.text) == ("trump", (1,), "Ben calls trump")
    with pytest.raises(IllegalActionError, match="Ben calls trump, not Anna"):
        manual.call_trump(0, Suit.SPADES)
    manual.call_trump(1, Suit.SPADES)
    manual.deal({})
    assert manual.prompt().text == "hand 1, trick 1: Ben leads, trump ♠"
    with pytest.raises(IllegalActionError, match="troefcall is not Toepen"):
        manual.knock(1)
    spades = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"]  # five seen, two from his unseen cards
    for trick, lead in enumerate(spades):
        manual.play(1, Card.parse(lead))
        for seat, suit in ((2, "h"), (3, "d"), (0, "c")):  # nobody else has a spade
            manual.play(seat, Card.parse("2345678"[trick] + suit))
    prompt = manual.prompt()
    assert prompt.kind == "announce" and prompt.seats == (1, 3)
    assert prompt.text == "Ben & Dan took the first 7, trump ♠: kap, baunie, stop, or Ben leads"
    assert manual.kap(1) == Kap(1)
    assert manual.scores()[1] == ("Ben", "5 points")
    manual.undo()
    assert manual.prompt().kind == "announce"
    again = ManualGame.resume(tmp_path / "j.jsonl")
    assert again.game.snapshot() == manual.game.snapshot()


def test_a_team_toepen_game_entered_at_the_table_lands_with_its_sides(tmp_path: Path) -> None:
    rules = Ruleset.preset("lives").with_variants("team-toepen")
    manual = ManualGame.start(PLAYERS, rules, tmp_path / "j.jsonl", dataset=tmp_path / "ds")
    manual.start_hand(3)
    manual.deal({s: cards(h) for s, h in enumerate(HANDS)})
    enter(manual, STEPS[:8])  # two tricks, Dan takes both
    manual.knock(1)
    assert manual.game.lives == [10, 10, 10, 10]
    manual.fold(2)  # Carla folds: her side's pool pays, Anna's lives too
    assert manual.game.lives == [9, 10, 9, 10]
    enter(
        manual,
        [
            ("stay", 3, None),
            ("stay", 0, None),
            ("play", 3, "8d"),
            ("play", 0, "Td"),
            ("play", 1, "Jd"),
            ("play", 0, "9s"),
            ("play", 1, "8s"),
            ("play", 3, "Qd"),
        ],
    )
    assert manual.game.lives == [7, 10, 7, 10]  # Anna took the last trick: her side pays 2
    manual.land()
    (game,) = Dataset(tmp_path / "ds").read_games()
    assert game.teams == (0, 1, 0, 1)
