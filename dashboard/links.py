"""Links between the dashboard's pages in the same tab, keeping the sidebar's filters.

`links.js` catches a plain click on a link to one of the pages (a Markdown link such as
`replay?game=…&hand=2&step=37`) and sends its address; `follow` switches to that page
with those query parameters, in the same session.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl

import streamlit as st
from streamlit.navigation.page import StreamlitPage

__all__ = ["follow"]

_LINKS = st.components.v2.component(
    "kroeg_links",
    js=(Path(__file__).with_name("links.js")).read_text(encoding="utf-8"),
    isolate_styles=False,
)


def follow(pages: list[StreamlitPage], aliases: dict[str, StreamlitPage] | None = None) -> None:
    """Listen for clicks on links to `pages` (or to an alias: its address, and the page it
    opens); on one, open that page here."""
    by_path = {page.url_path: page for page in pages} | (aliases or {})
    with st.sidebar:
        clicked = _LINKS(key="kroeg_links", data={"pages": list(by_path)}, on_open_change=_noop)
    target = clicked.get("open") if clicked else None
    if not isinstance(target, str):
        return
    path, _, query = target.partition("?")
    page = by_path.get(path)
    if page is None:
        return
    # A link names the move to open: the replay takes it as a new arrival.
    st.session_state.pop("replay_where", None)
    st.switch_page(page, query_params=dict(parse_qsl(query)))


def _noop() -> None:
    """A trigger needs a callback to be reported; the work is done in `follow`."""
