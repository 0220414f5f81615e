"""The Players page: bluffs and what folding cost, every bar with its hands behind it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from urllib.parse import quote

import altair as alt
import polars as pl
import streamlit as st

from analytics.stats import (
    STAT_BY_NAME,
    STATS,
    TROEFCALL_STATS,
    Stat,
    player_stats,
    troefcall_stats,
)
from dashboard.data import connection, query
from dashboard.filters import chosen_games, current_path, empty_state, games_condition
from recorder.text import markdown_text as md


def players() -> None:
    """Bluff rate, bluff success and fold cost per player, with the hands behind them."""
    st.title("Players")
    if empty_state():
        return
    frame = player_stats(connection(current_path()).cursor(), game_ids=chosen_games())
    troef = troefcall_stats(connection(current_path()).cursor(), game_ids=chosen_games())
    people = st.session_state.get("filter_people") or []
    if people:
        frame = frame.filter(pl.col("player").is_in(people))
        troef = troef.filter(pl.col("player").is_in(people))
    if frame.is_empty() and troef.is_empty():
        st.info("No hands match the filters.")
        return
    if not frame.is_empty():
        if not troef.is_empty():
            st.header("Toepen")
        _toepen_players(frame)
    if not troef.is_empty():
        _troefcall_players(troef)


def _troefcall_players(frame: pl.DataFrame) -> None:
    """Troefcall: calls made good, kap partij and tricks, per player."""
    st.header("Troefcall")
    left, right = st.columns(2)
    with left:
        _bars(frame, STAT_BY_NAME["calls_made_rate"])
    with right:
        _bars(frame, STAT_BY_NAME["kap_rate"])
    _numbers(frame, TROEFCALL_STATS)


def _numbers(frame: pl.DataFrame, stats: Sequence[Stat]) -> None:
    """Every figure as done/opportunities, a row per player."""
    rows = []
    for row in frame.iter_rows(named=True):
        cells = {"player": row["player"], "hands": row["hands"]}
        for stat in stats:
            cells[stat.label] = stat.cell(row[stat.done], row[stat.opportunities])
        rows.append(cells)
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")


def _toepen_players(frame: pl.DataFrame) -> None:
    """Toepen: bluffing and folding, with the hands behind every bar."""
    st.subheader("Bluffing")
    left, right = st.columns(2)
    with left:
        _bars(frame, STAT_BY_NAME["bluff_rate"], behind="bluffs")
    with right:
        _bars(frame, STAT_BY_NAME["bluff_success"], behind="won")
    st.subheader("What folding cost")
    _bars(frame, STAT_BY_NAME["cost_per_fold"], behind="folds", total=True)
    st.caption("Click a bar to list the hands behind it.")
    st.subheader("The numbers, with done / opportunities")
    _numbers(frame, STATS)
    _hands_behind(frame["player"].to_list())


#: What a player's hands behind a number can be: label, and the query that lists them.
_BEHIND = {
    "bluffs": (
        "bluffs",
        "SELECT game_id, hand, seq, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| CASE WHEN all_folded THEN ', everyone folded' ELSE '' END AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff AND {where} ORDER BY game_id, hand "
        "LIMIT 50",
    ),
    "won": (
        "bluffs that won (everyone folded)",
        "SELECT game_id, hand, seq, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| ', ' || folded_to_it || ' folded' AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff_won AND {where} "
        "ORDER BY game_id, hand LIMIT 50",
    ),
    "folds": (
        "folds",
        "SELECT game_id, hand, seq, 'paid ' || cost AS what FROM folds "
        "WHERE player = ? AND {where} ORDER BY cost DESC, game_id, hand LIMIT 50",
    ),
}


def _hands_behind(names: list[str]) -> None:
    """The hands behind one player's number, each linking to its replay."""
    if st.session_state.get("who") not in names:
        st.session_state.pop("who", None)
    left, right = st.columns([1, 2])
    who = left.selectbox("Hands behind the numbers of", names, key="who")
    behind = right.radio(
        "Which hands", list(_BEHIND), format_func=lambda k: _BEHIND[k][0], key="behind",
        horizontal=True,
    )  # fmt: skip
    label, sql = _BEHIND[behind]
    where, args = games_condition()
    hands = query(current_path(), sql.format(where=where), who, *args)
    st.markdown(f"**{md(who)}'s {label}** ({len(hands)} shown, at most 50)")
    links = [
        # The link opens the replay at the knock or fold itself (its step is its seq).
        f"- [{md(r['game_id'])} hand {r['hand']}](replay?game={quote(r['game_id'], safe='')}"
        f"&hand={r['hand']}&step={r['seq']}) — {md(r['what'] or '')}"
        for r in hands.iter_rows(named=True)
    ]
    st.markdown("\n".join(links) or f"No {label} yet.")


def _pick_bar(chart_key: str, behind: str) -> None:
    """A click on a bar: list that player's hands behind that chart's number."""
    points = st.session_state[chart_key].selection.get("bar") or []
    if points:
        st.session_state["who"] = points[0]["player"]
        st.session_state["behind"] = behind


def _bars(
    frame: pl.DataFrame, stat: Stat, *, behind: str | None = None, total: bool = False
) -> None:
    """A bar per player for a statistic of the registry, labelled done/opportunities.

    `total`: the bar is what was done in all (e.g. everything folding cost), not the rate.
    """
    percent = stat.unit == "%" and not total
    title = f"{stat.label} in all" if total else stat.label
    rows = []
    for row in frame.iter_rows(named=True):
        d, o = row[stat.done], row[stat.opportunities]
        value = (
            float(d)
            if total
            else 100 * (stat.value(d, o) or 0.0)
            if percent
            else (stat.value(d, o) or 0.0)
        )
        label = f"{d} in {o}" if total else f"{d}/{o}"
        rows.append({"player": row["player"], "value": value, "label": label})
    st.caption(stat.definition)
    axis = f"{title} (%)" if percent else title
    pick = alt.selection_point(name="bar", fields=["player"], on="click")
    top = 100.0 if percent else max(1.0, max(r["value"] for r in rows))  # an axis even at 0
    base = alt.Chart(alt.Data(values=rows)).encode(  # type: ignore[no-untyped-call]
        x=alt.X("player:N", title=None, sort=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("value:Q", title=axis, scale=alt.Scale(domain=[0, top], nice=True)),
    )
    bars = (
        base.mark_bar(color="#7a1f1f", cursor="pointer")
        .add_params(pick)
        .encode(opacity=alt.condition(pick, alt.value(1.0), alt.value(0.45)))
    )
    chart = (bars + base.mark_text(dy=-8).encode(text="label:N")).properties(
        height=260, title=title
    )
    if behind is None:  # nothing to list behind these bars
        st.altair_chart(chart, width="stretch")
        return
    key = f"bars_{behind}"
    st.altair_chart(
        chart, width="stretch", key=key,
        on_select=partial(_pick_bar, key, behind), selection_mode="bar",
    )  # fmt: skip


players()
