"""Worker processes: results in the tasks' order, failures raised in the caller."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kroeg.analytics.workers import Workers
from kroeg.recorder.errors import WorkerError

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "classic-evening.txt"


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


def _python(code: str, timeout: float = 120) -> str:
    """What a fresh Python process that runs `code` prints: one thread, unlike a test
    runner's process (pytest-xdist reads its orders on a thread of its own)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


FORKED = """
import os
from kroeg.analytics.workers import Workers
with Workers(2, fork=True) as pool:
    processes = list(pool.processes)
    kinds = sorted({type(p).__name__ for p in processes})
    groups = list(pool.run(os.getpgid, iter([0] * 12)))  # each worker's process group
    values = list(pool.run(abs, iter(range(-40, 0))))
print(kinds, len(set(groups)), os.getpgid(0) in groups, values == list(range(40, 0, -1)))
print(all(p.poll() is not None for p in processes))  # stopped and reaped on leaving
"""


def test_a_caller_with_one_thread_forks_its_workers_with_the_same_results() -> None:
    assert _python(FORKED).split("\n") == ["['_Forked'] 2 False True", "True", ""]


def test_a_caller_with_a_second_thread_starts_fresh_interpreters_when_asked_to_fork() -> None:
    import subprocess
    import threading

    from kroeg.analytics.workers import single_threaded

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not single_threaded()
        with Workers[int, int](2, fork=True) as workers:
            assert all(isinstance(p, subprocess.Popen) for p in workers.processes)
            assert list(workers.run(abs, iter(range(-6, 0)))) == [6, 5, 4, 3, 2, 1]
    finally:
        stop.set()
        thread.join()


def test_a_failing_task_in_a_forked_worker_raises_in_the_caller() -> None:
    said = _python(
        "from kroeg.analytics.workers import Workers\n"
        "from kroeg.recorder.errors import WorkerError\n"
        "with Workers(2, fork=True) as pool:\n"
        "    try:\n"
        "        list(pool.run(int, iter(['1', 'seven', '3'])))\n"
        "    except WorkerError as error:\n"
        "        print('invalid literal' in str(error), type(pool.processes[0]).__name__)\n"
    )
    assert said == "True _Forked\n"


def test_forked_workers_die_with_their_caller_even_by_sigkill() -> None:
    """The caller killed by SIGKILL (nothing of it runs): the kernel stops its workers."""
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import os, signal, sys\n"
        "from kroeg.analytics.workers import Workers\n"
        "pool = Workers(2, fork=True)\n"
        "print(*(p.pid for p in pool.processes), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    # The workers hold the caller's stdout: were they to outlive it, this would wait for
    # them, so it is bounded (a failure, not a hung suite).
    caller = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert caller.returncode == -signal.SIGKILL
    pids = [int(p) for p in caller.stdout.split()]
    assert len(pids) == 2
    for _ in range(200):  # the kernel signals them at once; they may take a moment to go
        if not any(_alive(pid) for pid in pids):
            break
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not; an orphan's is reaped by init)."""
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_result_that_cannot_be_sent_back_is_a_failure_not_a_hang() -> None:
    """A task's result that pickle refuses (a memoryview) fails that task in the caller,
    with the reason, from a started worker and from a forked one alike."""
    with Workers[bytes, memoryview](2) as workers, pytest.raises(WorkerError) as error:
        list(workers.run(memoryview, iter([b"x", b"y"])))
    assert "cannot pickle memoryview objects" in str(error.value)
    said = _python(
        "from kroeg.analytics.workers import Workers\n"
        "from kroeg.recorder.errors import WorkerError\n"
        "with Workers(2, fork=True) as pool:\n"
        "    try:\n"
        "        list(pool.run(memoryview, iter([b'x', b'y'])))\n"
        "    except WorkerError as error:\n"
        "        print(type(pool.processes[0]).__name__, 'cannot pickle' in str(error))\n"
    )
    assert said == "_Forked True\n"


def test_kroeg_validate_runs_one_thread_where_it_starts_its_workers() -> None:
    """`kroeg validate` forks its workers only if the command runs one thread when it
    starts them: everything it imports, and a file read, start none (a library that
    started one would silently bring back the slower start)."""
    said = _python(
        "import sys\n"
        "import kroeg.cli  # every import of the command line\n"
        "from kroeg.analytics import workers\n"
        "from kroeg.parsers.validate import validate_file\n"
        "seen = []\n"
        "real = workers.Workers.__init__\n"
        "def init(self, count, fork=False):\n"
        "    seen.append((fork, workers.single_threaded()))\n"
        "    real(self, count, fork)\n"
        "workers.Workers.__init__ = init\n"
        "import kroeg.parsers.validate as v\n"
        "v.PARALLEL_FROM = 0\n"
        f"found = validate_file({str(SAMPLE)!r}, workers.in_workers)\n"
        "print(seen, found.games, found.errors)\n"
    )
    assert said.startswith("[(True, True)] ") and said.endswith(" []\n"), said


IMPOSTOR = "open('imported', 'w').write(__name__)\nraise SystemExit(9)\n"


def test_a_worker_imports_its_callers_code_not_a_kroeg_in_the_current_folder(
    tmp_path: Path,
) -> None:
    """`python -m` puts the current folder first on the import path: a worker started in
    a folder holding a `kroeg` package (a clone of this repository, or worse) would run
    that code, not its caller's. Started with -P and the caller's path, it runs the
    caller's."""
    import subprocess
    import sys

    for package in ("kroeg", "kroeg/analytics"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(IMPOSTOR)
    (tmp_path / "kroeg" / "analytics" / "workers.py").write_text(IMPOSTOR)
    code = (
        "from kroeg.analytics.workers import Workers\n"
        "with Workers(2) as pool:\n"
        "    print(list(pool.run(abs, iter(range(-5, 0)))))\n"
    )
    path = os.pathsep.join(p for p in sys.path if p and p != str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-P", "-c", code],  # as the `kroeg` script: not the folder first
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[5, 4, 3, 2, 1]\n"
    assert not (tmp_path / "imported").exists()


def test_module_command_passes_on_the_callers_path_as_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'' (the current folder, where a `python -c` caller has it) becomes that folder; an
    entry that is not a string, or that a path list cannot hold, is left out, not fatal."""
    import sys

    from kroeg.analytics.workers import module_command

    monkeypatch.chdir(tmp_path)
    odd = f"/tmp/a{os.pathsep}b"
    monkeypatch.setattr(sys, "path", ["", "lib", Path("/x"), b"/y", odd, "/usr/lib/python3"])
    command, env = module_command("kroeg.analytics.workers")
    assert command == [sys.executable, "-P", "-m", "kroeg.analytics.workers"]
    assert env["PYTHONPATH"].split(os.pathsep) == [
        str(tmp_path),
        str(tmp_path / "lib"),
        "/usr/lib/python3",
    ]
