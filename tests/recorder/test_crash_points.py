"""Every writing command, stopped at each of its file-system changes in turn.

A command is run once to count its changes (`recorder.fsops` sees each one), then
once per change with the process "killed" there: the change raises, and every
later change raises too, as nothing runs after a SIGKILL. Then the dataset is
written to again, as the next command would, and must hold every game whole and
once, with derived facts once each and stored counts that agree with the events.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich
from kroeg.analytics.totals import store_counts
from kroeg.analytics.views import connect
from kroeg.parsers.files import import_files
from kroeg.recorder import fsops
from kroeg.recorder.cards import Card
from kroeg.recorder.manual import ManualGame
from kroeg.recorder.referee import replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate, simulate_into
from kroeg.recorder.store import Dataset

HANDS = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
CLASSIC = Ruleset.preset("classic")


class Killed(BaseException):
    """The process died here (a BaseException: no `except Exception` catches it)."""


@pytest.fixture(autouse=True)
def _no_hook_left() -> Iterator[None]:
    yield
    fsops.hook = None


def count_changes(run: Callable[[], object]) -> int:
    seen: list[str] = []
    fsops.hook = lambda name, *paths: seen.append(name)
    try:
        run()
    finally:
        fsops.hook = None
    return len(seen)


def kill_at(n: int) -> None:
    """From the n-th change on, every change raises Killed instead of happening."""
    done = 0

    def hook(name: str, *paths: Path) -> None:
        nonlocal done
        done += 1
        if done >= n:
            raise Killed(f"killed before change {n} ({name} {[p.name for p in paths]})")

    fsops.hook = hook


def base(tmp_path: Path) -> Dataset:
    """A dataset of three landings (three files per table) with facts and counts stored."""
    ds = Dataset(tmp_path / "base")
    for seed in range(3):
        ds.write(simulate(CLASSIC, 4, 12, seed, ["random", "bluffer"]))
    store_counts(ds)
    enrich(ds, samples=4)
    return ds


def check_whole(ds: Dataset, recovered: bool = True) -> None:
    """Every game has all its events, once; derived facts once; stored counts agree.

    Before recovery a crashed operation may still leave its hidden staging folder and
    plan (no reader looks at them); after it, nothing. The games and events are checked
    both times, the derived facts and counts after recovery."""
    games = ds.games_table().column("game_id").to_pylist()
    assert len(games) == len(set(games)), "a game appears twice"
    events = ds.events_table()
    columns = (events.column(c).to_pylist() for c in ("game_id", "hand", "seq"))
    keys = list(zip(*columns, strict=True))
    assert len(keys) == len(set(keys)), "an event appears twice"
    assert set(events.column("game_id").to_pylist()) == set(games), "events without their game"
    for record in ds.read_games():
        replay(record.rules, record.players, record.events)  # complete and legal
    if not recovered:
        return  # the derived facts are checked once the next command has run
    con = connect(ds)
    for table in ("knock_facts", "fold_facts"):
        total, distinct = con.sql(
            f"SELECT count(*), count(DISTINCT (game_id, hand, seq)) FROM {table}"
        ).fetchall()[0]
        assert total == distinct, f"{table}: a fact stored twice"
    stored = con.sql("SELECT * FROM seat_counts_stored ORDER BY game_id, seat").fetchall()
    live = con.sql(
        "SELECT * FROM seat_counts WHERE game_id IN (SELECT game_id FROM seat_counts_stored) "
        "ORDER BY game_id, seat"
    ).fetchall()
    assert sorted(map(str, stored)) == sorted(map(str, live)), "stored counts disagree"
    if recovered:
        assert not list(ds.path.glob(".staging-*")), "a staging folder is left"
        assert not ds.pending_operations(), "an operation is left unfinished"


def one_more_game(ds: Dataset) -> None:
    """What the next command does: land a game (which recovers first)."""
    ds.write(simulate(CLASSIC, 4, 3, 999, ["random"]))


def manual_landing(ds: Dataset, tmp_path: Path) -> Callable[[], object]:
    manual = ManualGame.start(
        ["Anna", "Ben", "Carla", "Dan"], CLASSIC, tmp_path / "j.jsonl", dataset=ds.path
    )
    manual.start_hand(3)
    manual.deal({s: [Card.parse(c) for c in h.split()] for s, h in enumerate(HANDS)})
    for trick in ("Jh Qh Kh Ah", "7c Jc Qc Kc", "8d Td Jd 7d", "9s 8s As Qd"):
        for card in trick.split():  # each card by whoever holds it; the engine says who
            manual.play(manual.game.to_move or 0, Card.parse(card))
    return lambda: manual.land()


COMMANDS: dict[str, Callable[[Dataset, Path], Callable[[], object]]] = {
    "compact": lambda ds, tmp: ds.compact,
    "compact-by-month": lambda ds, tmp: lambda: ds.compact("month"),
    "import": lambda ds, tmp: (
        lambda: import_files(
            [SAMPLES / "classic-evening.txt", SAMPLES / "troefcall-evening.txt"], ds
        )
    ),
    "simulate": lambda ds, tmp: (
        lambda: simulate_into(ds, CLASSIC, 4, 40, 7, ["random"], batch_hands=15)
    ),
    "record": manual_landing,
    "analysis": lambda ds, tmp: lambda: (store_counts(ds), enrich(ds, samples=2)),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_kill_at_any_change_loses_nothing_and_doubles_nothing(
    command: str, tmp_path: Path
) -> None:
    origin = base(tmp_path)
    if command == "analysis":  # new games, not analysed yet
        origin.write(simulate(CLASSIC, 4, 8, 42, ["bluffer"]))
    before = set(origin.game_ids())
    probe = Dataset(tmp_path / "probe")
    shutil.copytree(origin.path, probe.path)
    changes = count_changes(COMMANDS[command](probe, tmp_path / "probe-j"))
    after = set(probe.game_ids())
    assert changes >= 4
    for n in range(1, changes + 1):
        ds = Dataset(tmp_path / f"kill-{n}")
        shutil.copytree(origin.path, ds.path)
        run = COMMANDS[command](ds, tmp_path / f"j-{n}")
        kill_at(n)
        with pytest.raises(Killed):
            run()
        fsops.hook = None
        check_whole(ds, recovered=False)  # readers see a whole dataset even before recovery
        # Each landing whole or not there (a manual game's id is new with every start).
        assert before <= set(ds.game_ids()) and len(ds.game_ids()) <= len(after)
        one_more_game(ds)
        if command == "analysis":
            store_counts(ds)
            enrich(ds, samples=2)
        check_whole(ds)
        assert before <= set(ds.game_ids())
