"""What `kroeg dashboard` becomes once its checks and the analysis are done: a small
process that starts the Streamlit server and waits for it.

    python -m kroeg._watch COMMAND...     (the server's command line; `kroeg.cli` execs this)

`kroeg dashboard` itself imports the whole toolchain (pyarrow, DuckDB, polars: ~300 MB
after an analysis) and would hold it for as long as the server runs; it replaces itself
with this module instead (`os.execve`: the same pid, the same terminal), which imports
nothing but the standard library and kroeg's errors.

- SIGTERM, SIGINT (Ctrl-C) or SIGHUP (the terminal closed) stop the server (SIGTERM),
  then this process, with exit code 0.
- Killed itself, even by SIGKILL, the server dies too: the server asks the kernel for
  that first thing (`kroeg.analytics.workers.die_with_parent`, Linux), told this pid in
  `KROEG_PARENT_PID`.
- A server that stops by itself with an error is one `Error:` line here, exit 1.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from kroeg.analytics.workers import PARENT_VAR
from kroeg.recorder.errors import DashboardError

__all__ = ["main"]

#: Seconds the server has to stop after SIGTERM before it is killed.
GRACE = 15


def main(command: list[str]) -> int:
    server = subprocess.Popen(command, env={**os.environ, PARENT_VAR: str(os.getpid())})
    stopped = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopped
        stopped = True
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop)
    try:
        code = server.wait()
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=GRACE)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    print()
    if code and not stopped:
        problem = DashboardError(f"the dashboard server stopped with exit code {code} (see above)")
        print(f"Error: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
