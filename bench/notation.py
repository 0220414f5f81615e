"""Parse + referee throughput of the typed notation and JSON Lines. Prints figures.

    python bench/notation.py                 # 20,000 hands of 4-player classic
    python bench/notation.py --profile       # and where the time goes

The text is the canonical form `kroeg export` writes for engine games (random
bots), so every card of every hand is known and refereed.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

from kroeg.parsers import jsonl, notation
from kroeg.recorder.referee import replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    games = list(simulate(Ruleset.preset("classic"), 4, args.hands, 1, ["random"]))
    print(f"kroeg notation bench: {args.hands:,} hands in {len(games):,} games, 4-player classic")
    print(f"python {sys.version.split()[0]}, pinned to CPU {sorted(os.sched_getaffinity(0))}")
    began = time.perf_counter()
    for game in games:
        replay(game.rules, game.players, game.events)
    seconds = time.perf_counter() - began
    print(
        f"{'engine replay':<14} {'':>6}              referee only {seconds:6.2f} s  "
        f"{args.hands / seconds:8,.0f} hands/s   (the ceiling for any parser)"
    )
    for name, module in (("text notation", notation), ("JSON Lines", jsonl)):
        text = module.dumps(games)
        began = time.perf_counter()
        back = module.loads(text)
        seconds = time.perf_counter() - began
        assert back == games
        print(
            f"{name:<14} {len(text) / args.hands:6.0f} bytes/hand   parse + referee "
            f"{seconds:6.2f} s  {args.hands / seconds:8,.0f} hands/s   (goal >= 10,000)"
        )
    if args.profile:
        text = notation.dumps(games)
        profiler = cProfile.Profile()
        profiler.enable()
        notation.loads(text)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
