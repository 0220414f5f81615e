"""`kroeg dashboard`'s life cycle: stopping it stops its Streamlit server too."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
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
