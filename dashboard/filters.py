"""The sidebar filters (dates, venue, rule set, players) that every page applies."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import polars as pl
import streamlit as st

from kroeg.analytics.formats import date_field, day_name
from kroeg.analytics.games import filter_frame
from kroeg.analytics.games import game_count as games_in
from kroeg.dashboard.data import ask, dataset_path
from kroeg.dashboard.words import page_words
from kroeg.recorder.text import markdown_text

__all__ = [
    "GAMES_KEY",
    "chosen_games",
    "current_path",
    "day_text",
    "default_games",
    "empty_state",
    "filter_note",
    "game_count",
    "games_list",
    "sidebar",
]

#: Session State key of the games the filters let through (None: no filter set).
GAMES_KEY = "kroeg_games"
#: Session State key of what the filters keep out, in words.
NOTE_KEY = "kroeg_filter_note"


def day_text(day: date | datetime, lang: str = "en") -> str:
    """A date as a club writes it: `Fri 20 Nov 2026`, `vr 20 nov 2026` (no time zone, no
    ISO), in the newsletter's words for days and months in `lang`."""
    return f"{day_name(day, lang)} {day.year}"


def games_list(path: Path) -> pl.DataFrame:
    """Every game with what the filters choose by."""
    frame: pl.DataFrame = ask(path, filter_frame)
    return frame


def _mixed(games: pl.DataFrame) -> int:
    """How many games the bots played, when the club has games of its own too (else 0):
    those are hidden until asked for."""
    simulated = int(games["simulated"].sum())
    return simulated if simulated < games.height else 0


def default_games(path: Path) -> list[str] | None:
    """The games a new visitor's filters let through, before any is touched."""
    games = games_list(path)
    return games.filter(~pl.col("simulated"))["game_id"].to_list() if _mixed(games) else None


def sidebar(path: Path) -> None:
    """Draw the filters and remember which games they let through. Each keeps its value
    for the whole session (`persist_state="session"`): a filter set on one page still
    holds on the next (Streamlit otherwise remounts the widget at a page switch)."""
    games = games_list(path)
    if games.is_empty():
        st.session_state[GAMES_KEY] = None
        st.session_state[NOTE_KEY] = []
        return
    w = page_words()
    st.sidebar.markdown(w.say("filters", "**Filters** (every page)"))
    days = games["day"].drop_nulls()
    chosen = games
    active = False
    said: list[str] = []  # what the filters keep out, in words, for every page to show
    simulated = _mixed(games)
    if simulated:
        # Bot games are told apart from the club's own; hidden unless asked for.
        shown = st.sidebar.toggle(
            w.say("filter_simulated", "Simulated (bot) games"), value=False,
            key="filter_simulated", persist_state="session",
            help=w.say(
                "filter_simulated_help",
                "Games the engine's bots played (`kroeg simulate`, the demo); off: only "
                "games imported or recorded at the table.",
            ),
        )  # fmt: skip
        if not shown:
            chosen = chosen.filter(~pl.col("simulated"))
            active = True
            said.append(
                w.say_n(
                    "filter_simulated_hidden",
                    "{n} simulated game hidden",
                    "{n} simulated games hidden",
                    simulated,
                )
            )
    if len(days):
        first, last = days.min(), days.max()
        assert isinstance(first, date) and isinstance(last, date)
        shown_before = st.session_state.get("filter_days_range")
        if shown_before != (first, last):
            # A game landed outside the dates shown: dates left whole stay whole, so the
            # new game is not filtered out by a range nobody chose.
            if shown_before is None or st.session_state.get("filter_days") == shown_before:
                st.session_state["filter_days"] = (first, last)
            st.session_state["filter_days_range"] = (first, last)
        picked = st.sidebar.date_input(
            w.say("filter_dates", "Dates"), min_value=first, max_value=last,
            key="filter_days", persist_state="session", format=date_field(w.lang),
        )  # fmt: skip
        if isinstance(picked, tuple) and len(picked) == 2 and picked != (first, last):
            start, end = picked
            assert isinstance(start, date) and isinstance(end, date)
            chosen = chosen.filter(pl.col("day").is_between(start, end))
            active = True
            said.append(
                w.say(
                    "filter_dates_note", "{first} to {last}",
                    first=day_text(start, w.lang), last=day_text(end, w.lang),
                )
            )  # fmt: skip
    none = w.say("filter_none", "(none)")
    choose = w.say("filter_choose", "Choose")
    for column, label in (
        ("venue", w.say("filter_venues", "Venues")),
        ("ruleset", w.say("filter_rulesets", "Rule sets")),
    ):
        options = games[column].unique().sort().to_list()
        if len(options) > 1:
            shown_as = w.ruleset if column == "ruleset" else (lambda v: v or none)
            picked_values = st.sidebar.multiselect(
                label, options, key=f"filter_{column}", persist_state="session",
                format_func=shown_as, placeholder=choose,
            )  # fmt: skip
            if picked_values:
                chosen = chosen.filter(pl.col(column).is_in(picked_values))
                active = True
                which = ", ".join(shown_as(v) for v in picked_values)
                said.append(
                    w.say("filter_venues_note", "venues {which}", which=which)
                    if column == "venue"
                    else w.say("filter_rulesets_note", "rule sets {which}", which=which)
                )
    names = games["players"].explode().unique().sort().to_list()  # in Rust: 15,000 games
    people = st.sidebar.multiselect(
        w.say("filter_players", "Players"), names, key="filter_players",
        persist_state="session", placeholder=choose,
    )  # fmt: skip
    if people:
        chosen = chosen.filter(pl.col("players").list.eval(pl.element().is_in(people)).list.any())
        active = True
        said.append(w.say("filter_players_note", "players {which}", which=", ".join(people)))
    st.session_state[GAMES_KEY] = chosen["game_id"].to_list() if active else None
    st.session_state[NOTE_KEY] = said
    st.session_state["filter_people"] = people


def chosen_games() -> list[str] | None:
    """The games the filters let through, or None when no filter is set."""
    value = st.session_state.get(GAMES_KEY)
    return None if value is None else list(value)


def current_path() -> Path:
    """The dataset this session shows."""
    path = st.session_state.get("kroeg_dataset") or dataset_path()
    assert path is not None, "app.py checks the dataset before any page runs"
    return Path(path)


def game_count(path: Path) -> int:
    """How many games the dataset holds."""
    count: int = ask(path, games_in)
    return count


def empty_state() -> bool:
    """Say what to do when the dataset has no games yet; True if it is empty."""
    if game_count(current_path()):
        filter_note()
        return False
    st.info(
        page_words().say(
            "no_games_yet",
            "This dataset has no games yet. Add some with `kroeg simulate --out DATASET`, "
            "`kroeg import FILE --into DATASET` or `kroeg record --into DATASET`.",
        )
    )
    return True


def filter_note() -> None:
    """One line under a page's title when a sidebar filter is on: what it keeps out."""
    said = st.session_state.get(NOTE_KEY) or []
    if said:
        what = markdown_text("; ".join(said))
        st.caption(page_words().say("filtered", "Filtered: {what} (see the sidebar).", what=what))
