"""The analysis (knock strength, bluff, fold regret): hands per second, and the first
`kroeg stats` on a fresh dataset, end to end. Prints figures; asserts nothing.

    python bench/analysis.py                 # the README's 10,000 hands
    python bench/analysis.py --hands 3000    # quicker

The dataset is the README's: `kroeg simulate --rules classic --players 4 --hands 10000
--seed 1 --bots random,bluffer,cautious,sharp`. Each figure runs on its own fresh copy:
the analysis in one process, then spread over every core as `kroeg` does, then the
whole `kroeg stats` command (analysis, per-game counts, the query) as a new process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kroeg.analytics.derived import enrich, workers_for
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

BOTS = ["random", "bluffer", "cautious", "sharp"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"kroeg analysis bench: {args.hands:,} hands, 4-player classic, bots "
          f"{','.join(BOTS)}, python {sys.version.split()[0]}, {cores} cores")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        source = Dataset(Path(tmp) / "source")
        simulate_into(source, Ruleset.preset("classic"), 4, args.hands, args.seed, BOTS)
        games = len(source.game_ids())

        def fresh(name: str) -> Dataset:
            shutil.copytree(source.path, Path(tmp) / name)
            return Dataset(Path(tmp) / name)

        runs = [("one process", 1), (f"{workers_for(games)} processes", workers_for(games))]
        for label, workers in runs:
            dataset = fresh(label.replace(" ", "-"))
            began = time.perf_counter()
            enrich(dataset, workers=workers)
            elapsed = time.perf_counter() - began
            print(f"analysis, {label:<13} {elapsed:7.2f} s  {args.hands / elapsed:8,.0f} hands/s"
                  f"   ({games:,} games)")  # fmt: skip
        dataset = fresh("stats")
        kroeg = Path(sys.executable).with_name("kroeg")
        began = time.perf_counter()
        subprocess.run([str(kroeg), "stats", str(dataset.path)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        elapsed = time.perf_counter() - began
        print(f"first `kroeg stats` on the fresh dataset, end to end: {elapsed:.2f} s"
              "   (goal <= 5 s for 10,000 hands)")  # fmt: skip


if __name__ == "__main__":
    main()
