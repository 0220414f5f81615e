"""kroeg's engine against OpenSpiel's hearts (C++ called from Python), side by side in one run.

    pip install --group bench        # open_spiel, kept out of kroeg's own dependencies
    python bench/openspiel.py        # 5 alternating rounds of 3 s each
    python bench/openspiel.py --rounds 9 --seconds 5

Both play random legal moves through their engine from Python, one core, alternating
rounds so that a noisy machine slows both alike. The figure compared is card plays per
second: a hearts game plays all 52 cards (its deal and passes are not counted); a Toepen
hand's card plays are its `play` events (kroeg's random bots also knock, fold and check,
which is counted in kroeg's time, not in its plays). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate


def hearts_plays_per_second(seconds: float, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    games, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games * 52 / (time.perf_counter() - began)


def kroeg_plays_per_second(seconds: float, seed: int) -> tuple[float, float]:
    """Card plays per second and hands per second, 4-player classic, random bots."""
    rules = Ruleset.preset("classic")
    plays = hands = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for record in simulate(rules, 4, 500, seed):
            plays += sum(1 for e in record.events if e.kind == "play")
            hands += record.hands
        seed += 1
    elapsed = time.perf_counter() - began
    return plays / elapsed, hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit("open_spiel is not installed: pip install --group bench (or make bench)")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"kroeg engine vs OpenSpiel hearts: {args.rounds} alternating rounds of "
          f"{args.seconds:g} s, python {sys.version.split()[0]}, one core")  # fmt: skip
    hearts, ours, hands = [], [], []
    for round_no in range(args.rounds):
        hearts.append(hearts_plays_per_second(args.seconds, round_no))
        plays, per_hand = kroeg_plays_per_second(args.seconds, 1000 * round_no)
        ours.append(plays)
        hands.append(per_hand)
        print(f"  round {round_no + 1}: hearts {hearts[-1]:,.0f} plays/s   "
              f"kroeg {plays:,.0f} plays/s ({per_hand:,.0f} hands/s)   "
              f"ratio kroeg/hearts {plays / hearts[-1]:.2f}")  # fmt: skip
    ratios = [k / h for k, h in zip(ours, hearts, strict=True)]
    print(f"median: hearts {statistics.median(hearts):,.0f} plays/s, kroeg "
          f"{statistics.median(ours):,.0f} plays/s ({statistics.median(hands):,.0f} hands/s); "
          f"ratio kroeg/hearts {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
