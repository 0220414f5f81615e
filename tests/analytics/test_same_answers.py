"""The engine's games and the analysis's verdicts on a fixed 20,000-hand dataset are the
ones the code stored before the native core (issue 27): same games, same strength, bluff
and regret, to the last row. tests/analytics/answers.py has the dataset and the digests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.analytics.answers import DIGESTS, build, digests


@pytest.mark.slow
def test_the_fixed_dataset_has_the_same_games_and_verdicts(tmp_path: Path) -> None:
    found = digests(build(tmp_path / "answers"))
    assert found == DIGESTS
