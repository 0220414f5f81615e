"""Long commands say what they are doing on a terminal: `compact`, `check` and `info`
(the analysis has its own bar, tests/kroeg/test_cli.py)."""

from __future__ import annotations

import io
import threading
from pathlib import Path

from kroeg._options import Working
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset


class Terminal(io.StringIO):
    """A stream that says it is a terminal, and tells when something was drawn on it."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if "writing month" in text:
            self.drawn.set()
        return super().write(text)


def test_the_line_names_the_work_its_stage_and_is_cleared_at_the_end() -> None:
    terminal = Terminal()
    with Working("Compacting club.kroeg", stream=terminal, after=0, every=0.01) as working:
        working.stage("writing month 2 of 6 (29,198 events)")
        assert terminal.drawn.wait(10)
    written = terminal.getvalue()
    assert written.endswith("\r\x1b[2K")
    last = written.split("\r\x1b[2K")[-2]
    assert last.startswith("Compacting club.kroeg: writing month 2 of 6 (29,198 events) ")
    assert last.endswith(" 0 s")


def test_nothing_is_written_to_a_pipe_or_before_the_work_is_slow() -> None:
    pipe = io.StringIO()
    with Working("Checking club.kroeg", stream=pipe, after=0) as working:
        working.stage("reading file 1 of 2")
    terminal = Terminal()
    with Working("Compacting club.kroeg", stream=terminal, after=60):
        pass
    assert pipe.getvalue() == "" and terminal.getvalue() == ""


def test_a_name_cannot_move_the_cursor() -> None:
    line = Working("Checking \x1b[2Jclub", stream=io.StringIO())
    line.stage("reading \x1b]0;x\x07 file")
    assert "\x1b" not in line.line()


def test_compact_and_check_say_each_stage(tmp_path: Path) -> None:
    dataset = Dataset(tmp_path / "club")
    for seed in (1, 2):
        dataset.write(list(simulate(Ruleset.preset("classic"), 4, 30, seed, ["random"])))
    stages: list[str] = []
    dataset.verify(stages.append)
    assert stages == [f"reading file {n} of 4" for n in (1, 2, 3, 4)]
    stages.clear()
    dataset.compact("month", stages.append)
    months = len({p.parent.name for p in dataset.files("games")})
    assert stages[0] == "reading and sorting 4 files"
    assert [s.split(" (")[0] for s in stages[1:-1]] == [
        f"writing month {n} of {months}" for n in range(1, months + 1)
    ]
    assert stages[-1] == "putting the new files in place"
