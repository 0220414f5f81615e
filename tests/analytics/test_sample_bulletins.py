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


def test_the_english_bulletin_says_each_thing_once() -> None:
    """A club editor pastes the bulletin as it is: a rule set nobody played ten hands
    under was a leaderboard of its own saying it was empty (nine of eleven in the sample
    month), and the most regrettable fold was the costliest fold told twice."""
    text = (KEPT / "en" / FILES[0]).read_text(encoding="utf-8")
    sections = text.split("\n## ")
    boards = [s for s in sections if s.startswith("Leaderboard: ")]
    assert boards and all("\n1. " in s for s in boards)  # each ranks somebody
    (unranked,) = [s for s in sections if s.startswith("Rule sets without a leaderboard")]
    assert "- classic + whistling: Anna, Ben, Carla, Dan" in unranked
    assert "Nobody played 10 hands under these rules this month." not in text
    (costliest,) = [s for s in sections if s.startswith("Costliest fold")]
    (regret,) = [s for s in sections if s.startswith("Most regrettable fold")]
    assert _fold_told(costliest) != _fold_told(regret)


def _fold_told(section: str) -> str:
    """The fold a headline tells: `Carla folded for 6 in hand 1 of the game of …`."""
    return section.split("\n\n")[1].split(" (")[0]
