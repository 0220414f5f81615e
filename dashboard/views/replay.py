"""The Replay page: a hand step by step, as the table saw it or with every card."""

from __future__ import annotations

import html
import re

import streamlit as st

from kroeg.analytics.formats import integer
from kroeg.analytics.games import recent_games
from kroeg.analytics.pages import (
    BEFORE_HAND,
    hand_announcements,
    hand_answers,
    hand_calls,
    hand_folds,
    hand_knocks,
    hand_swaps,
    hand_troef_sides,
)
from kroeg.analytics.stats import STAT_BY_NAME, Stat
from kroeg.analytics.verdict_words import (
    announce_verdict,
    answer_verdict,
    call_verdict,
    fold_verdict,
    knock_choice_verdict,
    knock_verdict,
    stay_verdict,
    swap_verdict,
    verdict_summary,
)
from kroeg.analytics.verdicts import ANNOUNCE_OPTIONS
from kroeg.analytics.words import Words
from kroeg.dashboard import replay_nav
from kroeg.dashboard.data import ask, before_this_hand, expectations, game
from kroeg.dashboard.data import states as data_states
from kroeg.dashboard.evenings import game_title, names
from kroeg.dashboard.filters import chosen_games, current_path, empty_state
from kroeg.dashboard.replay import TableState, hand_numbers
from kroeg.dashboard.stat_words import stat_definition, stat_label
from kroeg.dashboard.table import CSS, moves_html, table_html
from kroeg.dashboard.words import page_words
from kroeg.parsers.render import hand_result
from kroeg.recorder.cards import Suit
from kroeg.recorder.records import side_name
from kroeg.recorder.text import markdown_text


def replay() -> None:
    """One hand, step by step."""
    w = page_words()
    st.title(w.say("replay_title", "Replay"))
    if empty_state():
        return
    params = st.query_params
    wanted = params.get("game")
    # The 500 most recent games (and one arriving by a link): a select box of tens of
    # thousands of games would be sent to the browser again at every step.
    games = ask(current_path(), recent_games, wanted or "", chosen_games())
    ids = games["game_id"].to_list()
    if not ids:
        st.info(w.say("games_none_match", "No game matches the filters in the sidebar."))
        return
    if wanted and wanted not in ids:
        st.warning(
            w.say(
                "replay_no_such_game",
                "There is no game {game} in this dataset: showing the most recent game instead.",
                game=markdown_text(wanted),
            )
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
    # A game's name, then its rules (a preset's name in the language).
    named = names(current_path(), ids)
    labels = {
        game_id: game_title(named[game_id], rules, w)
        for game_id, rules in zip(ids, games["label"].to_list(), strict=True)
    }
    # Game, hand and view in one row (on a phone: the game, then hand and view side by
    # side, without their labels): the table comes up the page.
    pickers = st.container(key="replay_pickers")
    pick_game, pick_hand, pick_view = pickers.columns([6, 1.4, 2], vertical_alignment="bottom")
    chosen = pick_game.selectbox(
        w.say("replay_game", "Game"), ids,
        index=ids.index(wanted) if wanted in ids and not external else 0,
        format_func=labels.__getitem__, key="replay_game",
    )  # fmt: skip
    record = game(current_path(), chosen)
    numbers = hand_numbers(record)
    if not numbers:
        st.info(w.say("replay_no_hand", "This game has no hand to replay yet."))
        return
    hand_param = params.get("hand")
    # isdigit() is also true of '²': only ASCII digits make a hand number.
    start_hand = int(hand_param) if hand_param and re.fullmatch(r"[0-9]{1,4}", hand_param) else 1
    if hand_param and start_hand not in numbers:
        st.warning(
            w.say(
                "replay_no_such_hand",
                "This game has no hand {hand} (its hands are {first} to {last}): showing "
                "hand {first}.",
                hand=markdown_text(hand_param),
                first=integer(numbers[0], w.lang),
                last=integer(numbers[-1], w.lang),
            )
        )
        start_hand = numbers[0]
    if external:
        st.session_state["replay_hand"] = start_hand
    hand = pick_hand.selectbox(
        w.say("replay_hand", "Hand"), numbers,
        index=0 if external else numbers.index(start_hand), key="replay_hand",
        format_func=lambda number: w.say(
            "replay_hand_number", "Hand {number}", number=integer(number, w.lang)
        ),
    )  # fmt: skip
    views = _views(record.players, w)
    if external:
        st.session_state["replay_view"] = _linked_view(params.get("view"), views, w)
    elif st.session_state.get("replay_view", "table") not in views:
        st.session_state["replay_view"] = "table"  # a seat the game now shown lacks
    view = pick_view.selectbox(
        w.say("replay_view", "View"), list(views), format_func=views.__getitem__,
        key="replay_view",
        help=w.say(
            "replay_view_help",
            "What the table saw, what one player saw (their own cards from the deal), or "
            "every card the log knows. Only 'All cards' shows the moves still to come.",
        ),
    )  # fmt: skip
    reveal_all = view == "all"
    seat = int(view) - 1 if view.isdigit() else None
    states = data_states(current_path(), chosen, hand, reveal_all, seat, w.lang)
    if st.session_state.get("replay_where") != (chosen, hand):
        # A new hand opens at its start, or at the step the link names.
        st.session_state["replay_where"] = (chosen, hand)
        st.session_state["replay_step"] = _linked_step(states, chosen, hand, w)
    # The address follows what is shown, so that it can be shared (the step: below).
    st.query_params.update({"game": chosen, "hand": str(hand), "view": view})
    st.session_state["replay_address"] = (chosen, str(hand))
    st.html(CSS)  # once for the page: the steps below send only their own HTML
    verdicts, summary = _verdicts(chosen, hand, states, record.players, reveal_all, w)
    # How the hand came out, as the engine wrote it: shown at its last step.
    # The games in the order played, newest first (the picker puts a linked game first).
    played = games.sort("recency")["game_id"].to_list()
    around = _around(played, chosen, numbers, hand)
    # Each player's expected result step by step: every player's with every card shown,
    # one player's as they saw it, nobody's in the table's view (it would tell their cards).
    shown = [] if states[0].troefcall or view == "table" else [seat] if seat is not None else None
    lines = _expected_lines(states, chosen, hand, record.players, shown)
    _stepper(
        states, record.players, verdicts, hand_result(record, hand).text_for(w), summary,
        reveal_all, seat, around, lines, w,
    )  # fmt: skip
    if not states[0].troefcall:
        # Last, under the table: its figures add up every earlier game (once for the
        # files, a second or more at 100,000 hands: the server's start does it), and the
        # table is drawn before they are worked out.
        st.html(_before_hand(chosen, hand, record.players, w))


def _stat_words(stat: Stat, w: Words) -> tuple[str, str]:
    """A statistic's short heading and its definition in `w`'s words."""
    return stat_label(w, stat), stat_definition(w, stat)


def _before_hand(game_id: str, hand: int, players: tuple[str, ...], w: Words) -> str:
    """Each player's figures from the hands before this one (analytics.pages.before_hand,
    among the games the sidebar lets through), as a small table: a tracker's heads-up
    display. The earlier games' counts are worked out once for every game."""
    frame = before_this_hand(current_path(), game_id, hand, players, chosen_games())
    stats = [STAT_BY_NAME[name] for name in BEFORE_HAND]
    said = [_stat_words(s, w) for s in stats]
    head = "".join(
        f'<th title="{html.escape(definition)}">{html.escape(label)}</th>'
        for label, definition in said
    )
    rows = "".join(
        f"<tr><td>{html.escape(r['player'])}</td>"
        + "".join(
            f"<td>{html.escape(s.cell(r[s.done], r[s.opportunities], lang=w.lang))}</td>"
            for s in stats
        )
        + "</tr>"
        for r in frame.iter_rows(named=True)
    )
    small = min(s.small_sample for s in stats)
    title = w.say("replay_before_hand", "Before this hand")
    note = w.say(
        "replay_before_hand_note",
        "(done/opportunities; * fewer than {small}: a small sample)",
        small=integer(small, w.lang),
    )
    return (
        f'<div class="kroeg-hud"><b>{html.escape(title)}</b> <span>{html.escape(note)}</span>'
        f"<table><tr><th></th>{head}</tr>{rows}</table></div>"
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

#: The moves to another hand or game, in the order drawn: the key. The games are in the
#: order played (the picker lists the most recent first).
_ELSEWHERE = {"hand_back": "P", "hand_on": "N", "game_back": "Shift+P", "game_on": "Shift+N"}


def _elsewhere_words(name: str, key: str, w: Words) -> tuple[str, str]:
    """A move to another hand or game: its label and what it says on hover."""
    if name == "hand_back":
        return w.say("replay_hand_back", "‹ Hand"), w.say(
            "replay_hand_back_help", "The hand before ({shortcut})", shortcut=key
        )
    if name == "hand_on":
        return w.say("replay_hand_on", "Hand ›"), w.say(
            "replay_hand_on_help", "The next hand ({shortcut})", shortcut=key
        )
    if name == "game_back":
        return w.say("replay_game_back", "‹ Game"), w.say(
            "replay_game_back_help",
            "The game played before, from its first hand ({shortcut})",
            shortcut=key,
        )
    return w.say("replay_game_on", "Game ›"), w.say(
        "replay_game_on_help",
        "The game played next, from its first hand ({shortcut})",
        shortcut=key,
    )


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


def _views(players: tuple[str, ...], w: Words) -> dict[str, str]:
    """The ways to look at a hand, by the value links carry (`view=`, the same in every
    language), in words: the table, every card, or one player (their seat, from 1)."""
    views = {
        "table": w.say("replay_view_table", "The table"),
        "all": w.say("replay_view_all", "All cards"),
    }
    views.update(
        {
            str(seat): w.say("replay_view_seat", "As {player} saw it", player=name)
            for seat, name in enumerate(players, 1)
        }
    )
    return views


def _linked_view(text: str | None, views: dict[str, str], w: Words) -> str:
    """The view an address names (the table's without one, or with one this game lacks)."""
    if text is None or text in views:
        return text or "table"
    st.warning(
        w.say(
            "replay_no_such_view",
            "There is no view {view} of this game: showing the table's.",
            view=markdown_text(text),
        )
    )
    return "table"


# The verdicts on a decision, in words: the same facts and sentences as analytics.report's
# (`kroeg` keeps those for its English), said in the page's language.


def _verdicts(
    game_id: str,
    hand: int,
    states: list[TableState],
    players: tuple[str, ...],
    tell_outcome: bool,
    w: Words,
) -> tuple[dict[int, tuple[str, str]], str]:
    """The verdict on each decision of the hand, by its event number (seq): a mark and a
    sentence (with `tell_outcome`, a knock's says how the hand came out); and the hand's
    verdicts in one line. Knocks and folds come from the analysis
    (none for a game not analysed), stays from what the log says was paid, Troefcall's
    calls from the `troef_sides` view."""
    if states[0].troefcall:
        return _troefcall_verdicts(game_id, hand, states, players, w), ""
    path = current_path()
    knocks = ask(path, hand_knocks, game_id, hand)
    folds = ask(path, hand_folds, game_id, hand)
    answers = ask(path, hand_answers, game_id, hand)
    swaps = ask(path, hand_swaps, game_id, hand)
    answered = {r["seq"] for r in answers.iter_rows(named=True)}
    verdicts = {
        r["seq"]: knock_verdict(
            w,
            r["strength"],
            r["fair_share"],
            r["bluff"],
            r["all_folded"],
            r["knocker_won"],
            tell_outcome,
        )
        for r in knocks.iter_rows(named=True)
    }
    # A fold also judged as an answer (from what the folder could see) is said after it,
    # in hindsight (every card as it lay).
    verdicts.update(
        {
            r["seq"]: fold_verdict(w, r["regret"], r["cost"], r["seq"] in answered)
            for r in folds.iter_rows(named=True)
        }
    )
    for state in states:
        if state.kind == "stay" and state.actor is not None and tell_outcome:
            paid = sum(
                s.amount or 0
                for s in states
                if s.kind == "pay" and s.actor == state.actor and s.seq > state.seq
            )
            verdicts[state.seq] = stay_verdict(w, players[state.actor], paid)
    # An answer to a knock judged from what the player could see comes first; a fold's
    # regret (hindsight: every card as it lay) and what a stay came to follow it.
    # So is a knock judged as a choice, before its strength and how it came out.
    for r in knocks.iter_rows(named=True):
        if r["knock_ev_lost"] is None:
            continue
        graded, said = knock_choice_verdict(
            w, r["player"], r["other_choice"], r["stake_before"], r["cost_knock"],
            r["cost_other"], r["knock_ev_lost"], r["knock_grade"],
        )  # fmt: skip
        strength_mark, strength_said = knock_verdict(
            w, r["strength"], r["fair_share"], r["bluff"], r["all_folded"], r["knocker_won"],
            tell_outcome, after_choice=True,
        )  # fmt: skip
        verdicts[r["seq"]] = (graded or strength_mark, f"{said} {strength_said}")
    for r in answers.iter_rows(named=True):
        mark, said = answer_verdict(
            w, players[r["seat"]], r["answer"], r["stake"], r["win_chance"], r["cost_stay"],
            r["cost_fold"], r["ev_lost"], r["grade"], bool(r["partners_play_on"]),
        )  # fmt: skip
        after = verdicts.get(r["seq"])
        if after is not None:
            said += " " + after[1]
        verdicts[r["seq"]] = (mark, said)
    # A laundry swap or an armoede, judged against keeping the hand.
    for r in swaps.iter_rows(named=True):
        verdicts[r["seq"]] = swap_verdict(
            w, players[r["seat"]], r["kind"], r["genuine"], r["stake"], r["cost_swap"],
            r["cost_keep"], r["ev_lost"], r["grade"],
        )  # fmt: skip
    summary = verdict_summary(
        w,
        [(r["player"], r["bluff"], r["bluff_won"]) for r in knocks.iter_rows(named=True)],
        [(r["player"], r["regret"], r["cost"]) for r in folds.iter_rows(named=True)],
        [(r["player"], r["knock_grade"]) for r in knocks.iter_rows(named=True)]
        + [(players[r["seat"]], r["grade"]) for r in answers.iter_rows(named=True)]
        + [(players[r["seat"]], r["grade"]) for r in swaps.iter_rows(named=True)],
    )
    return verdicts, summary


def _troefcall_verdicts(
    game_id: str, hand: int, states: list[TableState], players: tuple[str, ...], w: Words
) -> dict[int, tuple[str, str]]:
    """Troefcall: the trump call judged from the caller's cards (the analysis' call
    facts), made good or not, the baunie scored or not (a finished hand only: the view
    counts finished hands)."""
    sides = ask(current_path(), hand_troef_sides, game_id, hand)
    verdicts: dict[int, tuple[str, str]] = {}
    for row in sides.iter_rows(named=True):
        for state in states:
            if state.kind == "trump" and row["calls"] and state.actor is not None:
                caller = players[state.actor]
                tricks, size = integer(row["tricks"], w.lang), integer(row["hand_size"], w.lang)
                if row["calls_made"]:
                    verdicts[state.seq] = "made", w.say(
                        "replay_call_made",
                        "Verdict: {caller}'s call was made good: the side took {tricks} of "
                        "{size} tricks.",
                        caller=caller, tricks=tricks, size=size,
                    )  # fmt: skip
                else:
                    verdicts[state.seq] = "failed", w.say(
                        "replay_call_failed",
                        "Verdict: {caller}'s call failed: the side took {tricks} of {size} "
                        "tricks, not the majority.",
                        caller=caller, tricks=tricks, size=size,
                    )  # fmt: skip
            if state.kind == "kap" and state.teams is not None and state.actor is not None:
                side = side_name(players, state.teams, state.teams[state.actor])
                verdicts[state.seq] = (
                    "kap",
                    w.say(
                        "replay_kap", "Kap: {side} took the first seven tricks in a row.", side=side
                    ),
                )
            if state.kind == "baunie" and row["baunies"]:
                if row["baunies_won"]:
                    verdicts[state.seq] = (
                        "made",
                        w.say(
                            "replay_baunie_made", "Verdict: the baunie was made good and scored."
                        ),
                    )
                else:
                    verdicts[state.seq] = (
                        "failed",
                        w.say(
                            "replay_baunie_failed",
                            "Verdict: the baunie failed: the announcing side did not score it.",
                        ),
                    )

    def judged_first(seq: int, graded: str | None, said: str, tell: bool = True) -> None:
        """A decision judged from the chooser's cards: its grade's mark (else the
        outcome's), its sentence, then how it came out (unless not `tell`)."""
        came = verdicts.get(seq)
        mark = graded or (came[0] if came is not None else "sound")
        verdicts[seq] = mark, said if came is None or not tell else f"{said} {came[1]}"

    teams = next((s.teams for s in states if s.teams is not None), None)

    def pairs(seat: int) -> tuple[str, str]:
        """`seat`'s side and the other, by their players."""
        assert teams is not None  # a Troefcall hand plays in two sides
        own = teams[seat]
        return side_name(players, teams, own), side_name(
            players, teams, next(t for t in teams if t != own)
        )

    # The call judged from the caller's cards comes first; how it came out follows it.
    for r in ask(current_path(), hand_calls, game_id, hand).iter_rows(named=True):
        values = {s.value: float(r[f"value_{s.name.lower()}"]) for s in Suit}
        judged_first(r["seq"], *call_verdict(
            w, players[r["seat"]], r["trump"], r["best"], values, r["ev_lost"], r["grade"],
            pairs(r["seat"]),
        ))  # fmt: skip
    # So is the choice at seven in a row (kap, baunie, stop, play on), before its outcome;
    # a kap's own line would say again what its move says, so only its mark stays.
    for r in ask(current_path(), hand_announcements, game_id, hand).iter_rows(named=True):
        options = {
            name: float(r[f"value_{name}"])
            for name in ANNOUNCE_OPTIONS
            if r[f"value_{name}"] is not None
        }
        kap = r["seq"] in verdicts and verdicts[r["seq"]][0] == "kap"
        judged_first(r["seq"], *announce_verdict(
            w, players[r["seat"]], r["chosen"], r["best"], options, r["baunie_chance"],
            r["ev_lost"], r["grade"], pairs(r["seat"]),
        ), tell=not kap)  # fmt: skip
    return verdicts


#: The step buttons: label, key shortcut (their help: `_move_help`).
_MOVES = {
    "first": ("«", "Home"),
    "previous": ("‹", "Left"),
    "next": ("›", "Right"),
    "last": ("»", "End"),
}


def _move_help(name: str, w: Words) -> str:
    """What a step button says on hover."""
    if name == "first":
        return w.say("replay_first_help", "The hand's start (Home)")
    if name == "previous":
        return w.say("replay_previous_help", "One step back (←)")
    if name == "next":
        return w.say("replay_next_help", "One step on (→)")
    return w.say("replay_last_help", "The hand's end (End)")


#: The jumps to a decision, by name (the button's key: `replay_<name>`): the kinds of
#: step it goes to and its key. Toepen's knocks and folds, Troefcall's tricks and calls
#: (the keys "C" and "R" are Streamlit's own).
_TOEPEN_JUMPS = {
    "knock": (("knock",), "K"),
    "fold": (("fold",), "F"),
    "trick": (("trick",), "T"),
}
_TROEFCALL_JUMPS = {
    "trick": (("trick",), "T"),
    "call": (("trump", "kap", "baunie", "stop"), "A"),
}


def _jump_words(name: str, key: str, w: Words) -> tuple[str, str, str]:
    """A jump's label, what it says on hover, and its keys in the keys' line."""
    if name == "knock":
        return (
            w.say("replay_knock", "Knock ›"),
            w.say("replay_knock_help", "The next knock ({shortcut})", shortcut=key),
            w.say(
                "replay_knock_keys", "{shortcut} next knock (Shift+{shortcut} the previous)",
                shortcut=key,
            ),
        )  # fmt: skip
    if name == "fold":
        return (
            w.say("replay_fold", "Fold ›"),
            w.say("replay_fold_help", "The next fold ({shortcut})", shortcut=key),
            w.say(
                "replay_fold_keys", "{shortcut} next fold (Shift+{shortcut} the previous)",
                shortcut=key,
            ),
        )  # fmt: skip
    if name == "trick":
        return (
            w.say("replay_trick", "Trick ›"),
            w.say("replay_trick_help", "The next trick ({shortcut})", shortcut=key),
            w.say(
                "replay_trick_keys", "{shortcut} next trick (Shift+{shortcut} the previous)",
                shortcut=key,
            ),
        )  # fmt: skip
    return (
        w.say("replay_call", "Call ›"),
        w.say("replay_call_help", "The next call (trump, kap, baunie) ({shortcut})", shortcut=key),
        w.say(
            "replay_call_keys",
            "{shortcut} next call (trump, kap, baunie) (Shift+{shortcut} the previous)",
            shortcut=key,
        ),
    )  # fmt: skip


@st.fragment
def _stepper(
    states: list[TableState],
    players: tuple[str, ...],
    verdicts: dict[int, tuple[str, str]],
    outcome: str,
    summary: str,
    reveal_all: bool,
    viewer: int | None,
    around: dict[str, dict[str, object] | None],
    lines: list[dict[str, object]],
    w: Words,
) -> None:
    """Buttons, slider, table and move list: a click reruns only this part of the page.
    `outcome`: the hand's result, said at its last step; `summary`: the hand's verdicts
    in a line. Unless every card is shown, the moves, their marks and the summary come
    only as far as the step shown: nothing still to come is told. A verdict reads cards
    (a knock's strength, a claim's truth): the table's view (`viewer` None) judges each
    decision at its step, as the analysis does; a player's view (`viewer`) judges that
    player at each decision and the others once the hand is over, so that it tells
    nothing of their cards the player did not see."""
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
    jumped = {name: _jump_words(name, key, w) for name, (_, key) in jumps.items()}
    controls = st.container(horizontal=True, key="replay_controls", gap="small")
    for name, (label, key) in _MOVES.items():
        # A callback moves the step before the page is drawn again, so every button
        # (and whether it is enabled) is computed from the step the user now sees.
        controls.button(
            label, key=f"replay_{name}", disabled=targets[name] is None,
            help=_move_help(name, w), shortcut=key, on_click=_go_to_step, args=(targets[name],),
        )  # fmt: skip
    for name, (kinds, key) in jumps.items():
        target = _next_kind(states, step, kinds)
        label, help_text, _ = jumped[name]
        controls.button(
            label, key=f"replay_{name}", disabled=target is None, help=help_text,
            shortcut=key, on_click=_go_to_step, args=(target,),
        )  # fmt: skip
    for name, key in _ELSEWHERE.items():
        label, help_text = _elsewhere_words(name, key, w)
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
            {key: list(kinds) for kinds, key in jumps.values()},
            w,
        )
    if last:
        step = slide.slider(
            w.say("replay_step", "Step"), 0, last, key="replay_step", label_visibility="collapsed"
        )
    else:  # one step (a hand passed over on import, `hand_skipped`): nothing to slide
        step = 0
    state = states[step]
    st.query_params["step"] = str(state.seq)  # links name a move by its event number
    keys = " · ".join(said for _, _, said in jumped.values())
    left, right = st.columns([3, 2])
    told = states if reveal_all else states[: step + 1]
    judged = [
        s for s in told
        if s.seq in verdicts
        and (reveal_all or viewer is None or step == last or s.actor == viewer)
    ]  # fmt: skip
    marks = {s.step: verdicts[s.seq] for s in judged}
    # The decision panel, beside the table: the step's verdict in words, and at the end
    # the hand's result and its verdicts in a line.
    panel = (
        f'<p class="kroeg-verdict {marks[step][0]}">{html.escape(marks[step][1])}</p>'
        if step in marks
        else ""
    )
    if step == last:
        result = html.escape(w.say("replay_result", "Result:"))
        panel += f'<p class="kroeg-result"><b>{result}</b> {html.escape(outcome)}</p>'
    if summary and (reveal_all or step == last):
        said = html.escape(w.say("replay_verdicts", "Verdicts:"))
        panel += f'<p class="kroeg-summary"><b>{said}</b> {html.escape(summary)}</p>'
    # Plain HTML blocks (no Markdown to parse): a step redraws two elements. The step's
    # words above the table; the moves (the current one and its neighbours in view), then
    # the panel, beside it: on a phone, under it, all on one screen.
    now = w.say(
        "replay_now", "Step {step}/{last}:",
        step=integer(step, w.lang), last=integer(last, w.lang),
    )  # fmt: skip
    left.html(
        f'<p class="kroeg-now"><b>{html.escape(now)}</b> {html.escape(state.text)}</p>'
        + table_html(state, players, w)
    )
    help_line = w.say(
        "replay_keys",
        "Click a move to go there; on a phone, swipe the table. Keys: ← → a step · Home / "
        "End · {jumps} · N / P a hand · Shift+N / Shift+P a game.",
        jumps=keys,
    )
    right.html(
        '<p class="kroeg-moves-title"><b>'
        + html.escape(w.say("replay_moves", "Moves"))
        + "</b></p>"
        + moves_html(told, step, {i: mark for i, (mark, _) in marks.items()}, w)
        + (f'<div class="kroeg-panel">{panel}</div>' if panel else "")
        + f'<p class="kroeg-keys">{html.escape(help_line)}</p>'
    )
    # Unless every card is shown, the graph goes as far as the step shown.
    drawn = lines if reveal_all else [r for r in lines if int(r["step"]) <= step]  # type: ignore[call-overload]
    if drawn and last:  # a hand of one step (passed over on import) has no course
        with right:
            _expected_chart(drawn, step, last, w)


def _expected_chart(rows: list[dict[str, object]], step: int, last: int, w: Words) -> None:
    """Each player's expected result of the hand step by step (lives or points; 0 costs
    nothing), a rule at the step shown."""
    st.caption(
        w.say(
            "replay_expected_caption",
            "Expected result of the hand, step by step, from what each player could see "
            "(0: it costs nothing; −2: two lives or points). docs/STATS.md.",
        )
    )
    step_title = w.say("replay_chart_step", "step")
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
                            "title": step_title,
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
                        "tooltip": [
                            {"field": "player", "title": w.say("replay_chart_player", "player")},
                            {"field": "step", "title": step_title},
                            {
                                "field": "expected",
                                "title": w.say("replay_chart_expected", "expected"),
                            },
                        ],
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


def _linked_step(states: list[TableState], game_id: str, hand: int, w: Words) -> int:
    """The step a link names for this game and hand, by its event number (0 without one,
    or a bad one): a card dealt is in the deal's step."""
    params = st.query_params
    text = params.get("step")
    if text is None or params.get("game") != game_id or params.get("hand") != str(hand):
        return 0
    events = states[-1].seq
    if re.fullmatch(r"[0-9]{1,5}", text) and int(text) <= events:
        return max(s.step for s in states if s.seq <= int(text))
    st.warning(
        w.say(
            "replay_no_such_step",
            "This hand has moves 0 to {last}, not {step}: showing its start.",
            last=integer(events, w.lang),
            step=markdown_text(text),
        )
    )
    return 0


def _go_to_step(target: int | None) -> None:
    if target is not None:
        st.session_state["replay_step"] = target


def _next_kind(states: list[TableState], step: int, kinds: tuple[str, ...]) -> int | None:
    return next((s.step for s in states if s.step > step and s.kind in kinds), None)


replay()
