"""kroeg record: a scripted game, refusals, kill -9 and --resume, and a real terminal."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.recorder.store import Dataset
from tests.recorder.table import play_example

runner = CliRunner()
KROEG = [sys.executable, "-m", "kroeg.cli"]
# The English seed's worked example, typed as a scorekeeper would.
SCRIPT = [
    "d",
    "a: jh jc td 9s; b: qh qc jd 8s; c: kh kc 7d as; d: ah 7c 8d qd",
    "jh", "qh", "kh", "ah",
    "7c", "jc", "qc", "kc",
    "b k", "f", "s", "s",
    "8d", "td", "jd",
    "a k", "s", "f",
    "9s", "8s",
    "quit",
]  # fmt: skip


def stored_events(dataset: Path):
    (record,) = Dataset(dataset).read_games()
    return record


def test_a_scripted_game_lands_in_the_dataset(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["record", "--into", str(tmp_path / "ds"), "--players", "Anna,Ben,Carla,Dan"],
        input="\n".join(SCRIPT) + "\n",
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "seats: 1 Anna, 2 Ben, 3 Carla, 4 Dan   (help: the commands)"
    assert "  Ben knocks: the stake is now 2" in lines
    assert "  scores: Anna 0 points, Ben 3 points, Carla 1 point, Dan 2 points" in lines
    record = stored_events(tmp_path / "ds")
    assert record.source == "manual"
    assert record.events == tuple(play_example().log)
    assert lines[-1] == f"  stored as game {record.game_id}"


def test_players_are_asked_and_refused_lines_get_the_reason(tmp_path: Path) -> None:
    script = ["Anna, Ben, Carla, Dan", "zz", *SCRIPT[:3], "2 8s", *SCRIPT[3:]]
    result = runner.invoke(app, ["record", "--into", str(tmp_path / "ds")], input="\n".join(script))
    assert result.exit_code == 1
    refused = [line for line in result.output.splitlines() if line.startswith("  refused:")]
    assert refused == [
        "  refused: expected a player (Anna, Ben, Carla, Dan, or a seat number 1 to 4), found 'zz'",
        "  refused: hand 1, trick 1: Ben must follow hearts (holds Qh)",
    ]
    assert result.output.splitlines()[-1] == "Error: 2 lines refused (see above)"
    assert stored_events(tmp_path / "ds").events == tuple(play_example().log)


def test_kill_9_mid_game_then_resume_gives_the_identical_game(tmp_path: Path) -> None:
    journal = tmp_path / "table.jsonl"
    command = [*KROEG, "record", "--into", str(tmp_path / "ds"), "--players",
               "Anna,Ben,Carla,Dan", "--journal", str(journal)]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stdin is not None
    typed = SCRIPT[:12]  # up to Ben's knock
    for line in typed:
        process.stdin.write(line + "\n")
        process.stdin.flush()
    # Wait until the journal holds every accepted step: header, hand start, 16 cards, 10 steps.
    for _ in range(600):
        if journal.exists() and len(journal.read_text().splitlines()) >= 28:
            break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    process.stdin.close()
    assert len(journal.read_text().splitlines()) == 28
    resumed = subprocess.run(
        [*KROEG, "record", "--resume", str(journal)],
        input="\n".join(SCRIPT[12:]) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[0] == f"resuming {journal}: hand 1, 27 steps"
    assert stored_events(tmp_path / "ds").events == tuple(play_example().log)
    again = subprocess.run([*KROEG, "record", "--resume", str(journal)], capture_output=True,
                           text=True, check=False)  # fmt: skip
    assert again.returncode == 1
    assert "this game was already stored as" in again.stderr


def read_terminal(fd: int, seen: bytearray, done: Callable[[], bool]) -> None:
    """Read the terminal into `seen` until `done()` (or 20 s pass, or the terminal closes)."""
    for _ in range(400):
        if done():
            return
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                seen.extend(os.read(fd, 4096))
            except OSError:
                return


def read_until(fd: int, text: str, seen: bytearray) -> str:
    """Read the terminal until `text` shows; return everything seen."""
    read_terminal(fd, seen, lambda: text.encode() in seen)
    return seen.decode("utf-8", errors="replace")


def read_prompt(fd: int, count: int, seen: bytearray) -> None:
    """Read the terminal until `count` prompts have shown."""
    read_terminal(fd, seen, lambda: seen.count(b"] > ") >= count)


def test_a_hand_typed_in_a_real_terminal(tmp_path: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: kroeg record on a terminal
        os.execv(sys.executable, [*KROEG, "record", "--into", str(tmp_path / "ds"),
                                  "--players", "Anna,Ben,Carla,Dan"])  # fmt: skip
    seen = bytearray()
    try:
        screen = read_until(fd, "[hand 1: name the dealer] > ", seen)
        assert "seats: 1 Anna, 2 Ben, 3 Carla, 4 Dan" in screen
        for line in SCRIPT[:-1]:
            # Type like a person: each line once its prompt shows. (Typed ahead, a line can
            # be lost when the terminal is switched into line-editing mode for the prompt.)
            prompts = seen.count(b"] > ")
            os.write(fd, (line + "\r").encode())
            read_prompt(fd, prompts + 1, seen)
        screen = read_until(fd, "[hand 2: Anna deals (Enter to start)] > ", seen)
        assert "Anna   J♥ J♣ 10♦ 9♠" in screen
        assert "Carla folds and pays 1" in screen
        assert "scores: Anna 0 points, Ben 3 points, Carla 1 point, Dan 2 points" in screen
        os.write(fd, b"quit\r")
        screen = read_until(fd, "stored as game", seen)
        assert "stored as game m" in screen
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
    assert stored_events(tmp_path / "ds").events == tuple(play_example().log)


# The first hand of sample_logs/troefcall-evening.txt, typed at the table.
TROEFCALL_SCRIPT = [
    "jacks: Anna Tc, Ben 6d, Carla 9c, Dan 5h, Anna Js",
    "",  # Dan deals, as the Jack says
    "a: 3c 5s 5d Ks 4s",  # the caller's first five
    "spades",
    "a: Ts As Jh 5h Tc 5c 8c 2c; b: 2d Td 9s 6c Jd 7d 6h Kc 6s Kd 3d Ac 2s; "
    "c: Js 2h Qc 3h 8h 7h 3s Qs Jc Qh 7s 4c 8s; d: 4d 8d 7c 9d 9h 9c Th 4h 6d Qd Ah Kh Ad",
    "as, 2s, 3s, 4d", "ks, 6s, 7s, 4h", "ts, 9s, 8s, 6d", "5s, 2d, js, 7c",
    "qs, 8d, 4s, 3d", "2h, 9h, jh, 6h", "2c, 6c, jc, 9c",
    "c kap",
    "",  # hand 2: Anna deals
    "b trumps hearts",  # nobody wrote Ben's five down
    "skip",
    "kh, th, 2h, ah",
    "quit",
]  # fmt: skip


def test_a_troefcall_hand_recorded_at_the_table(tmp_path: Path) -> None:
    from dataclasses import replace

    from kroeg.parsers import notation

    result = runner.invoke(
        app,
        ["record", "--into", str(tmp_path / "ds"), "--players", "Anna,Ben,Carla,Dan",
         "--rules", "troefcall", "--variant", "target-15"],
        input="\n".join(TROEFCALL_SCRIPT) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  Carla: kap! (Anna & Carla took the first 7 tricks)" in lines
    assert "  scores: Anna 5 points, Ben 0 points, Carla 5 points, Dan 0 points" in lines
    record = stored_events(tmp_path / "ds")
    assert record.game_type == "troefcall" and record.teams == (0, 1, 0, 1)
    (sample,) = notation.load(Path(__file__).resolve().parents[2] / "sample_logs"
                              / "troefcall-evening.txt")  # fmt: skip
    first_hand = sample.events[: [e.kind for e in sample.events].index("hand_start", 6)]
    assert record.events == first_hand  # the unfinished second hand is left out
    assert replace(record, events=()).rules == sample.rules
