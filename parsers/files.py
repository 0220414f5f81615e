"""Reading typed files of either format, and importing them into a dataset.

Files are read as streams of games (`iter_file`): a line at a time, each game refereed
and handed on as soon as it ends, so memory follows the games held, not the file. An
import holds at most `BATCH_HANDS` hands of games before it lands them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kroeg.parsers import jsonl, notation
from kroeg.parsers._io import lines
from kroeg.parsers.reading import ErrorHook, Parsed, collect, raise_error
from kroeg.recorder.errors import NotationError
from kroeg.recorder.hill import HillReferee
from kroeg.recorder.records import GameRecord

if TYPE_CHECKING:  # the caller brings the dataset: reading a file needs no pyarrow
    from kroeg.recorder.store import Dataset

__all__ = ["BATCH_HANDS", "FileReport", "import_files", "iter_file", "read_file"]

JSONL_SUFFIXES = (".jsonl", ".ndjson")
#: The most hands of games an import holds before it lands them: about 200,000 events.
#: The games themselves take little (equal events are one object), but turning a batch
#: into Parquet takes some 400 bytes an event while it runs (bench/log_memory.py).
BATCH_HANDS = 5_000


def iter_file(
    path: str | Path,
    errors: list[NotationError],
    *,
    on_error: ErrorHook = raise_error,
    hill: HillReferee | None = None,
) -> Iterator[GameRecord]:
    """Each game of a file as it is read and refereed: JSON Lines by its suffix (.jsonl,
    .ndjson), else the notation. Each error goes to `on_error`, then into `errors`.
    `hill` follows the king-of-the-hill evenings (a dataset's games too, on import)."""
    path = Path(path)
    reader = jsonl.iterparse if path.suffix.lower() in JSONL_SUFFIXES else notation.iterparse
    return reader(lines(path), errors, on_error, str(path), hill)


def read_file(path: str | Path, *, on_error: ErrorHook = raise_error) -> Parsed:
    """Parse and referee a whole file: every game and every error (`iter_file`, held).

    Each error goes to `on_error` (default: raise it; `collect` keeps them all).
    """
    result = Parsed()
    result.games.extend(iter_file(path, result.errors, on_error=on_error))
    return result


@dataclass
class FileReport:
    """What importing one file did."""

    path: str
    imported: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    rejected: list[NotationError] = field(default_factory=list)
    hands: int = 0  # hands in the games imported

    def land(self, dataset: Dataset, games: list[GameRecord]) -> None:
        """Write a batch of this file's games, and count what it added."""
        if not games:
            return
        written = dataset.write(games)
        self.imported.extend(written.added)
        self.duplicates.extend(written.skipped)
        added = set(written.added)
        self.hands += sum(g.hands for g in games if g.game_id in added)


def import_files(
    paths: Iterable[str | Path],
    dataset: Dataset,
    *,
    lenient: bool = False,
    batch_hands: int = BATCH_HANDS,
) -> list[FileReport]:
    """Parse, referee and land each file. Strict: a file lands whole or not at all.

    Lenient: the good games (and, in the notation, the good hands) land and the
    errors are reported. Games already in the dataset are reported as duplicates.

    A file of more than `batch_hands` hands lands in batches of about that many, so that
    memory stays flat: strict, it is read once to the end first (holding nothing), and
    lands only if it has no error.
    """
    reports = []
    for path in paths:
        report = FileReport(str(path))
        reports.append(report)
        # A king-of-the-hill game follows its evening's games in the dataset too.
        stored = dataset.evening_games
        if lenient:
            games = iter_file(path, report.rejected, on_error=collect, hill=HillReferee(stored))
            _land_in_batches(games, report, dataset, batch_hands)
            continue
        held: list[GameRecord] = []
        hands, large = 0, False
        try:
            for game in iter_file(path, report.rejected, hill=HillReferee(stored)):
                if large:
                    continue  # only checking now: the games land on the second reading
                held.append(game)
                hands += game.hands
                if hands > batch_hands:
                    held, large = [], True
        except NotationError as error:
            report.rejected = [error]
            continue
        if not large:
            report.land(dataset, held)
        else:
            games = iter_file(path, [], hill=HillReferee(stored))
            _land_in_batches(games, report, dataset, batch_hands)
    return reports


def _land_in_batches(
    games: Iterable[GameRecord], report: FileReport, dataset: Dataset, batch_hands: int
) -> None:
    batch: list[GameRecord] = []
    hands = 0
    for game in games:
        batch.append(game)
        hands += game.hands
        if hands >= batch_hands:
            report.land(dataset, batch)
            batch, hands = [], 0
    report.land(dataset, batch)
