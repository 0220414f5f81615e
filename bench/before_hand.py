"""The Replay page's "Before this hand" figures, timed in process. Prints a table.

    python bench/before_hand.py DATASET [DATASET ...]

For the first, a middle and the last game in the order played (PLAYED), at its last
hand, with the filters untouched, the figures as the page asks for them through the
server's cache (`dashboard.data.ask`):

- cold: the server's kept results and its DuckDB connection dropped just before (as
  after the dataset's files change); the operating system's file cache stays warm;
- new game: the first time this game is asked, after another game was (what a visitor
  changing game waits for);
- warm: the same game again (what a step or a change of hand waits for).

Each is the median of REPEATS runs. On code from before issue 29's fix (no
`dashboard.data.before_this_hand`) the page's own two asks are timed instead.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from kroeg.analytics.evenings import PLAYED
from kroeg.analytics.pages import before_hand, counts_before_game, game_hand_counts
from kroeg.analytics.views import connect
from kroeg.dashboard import data
from kroeg.dashboard.filters import default_games

REPEATS = 5

try:
    from kroeg.dashboard.data import before_this_hand
except ImportError:  # before issue 29's fix: what the Replay page asked

    def before_this_hand(
        path: Path, game_id: str, hand: int, players: tuple[str, ...], games: list[str] | None
    ) -> pl.DataFrame:
        earlier = data.ask(path, counts_before_game, game_id, games)
        return before_hand(players, earlier, data.ask(path, game_hand_counts, game_id), hand)


def _drop_caches() -> None:
    with data._lock:
        data._results.clear()
        data._databases.clear()


def _ms(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def bench(path: Path) -> None:
    """Print the timings for one dataset."""
    con = connect(path)
    played = con.sql(
        "SELECT game_id, players, (SELECT max(hand) FROM hands AS h "
        "WHERE h.game_id = g.game_id) AS last FROM games AS g "
        f"WHERE game_type = 'toepen' ORDER BY {PLAYED}"
    ).fetchall()
    hands = con.sql("SELECT count(*) FROM hands").fetchall()[0][0]
    con.close()
    picked = {"first": played[0], "middle": played[len(played) // 2], "last": played[-1]}
    games = default_games(path)

    def hud(row: tuple[str, list[str], int]) -> Callable[[], object]:
        game_id, players, last = row
        return lambda: before_this_hand(path, game_id, last, tuple(players), games)

    cold: dict[str, list[float]] = {k: [] for k in picked}
    new: dict[str, list[float]] = {k: [] for k in picked}
    warm: dict[str, list[float]] = {k: [] for k in picked}
    others = {"first": "last", "middle": "first", "last": "first"}
    for _ in range(REPEATS):
        for which, row in picked.items():
            _drop_caches()
            cold[which].append(_ms(hud(row)))
            warm[which].append(_ms(hud(row)))
            _drop_caches()
            hud(picked[others[which]])()  # the server has answered another game
            new[which].append(_ms(hud(row)))
    print(f"{path}: {hands:,} hands, {len(played):,} Toepen games (median of {REPEATS}, ms)")
    print(f"{'game':8} {'cold':>9} {'new game':>9} {'warm':>9}")
    for which in picked:
        medians = [statistics.median(t[which]) for t in (cold, new, warm)]
        print(f"{which:8} " + " ".join(f"{m:9.1f}" for m in medians))


if __name__ == "__main__":
    for argument in sys.argv[1:] or ["bench/out/dashboard-100000"]:
        bench(Path(argument))
