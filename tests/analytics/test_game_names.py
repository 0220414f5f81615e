"""A game's name (analytics.evenings.game_names): its evening's day, its order in that
evening, its start time and its players; never its id."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from pathlib import Path

import pytest

from kroeg.analytics.evenings import ROSTER_WIDTH, game_names
from kroeg.analytics.views import connect
from kroeg.parsers import notation
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def toepen() -> GameRecord:
    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")  # Anna, Ben, Carla, Dan
    return game


def at(
    game: GameRecord, game_id: str, when: str | None, venue: str = "De Kroon", **changes: object
) -> GameRecord:
    """`game` again as another game: its id, start (`2026-11-20 20:30`) and venue."""
    started = None if when is None else datetime.fromisoformat(when)
    return dataclasses.replace(game, game_id=game_id, started_at=started, venue=venue, **changes)


def _written(tmp_path: Path, games: list[GameRecord]) -> Dataset:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(games)
    return dataset


def names(tmp_path: Path, games: list[GameRecord]) -> dict[str, str]:
    named = game_names(connect(_written(tmp_path, games)), None)
    return {game_id: str(name) for game_id, name in named.items()}


def test_an_evenings_games_are_numbered_in_the_order_played(
    tmp_path: Path, toepen: GameRecord
) -> None:
    """Three games on one night: game 1, 2, 3 by start time, two at one time by id (the
    only order the dataset knows); a filter showing one game leaves its number alone."""
    games = [
        at(toepen, "e3", "2026-11-20 22:15"),
        at(toepen, "e2", "2026-11-20 20:30"),
        at(toepen, "e1", "2026-11-20 20:30"),
    ]
    assert names(tmp_path, games) == {
        "e1": "20 Nov, game 1, 20:30 — Anna, Ben, Carla, Dan",
        "e2": "20 Nov, game 2, 20:30 — Anna, Ben, Carla, Dan",
        "e3": "20 Nov, game 3, 22:15 — Anna, Ben, Carla, Dan",
    }
    (third,) = game_names(connect(Dataset(tmp_path / "ds")), ["e3"]).values()
    assert (third.number, third.of, third.order) == (3, 3, "game 3")
    assert third.in_evening == "Game 3, 22:15 — Anna, Ben, Carla, Dan"


def test_an_evening_of_one_game_has_no_number(tmp_path: Path, toepen: GameRecord) -> None:
    """`game 1` would say there were more: a game alone on its evening has its time only."""
    (name,) = game_names(
        connect(_written(tmp_path, [at(toepen, "e1", "2026-11-20 20:30")])), None
    ).values()
    assert str(name) == "20 Nov, 20:30 — Anna, Ben, Carla, Dan"
    assert name.order == ""
    assert name.in_evening == "20:30 — Anna, Ben, Carla, Dan"


def test_two_evenings_on_one_day_are_told_apart_by_their_venue(
    tmp_path: Path, toepen: GameRecord
) -> None:
    """An evening is a day at a venue: on a day of two, each name says its venue and each
    evening counts its own games; another day's games say no venue."""
    games = [
        at(toepen, "e1", "2026-11-20 20:30", "De Kroon"),
        at(toepen, "e2", "2026-11-20 21:30", "De Kroon"),
        at(toepen, "e3", "2026-11-20 21:00", "Paramaribo"),
        at(toepen, "e4", "2026-11-21 21:00", "Paramaribo"),
    ]
    assert names(tmp_path, games) == {
        "e1": "20 Nov at De Kroon, game 1, 20:30 — Anna, Ben, Carla, Dan",
        "e2": "20 Nov at De Kroon, game 2, 21:30 — Anna, Ben, Carla, Dan",
        "e3": "20 Nov at Paramaribo, 21:00 — Anna, Ben, Carla, Dan",
        "e4": "21 Nov, 21:00 — Anna, Ben, Carla, Dan",
    }


def test_the_club_and_the_bots_on_one_day(tmp_path: Path, toepen: GameRecord) -> None:
    """The club's games and the bots' are evenings apart: the bots' names always say so
    (on a day of their own too), and a venue is said only among evenings of one kind (the
    bots played at two venues)."""
    games = [
        at(toepen, "e1", "2026-11-20 20:30"),
        at(toepen, "e2", "2026-11-20 20:30", source="engine"),
        at(toepen, "e3", "2026-11-20 21:00", "Paramaribo", source="engine"),
        at(toepen, "e4", "2026-11-21 21:00", "Paramaribo", source="engine"),
    ]
    assert names(tmp_path, games) == {
        "e1": "20 Nov, 20:30 — Anna, Ben, Carla, Dan",
        "e2": "20 Nov at De Kroon (bots), 20:30 — Anna, Ben, Carla, Dan",
        "e3": "20 Nov at Paramaribo (bots), 21:00 — Anna, Ben, Carla, Dan",
        "e4": "21 Nov (bots), 21:00 — Anna, Ben, Carla, Dan",
    }


def test_games_without_a_start_time_and_of_another_year(tmp_path: Path, toepen: GameRecord) -> None:
    """Undated games are an evening of their own, numbered by id; a game of a year before
    the dataset's latest says its year."""
    games = [
        at(toepen, "e1", None),
        at(toepen, "e2", None),
        at(toepen, "e3", "2025-11-20 20:30"),
        at(toepen, "e4", "2026-01-02 20:30"),
    ]
    assert names(tmp_path, games) == {
        "e1": "Undated, game 1 — Anna, Ben, Carla, Dan",
        "e2": "Undated, game 2 — Anna, Ben, Carla, Dan",
        "e3": "20 Nov 2025, 20:30 — Anna, Ben, Carla, Dan",
        "e4": "2 Jan, 20:30 — Anna, Ben, Carla, Dan",
    }
    dataset = Dataset(tmp_path / "ds")
    (alone,) = game_names(connect(dataset), ["e1"]).values()
    assert alone.in_evening == "Game 1 — Anna, Ben, Carla, Dan"


def test_team_games_are_named_by_their_sides(tmp_path: Path) -> None:
    """Sides as every page names them (`side_name`): `Anna & Carla v Ben & Dan`; three
    sides of two too long for a phone, each by its first player."""
    (four,) = notation.load(SAMPLES / "team-toepen-evening.txt")
    (six,) = notation.load(SAMPLES / "team-six-players.txt")
    (troef,) = notation.load(SAMPLES / "troefcall-evening.txt")
    assert names(tmp_path, [four, six, troef]) == {
        four.game_id: "6 Nov, 20:30 — Anna & Carla v Ben & Dan",
        six.game_id: "14 Nov, 20:30 — Anna +1 v Ben +1 v Carla +1",
        troef.game_id: "20 Nov, 21:00 — Anna & Carla v Ben & Dan",
    }


def test_a_long_roster_is_cut_to_fit_a_phone(tmp_path: Path, toepen: GameRecord) -> None:
    """Seven players, or names of any length: as many as fit in ROSTER_WIDTH, then `+3`;
    the first always, shortened."""
    seven = notation.load(SAMPLES / "laundry-checked-before-swap.txt")[0]
    long = at(toepen, "e1", "2026-11-21 20:30", players=(
        "Bartholomeus van der Berg", "Anna", "Ben", "Carla"))  # fmt: skip
    named = names(tmp_path, [seven, long])
    assert named == {
        seven.game_id: "28 Nov, 20:00 — Anna, Ben, Carla, Dan +3",
        "e1": "21 Nov, 20:30 — Bartholomeus va… +3",
    }
    assert all(len(n.split(" — ")[1]) <= ROSTER_WIDTH for n in named.values())


def test_hostile_names_are_plain_text_a_page_escapes(tmp_path: Path) -> None:
    """A name holds what people typed, cut; written in Markdown it is escaped like every
    name (`markdown_text`): no image, tag or emphasis comes out of it."""
    (game,) = notation.load(SAMPLES / "markup-in-names.txt")
    (name,) = names(tmp_path, [game]).values()
    assert name == "20 Nov, 20:30 — ![Anna](//127.0… +3"
    assert markdown_text(name) == "20 Nov\\, 20\\:30 — \\!\\[Anna\\]\\(\\/\\/127\\.0… \\+3"
