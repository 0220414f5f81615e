"""The `evening: king-of-the-hill` header: read, written back, stored, and checked at
every door by the engine's hill referee (recorder.hill)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.parsers import jsonl, notation
from kroeg.parsers.files import import_files, read_file
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import NotationError, NotationRuleError
from kroeg.recorder.hill import KING_OF_THE_HILL
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
EVENING = SAMPLES / "troefcall-king-of-the-hill.txt"
BROKEN = SAMPLES / "broken" / "king-of-the-hill-losers-stay.txt"


def test_the_header_is_read_and_written_back_by_both_notations() -> None:
    games = read_file(EVENING).games
    assert [g.evening for g in games] == [KING_OF_THE_HILL] * 4
    text = notation.dumps(games)
    assert text.count("\nevening: king-of-the-hill\n") == 4
    assert notation.loads(text) == games
    lines = jsonl.dumps(games)
    assert lines.count('"evening": "king-of-the-hill"') == 4
    assert jsonl.loads(lines) == games


def test_a_game_without_the_header_keeps_its_id_and_writes_no_evening() -> None:
    games = read_file(SAMPLES / "troefcall-evening.txt").games
    assert games[0].evening is None
    assert "evening" not in notation.dumps(games) and "evening" not in jsonl.dumps(games)
    text = EVENING.read_text(encoding="utf-8")
    plain = notation.loads(text.replace("evening: king-of-the-hill\n", ""))
    # the same games, declared or not, are told apart (and the plain ones keep their ids)
    assert {g.game_id for g in plain}.isdisjoint(g.game_id for g in read_file(EVENING).games)


def test_the_column_is_stored_and_read_back(tmp_path: Path) -> None:
    games = read_file(EVENING).games
    dataset = Dataset(tmp_path / "club").create()
    dataset.write(games)
    assert list(dataset.read_games()) == sorted(games, key=lambda g: g.game_id)
    assert set(dataset.games_table().column("evening").to_pylist()) == {KING_OF_THE_HILL}


@pytest.mark.parametrize(
    ("value", "rules", "message"),
    [
        (
            "king-of-the-hil",
            "troefcall",
            "unknown evening 'king-of-the-hil': did you mean king-of-the-hill? "
            "Expected one of king-of-the-hill",
        ),
        (
            "king-of-the-hill",
            "classic",
            "a king-of-the-hill evening is Troefcall's (seed 002: the winning pair stays on), "
            "not toepen's",
        ),
    ],
)
def test_a_header_no_evening_can_have_is_refused_where_it_stands(
    value: str, rules: str, message: str
) -> None:
    text = f"rules: {rules}\nevening: {value}\nplayers: Anna, Ben, Carla, Dan\nhand 1, dealer Dan\n"
    with pytest.raises(NotationError) as err:
        notation.loads(text, source="x.txt")
    assert str(err.value) == f"x.txt:2:10: {message}"


def test_a_broken_rotation_is_refused_strictly_and_skipped_leniently() -> None:
    with pytest.raises(NotationRuleError, match="Ben & Dan make way"):
        read_file(BROKEN)
    parsed = read_file(BROKEN, on_error=collect)
    assert len(parsed.games) == 2 and len(parsed.errors) == 1


def test_an_import_checks_against_the_evenings_games_already_stored(tmp_path: Path) -> None:
    text = BROKEN.read_text(encoding="utf-8")
    third = text.index("rules:", text.index("rules:", text.index("rules:") + 1) + 1)
    first_two, last = tmp_path / "first.txt", tmp_path / "last.txt"
    first_two.write_text(text[:third], encoding="utf-8")
    last.write_text(text[third:], encoding="utf-8")
    dataset = Dataset(tmp_path / "club")
    (report,) = import_files([first_two], dataset)
    assert len(report.imported) == 2
    (alone,) = read_file(last).games  # on its own, the last game opens a hill
    assert alone.evening == KING_OF_THE_HILL
    (report,) = import_files([last], dataset)
    assert report.imported == []
    assert "Ben & Dan make way for challengers, and Anna and Carla are waiting" in str(
        report.rejected[0]
    )
    (again,) = import_files([first_two], dataset)  # the same file twice adds nothing
    assert again.duplicates and not again.rejected


def test_json_lines_are_refereed_alike(tmp_path: Path) -> None:
    games = read_file(BROKEN, on_error=collect).games
    assert jsonl.loads(jsonl.dumps(games)) == games
    text = BROKEN.read_text(encoding="utf-8")
    last = tmp_path / "last.txt"
    last.write_text(text[text.rindex("rules:") :], encoding="utf-8")
    (third,) = read_file(last).games  # alone, it opens a hill
    # After the first two, the third seats Ben & Dan again while Anna & Carla wait.
    with pytest.raises(NotationRuleError, match="which Ben & Dan lost"):
        jsonl.loads(jsonl.dumps([*games, third]))
