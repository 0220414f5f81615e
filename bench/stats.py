"""Player statistics over 1,000,000 hands, and enrichment throughput. Prints figures.

    python bench/stats.py                       # builds bench/out/million (once), then times
    python bench/stats.py --hands 100000        # a smaller dataset

The dataset is simulated with random bots, as in bench/engine.py, 4-player
classic, on both cores, then compacted. Timing covers `player_stats` over
DuckDB views, the way `kroeg stats` runs it (all cores of the machine, here
2): counted live from the events, then from the per-game counts stored once
(analytics.totals), cold and warm.
Enrichment (knock strength and fold regret) is timed on a slice of the games.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import player_stats
from kroeg.analytics.totals import store_counts
from kroeg.analytics.views import connect
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

STYLES = ["random", "cautious", "bluffer", "sharp"]


def _build_part(args: tuple[str, int, int]) -> int:
    path, hands, seed = args
    dataset = Dataset(path)
    batch, done, pending = [], 0, 0
    for game in simulate(Ruleset.preset("classic"), 4, hands, seed, ["random"]):
        batch.append(game)
        done += game.hands
        pending += game.hands
        if pending >= 100_000:
            dataset.write(batch)
            batch, pending = [], 0
    if batch:
        dataset.write(batch)
    return done


def build(path: Path, hands: int) -> None:
    Dataset(path).create()
    workers = min(2, os.cpu_count() or 1)
    parts = [
        (str(path), hands // workers + (i < hands % workers), 1000 + i) for i in range(workers)
    ]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        pool.map(_build_part, parts)
    Dataset(path).compact()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--enrich-hands", type=int, default=2_000)
    args = parser.parse_args()
    path = Path(__file__).resolve().parent / "out" / f"classic-{args.hands}"
    if not (path / "games").is_dir():
        began = time.perf_counter()
        build(path, args.hands)
        print(f"built {path} in {time.perf_counter() - began:.0f} s")
    dataset = Dataset(path)
    print(f"kroeg stats bench: {path}, python {sys.version.split()[0]}, {os.cpu_count()} cores")
    con = connect(dataset)
    hands = con.sql("SELECT count(*) FROM hands").fetchall()[0][0]
    events = con.sql("SELECT count(*) FROM events").fetchall()[0][0]
    print(f"{hands:,} hands, {events:,} events")
    shutil.rmtree(path / "derived" / "seat_counts", ignore_errors=True)  # start unstored
    began = time.perf_counter()
    frame = player_stats(connect(dataset))
    print(f"player statistics, counted live from the events: "
          f"{time.perf_counter() - began:5.2f} s")  # fmt: skip
    began = time.perf_counter()
    stored = store_counts(dataset)
    print(f"storing the counts of {stored:,} games (once, as games land): "
          f"{time.perf_counter() - began:5.2f} s")  # fmt: skip
    for attempt in ("cold", "warm"):
        con = connect(dataset) if attempt == "cold" else con
        began = time.perf_counter()
        frame = player_stats(con)
        seconds = time.perf_counter() - began
        print(f"player statistics ({attempt}): {seconds:5.2f} s for {frame.height} players "
              f"over {int(frame['hands'].sum()):,} player-hands   (goal <= 2 s)")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        small = Dataset(Path(tmp) / "slice")
        small.write(simulate(Ruleset.preset("classic"), 4, args.enrich_hands, 5, STYLES))
        began = time.perf_counter()
        enrich(small)
        seconds = time.perf_counter() - began
        print(f"enrichment (strength with 48 playouts a knock, fold regret): "
              f"{args.enrich_hands / seconds:,.0f} hands/s on one core")  # fmt: skip
    shutil.rmtree(Path(tmp), ignore_errors=True)


if __name__ == "__main__":
    main()
