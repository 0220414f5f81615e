"""Ctrl-C during the analysis: one line, exit 130, no worker left, the finished batches kept.

A real `kroeg` process analyses a simulated dataset on worker processes; the test sends
SIGINT to its whole process group, as a terminal's Ctrl-C does.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kroeg.analytics.derived import pending
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

INTERRUPTED = re.compile(
    r"Interrupted: the (\d[\d,]*) games? analysed so far (?:are|is) kept; run it again to go on"
)
PROGRESS = re.compile(
    r"Analysing [\d,]+ new games \(once\)"
    r"(?: \.\.\.|: [\d,]+ done \(\d+%\), \d+ s(?:, about [\d:]+ left)?)"
)


def _workers_of(pid: int) -> list[int]:
    """The analysis workers among a process's children."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread that ended between the listing and the read
            continue
        for child in map(int, children):
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            if b"kroeg.analytics.workers" in command:
                found.append(child)
    return found


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # a zombie runs nothing (its parent has not reaped it yet)


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough games for worker processes and for the analysis to last past the signal."""
    dataset = Dataset(tmp_path_factory.mktemp("ctrl-c") / "ds").create()
    simulate_into(dataset, Ruleset.preset("classic"), 4, 3_500, 5, ["random", "bluffer"])
    return dataset.path


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", ["analyse", "stats"])
def test_ctrl_c_during_the_analysis_is_one_line_and_leaves_no_worker(
    command: str, many_games: Path, tmp_path: Path
) -> None:
    import shutil

    copy = tmp_path / "ds"
    shutil.copytree(many_games, copy)
    total = len(Dataset(copy).game_ids())
    process = subprocess.Popen(
        [sys.executable, "-m", "kroeg.cli", command, str(copy)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        first = process.stderr.readline().decode()  # the analysis has begun
        assert PROGRESS.fullmatch(first.rstrip("\n")), first
        workers: list[int] = []
        for _ in range(600):  # until its workers run (they start with the analysis)
            workers = _workers_of(process.pid)
            if len(workers) >= 2 or process.poll() is not None:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the analysis ran no worker processes"
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole process group
        out, rest = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for pipe in (process.stdout, process.stderr):  # a failure above leaks none
            if pipe is not None:
                pipe.close()
    err = (first + rest.decode()).splitlines()
    assert process.returncode == 130, err
    assert out == b""
    *before, last = err
    assert all(PROGRESS.fullmatch(line) for line in before), err  # no dump, no traceback
    found = INTERRUPTED.fullmatch(last)
    assert found, err
    assert all(_gone(pid) for pid in workers)  # reaped before the command ended
    kept = int(found.group(1).replace(",", ""))
    assert kept == total - pending(Dataset(copy))  # the line says what is stored
    assert kept < total
    again = subprocess.run(
        [sys.executable, "-m", "kroeg.cli", "analyse", str(copy)], capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr
    assert f"{total - kept:,} games analysed, {kept:,}" in again.stdout  # it goes on
    assert pending(Dataset(copy)) == 0
