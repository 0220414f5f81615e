"""How many fewer hands it takes to tell the sharp bot from the random one with the luck of
the deal taken out (docs/STATS.md, "Luck"): in the spirit of AIVAT for poker.

Simulates tables of two sharp and two random bots (seats alternate), works out every
hand's luck (`analytics.derived.facts_for_game`: what each player's cards were worth at
the hand's first knock or card), and compares per hand the two sharp players' mean cost with the two
random players'. It prints the mean luck (nothing, ideally: the law of total
probability) and the hands needed to tell them apart at 95 % confidence:
(1.96 × sd / mean)² of that difference per hand, with the raw costs and with the costs
with the luck added back (paid + luck).

It then tries the other value the docs name, one that follows the knocks: each hand
played on from its deal (every card known, before any laundry) by four sharp bots,
knocks and answers included, `--playouts` times, and the pairs' mean difference of
what that costs taken out, as is (1×) and at the best multiple (the control-variate
coefficient β, which no club's data could fit without bias; an upper bound).

    python bench/luck.py [--hands 6000] [--seed 5] [--playouts 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from dataclasses import replace

from kroeg.analytics.derived import facts_for_game
from kroeg.recorder.bots import SharpBot
from kroeg.recorder.events import number_events
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import continue_hand, simulate
from kroeg.recorder.toepen import Toepen

STYLES = ("sharp", "random", "sharp", "random")


def hands_needed(differences: list[float]) -> float:
    """Hands to tell a mean difference from 0 at 95 % confidence (normal approximation)."""
    mean = statistics.mean(differences)
    return (1.96 * statistics.stdev(differences) / mean) ** 2 if mean else float("inf")


def _mean(
    paid: dict[tuple[int, int], int],
    luck: dict[tuple[int, int], float],
    hand: int,
    seats: list[int],
) -> float:
    """The mean of what `seats` paid in `hand`, each with its luck added back (if given)."""
    return statistics.mean(paid[hand, s] + luck.get((hand, s), 0.0) for s in seats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6000, help="hands per rule set")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=4, help="per hand, for the play-out value")
    args = parser.parse_args()
    control(min(args.hands, 3000), args.seed)
    for preset in ("classic", "lives"):
        rules = Ruleset.preset(preset)
        raw: list[float] = []
        adjusted: list[float] = []
        chances: list[float] = []  # every player-hand's luck: nothing on average, ideally
        cpu = 0.0
        for record in simulate(rules, 4, args.hands, args.seed, STYLES):
            start = time.process_time()
            facts = facts_for_game(record)
            cpu += time.process_time() - start
            paid: dict[tuple[int, int], int] = defaultdict(int)
            ended: set[int] = set()
            for hand, _seq, event in number_events(record.events):
                if event.kind == "pay" and event.seat is not None:
                    paid[hand, event.seat] += event.amount or 0
                elif event.kind == "hand_end":
                    ended.add(hand)
            chances += [float(r["luck"]) for r in facts.luck]  # type: ignore[arg-type]
            # What each player's cards saved in expectation: luck (a chance) × the stake.
            luck = {
                (int(r["hand"]), int(r["seat"])): float(r["luck"]) * int(r["stake"])  # type: ignore[call-overload,arg-type]
                for r in facts.luck
            }
            for hand in sorted(ended):
                if not all((hand, s) in luck for s in range(4)):
                    continue  # a player not dealt in (out of the game), or no card played
                sharp = [s for s in range(4) if STYLES[s] == "sharp"]
                rand = [s for s in range(4) if STYLES[s] == "random"]
                raw.append(_mean(paid, {}, hand, rand) - _mean(paid, {}, hand, sharp))
                adjusted.append(_mean(paid, luck, hand, rand) - _mean(paid, luck, hand, sharp))
        before, after = hands_needed(raw), hands_needed(adjusted)
        mean, error = statistics.mean(chances), statistics.stdev(chances) / len(chances) ** 0.5
        print(
            f"{preset}: mean luck over {len(chances):,} player-hands {mean:+.4f} "
            f"(standard error {error:.4f}, z {mean / error:+.1f})"
        )
        print(
            f"{preset}: {len(raw):,} hands; the random bots pay {statistics.mean(raw):.3f} more "
            f"per hand; hands to tell them apart at 95 %: {before:,.0f} as paid, {after:,.0f} "
            f"with the luck taken out ({before / after:.2f}× fewer; analysis "
            f"{len(raw) / cpu:,.0f} hands per CPU-second)"
        )
        playout_value(preset, args.hands, args.seed, args.playouts)


def playout_value(preset: str, hands: int, seed: int, playouts: int) -> None:
    """The pairs' difference per hand as paid (D) and as four sharp bots would have paid
    it from the same deal (C, every card known, knocks included): their correlation, the
    best multiple β of C, and the hands needed with D, D − C and D − βC."""
    rules = Ruleset.preset(preset)
    sharp = [s for s in range(4) if STYLES[s] == "sharp"]
    rand = [s for s in range(4) if STYLES[s] == "random"]
    paid_d: list[float] = []
    value_d: list[float] = []
    cpu = 0.0
    for number, record in enumerate(simulate(rules, 4, hands, seed, STYLES)):
        replay = Replay(record.rules, record.players)
        paid: dict[tuple[int, int], int] = defaultdict(int)
        value: dict[int, list[float]] = {}
        ended: set[int] = set()
        last = ""
        for hand, _seq, event in number_events(record.events):
            dealt = last == "deal" and event.kind != "deal" and hand not in value
            if dealt and all(replay.game.hands[s] for s in range(4)):  # as above: all in
                start = time.process_time()  # the deal is in; nobody has chosen yet
                value[hand] = [0.0] * 4
                for k in range(playouts):
                    copy = replay.game.fork()
                    assert isinstance(copy, Toepen)
                    copy.rng = random.Random(f"{seed} {number} {hand} {k}")
                    bots = [SharpBot(hash((seed, number, hand, k, s))) for s in range(4)]
                    continue_hand(copy, bots)
                    for s in range(4):
                        value[hand][s] += copy.paid_this_hand[s] / playouts
                cpu += time.process_time() - start
            if event.kind == "pay" and event.seat is not None:
                paid[hand, event.seat] += event.amount or 0
            elif event.kind == "hand_end":
                ended.add(hand)
            last = event.kind
            replay.feed(event)
        for hand in sorted(ended & value.keys()):
            paid_d.append(_mean(paid, {}, hand, rand) - _mean(paid, {}, hand, sharp))
            v = value[hand]
            value_d.append(
                statistics.mean(v[s] for s in rand) - statistics.mean(v[s] for s in sharp)
            )
    rho = statistics.correlation(paid_d, value_d)
    beta = statistics.covariance(paid_d, value_d) / statistics.variance(value_d)
    error = statistics.stdev(value_d) / len(value_d) ** 0.5
    out = hands_needed([d - c for d, c in zip(paid_d, value_d, strict=True)])
    best = hands_needed([d - beta * c for d, c in zip(paid_d, value_d, strict=True)])
    print(
        f"{preset}, play-out value ({playouts} per hand): {len(paid_d):,} hands; mean C "
        f"{statistics.mean(value_d):+.3f} (standard error {error:.3f}); correlation with D "
        f"{rho:+.3f}, best multiple {beta:.2f}; hands to tell them apart at 95 %: "
        f"{hands_needed(paid_d):,.0f} as paid, {out:,.0f} with C taken out, {best:,.0f} "
        f"with βC ({cpu:.1f} CPU-s of play-outs)"
    )


def control(hands: int, seed: int) -> None:
    """The mean luck where nothing but the cards can tell a player anything: classic
    without laundry, armoede or knocks, four random bots."""
    rules = replace(Ruleset.preset("classic"), laundry=False, armoede=False, stake_cap=1)
    chances = [
        float(r["luck"])  # type: ignore[arg-type]
        for record in simulate(rules, 4, hands, seed, ["random"] * 4)
        for r in facts_for_game(record).luck
    ]
    mean, error = statistics.mean(chances), statistics.stdev(chances) / len(chances) ** 0.5
    print(
        f"control (no laundry, armoede or knock): mean luck over {len(chances):,} player-hands "
        f"{mean:+.4f} (standard error {error:.4f}, z {mean / error:+.1f})"
    )


if __name__ == "__main__":
    main()
