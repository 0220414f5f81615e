"""A dataset in numbers, read with pyarrow alone: what `kroeg info` prints."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow.compute as pc

from recorder.store import Dataset

__all__ = ["DatasetSummary", "PlayerLine", "summarize"]


@dataclass(frozen=True)
class PlayerLine:
    """One player's totals over the dataset."""

    name: str
    games: int
    hands: int
    knocks: int
    folds: int
    cost: int

    @property
    def cost_per_hand(self) -> float:
        """Lives lost or penalty points taken per hand played."""
        return self.cost / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class DatasetSummary:
    """Counts, size on disk, and per-player totals."""

    games: int
    hands: int
    events: int
    files: int
    bytes_on_disk: int
    rulesets: dict[str, int]
    players: list[PlayerLine]

    @property
    def bytes_per_hand(self) -> float:
        """Bytes on disk (both tables) per hand."""
        return self.bytes_on_disk / self.hands if self.hands else 0.0


def summarize(dataset: Dataset) -> DatasetSummary:
    """Count games, hands and events, and total each player's knocks, folds and costs."""
    games = dataset.games_table()
    events = dataset.events_table()
    files = dataset.files("games") + dataset.files("events")
    seats_by_game = dict(
        zip(games.column("game_id").to_pylist(), games.column("players").to_pylist(), strict=True)
    )
    rulesets: dict[str, int] = {}
    for name in games.column("ruleset").to_pylist():
        rulesets[name] = rulesets.get(name, 0) + 1
    per: dict[str, dict[str, int]] = {}
    game_ids = events.column("game_id").to_pylist()
    kinds = events.column("kind").to_pylist()
    seats = events.column("seat").to_pylist()
    amounts = events.column("amount").to_pylist()
    for game_id, kind, seat, amount in zip(game_ids, kinds, seats, amounts, strict=True):
        if seat is None or kind not in ("knock", "fold", "pay"):
            continue
        name = seats_by_game[game_id][seat]
        line = per.setdefault(name, {"hands": 0, "knocks": 0, "folds": 0, "cost": 0})
        if kind == "knock":
            line["knocks"] += 1
        elif kind == "fold":
            line["folds"] += 1
        elif kind == "pay":
            line["cost"] += amount or 0
    hands_per_player: dict[str, int] = {}
    starts = pc.equal(events.column("kind"), "hand_start")
    deals = events.filter(pc.equal(events.column("kind"), "deal"))
    dealt_in = set(
        zip(
            deals.column("game_id").to_pylist(),
            deals.column("hand").to_pylist(),
            deals.column("seat").to_pylist(),
            strict=True,
        )
    )
    for game_id, _hand, seat in dealt_in:
        name = seats_by_game[game_id][seat]
        hands_per_player[name] = hands_per_player.get(name, 0) + 1
    games_per_player: dict[str, int] = {}
    for names in seats_by_game.values():
        for name in names:
            games_per_player[name] = games_per_player.get(name, 0) + 1
    players = [
        PlayerLine(
            name=name,
            games=games_per_player.get(name, 0),
            hands=hands_per_player.get(name, 0),
            knocks=per.get(name, {}).get("knocks", 0),
            folds=per.get(name, {}).get("folds", 0),
            cost=per.get(name, {}).get("cost", 0),
        )
        for name in sorted(games_per_player)
    ]
    return DatasetSummary(
        games=games.num_rows,
        hands=int(pc.sum(starts).as_py() or 0),
        events=events.num_rows,
        files=len(files),
        bytes_on_disk=sum(p.stat().st_size for p in files),
        rulesets=rulesets,
        players=players,
    )
