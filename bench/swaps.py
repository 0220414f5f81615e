"""What the swap verdict says of the bots' swaps (docs/STATS.md, "Swaps").

Simulates games of the four bot styles in classic (laundry) and lives (armoede), judges
every swap made from what the swapper could see (`analytics.derived.facts_for_game`),
and prints per style, kind and whether the claim was true: how many, the mean expected
cost of swapping and of keeping the hand, the mean EV lost / stake, the accuracy, and
the grades; and the CPU time the analysis took.

    python bench/swaps.py [--hands 1500] [--seed 11]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict

from kroeg.analytics.derived import facts_for_game
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate

STYLES = ("sharp", "bluffer", "random", "cautious")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    for preset in ("classic", "lives"):
        rules = Ruleset.preset(preset)
        rows: dict[tuple[str, str, bool], list[dict[str, object]]] = defaultdict(list)
        swaps = 0
        start = time.process_time()
        for record in simulate(rules, 4, args.hands, args.seed, STYLES):
            for row in facts_for_game(record).swaps:
                rows[(STYLES[int(row["seat"])], str(row["kind"]), bool(row["genuine"]))].append(row)
                swaps += 1
        cpu = time.process_time() - start
        print(
            f"{preset}, 4 players, {args.hands} hands, seed {args.seed}: {swaps} swaps judged, "
            f"analysis {cpu:.1f} CPU-s"
        )
        print("  style     kind     claim   n   swap   keep  lost/stake  accuracy  grades")
        for (style, kind, genuine), got in sorted(rows.items()):

            def mean(name: str, got: list[dict[str, object]] = got) -> float:
                return statistics.fmean(float(r[name]) for r in got)  # type: ignore[arg-type]

            lost = statistics.fmean(float(r["ev_lost"]) / int(r["stake"]) for r in got)  # type: ignore[arg-type]
            grades = Counter(str(r["grade"]) for r in got if r["grade"] is not None)
            print(
                f"  {style:9} {kind:8} {'true' if genuine else 'false':5} {len(got):4} "
                f"{mean('cost_swap'):6.3f} {mean('cost_keep'):6.3f} {lost:10.3f} "
                f"{100 * mean('accuracy'):8.1f}%  {dict(grades)}"
            )


if __name__ == "__main__":
    main()
