"""Typed logs and JSON Lines are read a line and a game at a time, and imported in
batches: memory follows the games held, not the file (issue 26: a 10 MB typed log took
1.24 GB). bench/log_memory.py measures a 100 MB log; these tests hold the mechanism."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from kroeg.parsers import jsonl, notation
from kroeg.parsers._io import MAX_LINE
from kroeg.parsers.files import import_files, iter_file, read_file
from kroeg.recorder.errors import NotationError
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

GAMES: list[GameRecord] = list(simulate(Ruleset.preset("classic"), 4, 300, 5, ["random"]))


def _log(path: Path, copies: int = 1, as_jsonl: bool = False) -> Path:
    """GAMES written `copies` times, each copy's game ids new."""
    block = (jsonl if as_jsonl else notation).dumps(GAMES)
    texts = []
    for copy in range(copies):
        text = block
        for game in GAMES:
            text = text.replace(game.game_id, f"{game.game_id}-{copy}")
        texts.append(text)
    path.write_text("".join(texts), encoding="utf-8")
    return path


@pytest.mark.parametrize("as_jsonl", [False, True])
def test_a_game_is_handed_on_before_the_rest_of_the_file_is_read(
    tmp_path: Path, as_jsonl: bool
) -> None:
    path = _log(tmp_path / ("log.jsonl" if as_jsonl else "log.txt"), as_jsonl=as_jsonl)
    with path.open("ab") as out:
        out.write(b"\xff not UTF-8: reading the whole file first would fail before any game\n")
    errors: list[NotationError] = []
    games = iter_file(path, errors)
    first = next(games)
    assert first.game_id == f"{GAMES[0].game_id}-0" and first.events == GAMES[0].events
    assert errors == []
    with pytest.raises(NotationError) as err:
        list(games)
    lines = path.read_bytes().count(b"\n")
    assert str(err.value) == f"{path}:{lines}: the file is not UTF-8 text"


def test_reading_a_log_holds_one_game_not_the_file(tmp_path: Path) -> None:
    """Python's allocations while a log of over 1 MB is validated: a game's worth, and what
    every reading needs once (the deck, the names), not the file.
    Read whole (the text, every statement, every game), the same log took 24 MB, 19 times
    its size; read a game at a time, about 0.3 MB."""
    path = _log(tmp_path / "log.txt", copies=12)
    size = path.stat().st_size
    assert size > 1_000_000
    tracemalloc.start()
    try:
        errors: list[NotationError] = []
        count = sum(1 for _ in iter_file(path, errors))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 12 * len(GAMES) and errors == []
    assert peak < size / 2, f"peak {peak:,} bytes for a {size:,}-byte log"


def test_a_line_too_long_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_bytes(b"players: Anna, Ben, Carla\n# " + b"x" * (MAX_LINE + 10) + b"\n")
    parsed = read_file(path, on_error=lambda error: None)
    assert [str(e) for e in parsed.errors] == [
        f"{path}:2: the line is longer than 1,000,000 bytes: not a typed log"
    ]


def test_a_large_file_lands_in_batches_and_only_whole(tmp_path: Path) -> None:
    log = _log(tmp_path / "log.txt", copies=3)
    hands = 3 * sum(g.hands for g in GAMES)
    dataset = Dataset(tmp_path / "ds").create()
    (report,) = import_files([log], dataset, batch_hands=100)
    assert report.rejected == [] and report.hands == hands
    assert len(report.imported) == 3 * len(GAMES) == len(dataset.game_ids())
    assert len(dataset.table_files("games")) >= hands // 100  # landed batch by batch
    assert {r.game_id: r.events for r in dataset.read_games()} == {
        f"{g.game_id}-{c}": g.events for g in GAMES for c in range(3)
    }

    # Strict: an error in the last game, past many batches, and nothing lands.
    broken = log.read_text(encoding="utf-8").rsplit("hand ", 1)[0] + "hand 99\n"
    log.write_text(broken.replace("-2\n", "-new\n"), encoding="utf-8")
    other = Dataset(tmp_path / "other").create()
    (report,) = import_files([log], other, batch_hands=100)
    assert len(report.rejected) == 1 and "hand 99" in str(report.rejected[0])
    assert report.imported == [] and other.game_ids() == set()

    # Lenient: the good games land, batch by batch; the bad hand is reported.
    (report,) = import_files([log], other, lenient=True, batch_hands=100)
    assert "hand 99" in str(report.rejected[0]) and len(report.imported) == 3 * len(GAMES)
    assert len(other.table_files("games")) > 1


def test_a_small_file_lands_in_one_write_as_before(tmp_path: Path) -> None:
    log = _log(tmp_path / "log.jsonl", as_jsonl=True)
    dataset = Dataset(tmp_path / "ds").create()
    (report,) = import_files([log], dataset)
    assert len(report.imported) == len(GAMES) and len(dataset.table_files("games")) == 1
