"""Start the dashboard server warm: `python -m kroeg.dashboard.serve [streamlit options]`.

Streamlit imports the app's modules and opens the dataset only when the first
visitor arrives, which made the server's first page twice as slow as any later
one. Here the heavy imports happen, and the landing page's queries are answered,
before the server starts listening; then Streamlit runs `dashboard/app.py` in
this same process, so its script finds everything loaded and the answers kept.

Streamlit serves the app as an `st.App` (its ASGI application) with one middleware of
ours in front: its internals such as `/_stcore/metrics` answer this machine only
(`InternalsOnLoopback`). And the server dies with the process that started it
(`die_with_parent`).
"""

from __future__ import annotations

import gc
import ipaddress
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from kroeg.analytics.workers import die_with_parent

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


#: Streamlit's own routes that are not the app: served to this machine only (loopback, and
#: not through a proxy). The page needs the rest (`_stcore/stream`, `/health`,
#: `/host-config`, static files, components, uploads, media).
INTERNAL = ("/_stcore/metrics", "/_stcore/agent", "/_stcore/script-health-check")
#: Headers a reverse proxy adds: a request carrying one came from beyond this machine.
FORWARDED = (b"forwarded", b"x-forwarded-for", b"x-real-ip")


def _from_this_machine(scope: dict[str, Any]) -> bool:
    client = scope.get("client")
    if not client or any(name in FORWARDED for name, _ in scope.get("headers", [])):
        return False
    try:
        return ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


class InternalsOnLoopback:
    """ASGI middleware: Streamlit's internals (`INTERNAL`) answer 404 to any client but this
    machine's. Streamlit has no option to turn `/_stcore/metrics` off (1.67), so the app is
    served as an `st.App` with this middleware in front of Streamlit's own."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[Any]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        path = scope.get("path", "")
        internal = any(path == p or path.startswith(p + "/") for p in INTERNAL)
        if scope["type"] == "http" and internal and not _from_this_machine(scope):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain")]})  # fmt: skip
            await send({"type": "http.response.body", "body": b"Not found"})
            return
        await self.app(scope, receive, send)


def config_of(argv: list[str]) -> dict[str, Any]:
    """Streamlit's options as `streamlit run` takes them (`--server.port 8501`, up to a
    `--`), as the config `st.App.run` takes; `client.toolbarMode` is `viewer` unless given:
    no "Deploy" button or developer menu for the club."""
    config: dict[str, Any] = {"client.toolbarMode": "viewer"}
    words = argv[: argv.index("--")] if "--" in argv else argv
    for name, value in zip(words[::2], words[1::2], strict=False):
        key = name.removeprefix("--")
        config[key] = {"true": True, "false": False}.get(value, value)
        if key == "server.port":
            config[key] = int(value)
    return config


#: Seconds between two returns of freed memory to the system (`malloc_trim`).
TRIM_EVERY = 15.0


def give_back_memory(every: float = TRIM_EVERY) -> None:
    """Return the heap's free pages to the system every `every` seconds, in a thread
    (glibc keeps them otherwise: after ten visitors left, the server stayed hundreds of
    MB above its idle figure). A few milliseconds each time; nothing off glibc."""
    import ctypes
    import threading

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return

    def run() -> None:
        while True:
            time.sleep(every)
            trim(0)

    threading.Thread(target=run, name="kroeg-malloc-trim", daemon=True).start()


def main(argv: list[str]) -> int:
    die_with_parent()  # started by `kroeg dashboard` (kroeg._watch): gone when it is
    give_back_memory()
    config = config_of(argv)
    warm()
    # Streamlit collects garbage after every run of a page; the modules and answers loaded
    # above live as long as the server, so the collector need not walk them each time (it
    # took 0.28 s of a Players visit).
    gc.freeze()
    import streamlit as st
    from starlette.middleware import Middleware

    app = st.App(APP, middleware=[Middleware(InternalsOnLoopback)])
    sys.argv = [__file__]  # the launcher: the pages are found beside it, as beside app.py
    app.run(config=config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
