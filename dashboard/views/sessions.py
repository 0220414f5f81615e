"""The Sessions page: scores over a game, every hand linked to its replay."""

from __future__ import annotations

from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboard.data import game, query
from dashboard.filters import current_path, empty_state, games_condition
from recorder.cards import Suit
from recorder.text import markdown_text as md


def sessions() -> None:
    """A game's scores over time, and its hands, each linking to its replay."""
    st.title("Sessions")
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
        st.info("No session matches the filters.")
        return
    ids = games["game_id"].to_list()
    labels = {
        row["game_id"]: f"{row['day']} {row['players']} ({row['ruleset']}, {row['game_id']})"
        for row in games.iter_rows(named=True)
    }
    chosen = st.selectbox("Session", ids, format_func=labels.__getitem__, key="session_game")
    if game(current_path(), chosen).game_type == "troefcall":
        _troefcall_session(chosen)
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
    hands = query(
        current_path(),
        "SELECT h.hand, h.stake, h.knocks, h.folds, g.players[h.end_seat + 1] AS ended_by "
        "FROM hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        chosen,
    )
    lines = [
        f"- [hand {r['hand']}](replay?game={quote(chosen, safe='')}&hand={r['hand']}) — "
        f"stake {r['stake']}, {r['knocks']} knocks, {r['folds']} folds, "
        f"ended by {md(str(r['ended_by']))}"
        for r in hands.iter_rows(named=True)
    ]
    st.markdown("\n".join(lines))


def _troefcall_session(chosen: str) -> None:
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
    hands = query(
        current_path(),
        "SELECT h.hand, g.players[h.caller + 1] AS caller, h.trump, h.tricks_0, h.tricks_1, "
        "h.points, h.score_side, h.kap_side IS NOT NULL AS kap, "
        "h.baunie_side IS NOT NULL AS baunie, "
        "g.side_names[1] AS side_0, g.side_names[2] AS side_1 "
        "FROM troef_hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        chosen,
    )
    lines = []
    for r in hands.iter_rows(named=True):
        scorer = r["side_0"] if r["score_side"] == 0 else r["side_1"]
        extra = ", kap" if r["kap"] else ", baunie" if r["baunie"] else ""
        trump = Suit(r["trump"]).symbol if r["trump"] else "?"
        lines.append(
            f"- [hand {r['hand']}](replay?game={quote(chosen, safe='')}&hand={r['hand']}) — "
            f"{md(str(r['caller']))} called {trump}; "
            f"tricks {md(r['side_0'])} {r['tricks_0']}, "
            f"{md(r['side_1'])} {r['tricks_1']}; "
            f"{r['points']} to {md(scorer)}{extra}"
        )
    st.markdown("\n".join(lines))


sessions()
