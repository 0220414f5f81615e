"""The dashboard's screens; each page script in views/ calls one of these."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

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
from dashboard.data import connection, dataset_path, game, query
from dashboard.data import states as hand_steps
from dashboard.filters import chosen_games
from dashboard.replay import hand_numbers
from dashboard.table import CSS, events_html, table_html
from parsers.commands import Session
from recorder.cards import Suit
from recorder.errors import KroegError
from recorder.manual import ManualGame
from recorder.rules import VARIANTS, Ruleset

__all__ = ["overview", "players", "record", "replay", "sessions"]


def _path() -> Path:
    path = st.session_state.get("kroeg_dataset") or dataset_path()
    assert path is not None, "app.py checks the dataset before any page runs"
    return Path(path)


def _only(alias: str = "") -> tuple[str, tuple[object, ...]]:
    """A SQL condition and its parameter: the games the sidebar filters let through."""
    games = chosen_games()
    if games is None:
        return "true", ()
    column = f"{alias}.game_id" if alias else "game_id"
    return f"{column} IN (SELECT unnest(?::VARCHAR[]))", (games,)


def _empty_state() -> bool:
    """Say what to do when the dataset has no games yet; True if it is empty."""
    games = query(_path(), "SELECT count(*) AS n FROM games")["n"][0]
    if games:
        return False
    st.info(
        "This dataset has no games yet. Add some with `kroeg simulate --out DATASET`, "
        "`kroeg import FILE --into DATASET` or `kroeg record --into DATASET`."
    )
    return True


def overview() -> None:
    """The dataset in numbers."""
    st.title("kroeg")
    st.caption(str(_path()))
    if _empty_state():
        return
    where, args = _only()
    numbers = query(
        _path(),
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
        _path(),
        f"WITH shown AS (SELECT * FROM games WHERE {where} "
        "ORDER BY started_at DESC NULLS LAST, game_id LIMIT 200) "
        "SELECT s.game_id AS game, s.ruleset AS rules, s.started_at AS date, s.venue, "
        "array_to_string(s.players, ', ') AS players, count(h.hand) AS hands "
        "FROM shown s LEFT JOIN hands h USING (game_id) GROUP BY ALL "
        "ORDER BY date DESC NULLS LAST, game",
        *args,
    )
    st.dataframe(games, hide_index=True, use_container_width=True)


def replay() -> None:
    """One hand, step by step."""
    st.title("Replay")
    if _empty_state():
        return
    params = st.query_params
    wanted = params.get("game")
    # The 500 most recent games (and one arriving by a link): a select box of tens of
    # thousands of games would be sent to the browser again at every step.
    where, args = _only()
    games = query(
        _path(),
        "SELECT game_id, coalesce(strftime(started_at, '%Y-%m-%d'), '') AS day, "
        f"array_to_string(players, ', ') AS players FROM games WHERE game_id = ? OR {where} "
        "ORDER BY (game_id = ?) DESC, started_at DESC NULLS LAST, game_id LIMIT 500",
        wanted or "", *args, wanted or "",
    )  # fmt: skip
    ids = games["game_id"].to_list()
    labels = {
        row["game_id"]: f"{row['day']} {row['players']} ({row['game_id']})".strip()
        for row in games.iter_rows(named=True)
    }
    chosen = st.selectbox(
        "Game", ids, index=ids.index(wanted) if wanted in ids else 0,
        format_func=labels.__getitem__, key="replay_game",
    )  # fmt: skip
    record = game(_path(), chosen)
    numbers = hand_numbers(record)
    hand_param = params.get("hand")
    start_hand = int(hand_param) if hand_param and hand_param.isdigit() else 1
    hand = st.selectbox(
        "Hand", numbers, index=min(max(start_hand, 1), len(numbers)) - 1, key="replay_hand"
    )
    reveal_all = st.toggle("All cards (otherwise: what the table saw)", key="replay_all")
    states = hand_steps(_path(), chosen, hand, reveal_all)
    last = len(states) - 1
    if st.session_state.get("replay_where") != (chosen, hand):
        st.session_state["replay_where"] = (chosen, hand)
        st.session_state["replay_step"] = last
    st.html(CSS)  # once for the page: the steps below send only their own HTML
    _stepper(states, record.players)


@st.fragment
def _stepper(states: list, players: tuple[str, ...]) -> None:  # type: ignore[type-arg]
    """Buttons, slider, table and event list: a click reruns only this part of the page."""
    last = len(states) - 1
    step = st.session_state.get("replay_step", last)
    buttons = st.columns(6)
    jumps = {
        "« First": 0,
        "‹ Previous": max(step - 1, 0),
        "Next ›": min(step + 1, last),
        "Last »": last,
    }
    if states[0].teams is None:  # Toepen: jump to the decisions
        jumps["Next knock"] = _next_kind(states, step, ("knock",))
        jumps["Next fold"] = _next_kind(states, step, ("fold",))
    else:  # Troefcall: trick by trick, and to the announcements
        jumps["Next trick"] = _next_kind(states, step, ("trick",))
        jumps["Next call"] = _next_kind(states, step, ("trump", "kap", "baunie", "stop"))
    for column, (label, target) in zip(buttons, jumps.items(), strict=True):
        # A callback moves the step before the page is drawn again, so every button
        # (and whether it is enabled) is computed from the step the user now sees.
        column.button(
            label, key=f"replay_{label}", disabled=target is None,
            on_click=_go_to_step, args=(target,),
        )  # fmt: skip
    step = st.slider("Step", 0, last, key="replay_step")
    state = states[step]
    left, right = st.columns([3, 2])
    # Plain HTML blocks (no Markdown to parse): a step redraws two elements.
    left.html(
        table_html(state, players)
        + f'<p class="kroeg-now"><b>Step {step}/{last}:</b> {html.escape(state.text)}</p>'
    )
    right.html("<b>Events</b>" + events_html([s.text for s in states], step))


def _go_to_step(target: int | None) -> None:
    if target is not None:
        st.session_state["replay_step"] = target


def _next_kind(states: list, step: int, kinds: tuple[str, ...]) -> int | None:  # type: ignore[type-arg]
    return next((s.step for s in states if s.step > step and s.kind in kinds), None)


def players() -> None:
    """Bluff rate, bluff success and fold cost per player, with the hands behind them."""
    st.title("Players")
    if _empty_state():
        return
    frame = player_stats(connection(_path()), game_ids=chosen_games())
    troef = troefcall_stats(connection(_path()), game_ids=chosen_games())
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
    st.dataframe(pl.DataFrame(rows), hide_index=True, use_container_width=True)


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
        "SELECT game_id, hand, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| CASE WHEN all_folded THEN ', everyone folded' ELSE '' END AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff AND {where} ORDER BY game_id, hand "
        "LIMIT 50",
    ),
    "won": (
        "bluffs that won (everyone folded)",
        "SELECT game_id, hand, 'stake ' || stake || ', strength ' || round(strength, 2) "
        "|| ', ' || folded_to_it || ' folded' AS what "
        "FROM knock_outcomes WHERE player = ? AND bluff_won AND {where} "
        "ORDER BY game_id, hand LIMIT 50",
    ),
    "folds": (
        "folds",
        "SELECT game_id, hand, 'paid ' || cost AS what FROM folds "
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
    where, args = _only()
    hands = query(_path(), sql.format(where=where), who, *args)
    st.markdown(f"**{html.escape(who)}'s {label}** ({len(hands)} shown, at most 50)")
    links = [
        f"- [{r['game_id']} hand {r['hand']}](replay?game={r['game_id']}&hand={r['hand']})"
        f" — {html.escape(r['what'] or '')}"
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
    base = alt.Chart(alt.Data(values=rows)).encode(
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
        st.altair_chart(chart, use_container_width=True)
        return
    key = f"bars_{behind}"
    st.altair_chart(
        chart, use_container_width=True, key=key,
        on_select=partial(_pick_bar, key, behind), selection_mode="bar",
    )  # fmt: skip


def sessions() -> None:
    """A game's scores over time, and its hands, each linking to its replay."""
    st.title("Sessions")
    if _empty_state():
        return
    games = query(
        _path(),
        "SELECT game_id, coalesce(strftime(started_at, '%Y-%m-%d %H:%M'), '') AS day, "
        "array_to_string(players, ', ') AS players, ruleset, score_display "
        f"FROM games WHERE {_only()[0]} ORDER BY started_at DESC NULLS LAST, game_id",
        *_only()[1],
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
    if game(_path(), chosen).game_type == "troefcall":
        _troefcall_session(chosen)
        return
    display = games.filter(pl.col("game_id") == chosen)["score_display"][0]
    costs = query(
        _path(),
        "SELECT hand, player, paid::BIGINT AS paid FROM hand_players "
        "WHERE game_id = ? ORDER BY hand, seat",
        chosen,
    )
    record = game(_path(), chosen)
    budget = record.rules.lives
    running = costs.with_columns(pl.col("paid").cum_sum().over("player").alias("total"))
    label = "points" if display == "points" else "lives"
    score = pl.col("total") if display == "points" else budget - pl.col("total")
    chart = running.with_columns(score.alias(label)).pivot(on="player", index="hand", values=label)
    st.subheader(f"{label.capitalize()} after each hand")
    st.line_chart(chart, x="hand")
    st.subheader("Hands")
    hands = query(
        _path(),
        "SELECT h.hand, h.stake, h.knocks, h.folds, g.players[h.end_seat + 1] AS ended_by "
        "FROM hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        chosen,
    )
    lines = [
        f"- [hand {r['hand']}](replay?game={chosen}&hand={r['hand']}) — stake {r['stake']}, "
        f"{r['knocks']} knocks, {r['folds']} folds, ended by {html.escape(str(r['ended_by']))}"
        for r in hands.iter_rows(named=True)
    ]
    st.markdown("\n".join(lines))


def _troefcall_session(chosen: str) -> None:
    """A Troefcall game: each side's points after each hand, and its hands."""
    sides = query(
        _path(),
        "SELECT hand, side_name, (sum(points) OVER (PARTITION BY side ORDER BY hand))::BIGINT "
        "AS points "
        "FROM troef_sides WHERE game_id = ? ORDER BY hand, side",
        chosen,
    )
    st.subheader("Points after each hand")
    st.line_chart(sides.pivot(on="side_name", index="hand", values="points"), x="hand")
    st.subheader("Hands")
    hands = query(
        _path(),
        "SELECT h.hand, g.players[h.caller + 1] AS caller, h.trump, h.tricks_0, h.tricks_1, "
        "h.points, h.score_side, h.kap_side IS NOT NULL AS kap, "
        "h.baunie_side IS NOT NULL AS baunie, "
        "g.players[1] || ' & ' || g.players[3] AS side_0, "
        "g.players[2] || ' & ' || g.players[4] AS side_1 "
        "FROM troef_hands h JOIN games g USING (game_id) WHERE game_id = ? ORDER BY hand",
        chosen,
    )
    lines = []
    for r in hands.iter_rows(named=True):
        scorer = r["side_0"] if r["score_side"] == 0 else r["side_1"]
        extra = ", kap" if r["kap"] else ", baunie" if r["baunie"] else ""
        trump = Suit(r["trump"]).symbol if r["trump"] else "?"
        lines.append(
            f"- [hand {r['hand']}](replay?game={chosen}&hand={r['hand']}) — "
            f"{html.escape(str(r['caller']))} called {trump}; "
            f"tricks {html.escape(r['side_0'])} {r['tricks_0']}, "
            f"{html.escape(r['side_1'])} {r['tricks_1']}; "
            f"{r['points']} to {html.escape(scorer)}{extra}"
        )
    st.markdown("\n".join(lines))


def record() -> None:
    """Entry at the table, through the same API and commands as `kroeg record`."""
    st.title("Record")
    manual = st.session_state.get("record_manual")
    if manual is None:
        _start_form()
        return
    prompt = manual.prompt()
    st.subheader(prompt.text)
    scores = ", ".join(f"{name} {score}" for name, score in manual.scores())
    st.caption(f"scores: {scores}")
    if manual.game.trick_plays:
        cards = " ".join(f"{manual.players[s]} {c.pretty}" for s, c in manual.game.trick_plays)
        st.markdown(f"on the table: {html.escape(cards)}")
    if prompt.kind == "trump":  # one tap names trump
        buttons = [("♠ spades", "spades"), ("♥ hearts", "hearts"), ("♦ diamonds", "diamonds"),
                   ("♣ clubs", "clubs"), ("Undo", "undo")]  # fmt: skip
        hint = "Command: 'spades', 's' or '♠' names trump; 'help'"
    elif manual.rules.game == "troefcall":
        buttons = [("Kap", "kap"), ("Baunie", "baunie"), ("Stop", "stop"), ("Undo", "undo")]
        hint = "Command: 'spades', a card ('jh'), 'c kap', 'Anna: 3c 5s …', 'skip', 'help'"
    else:
        buttons = [("Stay", "s"), ("Fold", "f"), ("Knock", "k"), ("Undo", "undo")]
        hint = "Command: a card ('jh'), 'b k', 's', 'f', 'Anna: Jh Jc Td 9s', 'skip', 'help'"
    for column, (label, command) in zip(st.columns(len(buttons)), buttons, strict=True):
        column.button(label, key=f"record_{command}", on_click=_record_run, args=(command,),
                      use_container_width=True)  # fmt: skip
    st.text_input(hint, key="record_command", on_change=_record_command)
    if st.button("Store the game", key="record_store", type="primary"):
        _record_run("quit")
        st.rerun()
    for line in reversed(st.session_state.get("record_log", [])[-30:]):
        st.text(line)


def _start_form() -> None:
    with st.form("record_start"):
        players = st.text_input("Players, in seat order", "Anna, Ben, Carla, Dan")
        rules = st.selectbox("Rules", ["classic", "lives", "troefcall"])
        variants = st.multiselect(
            "Variants (Troefcall: target-15/20/50, free-trump-call, silent-kap, no-baunie)",
            sorted(VARIANTS),
        )
        venue = st.text_input("Venue", "")
        started = st.form_submit_button("Start the game", use_container_width=True)
    if not started:
        return
    names = [n.strip() for n in players.split(",") if n.strip()]
    path = _path()
    journal = path / "journal" / f"record-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}.jsonl"
    try:
        st.session_state["record_manual"] = ManualGame.start(
            names, Ruleset.resolve(rules, variants), journal, dataset=path,
            venue=venue or None,
        )  # fmt: skip
    except KroegError as exc:
        st.error(str(exc))
        return
    st.session_state["record_log"] = [f"journal: {journal}"]
    st.rerun()


def _record_command() -> None:
    command = st.session_state.get("record_command", "")
    st.session_state["record_command"] = ""
    if command.strip():
        _record_run(command)


def _record_run(command: str) -> None:
    """Run one command; keep what it said (or why it was refused) for the page to show."""
    manual = st.session_state["record_manual"]
    log = st.session_state.setdefault("record_log", [])
    try:
        outcome = Session(manual).run(command)
    except KroegError as exc:
        log.append(f"refused: {exc}")
        return
    log.append(f"> {command}")
    log.extend(outcome.lines)
    if outcome.stop == "quit" or (manual.over and manual.landed is None):
        if manual.landed is None:
            manual.land()
        log.append(f"stored as game {manual.landed}")
        st.session_state["record_manual"] = None
