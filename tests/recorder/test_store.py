"""The dataset on disk: FORMAT.md's schema, round trips, idempotence, damage, compaction."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from kroeg.recorder.errors import DatasetError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


def games(hands=300, seed=1, preset="classic", players=4):
    return list(
        simulate(Ruleset.preset(preset), players, hands, seed, ["random", "bluffer", "sharp"])
    )


def test_dataset_read_back_gives_identical_games(tmp_path: Path) -> None:
    written = games(preset="classic") + games(preset="lives", seed=2, players=5)
    Dataset(tmp_path / "d").write(written)
    back = {g.game_id: g for g in Dataset(tmp_path / "d").read_games()}
    assert len(back) == len(written)
    for game in written:
        again = back[game.game_id]
        assert again.events == game.events
        assert (again.players, again.rules, again.seed, again.source) == (
            game.players,
            game.rules,
            game.seed,
            game.source,
        )


def test_files_follow_format_md(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=50))
    events_file = ds.files("events")[0]
    schema = pq.read_schema(events_file)
    assert schema.names == ["game_id", "hand", "seq", "kind", "seat", "card", "amount", "target"]
    assert [str(t) for t in schema.types] == [
        "string",
        "int16",
        "int32",
        "string",
        "int8",
        "string",
        "int16",
        "int8",
    ]
    assert schema.metadata[b"kroeg.format_version"] == b"1"
    meta = pq.ParquetFile(events_file).metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"
    games_schema = pq.read_schema(ds.files("games")[0])
    assert games_schema.names == [
        "game_id",
        "game_type",
        "ruleset",
        "rules",
        "players",
        "teams",
        "started_at",
        "venue",
        "source",
        "seed",
        "format_version",
        "evening",  # added by kroeg after the contract's columns (docs/FORMAT.md)
    ]
    # Rows are sorted by (game_id, hand, seq), as DuckDB sees them.
    con = duckdb.connect()
    rows = con.sql(
        f"select game_id, hand, seq from read_parquet('{ds.path}/events/**/*.parquet')"
    ).fetchall()
    assert rows == sorted(rows)


def test_writing_the_same_games_twice_adds_nothing(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    first = ds.write(games())
    second = ds.write(games())
    assert len(first.added) > 0 and first.skipped == ()
    assert second.added == () and len(second.skipped) == len(first.added)
    assert len(ds.files("events")) == 1


def test_same_seed_gives_same_game_ids_and_more_hands_extend_them() -> None:
    small = {g.game_id for g in games(hands=200)}
    again = {g.game_id for g in games(hands=200)}
    bigger = {g.game_id for g in games(hands=400)}
    assert small == again
    assert len(small - bigger) <= 1  # only the game cut short at 200 hands differs


def test_no_temporary_file_is_left_or_visible(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=50))
    names = [p.name for p in (tmp_path / "d").rglob("*") if p.is_file()]
    assert sorted(n for n in names if not n.endswith(".parquet")) == [".lock"]


def test_a_folder_that_is_not_a_dataset_gets_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(DatasetError) as err:
        Dataset(tmp_path).game_ids()
    assert (
        str(err.value)
        == f"{tmp_path}: not a kroeg dataset (expected the folders games/ and events/)"
    )
    with pytest.raises(DatasetError) as err:
        Dataset(tmp_path).write(games(hands=10))
    assert str(err.value) == (
        f"{tmp_path}: not a kroeg dataset and not empty (found notes.txt); choose a new folder"
    )
    with pytest.raises(DatasetError) as err:
        Dataset(tmp_path / "missing").read_games()
        list(Dataset(tmp_path / "missing").read_games())
    assert str(err.value) == f"{tmp_path / 'missing'}: no such dataset (the folder does not exist)"


def test_a_damaged_file_gets_one_clear_error(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=50))
    victim = ds.files("games")[0]
    victim.write_bytes(victim.read_bytes()[:100])
    with pytest.raises(DatasetError) as err:
        ds.game_ids()
    assert str(err.value).startswith(f"{victim}: damaged Parquet file (")


def test_a_foreign_parquet_file_is_refused(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=50))
    con = duckdb.connect()
    con.sql(f"copy (select 'x' as game_id) to '{ds.path}/games/foreign.parquet' (format parquet)")
    with pytest.raises(DatasetError) as err:
        ds.game_ids()
    assert str(err.value) == (
        f"{ds.path}/games/foreign.parquet: not a kroeg file (no kroeg.format_version metadata)"
    )


QUERY = """
select count(distinct game_id) as games, count(*) as events,
       count(*) - count(distinct game_id || ':' || hand || ':' || seq) as duplicates
from read_parquet('{path}/events/**/*.parquet', union_by_name=true)
"""


def test_compaction_keeps_every_query_result(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    for seed in range(4):
        ds.write(games(hands=100, seed=seed))
    con = duckdb.connect()
    before = con.sql(QUERY.format(path=ds.path)).fetchall()
    costs_sql = (
        f"select seat, sum(amount) from read_parquet('{ds.path}/events/**/*.parquet') "
        "where kind = 'pay' group by all order by all"
    )
    costs_before = con.sql(costs_sql).fetchall()
    assert ds.compact() == (8, 2)
    assert con.sql(QUERY.format(path=ds.path)).fetchall() == before
    assert con.sql(costs_sql).fetchall() == costs_before
    assert [p.name.startswith("part-compact-") for p in ds.files("events")] == [True]


READER = """
import json, os, sys
import duckdb
path, stop_file, query = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
results, errors = [], []
# Read until told to stop (a file appears), and at least 10 times.
while not os.path.exists(stop_file) or len(results) < 10:
    try:
        results.append(list(con.sql(query.format(path=path)).fetchall()[0]))
    except duckdb.Error as exc:
        errors.append(str(exc))
print(json.dumps([results, errors]))
"""


@pytest.mark.slow
def test_a_reader_during_compaction_sees_every_game_exactly_once(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    for seed in range(6):
        ds.write(games(hands=150, seed=seed))
    con = duckdb.connect()
    expected = con.sql(QUERY.format(path=ds.path)).fetchall()[0]
    assert expected[2] == 0
    stop_file = tmp_path / "stop"
    # A separate Python process, so the reader shares nothing with this one. The test
    # counts rounds, not seconds: on a slow machine it takes longer, never fails sooner.
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(ds.path), str(stop_file), QUERY],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    for round_no in range(6):
        ds.compact()
        ds.write(games(hands=1, seed=10_000 + round_no))  # a new small file each round
        ds.compact()
    stop_file.touch()
    output, _ = reader.communicate(timeout=120)
    results, errors = json.loads(output)
    assert len(results) >= 10
    # Every answer counts each game once: no duplicates, and never fewer games than at start.
    assert all(r[2] == 0 for r in results)
    assert all(r[0] >= expected[0] for r in results)
    # A glob taken just before a swap may name a file that is gone when it is opened: the
    # query fails whole (it never returns a partial answer) and the reader retries.
    assert len(errors) < len(results)
    assert all("No such file" in e or "No files found" in e or "Could not" in e for e in errors), (
        errors
    )


def test_one_game_reads_one_row_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Row groups cover disjoint game_id ranges, so a reader looking for one game skips
    the others by their statistics (here with groups of 500 rows instead of 262,144)."""
    import kroeg.recorder.store as store

    monkeypatch.setattr(store, "_ROW_GROUP", 500)
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=200) + games(hands=200, seed=2, preset="lives", players=5))
    ds.compact()
    (path,) = ds.files("events")
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups > 3
    ranges = [
        (meta.row_group(g).column(0).statistics.min, meta.row_group(g).column(0).statistics.max)
        for g in range(meta.num_row_groups)
    ]
    assert all(low <= high for low, high in ranges)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))
    game = ranges[1][0]
    plan = duckdb.sql(
        f"EXPLAIN ANALYZE SELECT count(*) FROM read_parquet('{path}') WHERE game_id = '{game}'"
    ).fetchall()[0][1]
    scanned = [line for line in plan.splitlines() if "Row Groups Scanned" in line]
    assert scanned and all(f"/ {meta.num_row_groups}" in line for line in scanned)
    assert not any(f"{meta.num_row_groups} / {meta.num_row_groups}" in line for line in scanned)


def test_compacting_by_month_puts_each_month_in_its_folder(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    ds = Dataset(tmp_path / "d")
    for month, seed in ((10, 1), (11, 2)):
        start = datetime(2026, month, 3, 20, tzinfo=UTC)
        ds.write(simulate(Ruleset.preset("classic"), 4, 40, seed, ["random"], start))
    ds.write(games(hands=30, seed=3))  # undated
    written = {g.game_id: g for g in ds.read_games()}
    before, after = ds.compact("month")
    assert before == 6  # three landings, a games and an events file each
    assert after == 6  # games and events, for 2026-10, 2026-11 and the undated games
    folders = sorted({p.parent.name for p in ds.files("events")})
    assert folders == ["month=2026-10", "month=2026-11", "month=undated"]
    assert {g.game_id: g for g in ds.read_games()} == written  # nothing lost or changed
    # One month is one folder: a reader after November reads November's files only.
    november = pq.read_table(ds.path / "events" / "month=2026-11")
    ids = set(november.column("game_id").to_pylist())
    assert ids and all(written[i].started_at.month == 11 for i in ids)
    ds.compact()  # and back to one file per table
    assert len(ds.files("events")) == 1 and {g.game_id for g in ds.read_games()} == set(written)
    with pytest.raises(DatasetError, match="only by month"):
        ds.compact("week")


def _small_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dataset:
    """A compacted dataset whose events file has many row groups of 500 rows, so games
    run on from one group into the next."""
    import kroeg.recorder.store as store

    monkeypatch.setattr(store, "_ROW_GROUP", 500)
    ds = Dataset(tmp_path / "d")
    ds.write(games(hands=200) + games(hands=200, seed=2, preset="lives", players=5))
    ds.compact()
    return ds


def test_each_table_of_events_holds_whole_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = _small_groups(tmp_path, monkeypatch)
    (path,) = ds.files("events")
    everything = pq.read_table(path)
    parts = list(ds.event_groups())
    assert len(parts) > 3
    held = [set(p.column("game_id").to_pylist()) for p in parts]
    assert sum(len(h) for h in held) == len(set().union(*held))  # no game in two tables
    rows = [tuple(r.values()) for p in parts for r in p.cast(everything.schema).to_pylist()]
    assert rows == [tuple(r.values()) for r in everything.to_pylist()]  # all, in order


def test_some_games_read_only_the_row_groups_that_hold_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = _small_groups(tmp_path, monkeypatch)
    (path,) = ds.files("events")
    groups = pq.ParquetFile(path).metadata.num_row_groups
    read: list[list[int]] = []
    original = Dataset._read_groups

    def spy(self: Dataset, path: Path, layout: object, chosen: list[int], *rest: object) -> object:
        read.append(chosen)
        return original(self, path, layout, chosen, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(Dataset, "_read_groups", spy)
    everything = ds.events_table()
    assert sum(len(r) for r in read) == groups  # each group once
    for game_id in sorted(ds.game_ids())[::7]:
        read.clear()
        alone = ds.events_table([game_id])
        assert alone == everything.filter(pc.equal(everything.column("game_id"), game_id))
        assert 1 <= sum(len(r) for r in read) <= 2  # its group, or the two it spans
        (record,) = ds.read_games([game_id])
        assert len(record.events) == alone.num_rows


def test_a_file_whose_rows_are_not_sorted_reads_sorted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another tool's file, in any order: read whole and sorted, the same games."""
    ds = _small_groups(tmp_path, monkeypatch)
    before = {g.game_id: g for g in ds.read_games()}
    (path,) = ds.files("events")
    table = pq.read_table(path)
    shuffled = table.take(pa.array(random.Random(3).sample(range(table.num_rows),
                                                           table.num_rows)))  # fmt: skip
    pq.write_table(shuffled, path, row_group_size=700)
    assert {g.game_id: g for g in ds.read_games()} == before
    game_id = min(before)
    assert ds.read_game(game_id) == before[game_id]
