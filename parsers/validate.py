"""Checking a log, typed or JSON Lines, without storing it (`kroeg validate`); a large one
on every core.

A log is cut into parts of about `PART_BYTES` each, every cut at a line that opens a
game (in the notation `_lexer.line_shape`, in JSON Lines `jsonl.is_header`), and each
part is read and refereed in a worker process (`analytics.workers.in_workers`) exactly as
the whole file would be read at that point: its lines keep their numbers, so every error
names the line it always named. The parts' games, hands and errors are added up in the
file's order.

What needs the file read whole stays in one process, with the same results:

- a small file (below `PARALLEL_FROM` bytes), or no `run` (a single core);
- JSON Lines in which no game and no error is found (the whole reading says so);
- a file that cannot be opened, an empty one, or a game longer than `MOST_PARTS` parts;
- a line break other than '\\n' and '\\r\\n' (`str.splitlines` cuts at eleven kinds, and
  the lines' numbers must be counted as it counts them);
- a king-of-the-hill evening: each of its games is checked against the games around it,
  in the file's order (`recorder.hill`), so a file that holds one is read again, whole.

A part whose reading stopped (bytes that are not UTF-8, a text that cannot be cut into
games) ends the file's reading there, as it would whole: the parts after it are dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kroeg.parsers import jsonl, notation
from kroeg.parsers._io import lines
from kroeg.parsers._lexer import BLANK, HEADER, OTHER, line_shape
from kroeg.parsers.files import JSONL_SUFFIXES, iter_file
from kroeg.parsers.reading import collect
from kroeg.recorder.errors import NotationError
from kroeg.recorder.hill import KING_OF_THE_HILL, HillReferee
from kroeg.recorder.records import GameRecord

__all__ = [
    "PARALLEL_FROM", "PART_BYTES", "Part", "Runner", "Validation", "in_parts", "parts_of",
    "validate_file",
]  # fmt: skip

#: About this many bytes a part (some 750 hands of four players, 70 ms of work): the
#: cores finish within a part of each other, and the hand-overs still cost nothing
#: (measured: 1 MiB parts left a core idle for up to a part at the end, 0.1 s of 1.1).
PART_BYTES = 1 << 18
#: Below this size a file is read in this process: starting a worker costs more.
PARALLEL_FROM = 4 * PART_BYTES
#: How far past a part's planned end a cut is looked for at once; where none is (a game
#: longer than this), the next as far again, up to `MOST_PARTS` parts' bytes: past that
#: the file is read whole (the planner holds a part while it plans it).
WINDOW = 1 << 16
MOST_PARTS = 32
#: Line breaks that `str.splitlines` cuts at besides '\n' and '\r\n' (as UTF-8 bytes).
_OTHER_BREAKS = (
    b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9",
)  # fmt: skip
#: Those an ASCII text can hold: a search for the others' bytes costs ten times as much
#: (2.4 ms a megabyte, all eight), and ASCII is told at 34 µs a megabyte.
_ASCII_BREAKS = tuple(b for b in _OTHER_BREAKS if b.isascii())


@dataclass
class Validation:
    """What checking a file found: the games and hands that passed, and every error."""

    games: int = 0
    hands: int = 0
    errors: list[NotationError] = field(default_factory=list)


@dataclass(frozen=True)
class Part:
    """A part of a file: its bytes from `start` to `end`, after `before` lines."""

    path: str
    start: int
    end: int
    before: int


@dataclass
class _PartResult:
    validation: Validation
    size: int  # the part's bytes
    complete: bool  # its lines were read to the end (no error stopped the reading)
    hill: bool  # it holds a king-of-the-hill game: the file must be read whole


class _ReadWhole(Exception):
    """The file must be read whole (a line break that `splitlines` counts otherwise)."""


#: How `validate_file` runs a function over the parts in other processes, the results in
#: the parts' order: `analytics.workers.in_workers` (the parsers cannot import it). It
#: stops its processes when the caller drops the results.
Runner = Callable[[Callable[[Part], "_PartResult"], Iterator[Part]], Iterator["_PartResult"]]


def in_parts(path: Path) -> bool:
    """Whether `validate_file` reads `path` in parts (given a `run`): a log of
    `PARALLEL_FROM` bytes or more."""
    try:
        return path.stat().st_size >= PARALLEL_FROM
    except OSError:
        return False  # the whole reading says why it cannot


def validate_file(
    path: str | Path, run: Runner | None = None, progress: Callable[[int], None] | None = None
) -> Validation:
    """Read and referee a typed log, keeping nothing: its games, hands and errors; in
    other processes through `run` where the file allows it (module docstring), else in
    this one. `progress` is told of the bytes read, part by part (nothing for a file
    read in this process)."""
    path = Path(path)
    if run is None or not in_parts(path):
        return _whole(path)
    total = Validation()
    whole = False
    # The parts are handed over as they are planned: the processes start meanwhile.
    results = run(_check_part, _plan(path, PART_BYTES))
    try:
        for result in results:
            if result.hill:  # a hill's games are checked in the file's order
                raise _ReadWhole
            total.games += result.validation.games
            total.hands += result.validation.hands
            total.errors.extend(result.validation.errors)
            if progress is not None:
                progress(result.size)
            if not result.complete:
                break  # the whole file's reading would have stopped here too
    except _ReadWhole:
        whole = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # the parts still out are not wanted
    if not total.games and not total.errors:
        whole = True  # nothing found: the whole reading says so (JSON Lines' `NO_GAME`)
    return _whole(path) if whole else total


def _whole(path: Path) -> Validation:
    """The file read in this process, as `iter_file` reads it."""
    result = Validation()
    _count(iter_file(path, result.errors, on_error=collect), result)
    return result


def _count(games: Iterable[GameRecord], into: Validation) -> None:
    """Add up the games and their hands into `into`, one game held at a time."""
    for game in games:
        into.games, into.hands = into.games + 1, into.hands + game.hands


def parts_of(path: str | Path, part_bytes: int | None = None) -> list[Part] | None:
    """Where to cut a typed log for the workers: its parts in order, covering every byte,
    each of about `part_bytes` (`PART_BYTES`); None if it must be read whole (a line break
    that `splitlines` would count otherwise)."""
    try:
        return list(_plan(Path(path), PART_BYTES if part_bytes is None else part_bytes))
    except _ReadWhole:
        return None


def _plan(path: Path, part_bytes: int) -> Iterator[Part]:
    """`parts_of`, each part as soon as it is found; _ReadWhole where it finds the file
    must be read whole."""
    opens = _header_line if _is_jsonl(path) else _game_start
    start = before = 0  # the open part's first byte, and the lines in front of it
    buffer = b""  # the bytes read from `start` on
    target = part_bytes  # where in `buffer` the open part should end
    ended = False  # the file is read to its end
    try:
        handle = path.open("rb")
    except OSError:
        raise _ReadWhole from None  # the whole reading says why it cannot
    with handle:
        while True:
            if target > MOST_PARTS * part_bytes:
                raise _ReadWhole  # a game of megabytes: no part held whole in memory
            if not ended and len(buffer) < target + WINDOW:
                block = handle.read(part_bytes)
                buffer += block
                ended = not block
                continue
            cut = opens(buffer, target) if len(buffer) > target else -1
            if cut < 0 and (not ended or len(buffer) > target + WINDOW):
                target += WINDOW  # no game opens near there: look further on
                continue
            if cut < 0:
                cut = len(buffer)  # the rest of the file
            head = buffer[:cut]
            if not _plain(head):
                raise _ReadWhole
            if head:
                yield Part(str(path), start, start + cut, before)
            elif not start:
                raise _ReadWhole  # an empty file: the whole reading says so
            start, before, buffer = start + cut, before + head.count(b"\n"), buffer[cut:]
            target = part_bytes
            if ended and not buffer:
                return


def _plain(data: bytes) -> bool:
    """No line break in `data` but '\\n' and '\\r\\n': its lines are its '\\n's."""
    others = _ASCII_BREAKS if data.isascii() else _OTHER_BREAKS
    if any(other in data for other in others):
        return False
    return b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")


def _game_start(data: bytes, offset: int) -> int:
    """The first line at or after the line holding `offset` (and within `WINDOW` of
    `offset`) that opens a game (`line_shape`: a header line whose last line before it
    that is not blank is not a header line); -1 if none is found. A line that is not
    UTF-8 is where the reading stops: the cut comes after a line that is, so the part
    that holds it stops there."""
    at = data.rfind(b"\n", 0, offset) + 1  # the start of the line that holds `offset`
    if at == 0:
        return -1
    last = _last_shape(data, at)  # of the last line before `at` that is not blank
    while at < len(data) and at <= offset + WINDOW:
        end = data.find(b"\n", at)
        if end < 0:
            return -1  # the line goes on past what is read
        try:
            shape = line_shape(data[at:end].decode("utf-8"))
        except UnicodeDecodeError:  # the reading will stop at it: no cut just after it
            shape = last = BLANK
        if shape == HEADER and last == OTHER:
            return at
        if shape != BLANK:
            last = shape
        at = end + 1
    return -1


def _is_jsonl(path: Path | str) -> bool:
    return Path(path).suffix.lower() in JSONL_SUFFIXES


def _header_line(data: bytes, offset: int) -> int:
    """JSON Lines: the first line at or after the line holding `offset` (and within
    `WINDOW` of it) that is a game's header line (`jsonl.is_header`: it opens a game
    whatever comes before it); -1 if none is found. A line that is not UTF-8 is where the
    reading stops: no cut is looked for past it."""
    at = data.rfind(b"\n", 0, offset) + 1  # the start of the line that holds `offset`
    if at == 0:
        return -1
    while at < len(data) and at <= offset + WINDOW:
        end = data.find(b"\n", at)
        if end < 0:
            return -1  # the line goes on past what is read
        try:
            text = data[at:end].decode("utf-8")
        except UnicodeDecodeError:
            return -1
        if b'"players"' in data[at:end] and jsonl.is_header(text.rstrip("\r")):
            return at
        at = end + 1
    return -1


def _last_shape(data: bytes, at: int) -> int:
    """The shape of the last line before `at` (a line's start) that is not blank, BLANK
    if there is none, or one that is not UTF-8 comes first."""
    while at > 0:
        start = data.rfind(b"\n", 0, at - 1) + 1
        try:
            shape = line_shape(data[start : at - 1].decode("utf-8"))
        except UnicodeDecodeError:
            return BLANK
        if shape != BLANK:
            return shape
        at = start
    return BLANK


class _Deferred(HillReferee):
    """A hill that checks nothing and notes whether a king-of-the-hill game came by."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def check(self, record: GameRecord) -> None:
        self.seen = self.seen or record.evening == KING_OF_THE_HILL


class _Counted:
    """A part's lines, noting whether they were read to the end."""

    def __init__(self, source: Iterable[str]) -> None:
        self.source, self.complete = source, False

    def __iter__(self) -> Iterator[str]:
        yield from self.source
        self.complete = True


def _check_part(part: Part) -> _PartResult:
    """Read and referee one part, as the whole file's reading would at that point. Runs in
    a worker process."""
    result = Validation()
    hill = _Deferred()
    read = _Counted(lines(part.path, part.start, part.end, part.before))
    first = part.before + 1
    if _is_jsonl(part.path):  # a part without a game is no error: the caller decides
        games = jsonl.iterparse(read, result.errors, collect, part.path, hill, first, False)
    else:
        games = notation.iterparse(read, result.errors, collect, part.path, hill, first)
    _count(games, result)
    return _PartResult(result, part.end - part.start, read.complete, hill.seen)
