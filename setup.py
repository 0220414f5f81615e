"""Builds the engine's hot modules as C extensions with mypyc, and the hand-written C modules
(the trick core's twin `kroeg/recorder/_trickcore.c`, the JSON Lines line scanner
`kroeg/parsers/_linescan.c`) beside them, and compiles the word catalogues
(`kroeg/locale/*/LC_MESSAGES/kroeg.po` into `.mo`); everything else is in pyproject.toml.

Which modules, and why, is `kroeg/_native.py`'s to say (read here without importing
the package). Each is compiled as an extension module of its own name beside its
source, with one shared library `kroeg._native__mypyc`. Where that cannot happen (no C
compiler, or KROEG_PURE_PYTHON=1 set while installing) the build says why and installs
the same modules as plain Python. After building, the digests of the sources the
extensions came from go into `kroeg/_native.json`, so that a source edited later is
reported instead of running unnoticed as the old compiled code.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
NATIVE: dict[str, Any] = runpy.run_path(str(HERE / "kroeg" / "_native.py"))


def native_modules() -> list[Any]:
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        print("kroeg: KROEG_PURE_PYTHON=1, the engine stays pure Python", file=sys.stderr)
        return []
    sources = [name.replace(".", "/") + ".py" for name in NATIVE["COMPILED"]]
    try:
        from mypyc.build import mypycify

        modules = mypycify(sources, opt_level="3", group_name=NATIVE["GROUP"])
    except Exception as error:  # any failure leaves the pure-Python engine
        print(f"kroeg: not compiling the engine ({error}); it runs as Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # a failed C build leaves the pure-Python engine, not an error
    return list(modules)


def c_modules() -> list[Any]:
    """The hand-written C modules (the trick core's C twin, the JSON Lines line scanner):
    plain C and the CPython API, nothing to download; optional, so that a machine without
    a compiler keeps the Python code they stand in for."""
    if os.environ.get("KROEG_PURE_PYTHON") == "1":
        return []
    return [
        Extension(name, ["kroeg/" + source], optional=True, extra_compile_args=["-O2"])
        for name, source in NATIVE["C_MODULES"]
    ]


def _remove(path: str) -> None:
    if os.path.exists(path):
        os.remove(path)


class BuildWithManifest(build_ext):
    """build_ext, then `_native.json`: the digest of each source the extensions were
    built against (none when nothing was built)."""

    def run(self) -> None:
        super().run()
        hand_written = {name for name, _ in NATIVE["C_MODULES"]}
        outputs = [
            self.get_ext_fullpath(ext.name)
            for ext in self.extensions
            if ext.name not in hand_written
        ]
        package = Path(self.get_ext_fullpath(NATIVE["GROUP"] + "__mypyc")).parent
        _remove(str(package / NATIVE["MANIFEST"]))
        if not outputs:
            return
        if not all(os.path.exists(path) for path in outputs):
            # All or nothing: a module's shim without the shared library (or one module
            # compiled without the others it calls) cannot even import.
            print("kroeg: part of the engine failed to compile; it runs as Python", file=sys.stderr)
            for path in outputs:
                _remove(path)
            return
        digests = NATIVE["sources"](HERE / "kroeg")
        manifest = {"compiler": "mypyc", "sources": digests}
        (package / NATIVE["MANIFEST"]).write_text(json.dumps(manifest, indent=1) + "\n")


def compile_catalogues(into: Path) -> None:
    """Each language's `kroeg.po` compiled into its `kroeg.mo` under `into` (the build's
    copy of the package, or the checkout itself for an editable install): the words are
    read at run time from the `.mo`, gettext's own format (analytics/words.py)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted((HERE / "kroeg" / "locale").glob("*/LC_MESSAGES/kroeg.po")):
        mo = into / po.relative_to(HERE / "kroeg").with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parent.parent.name, domain="kroeg")
        with mo.open("wb") as target:
            write_mo(target, catalogue)


class BuildWithCatalogues(build_py):
    """build_py, then the catalogues compiled beside the package's modules."""

    def run(self) -> None:
        super().run()
        editable = getattr(self, "editable_mode", False)
        compile_catalogues(HERE / "kroeg" if editable else Path(self.build_lib) / "kroeg")


setup(
    ext_modules=native_modules() + c_modules(),
    cmdclass={"build_ext": BuildWithManifest, "build_py": BuildWithCatalogues},
)
