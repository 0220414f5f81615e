"""A dataset in numbers, read with pyarrow alone: the head of what `kroeg info` prints.

Per-player figures are not counted here: `kroeg info` takes them from the
analytics views, the one place where hands, knocks, folds and costs are counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow.compute as pc

from kroeg.recorder.store import Dataset

__all__ = ["DatasetSummary", "summarize"]


@dataclass(frozen=True)
class DatasetSummary:
    """Counts and size on disk."""

    games: int
    hands: int
    events: int
    files: int
    bytes_on_disk: int
    rulesets: dict[str, int]

    @property
    def bytes_per_hand(self) -> float:
        """Bytes on disk (both tables) per hand."""
        return self.bytes_on_disk / self.hands if self.hands else 0.0


def summarize(dataset: Dataset) -> DatasetSummary:
    """Count games, hands and events, and the games of each rule set."""
    games = dataset.games_table()
    kinds = dataset.events_table().column("kind")
    files = dataset.files("games") + dataset.files("events")
    rulesets: dict[str, int] = {}
    for name in games.column("ruleset").to_pylist():
        rulesets[name] = rulesets.get(name, 0) + 1
    return DatasetSummary(
        games=games.num_rows,
        hands=int(pc.sum(pc.equal(kinds, "hand_start")).as_py() or 0),
        events=len(kinds),
        files=len(files),
        bytes_on_disk=sum(p.stat().st_size for p in files),
        rulesets=rulesets,
    )
