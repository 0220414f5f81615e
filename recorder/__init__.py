"""The engine: every rule, the events, the store (docs/ARCHITECTURE.md).

Some modules of this package, of `analytics` and of `parsers` are compiled at install
time (setup.py, mypyc): Python then imports the extension (`toepen.cpython-311-….so`)
instead of `toepen.py`. They import as the plain Python source instead, all of them
together, when

- `KROEG_PURE_PYTHON=1` is set (`make test-pure` runs the suite this way), or
- a source file of these packages was changed after the build (an editable install
  being worked on: the change counts at once; `make native` compiles again);

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

#: The packages that hold compiled modules (the others import this package first).
_PACKAGES = ("recorder", "analytics", "parsers")
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compiled_modules() -> dict[str, tuple[str, str]]:
    """The modules built as extensions, by name, each with its source and extension."""
    found: dict[str, tuple[str, str]] = {}
    for package in _PACKAGES:
        folder = os.path.join(_ROOT, package)
        for entry in os.listdir(folder) if os.path.isdir(folder) else ():
            for suffix in EXTENSION_SUFFIXES:
                if entry.endswith(suffix):
                    name = entry[: -len(suffix)]
                    source = os.path.join(folder, f"{name}.py")
                    found[f"{package}.{name}"] = (source, os.path.join(folder, entry))
    return found


def _stale(built: dict[str, tuple[str, str]]) -> bool:
    """Whether a source of these packages was changed after the extensions were built:
    a compiled module may depend on any of them (cards, events, rule sets)."""
    if not built:
        return False
    oldest = min(os.path.getmtime(extension) for _, extension in built.values())
    for package in _PACKAGES:
        folder = os.path.join(_ROOT, package)
        for entry in os.listdir(folder) if os.path.isdir(folder) else ():
            if entry.endswith(".py") and os.path.getmtime(os.path.join(folder, entry)) > oldest:
                return True
    return False


class _FromSource(MetaPathFinder):
    """Finds the compiled modules' Python source ahead of their extensions."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


_built = compiled_modules()
if _built and (os.environ.get("KROEG_PURE_PYTHON") == "1" or _stale(_built)):
    sys.meta_path.insert(0, _FromSource({name: src for name, (src, _) in _built.items()}))
    _built = {}


def native() -> bool:
    """Whether the engine runs compiled (the extensions were built and are in use)."""
    return bool(_built)
