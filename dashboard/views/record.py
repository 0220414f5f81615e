"""The Record page: a game entered at the table, on a phone, without typing.

Every tap is a call on `recorder.manual.ManualGame` (the engine referees it, as for
`kroeg record`); what it did is written as `kroeg record` writes it. Players are
buttons, cards a tap-to-pick grid of the cards still possible; anything rarer (a
laundry, a check, the face-up Troefcall deal) can still be typed as a command.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime

import streamlit as st

from kroeg.analytics.derived import analysed
from kroeg.analytics.engines import bring_up_to_date
from kroeg.dashboard.access import READ_ONLY_VAR
from kroeg.dashboard.data import forget_signature
from kroeg.dashboard.filters import current_path
from kroeg.parsers.commands import Session
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.errors import KroegError
from kroeg.recorder.manual import ManualGame, Prompt
from kroeg.recorder.rules import VARIANTS, Ruleset
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text as md

#: The log's lines kept on the page (the journal keeps everything).
LOG_SHOWN = 40


def _writable() -> bool:
    """The Record page writes to the dataset: never when served read-only."""
    if os.environ.get(READ_ONLY_VAR):
        st.error("This dashboard is read-only (served beyond this machine without a token).")
        return False
    return True


def record() -> None:
    """Entry at the table: the prompt, the taps it takes, the log in time order."""
    st.title("Record")
    manual: ManualGame | None = st.session_state.get("record_manual")
    if manual is None:
        stored = st.session_state.pop("record_stored", None)
        if stored:
            st.success(stored)
        _start_form()
        return
    prompt = manual.prompt()
    st.subheader(md(prompt.text))
    scores = ", ".join(f"{name} {score}" for name, score in manual.scores())
    st.caption(f"scores: {md(scores)}")
    if manual.game.trick_plays:
        cards = " ".join(f"{manual.players[s]} {c.pretty}" for s, c in manual.game.trick_plays)
        st.markdown(f"on the table: {md(cards)}")
    refused = st.session_state.pop("record_refused", None)
    if refused:
        st.error(md(refused))
    _taps(manual, prompt)
    with st.expander("Type a command instead (laundry, checks, the Troefcall jacks, …)"):
        st.text_input(
            "Command ('help' lists them)", key="record_command", on_change=_record_command
        )
    _store(manual)
    _log()


def _taps(manual: ManualGame, prompt: Prompt) -> None:
    """The buttons and card grids for what the table is waiting for."""
    names = manual.players
    game = manual.game
    step = len(game.log)  # fresh widgets for every new moment of the game
    if prompt.kind == "start":
        if prompt.seats:
            dealer = prompt.seats[0]
            st.button(
                f"{md(names[dealer])} deals", key="record_deal_expected", type="primary",
                on_click=_do, args=(f"{names[dealer]} deals", lambda: manual.start_hand(None)),
            )  # fmt: skip
        _player_buttons(
            manual, "Another dealer:" if prompt.seats else "Who deals?",
            lambda seat: (f"{names[seat]} deals", lambda: manual.start_hand(seat)),
        )  # fmt: skip
    elif prompt.kind == "cut":
        seat = prompt.seats[0]
        _card_pick(manual, f"{md(names[seat])} cuts", step,
                   lambda card: (f"{names[seat]} cuts {card.pretty}",
                                 lambda: manual.cut(seat, card)))  # fmt: skip
    elif prompt.kind == "cards":
        _deal_entry(manual, prompt, step)
    elif prompt.kind == "trump":
        seat = prompt.seats[0]
        columns = st.columns(4)
        for column, suit in zip(columns, Suit, strict=False):
            column.button(
                f"{suit.symbol} {suit.name.lower()}", key=f"record_trump_{suit.name}",
                width="stretch", on_click=_do,
                args=(f"{names[seat]} calls {suit.name.lower()}",
                      lambda s=suit: manual.call_trump(seat, s)),
            )  # fmt: skip
    elif prompt.kind == "answer":
        for seat in prompt.seats[:1]:  # the next to answer
            left, right = st.columns(2)
            left.button(f"{md(names[seat])} stays", key="record_stay", width="stretch",
                        on_click=_do, args=(f"{names[seat]} stays",
                                            lambda s=seat: manual.stay(s)))  # fmt: skip
            right.button(f"{md(names[seat])} folds", key="record_fold", width="stretch",
                         on_click=_do, args=(f"{names[seat]} folds",
                                             lambda s=seat: manual.fold(s)))  # fmt: skip
    elif prompt.kind in ("play", "announce"):
        mover = game.to_move
        if prompt.kind == "announce":
            for seat in prompt.seats[:1]:
                announce = st.columns(3)
                calls = (("kap", manual.kap), ("baunie", manual.baunie), ("stop", manual.stop))
                for column, (label, action) in zip(announce, calls, strict=True):
                    column.button(
                        f"{md(names[seat])}: {label}", key=f"record_{label}", width="stretch",
                        on_click=_do, args=(f"{names[seat]} {label}",
                                            lambda a=action, s=seat: a(s)),
                    )  # fmt: skip
        if mover is not None:
            _card_pick(manual, f"{md(names[mover])} plays", step,
                       lambda card: (f"{names[mover]} plays {card.pretty}",
                                     lambda: manual.play(mover, card)),
                       seat=mover)  # fmt: skip
        if manual.rules.game != "troefcall":
            _player_buttons(
                manual, "Knock:",
                lambda seat: (f"{names[seat]} knocks", lambda: manual.knock(seat)),
                only=[s for s in range(len(names)) if game.in_hand(s)],
            )  # fmt: skip
    if prompt.kind != "over":
        st.button("Undo the last move", key="record_undo", on_click=_do,
                  args=("undo", manual.undo))  # fmt: skip


def _player_buttons(
    manual: ManualGame,
    label: str,
    action: Callable[[int], tuple[str, Callable[[], object]]],
    only: list[int] | None = None,
) -> None:
    """A row of buttons, one per player (wrapping on a phone)."""
    st.caption(label)
    row = st.container(horizontal=True, gap="small")
    for seat, name in enumerate(manual.players):
        if only is not None and seat not in only:
            continue
        said, call = action(seat)
        # A label is Markdown: a name is shown as typed, never as a link or an image.
        row.button(md(name), key=f"record_p_{label}_{seat}", on_click=_do, args=(said, call))


def _possible(manual: ManualGame, seat: int | None = None) -> list[Card]:
    """The cards still possible: a known hand's legal cards (the engine says which), or
    every card of the deck not yet seen."""
    game = manual.game
    if seat is not None and game.hands[seat] and None not in game.hands[seat]:
        return list(game.legal_cards(seat))
    return [c for c in game.deck if c not in game.seen]


def _card_pick(
    manual: ManualGame,
    label: str,
    step: int,
    action: Callable[[Card], tuple[str, Callable[[], object]]],
    seat: int | None = None,
) -> None:
    """One tap on a card does it."""
    cards = {c.code: c for c in _possible(manual, seat)}
    key = f"record_pick_{step}"

    def picked() -> None:
        code = st.session_state.get(key)
        if code:
            _do(*action(cards[code]))

    st.pills(label, list(cards), format_func=lambda code: cards[code].pretty, key=key,
             on_change=picked)  # fmt: skip


def _deal_entry(manual: ManualGame, prompt: Prompt, step: int) -> None:
    """Each player's cards picked from the grid, or the deal left unknown."""
    names = manual.players
    game = manual.game
    wanted = {s: list(game.deal_queue).count(s) for s in prompt.seats}
    chosen: dict[int, list[Card]] = {}
    taken: set[str] = set()
    deck = {c.code: c for c in _possible(manual)}
    for seat in prompt.seats:
        key = f"record_cards_{step}_{seat}"
        already = st.session_state.get(key) or []
        options = [code for code in deck if code not in taken or code in already]
        picked = st.pills(
            f"{md(names[seat])}'s cards ({wanted[seat]}, or none if unknown)", options,
            selection_mode="multi", format_func=lambda code: deck[code].pretty, key=key,
        )  # fmt: skip
        taken.update(picked)
        if picked:
            chosen[seat] = [deck[code] for code in picked]
    left, right = st.columns(2)
    left.button(
        "Deal these cards", key="record_deal", type="primary", width="stretch",
        disabled=not chosen, on_click=_do,
        args=("the cards: " + "; ".join(
            f"{names[s]} {' '.join(c.pretty for c in cards)}" for s, cards in chosen.items()
        ), lambda: manual.deal(dict(chosen))),
    )  # fmt: skip
    right.button(
        "Cards unknown", key="record_skip", width="stretch",
        on_click=_do, args=("cards unknown", lambda: manual.deal({})),
    )  # fmt: skip


def _store(manual: ManualGame) -> None:
    """Store the game, after saying what will be stored."""
    hands = manual.game.hand_no
    if not st.session_state.get("record_confirm"):
        if st.button(
            "Store the game…", key="record_store", type="primary" if manual.over else "secondary"
        ):
            st.session_state["record_confirm"] = True
            st.rerun()
        return
    st.warning(
        f"Store this game ({hands} hand{'s' if hands != 1 else ''}) in the dataset? "
        "Recording ends here."
    )
    yes, no = st.columns(2)
    if yes.button("Yes, store it", key="record_store_yes", type="primary", width="stretch"):
        st.session_state["record_confirm"] = False
        _do("store", lambda: None, store=True)
        st.rerun()
    if no.button("Not yet", key="record_store_no", width="stretch"):
        st.session_state["record_confirm"] = False
        st.rerun()


def _log() -> None:
    """What was done, in time order, the latest last."""
    lines = st.session_state.get("record_log", [])
    if lines:
        st.caption("What was entered")
        st.code("\n".join(lines[-LOG_SHOWN:]), language=None)


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
    # The journal keeps every move until the game is stored; its place is ours, not the
    # players' business.
    journal = path / "journal" / f"record-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}.jsonl"
    try:
        st.session_state["record_manual"] = ManualGame.start(
            names, Ruleset.resolve(rules, variants), journal, dataset=path,
            venue=venue or None,
        )  # fmt: skip
    except KroegError as exc:
        st.error(md(str(exc)))
        return
    st.session_state["record_log"] = [f"game started: {', '.join(names)} ({rules})"]
    st.rerun()


def _record_command() -> None:
    command = st.session_state.get("record_command", "")
    st.session_state["record_command"] = ""
    if not command.strip():
        return
    manual = st.session_state["record_manual"]
    log = st.session_state.setdefault("record_log", [])
    try:
        outcome = Session(manual).run(command)
    except KroegError as exc:
        st.session_state["record_refused"] = f"Refused: {command} — {exc}"
        return
    log.append(f"> {command}")
    log.extend(outcome.lines)
    if outcome.stop == "quit":
        _stored(manual)


def _do(said: str, action: Callable[[], object], store: bool = False) -> None:
    """One tap: the engine's call, and what it did written to the log; a refusal is kept
    to be shown as an error, in the engine's words."""
    manual: ManualGame = st.session_state["record_manual"]
    log = st.session_state.setdefault("record_log", [])
    session = Session(manual)
    before = len(manual.game.log)
    try:
        action()
        if store:
            manual.land()
    except KroegError as exc:
        st.session_state["record_refused"] = f"Refused: {said} — {exc}"
        return
    if store:
        _stored(manual)
        return
    log.append(f"> {said}")
    log.extend(session.after(before) if said != "undo" else ["took back the last move"])
    if manual.over and manual.landed is None:
        log.append("the game is over: store it")


#: At most this many games not analysed yet are analysed when a game lands here; more (a
#: dataset never analysed) are left to `kroeg analyse`.
ANALYSED_AT_LANDING = 20


def _analyse() -> str:
    """Analyse the game just landed (its verdicts on the Replay page), as `kroeg analyse`
    would: a few words on what was done."""
    dataset = Dataset(current_path())
    todo = len(dataset.game_ids() - analysed(dataset))
    if todo > ANALYSED_AT_LANDING:
        return f" {todo} games are not analysed yet: `kroeg analyse` gives them verdicts."
    try:
        bring_up_to_date(dataset)
    except KroegError as exc:
        return f" Not analysed ({exc}): `kroeg analyse` gives it its verdicts."
    return " Analysed: its knocks and folds have their verdicts."


def _stored(manual: ManualGame) -> None:
    forget_signature(current_path())  # the next page shows the game at once
    said = _analyse() if manual.landed is not None else ""
    forget_signature(current_path())  # and its verdicts
    st.session_state["record_stored"] = f"Stored as game {manual.landed}.{said}"
    st.session_state["record_manual"] = None
    st.session_state["record_log"] = []


if _writable():
    record()
