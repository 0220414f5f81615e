"""Reading and writing text files for the parsers, with errors in the notation's terms.

A file is read a line at a time (`lines`), never whole: memory follows the longest line
and the game being read, not the file. A line longer than `MAX_LINE` bytes is refused
without being read to its end (a typed log's lines are short; a JSON Lines header with
every rule parameter is about 2 KB).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.errors import NotationError

#: The longest line a typed log or a JSON Lines file may hold, in bytes.
MAX_LINE = 1_000_000


def read_text(file: str | Path | IO[str]) -> tuple[str, str | None]:
    """The text of a path or an open file, and its name; NotationError if unreadable."""
    if not isinstance(file, str | Path):
        return file.read(), getattr(file, "name", None)
    return "\n".join(lines(file)), source_name(file)


def source_name(file: str | Path | IO[str]) -> str | None:
    """How messages name a file: its path, or an open file's name if it has one."""
    return str(file) if isinstance(file, str | Path) else getattr(file, "name", None)


def lines(
    file: str | Path | IO[str], start: int = 0, end: int | None = None, before: int = 0
) -> Iterator[str]:
    """The lines of a path (UTF-8, a byte-order mark dropped) or an open text file, as
    `str.splitlines` would cut the whole text, read one at a time; NotationError (with
    the line) for a file that cannot be read, bytes that are not UTF-8, a line too long.

    A part of a path: the bytes from `start` to `end`, both at the start of a line, with
    `before` lines in front of it (errors name the file's line; `parsers.validate`)."""
    if not isinstance(file, str | Path):
        yield from _logical(file)
        return
    path = Path(file)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise NotationError(f"cannot read the file: {exc.strerror}", source=str(path)) from None
    with handle:
        handle.seek(start)
        size = None if end is None else end - start
        yield from _read_lines(handle, str(path), before, size)


#: How much of a file `lines` reads at once: whole lines of it are decoded and cut together.
BLOCK = 1 << 14


def _read_lines(
    handle: IO[bytes], source: str, number: int = 0, size: int | None = None
) -> Iterator[str]:
    """What `lines` reads from an open binary file (`size` bytes of it, or to its end):
    blocks of whole lines are decoded and cut at once; a block that fails (bytes that are
    not UTF-8, a line too long) is read again a line at a time, so the error names the
    same line as it always did. `number`: the physical lines ('\n') before the first."""
    pending = b""  # the start of a line whose end is not read yet
    while True:
        block = handle.read(BLOCK if size is None else min(BLOCK, size))
        if size is not None:
            size -= len(block)
        if not block:
            break
        data = pending + block if pending else block
        end = data.rfind(b"\n") + 1
        pending = data[end:]
        if len(pending) > MAX_LINE:
            end = len(data)  # a line too long: let the careful reading find it
            pending = b""
        whole = data[:end]
        if not whole:
            continue
        count = whole.count(b"\n") + (not whole.endswith(b"\n"))
        try:
            if len(whole) > MAX_LINE and max(map(len, whole.split(b"\n"))) >= MAX_LINE:
                raise ValueError  # a long line somewhere: the careful reading measures it
            text = whole.decode("utf-8")
        except ValueError:  # UnicodeDecodeError included
            for raw in _physical(whole):
                number += 1
                yield from _decode(raw, number, source)
            continue
        if number == 0 and text.startswith("\ufeff"):
            text = text[1:]
        number += count
        yield from text.splitlines()
    if pending:
        number += 1
        yield from _decode(pending, number, source)


def _physical(data: bytes) -> Iterator[bytes]:
    """The lines of `data` as `readline` gives them, each with its '\\n'."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start) + 1 or len(data)
        yield data[start:end]
        start = end


def _decode(raw: bytes, number: int, source: str) -> list[str]:
    """One physical line, checked and cut as `str.splitlines` cuts it."""
    if len(raw) > MAX_LINE:
        raise NotationError(
            f"the line is longer than {MAX_LINE:,} bytes: not a typed log", number, None, source
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotationError("the file is not UTF-8 text", number, None, source) from None
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    return text.splitlines()


def _logical(physical: Iterable[str]) -> Iterator[str]:
    for text in physical:
        yield from text.splitlines()


def write_text(text: str, file: str | Path | IO[str]) -> None:
    """Write text to a path (UTF-8) or an open text file."""
    if isinstance(file, str | Path):
        write_text_atomic(file, text)
    else:
        file.write(text)
