"""Spark against DuckDB on the same data, and Spark's speed-up from one core to two.

    python bench/spark.py                  # 20,000 hands (builds bench/out/spark-20000)
    python bench/spark.py --hands 100000

Times, on the same dataset (Toepen classic, 4 players, all bot styles):

- the analysis (knock strength, fold regret) of every game: DuckDB's path (worker
  processes, as `kroeg stats` runs it) and Spark's (`--engine spark`) on local[1] and
  local[2], each on a fresh copy with nothing analysed;
- the statistics (`stats_blocks`, by player and by game) once analysed: DuckDB, and
  Spark on local[1] and local[2] (the Spark session already up: its start is given apart);
- the layout: bytes per hand, and reading one game and one month, flat and by month.

Prints figures; docs/SCALE.md quotes them.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import stats_blocks
from kroeg.analytics.totals import store_counts
from kroeg.analytics.views import connect
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

ROOT = Path(__file__).resolve().parents[1]


def build(path: Path, hands: int) -> None:
    """Games over six months, so that a month is a sixth of the data."""
    dataset = Dataset(path).create()
    styles = ["random", "bluffer", "cautious", "sharp"]
    per_month = hands // 6
    for month in range(6):
        start = datetime(2026, 6 + month, 1, 20, tzinfo=UTC)
        dataset.write(simulate(Ruleset.preset("classic"), 4, per_month, 100 + month, styles,
                               start))  # fmt: skip
    dataset.compact()


def copy(path: Path, name: str) -> Dataset:
    target = path.parent / f"{path.name}-{name}"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(path, target, ignore=shutil.ignore_patterns("derived"))
    return Dataset(target)


def timed(what: str, run, hands: int | None = None) -> float:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    run()
    seconds = time.perf_counter() - began
    rate = f"  {hands / seconds:9,.0f} hands/s" if hands else ""
    print(f"{what:<44} {seconds:8.2f} s{rate}")
    return seconds


def layout(path: Path, hands: int) -> None:
    """Bytes per hand and one game's and one month's read, flat and by month."""
    flat = copy(path, "flat")
    flat.compact()
    monthly = copy(path, "monthly")
    monthly.compact("month")
    game_id = sorted(flat.game_ids())[len(flat.game_ids()) // 2]
    for name, dataset in (("flat", flat), ("by month", monthly)):
        size = sum(p.stat().st_size for t in ("games", "events") for p in dataset.files(t))
        files = ", ".join(f"'{p}'" for p in dataset.files("events"))
        con = duckdb.connect()
        one_game = f"SELECT count(*) FROM read_parquet([{files}]) WHERE game_id = ?"
        con.execute(one_game, [game_id]).fetchall()  # the footers read once
        best = min(
            timed_quietly(lambda c=con, q=one_game: c.execute(q, [game_id]).fetchall())
            for _ in range(5)
        )
        # One month: a folder by month; the flat file is scanned for that month's games.
        if dataset is monthly:
            folder = dataset.path / "events" / "month=2026-08"
            month = f"SELECT count(*) FROM read_parquet('{folder}/*.parquet')"
        else:
            gfiles = ", ".join(f"'{p}'" for p in dataset.files("games"))
            month = (
                f"SELECT count(*) FROM read_parquet([{files}]) WHERE game_id IN (SELECT "
                f"game_id FROM read_parquet([{gfiles}]) WHERE strftime(started_at, '%Y-%m') "
                "= '2026-08')"
            )
        rows = con.execute(month).fetchall()[0][0]
        month_best = min(timed_quietly(lambda c=con, q=month: c.execute(q).fetchall())
                         for _ in range(5))  # fmt: skip
        print(f"layout {name:<9} {size / hands:6.1f} bytes/hand   one game {1000 * best:6.1f} ms"
              f"   one month ({rows:,} events) {1000 * month_best:6.1f} ms")  # fmt: skip


def timed_quietly(run) -> float:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    run()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    args = parser.parse_args()
    path = ROOT / "bench" / "out" / f"spark-{args.hands}"
    if not (path / "games").is_dir():
        build(path, args.hands)
    from kroeg.analytics.spark import SparkConnection, _session, analyse

    print(f"kroeg Spark bench: {args.hands:,} hands, python {sys.version.split()[0]}")
    layout(path, args.hands)
    duck = copy(path, "duckdb")
    store_counts(duck)
    timed("analysis, DuckDB path (worker processes)", lambda: enrich(duck), args.hands)
    stats, analysis = {}, {}
    for master in ("local[1]", "local[2]"):
        began = time.perf_counter()
        spark = _session(master)
        print(f"{'Spark session start, ' + master:<44} {time.perf_counter() - began:8.2f} s")
        ds = copy(path, master.replace("[", "").replace("]", ""))
        store_counts(ds)
        analysis[master] = timed(f"analysis, Spark {master}", lambda d=ds, m=master: analyse(
            d, m), args.hands)  # fmt: skip
        con = SparkConnection(ds, master)
        stats[master] = timed(f"statistics, Spark {master} (by player, by game)", lambda c=con: [
            stats_blocks(c, by=by) for by in ("player", "game")])  # fmt: skip
        spark.stop()
    con = connect(duck)
    timed("statistics, DuckDB (by player, by game)", lambda: [
        stats_blocks(con, by=by) for by in ("player", "game")])  # fmt: skip
    print(f"Spark analysis speed-up local[1] -> local[2]: "
          f"{analysis['local[1]'] / analysis['local[2]']:.2f}x")  # fmt: skip
    print(f"Spark statistics speed-up local[1] -> local[2]: "
          f"{stats['local[1]'] / stats['local[2]']:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
