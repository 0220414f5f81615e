"""Ratings (analytics.ratings): the bots in order, the same data the same ratings, stored
once and continued, sides rated together, and the update a Bayesian one: close to the
exact posterior, and finding the chances the games were played with."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from kroeg.analytics.ratings import (
    MU,
    PROVISIONAL_GAMES,
    SCALE,
    SIGMA,
    GameResult,
    Rater,
    Rating,
    _places,
    chances_last,
    rating_history,
    ratings_frame,
    update,
    update_ratings,
)
from kroeg.analytics.views import connect
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

STYLES = ("random", "cautious", "bluffer", "sharp")  # Anna, Ben, Carla, Dan
START = datetime(2026, 9, 1, 20, 0, tzinfo=UTC)


def season(path: Path, hands: int = 1500, seed: int = 3, start: datetime = START) -> Dataset:
    dataset = Dataset(path)
    if not dataset.exists():
        dataset.create()
    simulate_into(dataset, Ruleset.preset("classic"), 4, hands, seed, STYLES, start=start)
    return dataset


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return season(tmp_path_factory.mktemp("ratings") / "season")


def _exact_posterior(a: Rating, b: Rating, steps: int = 241) -> list[tuple[float, float]]:
    """The exact posterior mean and sd of two players' skills after `a` placed last, by
    summing prior × likelihood over a grid (±6σ each): what the update approximates."""
    xs = [a.mu + a.sigma * (12 * i / (steps - 1) - 6) for i in range(steps)]
    ys = [b.mu + b.sigma * (12 * j / (steps - 1) - 6) for j in range(steps)]
    total = sx = sy = sxx = syy = 0.0
    for x in xs:
        px = math.exp(-((x - a.mu) ** 2) / (2 * a.sigma**2))
        for y in ys:
            w = px * math.exp(-((y - b.mu) ** 2) / (2 * b.sigma**2))
            w /= 1 + math.exp((x - y) / SCALE)  # P(a last) = e^(−x/C) / (e^(−x/C) + e^(−y/C))
            total, sx, sy, sxx, syy = (
                total + w,
                sx + w * x,
                sy + w * y,
                sxx + w * x * x,
                syy + w * y * y,
            )
    mx, my = sx / total, sy / total
    return [(mx, math.sqrt(sxx / total - mx * mx)), (my, math.sqrt(syy / total - my * my))]


@pytest.mark.parametrize(
    ("a", "b"),
    [((MU, SIGMA), (MU, SIGMA)), ((30, 3), (20, 6)), ((25, 1), (25, 8)), ((35, 2), (15, 2))],
)
def test_one_game_moves_the_ratings_as_the_exact_posterior_does(
    a: tuple[float, float], b: tuple[float, float]
) -> None:
    loser, winner = Rating(*a), Rating(*b)
    exact = _exact_posterior(loser, winner)
    update([[loser], [winner]], [1, 0], tau=0.0)
    for rating, (mean, sd) in zip((loser, winner), exact, strict=True):
        assert rating.mu == pytest.approx(mean, abs=0.25)  # new players: 0.17 off, at most
        assert rating.sigma == pytest.approx(sd, rel=0.02)
    assert loser.mu < a[0] and winner.mu > b[0]


def test_the_ratings_find_the_chances_the_games_were_played_with() -> None:
    """Ten players of known skill at changing tables of three to five, each game's loser
    drawn with the model's own chances: the ratings find the skills' differences (their
    mean is not identified: only differences decide a game)."""
    rng = random.Random(11)
    skills = [10 + 3 * i for i in range(10)]
    ratings = [Rating() for _ in skills]
    for _ in range(6000):
        table = rng.sample(range(10), rng.randint(3, 5))
        chances = chances_last([skills[i] for i in table])
        loser = rng.choices(range(len(table)), weights=chances)[0]
        update([[ratings[i]] for i in table], [int(k == loser) for k in range(len(table))])
    shift = sum(r.mu - s for r, s in zip(ratings, skills, strict=True)) / len(skills)
    for rating, skill in zip(ratings, skills, strict=True):
        assert rating.mu - shift == pytest.approx(skill, abs=2 * rating.sigma + 0.5)
    assert [r.mu for r in ratings] == sorted(r.mu for r in ratings)


def test_a_place_shared_counts_each_side_in_part_and_the_best_place_says_nothing() -> None:
    def rated(ranks: list[int]) -> list[float]:
        teams = [[Rating()] for _ in ranks]
        update(teams, ranks, tau=0.0)
        return [t[0].mu for t in teams]

    alone = rated([0, 0, 0, 1])  # classic: one loser, three tied above
    assert alone[0] == alone[1] == alone[2] > MU > alone[3]
    shared = rated([0, 0, 1, 1])  # two share last place: each down, less than a lone last
    assert shared[0] == shared[1] > MU > shared[2] == shared[3] > alone[3]
    order = rated([0, 1, 2, 3])  # lives: the order out, a step per place
    assert order == sorted(order, reverse=True) and order[0] > alone[0]
    assert rated([0, 0]) == [MU, MU]  # one place for all: nothing to learn


def test_the_bots_are_rated_in_the_order_of_the_games_they_lose(bots: Dataset) -> None:
    frame = ratings_frame(connect(bots), "toepen", with_simulated=True)
    mu = dict(zip(frame["player"].to_list(), frame["mu"].to_list(), strict=True))
    # Anna plays random, Dan sharp: the sharp bot loses a game far less often.
    assert mu["Dan"] > mu["Anna"] + 3
    assert mu["Ben"] > mu["Anna"]  # cautious
    assert frame["games"].to_list() == [frame["games"][0]] * 4
    assert not frame["provisional"].any()


def test_bot_games_and_club_games_are_never_rated_together(bots: Dataset) -> None:
    assert ratings_frame(connect(bots), with_simulated=False).is_empty()
    assert not ratings_frame(connect(bots), with_simulated=True).is_empty()


def test_the_same_games_give_the_same_ratings(bots: Dataset, tmp_path: Path) -> None:
    first = ratings_frame(connect(bots), with_simulated=True)
    again = ratings_frame(connect(season(tmp_path / "again")), with_simulated=True)
    assert first.equals(again)
    update_ratings(bots)  # stored, then read back: the same to the last bit
    assert first.equals(ratings_frame(connect(bots), with_simulated=True))


def test_stored_once_and_a_later_game_continues_from_the_stored(tmp_path: Path) -> None:
    dataset = season(tmp_path / "ds", hands=400)
    first = update_ratings(dataset)
    assert first == len(dataset.game_ids())
    assert update_ratings(dataset) == 0  # nothing new: nothing rated again
    files = dataset.files("derived/ratings")
    season(tmp_path / "ds", hands=200, seed=9, start=datetime(2026, 12, 1, 20, tzinfo=UTC))
    added = update_ratings(dataset)
    assert added == len(dataset.game_ids()) - first  # only the new games
    assert set(files) < set(dataset.files("derived/ratings"))  # the old file kept
    continued = rating_history(connect(dataset), with_simulated=True)
    dataset.remove_derived("ratings")
    assert update_ratings(dataset) == len(dataset.game_ids())
    assert continued.equals(rating_history(connect(dataset), with_simulated=True))


def test_a_game_dated_before_the_rated_ones_rates_every_game_again(tmp_path: Path) -> None:
    dataset = season(tmp_path / "ds", hands=300)
    update_ratings(dataset)
    season(tmp_path / "ds", hands=100, seed=9, start=datetime(2026, 1, 1, 20, tzinfo=UTC))
    assert update_ratings(dataset) == len(dataset.game_ids())
    history = rating_history(connect(dataset), with_simulated=True)
    assert history["step"].unique().sort().to_list() == list(range(len(dataset.game_ids())))
    first = history.sort("step").row(0, named=True)
    assert first["started_at"].year == 2026 and first["started_at"].month == 1


def test_a_removal_cut_short_is_noticed_and_rated_again(tmp_path: Path) -> None:
    dataset = season(tmp_path / "ds", hands=300)
    update_ratings(dataset)
    season(tmp_path / "ds", hands=100, seed=9, start=datetime(2026, 12, 1, 20, tzinfo=UTC))
    update_ratings(dataset)
    whole = rating_history(connect(dataset), with_simulated=True)
    first = next(p for p in dataset.files("derived/ratings")
                 if 0 in dataset.read_file(p).column("step").to_pylist())  # fmt: skip
    first.unlink()  # the first of two files went: the steps no longer start at 0
    assert rating_history(connect(dataset), with_simulated=True).equals(whole)  # worked out again
    assert update_ratings(dataset) == len(dataset.game_ids())


def test_partners_are_rated_through_their_side(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "troef").create()
    simulate_into(dataset, Ruleset.preset("troefcall"), 4, 300, 3, ("sharp", "random"))
    frame = ratings_frame(connect(dataset), "troefcall", with_simulated=True)
    mu = dict(zip(frame["player"].to_list(), frame["mu"].to_list(), strict=True))
    assert mu["Anna"] == mu["Carla"] and mu["Ben"] == mu["Dan"]  # partners move together
    assert mu["Anna"] > mu["Ben"]  # the sharp pair above the random one


def test_places_come_from_the_engines_rows() -> None:
    seats = (0, 1, 2, 3)
    # Classic: game_end names the loser only; the others tied, whatever they paid.
    assert _places(seats, [("game_end", None, 2)], [3, 1, 15, 3]) == (0, 0, 1, 0)
    # Lives: the winner, and who went out in order (the last out placed best of those).
    rows = [("eliminated", 1, None), ("eliminated", 3, None), ("game_end", 0, None)]
    assert _places(seats, rows, [5, 9, 2, 9]) == (0, 3, 1, 2)
    # Stopped part way: as it stood; Troefcall's points (score rows) count against cost.
    assert _places((0, 1, 0, 1), [], [-12, 0, -3, -2]) == (0, 1, 0, 1)
    assert _places(seats, [], [4, 1, 4, 0]) == (2, 1, 2, 0)
    assert _places(seats, [], []) is None  # not a hand finished: nothing to rank


def test_a_game_without_a_result_moves_no_rating_and_counts_no_game() -> None:
    rater = Rater()
    game = GameResult("g", "toepen", False, None, ("A", "B"), None, (), None)
    (a, b) = rater.play(game)
    assert (a["mu"], a["games"], a["hands"]) == (MU, 0, 0)
    assert (b["mu"], b["games"]) == (MU, 0)


def test_provisional_until_the_documented_number_of_games(bots: Dataset) -> None:
    history = rating_history(connect(bots), "toepen", with_simulated=True)
    anna = history.filter(pl.col("player") == "Anna").sort("step")
    assert anna.filter(pl.col("games") < PROVISIONAL_GAMES)["provisional"].all()
    assert not anna.filter(pl.col("games") >= PROVISIONAL_GAMES)["provisional"].any()


def test_the_chart_numbers_each_pool_s_games_before_it_thins_them(bots: Dataset) -> None:
    """A chart keeps at most `points` of a player's games; each kept point keeps its
    game's number among the pool's rated games, counted from 1."""
    from kroeg.analytics.ratings import rating_chart, rating_history

    con = connect(bots)
    history = rating_history(con, "toepen", True).filter(pl.col("games") > 0)
    numbers = {s: n for n, s in enumerate(sorted(set(history["step"].to_list())), 1)}
    whole = rating_chart(con, "toepen", True, points=10_000)
    thin = rating_chart(con, "toepen", True, points=5)
    assert len(thin) < len(whole) and thin["game"].max() == len(numbers)
    for chart in (whole, thin):
        assert all(numbers[r["step"]] == r["game"] for r in chart.iter_rows(named=True))
