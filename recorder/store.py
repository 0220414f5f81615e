"""The dataset on disk: the `games` and `events` tables of FORMAT.md, as Parquet.

    DATASET/games/part-*.parquet    one row per game
    DATASET/events/part-*.parquet   one row per event, sorted by (game_id, hand, seq)

Reliability:

- A file is written under a name the `**/*.parquet` glob does not match,
  flushed and synced, then renamed into place: no reader sees half a file.
- A batch writes its events file before its games file, so every game a
  reader finds in `games` has its events in place.
- Games are keyed by `game_id`: a game already in the dataset is skipped, so
  writing the same games twice adds nothing.
- Compaction builds the new files in a staging folder beside the tables and
  swaps the whole folder in with one atomic `renameat2(RENAME_EXCHANGE)`: a
  reader's glob sees the old files or the new ones, never both.
- Every operation that changes more than one file first writes its plan to
  `DATASET/.journal/` (which files it will add, or which folders it will swap).
  Before any other change, the next writer finishes or undoes each operation a
  crash left there, from its plan alone: it deletes only files the plan names,
  so nothing it cannot prove is its own leftover is ever removed. A file that is
  not ours (a stray events file, a damaged one) is reported, never deleted. Every
  plan is checked first: one naming anything but the dataset's own files (`..`, an
  absolute path, a link out, a folder) is refused, and nothing is done.
- One writer at a time (`DATASET/.lock`), and it decides what to write while it holds
  the lock (`Dataset.writing`): two analyses, imports or compactions never both act
  on what they saw before the other wrote. A second writer waits (`on_wait`).
- A game is read once however many files hold it: a copy of a games file under a
  name kroeg does not give is left out; two of kroeg's files sharing a game are
  refused, naming both. A game's derived facts are stored once (refused a second
  time; `remove_derived_doubles` repairs older datasets).
- Anything under a `.parquet` name that is not a plain file is refused unopened (a
  FIFO would block the reader); permissions are an AccessError.

This module needs pyarrow only; DuckDB is for analytics.
"""

from __future__ import annotations

import bisect
import contextlib
import fcntl
import itertools
import json
import os
import re
import stat
import threading
import uuid
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kroeg.recorder import columns, fsops
from kroeg.recorder.atomic import atomic_write
from kroeg.recorder.errors import (
    AccessError,
    DatasetChanged,
    DatasetError,
    KroegError,
    NotFoundError,
    UsageError,
)
from kroeg.recorder.events import (
    CARD_WORDS,
    CODE_NULL,
    EVENT_TYPES,
    HAND_OPENERS,
    PAYLOAD_COLUMNS,
    PAYLOAD_TYPES,
    Event,
    event_from_row,
)
from kroeg.recorder.records import FORMAT_VERSION, GameRecord
from kroeg.recorder.rules import Ruleset

__all__ = [
    "EVENTS_SCHEMA", "GAMES_SCHEMA", "Dataset", "WriteReport", "pylist", "records_from_tables",
    "table_rows",
]  # fmt: skip

_METADATA = {b"kroeg.format_version": str(FORMAT_VERSION).encode()}
_ARROW_TYPES = {"int8": pa.int8(), "int16": pa.int16(), "string": pa.string()}

EVENTS_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("hand", pa.int16()),
        ("seq", pa.int32()),
        ("kind", pa.string()),
        *((name, _ARROW_TYPES[kind]) for name, kind in PAYLOAD_TYPES.items()),
    ],
    metadata=_METADATA,
)

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", pa.string()),
        ("game_type", pa.string()),
        ("ruleset", pa.string()),
        ("rules", pa.string()),
        ("players", pa.list_(pa.string())),
        ("teams", pa.list_(pa.int8())),
        ("started_at", pa.timestamp("us", tz="UTC")),
        ("venue", pa.string()),
        ("source", pa.string()),
        ("seed", pa.int64()),
        ("format_version", pa.int16()),
        # Added (docs/FORMAT.md): older files lack it and read as NULL.
        ("evening", pa.string()),
    ],
    metadata=_METADATA,
)

# Measured on 100,000 sorted hands (bench/engine.py): dictionary encoding wins for these
# columns, plain for seq and amount. Every reader of Parquet 1.0 understands both.
_DICTIONARY_COLUMNS = ["game_id", "hand", "kind", "seat", "card", "target"]
#: Rows per row group. Small enough that a query for one game reads one group of ~6,000
#: hands (DuckDB skips the others by their game_id range: the rows are sorted), big
#: enough to cost 0.4 bytes/hand (1%) more than one group per file. Measured on the
#: 100,000-hand bench dataset: one game's seats 80 -> 28 ms, a full scan 43 -> 19 ms.
_ROW_GROUP = 262_144
#: The name a compaction gives its files.
_COMPACT_PREFIX = "part-compact-"
#: zstd level when landing games (fast) and when compacting (small, written once).
LANDING_LEVEL = 9
COMPACT_LEVEL = 19
#: The names kroeg gives the files it lands or compacts. A file under another name that
#: holds games another file holds too is a copy (a sync tool's "conflicted copy").
_KROEG_NAME = re.compile(r"part-(?:compact-)?\d{8}T\d{6}-[0-9a-f]{8}\.parquet")
#: What a plan may name: a staging folder, a compaction's file stem, a table's file.
_STAGING_NAME = re.compile(r"\.staging-[0-9a-f]{8}")
_COMPACT_STEM = re.compile(r"part-compact-\d{8}T\d{6}-[0-9a-f]{8}")
_PLAN_FILE = re.compile(
    r"(?:events|games|derived/[A-Za-z0-9_]+)/part-\d{8}T\d{6}-[0-9a-f]{8}\.parquet"
)
#: The derived table that registers which games an analysis batch holds the facts of.
_REGISTER = "derived/games"

#: Called with the dataset's path when a writer must wait for another one (the lock is
#: held); the command line says so on stderr.
on_wait: Callable[[Path], None] | None = None
#: Locks this thread holds, by dataset: a writer may take its own lock again.
_held = threading.local()
#: The game ids of a file, by (path, inode, size, mtime): files are written once.
_ID_CACHE: dict[tuple[str, int, int, int], frozenset[str]] = {}
#: The analysis version of each game a derived/games file registers, by the same key.
_VERSIONS: dict[tuple[str, int, int, int], dict[str, int | None]] = {}
#: Each events file's footer and row groups' game_id ranges, by the same key.
_LAYOUTS: dict[tuple[str, int, int, int], _Layout] = {}
#: Columns read dictionary-encoded: a row group reads in half the time (measured on a
#: 100,000-hand file, 52 -> 27 ms a group), and values repeat.
_DICTIONARY_READ = ["game_id", "kind", "card"]


@dataclass(frozen=True)
class WriteReport:
    """What a write did: games added, and games skipped because they were already there."""

    added: tuple[str, ...]
    skipped: tuple[str, ...]


class Dataset:
    """A kroeg dataset folder; see the module docstring for the layout and guarantees."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.games_dir = self.path / "games"
        self.events_dir = self.path / "events"

    def __repr__(self) -> str:
        return f"Dataset({str(self.path)!r})"

    # -- opening ------------------------------------------------------------------------------

    def exists(self) -> bool:
        """Whether the folder holds a dataset (both table folders)."""
        return self.games_dir.is_dir() and self.events_dir.is_dir()

    def check(self) -> None:
        """Raise DatasetError unless the folder is a kroeg dataset."""
        if not self.path.exists():
            raise DatasetError(f"{self.path}: no such dataset (the folder does not exist)")
        if not self.path.is_dir():
            raise DatasetError(f"{self.path}: not a dataset (it is a file, not a folder)")
        if not self.exists():
            raise DatasetError(
                f"{self.path}: not a kroeg dataset (expected the folders games/ and events/)"
            )

    def create(self) -> Dataset:
        """Make the folder a dataset if it is new or empty; refuse a folder with other things."""
        if self.path.exists() and not self.path.is_dir():
            raise DatasetError(f"{self.path}: cannot create a dataset, it is a file")
        if self.path.is_dir() and not self.exists():
            stray = [
                p.name for p in self.path.iterdir() if p.name not in ("games", "events", ".lock")
            ]
            if stray:
                raise DatasetError(
                    f"{self.path}: not a kroeg dataset and not empty "
                    f"(found {', '.join(sorted(stray)[:3])}); choose a new folder"
                )
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.events_dir.mkdir(parents=True, exist_ok=True)
        return self

    def files(self, table: str) -> list[Path]:
        """The Parquet files of `games` or `events`, as a reader's glob finds them."""
        folder = self.path / table
        return sorted(folder.glob("**/*.parquet"))

    def table_files(self, table: str) -> list[Path]:
        """The files a reader should read. For `games`, each file once: a copy of a file
        under another name (every game it holds is held by a file kroeg named) is left
        out, and two files sharing a game that are not copies make the dataset refused
        (DatasetError naming both). For `events`, only those whose games file (the same
        name in games/) is read, or a compaction's (it holds every game's events, even in
        the instant between its two swaps). So a write cut short between its two files,
        a stray file or a copy is never read as part of the dataset (`kroeg check` names
        them)."""
        if table not in ("games", "events"):
            return self.files(table)
        found = self._game_files()
        if found.clashes:
            raise DatasetError(_clash(*found.clashes[0]))
        if table == "games":
            return found.read
        games = {p.name for p in found.read}
        return [
            p
            for p in self.files("events")
            if p.name in games
            or (p.name.startswith(_COMPACT_PREFIX) and _KROEG_NAME.fullmatch(p.name))
        ]

    def _ids_of(self, path: Path) -> frozenset[str]:
        """The game ids a file holds (read once per version of the file)."""
        key = _version(path)
        ids = _ID_CACHE.get(key)
        if ids is None:
            read = frozenset(self._read(path, ["game_id"]).column("game_id").to_pylist())
            ids = _remember(_ID_CACHE, key, read)
        return ids

    def _versions_of(self, path: Path) -> dict[str, int | None]:
        """The analysis version of each game a `derived/games` file registers (read once
        per version of the file: each analysis batch checks every earlier batch's)."""
        key = _version(path)
        versions = _VERSIONS.get(key)
        if versions is None:
            stored = self._read(path)
            ids = stored.column("game_id").to_pylist()
            found = (
                stored.column("version").to_pylist()
                if "version" in stored.column_names
                else [0] * stored.num_rows
            )
            versions = _remember(_VERSIONS, key, dict(zip(ids, found, strict=True)))
        return versions

    def _game_files(self) -> _GameFiles:
        """Which games files hold each game once: kroeg's own names first, then the rest,
        each in name order; a later file whose games are all held already is a copy."""
        ordered = sorted(
            self.files("games"), key=lambda p: (_KROEG_NAME.fullmatch(p.name) is None, str(p))
        )
        owner: dict[str, Path] = {}
        found = _GameFiles([], {}, [])
        for path in ordered:
            try:
                ids = self._ids_of(path)
            except DatasetChanged:
                raise
            except DatasetError:  # damaged: read (and named) by whoever reads it
                found.read.append(path)
                continue
            shared = sorted(i for i in ids if i in owner)
            if not shared:
                found.read.append(path)
                owner.update(dict.fromkeys(ids, path))
            elif len(shared) == len(ids) and _KROEG_NAME.fullmatch(path.name) is None:
                found.copies[path] = owner[shared[0]]
            else:
                found.clashes.append((shared[0], owner[shared[0]], path))
        return found

    # -- reading ------------------------------------------------------------------------------

    def _schema(self, path: Path) -> pa.Schema:
        """A file's schema, checked: ours, readable, and (for games and events) FORMAT.md's
        columns with FORMAT.md's types. DatasetError names the file and what is wrong:
        a special file (a FIFO would block the reader for ever) is refused unopened, and a
        file kroeg may not read is an AccessError, not a damaged file."""
        _refuse_special(path)
        with _reading(path):
            schema = pq.read_schema(path)
        if (schema.metadata or {}).get(b"kroeg.format_version") is None:
            raise DatasetError(f"{path}: not a kroeg file (no kroeg.format_version metadata)")
        table = path.relative_to(self.path).parts[0] if path.is_relative_to(self.path) else ""
        expected = {"games": GAMES_SCHEMA, "events": EVENTS_SCHEMA}.get(table)
        if expected is not None:
            for field in expected:
                index = schema.get_field_index(field.name)
                if index < 0:
                    if field.name in ("game_id", "players", "rules", "kind", "hand", "seq"):
                        raise DatasetError(f"{path}: not a {table} file "
                                           f"(no column {field.name})")  # fmt: skip
                elif schema.field(index).type != field.type:
                    raise DatasetError(
                        f"{path}: column {field.name} is {schema.field(index).type}, "
                        f"FORMAT.md says {field.type}"
                    )
        return schema

    def check_files(self) -> None:
        """Read every file's footer and schema: a damaged or foreign file is named now,
        before a query trips over it (DatasetError)."""
        for table in self._tables():
            for path in self.table_files(table):
                self._schema(path)

    def _read(self, path: Path, columns: list[str] | None = None) -> pa.Table:
        self._schema(path)
        # ParquetFile, not read_table: read_table imports pyarrow.dataset, and with it
        # pandas (0.7 s of a command's start, measured), to read one file it does not need.
        with _reading(path), open(path, "rb") as handle:
            return pq.ParquetFile(handle).read(columns=columns)

    def game_ids(self) -> set[str]:
        """Every game_id in the dataset."""
        self.check()
        ids: set[str] = set()
        for path in self.table_files("games"):
            ids.update(self._ids_of(path))
        return ids

    def resolve_game(self, given: str) -> str:
        """The game a user means: its whole id, or a prefix only one game's id starts with."""
        ids = self.game_ids()
        if given in ids:
            return given
        matches = sorted(i for i in ids if i.startswith(given)) if given else []
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise NotFoundError(
                f"{self.path}: no game {given!r} (kroeg games {self.path} lists them)"
            )
        shown = ", ".join(matches[:5]) + (", …" if len(matches) > 5 else "")
        raise UsageError(
            f"{given!r} is the start of {len(matches)} games' ids ({shown}): type more of it"
        )

    def games_table(self) -> pa.Table:
        """The whole `games` table."""
        self.check()
        tables = [self._read(p) for p in self.table_files("games")]
        if not tables:
            return GAMES_SCHEMA.empty_table()
        return pa.concat_tables(tables, promote_options="default")

    def events_table(self, game_ids: Iterable[str] | None = None) -> pa.Table:
        """The `events` table (of the given games only, if named), sorted. Only the row
        groups that may hold a named game are read (`event_groups`)."""
        tables = [_plain(t) for t in self.event_groups(game_ids)]
        if not tables:
            return EVENTS_SCHEMA.empty_table()
        table = pa.concat_tables(tables, promote_options="default")
        return table.sort_by(
            [("game_id", "ascending"), ("hand", "ascending"), ("seq", "ascending")]
        )

    def event_groups(self, game_ids: Iterable[str] | None = None) -> Iterator[pa.Table]:
        """The events of the given games (every game's if None), a row group at a time, in
        the files' order: each table holds whole games, its rows sorted by (game_id, hand,
        seq), a game never split between two tables. Each file's row groups are read once,
        and only those whose game_id statistics may hold a named game: reading some games
        costs what they hold, not what the dataset holds. The string columns come
        dictionary-encoded (`_plain` gives FORMAT.md's types)."""
        self.check()
        wanted = None if game_ids is None else sorted(set(game_ids))
        if wanted is not None and not wanted:
            return iter(())
        files = self.table_files("events")
        return self._event_groups(files, wanted)

    def _event_groups(self, files: list[Path], wanted: list[str] | None) -> Iterator[pa.Table]:
        value_set = None if wanted is None else set(wanted)
        for path in files:
            layout = self._layout(path)
            groups = layout.groups_for(wanted)
            if not groups:
                continue
            if not layout.ordered:  # rows not sorted across row groups: the file at once
                table = self._read_groups(path, layout, groups, value_set)
                if table.num_rows:
                    yield _sorted(table)
                continue
            carry: pa.Table | None = None
            for index in groups:
                table = self._read_groups(path, layout, [index], value_set)
                if carry is not None:
                    table = pa.concat_tables([carry, table])
                    carry = None
                if not table.num_rows:
                    continue
                # A game whose rows go on in the next group waits for them.
                tail = layout.continues(index)
                if tail is not None:
                    keep = pc.invert(pc.is_in(table.column("game_id"), pa.array([tail])))
                    carry = table.filter(pc.invert(keep))
                    table = table.filter(keep)
                    if not carry.num_rows:
                        carry = None
                if table.num_rows:
                    yield _sorted(table)
            if carry is not None and carry.num_rows:
                yield _sorted(carry)

    def _read_groups(
        self, path: Path, layout: _Layout, groups: list[int], value_set: set[str] | None
    ) -> pa.Table:
        """Row groups of an events file, kept to the wanted games."""
        with _reading(path), open(path, "rb") as handle:
            parquet = pq.ParquetFile(
                handle, metadata=layout.metadata, read_dictionary=_DICTIONARY_READ
            )
            table = parquet.read_row_groups(groups)
        if value_set is not None:
            # The groups' own games (their dictionaries) against the wanted ones: the cost
            # is the groups', not the number of games wanted.
            ids = table.column("game_id")
            held = {v for chunk in ids.chunks for v in chunk.dictionary.to_pylist()}
            if not held <= value_set:
                chosen = pa.array(sorted(held & value_set), pa.string())
                table = table.filter(pc.is_in(ids, value_set=chosen))
        return table

    def _layout(self, path: Path) -> _Layout:
        """An events file's footer and the game_id range of each row group (read once per
        version of the file: files are written once)."""
        _refuse_special(path)
        key = _version(path)
        layout = _LAYOUTS.get(key)
        if layout is None:
            self._schema(path)
            with _reading(path):
                metadata = pq.read_metadata(path)
            layout = _remember(_LAYOUTS, key, _Layout.of(metadata))
        return layout

    def read_games(self, game_ids: Iterable[str] | None = None) -> Iterator[GameRecord]:
        """Read games back with their events, in game_id order."""
        wanted, games = self._wanted_games(game_ids)
        return records_from_tables(games, self.events_table(wanted))

    def iter_games(self, game_ids: Iterable[str] | None = None) -> Iterator[GameRecord]:
        """Games with their events (every game if None) in the order the files hold them,
        not in game_id order: each row group read once, memory one row group's games
        (`event_groups`). For a reader of many games, an export."""
        wanted, games = self._wanted_games(game_ids)
        return self._iter_games(games.combine_chunks(), wanted)

    def _wanted_games(self, game_ids: Iterable[str] | None) -> tuple[set[str] | None, pa.Table]:
        """The games asked for (None: all) and their `games` rows; DatasetError naming any
        the dataset does not hold."""
        self.check()
        wanted = None if game_ids is None else set(game_ids)
        games = self._games_rows(wanted)
        if wanted is not None:
            missing = wanted - set(games.column("game_id").to_pylist())
            if missing:
                raise DatasetError(f"{self.path}: no game {', '.join(sorted(missing))}")
        return wanted, games

    def _iter_games(self, games: pa.Table, wanted: set[str] | None) -> Iterator[GameRecord]:
        for chosen, events in self._game_groups(games, wanted):
            yield from records_from_tables(chosen, events)

    def game_groups(
        self, game_ids: Iterable[str] | None = None
    ) -> Iterator[tuple[pa.Table, pa.Table]]:
        """What `iter_games` reads, as tables: (games rows, their events) a row group at a
        time in the files' order, the events as `event_groups` gives them (whole games,
        sorted, strings dictionary-encoded); games listed without events come last, with
        an empty events table. For a reader that works on the columns (an export)."""
        wanted, games = self._wanted_games(game_ids)
        return self._game_groups(games.combine_chunks(), wanted)

    def _game_groups(
        self, games: pa.Table, wanted: set[str] | None
    ) -> Iterator[tuple[pa.Table, pa.Table]]:
        rows = {game_id: row for row, game_id in enumerate(games.column("game_id").to_pylist())}
        seen: set[str] = set()
        for events in self.event_groups(None if wanted is None else rows):
            held = [g for g in pylist(pc.unique(events.column("game_id"))) if g in rows]
            seen.update(held)
            yield games.take(pa.array([rows[g] for g in held], pa.int64())), events
        rest = [row for game_id, row in rows.items() if game_id not in seen]
        if rest:  # listed without events (`verify` names them): read as they are, empty
            yield games.take(pa.array(rest, pa.int64())), EVENTS_SCHEMA.empty_table()

    def _games_rows(self, wanted: set[str] | None) -> pa.Table:
        """The `games` rows of the wanted games (every game if None), reading only the
        games files that hold them."""
        if wanted is None:
            return self.games_table()
        tables = []
        for path in self.table_files("games"):
            if wanted.isdisjoint(self._ids_of(path)):
                continue
            table = self._read(path)
            chosen = pc.is_in(table.column("game_id"), pa.array(sorted(wanted), pa.string()))
            tables.append(table.filter(chosen))
        if not tables:
            return GAMES_SCHEMA.empty_table()
        return pa.concat_tables(tables, promote_options="default")

    def read_game(self, game_id: str) -> GameRecord:
        """One game with its events."""
        return next(iter(self.read_games([game_id])))

    def evening_games(self, evening: str, day: date | None, venue: str) -> list[GameRecord]:
        """The games declared part of an `evening` (`king-of-the-hill`) on `day` (UTC) at
        `venue` ('' for none), with their events: what a new game of that evening follows
        (recorder.hill). Empty for a dataset not made yet, or landed before the column."""
        if day is None or not self.exists():
            return []
        games = self.games_table()
        if "evening" not in games.column_names:
            return []
        rows = table_rows(games.select(["game_id", "started_at", "venue", "evening"]))
        ids = [
            r["game_id"]
            for r in rows
            if r["evening"] == evening
            and r["started_at"] is not None
            and r["started_at"].astimezone(UTC).date() == day
            and (r["venue"] or "") == venue
        ]
        return list(self.read_games(ids)) if ids else []

    # -- writing ------------------------------------------------------------------------------

    # -- checking -----------------------------------------------------------------------------

    def verify(self, stage: Callable[[str], None] | None = None) -> list[str]:
        """Every problem with the dataset's files, each with what to do; [] when sound.

        Reads every file (a damaged one is named, a special one refused unopened), checks
        that each events file belongs to a games file, that every game has its events and
        is held by one file, that no game's derived facts are stored twice, and names
        operations a crash left unfinished and plans kroeg will not carry out. Changes
        nothing. `stage` hears which file it reads.
        """
        self.check()
        problems: list[str] = []
        readable: dict[Path, pa.Table] = {}
        every = [path for table in self._tables() for path in self.files(table)]
        for number, path in enumerate(every, 1):
            if stage is not None:
                stage(f"reading file {number:,} of {len(every):,}")
            try:
                readable[path] = self._read(path)
            except AccessError as exc:
                problems.append(str(exc))
            except DatasetError as exc:
                remedy = "" if _special(path) else ", then re-import what it held"
                problems.append(f"{exc}: move it out of the dataset (nothing reads it "
                                f"safely){remedy}")  # fmt: skip
        found = self._game_files()
        for copy, original in sorted(found.copies.items()):
            twin = self.events_dir / copy.relative_to(self.games_dir)
            also = f" (and its events, {twin})" if twin.exists() else ""
            problems.append(
                f"{copy}: a copy of {original} under another name (every game it holds is "
                f"there too); it is not read. Delete it{also}, or move it out of the dataset"
            )
        for game_id, first, second in found.clashes:
            problems.append(_clash(game_id, first, second))
        games_names = {p.name for p in found.read}
        copies = {p.name for p in found.copies}
        for path in self.files("events"):
            if path.name in games_names or path.name in copies:
                continue
            if path.name.startswith(_COMPACT_PREFIX) and _KROEG_NAME.fullmatch(path.name):
                continue
            problems.append(
                f"{path}: an events file without its games file ({path.name} is not in "
                "games/); it is not read. If a write was cut short, the next write removes "
                "it; otherwise it is not kroeg's: move it away"
            )
        expected = {
            game_id
            for path in found.read if path in readable
            for game_id in readable[path].column("game_id").to_pylist()
        }  # fmt: skip
        found_ids: set[str] = set()
        events_files = [] if found.clashes else self.table_files("events")
        for path in events_files:
            if path in readable:
                found_ids.update(readable[path].column("game_id").to_pylist())
        for game_id in [] if found.clashes else sorted(expected - found_ids)[:10]:
            problems.append(f"game {game_id}: listed in games/ but has no events")
        with contextlib.suppress(DatasetError):  # a damaged derived file: named above
            problems.extend(self._doubles_problems())
        plans = []
        for entry, plan, problem in self._plans():
            if problem is not None:
                problems.append(_refused_plan(entry, problem, self.journal_dir))
            elif plan is not None:
                plans.append(plan)
                problems.append(
                    f"{entry}: a {plan['op']} was cut short; the next write (or "
                    "`kroeg compact`) finishes or undoes it from this plan"
                )
        owned = {plan.get("staging") for plan in plans}
        for staging in sorted(self.path.glob(".staging-*")):
            if staging.name not in owned:
                problems.append(f"{staging}: a staging folder no operation owns; the old or "
                                "new files of a compaction: check, then remove it")  # fmt: skip
        return problems

    # -- derived facts, once per game ---------------------------------------------------------

    def derived_doubles(self) -> dict[Path, set[str]]:
        """Derived rows stored twice, by file: the games whose rows in that file another
        file holds too. `derived/games` registers which batch holds a game's facts (the
        highest `version`, then the latest file): a game's rows in any other batch's files
        are doubles. In a table no batch registers (stored counts), the last file holding
        a game keeps it. Changes nothing."""
        register = self.files(_REGISTER)
        best: dict[str, tuple[int, str]] = {}
        for path in register:
            table = self._read(path)
            ids = table.column("game_id").to_pylist()
            versions = (
                table.column("version").to_pylist()
                if "version" in table.column_names
                else [0] * len(ids)
            )
            for game_id, version in zip(ids, versions, strict=True):
                rank = (version or 0, path.name)
                if rank > best.get(game_id, (-1, "")):
                    best[game_id] = rank
        batches = {p.name for p in register}
        doubles: dict[Path, set[str]] = {}
        for table in self._tables()[2:]:
            loose: dict[str, list[Path]] = {}
            for path in self.files(table):
                ids = self._ids_of(path)
                if path.name in batches:
                    stale = {g for g in ids if g in best and best[g][1] != path.name}
                    if stale:
                        doubles[path] = stale
                else:
                    for game_id in ids:
                        loose.setdefault(game_id, []).append(path)
            for game_id, paths in loose.items():
                for path in sorted(paths)[:-1]:
                    doubles.setdefault(path, set()).add(game_id)
        return doubles

    def _doubles_problems(self) -> list[str]:
        by_table: dict[str, set[str]] = {}
        for path, ids in self.derived_doubles().items():
            by_table.setdefault(str(path.parent.relative_to(self.path)), set()).update(ids)
        return [
            f"{self.path / table}: the derived facts of {len(ids):,} "
            f"game{'s' if len(ids) != 1 else ''} are stored more than once (e.g. "
            f"{', '.join(sorted(ids)[:3])}), so every figure counts them twice: the next "
            f"analysis (`kroeg analyse {self.path}`, or kroeg stats) removes the doubles"
            for table, ids in sorted(by_table.items())
        ]

    def remove_derived_doubles(self) -> int:
        """Rewrite each derived file holding doubles without them (`derived_doubles`); the
        register last, so a crash part way leaves each game's kept batch as it was and the
        next call finishes. Return how many games had doubles."""
        with self._writable(), self._locked():
            doubles = self.derived_doubles()
            order = sorted(doubles, key=lambda p: (p.parent == self.path / _REGISTER, str(p)))
            for path in order:
                table = self._read(path)
                gone = pa.array(sorted(doubles[path]), pa.string())
                kept = table.filter(pc.invert(pc.is_in(table.column("game_id"), gone)))
                if kept.num_rows:
                    _write_atomic(kept, path, False, LANDING_LEVEL)
                else:
                    fsops.unlink(path)
            return len(set().union(*doubles.values())) if doubles else 0

    # -- the journal of operations in flight -------------------------------------------------

    @property
    def journal_dir(self) -> Path:
        """Where each multi-file operation writes its plan before it starts."""
        return self.path / ".journal"

    def _begin(self, plan: dict[str, Any]) -> Path:
        """Record an operation's plan (atomically) before its first change."""
        fsops.mkdir(self.journal_dir)
        entry = self.journal_dir / f"{uuid.uuid4().hex}.json"
        with atomic_write(entry) as handle:
            handle.write(json.dumps(plan))
        return entry

    def _plans(self) -> list[tuple[Path, dict[str, Any] | None, str | None]]:
        """Each plan in the journal, with why kroeg will not carry it out (None: it will)."""
        folder = self.journal_dir
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            return [(folder, None, "it is not a folder of plans but a link or a file")]
        if not folder.is_dir():
            return []
        found: list[tuple[Path, dict[str, Any] | None, str | None]] = []
        for entry in sorted(folder.glob("*.json")):
            plan: Any = None
            try:
                if not stat.S_ISREG(entry.lstat().st_mode):
                    raise _NotAPlan(f"not a plain file but {_kind(entry.lstat().st_mode)}")
                plan = json.loads(entry.read_text(encoding="utf-8"))
                problem = self._plan_problem(plan)
            except _NotAPlan as exc:
                problem = str(exc)
            except PermissionError:
                problem = "kroeg may not read it (permission denied)"
            except (OSError, ValueError) as exc:
                problem = f"unreadable operation journal ({exc})"
            found.append((entry, plan if problem is None else None, problem))
        return found

    def _plan_problem(self, plan: Any) -> str | None:
        """Why a plan cannot be carried out inside this dataset, or None."""
        if not isinstance(plan, dict):
            return "not a plan (expected a JSON object)"
        op = plan.get("op")
        if op == "compact":
            staging, stem = plan.get("staging"), plan.get("stem")
            if not isinstance(staging, str) or not _STAGING_NAME.fullmatch(staging):
                return f"it names the staging folder {staging!r}, not one kroeg makes"
            if not isinstance(stem, str) or not _COMPACT_STEM.fullmatch(stem):
                return f"it names the files {stem!r}, not a name kroeg gives"
            if (self.path / staging).is_symlink():
                return f"its staging folder {staging} is a link, which may lead anywhere"
            return None
        if op in ("write", "derive"):
            files = plan.get("files")
            if not isinstance(files, list) or not files:
                return "it lists no files"
            root = self.path.resolve()
            for name in files:
                if not isinstance(name, str) or not _PLAN_FILE.fullmatch(name):
                    return (f"it names {name!r}, which is not one of the dataset's table "
                            "files (events/, games/ or derived/NAME/, part-….parquet)")  # fmt: skip
                path = self.path / name
                if path.is_symlink() or not path.parent.resolve().is_relative_to(root):
                    return f"it names {name!r}, which leads out of the dataset through a link"
                if path.exists() and not path.is_file():
                    return f"it names {name!r}, which is not a file"
            return None
        return f"it is an operation kroeg does not know ({op!r})"

    def pending_operations(self) -> list[dict[str, Any]]:
        """The plans of operations a crash cut short (finished or undone by the next write).
        A plan naming anything but the dataset's own files (`..`, an absolute path, a link
        out, a folder) is refused before any plan is carried out: DatasetError."""
        plans = []
        for entry, plan, problem in self._plans():
            if problem is not None:
                raise DatasetError(_refused_plan(entry, problem, self.journal_dir))
            plans.append({"entry": entry, **(plan or {})})
        return plans

    def _recover(self) -> None:
        """Finish or undo what crashed operations left, from their plans; drop temporaries.
        Every plan is checked before any is carried out (`pending_operations`)."""
        for plan in self.pending_operations():
            if plan["op"] == "compact":
                self._recover_compaction(plan)
            else:
                self._finish_or_undo([self.path / f for f in plan["files"]])
            fsops.unlink(plan["entry"])
        root = self.path.resolve()
        for folder in (self.events_dir, self.games_dir, *self._derived_dirs()):
            if folder.is_symlink() or not folder.resolve().is_relative_to(root):
                continue  # a link out of the dataset: its temporaries are not ours
            for path in folder.glob(".*.tmp"):  # atomic_write's names: never a finished file
                fsops.unlink(path)

    @staticmethod
    def _finish_or_undo(files: list[Path]) -> None:
        """Files added one after another: done once the last one is in place, else undone."""
        if not files[-1].exists():
            for path in files:
                fsops.unlink(path)

    def _abandon(self, entry: Path, files: list[Path]) -> None:
        """An operation that failed while this process runs (a refused write, a full disk):
        undo it now, its files then its plan, so nothing is left for `kroeg check` to
        report. If undoing fails too, the plan stays for the next writer."""
        try:
            self._finish_or_undo(files)
            fsops.unlink(entry)
        except OSError:
            pass

    def _recover_compaction(self, plan: dict[str, Any]) -> None:
        staging, name = self.path / plan["staging"], f"{plan['stem']}.parquet"
        swapped = [  # a partitioned compaction's files are one folder down
            any(p.name == name for p in (self.path / table).glob("**/*.parquet"))
            for table in ("events", "games")
        ]
        if any(swapped):  # the first swap happened: finish the second from the staging folder
            for table, done in zip(("events", "games"), swapped, strict=True):
                if not done:
                    fsops.exchange(staging / table, self.path / table)
        fsops.rmtree(staging)  # before any swap: the new files; after: the old ones

    def _tables(self) -> list[str]:
        """Every table of the dataset: games, events, and each derived table."""
        return ["games", "events", *(f"derived/{p.name}" for p in self._derived_dirs())]

    def _derived_dirs(self) -> list[Path]:
        derived = self.path / "derived"
        return sorted(p for p in derived.iterdir() if p.is_dir()) if derived.is_dir() else []

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer or compactor at a time (readers never wait). A writer that finds the
        lock taken says so (`on_wait`) and waits. The thread holding it may take it again,
        so an analysis holds it from choosing its games to storing their facts."""
        held: dict[str, int] = _held.__dict__.setdefault("paths", {})
        key = str(self.path.resolve())
        if key in held:
            held[key] += 1
            try:
                yield
            finally:
                held[key] -= 1
            return
        with open(self.path / ".lock", "a+b") as handle:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if on_wait is not None:
                    on_wait(self.path)
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            held[key] = 1
            try:
                yield
            finally:
                del held[key]
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Be the dataset's one writer for the block: what it decides to write (the games
        to analyse, import or compact) no other writer can change until it ends."""
        self.check()
        with self._writable(), self._locked():
            yield

    @contextmanager
    def _writable(self) -> Iterator[None]:
        """A write the system refused is an AccessError naming the folder."""
        try:
            yield
        except PermissionError as exc:
            raise AccessError(_denied(Path(exc.filename or self.path))) from None

    def write(self, records: Iterable[GameRecord]) -> WriteReport:
        """Add games in one batch: one events file, then one games file; skip known games
        (known as the lock is held: two writers of the same games add them once)."""
        self.create()
        with self._writable(), self._locked():
            return self._write(records)

    def _write(self, records: Iterable[GameRecord]) -> WriteReport:
        self._recover()
        known = self.game_ids()
        batch: dict[str, GameRecord] = {}
        skipped: list[str] = []
        for record in records:
            if record.game_id in known or record.game_id in batch:
                skipped.append(record.game_id)
            else:
                batch[record.game_id] = record
        if batch:
            ordered = [batch[k] for k in sorted(batch)]
            stem = f"part-{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
            events = events_to_table(ordered)
            games = games_to_table(ordered)
            # Events first, then the games that point at them: the games file commits.
            files = [self.events_dir / f"{stem}.parquet", self.games_dir / f"{stem}.parquet"]
            entry = self._begin({"op": "write", "files": [f"events/{stem}.parquet",
                                                          f"games/{stem}.parquet"]})  # fmt: skip
            try:
                _write_atomic(events, files[0], True, LANDING_LEVEL)
                _write_atomic(games, files[1], False, LANDING_LEVEL)
            except Exception:
                self._abandon(entry, files)
                raise
            fsops.unlink(entry)
        return WriteReport(tuple(sorted(batch)), tuple(skipped))

    def read_file(self, path: Path) -> pa.Table:
        """One of the dataset's Parquet files; DatasetError if it is not ours or damaged."""
        return self._read(path)

    def write_derived(self, name: str, table: pa.Table) -> Path | None:
        """Add rows to a derived table, DATASET/derived/NAME/, as one new file (atomically)."""
        return self.write_derived_batch([(name, table)])[0]

    def write_derived_batch(self, tables: list[tuple[str, pa.Table]]) -> list[Path | None]:
        """Add rows to several derived tables as one operation: after a crash, all of them
        are there or none (the last table's file commits the batch)."""
        self.check()
        stem = f"part-{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
        paths: list[Path | None] = [
            self.path / "derived" / name / f"{stem}.parquet" if table.num_rows else None
            for name, table in tables
        ]
        files = [p for p in paths if p is not None]
        if not files:
            return paths
        with self._writable(), self._locked():
            self._recover()
            self._refuse_twice(tables)
            names = [str(p.relative_to(self.path)) for p in files]
            entry = self._begin({"op": "derive", "files": names})
            try:
                for (_, table), path in zip(tables, paths, strict=True):
                    if path is not None:
                        fsops.mkdir(path.parent)
                        _write_atomic(
                            table.replace_schema_metadata(_METADATA), path, False, LANDING_LEVEL
                        )
            except Exception:
                self._abandon(entry, files)
                raise
            fsops.unlink(entry)
        return paths

    def remove_derived(self, name: str) -> int:
        """Remove every file of a derived table that is worked out from all games in order
        (derived/ratings: a game dated before a rated one changes every rating after it),
        to be written again; return how many files went. A removal cut short leaves some
        files: their reader must tell (the ratings check their steps run unbroken)."""
        if name in ("games", "events") or "/" in name or name.startswith("."):
            raise ValueError(f"not a derived table kroeg may remove: {name!r}")
        with self._writable(), self._locked():
            files = self.files(f"derived/{name}")
            for path in files:
                fsops.unlink(path)
            return len(files)

    def _refuse_twice(self, tables: list[tuple[str, pa.Table]]) -> None:
        """Refuse to store a game's derived facts a second time (DatasetError): a batch
        registering games already registered under the same or a later version, or rows of
        a table no batch registers for games it holds already. What to store is decided
        under the lock, so this never fires unless a writer decided without it."""
        named = dict(tables)
        if "games" in named:
            register = named["games"]
            versions = (
                register.column("version").to_pylist()
                if "version" in register.column_names
                else [0] * register.num_rows
            )
            new = dict(zip(register.column("game_id").to_pylist(), versions, strict=True))
            for path in self.files(_REGISTER):
                stored = self._versions_of(path)
                for game_id in stored.keys() & new.keys():
                    if (stored[game_id] or 0) >= (new[game_id] or 0):
                        raise DatasetError(_twice(game_id, path))
            return
        for name, table in tables:
            new_ids = set(table.column("game_id").to_pylist()) if table.num_rows else set()
            for path in self.files(f"derived/{name}"):
                again = new_ids & self._ids_of(path)
                if again:
                    raise DatasetError(_twice(min(again), path))

    def compact(
        self, partition: str | None = None, stage: Callable[[str], None] | None = None
    ) -> tuple[int, int]:
        """Rewrite each table into one sorted file, or (`partition="month"`) one per month
        of play, in `month=YYYY-MM/` folders (`month=undated` for games without a date):
        a reader after one month reads its folder. Return (files before, files after).
        `stage` hears what it is doing, for a progress line."""
        if partition not in (None, "month"):
            raise DatasetError(f"cannot partition by {partition!r}: only by month")
        self.check()
        with self._writable(), self._locked():
            return self._compact(partition, stage or (lambda _text: None))

    def _compact(self, partition: str | None, stage: Callable[[str], None]) -> tuple[int, int]:
        self._recover()
        before = len(self.files("games")) + len(self.files("events"))
        stage(f"reading and sorting {before:,} files")
        games = self.games_table()
        if games.num_rows:
            games = games.sort_by("game_id")
        events = self.events_table()
        stem = f"{_COMPACT_PREFIX}{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
        staging = f".staging-{uuid.uuid4().hex[:8]}"
        # The plan first; then both new files, complete, in the staging folder; then the
        # two swaps. A crash before the first swap is undone, after it is finished.
        entry = self._begin({"op": "compact", "staging": staging, "stem": stem})
        parts = [("", games, events)] if partition is None else _by_month(games, events)
        try:
            for number, (folder_name, games_part, events_part) in enumerate(parts, 1):
                what = f"month {number} of {len(parts)}" if partition else "one file per table"
                stage(f"writing {what} ({events_part.num_rows:,} events)")
                for name, table, is_events in (
                    ("events", events_part, True),
                    ("games", games_part, False),
                ):
                    folder = self.path / staging / name / folder_name
                    fsops.mkdir(folder)
                    _write_atomic(table, folder / f"{stem}.parquet", is_events, COMPACT_LEVEL)
        except Exception:  # refused before the first swap: nothing of it is left
            try:
                fsops.rmtree(self.path / staging)
                fsops.unlink(entry)
            except OSError:
                pass
            raise
        stage("putting the new files in place")
        for name in ("events", "games"):
            fsops.exchange(self.path / staging / name, self.path / name)
        fsops.rmtree(self.path / staging)
        fsops.unlink(entry)
        after = len(self.files("games")) + len(self.files("events"))
        return before, after


def _by_month(games: pa.Table, events: pa.Table) -> list[tuple[str, pa.Table, pa.Table]]:
    """Each month's folder name (`month=2026-11`), games and events, both still sorted."""
    if not games.num_rows:
        return [("", games, events)]
    months = pc.fill_null(pc.strftime(games.column("started_at"), "%Y-%m"), "undated")
    parts = []
    for month in sorted(set(months.to_pylist())):
        chosen = games.filter(pc.equal(months, month))
        ids = chosen.column("game_id")
        parts.append(
            (f"month={month}", chosen, events.filter(pc.is_in(events.column("game_id"), ids)))
        )
    return parts


_ROW_COLUMNS = ("kind", *PAYLOAD_COLUMNS)


def events_to_table(records: Iterable[GameRecord]) -> pa.Table:
    """The events of these games as one Arrow table in FORMAT.md's schema (in given order).

    Each event gives its row as five integers (its generated `to_codes`), gathered in one
    integer buffer; numpy cuts it into columns and works out `hand` and `seq` from where
    every game and every `hand_start` begins, and Arrow takes the buffers as they are
    (`recorder.columns`): 852,554 events in 0.25–0.30 CPU-s, against 0.50 through
    `pa.array` on lists and 0.74–0.89 at a process's first call, which imports pandas
    (docs/BENCHMARKS.md). A game of a few hundred events is no faster (0.5 ms).
    """
    codes = array("i")
    ids: list[str] = []
    lengths = array("q")
    for record in records:
        events = record.events
        codes.fromlist([code for e in events for code in e.to_codes()])
        ids.append(record.game_id)
        lengths.append(len(events))
    if not codes:
        return EVENTS_SCHEMA.empty_table()
    rows = np.frombuffer(codes, np.intc).reshape(-1, 1 + len(PAYLOAD_COLUMNS))
    sizes = np.frombuffer(lengths, np.int64)
    kinds = list(EVENT_TYPES)
    opening = np.isin(rows[:, 0], [kinds.index(kind) for kind in HAND_OPENERS])
    hands, seqs, game_of = columns.hands_and_seqs(opening, sizes)
    payload = [
        columns.words(rows[:, i], CARD_WORDS, CODE_NULL)
        if PAYLOAD_TYPES[name] == "string"
        else columns.integers(rows[:, i], EVENTS_SCHEMA.field(name).type, CODE_NULL)
        for i, name in enumerate(PAYLOAD_COLUMNS, 1)
    ]
    return pa.table(
        [
            columns.words(game_of, ids),
            columns.integers(hands, pa.int16()),
            columns.integers(seqs, pa.int32()),
            columns.words(rows[:, 0], kinds),
            *payload,
        ],
        schema=EVENTS_SCHEMA,
    )


def games_to_table(records: Iterable[GameRecord]) -> pa.Table:
    """The `games` rows of these games as one Arrow table (`recorder.columns` builds
    each column, so writing imports no pandas)."""
    games = list(records)
    if not games:
        return GAMES_SCHEMA.empty_table()

    seeds = [r.seed for r in games]
    return pa.table(
        [
            columns.strings([r.game_id for r in games]),
            columns.strings([r.game_type for r in games]),
            columns.strings([r.ruleset for r in games]),
            columns.strings([r.rules.to_json() for r in games]),
            columns.lists([list(r.players) for r in games], GAMES_SCHEMA.field("players").type),
            columns.lists(
                [None if r.teams is None else list(r.teams) for r in games],
                GAMES_SCHEMA.field("teams").type,
            ),
            columns.timestamps([r.started_at for r in games]),
            columns.strings([r.venue for r in games]),
            columns.strings([r.source for r in games]),
            columns.integers(
                np.array([0 if s is None else s for s in seeds], np.int64),
                pa.int64(),
                valid=np.array([s is not None for s in seeds]),
            ),
            columns.integers(np.full(len(games), FORMAT_VERSION, np.int64), pa.int16()),
            columns.strings([r.evening for r in games]),
        ],
        schema=GAMES_SCHEMA,
    )


def pylist(column: pa.ChunkedArray | pa.Array) -> list[Any]:
    """A column's values as a list; a dictionary-encoded one decoded here (measured on a
    row group of 262,144 rows: 0.46 s through pyarrow's `to_pylist`, 0.01 s here)."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    values: list[Any] = []
    for chunk in chunks:
        if not pa.types.is_dictionary(chunk.type):
            values.extend(chunk.to_pylist())
            continue
        words = chunk.dictionary.to_pylist()
        if chunk.null_count:
            values.extend(None if i is None else words[i] for i in chunk.indices.to_pylist())
        else:
            values.extend([words[i] for i in chunk.indices.to_pylist()])
    return values


#: What pyarrow gives for a timestamp in UTC, and its zero.
_UTC = ZoneInfo("UTC")
_EPOCH = datetime(1970, 1, 1, tzinfo=_UTC)


def table_rows(table: pa.Table) -> list[dict[str, Any]]:
    """`table.to_pylist()`, the same values, with the UTC timestamps converted here:
    pyarrow converts a timestamp with a time zone by importing pandas, 0.7 s of a
    command's start (measured) for a few dates."""
    columns: list[list[Any]] = []
    for column in table.columns:
        kind = column.type
        if pa.types.is_timestamp(kind) and kind.tz == "UTC" and kind.unit == "us":
            micros = column.cast(pa.int64()).to_pylist()
            columns.append(
                [None if v is None else _EPOCH + timedelta(microseconds=v) for v in micros]
            )
        else:
            columns.append(column.to_pylist())
    names = table.column_names
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def _plain(events: pa.Table) -> pa.Table:
    """Events read dictionary-encoded, in FORMAT.md's types."""
    return events.cast(pa.schema([EVENTS_SCHEMA.field(n) for n in events.column_names],
                                 metadata=EVENTS_SCHEMA.metadata))  # fmt: skip


def _sorted(events: pa.Table) -> pa.Table:
    """Events sorted by (game_id, hand, seq): as they are when kroeg wrote them (checked
    in bulk, cheaply), else sorted here."""
    events = events.combine_chunks()
    if events.num_rows < 2:
        return events
    ids = events.column("game_id").chunk(0)
    if pa.types.is_dictionary(ids.type):
        # Whole games in runs, the runs in game_id order, (hand, seq) rising in each run.
        codes = ids.indices
        new_game = pc.not_equal(codes.slice(1), codes.slice(0, len(codes) - 1))
        starts = pc.add(pc.indices_nonzero(new_game), 1)
        heads = ids.dictionary.take(codes.take(pa.concat_arrays([pa.array([0], starts.type),
                                                                 starts])))  # fmt: skip
        key = pc.add(
            pc.shift_left(pc.cast(events.column("hand").chunk(0), pa.int64()), 32),
            pc.cast(events.column("seq").chunk(0), pa.int64()),
        )
        rising = pc.greater(key.slice(1), key.slice(0, len(key) - 1))
        games_in_order = (
            len(heads) < 2
            or pc.all(pc.less(heads.slice(0, len(heads) - 1), heads.slice(1))).as_py()
        )
        if games_in_order and pc.all(pc.or_(rising, new_game)).as_py():
            return events
    plain = _plain(events)
    return plain.sort_by([("game_id", "ascending"), ("hand", "ascending"), ("seq", "ascending")])


def records_from_tables(games: pa.Table, events: pa.Table) -> Iterator[GameRecord]:
    """The games of a `games` table with their rows of an `events` table (sorted as
    `Dataset.events_table` sorts them), in game_id order. Analyses call this on slices."""
    by_game: dict[str, list[Event]] = {}
    ids = pylist(events.column("game_id"))
    keys = zip(*(pylist(events.column(c)) for c in _ROW_COLUMNS), strict=True)
    # Events are immutable values and rows repeat (a card dealt to a seat, a card played):
    # each distinct row is decoded once. A game's rows come together (sorted): one look-up
    # of its list per game, not per row.
    decoded: dict[tuple[Any, ...], Event] = {}
    current: str | None = None
    bucket: list[Event] = []
    for game_id, key in zip(ids, keys, strict=True):
        event = decoded.get(key)
        if event is None:
            event = decoded[key] = event_from_row(*key)
        if game_id != current:
            bucket = by_game.setdefault(game_id, [])
            current = game_id
        bucket.append(event)
    for row in sorted(table_rows(games), key=lambda r: r["game_id"]):
        yield _record_from_row(row, tuple(by_game.get(row["game_id"], ())))


#: Rules read back, by their JSON text: a dataset's games share a few rule sets, and a
#: `Ruleset` is a frozen value (reading one costs 0.5 ms).
_RULES: dict[str, Ruleset] = {}


def _record_from_row(row: dict[str, Any], events: tuple[Event, ...]) -> GameRecord:
    text = row["rules"]
    rules = _RULES.get(text) if isinstance(text, str) else None
    if rules is None:
        try:
            rules = Ruleset.from_dict(json.loads(text))
        except (KroegError, ValueError) as exc:
            raise DatasetError(f"game {row['game_id']}: unreadable rules ({exc})") from None
        if len(_RULES) > 4096:
            _RULES.clear()
        _RULES[text] = rules
    started = row["started_at"]
    return GameRecord(
        game_id=row["game_id"],
        rules=rules,
        players=tuple(row["players"]),
        events=events,
        source=row["source"],
        started_at=started,
        venue=row["venue"],
        seed=row["seed"],
        teams=None if row["teams"] is None else tuple(row["teams"]),
        ruleset=row["ruleset"],
        evening=row.get("evening"),
    )


def _write_atomic(table: pa.Table, final: Path, is_events: bool, level: int) -> None:
    """Write `table` to a temporary name, sync it, then rename it to `final`."""
    options: dict[str, Any] = {
        "compression": "zstd",
        "compression_level": level,
        "row_group_size": _ROW_GROUP,
    }
    if is_events:
        options["use_dictionary"] = _DICTIONARY_COLUMNS
    with atomic_write(final, binary=True) as handle:
        pq.write_table(table, handle, **options)


@dataclass(frozen=True)
class _Layout:
    """An events file's footer, and each row group's lowest and highest game_id (None
    where its statistics do not say). `ordered`: every group's range known and each
    starting where the one before ends or after it (rows sorted by game_id, as kroeg
    writes them), so a game's rows go on into the next group only from its last row."""

    metadata: pq.FileMetaData
    ranges: tuple[tuple[str, str] | None, ...]
    ordered: bool

    @staticmethod
    def of(metadata: pq.FileMetaData) -> _Layout:
        column = metadata.schema.to_arrow_schema().get_field_index("game_id")
        ranges: list[tuple[str, str] | None] = []
        for index in range(metadata.num_row_groups):
            stats = metadata.row_group(index).column(column).statistics
            known = stats is not None and stats.has_min_max
            ranges.append((str(stats.min), str(stats.max)) if known else None)
        bounds = [r for r in ranges if r is not None]
        ordered = len(bounds) == len(ranges) and all(
            a[1] <= b[0] for a, b in itertools.pairwise(bounds)
        )
        return _Layout(metadata, tuple(ranges), ordered)

    def groups_for(self, wanted: list[str] | None) -> list[int]:
        """The row groups that may hold one of the `wanted` games (sorted ids; None: all)."""
        chosen = []
        for index, bounds in enumerate(self.ranges):
            if not self.metadata.row_group(index).num_rows:
                continue
            if wanted is None or bounds is None:
                chosen.append(index)
                continue
            first = bisect.bisect_left(wanted, bounds[0])
            if first < len(wanted) and wanted[first] <= bounds[1]:
                chosen.append(index)
        return chosen

    def continues(self, index: int) -> str | None:
        """The game whose rows go on from row group `index` into the next, if any."""
        if not self.ordered or index + 1 >= len(self.ranges):
            return None
        here, after = self.ranges[index], self.ranges[index + 1]
        assert here is not None and after is not None
        return here[1] if after[0] == here[1] else None


@dataclass(frozen=True)
class _GameFiles:
    """The games files a reader reads; each copy left out, with a file holding its games;
    and each game two files hold that are not copies (game id, first file, second)."""

    read: list[Path]
    copies: dict[Path, Path]
    clashes: list[tuple[str, Path, Path]]


class _NotAPlan(Exception):
    """A journal entry that is not a plan kroeg wrote."""


def _clash(game_id: str, first: Path, second: Path) -> str:
    return (
        f"game {game_id} is in two games files, {first} and {second}, and neither is a copy "
        "of the other: the dataset is not read until one of them is moved out of it (then "
        "`kroeg import` of its export adds back what only it held)"
    )


def _twice(game_id: str, path: Path) -> str:
    return (
        f"game {game_id}: its derived facts are stored already ({path}); storing them "
        "again would count them twice"
    )


def _refused_plan(entry: Path, problem: str, journal: Path) -> str:
    return (
        f"{entry}: a plan kroeg will not carry out: {problem}; nothing was changed. If kroeg "
        f"did not write it, move it out of {journal}"
    )


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
        (stat.S_ISLNK, "a link"),
    ):  # fmt: skip
        if test(mode):
            return name
    return "not a plain file"


def _special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _refuse_special(path: Path) -> None:
    """DatasetError for anything but a plain file (or a link to one): opening a FIFO
    would wait for a writer for ever."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise DatasetChanged(f"{path}: gone while being read") from None
    except PermissionError:
        raise AccessError(_unreadable(path)) from None
    if not stat.S_ISREG(mode):
        raise DatasetError(f"{path}: not a Parquet file but {_kind(mode)}; kroeg reads "
                           "only plain files")  # fmt: skip


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Reading a Parquet file: gone is DatasetChanged, one kroeg may not read is an
    AccessError, a damaged one a DatasetError that names it."""
    try:
        yield
    except FileNotFoundError:
        raise DatasetChanged(f"{path}: gone while being read") from None
    except PermissionError:
        raise AccessError(_unreadable(path)) from None
    except (pa.ArrowException, OSError) as exc:
        raise DatasetError(f"{path}: damaged Parquet file ({_first_line(exc)})") from None


#: A file's identity and version: files are written once, so a new version is a new
#: inode, size or time, and what was read of the old one is never taken for the new.
_FileVersion = tuple[str, int, int, int]


def _version(path: Path) -> _FileVersion:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise DatasetChanged(f"{path}: gone while being read") from None
    return (str(path), info.st_ino, info.st_size, info.st_mtime_ns)


_V = TypeVar("_V")


def _remember(cache: dict[_FileVersion, _V], key: _FileVersion, value: _V) -> _V:
    """Keep what was read of a file's version (at most 4,096 files' worth, then afresh)."""
    if len(cache) > 4096:
        cache.clear()
    cache[key] = value
    return value


def _unreadable(path: Path) -> str:
    return (
        f"{path}: permission denied: kroeg may not read this file (the file may be sound); "
        "give the user running kroeg read access to it"
    )


def _denied(path: Path) -> str:
    folder = path.parent if path.name.startswith(".") or not path.is_dir() else path
    return (
        f"{folder}: permission denied: kroeg may not write here; give the user running "
        "kroeg write access to the dataset's folders"
    )


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
