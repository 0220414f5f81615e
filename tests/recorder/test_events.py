"""Events convert to rows and back, for every kind; hand and seq follow from the log."""

from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.events import (
    EVENT_TYPES,
    Baunie,
    CardPlayed,
    Check,
    Deal,
    GameEnd,
    HandStart,
    Kap,
    Knock,
    Score,
    Stop,
    TrumpCalled,
    Whistle,
    event_from_row,
    number_events,
)

SAMPLES = [
    HandStart(2, 1), HandStart(0, 1, caller=1), Deal(1, Card.parse("Th")), Deal(1, None),
    CardPlayed(3, Card.parse("Js")), Knock(1, 2), Check(0, 1, 2), Whistle(1, Rank.TEN, 3),
    GameEnd(None, 2), GameEnd(1, None), TrumpCalled(0, Suit.HEARTS), Kap(1), Baunie(2),
    Stop(3), Score(0, 5),
]  # fmt: skip


def test_rows_follow_format_md() -> None:
    assert Knock(1, 2).to_row() == ("knock", 1, None, 2, None)
    assert Check(0, 1, 2).to_row() == ("check", 0, None, 1, 2)
    assert Whistle(1, Rank.TEN, 3).to_row() == ("whistle", 1, "T", 3, None)
    assert GameEnd(None, 2).to_row() == ("game_end", None, None, None, 2)
    assert TrumpCalled(0, Suit.HEARTS).to_row() == ("trump", 0, "h", None, None)
    assert HandStart(0, 1, caller=1).to_row() == ("hand_start", 0, None, 1, 1)


def test_every_event_round_trips_through_its_row() -> None:
    assert {type(e) for e in SAMPLES} | set(EVENT_TYPES.values()) >= set(EVENT_TYPES.values())
    for event in SAMPLES:
        assert event_from_row(*event.to_row()) == event


def test_hand_and_seq_follow_from_the_log() -> None:
    log = [Deal(0, None), HandStart(1, 1), Deal(2, None), Knock(1, 2), HandStart(2, 1)]
    assert [(h, s) for h, s, _ in number_events(log)] == [(0, 0), (1, 0), (1, 1), (1, 2), (2, 0)]
