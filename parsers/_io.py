"""Reading and writing text files for the parsers, with errors in the notation's terms."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from kroeg.recorder.atomic import write_text_atomic
from kroeg.recorder.errors import NotationError


def read_text(file: str | Path | IO[str]) -> tuple[str, str | None]:
    """The text of a path or an open file, and its name; NotationError if unreadable."""
    if not isinstance(file, str | Path):
        return file.read(), getattr(file, "name", None)
    path = Path(file)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise NotationError(f"cannot read the file: {exc.strerror}", source=str(path)) from None
    try:
        return raw.decode("utf-8"), str(path)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise NotationError("the file is not UTF-8 text", line, None, str(path)) from None


def write_text(text: str, file: str | Path | IO[str]) -> None:
    """Write text to a path (UTF-8) or an open text file."""
    if isinstance(file, str | Path):
        write_text_atomic(file, text)
    else:
        file.write(text)
