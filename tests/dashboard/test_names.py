"""Every page names a game as people do (analytics.evenings.game_names): by its evening,
its order that evening, its time and its players. A game id is in links only."""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kroeg.analytics.derived import enrich
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text as md
from tests.dashboard.test_app import app, page_html

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"

#: What a game id looks like (`g37f8484fb6ab5ce`): a letter and 15 hex digits.
GAME_ID = re.compile(r"\b[a-z][0-9a-f]{15}\b")

#: The three games of 23 Oct at one time, as the demo's bots have them, and one undated.
EVENING = {"g1000000000000a1": "20:00", "g1000000000000b2": "20:00", "g1000000000000c3": "21:30"}
UNDATED = "g1000000000000d4"


@pytest.fixture
def one_night(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dataset:
    """Three copies of the laundry night on one evening (two at one time) and a fourth
    without a start time, analysed: the games differ by their ids and order only."""
    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    copies = [
        dataclasses.replace(game, game_id=i, started_at=datetime.fromisoformat(f"2026-10-23 {t}"))
        for i, t in EVENING.items()
    ]
    dataset = Dataset(tmp_path / "night")
    dataset.write([*copies, dataclasses.replace(game, game_id=UNDATED, started_at=None)])
    enrich(dataset)
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    return dataset


def shown(at: AppTest) -> str:
    """Everything a page shows a person: its text, headings, captions, select boxes, with
    the links' addresses left out (`](replay?game=…)` is where an id belongs)."""
    text = "\n".join(
        [
            page_html(at),
            *(t.value for t in at.title),
            *(s.value for s in at.subheader),
            *(c.value for c in at.caption),
            *(o for box in at.selectbox for o in box.options),
        ]
    )
    return re.sub(r"\]\([^)]*\)", "]", re.sub(r'href="[^"]*"', "", text))


def assert_no_game_id(at: AppTest) -> None:
    assert not at.exception
    text = shown(at)
    assert GAME_ID.findall(text) == []


def test_the_pickers_name_games_by_evening_and_order(one_night: Dataset) -> None:
    at = app().run()
    at.switch_page("views/replay.py").run()
    assert_no_game_id(at)
    rules = " · classic + dirty-laundry + face-up"
    names = [
        "23 Oct, game 3, 21:30 — Anna, Ben, Carla, Dan",
        "23 Oct, game 2, 20:00 — Anna, Ben, Carla, Dan",
        "23 Oct, game 1, 20:00 — Anna, Ben, Carla, Dan",
        "Undated — Anna, Ben, Carla, Dan",
    ]
    assert at.selectbox(key="replay_game").options == [n + rules for n in names]
    at.switch_page("views/games.py").run()
    assert_no_game_id(at)
    assert at.selectbox(key="games_game").options == [n + rules for n in names]


def test_the_players_drill_down_names_each_hands_game(one_night: Dataset) -> None:
    """The issue's `g37f8484fb6ab5ce hand 2`: a game without a start time is named too."""
    at = app().run()
    at.switch_page("views/players.py").run()
    at.selectbox(key="who").select("Ben").run()
    assert_no_game_id(at)
    links = re.findall(r"- \[([^\n]*?)\]\(replay\?game=(\w+)&", page_html(at))
    assert links == [
        (md("23 Oct, game 1, 20:00 — Anna, Ben, Carla, Dan") + " · hand 2", "g1000000000000a1"),
        (md("23 Oct, game 2, 20:00 — Anna, Ben, Carla, Dan") + " · hand 2", "g1000000000000b2"),
        (md("23 Oct, game 3, 21:30 — Anna, Ben, Carla, Dan") + " · hand 2", "g1000000000000c3"),
        (md("Undated — Anna, Ben, Carla, Dan") + " · hand 2", UNDATED),
    ]


def test_the_evening_names_its_games_and_moments_by_their_order(one_night: Dataset) -> None:
    """The issue's `Dan, hand 1` on an evening of three games: which game is said."""
    at = app().run()
    assert_no_game_id(at)
    games = [s.value for s in at.subheader if s.value.startswith("Game")]
    assert games == [
        md("Game 1, 20:00 — Anna, Ben, Carla, Dan")
        + " · "
        + md("classic + dirty-laundry + face-up"),
        md("Game 2, 20:00 — Anna, Ben, Carla, Dan")
        + " · "
        + md("classic + dirty-laundry + face-up"),
        md("Game 3, 21:30 — Anna, Ben, Carla, Dan")
        + " · "
        + md("classic + dirty-laundry + face-up"),
    ]
    text = page_html(at)
    # Ties between the three equal games go to the first by id: game 1.
    assert "**Costliest fold:** [Carla, game 1, hand 2](replay?game=g1000000000000a1&" in text
    # The undated evening, listed below, opens with its one game named by its players.
    at.selectbox(key="evening").select_index(1).run()
    assert_no_game_id(at)
    assert [s.value for s in at.subheader if "Anna" in s.value] == [
        md("Anna, Ben, Carla, Dan") + " · " + md("classic + dirty-laundry + face-up")
    ]
    assert "**Costliest fold:** [Carla, hand 2](replay?game=g1000000000000d4&" in page_html(at)


def test_a_right_to_left_name_is_isolated_on_the_pages_and_nowhere_else(tmp_path: Path) -> None:
    """`שרה` among Latin names: on a page each right-to-left name sits between the Unicode
    isolates FSI and PDI, so the browser keeps the list's order (the commas and the
    `· 3 games` after it stayed inside the name); a Latin name gets nothing invisible, and
    the terminal's text (the CLI's game names) none at all."""
    from kroeg.analytics.evenings import game_names
    from kroeg.analytics.views import connect
    from kroeg.analytics.words import words
    from kroeg.dashboard.evenings import Evening, _names, game_name

    (game,) = notation.load(SAMPLES / "laundry-and-checks.txt")
    game = dataclasses.replace(game, players=("Anna", "שרה", "Carla", "Dan"))
    dataset = Dataset(tmp_path / "rtl")
    dataset.write([game])
    name = game_names(connect(dataset), None)[game.game_id]
    assert "Anna, \u2068שרה\u2069, Carla" in game_name(name)
    assert "Anna, שרה, Carla" in str(name) and "\u2068" not in str(name)  # the CLI's
    evening = Evening("k", None, None, False, 3, ("Anna", "שרה"))
    assert evening.label_in(words("en")) == "Undated games · Anna, \u2068שרה\u2069 · 3 games"
    assert _names(["Anna", "Ben"]) == "Anna, Ben"
