"""The Evenings page, where the dashboard opens: the last club night first.

Where and when, the standings after each game, each hand in one line, the evening's
notable moves linking to the replay; then the earlier evenings, and the dataset in
numbers.
"""

from __future__ import annotations

from urllib.parse import quote

import streamlit as st

from kroeg.analytics.evenings import Games
from kroeg.dashboard.evenings import GAMES_SHOWN, Evening, evening_games, evenings, moments, numbers
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.recorder.text import markdown_text as md

#: Earlier evenings listed under the chosen one.
EARLIER_SHOWN = 12


def overview() -> None:
    """The latest evening (or the one chosen), then the earlier ones."""
    if empty_state():
        st.title("kroeg")
        return
    games = chosen_games()
    nights = evenings(current_path(), games)
    if not nights:
        st.title("Evenings")
        st.info("No game matches the filters in the sidebar.")
        return
    keys = [n.key for n in nights]
    wanted = st.query_params.get("evening")
    if wanted and wanted not in keys:
        st.warning("That evening is not in this dataset (or the filters hide it): the latest.")
    by_key = {n.key: n for n in nights}
    if wanted != st.session_state.get("evening_linked"):
        # A link (or a typed address) names an evening: it wins over the last choice.
        st.session_state["evening_linked"] = wanted
        if wanted in keys:
            st.session_state["evening"] = wanted
    if st.session_state.get("evening") not in keys:
        st.session_state.pop("evening", None)
    chosen = by_key[
        st.selectbox("Evening", keys, format_func=lambda k: by_key[k].label, key="evening")
    ]
    if chosen.key != keys[0] or wanted:
        # The address names the evening shown, so that it can be shared.
        st.query_params["evening"] = chosen.key
        st.session_state["evening_linked"] = chosen.key
    _evening(chosen, games)
    earlier = [n for n in nights if n.key != chosen.key][:EARLIER_SHOWN]
    if earlier:
        st.subheader("Other evenings")
        st.markdown(
            "\n".join(
                f"- [{md(n.label)}](evenings?evening={quote(n.key, safe='')})" for n in earlier
            )
        )
    _numbers(games)


def _evening(night: Evening, chosen: Games) -> None:
    path = current_path()
    st.title(md(night.title))  # a venue is typed by people: no Markdown
    kind = "Simulated games (bots)" if night.simulated else "Club games"
    st.caption(f"{kind} · {md(', '.join(night.players))}")
    notable = moments(path, night.key, chosen)
    if notable:
        st.subheader("Moments of the evening")
        st.markdown("\n".join(notable))
    games, count = evening_games(path, night.key, chosen)
    for game in games:  # named by their order in the evening, whatever the filters hide
        st.subheader(f"{md(game.name.in_evening)} · {md(game.ruleset)}")
        st.markdown(f"**Standings:** {game.standings}")
        st.markdown("\n".join(game.lines))
    if count > GAMES_SHOWN:
        st.caption(f"… and {count - GAMES_SHOWN} more games: see the Games page.")


def _numbers(games: Games) -> None:
    """The dataset in numbers (the games the filters let through)."""
    figures = numbers(current_path(), games)
    st.subheader("In numbers")
    columns = st.columns(4)
    for column, (label, value) in zip(columns, figures.items(), strict=True):
        column.metric(label.capitalize(), f"{value:,}")


overview()
