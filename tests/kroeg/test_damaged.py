"""One `Error:` line, never a traceback, for every damaged input the probe found."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def landed(path: Path) -> Dataset:
    ds = Dataset(path)
    ds.write(simulate(Ruleset.preset("classic"), 4, 20, 1, ["random"]))
    return ds


@pytest.mark.parametrize(
    "args", [["stats"], ["newsletter", "--month", "2026-11", "--out", "NL"], ["info"], ["compact"]]
)
def test_a_truncated_events_file_is_one_error_line(tmp_path: Path, args: list[str]) -> None:
    ds = landed(tmp_path / "club")
    (events,) = ds.files("events")
    events.write_bytes(events.read_bytes()[:300])
    result = kroeg(args[0], ds.path, *(tmp_path / a if a == "NL" else a for a in args[1:]))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {events}: damaged Parquet file (Parquet magic bytes not found in footer. "
        "Either the file is corrupted or this is not a parquet file.)"
    ]


@pytest.mark.parametrize("args", [["info"], ["compact"], ["stats"], ["export", "--game", "x"]])
def test_a_file_of_the_wrong_schema_is_named_not_merged(tmp_path: Path, args: list[str]) -> None:
    ds = landed(tmp_path / "club")
    (games,) = ds.files("games")
    table = pq.read_table(games)
    index = table.schema.get_field_index("players")
    table = table.set_column(index, "players", pa.array(["x"] * table.num_rows))
    pq.write_table(table.replace_schema_metadata({"kroeg.format_version": "1"}), games)
    before = games.read_bytes()
    result = kroeg(args[0], ds.path, *args[1:])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: {games}: column players is string, FORMAT.md says list<item: string>"
    )
    assert games.read_bytes() == before  # compaction did not rewrite it


def test_a_dataset_folder_with_glob_characters_in_its_name(tmp_path: Path) -> None:
    ds = landed(tmp_path / "club[1].kroeg")
    result = kroeg("stats", ds.path, "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("player,")


def test_deeply_nested_json_lines(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n", encoding="utf-8")
    result = kroeg("validate", deep)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{deep}:1:1: the JSON nests too deeply"


@pytest.mark.parametrize("month", ["9999-12", "2026-011", "2026-13", "26-11"])
def test_a_month_out_of_range_or_mistyped(tmp_path: Path, month: str) -> None:
    ds = landed(tmp_path / "club")
    result = kroeg("newsletter", ds.path, "--month", month, "--out", tmp_path / "nl")
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: expected a month like 2026-11, found {month!r}"
