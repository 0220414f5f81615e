"""kroeg ratings: the table, CSV and JSON, the club's games apart from the bots', errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def kroeg(*args: object) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def club(tmp_path: Path) -> Path:
    games = [g for name in ("classic-evening.txt", "troefcall-evening.txt")
             for g in notation.load(SAMPLES / name)]  # fmt: skip
    Dataset(tmp_path / "club").write(games)
    return tmp_path / "club"


def test_the_table_ranks_each_game_type_and_marks_provisional_ratings(tmp_path: Path) -> None:
    result = kroeg("ratings", club(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "== Toepen =="
    assert lines[1].split() == ["player", "rating", "±2σ", "games", "hands"]
    assert lines[2].startswith("1.  ") and "?" in lines[2]  # one game: provisional
    assert "== Troefcall ==" in lines
    assert lines[-2].startswith(
        "rating: μ, a Bayesian Plackett–Luce rating of who places last (higher is better), ±2σ"
    )


def test_csv_and_json_carry_the_interval(tmp_path: Path) -> None:
    result = kroeg("ratings", club(tmp_path), "--game", "toepen", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert {r["game_type"] for r in rows} == {"toepen"}
    assert set(rows[0]) == {"game_type", "player", "mu", "sigma", "low", "high", "games",
                            "hands", "provisional"}  # fmt: skip
    assert all(r["provisional"] and r["low"] < r["mu"] < r["high"] for r in rows)
    csv = kroeg("ratings", club(tmp_path), "--game", "troefcall", "--format", "csv")
    assert csv.output.splitlines()[0] == (
        "game_type,player,mu,sigma,low,high,games,hands,provisional"
    )


def test_the_bots_games_are_rated_apart(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "bots").create()
    simulate_into(ds, Ruleset.preset("classic"), 4, 60, 1, ("sharp", "random"))
    result = kroeg("ratings", ds.path)
    assert result.exit_code == 1
    assert result.output == (
        f"Error: {ds.path}: nothing to rate: no club games "
        "(kroeg ratings --simulated rates the bots' games)\n"
    )
    result = kroeg("ratings", ds.path, "--simulated", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert len(result.output.splitlines()) == 5  # the header and the four bots


def test_dates_the_wrong_way_round_are_a_usage_error(tmp_path: Path) -> None:
    result = kroeg("ratings", club(tmp_path), "--since", "2026-12-01", "--until", "2026-11-01")
    assert result.exit_code == 2
    assert result.output == "Error: --since 2026-12-01 is after --until 2026-11-01\n"


def test_no_games_in_the_dates(tmp_path: Path) -> None:
    result = kroeg("ratings", club(tmp_path), "--since", "2031-01-01")
    assert result.exit_code == 1
    assert result.output.endswith(
        "nothing to rate: no club games match --game/--since/--until "
        "(kroeg ratings --simulated rates the bots' games)\n"
    )


def test_the_help_says_the_provisional_rule_the_code_keeps() -> None:
    from kroeg.analytics.ratings import PROVISIONAL_GAMES

    result = kroeg("ratings", "--help")
    assert f"(fewer than {PROVISIONAL_GAMES} games)" in " ".join(result.output.split())
