"""The Replay page: a hand step by step, as the table saw it or with every card."""

from __future__ import annotations

import html
import re

import streamlit as st

from kroeg.analytics.games import recent_games
from kroeg.analytics.pages import (
    BEFORE_HAND,
    hand_answers,
    hand_folds,
    hand_knocks,
    hand_troef_sides,
)
from kroeg.analytics.report import (
    answer_verdict,
    baunie_verdict,
    call_verdict,
    fold_verdict,
    kap_verdict,
    knock_verdict,
    stay_verdict,
    verdict_summary,
)
from kroeg.analytics.stats import STAT_BY_NAME
from kroeg.dashboard import replay_nav
from kroeg.dashboard.data import ask, before_this_hand, expectations, game
from kroeg.dashboard.data import states as hand_steps
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.dashboard.replay import TableState, hand_numbers
from kroeg.dashboard.table import CSS, moves_html, table_html
from kroeg.parsers.render import hand_result
from kroeg.recorder.records import side_name
from kroeg.recorder.text import markdown_text


def replay() -> None:
    """One hand, step by step."""
    st.title("Replay")
    if empty_state():
        return
    params = st.query_params
    wanted = params.get("game")
    # The 500 most recent games (and one arriving by a link): a select box of tens of
    # thousands of games would be sent to the browser again at every step.
    games = ask(current_path(), recent_games, wanted or "", chosen_games())
    ids = games["game_id"].to_list()
    if not ids:
        st.info("No game matches the filters in the sidebar.")
        return
    if wanted and wanted not in ids:
        st.warning(
            f"There is no game {markdown_text(wanted)} in this dataset: "
            "showing the most recent game instead."
        )
    # An address the page did not write (a link, Back, Forward; or any address on arrival
    # from another page, which drops this page's widgets) names what to show: the pickers
    # are moved to it (set through the session, so the browser's widgets follow).
    external = wanted is not None and (
        (wanted, params.get("hand")) != st.session_state.get("replay_address")
        or "replay_step" not in st.session_state
    )
    if external:
        st.session_state.pop("replay_where", None)
        if wanted in ids:
            st.session_state["replay_game"] = wanted
        else:
            st.session_state.pop("replay_game", None)
    labels = dict(zip(ids, games["title"].to_list(), strict=True))
    # Game, hand and view in one row (on a phone: the game, then hand and view side by
    # side, without their labels): the table comes up the page.
    pickers = st.container(key="replay_pickers")
    pick_game, pick_hand, pick_view = pickers.columns([6, 1.4, 2], vertical_alignment="bottom")
    chosen = pick_game.selectbox(
        "Game", ids, index=ids.index(wanted) if wanted in ids and not external else 0,
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
    if external:
        st.session_state["replay_hand"] = start_hand
    hand = pick_hand.selectbox(
        "Hand", numbers, index=0 if external else numbers.index(start_hand), key="replay_hand",
        format_func=lambda number: f"Hand {number}",
    )  # fmt: skip
    views = _views(record.players)
    if external:
        st.session_state["replay_view"] = _linked_view(params.get("view"), views)
    elif st.session_state.get("replay_view", "table") not in views:
        st.session_state["replay_view"] = "table"  # a seat the game now shown lacks
    view = pick_view.selectbox(
        "View", list(views), format_func=views.__getitem__, key="replay_view",
        help="What the table saw, what one player saw (their own cards from the deal), or "
        "every card the log knows. Only 'All cards' shows the moves still to come.",
    )  # fmt: skip
    reveal_all = view == "all"
    seat = int(view) - 1 if view.isdigit() else None
    states = hand_steps(current_path(), chosen, hand, reveal_all, seat)
    if st.session_state.get("replay_where") != (chosen, hand):
        # A new hand opens at its start, or at the step the link names.
        st.session_state["replay_where"] = (chosen, hand)
        st.session_state["replay_step"] = _linked_step(states, chosen, hand)
    # The address follows what is shown, so that it can be shared (the step: below).
    st.query_params.update({"game": chosen, "hand": str(hand), "view": view})
    st.session_state["replay_address"] = (chosen, str(hand))
    st.html(CSS)  # once for the page: the steps below send only their own HTML
    verdicts, summary = _verdicts(chosen, hand, states, record.players, reveal_all)
    # How the hand came out, as the engine wrote it: shown at its last step.
    # The games in the order played, newest first (the picker puts a linked game first).
    played = games.sort("recency")["game_id"].to_list()
    around = _around(played, chosen, numbers, hand)
    # Each player's expected result step by step: every player's with every card shown,
    # one player's as they saw it, nobody's in the table's view (it would tell their cards).
    shown = [] if states[0].troefcall or view == "table" else [seat] if seat is not None else None
    lines = _expected_lines(states, chosen, hand, record.players, shown)
    _stepper(
        states, record.players, verdicts, hand_result(record, hand).text, summary, reveal_all,
        around, lines,
    )  # fmt: skip
    if not states[0].troefcall:
        # Last, under the table: its figures add up every earlier game (once for the
        # files, a second or more at 100,000 hands: the server's start does it), and the
        # table is drawn before they are worked out.
        st.html(_before_hand(chosen, hand, record.players))


def _before_hand(game_id: str, hand: int, players: tuple[str, ...]) -> str:
    """Each player's figures from the hands before this one (analytics.pages.before_hand,
    among the games the sidebar lets through), as a small table: a tracker's heads-up
    display. The earlier games' counts are worked out once for every game."""
    frame = before_this_hand(current_path(), game_id, hand, players, chosen_games())
    stats = [STAT_BY_NAME[name] for name in BEFORE_HAND]
    head = "".join(
        f'<th title="{html.escape(s.definition)}">{html.escape(s.label)}</th>' for s in stats
    )
    rows = "".join(
        f"<tr><td>{html.escape(r['player'])}</td>"
        + "".join(f"<td>{html.escape(s.cell(r[s.done], r[s.opportunities]))}</td>" for s in stats)
        + "</tr>"
        for r in frame.iter_rows(named=True)
    )
    small = min(s.small_sample for s in stats)
    return (
        f'<div class="kroeg-hud"><b>Before this hand</b> <span>(done/opportunities; * fewer '
        f"than {small}: a small sample)</span><table><tr><th></th>{head}</tr>{rows}</table></div>"
    )


def _expected_lines(
    states: list[TableState],
    game_id: str,
    hand: int,
    players: tuple[str, ...],
    seats: list[int] | None,
) -> list[dict[str, object]]:
    """The expected result of each of `seats` (None: every player) at every step of the
    hand, as chart rows: a step shows the last value worked out at or before its event."""
    if seats == []:
        return []
    frame = expectations(current_path(), game_id, hand)
    if seats is not None:
        frame = frame.filter(frame["seat"].is_in(seats))
    values: dict[int, list[tuple[int, float]]] = {}
    for row in frame.iter_rows(named=True):
        values.setdefault(row["seat"], []).append((row["seq"], row["expected"]))
    rows: list[dict[str, object]] = []
    for seat, points in values.items():
        at = 0
        for state in states:
            while at + 1 < len(points) and points[at + 1][0] <= state.seq:
                at += 1
            if points[at][0] <= state.seq:
                rows.append({"step": state.step, "player": players[seat],
                             "expected": round(points[at][1], 2)})  # fmt: skip
    return rows


#: The expected-result graph's colours, one a seat (Tableau's ten, for up to eight players).
PLAYER_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948",
                  "#9c755f"]  # fmt: skip

#: The moves to another hand or game: label, key, what it says on hover. The games are
#: in the order played (the picker lists the most recent first).
_ELSEWHERE = {
    "hand_back": ("‹ Hand", "P", "The hand before (P)"),
    "hand_on": ("Hand ›", "N", "The next hand (N)"),
    "game_back": ("‹ Game", "Shift+P", "The game played before, from its first hand (Shift+P)"),
    "game_on": ("Game ›", "Shift+N", "The game played next, from its first hand (Shift+N)"),
}


def _around(
    ids: list[str], game_id: str, numbers: list[int], hand: int
) -> dict[str, dict[str, object] | None]:
    """Where each of `_ELSEWHERE` goes: the pickers' new values, or None (no such hand or
    game among those the pickers offer)."""
    at = ids.index(game_id)
    return {
        "hand_back": {"replay_hand": hand - 1} if hand > numbers[0] else None,
        "hand_on": {"replay_hand": hand + 1} if hand < numbers[-1] else None,
        "game_back": (
            {"replay_game": ids[at + 1], "replay_hand": 1} if at + 1 < len(ids) else None
        ),
        "game_on": {"replay_game": ids[at - 1], "replay_hand": 1} if at > 0 else None,
    }


def _go_elsewhere(target: dict[str, object] | None) -> None:
    """Move the pickers (before the page is drawn again) and have the whole page run."""
    if target is not None:
        st.session_state.update(target)
        st.session_state["replay_whole_page"] = True


def _views(players: tuple[str, ...]) -> dict[str, str]:
    """The ways to look at a hand, by the value links carry (`view=`): the table, every
    card, or one player (their seat, from 1)."""
    views = {"table": "The table", "all": "All cards"}
    views.update({str(seat): f"As {name} saw it" for seat, name in enumerate(players, 1)})
    return views


def _linked_view(text: str | None, views: dict[str, str]) -> str:
    """The view an address names (the table's without one, or with one this game lacks)."""
    if text is None or text in views:
        return text or "table"
    st.warning(f"There is no view {markdown_text(text)} of this game: showing the table's.")
    return "table"


def _verdicts(
    game_id: str,
    hand: int,
    states: list[TableState],
    players: tuple[str, ...],
    tell_outcome: bool,
) -> tuple[dict[int, tuple[str, str]], str]:
    """The verdict on each decision of the hand, by its event number (seq): a mark and a
    sentence (with `tell_outcome`, a knock's says how the hand came out); and the hand's
    verdicts in one line. Knocks and folds come from the analysis
    (none for a game not analysed), stays from what the log says was paid, Troefcall's
    calls from the `troef_sides` view."""
    if states[0].troefcall:
        return _troefcall_verdicts(game_id, hand, states, players), ""
    path = current_path()
    knocks = ask(path, hand_knocks, game_id, hand)
    folds = ask(path, hand_folds, game_id, hand)
    verdicts = {
        r["seq"]: knock_verdict(
            r["strength"],
            r["fair_share"],
            r["bluff"],
            r["all_folded"],
            r["knocker_won"],
            tell_outcome,
        )
        for r in knocks.iter_rows(named=True)
    }
    verdicts.update(
        {r["seq"]: fold_verdict(r["regret"], r["cost"]) for r in folds.iter_rows(named=True)}
    )
    for state in states:
        if state.kind == "stay" and state.actor is not None and tell_outcome:
            paid = sum(
                s.amount or 0
                for s in states
                if s.kind == "pay" and s.actor == state.actor and s.seq > state.seq
            )
            verdicts[state.seq] = stay_verdict(players[state.actor], paid)
    # An answer to a knock judged from what the player could see comes first; a fold's
    # regret (hindsight: every card as it lay) and what a stay came to follow it.
    for r in ask(path, hand_answers, game_id, hand).iter_rows(named=True):
        mark, said = answer_verdict(
            players[r["seat"]], r["answer"], r["stake"], r["win_chance"], r["cost_stay"],
            r["cost_fold"], r["ev_lost"], r["grade"], bool(r["partners_play_on"]),
        )  # fmt: skip
        after = verdicts.get(r["seq"])
        if after is not None:
            said += " " + after[1].replace("Verdict: ", "In hindsight: ", 1)
        verdicts[r["seq"]] = (mark, said)
    summary = verdict_summary(
        [(r["player"], r["bluff"], r["bluff_won"]) for r in knocks.iter_rows(named=True)],
        [(r["player"], r["regret"], r["cost"]) for r in folds.iter_rows(named=True)],
    )
    return verdicts, summary


def _troefcall_verdicts(
    game_id: str, hand: int, states: list[TableState], players: tuple[str, ...]
) -> dict[int, tuple[str, str]]:
    """Troefcall: the trump call made good or not, the baunie scored or not (a finished
    hand only: the view counts finished hands)."""
    sides = ask(current_path(), hand_troef_sides, game_id, hand)
    verdicts: dict[int, tuple[str, str]] = {}
    for row in sides.iter_rows(named=True):
        for state in states:
            if state.kind == "trump" and row["calls"] and state.actor is not None:
                verdicts[state.seq] = call_verdict(
                    players[state.actor], bool(row["calls_made"]), row["tricks"], row["hand_size"]
                )
            if state.kind == "kap" and state.teams is not None and state.actor is not None:
                side = state.teams[state.actor]
                verdicts[state.seq] = kap_verdict(side_name(players, state.teams, side))
            if state.kind == "baunie" and row["baunies"]:
                verdicts[state.seq] = baunie_verdict(bool(row["baunies_won"]))
    return verdicts


#: The step buttons: label, key shortcut, what it says on hover.
_MOVES = {
    "first": ("«", "Home", "The hand's start (Home)"),
    "previous": ("‹", "Left", "One step back (←)"),
    "next": ("›", "Right", "One step on (→)"),
    "last": ("»", "End", "The hand's end (End)"),
}
#: The jumps to a decision: Toepen's knocks and folds, Troefcall's tricks and calls (the
#: keys "C" and "R" are Streamlit's own).
_TOEPEN_JUMPS = {
    "Knock ›": ("next knock", ("knock",), "K"),
    "Fold ›": ("next fold", ("fold",), "F"),
    "Trick ›": ("next trick", ("trick",), "T"),
}
_TROEFCALL_JUMPS = {
    "Trick ›": ("next trick", ("trick",), "T"),
    "Call ›": ("next call (trump, kap, baunie)", ("trump", "kap", "baunie", "stop"), "A"),
}


@st.fragment
def _stepper(
    states: list[TableState],
    players: tuple[str, ...],
    verdicts: dict[int, tuple[str, str]],
    outcome: str,
    summary: str,
    reveal_all: bool,
    around: dict[str, dict[str, object] | None],
    lines: list[dict[str, object]],
) -> None:
    """Buttons, slider, table and move list: a click reruns only this part of the page.
    `outcome`: the hand's result, said at its last step; `summary`: the hand's verdicts
    in a line. Unless every card is shown, the moves, their marks and the summary come
    only as far as the step shown: nothing still to come is told."""
    if st.session_state.pop("replay_whole_page", False):
        st.rerun()  # another hand or game: the pickers above change, not this part alone
    last = len(states) - 1
    step = st.session_state.get("replay_step", 0)
    # A button that would not move the step is disabled: First and Previous at the first
    # step, Next and Last at the last.
    targets = {
        "first": 0 if step > 0 else None,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < last else None,
        "last": last if step < last else None,
    }
    jumps = _TROEFCALL_JUMPS if states[0].troefcall else _TOEPEN_JUMPS
    controls = st.container(horizontal=True, key="replay_controls", gap="small")
    for name, (label, key, help_text) in _MOVES.items():
        # A callback moves the step before the page is drawn again, so every button
        # (and whether it is enabled) is computed from the step the user now sees.
        controls.button(
            label, key=f"replay_{name}", disabled=targets[name] is None, help=help_text,
            shortcut=key, on_click=_go_to_step, args=(targets[name],),
        )  # fmt: skip
    for label, (what, kinds, key) in jumps.items():
        target = _next_kind(states, step, kinds)
        controls.button(
            label, key=f"replay_{label.split()[0].lower()}", disabled=target is None,
            help=f"The {what} ({key})", shortcut=key, on_click=_go_to_step, args=(target,),
        )  # fmt: skip
    for name, (label, key, help_text) in _ELSEWHERE.items():
        controls.button(
            label, key=f"replay_{name}", disabled=around[name] is None, help=help_text,
            shortcut=key, on_click=_go_elsewhere, args=(around[name],),
        )  # fmt: skip
    # The slider, and beside it autoplay and "copy link" (on a phone, under it). Shift and
    # a jump's key goes back to the previous such move (by the kinds of the hand's steps).
    slide, extra = st.container(key="replay_slide").columns([5, 2], vertical_alignment="center")
    with extra:
        replay_nav.mount(
            f"{st.session_state.get('replay_where')}",
            [s.kind for s in states],
            {key: list(kinds) for _, kinds, key in jumps.values()},
        )
    step = slide.slider("Step", 0, last, key="replay_step", label_visibility="collapsed")
    state = states[step]
    st.query_params["step"] = str(state.seq)  # links name a move by its event number
    keys = " · ".join(f"{key} {what} (Shift+{key} the previous)"
                      for what, _, key in jumps.values())  # fmt: skip
    left, right = st.columns([3, 2])
    told = states if reveal_all else states[: step + 1]
    marks = {s.step: verdicts[s.seq] for s in told if s.seq in verdicts}
    # The decision panel, beside the table: the step's verdict in words, and at the end
    # the hand's result and its verdicts in a line.
    panel = (
        f'<p class="kroeg-verdict {marks[step][0]}">{html.escape(marks[step][1])}</p>'
        if step in marks
        else ""
    )
    if step == last:
        panel += f'<p class="kroeg-result"><b>Result:</b> {html.escape(outcome)}</p>'
    if summary and (reveal_all or step == last):
        panel += f'<p class="kroeg-summary"><b>Verdicts:</b> {html.escape(summary)}</p>'
    # Plain HTML blocks (no Markdown to parse): a step redraws two elements. The step's
    # words above the table; the moves (the current one and its neighbours in view), then
    # the panel, beside it: on a phone, under it, all on one screen.
    left.html(
        f'<p class="kroeg-now"><b>Step {step}/{last}:</b> {html.escape(state.text)}</p>'
        + table_html(state, players)
    )
    right.html(
        '<p class="kroeg-moves-title"><b>Moves</b></p>'
        + moves_html(told, step, {i: mark for i, (mark, _) in marks.items()})
        + (f'<div class="kroeg-panel">{panel}</div>' if panel else "")
        + f'<p class="kroeg-keys">Click a move to go there; on a phone, swipe the table. '
        f"Keys: ← → a step · Home / End · {html.escape(keys)} · N / P a hand · "
        "Shift+N / Shift+P a game.</p>"
    )
    # Unless every card is shown, the graph goes as far as the step shown.
    drawn = lines if reveal_all else [r for r in lines if int(r["step"]) <= step]  # type: ignore[call-overload]
    if drawn:
        with right:
            _expected_chart(drawn, step, last)


def _expected_chart(rows: list[dict[str, object]], step: int, last: int) -> None:
    """Each player's expected result of the hand step by step (lives or points; 0 costs
    nothing), a rule at the step shown."""
    st.caption(
        "Expected result of the hand, step by step, from what each player could see "
        "(0: it costs nothing; −2: two lives or points). docs/STATS.md."
    )
    st.vega_lite_chart(
        {
            "layer": [
                {
                    "data": {"values": rows},
                    "mark": {"type": "line", "interpolate": "step-after"},
                    "encoding": {
                        "x": {
                            "field": "step",
                            "type": "quantitative",
                            "title": "step",
                            "scale": {"domain": [0, last]},
                        },
                        "y": {"field": "expected", "type": "quantitative", "title": None},
                        "color": {
                            "field": "player",
                            "type": "nominal",
                            "title": None,
                            "legend": {"orient": "bottom"},
                            # One distinct colour a player (the theme's shades of two hues
                            # made four players hard to tell apart).
                            "scale": {"range": PLAYER_COLOURS},
                        },
                        "tooltip": [{"field": "player"}, {"field": "step"}, {"field": "expected"}],
                    },
                },
                {
                    "data": {"values": [{"step": step}]},
                    "mark": {"type": "rule", "color": "#999", "strokeDash": [4, 3]},
                    "encoding": {"x": {"field": "step", "type": "quantitative"}},
                },
            ],
        },
        width="stretch",
        height=220,
    )


def _linked_step(states: list[TableState], game_id: str, hand: int) -> int:
    """The step a link names for this game and hand, by its event number (0 without one,
    or a bad one): a card dealt is in the deal's step."""
    params = st.query_params
    text = params.get("step")
    if text is None or params.get("game") != game_id or params.get("hand") != str(hand):
        return 0
    events = states[-1].seq
    if re.fullmatch(r"[0-9]{1,5}", text) and int(text) <= events:
        return max(s.step for s in states if s.seq <= int(text))
    st.warning(f"This hand has moves 0 to {events}, not {markdown_text(text)}: showing its start.")
    return 0


def _go_to_step(target: int | None) -> None:
    if target is not None:
        st.session_state["replay_step"] = target


def _next_kind(states: list[TableState], step: int, kinds: tuple[str, ...]) -> int | None:
    return next((s.step for s in states if s.step > step and s.kind in kinds), None)


replay()
