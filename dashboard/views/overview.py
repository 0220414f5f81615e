"""The Evenings page, where the dashboard opens: the last club night first.

Where and when, the standings after each game, each hand in one line, the evening's
notable moves linking to the replay; then the earlier evenings, and the dataset in
numbers. Every word is in the sidebar's language (dashboard.words).
"""

from __future__ import annotations

from urllib.parse import quote

import streamlit as st

from kroeg.analytics.evenings import Games
from kroeg.analytics.formats import integer
from kroeg.analytics.hill import HillStandings, evening_hill
from kroeg.analytics.words import Words
from kroeg.dashboard.data import ask
from kroeg.dashboard.evenings import (
    GAMES_SHOWN,
    Evening,
    evening_games,
    evenings,
    moments,
    numbers,
)
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.dashboard.words import page_words
from kroeg.recorder.text import isolated
from kroeg.recorder.text import markdown_text as md

#: Earlier evenings listed under the chosen one.
EARLIER_SHOWN = 12


def overview() -> None:
    """The latest evening (or the one chosen), then the earlier ones."""
    w = page_words()
    if empty_state():
        st.title("kroeg")
        return
    games = chosen_games()
    nights = evenings(current_path(), games)
    if not nights:
        st.title(w.say("page_evenings", "Evenings"))
        st.info(w.say("games_none_match", "No game matches the filters in the sidebar."))
        return
    keys = [n.key for n in nights]
    wanted = st.query_params.get("evening")
    if wanted and wanted not in keys:
        st.warning(
            w.say(
                "evening_not_found",
                "That evening is not in this dataset (or the filters hide it): the latest.",
            )
        )
    by_key = {n.key: n for n in nights}
    if wanted != st.session_state.get("evening_linked"):
        # A link (or a typed address) names an evening: it wins over the last choice.
        st.session_state["evening_linked"] = wanted
        if wanted in keys:
            st.session_state["evening"] = wanted
    if st.session_state.get("evening") not in keys:
        st.session_state.pop("evening", None)
    picked = st.selectbox(
        w.say("evening_pick", "Evening"), keys, format_func=lambda k: by_key[k].label_in(w),
        key="evening",
    )  # fmt: skip
    chosen = by_key[picked]
    if chosen.key != keys[0] or wanted:
        # The address names the evening shown, so that it can be shared.
        st.query_params["evening"] = chosen.key
        st.session_state["evening_linked"] = chosen.key
    _evening(chosen, games, w)
    earlier = [n for n in nights if n.key != chosen.key][:EARLIER_SHOWN]
    if earlier:
        st.subheader(w.say("evening_others", "Other evenings"))
        st.markdown(
            "\n".join(
                f"- [{md(n.label_in(w))}](evenings?evening={quote(n.key, safe='')})"
                for n in earlier
            )
        )
    _numbers(games, w)


def _evening(night: Evening, chosen: Games, w: Words) -> None:
    path = current_path()
    st.title(md(night.title_in(w)))  # a venue is typed by people: no Markdown
    if night.simulated:
        kind = w.say("evening_kind_simulated", "Simulated games (bots)")
    else:
        kind = w.say("evening_kind_club", "Club games")
    st.caption(f"{kind} · {md(', '.join(isolated(p) for p in night.players))}")
    notable = moments(path, night.key, chosen, w)
    if notable:
        st.subheader(w.say("evening_moments", "Moments of the evening"))
        st.markdown("\n".join(notable))
    _hill(night, w)
    games, count = evening_games(path, night.key, chosen, w)
    for game in games:  # named by their order in the evening, whatever the filters hide
        st.subheader(f"{md(game.name.in_evening_in(w, bidi=True))} · {md(w.ruleset(game.ruleset))}")
        st.markdown(w.say("evening_standings", "**Standings:** {standings}",
                          standings=game.standings))  # fmt: skip
        st.markdown("\n".join(game.lines))
    if count > GAMES_SHOWN:
        st.caption(
            w.say_n(
                "evening_more_games",
                "… and {n} more game: see the Games page.",
                "… and {n} more games: see the Games page.",
                count - GAMES_SHOWN,
            )
        )


def _hill(night: Evening, w: Words) -> None:
    """A king-of-the-hill evening (Troefcall's "Changement d'équipe", docs/RULES.md): its
    pairs and players, as `kroeg hill` lists them (analytics.hill)."""
    found: HillStandings | None = ask(current_path(), evening_hill, night.day, night.venue)
    if found is None:
        return
    st.subheader(w.say("evening_hill", "King of the hill"))
    st.caption(
        w.say(
            "evening_hill_note",
            "The winning pair stays together and meets new opponents. A reign is a pair's "
            "wins in a row on the hill.",
        )
    )
    pair, player = w.say("evening_hill_pair", "pair"), w("player")
    games, wins = w.say("evening_hill_games", "games"), w.say("evening_hill_wins", "wins")
    reign = w.say("evening_hill_reign", "longest reign")
    left, right = st.columns(2)
    left.dataframe(
        found.pairs.rename({"pair": pair, "games": games, "wins": wins, "longest_reign": reign}),
        hide_index=True,
    )
    right.dataframe(
        found.players.rename({"player": player, "games": games, "wins": wins}), hide_index=True
    )


def _numbers(games: Games, w: Words) -> None:
    """The dataset in numbers (the games the filters let through)."""
    figures = numbers(current_path(), games)
    labels = {
        "games": w.say("evening_numbers_games", "Games"),
        "hands": w.say("evening_numbers_hands", "Hands"),
        "events": w.say("evening_numbers_events", "Events"),
        "players": w.say("evening_numbers_players", "Players"),
    }
    st.subheader(w.say("evening_numbers", "In numbers"))
    columns = st.columns(4)
    for column, (name, value) in zip(columns, figures.items(), strict=True):
        column.metric(labels.get(name, name.capitalize()), integer(int(value), w.lang))


overview()
