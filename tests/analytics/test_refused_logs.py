"""A stored game the engine refuses part way (a log an older kroeg stored, or another tool
wrote) is analysed up to there, and named; the rest of the dataset is analysed as usual.

Before, the analysis stopped on it: `kroeg stats` exited 1 for the whole dataset ("Error:
after hand 1: Anna deals, not Dan"), while `kroeg check` said nothing was wrong.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from kroeg.analytics.derived import enrich, facts_for_game, stopped_games
from kroeg.analytics.views import connect
from kroeg.cli import app
from kroeg.parsers import notation
from kroeg.parsers.reading import collect
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from tests.parsers.test_resync import FIRST_GAME

REFUSAL = "after hand 1: Anna deals, not Dan"


def older_log() -> GameRecord:
    """The evening's first game read leniently by a kroeg before `hand_skipped`: typed
    hands 1, 3 and 4 stored as 1, 2 and 3, so the stored hand 2's dealer does not follow."""
    broken = FIRST_GAME.replace("Da kc, Be toep, Da s, Ben Ts", "Da kc, Be toep, Da s, Ben Qs")
    (game,) = notation.parse(broken, on_error=collect).games
    return replace(game, events=tuple(e for e in game.events if e.kind != "hand_skipped"))


def sound_game() -> GameRecord:
    (game,) = notation.parse(FIRST_GAME).games
    return game


def test_the_facts_stop_where_the_engine_refuses_the_log() -> None:
    game = older_log()
    facts = facts_for_game(game)
    assert facts.stopped is not None and REFUSAL in facts.stopped
    assert facts.upgraded is None  # the stored log stays as it is
    # Hand 1's verdicts are made; none after the refusal.
    assert {k["hand"] for k in facts.knocks} == {1} and {f["hand"] for f in facts.folds} == {1}
    assert facts_for_game(sound_game()).stopped is None


def test_the_rest_of_the_dataset_is_analysed_and_the_game_named(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "club")
    bad, good = older_log(), sound_game()
    dataset.write([bad, good])
    assert enrich(dataset, workers=1) == 2
    (stopped,) = stopped_games(dataset)
    assert stopped[0] == bad.game_id and REFUSAL in stopped[1]
    # The sound game's verdicts are all stored, of every hand; the other's up to hand 1.
    con = connect(dataset)
    hands = "SELECT DISTINCT hand FROM knock_facts WHERE game_id = ? ORDER BY hand"
    assert [h for (h,) in con.sql(hands, params=[bad.game_id]).fetchall()] == [1]
    every = sorted({k["hand"] for k in facts_for_game(good).knocks})
    assert len(every) > 1
    assert [h for (h,) in con.sql(hands, params=[good.game_id]).fetchall()] == every
    runner = CliRunner()
    stats = runner.invoke(app, ["stats", str(dataset.path)])
    assert stats.exit_code == 0, stats.output
    assert f"Warning: game {bad.game_id}: the engine refuses its stored log" in stats.stderr
    assert "knocks" in stats.stdout
    check = runner.invoke(app, ["check", str(dataset.path)])
    assert check.exit_code == 1
    assert f"game {bad.game_id}: the engine refuses its stored log ({REFUSAL}" in check.output
