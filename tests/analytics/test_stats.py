"""Statistics: exact values on a hand-made dataset, and the bot styles seen in the data."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import player_stats
from kroeg.analytics.views import connect
from kroeg.parsers.files import import_files
from kroeg.recorder.errors import KroegError
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
COUNTS = ["hands", "won", "paid", "knocks", "knocks_won", "knocks_faced", "folds", "fold_cost",
          "swaps", "bluffs_caught", "checks", "checks_won"]  # fmt: skip

# Worked out by hand from the two files (the seed example, and the laundry night):
# see the comments in sample_logs/laundry-and-checks.txt and docs/STATS.md.
EXPECTED = {
    "Anna": [3, 1, 3, 1, 1, 2, 0, 0, 0, 0, 1, 1],
    "Ben": [3, 0, 7, 2, 0, 1, 0, 0, 0, 0, 1, 0],
    "Carla": [3, 1, 2, 0, 0, 2, 2, 2, 1, 0, 0, 0],
    "Dan": [3, 1, 4, 0, 0, 3, 1, 2, 1, 1, 0, 0],
}


@pytest.fixture(scope="module")
def handmade(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    dataset = Dataset(tmp_path_factory.mktemp("handmade") / "ds")
    files = [SAMPLES / "utf8-bom-crlf.txt", SAMPLES / "laundry-and-checks.txt"]
    reports = import_files(files, dataset.create())
    assert all(not r.rejected for r in reports)
    return dataset


def test_every_count_on_the_handmade_dataset(handmade: Dataset) -> None:
    frame = player_stats(connect(handmade))
    got = {row["player"]: [row[c] for c in COUNTS] for row in frame.iter_rows(named=True)}
    assert got == EXPECTED


def test_rates_and_small_sample_flags(handmade: Dataset) -> None:
    row = player_stats(connect(handmade), player="dan").row(0, named=True)
    assert row["win_rate"] == pytest.approx(1 / 3)
    assert row["cost_per_hand"] == pytest.approx(4 / 3)
    assert row["fold_rate"] == pytest.approx(1 / 3)
    assert row["cost_per_fold"] == pytest.approx(2.0)
    assert row["swaps_caught_rate"] == pytest.approx(1.0)
    assert row["knock_success"] is None  # Dan never knocked: no opportunity
    assert row["win_rate_small"] and row["fold_rate_small"]


def test_grouping_by_session_month_and_venue(handmade: Dataset) -> None:
    con = connect(handmade)
    sessions = player_stats(con, by="game")
    assert player_stats(con, by="session").equals(sessions)  # the old name still works
    assert sessions.height == 8 and set(sessions["hands"]) == {1, 2}
    months = player_stats(con, by="month")
    assert sorted(set(months["month"])) == ["2026-10", "2026-11"]
    venues = player_stats(con, by="venue")
    assert set(venues["venue"]) == {"Café De Kroeg"}
    october = player_stats(con, since=date(2026, 10, 1), until=date(2026, 10, 31))
    assert set(october["hands"]) == {2}


def test_unknown_player_and_grouping(handmade: Dataset) -> None:
    con = connect(handmade)
    with pytest.raises(KroegError) as err:
        player_stats(con, player="Eve")
    assert str(err.value) == (
        "no hands for player 'Eve' (expected a player (Anna, Ben, Carla, Dan), found 'Eve')"
    )
    with pytest.raises(KroegError) as err:
        player_stats(con, by="year")
    assert str(err.value) == (
        "unknown grouping 'year': expected one of player, game, month, venue, side"
    )


def test_an_empty_dataset_gives_no_rows(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "empty").create()
    con = connect(dataset)
    assert player_stats(con).is_empty()
    assert con.sql("SELECT count(*) FROM knocks").fetchall() == [(0,)]


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, float]]:
    """Per preset and style: the figures of a table of all four bot styles."""
    styles = ["random", "cautious", "bluffer", "sharp"]
    out = {}
    for preset in ("classic", "lives"):
        dataset = Dataset(tmp_path_factory.mktemp(preset) / "ds")
        dataset.write(simulate(Ruleset.preset(preset), 4, 3000, 8, styles))
        enrich(dataset, samples=16)
        frame = player_stats(connect(dataset))
        names = {"Anna": "random", "Ben": "cautious", "Carla": "bluffer", "Dan": "sharp"}
        out[preset] = {names[r["player"]]: r for r in frame.iter_rows(named=True)}
    return out


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "lives"])
def test_the_statistics_see_the_bot_styles(bots, preset: str) -> None:
    rows = bots[preset]
    assert max(rows, key=lambda s: rows[s]["fold_rate"]) == "cautious"
    assert max(rows, key=lambda s: rows[s]["knock_rate"]) == "bluffer"
    assert min(rows, key=lambda s: rows[s]["fold_rate"]) == "bluffer"


@pytest.mark.parametrize("preset", ["classic", "lives"])
def test_the_bluffer_has_the_highest_bluff_rate(bots, preset: str) -> None:
    rows = bots[preset]
    assert max(rows, key=lambda s: rows[s]["bluff_rate"]) == "bluffer"
    assert rows["bluffer"]["knocks_known"] == rows["bluffer"]["knocks"]  # engine logs: all known
    # The cautious and the sharp bots knock on strong hands only: the lowest bluff rates,
    # a knock or two that 16 playouts judge below the fair share.
    assert min(rows, key=lambda s: rows[s]["bluff_rate"]) in ("cautious", "sharp")
    assert rows["cautious"]["bluff_rate"] < 0.05 and rows["sharp"]["bluff_rate"] < 0.05


def test_the_sharp_bot_loses_the_fewest_lives_per_hand(bots) -> None:
    rows = bots["lives"]
    assert min(rows, key=lambda s: rows[s]["cost_per_hand"]) == "sharp"


def test_stored_counts_give_the_same_figures_and_follow_new_games(tmp_path: Path) -> None:
    from kroeg.analytics.totals import store_counts

    dataset = Dataset(tmp_path / "ds")
    dataset.write(simulate(Ruleset.preset("lives"), 4, 150, 3, ["random", "bluffer"]))
    live = player_stats(connect(dataset))
    assert store_counts(dataset) == len(dataset.game_ids())
    assert store_counts(dataset) == 0
    assert player_stats(connect(dataset)).equals(live)
    dataset.write(simulate(Ruleset.preset("lives"), 4, 60, 4, ["random", "bluffer"]))
    mixed = player_stats(connect(dataset))  # the new games are not stored: counted live
    assert int(mixed["hands"].sum()) > int(live["hands"].sum())
    assert store_counts(dataset) >= 1
    assert player_stats(connect(dataset)).equals(mixed)
    shutil.rmtree(dataset.path / "derived" / "seat_counts")  # nothing stored: all live
    assert player_stats(connect(dataset)).equals(mixed)


def test_the_registry_writes_every_cell_one_way() -> None:
    from kroeg.analytics.stats import STAT_BY_NAME

    bluffs, per_fold = STAT_BY_NAME["bluff_rate"], STAT_BY_NAME["cost_per_fold"]
    assert bluffs.cell(5, 12) == "42% 5/12*"
    assert bluffs.cell(0, 0) == "-"
    assert bluffs.cell(30, 40) == "75% 30/40"
    assert per_fold.cell(3, 4) == "0.75 3/4*" and per_fold.cell(3, 4, counts=False) == "0.75"
    assert per_fold.lower_is_better and not bluffs.lower_is_better


def test_every_statistic_of_the_registry_is_a_column_beside_its_counts(handmade) -> None:
    from kroeg.analytics.stats import STATS

    frame = player_stats(connect(handmade))
    for stat in STATS:
        assert {stat.name, stat.done, stat.opportunities, f"{stat.name}_small"} <= set(
            frame.columns
        )
        assert stat.definition and stat.label
