"""Engine speed and size on disk, as the foundation issue asks. Prints figures; asserts nothing.

    python bench/engine.py                 # 100,000 hands, 4-player classic, random bots
    python bench/engine.py --hands 20000   # quicker
    python bench/engine.py --profile       # also where the engine's time goes

Speed is measured on one core (the process is pinned to CPU 0 where the OS allows):
bots playing through the engine, then the events recorded to disk as Parquet.
Size is bytes per hand of both tables, as landed and after `kroeg compact`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


def column_bytes(dataset: Dataset) -> dict[str, int]:
    """Compressed bytes of each events column, summed over files."""
    sizes: dict[str, int] = {}
    for path in dataset.files("events"):
        meta = pq.ParquetFile(path).metadata
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                col = meta.row_group(g).column(c)
                name = col.path_in_schema
                sizes[name] = sizes.get(name, 0) + col.total_compressed_size
    return sizes


def folder_bytes(dataset: Dataset) -> int:
    return sum(p.stat().st_size for t in ("games", "events") for p in dataset.files(t))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules = Ruleset.preset(args.rules)
    print(
        f"kroeg engine bench: {args.hands:,} hands, {args.players}-player {rules.name}, random bots"
    )
    print(f"python {sys.version.split()[0]}, pinned to CPU {sorted(os.sched_getaffinity(0))}")

    began = time.perf_counter()
    games = list(simulate(rules, args.players, args.hands, args.seed, ["random"]))
    played = time.perf_counter() - began
    events = sum(len(g.events) for g in games)

    folder = Path(tempfile.mkdtemp(prefix="kroeg-bench-"))
    try:
        dataset = Dataset(folder / "ds")
        began = time.perf_counter()
        dataset.write(games)
        recorded = time.perf_counter() - began
        landed = folder_bytes(dataset)
        began = time.perf_counter()
        dataset.compact()
        compacted_seconds = time.perf_counter() - began
        compacted = folder_bytes(dataset)
        columns = column_bytes(dataset)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    total = played + recorded
    print()
    print(f"games {len(games):,}, events {events:,} ({events / args.hands:.1f} per hand)")
    print(
        f"play (engine + bots):    {played:7.2f} s  {args.hands / played:9,.0f} hands/s  "
        f"{events / played:11,.0f} events/s"
    )
    print(f"record to disk:          {recorded:7.2f} s")
    print(
        f"play + record:           {total:7.2f} s  {args.hands / total:9,.0f} hands/s  "
        f"{events / total:11,.0f} events/s   (goal >= 10,000 hands/s)"
    )
    print()
    print(f"size as landed:          {landed / args.hands:7.1f} bytes/hand")
    print(
        f"size after compact:      {compacted / args.hands:7.1f} bytes/hand   "
        f"(goal <= 32; compaction took {compacted_seconds:.1f} s)"
    )
    print("events columns after compact, bytes/hand:")
    for name, size in columns.items():
        print(f"  {name:<8} {size / args.hands:6.2f}")
    print(
        f"  games table {(compacted - sum(columns.values())) / args.hands:6.2f} (with file footers)"
    )

    if args.profile:
        print()
        profiler = cProfile.Profile()
        profiler.enable()
        list(simulate(rules, args.players, min(args.hands, 20_000), args.seed, ["random"]))
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
