"""The Season page: a season of the club file, its table and each evening's places
(analytics.season, as `kroeg standings` prints them)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from kroeg.analytics.club import CLUB_FILE, read_club
from kroeg.analytics.demo import DEMO_CLUB
from kroeg.analytics.season import describe, not_ranked, shown_table, standings
from kroeg.dashboard.data import ask
from kroeg.dashboard.filters import current_path, empty_state
from kroeg.recorder.errors import UsageError
from kroeg.recorder.text import markdown_text as md


def season_page() -> None:
    """The chosen season's table (the link's `?season=` first), then its evenings."""
    st.title("Season")
    if empty_state():
        return
    path = current_path() / CLUB_FILE
    if not path.exists():
        st.info(
            f"No club file yet: a season is named in `{CLUB_FILE}` in the dataset's folder "
            "(docs/SEASONS.md), for example:"
        )
        st.code(DEMO_CLUB, language="toml")
        return
    try:
        club = read_club(path)
    except UsageError as problem:
        st.error(md(str(problem)))
        return
    if not club.seasons:
        st.info(md(f"{path} names no season yet: add a [[seasons]] entry (docs/SEASONS.md)."))
        return
    names = [s.name for s in club.seasons]
    wanted = st.query_params.get("season")
    chosen_name = st.selectbox(
        "Season", names, index=names.index(wanted) if wanted in names else len(names) - 1
    )
    st.query_params["season"] = chosen_name  # the choice travels in a copied link
    bots = st.toggle("Count the bots' games too", value=False, help="kroeg simulate, the demo")
    season = club.season(chosen_name)
    found = ask(current_path(), standings, season, bots)
    for line in describe(found):
        st.markdown(md(line))
    st.caption("The season's own dates and every game of its type: the sidebar's filters "
               "do not narrow a season.")  # fmt: skip
    if found.table.is_empty():
        st.info("No finished games in this season" + ("." if bots else
                "; the bots' games are left out (the toggle above counts them)."))  # fmt: skip
        return
    ranked = shown_table(found)
    if ranked.is_empty():
        st.info(f"Nobody has played {season.min_evenings} evenings yet.")
    else:
        st.dataframe(ranked, hide_index=True, width="stretch")
    if not_ranked(found):
        st.markdown(md(not_ranked(found)))
    st.subheader("Each evening")
    evenings = found.evenings.sort(["day", "evening", "place", "player"], descending=[
        True, False, False, False])  # fmt: skip
    st.dataframe(
        evenings.select(
            "day", pl.col("venue").fill_null(""), "place", "player", "won", "lost", "points"
        ),
        hide_index=True,
        width="stretch",
    )


season_page()
