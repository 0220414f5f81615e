"""`kroeg check`, and a damaged dataset reported, never silently changed."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def landed(tmp_path: Path) -> Dataset:
    ds = Dataset(tmp_path / "club")
    ds.write(simulate(Ruleset.preset("classic"), 4, 20, 1, ["random"]))
    return ds


def test_a_sound_dataset_checks_clean(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    result = kroeg("check", ds.path)
    assert result.exit_code == 0
    assert result.output.strip().endswith(
        "every file reads, every game has its events; nothing to do."
    )


def test_a_stray_events_file_is_kept_and_reported_not_deleted(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    stray = ds.events_dir / "part-corrupt.parquet"
    stray.write_bytes(b"not parquet at all")
    before = ds.game_ids()
    ds.write(simulate(Ruleset.preset("classic"), 4, 5, 2, ["random"]))  # a later import
    assert stray.read_bytes() == b"not parquet at all"  # not silently removed
    assert before < ds.game_ids()
    result = kroeg("check", ds.path)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(f"{stray}: damaged Parquet file (")
    assert lines[1].startswith(f"{stray}: an events file without its games file")
    assert lines[-1] == f"Error: {ds.path}: 2 problems (listed above)"


def test_a_truncated_events_file_is_named(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    (events,) = ds.files("events")
    events.write_bytes(events.read_bytes()[:200])
    result = kroeg("check", ds.path)
    assert result.exit_code == 1
    assert f"{events}: damaged Parquet file" in result.output
    assert "listed in games/ but has no events" in result.output
