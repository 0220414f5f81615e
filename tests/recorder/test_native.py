"""The compiled engine (setup.py, mypyc) and the pure-Python one: built where a compiler is,
and playing, refereeing and analysing exactly alike."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import recorder
from analytics.derived import facts_for_game
from recorder.rules import Ruleset
from recorder.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
PURE = os.environ.get("KROEG_PURE_PYTHON") == "1"


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


@pytest.mark.skipif(PURE, reason="KROEG_PURE_PYTHON=1: the pure-Python run")
@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler: nothing is compiled")
def test_the_engine_is_compiled_where_a_compiler_is() -> None:
    import recorder.toepen
    import recorder.tricks

    assert recorder.native(), "setup.py built no extension, or a source changed after the build"
    assert recorder.toepen.__file__.endswith(".so") and recorder.tricks.__file__.endswith(".so")


@pytest.mark.skipif(not recorder.native(), reason="the engine is not compiled here")
def test_the_compiled_and_the_pure_python_engine_give_the_same_games_and_facts() -> None:
    env = {**os.environ, "KROEG_PURE_PYTHON": "1"}
    code = (
        "import recorder, recorder.toepen as t\n"
        "from tests.recorder.test_native import fingerprint\n"
        "assert not recorder.native() and t.__file__.endswith('.py')\n"
        "print(fingerprint())\n"
    )
    pure = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert pure.stdout.strip() == fingerprint()
