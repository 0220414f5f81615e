"""Where the grades of an answer to a knock come from: bot data (docs/STATS.md, "Grades").

Simulates games of the four bot styles in classic (4 players), lives with poverty and
dirty laundry (3 players) and team toepen (6 players, classic and lives), judges every
answer to a knock from what the player could see (`analytics.derived.facts_for_game`),
and prints, per style, how much of the stake the answers lost in expectation
(quantiles of EV lost / stake), the accuracy, and how many answers each grade catches.
The grades' thresholds (`analytics.verdicts.GRADES`) are the sharp bot's 90th, 95th and
98th percentiles where nobody plays in teams (there every answer is a pot-odds call),
rounded to 0.05: a sharp player's answer is graded at all one time in ten, a blunder one
time in fifty. Run it with another --seed to see them hold.

`--troefcall` does the same for Troefcall's trump calls (`analytics.verdicts.CALL_GRADES`,
EV lost / CALL_STAKE): the sharp and the random bot, each at all four seats, and the
sharp bot's p90, p95 and p98.

    python bench/grades.py [--hands 3000] [--seed 11]
    python bench/grades.py --troefcall [--hands 800] [--seed 11]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter, defaultdict

from kroeg.analytics.derived import facts_for_game
from kroeg.analytics.verdicts import CALL_GRADES, CALL_STAKE, GRADES
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate

TABLES = (
    ("classic", (), 4, ("sharp", "random", "cautious", "bluffer")),
    ("lives", ("poverty", "dirty-laundry"), 3, ("sharp", "random", "cautious")),
    ("classic", ("team-toepen",), 6, ("sharp", "random", "cautious", "bluffer", "sharp", "random")),
    ("lives", ("team-toepen",), 6, ("sharp", "random", "cautious", "bluffer", "sharp", "random")),
)
STYLES = ("sharp", "cautious", "random", "bluffer")
QUANTILES = (0.5, 0.75, 0.9, 0.95, 0.98)


def teams_of(rules: Ruleset) -> bool:
    return bool(rules.teams)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per table")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--troefcall", action="store_true", help="grade trump calls instead")
    args = parser.parse_args()
    if args.troefcall:
        troefcall_calls(args.hands, args.seed)
        return
    lost: dict[str, list[float]] = defaultdict(list)
    accuracy: dict[str, list[float]] = defaultdict(list)
    grades: dict[str, Counter[str]] = defaultdict(Counter)
    solo: list[float] = []  # the sharp bot's, where nobody plays in teams
    hands, cpu = 0, 0.0
    for preset, variants, players, styles in TABLES:
        rules = Ruleset.preset(preset).with_variants(*variants)
        label = "+".join((preset, *variants))
        by_table: dict[str, list[float]] = defaultdict(list)
        lost_here: dict[str, list[float]] = defaultdict(list)
        for record in simulate(rules, players, args.hands, args.seed, styles):
            start = time.process_time()
            facts = facts_for_game(record)
            cpu += time.process_time() - start
            hands += record.hands
            for answer in facts.answers:
                style = styles[int(answer["seat"]) % len(styles)]  # type: ignore[call-overload]
                relative = float(answer["ev_lost"]) / int(answer["stake"])  # type: ignore[arg-type,call-overload]
                lost[style].append(relative)
                lost_here[style].append(relative)
                accuracy[style].append(float(answer["accuracy"]))  # type: ignore[arg-type]
                by_table[style].append(float(answer["accuracy"]))  # type: ignore[arg-type]
                grades[style][str(answer["grade"] or "sound")] += 1
        order = sorted(by_table, key=lambda s: -statistics.mean(by_table[s]))
        ranked = ", ".join(f"{s} {100 * statistics.mean(by_table[s]):.1f}%" for s in order)
        print(f"{label}, {players} players: accuracy {ranked}")
        if not teams_of(rules):  # where every answer is a pot-odds call
            solo.extend(lost_here["sharp"])
    print(f"\n{hands:,} hands judged in {cpu:.1f} CPU-s ({hands / cpu:,.0f} hands per CPU-second, "
          "knocks, folds and answers)")  # fmt: skip
    print(f"\nEV lost / stake, per answer to a knock (seed {args.seed}):")
    heads = " ".join(f"p{int(100 * q):<4}" for q in QUANTILES)
    names = "  ".join(n for n, _ in reversed(GRADES))
    print(f"{'style':9} {'answers':>8} {'mean':>6} {heads}  accuracy  {names}")
    for style in STYLES:
        values = lost[style]
        if not values:
            continue
        counts = grades[style]
        shares = "  ".join(
            f"{100 * counts[name] / len(values):>{len(name) - 1}.1f}%"
            for name, _ in reversed(GRADES)
        )
        print(f"{style:9} {len(values):>8,} {statistics.mean(values):6.3f} "
              + " ".join(f"{quantile(values, q):<5.3f}" for q in QUANTILES)
              + f"  {100 * statistics.mean(accuracy[style]):6.1f}%   {shares}")  # fmt: skip
    sharp = solo
    suggested = [round(quantile(sharp, q) / 0.05) * 0.05 for q in (0.9, 0.95, 0.98)]
    shown = ", ".join(f"{v:.2f}" for v in suggested)
    print("\nwithout teams, the sharp bot's p90, p95, p98 rounded to 0.05 "
          f"(inaccuracy, mistake, blunder): {shown}")  # fmt: skip
    print("in use (analytics.verdicts.GRADES): "
          + ", ".join(f"{name} {least:.2f}" for name, least in reversed(GRADES)))  # fmt: skip


def troefcall_calls(hands: int, seed: int) -> None:
    """The trump calls of the sharp and the random Troefcall bot (each at every seat):
    EV lost / CALL_STAKE quantiles, accuracy and grades, and the sharp bot's p90, p95 and
    p98 rounded to 0.05 beside the CALL_GRADES in use."""
    rules = Ruleset.preset("troefcall")
    print(f"{'style':7} {'calls':>6} {'mean':>6} "
          + " ".join(f"p{int(100 * q):<4}" for q in QUANTILES)
          + "  accuracy  " + "  ".join(n for n, _ in reversed(CALL_GRADES))
          + "  ms per call (CPU)")  # fmt: skip
    sharp: list[float] = []
    for style in ("sharp", "random"):
        values, accuracy, counts, cpu = [], [], Counter[str](), 0.0
        for record in simulate(rules, 4, hands, seed, (style,)):
            start = time.process_time()
            calls = facts_for_game(record).calls
            cpu += time.process_time() - start
            for call in calls:
                values.append(float(call["ev_lost"]) / CALL_STAKE)  # type: ignore[arg-type]
                accuracy.append(float(call["accuracy"]))  # type: ignore[arg-type]
                counts[str(call["grade"] or "sound")] += 1
        if style == "sharp":
            sharp = values
        shares = "  ".join(
            f"{100 * counts[name] / len(values):>{len(name) - 1}.1f}%"
            for name, _ in reversed(CALL_GRADES)
        )
        print(f"{style:7} {len(values):>6,} {statistics.mean(values):6.3f} "
              + " ".join(f"{quantile(values, q):<5.3f}" for q in QUANTILES)
              + f"  {100 * statistics.mean(accuracy):6.1f}%   {shares}"
              + f"  {1000 * cpu / len(values):.1f}")  # fmt: skip
    suggested = [round(quantile(sharp, q) / 0.05) * 0.05 for q in (0.9, 0.95, 0.98)]
    print("\nthe sharp bot's p90, p95, p98 rounded to 0.05 (inaccuracy, mistake, blunder): "
          + ", ".join(f"{v:.2f}" for v in suggested))  # fmt: skip
    print("in use (analytics.verdicts.CALL_GRADES): "
          + ", ".join(f"{name} {least:.2f}" for name, least in reversed(CALL_GRADES)))  # fmt: skip


if __name__ == "__main__":
    main()
