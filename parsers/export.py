"""Many games written back in one pass: `kroeg export` with several `--game`, a date
range, or the whole dataset.

The games are read in the order the files hold them, each row group once
(`Dataset.iter_games`), and written in the order they were played: a game read before
its turn waits, in memory up to `HELD` characters, then in a temporary file, so a whole
dataset costs one reading of it whatever the order of its files. The text is exactly what
`dumps` of all of them at once would give, so a file written here reads back identical.
A compaction that swaps the files while they are read is met by reading the games not
read yet again (`DatasetChanged`): none is written twice or left out.
"""

from __future__ import annotations

import importlib.abc
import queue
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from typing import IO, Any, Literal, TypeVar

import pyarrow as pa

from kroeg.parsers._columns import Prepared
from kroeg.recorder.errors import DatasetChanged
from kroeg.recorder.store import Dataset, table_rows

__all__ = ["BATCH", "HELD", "Exported", "choose_games", "export_games", "skip_pandas_lookup"]

#: Games between two calls of `progress`.
BATCH = 500
#: Characters of games read before their turn kept in memory; more wait in a temporary file.
HELD = 32_000_000
#: How often a read cut short by a compaction is taken up again.
ATTEMPTS = 30


def skip_pandas_lookup() -> None:
    """Tell pyarrow, before its first array, that pandas is not here: pyarrow imports
    pandas on the first array it builds from Python values (to ask whether they are
    pandas'), 0.3 s of a whole export's 1 s on a quiet machine and 0.9 s on a busy one
    (measured). For a process that builds no pandas values, as `kroeg export`; pandas
    imported later still works (pyarrow looks again when asked to convert to it)."""
    if "pandas" in sys.modules:  # imported already: nothing to save
        return
    refusal = _NoPandas()
    sys.meta_path.insert(0, refusal)
    try:
        pa.scalar(0)  # pyarrow looks for pandas once, now, and remembers it absent
    finally:
        sys.meta_path.remove(refusal)


class _NoPandas(importlib.abc.MetaPathFinder):
    """An import finder that says pandas is not installed."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("pandas left out by kroeg export", name=name)


class Exported:
    """What an export wrote: its games and their hands."""

    def __init__(self) -> None:
        self.games = 0
        self.hands = 0


def choose_games(
    dataset: Dataset,
    given: Sequence[str] = (),
    since: date | None = None,
    until: date | None = None,
) -> list[str]:
    """The games to export, in the order they were played (then by id): those `given`
    (whole ids or unique starts), else every game, kept to `since`..`until` (days,
    both included; a game with no date is kept only without a range)."""
    games = table_rows(dataset.games_table().select(["game_id", "started_at"]))
    wanted = {dataset.resolve_game(g) for g in given} if given else None
    chosen = []
    for row in games:
        if wanted is not None and row["game_id"] not in wanted:
            continue
        day = row["started_at"].date() if row["started_at"] is not None else None
        if (since or until) and day is None:
            continue
        if (since and day is not None and day < since) or (
            until and day is not None and day > until
        ):
            continue
        when = row["started_at"]
        chosen.append((when is None, when.isoformat() if when else "", row["game_id"]))
    return [game_id for *_, game_id in sorted(chosen)]


_T = TypeVar("_T")


def _ahead(items: Iterator[_T]) -> Iterator[_T]:
    """`items`, each made in a thread while the one before is used. A row group is read
    and prepared mostly by pyarrow and numpy, which let the caller's thread write the
    previous one meanwhile: on two cores the two overlap. An error in the thread is
    raised here, after the items made before it; a caller that stops early stops it."""
    handover: queue.Queue[tuple[int, Any]] = queue.Queue(maxsize=1)
    stop = threading.Event()

    def hand(message: tuple[int, Any]) -> bool:
        while not stop.is_set():
            try:
                handover.put(message, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def make() -> None:
        try:
            for item in items:
                if not hand((_ITEM, item)):
                    return
            hand((_END, None))
        except BaseException as error:  # raised again in the caller's thread
            hand((_ERROR, error))

    worker = threading.Thread(target=make, name="kroeg-export-read", daemon=True)
    worker.start()
    try:
        while True:
            what, value = handover.get()
            if what == _END:
                return
            if what == _ERROR:
                raise value
            yield value
    finally:
        stop.set()
        worker.join()


_ITEM, _END, _ERROR = range(3)


class _Waiting:
    """Games rendered before their turn: in memory up to `HELD` characters, the rest in a
    temporary file (its offsets kept here)."""

    def __init__(self) -> None:
        self.held: dict[str, tuple[str, int]] = {}
        self.size = 0
        self.spilled: dict[str, tuple[int, int, int]] = {}
        self.file: IO[str] | None = None

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.held or game_id in self.spilled

    def put(self, game_id: str, text: str, hands: int) -> None:
        if self.size + len(text) <= HELD:
            self.held[game_id] = (text, hands)
            self.size += len(text)
            return
        if self.file is None:
            # Open until `close`, which export_games calls in a finally.
            self.file = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")  # noqa: SIM115
        self.file.seek(0, 2)
        self.spilled[game_id] = (self.file.tell(), len(text), hands)
        self.file.write(text)

    def take(self, game_id: str) -> tuple[str, int]:
        if game_id in self.held:
            text, hands = self.held.pop(game_id)
            self.size -= len(text)
            return text, hands
        offset, length, hands = self.spilled.pop(game_id)
        assert self.file is not None
        self.file.seek(offset)
        return self.file.read(length), hands

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def export_games(
    dataset: Dataset,
    game_ids: Sequence[str],
    fmt: Literal["text", "jsonl"],
    out: IO[str],
    progress: Callable[[int, int], None] | None = None,
    batch: int = BATCH,
) -> Exported:
    """Write `game_ids` to `out` in `fmt`, in the order given, reading the dataset once;
    `progress(done, total)` every `batch` games and at the end."""
    done = Exported()
    waiting = _Waiting()
    turn = 0  # the next game to write

    def write_ready() -> None:
        nonlocal turn
        while turn < len(game_ids) and game_ids[turn] in waiting:
            text, hands = waiting.take(game_ids[turn])
            if done.games and fmt == "text":
                out.write("\n")  # games apart by a blank line, as `dumps` of them all
            out.write(text)
            done.games += 1
            done.hands += hands
            turn += 1
            if progress is not None and (done.games % batch == 0 or turn == len(game_ids)):
                progress(done.games, len(game_ids))

    try:
        read: set[str] = set()
        for attempt in range(ATTEMPTS + 1):
            left = [g for g in game_ids if g not in read]
            if not left:
                break
            try:
                groups = dataset.game_groups(left)
                for ready in _ahead(Prepared(games, events, fmt) for games, events in groups):
                    for game_id, text, hands in ready.texts():
                        read.add(game_id)
                        waiting.put(game_id, text, hands)
                        write_ready()
            except DatasetChanged:  # a compaction swapped the files: read the rest again
                if attempt == ATTEMPTS:
                    raise
                time.sleep(min(0.05 * (attempt + 1), 0.5))
        write_ready()
    finally:
        waiting.close()
    return done
