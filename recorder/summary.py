"""A dataset in numbers, read with pyarrow alone: what `kroeg info` prints."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow.compute as pc

from recorder.store import Dataset

__all__ = ["DatasetSummary", "PlayerLine", "summarize"]


@dataclass(frozen=True)
class PlayerLine:
    """One player's totals over the games of one rule set."""

    ruleset: str
    name: str
    games: int
    hands: int
    knocks: int
    folds: int
    cost: int
    #: Troefcall: hands the player called trump in, and points their side scored.
    game_type: str = "toepen"
    calls: int = 0
    points: int = 0

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
    ids = games.column("game_id").to_pylist()
    rules_of = dict(zip(ids, games.column("ruleset").to_pylist(), strict=True))
    type_of = dict(zip(games.column("ruleset").to_pylist(),
                       games.column("game_type").to_pylist(), strict=True))  # fmt: skip
    # Totals are kept per rule set: a penalty point and a life are not the same unit.
    seats_by_game = {
        game_id: [(rules_of[game_id], name) for name in names]
        for game_id, names in zip(ids, games.column("players").to_pylist(), strict=True)
    }
    rulesets: dict[str, int] = {}
    for name in rules_of.values():
        rulesets[name] = rulesets.get(name, 0) + 1
    per: dict[tuple[str, str], dict[str, int]] = {}
    game_ids = events.column("game_id").to_pylist()
    kinds = events.column("kind").to_pylist()
    seats = events.column("seat").to_pylist()
    amounts = events.column("amount").to_pylist()
    targets = events.column("target").to_pylist()
    counted = ("knock", "fold", "pay", "hand_start", "score")
    for game_id, kind, seat, amount, target in zip(
        game_ids, kinds, seats, amounts, targets, strict=True
    ):
        if seat is None or kind not in counted:
            continue
        names = seats_by_game[game_id]
        if kind == "hand_start":
            if target is not None:  # Troefcall: the trump caller
                per.setdefault(names[target], {}).setdefault("calls", 0)
                per[names[target]]["calls"] += 1
            continue
        if kind == "score":  # Troefcall: points for the side, partners sit opposite
            for member in (seat, (seat + 2) % 4):
                line = per.setdefault(names[member], {})
                line["points"] = line.get("points", 0) + (amount or 0)
            continue
        line = per.setdefault(names[seat], {})
        if kind == "knock":
            line["knocks"] = line.get("knocks", 0) + 1
        elif kind == "fold":
            line["folds"] = line.get("folds", 0) + 1
        elif kind == "pay":
            line["cost"] = line.get("cost", 0) + (amount or 0)
    hands_per_player: dict[tuple[str, str], int] = {}
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
    games_per_player: dict[tuple[str, str], int] = {}
    for names in seats_by_game.values():
        for name in names:
            games_per_player[name] = games_per_player.get(name, 0) + 1
    players = [
        PlayerLine(
            ruleset=key[0],
            name=key[1],
            games=games_per_player.get(key, 0),
            hands=hands_per_player.get(key, 0),
            knocks=per.get(key, {}).get("knocks", 0),
            folds=per.get(key, {}).get("folds", 0),
            cost=per.get(key, {}).get("cost", 0),
            game_type=type_of[key[0]],
            calls=per.get(key, {}).get("calls", 0),
            points=per.get(key, {}).get("points", 0),
        )
        for key in sorted(games_per_player)
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
