"""The Record page: a game entered at the table, on a phone, without typing.

Every tap is a call on `recorder.manual.ManualGame` (the engine referees it, as for
`kroeg record`); what it did is written as `kroeg record` writes it. Players are
buttons, cards a tap-to-pick grid of the cards still possible; anything rarer (a
laundry, a check, the face-up Troefcall deal) can still be typed as a command.

The page speaks the sidebar's language: the prompt is said from the `Prompt`'s parts
(its `text` is `kroeg record`'s English), each tap in the log and a refusal in the
page's words; what the engine did and why it refused a move are the engine's (English).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import streamlit as st

from kroeg.analytics import formats
from kroeg.analytics.derived import analysed
from kroeg.analytics.engines import bring_up_to_date
from kroeg.analytics.words import Words
from kroeg.dashboard.access import READ_ONLY_VAR
from kroeg.dashboard.data import forget_signature
from kroeg.dashboard.evenings import names
from kroeg.dashboard.filters import current_path
from kroeg.dashboard.table import PAGE_TOP
from kroeg.dashboard.words import page_words
from kroeg.parsers.commands import Session
from kroeg.parsers.render import suit_name
from kroeg.recorder.cards import Card, Rank, Suit
from kroeg.recorder.errors import KroegError
from kroeg.recorder.manual import ManualGame, Prompt
from kroeg.recorder.rules import VARIANTS, Ruleset
from kroeg.recorder.store import Dataset
from kroeg.recorder.text import markdown_text as md

#: The ranks in the order printed on the cards, two to ace (each game's own order of
#: strength is the engine's business; a person finds a card faster in this one).
RANKS = tuple(reversed(Rank))

#: The log's lines kept on the page (the journal keeps everything).
LOG_SHOWN = 40

#: A line of the log: what the engine did (its words), or what the page did, said when
#: shown (in the language of the moment, so a language chosen mid-game says it too).
Line = str | Callable[[Words], str]
#: A tap, said in a language: `Anna deals`, `Ben knocks`.
Said = Callable[[Words], str]

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
        st.error(
            page_words().say(
                "record_read_only",
                "This dashboard is read-only (served beyond this machine without a token).",
            )
        )
        return False
    return True


def _integer(w: Words, n: int) -> str:
    """A whole number in a sentence, as the language writes it."""
    return formats.integer(n, w.lang)


def _skip(w: Words) -> str:
    """The word that leaves a deal's cards unknown: in English `kroeg record`'s own
    (recorder.manual.SKIP), which the prompt offers and the button says."""
    return w.say("record_skip", "skip")


def _variant_names(w: Words) -> dict[str, str]:
    """Every variant of VARIANTS in words, by its code (in English the code itself, as a
    rules file, `kroeg record --variant` and a rule set's label write it)."""
    return {
        "limit-15": w.say("record_variant_limit_15", "limit-15"),
        "lives-15": w.say("record_variant_lives_15", "lives-15"),
        "dirty-laundry": w.say("record_variant_dirty_laundry", "dirty-laundry"),
        "face-up": w.say("record_variant_face_up", "face-up"),
        "poverty": w.say("record_variant_poverty", "poverty"),
        "whistling": w.say("record_variant_whistling", "whistling"),
        "whistling-malay": w.say("record_variant_whistling_malay", "whistling-malay"),
        "whistle-or-stand": w.say("record_variant_whistle_or_stand", "whistle-or-stand"),
        "whistle-or-stand-jacks": w.say(
            "record_variant_whistle_or_stand_jacks", "whistle-or-stand-jacks"
        ),
        "play-to-end": w.say("record_variant_play_to_end", "play-to-end"),
        "mandatory-discard": w.say("record_variant_mandatory_discard", "mandatory-discard"),
        "fast-fold": w.say("record_variant_fast_fold", "fast-fold"),
        "no-armoede": w.say("record_variant_no_armoede", "no-armoede"),
        "first-speaker-waits": w.say("record_variant_first_speaker_waits", "first-speaker-waits"),
        "gezinstoepen": w.say("record_variant_gezinstoepen", "gezinstoepen"),
        "kroegtoepen": w.say("record_variant_kroegtoepen", "kroegtoepen"),
        "no-knock": w.say("record_variant_no_knock", "no-knock"),
        "team-toepen": w.say("record_variant_team_toepen", "team-toepen"),
        "knock-on-turn": w.say("record_variant_knock_on_turn", "knock-on-turn"),
        "laundry-before-knock": w.say(
            "record_variant_laundry_before_knock", "laundry-before-knock"
        ),
        "false-swap-undone": w.say("record_variant_false_swap_undone", "false-swap-undone"),
        "folded-card-leaves": w.say("record_variant_folded_card_leaves", "folded-card-leaves"),
        "check-out-at-once": w.say("record_variant_check_out_at_once", "check-out-at-once"),
        "cut-for-dealer": w.say("record_variant_cut_for_dealer", "cut-for-dealer"),
        "check-before-swap": w.say("record_variant_check_before_swap", "check-before-swap"),
        "target-15": w.say("record_variant_target_15", "target-15"),
        "target-20": w.say("record_variant_target_20", "target-20"),
        "target-50": w.say("record_variant_target_50", "target-50"),
        "free-trump-call": w.say("record_variant_free_trump_call", "free-trump-call"),
        "silent-kap": w.say("record_variant_silent_kap", "silent-kap"),
        "no-baunie": w.say("record_variant_no_baunie", "no-baunie"),
    }


def prompt_words(w: Words, manual: ManualGame, prompt: Prompt) -> str:
    """What the table is waiting for, in the page's language, from the prompt's parts (its
    `text` is `kroeg record`'s English): Markdown, the names escaped."""
    names = [md(name) for name in manual.players]
    kind, seats = prompt.kind, prompt.seats
    hand = _integer(w, prompt.hand)
    trump = (
        ""
        if prompt.trump is None
        else w.say("record_prompt_trump", ", trump {suit}", suit=prompt.trump.symbol)
    )
    if kind == "over":
        return w.say("record_prompt_over", "the game is over")
    if kind == "cut":
        return w.say("record_prompt_cut", "{player} cuts a card", player=names[seats[0]])
    if kind == "start" and not seats:
        if manual.rules.game == "troefcall":
            return w.say(
                "record_prompt_face_up",
                "hand {hand}: name the dealer, or the face-up deal 'jacks: Anna 5h, Ben Jd'",
                hand=hand,
            )
        return w.say("record_prompt_name_dealer", "hand {hand}: name the dealer", hand=hand)
    if kind == "start" and prompt.caller is not None:
        return w.say(
            "record_prompt_deals_calls", "hand {hand}: {dealer} deals, {caller} calls",
            hand=hand, dealer=names[seats[0]], caller=names[prompt.caller],
        )  # fmt: skip
    if kind == "start":
        return w.say(
            "record_prompt_deals", "hand {hand}: {dealer} deals", hand=hand, dealer=names[seats[0]]
        )
    if kind == "cards":
        players, skip = ", ".join(names[s] for s in seats), _skip(w)
        if prompt.first_five:
            return w.say(
                "record_prompt_cards_five", "cards for {players} (the caller's first five) "
                "(or {skip})", players=players, skip=skip,
            )  # fmt: skip
        if prompt.check is not None:
            return w.say(
                "record_prompt_cards_check",
                "cards for {players} (or {skip}), or a check of {player}'s laundry first",
                players=players, skip=skip, player=names[prompt.check],
            )  # fmt: skip
        return w.say(
            "record_prompt_cards", "cards for {players} (or {skip})", players=players, skip=skip
        )
    if kind == "answer":
        return w.say(
            "record_prompt_answer", "{players}: stay or fold (stake {stake})",
            players=w.say("record_or", " or ").join(names[s] for s in seats),
            stake=_integer(w, prompt.stake),
        )  # fmt: skip
    if kind == "trump":
        return w.say("record_prompt_calls_trump", "{player} calls trump", player=names[seats[0]])
    if kind == "announce" and "kap" in prompt.calls:
        low, high = sorted(seats)
        side = f"{names[low]} & {names[high]}"
        return w.say(
            "record_prompt_kap",
            "{side} took the first {tricks}{trump}: kap, baunie, stop, or {player} leads",
            side=side, tricks=_integer(w, manual.rules.kap_tricks), trump=trump,
            player=names[seats[0]],
        )  # fmt: skip
    if kind == "announce":
        return w.say(
            "record_prompt_after_kap", "stop, or {player} leads{trump}",
            player=names[seats[0]], trump=trump,
        )  # fmt: skip
    if kind == "play" and prompt.check is not None:
        return w.say(
            "record_prompt_armoede", "check {player}'s armoede, or {dealer} redeals",
            player=names[prompt.check], dealer=names[seats[0]],
        )  # fmt: skip
    if kind == "play":
        trick, player = _integer(w, prompt.trick), names[seats[0]]
        if manual.rules.game == "troefcall" and prompt.leads:
            return w.say(
                "record_prompt_leads_trump", "hand {hand}, trick {trick}: {player} leads{trump}",
                hand=hand, trick=trick, player=player, trump=trump,
            )  # fmt: skip
        if manual.rules.game == "troefcall":
            return w.say(
                "record_prompt_plays_trump", "hand {hand}, trick {trick}: {player} plays{trump}",
                hand=hand, trick=trick, player=player, trump=trump,
            )  # fmt: skip
        stake = _integer(w, prompt.stake)
        if prompt.leads:
            return w.say(
                "record_prompt_leads", "hand {hand}, trick {trick}: {player} leads (stake {stake})",
                hand=hand, trick=trick, player=player, stake=stake,
            )  # fmt: skip
        return w.say(
            "record_prompt_plays", "hand {hand}, trick {trick}: {player} plays (stake {stake})",
            hand=hand, trick=trick, player=player, stake=stake,
        )  # fmt: skip
    return md(prompt.text)  # a moment this page has no words for yet: `kroeg record`'s


def record() -> None:
    """Entry at the table: the prompt, the log (newest first), the taps it takes."""
    w = page_words()
    manual: ManualGame | None = st.session_state.get("record_manual")
    if manual is None:
        st.title(w.say("record_title", "Record"))
        stored = st.session_state.pop("record_stored", None)
        if stored:
            st.success(stored)
        _start_form(w)
        return
    # A game is on: the prompt heads the page (a title would push the cards down a phone).
    ranks = len(manual.game.deck) // len(Suit)
    st.html(PAGE_TOP + CSS % {"ranks": ranks, "half": -(-ranks // 2)})
    # Each new moment of the game opens at the top, where its prompt and the log's newest
    # line are: the page keeps its scroll between taps, and the last tap may have been far
    # down (a spade of the deal, a knock). Runs once per moment: its markup names the step.
    st.html(TO_THE_TOP % len(manual.game.log), unsafe_allow_javascript=True)
    prompt = manual.prompt()
    st.subheader(prompt_words(w, manual, prompt))
    session = Session(manual, w)
    st.caption(md(session.score_line()))  # the engine's scores, said as kroeg record says them
    _log(w)
    if manual.game.trick_plays:
        cards = " ".join(f"{md(manual.players[s])} {c.pretty}" for s, c in manual.game.trick_plays)
        st.markdown(w.say("record_on_the_table", "on the table: {cards}", cards=cards))
    refused = st.session_state.pop("record_refused", None)
    if refused:
        st.error(md(refused))
    _taps(w, manual, prompt)
    with st.expander(
        w.say("record_type_command", "Type a command instead (laundry, checks, the Troefcall "
              "jacks, …)"),
        key="record_typed",
    ):  # fmt: skip
        st.text_input(
            w.say("record_command", "Command ('help' lists them)"), key="record_command",
            on_change=_record_command,
        )  # fmt: skip
    _store(w, manual)


def _taps(w: Words, manual: ManualGame, prompt: Prompt) -> None:
    """The buttons and card grids for what the table is waiting for. A tap's words (its
    `Said`, for the log and a refusal) take the names as typed; a label, Markdown, escaped."""
    names = manual.players
    game = manual.game
    step = len(game.log)  # fresh widgets for every new moment of the game

    def deals(seat: int) -> Said:
        return lambda w: w.say("record_deals", "{player} deals", player=names[seat])

    if prompt.kind == "start":
        if prompt.seats:
            dealer = prompt.seats[0]
            st.button(
                w.say("record_deals", "{player} deals", player=md(names[dealer])),
                key="record_deal_expected", type="primary",
                on_click=_do, args=(deals(dealer), lambda: manual.start_hand(None)),
            )  # fmt: skip
        _player_buttons(
            manual,
            w.say("record_another_dealer", "Another dealer:") if prompt.seats
            else w.say("record_who_deals", "Who deals?"),
            "Another dealer:" if prompt.seats else "Who deals?",
            lambda seat: (deals(seat), lambda: manual.start_hand(seat)),
        )  # fmt: skip
    elif prompt.kind == "cut":
        seat = prompt.seats[0]
        _card_pick(
            w, manual, w.say("record_cuts", "{player} cuts", player=md(names[seat])), step,
            lambda card: (
                lambda w: w.say("record_said_cuts", "{player} cuts {card}", player=names[seat],
                                card=card.pretty),
                lambda: manual.cut(seat, card),
            ),
        )  # fmt: skip
    elif prompt.kind == "cards":
        _deal_entry(w, manual, prompt, step)
    elif prompt.kind == "trump":
        seat = prompt.seats[0]
        columns = st.columns(4)
        for column, suit in zip(columns, Suit, strict=False):
            column.button(
                f"{suit.symbol} {suit_name(suit, w)}", key=f"record_trump_{suit.name}",
                width="stretch", on_click=_do,
                args=(lambda w, s=suit: w.say("record_said_calls", "{player} calls {suit}",
                                              player=names[seat], suit=suit_name(s, w)),
                      lambda s=suit: manual.call_trump(seat, s)),
            )  # fmt: skip
    elif prompt.kind == "answer":
        for seat in prompt.seats[:1]:  # the next to answer
            left, right = st.columns(2)
            left.button(
                w.say("record_stays", "{player} stays", player=md(names[seat])),
                key="record_stay", width="stretch", on_click=_do,
                args=(lambda w, s=seat: w.say("record_stays", "{player} stays", player=names[s]),
                      lambda s=seat: manual.stay(s)),
            )  # fmt: skip
            right.button(
                w.say("record_folds", "{player} folds", player=md(names[seat])),
                key="record_fold", width="stretch", on_click=_do,
                args=(lambda w, s=seat: w.say("record_folds", "{player} folds", player=names[s]),
                      lambda s=seat: manual.fold(s)),
            )  # fmt: skip
    elif prompt.kind in ("play", "announce"):
        mover = game.to_move
        if prompt.kind == "announce":
            for seat in prompt.seats[:1]:
                announce = st.columns(3)
                # kap and baunie are Troefcall's own words in every language; stop is said.
                calls = (("kap", manual.kap), ("baunie", manual.baunie), ("stop", manual.stop))
                for column, (call, action) in zip(announce, calls, strict=True):
                    word = w.say("record_stop", "stop") if call == "stop" else call
                    column.button(
                        f"{md(names[seat])}: {word}", key=f"record_{call}", width="stretch",
                        on_click=_do,
                        args=(lambda w, c=call, s=seat: f"{names[s]} "
                              + (w.say("record_stop", "stop") if c == "stop" else c),
                              lambda a=action, s=seat: a(s)),
                    )  # fmt: skip
        if mover is not None:
            _card_pick(
                w, manual, w.say("record_plays", "{player} plays", player=md(names[mover])), step,
                lambda card: (
                    lambda w: w.say("record_said_plays", "{player} plays {card}",
                                    player=names[mover], card=card.pretty),
                    lambda: manual.play(mover, card),
                ),
                seat=mover,
            )  # fmt: skip
        if manual.rules.game != "troefcall":
            _player_buttons(
                manual, w.say("record_knock", "Knock:"), "Knock:",
                lambda seat: (
                    lambda w: w.say("record_knocks", "{player} knocks", player=names[seat]),
                    lambda: manual.knock(seat),
                ),
                only=[s for s in range(len(names)) if game.in_hand(s)],
            )  # fmt: skip
    if prompt.kind != "over":
        st.button(
            w.say("record_undo", "Undo the last move"), key="record_undo", on_click=_do,
            args=(lambda w: w.say("record_said_undo", "undo"), manual.undo),
            kwargs={"undo": True},
        )  # fmt: skip


def _player_buttons(
    manual: ManualGame,
    label: str,
    key: str,
    action: Callable[[int], tuple[Said, Callable[[], object]]],
    only: list[int] | None = None,
) -> None:
    """A row of buttons, one per player (wrapping on a phone); `key` names the row the same
    in every language (the row's English caption, as it always has)."""
    st.caption(label)
    row = st.container(horizontal=True, gap="small")
    for seat, name in enumerate(manual.players):
        if only is not None and seat not in only:
            continue
        said, call = action(seat)
        # A label is Markdown: a name is shown as typed, never as a link or an image.
        row.button(md(name), key=f"record_p_{key}_{seat}", on_click=_do, args=(said, call))


def _possible(manual: ManualGame, seat: int | None = None) -> list[Card]:
    """The cards still possible: a known hand's legal cards (the engine says which), or
    every card of the deck not yet seen."""
    game = manual.game
    if seat is not None and game.hands[seat] and None not in game.hands[seat]:
        return list(game.legal_cards(seat))
    return [c for c in game.deck if c not in game.seen]


def _card_grid(
    w: Words, cards: Sequence[Card], key: str, tap: Callable[[Card], None], label: str = ""
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
        title = html.escape(suit_name(suit, w))
        line.html(f'<div class="kroeg-suit{red}" title="{title}">{suit.symbol}</div>')
        for card in row:
            line.button(
                card.pretty.removesuffix(suit.symbol), key=f"record_card_{key}_{card.code}",
                on_click=tap, args=(card,),
            )  # fmt: skip


def _card_pick(
    w: Words,
    manual: ManualGame,
    label: str,
    step: int,
    action: Callable[[Card], tuple[Said, Callable[[], object]]],
    seat: int | None = None,
) -> None:
    """One tap on a card does it."""
    _card_grid(w, _possible(manual, seat), str(step), lambda card: _do(*action(card)), label)


def _deal_entry(w: Words, manual: ManualGame, prompt: Prompt, step: int) -> None:
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
    _card_grid(w, cards, f"deal_{step}", lambda card: _deal_tap(step, card))
    # Whose hand the taps fill, under the cards: in view while the thumb is on them.
    row = st.container(horizontal=True, gap="small")
    for seat in prompt.seats:
        have, want = _integer(w, len(hands[seat])), _integer(w, wanted[seat])
        row.button(
            f"{md(names[seat])} {have}/{want}", key=f"record_seat_{seat}",
            type="primary" if seat == filling else "secondary",
            on_click=_choose_seat, args=(step, seat),
        )  # fmt: skip
    shown = [f"{md(names[s])}: {' '.join(c.pretty for c in cards)}" for s, cards in hands.items()
             if cards]  # fmt: skip
    if shown:
        st.markdown(" · ".join(shown))
    left, middle, right = st.columns(3)
    left.button(
        w.say("record_deal_these", "Deal these cards"), key="record_deal", width="stretch",
        disabled=not taken, on_click=_deal_now, args=(step,),
    )  # fmt: skip
    middle.button(
        w.say("record_take_back", "Take back a card"), key="record_take_back", width="stretch",
        disabled=not taken, on_click=_take_back, args=(step,),
    )  # fmt: skip
    skip = _skip(w)
    right.button(
        skip[:1].upper() + skip[1:], key="record_skip", width="stretch",
        on_click=_do, args=(_skip, lambda: manual.deal({})),
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
    listed = "; ".join(
        f"{names[s]} {' '.join(c.pretty for c in cards)}" for s, cards in hands.items()
    )
    _do(
        lambda w: w.say("record_said_cards", "the cards: {hands}", hands=listed),
        lambda: manual.deal(dict(hands)),
    )


def _store(w: Words, manual: ManualGame) -> None:
    """Store the game, after saying what will be stored."""
    hands = manual.game.hand_no
    if not st.session_state.get("record_confirm"):
        if st.button(
            w.say("record_store", "Store the game…"), key="record_store",
            type="primary" if manual.over else "secondary",
        ):  # fmt: skip
            st.session_state["record_confirm"] = True
            st.rerun()
        return
    st.warning(
        w.say(
            "record_store_ask",
            "Store this game ({hands}) in the dataset? Recording ends here.",
            hands=w.count(hands, "n_hands"),
        )
    )
    yes, no = st.columns(2)
    if yes.button(
        w.say("record_store_yes", "Yes, store it"), key="record_store_yes", type="primary",
        width="stretch",
    ):  # fmt: skip
        st.session_state["record_confirm"] = False
        _do(lambda w: w.say("record_said_store", "store"), lambda: None, store=True)
        st.rerun()
    if no.button(w.say("record_store_no", "Not yet"), key="record_store_no", width="stretch"):
        st.session_state["record_confirm"] = False
        st.rerun()


def _log(w: Words) -> None:
    """What was done, in `kroeg record`'s words, in a short box under the prompt, newest
    first: each tap's answer on top, where the player looks after the tap, with no scroll
    to make (the box scrolls down to older moves). A move keeps its lines in time order."""
    lines = st.session_state.get("record_log", [])[-LOG_SHOWN:]
    entries = _entries([line if isinstance(line, str) else line(w) for line in lines])
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


def _start_form(w: Words) -> None:
    variants = _variant_names(w)
    with st.form("record_start"):
        players = st.text_input(
            w.say("record_players", "Players, in seat order"), "Anna, Ben, Carla, Dan",
            key="record_players",
        )  # fmt: skip
        rules = st.selectbox(
            w.say("record_rules", "Rules"), ["classic", "lives", "troefcall"],
            key="record_rules", format_func=w.ruleset,
        )  # fmt: skip
        chosen = st.multiselect(
            w.say(
                "record_variants",
                "Variants (Troefcall: target-15/20/50, free-trump-call, silent-kap, no-baunie)",
            ),
            sorted(VARIANTS), key="record_variants",
            format_func=lambda code: variants.get(code, code),
            placeholder=w.say("filter_choose", "Choose"),
        )  # fmt: skip
        venue = st.text_input(w.say("record_venue", "Venue"), "", key="record_venue")
        started = st.form_submit_button(
            w.say("record_start_game", "Start the game"), key="record_start_game", width="stretch"
        )
    if not started:
        return
    names = [n.strip() for n in players.split(",") if n.strip()]
    path = current_path()
    # The journal keeps every move until the game is stored; its place is ours, not the
    # players' business.
    journal = path / "journal" / f"record-{datetime.now(UTC):%Y%m%d-%H%M%S-%f}.jsonl"
    try:
        st.session_state["record_manual"] = ManualGame.start(
            names, Ruleset.resolve(rules, chosen), journal, dataset=path,
            venue=venue or None,
        )  # fmt: skip
    except KroegError as exc:
        st.error(md(str(exc)))
        return
    started_line: Line = lambda w: w.say(  # noqa: E731
        "record_started", "game started: {players} ({rules})",
        players=", ".join(names), rules=w.ruleset(rules),
    )  # fmt: skip
    st.session_state["record_log"] = [started_line]
    st.rerun()


def _refused(w: Words, move: str, exc: KroegError) -> str:
    """A move the engine refused, and why (in the engine's words)."""
    return w.say("record_refused", "Refused: {move} — {reason}", move=move, reason=str(exc))


def _record_command() -> None:
    command = st.session_state.get("record_command", "")
    st.session_state["record_command"] = ""
    if not command.strip():
        return
    manual = st.session_state["record_manual"]
    log = st.session_state.setdefault("record_log", [])
    try:
        outcome = Session(manual, page_words()).run(command)
    except KroegError as exc:
        st.session_state["record_refused"] = _refused(page_words(), command, exc)
        return
    log.append(f"> {command}")
    log.extend(outcome.lines)
    if outcome.stop == "quit":
        _stored(manual)


def _do(said: Said, action: Callable[[], object], store: bool = False, undo: bool = False) -> None:
    """One tap: the engine's call, and what it did written to the log; a refusal is kept
    to be shown as an error, in the engine's words."""
    manual: ManualGame = st.session_state["record_manual"]
    log: list[Line] = st.session_state.setdefault("record_log", [])
    session = Session(manual, page_words())
    before = len(manual.game.log)
    try:
        action()
        if store:
            manual.land()
    except KroegError as exc:
        st.session_state["record_refused"] = _refused(page_words(), said(page_words()), exc)
        return
    # The move is made: a deal being entered is done with (an undo that comes back to
    # the same moment starts its deal afresh, not with the cards of before).
    for key in [k for k in st.session_state if str(k).startswith("record_deal_")]:
        if key != "record_deal_expected":
            del st.session_state[key]
    if store:
        _stored(manual)
        return
    log.append(lambda w: "> " + said(w))
    if undo:
        log.append(lambda w: w.say("record_took_back", "took back the last move"))
    else:
        log.extend(session.after(before))  # the engine's words, said now in the language
    if manual.over and manual.landed is None:
        log.append(lambda w: w.say("record_game_over", "the game is over: store it"))


#: At most this many games not analysed yet are analysed when a game lands here; more (a
#: dataset never analysed) are left to `kroeg analyse`.
ANALYSED_AT_LANDING = 20


def _analyse(w: Words) -> str:
    """Analyse the game just landed (its verdicts on the Replay page), as `kroeg analyse`
    would: a few words on what was done."""
    dataset = Dataset(current_path())
    todo = len(dataset.game_ids() - analysed(dataset))
    if todo > ANALYSED_AT_LANDING:
        return w.say_n(
            "record_not_analysed_yet",
            "{n} game is not analysed yet: `kroeg analyse` gives it its verdicts.",
            "{n} games are not analysed yet: `kroeg analyse` gives them verdicts.",
            todo,
        )
    try:
        bring_up_to_date(dataset)
    except KroegError as exc:
        return w.say(
            "record_not_analysed", "Not analysed ({reason}): `kroeg analyse` gives it its "
            "verdicts.", reason=md(str(exc)),
        )  # fmt: skip
    return w.say("record_analysed", "Analysed: its knocks and folds have their verdicts.")


def _name(w: Words, game_id: str | None) -> str:
    """The game just stored as people call it (`20 Nov, game 2, 20:30 — Anna, Ben, Carla,
    Dan`: analytics.evenings.game_names), in Markdown; never its id."""
    named = names(current_path(), [game_id]).get(game_id) if game_id is not None else None
    return md(str(named)) if named is not None else w.say("record_the_game", "the game")


def _stored(manual: ManualGame) -> None:
    w = page_words()
    forget_signature(current_path())  # the next page shows the game at once
    said = _analyse(w) if manual.landed is not None else ""
    forget_signature(current_path())  # and its verdicts
    stored = w.say("record_stored", "Stored: {game}.", game=_name(w, manual.landed))
    st.session_state["record_stored"] = f"{stored} {said}" if said else stored
    st.session_state["record_manual"] = None
    st.session_state["record_log"] = []


if _writable():
    record()
