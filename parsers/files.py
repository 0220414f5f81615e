"""Reading typed files of either format, and importing them into a dataset."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kroeg.parsers import jsonl, notation
from kroeg.parsers._io import read_text
from kroeg.parsers.reading import ErrorHook, Parsed, collect, raise_error
from kroeg.recorder.errors import NotationError
from kroeg.recorder.store import Dataset

__all__ = ["FileReport", "import_files", "read_file"]

JSONL_SUFFIXES = (".jsonl", ".ndjson")


def read_file(path: str | Path, *, on_error: ErrorHook = raise_error) -> Parsed:
    """Parse and referee a file: JSON Lines by its suffix (.jsonl, .ndjson), else the notation.

    Each error goes to `on_error` (default: raise it; `collect` keeps them all).
    """
    path = Path(path)
    try:
        text, _ = read_text(path)
    except NotationError as error:
        on_error(error)
        return Parsed(errors=[error])
    reader = jsonl.parse if path.suffix.lower() in JSONL_SUFFIXES else notation.parse
    return reader(text, on_error=on_error, source=str(path))


@dataclass
class FileReport:
    """What importing one file did."""

    path: str
    imported: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    rejected: list[NotationError] = field(default_factory=list)
    hands: int = 0  # hands in the games imported


def import_files(
    paths: Iterable[str | Path], dataset: Dataset, *, lenient: bool = False
) -> list[FileReport]:
    """Parse, referee and land each file. Strict: a file lands whole or not at all.

    Lenient: the good games (and, in the notation, the good hands) land and the
    errors are reported. Games already in the dataset are reported as duplicates.
    """
    reports = []
    for path in paths:
        report = FileReport(str(path))
        reports.append(report)
        try:
            parsed = read_file(path, on_error=collect if lenient else raise_error)
        except NotationError as error:
            report.rejected.append(error)
            continue
        report.rejected.extend(parsed.errors)
        if parsed.games:
            written = dataset.write(parsed.games)
            report.imported = list(written.added)
            report.duplicates = list(written.skipped)
            added = set(written.added)
            report.hands = sum(g.hands for g in parsed.games if g.game_id in added)
    return reports
