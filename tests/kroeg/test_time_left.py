"""The time left that the analysis's bar and log lines show is measured, not assumed:
within 2x of the truth from 10% done until the last 10% of the time (when one burst more
or less is all that is left), on simulated runs of uneven bursts (a fake clock: no test
here waits)."""

from __future__ import annotations

import io
import random

import pytest

from kroeg._options import Bar, Estimate, ProgressLines, clock_text


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def bursty_run(
    seed: int, games: int = 1370, chunk: int = 24
) -> tuple[float, list[tuple[float, int]]]:
    """When each chunk's results come back, as the analysis's do: seconds of start-up
    (workers starting, the first files read) with nothing done, then two workers whose
    chunks take 1 to 3.5 s each, their results in the chunks' order, and a pause to store
    every 20 chunks. Returns the start-up and (time, games) of each burst."""
    rng = random.Random(seed)
    startup = rng.uniform(3, 10)
    free = [startup, startup]
    arrivals: list[tuple[float, int]] = []
    last = startup
    for number, first in enumerate(range(0, games, chunk), 1):
        worker = min(range(2), key=lambda w: free[w])
        free[worker] += rng.uniform(1.0, 3.5)
        last = max(last, free[worker])  # in order: after every chunk before it
        if number % 20 == 0:
            last += 2.0  # storing a batch: the results wait
            free = [max(f, last) for f in free]
        arrivals.append((last, min(chunk, games - first)))
    return startup, arrivals


@pytest.mark.parametrize("seed", range(20))
def test_the_time_left_is_within_twice_the_truth_once_a_tenth_is_done(seed: int) -> None:
    clock = Clock()
    total = 1370
    estimate = Estimate(total, clock)
    start = clock.now
    _, arrivals = bursty_run(seed, total)
    end = start + arrivals[-1][0]
    checked = 0
    for at, games in arrivals:
        clock.now = start + at
        for game in range(games + 1):
            # Asked as a burst begins (where a log line or the bar is drawn) and after it.
            if game in (0, games):
                truth = end - clock.now
                if estimate.done >= total / 10 and truth >= 0.1 * (end - start):
                    left = estimate.left()
                    assert left is not None
                    assert truth / 2 <= left <= truth * 2, (estimate.done, left, truth)
                    checked += 1
            if game < games:
                estimate.update(1)  # once per game, as the analysis calls it, a moment apart
                clock.now += 0.0002
    assert checked > 40


def test_a_burst_reported_game_by_game_is_one_sample() -> None:
    """Seen in a 1,000,000-hand run: the 24 games of a chunk reported microseconds apart
    made the slope of one burst the rate (219 hours left for an hour's work)."""
    clock = Clock()
    estimate = Estimate(1000, clock)
    for _ in range(10):  # a burst of 24 games every 2 s, each game 10 µs after the last
        clock.now += 2
        for _ in range(24):
            estimate.update(1)
            clock.now += 0.00001
    assert [done % 24 for _, done in estimate.samples] == [0] * len(estimate.samples)
    assert estimate.left() == pytest.approx((1000 - 240) / 12, rel=0.01)


def test_a_line_drawn_at_a_bursts_first_game_is_not_misled_by_it() -> None:
    """Seen in a Troefcall analysis of 204 games: the log line was written at the first
    game of the second chunk, 24 games 7 s after the first 24, and said 20 minutes for
    the minute's work left (one game in 7 s)."""
    clock = Clock()
    lines: list[str] = []
    progress = ProgressLines(204, "Analysing", clock, lines.append)
    for _ in range(8):
        clock.now += 7  # a chunk of 24 games every 7 s, reported game by game
        for _ in range(24):
            progress.update(1)
            clock.now += 0.00001
    # Said as each chunk begins, of the chunks before: at 7 s none, at 14 s one (no
    # rate yet), at 21 s two, 24 games every 7 s: 156 games left, 46 s (the truth: 42 s).
    assert lines[1] == "Analysing: 0 done (0%), 7 s"
    assert lines[2] == "Analysing: 24 done (12%), 14 s"
    assert lines[3] == "Analysing: 48 done (24%), 21 s, about 0:46 left"
    assert all("about" in line for line in lines[3:])


def test_nothing_is_promised_before_anything_is_measured() -> None:
    clock = Clock()
    estimate = Estimate(100, clock)
    assert estimate.left() is None
    clock.now += 30  # a slow start: the workers start, the first files are read
    estimate.update(5)
    assert estimate.left() is None  # one burst is no rate
    clock.now += 1
    estimate.update(5)
    # 5 games a second since the first burst: 90 left. The start-up does not count.
    assert estimate.left() == pytest.approx(18.0)


def test_the_rate_is_the_recent_one() -> None:
    clock = Clock()
    estimate = Estimate(2000, clock)
    for _ in range(100):  # 10 games a second for 100 s
        clock.now += 1
        estimate.update(10)
    for _ in range(100):  # then 1 a second
        clock.now += 1
        estimate.update(1)
    # 900 left at 1 a second (the last 100 s), not 5.5 (the average since the start).
    assert estimate.left() == pytest.approx(900, rel=0.05)


def test_log_lines_say_the_time_left() -> None:
    clock = Clock()
    lines: list[str] = []
    progress = ProgressLines(300, "Analysing 300 new games (once)", clock, lines.append)
    for _ in range(30):
        clock.now += 1
        progress.update(5)
    progress.finish()
    assert lines[0] == "Analysing 300 new games (once) ..."
    # Each line as an update comes, of the work before it.
    assert lines[1] == "Analysing 300 new games (once): 20 done (7%), 5 s, about 0:56 left"
    assert lines[-2] == "Analysing 300 new games (once): 145 done (48%), 30 s, about 0:31 left"
    assert lines[-1] == "Analysed 150 games in 30.0 s."


def test_the_bar_draws_its_share_and_time_left() -> None:
    clock = Clock()
    stream = io.StringIO()
    with Bar(100, "Simulating", stream, every=0, clock=clock) as bar:
        for _ in range(50):
            clock.now += 0.5
            bar.update(1)
        assert bar.line() == "Simulating  [###############---------------]   50%  0:25 left"
        for _ in range(50):
            clock.now += 0.5
            bar.update(1)
    drawn = stream.getvalue()
    assert drawn.startswith("\r\x1b[2KSimulating  [------------------------------]    0%  ? left")
    assert drawn.endswith("\r\x1b[2KSimulating  [##############################]  100%  0:50\n")


def test_clock_text() -> None:
    assert [clock_text(s) for s in (None, 0, 59.6, 65, 3725)] == ["?", "0:00", "1:00", "1:05",
                                                                  "1:02:05"]  # fmt: skip
