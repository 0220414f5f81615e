"""The Players page's rating over time (analytics.ratings.rating_chart), under AppTest."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from kroeg.dashboard import serve
from kroeg.parsers import notation
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate_into
from kroeg.recorder.store import Dataset

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def rating_rows(at: AppTest) -> list[list[dict[str, object]]]:
    """The rows of each rating chart on the page (the ones with a `rating` column)."""
    found = []
    for chart in at.get("vega_lite_chart"):
        rows = pa.ipc.open_stream(chart.proto.data.data).read_all().to_pylist()
        if rows and "rating" in rows[0]:
            found.append(rows)
    return found


def players_page() -> AppTest:
    at = AppTest.from_file(str(serve.APP), default_timeout=60).run()
    at.switch_page("views/players.py").run()
    assert not at.exception
    return at


def test_the_club_s_ratings_game_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [g for name in ("classic-evening.txt", "troefcall-evening.txt")
             for g in notation.load(SAMPLES / name)]  # fmt: skip
    Dataset(tmp_path / "ds").write(games)
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "ds"))
    at = players_page()
    titles = [s.value for s in at.subheader]
    assert "Rating over time: Toepen, the club's games" in titles
    assert "Rating over time: Troefcall, the club's games" in titles
    (toepen, troefcall) = rating_rows(at)
    assert {r["player"] for r in toepen} == set(games[0].players)
    assert all(r["low"] < r["rating"] < r["high"] for r in toepen + troefcall)  # type: ignore[operator]
    assert all(str(r["shown"]).split()[0].endswith("?") for r in toepen)  # provisional
    # Each chart counts its own games from 1, whatever else was played between them.
    for rows in (toepen, troefcall):
        numbers = sorted({int(r["game"]) for r in rows})  # type: ignore[call-overload]
        assert numbers == list(range(1, len(numbers) + 1))


def test_bots_alone_are_shown_as_the_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dataset = Dataset(tmp_path / "bots").create()
    simulate_into(dataset, Ruleset.preset("classic"), 4, 80, 2, ("sharp", "random"))
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "bots"))
    at = players_page()
    assert "Rating over time: Toepen, the bots' games, rated apart from the club's" in [
        s.value for s in at.subheader
    ]
    assert not Dataset(tmp_path / "bots").files("derived/ratings")  # the page stores nothing
