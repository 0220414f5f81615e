"""What both readers share: one header reader, one error hook."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from kroeg.parsers import jsonl, notation
from kroeg.parsers.reading import Parsed, collect
from kroeg.recorder.errors import NotationError
from tests.parsers.hands import HAND


def typed(header: str) -> str:
    return header + "\n" + HAND


def as_jsonl(text: str, **header: object) -> str:
    """The game of `text` as JSON Lines, its header changed by `header`."""
    lines = jsonl.dumps(notation.loads(text)).splitlines()
    first = json.loads(lines[0])
    first.update(header)
    return "\n".join([json.dumps(first), *lines[1:]]) + "\n"


def test_both_readers_store_a_date_with_a_zone_in_utc() -> None:
    text = typed("players: Anna, Ben, Carla, Dan\ndate: 2026-11-27 20:30+01:00")
    (game,) = notation.loads(text)
    assert game.started_at == datetime(2026, 11, 27, 19, 30, tzinfo=UTC)
    (again,) = jsonl.loads(as_jsonl(text, started_at="2026-11-27T20:30:00+01:00"))
    assert again.started_at == game.started_at
    assert again.started_at is not None and again.started_at.tzinfo == UTC


def test_a_name_refused_by_the_notation_is_refused_by_json_lines_too() -> None:
    text = typed("players: Anna, Ben, Carla, Dan")
    with pytest.raises(NotationError) as err:
        notation.loads(text.replace("Dan,", "Da:n,").replace("Dan\n", "Da:n\n", 1))
    assert str(err.value) == "1:10: 'Da:n' cannot be a player name"
    with pytest.raises(NotationError) as err:
        jsonl.loads(as_jsonl(text, players=["Anna", "Ben", "Carla", "Da:n"]))
    assert str(err.value) == "1: 'Da:n' cannot be a player name"


def test_json_lines_refuses_a_game_id_that_is_a_path() -> None:
    text = as_jsonl(typed("players: Anna, Ben, Carla, Dan"), game_id="../../../../tmp/x")
    with pytest.raises(NotationError) as err:
        jsonl.loads(text)
    assert str(err.value) == (
        "1: a game id is letters, digits, '-', '_' or '.', found '../../../../tmp/x'"
    )


def test_the_error_hook_decides_strict_or_lenient() -> None:
    text = typed("players: Anna, Ben, Carla, Dan").replace("3. Dan 8d", "3. Dan 8h")
    with pytest.raises(NotationError):
        notation.parse(text)  # the default hook raises
    lenient = notation.parse(text, on_error=collect)
    assert isinstance(lenient, Parsed) and len(lenient.errors) == 1
    seen: list[str] = []
    counted = notation.parse(text, on_error=lambda error: seen.append(error.message))
    assert seen == [e.message for e in counted.errors] == [lenient.errors[0].message]


@pytest.mark.parametrize("dropped", [("card",), ("seat", "target"), ("hand", "seq", "amount")])
def test_an_event_line_without_its_keys_names_every_one_missing(dropped: tuple[str, ...]) -> None:
    lines = as_jsonl(typed("players: Anna, Ben, Carla, Dan")).splitlines()
    event = json.loads(lines[3])
    for key in dropped:
        del event[key]
    lines[3] = json.dumps(event)
    with pytest.raises(NotationError) as err:
        jsonl.loads("\n".join(lines) + "\n")
    expected = [
        k for k in ("hand", "seq", "kind", "seat", "card", "amount", "target") if k in dropped
    ]
    assert str(err.value) == f"4: event line lacks {', '.join(expected)}"
