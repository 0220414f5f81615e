"""Compiles the engine's hot modules with mypyc at install time; everything else is in
pyproject.toml.

The modules below are plain, strictly typed Python: mypyc turns them into C extensions
(about twice as fast; docs/BENCHMARKS.md). Where that cannot happen (no C compiler, or
KROEG_PURE_PYTHON=1 set while installing), the same modules run as Python: the build
prints why and goes on. `recorder/__init__.py` says which one an import gets.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: The referee's hot path: the trick core, the Toepen engine, Troefcall, the bots' driver;
#: and the analysis' (the verdict on a knock and a fold).
COMPILED = [
    "recorder/tricks.py",
    "recorder/toepen_state.py",
    "recorder/toepen_settle.py",
    "recorder/toepen_swaps.py",
    "recorder/toepen.py",
    "recorder/troefcall.py",
    "recorder/simulate.py",
    "analytics/verdicts.py",
    "parsers/_lexer.py",
    "parsers/_referee.py",
    "parsers/names.py",
]


def native_modules() -> list[object]:
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        print("kroeg: KROEG_PURE_PYTHON=1, the engine stays pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify

        modules = mypycify(COMPILED, opt_level="3", group_name="kroeg_native")
    except Exception as error:  # any failure leaves the pure-Python engine
        print(f"kroeg: not compiling the engine ({error}); it runs as Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # a failed C build leaves the pure-Python engine, not an error
    return modules


setup(ext_modules=native_modules())
