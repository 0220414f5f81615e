"""Troefcall statistics: exact values on the sample evening, and the bots seen in the data."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.analytics.stats import player_stats, troefcall_stats
from kroeg.analytics.views import connect
from kroeg.parsers.files import import_files
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
COUNTS = ["hands", "calls", "calls_made", "kaps", "baunies", "baunies_won", "tricks",
          "tricks_against", "points"]  # fmt: skip

# Worked out by hand from sample_logs/troefcall-evening.txt, trick by trick:
# hand 1 (spades, Anna calls): Anna & Carla take 7 in a row, Carla kaps: 5 to them.
# hand 2 (hearts, Ben calls): Anna & Carla take tricks 1-5, Ben & Dan 6-13: 2 to Ben & Dan.
# hand 3 (spades, Carla calls): Anna & Carla take 6, 7, 9, 11, 12: 2 to Ben & Dan.
EXPECTED = {
    "Anna": [3, 1, 1, 1, 0, 0, 17, 16, 5],
    "Ben": [3, 1, 1, 0, 0, 0, 16, 17, 4],
    "Carla": [3, 1, 0, 1, 0, 0, 17, 16, 5],
    "Dan": [3, 0, 0, 0, 0, 0, 16, 17, 4],
}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    dataset = Dataset(tmp_path_factory.mktemp("troef") / "ds")
    files = [SAMPLES / "troefcall-evening.txt", SAMPLES / "utf8-bom-crlf.txt"]
    reports = import_files(files, dataset.create())
    assert all(not r.rejected for r in reports)
    return dataset


def test_every_count_equals_the_hand_worked_value(evening: Dataset) -> None:
    frame = troefcall_stats(connect(evening))
    assert frame["player"].to_list() == sorted(EXPECTED)
    for row in frame.iter_rows(named=True):
        assert [row[c] for c in COUNTS] == EXPECTED[row["player"]], row["player"]
    anna = frame.row(0, named=True)
    assert anna["calls_made_rate"] == 1.0 and anna["kap_rate"] == pytest.approx(1 / 3)
    assert anna["tricks_per_hand"] == pytest.approx(17 / 3) and anna["kap_rate_small"]


def test_sides_add_up_their_players(evening: Dataset) -> None:
    frame = troefcall_stats(connect(evening), by="side")
    rows = {r["player"]: r for r in frame.iter_rows(named=True)}
    assert set(rows) == {"Anna & Carla", "Ben & Dan"}
    assert [rows["Anna & Carla"][c] for c in COUNTS] == [3, 2, 1, 1, 0, 0, 17, 16, 5]
    assert [rows["Ben & Dan"][c] for c in COUNTS] == [3, 1, 1, 0, 0, 0, 16, 17, 4]


def test_toepen_figures_leave_troefcall_hands_out(evening: Dataset) -> None:
    toepen = player_stats(connect(evening))
    assert toepen["hands"].to_list() == [1, 1, 1, 1]  # the one Toepen hand of the other file
    # Toepen's sides are team toepen's partnerships: none here (Troefcall's are its own).
    assert player_stats(connect(evening), by="side").is_empty()


def test_sharp_bots_make_their_calls_good_and_kap_more_than_random_bots(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "bots").create()
    dataset.write(simulate(Ruleset.preset("troefcall"), 4, 600, 5, ["sharp", "random"]))
    rows = {
        r["player"]: r for r in troefcall_stats(connect(dataset), by="side").iter_rows(named=True)
    }
    sharp, random = rows["Anna & Carla"], rows["Ben & Dan"]
    assert sharp["calls_made_rate"] > random["calls_made_rate"] + 0.3
    assert sharp["kaps"] > 3 * max(random["kaps"], 1)
    assert sharp["tricks_per_hand"] > 6.5 > random["tricks_per_hand"]
    assert sharp["tricks"] + random["tricks"] == sharp["tricks_against"] + random["tricks_against"]


def test_the_statistics_follow_the_scores_a_rule_set_gives(tmp_path: Path) -> None:
    """No Troefcall constant is restated in SQL: change kap's points and the figures follow."""
    from dataclasses import replace

    base = replace(
        Ruleset.preset("troefcall").with_variants("silent-kap"), target_score=None, fixed_hands=25
    )
    richer = replace(base, kap_points=9)
    figures = {}
    for name, rules in (("base", base), ("richer", richer)):
        dataset = Dataset(tmp_path / name).create()
        dataset.write(simulate(rules, 4, 400, seed=5, styles=["sharp", "random"]))
        rows = troefcall_stats(connect(dataset), by="side").iter_rows(named=True)
        figures[name] = {r["player"]: (r["hands"], r["kaps"], r["points"]) for r in rows}
    # The same seed plays the same cards (the game length is fixed, not a target score).
    for side, (hands, kaps, points) in figures["base"].items():
        richer_hands, richer_kaps, richer_points = figures["richer"][side]
        assert (richer_hands, richer_kaps) == (hands, kaps)
        assert richer_points == points + (9 - 5) * kaps  # a silent kap is all a kap scores
    assert sum(kaps for _, kaps, _ in figures["base"].values()) > 0


def test_a_side_is_named_the_same_in_sql_and_in_python(evening: Dataset) -> None:
    games = [g for g in evening.read_games() if g.game_type == "troefcall"]
    sides = {
        r["player"] for r in troefcall_stats(connect(evening), by="side").iter_rows(named=True)
    }
    assert (
        sides
        == {g.side_name(side) for g in games for side in (0, 1)}
        == {
            "Anna & Carla",
            "Ben & Dan",
        }
    )


def test_a_partnership_has_one_name_wherever_its_players_sat(tmp_path: Path) -> None:
    """The same two pairs in two seatings (Anna first, then Carla first): one row each in
    `--by side`, named as `kroeg hill` and the engine's words name them (alphabetical),
    where the seat order made `Carla & Anna` a partnership of its own."""
    import dataclasses

    from kroeg.analytics.hill import hill_standings
    from kroeg.recorder.records import side_name

    first, second = list(simulate(Ruleset.preset("troefcall"), 4, 60, 5))[:2]
    seated = [
        dataclasses.replace(first, players=("Anna", "Ben", "Carla", "Dan")),
        dataclasses.replace(second, players=("Carla", "Dan", "Anna", "Ben")),
    ]
    assert side_name(seated[1].players, seated[1].teams or (), 0) == "Anna & Carla"
    dataset = Dataset(tmp_path / "two")
    dataset.write(seated)
    con = connect(dataset)
    sides = troefcall_stats(con, by="side")
    hands = {g.game_id: g.hands for g in seated}
    assert sides["player"].to_list() == ["Anna & Carla", "Ben & Dan"]
    assert sides["hands"].to_list() == [sum(hands.values())] * 2
    # The sample king-of-the-hill evening: its pairs are the sides `--by side` shows (it
    # said `Sharda & Ingrid`, by seat, where the hill said `Ingrid & Sharda`).
    hill = Dataset(tmp_path / "hill")
    (report,) = import_files([SAMPLES / "troefcall-king-of-the-hill.txt"], hill)
    assert not report.rejected
    con = connect(hill)
    pairs = set(hill_standings(con, None, None).pairs["pair"])
    assert pairs == set(troefcall_stats(con, by="side")["player"])
    assert "Ingrid & Sharda" in pairs
