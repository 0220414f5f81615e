"""What every session shares: the server does the same work once, not once per visitor.

Ten visitors at once made each page load take seconds: every session read every Parquet
footer again, every cached query listed the dataset's files again (a dozen times a run),
and every run of every session unpickled its own copy of a game and of a hand's steps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kroeg.dashboard import data, serve
from kroeg.parsers import notation
from kroeg.recorder.store import Dataset

APP = str(serve.APP)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(SAMPLES / "laundry-and-checks.txt"))
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    return dataset.path


def test_the_files_are_checked_once_for_every_session(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[Path] = []
    real = Dataset.check_files

    def counted(self: Dataset) -> None:
        checks.append(self.path)
        real(self)

    monkeypatch.setattr(Dataset, "check_files", counted)
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception and at.metric
    first = len(checks)  # once, or twice if the first page stored the games' counts
    assert 1 <= first <= 2
    for _ in range(3):  # three more visitors, each a session of its own
        at = AppTest.from_file(APP, default_timeout=30).run()
        assert not at.exception and at.metric
    assert len(checks) == first
    Dataset(club).write(notation.load(SAMPLES / "markup-in-names.txt"))  # the files change
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    again = len(checks)
    assert again > 1  # checked again (and again if the page stored counts of the new game)
    at = AppTest.from_file(APP, default_timeout=30).run()  # a later visitor: nothing more
    assert not at.exception
    assert len(checks) == again


def test_a_page_run_lists_the_dataset_once(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed: list[Path] = []
    real = data._listed

    def counted(path: Path) -> tuple[str, ...]:
        listed.append(path)
        return real(path)

    monkeypatch.setattr(data, "_listed", counted)
    # However long the run takes on a busy machine: only a folder's change lists again.
    monkeypatch.setattr(data, "SIGNATURE_FOR", 3600.0)
    at = AppTest.from_file(APP, default_timeout=30).run()  # the landing page: a dozen queries
    assert not at.exception and at.metric
    assert len(listed) == 1
    before = data.signature(club)
    Dataset(club).write(notation.load(SAMPLES / "markup-in-names.txt"))  # a game lands
    assert data.signature(club) != before  # seen at once: its folder changed
    assert len(listed) == 2


def test_sessions_share_one_game_and_one_list_of_steps(club: Path) -> None:
    (game_id,) = Dataset(club).game_ids()
    assert data.game(club, game_id) is data.game(club, game_id)  # no copy per call
    steps = data.states(club, game_id, 1, False)
    assert steps is data.states(club, game_id, 1, False)
    assert len(steps) > 1


def test_the_server_gives_freed_memory_back() -> None:
    serve.give_back_memory(every=0.01)
    names = {t.name for t in threading.enumerate()}
    assert "kroeg-malloc-trim" in names


@pytest.mark.parametrize("sample", ["laundry-and-checks.txt", "troefcall-evening.txt"])
def test_a_first_visit_to_games_or_replay_finds_its_answers_ready(
    sample: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kroeg.dashboard.evenings import prefetch

    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(SAMPLES / sample))
    monkeypatch.setenv("KROEG_DATASET", str(dataset.path))
    at = AppTest.from_file(APP, default_timeout=30).run()  # the landing page (its counts)
    assert not at.exception
    prefetch(dataset.path)  # what the server does before it listens
    asked: list[object] = []
    real = data._remember

    def counted(key: tuple[object, ...], compute: Callable[[], object]) -> object:
        if key not in data._results:
            asked.append(key[2:])  # the query's name and arguments
        return real(key, compute)

    monkeypatch.setattr(data, "_remember", counted)
    for page in ("views/games.py", "views/replay.py"):
        at = AppTest.from_file(APP, default_timeout=30).run()
        at.switch_page(page).run()
        assert not at.exception
    assert asked == []  # not one query computed on the first visit
