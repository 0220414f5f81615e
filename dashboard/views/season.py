"""The Season page: a season of the club file, its table and each evening's places
(analytics.season, as `kroeg standings` prints them), in the sidebar's language."""

from __future__ import annotations

from datetime import date

import polars as pl
import streamlit as st

from kroeg.analytics.club import CLUB_FILE, read_club
from kroeg.analytics.demo import DEMO_CLUB
from kroeg.analytics.season import default_season, describe, not_ranked, shown_table, standings
from kroeg.analytics.words import Words
from kroeg.dashboard.data import ask
from kroeg.dashboard.filters import current_path, empty_state
from kroeg.dashboard.words import page_words
from kroeg.recorder.errors import UsageError
from kroeg.recorder.text import markdown_text as md


def _headings(w: Words) -> dict[str, str]:
    """The tables' column headings: the columns keep their names, a visitor reads these."""
    return {
        "place": w("season_place"),  # the bulletin's
        "player": w("player"),
        "evenings": w.say("season_page_col_evenings", "evenings"),
        "counted": w.say("season_page_col_counted", "counted"),
        "points": w.say("season_page_col_points", "points"),
        "dropped": w.say("season_page_col_dropped", "dropped"),
        "firsts": w.say("season_page_col_firsts", "firsts"),
        "day": w.say("season_page_col_day", "day"),
        "venue": w.say("season_page_col_venue", "venue"),
        "won": w.say("season_page_col_won", "won"),
        "lost": w.say("season_page_col_lost", "lost"),
    }


def _headed(frame: pl.DataFrame, w: Words) -> pl.DataFrame:
    """`frame` with its columns headed in `w`'s language."""
    headings = _headings(w)
    return frame.rename({c: headings[c] for c in frame.columns if c in headings})


def season_page() -> None:
    """The chosen season's table (the link's `?season=` first), then its evenings."""
    w = page_words()
    st.title(w.say("page_season", "Season"))
    if empty_state():
        return
    path = current_path() / CLUB_FILE
    if not path.exists():
        st.info(
            w.say(
                "season_page_no_club_file",
                "No club file yet: a season is named in `{file}` in the dataset's folder "
                "(docs/SEASONS.md), for example:",
                file=CLUB_FILE,
            )
        )
        st.code(DEMO_CLUB, language="toml")
        return
    try:
        club = read_club(path)
    except UsageError as problem:
        st.error(md(str(problem)))
        return
    if not club.seasons:
        st.info(
            md(
                w.say(
                    "season_page_no_season",
                    "{path} names no season yet: add a [[seasons]] entry (docs/SEASONS.md).",
                    path=path,
                )
            )
        )
        return
    names = [s.name for s in club.seasons]
    wanted = st.query_params.get("season")
    if wanted not in names:  # the season going on (or the last begun), not the file's last
        wanted = default_season(club.seasons, date.today()).name
    chosen_name = st.selectbox(
        w.say("season_page_pick", "Season"), names,
        index=names.index(wanted),
        key="season_page_season",
    )  # fmt: skip
    st.query_params["season"] = chosen_name  # the choice travels in a copied link
    bots = st.toggle(
        w.say("season_page_bots", "Count the bots' games too"), value=False,
        help=w.say("season_page_bots_help", "kroeg simulate, the demo"), key="season_page_bots",
    )  # fmt: skip
    season = club.season(chosen_name)
    found = ask(current_path(), standings, season, bots)
    for line in describe(found, w):
        st.markdown(md(line))
    st.caption(w.say("season_page_dates", "The season's own dates and every game of its type: "
                     "the sidebar's filters do not narrow a season."))  # fmt: skip
    if found.table.is_empty():
        if bots:
            st.info(w.say("season_page_no_games", "No finished games in this season."))
        else:
            st.info(w.say("season_page_no_club_games",
                          "No finished games in this season; the bots' games are left out "
                          "(the toggle above counts them)."))  # fmt: skip
        return
    ranked = shown_table(found, w)
    if ranked.is_empty():
        st.info(
            w.say(
                "season_page_nobody_ranked",
                "Nobody has played {evenings} yet.",
                evenings=w.count(season.min_evenings, "n_evenings"),
            )
        )
    else:
        st.dataframe(_headed(ranked, w), hide_index=True, width="stretch")
    if not_ranked(found, w):
        st.markdown(md(not_ranked(found, w)))
    st.subheader(w.say("season_page_evenings", "Each evening"))
    evenings = found.evenings.sort(["day", "evening", "place", "player"], descending=[
        True, False, False, False])  # fmt: skip
    st.dataframe(
        _headed(
            evenings.select(
                pl.col("day").dt.strftime("%Y-%m-%d"),  # a day, not midnight of it
                pl.col("venue").fill_null(""),
                "place",
                "player",
                "won",
                "lost",
                "points",
            ),
            w,
        ),
        hide_index=True,
        width="stretch",
    )


season_page()
