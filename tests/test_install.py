"""kroeg as a user installs it: the wheel alone, in a fresh virtual environment.

.ci/run builds the wheel (`make dist`), installs it with no extras and no dev tools
into a new venv, and runs this file with KROEG_INSTALLED set to that venv, from a folder
outside the checkout (so nothing comes from the source tree); the README's command block
then runs with that venv's `kroeg` (tests/test_readme.py, KROEG_COMMAND). Elsewhere
these tests are skipped: they need the built wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest

from kroeg._native import COMPILED

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ["KROEG_INSTALLED"]) if os.environ.get("KROEG_INSTALLED") else None
pytestmark = pytest.mark.skipif(VENV is None, reason="needs KROEG_INSTALLED: run by .ci/run")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def wheel() -> Path:
    [found] = (ROOT / "dist").glob(f"kroeg-{VERSION}-*.whl")
    return found


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command of the installed venv, with no PYTHONPATH and away from the checkout."""
    assert VENV is not None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    program = str(VENV / "bin" / argv[0])
    return subprocess.run(
        [program, *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_wheel_holds_one_namespace_and_its_data() -> None:
    names = zipfile.ZipFile(wheel()).namelist()
    info = f"kroeg-{VERSION}.dist-info/"
    assert {n.split("/")[0] for n in names} == {"kroeg", info.rstrip("/")}
    assert zipfile.ZipFile(wheel()).read(info + "top_level.txt").decode().split() == ["kroeg"]
    sample_logs = {p.name for p in (ROOT / "sample_logs").iterdir() if p.is_file()}
    assert {n.removeprefix("kroeg/sample_logs/") for n in names
            if n.startswith("kroeg/sample_logs/")} == sample_logs  # fmt: skip
    for needed in ("kroeg/py.typed", "kroeg/recorder/py.typed", "kroeg/analytics/sql/views.sql",
                   "kroeg/dashboard/app.py", f"{info}licenses/LICENSE"):  # fmt: skip
        assert needed in names
    # Each language's catalogue compiled at build time (setup.py), beside its .po.
    for po in (ROOT / "kroeg" / "locale").glob("*/LC_MESSAGES/kroeg.po"):
        assert str(po.relative_to(ROOT).with_suffix(".mo")) in names
    if shutil.which("cc"):  # built with a compiler: the trick core's C twin is in the wheel
        assert any(n.startswith("kroeg/recorder/_trickcore.") and n.endswith(".so") for n in names)


def test_the_sdist_holds_what_builds_the_wheel() -> None:
    import tarfile

    [sdist] = (ROOT / "dist").glob(f"kroeg-{VERSION}.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    needed = {"setup.py", "pyproject.toml", "LICENSE", "kroeg/_native.py",
              "kroeg/recorder/toepen.py", "kroeg/recorder/_trickcore.c",
              "kroeg/sample_logs/classic-evening.txt", "kroeg/locale/kroeg.pot",
              "kroeg/locale/nl/LC_MESSAGES/kroeg.po", "babel.cfg"}  # fmt: skip
    assert needed <= names


def test_kroeg_comes_from_the_venv_and_the_old_names_are_gone(tmp_path: Path) -> None:
    assert VENV is not None
    where = run("python", "-c", "import kroeg.analytics; print(kroeg.analytics.__file__)",
                cwd=tmp_path)  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(VENV)
    for old in ("analytics", "recorder", "parsers", "dashboard"):
        done = run("python", "-c", f"import {old}", cwd=tmp_path)
        assert done.returncode == 1
        assert f"ModuleNotFoundError: No module named '{old}'" in done.stderr


def test_no_dev_tools_and_no_spark_in_the_venv(tmp_path: Path) -> None:
    for absent in ("pytest", "pyspark", "sqlglot", "mypy"):
        done = run("python", "-c", f"import {absent}", cwd=tmp_path)
        assert done.returncode == 1, f"{absent} is installed"


def test_the_version_says_how_the_engine_runs(tmp_path: Path) -> None:
    done = run("kroeg", "--version", cwd=tmp_path)
    assert done.returncode == 0
    # Built where a C compiler is (CI's machine has one): the wheel must hold the engine
    # compiled, all of it, the trick core's C twin and the JSON Lines scanner; elsewhere
    # it is pure Python, and says so.
    engine = "pure Python"
    if shutil.which("cc"):
        modules = len(COMPILED)
        engine = (
            f"compiled with mypyc ({modules} of {modules} modules), native trick core (C), "
            "JSON Lines scanner (C)"
        )
    assert done.stdout == f"kroeg {VERSION} (engine: {engine})\n"


def test_the_demo_imports_the_sample_logs_it_ships(tmp_path: Path) -> None:
    done = run("kroeg", "demo", "--no-dashboard", "--out", "demo-data", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    count = sum(1 for p in (ROOT / "sample_logs").iterdir() if p.is_file())
    assert f"sample logs: {count} files from {VENV}" in done.stdout


def test_stats_runs_and_spark_says_what_to_install(tmp_path: Path) -> None:
    made = run("kroeg", "simulate", "--hands", "200", "--out", "club", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    stats = run("kroeg", "stats", "club", cwd=tmp_path)
    assert stats.returncode == 0 and "Traceback" not in stats.stderr, stats.stderr
    spark = run("kroeg", "stats", "club", "--engine", "spark", cwd=tmp_path)
    assert (spark.returncode, spark.stdout + spark.stderr) == (
        2,
        "Error: --engine spark needs the spark extra: pip install 'kroeg[spark]' (and Java 17)\n",
    )


def test_the_bulletin_is_written_in_each_language_from_the_compiled_catalogues(
    tmp_path: Path,
) -> None:
    """The wheel's .mo files are what the installed package reads (no .po is newer)."""
    reads = run("python", "-c", "import gettext; from kroeg.analytics.words import LANGUAGES, "
                "catalogue; print(*LANGUAGES); print(isinstance(catalogue('nl'), "
                "gettext.GNUTranslations))", cwd=tmp_path)  # fmt: skip
    assert reads.returncode == 0, reads.stderr
    langs, compiled = reads.stdout.splitlines()
    assert set(langs.split()) >= {"en", "nl", "fr", "es", "ms"} and compiled == "True"
    done = run("kroeg", "import", str(ROOT / "sample_logs" / "classic-evening.txt"),
               "--into", "club", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    for lang, says in (("nl", "## De maand"), ("fr", "## Le mois"), ("ms", "## Bulan ini")):
        month = run("kroeg", "newsletter", "club", "--month", "2026-11", "--out", lang,
                    "--lang", lang, cwd=tmp_path)  # fmt: skip
        assert month.returncode == 0, month.stderr
        assert says in (tmp_path / lang / "newsletter-2026-11.md").read_text(encoding="utf-8")
