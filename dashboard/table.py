"""The card table as HTML: seats around an oval, cards as cards, hearts and diamonds red.

Its words (the dealer, the stake, the tricks, the moves' headings and marks) are in the
language of the `w` given (an analytics.words.Words), English when none is."""

from __future__ import annotations

import html
import math

from kroeg.analytics.formats import integer
from kroeg.analytics.report import GRADE_SIGNS
from kroeg.analytics.words import Words, words
from kroeg.dashboard.replay import HIDDEN, TableState
from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.records import side_name

__all__ = [
    "CSS", "PAGE_TOP", "SIDE_COLOURS", "card_html", "mark_word", "moves_html", "table_html",
]  # fmt: skip

#: The top of a page that must fit one screen (Replay, Record): it starts just under
#: Streamlit's bar, not a banner's height below it; a phone's bar is lower. Each such
#: page sends it with its own style (the Replay page's: in `CSS`).
PAGE_TOP = """<style>
.stMainBlockContainer { padding-top: 4rem; }
@media (max-width: 640px) { .stMainBlockContainer { padding-top: 3.5rem; } }
</style>"""

CSS = """
<style>
.kroeg-table { position: relative; height: clamp(320px, calc(100vh - 440px), 440px);
  margin: 8px auto; max-width: 720px; touch-action: pan-y pinch-zoom; }
.kroeg-felt { position: absolute; inset: 84px 26%; border-radius: 50%;
  background: radial-gradient(#2e7d4f, #1d5535); box-shadow: inset 0 0 30px #0006; }
.kroeg-seat { position: absolute; width: 46%; transform: translate(-50%, -50%);
  text-align: center; font-family: sans-serif; }
.kroeg-seat.left, .kroeg-seat.right { width: 25%; transform: translate(0, -50%); }
.kroeg-seat.left { left: 0; } .kroeg-seat.right { right: 0; }
.kroeg-seat.bottom { transform: translate(-50%, -100%); }
.kroeg-seat.top { transform: translate(-50%, 0); }
/* Seven at the table put two seats at the top, 36 % of the width apart: each a little
   narrower than that (eight put one there, as narrow, as is the bottom seat). */
.kroeg-table.crowded .kroeg-seat.top, .kroeg-table.crowded .kroeg-seat.bottom { width: 34%; }

.kroeg-name { font-weight: 600; font-size: 14px; }
.kroeg-name.out { color: #999; text-decoration: line-through; }
.kroeg-name.actor { color: #b8860b; }
/* A badge wraps as a whole, never "to" on one line and "play" on the next. */
.kroeg-turn { font-size: 11px; font-weight: 700; color: #fff; background: #2f6fb0;
  border-radius: 4px; padding: 0 4px; margin-left: 4px; display: inline-block;
  white-space: nowrap; }
.kroeg-score { font-size: 12px; color: #666; }
.kroeg-card { display: inline-block; min-width: 30px; padding: 4px 3px; margin: 2px;
  border-radius: 5px; background: #fff; border: 1px solid #bbb; font: 600 15px sans-serif;
  color: #111; box-shadow: 1px 1px 2px #0003; }
.kroeg-card.red { color: #c0392b; }
.kroeg-card.back { background: repeating-linear-gradient(45deg, #8b1e1e, #8b1e1e 3px,
  #a83232 3px, #a83232 6px); color: transparent; }
.kroeg-trick { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%);
  text-align: center; color: #fff; font: 13px sans-serif; width: 52%; }
.kroeg-stake { font-size: 22px; font-weight: 700; }
/* A trick's cards, each over its player's name: a gap between them, so that the names
   never run together ("IngridKenneth"), a long one cut short with an ellipsis. */
.kroeg-played { display: inline-block; text-align: center; vertical-align: top;
  margin: 0 3px; }
.kroeg-who { display: block; font-size: 11px; max-width: 70px; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; }
.kroeg-played.won .kroeg-card { outline: 3px solid #f5c542; }
.kroeg-played.won .kroeg-who { font-weight: 700; color: #ffe08a; }
.kroeg-table.big { height: clamp(360px, calc(100vh - 400px), 500px); max-width: 760px; }
.kroeg-table.big .kroeg-felt { inset: 96px 26%; }
.kroeg-table.big .kroeg-card { min-width: 19px; padding: 3px 2px; margin: 1px; font-size: 13px;
  text-align: left; }
/* Thirteen cards a seat: in rows, none on another, so that each card's rank and suit show
   (cards overlapped to fit the side seats' width hid all but a sliver of each). */
.kroeg-table.big .kroeg-hand { display: flex; flex-wrap: wrap; justify-content: center;
  gap: 2px; }
.kroeg-table.big .kroeg-hand .kroeg-card { margin: 0; }
.kroeg-side { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 5px; vertical-align: baseline; }
.kroeg-side.s0 { background: SIDE0; } .kroeg-side.s1 { background: SIDE1; }
.kroeg-side.s2 { background: SIDE2; }
.kroeg-caller { font-size: 11px; font-weight: 700; color: #fff; background: #7a1f1f;
  border-radius: 4px; padding: 0 4px; margin-left: 4px; display: inline-block;
  white-space: nowrap; }
.kroeg-trump { font-size: 22px; font-weight: 700; }
.kroeg-trump .red { color: #ffb3a7; }
.kroeg-tally { font-size: 12px; margin-top: 2px; }
.kroeg-now { font-size: 16px; margin: 4px 0 0; }
.kroeg-result { font-size: 16px; margin: 8px 0 0; padding: 8px 10px; border-radius: 6px;
  background: #fff3c4; color: #111; }
.kroeg-moves-title { margin: 0; }
.kroeg-moves { font-size: 15px; line-height: 1.5; overflow-y: auto;
  max-height: clamp(160px, calc(100vh - 600px), 480px);
  border: 1px solid #ddd; border-radius: 6px; padding: 4px 6px; }
.kroeg-moves ol { margin: 0; padding-left: 2.6em; }
.kroeg-moves li { cursor: pointer; border-radius: 4px; }
.kroeg-moves li:hover { background: #eef3f8; }
.kroeg-group { margin: 6px 0 0; font-size: 12px; font-weight: 700; color: #666;
  text-transform: uppercase; letter-spacing: .04em; }
.kroeg-mark { font-size: 12px; font-weight: 700; white-space: nowrap; color: #666; }
.kroeg-mark.bluff, .kroeg-mark.regret, .kroeg-mark.paid, .kroeg-mark.failed { color: #c0392b; }
.kroeg-mark.value, .kroeg-mark.fine, .kroeg-mark.held, .kroeg-mark.made,
.kroeg-mark.sound { color: #2e7d4f; }
.kroeg-mark.inaccuracy { color: #b7791f; }
.kroeg-mark.mistake { color: #d35400; }
.kroeg-mark.blunder { color: #c0392b; }
.kroeg-mark.kap { color: #2f6fb0; }
.kroeg-summary { font-size: 15px; margin: 0; }
.kroeg-verdict { font-size: 15px; margin: 4px 0 0; padding: 4px 8px; border-left: 4px solid #999; }
.kroeg-verdict.bluff, .kroeg-verdict.regret, .kroeg-verdict.paid, .kroeg-verdict.failed {
  border-color: #c0392b; }
.kroeg-verdict.value, .kroeg-verdict.fine, .kroeg-verdict.held, .kroeg-verdict.made,
.kroeg-verdict.sound { border-color: #2e7d4f; }
.kroeg-verdict.inaccuracy { border-color: #b7791f; }
.kroeg-verdict.mistake { border-color: #d35400; }
.kroeg-verdict.blunder { border-color: #c0392b; }
.kroeg-verdict.kap { border-color: #2f6fb0; }
.st-key-replay_controls { position: sticky; top: 3.75rem; z-index: 5;
  background: var(--st-background-color, #fff); padding: 4px 0; }
/* Touch targets of at least 44 px. */
.st-key-replay_controls button { min-height: 44px; min-width: 44px; }
/* One screen: the page starts under Streamlit's bar (PAGE_TOP), its title a line, not a
   banner. */
.stMainBlockContainer h1 { font-size: 2rem; padding: 0; }
.kroeg-panel { margin-top: 6px; }
.kroeg-hud { font-size: 13px; margin-top: 8px; }
.kroeg-hud span, .kroeg-hud th { opacity: 0.7; }
.kroeg-hud table { border-collapse: collapse; margin-top: 2px; }
.kroeg-hud th, .kroeg-hud td { padding: 1px 10px 1px 0; text-align: left; font-weight: normal; }
.kroeg-hud th[title] { text-decoration: underline dotted; cursor: help; }
.kroeg-keys { font-size: 13px; color: #666; margin: 6px 0 0; }
/* The Hand and Game buttons' keys are in the line under the moves: one row of buttons. */
.st-key-replay_hand_back kbd, .st-key-replay_hand_on kbd, .st-key-replay_game_back kbd,
.st-key-replay_game_on kbd { display: none; }
@media (max-width: 640px) {
  .kroeg-seat.left, .kroeg-seat.right { width: 24%; }
  /* Thirteen cards on a phone: the top and bottom seats take the table's width (the side
     seats sit lower, between them), their cards on one row, so the table keeps its
     height; the side seats' in rows (four at 390 px). The cards shrink with a narrower
     screen, not to a second row. */
  .kroeg-table.big .kroeg-seat.top, .kroeg-table.big .kroeg-seat.bottom { width: 100%; }
  .kroeg-table.big .kroeg-seat.top .kroeg-hand,
  .kroeg-table.big .kroeg-seat.bottom .kroeg-hand { flex-wrap: nowrap; }
  .kroeg-table.big .kroeg-card { min-width: 0; padding: 1px; font-size: min(12px, 3.1vw); }
  .kroeg-table.big .kroeg-hand { gap: 2px 1px; }
  .kroeg-felt, .kroeg-table.big .kroeg-felt { left: 25%; right: 25%; }
  .kroeg-trick { width: 48%; font-size: 12px; }
  /* Four names or more in the felt's width: the names smaller, a long one cut at about
     six letters (two or three players keep theirs whole). */
  .kroeg-trick.wide .kroeg-played { margin: 0 1px; }
  .kroeg-trick.wide .kroeg-who { max-width: 34px; font-size: 10px; }
  .kroeg-name { font-size: 13px; }
  /* One screen on a phone: the buttons, the whole table and the current move with its
     neighbours (the list's box three moves high). */
  .kroeg-table, .kroeg-table.big { height: 320px; }
  .kroeg-felt, .kroeg-table.big .kroeg-felt { top: 78px; bottom: 78px; }
  .kroeg-moves { max-height: 84px; }
  /* Seven or eight on a phone: two or three seats a side, one under another. The table
     is taller and the cards smaller, so that no seat lies over the next. */
  .kroeg-table.crowded { height: 440px; }
  .kroeg-table.crowded .kroeg-felt { top: 96px; bottom: 96px; }
  .kroeg-table.crowded .kroeg-card { min-width: 20px; padding: 2px 1px; margin: 1px;
    font-size: 13px; }
  .kroeg-moves-title, .st-key-replay_controls kbd, .kroeg-keys { display: none; }
  /* On a phone the Hand and Game pickers sit just above, and the slider goes to the
     start and the end: their buttons would push the table a row further down. */
  .st-key-replay_hand_back, .st-key-replay_hand_on, .st-key-replay_game_back,
  .st-key-replay_game_on, .st-key-replay_first, .st-key-replay_last,
  .kroeg-speed, .kroeg-copied:empty { display: none; }
  /* Streamlit takes 1rem back under a heading (its padding, which this title does not
     have); the desktop's 1rem gap gives it back, a phone's 0.5rem would put the game
     picker over the title's last line. */
  .stMainBlockContainer h1 { font-size: 1.5rem; padding-bottom: 0.5rem; }
  /* The game on a line, then hand and view side by side (the hand says "Hand 3"). */
  .st-key-replay_pickers [data-testid="stHorizontalBlock"] { flex-wrap: wrap;
    gap: 0.5rem; }
  .st-key-replay_pickers [data-testid="stColumn"] { flex: 1 1 calc(50% - 0.5rem) !important;
    width: calc(50% - 0.5rem) !important; min-width: 0 !important; }
  .st-key-replay_pickers [data-testid="stColumn"]:first-child { flex: 1 1 100% !important;
    width: 100% !important; }
  /* A game's name is longer than a phone is wide: cut with an ellipsis where it does
     not fit, not in the middle of a word (the list shows it whole). Its size stays: a
     phone's browser zooms into a field under 16 px when it is touched. */
  .st-key-replay_game input { text-overflow: ellipsis; }
  /* The game's and the hand's labels (the view's stays: its help is in it). */
  .st-key-replay_game [data-testid="stWidgetLabel"],
  .st-key-replay_hand [data-testid="stWidgetLabel"] { position: absolute; width: 1px;
    height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  /* The slider, autoplay and the link in one row. */
  .st-key-replay_slide [data-testid="stHorizontalBlock"] { flex-wrap: nowrap; }
  .st-key-replay_slide [data-testid="stColumn"]:first-child { flex: 1 1 auto !important;
    width: auto !important; min-width: 0 !important; }
  .st-key-replay_slide [data-testid="stColumn"]:last-child { flex: 0 0 auto !important;
    width: auto !important; min-width: 0 !important; }
  .kroeg-copy { font-size: 0; } .kroeg-copy::after { content: attr(data-short); font-size: 14px; }
  /* Without a clipboard the link is shown to copy by hand: across the foot of the screen,
     not inside the row it would push sideways. */
  .kroeg-link { position: fixed; left: 8px; right: 8px; bottom: 8px; width: auto;
    z-index: 20; }
  .stMainBlockContainer [data-testid="stVerticalBlock"] { gap: 0.5rem; }
}
.kroeg-moves li.now { font-weight: 700; background: #fff3c4; border-radius: 4px; }
</style>
"""


#: Each Troefcall side's colour, by side number: the table's dots and the Games chart.
#: Each side's colour (blue, orange; team toepen's third side of six players: green).
SIDE_COLOURS = ("#2f6fb0", "#d9822b", "#3a8f4b")
for _side, _colour in enumerate(SIDE_COLOURS):
    CSS = CSS.replace(f"SIDE{_side}", _colour)
CSS = PAGE_TOP + CSS


def _words(w: Words | None) -> Words:
    return w if w is not None else words("en")


#: Where a message's filled-in HTML goes (the message escaped, this put in after).
_SLOT = "\x00"


def card_html(code: str) -> str:
    """One card: face up with rank and suit symbol, or its back."""
    if code == HIDDEN:
        return '<span class="kroeg-card back">??</span>'
    card = Card.parse(code)
    red = " red" if card.suit.is_red else ""
    return f'<span class="kroeg-card{red}">{card.pretty}</span>'


def table_html(state: TableState, players: tuple[str, ...], w: Words | None = None) -> str:
    """The table at one step, names escaped, its words in `w`'s language (English when
    not given)."""
    w = _words(w)
    n = len(players)
    # Thirteen cards (Troefcall): smaller cards, in rows at each seat, none on another
    # (on a phone: a row at the top and bottom seats, four rows at the side seats).
    big = state.troefcall or max(len(h) for h in state.hands) > 6
    # Seven or eight at the table (`crowded`): seven put two seats at the top and two a
    # side, eight one at the top and three a side.
    size = " big" if big else " crowded" if n >= 7 else ""
    parts = [f'<div class="kroeg-table{size}"><div class="kroeg-felt"></div>']
    for seat, name in enumerate(players):
        # Seat 0 at the bottom, then clockwise (to the left of the screen, like the table).
        # The seats sit around the felt, never on it: those at the top and bottom above and
        # below it, the others against the table's left and right edges.
        angle = math.pi / 2 + 2 * math.pi * seat / n
        x, y = 50 + 42 * math.cos(angle), 50 + 50 * math.sin(angle)
        if abs(math.cos(angle)) < 0.5:
            where = "bottom" if y > 50 else "top"
            place = f"left:{x:.1f}%;top:{100 if y > 50 else 0}%"
        else:
            where = "left" if x < 50 else "right"
            place = f"top:{50 + 36 * math.sin(angle):.1f}%"
        classes = "kroeg-name"
        if not state.in_hand[seat]:  # folded, or out of the game
            classes += " out"
        if state.actor == seat:
            classes += " actor"
        dealer = html.escape(w.say("table_dealer", " (dealer)")) if seat == state.dealer else ""
        side = caller = ""
        if state.teams is not None:
            side = f'<span class="kroeg-side s{state.teams[seat]}"></span>'
            if seat == state.caller:
                said = html.escape(w.say("table_caller", "trump"))
                caller = f'<span class="kroeg-caller">{said}</span>'
        cards = "".join(card_html(c) for c in state.hands[seat])
        turn = ""
        if seat in state.to_act:
            if state.to_act_how == "answer":  # a knock to answer
                how = w.say("table_to_answer", "to answer")
            else:
                how = w.say("table_to_play", "to play")
            turn = f'<span class="kroeg-turn">{html.escape(how)}</span>'
        parts.append(
            f'<div class="kroeg-seat {where}" style="{place}">'
            f'<div class="{classes}">{side}{html.escape(name)}{dealer}{caller}{turn}</div>'
            f'<div class="kroeg-score">{html.escape(state.scores[seat])}</div>'
            f'<div class="kroeg-hand">{cards}</div></div>'
        )
    trick = "".join(
        f'<span class="kroeg-played{" won" if seat == state.trick_winner else ""}">'
        f'{card_html(c)}<span class="kroeg-who">'
        f"{'★ ' if seat == state.trick_winner else ''}{html.escape(players[seat])}</span></span>"
        for seat, c in state.trick
    )
    if not state.trick:  # a hand shown and laid aside (a check's), before the first card
        trick = "".join(
            f'<span class="kroeg-played aside">{card_html(c)}'
            f'<span class="kroeg-who">{html.escape(players[seat])}</span></span>'
            for seat, c in state.aside
        )
    parts.append(
        f'<div class="kroeg-trick{" wide" if n >= 4 else ""}">{_centre(state, players, w)}'
        f"<div>{trick}</div></div></div>"
    )
    return "".join(parts)


def _centre(state: TableState, players: tuple[str, ...], w: Words) -> str:
    """The middle of the table: the stake (Toepen), or trump and the sides' tricks (Troefcall)."""
    if state.kind == "hand_skipped":  # passed over on import: nothing of it is known
        said = html.escape(w.say("table_hand_skipped", "not read"))
        return f"<div>{said}</div>"
    if state.over:  # also after a kap in Troefcall, when 7 tricks decide the hand early
        said = w.say("table_hand_over", "hand over")
    elif state.trick_winner is not None:  # the trick on the table is complete
        said = w.say(
            "table_trick_taken", "trick {trick}: {player} takes it",
            trick=integer(state.table_trick, w.lang), player=players[state.trick_winner],
        )  # fmt: skip
    elif state.trick_no:
        said = w.say("table_trick", "trick {trick}", trick=integer(state.trick_no, w.lang))
    else:
        said = w.say("table_before_first_card", "before the first card")
    number = f"<div>{html.escape(said)}</div>"
    if not state.troefcall:
        sides = ""
        if state.teams is not None:  # team toepen: which colour is which side
            sides = (
                '<div class="kroeg-tally">'
                + " · ".join(
                    f'<span class="kroeg-side s{side}"></span>'
                    + html.escape(side_name(players, state.teams, side))
                    for side in sorted(set(state.teams))
                )
                + "</div>"
            )
        stake = html.escape(
            w.say("table_stake", "stake {stake}", stake=integer(state.stake, w.lang))
        )
        return f'<div class="kroeg-stake">{stake}</div>{number}{sides}'
    if state.trump is None:
        said = html.escape(w.say("table_trump_not_called", "trump not called"))
        trump = f'<div class="kroeg-trump">{said}</div>'
    else:
        suit = Suit(state.trump)
        red = ' class="red"' if suit.is_red else ""
        # The suit's symbol in its colour, where the message puts it.
        said = html.escape(w.say("table_trump", "trump {suit}", suit=_SLOT))
        symbol = f"<span{red}>{suit.symbol}</span>"
        trump = f'<div class="kroeg-trump">{said.replace(_SLOT, symbol)}</div>'
    tally = " · ".join(
        f'<span class="kroeg-side s{side}"></span>'
        + html.escape(side_name(players, state.teams or (), side))
        + f" {integer(taken, w.lang)}"
        for side, taken in enumerate(state.side_tricks or (0, 0))
    )
    tricks = html.escape(w.say("table_tricks", "tricks: {tally}", tally=_SLOT))
    return f'{trump}{number}<div class="kroeg-tally">{tricks.replace(_SLOT, tally)}</div>'


def moves_html(
    states: list[TableState],
    step: int,
    marks: dict[int, str] | None = None,
    w: Words | None = None,
) -> str:
    """The hand's moves, numbered by step and grouped (the deal, each trick, the end), the
    current one highlighted; each is clickable (`data-kroeg-step`, see replay_nav.js, which
    also keeps the current one in view inside the box).
    `marks`: the analysis' word on a step (bluff, value, regret, fine, ?), shown after it
    in `w`'s language (English when not given); the moves' own text is the states'."""
    w = _words(w)
    marks = marks or {}
    said = _mark_words(w)
    parts = ['<div class="kroeg-moves">']
    group = ""
    for state in states:
        title = _group(state, group, w)
        if title != group:
            if group:
                parts.append("</ol>")
            parts.append(
                f'<p class="kroeg-group">{html.escape(title)}</p><ol start="{state.step}">'
            )
            group = title
        now = ' class="now"' if state.step == step else ""
        parts.append(
            f'<li data-kroeg-step="{state.step}"{now}>{"▶ " if now else ""}'
            f"{html.escape(state.text)}{_mark(marks.get(state.step), said)}</li>"
        )
    parts.append("</ol></div>")
    return "".join(parts)


def _group(state: TableState, group: str, w: Words) -> str:
    """The heading a move goes under: the deal, a trick (from its lead), the end."""
    if not group:
        return w.say("table_group_deal", "The deal")
    if state.kind == "play" and state.trick_winner is None and len(state.trick) == 1:
        return w.say("table_group_trick", "Trick {trick}", trick=integer(state.table_trick, w.lang))
    if state.over and state.kind not in ("play", "trick"):
        return w.say("table_group_end", "The end")
    return group


def _mark_words(w: Words) -> dict[str, str]:
    """The analysis' marks on moves (analytics.report's verdicts), in `w`'s language."""
    return {
        "bluff": w.say("table_mark_bluff", "bluff"),
        "value": w.say("table_mark_value", "value"),
        "regret": w.say("table_mark_regret", "regret"),
        "fine": w.say("table_mark_fine", "fine"),
        "paid": w.say("table_mark_paid", "paid"),
        "held": w.say("table_mark_held", "held"),
        "made": w.say("table_mark_made", "made"),
        "failed": w.say("table_mark_failed", "failed"),
        "kap": w.say("table_mark_kap", "kap"),
        "sound": w.say("table_mark_sound", "sound"),
        "inaccuracy": w.say("table_mark_inaccuracy", "inaccuracy"),
        "mistake": w.say("table_mark_mistake", "mistake"),
        "blunder": w.say("table_mark_blunder", "blunder"),
    }


def mark_word(word: str, w: Words | None = None) -> str:
    """The analysis' mark on a move (`bluff`, `regret`, `sound` …) said in `w`'s
    language; a mark it does not know (`?`) as written."""
    return _mark_words(_words(w)).get(word, word)


def _mark(word: str | None, said: dict[str, str]) -> str:
    """A verdict's mark on a move: a coloured dot (a graded answer: its chess sign) and
    its word (`said`: the marks in the page's language; the class stays the analysis'
    word, which gives its colour)."""
    if word is None:
        return ""
    sign = GRADE_SIGNS.get(word, "●")
    shown = html.escape(said.get(word, word))
    return f' <span class="kroeg-mark {html.escape(word)}">{sign} {shown}</span>'
