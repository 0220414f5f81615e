"""Games to the canonical text of docs/NOTATION.md: what `notation.dumps` writes.

Reading it back gives the identical game (`loads(dumps(games)) == games`): full
names, `Th` spellings, holdings one per line in seat order (a Troefcall caller's
first five first, the trump call after the holdings), each trick on a line that
starts with its number, and a `result:` line per hand. The writing itself is
`_rows.text`'s, from each event's row: the same for one game as for a whole
dataset's export (`_columns`), written once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO

from kroeg.parsers._io import write_text
from kroeg.parsers._rows import plain_row, text
from kroeg.recorder.records import GameRecord

__all__ = ["dump", "dumps"]


def _write_game(record: GameRecord) -> str:
    """One game's text, without the line break that ends it."""
    rows = [plain_row(event.to_row()) for event in record.events]
    return text(record, rows, 0, len(rows))[0][:-1]


def dumps(games: GameRecord | Iterable[GameRecord]) -> str:
    """The canonical text of one game or several."""
    records = [games] if isinstance(games, GameRecord) else list(games)
    return "\n\n".join(_write_game(r) for r in records) + "\n"


def dump(games: GameRecord | Iterable[GameRecord], file: str | Path | IO[str]) -> None:
    """Write the canonical text of one game or several to a path or an open text file."""
    write_text(dumps(games), file)
