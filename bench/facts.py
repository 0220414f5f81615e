"""The analysis of one game at a time, in this process: hands per CPU-second with every
verdict (knock strength, fold regret, the answers to knocks, luck, the knocks made as
choices, the laundry swaps and armoedes), and without the answers, luck, the knocks'
choices and the swaps (issue 27's verdicts alone). Prints figures; asserts nothing.

    python bench/facts.py [--hands 3000] [--seed 3] [--profile] [--by-verdict]

The games are `kroeg simulate --rules classic --players 4 --hands N --seed S --bots
random,bluffer,cautious,sharp` (made here, in memory); each is analysed by
`analytics.derived.facts_for_game`, as a worker of `kroeg analyse` does, without the
reading, the workers and the storing around it (`bench/analysis.py` times those).
`--profile` prints cProfile's top functions (compiled code shows as one call each);
`--by-verdict` times each verdict (as `derived` calls it) apart: calls a hand, the
microseconds of each call, and its share of the analysis.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

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


#: The verdicts as `analytics.derived` calls them, each timed apart by `--by-verdict`.
VERDICTS = (
    "swap_costs", "knock_costs", "answer_costs", "deal_luck", "knock_strength", "fold_regret",
)  # fmt: skip


def by_verdict(records: list[GameRecord]) -> None:
    """Each verdict's calls a hand, microseconds a call and share of the analysis."""
    spent: defaultdict[str, float] = defaultdict(float)
    calls: defaultdict[str, int] = defaultdict(int)

    def timer(name: str, verdict: Callable[..., Any]) -> Callable[..., Any]:
        def timed_call(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return verdict(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
                calls[name] += 1

        return timed_call

    kept = {name: getattr(derived, name) for name in VERDICTS}
    for name, verdict in kept.items():
        setattr(derived, name, timer(name, verdict))
    try:
        hands = sum(r.hands for r in records)
        start = time.process_time()
        for r in records:
            facts_for_game(r)
        took = time.process_time() - start
    finally:
        for name, verdict in kept.items():
            setattr(derived, name, verdict)
    print(f"{hands:,} hands in {took:.2f} CPU-s ({1e6 * took / hands:,.0f} µs a hand):")
    print(f"  {'verdict':<15} {'calls/hand':>10} {'µs a call':>10} {'share':>6}")
    for name in VERDICTS:
        if calls[name]:
            each = 1e6 * spent[name] / calls[name]
            print(f"  {name:<15} {calls[name] / hands:>10.2f} {each:>10.1f} "
                  f"{spent[name] / took:>6.0%}")  # fmt: skip
    rest = took - sum(spent.values())
    print(f"  {'the rest':<15} {'':>10} {'':>10} {rest / took:>6.0%}  (the replay, the rows built)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--by-verdict", action="store_true")
    args = parser.parse_args()
    records = list(simulate(Ruleset.preset("classic"), 4, args.hands, args.seed, BOTS))
    if args.by_verdict:
        by_verdict(records)
        return
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
