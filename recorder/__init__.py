"""The engine: every rule, the events, the store (docs/ARCHITECTURE.md).

Some modules of this package are compiled at install time (setup.py, mypyc): Python
then imports the extension (`toepen.cpython-311-….so`) instead of `toepen.py`. They
import as the plain Python source instead, all of them together, when

- `KROEG_PURE_PYTHON=1` is set (the test suite runs this way too), or
- a source file was changed after the build (an editable install being worked on: the
  change counts at once, and `make` rebuilds);

because a compiled class cannot be mixed with an interpreted one built on it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from types import ModuleType

__all__ = ["compiled_modules", "native"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def compiled_modules() -> dict[str, str]:
    """The modules built as extensions here, each with its extension file."""
    found: dict[str, str] = {}
    for entry in os.listdir(_HERE):
        for suffix in EXTENSION_SUFFIXES:
            if entry.endswith(suffix):
                found[entry[: -len(suffix)]] = os.path.join(_HERE, entry)
    return found


def _stale(built: dict[str, str]) -> bool:
    """Whether a compiled module's source was changed after it was built."""
    for name, extension in built.items():
        source = os.path.join(_HERE, f"{name}.py")
        if os.path.exists(source) and os.path.getmtime(source) > os.path.getmtime(extension):
            return True
    return False


class _FromSource(MetaPathFinder):
    """Finds the compiled modules' Python source ahead of their extensions."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(_HERE, f"{name}.py"))


_built = compiled_modules()
if _built and (os.environ.get("KROEG_PURE_PYTHON") == "1" or _stale(_built)):
    sys.meta_path.insert(0, _FromSource(set(_built)))
    _built = {}


def native() -> bool:
    """Whether the engine runs compiled (the extensions were built and are in use)."""
    return bool(_built)
