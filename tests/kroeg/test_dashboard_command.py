"""`kroeg dashboard`'s life cycle: stopping it stops its Streamlit server too."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kroeg.parsers import notation
from kroeg.recorder.store import Dataset


def _serving(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_the_command_stops_its_server(
    stop: signal.Signals,
    tmp_path: Path,
    samples: Path,
    free_port: int,
    processes: list[subprocess.Popen[bytes]],
) -> None:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(samples / "laundry-and-checks.txt"))
    command = [sys.executable, "-m", "kroeg.cli", "dashboard", str(dataset.path),
               "--port", str(free_port)]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(process)
    url = f"http://127.0.0.1:{free_port}"
    for _ in range(600):  # up to a minute on a loaded machine
        if _serving(url) or process.poll() is not None:
            break
        time.sleep(0.1)
    assert _serving(url), "the dashboard never answered"
    process.send_signal(stop)
    assert process.wait(timeout=30) == 0
    # Nothing is left listening: the same port can be taken again at once (as a server
    # does, with SO_REUSEADDR: connections closing in TIME_WAIT do not count).
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", free_port))
        s.listen()


def test_a_port_in_use_or_a_bad_address_is_one_error_before_anything_starts(
    tmp_path: Path, samples: Path, free_port: int
) -> None:
    from typer.testing import CliRunner

    from kroeg.cli import app

    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(samples / "laundry-and-checks.txt"))
    runner = CliRunner()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", free_port))
        busy.listen()
        taken = runner.invoke(app, ["dashboard", str(dataset.path), "--port", str(free_port)])
    assert taken.exit_code == 1
    assert taken.output == (
        f"Error: port {free_port} is in use (another dashboard?): stop it, or choose another "
        "with --port\n"
    )
    assert not (dataset.path / "derived").exists()  # refused before the analysis ran
    nowhere = runner.invoke(app, ["dashboard", str(dataset.path), "--host", "0.0.0.0.0"])
    assert nowhere.exit_code == 2 and "--host must be an IP address" in nowhere.output
    too_big = runner.invoke(app, ["dashboard", str(dataset.path), "--port", "99999"])
    assert too_big.exit_code == 2 and "less than or equal to 65535" in too_big.output


def _start(
    dataset: Path, port: int, processes: list[subprocess.Popen[bytes]]
) -> subprocess.Popen[bytes]:
    """`kroeg dashboard` on a dataset, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kroeg.cli", "dashboard", str(dataset), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    processes.append(process)
    url = f"http://127.0.0.1:{port}"
    for _ in range(1200):  # up to two minutes on a loaded machine
        if _serving(url) or process.poll() is not None:
            break
        time.sleep(0.1)
    assert _serving(url), "the dashboard never answered"
    return process


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _running(pid: int) -> bool:
    """Whether any thread of a process still runs (a zombie, dead but not yet reaped by
    whoever adopted it, does not; its threads may take a moment to end after SIGKILL)."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return False
    for task in tasks:
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
            return True
    return False


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def small_dataset(tmp_path: Path, samples: Path) -> Path:
    dataset = Dataset(tmp_path / "ds")
    dataset.write(notation.load(samples / "laundry-and-checks.txt"))
    return dataset.path


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; prctl")
@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGHUP], ids=["SIGKILL", "SIGHUP"])
def test_the_server_dies_with_the_command_whatever_stops_it(
    stop: signal.Signals,
    small_dataset: Path,
    free_port: int,
    processes: list[subprocess.Popen[bytes]],
) -> None:
    process = _start(small_dataset, free_port, processes)
    (server,) = _children(process.pid)
    process.send_signal(stop)
    code = process.wait(timeout=60)
    assert code == (-signal.SIGKILL if stop == signal.SIGKILL else 0)
    for _ in range(600):  # the kernel's signal, or the command's SIGTERM, takes effect
        if not _running(server) and not _listening(free_port):
            break
        time.sleep(0.1)
    assert not _running(server), "the Streamlit server outlived kroeg dashboard"
    assert not _listening(free_port)  # nothing serves the port any more


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_process_that_waits_holds_none_of_the_toolchain(
    small_dataset: Path, free_port: int, processes: list[subprocess.Popen[bytes]]
) -> None:
    process = _start(small_dataset, free_port, processes)
    maps = Path(f"/proc/{process.pid}/maps").read_text()
    for library in ("pyarrow", "duckdb", "polars", "streamlit", "numpy"):
        assert library not in maps, f"the waiting process has {library} loaded"
    status = Path(f"/proc/{process.pid}/status").read_text()
    rss_kib = int(next(ln for ln in status.splitlines() if ln.startswith("VmRSS:")).split()[1])
    assert rss_kib < 48 * 1024, f"the waiting process holds {rss_kib / 1024:.0f} MiB"
    (server,) = _children(process.pid)
    assert b"kroeg.dashboard.serve" in Path(f"/proc/{server}/cmdline").read_bytes()
    # ... and the server's threads share two malloc arenas, not eight per core
    assert b"MALLOC_ARENA_MAX=2" in Path(f"/proc/{server}/environ").read_bytes().split(b"\0")


def _get(url: str, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.slow
def test_streamlit_internals_answer_this_machine_only(
    small_dataset: Path, free_port: int, processes: list[subprocess.Popen[bytes]]
) -> None:
    _start(small_dataset, free_port, processes)
    url = f"http://127.0.0.1:{free_port}"
    proxied = {"X-Forwarded-For": "203.0.113.7"}  # as through a reverse proxy
    assert _get(f"{url}/_stcore/metrics") == 200  # this machine: an operator's curl
    assert _get(f"{url}/_stcore/metrics", proxied) == 404
    assert _get(f"{url}/_stcore/agent/openapi.json", {"X-Real-IP": "203.0.113.7"}) == 404
    assert _get(f"{url}/_stcore/health", proxied) == 200  # what the page itself needs
    assert _get(f"{url}/_stcore/host-config", proxied) == 200
    assert _get(f"{url}/", proxied) == 200


def test_a_server_that_stops_by_itself_is_one_error_line() -> None:
    failing = [sys.executable, "-m", "kroeg._watch", sys.executable, "-c", "raise SystemExit(3)"]
    done = subprocess.run(failing, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr == "Error: the dashboard server stopped with exit code 3 (see above)\n"
    fine = [sys.executable, "-m", "kroeg._watch", sys.executable, "-c", "pass"]
    assert subprocess.run(fine, capture_output=True, timeout=120).returncode == 0


def test_the_address_said_is_one_a_browser_opens() -> None:
    """`--host 0.0.0.0` said "on http://0.0.0.0:8501", which no browser opens."""
    from kroeg.cli import dashboard_address

    assert dashboard_address("127.0.0.1", 8501) == "http://127.0.0.1:8501"
    assert dashboard_address("::1", 8502) == "http://[::1]:8502"
    for everywhere in ("0.0.0.0", "::"):
        said = dashboard_address(everywhere, 8501)
        assert said.startswith(f"http://{socket.gethostname()}:8501 ")
        assert "http://localhost:8501" in said and "0.0.0.0" not in said
