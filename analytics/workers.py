"""Worker processes for work split in independent tasks: results come back in task order.

    with Workers(2) as workers:
        for result in workers.run(chunk_facts, tasks):   # tasks: an iterator
            ...

Each worker is `python -m kroeg.analytics.workers`: a fresh interpreter that imports only what
its tasks need. Not `multiprocessing`: its spawn re-runs the caller's main script in every
worker (whatever `__main__` is at that moment: a console script, a test runner's module,
a Streamlit page), and fork copies the caller's threads' locks in whatever state they are.

With `fork=True`, a caller that runs a single thread (Linux counts them all, a library's
native ones too: `single_threaded`) forks its workers instead: they start at once, with
every module the caller imported, where a started one first spends some 0.12 s on the
interpreter and the imports its task needs. A caller with a second thread gets fresh
interpreters as above, whatever it asked.

Tasks and results travel as pickles over the workers' stdin and stdout (unbuffered on
the caller's side), each frame an 8-byte length and the pickle. A worker reads its next
tasks in a thread, so the caller can always hand one over; at most `AHEAD` tasks are out
per worker, so a large job is read as it goes. An exception in a task is raised in the
caller, with the worker's traceback.

A worker never outlives its caller: Ctrl-C is not its to handle (it runs in a process
group of its own, so a terminal's SIGINT reaches the caller only, and it ignores SIGINT;
the caller decides, and stops its workers with SIGTERM), and on
Linux asks the kernel to kill it when the caller dies (`die_with_parent`), even by SIGKILL.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import os
import pickle
import queue
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
import weakref
from collections.abc import Callable, Iterator
from typing import IO, Any, Generic, Protocol, TypeVar

from kroeg.recorder.errors import WorkerError

__all__ = [
    "PARENT_VAR", "WorkerError", "Workers", "die_with_parent", "in_workers", "single_threaded",
    "stop_all", "usable_cores",
]  # fmt: skip

T = TypeVar("T")
R = TypeVar("R")

#: Tasks handed to a worker before its first result comes back: one to work on, one ready.
AHEAD = 2
_LENGTH = struct.Struct("<Q")
#: The environment variable that tells a child process its parent's pid (`die_with_parent`).
PARENT_VAR = "KROEG_PARENT_PID"
#: Linux's prctl(2) option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1
#: How long a worker is given to end (its input closed, or its answers ended) before
#: it is stopped with SIGTERM.
_STOP_WAIT = 5.0
#: Every pool whose workers may still run (`stop_all`).
_pools: weakref.WeakSet[Workers[Any, Any]] = weakref.WeakSet()


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, cores or 1)


def single_threaded() -> bool:
    """Whether this process runs one thread, counting every thread (a library's native
    ones too), where the system tells (Linux); False where it cannot tell."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """Have the kernel send `sig` to this process when its parent dies (Linux), whatever
    kills the parent, SIGKILL included; stop at once if the parent is already gone.

    The parent names itself in `PARENT_VAR` (a process whose parent died is adopted, so
    `getppid` alone cannot tell). Called by the child itself, first thing: no
    `preexec_fn`, which is unsafe in a parent with threads (a Streamlit server)."""
    expected = os.environ.pop(PARENT_VAR, None)
    _die_with(None if expected is None else int(expected), sig)


def _die_with(parent: int | None, sig: int = signal.SIGKILL) -> None:
    """`die_with_parent`, the parent's pid given (None: not known)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the kernel was asked: nobody waits for us


def stop_all() -> None:
    """Stop every worker still running, at once (SIGTERM): after Ctrl-C in the caller,
    before the line that says what is kept, so no worker outlives the command."""
    for pool in list(_pools):
        pool.close(abort=True)


def _send(stream: IO[bytes], payload: object) -> None:
    body = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    data = memoryview(_LENGTH.pack(len(body)) + body)
    while data:  # an unbuffered pipe may take part of it at a time
        written = stream.write(data)
        data = data[written or 0 :]
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    parts, left = [], size
    while left:
        part = stream.read(left)
        if not part:
            raise EOFError
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _receive(stream: IO[bytes]) -> Any:
    (size,) = _LENGTH.unpack(_read_exactly(stream, _LENGTH.size))
    return pickle.loads(_read_exactly(stream, size))


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) back until the block is done, then raise it as Python
    would have. Around starting the workers: a KeyboardInterrupt inside `Popen`, after
    the fork and before it returns, would leave a worker that nobody knows of, so
    nobody stops or reaps it (seen under load: a worker outliving `kroeg analyse`).
    Only the main thread can set a handler; elsewhere (a Streamlit session's thread)
    Ctrl-C does not reach this code."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        if previous is signal.default_int_handler:
            raise KeyboardInterrupt
        if callable(previous):
            previous(signal.SIGINT, None)


class _Process(Protocol):
    """What `Workers` asks of a worker process: `subprocess.Popen`, or `_Forked`."""

    @property
    def stdin(self) -> IO[bytes] | None: ...
    @property
    def stdout(self) -> IO[bytes] | None: ...
    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def terminate(self) -> None: ...


class _Forked:
    """A worker forked from this process, with as much of `subprocess.Popen` as `Workers`
    uses: its pipes, and whether and how it ended."""

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes]) -> None:
        self.pid, self.stdin, self.stdout = pid, stdin, stdout
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): it ended
                self.returncode = 0
                return 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if timeout is None:
            while self.returncode is None:
                try:
                    self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
                except ChildProcessError:  # reaped elsewhere: it ended
                    self.returncode = 0
            return self.returncode
        deadline = time.monotonic() + timeout
        while (code := self.poll()) is None:
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
            time.sleep(0.005)
        return code

    def terminate(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)


def _fork() -> _Forked:
    """A worker forked from this process (which runs one thread: `single_threaded`). It
    serves tasks on its own pipes (`_serve`) and leaves by `os._exit`, never returning
    into the caller's code, whatever happens."""
    tasks_out, tasks_in = os.pipe()  # the worker reads its tasks at tasks_out
    answers_out, answers_in = os.pipe()  # and writes its answers at answers_in
    parent = os.getpid()
    try:
        pid = os.fork()
    except BaseException:
        for fd in (tasks_out, tasks_in, answers_out, answers_in):
            os.close(fd)
        raise
    if pid == 0:  # the worker
        code = 1
        try:
            os.close(tasks_in)
            os.close(answers_out)
            # The other workers' pipes: a worker holding one would keep its peer from
            # ever reading the end of its tasks.
            for pool in list(_pools):
                for process in pool.processes:
                    for stream in (process.stdin, process.stdout):
                        if stream is not None:
                            with contextlib.suppress(OSError, ValueError):
                                os.close(stream.fileno())
            os.setpgid(0, 0)  # a group of its own: a terminal's Ctrl-C reaches the caller only
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _die_with(parent)
            # Never closed here: closing the inbox would wait for the reading thread,
            # which holds it. os._exit leaves them to the kernel.
            _serve(open(tasks_out, "rb"), open(answers_in, "wb", buffering=0))  # noqa: SIM115
            code = 0
        except BrokenPipeError:  # the caller stopped
            pass
        except BaseException:  # said on the caller's terminal, as a started worker would
            with contextlib.suppress(BaseException):
                traceback.print_exc()
                sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(tasks_out)
    os.close(answers_in)
    return _Forked(pid, open(tasks_in, "wb", buffering=0), open(answers_out, "rb", buffering=0))


def module_command(module: str) -> tuple[list[str], dict[str, str]]:
    """The command that runs `module` (`python -m`) in a fresh Python, and what to add to
    its environment, for it to import the code this process imports whatever folder it
    runs in: `-m` would put the current folder first on the import path, where a folder
    holding a `kroeg` package (a clone of the repository, or worse) would be run instead.
    So -P, and this process's own import path (`sys.path`, each folder made absolute:
    `''` is the current folder where the caller has it) as `PYTHONPATH`. An entry that is
    not a string, or that holds the path separator, cannot be passed on and is left out."""
    folders = (os.path.abspath(p) for p in sys.path if isinstance(p, str))
    path = os.pathsep.join(p for p in folders if os.pathsep not in p)
    return [sys.executable, "-P", "-m", module], {"PYTHONPATH": path}


class Workers(Generic[T, R]):
    """`count` worker processes, started now and stopped on `close` (or leaving `with`);
    forked from this process with `fork` where it runs one thread (module docstring)."""

    def __init__(self, count: int, fork: bool = False) -> None:
        self.processes: list[_Process] = []
        _pools.add(self)
        command, imports = module_command("kroeg.analytics.workers")
        env = {**os.environ, PARENT_VAR: str(os.getpid()), **imports}
        fork = fork and hasattr(os, "fork") and single_threaded()
        if fork:  # nothing of this process's buffers is written again by a worker
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
        try:
            with _ctrl_c_after():
                for _ in range(count):
                    if fork:
                        self.processes.append(_fork())
                        continue
                    self.processes.append(subprocess.Popen(
                        command,
                        # Unbuffered: what `select` says is ready is all in the pipe, none
                        # of it hidden in a reader's buffer.
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env,
                        # A group of its own: a terminal's Ctrl-C reaches the caller only,
                        # even while a worker still starts (a KeyboardInterrupt in its
                        # imports).
                        process_group=0,
                    ))  # fmt: skip
        except BaseException:
            self.close(abort=True)
            raise

    def __enter__(self) -> Workers[T, R]:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        # An error, Ctrl-C, or the caller dropping the results half-way (GeneratorExit):
        # the tasks still out are not wanted, so the workers stop now, not after them.
        self.close(abort=kind is not None)

    def run(self, function: Callable[[T], R], tasks: Iterator[T]) -> Iterator[R]:
        """`function(task)` for every task, in the workers; the results in the tasks' order.

        `function` must be a module-level function (it is named, not sent)."""
        name = f"{function.__module__}:{function.__qualname__}"
        selector = selectors.DefaultSelector()
        out: dict[int, list[int]] = {i: [] for i in range(len(self.processes))}
        for i, process in enumerate(self.processes):
            assert process.stdout is not None
            selector.register(process.stdout, selectors.EVENT_READ, i)
        done: dict[int, R] = {}
        sent = wanted = 0
        more = True
        try:
            while True:
                while more and (free := [i for i, q in out.items() if len(q) < AHEAD]):
                    task = next(tasks, None)
                    if task is None:
                        more = False
                        break
                    worker = min(free, key=lambda i: len(out[i]))
                    stdin = self.processes[worker].stdin
                    assert stdin is not None
                    _send(stdin, (name, task))
                    out[worker].append(sent)
                    sent += 1
                while wanted in done:
                    yield done.pop(wanted)
                    wanted += 1
                if not more and wanted == sent:
                    return
                for key, _ in selector.select():
                    worker = key.data
                    try:
                        ok, value = _receive(key.fileobj)  # type: ignore[arg-type]
                    except EOFError:
                        code = _ended(self.processes[worker])
                        raise WorkerError(f"a worker process stopped (exit code {code})") from None
                    if not ok:
                        raise WorkerError(f"a task failed in a worker process:\n{value}")
                    done[out[worker].pop(0)] = value
        finally:
            selector.close()

    def close(self, abort: bool = False) -> None:
        """Stop the workers: end of input, then SIGTERM to any that does not stop; with
        `abort`, SIGTERM at once (their tasks are dropped)."""
        processes, self.processes = self.processes, []
        _pools.discard(self)
        for process in processes:
            if abort and process.poll() is None:
                with contextlib.suppress(OSError):
                    process.terminate()
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
        for process in processes:
            try:
                process.wait(timeout=_STOP_WAIT)
            except subprocess.TimeoutExpired:
                process.terminate()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()


def _ended(process: _Process) -> int:
    """The exit code of a worker whose answers ended; stopped (SIGTERM) if it still runs
    after `_STOP_WAIT` seconds, so the caller never waits on it for ever."""
    try:
        return process.wait(timeout=_STOP_WAIT)
    except subprocess.TimeoutExpired:
        process.terminate()
        return process.wait()


def in_workers(function: Callable[[T], R], tasks: Iterator[T]) -> Iterator[R]:
    """`function(task)` for every task, in a worker process per core (`Workers.run`), the
    results in the tasks' order. The workers start at the first result asked for (forked
    where this process runs one thread), and stop when the last is read, or at once when
    the caller drops the rest (`close`)."""
    with Workers[T, R](usable_cores(), fork=True) as pool:
        yield from pool.run(function, tasks)


def _serve(inbox: IO[bytes], outbox: IO[bytes]) -> None:
    """A worker's life: run each task read from `inbox`, answer on `outbox`, until
    `inbox` ends."""
    tasks: queue.Queue[Any] = queue.Queue()

    def read() -> None:  # drains the inbox, so the caller never waits to hand over a task
        while True:
            try:
                tasks.put(_receive(inbox))
            except EOFError:
                tasks.put(None)
                return

    threading.Thread(target=read, daemon=True).start()
    functions: dict[str, Callable[[Any], Any]] = {}
    while (item := tasks.get()) is not None:
        name, task = item
        try:
            if name not in functions:
                module, _, qualname = name.partition(":")
                functions[name] = getattr(importlib.import_module(module), qualname)
            answer = (True, functions[name](task))
        except Exception:
            answer = (False, traceback.format_exc())
        try:
            _send(outbox, answer)  # pickled whole before a byte is written
        except (BrokenPipeError, KeyboardInterrupt, SystemExit):
            raise
        except Exception:  # a result that cannot be pickled: the caller is told why
            _send(outbox, (False, traceback.format_exc()))


if __name__ == "__main__":
    # Ctrl-C is the caller's to handle: it stops us with SIGTERM (whose default action ends
    # the process at once). Ending on KeyboardInterrupt here would shut the interpreter
    # down while the reading thread holds stdin's lock: "Fatal Python error:
    # _enter_buffered_busy", once per worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    with contextlib.suppress(BrokenPipeError):  # the caller stopped
        _serve(sys.stdin.buffer, sys.stdout.buffer)
    # Every answer is sent: leave without the interpreter's teardown, where a library's
    # thread pool can abort the process and print "terminate called without an active
    # exception" on the caller's terminal (the same race as `kroeg.cli._leave`).
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    os._exit(0)
