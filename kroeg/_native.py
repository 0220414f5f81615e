"""Which of kroeg's modules run compiled, and whether their build is older than the code.

The modules in `COMPILED` are plain, strictly typed Python. Where a C compiler is,
installing kroeg also builds each of them as a C extension with mypyc (setup.py); the
extension sits beside its source in the package (`toepen.cpython-311-….so` next to
`toepen.py`) and Python's own import system takes the extension first. There is no
import hook and no run-time switch: what was built is what runs. A pure-Python install
(no compiler, or `KROEG_PURE_PYTHON=1` while installing) has no extensions and runs the
same sources. `kroeg --version` says which one is running.

The build writes `_native.json` beside this module: the digest of every source the
compiled code was built from. A source edited after the build leaves the extension
running the old code; `stale()` names such files (a test fails on them, `make native`
builds again, and `make test` does so by itself first).

Beside them, the trick core's C twin (`CORE`, from `CORE_SOURCE`: plain C and the CPython
API) is built with the same compiler; where it is, `recorder.trickcore` runs its play-outs
and searches there. So is the JSON Lines line scanner (`SCANNER`, from `SCANNER_SOURCE`),
which reads an event line of the written shape without a dict; where it is not built,
`parsers.jsonl` reads every line with `json`. Their sources' digests are in the manifest too.

setup.py reads `COMPILED`, `C_MODULES` and `SOURCE_PACKAGES` from this file without importing
the package, so this module imports nothing of kroeg.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__all__ = [
    "COMPILED",
    "CORE",
    "CORE_SOURCE",
    "C_MODULES",
    "SCANNER",
    "SCANNER_SOURCE",
    "SOURCE_PACKAGES",
    "compiled",
    "describe",
    "digest",
    "main",
    "native_core",
    "native_scanner",
    "sources",
    "stale",
]

#: The hot paths, compiled: the trick core (its Python reference) and the trick-taking
#: game, the Toepen engine, Troefcall, the bots and their driver; the replay of a log
#: through them; the analysis' verdicts; the notation's lexer and referee, and its
#: writer's walk over an export's rows.
COMPILED = (
    "kroeg.recorder.trickcore",
    "kroeg.recorder.tricks",
    "kroeg.recorder.toepen_state",
    "kroeg.recorder.toepen_settle",
    "kroeg.recorder.toepen_swaps",
    "kroeg.recorder.toepen",
    "kroeg.recorder.troefcall",
    "kroeg.recorder.bots",
    "kroeg.recorder.troefcall_bots",
    "kroeg.recorder.simulate",
    "kroeg.recorder.referee",
    "kroeg.analytics.verdicts",
    "kroeg.parsers._lexer",
    "kroeg.parsers._referee",
    "kroeg.parsers.names",
    "kroeg.parsers._rows",
)
#: The packages whose sources the compiled code is built against: mypyc reads their
#: types and inlines their `Final` constants, so a change to any of them can matter.
SOURCE_PACKAGES = ("recorder", "parsers", "analytics")
#: The trick core's C twin (hand-written C, not mypyc) and its source below the package.
CORE = "kroeg.recorder._trickcore"
CORE_SOURCE = "recorder/_trickcore.c"
#: The JSON Lines line scanner (hand-written C) and its source below the package.
SCANNER = "kroeg.parsers._linescan"
SCANNER_SOURCE = "parsers/_linescan.c"
#: Every hand-written C module, with its source: setup.py builds each, optional.
C_MODULES = ((CORE, CORE_SOURCE), (SCANNER, SCANNER_SOURCE))
#: The mypyc group: one shared library, a module of this package (not a top-level name).
GROUP = "kroeg._native"
MANIFEST = "_native.json"
_HERE = Path(__file__).parent


def digest(path: Path) -> str:
    """A source file's SHA-256, as the build manifest records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest(root: Path = _HERE) -> dict[str, str]:
    """The sources the extensions were built from (path below the package: digest)."""
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    sources = data.get("sources", {}) if isinstance(data, dict) else {}
    return {str(k): str(v) for k, v in sources.items()} if isinstance(sources, dict) else {}


def sources(root: Path = _HERE) -> dict[str, str]:
    """The digest of every source the compiled code is built from (path below the package:
    digest): the Python of `SOURCE_PACKAGES` and the C of the trick core."""
    return {
        str(path.relative_to(root)): digest(path)
        for package in SOURCE_PACKAGES
        for pattern in ("*.py", "*.c")
        for path in sorted((root / package).glob(pattern))
    }


def _is_extension(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:
        return False
    origin = spec.origin if spec is not None else None
    return bool(origin) and any(str(origin).endswith(s) for s in EXTENSION_SUFFIXES)


def _runs(name: str) -> bool:
    """Whether the hand-written C module `name` was built here and is used: with
    KROEG_PURE_PYTHON=1 set while running, the code it stands in for runs instead."""
    return os.environ.get("KROEG_PURE_PYTHON") != "1" and _is_extension(name)


def native_core() -> bool:
    """Whether the trick core's C twin (`CORE`) was built here and runs."""
    return _runs(CORE)


def native_scanner() -> bool:
    """Whether the JSON Lines line scanner (`SCANNER`) was built here and runs."""
    return _runs(SCANNER)


def compiled() -> tuple[str, ...]:
    """The modules of `COMPILED` that import as C extensions here."""
    return tuple(name for name in COMPILED if _is_extension(name))


def stale(root: Path = _HERE) -> tuple[str, ...]:
    """The sources changed (or gone, or new) since the extensions were built; empty where
    nothing was built."""
    built = _manifest(root)
    if not built:
        return ()
    now = sources(root)
    changed = (name for name in built.keys() | now.keys() if built.get(name) != now.get(name))
    return tuple(sorted(changed))


def describe() -> str:
    """How the engine runs here, in one line (for `kroeg --version`)."""
    running = compiled()
    line = f"compiled with mypyc ({len(running)} of {len(COMPILED)} modules)" if running else ""
    if native_core():
        line += (", " if line else "pure Python, ") + "native trick core (C)"
    if native_scanner():
        line += (", " if line else "pure Python, ") + "JSON Lines scanner (C)"
    if not line:
        return "pure Python"
    changed = stale()
    if changed:
        line += (
            f"; {len(changed)} source(s) changed since the build ({', '.join(changed[:3])}"
            f"{', …' if len(changed) > 3 else ''}): the extensions run the old code until "
            "built again (make native in a checkout; reinstall otherwise)"
        )
    return line


def main(argv: list[str]) -> int:
    """`python -m kroeg._native [--quiet]`: say how the engine runs; exit 1 when the build
    is older than its sources (`make test` then builds again)."""
    if "--quiet" not in argv:
        print(describe())
    return 1 if stale() else 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
