"""Serving beyond this machine is deliberate: --expose, read-only without a token."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from kroeg.cli import app
from kroeg.dashboard import serve
from kroeg.dashboard.access import READ_ONLY_VAR, TOKEN_VAR, dashboard_access
from kroeg.parsers import notation
from kroeg.recorder.errors import UsageError
from kroeg.recorder.store import Dataset

APP = str(serve.APP)
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def test_loopback_is_this_machine_and_anything_else_must_be_exposed() -> None:
    assert dashboard_access("127.0.0.1", False, None).environment == {}
    assert dashboard_access("::1", False, None).environment == {}
    with pytest.raises(UsageError) as err:
        dashboard_access("0.0.0.0", False, None)
    assert str(err.value) == (
        "--host 0.0.0.0 serves the dashboard beyond this machine: add --expose (read-only) "
        "or --expose --token SECRET (docs/RELIABILITY.md)"
    )
    read_only = dashboard_access("0.0.0.0", True, None)
    assert read_only.environment == {READ_ONLY_VAR: "1"}
    assert read_only.warning is not None and "read-only" in read_only.warning
    assert dashboard_access("0.0.0.0", True, "a-long-secret-1").environment == {
        TOKEN_VAR: "a-long-secret-1"
    }
    with pytest.raises(UsageError):
        dashboard_access("0.0.0.0", True, "short")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host", "0.0.0.0.0", "--expose"], "--host must be an IP address, found '0.0.0.0.0'"),
        (["--host", "0.0.0.0"], "serves the dashboard beyond this machine"),
        (["--port", "99999"], "'--port': Input should be less than or equal to 65535"),
    ],
)
def test_the_command_refuses_before_starting(tmp_path: Path, args, message) -> None:
    Dataset(tmp_path / "ds").write(notation.load(SAMPLES / "laundry-and-checks.txt"))
    result = CliRunner().invoke(app, ["dashboard", str(tmp_path / "ds"), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    Dataset(tmp_path / "ds").write(notation.load(SAMPLES / "laundry-and-checks.txt"))
    monkeypatch.setenv("KROEG_DATASET", str(tmp_path / "ds"))
    return tmp_path / "ds"


def test_read_only_has_no_record_page(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(READ_ONLY_VAR, "1")
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    with pytest.raises(ValueError, match="Could not find a navigation page"):
        at.switch_page("views/record.py")  # not among the pages at all


def test_a_token_is_asked_for_before_any_page(club: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_VAR, "a-long-secret-1")
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert next(i.value for i in at.info).startswith("This dashboard asks for its token")
    assert not at.metric  # the Overview's numbers are not shown
    at.query_params["token"] = "a-long-secret-1"
    at.run()
    assert not at.exception and at.metric


@pytest.mark.parametrize(
    ("path", "client", "headers", "passed"),
    [
        ("/_stcore/metrics", ("192.0.2.10", 5000), [], False),  # a visitor on the network
        ("/_stcore/metrics", ("127.0.0.1", 5000), [], True),  # this machine
        ("/_stcore/metrics", ("::1", 5000), [], True),
        ("/_stcore/metrics", ("127.0.0.1", 5000), [(b"x-forwarded-for", b"192.0.2.10")], False),
        ("/_stcore/metrics", None, [], False),  # a client nobody can name
        ("/_stcore/agent/mcp", ("192.0.2.10", 5000), [], False),
        ("/_stcore/script-health-check", ("192.0.2.10", 5000), [], False),
        ("/_stcore/health", ("192.0.2.10", 5000), [], True),  # the page's own needs
        ("/_stcore/host-config", ("192.0.2.10", 5000), [], True),
        ("/_stcore/metricsx", ("192.0.2.10", 5000), [], True),  # not the route itself
        ("/players", ("192.0.2.10", 5000), [], True),
    ],
)
def test_streamlit_internals_are_refused_beyond_this_machine(
    path: str, client: tuple[str, int] | None, headers: list[tuple[bytes, bytes]], passed: bool
) -> None:
    import asyncio

    reached: list[str] = []
    sent: list[dict[str, object]] = []

    async def streamlit(scope: dict[str, object], receive: object, send: object) -> None:
        reached.append(str(scope["path"]))

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def receive() -> dict[str, object]:
        return {"type": "http.request"}

    scope = {"type": "http", "path": path, "client": client, "headers": headers}
    asyncio.run(serve.InternalsOnLoopback(streamlit)(scope, receive, send))
    assert reached == ([path] if passed else [])
    assert sent == ([] if passed else [
        {"type": "http.response.start", "status": 404,
         "headers": [(b"content-type", b"text/plain")]},
        {"type": "http.response.body", "body": b"Not found"},
    ])  # fmt: skip


def test_the_server_takes_streamlit_options_as_its_config() -> None:
    config = serve.config_of(
        ["--server.address", "0.0.0.0", "--server.port", "8600", "--server.headless", "true",
         "--", "/data/club.kroeg"]
    )  # fmt: skip
    assert config == {
        "client.toolbarMode": "viewer",
        "server.address": "0.0.0.0",
        "server.port": 8600,
        "server.headless": True,
    }


def test_the_token_leaves_the_address_once_accepted(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VAR, "a-long-secret-1")
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["token"] = "a-long-secret-1"
    at.query_params["hand"] = "2"
    at.run()
    assert not at.exception and at.metric
    assert "token" not in at.query_params  # out of the address bar
    assert at.query_params["hand"] == "2"  # the rest of the address stays
    at.run()  # the next run (a click, a page) has no token in the address: still in
    assert not at.exception and at.metric
    assert not [i for i in at.info if i.value.startswith("This dashboard asks for its token")]


def test_a_wrong_token_is_refused_and_the_page_stays_shut(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VAR, "a-long-secret-1")
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["token"] = "not-the-secret-1"
    at.run()
    assert next(i.value for i in at.info).startswith("This dashboard asks for its token")
    assert not at.metric
