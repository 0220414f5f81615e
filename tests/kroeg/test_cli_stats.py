"""kroeg stats: the table, CSV that spreadsheets cannot run, JSON, filters and errors."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def kroeg(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def dataset(tmp_path: Path, players: tuple[str, ...] | None = None) -> Path:
    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    if players is not None:  # the same game, with other names at the table
        game = dataclasses.replace(game, players=players, game_id="renamed")
    Dataset(tmp_path / "ds").write([game])
    return tmp_path / "ds"


def test_the_table_reads_well(tmp_path: Path) -> None:
    result = kroeg("stats", dataset(tmp_path))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if not line.startswith("Analysing")]
    assert lines[0].split() == ["Anna", "Ben", "Carla", "Dan"]
    assert lines[1].split() == ["hands", "2", "2", "2", "2"]
    assert lines[2].split() == ["won", "0%", "0/2*", "0%", "0/2*", "50%", "1/2*", "50%", "1/2*"]
    assert lines[-1] == "rate done/opportunities; * fewer than 20 opportunities (docs/STATS.md)."
    assert max(len(line) for line in lines) < 100


def test_csv_cells_are_neutralised_and_json_is_data(tmp_path: Path) -> None:
    ds = dataset(tmp_path, ("=SUM(A1)", "+Ben", "Carla", "@Dan"))
    out = kroeg("stats", ds, "--format", "csv").output
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["player"] for r in rows] == ["'+Ben", "'=SUM(A1)", "'@Dan", "Carla"]
    data = json.loads(kroeg("stats", ds, "--format", "json").output)
    assert {d["player"] for d in data} == {"=SUM(A1)", "+Ben", "Carla", "@Dan"}
    assert data[0]["hands"] == 2


def test_filters_and_groupings(tmp_path: Path) -> None:
    ds = dataset(tmp_path)
    by_month = kroeg("stats", ds, "--by", "month", "--player", "car").output.splitlines()
    assert by_month[0] == "month 2026-10"
    assert by_month[1].split() == ["Carla"]
    none = kroeg("stats", ds, "--since", "2026-11-01")
    assert none.exit_code == 1
    assert none.output == f"Error: {ds}: no finished hands match --player/--since/--until/--type\n"
    bad = kroeg("stats", ds, "--player", "Eve")
    assert bad.exit_code == 1
    assert bad.output.strip() == (
        "Error: no hands for player 'Eve' (expected a player (Anna, Ben, Carla, Dan), found 'Eve')"
    )
    xml = kroeg("stats", ds, "--format", "xml")
    assert xml.exit_code == 2  # bad usage, as the issue asked: typer lists the choices
    assert "'xml' is not one of 'table', 'csv', 'json'." in xml.output
    assert kroeg("stats", tmp_path / "nope").output.strip() == (
        f"Error: {tmp_path / 'nope'}: no such dataset (the folder does not exist)"
    )
    since = kroeg("stats", ds, "--since", "01-11-2026")  # a date as people also write it
    assert since.exit_code == 2
    assert "takes a date as 2026-11-01 (year-month-day), found '01-11-2026'" in since.output
    assert "%Y" not in since.output


def test_toepen_and_troefcall_each_get_their_own_table(tmp_path: Path) -> None:
    ds = dataset(tmp_path)
    Dataset(ds).write(notation.load(SAMPLES / "troefcall-evening.txt"))
    both = kroeg("stats", ds)
    assert both.exit_code == 0, both.output
    lines = both.output.splitlines()
    assert "== Toepen ==" in lines and "== Troefcall ==" in lines
    assert next(line.split() for line in lines if line.startswith("calls made good")) == [
        "calls",
        "made",
        "good",
        "100%",
        "1/1*",
        "100%",
        "1/1*",
        "0%",
        "0/1*",
        "-",
    ]
    sides = kroeg("stats", ds, "--by", "side").output.splitlines()
    assert sides[0].split() == ["Anna", "&", "Carla", "Ben", "&", "Dan"]
    assert kroeg("stats", ds, "--format", "csv").output.strip() == (
        "Error: the dataset holds Toepen and Troefcall games: choose one for csv with --type"
    )
    csv_text = kroeg("stats", ds, "--format", "csv", "--type", "troefcall").output
    assert next(csv.DictReader(io.StringIO(csv_text)))["calls_made"] == "1"
    by_side = json.loads(
        kroeg("stats", ds, "--type", "troefcall", "--by", "side", "--format", "json").output
    )
    assert [r["side"] for r in by_side] == ["Anna & Carla", "Ben & Dan"]
    assert not [r for r in by_side if "player" in r]  # a side is not a player
    assert kroeg("stats", ds, "--type", "toepen", "--by", "side").output.strip() == (
        "Error: --by side needs games played in partnerships (Troefcall, or team toepen: "
        "--variant team-toepen); the toepen games here have none"
    )


def test_team_toepen_statistics_per_side(tmp_path: Path) -> None:
    """The typed team evening (sample_logs/team-toepen-evening.txt): a side's hands and
    wins are the partnership's, its costs the pool's."""
    ds = str(tmp_path / "club")
    samples = Path(__file__).resolve().parents[2] / "sample_logs"
    assert kroeg("import", str(samples / "team-toepen-evening.txt"), "--into", ds).exit_code == 0
    rows = json.loads(kroeg("stats", ds, "--by", "side", "--format", "json").output)
    by_side = {r["side"]: r for r in rows}
    assert set(by_side) == {"Anna & Carla", "Ben & Dan"}
    ours, theirs = by_side["Anna & Carla"], by_side["Ben & Dan"]
    assert (ours["hands"], ours["won"], ours["paid"], ours["folds"]) == (2, 1, 2, 1)
    assert (theirs["hands"], theirs["won"], theirs["paid"], theirs["knocks"]) == (2, 1, 2, 1)
    players = json.loads(kroeg("stats", ds, "--format", "json").output)
    assert {r["player"] for r in players} == {"Anna", "Ben", "Carla", "Dan"}


def test_the_games_list_names_a_winning_side(tmp_path: Path) -> None:
    ds = str(tmp_path / "club")
    kroeg("simulate", "--rules", "lives", "--variant", "team-toepen", "--players", "6",
          "--hands", "12", "--seed", "3", "--out", ds)  # fmt: skip
    results = [line for line in kroeg("games", ds).output.splitlines()[1:] if " won " in line]
    assert results and all(" & " in line.split(" won ")[0] for line in results)


def test_analyse_works_out_new_games_once(tmp_path: Path) -> None:
    ds = str(tmp_path / "club")
    kroeg("simulate", "--hands", "40", "--seed", "5", "--out", ds)
    first = kroeg("analyse", ds)
    assert first.exit_code == 0, first.output
    games = len(Dataset(ds).game_ids())
    assert first.output.strip().splitlines()[-1] == (
        f"{ds}: {games} games analysed, 0 games already were"
    )
    again = kroeg("analyse", ds).output.strip().splitlines()[-1]
    assert again == f"{ds}: 0 games analysed, {games} games already were"


def test_a_month_of_points_and_lives_is_never_added_up(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from kroeg.recorder.events import Pay
    from kroeg.recorder.rules import Ruleset
    from kroeg.recorder.simulate import simulate_into

    ds = Dataset(tmp_path / "club").create()
    evening = datetime(2026, 11, 2, 20, tzinfo=UTC)
    # A club whose own lives rule set has a name that says nothing of lives.
    lives = Ruleset.from_dict({"name": "De Kruik", "base": "lives"})
    for rules, seed in ((Ruleset.preset("classic"), 1), (lives, 2)):
        simulate_into(ds, rules, 4, 120, seed, ["random", "bluffer"], evening, None)
    paid: dict[tuple[str, str], int] = {}
    for record in ds.read_games():
        for event in record.events:
            if isinstance(event, Pay):
                key = (record.rules.unit, record.players[event.seat])
                paid[key] = paid.get(key, 0) + event.amount
    table = kroeg("stats", ds.path, "--by", "month").output
    assert "== Toepen, in lives ==" in table and "== Toepen, in penalty points ==" in table
    rows = json.loads(kroeg("stats", ds.path, "--by", "month", "--format", "json").output)
    assert {(r["unit"], r["player"]): r["paid"] for r in rows} == paid
    assert {r["month"] for r in rows} == {"2026-11"}
