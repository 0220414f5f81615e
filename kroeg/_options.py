"""What every command of `kroeg` shares: turning errors into `Error:` lines, the choices
typer checks, the common arguments, and the helpers that talk to the terminal.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from kroeg.recorder.cards import mark_red_suits
from kroeg.recorder.errors import DatasetError, Interrupted, KroegError, RulesError, UsageError
from kroeg.recorder.text import plural, unknown_choice, visible_text

if TYPE_CHECKING:  # a command that opens a dataset imports it (`open_dataset`)
    from kroeg.recorder.store import Dataset

__all__ = [
    "Bar", "DatasetArg", "Estimate", "FilesArg", "GameOpt", "GameType", "Grouping",
    "LogFormat", "RulesOpt", "SinceOpt", "Source", "TableFormat", "UntilOpt", "VariantOpt",
    "Working", "analyse", "clock_text", "day", "friendly", "open_dataset", "read_line",
    "red_suits", "say",
    "stop_process", "stopped_lines", "terminal_width", "warn_stopped",
]  # fmt: skip

F = TypeVar("F", bound=Callable[..., Any])

INTERRUPTED_EXIT = 130  # Ctrl-C, as a shell reports a command its SIGINT ended


class TableFormat(StrEnum):
    """How `kroeg stats` writes its figures."""

    table = "table"
    csv = "csv"
    json = "json"


class Source(StrEnum):
    """How a game came into the dataset, in a club's words."""

    typed = "typed"
    recorded = "recorded"
    simulated = "simulated"


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
    game = "game"
    session = "session"  # the old name of `game`, still understood
    month = "month"
    venue = "venue"
    side = "side"


#: How typer refuses a value that names none of an option's choices (an Enum's).
_NOT_A_CHOICE = re.compile(
    r"Invalid value for '(?P<option>[^']+)': Value error, (?P<word>'(?:[^'\\]|\\.)*'|\"[^\"]*\") "
    r"is not one of (?P<choices>.*)\.$",
    re.DOTALL,
)


def choice_message(message: str) -> str:
    """A usage error as kroeg says it: a value that names none of an option's choices is
    said as every other unknown name (`unknown_choice`: the nearest one offered), not in
    typer's validator's words; any other message as it is."""
    found = _NOT_A_CHOICE.fullmatch(message)
    if found is None:
        return message
    try:
        word = ast.literal_eval(found["word"])
    except (ValueError, SyntaxError):
        return message
    choices = re.findall(r"'([^']*)'", found["choices"])
    return f"{found['option']}: " + unknown_choice("value", str(word), choices)


def day(text: str) -> datetime:
    """A date as a club writes it for kroeg: 2026-11-01 (or with a time, 2026-11-01 20:00)."""
    for pattern in ("%Y-%m-%d", "%Y-%m-%d %H:%M"):
        try:
            return datetime.strptime(text.strip(), pattern)
        except ValueError:
            continue
    raise typer.BadParameter(f"takes a date as 2026-11-01 (year-month-day), found {text!r}")


def friendly(fn: F) -> F:
    """Turn kroeg's own errors into `Error: …` and exit 1, never a traceback; exit 2 for a
    usage mistake: an option's value (UsageError), or a rule set that is not one
    (RulesError, from --rules, --variant or a club's rules file)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Interrupted as exc:  # Ctrl-C: what is kept, in one line, exit 130 as a shell says
            say(f"Interrupted: {exc}", err=True)
            raise typer.Exit(INTERRUPTED_EXIT) from None
        except KroegError as exc:
            say(f"Error: {exc}", err=True)
            raise typer.Exit(2 if isinstance(exc, UsageError | RulesError) else 1) from None
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


def _waiting(path: Path) -> None:
    say(f"Waiting: another kroeg command is writing to {path}; this one carries on when it "
        "is done", err=True)  # fmt: skip


def open_dataset(path: Path) -> Dataset:
    """The dataset at `path`. The store, and pyarrow with it, is imported by the commands
    that open one, not by every command: `kroeg validate` and `kroeg --help` start
    without it."""
    from kroeg.recorder import store

    store.on_wait = _waiting  # a second writer waits for the first, and says so on stderr
    return store.Dataset(path)


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

GameOpt = Annotated[
    str,
    typer.Option(
        "--game",
        help="The game's id, or the start of it if no other game's starts so "
        "(kroeg games DATASET lists them).",
    ),
]

#: A date range's two ends, as `games`, `stats` and `export` take them (both days kept).
SinceOpt = Annotated[
    datetime | None,
    typer.Option("--since", help="Only games from this date on, as 2026-11-01.", parser=day),
]
UntilOpt = Annotated[
    datetime | None,
    typer.Option("--until", help="Only games up to this date, as 2026-11-30.", parser=day),
]
IncludeSimulatedOpt = Annotated[
    bool,
    typer.Option(
        "--include-simulated",
        help="Count the games the bots played (kroeg simulate, the demo) too.",
    ),
]


#: Not on a terminal, an analysis of fewer games than this says nothing (it takes about a
#: second); a larger one says when it starts, how far it is every few seconds, and when done.
QUIET_BELOW = 200
#: Seconds between two progress lines when not on a terminal.
PROGRESS_EVERY = 5.0


#: The time left is measured over the latest part of the work: this share of the time
#: since the first piece was done, and never less than `RATE_WINDOW` seconds.
RATE_SHARE = 0.5
RATE_WINDOW = 5.0
#: Updates this close (seconds) to the latest sample are one burst, one sample: the
#: analysis reports a chunk's 24 games one by one, microseconds apart.
BURST = 0.25


class Estimate:
    """How long the rest of the work will take, from the rate it goes at now: the work
    done over the latest half of the time since the first piece came (`RATE_SHARE`), so
    neither the start (workers starting, the first files read, before anything is done)
    nor bursts (results that come 24 games at a time) mislead it. `clock` is for tests."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.done, self.clock = total, 0, clock
        self.began = clock()
        self.first: float | None = None  # when the first piece was done
        self.samples: deque[tuple[float, int]] = deque()

    def update(self, amount: int) -> None:
        """`amount` more is done."""
        now = self.clock()
        self.done += amount
        if self.samples and now - self.samples[-1][0] < BURST:
            self.samples[-1] = (self.samples[-1][0], self.done)  # a burst: one sample
        else:
            self.samples.append((now, self.done))
        if self.first is None:
            self.first = now
        window = max(RATE_WINDOW, RATE_SHARE * (now - self.first))
        while len(self.samples) > 2 and self.samples[1][0] <= now - window:
            self.samples.popleft()

    def left(self) -> float | None:
        """Seconds the rest will take, or None while the rate is not known yet. The rate
        is the slope of the work done against the time over the window's samples (least
        squares): a run of bursts that came close together (two workers' first results)
        moves it less than it moves a rate between the window's two ends."""
        if len(self.samples) < 2:
            return None
        n = len(self.samples)
        mean_t = sum(t for t, _ in self.samples) / n
        mean_d = sum(d for _, d in self.samples) / n
        spread = sum((t - mean_t) ** 2 for t, _ in self.samples)
        rate = sum((t - mean_t) * (d - mean_d) for t, d in self.samples) / spread if spread else 0
        if rate <= 0:
            return None
        return max(0.0, (self.total - self.done) / rate)

    def between_bursts(self) -> bool:
        """Whether an update now would begin a new burst (the last came `BURST` or more
        ago, or none came yet): every burst so far is whole."""
        return not self.samples or self.clock() - self.samples[-1][0] >= BURST

    def elapsed(self) -> float:
        """Seconds since the work began."""
        return self.clock() - self.began


def clock_text(seconds: float | None) -> str:
    """`1:05` (minutes and seconds), `1:02:05`, or `?` while not known."""
    if seconds is None:
        return "?"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressLines:
    """Plain progress lines for a log: `Analysing 1,370 new games: 450 done (33%), 5 s,
    about 0:10 left`."""

    def __init__(
        self, total: int, label: str, clock: Callable[[], float] = time.monotonic,
        write: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        self.total, self.label = total, label
        self.estimate = Estimate(total, clock)
        self.clock = clock
        self.write = write or (lambda line: say(line, err=True))
        self.last = clock()
        self.write(f"{label} ...")

    @property
    def done(self) -> int:
        return self.estimate.done

    def update(self, games: int) -> None:
        now = self.clock()
        if self.estimate.between_bursts() and now - self.last >= PROGRESS_EVERY:
            # Said as a burst begins, of the work before it: a line written at a burst's
            # first game would count one game of it, and its rate one game a burst.
            self.last = now
            left = self.estimate.left()
            about = "" if left is None else f", about {clock_text(left)} left"
            self.write(f"{self.label}: {self.done:,} done ({self.done / self.total:.0%}), "
                       f"{self.estimate.elapsed():.0f} s{about}")  # fmt: skip
        self.estimate.update(games)

    def finish(self) -> None:
        self.write(f"Analysed {plural(self.done, 'game')} in {self.estimate.elapsed():.1f} s.")


class Bar:
    """A progress bar on a terminal, its time left from `Estimate`:
    `Analysing 1,370 new games (once)  [##########----------]   50%  0:12 left`.
    Redrawn at most every `every` seconds, and cleared to a full bar at the end."""

    WIDTH = 30

    def __init__(
        self, total: int, label: str, stream: Any = None, every: float = 0.2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.total, self.label, self.every, self.clock = total, visible_text(label), every, clock
        self.stream = stream if stream is not None else sys.stderr
        self.estimate = Estimate(total, clock)
        self.drawn_at: float | None = None

    def __enter__(self) -> Bar:
        self.draw()
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.draw(final=True)
        self.stream.write("\n")
        self.stream.flush()

    def update(self, amount: int) -> None:
        """`amount` more done; redraw if it is time, as a burst begins (of the work before
        it, as `ProgressLines` says it)."""
        now = self.clock()
        due = self.drawn_at is None or now - self.drawn_at >= self.every
        if due and self.estimate.between_bursts():
            self.draw()
        self.estimate.update(amount)

    def line(self, final: bool = False) -> str:
        """The bar as it reads now."""
        done = min(self.estimate.done, self.total)
        share = done / self.total if self.total else 1.0
        filled = round(self.WIDTH * share)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        if final:
            tail = clock_text(self.estimate.elapsed())
        else:
            tail = f"{clock_text(self.estimate.left())} left"
        return f"{self.label}  [{bar}]  {share:4.0%}  {tail}"

    def draw(self, final: bool = False) -> None:
        self.drawn_at = self.clock()
        self.stream.write("\r\x1b[2K" + self.line(final))
        self.stream.flush()


class Working:
    """One line on a terminal saying what a long command is doing, and for how long:
    `Compacting club.kroeg: writing events … 4 s`. It appears once the work has taken
    `after` seconds (a quick command prints nothing extra), is redrawn as the stage
    changes, and is cleared when the work ends. Not on a pipe or in a log."""

    FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def __init__(
        self, label: str, stream: Any = None, after: float = 2.0, every: float = 0.2
    ) -> None:
        self.label, self.stage_text, self.after, self.every = label, "", after, every
        self.stream = stream if stream is not None else sys.stderr
        self.began = time.monotonic()
        self.frame, self.shown = 0, False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def stage(self, text: str) -> None:
        """What the work is doing now (`reading 40 files`)."""
        self.stage_text = visible_text(text)

    def line(self) -> str:
        """The line as it reads now."""
        spinner = self.FRAMES[self.frame % len(self.FRAMES)]
        doing = f": {self.stage_text}" if self.stage_text else ""
        return f"{visible_text(self.label)}{doing} {spinner} {time.monotonic() - self.began:.0f} s"

    def draw(self) -> None:
        """Write the line over the last one."""
        self.frame += 1
        self.stream.write("\r\x1b[2K" + self.line())
        self.stream.flush()
        self.shown = True

    def _run(self) -> None:
        if self._stop.wait(self.after):
            return
        while not self._stop.is_set():
            self.draw()
            self._stop.wait(self.every)

    def __enter__(self) -> Working:
        if self.stream.isatty():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()


class Partition(StrEnum):
    """How `kroeg compact` may split the tables into folders."""

    month = "month"


class Engine(StrEnum):
    """What computes the statistics and the analysis."""

    duckdb = "duckdb"
    spark = "spark"


EngineOpt = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help="duckdb (this machine) or spark (Apache Spark: pip install 'kroeg[spark]'; "
        "docs/SCALE.md).",
    ),
]
MasterOpt = Annotated[
    str,
    typer.Option(
        "--master", help="Spark's master with --engine spark: local[2], spark://host:7077."
    ),
]


def analyse(dataset: Dataset, engine: Engine = Engine.duckdb, master: str = "local[2]") -> int:
    """Bring the derived facts up to date: a progress bar on a terminal, plain lines in a
    log (the dashboard's first start, `make demo`), nothing for a small job in a script.
    Returns how many games were analysed."""
    from kroeg.analytics.derived import pending
    from kroeg.analytics.engines import bring_up_to_date, require

    require(engine.value)  # before any work: without the extra, the line that says so
    todo = pending(dataset)
    if todo:
        refuse_unreadable_rules(dataset)
    label = f"Analysing {plural(todo, 'new game')} (once)"
    run = functools.partial(bring_up_to_date, dataset, engine=engine.value, master=master)
    stopped = False
    try:
        if sys.stderr.isatty() and todo:
            with Bar(todo, label) as bar:
                done: int = run(progress=bar.update)
        elif todo >= QUIET_BELOW:
            lines = ProgressLines(todo, label)
            done = run(progress=lines.update)
            lines.finish()
        else:
            done = run()
    except KeyboardInterrupt:
        stopped = True  # said below, once the interrupted frames (and their workers) are gone
    if stopped:
        raise _interrupted(dataset, todo)
    warn_stopped(dataset)
    return done


def terminal_width() -> int:
    """How wide a table may be: the terminal's columns (COLUMNS where set), else 100."""
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def screen_width() -> int | None:
    """How wide a list whose cells are cut to fit may be: `terminal_width` where a person
    reads it (the output a terminal, or COLUMNS set); None for a pipe or a file, where
    nothing is cut beyond a column's own cap (`analytics.games.TABLE_WIDTHS`)."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS"):
        return terminal_width()
    return None


def stopped_lines(dataset: Dataset) -> list[str]:
    """A line for each game whose stored log the engine refused part way: the analysis
    went on with the rest, and that game's verdicts stop where the engine did."""
    from kroeg.analytics.derived import stopped_games

    return [
        f"game {game}: the engine refuses its stored log ({said}); its verdicts stop there, "
        "its results count as stored (a log an older kroeg stored, or another tool wrote)"
        for game, said in stopped_games(dataset)
    ]


def warn_stopped(dataset: Dataset) -> None:
    """`stopped_lines` on stderr, each time the analysis is brought up to date."""
    for line in stopped_lines(dataset):
        say(f"Warning: {line}", err=True)


def refuse_unreadable_rules(dataset: Dataset) -> None:
    """A game whose stored rules the engine refuses today (a value an older kroeg let in)
    cannot be analysed: say so in one line naming it, before any worker starts."""
    from kroeg.analytics.derived import analysed
    from kroeg.analytics.games import unreadable_rules
    from kroeg.analytics.views import connect

    waiting = dataset.game_ids() - analysed(dataset)
    for game, problem in unreadable_rules(connect(dataset)):
        if game in waiting:
            raise DatasetError(
                f"game {game}: its rules cannot be read ({problem}), so it cannot be analysed; "
                "kroeg info and kroeg games still list it"
            )


def _interrupted(dataset: Dataset, todo: int) -> Interrupted:
    """What Ctrl-C during the analysis leaves: every batch stored before it is kept (each
    is one operation, docs/RELIABILITY.md); the games of the batch in flight are analysed
    again next time. A second Ctrl-C while this is counted changes nothing."""
    import signal

    from kroeg.analytics.derived import pending
    from kroeg.analytics.workers import stop_all

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stop_all()  # no worker outlives the command, whatever still refers to its pool
        kept = todo - pending(dataset)
    finally:
        signal.signal(signal.SIGINT, previous)
    games = "the 1 game analysed so far is kept" if kept == 1 else (
        f"the {kept:,} games analysed so far are kept")  # fmt: skip
    return Interrupted(f"{games}; run it again to go on")


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
