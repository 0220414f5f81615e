"""Fixtures shared by the whole suite.

Helpers that build positions live in modules of their own (`tests/recorder/table.py`,
`tests/recorder/troef_table.py`); no test module imports from another.
"""

from __future__ import annotations

import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kroeg._options import stop_process

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The output the tests read is a pipe's, whatever the shell that runs them exports:
    a COLUMNS of its own would cut `kroeg games`' cells (`_options.screen_width`). A test
    of a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture(scope="session")
def samples() -> Path:
    """The sample logs folder."""
    return ROOT / "sample_logs"


@pytest.fixture
def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Helper processes a test starts: whatever is still running at the end is stopped."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        stop_process(process, timeout=30)
