"""Files that are not what they claim: a FIFO, a folder, a file kroeg may not read or write,
and the manual-entry journal torn by a crash.

A FIFO named `*.parquet` used to hang `info` and `check` (opening it waits for a writer
for ever): it is refused unopened. A permission error is said as one, not as "damaged,
re-import". A write the system refuses undoes itself and leaves no plan behind.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder import fsops, store
from kroeg.recorder.cards import Card
from kroeg.recorder.errors import AccessError
from kroeg.recorder.manual import ManualGame
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from tests.recorder.table import HANDS

ROOT = Path(__file__).resolve().parents[2]
#: A safety net, not a measurement: the old code never came back from a FIFO.
PATIENCE = 120
NAME = "part-20261101T200000-0123abcd.parquet"


def kroeg(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def landed(tmp_path: Path) -> Dataset:
    ds = Dataset(tmp_path / "club")
    ds.write(simulate(Ruleset.preset("classic"), 4, 12, 1, ["random"]))
    return ds


def run(*args: object) -> subprocess.CompletedProcess[str]:
    """`kroeg …` as a process of its own: a hang is a failure, not a stuck test run."""
    return subprocess.run(
        [sys.executable, "-m", "kroeg.cli", *map(str, args)],
        capture_output=True, text=True, timeout=PATIENCE, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


@pytest.mark.parametrize("table", ["games", "events", "derived/knocks"])
def test_a_fifo_named_parquet_is_refused_not_waited_on(tmp_path: Path, table: str) -> None:
    ds = landed(tmp_path)
    folder = ds.path / table
    folder.mkdir(parents=True, exist_ok=True)
    fifo = folder / NAME
    os.mkfifo(fifo)
    found = f"{fifo}: not a Parquet file but a FIFO; kroeg reads only plain files"
    check = run("check", ds.path)
    assert check.returncode == 1
    assert (
        f"{found}: move it out of the dataset (nothing reads it safely)"
        in check.stdout.splitlines()
    )
    if table != "events":  # an events file without its games file is not read at all
        info = run("info", ds.path)
        assert (info.returncode, info.stderr.splitlines()) == (1, [f"Error: {found}"])


def test_a_folder_named_parquet_is_named_as_a_folder(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    (ds.games_dir / NAME).mkdir()
    result = kroeg("info", ds.path)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {ds.games_dir / NAME}: not a Parquet file but a folder; kroeg reads only "
        "plain files"
    ]


def unreadable(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `path` one kroeg may not read: by its mode, or (as root, whom no mode stops)
    by the error the system would give."""
    path.chmod(0)
    if os.geteuid() != 0:
        return
    real_schema, real_table = store.pq.read_schema, store.pq.read_table

    def refuse(real):  # type: ignore[no-untyped-def]
        def call(where, *args, **kwargs):  # type: ignore[no-untyped-def]
            if Path(where) == path:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real(where, *args, **kwargs)

        return call

    monkeypatch.setattr(store.pq, "read_schema", refuse(real_schema))
    monkeypatch.setattr(store.pq, "read_table", refuse(real_table))


def test_a_file_kroeg_may_not_read_is_a_permission_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = landed(tmp_path)
    [games] = ds.files("games")
    unreadable(games, monkeypatch)
    denied = (
        f"{games}: permission denied: kroeg may not read this file (the file may be sound); "
        "give the user running kroeg read access to it"
    )
    info = kroeg("info", ds.path)
    assert info.exit_code == 1
    assert info.stderr.splitlines() == [f"Error: {denied}"]
    check = kroeg("check", ds.path)
    assert check.exit_code == 1
    assert denied in check.stdout.splitlines()
    assert "re-import" not in check.stdout
    games.chmod(0o644)


def refuse_games_file(name: str, *paths: Path) -> None:
    """The system refuses the second file of a write, as a read-only folder would."""
    if name == "create" and paths[0].parent.name == "games":
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(paths[0]))


def test_a_refused_write_leaves_no_plan_and_no_half(tmp_path: Path) -> None:
    ds = landed(tmp_path)
    before = sorted(p.relative_to(ds.path) for p in ds.path.rglob("*") if p.is_file())
    fsops.hook = refuse_games_file
    try:
        with pytest.raises(AccessError) as raised:
            ds.write(simulate(Ruleset.preset("classic"), 4, 6, 9, ["random"]))
    finally:
        fsops.hook = None
    assert str(raised.value) == (
        f"{ds.games_dir}: permission denied: kroeg may not write here; give the user running "
        "kroeg write access to the dataset's folders"
    )
    after = sorted(p.relative_to(ds.path) for p in ds.path.rglob("*") if p.is_file())
    assert after == before  # no plan, no events file without its games
    assert kroeg("check", ds.path).exit_code == 0


def test_a_refused_import_is_one_error_line(tmp_path: Path, samples: Path) -> None:
    ds = landed(tmp_path)
    fsops.hook = refuse_games_file
    try:
        result = kroeg("import", samples / "classic-evening.txt", "--into", ds.path)
    finally:
        fsops.hook = None
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {ds.games_dir}: permission denied: kroeg may not write here; give the user "
        "running kroeg write access to the dataset's folders"
    ]
    assert not ds.pending_operations()


def started(tmp_path: Path) -> ManualGame:
    manual = ManualGame.start(
        ["Anna", "Ben", "Carla", "Dan"], Ruleset.preset("classic"), tmp_path / "j.jsonl"
    )
    manual.start_hand(3)
    manual.deal({s: [Card.parse(c) for c in h.split()] for s, h in enumerate(HANDS)})
    for card in ("Jh", "Qh"):
        manual.play(manual.game.to_move or 0, Card.parse(card))
    return manual


def test_a_torn_last_journal_line_is_repaired_before_the_next_entry(tmp_path: Path) -> None:
    manual = started(tmp_path)
    journal = tmp_path / "j.jsonl"
    with open(journal, "a") as handle:
        handle.write('{"event": ["play", 2, "K')  # killed in the middle of a write
    again = ManualGame.resume(journal)
    assert again.game.log == manual.game.log
    assert journal.read_text().endswith("\n")
    again.play(again.game.to_move or 0, Card.parse("Kh"))  # the step the crash lost
    third = ManualGame.resume(journal)  # failed before: the entry was glued to the torn line
    assert third.game.log == again.game.log
    assert len(third.inputs) == len(manual.inputs) + 1


def test_a_last_journal_entry_without_its_newline_is_kept(tmp_path: Path) -> None:
    manual = started(tmp_path)
    journal = tmp_path / "j.jsonl"
    journal.write_text(journal.read_text()[:-1])  # cut just before the last newline
    again = ManualGame.resume(journal)
    assert again.game.log == manual.game.log
    again.play(again.game.to_move or 0, Card.parse("Kh"))
    assert len(ManualGame.resume(journal).inputs) == len(manual.inputs) + 1


def test_a_fifo_as_the_journal_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "j.jsonl"
    os.mkfifo(fifo)
    result = run("record", "--resume", fifo)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {fifo}: not a journal file (a FIFO, a folder or a device)"
    ]
