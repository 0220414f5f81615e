"""Every change kroeg makes to files goes through these few functions.

One place to see what a command does to the disk, and one place for the
crash-point tests (tests/recorder/test_crash_points.py) to stop a command at
each change in turn: `hook`, when set, is called before every change with its
name and paths, and may raise to stop the process there.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

__all__ = ["exchange", "hook", "mkdir", "replace", "rmtree", "unlink"]

#: Called before each change as hook(name, *paths); tests set it to inject crashes.
hook: Callable[..., None] | None = None


def _before(name: str, *paths: Path) -> None:
    if hook is not None:
        hook(name, *paths)


def replace(src: Path, dst: Path) -> None:
    """Rename `src` over `dst` in one step."""
    _before("replace", src, dst)
    os.replace(src, dst)


def unlink(path: Path) -> None:
    """Remove a file if it is there."""
    _before("unlink", path)
    path.unlink(missing_ok=True)


def rmtree(path: Path) -> None:
    """Remove a folder and everything in it, if it is there."""
    _before("rmtree", path)
    shutil.rmtree(path, ignore_errors=True)


def mkdir(path: Path) -> None:
    """Make a folder (and its parents) if it is not there."""
    _before("mkdir", path)
    path.mkdir(parents=True, exist_ok=True)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange(new: Path, current: Path) -> None:
    """Swap two folders in one atomic step (Linux renameat2); fall back to two renames.

    Only the atomic swap is crash-safe (docs/RELIABILITY.md); the fallback can leave
    `current` missing for an instant, and after a crash between its two renames.
    """
    _before("exchange", new, current)
    libc_name = ctypes.util.find_library("c")
    renameat2 = getattr(ctypes.CDLL(libc_name, use_errno=True), "renameat2", None)
    if renameat2 is not None and current.exists():
        result = renameat2(
            _AT_FDCWD, os.fsencode(new), _AT_FDCWD, os.fsencode(current), _RENAME_EXCHANGE
        )
        if result == 0:
            return
    old = new.with_name(new.name + ".old")
    if current.exists():
        os.replace(current, old)
    os.replace(new, current)
