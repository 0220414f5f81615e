"""How the `kroeg` process ends: with the command's status, its output out, and no
interpreter teardown.

On a loaded machine the teardown destroyed a library's thread pool while one of its C++
threads was still joinable and aborted the process after a correct `Error:` line
(exit -6, "terminate called without an active exception"). `main()` now ends through
`os._exit` once stdout and stderr are flushed; these tests pin the status it ends with
on every way out, and that what was printed is not lost on the way.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from kroeg import cli

ROOT = Path(__file__).resolve().parents[2]


class Left(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@pytest.fixture
def leave(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_exit(code: int) -> None:
        raise Left(code)

    monkeypatch.setattr(cli.os, "_exit", fake_exit)


def _ends(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> int:
    monkeypatch.setattr(sys, "argv", ["kroeg", *argv])
    with pytest.raises(Left) as left:
        cli.main()
    return left.value.code


@pytest.mark.usefixtures("leave")
def test_a_command_that_succeeds_ends_with_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ends(monkeypatch, ["--version"]) == 0
    assert capsys.readouterr().out.startswith("kroeg ")


@pytest.mark.usefixtures("leave")
def test_a_refused_dataset_ends_with_1_and_its_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert _ends(monkeypatch, ["info", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err.startswith("Error: ")


@pytest.mark.usefixtures("leave")
def test_a_usage_mistake_ends_with_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ends(monkeypatch, ["no-such-command"]) == 2
    assert "(see kroeg --help)" in capsys.readouterr().err


@pytest.mark.usefixtures("leave")
def test_a_command_that_exits_with_a_message_says_it_and_ends_with_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def ends_itself(*args: object, **kwargs: object) -> None:
        raise SystemExit("the shop is closed")

    monkeypatch.setattr(cli, "app", ends_itself)
    assert _ends(monkeypatch, []) == 1
    assert capsys.readouterr().err.strip() == "the shop is closed"


@pytest.mark.usefixtures("leave")
def test_an_abort_says_so_and_ends_with_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def aborts(*args: object, **kwargs: object) -> None:
        raise typer.Abort()

    monkeypatch.setattr(cli, "app", aborts)
    assert _ends(monkeypatch, []) == 1
    assert capsys.readouterr().err.strip() == "Aborted."


def test_output_sent_to_a_pipe_is_all_there_when_the_process_ends() -> None:
    """A block-buffered stdout (a pipe, not a terminal) is flushed before `os._exit`:
    without the flush, what a command wrote without echo's own flush would be lost."""
    script = (
        "import sys\n"
        "from kroeg.cli import _leave\n"
        "sys.stdout.write('x' * 10_000 + ' the end')\n"
        "sys.stderr.write('said on stderr')\n"
        "_leave(3)\n"
    )
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True, text=True, cwd=ROOT, check=False, env=buffered,
    )  # fmt: skip
    assert (done.returncode, done.stdout[-8:], done.stderr) == (3, " the end", "said on stderr")
