"""A game that lands while the dashboard runs gets its verdicts once it is analysed:
cached results are keyed on the stored facts (derived/ too), not on the process."""

from __future__ import annotations

from pathlib import Path

import pytest

from kroeg.analytics.derived import enrich
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset
from tests.dashboard.test_app import SAMPLES, app, hand_two, page_html

MARK = '<span class="kroeg-mark bluff">● bluff</span>'


def test_a_game_landed_and_analysed_while_the_page_is_open_gets_its_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(SAMPLES / "classic-evening.txt"))
    enrich(dataset)
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    at = app().run()
    at.switch_page("views/replay.py").run()
    assert not at.exception
    before = set(dataset.game_ids())

    # Lands, not analysed, a month before the dates the sidebar showed: still shown.
    dataset.write(notation.load(SAMPLES / "laundry-and-checks.txt"))
    (new,) = set(dataset.game_ids()) - before
    at.run()  # the page sees the new game at its next run
    new_title = "23 Oct, 20:00 — Anna, Ben, Carla, Dan · classic + dirty-laundry + face-up"
    assert new_title in at.selectbox(key="replay_game").options
    at.selectbox(key="replay_game").select(new).run()
    at.selectbox(key="replay_hand").select(2).run()
    assert not at.exception
    assert MARK not in page_html(at)  # no analysis yet: nothing to judge the knock by

    assert enrich(dataset) == 1  # `kroeg analyse`, while the server runs
    at.run()
    at.slider(key="replay_step").set_value(knock_step(dataset.path, new)).run()
    shown = page_html(at)
    assert MARK in shown
    at.selectbox(key="replay_view").set_value("all").run()  # the hand's line: every card
    assert "<b>Verdicts:</b> Ben: 1 knock, 1 bluff; Carla: 1 fold" in page_html(at)


def knock_step(path: Path, game_id: str) -> int:
    """The step of Ben's knock in hand 2 of the laundry sample."""
    one = path.parent / "one"
    Dataset(one).write([Dataset(path).read_game(game_id)])
    found, knock, _ = hand_two(one)
    assert found == game_id
    return knock.step
