"""The Games page: a game's scores hand by hand, every hand linked to its replay."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.data import game, query
from dashboard.evenings import hand_lines, standings
from dashboard.filters import current_path, empty_state, games_condition


def games_page() -> None:
    """A game's scores over time, and its hands, each linking to its replay."""
    st.title("Games")
    if empty_state():
        return
    games = query(
        current_path(),
        "SELECT game_id, coalesce(strftime(started_at, '%Y-%m-%d %H:%M'), '') AS day, "
        "array_to_string(players, ', ') AS players, ruleset, score_display "
        f"FROM games WHERE {games_condition()[0]} ORDER BY started_at DESC NULLS LAST, game_id",
        *games_condition()[1],
    )
    if games.is_empty():
        st.info("No game matches the filters in the sidebar.")
        return
    ids = games["game_id"].to_list()
    labels = {
        row["game_id"]: f"{row['day']} {row['players']} ({row['ruleset']}, {row['game_id']})"
        for row in games.iter_rows(named=True)
    }
    chosen = st.selectbox("Game", ids, format_func=labels.__getitem__, key="games_game")
    if game(current_path(), chosen).game_type == "troefcall":
        _troefcall_game(chosen)
        return
    display = games.filter(pl.col("game_id") == chosen)["score_display"][0]
    costs = query(
        current_path(),
        "SELECT hand, player, paid::BIGINT AS paid FROM hand_players "
        "WHERE game_id = ? ORDER BY hand, seat",
        chosen,
    )
    record = game(current_path(), chosen)
    budget = record.rules.lives
    running = costs.with_columns(pl.col("paid").cum_sum().over("player").alias("total"))
    label = "points" if display == "points" else "lives"
    score = pl.col("total") if display == "points" else budget - pl.col("total")
    chart = running.with_columns(score.alias(label)).pivot(on="player", index="hand", values=label)
    st.subheader(f"{label.capitalize()} after each hand")
    st.line_chart(chart, x="hand")
    st.subheader("Hands")
    st.markdown(f"**Standings:** {standings(current_path(), chosen, 'toepen')}")
    st.markdown("\n".join(hand_lines(current_path(), chosen, "toepen")))


def _troefcall_game(chosen: str) -> None:
    """A Troefcall game: each side's points after each hand, and its hands."""
    sides = query(
        current_path(),
        "SELECT hand, side_name, (sum(points) OVER (PARTITION BY side ORDER BY hand))::BIGINT "
        "AS points "
        "FROM troef_sides WHERE game_id = ? ORDER BY hand, side",
        chosen,
    )
    st.subheader("Points after each hand")
    st.line_chart(sides.pivot(on="side_name", index="hand", values="points"), x="hand")
    st.subheader("Hands")
    st.markdown(f"**Standings:** {standings(current_path(), chosen, 'troefcall')}")
    st.markdown("\n".join(hand_lines(current_path(), chosen, "troefcall")))


games_page()
