"""`export_games` reads the dataset once, in the files' order, and writes the games in
the order played: the same text as one `dumps` of them all, whether the games that come
before their turn wait in memory or in a temporary file, and when a compaction swaps the
files half-way."""

from __future__ import annotations

import io

import pytest

import kroeg.parsers.export as export
from kroeg.parsers import jsonl, notation
from kroeg.parsers.export import choose_games, export_games
from kroeg.recorder.errors import DatasetChanged
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    """Two landings and a compaction's worth of games whose play order is not their
    files' order (nor their ids')."""
    ds = Dataset(tmp_path_factory.mktemp("export") / "ds")
    simulate_into(ds, Ruleset.preset("classic"), 4, 300, 1, ["random", "sharp"], batch_hands=100)
    simulate_into(ds, Ruleset.preset("troefcall"), 4, 60, 2, ["sharp", "random"])
    return ds


def _played(ds: Dataset) -> list[str]:
    return choose_games(ds)


def test_the_text_is_one_dumps_of_every_game(dataset: Dataset) -> None:
    ids = _played(dataset)
    by_id = {r.game_id: r for r in dataset.read_games()}
    for fmt, dumps in (("text", notation.dumps), ("jsonl", jsonl.dumps)):
        out = io.StringIO()
        written = export_games(dataset, ids, fmt, out)  # type: ignore[arg-type]
        assert out.getvalue() == dumps([by_id[g] for g in ids])
        assert (written.games, written.hands) == (len(ids), sum(r.hands for r in by_id.values()))


def test_games_waiting_in_a_temporary_file_come_out_the_same(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _played(dataset)[::-1]  # against the files' order: nearly every game waits
    whole = io.StringIO()
    export_games(dataset, ids, "text", whole)
    monkeypatch.setattr(export, "HELD", 5_000)
    spilled = io.StringIO()
    export_games(dataset, ids, "text", spilled)
    assert spilled.getvalue() == whole.getvalue()


def test_a_compaction_half_way_loses_no_game_and_doubles_none(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _played(dataset)
    whole = io.StringIO()
    export_games(dataset, ids, "jsonl", whole)
    original = Dataset.game_groups
    calls: list[int] = []
    before_swap: list[int] = []

    def swapped_once(self: Dataset, game_ids: list[str]):  # type: ignore[no-untyped-def]
        calls.append(len(game_ids))
        for number, (games, events) in enumerate(original(self, game_ids)):
            if len(calls) == 1 and number == 1:
                raise DatasetChanged("events/part-x.parquet: gone while being read")
            before_swap.append(games.num_rows)
            yield games, events

    monkeypatch.setattr(Dataset, "game_groups", swapped_once)
    again = io.StringIO()
    progress: list[tuple[int, int]] = []
    export_games(dataset, ids, "jsonl", again, lambda d, t: progress.append((d, t)), batch=10)
    assert again.getvalue() == whole.getvalue()
    # The second reading: only the games the first did not read (its first row group's).
    assert 0 < before_swap[0] < len(ids)
    assert calls == [len(ids), len(ids) - before_swap[0]]
    assert progress[-1] == (len(ids), len(ids))


def test_one_game_alone(dataset: Dataset) -> None:
    (game_id,) = _played(dataset)[7:8]
    out = io.StringIO()
    export_games(dataset, [game_id], "text", out)
    assert out.getvalue() == notation.dumps(dataset.read_game(game_id))
