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
  not ours (a stray events file, a damaged one) is reported, never deleted.

This module needs pyarrow only; DuckDB is for analytics.
"""

from __future__ import annotations

import fcntl
import json
import os
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kroeg.recorder import fsops
from kroeg.recorder.atomic import atomic_write
from kroeg.recorder.errors import (
    DatasetChanged,
    DatasetError,
    KroegError,
    NotFoundError,
    UsageError,
)
from kroeg.recorder.events import PAYLOAD_TYPES, Event, event_from_row
from kroeg.recorder.records import FORMAT_VERSION, GameRecord
from kroeg.recorder.rules import Ruleset

__all__ = ["EVENTS_SCHEMA", "GAMES_SCHEMA", "Dataset", "WriteReport", "records_from_tables"]

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
        """The files a reader should read: for `events`, only those whose games file (the
        same name in games/) is in place, or a compaction's (it holds every game's events,
        even in the instant between its two swaps). So a write cut short between its two
        files, or a stray file, is never read as part of the dataset (`kroeg check` names
        them)."""
        files = self.files(table)
        if table != "events":
            return files
        games = {p.name for p in self.files("games")}
        return [p for p in files if p.name in games or p.name.startswith(_COMPACT_PREFIX)]

    # -- reading ------------------------------------------------------------------------------

    def _schema(self, path: Path) -> pa.Schema:
        """A file's schema, checked: ours, readable, and (for games and events) FORMAT.md's
        columns with FORMAT.md's types. DatasetError names the file and what is wrong."""
        try:
            schema = pq.read_schema(path)
        except FileNotFoundError:
            raise DatasetChanged(f"{path}: gone while being read") from None
        except (pa.ArrowException, OSError) as exc:
            raise DatasetError(f"{path}: damaged Parquet file ({_first_line(exc)})") from None
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
        try:
            return pq.read_table(path, columns=columns)
        except FileNotFoundError:
            raise DatasetChanged(f"{path}: gone while being read") from None
        except (pa.ArrowException, OSError) as exc:
            raise DatasetError(f"{path}: damaged Parquet file ({_first_line(exc)})") from None

    def game_ids(self) -> set[str]:
        """Every game_id in the dataset."""
        self.check()
        ids: set[str] = set()
        for path in self.files("games"):
            ids.update(self._read(path, ["game_id"]).column("game_id").to_pylist())
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
        tables = [self._read(p) for p in self.files("games")]
        if not tables:
            return GAMES_SCHEMA.empty_table()
        return pa.concat_tables(tables, promote_options="default")

    def events_table(self, game_ids: Iterable[str] | None = None) -> pa.Table:
        """The `events` table (of the given games only, if named), sorted."""
        self.check()
        wanted = None if game_ids is None else pa.array(sorted(set(game_ids)), pa.string())
        tables = []
        for path in self.table_files("events"):
            table = self._read(path)
            if wanted is not None:
                table = table.filter(pc.is_in(table.column("game_id"), value_set=wanted))
            if table.num_rows:
                tables.append(table)
        if not tables:
            return EVENTS_SCHEMA.empty_table()
        table = pa.concat_tables(tables, promote_options="default")
        return table.sort_by(
            [("game_id", "ascending"), ("hand", "ascending"), ("seq", "ascending")]
        )

    def read_games(self, game_ids: Iterable[str] | None = None) -> Iterator[GameRecord]:
        """Read games back with their events, in game_id order."""
        games = self.games_table()
        if game_ids is not None:
            wanted = set(game_ids)
            missing = wanted - set(games.column("game_id").to_pylist())
            if missing:
                raise DatasetError(f"{self.path}: no game {', '.join(sorted(missing))}")
            games = games.filter(pc.is_in(games.column("game_id"), pa.array(sorted(wanted))))
        else:
            wanted = None
        return records_from_tables(games, self.events_table(wanted))

    def read_game(self, game_id: str) -> GameRecord:
        """One game with its events."""
        return next(iter(self.read_games([game_id])))

    # -- writing ------------------------------------------------------------------------------

    # -- checking -----------------------------------------------------------------------------

    def verify(self, stage: Callable[[str], None] | None = None) -> list[str]:
        """Every problem with the dataset's files, each with what to do; [] when sound.

        Reads every file (a damaged one is named), checks that each events file belongs
        to a games file, that every game has its events, and names operations a crash
        left unfinished. Changes nothing. `stage` hears which file it reads.
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
            except DatasetError as exc:
                problems.append(f"{exc}: move it out of the dataset (nothing reads it "
                                "safely), then re-import what it held")  # fmt: skip
        for path in sorted(set(self.files("events")) - set(self.table_files("events"))):
            problems.append(
                f"{path}: an events file without its games file ({path.name} is not in "
                "games/); it is not read. If a write was cut short, the next write removes "
                "it; otherwise it is not kroeg's: move it away"
            )
        expected = {
            game_id
            for path in self.files("games") if path in readable
            for game_id in readable[path].column("game_id").to_pylist()
        }  # fmt: skip
        found: set[str] = set()
        for path in self.table_files("events"):
            if path in readable:
                found.update(readable[path].column("game_id").to_pylist())
        for game_id in sorted(expected - found)[:10]:
            problems.append(f"game {game_id}: listed in games/ but has no events")
        plans = self.pending_operations()
        for plan in plans:
            problems.append(
                f"{plan['entry']}: a {plan['op']} was cut short; the next write (or "
                "`kroeg compact`) finishes or undoes it from this plan"
            )
        owned = {plan.get("staging") for plan in plans}
        for staging in sorted(self.path.glob(".staging-*")):
            if staging.name not in owned:
                problems.append(f"{staging}: a staging folder no operation owns; the old or "
                                "new files of a compaction: check, then remove it")  # fmt: skip
        return problems

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

    def pending_operations(self) -> list[dict[str, Any]]:
        """The plans of operations a crash cut short (finished or undone by the next write)."""
        plans = []
        for entry in sorted(self.journal_dir.glob("*.json")) if self.journal_dir.is_dir() else []:
            try:
                plans.append({"entry": entry, **json.loads(entry.read_text(encoding="utf-8"))})
            except (OSError, ValueError) as exc:
                raise DatasetError(f"{entry}: unreadable operation journal ({exc})") from None
        return plans

    def _recover(self) -> None:
        """Finish or undo what crashed operations left, from their plans; drop temporaries."""
        for plan in self.pending_operations():
            if plan["op"] == "compact":
                self._recover_compaction(plan)
            else:  # files added one after another: done once the last one is in place
                files = [self.path / f for f in plan["files"]]
                if not files[-1].exists():
                    for path in files:
                        fsops.unlink(path)
            fsops.unlink(plan["entry"])
        for folder in (self.events_dir, self.games_dir, *self._derived_dirs()):
            for path in folder.glob(".*.tmp"):  # atomic_write's names: never a finished file
                fsops.unlink(path)

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
        """One writer or compactor at a time (readers never wait)."""
        with open(self.path / ".lock", "a+b") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

    def write(self, records: Iterable[GameRecord]) -> WriteReport:
        """Add games in one batch: one events file, then one games file; skip known games."""
        self.create()
        with self._locked():
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
            entry = self._begin({"op": "write", "files": [f"events/{stem}.parquet",
                                                          f"games/{stem}.parquet"]})  # fmt: skip
            _write_atomic(events, self.events_dir / f"{stem}.parquet", True, LANDING_LEVEL)
            _write_atomic(games, self.games_dir / f"{stem}.parquet", False, LANDING_LEVEL)
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
        with self._locked():
            self._recover()
            names = [str(p.relative_to(self.path)) for p in files]
            entry = self._begin({"op": "derive", "files": names})
            for (_, table), path in zip(tables, paths, strict=True):
                if path is not None:
                    fsops.mkdir(path.parent)
                    _write_atomic(
                        table.replace_schema_metadata(_METADATA), path, False, LANDING_LEVEL
                    )
            fsops.unlink(entry)
        return paths

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
        with self._locked():
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


_ROW_COLUMNS = ("kind", "seat", "card", "amount", "target")


def events_to_table(records: Iterable[GameRecord]) -> pa.Table:
    """The events of these games as one Arrow table in FORMAT.md's schema (in given order).

    Columns are built in bulk: each event gives its row through its generated
    `to_row`, and `hand` and `seq` are computed by pyarrow from where every
    game and every `hand_start` begins, so millions of events convert in seconds.
    """
    rows: list[tuple[str, int | None, str | None, int | None, int | None]] = []
    game_ids: list[str] = []
    game_starts: list[int] = []
    hand_offsets: list[int] = []
    hands_before = 0
    for record in records:
        events = record.events
        game_starts.append(len(rows))
        rows.extend([e.to_row() for e in events])
        game_ids.extend([record.game_id] * len(events))
        hand_offsets.extend([hands_before] * len(events))
        hands_before += sum(1 for e in events if e.kind == "hand_start")
    if not rows:
        return EVENTS_SCHEMA.empty_table()
    # One list comprehension per column: far faster than zip(*rows) over millions of rows.
    kinds, seats, cards, amounts, targets = ([r[i] for r in rows] for i in range(5))
    kind_array = pc.cast(pa.array(kinds, pa.dictionary(pa.int8(), pa.string())), pa.string())
    is_start = pc.equal(kind_array, "hand_start")
    hands = pc.subtract(
        pc.cumulative_sum(pc.cast(is_start, pa.int32())), pa.array(hand_offsets, pa.int32())
    )
    index = pa.array(range(len(rows)), pa.int32())
    first_rows = [False] * len(rows)
    for start in game_starts:
        first_rows[start] = True
    opens = pc.or_(is_start, pa.array(first_rows))
    last_open = pc.fill_null_forward(pc.if_else(opens, index, pa.scalar(None, pa.int32())))
    seqs = pc.subtract(index, last_open)
    return pa.table(
        [
            pa.array(game_ids, pa.string()),
            pc.cast(hands, pa.int16()),
            seqs,
            kind_array,
            pa.array(seats, pa.int8()),
            pa.array(cards, pa.string()),
            pa.array(amounts, pa.int16()),
            pa.array(targets, pa.int8()),
        ],
        schema=EVENTS_SCHEMA,
    )


def games_to_table(records: Iterable[GameRecord]) -> pa.Table:
    """The `games` rows of these games as one Arrow table."""
    rows = [
        {
            "game_id": r.game_id,
            "game_type": r.game_type,
            "ruleset": r.ruleset,
            "rules": r.rules.to_json(),
            "players": list(r.players),
            "teams": None if r.teams is None else list(r.teams),
            "started_at": r.started_at,
            "venue": r.venue,
            "source": r.source,
            "seed": r.seed,
            "format_version": FORMAT_VERSION,
        }
        for r in records
    ]
    return pa.Table.from_pylist(rows, schema=GAMES_SCHEMA)


def records_from_tables(games: pa.Table, events: pa.Table) -> Iterator[GameRecord]:
    """The games of a `games` table with their rows of an `events` table (sorted as
    `Dataset.events_table` sorts them), in game_id order. Analyses call this on slices."""
    by_game: dict[str, list[Event]] = {}
    cols = [events.column(c).to_pylist() for c in ("game_id", *_ROW_COLUMNS)]
    # Events are immutable values and rows repeat (a card dealt to a seat, a card played):
    # each distinct row is decoded once.
    decoded: dict[tuple[Any, ...], Event] = {}
    for game_id, *row in zip(*cols, strict=True):
        key = tuple(row)
        event = decoded.get(key)
        if event is None:
            event = decoded[key] = event_from_row(*row)
        by_game.setdefault(game_id, []).append(event)
    for row in sorted(games.to_pylist(), key=lambda r: r["game_id"]):
        yield _record_from_row(row, tuple(by_game.get(row["game_id"], ())))


def _record_from_row(row: dict[str, Any], events: tuple[Event, ...]) -> GameRecord:
    try:
        rules = Ruleset.from_dict(json.loads(row["rules"]))
    except (KroegError, ValueError) as exc:
        raise DatasetError(f"game {row['game_id']}: unreadable rules ({exc})") from None
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


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
