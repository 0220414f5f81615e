"""Start the dashboard server warm: `python -m dashboard.serve [streamlit options]`.

Streamlit imports the app's modules and opens the dataset only when the first
visitor arrives, which made the server's first page twice as slow as any later
one. Here the heavy imports happen, and the dataset's files are read once,
before the server starts listening; then Streamlit runs `dashboard/app.py` in
this same process, so its script finds everything loaded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent / "app.py"


def warm() -> None:
    """Import what the pages use and read the dataset once (fills the OS file cache)."""
    import altair  # noqa: F401  (the Players charts)
    import polars  # noqa: F401

    # What the pages use, but not the pages themselves: their cached functions must be
    # made once Streamlit's runtime is up.
    import analytics.stats  # noqa: F401
    import parsers.render  # noqa: F401
    import recorder.manual  # noqa: F401
    from analytics.views import connect

    value = os.environ.get("KROEG_DATASET")
    if not value:
        return
    path = Path(value)
    try:
        con = connect(path)
        con.execute("SELECT count(*) FROM games").fetchall()
        # The columns the landing page's first queries read (hands, seats, payments):
        # in the OS file cache before the first visitor asks.
        con.execute(
            "SELECT count(*), max(hand), max(seat), sum(amount), count(DISTINCT kind) FROM events"
        ).fetchall()
        con.close()
    except Exception:  # a warm-up never stops the server: the app shows the problem
        pass


def main(argv: list[str]) -> int:
    warm()
    from streamlit.web import cli

    # No "Deploy" button or developer menu for the club: the toolbar a viewer needs.
    options = (
        []
        if any(a.startswith("--client.toolbarMode") for a in argv)
        else ["--client.toolbarMode", "viewer"]
    )
    sys.argv = ["streamlit", "run", str(APP), *options, *argv]
    result = cli.main()  # Click exits through SystemExit
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
