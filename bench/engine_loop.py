"""Engine playing speed, in process, several runs: prints the best and the median hands/s.

    python bench/engine_loop.py                  # 5 runs of 5,000 classic hands, random bots
    python bench/engine_loop.py --runs 9 --hands 10000

For comparing two versions side by side on a noisy machine: run both alternately and
compare the figures of the same run, not seconds measured at different times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=5000)
    args = parser.parse_args()
    speeds = []
    for run in range(args.runs):
        began = time.perf_counter()
        hands = sum(r.hands for r in simulate(Ruleset.preset("classic"), 4, args.hands, run))
        speeds.append(hands / (time.perf_counter() - began))
    print(f"engine playing, {args.runs} runs of {args.hands:,} hands: "
          f"best {max(speeds):,.0f} hands/s, median {statistics.median(speeds):,.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
