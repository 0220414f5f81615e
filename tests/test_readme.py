"""The README's command examples, run in order as a newcomer types them.

Every line of the `kroeg` command block runs on a fresh dataset in a temporary folder
(`ID` filled in from `kroeg games`, the dashboards started on a free port and stopped
once they answer); none may print `Error:` or a traceback the README does not announce.
`kroeg demo` (what the Quick start's `make demo` runs) builds the demo dataset, and its
dashboard must answer too. With KROEG_COMMAND set (.ci/run), the same lines run with an
installed wheel's `kroeg` instead of this checkout's.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    """The `kroeg …` lines of the README's command block, continuation lines joined and
    comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The `kroeg` command") :]
    block = section[section.index("```sh") + 5 : section.index("```", section.index("```sh") + 5)]
    joined = block.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = line.split("  #")[0].strip()
        if line.startswith("kroeg "):
            lines.append(line)
    return lines


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The `kroeg` to run: this checkout's, or (KROEG_COMMAND, as .ci/run sets it) the
#: command of a wheel installed in a fresh virtual environment, run outside the checkout.
INSTALLED = os.environ.get("KROEG_COMMAND")
KROEG = [INSTALLED] if INSTALLED else [sys.executable, "-m", "kroeg.cli"]
ENV = {
    **{k: v for k, v in os.environ.items() if not (INSTALLED and k == "PYTHONPATH")},
    "PYTHONUNBUFFERED": "1",
}


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*KROEG, *argv[1:]], cwd=cwd, capture_output=True, text=True, input="", timeout=600,
        env=ENV,
    )  # fmt: skip


def serve_briefly(argv: list[str], cwd: Path) -> str:
    """A dashboard command on a free port: it must answer, then stop on SIGTERM."""
    port = free_port()
    process = subprocess.Popen(
        [*KROEG, *argv[1:], "--port", str(port)], cwd=cwd, env=ENV,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None:
                    break
                time.sleep(0.1)
        assert process.poll() is None, f"{argv} stopped: {process.stdout.read()}"  # type: ignore[union-attr]
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
    return output


@pytest.mark.slow
# The longest tests: on the pure-Python engine, beside the rest of the suite on both
# cores, they came past the 300 s safety net once; 900 s still stops one that hangs.
@pytest.mark.timeout(900)
def test_the_readme_commands_work_as_written(tmp_path: Path) -> None:
    commands = readme_commands()
    assert len(commands) >= 15 and commands[0].startswith("kroeg simulate")
    shutil.copytree(ROOT / "sample_logs", tmp_path / "sample_logs")
    game_id = ""
    for line in commands:
        argv = shlex.split(line)
        if argv[1] == "demo":
            # The Quick start's `make demo` runs this, then serves until stopped: build the
            # demo dataset here and check its dashboard answers.
            built = run([*argv, "--no-dashboard", "--out", "demo-data"], tmp_path)
            assert built.returncode == 0, built.stdout + built.stderr
            output = serve_briefly(["kroeg", "dashboard", "demo-data"], tmp_path)
            assert "Error:" not in output and "Traceback" not in output, output
            continue
        if "ID" in argv:
            assert game_id, f"{line}: no game listed yet"
            argv = [game_id if a == "ID" else a for a in argv]
        if "sample_logs/*.txt" in argv:
            i = argv.index("sample_logs/*.txt")
            argv[i : i + 1] = sorted(str(p) for p in (tmp_path / "sample_logs").glob("*.txt"))
        if argv[1] == "dashboard":
            output = serve_briefly(argv, tmp_path)
        else:
            done = run(argv, tmp_path)
            output = done.stdout + done.stderr
            assert done.returncode == 0, f"{line}\n{output}"
        assert "Error:" not in output and "Traceback" not in output, f"{line}\n{output}"
        if argv[1] == "games":
            game_id = re.findall(r"^(\S+)\s+\d{4}-", output, re.M)[0][:8]  # a prefix will do
        if argv[1] == "newsletter":
            assert list((tmp_path / "bulletin").glob("*.md")), output


def readme_typed_logs() -> list[str]:
    """The typed logs the README shows under "Typed logs", as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Typed logs") : text.index("`sample_logs/` holds")]
    return re.findall(r"^```\n(.*?)^```", section, re.S | re.M)


def test_the_readme_typed_logs_read_as_written() -> None:
    from kroeg.parsers import notation

    logs = readme_typed_logs()
    assert len(logs) == 2 and logs[1].startswith("rules: troefcall")
    for log in logs:
        [game] = notation.loads(log)  # strict: any error raises, naming its line
        assert game.hands == 1
