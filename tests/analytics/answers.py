"""The fixed 20,000-hand dataset whose stored verdicts must never change unnoticed, and
the digests of its games and facts (issue 27: the native core gives the same answers;
issue 28: the knocks made judged as choices, `knock_choices`, since analysis version 9).

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
#: (analysis version 5: the other columns' digest is still 11e50174…). Every table's digest
#: changed once more on 2026-12-02, and only by the team-toepen part's games: the sharp bot
#: learnt that a fold in team toepen leaves its partners to pay again, and stays while one
#: is in (recorder/bots.py), so those games are played differently; the classic and lives
#: parts' digests, computed alone, are the same before and after that change.
DIGESTS = {
    "games": "e7522d328941734a76bc8c77aedaa0b3259b7457f101d18bb843c272b646f9a9",
    "events": "0f17d2cc66c437db38406596ab37c732e93bff2bd5e80e051cea0a7842b28c9a",
    "knocks": "2abd062e02c8a4fb9fc5a6668235b6955247424fd208eff43f42cd0c38069128",
    "folds": "d39d05d37e7e8f07e6e90353ba03dc4334e99faac674d9e49050ab2be7e7a673",
    "answers": "c80b34f2a41a46a170569607694819db4d8514d5d82a83872e1322fec12f0f74",
    "knock_choices": "5fb36890c244fee548ab5e1aafa5c935938423d59c2ef5ba07d159882303bdc7",
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
#: The knocks' verdict as a choice (analysis version 9), added after the strengths'
#: digest was recorded: digested apart, as `knock_choices`.
KNOCK_CHOICE_COLUMNS = (
    "stake", "cost_knock", "cost_other", "other_choice", "ev_lost", "grade", "accuracy",
)  # fmt: skip


def digests(dataset: Dataset) -> dict[str, str]:
    """The digest of each table: games and events (the engine's games), knocks, folds and
    answers (the analysis's verdicts)."""
    games = dataset.games_table()
    # A column added to `games` later (docs/FORMAT.md: `evening`), NULL for every engine
    # game, changes nothing about the games: they are digested as before it existed.
    added = [c for c in ADDED_GAMES_COLUMNS if c in games.column_names]
    games = games.drop_columns([c for c in added if games.column(c).null_count == len(games)])
    knocks = _derived(dataset, "knocks")
    keys = ["game_id", "hand", "seq"]
    choices = knocks.select([*keys, *KNOCK_CHOICE_COLUMNS])
    return {
        "games": _digest(games, ["game_id"]),
        "events": _digest(dataset.events_table(), ["game_id", "hand", "seq"]),
        "knocks": _digest(knocks.drop_columns(list(KNOCK_CHOICE_COLUMNS)), keys),
        "knock_choices": _digest(choices, keys),
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
