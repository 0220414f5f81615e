"""Do the ratings predict results, how soon do they tell the bots apart, and how fast are
they (docs/STATS.md, "Ratings")?

Simulates a season of bots (classic, 4 players: random, cautious, bluffer, sharp), or
reads a dataset, and splits its games in the order played: the first 80 % to rate, the
last 20 % held out. With the ratings as they stand after the first part, it prints the
log-loss (mean −ln of the chance given to what happened; lower is better) of:

- each held-out hand's winner (the side with the engine's `win` row, in hands with one),
  by the ratings' chance of each side ranking first (openskill's `predict_win`), and by
  each player's share of hands won in the first part (a side's: its players' mean);
- each held-out game's loser (classic's `game_end` names a loser, no winner: its places
  from the engine's rows, analytics.ratings), by the Plackett–Luce chance on the ratings'
  means of placing last, and by each player's share of games lost;

for ratings updated by hand (openskill's τ, and smaller ones) and by game. Then, with the
ratings as shipped (`analytics.ratings`, over every game), the hands after which the
sharp bot's interval (μ ± 2σ) and the random bot's part for good, and the speed of
`update_ratings` (every game rated and stored, from nothing) in hands/s.

    python bench/ratings.py [--hands 20000] [--seed 3] [--dataset DIR] [--speed DIR]

`--speed DIR` times a dataset made beforehand, e.g. `kroeg simulate --hands 100000 --seed 7
--bots random,cautious,bluffer,sharp --out DIR`.
"""

from __future__ import annotations

import argparse
import itertools
import math
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from openskill.models import PlackettLuce

from kroeg.analytics.ratings import (
    BY_GAME,
    BY_HAND,
    INTERVAL,
    GameResult,
    Rater,
    game_results,
    hand_ranks,
    rating_history,
    update_ratings,
)
from kroeg.analytics.views import connect
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

STYLES = ("random", "cautious", "bluffer", "sharp")
NAMES = ("Anna", "Ben", "Carla", "Dan")  # the simulation's names, seat by seat


def _winner(game: GameResult, dealt: int, won: int, paid: tuple[int, ...]) -> int | None:
    """The index of the one side ranked first in a hand, or None (none, or several)."""
    ranks = hand_ranks(game.sides(dealt), won, paid)
    return ranks.index(0) if ranks.count(0) == 1 else None


def _loser(game: GameResult) -> int:
    """The seat placed last in a game (one with places)."""
    assert game.places is not None
    return game.places.index(max(game.places))


def _share_chances(
    shares: dict[str, tuple[int, int]], game: GameResult, sides: list[list[int]]
) -> list[float]:
    """Each side's chance by its players' share won (smoothed: (won + 1) / (of + 2))."""
    rates = []
    for side in sides:
        per = [shares.get(game.players[s], (0, 0)) for s in side]
        rates.append(sum((w + 1) / (n + 2) for w, n in per) / len(per))
    total = sum(rates)
    return [r / total for r in rates]


def _chance_last(rater: Rater, game: GameResult) -> list[float]:
    """Each side's chance of placing last in the game, by the Plackett–Luce model on the
    ratings' means (every order of the sides, each with its chance): classic names the
    loser of a game, not a winner."""
    sides = game.sides((1 << len(game.players)) - 1)
    model = rater.model
    teams = [[rater.player(game.pool, game.players[s]).rating for s in side] for side in sides]
    mus = [sum(r.mu for r in t) for t in teams]
    c = math.sqrt(sum(r.sigma**2 + model.beta**2 for t in teams for r in t))
    strength = [math.exp(m / c) for m in mus]
    last = [0.0] * len(sides)
    for order in itertools.permutations(range(len(sides))):
        chance, left = 1.0, sum(strength)
        for i in order:
            chance *= strength[i] / left
            left -= strength[i]
        last[order[-1]] += chance
    return last


def _loss(chances: list[float]) -> float:
    return -sum(math.log(max(p, 1e-12)) for p in chances) / len(chances)


def evaluate(games: list[GameResult]) -> None:
    """Log-loss on the held-out fifth of `games` of each way of rating, and of win shares."""
    cut = len(games) * 4 // 5
    train, test = games[:cut], games[cut:]
    hand_shares: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
    game_shares: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
    for g in train:
        for dealt, won, _ in g.hands:
            for s, name in enumerate(g.players):
                if dealt >> s & 1:
                    w, n = hand_shares[name]
                    hand_shares[name] = (w + (won >> s & 1), n + 1)
        if g.places is not None:
            for s, name in enumerate(g.players):
                w, n = game_shares[name]
                game_shares[name] = (w + (g.places[s] == max(g.places)), n + 1)
    tau = PlackettLuce().tau
    ways = [
        (f"by hand, tau {tau:.4f} (openskill's)", Rater(BY_HAND, PlackettLuce(tau=tau))),
        (f"by hand, tau {tau / 10:.4f}", Rater(BY_HAND, PlackettLuce(tau=tau / 10))),
        ("by hand, tau 0", Rater(BY_HAND, PlackettLuce(tau=0.0))),
        (f"by game, tau {tau:.4f}", Rater(BY_GAME, PlackettLuce(tau=tau))),
        (f"by game, tau {tau / 10:.4f}", Rater(BY_GAME, PlackettLuce(tau=tau / 10))),
        ("by game, tau 0", Rater(BY_GAME, PlackettLuce(tau=0.0))),
    ]
    for _, rater in ways:
        for g in train:
            rater.play(g)
    print(f"{len(train):,} games rated, {len(test):,} held out "
          f"({sum(len(g.hands) for g in test):,} hands)")  # fmt: skip
    print(f"{'':44} {'hand winner':>12} {'game loser':>12}")
    hand_cases = [
        (g, d, w, p) for g in test for d, w, p in g.hands if _winner(g, d, w, p) is not None
    ]
    game_cases = [g for g in test if g.places is not None and g.places.count(max(g.places)) == 1]
    for label, rater in ways:
        by_hand = _loss([
            rater.predict(g, d)[_winner(g, d, w, p) or 0][1] for g, d, w, p in hand_cases
        ])  # fmt: skip
        by_game = _loss([
            _chance_last(rater, g)[_loser(g)]
            for g in game_cases
        ])  # fmt: skip
        print(f"{'ratings ' + label:44} {by_hand:12.4f} {by_game:12.4f}")
    share_hand = _loss([
        _share_chances(hand_shares, g, g.sides(d))[_winner(g, d, w, p) or 0]
        for g, d, w, p in hand_cases
    ])  # fmt: skip
    share_game = _loss([
        _share_chances(game_shares, g, g.sides((1 << len(g.players)) - 1))[_loser(g)]
        for g in game_cases
    ])  # fmt: skip
    print(f"{'win share (hands won, games lost)':44} {share_hand:12.4f} {share_game:12.4f}")
    flat_hand = _loss([1 / len(g.sides(d)) for g, d, _, _ in hand_cases])
    flat_game = _loss([1 / len(g.players) for g in game_cases])
    print(f"{'no skill (1 / sides)':44} {flat_hand:12.4f} {flat_game:12.4f}")
    print(f"({len(hand_cases):,} held-out hands with one winner, {len(game_cases):,} games)")


def separation(dataset: Dataset) -> None:
    """The hands after which sharp's and random's intervals part for good, and the order."""
    history = rating_history(connect(dataset), "toepen", with_simulated=True)
    rows = history.sort("step").to_dicts()
    sharp, rand = NAMES[STYLES.index("sharp")], NAMES[STYLES.index("random")]
    latest: dict[str, dict[str, object]] = {}
    parted_at: int | None = None
    for r in rows:
        latest[str(r["player"])] = r
        if sharp in latest and rand in latest and r["player"] in (sharp, rand):
            s, q = latest[sharp], latest[rand]
            apart = float(s["low"]) > float(q["high"])  # type: ignore[arg-type]
            if apart and parted_at is None:
                parted_at = int(s["hands"])  # type: ignore[call-overload]
            elif not apart:
                parted_at = None
    for name, style in zip(NAMES, STYLES, strict=True):
        r = latest[name]
        print(f"{style:9} ({name}): mu {r['mu']:.2f}, sigma {r['sigma']:.2f}, "
              f"interval {r['low']:.2f} to {r['high']:.2f} after {r['hands']:,} hands")  # fmt: skip
    said = f"after {parted_at:,} hands" if parted_at is not None else "not yet"
    print(f"sharp's and random's intervals (mu +- {INTERVAL:g} sigma) part for good: {said}")


def speed(dataset: Dataset) -> None:
    """`update_ratings` from nothing, and one game more, in hands/s."""
    dataset.remove_derived("ratings")
    hands = sum(max(g.dealt, default=0) for g in game_results(connect(dataset)))
    start = time.perf_counter()
    rated = update_ratings(dataset)
    took = time.perf_counter() - start
    print(f"update_ratings: {rated:,} games, {hands:,} hands in {took:.1f} s: "
          f"{hands / took:,.0f} hands/s (read, rate, store)")  # fmt: skip
    start = time.perf_counter()
    again = update_ratings(dataset)
    print(f"again with nothing new: {again} games in {time.perf_counter() - start:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--dataset", type=Path, help="rate this dataset instead")
    parser.add_argument("--speed", type=Path, help="time update_ratings on this dataset")
    args = parser.parse_args()
    if args.speed:
        speed(Dataset(args.speed))
        return
    with tempfile.TemporaryDirectory(prefix="rat-bench-") as tmp:
        path = args.dataset or Path(tmp) / "season"
        dataset = Dataset(path)
        if args.dataset is None:
            began = time.perf_counter()
            dataset.create()
            first = datetime(2026, 1, 1, 20, tzinfo=UTC)  # dated: rated in the order played
            simulate_into(
                dataset, Ruleset.preset("classic"), 4, args.hands, args.seed, STYLES, first
            )
            print(f"simulated {args.hands:,} hands in {time.perf_counter() - began:.1f} s")
        evaluate(game_results(connect(dataset), by_hand=True))
        speed(dataset)  # rates every game afresh, as shipped
        separation(dataset)


if __name__ == "__main__":
    main()
