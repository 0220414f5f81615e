"""The Games page: a game's scores hand by hand, every hand linked to its replay; its
words in the sidebar's language (dashboard.words)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from kroeg.analytics.evenings import troefcall_running
from kroeg.analytics.games import hand_costs, recent_games
from kroeg.analytics.words import Words
from kroeg.dashboard.data import ask
from kroeg.dashboard.evenings import game_title, hand_lines, names, standings
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.dashboard.table import SIDE_COLOURS
from kroeg.dashboard.words import page_words


def games_page() -> None:
    """A game's scores over time, and its hands, each linking to its replay."""
    w = page_words()
    st.title(w.say("page_games", "Games"))
    if empty_state():
        return
    wanted = st.query_params.get("game") or ""
    # The 500 most recent games (and one a link names): a select box of tens of
    # thousands of games would be sent to the browser at every run.
    games = ask(current_path(), recent_games, wanted, chosen_games())
    if games.is_empty():
        st.info(w.say("games_none_match", "No game matches the filters in the sidebar."))
        return
    ids = games["game_id"].to_list()
    # Each game's name and rules (recent_games' `title`), in the page's language.
    named = names(current_path(), ids)
    labels = {
        g: game_title(named[g], rules, w)
        for g, rules in zip(ids, games["label"].to_list(), strict=True)
    }
    chosen = st.selectbox(
        w.say("games_pick", "Game"), ids, format_func=labels.__getitem__, key="games_game"
    )
    row = games.row(ids.index(chosen), named=True)  # the game's type and scoring, no replay
    if row["game_type"] == "troefcall":
        _troefcall_game(chosen, w)
        return
    display = row["score_display"]
    costs = ask(current_path(), hand_costs, chosen)
    budget = row["lives"]
    if costs["side"].is_not_null().any():  # team toepen: a side pays from one pool
        costs = costs.with_columns(pl.col("side").alias("player"))
    # The engine's `pay` rows added up: a side's lives fall with every member's pay.
    paid = costs.group_by("hand", "player", maintain_order=True).agg(pl.col("paid").sum())
    running = paid.with_columns(pl.col("paid").cum_sum().over("player").alias("total"))
    label = "points" if display == "points" else "lives"  # the chart's field, in no language
    score = pl.col("total") if display == "points" else budget - pl.col("total")
    if display == "points":
        st.subheader(w.say("games_points_after", "Points after each hand"))
    else:
        st.subheader(w.say("games_lives_after", "Lives after each hand"))
    scores = running.with_columns(score.alias(label)).select("hand", "player", label)
    _line_chart(scores, "player", label, chosen, w)
    _hands(chosen, "toepen", w)


def _troefcall_game(chosen: str, w: Words) -> None:
    """A Troefcall game: each side's points after each hand, and its hands."""
    sides = ask(current_path(), troefcall_running, chosen)
    st.subheader(w.say("games_points_after", "Points after each hand"))
    _line_chart(sides, "side_name", "points", chosen, w, colours=SIDE_COLOURS)
    _hands(chosen, "troefcall", w)


def _hands(chosen: str, game_type: str, w: Words) -> None:
    """The game's standings at the end, and each of its hands in a line."""
    st.subheader(w.say("games_hands", "Hands"))
    told = standings(current_path(), chosen, game_type, w)
    st.markdown(w.say("evening_standings", "**Standings:** {standings}", standings=told))
    st.markdown("\n".join(hand_lines(current_path(), chosen, game_type, w)))


def _line_chart(
    frame: pl.DataFrame,
    who: str,
    value: str,
    game_id: str,
    w: Words,
    colours: tuple[str, ...] | None = None,
) -> None:
    """A line per player (or side) over the hands: whole hand numbers on the axis, a
    point on every hand (so a one-hand game shows its point), room above the highest
    line, and Troefcall's sides in the replay's colours. A click on a point opens the
    replay of that hand. The Vega-Lite spec is written as a dict (Altair's
    schema validation was half of this page's time in the server). The fields stay the
    data's (`hand`, `points`, `lives`); their titles are in the page's language."""
    hand = w.say("games_chart_hand", "hand")
    if value == "lives":
        what = w.say("games_chart_lives", "lives")
    else:
        what = w.say("games_chart_points", "points")
    highest = frame[value].max()
    top = max(1, int(highest) if isinstance(highest, int | float) else 0)
    colour: dict[str, object] = {"field": who, "type": "nominal", "title": None, "sort": None}
    if colours:
        names = list(dict.fromkeys(frame[who].to_list()))
        colour = {"field": who, "type": "nominal", "title": None,
                  "scale": {"domain": names, "range": list(colours)}}  # fmt: skip
    # The lines, and on them a point per hand (big enough to tap) that a click selects:
    # a line between points selects nothing.
    spec = {
        "height": 300,
        "layer": [
            {"mark": {"type": "line"}},
            {"mark": {"type": "point", "filled": True, "size": 90, "opacity": 1},
             "params": [{"name": "picked",
                         "select": {"type": "point", "fields": ["hand"], "on": "click"}}]},
        ],
        "encoding": {
            "x": {"field": "hand", "type": "ordinal", "title": hand, "axis": {"labelAngle": 0}},
            "y": {"field": value, "type": "quantitative", "title": what,
                  "scale": {"domain": [0, top * 1.15 + 1]}},
            "color": colour,
            "tooltip": [{"field": who, "type": "nominal", "title": None},
                        {"field": "hand", "type": "ordinal", "title": hand},
                        {"field": value, "type": "quantitative", "title": what}],
        },
    }  # fmt: skip
    picked = st.vega_lite_chart(
        frame, spec, width="stretch", key="games_chart", on_select="rerun",
        selection_mode="picked",
    )  # fmt: skip
    st.caption(w.say("games_chart_click", "Click or tap a point to replay that hand."))
    hands = (picked.selection.get("picked") or []) if picked else []
    if hands and "hand" in hands[0]:
        # A new arrival for the replay: it opens at the hand's start.
        st.session_state.pop("replay_where", None)
        st.switch_page(
            "views/replay.py", query_params={"game": game_id, "hand": str(hands[0]["hand"])}
        )


games_page()
