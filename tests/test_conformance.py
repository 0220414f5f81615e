"""Figures worked out by hand, checked on every surface that shows them.

`sample_logs/team-side-folds.txt`, team toepen under `lives` (partners opposite, one
pool of lives per side; the side that takes the last trick pays):

- hand 1: Ben knocks (stake 2); Carla folds and pays 1, Dan stays, Anna folds and pays
  1. Only Ben's side is left: the hand ends, Ben & Dan win it, every opponent having
  folded to Ben's knock (the engine's all_folded; "one player left" would say no).
- hand 2: the four tricks are played; Ben takes the last one (9♠ over 8♠ and A♠) and,
  under lives, loses: he pays 1 from his side's pool; Anna & Carla win.

So by player: everyone played 2 hands and won 1; Anna and Carla lost 1 life each (their
folds), Ben 1 (the last trick), Dan none; Ben knocked once in 2 hands and won that
hand; Anna and Carla folded to the one knock each faced (1 life each), Dan stayed.
By side: Anna & Carla lost 2 in 2 hands, folded 2 of 2 knocks faced; Ben & Dan lost 1,
and the knock (a bluff, by the analysis) made the whole other side fold: bluff success
1/1, bluff profit 2 (both folds) in 1 bluff.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "team-side-folds.txt"
runner = CliRunner()

#: By hand, per player: hands, won, paid, knocks, knocks won, knocks faced, folds, fold cost.
BY_PLAYER = {
    "Anna": (2, 1, 1, 0, 0, 1, 1, 1),
    "Ben": (2, 1, 1, 1, 1, 0, 0, 0),
    "Carla": (2, 1, 1, 0, 0, 1, 1, 1),
    "Dan": (2, 1, 0, 0, 0, 1, 0, 0),
}
#: By hand, per side: the same counts, then bluffs won and bluff profit (given the bluff).
BY_SIDE = {
    "Anna & Carla": (2, 1, 2, 0, 0, 2, 2, 2),
    "Ben & Dan": (2, 1, 1, 1, 1, 1, 0, 0),
}
COUNTS = ("hands", "won", "paid", "knocks", "knocks_won", "knocks_faced", "folds", "fold_cost")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("conformance") / "club"
    Dataset(path).write(notation.load(SAMPLE))
    return path


def kroeg(*args: object) -> str:
    done = runner.invoke(app, [str(a) for a in args])
    assert done.exit_code == 0, done.output
    return done.output


@pytest.mark.parametrize(("by", "expected"), [("player", BY_PLAYER), ("side", BY_SIDE)])
def test_csv_and_json_hold_the_hand_worked_counts(club: Path, by: str, expected) -> None:
    key = "side" if by == "side" else "player"
    rows = list(csv.DictReader(io.StringIO(kroeg("stats", club, "--by", by, "--format", "csv"))))
    assert {r[key]: tuple(int(r[c]) for c in COUNTS) for r in rows} == expected
    data = json.loads(kroeg("stats", club, "--by", by, "--format", "json"))
    assert {r[key]: tuple(r[c] for c in COUNTS) for r in data} == expected


def test_the_table_shows_them_as_rates_with_their_counts(club: Path) -> None:
    lines = kroeg("stats", club).splitlines()
    table = {line.split()[0]: line for line in lines if line.strip()}
    assert table["lost/hand"].split() == [
        "lost/hand", "0.50", "1/2*", "0.50", "1/2*", "0.50", "1/2*", "0.00", "0/2*",
    ]  # fmt: skip
    assert table["folds"].split() == [
        "folds", "100%", "1/1*", "-", "100%", "1/1*", "0%", "0/1*",
    ]  # fmt: skip


def test_a_whole_side_folding_to_a_bluff_is_its_success(club: Path) -> None:
    [row] = [r for r in json.loads(kroeg("stats", club, "--by", "side", "--format", "json"))
             if r["side"] == "Ben & Dan"]  # fmt: skip
    assert (row["bluffs"], row["bluffs_won"], row["bluff_profit"]) == (1, 1, 2)
    lines = {
        line.split("  ")[0]: line for line in kroeg("stats", club, "--by", "side").splitlines()
    }
    assert lines["bluff success"].split()[-2:] == ["100%", "1/1*"]


def test_the_replay_names_the_winning_side(club: Path) -> None:
    game = Dataset(club).game_ids().pop()
    first = kroeg("replay", club, "--game", game, "--hand", "1").splitlines()
    assert first[-3:] == [
        "Dan stays in",
        "Anna folds and pays 1",
        "Ben & Dan win the hand (stake 2)",
    ]
    second = kroeg("replay", club, "--game", game, "--hand", "2").splitlines()
    assert (
        second[-1] == "Ben took the last trick: Ben & Dan lose the hand; Anna & Carla win (stake 1)"
    )


# `sample_logs/troefcall-club-points.txt`: a club whose kap is worth 2, as a majority is.
# Three games at one evening, worked out hand by hand (A&C = Anna & Carla, B&D = Ben & Dan):
#   game 1, hand 1: Anna calls; A&C take the first 7, Carla (the 7th trick's) kaps: A&C +2 (kap)
#   game 1, hand 2: Ben calls; B&D take the majority: +2 (majority)
#   game 1, hand 3: Carla calls; B&D take the majority: +2 (majority), Carla's call fails
#   game 2, hand 1: the same deal; Carla goes for baunie, Dan takes the last six: B&D +2
#                   (failed baunie); Anna's call is made good (7 of 13)
#   game 3, hand 1: Ben calls; A&C take the first 7 and Anna, the partner, kaps: A&C +2
# Per side: hands, calls, calls made good, kaps, baunies tried, baunies made, points.
TROEF_SAMPLE = SAMPLE.with_name("troefcall-club-points.txt")
TROEF_SIDES = {"Anna & Carla": (5, 3, 2, 2, 1, 0, 4), "Ben & Dan": (5, 2, 1, 0, 0, 0, 6)}
TROEF_COUNTS = ("hands", "calls", "calls_made", "kaps", "baunies", "baunies_won", "points")


@pytest.fixture(scope="module")
def troefcall_club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("conformance") / "troef"
    Dataset(path).write(notation.load(TROEF_SAMPLE))
    return path


def test_a_club_s_troefcall_points_are_counted_by_their_reason(troefcall_club: Path) -> None:
    data = json.loads(kroeg("stats", troefcall_club, "--by", "side", "--format", "json"))
    assert {r["side"]: tuple(r[c] for c in TROEF_COUNTS) for r in data} == TROEF_SIDES
    rows = csv.DictReader(io.StringIO(kroeg("stats", troefcall_club, "--format", "csv")))
    by_player = {r["player"]: (int(r["calls"]), int(r["kaps"]), int(r["points"])) for r in rows}
    # A player shares the side's kaps and points, and calls only the hands they called.
    assert by_player == {"Anna": (2, 2, 4), "Ben": (2, 0, 6), "Carla": (1, 2, 4), "Dan": (0, 0, 6)}
    table = kroeg("stats", troefcall_club, "--by", "side").splitlines()
    assert [line.split() for line in table if line.startswith("kap partij")] == [
        ["kap", "partij", "40%", "2/5*", "0%", "0/5*"]
    ]


def test_the_newsletter_tells_the_same_partnerships(troefcall_club: Path, tmp_path: Path) -> None:
    kroeg("newsletter", troefcall_club, "--month", "2026-11", "--out", tmp_path)
    [markdown] = tmp_path.glob("*.md")
    lines = markdown.read_text(encoding="utf-8").splitlines()
    assert "| Ben & Dan | 5 | 50% 1/2* | 0% 0/5* | - | 4.40 22/5* | 1.20 6/5* |" in lines
    assert "| Anna & Carla | 5 | 67% 2/3* | 40% 2/5* | 0% 0/1* | 6.20 31/5* | 0.80 4/5* |" in lines
    [table] = tmp_path.glob("*.csv")
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(table.read_text("utf-8")))}
    assert (rows["Carla"]["kap_rate_done"], rows["Dan"]["points_per_hand_done"]) == ("2", "6")
