"""The statistics count the engine's facts: why a Troefcall hand scored, whether every
opponent folded to a knock. And a dataset written before those facts existed gives
the same figures (the analysis stores the engine's log of its games, derived/events)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from kroeg.analytics.engines import bring_up_to_date
from kroeg.analytics.stats import player_stats, troefcall_stats
from kroeg.analytics.views import connect
from kroeg.recorder.events import AllFolded, HandWon, Kap, Score, without_verdicts
from kroeg.recorder.records import GameRecord
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


def troefcall_club_rules() -> Ruleset:
    """A club whose kap is worth what a majority is: its points cannot say which it was."""
    return Ruleset.from_dict({"name": "Paramaribo", "base": "troefcall", "kap_points": 2})


def test_kap_partij_is_the_engine_s_verdict_not_its_points(tmp_path: Path) -> None:
    records = list(simulate(troefcall_club_rules(), 4, 300, 7, ["sharp", "random"]))
    dataset = Dataset(tmp_path / "club")
    dataset.write(records)
    kaps_by_side = [0, 0]
    for record in records:
        for event in record.events:
            if isinstance(event, Kap):
                kaps_by_side[event.seat % 2] += 1
    assert sum(kaps_by_side) > 0
    frame = troefcall_stats(connect(dataset), by="side").sort("player")
    anna_carla = frame.filter(pl.col("player") == "Anna & Carla")
    ben_dan = frame.filter(pl.col("player") == "Ben & Dan")
    assert (anna_carla["kaps"][0], ben_dan["kaps"][0]) == tuple(kaps_by_side)
    assert anna_carla["hands"][0] == 300  # the old reading counted every 2-point hand


@pytest.mark.parametrize("players", [4, 6])
def test_team_toepen_counts_a_knock_everyone_on_the_other_sides_folded_to(
    tmp_path: Path, players: int
) -> None:
    rules = Ruleset.preset("lives").with_variants("team-toepen")
    records = list(simulate(rules, players, 400, 3, ["bluffer", "random", "cautious"]))
    dataset = Dataset(tmp_path / "club")
    dataset.write(records)
    said = sum(isinstance(e, AllFolded) for r in records for e in r.events)
    con = connect(dataset)
    [counted] = con.sql("SELECT count(*) FROM knocks WHERE all_folded").fetchall()
    # The old reading: one player left, and it is the knocker.
    [(one_left,)] = con.sql(
        "SELECT count(*) FROM knocks k JOIN hands h USING (game_id, hand) "
        "WHERE h.players - h.folds = 1 AND h.end_seat = k.seat"
    ).fetchall()
    assert counted == (said,) and said > 0
    assert one_left < said  # the knocker's partner still in: one side left, not one player


def as_written_before(record: GameRecord) -> GameRecord:
    """The game as a kroeg without the newer facts logged it: no all_folded rows, no
    Troefcall win rows, no score reasons."""
    troefcall = record.rules.game == "troefcall"
    events = tuple(
        without_verdicts(e)
        for e in record.events
        if not isinstance(e, AllFolded) and not (troefcall and isinstance(e, HandWon))
    )
    return replace(record, events=events)


def test_a_dataset_written_before_the_facts_gives_the_same_figures(tmp_path: Path) -> None:
    records = [
        *simulate(Ruleset.preset("classic"), 4, 300, 1, ["bluffer", "sharp", "random"]),
        *simulate(Ruleset.preset("lives").with_variants("team-toepen"), 6, 200, 2, ["bluffer"]),
        *simulate(troefcall_club_rules(), 4, 150, 3, ["sharp", "random"]),
    ]
    now, before = Dataset(tmp_path / "now"), Dataset(tmp_path / "before")
    now.write(records)
    before.write([as_written_before(r) for r in records])
    assert any(isinstance(e, Score) and e.reason is None
               for r in before.read_games() for e in r.events)  # fmt: skip
    for dataset in (now, before):
        bring_up_to_date(dataset)
    assert now.files("derived/events") == []
    assert len(before.files("derived/events")) > 0  # the engine's logs of the old games
    for by in ("player", "month", "side"):
        for compute in (player_stats, troefcall_stats):
            assert_frame_equal(compute(connect(before), by), compute(connect(now), by))
