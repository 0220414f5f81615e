"""The Record page: a game entered at the table, phone-sized."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import streamlit as st

from dashboard.access import READ_ONLY_VAR
from dashboard.filters import current_path
from parsers.commands import Session
from recorder.errors import KroegError
from recorder.manual import ManualGame
from recorder.rules import VARIANTS, Ruleset
from recorder.text import markdown_text as md


def _writable() -> bool:
    """The Record page writes to the dataset: never when served read-only."""
    if os.environ.get(READ_ONLY_VAR):
        st.error("This dashboard is read-only (served beyond this machine without a token).")
        return False
    return True


def record() -> None:
    """Entry at the table, through the same API and commands as `kroeg record`."""
    st.title("Record")
    manual = st.session_state.get("record_manual")
    if manual is None:
        _start_form()
        return
    prompt = manual.prompt()
    st.subheader(md(prompt.text))
    scores = ", ".join(f"{name} {score}" for name, score in manual.scores())
    st.caption(f"scores: {md(scores)}")
    if manual.game.trick_plays:
        cards = " ".join(f"{manual.players[s]} {c.pretty}" for s, c in manual.game.trick_plays)
        st.markdown(f"on the table: {md(cards)}")
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
                      width="stretch")  # fmt: skip
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
        started = st.form_submit_button("Start the game", width="stretch")
    if not started:
        return
    names = [n.strip() for n in players.split(",") if n.strip()]
    path = current_path()
    journal = path / "journal" / f"record-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}.jsonl"
    try:
        st.session_state["record_manual"] = ManualGame.start(
            names, Ruleset.resolve(rules, variants), journal, dataset=path,
            venue=venue or None,
        )  # fmt: skip
    except KroegError as exc:
        st.error(md(str(exc)))
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


if _writable():
    record()
