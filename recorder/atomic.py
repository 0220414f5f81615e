"""Every file kroeg writes appears whole or not at all.

`atomic_write(path)` hands out a temporary file in the same folder (named
`.NAME.XXXXXXXX.tmp`, which no dataset glob matches), flushes and syncs it,
then renames it over `path`; if anything fails or the process dies first,
`path` keeps its old content (or stays absent) and the temporary file is
removed (or, after a kill, left as a `.tmp` that no reader looks at).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from kroeg.recorder import fsops

__all__ = ["atomic_write", "write_text_atomic"]


@contextmanager
def atomic_write(path: str | Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write `path`'s new content into; it replaces `path` when the block ends."""
    final = Path(path)
    tmp = final.with_name(f".{final.name}.{uuid.uuid4().hex[:8]}.tmp")
    fsops._before("create", tmp)
    try:
        with open(tmp, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        fsops.replace(tmp, final)
    except Exception:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` atomically."""
    with atomic_write(path) as handle:
        handle.write(text)
