"""The Overview page: the dataset in numbers and its games."""

from __future__ import annotations

import streamlit as st

from dashboard.data import query
from dashboard.filters import current_path, empty_state, games_condition
from recorder.text import markdown_text as md


def overview() -> None:
    """The dataset in numbers."""
    st.title("kroeg")
    st.caption(md(str(current_path())))
    if empty_state():
        return
    where, args = games_condition()
    numbers = query(
        current_path(),
        f"SELECT (SELECT count(*) FROM games WHERE {where}) AS games, "
        f"(SELECT count(*) FROM hands WHERE {where}) AS hands, "
        f"(SELECT count(*) FROM events WHERE {where}) AS events, "
        # Players from the games' own lists: no per-seat totals to add up for a count.
        f"(SELECT count(DISTINCT p) FROM (SELECT unnest(players) AS p FROM games WHERE {where}))"
        " AS players",
        *(args * 4),
    ).row(0, named=True)
    columns = st.columns(4)
    for column, (label, value) in zip(columns, numbers.items(), strict=True):
        column.metric(label.capitalize(), f"{value:,}")
    st.subheader("Games")
    games = query(
        current_path(),
        f"WITH shown AS (SELECT * FROM games WHERE {where} "
        "ORDER BY started_at DESC NULLS LAST, game_id LIMIT 200) "
        "SELECT s.game_id AS game, s.ruleset AS rules, s.started_at AS date, s.venue, "
        "array_to_string(s.players, ', ') AS players, count(h.hand) AS hands "
        "FROM shown s LEFT JOIN hands h USING (game_id) GROUP BY ALL "
        "ORDER BY date DESC NULLS LAST, game",
        *args,
    )
    st.dataframe(games, hide_index=True, use_container_width=True)


overview()
