"""Do the ratings predict results, how soon do they tell the bots apart, and how fast are
they (docs/STATS.md, "Ratings")?

Simulates a season of bots (classic, 4 players: random, cautious, bluffer, sharp), or
reads a dataset, and splits its games in the order played: the first 80 % to rate, the
last 20 % held out. With the ratings as they stand after the first part, it prints the
log-loss (mean −ln of the chance given to what happened; lower is better) of:

- each held-out hand's winner (the side with the engine's `win` row, in hands with one),
  by the ratings' chance of each side ranking first (the model's own, the sides leaving
  from the last place up: `_chance_first`), and by each player's share of hands won in
  the first part (a side's: its players' mean);
- each held-out game's loser (classic's `game_end` names a loser, no winner: its places
  from the engine's rows, analytics.ratings), by the ratings' chance of placing last,
  P(last = i) ∝ exp(−k μᵢ / C) (the model's own link has k = 1; k is also fitted on the
  rated games only, each predicted before it was rated, as a check of calibration), and
  by each player's share of games lost;

for the shipped model updated by hand and by game, with other drifts τ and scales C;
and, where openskill is installed (`pip install openskill`, the bench group), openskill's
Plackett–Luce by game, the model shipped before (read from the first place down, its
link's c = √Σ(σ² + β²)). Then, with the
ratings as shipped (`analytics.ratings`, over every game), the hands after which the
sharp bot's interval (μ ± 2σ) and the random bot's part for good, and the speed of
`update_ratings` (every game rated and stored, from nothing) in hands/s.

    python bench/ratings.py [--hands 20000] [--seed 3] [--dataset DIR] [--speed DIR]
    python bench/ratings.py --club EVENINGS [--seed 3] [--seasons N] [--learn]

`--club EVENINGS` plays a club's season instead (`club_season`: twelve members of the four
styles at changing tables of three to five) and prints the same log-losses and each
style's ratings beside its games lost; `--seasons N` plays N of them (seeds from --seed on)
and counts those where the ratings predict better than the win share; `--learn` has the
random members play as the sharp bot from the season's middle. `--speed DIR` times a
dataset made beforehand, e.g. `kroeg simulate --hands 100000 --seed 7 --bots
random,cautious,bluffer,sharp --out DIR`.
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from kroeg.analytics.ratings import (
    BY_GAME,
    BY_HAND,
    INTERVAL,
    SCALE,
    TAU,
    GameResult,
    Rater,
    chances_last,
    game_results,
    hand_ranks,
    rating_history,
    update_ratings,
)
from kroeg.analytics.views import connect
from kroeg.recorder.bots import make_bot
from kroeg.recorder.records import GameRecord, content_id
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import play_game, simulate_into
from kroeg.recorder.store import Dataset
from kroeg.recorder.toepen import Toepen

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


def _last_case(rater: Rater, game: GameResult) -> tuple[list[float], float, int]:
    """What the loser's chance needs of a game, by the ratings now: each side's μ, the
    link's scale C and the side placed last (a game with places)."""
    sides = game.sides((1 << len(game.players)) - 1)
    last = next(i for i, side in enumerate(sides) if _loser(game) in side)
    return _side_mus(rater, game, (1 << len(game.players)) - 1), rater.scale, last


def _chance_last(case: tuple[list[float], float, int], k: float) -> float:
    """The chance the ratings give the side that placed last, on the link
    P(last = i) ∝ exp(−k μᵢ / C): the model's own with k = 1, its steepness k fitted
    (`_fit_k`) to check that the ratings' chances are calibrated."""
    mus, c, last = case
    strength = [math.exp(-k * (m - min(mus)) / c) for m in mus]
    return strength[last] / sum(strength)


def _chance_first(mus: list[float], scale: float) -> list[float]:
    """Each side's chance of ranking first when the sides leave from the last place up
    (each time the last among those left, `chances_last`): the chance of being the one
    left, summed over every order of leaving (by subsets: at most 2⁸ of them)."""
    n = len(mus)
    left: dict[int, float] = {(1 << n) - 1: 1.0}  # the chance of reaching each set still in
    first = [0.0] * n
    for _ in range(n - 1):  # one side leaves each round, until one is left
        nxt: dict[int, float] = {}
        for mask, p in left.items():
            members = [i for i in range(n) if mask >> i & 1]
            chances = chances_last([mus[i] for i in members], scale)
            for i, q in zip(members, chances, strict=True):
                nxt[mask & ~(1 << i)] = nxt.get(mask & ~(1 << i), 0.0) + p * q
        left = nxt
    for mask, p in left.items():
        first[mask.bit_length() - 1] += p
    return first


#: The steepness the link may take, fitted on the rated games (`_fit_k`).
K_GRID = tuple(x / 4 for x in range(1, 41))


def _fit_k(cases: list[tuple[list[float], float, int]]) -> float:
    """The link's steepness with the least log-loss on the rated games, each predicted by
    the ratings as they stood before it (never by the held-out games)."""
    return min(K_GRID, key=lambda k: _loss([_chance_last(c, k) for c in cases]))


def _loss(chances: list[float]) -> float:
    return -sum(math.log(max(p, 1e-12)) for p in chances) / len(chances)


class _Openskill:
    """openskill's Plackett–Luce by game, τ as shipped: the model shipped before, for the
    comparison only (read from the first place down; its link's scale √Σ(σ² + β²))."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(tau=TAU)
        self.ratings: dict[tuple[bool, str, str], Any] = {}

    @staticmethod
    def available() -> bool:
        try:
            import openskill  # noqa: F401
        except ImportError:
            print("(openskill not installed: its row left out; pip install openskill)")
            return False
        return True

    def teams(self, game: GameResult, seats: int) -> tuple[list[list[int]], list[list[Any]]]:
        sides = game.sides(seats)
        teams = [[self.rating(game, s) for s in side] for side in sides]
        return sides, teams

    def rating(self, game: GameResult, seat: int) -> Any:
        key = (*game.pool, game.players[seat])
        if key not in self.ratings:
            self.ratings[key] = self.model.rating()
        return self.ratings[key]

    def play(self, game: GameResult) -> None:
        if game.places is None:
            return
        sides, teams = self.teams(game, (1 << len(game.players)) - 1)
        if len(sides) < 2:
            return
        ranks: list[float] = [min(game.places[s] for s in side) for side in sides]
        for side, new in zip(sides, self.model.rate(teams, ranks=ranks), strict=True):
            for s, rating in zip(side, new, strict=True):
                self.ratings[(*game.pool, game.players[s])] = rating


def _case(rater: Rater | _Openskill, game: GameResult) -> tuple[list[float], float, int]:
    """What the loser's chance needs of a game (`_last_case`), for either kind of rating."""
    if isinstance(rater, Rater):
        return _last_case(rater, game)
    sides, teams = rater.teams(game, (1 << len(game.players)) - 1)
    c = math.sqrt(sum(r.sigma**2 + rater.model.beta**2 for t in teams for r in t))
    last = next(i for i, side in enumerate(sides) if _loser(game) in side)
    return [sum(r.mu for r in t) for t in teams], c, last


def _first(rater: Rater | _Openskill, game: GameResult, seats: int) -> list[float]:
    """Each side's chance of ranking first in a hand among `seats`, by the ratings now."""
    if isinstance(rater, Rater):
        return _chance_first(_side_mus(rater, game, seats), rater.scale)
    return list(rater.model.predict_win(rater.teams(game, seats)[1]))


def _side_mus(rater: Rater, game: GameResult, seats: int) -> list[float]:
    return [
        sum(rater.player(game.pool, game.players[s]).rating.mu for s in side)
        for side in game.sides(seats)
    ]


def evaluate(games: list[GameResult]) -> tuple[float, float]:
    """Log-loss on the held-out fifth of `games` of each way of rating, and of win shares;
    return the held-out game losers' log-loss by the shipped ratings and by the share."""
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
    ways: list[tuple[str, Rater | _Openskill]] = [
        (f"by hand, tau {TAU * 10:.4f}", Rater(BY_HAND, TAU * 10)),
        (f"by hand, tau {TAU:.4f}", Rater(BY_HAND, TAU)),
        (f"by game, tau {TAU * 10:.4f}", Rater(BY_GAME, TAU * 10)),
        (f"by game, tau {TAU:.4f}, C {SCALE:g} (shipped)", Rater(BY_GAME, TAU)),
        ("by game, tau 0", Rater(BY_GAME, 0.0)),
        (f"by game, C {SCALE * 2 / 3:.3g}", Rater(BY_GAME, TAU, SCALE * 2 / 3)),
        (f"by game, C {SCALE * 4 / 3:.3g}", Rater(BY_GAME, TAU, SCALE * 4 / 3)),
    ]
    if _Openskill.available():
        ways.append((f"openskill's Plackett-Luce by game, tau {TAU:.4f}", _Openskill()))
    fitted: dict[str, float] = {}
    for label, rater in ways:
        before = []
        for g in train:
            if g.places is not None and g.places.count(max(g.places)) == 1:
                before.append(_case(rater, g))
            rater.play(g)
        fitted[label] = _fit_k(before) if before else 1.0
    print(f"{len(train):,} games rated, {len(test):,} held out "
          f"({sum(len(g.hands) for g in test):,} hands)")  # fmt: skip
    print(f"{'':48} {'hand winner':>12} {'game loser':>11}  {'(k fitted)':>16}")
    hand_cases = [
        (g, d, w, p) for g in test for d, w, p in g.hands if _winner(g, d, w, p) is not None
    ]
    game_cases = [g for g in test if g.places is not None and g.places.count(max(g.places)) == 1]
    shipped = 0.0
    for label, rater in ways:
        by_hand = _loss([
            _first(rater, g, d)[_winner(g, d, w, p) or 0] for g, d, w, p in hand_cases
        ])  # fmt: skip
        cases = [_case(rater, g) for g in game_cases]
        own = isinstance(rater, Rater)  # the model's own link: k = 1
        plain = _loss([_chance_last(c, 1.0) for c in cases])
        by_game = _loss([_chance_last(c, fitted[label]) for c in cases])
        if "(shipped)" in label:
            shipped = plain
        main = f"{plain:11.4f}" if own else f"{by_game:11.4f}"
        aside = (
            f"(k {fitted[label]:g}: {by_game:.4f})"
            if own
            else f"(k {fitted[label]:g}; k 1: {plain:.4f})"
        )
        print(f"{'ratings ' + label:48} {by_hand:12.4f} {main}  {aside}")
    share_hand = _loss([
        _share_chances(hand_shares, g, g.sides(d))[_winner(g, d, w, p) or 0]
        for g, d, w, p in hand_cases
    ])  # fmt: skip
    share_game = _loss([
        _share_chances(game_shares, g, g.sides((1 << len(g.players)) - 1))[_loser(g)]
        for g in game_cases
    ])  # fmt: skip
    print(f"{'win share (hands won, games lost)':48} {share_hand:12.4f} {share_game:11.4f}")
    flat_hand = _loss([1 / len(g.sides(d)) for g, d, _, _ in hand_cases])
    flat_game = _loss([1 / len(g.players) for g in game_cases])
    print(f"{'no skill (1 / sides)':48} {flat_hand:12.4f} {flat_game:11.4f}")
    print(f"({len(hand_cases):,} held-out hands with one winner, {len(game_cases):,} games)")
    return shipped, share_game


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


def club_season(dataset: Dataset, evenings: int, seed: int, learn: bool = False) -> int:
    """A club's season of classic: twelve members, three of each bot style, each coming to
    an evening with a chance of their own (30 % to 90 %), seated at random at tables of
    three to five (as many tables of about four as came), three games a table. Unlike the
    four bots always at one table, a member meets other opponents every evening and
    plays a number of games of their own. `learn`: the random members learn, and play as
    the sharp bot from the season's middle evening on (their names stay). Returns the
    games played."""
    rng = random.Random(seed)
    members = [
        (f"{style} {i}", style, rng.uniform(0.3, 0.9)) for i in (1, 2, 3) for style in STYLES
    ]
    rules, first = Ruleset.preset("classic"), datetime(2026, 1, 1, 20, tzinfo=UTC)
    played: list[GameRecord] = []
    for evening in range(evenings):
        here = [m for m in members if rng.random() < m[2]]
        rng.shuffle(here)
        if len(here) < 3:
            continue
        count = max(1, round(len(here) / 4))
        for t in range(count):
            table = here[t::count]
            names = tuple(m[0] for m in table)
            for g in range(3):
                game_seed = rng.getrandbits(40)
                game = Toepen(rules, names, seed=game_seed)
                styles = [
                    "sharp" if learn and m[1] == "random" and evening >= evenings // 2 else m[1]
                    for m in table
                ]
                play_game(game, [make_bot(st, game_seed + i) for i, st in enumerate(styles)])
                played.append(GameRecord(
                    game_id=content_id("c", seed, evening, t, g), rules=rules, players=names,
                    events=tuple(game.log), source="engine", seed=game_seed,
                    started_at=first + timedelta(days=evening, hours=g, minutes=t),
                ))  # fmt: skip
    dataset.write(played)
    return len(played)


def clubs(folder: Path, evenings: int, seed: int, seasons: int, learn: bool) -> None:
    """`seasons` club seasons (`club_season`), seeds from `seed` on: each one's log-losses,
    its styles' ratings for one season, and how often the ratings beat the win share."""
    better, losses = 0, []
    for n in range(seasons):
        dataset = Dataset(folder / f"club-{seed + n}")
        dataset.create()
        played = club_season(dataset, evenings, seed + n, learn)
        print(f"a club season (seed {seed + n}{', learning' if learn else ''}): "
              f"{played:,} games on {evenings} evenings")  # fmt: skip
        ratings_loss, share_loss = evaluate(game_results(connect(dataset), by_hand=True))
        better += ratings_loss < share_loss
        losses.append((ratings_loss, share_loss))
        if seasons == 1:
            update_ratings(dataset)
            by_style(dataset)
    print(f"held-out game losers: the ratings predict better than the win share in {better} "
          f"of {seasons} season{'s' if seasons > 1 else ''}; mean log-loss "
          f"{sum(r for r, _ in losses) / seasons:.4f} against the share's "
          f"{sum(s for _, s in losses) / seasons:.4f}")  # fmt: skip


def by_style(dataset: Dataset) -> None:
    """A club season's ratings, style by style: the members' mean μ, their games between
    them, each member's μ ± 2σ, and the games the style lost against its fair share (one
    game in n at a table of n): the order the statistics give."""
    lost: dict[str, float] = defaultdict(float)
    fair: dict[str, float] = defaultdict(float)
    for g in game_results(connect(dataset)):
        if g.places is None:
            continue
        for s, name in enumerate(g.players):
            fair[name.split()[0]] += 1 / len(g.players)
            lost[name.split()[0]] += g.places[s] == max(g.places)
    history = rating_history(connect(dataset), "toepen", with_simulated=True)
    latest = {str(r["player"]): r for r in history.sort("step").to_dicts()}
    for style in STYLES:
        rows = [r for name, r in latest.items() if name.split()[0] == style]
        mu = sum(float(r["mu"]) for r in rows) / len(rows)
        games = sum(int(r["games"]) for r in rows)
        each = ", ".join(f"{float(r['mu']):.1f} ± {INTERVAL * float(r['sigma']):.1f}" for r in rows)
        print(
            f"{style:9}: mean mu {mu:.2f}, {len(rows)} members, {games:,} games between"
            f" them, {lost[style] / fair[style]:.2f}x its fair share of games lost; {each}"
        )


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
    parser.add_argument(
        "--club", type=int, metavar="EVENINGS", help="simulate a club's season of EVENINGS instead"
    )
    parser.add_argument(
        "--learn", action="store_true", help="--club: the random members play sharp from midseason"
    )
    parser.add_argument(
        "--seasons", type=int, default=1, help="--club: this many seasons, seeds from --seed on"
    )
    args = parser.parse_args()
    if args.speed:
        speed(Dataset(args.speed))
        return
    with tempfile.TemporaryDirectory(prefix="rat-bench-") as tmp:
        path = args.dataset or Path(tmp) / "season"
        dataset = Dataset(path)
        if args.club:
            clubs(Path(tmp), args.club, args.seed, args.seasons, args.learn)
            return
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
