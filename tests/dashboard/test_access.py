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
