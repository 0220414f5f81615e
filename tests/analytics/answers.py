"""The fixed 20,000-hand dataset whose stored verdicts must never change unnoticed, and
the digests of its games and facts (issue 27: the native core gives the same answers).

`python -m tests.analytics.answers` prints the digests of the code as it is now; the test
(tests/analytics/test_same_answers.py) holds them to `DIGESTS`. A change to an estimator
that changes them on purpose says how in docs/STATS.md and updates `DIGESTS`.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

import pyarrow as pa

from kroeg.analytics.derived import enrich
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

#: (rule set, variants, players, hands, seed, bots): 20,000 hands over the rule sets whose
#: verdicts differ most (classic; lives with armoede redeals and laundry; team toepen).
PARTS = (
    ("classic", (), 4, 12_000, 1, ("random", "bluffer", "cautious", "sharp")),
    ("lives", ("poverty", "dirty-laundry"), 3, 4_000, 2, ("sharp", "bluffer", "random")),
    ("classic", ("team-toepen",), 6, 4_000, 3, ("cautious", "bluffer", "sharp", "random")),
)
START = datetime(2026, 11, 1, 20, 0)

#: SHA-256 of each table's rows (sorted). Games, events and folds as the code of
#: 2026-12-01 (37d87a6) stored them, before the native core; knocks as issue 28 left them
#: (the hidden deals that keep a player's voids made exactly uniform, where they had
#: leaned toward the suits an earlier player was void in; a team knock held to its side's
#: fair share, not a player's); answers as issue 28 added them, with `partners_play_on`
#: (analysis version 5: the other columns' digest is still 11e50174…).
DIGESTS = {
    "games": "e473dd505fb892f935c207373c02078f9bb039a2efdc42d5851c241a66f246d8",
    "events": "596a41d90ac270619cf798eebe04bc4d9d32fe25d39bf4ff10ac1f1518875b60",
    "knocks": "d303370e8fb7085ca741faaa50693156c3579e7c1ad1f3efa52dc9b80207c8c2",
    "folds": "445ce1fd3f84789c7f43264177791dc8e0793574191dc6971145bb74f59f7a02",
    "answers": "5939046122a999d8355a09d053da9ab2d3b20dd331573ce164b4085eabcbc684",
}


def build(root: Path) -> Dataset:
    """The dataset, simulated into `root` and analysed."""
    dataset = Dataset(root)
    for preset, variants, players, hands, seed, bots in PARTS:
        rules = Ruleset.preset(preset).with_variants(*variants)
        simulate_into(dataset, rules, players, hands, seed, bots, start=START)
    enrich(dataset)
    return dataset


def _digest(table: pa.Table, keys: list[str]) -> str:
    table = table.sort_by([(k, "ascending") for k in keys])
    h = hashlib.sha256()
    for name in sorted(table.column_names):
        h.update(name.encode())
        for value in table.column(name).to_pylist():
            h.update(repr(value).encode() + b"\0")
    return h.hexdigest()


def _derived(dataset: Dataset, name: str) -> pa.Table:
    tables = [dataset.read_file(path) for path in dataset.files(f"derived/{name}")]
    return pa.concat_tables(tables, promote_options="default")


#: Columns of `games` added after these digests were recorded.
ADDED_GAMES_COLUMNS = ("evening",)


def digests(dataset: Dataset) -> dict[str, str]:
    """The digest of each table: games and events (the engine's games), knocks, folds and
    answers (the analysis's verdicts)."""
    games = dataset.games_table()
    # A column added to `games` later (docs/FORMAT.md: `evening`), NULL for every engine
    # game, changes nothing about the games: they are digested as before it existed.
    added = [c for c in ADDED_GAMES_COLUMNS if c in games.column_names]
    games = games.drop_columns([c for c in added if games.column(c).null_count == len(games)])
    return {
        "games": _digest(games, ["game_id"]),
        "events": _digest(dataset.events_table(), ["game_id", "hand", "seq"]),
        "knocks": _digest(_derived(dataset, "knocks"), ["game_id", "hand", "seq"]),
        "folds": _digest(_derived(dataset, "folds"), ["game_id", "hand", "seq"]),
        "answers": _digest(_derived(dataset, "answers"), ["game_id", "hand", "seq"]),
    }


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        found = digests(build(Path(tmp) / "answers"))
    for name, value in found.items():
        print(f'    "{name}": "{value}",')
    sys.exit(0)
