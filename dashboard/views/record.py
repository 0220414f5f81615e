"""The Record page: a game entered at the table, on a phone, without typing.

Every tap is a call on `recorder.manual.ManualGame` (the engine referees it, as for
`kroeg record`); what it did is written as `kroeg record` writes it. Players are
buttons, cards a tap-to-pick grid of the cards still possible; anything rarer (a
laundry, a check, the face-up Troefcall deal) can still be typed as a command.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import streamlit as st

from kroeg.analytics.derived import analysed
from kroeg.analytics.engines import bring_up_to_date
from kroeg.dashboard.access import READ_ONLY_VAR
from kroeg.dashboard.data import forget_signature
from kroeg.dashboard.evenings import names
from kroeg.dashboard.filters import current_path
from kroeg.dashboard.table import PAGE_TOP
from kroeg.parsers.commands import Session
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import KroegError
from kroeg.recorder.manual import SKIP, ManualGame, Prompt
from kroeg.recorder.rules import VARIANTS, Ruleset
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text as md

#: The ranks in the order printed on the cards, two to ace (each game's own order of
#: strength is the engine's business; a person finds a card faster in this one).
RANKS = tuple(reversed(Rank))

#: The log's lines kept on the page (the journal keeps everything).
LOG_SHOWN = 40

#: The log's box: about five lines (it is under the prompt, where a player looks after a
#: tap, so it must stay short).
LOG_HEIGHT = 140

#: Scrolls the page to its top (a fixed script: nothing of the game's text goes in it).
TO_THE_TOP = """<script data-step="%d">
document.querySelector('[data-testid="stMain"]')?.scrollTo({top: 0});
</script>"""

#: The page's own look: card targets a finger can hit (44 px, as phones' guidelines ask),
#: one suit to a line (its symbol, then its ranks; on a phone the ranks take two lines
#: beside the symbol). Sent with `PAGE_TOP` (less room above the prompt, so the cards
#: start higher: the Replay page's rule).
CSS = """<style>
.st-key-record_grid [class*="st-key-record_suit_"] {
  display: grid; grid-template-columns: 1.5rem repeat(%(ranks)d, minmax(44px, 1fr));
  gap: 0.25rem; align-items: center;
}
.st-key-record_grid [class*="st-key-record_suit_"] > div { width: auto !important; min-width: 0; }
.st-key-record_grid button { min-height: 44px; min-width: 44px; width: 100%%; padding: 0 0.25rem; }
.st-key-record_grid .kroeg-suit { font-size: 1.4rem; text-align: center; }
.st-key-record_grid .kroeg-suit.red { color: #c62828; }
@media (max-width: 640px) {
  .st-key-record_grid [class*="st-key-record_suit_"] {
    grid-template-columns: 1.5rem repeat(%(half)d, minmax(44px, 1fr));
  }
  .st-key-record_grid [class*="st-key-record_suit_"] > div:first-child { grid-row: span 2; }
}
</style>"""


def _writable() -> bool:
    """The Record page writes to the dataset: never when served read-only."""
    if os.environ.get(READ_ONLY_VAR):
        st.error("This dashboard is read-only (served beyond this machine without a token).")
        return False
    return True


def record() -> None:
    """Entry at the table: the prompt, the log (newest first), the taps it takes."""
    manual: ManualGame | None = st.session_state.get("record_manual")
    if manual is None:
        st.title("Record")
        stored = st.session_state.pop("record_stored", None)
        if stored:
            st.success(stored)
        _start_form()
        return
    # A game is on: the prompt heads the page (a title would push the cards down a phone).
    ranks = len(manual.game.deck) // len(Suit)
    st.html(PAGE_TOP + CSS % {"ranks": ranks, "half": -(-ranks // 2)})
    # Each new moment of the game opens at the top, where its prompt and the log's newest
    # line are: the page keeps its scroll between taps, and the last tap may have been far
    # down (a spade of the deal, a knock). Runs once per moment: its markup names the step.
    st.html(TO_THE_TOP % len(manual.game.log), unsafe_allow_javascript=True)
    prompt = manual.prompt()
    st.subheader(md(prompt.text))
    scores = ", ".join(f"{name} {score}" for name, score in manual.scores())
    st.caption(f"scores: {md(scores)}")
    _log()
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


def _card_grid(
    cards: Sequence[Card], key: str, tap: Callable[[Card], None], label: str = ""
) -> None:
    """The cards as buttons, one line per suit (its symbol, then its ranks low to high, as
    a person sorts a hand): a card is one tap."""
    if label:
        st.caption(label)
    grid = st.container(key="record_grid")
    for suit in Suit:
        row = sorted((c for c in cards if c.suit is suit), key=lambda c: RANKS.index(c.rank))
        if not row:
            continue
        line = grid.container(horizontal=True, gap=None, key=f"record_suit_{suit.name}")
        red = " red" if suit.is_red else ""
        line.html(f'<div class="kroeg-suit{red}" title="{suit.name.lower()}">{suit.symbol}</div>')
        for card in row:
            line.button(
                card.pretty.removesuffix(suit.symbol), key=f"record_card_{key}_{card.code}",
                on_click=tap, args=(card,),
            )  # fmt: skip


def _card_pick(
    manual: ManualGame,
    label: str,
    step: int,
    action: Callable[[Card], tuple[str, Callable[[], object]]],
    seat: int | None = None,
) -> None:
    """One tap on a card does it."""
    _card_grid(_possible(manual, seat), str(step), lambda card: _do(*action(card)), label)


def _deal_entry(manual: ManualGame, prompt: Prompt, step: int) -> None:
    """The deal, a hand at a time from one grid: each tap gives the card to the hand being
    filled, which passes to the next hand once it holds its count; the deal goes to the
    engine when every hand is full (the last one filled by itself when it can only take
    the cards left). Hands not entered stay unknown ("Deal these cards")."""
    names = manual.players
    entry = _entry(step)
    hands = _hands(manual, prompt, entry)
    wanted = _wanted(manual, prompt)
    filling = _filling(manual, prompt, entry)
    taken = {c for cards in hands.values() for c in cards}
    cards = [c for c in _possible(manual) if c not in taken]
    _card_grid(cards, f"deal_{step}", lambda card: _deal_tap(step, card))
    # Whose hand the taps fill, under the cards: in view while the thumb is on them.
    row = st.container(horizontal=True, gap="small")
    for seat in prompt.seats:
        row.button(
            f"{md(names[seat])} {len(hands[seat])}/{wanted[seat]}", key=f"record_seat_{seat}",
            type="primary" if seat == filling else "secondary",
            on_click=_choose_seat, args=(step, seat),
        )  # fmt: skip
    shown = [f"{md(names[s])}: {' '.join(c.pretty for c in cards)}" for s, cards in hands.items()
             if cards]  # fmt: skip
    if shown:
        st.markdown(" · ".join(shown))
    left, middle, right = st.columns(3)
    left.button(
        "Deal these cards", key="record_deal", width="stretch", disabled=not taken,
        on_click=_deal_now, args=(step,),
    )  # fmt: skip
    middle.button(
        "Take back a card", key="record_take_back", width="stretch", disabled=not taken,
        on_click=_take_back, args=(step,),
    )  # fmt: skip
    right.button(
        SKIP.capitalize(), key="record_skip", width="stretch",
        on_click=_do, args=(SKIP, lambda: manual.deal({})),
    )  # fmt: skip


def _entry(step: int) -> dict[str, object]:
    """The deal being entered at this moment of the game: the cards tapped, in order, each
    with its seat, and the hand chosen to fill (None: the next one not full)."""
    entry: dict[str, object] = st.session_state.setdefault(
        f"record_deal_{step}", {"picks": [], "seat": None}
    )
    return entry


def _picks(entry: dict[str, object]) -> list[tuple[int, Card]]:
    picks = entry["picks"]
    assert isinstance(picks, list)
    return picks


def _wanted(manual: ManualGame, prompt: Prompt) -> dict[int, int]:
    """How many cards each seat the engine waits for gets now."""
    queue = list(manual.game.deal_queue)
    return {seat: queue.count(seat) for seat in prompt.seats}


def _hands(manual: ManualGame, prompt: Prompt, entry: dict[str, object]) -> dict[int, list[Card]]:
    hands: dict[int, list[Card]] = {seat: [] for seat in prompt.seats}
    for seat, card in _picks(entry):
        hands[seat].append(card)
    return hands


def _filling(manual: ManualGame, prompt: Prompt, entry: dict[str, object]) -> int | None:
    """The hand the next tap goes to: the one chosen while it has room, else the first
    (in the order of the deal) that is not full."""
    hands, wanted = _hands(manual, prompt, entry), _wanted(manual, prompt)
    chosen = entry["seat"]
    if isinstance(chosen, int) and len(hands[chosen]) < wanted[chosen]:
        return chosen
    return next((s for s in prompt.seats if len(hands[s]) < wanted[s]), None)


def _choose_seat(step: int, seat: int) -> None:
    _entry(step)["seat"] = seat


def _take_back(step: int) -> None:
    entry = _entry(step)
    picks = _picks(entry)
    if picks:
        entry["seat"] = picks.pop()[0]


def _deal_tap(step: int, card: Card) -> None:
    """A card for the hand being filled; the deal goes once every hand is full."""
    manual: ManualGame = st.session_state["record_manual"]
    prompt = manual.prompt()
    entry = _entry(step)
    seat = _filling(manual, prompt, entry)
    if seat is None:
        return
    _picks(entry).append((seat, card))
    hands, wanted = _hands(manual, prompt, entry), _wanted(manual, prompt)
    short = [s for s in prompt.seats if len(hands[s]) < wanted[s]]
    taken = {c for cards in hands.values() for c in cards}
    left = [c for c in _possible(manual) if c not in taken]
    if len(short) == 1 and len(left) == wanted[short[0]] - len(hands[short[0]]):
        # The deal takes every card still possible: the last hand is what is left.
        _picks(entry).extend((short[0], c) for c in left)
        short = []
    if not short:
        _deal_now(step)


def _deal_now(step: int) -> None:
    """The cards entered so far go to the engine; the hands not entered stay unknown."""
    manual: ManualGame = st.session_state["record_manual"]
    names = manual.players
    hands = {s: cards for s, cards in _hands(manual, manual.prompt(), _entry(step)).items()
             if cards}  # fmt: skip
    said = "the cards: " + "; ".join(
        f"{names[s]} {' '.join(c.pretty for c in cards)}" for s, cards in hands.items()
    )
    _do(said, lambda: manual.deal(dict(hands)))


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
    """What was done, in `kroeg record`'s words, in a short box under the prompt, newest
    first: each tap's answer on top, where the player looks after the tap, with no scroll
    to make (the box scrolls down to older moves). A move keeps its lines in time order."""
    entries = _entries(st.session_state.get("record_log", [])[-LOG_SHOWN:])
    if entries:
        box = st.container(height=LOG_HEIGHT, key="record_log")
        newest_first = [line for entry in reversed(entries) for line in entry]
        box.code("\n".join(newest_first), language=None, wrap_lines=True)


def _entries(lines: list[str]) -> list[list[str]]:
    """The log's lines by move: a line typed or tapped (`> …`) and what the engine did."""
    entries: list[list[str]] = []
    for line in lines:
        if line.startswith("> ") or not entries:
            entries.append([])
        entries[-1].append(line)
    return entries


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
    # The move is made: a deal being entered is done with (an undo that comes back to
    # the same moment starts its deal afresh, not with the cards of before).
    for key in [k for k in st.session_state if str(k).startswith("record_deal_")]:
        if key != "record_deal_expected":
            del st.session_state[key]
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


def _name(game_id: str | None) -> str:
    """The game just stored as people call it (`20 Nov, game 2, 20:30 — Anna, Ben, Carla,
    Dan`: analytics.evenings.game_names), in Markdown; never its id."""
    named = names(current_path(), [game_id]).get(game_id) if game_id is not None else None
    return md(str(named)) if named is not None else "the game"


def _stored(manual: ManualGame) -> None:
    forget_signature(current_path())  # the next page shows the game at once
    said = _analyse() if manual.landed is not None else ""
    forget_signature(current_path())  # and its verdicts
    st.session_state["record_stored"] = f"Stored: {_name(manual.landed)}.{said}"
    st.session_state["record_manual"] = None
    st.session_state["record_log"] = []


if _writable():
    record()
