"""Two writers on one dataset at once: each decides what to write with the lock held.

The races are run with real `kroeg` processes. To make them happen every time, the test
takes the dataset's lock itself, starts the writers, waits until the kernel lists each
of them as waiting for that lock (/proc/locks), and only then lets go: from that
moment they run one after the other, and neither may have chosen its games before.
"""

from __future__ import annotations

import fcntl
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kroeg.analytics.derived import enrich
from kroeg.analytics.schemas import ANALYSED_SCHEMA, ANALYSIS_VERSION, FACT_TABLES
from kroeg.analytics.views import connect
from kroeg.cli import app
from kroeg.recorder.errors import DatasetError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[2]
#: A safety net for a broken build, not a measurement: no test asserts how long anything took.
PATIENCE = 240

pytestmark = pytest.mark.skipif(
    not Path("/proc/locks").exists(), reason="needs Linux's /proc/locks to see who waits"
)


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def landed(tmp_path: Path, hands: int = 60) -> Dataset:
    ds = Dataset(tmp_path / "club")
    ds.write(simulate(Ruleset.preset("classic"), 4, hands, 3, ["random", "bluffer"]))
    return ds


class Writer:
    """A `python -m kroeg.cli …` process, its stderr read line by line as it comes."""

    def __init__(self, *args: object) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kroeg.cli", *map(str, args)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def said(self, start: str) -> bool:
        """Wait for a stderr line beginning with `start`; False if it never comes."""
        while True:
            try:
                line = self.lines.get(timeout=PATIENCE)
            except queue.Empty:
                return False
            if line is None:
                return False
            self.err.append(line)
            if line.startswith(start):
                return True

    def finish(self) -> tuple[int, str]:
        out, _ = self.process.communicate(timeout=PATIENCE)
        return self.process.returncode, out


@contextmanager
def holding_the_lock(ds: Dataset) -> Iterator[None]:
    """The test is the writer: everyone else waits until the block ends."""
    with open(ds.path / ".lock", "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def waiting_for_lock(ds: Dataset, pid: int) -> bool:
    """Whether the kernel lists `pid` as blocked on the dataset's lock (`->` in /proc/locks)."""
    inode = (ds.path / ".lock").stat().st_ino
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields:
            fields = fields[fields.index("->") + 1 :]
            if fields[3] == str(pid) and fields[4].endswith(f":{inode}"):
                return True
    return False


def until_waiting(ds: Dataset, writer: Writer) -> None:
    """Block until `writer` waits for the lock (said on stderr, and seen by the kernel)."""
    assert writer.said("Waiting: another kroeg command is writing to"), writer.err
    seen = threading.Event()
    while not seen.wait(0.05):
        if waiting_for_lock(ds, writer.process.pid):
            seen.set()
        assert writer.process.poll() is None, writer.err


def facts_once(ds: Dataset) -> None:
    """Every game registered once, every fact once, the figures as one analysis gives."""
    con = connect(ds)
    games, distinct = con.sql(
        "SELECT count(*), count(DISTINCT game_id) "
        f"FROM read_parquet('{ds.path}/derived/games/*.parquet')"
    ).fetchall()[0]
    assert (games, distinct) == (len(ds.game_ids()), len(ds.game_ids()))
    for table in ("knock_facts", "fold_facts"):
        total, once = con.sql(
            f"SELECT count(*), count(DISTINCT (game_id, hand, seq)) FROM {table}"
        ).fetchall()[0]
        assert total == once, f"{table}: {total} rows for {once} facts"
    stored, per_seat = con.sql(
        "SELECT count(*), count(DISTINCT (game_id, seat)) FROM seat_counts_stored"
    ).fetchall()[0]
    assert stored == per_seat
    assert kroeg("check", ds.path).exit_code == 0


def test_two_analyses_at_once_store_each_game_once(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    with holding_the_lock(ds):
        first = Writer("analyse", ds.path)
        until_waiting(ds, first)
        second = Writer("analyse", ds.path)
        until_waiting(ds, second)
    results = [first.finish(), second.finish()]
    assert [code for code, _ in results] == [0, 0]
    outs = sorted(out.strip() for _, out in results)
    games = len(ds.game_ids())
    assert outs == sorted([
        f"{ds.path}: {games} games analysed, 0 games already were",
        f"{ds.path}: 0 games analysed, {games} games already were",
    ])  # fmt: skip
    facts_once(ds)


def test_stats_while_an_analysis_waits_counts_each_bluff_once(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    alone = Dataset(tmp_path / "alone")
    alone.write(ds.read_games())
    expected = kroeg("stats", alone.path, "--format", "csv")
    assert expected.exit_code == 0
    with holding_the_lock(ds):
        dashboard_like = Writer("analyse", ds.path)
        until_waiting(ds, dashboard_like)
        stats = Writer("stats", ds.path, "--format", "csv")
        until_waiting(ds, stats)
    assert dashboard_like.finish()[0] == 0
    code, out = stats.finish()
    assert code == 0
    assert out == expected.stdout  # the same figures as one analysis gives
    facts_once(ds)


def test_two_imports_of_one_log_land_it_once(tmp_path: Path, samples: Path) -> None:
    ds = Dataset(tmp_path / "club").create()
    log = samples / "classic-evening.txt"
    with holding_the_lock(ds):
        first = Writer("import", log, "--into", ds.path)
        until_waiting(ds, first)
        second = Writer("import", log, "--into", ds.path)
        until_waiting(ds, second)
    outs = [first.finish(), second.finish()]
    assert [code for code, _ in outs] == [0, 0]
    lasts = sorted(out.strip().splitlines()[-1] for _, out in outs)
    games = len(ds.game_ids())
    assert games > 0
    assert lasts == sorted([
        f"{ds.path}: {games} games imported, 0 duplicates",
        f"{ds.path}: 0 games imported, {games} duplicates",
    ])  # fmt: skip
    assert len(ds.games_table()) == games
    facts_once(ds)


def test_storing_a_games_facts_a_second_time_is_refused(tmp_path: Path) -> None:
    ds = landed(tmp_path, hands=12)
    enrich(ds, samples=2)
    game = sorted(ds.game_ids())[0]
    again = pa.Table.from_pylist(
        [{"game_id": game, "version": ANALYSIS_VERSION}], schema=ANALYSED_SCHEMA
    )
    before = sorted(p.name for p in ds.files("derived/games"))
    with pytest.raises(DatasetError) as raised:
        ds.write_derived_batch([("games", again)])
    assert str(raised.value) == (
        f"game {game}: its derived facts are stored already "
        f"({ds.files('derived/games')[0]}); storing them again would count them twice"
    )
    assert sorted(p.name for p in ds.files("derived/games")) == before
    assert not ds.pending_operations()


def doubled(ds: Dataset) -> None:
    """What two analyses that chose their games unlocked left: every derived file again,
    under a second batch's name (as kroeg 0.x wrote it)."""
    for folder in (ds.path / "derived").iterdir():
        for path in sorted(folder.glob("*.parquet")):
            stem = path.stem[:-8] + ("0" * 8 if path.stem[-8:] != "0" * 8 else "1" * 8)
            (folder / f"{stem}.parquet").write_bytes(path.read_bytes())


def games_in(ds: Dataset, table: str) -> int:
    """How many games have rows in one derived table."""
    files = ds.files(f"derived/{table}")
    return len({g for path in files for g in pq.read_table(path).column("game_id").to_pylist()})


def test_doubled_facts_are_reported_then_removed_by_the_next_analysis(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    # Troefcall games too: their trump calls are the only rows of derived/calls.
    ds.write(simulate(Ruleset.preset("troefcall"), 4, 8, 5, ["random", "sharp"]))
    assert kroeg("analyse", ds.path).exit_code == 0
    figures = kroeg("stats", ds.path, "--format", "csv").stdout
    tables = (*FACT_TABLES, "games", "seat_counts")  # every derived table an analysis writes
    holding = {table: games_in(ds, table) for table in tables}
    assert all(holding.values()), holding  # each table is put to the test
    doubled(ds)
    total, once = (
        connect(ds)
        .sql("SELECT count(*), count(DISTINCT (game_id, hand, seq)) FROM knock_facts")
        .fetchall()[0]
    )
    assert total == 2 * once > 0  # every bluff counted twice
    games = len(ds.game_ids())
    check = kroeg("check", ds.path)
    assert check.exit_code == 1
    lines = check.output.strip().splitlines()
    repair = f"the next analysis (`kroeg analyse {ds.path}`, or kroeg stats) removes the doubles"
    for table in tables:
        n = holding[table]
        start = (f"{ds.path / 'derived' / table}: the derived facts of {n} "
                 f"game{'s' if n != 1 else ''} are stored")  # fmt: skip
        assert any(
            line.startswith(f"{start} more than once (e.g. ") and line.endswith(repair)
            for line in lines
        ), table
    assert lines[-1] == f"Error: {ds.path}: {len(tables)} problems (listed above)"
    repaired = kroeg("analyse", ds.path)
    assert repaired.exit_code == 0
    assert repaired.stdout.strip() == f"{ds.path}: 0 games analysed, {games} games already were"
    facts_once(ds)
    assert kroeg("stats", ds.path, "--format", "csv").stdout == figures
