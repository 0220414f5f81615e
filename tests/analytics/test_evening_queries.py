"""The queries the dashboard's Evenings, Games and Replay pages ask (analytics.evenings,
.games, .pages): exact answers on the sample logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.analytics.evenings import (
    chosen,
    evening_games_frame,
    evening_numbers,
    evenings_frame,
    toepen_out,
)
from kroeg.analytics.games import recent_games, toepen_units
from kroeg.analytics.views import connect
from kroeg.parsers import notation
from kroeg.recorder.rules import PRESETS
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def club(tmp_path: Path) -> Dataset:
    dataset = Dataset(tmp_path / "club")
    for name in ("classic-evening.txt", "lives-armoede-cut.txt", "team-toepen-evening.txt"):
        dataset.write(notation.load(SAMPLES / name))
    # One bot game (4 players, 3 hands).
    dataset.write(simulate(PRESETS["classic"], 4, 3, seed=5, styles=("bluffer", "cautious")))
    return dataset


def test_evenings_are_a_day_a_venue_and_bots_or_not(club: Dataset) -> None:
    con = connect(club)
    frame = evenings_frame(con, None)
    typed = frame.filter(~frame["simulated"])
    assert typed["key"].to_list() == [
        "2026-11-27|Café De Kroeg|false",
        "2026-11-20|Clubhuis De Troef|false",
        "2026-11-06|Clubhuis De Troef|false",
    ]
    assert typed["games"].to_list() == [2, 1, 1]
    assert frame.filter(frame["simulated"])["games"].to_list() == [1]
    assert all(k.endswith("|true") for k in frame.filter(frame["simulated"])["key"])
    # An evening's games, in order, and how many it has.
    games = evening_games_frame(con, "2026-11-27|Café De Kroeg|false", None, 1)
    assert games["time"].to_list() == ["20:30"] and games["n"].to_list() == [2]
    # The filters' games: only the lives evening's one game is counted.
    (lives,) = notation.load(SAMPLES / "lives-armoede-cut.txt")
    assert evening_numbers(con, [lives.game_id])["games"] == 1
    assert evening_numbers(con, [lives.game_id])["players"] == 4
    assert evenings_frame(con, [lives.game_id])["key"].to_list() == [
        "2026-11-20|Clubhuis De Troef|false"
    ]


def test_who_went_out_is_the_engines_word(club: Dataset) -> None:
    con = connect(club)
    (lives,) = notation.load(SAMPLES / "lives-armoede-cut.txt")
    assert toepen_out(con, lives.game_id) == [0, 2]  # Anna after hand 2, Carla after hand 5
    (team,) = notation.load(SAMPLES / "team-toepen-evening.txt")
    assert toepen_out(con, team.game_id) == []


def test_games_lists_put_a_wanted_game_first_and_follow_the_filters(club: Dataset) -> None:
    con = connect(club)
    (lives,) = notation.load(SAMPLES / "lives-armoede-cut.txt")
    (team,) = notation.load(SAMPLES / "team-toepen-evening.txt")
    frame = recent_games(con, team.game_id, [lives.game_id])
    assert frame["game_id"].to_list() == [team.game_id, lives.game_id]
    assert frame["time"].to_list() == ["2026-11-06 20:30", "2026-11-20 21:00"]
    assert frame["simulated"].to_list() == [False, False]
    assert toepen_units(con, [lives.game_id]) == ["lives"]
    assert chosen(None) == ("true", [])
