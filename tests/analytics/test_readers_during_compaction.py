"""kroeg's own readers through many compactions: every answer whole, not one failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.store import Dataset

READER = """
import json, os, sys
from kroeg.analytics.stats import player_stats
from kroeg.analytics.views import connect, consistently
from kroeg.recorder.store import Dataset
path, stop_file = sys.argv[1], sys.argv[2]
ds = Dataset(path)
answers, failures = [], []
while not os.path.exists(stop_file) or len(answers) < 10:
    try:
        frame = consistently(lambda: player_stats(connect(ds)))
        games = consistently(lambda: [g.hands for g in ds.read_games()])
        answers.append([int(frame["hands"].sum()), sum(games)])
    except Exception as exc:
        failures.append(f"{type(exc).__name__}: {exc}")
print(json.dumps([answers, failures]))
"""


@pytest.mark.slow
def test_readers_see_every_game_once_through_compactions(tmp_path: Path) -> None:
    ds = Dataset(tmp_path / "d")
    for seed in range(4):
        ds.write(simulate(Ruleset.preset("classic"), 4, 120, seed, ["random"]))
    hands = sum(g.hands for g in ds.read_games())
    stop = tmp_path / "stop"
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(ds.path), str(stop)], stdout=subprocess.PIPE, text=True
    )
    for _ in range(8):
        ds.compact()
        ds.write(simulate(Ruleset.preset("classic"), 4, 120, 0, ["random"]))  # known: skipped
        ds.compact()
    stop.touch()
    output, _ = reader.communicate(timeout=180)
    answers, failures = json.loads(output)
    assert failures == []
    assert len(answers) >= 10
    # Every finished hand counted once by the statistics, every hand once by the reader.
    assert all(total == hands for _, total in answers)
    assert len({stats for stats, _ in answers}) == 1
