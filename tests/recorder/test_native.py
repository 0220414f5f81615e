"""The compiled engine (setup.py, mypyc) and the pure-Python one: built where a compiler is,
said plainly (`kroeg --version`, a stale build reported), and playing, refereeing and
analysing exactly alike."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kroeg
import kroeg.recorder.toepen
from kroeg import _native
from kroeg.analytics.derived import facts_for_game
from kroeg.cli import app
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
COMPILER = shutil.which("cc") is not None
#: `make test-pure` runs the suite on a copy of the sources without the extensions.
BUILT_PURE = os.environ.get("KROEG_PURE_PYTHON") == "1"


def fingerprint() -> str:
    """A digest of simulated games of both games, with the facts derived from them."""
    digest = hashlib.sha256()
    for preset, players, styles in (
        ("classic", 4, ["random", "bluffer", "cautious", "sharp"]),
        ("lives", 5, ["random", "sharp"]),
        ("troefcall", 4, ["sharp", "random"]),
    ):
        for record in simulate(Ruleset.preset(preset), players, 150, 7, styles):
            digest.update(record.game_id.encode())
            for event in record.events:
                digest.update(repr(event.to_row()).encode())
            facts = facts_for_game(record, samples=4)
            digest.update(repr((facts.knocks, facts.folds)).encode())
    return digest.hexdigest()


def pure_copy(folder: Path) -> Path:
    """The package's sources copied into `folder`, without the extensions: a pure-Python
    kroeg for a subprocess to import first (PYTHONPATH)."""
    package = Path(kroeg.__file__).parent
    shutil.copytree(
        package, folder / "kroeg", symlinks=False,
        ignore=shutil.ignore_patterns("*.so", "_native.json", "__pycache__"),
    )  # fmt: skip
    return folder


@pytest.mark.skipif(not COMPILER, reason="no C compiler: nothing is compiled")
@pytest.mark.skipif(BUILT_PURE, reason="installed with KROEG_PURE_PYTHON=1")
def test_the_engine_is_compiled_where_a_compiler_is() -> None:
    import kroeg.recorder.toepen
    import kroeg.recorder.tricks

    assert _native.compiled() == _native.COMPILED, "setup.py built no extension here"
    assert kroeg.recorder.toepen.__file__.endswith(".so")
    assert kroeg.recorder.tricks.__file__.endswith(".so")


@pytest.mark.skipif(not COMPILER, reason="no C compiler: nothing is compiled")
@pytest.mark.skipif(BUILT_PURE, reason="installed with KROEG_PURE_PYTHON=1")
def test_the_trick_cores_c_twin_is_built_and_used_where_a_compiler_is() -> None:
    from kroeg.recorder import trickcore

    assert _native.native_core(), "setup.py built no _trickcore here"
    assert trickcore.NATIVE
    assert trickcore.use_native(True)  # what the play-outs and the search run in


@pytest.mark.skipif(not COMPILER, reason="no C compiler: nothing is compiled")
@pytest.mark.skipif(BUILT_PURE, reason="installed with KROEG_PURE_PYTHON=1")
def test_the_line_scanner_is_built_and_used_where_a_compiler_is() -> None:
    from kroeg.parsers import _linescan, jsonl

    assert _native.native_scanner(), "setup.py built no _linescan here"
    assert jsonl._EVENT_ROW is _linescan.event_row


def test_the_c_modules_are_said_to_run_only_where_they_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # KROEG_PURE_PYTHON=1 while running keeps the C modules out (trickcore, jsonl): the
    # version line says so too.
    monkeypatch.setenv("KROEG_PURE_PYTHON", "1")
    assert not _native.native_core() and not _native.native_scanner()
    assert "(C)" not in _native.describe()


@pytest.mark.skipif(not _native.compiled(), reason="the engine is not compiled here")
def test_the_build_is_as_new_as_the_sources() -> None:
    # A source edited after the build leaves the extension running the old code: said
    # here (and by `kroeg --version`), never swapped for the source behind one's back.
    changed = _native.stale()
    assert changed == (), f"compiled before these changed: {changed}; run make native"


def test_a_changed_source_is_reported_stale(tmp_path: Path) -> None:
    for folder in _native.SOURCE_PACKAGES:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.py").write_text('"""One."""\n')
    (tmp_path / "recorder" / "core.c").write_text("/* C */\n")
    sources = {f"{f}/a.py": _native.digest(tmp_path / f / "a.py") for f in _native.SOURCE_PACKAGES}
    sources["recorder/core.c"] = _native.digest(tmp_path / "recorder" / "core.c")
    assert _native.sources(tmp_path) == sources  # what setup.py writes into the manifest
    (tmp_path / _native.MANIFEST).write_text(json.dumps({"sources": sources}))
    assert _native.stale(tmp_path) == ()
    (tmp_path / "recorder" / "a.py").write_text('"""One, with a better docstring."""\n')
    (tmp_path / "parsers" / "b.py").write_text("")
    (tmp_path / "recorder" / "core.c").write_text("/* C, edited */\n")  # the C twin too
    assert _native.stale(tmp_path) == ("parsers/b.py", "recorder/a.py", "recorder/core.c")
    (tmp_path / _native.MANIFEST).unlink()
    assert _native.stale(tmp_path) == ()  # nothing built: nothing to be stale


def test_the_version_says_how_the_engine_runs() -> None:
    done = CliRunner().invoke(app, ["--version"])
    assert done.exit_code == 0
    count = len(_native.COMPILED)
    expected = (
        "pure Python"
        if not _native.compiled()
        else f"compiled with mypyc ({count} of {count} modules)"
    )
    if _native.native_core():
        expected += ", native trick core (C)"
    if _native.native_scanner():
        expected += ", JSON Lines scanner (C)"
    assert done.output.startswith(f"kroeg {kroeg.__version__} (engine: {expected}")


@pytest.mark.skipif(not _native.compiled(), reason="the engine is not compiled here")
def test_the_compiled_and_the_pure_python_engine_give_the_same_games_and_facts(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(pure_copy(tmp_path)), str(ROOT)])}
    code = (
        "import kroeg._native as n, kroeg.recorder.toepen as t, kroeg.recorder.trickcore as c\n"
        "from tests.recorder.test_native import fingerprint\n"
        "assert n.compiled() == () and t.__file__.endswith('.py'), t.__file__\n"
        "assert not n.native_core() and not c.NATIVE  # the Python core, not its twin\n"
        "import kroeg.parsers.jsonl as j\n"
        "assert not n.native_scanner() and j._EVENT_ROW is None  # every line read by json\n"
        "print(fingerprint())\n"
    )
    pure = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert pure.returncode == 0, pure.stderr
    assert pure.stdout.strip() == fingerprint()
