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

`--announcements` does it for the choice at seven tricks in a row (kap, baunie, play on;
`analytics.verdicts.ANNOUNCE_GRADES`, EV lost / the kap's points): the choices of the
sharp and the random bot, each at all four seats, and of the random bot at the sharp
bots' positions (the random bot seldom takes seven tricks in a row). The sharp bot loses
nothing at nearly all of its choices (kap is plainly best at most), so its quantiles are
all 0 and cannot place the grades; they are set where the sampling alone stops reaching:
the EV lost that the right choice seems to have 1 time in 10, 20 and 50 (p90, p95, p98,
rounded up to 0.05) in a dead-even call, worked out exactly, beside the same measured in
the closest calls of the sharp bots' games.

`--knocks` does it for the knocks made (`analytics.verdicts.KNOCK_GRADES`, EV lost / the
stake before the knock), the sharp bot's p90, p95 and p98 without teams, as for answers.

`--swaps` does it for the laundry swaps and armoedes (`analytics.verdicts.SWAP_GRADES`,
EV lost / the stake): the sharp bot swaps only a real claim and loses next to nothing at
most of them, so, as for the announcements, its quantiles are set beside what the
sampling alone gives the better choice of its real claims (each judged 10 times on
SWAP_SAMPLES deals against 512), and beside the false claims that the bluffer makes.

    python bench/grades.py [--hands 3000] [--seed 11]
    python bench/grades.py --knocks [--hands 3000] [--seed 11]
    python bench/grades.py --swaps [--hands 3000] [--seed 11]
    python bench/grades.py --troefcall [--hands 800] [--seed 11]
    python bench/grades.py --announcements [--hands 20000] [--seed 11]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from kroeg.analytics.derived import facts_for_game, judge_announcement
from kroeg.analytics.verdicts import (
    ANNOUNCE_GRADES,
    ANNOUNCE_OPTIONS,
    ANNOUNCE_SAMPLES,
    CALL_GRADES,
    CALL_STAKE,
    GRADES,
    KNOCK_GRADES,
    KNOCK_SAMPLES,
    SWAP_GRADES,
    SWAP_SAMPLES,
    announce_values,
    knock_costs,
    swap_costs,
)  # fmt: skip
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.troefcall import Troefcall
from kroeg.recorder.troefcall_bots import announcement, make_troefcall_bot

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
    parser.add_argument(
        "--announcements", action="store_true", help="grade the choices at seven in a row"
    )
    parser.add_argument("--knocks", action="store_true", help="grade the knocks made instead")
    parser.add_argument("--swaps", action="store_true", help="grade laundry and armoede instead")
    args = parser.parse_args()
    if args.announcements:
        troefcall_announcements(args.hands, args.seed)
        return
    if args.troefcall:
        troefcall_calls(args.hands, args.seed)
        return
    lost: dict[str, list[float]] = defaultdict(list)
    accuracy: dict[str, list[float]] = defaultdict(list)
    grades: dict[str, Counter[str]] = defaultdict(Counter)
    solo: list[float] = []  # the sharp bot's, where nobody plays in teams
    noise_at: list[tuple[object, int]] = []  # knocks to judge again (--knocks)
    false_claims: list[float] = []  # EV lost / stake of the false claims, without teams
    real_claims: list[tuple[object, int, str]] = []  # real swaps to judge again (--swaps)
    hands, cpu = 0, 0.0
    for preset, variants, players, styles in TABLES:
        rules = Ruleset.preset(preset).with_variants(*variants)
        label = "+".join((preset, *variants))
        by_table: dict[str, list[float]] = defaultdict(list)
        lost_here: dict[str, list[float]] = defaultdict(list)
        swaps_here: list[tuple[object, int, str]] = []  # real claims to judge again (--swaps)
        for record in simulate(rules, players, args.hands, args.seed, styles):
            start = time.process_time()
            facts = facts_for_game(record)
            cpu += time.process_time() - start
            hands += record.hands
            if args.knocks:
                judged = [k for k in facts.knocks if k["accuracy"] is not None]
            elif args.swaps:
                judged = facts.swaps
            else:
                judged = facts.answers
            if args.knocks and not teams_of(rules) and len(noise_at) < 150:
                noise_at.extend(_knock_positions(record, len(noise_at)))
            if args.swaps and not teams_of(rules) and len(swaps_here) < 50:
                swaps_here.extend(_swap_positions(record)[: 50 - len(swaps_here)])
            for answer in judged:
                style = styles[int(answer["seat"]) % len(styles)]  # type: ignore[call-overload]
                relative = float(answer["ev_lost"]) / int(answer["stake"])  # type: ignore[arg-type,call-overload]
                lost[style].append(relative)
                lost_here[style].append(relative)
                accuracy[style].append(float(answer["accuracy"]))  # type: ignore[arg-type]
                by_table[style].append(float(answer["accuracy"]))  # type: ignore[arg-type]
                grades[style][str(answer["grade"] or "sound")] += 1
                if args.swaps and not answer["genuine"] and not teams_of(rules):
                    false_claims.append(relative)
        order = sorted(by_table, key=lambda s: -statistics.mean(by_table[s]))
        ranked = ", ".join(f"{s} {100 * statistics.mean(by_table[s]):.1f}%" for s in order)
        print(f"{label}, {players} players: accuracy {ranked}")
        if not teams_of(rules):  # where every answer is a pot-odds call
            solo.extend(lost_here["sharp"])
        real_claims.extend(swaps_here)
    print(f"\n{hands:,} hands judged in {cpu:.1f} CPU-s ({hands / cpu:,.0f} hands per CPU-second, "
          "with every verdict)")  # fmt: skip
    if args.knocks:
        what, grading, counted = "knock made", KNOCK_GRADES, "knocks"
    elif args.swaps:
        what, grading, counted = "laundry swap or armoede", SWAP_GRADES, "swaps"
    else:
        what, grading, counted = "answer to a knock", GRADES, "answers"
    print(f"\nEV lost / stake, per {what} (seed {args.seed}):")
    heads = " ".join(f"p{int(100 * q):<4}" for q in QUANTILES)
    names = "  ".join(n for n, _ in reversed(grading))
    print(f"{'style':9} {counted:>8} {'mean':>6} {heads}  accuracy  {names}")
    for style in STYLES:
        values = lost[style]
        if not values:
            continue
        counts = grades[style]
        shares = "  ".join(
            f"{100 * counts[name] / len(values):>{len(name) - 1}.1f}%"
            for name, _ in reversed(grading)
        )
        print(f"{style:9} {len(values):>8,} {statistics.mean(values):6.3f} "
              + " ".join(f"{quantile(values, q):<5.3f}" for q in QUANTILES)
              + f"  {100 * statistics.mean(accuracy[style]):6.1f}%   {shares}")  # fmt: skip
    sharp = solo
    suggested = [round(quantile(sharp, q) / 0.05) * 0.05 for q in (0.9, 0.95, 0.98)]
    shown = ", ".join(f"{v:.2f}" for v in suggested)
    print("\nwithout teams, the sharp bot's p90, p95, p98 rounded to 0.05 "
          f"(inaccuracy, mistake, blunder): {shown}")  # fmt: skip
    if args.knocks:
        every, closest = _knock_noise(noise_at[:150], args.seed)
        for label, values in (("every one of", every), ("the 20 closest of", closest)):
            figures = ", ".join(
                f"p{int(100 * q)} {quantile(values, q):.3f}" for q in (0.9, 0.95, 0.98)
            )
            print(f"the better choice's EV lost / stake from the sampling alone ({KNOCK_SAMPLES} "
                  f"deals), {label} {len(noise_at[:150])} knocks judged 10 times each: "
                  f"{figures}")  # fmt: skip
    if args.swaps:
        figures = ", ".join(
            f"p{int(100 * q)} {quantile(false_claims, q):.3f}" for q in (0.1, 0.25, 0.5)
        )
        print(f"without teams, the {len(false_claims):,} false claims' EV lost / stake: {figures}")
        every, closest = _swap_noise(real_claims, args.seed)
        for label, values in (("every one of", every), ("the 20 closest of", closest)):
            figures = ", ".join(
                f"p{int(100 * q)} {quantile(values, q):.3f}" for q in (0.9, 0.95, 0.98)
            )
            print(f"the better choice's EV lost / stake from the sampling alone ({SWAP_SAMPLES} "
                  f"deals), {label} {len(real_claims)} real claims judged 10 times each: "
                  f"{figures}")  # fmt: skip
    constant = "KNOCK_GRADES" if args.knocks else "SWAP_GRADES" if args.swaps else "GRADES"
    print(f"in use (analytics.verdicts.{constant}): "
          + ", ".join(f"{name} {least:.2f}" for name, least in reversed(grading)))  # fmt: skip


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


def _announcement_rows(
    style: str, hands: int, seed: int, chooser: str | None = None
) -> list[tuple[dict[str, object], Troefcall, int]]:
    """Every choice at seven in a row in `hands` hands of `style` bots at every seat,
    judged (`judge_announcement`), with a copy of the position and the chooser's seat;
    with `chooser`, the choice is that bot's at the same position instead of the one made."""
    rules = Ruleset.preset("troefcall")
    rng = random.Random(seed)
    bots = [make_troefcall_bot(chooser, seed + s) for s in range(4)] if chooser else []
    rows: list[tuple[dict[str, object], Troefcall, int]] = []
    for record in simulate(rules, 4, hands, seed, (style,)):
        rebuilt = Replay(record.rules, record.players)
        for _hand, _seq, event in number_events(record.events):
            kind, seat, _, _, _ = event.to_row()
            game = rebuilt.game
            if (
                isinstance(game, Troefcall) and game.phase == "announce"
                and kind in ANNOUNCE_OPTIONS and seat is not None
            ):  # fmt: skip
                if bots:  # the other bot's choice here, asked as the bots' table asks
                    other = announcement(game, bots)
                    seat, kind = getattr(other, "seat", seat), other.kind
                row = judge_announcement(game, seat, kind, rng, ANNOUNCE_SAMPLES)
                if row is not None:
                    position = game.fork()
                    position.log = list(game.log)  # what the chooser saw, for `seen_by`
                    rows.append((row, position, seat))
            rebuilt.feed(event)
    return rows


def _knock_positions(record: object, taken: int) -> list[tuple[object, int]]:
    """The positions of a game's first knocks made on one's turn (at most 5), each a copy
    of the game with its log, for `_knock_noise`."""
    found: list[tuple[object, int]] = []
    rebuilt = Replay(record.rules, record.players)  # type: ignore[attr-defined]
    for _hand, _seq, event in number_events(record.events):  # type: ignore[attr-defined]
        game = rebuilt.game
        seat = event.seat
        opening = event.kind == "knock" and seat is not None and not game.answer_queue
        if opening and knock_costs(game, seat, random.Random(0), 1) is not None:  # type: ignore[arg-type]
            position = game.fork()
            position.log = list(game.log)  # what the knocker saw, for `seen_by`
            found.append((position, seat))  # type: ignore[arg-type]
            if len(found) == 5:
                break
        rebuilt.feed(event)
    return found


def _knock_noise(positions: list[tuple[object, int]], seed: int) -> tuple[list[float], list[float]]:
    """EV lost / stake that the sampling alone gives the better choice of a knock: each
    position's two choices costed on 1,024 deals (the truth, near enough), then judged
    10 times on KNOCK_SAMPLES other deals: what the better choice seems to lose each time.
    For every position given, and for the 20 whose choices lie closest."""

    def costs(position: tuple[object, int], rng: random.Random, n: int) -> tuple[float, float]:
        game, seat = position
        found = knock_costs(game, seat, rng, n)  # type: ignore[arg-type]
        assert found is not None
        return found.knock, found.other

    return _sampling_noise(positions, costs, seed, 1024, KNOCK_SAMPLES)


def _sampling_noise(
    positions: list[Any],
    costs: Callable[[Any, random.Random, int], tuple[float, float]],
    seed: int,
    truth_samples: int,
    samples: int,
) -> tuple[list[float], list[float]]:
    """What the better of a decision's two choices seems to lose, / the stake, from the
    sampling alone: each position's two `costs` (the choice made, the other) on
    `truth_samples` deals (the truth, near enough), then judged 10 times on `samples`
    other deals. For every position given, and for the 20 whose choices lie closest."""
    rng = random.Random(seed)
    judged: list[tuple[float, list[float]]] = []
    for position in positions:
        chosen, other = costs(position, rng, truth_samples)
        chosen_best = chosen <= other
        stake = position[0].stake
        seems = []
        for _ in range(10):
            now, then = costs(position, rng, samples)
            gap = now - then if chosen_best else then - now
            seems.append(max(0.0, gap) / stake)
        judged.append((abs(chosen - other) / stake, seems))
    judged.sort(key=lambda j: j[0])
    every = [v for _, seems in judged for v in seems]
    closest = [v for _, seems in judged[:20] for v in seems]
    return every, closest


def _swap_positions(record: object) -> list[tuple[object, int, str]]:
    """The positions of a game's real laundry and armoede claims (at most 5), each a copy
    of the game with its log, for `_swap_noise`."""
    found: list[tuple[object, int, str]] = []
    rebuilt = Replay(record.rules, record.players)  # type: ignore[attr-defined]
    for _hand, _seq, event in number_events(record.events):  # type: ignore[attr-defined]
        game = rebuilt.game
        seat, kind = event.seat, event.kind
        if kind in ("laundry", "armoede") and seat is not None:
            costs = swap_costs(game, seat, kind, random.Random(0), 1)  # type: ignore[arg-type]
            if costs is not None and costs.genuine:
                position = game.fork()
                position.log = list(game.log)  # what the swapper saw, for `seen_by`
                found.append((position, seat, kind))
                if len(found) == 5:
                    break
        rebuilt.feed(event)
    return found


def _swap_noise(
    positions: list[tuple[object, int, str]], seed: int
) -> tuple[list[float], list[float]]:
    """EV lost / stake that the sampling alone gives the better choice of a swap: each
    position's two choices costed on 512 deals (the truth, near enough), then judged 10
    times on SWAP_SAMPLES other deals. For every position given, and the 20 closest."""

    def costs(position: tuple[object, int, str], rng: random.Random, n: int) -> tuple[float, float]:
        game, seat, kind = position
        found = swap_costs(game, seat, kind, rng, n)  # type: ignore[arg-type]
        assert found is not None
        return found.swap, found.keep

    return _sampling_noise(positions, costs, seed, 512, SWAP_SAMPLES)


def _close_call_noise(positions: list[tuple[Troefcall, int]], seed: int) -> list[float]:
    """EV lost / stake that the sampling alone gives the right choice in the closest
    calls: each position's options valued on 1,024 deals (the truth, near enough), the 20
    positions whose two best options lie closest kept, and each judged 10 times on
    ANNOUNCE_SAMPLES other deals: what the best option seems to lose each time."""
    rng = random.Random(seed)
    truths = []
    for game, seat in positions:
        truth = announce_values(game, seat, rng, 1024)
        assert truth is not None
        ranked = sorted(truth.values.values(), reverse=True)
        truths.append((ranked[0] - ranked[1], game, seat, truth))
    truths.sort(key=lambda t: t[0])
    lost: list[float] = []
    for _gap, game, seat, truth in truths[:20]:
        best = max(truth.values, key=truth.values.__getitem__)
        for _ in range(10):
            judged = announce_values(game, seat, rng, ANNOUNCE_SAMPLES)
            assert judged is not None
            seems = judged.values
            lost.append((max(seems.values()) - seems[best]) / game.rules.kap_points)
    return lost


def _dead_even_noise() -> list[float]:
    """The EV lost / stake that a right choice seems to have, 1 time in 10, 20 and 50, in
    the closest call there is: a baunie that takes every trick at the chance that makes it
    exactly as good as kap (at the preset's points, 7/17), valued on ANNOUNCE_SAMPLES
    deals, so that the baunies made are binomial. Whichever of kap and baunie was chosen,
    the larger of the two."""
    rules = Ruleset.preset("troefcall")
    kap, made, failed = rules.kap_points, rules.baunie_points, rules.failed_baunie_points
    n, chance = ANNOUNCE_SAMPLES, (kap + failed) / (made + failed)
    weights = [math.comb(n, k) * chance**k * (1 - chance) ** (n - k) for k in range(n + 1)]
    worst = []
    for sign in (1, -1):  # kap chosen (a lucky sample flatters baunie), or baunie chosen
        seems = sorted(
            (max(0.0, sign * ((made + failed) * k / n - failed - kap)) / kap, w)
            for k, w in enumerate(weights)
        )
        figures = []
        for q in (0.9, 0.95, 0.98):
            total = 0.0
            for value, weight in seems:
                total += weight
                if total >= q:
                    figures.append(value)
                    break
        worst.append(figures)
    return [max(a, b) for a, b in zip(*worst, strict=True)]


def troefcall_announcements(hands: int, seed: int) -> None:
    """The choices at seven in a row of the sharp and the random Troefcall bot: EV lost /
    stake quantiles, accuracy and grades; the sampling's own EV lost in the closest calls
    and its p90, p95 and p98 rounded up to 0.05, beside the ANNOUNCE_GRADES in use."""
    print(f"{'who':24} {'choices':>7} {'mean':>6} "
          + " ".join(f"p{int(100 * q):<4}" for q in QUANTILES)
          + "  accuracy  " + "  ".join(n for n, _ in reversed(ANNOUNCE_GRADES)))  # fmt: skip
    positions: list[tuple[Troefcall, int]] = []
    for label, style, chooser in (
        ("sharp", "sharp", None), ("random", "random", None),
        ("random at sharp tables", "sharp", "random"),
    ):  # fmt: skip
        rows = _announcement_rows(style, hands, seed, chooser)
        if label == "sharp":
            positions = [(game, seat) for _, game, seat in rows]
        if not rows:
            print(f"{label:24} {0:>7}")
            continue
        values = [float(r["ev_lost"]) / float(r["stake"]) for r, _, _ in rows]  # type: ignore[arg-type]
        counts = Counter(str(r["grade"] or "sound") for r, _, _ in rows)
        shares = "  ".join(
            f"{100 * counts[name] / len(values):>{len(name) - 1}.1f}%"
            for name, _ in reversed(ANNOUNCE_GRADES)
        )
        acc = statistics.mean(float(r["accuracy"]) for r, _, _ in rows)  # type: ignore[arg-type]
        print(f"{label:24} {len(values):>7,} {statistics.mean(values):6.3f} "
              + " ".join(f"{quantile(values, q):<5.3f}" for q in QUANTILES)
              + f"  {100 * acc:6.1f}%   {shares}")  # fmt: skip
    noise = _close_call_noise(positions, seed)
    found = [quantile(noise, q) for q in (0.9, 0.95, 0.98)]
    print("\nthe right choice's EV lost / stake from the sampling alone, in the 20 closest "
          f"calls of these games judged 10 times each: p90 {found[0]:.3f}, "
          f"p95 {found[1]:.3f}, p98 {found[2]:.3f}")  # fmt: skip
    figures = _dead_even_noise()
    print(
        "the same in a dead-even call (a baunie as good as kap), exactly: p90 "
        + ", p95 ".join(f"{v:.3f}" for v in figures[:2])
        + f", p98 {figures[2]:.3f}"
    )
    suggested = [math.ceil(v / 0.05 - 1e-9) * 0.05 for v in figures]
    print(
        "rounded up to 0.05 (inaccuracy, mistake, blunder): "
        + ", ".join(f"{v:.2f}" for v in suggested)
    )
    in_use = ", ".join(f"{name} {least:.2f}" for name, least in reversed(ANNOUNCE_GRADES))
    print(f"in use (analytics.verdicts.ANNOUNCE_GRADES): {in_use}")


if __name__ == "__main__":
    main()
