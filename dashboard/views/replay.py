"""The Replay page: a hand step by step, as the table saw it or with every card."""

from __future__ import annotations

import html
import re

import streamlit as st

from analytics.report import fold_verdict, knock_verdict, verdict_summary
from dashboard.data import game, query
from dashboard.data import states as hand_steps
from dashboard.filters import current_path, empty_state, games_condition
from dashboard.replay import hand_numbers, hand_result
from dashboard.table import CSS, events_html, table_html
from recorder.text import markdown_text


def replay() -> None:
    """One hand, step by step."""
    st.title("Replay")
    if empty_state():
        return
    params = st.query_params
    wanted = params.get("game")
    # The 500 most recent games (and one arriving by a link): a select box of tens of
    # thousands of games would be sent to the browser again at every step.
    where, args = games_condition()
    games = query(
        current_path(),
        "SELECT game_id, coalesce(strftime(started_at, '%Y-%m-%d'), '') AS day, "
        f"array_to_string(players, ', ') AS players FROM games WHERE game_id = ? OR {where} "
        "ORDER BY (game_id = ?) DESC, started_at DESC NULLS LAST, game_id LIMIT 500",
        wanted or "", *args, wanted or "",
    )  # fmt: skip
    ids = games["game_id"].to_list()
    if not ids:
        st.info("No game matches the filters in the sidebar.")
        return
    if wanted and wanted not in ids:
        st.warning(
            f"There is no game {markdown_text(wanted)} in this dataset: "
            "showing the most recent game instead."
        )
    labels = {
        row["game_id"]: f"{row['day']} {row['players']} ({row['game_id']})".strip()
        for row in games.iter_rows(named=True)
    }
    chosen = st.selectbox(
        "Game", ids, index=ids.index(wanted) if wanted in ids else 0,
        format_func=labels.__getitem__, key="replay_game",
    )  # fmt: skip
    record = game(current_path(), chosen)
    numbers = hand_numbers(record)
    if not numbers:
        st.info("This game has no hand to replay yet.")
        return
    hand_param = params.get("hand")
    # isdigit() is also true of '²': only ASCII digits make a hand number.
    start_hand = int(hand_param) if hand_param and re.fullmatch(r"[0-9]{1,4}", hand_param) else 1
    if hand_param and start_hand not in numbers:
        st.warning(
            f"This game has no hand {markdown_text(hand_param)} (its hands are "
            f"{numbers[0]} to {numbers[-1]}): showing hand {numbers[0]}."
        )
        start_hand = numbers[0]
    hand = st.selectbox("Hand", numbers, index=numbers.index(start_hand), key="replay_hand")
    reveal_all = st.toggle("All cards (otherwise: what the table saw)", key="replay_all")
    states = hand_steps(current_path(), chosen, hand, reveal_all)
    last = len(states) - 1
    if st.session_state.get("replay_where") != (chosen, hand):
        # A new hand opens at its start, or at the step the link names.
        st.session_state["replay_where"] = (chosen, hand)
        st.session_state["replay_step"] = _linked_step(chosen, hand, last)
    # The address follows what is shown, so that it can be shared (the step: below).
    st.query_params.update({"game": chosen, "hand": str(hand)})
    st.html(CSS)  # once for the page: the steps below send only their own HTML
    verdicts, summary = _verdicts(chosen, hand)
    if summary:
        st.html(f'<p class="kroeg-summary"><b>Verdicts:</b> {html.escape(summary)}</p>')
    _stepper(states, record.players, verdicts)


def _verdicts(game_id: str, hand: int) -> tuple[dict[int, tuple[str, str]], str]:
    """The analysis' verdict on each knock and fold of the hand, by step (its seq): a mark
    and a sentence; and the hand's verdicts in one line. Empty for a game not analysed."""
    path = current_path()
    knocks = query(
        path,
        "SELECT seq, player, strength, fair_share, bluff, bluff_won, all_folded, knocker_won "
        "FROM knock_outcomes WHERE game_id = ? AND hand = ? ORDER BY seq",
        game_id, hand,
    )  # fmt: skip
    folds = query(
        path,
        "SELECT f.seq, f.player, x.regret, f.cost FROM folds AS f "
        "JOIN fold_facts AS x USING (game_id, hand, seq) "
        "WHERE f.game_id = ? AND f.hand = ? ORDER BY f.seq",
        game_id, hand,
    )  # fmt: skip
    verdicts = {
        r["seq"]: knock_verdict(
            r["strength"], r["fair_share"], r["bluff"], r["all_folded"], r["knocker_won"]
        )
        for r in knocks.iter_rows(named=True)
    }
    verdicts.update(
        {r["seq"]: fold_verdict(r["regret"], r["cost"]) for r in folds.iter_rows(named=True)}
    )
    summary = verdict_summary(
        [(r["player"], r["bluff"], r["bluff_won"]) for r in knocks.iter_rows(named=True)],
        [(r["player"], r["regret"], r["cost"]) for r in folds.iter_rows(named=True)],
    )
    return verdicts, summary


@st.fragment
def _stepper(
    states: list,  # type: ignore[type-arg]
    players: tuple[str, ...],
    verdicts: dict[int, tuple[str, str]],
) -> None:
    """Buttons, slider, table and event list: a click reruns only this part of the page."""
    last = len(states) - 1
    step = st.session_state.get("replay_step", 0)
    buttons = st.columns(6)
    # A button that would not move the step is disabled: First and Previous at the first
    # step, Next and Last at the last.
    jumps: dict[str, int | None] = {
        "« First": 0 if step > 0 else None,
        "‹ Previous": step - 1 if step > 0 else None,
        "Next ›": step + 1 if step < last else None,
        "Last »": last if step < last else None,
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
    st.query_params["step"] = str(step)
    state = states[step]
    left, right = st.columns([3, 2])
    # Plain HTML blocks (no Markdown to parse): a step redraws two elements.
    result = (
        f'<p class="kroeg-result"><b>Result:</b> {html.escape(hand_result(states, players))}</p>'
        if step == last
        else ""
    )
    verdict = (
        f'<p class="kroeg-verdict {verdicts[step][0]}">{html.escape(verdicts[step][1])}</p>'
        if step in verdicts
        else ""
    )
    left.html(
        table_html(state, players)
        + f'<p class="kroeg-now"><b>Step {step}/{last}:</b> {html.escape(state.text)}</p>'
        + verdict
        + result
    )
    marks = {seq: mark for seq, (mark, _) in verdicts.items()}
    right.html("<b>Events</b>" + events_html([s.text for s in states], step, marks))


def _linked_step(game_id: str, hand: int, last: int) -> int:
    """The step a link names for this game and hand (0 without one, or a bad one)."""
    params = st.query_params
    text = params.get("step")
    if text is None or params.get("game") != game_id or params.get("hand") != str(hand):
        return 0
    if re.fullmatch(r"[0-9]{1,5}", text) and int(text) <= last:
        return int(text)
    st.warning(f"This hand has steps 0 to {last}, not {markdown_text(text)}: showing its start.")
    return 0


def _go_to_step(target: int | None) -> None:
    if target is not None:
        st.session_state["replay_step"] = target


def _next_kind(states: list, step: int, kinds: tuple[str, ...]) -> int | None:  # type: ignore[type-arg]
    return next((s.step for s in states if s.step > step and s.kind in kinds), None)


replay()
