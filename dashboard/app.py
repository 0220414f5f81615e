"""The kroeg dashboard: `kroeg dashboard DATASET` runs this with Streamlit."""

from __future__ import annotations

import os

import streamlit as st

from kroeg.dashboard.access import READ_ONLY_VAR, TOKEN_VAR, token_matches
from kroeg.dashboard.data import check_once, dataset_path
from kroeg.dashboard.filters import sidebar
from kroeg.dashboard.links import follow
from kroeg.dashboard.words import language_picker
from kroeg.recorder.errors import KroegError
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text

st.set_page_config(page_title="kroeg", page_icon="🃏", layout="wide")

path = dataset_path()
w = language_picker(path)  # first in the sidebar: every word below is in its language
problem = None
if path is None:
    problem = w.say(
        "no_dataset", "No dataset given: start the dashboard with `kroeg dashboard DATASET`."
    )
else:
    try:
        Dataset(path).check()
        check_once(path)  # every footer and schema, once per change: a damaged file is named
    except KroegError as exc:
        problem = str(exc)
if problem is not None:
    st.error(markdown_text(problem))
    st.stop()
assert path is not None  # st.stop() above ends the run without one

token = os.environ.get(TOKEN_VAR)
if token and not st.session_state.get("kroeg_token_ok"):
    given = st.query_params.get("token") or st.sidebar.text_input(
        w.say("token", "Token"), type="password", key="kroeg_token"
    )
    if not token_matches(given, token):
        st.info(
            w.say(
                "token_asked",
                "This dashboard asks for its token: add ?token=… to the address, or type it.",
            )
        )
        st.stop()
    st.session_state["kroeg_token_ok"] = True
if "token" in st.query_params:
    # Accepted (or not asked for): out of the address bar, so it is not bookmarked, shared
    # with a link or shown on the screen; this session keeps being let in.
    del st.query_params["token"]

st.session_state["kroeg_dataset"] = path
sidebar(path)

# The default page is served at "/" but reserves its own url_path, which Streamlit then
# answers with "Page not found": it gets one nobody types, and "evenings" is an alias.
# A page's address is the same in every language; its title is in the sidebar's.
home = st.Page(
    "views/overview.py", title=w.say("page_evenings", "Evenings"), url_path="kroeg-home",
    default=True,
)  # fmt: skip
games = st.Page("views/games.py", title=w.say("page_games", "Games"), url_path="games")
pages = [
    home,
    games,
    st.Page("views/replay.py", title=w.say("page_replay", "Replay"), url_path="replay"),
    st.Page("views/players.py", title=w.say("page_players", "Players"), url_path="players"),
    st.Page("views/season.py", title=w.say("page_season", "Season"), url_path="season"),
]
if not os.environ.get(READ_ONLY_VAR):  # served beyond this machine without a token: no writes
    record = w.say("page_record", "Record")
    pages.append(st.Page("views/record.py", title=record, url_path="record"))


def _to_home() -> None:
    st.switch_page(home, query_params=dict(st.query_params))


def _to_games() -> None:
    st.switch_page(games, query_params=dict(st.query_params))


# Addresses people type or kept from before: they open the page they mean, not "Page not
# found" (the default page's own address is "/").
aliases = {
    "evenings": st.Page(_to_home, title="Evenings", url_path="evenings", visibility="hidden"),
    "overview": st.Page(_to_home, title="Overview", url_path="overview", visibility="hidden"),
    "sessions": st.Page(_to_games, title="Sessions", url_path="sessions", visibility="hidden"),
}
navigation = st.navigation([*pages, *aliases.values()])
follow(pages, {"evenings": home, "overview": home, "sessions": games})
navigation.run()
