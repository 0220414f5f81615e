"""Many games written back in one pass: `kroeg export` with several `--game`, a date
range, or the whole dataset.

The games are read a batch at a time and written as they come (memory holds one batch,
not the dataset), in the order they were played; the text is exactly what `dumps` of
all of them at once would give, so a file written here reads back identical.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import IO, Literal

from kroeg.parsers import jsonl, notation
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset

__all__ = ["BATCH", "Exported", "choose_games", "export_games"]

#: Games read from the dataset at once.
BATCH = 500


class Exported:
    """What an export wrote: its games and their hands."""

    def __init__(self) -> None:
        self.games = 0
        self.hands = 0


def choose_games(
    dataset: Dataset,
    given: Sequence[str] = (),
    since: date | None = None,
    until: date | None = None,
) -> list[str]:
    """The games to export, in the order they were played (then by id): those `given`
    (whole ids or unique starts), else every game, kept to `since`..`until` (days,
    both included; a game with no date is kept only without a range)."""
    games = dataset.games_table().select(["game_id", "started_at"]).to_pylist()
    wanted = {dataset.resolve_game(g) for g in given} if given else None
    chosen = []
    for row in games:
        if wanted is not None and row["game_id"] not in wanted:
            continue
        day = row["started_at"].date() if row["started_at"] is not None else None
        if (since or until) and day is None:
            continue
        if (since and day is not None and day < since) or (
            until and day is not None and day > until
        ):
            continue
        when = row["started_at"]
        chosen.append((when is None, when.isoformat() if when else "", row["game_id"]))
    return [game_id for *_, game_id in sorted(chosen)]


def export_games(
    dataset: Dataset,
    game_ids: Sequence[str],
    fmt: Literal["text", "jsonl"],
    out: IO[str],
    progress: Callable[[int, int], None] | None = None,
    batch: int = BATCH,
    read: Callable[[Sequence[str]], Iterable[GameRecord]] | None = None,
) -> Exported:
    """Write `game_ids` to `out` in `fmt`, a batch at a time, in the order given;
    `progress(done, total)` after each batch. `read` reads a batch (default
    `dataset.read_games`; a caller may retry it when a compaction swaps the files: what
    was written is never written twice)."""
    dump = notation.dumps if fmt == "text" else jsonl.dumps
    read = read or dataset.read_games
    done = Exported()
    for start in range(0, len(game_ids), batch):
        chunk = game_ids[start : start + batch]
        records = {r.game_id: r for r in read(chunk)}
        for game_id in chunk:
            record = records[game_id]
            if done.games and fmt == "text":
                out.write("\n")  # games apart by a blank line, as `dumps` of them all
            out.write(dump(record))
            done.games += 1
            done.hands += record.hands
        if progress is not None:
            progress(done.games, len(game_ids))
    return done
