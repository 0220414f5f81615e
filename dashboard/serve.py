"""Start the dashboard server warm: `python -m kroeg.dashboard.serve [streamlit options]`.

Streamlit imports the app's modules and opens the dataset only when the first
visitor arrives, which made the server's first page twice as slow as any later
one. Here the heavy imports happen, and the landing page's queries are answered,
before the server starts listening; then Streamlit runs `dashboard/app.py` in
this same process, so its script finds everything loaded and the answers kept.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from pathlib import Path

#: The Streamlit script: the app's entry point, inside the installed package.
APP = Path(__file__).parent / "app.py"


def warm() -> None:
    """Import what the pages use, and compute the landing page's data before the first
    visitor arrives (kept in `dashboard.data`'s cache, which this process shares)."""
    import altair  # noqa: F401  (the Players charts)
    import pandas  # type: ignore[import-untyped]  # noqa: F401  (a component asks for it)
    import polars  # noqa: F401
    import streamlit  # noqa: F401  (its loggers, quieted below)
    from streamlit.string_util import is_emoji

    is_emoji("🃏")  # compiles the emoji pattern the page icon is checked against

    # What the pages use, but not the pages themselves (they draw when imported).
    import kroeg.analytics.stats
    import kroeg.parsers.render
    import kroeg.recorder.manual  # noqa: F401

    value = os.environ.get("KROEG_DATASET")
    if not value:
        return
    # `st.cache_data` functions made before the runtime exists say so once each, on
    # stderr; they find the runtime's own cache when called, so the log need not say it.
    caching = logging.getLogger("streamlit.runtime.caching.cache_data_api")
    level = caching.level
    caching.setLevel(logging.ERROR)
    try:
        from kroeg.dashboard.evenings import prefetch

        prefetch(Path(value))
    except Exception:  # a warm-up never stops the server: the app shows the problem
        pass
    finally:
        caching.setLevel(level)


def main(argv: list[str]) -> int:
    warm()
    # Streamlit collects garbage after every run of a page; the modules and answers loaded
    # above live as long as the server, so the collector need not walk them each time (it
    # took 0.28 s of a Players visit).
    gc.freeze()
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
