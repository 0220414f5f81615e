"""Worker processes: results in the tasks' order, failures raised in the caller."""

from __future__ import annotations

import os

import pytest

from kroeg.analytics.workers import Workers
from kroeg.recorder.errors import WorkerError


def slow_square(n: int) -> tuple[int, int]:
    """n², with the worker's pid; the even tasks take longer, so answers come back shuffled."""
    _ = sum(range(200_000 if n % 2 == 0 else 1_000))
    return n * n, os.getpid()


def fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven is not welcome")
    return n


def stop_the_worker(n: int) -> int:
    os._exit(3)


def test_results_come_back_in_the_tasks_order_from_several_processes() -> None:
    with Workers[int, tuple[int, int]](2) as workers:
        results = list(workers.run(slow_square, iter(range(40))))
    assert [square for square, _ in results] == [n * n for n in range(40)]
    assert len({pid for _, pid in results}) == 2 and os.getpid() not in {p for _, p in results}


def test_a_failing_task_raises_in_the_caller_with_the_workers_traceback() -> None:
    with Workers[int, int](2) as workers, pytest.raises(WorkerError) as error:
        list(workers.run(fail_on_seven, iter(range(20))))
    assert "seven is not welcome" in str(error.value) and "fail_on_seven" in str(error.value)


def test_a_worker_that_dies_is_reported_and_nothing_is_left_running() -> None:
    workers = Workers[int, int](2)
    processes = list(workers.processes)
    with pytest.raises(WorkerError, match="exit code 3"):
        list(workers.run(stop_the_worker, iter(range(4))))
    workers.close()
    assert all(p.poll() is not None for p in processes)


def test_ctrl_c_while_a_worker_starts_leaves_none_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that lands inside `Popen` (the worker forked, `Popen` not yet returned) is
    held until every worker started is known, then raised: all of them are stopped and
    reaped, none left running unknown (seen once under load in the Ctrl-C test)."""
    import signal
    import subprocess

    from kroeg.analytics import workers as module

    real = subprocess.Popen
    started: list[subprocess.Popen[bytes]] = []

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        process = real(*args, **kwargs)  # type: ignore[call-overload]
        started.append(process)
        if len(started) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C before Popen returns
            sum(range(10_000))  # Python runs the handler here, as it would inside Popen
        return process  # type: ignore[no-any-return]

    monkeypatch.setattr(module.subprocess, "Popen", popen)
    # Python's own Ctrl-C handler, whatever an earlier test in this process left (a Spark
    # session installs its own), and that one back afterwards.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            Workers[int, int](2)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back
    finally:
        signal.signal(signal.SIGINT, before)
    assert len(started) == 2
    assert all(process.returncode is not None for process in started)  # stopped and reaped
