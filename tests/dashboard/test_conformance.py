"""The November worked out by hand (tests/conformance_figures.py) on the dashboard: the
Evenings page, the Games page, the Replay page's result and the Players page show the
same figures and words as `kroeg stats`, `kroeg replay` and the newsletter."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kroeg.analytics.derived import enrich
from kroeg.analytics.stats import STAT_BY_NAME
from kroeg.dashboard.replay import hand_states
from kroeg.parsers import notation
from kroeg.recorder.records import GameRecord
from kroeg.recorder.store import Dataset
from tests.conformance_figures import (
    COUNTS,
    DAY,
    HAND_LINES,
    LIVES,
    NOVEMBER,
    RESULTS,
    SAMPLES,
    SCORES_AFTER,
    STANDINGS,
    TEAMS,
    UNIT,
    VENUE,
    added,
)
from tests.dashboard.test_app import APP, chart_rows, page_html, plain


@pytest.fixture
def november(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, GameRecord]:
    """The month's dataset (analysed, as `kroeg import` leaves it), and each sample's game."""
    dataset = Dataset(tmp_path / "club")
    games = {}
    for name in NOVEMBER:
        (games[name],) = notation.load(SAMPLES / name)
        dataset.write([games[name]])
    enrich(dataset)
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    return games


def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def hand_links(game: GameRecord, name: str) -> list[str]:
    return [
        f"- [hand {n}](replay?game={game.game_id}&hand={n}) — {line}"
        for n, line in enumerate(HAND_LINES[name], start=1)
    ]


def test_each_evening_shows_its_hands_and_standings(november: dict[str, GameRecord]) -> None:
    at = app().run()
    assert not at.exception
    for name in sorted(NOVEMBER, key=DAY.__getitem__, reverse=True):  # the latest first
        wanted = next(o for o in at.selectbox(key="evening").options
                      if o.startswith(_day(name)) and VENUE[name] in o)  # fmt: skip
        at.selectbox(key="evening").select(wanted).run()
        assert not at.exception
        shown = plain(page_html(at))
        assert f"**Standings:** {STANDINGS[name]}" in shown
        for line in hand_links(november[name], name):
            assert line in shown


def _day(name: str) -> str:
    """The day as the Evenings page names it: `Fri 20 Nov 2026`."""
    from datetime import date

    day = date.fromisoformat(DAY[name])
    return f"{day:%a} {day.day} {day:%b %Y}"


def test_each_game_charts_the_engines_scores_and_lists_its_hands(
    november: dict[str, GameRecord],
) -> None:
    at = app().run()
    at.switch_page("views/games.py").run()
    for name, game in november.items():
        at.selectbox(key="games_game").select(game.game_id).run()
        assert not at.exception
        unit = "points" if UNIT[name] == "penalty points" else "lives"
        assert at.subheader[0].value == f"{unit.capitalize()} after each hand"
        last = max(int(r["hand"]) for r in chart_rows(at))  # type: ignore[call-overload]
        final = {r["player"]: r[unit] for r in chart_rows(at) if r["hand"] == last}
        # The chart goes on to 0 for a player out of the game; the standings say "out".
        assert {k: v for k, v in final.items() if k in SCORES_AFTER[name]} == SCORES_AFTER[name]
        shown = plain(page_html(at))
        assert f"**Standings:** {STANDINGS[name]}" in shown
        assert "\n".join(hand_links(game, name)) in shown


def test_the_replay_ends_each_hand_with_the_engines_result(
    november: dict[str, GameRecord],
) -> None:
    at = app().run()
    at.switch_page("views/replay.py").run()
    for name, game in november.items():
        at.selectbox(key="replay_game").select(game.game_id).run()
        for hand, (verdict, paid, scores) in enumerate(RESULTS[name], start=1):
            at.selectbox(key="replay_hand").select(hand).run()
            last = len(hand_states(game, hand, reveal_all=False)) - 1
            at.slider(key="replay_step").set_value(last).run()
            assert not at.exception
            banner = (
                f'<p class="kroeg-result"><b>Result:</b> {html.escape(verdict)}. '
                f"Paid: {paid}. Scores after the hand: {html.escape(scores)}.</p>"
            )
            assert banner in page_html(at), (name, hand)


def test_players_shows_a_table_per_unit_with_the_hand_worked_counts(
    november: dict[str, GameRecord],
) -> None:
    at = app().run()
    at.switch_page("views/players.py").run()
    assert not at.exception
    headings = [s.value for s in at.subheader]
    assert "The numbers in lives, with done / opportunities" in headings
    assert "The numbers in penalty points, with done / opportunities" in headings
    tables = [t.value for t in at.dataframe]
    for unit, table in zip(("lives", "penalty points"), tables, strict=True):
        expected = added(g for g in NOVEMBER if UNIT[g] == unit)
        shown = {r["player"]: r for r in table.to_dict("records")}
        assert set(shown) == set(expected), unit
        for player, counts in expected.items():
            c = dict(zip(COUNTS, counts, strict=True))
            row = shown[player]
            assert row["hands"] == c["hands"]
            for name in ("win_rate", "cost_per_hand", "knock_rate", "fold_rate", "cost_per_fold"):
                stat = STAT_BY_NAME[name]
                assert row[stat.label] == stat.cell(c[stat.done], c[stat.opportunities]), (
                    unit, player, name,
                )  # fmt: skip
    # The bluffs behind Anna's bar: her two, each at its knock, both folded to.
    at.selectbox(key="who").select("Anna").run()
    shown = plain(page_html(at))
    assert "**Anna's bluffs** (2 shown, at most 50)" in shown
    for name in (LIVES, TEAMS):
        assert f"(replay?game={november[name].game_id}&hand=1&step=" in shown
    assert shown.count("everyone folded") == 2
