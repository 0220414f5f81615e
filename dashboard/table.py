"""The card table as HTML: seats around an oval, cards as cards, hearts and diamonds red."""

from __future__ import annotations

import html
import math

from dashboard.replay import HIDDEN, TableState
from recorder.cards import Card, Suit
from recorder.records import side_name

__all__ = ["CSS", "card_html", "events_html", "table_html"]

CSS = """
<style>
.kroeg-table { position: relative; height: 420px; margin: 8px auto; max-width: 720px; }
.kroeg-felt { position: absolute; inset: 70px 90px; border-radius: 50%;
  background: radial-gradient(#2e7d4f, #1d5535); box-shadow: inset 0 0 30px #0006; }
.kroeg-seat { position: absolute; width: 180px; transform: translate(-50%, -50%);
  text-align: center; font-family: sans-serif; }
.kroeg-name { font-weight: 600; font-size: 14px; }
.kroeg-name.out { color: #999; text-decoration: line-through; }
.kroeg-name.actor { color: #b8860b; }
.kroeg-turn { font-size: 11px; font-weight: 700; color: #fff; background: #2f6fb0;
  border-radius: 4px; padding: 0 4px; margin-left: 4px; }
.kroeg-score { font-size: 12px; color: #666; }
.kroeg-card { display: inline-block; min-width: 30px; padding: 4px 3px; margin: 2px;
  border-radius: 5px; background: #fff; border: 1px solid #bbb; font: 600 15px sans-serif;
  color: #111; box-shadow: 1px 1px 2px #0003; }
.kroeg-card.red { color: #c0392b; }
.kroeg-card.back { background: repeating-linear-gradient(45deg, #8b1e1e, #8b1e1e 3px,
  #a83232 3px, #a83232 6px); color: transparent; }
.kroeg-trick { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%);
  text-align: center; color: #fff; font: 13px sans-serif; }
.kroeg-stake { font-size: 22px; font-weight: 700; }
.kroeg-played { display: inline-block; text-align: center; vertical-align: top; }
.kroeg-who { display: block; font-size: 11px; max-width: 70px; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; }
.kroeg-played.won .kroeg-card { outline: 3px solid #f5c542; }
.kroeg-played.won .kroeg-who { font-weight: 700; color: #ffe08a; }
.kroeg-table.big { height: 500px; max-width: 760px; }
.kroeg-table.big .kroeg-felt { inset: 100px 100px; }
.kroeg-table.big .kroeg-card { min-width: 19px; padding: 3px 2px; margin: 1px; font-size: 13px; }
.kroeg-side { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  margin-right: 5px; vertical-align: baseline; }
.kroeg-side.s0 { background: #2f6fb0; } .kroeg-side.s1 { background: #d9822b; }
.kroeg-caller { font-size: 11px; font-weight: 700; color: #fff; background: #7a1f1f;
  border-radius: 4px; padding: 0 4px; margin-left: 4px; }
.kroeg-trump { font-size: 22px; font-weight: 700; }
.kroeg-trump .red { color: #ffb3a7; }
.kroeg-tally { font-size: 12px; margin-top: 2px; }
.kroeg-now { font-size: 16px; margin: 4px 0 0; }
.kroeg-result { font-size: 16px; margin: 8px 0 0; padding: 8px 10px; border-radius: 6px;
  background: #fff3c4; color: #111; }
.kroeg-events { font-size: 15px; line-height: 1.5; max-height: 560px; overflow-y: auto; }
.kroeg-events ol { margin: 0; padding-left: 2.6em; }
.kroeg-more { margin: 0 0 0 2.6em; color: #666; font-size: 13px; }
.kroeg-mark { font-size: 12px; font-weight: 700; white-space: nowrap; color: #666; }
.kroeg-mark.bluff, .kroeg-mark.regret { color: #c0392b; }
.kroeg-mark.value, .kroeg-mark.fine { color: #2e7d4f; }
.kroeg-summary { font-size: 15px; margin: 0; }
.kroeg-verdict { font-size: 15px; margin: 4px 0 0; padding: 4px 8px; border-left: 4px solid #999; }
.kroeg-verdict.bluff, .kroeg-verdict.regret { border-color: #c0392b; }
.kroeg-verdict.value, .kroeg-verdict.fine { border-color: #2e7d4f; }
.kroeg-events li.now { font-weight: 700; background: #fff3c4; border-radius: 4px; }
</style>
"""


def card_html(code: str) -> str:
    """One card: face up with rank and suit symbol, or its back."""
    if code == HIDDEN:
        return '<span class="kroeg-card back">??</span>'
    card = Card.parse(code)
    red = " red" if card.suit.is_red else ""
    return f'<span class="kroeg-card{red}">{card.pretty}</span>'


def table_html(state: TableState, players: tuple[str, ...]) -> str:
    """The table at one step, names escaped."""
    n = len(players)
    # Thirteen cards (Troefcall): smaller cards, a row at the top and bottom seats, and
    # two rows at the side seats.
    big = state.teams is not None or max(len(h) for h in state.hands) > 6
    parts = [f'<div class="kroeg-table{" big" if big else ""}"><div class="kroeg-felt"></div>']
    for seat, name in enumerate(players):
        # Seat 0 at the bottom, then clockwise (to the left of the screen, like the table).
        angle = math.pi / 2 + 2 * math.pi * seat / n
        x, y = 50 + 42 * math.cos(angle), 50 + 40 * math.sin(angle)
        width = "" if not big else f"width:{330 if abs(math.cos(angle)) < 0.5 else 170}px;"
        classes = "kroeg-name"
        if not state.in_hand[seat]:  # folded, or out of the game
            classes += " out"
        if state.actor == seat:
            classes += " actor"
        dealer = " (dealer)" if seat == state.dealer else ""
        side = caller = ""
        if state.teams is not None:
            side = f'<span class="kroeg-side s{state.teams[seat]}"></span>'
            caller = '<span class="kroeg-caller">trump</span>' if seat == state.caller else ""
        cards = "".join(card_html(c) for c in state.hands[seat])
        turn = (
            f'<span class="kroeg-turn">to {state.to_act_how}</span>' if seat in state.to_act else ""
        )
        parts.append(
            f'<div class="kroeg-seat" style="{width}left:{x:.1f}%;top:{y:.1f}%">'
            f'<div class="{classes}">{side}{html.escape(name)}{dealer}{caller}{turn}</div>'
            f'<div class="kroeg-score">{html.escape(state.scores[seat])}</div>'
            f"<div>{cards}</div></div>"
        )
    trick = "".join(
        f'<span class="kroeg-played{" won" if seat == state.trick_winner else ""}">'
        f'{card_html(c)}<span class="kroeg-who">'
        f"{'★ ' if seat == state.trick_winner else ''}{html.escape(players[seat])}</span></span>"
        for seat, c in state.trick
    )
    parts.append(
        f'<div class="kroeg-trick">{_centre(state, players)}<div>{trick}</div></div></div>'
    )
    return "".join(parts)


def _centre(state: TableState, players: tuple[str, ...]) -> str:
    """The middle of the table: the stake (Toepen), or trump and the sides' tricks (Troefcall)."""
    if state.over:  # also after a kap in Troefcall, when 7 tricks decide the hand early
        number = "<div>hand over</div>"
    elif state.trick_winner is not None:  # the trick on the table is complete
        taker = html.escape(players[state.trick_winner])
        number = f"<div>trick {state.table_trick}: {taker} takes it</div>"
    elif state.trick_no:
        number = f"<div>trick {state.trick_no}</div>"
    else:
        number = "<div>before the first card</div>"
    if state.teams is None:
        return f'<div class="kroeg-stake">stake {state.stake}</div>{number}'
    if state.trump is None:
        trump = '<div class="kroeg-trump">trump not called</div>'
    else:
        suit = Suit(state.trump)
        red = ' class="red"' if suit.is_red else ""
        trump = f'<div class="kroeg-trump">trump <span{red}>{suit.symbol}</span></div>'
    tally = " · ".join(
        f'<span class="kroeg-side s{side}"></span>'
        + html.escape(side_name(players, state.teams, side))
        + f" {taken}"
        for side, taken in enumerate(state.side_tricks or (0, 0))
    )
    return f'{trump}{number}<div class="kroeg-tally">tricks: {tally}</div>'


#: How many events the list shows around the current one (before it, after it): the
#: current event is always in view without a script to scroll the box.
EVENTS_BEFORE, EVENTS_AFTER = 8, 16


def events_html(texts: list[str], step: int, marks: dict[int, str] | None = None) -> str:
    """The hand's events as a numbered list from 0, the current step highlighted and in
    view: the list shows the events around it and says how many more there are.
    `marks`: the analysis' word on a step (bluff, value, regret, fine, ?), shown after it."""
    marks = marks or {}
    first = max(0, min(step - EVENTS_BEFORE, len(texts) - EVENTS_BEFORE - EVENTS_AFTER - 1))
    last = min(len(texts), first + EVENTS_BEFORE + EVENTS_AFTER + 1)
    items = "".join(
        f'<li class="now">▶ {html.escape(texts[i])}{_mark(marks.get(i))}</li>'
        if i == step
        else f"<li>{html.escape(texts[i])}{_mark(marks.get(i))}</li>"
        for i in range(first, last)
    )
    earlier = f'<p class="kroeg-more">… {first} earlier</p>' if first else ""
    later = f'<p class="kroeg-more">… {len(texts) - last} more</p>' if last < len(texts) else ""
    return f'<div class="kroeg-events">{earlier}<ol start="{first}">{items}</ol>{later}</div>'


def _mark(word: str | None) -> str:
    """A verdict's mark on a move: a coloured dot and its word."""
    if word is None:
        return ""
    return f' <span class="kroeg-mark {html.escape(word)}">● {html.escape(word)}</span>'
