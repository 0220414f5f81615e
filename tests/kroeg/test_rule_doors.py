"""A rule value out of range, a rules file of any shape and a venue no game may name are
refused at every door — rules file, typed log, JSON Lines, `kroeg record`, `kroeg
simulate` — in one `Error:` line, before anything is written (issue 26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import jsonl, notation
from kroeg.recorder.errors import NotationError
from kroeg.recorder.rules import Ruleset
from tests.parsers.hands import HAND

runner = CliRunner()
TOO_MANY_LIVES = '{"base": "classic", "lives": 40000}'
RANGE = "rule lives takes a whole number from 1 to 999, found 40000"


def kroeg(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def one_error(result, code: int) -> str:
    assert result.exit_code == code, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.mark.parametrize("command", ["simulate", "record"])
def test_a_rules_file_out_of_range_is_refused_by_simulate_and_record(
    tmp_path: Path, command: str
) -> None:
    rules = tmp_path / "club.json"
    rules.write_text(TOO_MANY_LIVES)
    out = tmp_path / "ds"
    if command == "simulate":
        result = kroeg("simulate", "--rules", str(rules), "--hands", "5", "--out", str(out))
    else:
        result = kroeg(
            "record", "--into", str(out), "--players", "Anna,Ben,Carla", "--rules", str(rules),
            input="quit\n",
        )  # fmt: skip
    assert one_error(result, 2) == f"Error: {RANGE}"
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"a": ' * 50_000 + b"1" + b"}" * 50_000,
         "rule set is not valid: the JSON nests too deeply"),
        (b'{"name": "caf\xe9"}', "rule set {path} is not UTF-8 text (line 1)"),
        (b'{"base": "classic", "hand_size": 0}',
         "rule hand_size takes a whole number from 1 to 13, found 0"),
        (b'["classic"]', "a rule set must be a JSON object, found a list"),
        (b'{"lives": 1' + b"0" * 5000 + b"}", None),
    ],
)  # fmt: skip
def test_a_rules_file_of_any_shape_is_one_error_line(
    tmp_path: Path, content: bytes, message: str | None
) -> None:
    """Each of these was a traceback: RecursionError, UnicodeDecodeError, IndexError."""
    rules = tmp_path / "club.json"
    rules.write_bytes(content)
    result = kroeg("simulate", "--rules", str(rules), "--hands", "5", "--out", str(tmp_path / "o"))
    line = one_error(result, 2)
    if message is not None:
        assert line == "Error: " + message.format(path=rules)
    assert len(line) < 300


def test_a_typed_log_rules_line_out_of_range_is_refused() -> None:
    text = f"rules: {TOO_MANY_LIVES}\nplayers: Anna, Ben, Carla, Dan\n{HAND}"
    with pytest.raises(NotationError) as err:
        notation.loads(text)
    assert str(err.value) == f"1:8: {RANGE}"


def _jsonl_with_rules(rules: dict[str, object]) -> str:
    lines = jsonl.dumps(notation.loads("players: Anna, Ben, Carla, Dan\n" + HAND)).splitlines()
    header = json.loads(lines[0])
    header["rules"] = rules
    return "\n".join([json.dumps(header), *lines[1:]]) + "\n"


def test_a_json_lines_header_out_of_range_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NotationError) as err:
        jsonl.loads(_jsonl_with_rules({**Ruleset.preset("classic").to_dict(), "lives": 40000}))
    assert str(err.value) == f"1: {RANGE}"
    path = tmp_path / "club.jsonl"
    path.write_text(_jsonl_with_rules({"base": "classic", "hand_size": 0}))
    result = kroeg("import", str(path), "--into", str(tmp_path / "ds"))
    assert result.exit_code == 1
    assert f"{path}:1: rule hand_size takes a whole number from 1 to 13, found 0" in result.output
    assert not (tmp_path / "ds" / "games").exists() or not list(
        (tmp_path / "ds" / "games").glob("*.parquet")
    )


@pytest.mark.parametrize(
    ("venue", "message"),
    [
        ("\x1b[31mDe Kroeg", "the venue '\\x1b[31mDe Kroeg' holds a control or invisible "
         "character (U+001B)"),
        ("De \u202eKroeg", "the venue 'De \\u202eKroeg' holds a control or invisible "
         "character (U+202E)"),
        ("K" * 100_000, "the venue is 100,000 characters long; at most 100 are allowed"),
    ],
)  # fmt: skip
def test_simulate_refuses_a_venue_every_other_door_refuses(
    tmp_path: Path, venue: str, message: str
) -> None:
    out = tmp_path / "ds"
    result = kroeg("simulate", "--hands", "5", "--venue", venue, "--out", str(out))
    assert one_error(result, 2) == f"Error: {message}"
    assert not out.exists()
    with pytest.raises(NotationError) as err:  # the typed log says the same
        notation.loads(f"venue: {venue}\nplayers: Anna, Ben, Carla, Dan\n{HAND}")
    assert str(err.value) == f"1:8: {message}"
    record = kroeg(
        "record", "--into", str(out), "--players", "Anna,Ben,Carla", "--venue", venue,
        input="quit\n",
    )  # fmt: skip
    assert one_error(record, 2) == f"Error: {message}"


def test_a_dataset_already_holding_a_value_out_of_range_still_reads(tmp_path: Path) -> None:
    """Written by an older kroeg (here: the check bypassed), a game of 40,000 lives made
    `info`, `stats` and `games` fail on the whole dataset with an INT16 traceback."""
    from kroeg.recorder.simulate import simulate
    from kroeg.recorder.store import Dataset

    out = tmp_path / "ds"
    loose = Ruleset()
    object.__setattr__(loose, "lives", 40000)  # what the range check now refuses
    (bad,) = simulate(loose, 4, 30, 2, ["random"])
    good = list(simulate(Ruleset(), 4, 30, 1, ["random"]))
    Dataset(out).write([*good, bad])
    problem = "rule lives takes a whole number from 1 to 999, found 40000"

    info = kroeg("info", str(out))
    assert info.exit_code == 0, info.output
    assert (
        f"game {bad.game_id}: its rules cannot be read; it is listed and counted, never "
        f"analysed ({problem})" in info.output.splitlines()
    )
    assert f"{len(good) + 1} games, 60 hands" in info.output

    games = kroeg("games", str(out), "--format", "csv")
    assert games.exit_code == 0, games.output
    rows = {line.split(",")[0]: line for line in games.output.splitlines()[1:]}
    assert set(rows) == {bad.game_id, *(g.game_id for g in good)}
    assert "classic (unreadable rules)" in rows[bad.game_id]

    stats = kroeg("stats", str(out))
    assert one_error(stats, 1) == (
        f"Error: game {bad.game_id}: its rules cannot be read ({problem}), so it cannot be "
        "analysed; kroeg info and kroeg games still list it"
    )


@pytest.mark.parametrize("seed", ["99999999999999999999999", "9223372036854775808", "1" * 5000])
def test_a_seed_the_games_table_cannot_hold_is_refused(tmp_path: Path, seed: str) -> None:
    """`seed: 99999999999999999999999` in a typed log was an OverflowError traceback when
    the game landed (the column is int64)."""
    path = tmp_path / "friday.txt"
    path.write_text(f"seed: {seed}\nplayers: Anna, Ben, Carla, Dan\n{HAND}")
    result = kroeg("import", str(path), "--into", str(tmp_path / "ds"))
    assert result.exit_code == 1
    shown = f"'{seed}'" if len(seed) <= 80 else f"'{seed[:80]}…' (5,000 characters)"
    assert (
        f"{path}:1:7: a seed is a whole number from 0 to 9223372036854775807, found {shown}"
        in result.output
    )
    assert "Traceback" not in result.output
    back = notation.loads(f"seed: 9223372036854775807\nplayers: Anna, Ben, Carla, Dan\n{HAND}")
    assert back[0].seed == 2**63 - 1
    with pytest.raises(NotationError) as err:
        jsonl.loads(jsonl.dumps(back).replace('"seed": 9223372036854775807', '"seed": -1'))
    assert str(err.value) == "1: a seed is a whole number from 0 to 9223372036854775807, found -1"
