"""The Season page under Streamlit's AppTest: the club file's season, its table as
`kroeg standings` makes it, each evening's places; without a club file, how to write one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kroeg.dashboard import serve
from kroeg.recorder.store import Dataset
from tests.analytics.test_season import CLUB_FILE, game


@pytest.fixture
def season_club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dataset = Dataset(tmp_path / "ds")
    dataset.write([
        game("a1", "2026-11-06 20:00", loser="Ben"),
        game("b1", "2026-11-13 20:00", loser="Anna"),
        game("bots", "2026-11-13 21:00", loser="Carla", source="engine"),
    ])  # fmt: skip
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    return dataset.path


def said(at: AppTest) -> str:
    """The page's Markdown as shown (names and sentences reach it escaped)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", " ".join(m.value for m in at.markdown))


def season_page() -> AppTest:
    at = AppTest.from_file(str(serve.APP), default_timeout=30).run()
    at.switch_page("views/season.py").run()
    assert not at.exception
    return at


def test_the_season_page_shows_the_table_and_each_evening(season_club: Path) -> None:
    (season_club / "club.toml").write_text(CLUB_FILE, encoding="utf-8")
    at = season_page()
    assert at.selectbox[0].value == "Winter"
    assert "Winter: toepen, 1 November 2026 to 30 November 2026, 2 evenings." in said(at)
    table, evenings = (d.value for d in at.dataframe)
    # The club's games only: each evening's three level players share 10, 8, 6 (8 each).
    assert dict(zip(table["player"], table["points"], strict=True)) == {
        "Carla": "16", "Dan": "16", "Anna": "13", "Ben": "13",
    }  # fmt: skip
    assert len(evenings) == 8 and set(evenings["points"]) == {8.0, 5.0}
    assert {str(day) for day in evenings["day"]} == {"2026-11-06", "2026-11-13"}  # days
    at.toggle[0].set_value(True).run()  # the bots' game of 13 Nov: an evening of its own
    assert not at.exception
    assert "30 November 2026, 3 evenings." in said(at)
    assert at.query_params["season"] == "Winter"  # the link carries the choice


def test_without_a_club_file_the_page_says_how_to_write_one(season_club: Path) -> None:
    at = season_page()
    assert "No club file yet" in at.info[0].value
    assert "[[seasons]]" in at.code[0].value


def test_a_club_file_that_cannot_be_read_is_named_not_a_traceback(season_club: Path) -> None:
    (season_club / "club.toml").write_text("[[seasons]]\nname = 'W'\n", encoding="utf-8")
    at = season_page()
    assert "no from date" in at.error[0].value
