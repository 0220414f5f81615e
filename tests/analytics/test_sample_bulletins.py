"""docs/bulletins/ holds the sample month's bulletin in every language, as the code
writes it now (`make bulletins` writes them again after a change of words or layout)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kroeg.analytics.words import LANGUAGES
from kroeg.cli import app

ROOT = Path(__file__).resolve().parents[2]
KEPT = ROOT / "docs" / "bulletins"
FILES = ("newsletter-2026-11.md", "newsletter-2026-11.html")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bulletins") / "club"
    logs = sorted(str(p) for p in (ROOT / "sample_logs").glob("*.txt"))
    done = CliRunner().invoke(app, ["import", *logs, "--into", str(path)])
    assert done.exit_code == 0, done.output
    return path


def test_every_language_has_its_sample_bulletin() -> None:
    assert sorted(p.name for p in KEPT.iterdir() if p.is_dir()) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kept_bulletin_is_what_the_code_writes(club: Path, lang: str, tmp_path: Path) -> None:
    done = CliRunner().invoke(
        app, ["newsletter", str(club), "--month", "2026-11", "--lang", lang, "--out", str(tmp_path)]
    )
    assert done.exit_code == 0, done.output
    for name in FILES:
        written = (tmp_path / name).read_text(encoding="utf-8")
        assert written == (KEPT / lang / name).read_text(encoding="utf-8"), (
            f"docs/bulletins/{lang}/{name} is out of date: run `make bulletins`"
        )
