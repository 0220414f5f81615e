"""A king-of-the-hill evening's standings (analytics.hill), on an evening made by hand."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from kroeg.analytics.hill import hill_csv, hill_evenings, hill_json, hill_standings, hill_text
from kroeg.analytics.views import connect
from kroeg.recorder.errors import NotFoundError, UsageError
from kroeg.recorder.hill import HillReferee
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from tests.recorder.hill_games import TWO_HANDS, played

DAY = date(2026, 11, 27)


def evening() -> list[GameRecord]:
    """Seven games at Café Paramaribo, 20:00 to 23:00 (seats 1 & 3 against 2 & 4):

    1. Anna, Ben, Carla, Dan: Ben & Dan win.
    2. Eva, Ben, Frits, Dan: Ben & Dan win (a reign of 2).
    3. Anna, Ben, Carla, Dan: Anna & Carla win (Ben & Dan's reign ends).
    4. Anna, Eva, Carla, Frits: Anna & Carla win.
    5. Anna, Ben, Carla, Dan: Anna & Carla win (a reign of 3).
    6. Anna, Eva, Carla, Frits: a draw (two hands, equal points): the reign ends.
    7. Ben, Anna, Eva, Carla: Ben & Eva win (after a draw any four may sit down).

    Pairs, worked out by hand (games together, wins, longest reign):
    Anna & Carla 6, 3, 3 (games 1, 3-7; won 3, 4, 5); Ben & Dan 4, 2, 2 (games 1, 2, 3, 5;
    won 1, 2); Ben & Eva 1, 1, 1; Eva & Frits 3, 0, 0 (games 2, 4, 6).
    Players (games, wins): Ben 5, 3 (1, 2, 3, 5, 7; won 1, 2, 7); Anna 6, 3; Carla 6, 3;
    Dan 4, 2; Eva 4, 1 (2, 4, 6, 7; won 7); Frits 3, 0.
    """
    return [
        played(("Anna", "Ben", "Carla", "Dan"), ("Ben", "Dan"), 1),
        played(("Eva", "Ben", "Frits", "Dan"), ("Ben", "Dan"), 2),
        played(("Anna", "Ben", "Carla", "Dan"), ("Anna", "Carla"), 3),
        played(("Anna", "Eva", "Carla", "Frits"), ("Anna", "Carla"), 4),
        played(("Anna", "Ben", "Carla", "Dan"), ("Anna", "Carla"), 5),
        played(("Anna", "Eva", "Carla", "Frits"), None, 6, rules=TWO_HANDS),
        played(("Ben", "Anna", "Eva", "Carla"), ("Ben", "Eva"), 7),
    ]


@pytest.fixture
def club(tmp_path: Path) -> Dataset:
    games = evening()
    hill = HillReferee()
    for game in games:
        hill.check(game)  # a legal evening
    others = [
        # the same evening's game on its own, and another evening: neither counts
        replace(
            played(("Anna", "Ben", "Carla", "Dan"), ("Anna", "Carla"), 9, evening=None),
            game_id="alone-9",
        ),
        replace(
            played(("Anna", "Ben", "Carla", "Dan"), ("Anna", "Carla"), 1, venue="De Kroeg"),
            game_id="kroeg-1",
        ),
    ]
    dataset = Dataset(tmp_path / "club").create()
    dataset.write([*games, *others])
    return dataset


def test_the_pairs_and_players_of_the_evening(club: Dataset) -> None:
    found = hill_standings(connect(club), DAY, "Café Paramaribo")
    assert (found.day, found.venue, found.games) == (DAY, "Café Paramaribo", 7)
    assert found.pairs.rows() == [
        ("Anna & Carla", 6, 3, 3),
        ("Ben & Dan", 4, 2, 2),
        ("Ben & Eva", 1, 1, 1),
        ("Eva & Frits", 3, 0, 0),
    ]
    assert found.players.rows() == [
        ("Ben", 5, 3), ("Anna", 6, 3), ("Carla", 6, 3), ("Dan", 4, 2), ("Eva", 4, 1),
        ("Frits", 3, 0),
    ]  # fmt: skip


def test_choosing_the_evening(club: Dataset) -> None:
    con = connect(club)
    assert hill_evenings(con).rows() == [(DAY, "Café Paramaribo", 7), (DAY, "De Kroeg", 1)]
    with pytest.raises(UsageError, match="choose one with --venue"):
        hill_standings(con)
    assert hill_standings(con, venue="De Kroeg").pairs.rows() == [
        ("Anna & Carla", 1, 1, 1), ("Ben & Dan", 1, 0, 0),
    ]  # fmt: skip
    with pytest.raises(NotFoundError, match="no king-of-the-hill evening on 2026-11-28"):
        hill_standings(con, date(2026, 11, 28))


def test_the_three_ways_to_write_it(club: Dataset) -> None:
    found = hill_standings(connect(club), DAY, "Café Paramaribo")
    text = hill_text(found)
    assert text.startswith("King of the hill, 2026-11-27 at Café Paramaribo: 7 games\n")
    assert "Anna & Carla  6      3     3" in text
    csv = hill_csv(found).splitlines()
    assert csv[0] == "day,venue,standing,name,games,wins,longest_reign"
    assert csv[1] == "2026-11-27,Café Paramaribo,pair,Anna & Carla,6,3,3"
    assert csv[5] == "2026-11-27,Café Paramaribo,player,Ben,5,3,"
    data = json.loads(hill_json(found))
    assert data["pairs"][0] == {"pair": "Anna & Carla", "games": 6, "wins": 3, "longest_reign": 3}
    assert data["players"][-1] == {"player": "Frits", "games": 3, "wins": 0}


def test_a_dataset_landed_before_the_column_still_reads(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "old").create()
    dataset.write(evening()[:2])
    (path,) = dataset.table_files("games")
    table = pq.read_table(path)
    old = table.drop_columns(["evening"]).replace_schema_metadata(table.schema.metadata)
    pq.write_table(old, path)
    assert [g.evening for g in dataset.read_games()] == [None, None]
    con = connect(dataset)
    assert con.sql("SELECT count(*), count(evening) FROM games").fetchall() == [(2, 0)]
    assert hill_evenings(con).is_empty()
    with pytest.raises(NotFoundError, match="no king-of-the-hill evening"):
        hill_standings(con)
