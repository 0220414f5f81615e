"""The analysis (knock strength, bluff, fold regret): hands per second at several sizes,
and the first `kroeg stats` on a fresh dataset, end to end. Prints figures; asserts nothing.

    python bench/analysis.py                                  # the README's 10,000 hands
    python bench/analysis.py --hands 10000,100000,1000000 --cache /tmp/kroeg-bench \\
        --analyse-up-to 100000                                # issue 27's three sizes

Each dataset is `kroeg simulate --rules classic --players 4 --hands N --seed 1 --bots
random,bluffer,cautious,sharp --start 2020-01-01` (kept in `--cache` if given: 1,000,000
hands take minutes to simulate). For each size, on a fresh copy:

- **reading**: the analysis's tasks made and handed out (its events read, cut into
  chunks, copied for the workers), without the verdicts: hands/s, the same at every size
  when reading is linear in the data; `--before` adds the old way (every events file read
  whole once per batch of 480 games, then filtered), sizes up to 100,000;
- **analysis**, one process and spread over every core as `kroeg` does;
- **first `kroeg stats`**, the whole command (analysis, per-game counts, the query) as a
  new process (`--stats`).
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kroeg.analytics.derived import CHUNK, _Tasks, enrich, workers_for
from kroeg.recorder.store import Dataset

BOTS = ["random", "bluffer", "cautious", "sharp"]


def simulated(hands: int, cache: Path) -> Dataset:
    """The bench's dataset of `hands` hands, simulated by `kroeg` once into `cache`."""
    path = cache / f"hands-{hands}"
    if not (path / "games").is_dir():
        began = time.perf_counter()
        subprocess.run(
            [str(Path(sys.executable).with_name("kroeg")), "simulate", "--hands", str(hands),
             "--seed", "1", "--bots", ",".join(BOTS), "--start", "2020-01-01",
             "--out", str(path)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        print(f"  (simulated {hands:,} hands in {time.perf_counter() - began:.0f} s)")
    return Dataset(path)


def reading(dataset: Dataset) -> float:
    """Seconds to make every task of the analysis (each pickled, as a worker gets it)."""
    began = time.perf_counter()
    games = dataset.games_table()
    for task in _Tasks(dataset, games, 48):
        pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)
    return time.perf_counter() - began


def reading_before(dataset: Dataset, batch: int = 480) -> float:
    """The same with the reading of kroeg before issue 27: every events file read whole
    and filtered, once per batch of games, serially."""
    began = time.perf_counter()
    games = dataset.games_table()
    todo = sorted(games.column("game_id").to_pylist())
    for start in range(0, len(todo), batch):
        group = pa.array(todo[start : start + batch], pa.string())
        tables = [pq.read_table(p) for p in dataset.table_files("events")]
        events = pa.concat_tables(t.filter(pc.is_in(t.column("game_id"), group)) for t in tables)
        events = events.sort_by([("game_id", "ascending"), ("hand", "ascending"),
                                 ("seq", "ascending")])  # fmt: skip
        for first in range(0, batch, CHUNK):
            chunk = group[first : first + CHUNK]
            part = events.filter(pc.is_in(events.column("game_id"), chunk))
            rows = games.filter(pc.is_in(games.column("game_id"), chunk))
            pickle.dumps((rows, part, 48), protocol=pickle.HIGHEST_PROTOCOL)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="10000", help="sizes, comma-separated")
    parser.add_argument("--cache", type=Path, help="keep the simulated datasets here")
    parser.add_argument("--analyse-up-to", type=int, default=100_000,
                        help="run the analysis itself on sizes up to this")  # fmt: skip
    parser.add_argument("--before", action="store_true", help="time the old reading too")
    parser.add_argument("--stats", action="store_true", help="time the first kroeg stats")
    args = parser.parse_args()
    sizes = [int(s.replace("_", "")) for s in args.hands.split(",")]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"kroeg analysis bench: 4-player classic, bots {','.join(BOTS)}, python "
          f"{sys.version.split()[0]}, {cores} cores")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp) / "cache"
        for hands in sizes:
            source = simulated(hands, cache)
            games = len(source.game_ids())
            print(f"{hands:,} hands ({games:,} games, "
                  f"{len(source.files('events'))} events files):")  # fmt: skip

            def fresh(name: str, source: Dataset = source) -> Dataset:
                target = Path(tmp) / name
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(source.path, target, ignore=shutil.ignore_patterns("derived"))
                return Dataset(target)

            seconds = reading(source)
            print(f"  reading, tasks made    {seconds:7.2f} s  {hands / seconds:9,.0f} hands/s")
            if args.before and hands <= 100_000:
                seconds = reading_before(source)
                print(f"  reading, before        {seconds:7.2f} s  "
                      f"{hands / seconds:9,.0f} hands/s")  # fmt: skip
            if hands <= args.analyse_up_to:
                runs = [("one process", 1), (f"{workers_for(games)} processes",
                                             workers_for(games))]  # fmt: skip
                for label, workers in runs:
                    dataset = fresh(label.replace(" ", "-"))
                    began = time.perf_counter()
                    enrich(dataset, workers=workers)
                    elapsed = time.perf_counter() - began
                    print(f"  analysis, {label:<12} {elapsed:7.2f} s  "
                          f"{hands / elapsed:9,.0f} hands/s")  # fmt: skip
            if args.stats:
                dataset = fresh("stats")
                kroeg = Path(sys.executable).with_name("kroeg")
                began = time.perf_counter()
                subprocess.run([str(kroeg), "stats", str(dataset.path)], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
                elapsed = time.perf_counter() - began
                print(f"  first `kroeg stats`, end to end: {elapsed:.1f} s  "
                      f"{hands / elapsed:9,.0f} hands/s")  # fmt: skip


if __name__ == "__main__":
    main()
