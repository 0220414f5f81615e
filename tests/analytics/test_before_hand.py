"""The replay's heads-up display: each player's figures from the hands before this one,
the same counts `kroeg stats` adds up for the games and hands played before it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from kroeg.analytics.derived import enrich
from kroeg.analytics.pages import (
    BEFORE_HAND,
    before_game,
    before_hand,
    counts_before_game,
    counts_before_games,
    game_hand_counts,
)
from kroeg.analytics.stats import STAT_BY_NAME, player_stats
from kroeg.analytics.views import connect
from kroeg.parsers import notation
from kroeg.recorder.events import number_events
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


def _by_hand(club: Dataset, game_ids: set[str], hands: dict[str, int]) -> dict[int, list[int]]:
    """Each seat's [bluffs, knocks known, folds, knocks faced] counted in Python from the
    facts themselves: the games' logs (a fold, a stay) and the stored knock facts (a
    bluff, a knock whose cards are known), over the finished hands of `game_ids` and
    the hands of each game below `hands[game]` (default: all). Seats are a seat's player."""
    knocks = pq.read_table(club.path / "derived" / "knocks").to_pylist()
    counts: dict[str, list[int]] = {}
    for game in club.read_games():
        if game.game_id not in game_ids:
            continue
        numbered = list(number_events(game.events))
        finished = {h for h, _, e in numbered if e.kind == "hand_end"}
        below = hands.get(game.game_id, 1 << 15)
        shown = {h for h in finished if h < below}
        for h, _, event in numbered:
            kind, seat, _, _, _ = event.to_row()
            if h in shown and kind in ("fold", "stay") and seat is not None:
                row = counts.setdefault(game.players[seat], [0, 0, 0, 0])
                row[2] += kind == "fold"
                row[3] += 1
        for knock in knocks:
            if knock["game_id"] == game.game_id and knock["hand"] in shown:
                row = counts.setdefault(game.players[knock["seat"]], [0, 0, 0, 0])
                row[0] += bool(knock["bluff"])
                row[1] += knock["strength"] is not None
    return counts  # type: ignore[return-value]


def test_a_cell_is_the_facts_counted_by_hand(club: Dataset) -> None:
    """The display at the evening's second game's hand 3 against counts made in Python
    from the logs and the stored knock facts, with no view in between; and one cell as
    the page writes it."""
    con = connect(club)
    october, first, second = sorted(club.read_games(), key=lambda g: g.started_at)  # type: ignore[arg-type, return-value]
    every = counts_before_games(con, None)
    frame = before_hand(
        second.players, before_game(every, second.game_id),
        game_hand_counts(con, second.game_id), 3,
    )  # fmt: skip
    by_hand = _by_hand(club, {october.game_id, first.game_id, second.game_id}, {second.game_id: 3})
    for row in frame.iter_rows(named=True):
        counted = by_hand.get(row["player"], [0, 0, 0, 0])
        assert [row["bluffs"], row["knocks_known"], row["folds"], row["knocks_faced"]] == counted
    fold_rate, bluff_rate = STAT_BY_NAME["fold_rate"], STAT_BY_NAME["bluff_rate"]
    anna, ben = (frame.row(by_predicate=pl.col("player") == p, named=True) for p in ("Anna", "Ben"))
    assert fold_rate.cell(anna["folds"], anna["knocks_faced"]) == "57% 4/7*"
    assert bluff_rate.cell(ben["bluffs"], ben["knocks_known"]) == "67% 4/6*"
    # The table for every game is the one game's rows: a game outside the filter too.
    assert before_game(every, first.game_id).equals(counts_before_game(con, first.game_id, None))
    alone = counts_before_games(con, [october.game_id])
    assert (
        before_game(alone, second.game_id)
        .sort("player")
        .equals(before_game(alone, first.game_id).sort("player"))
    )
