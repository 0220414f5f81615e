"""The replay's heads-up display: each player's figures from the hands before this one,
the same counts `kroeg stats` adds up for the games and hands played before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich
from kroeg.analytics.pages import (
    BEFORE_HAND,
    before_hand,
    counts_before_game,
    game_hand_counts,
)
from kroeg.analytics.stats import STAT_BY_NAME, player_stats
from kroeg.analytics.views import connect
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def club(tmp_path: Path) -> Dataset:
    dataset = Dataset(tmp_path / "ds")
    for sample in ("laundry-and-checks.txt", "classic-evening.txt"):
        dataset.write(notation.load(SAMPLES / sample))
    enrich(dataset)
    return dataset


def _counts(frame, players):  # type: ignore[no-untyped-def]
    stats = [STAT_BY_NAME[name] for name in BEFORE_HAND]
    columns = [c for s in stats for c in (s.done, s.opportunities)]
    rows = {r["player"]: r for r in frame.iter_rows(named=True)}
    return {p: tuple(rows[p][c] if p in rows else 0 for c in columns) for p in players}


def test_before_a_hand_counts_the_earlier_games_and_hands_as_stats_does(club: Dataset) -> None:
    con = connect(club)
    games = sorted(club.read_games(), key=lambda g: g.started_at)  # type: ignore[arg-type, return-value]
    october, first, second = games
    players = second.players
    earlier = counts_before_game(con, second.game_id, None)
    hands = game_hand_counts(con, second.game_id)
    last = int(hands["hand"].max())  # type: ignore[arg-type]
    # At the first hand: the games before it, exactly as `kroeg stats` counts them.
    before = before_hand(players, earlier, hands, 1)
    assert before["player"].to_list() == list(players)
    expected = player_stats(con, game_ids=[october.game_id, first.game_id])
    assert _counts(before, players) == _counts(expected, players)
    # After the last hand: this game's own hands too.
    after = before_hand(players, earlier, hands, last + 1)
    everything = player_stats(con, game_ids=[g.game_id for g in games])
    assert _counts(after, players) == _counts(everything, players)
    assert _counts(after, players) != _counts(before, players)  # the evening's hands count
    # The rates are the registry's, from those counts.
    for row in after.iter_rows(named=True):
        for name in BEFORE_HAND:
            stat = STAT_BY_NAME[name]
            assert row[name] == stat.value(row[stat.done], row[stat.opportunities])
    # The sidebar's games only: October's game left out.
    chosen = counts_before_game(con, second.game_id, [first.game_id, second.game_id])
    alone = before_hand(players, chosen, hands, 1)
    assert _counts(alone, players) == _counts(player_stats(con, game_ids=[first.game_id]), players)


def test_games_without_a_start_time_come_last_and_ties_go_by_id(tmp_path: Path) -> None:
    """The order played (`PLAYED`): an undated game comes after every dated one, and two
    games at one start time go by id; each counts what came before it, no more."""
    (night,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    import dataclasses

    games = [
        dataclasses.replace(night, game_id="b-same-time"),
        dataclasses.replace(night, game_id="a-same-time"),
        dataclasses.replace(night, game_id="undated", started_at=None),
    ]
    dataset = Dataset(tmp_path / "ds")
    dataset.write(games)
    enrich(dataset)
    con = connect(dataset)
    one = counts_before_game(con, "a-same-time", None)
    assert one.is_empty()  # first in the order played: nothing before it
    after = {g: counts_before_game(con, g, None) for g in ("b-same-time", "undated")}
    alone = player_stats(con, game_ids=["a-same-time"])
    both = player_stats(con, game_ids=["a-same-time", "b-same-time"])
    players = night.players
    assert _counts(after["b-same-time"], players) == _counts(alone, players)
    assert _counts(after["undated"], players) == _counts(both, players)
