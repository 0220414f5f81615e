"""The analysis' two verdicts, alone: microseconds per knock (strength: 48 play-outs) and
per fold (regret: the perfect-information search), in the trick core's C twin and in its
Python reference, in one process. Prints figures; asserts nothing but equal answers.

    python bench/verdicts.py                  # 3,000 hands of the README's table
    python bench/verdicts.py --hands 10000

The positions are every knock and fold of a simulated dataset (4-player classic, bots
random, bluffer, cautious, sharp), copied before the analysis runs; each verdict is timed
over all of them, several rounds alternating the cores, and the best round kept (the
machine is shared). Run against a checkout from before the core (no `trickcore`), it
times the one implementation there is.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

from kroeg.analytics.verdicts import fold_regret, knock_strength
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen

try:
    from kroeg.recorder import trickcore
except ImportError:  # a checkout from before the core
    trickcore = None  # type: ignore[assignment]

BOTS = ["random", "bluffer", "cautious", "sharp"]


def positions(hands: int, seed: int) -> tuple[list[tuple[Toepen, int]], list[tuple[Toepen, int]]]:
    """Copies of the games at each knock and at each fold (with the knocker, the folder)."""
    knocks: list[tuple[Toepen, int]] = []
    folds: list[tuple[Toepen, int]] = []
    for record in simulate(Ruleset.preset("classic"), 4, hands, seed, BOTS):
        replay = Replay(record.rules, record.players)
        for event in record.events:
            game = replay.game
            assert isinstance(game, Toepen)
            seat = getattr(event, "seat", None)
            if event.kind == "knock" and seat is not None:
                knocks.append((game.clone(), seat))
            elif event.kind == "fold" and seat is not None:
                folds.append((game.clone(), seat))
            replay.feed(event)
    return knocks, folds


def best_of(rounds: int, run: Callable[[], list[object]]) -> tuple[float, list[object]]:
    """The fastest of `rounds` runs (seconds) and the answers of the last."""
    best, answers = float("inf"), []
    for _ in range(rounds):
        began = time.perf_counter()
        answers = run()
        best = min(best, time.perf_counter() - began)
    return best, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    knocks, folds = positions(args.hands, args.seed)
    table = f"{args.hands:,} hands, 4-player classic, bots {','.join(BOTS)}"
    found_here = f"{len(knocks):,} knocks, {len(folds):,} folds"
    print(f"kroeg verdicts bench: {table}: {found_here}; python {sys.version.split()[0]}")

    def strengths() -> list[object]:
        rng = random.Random(1)
        return [knock_strength(game, seat, rng) for game, seat in knocks]

    def regrets() -> list[object]:
        return [fold_regret(game, seat) for game, seat in folds]

    cores = ["before the core"] if trickcore is None else ["python", "native"]
    if trickcore is not None and not trickcore.NATIVE:
        cores = ["python"]
    found: dict[str, dict[str, tuple[float, list[object]]]] = {"strength": {}, "regret": {}}
    for _ in range(args.rounds):  # alternate the cores: the machine's noise falls on both
        for core in cores:
            if trickcore is not None:
                trickcore.use_native(core == "native")
            for name, run in (("strength", strengths), ("regret", regrets)):
                seconds, answers = best_of(1, run)
                kept = found[name].get(core)
                if kept is None or seconds < kept[0]:
                    found[name][core] = (seconds, answers)
    for name, count in (("strength", len(knocks)), ("regret", len(folds))):
        results = found[name]
        line = f"{name:<9}"
        for core, (seconds, _) in results.items():
            line += f"  {core}: {seconds / max(count, 1) * 1e6:8.1f} µs each"
        if len(results) == 2:
            (slow, a), (fast, b) = results["python"], results["native"]
            assert a == b, f"the cores disagree on {name}"
            line += f"  ({slow / fast:.1f}× faster native, same answers)"
        print(line)


if __name__ == "__main__":
    main()
