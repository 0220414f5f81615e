"""The Evenings page, where the dashboard opens: the last club night first."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kroeg.analytics.derived import enrich
from kroeg.analytics.views import connect
from kroeg.parsers import notation
from kroeg.recorder.rules import PRESETS
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset
from tests.dashboard.test_app import APP, page_html, plain

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def evenings_club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dataset:
    """Two typed club evenings, and bot games played after them (as the demo has)."""
    dataset = Dataset(tmp_path / "club")
    for name in ("classic-evening.txt", "laundry-and-checks.txt"):
        dataset.write(notation.load(SAMPLES / name))
    dataset.write(simulate(PRESETS["classic"], 4, 30, seed=5, styles=("bluffer", "cautious")))
    enrich(dataset)
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    return dataset


def latest_club_evening(dataset: Dataset) -> tuple[str, list[str]]:
    """The day (as the page writes it) and the games of the latest typed evening."""
    rows = (
        connect(dataset)
        .sql(
            "SELECT started_at::DATE AS day, list(game_id) AS games FROM games "
            "WHERE source <> 'engine' GROUP BY day ORDER BY day DESC LIMIT 1"
        )
        .fetchall()
    )
    day, games = rows[0]
    return f"{day:%a} {day.day} {day:%b %Y}", games


def test_the_dashboard_opens_on_the_last_club_evening(evenings_club: Dataset) -> None:
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    day, games = latest_club_evening(evenings_club)
    assert at.title[0].value.startswith(day)  # the club's evening, not the bots'
    assert "Club games" in at.caption[1].value
    # The bot games are hidden, and the page says so.
    assert at.toggle(key="filter_simulated").value is False
    assert "simulated games hidden" in at.caption[0].value
    shown = plain(page_html(at))
    assert shown.count("**Standings:**") == len(games)
    assert "knocked" in shown and "won (stake" in shown and "paid: " in shown
    # The evening's costliest fold, one click from its move in the replay.
    costliest = (
        connect(evenings_club)
        .sql(
            "SELECT game_id, hand, seq, cost FROM folds WHERE game_id IN (SELECT unnest(?)) "
            "ORDER BY cost DESC, game_id, hand, seq LIMIT 1",
            params=[games],
        )
        .fetchall()[0]
    )
    game_id, hand, seq, cost = costliest
    assert f"(replay?game={game_id}&hand={hand}&step={seq}) — the fold cost {cost}" in shown
    # The earlier evening is listed by date and players, never by a hash alone.
    assert "Other evenings" in [s.value for s in at.subheader]
    assert "Anna, Ben, Carla, Dan · 1 game](evenings?evening=" in shown


def test_simulated_evenings_show_when_asked_and_links_name_an_evening(
    evenings_club: Dataset,
) -> None:
    at = AppTest.from_file(APP, default_timeout=30).run()
    options = at.selectbox(key="evening").options
    assert not [o for o in options if "simulated" in o]
    at.toggle(key="filter_simulated").set_value(True).run()
    options = at.selectbox(key="evening").options
    assert [o for o in options if o.endswith("· simulated")]
    assert not at.caption[0].value.startswith("Filtered")  # no filter on any more
    # A link to an evening opens it; a wrong one says so and shows the latest.
    key = at.selectbox(key="evening").value
    linked = AppTest.from_file(APP, default_timeout=30)
    linked.query_params["evening"] = "1999-01-01|nowhere|false"
    linked.run()
    assert "That evening is not in this dataset" in linked.warning[0].value
    assert key is not None


def test_team_toepen_standings_are_per_side(tmp_path: Path) -> None:
    """A side pays from one pool: the standings name the partnership, and a hand's line
    names who paid."""
    from kroeg.dashboard.evenings import hand_lines, standings

    dataset = Dataset(tmp_path / "club")
    log = Path(__file__).resolve().parents[2] / "sample_logs" / "team-toepen-evening.txt"
    (game,) = notation.load(log)
    dataset.write([game])
    assert standings(dataset.path, game.game_id, "toepen") == (
        "Anna \\& Carla 8 lives, Ben \\& Dan 8 lives"
    )
    lines = hand_lines(dataset.path, game.game_id, "toepen")
    assert lines[1].endswith("Ben knocked; Carla folded; Anna won (stake 2); paid: Ben 2, Carla 1")


def test_lives_standings_are_the_engines_pays_and_outs(tmp_path: Path) -> None:
    """Lives left are the rule set's 10 less the engine's `pay` rows, and a player the
    engine put out is said to be out (never a floor of 0 lives worked out again).

    The log's pays, hand by hand: Anna 9, 3 (12: out); Carla 7, 1, 1, 2 (11: out); Ben 1
    in hands 3 and 6 (8 lives left); Dan 1 in each of hands 1 to 5, 7 and 8 (3 left)."""
    from kroeg.dashboard.evenings import standings

    dataset = Dataset(tmp_path / "club")
    (game,) = notation.load(SAMPLES / "lives-armoede-cut.txt")
    dataset.write([game])
    assert standings(dataset.path, game.game_id, "toepen") == (
        "Ben 8 lives, Dan 3 lives, Carla out, Anna out"
    )
