"""The sidebar filters (dates, venue, rule set, players) that every page applies."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import streamlit as st

from dashboard.data import dataset_path, query

__all__ = [
    "GAMES_KEY",
    "chosen_games",
    "current_path",
    "empty_state",
    "games_condition",
    "sidebar",
]

#: Session State key of the games the filters let through (None: no filter set).
GAMES_KEY = "kroeg_games"


def sidebar(path: Path) -> None:
    """Draw the filters and remember which games they let through."""
    games = query(
        path,
        "SELECT game_id, started_at::DATE AS day, coalesce(venue, '') AS venue, ruleset, "
        "players FROM games",
    )
    if games.is_empty():
        st.session_state[GAMES_KEY] = None
        return
    st.sidebar.markdown("**Filters** (every page)")
    days = games["day"].drop_nulls()
    chosen = games
    active = False
    if len(days):
        first, last = days.min(), days.max()
        assert isinstance(first, date) and isinstance(last, date)
        picked = st.sidebar.date_input(
            "Dates", value=(first, last), min_value=first, max_value=last, key="filter_days"
        )
        if isinstance(picked, tuple) and len(picked) == 2 and picked != (first, last):
            start, end = picked
            assert isinstance(start, date) and isinstance(end, date)
            chosen = chosen.filter(pl.col("day").is_between(start, end))
            active = True
    for column, label in (("venue", "Venues"), ("ruleset", "Rule sets")):
        options = sorted(set(games[column].to_list()))
        if len(options) > 1:
            picked_values = st.sidebar.multiselect(label, options, key=f"filter_{column}")
            if picked_values:
                chosen = chosen.filter(pl.col(column).is_in(picked_values))
                active = True
    names = sorted({n for players in games["players"].to_list() for n in players})
    people = st.sidebar.multiselect("Players", names, key="filter_players")
    if people:
        chosen = chosen.filter(pl.col("players").list.eval(pl.element().is_in(people)).list.any())
        active = True
    st.session_state[GAMES_KEY] = chosen["game_id"].to_list() if active else None
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


def games_condition(alias: str = "") -> tuple[str, tuple[object, ...]]:
    """A SQL condition and its parameter: the games the sidebar filters let through."""
    games = chosen_games()
    if games is None:
        return "true", ()
    column = f"{alias}.game_id" if alias else "game_id"
    return f"{column} IN (SELECT unnest(?::VARCHAR[]))", (games,)


def empty_state() -> bool:
    """Say what to do when the dataset has no games yet; True if it is empty."""
    games = query(current_path(), "SELECT count(*) AS n FROM games")["n"][0]
    if games:
        return False
    st.info(
        "This dataset has no games yet. Add some with `kroeg simulate --out DATASET`, "
        "`kroeg import FILE --into DATASET` or `kroeg record --into DATASET`."
    )
    return True
