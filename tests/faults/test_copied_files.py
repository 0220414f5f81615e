"""A Parquet file copied under another name (a sync tool's "conflicted copy") counts once.

Readers read each game once: a games file whose every game another file holds, and
whose name is not one kroeg gives, is a copy and is left out (with its events twin).
Two files sharing a game that are not copies of one another make every reader stop,
naming both. `kroeg check` reports both cases and says what to do.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from kroeg.analytics.views import connect
from kroeg.cli import app
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from kroeg.recorder.summary import summarize


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def landed(tmp_path: Path) -> Dataset:
    """Two landings: a copy of one file overlaps part of the dataset, not all of it."""
    ds = Dataset(tmp_path / "club")
    ds.write(simulate(Ruleset.preset("classic"), 4, 40, 1, ["random"]))
    ds.write(simulate(Ruleset.preset("classic"), 4, 40, 2, ["random"]))
    return ds


def conflicted(path: Path) -> Path:
    copy = path.with_name(f"{path.stem} (conflicted copy 2026-11-02).parquet")
    shutil.copyfile(path, copy)
    return copy


def counts(ds: Dataset) -> tuple[int, int, int]:
    """Games and events as kroeg's own reader and DuckDB's views count them."""
    con = connect(ds)
    (games,) = con.sql("SELECT count(*) FROM games").fetchall()[0]
    (events,) = con.sql("SELECT count(*) FROM events").fetchall()[0]
    return summarize(ds).games, games, events


def test_a_copy_of_both_files_is_read_once_and_reported(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    games, events = len(ds.game_ids()), ds.events_table().num_rows
    original = ds.files("games")[0]
    copy = conflicted(original)
    twin = conflicted(ds.events_dir / original.name)
    assert counts(ds) == (games, games, events)
    result = kroeg("check", ds.path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{copy}: a copy of {original} under another name (every game it holds is there "
        f"too); it is not read. Delete it (and its events, {twin}), or move it out of the "
        "dataset"
    ]
    info = kroeg("info", ds.path)
    assert info.exit_code == 0
    assert f"{games} games" in info.stdout


def test_a_copy_of_the_games_file_alone_leaves_every_game_its_events(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    games, events = len(ds.game_ids()), ds.events_table().num_rows
    conflicted(ds.files("games")[1])
    assert counts(ds) == (games, games, events)
    assert len(ds.games_table()) == games


def test_compaction_writes_each_game_once_and_leaves_the_copy_behind(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    games, events = len(ds.game_ids()), ds.events_table().num_rows
    for path in (ds.files("games")[0], ds.events_dir / ds.files("games")[0].name):
        conflicted(path)
    assert kroeg("compact", ds.path).exit_code == 0
    [games_file] = ds.files("games")
    [events_file] = ds.files("events")
    assert pq.read_metadata(games_file).num_rows == games
    assert pq.read_metadata(events_file).num_rows == events
    assert kroeg("check", ds.path).exit_code == 0


def test_two_kroeg_files_sharing_a_game_are_refused_naming_both(tmp_path: Path) -> None:
    """Not a copy (both carry kroeg's names): which one is right is the user's call."""
    ds = landed(tmp_path)
    landing = ds.files("games")[0]
    other = landing.with_name("part-20261102T200000-0000beef.parquet")  # sorts first
    shutil.copyfile(landing, other)
    shutil.copyfile(ds.events_dir / landing.name, ds.events_dir / other.name)
    game = min(pq.read_table(landing).column("game_id").to_pylist())
    clash = (
        f"game {game} is in two games files, {other} and {landing}, and neither is a copy of "
        "the other: the dataset is not read until one of them is moved out of it (then "
        "`kroeg import` of its export adds back what only it held)"
    )
    for args in (["info", ds.path], ["stats", ds.path], ["compact", ds.path]):
        result = kroeg(*args)
        assert result.exit_code == 1, args
        assert result.stderr.splitlines() == [f"Error: {clash}"], args
    check = kroeg("check", ds.path)
    assert check.exit_code == 1
    assert clash in check.stdout.splitlines()
    assert other.exists() and landing.exists()  # nothing removed
