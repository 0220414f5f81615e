"""The analysis of one game at a time, in this process: hands per CPU-second with every
verdict (knock strength, fold regret, the answers to knocks, luck, the knocks made as
choices, the laundry swaps and armoedes), and without the answers, luck, the knocks'
choices and the swaps (issue 27's verdicts alone). Prints figures; asserts nothing.

    python bench/facts.py [--hands 3000] [--seed 3] [--profile]

The games are `kroeg simulate --rules classic --players 4 --hands N --seed S --bots
random,bluffer,cautious,sharp` (made here, in memory); each is analysed by
`analytics.derived.facts_for_game`, as a worker of `kroeg analyse` does, without the
reading, the workers and the storing around it (`bench/analysis.py` times those).
`--profile` prints cProfile's top functions (compiled code shows as one call each).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from kroeg.analytics import derived
from kroeg.analytics.derived import facts_for_game
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate

BOTS = ("random", "bluffer", "cautious", "sharp")


def timed(records: list[GameRecord], label: str) -> None:
    hands = sum(r.hands for r in records)
    start = time.process_time()
    facts = [facts_for_game(r) for r in records]
    took = time.process_time() - start
    counts = {name: sum(len(getattr(f, name)) for f in facts)
              for name in ("knocks", "folds", "answers", "luck", "swaps")}  # fmt: skip
    print(f"{label}: {hands:,} hands in {took:.2f} CPU-s, {hands / took:,.0f} hands per "
          f"CPU-second ({', '.join(f'{v:,} {k}' for k, v in counts.items())})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    records = list(simulate(Ruleset.preset("classic"), 4, args.hands, args.seed, BOTS))
    timed(records, "every verdict")
    answer, luck, choice = derived._answer, derived._luck, derived._knock_choice
    swap = derived._swap
    derived._answer = lambda *a: None
    derived._swap = lambda *a: None
    derived._luck = lambda *a: []
    derived._knock_choice = lambda game, *a: {
        "stake": game.stake,
        **dict.fromkeys(derived._KNOCK_UNJUDGED),
    }
    try:
        timed(records, "knocks and folds only")
    finally:
        derived._answer, derived._luck, derived._knock_choice = answer, luck, choice
        derived._swap = swap
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for r in records:
            facts_for_game(r)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
