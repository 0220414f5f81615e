"""What every command of `kroeg` shares: turning errors into `Error:` lines, the choices
typer checks, the common arguments, and the helpers that talk to the terminal.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from analytics.report import plural
from recorder.cards import mark_red_suits
from recorder.errors import KroegError, UsageError
from recorder.store import Dataset
from recorder.text import visible_text

__all__ = [
    "DatasetArg", "FilesArg", "GameOpt", "GameType", "Grouping", "LogFormat", "RulesOpt",
    "TableFormat", "VariantOpt", "analyse", "friendly", "read_line", "red_suits", "say",
    "stop_process",
]  # fmt: skip

F = TypeVar("F", bound=Callable[..., Any])


class TableFormat(StrEnum):
    """How `kroeg stats` writes its figures."""

    table = "table"
    csv = "csv"
    json = "json"


class LogFormat(StrEnum):
    """The notations a game can be written in."""

    text = "text"
    jsonl = "jsonl"


class GameType(StrEnum):
    """The games kroeg referees."""

    toepen = "toepen"
    troefcall = "troefcall"


class Grouping(StrEnum):
    """What `kroeg stats` makes a row of, besides the player (side: Troefcall's pairs)."""

    player = "player"
    session = "session"
    month = "month"
    venue = "venue"
    side = "side"


def friendly(fn: F) -> F:
    """Turn kroeg's own errors into `Error: …` and exit 1, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except KroegError as exc:
            say(f"Error: {exc}", err=True)
            raise typer.Exit(2 if isinstance(exc, UsageError) else 1) from None
        except BrokenPipeError:
            # The reader went away (`kroeg export … | head`): stop quietly, as cat does.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            typer.echo(f"Error: {where}{exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


DatasetArg = Annotated[Path, typer.Argument(help="The dataset folder.", show_default=False)]
RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules", help="Preset (classic, lives, troefcall) or a club's rules .json file."
    ),
]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option("--variant", "-V", help="A variant to apply (repeatable), e.g. poverty."),
]


FilesArg = Annotated[list[Path], typer.Argument(help="Typed logs: notation, or .jsonl.")]

GameOpt = Annotated[str, typer.Option("--game", help="The game's id (see kroeg info).")]


def analyse(dataset: Dataset) -> None:
    """Bring the derived facts up to date, with a progress bar on a terminal."""
    from analytics.derived import bring_up_to_date, pending

    todo = pending(dataset)
    if not todo or not sys.stderr.isatty():  # piped or scripted: keep the output clean
        bring_up_to_date(dataset)
        return
    label = f"Analysing {plural(todo, 'new game')} (once)"
    with typer.progressbar(length=todo, label=label, file=sys.stderr) as bar:
        bring_up_to_date(dataset, progress=bar.update)


def read_line(prompt: str, interactive: bool) -> str | None:
    """A line from the keyboard (with the prompt) or from a script; None at the end."""
    if interactive:
        try:
            return input(visible_text(prompt))
        except EOFError:
            typer.echo("")
            return None
        except KeyboardInterrupt:
            typer.echo("")
            return None
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


def red_suits(line: str) -> str:
    """Hearts and diamonds in red, as on the cards."""
    return mark_red_suits(visible_text(line), lambda symbol: typer.style(symbol, fg="red"))


def stop_process(process: subprocess.Popen[Any], timeout: float = 15) -> None:
    """Stop a child process if it still runs: SIGTERM, then SIGKILL after `timeout` s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def say(message: object = "", nl: bool = True, err: bool = False) -> None:
    """Print for a person: names and other data shown, never obeyed (no terminal escapes)."""
    typer.echo(visible_text(str(message)), nl=nl, err=err)
