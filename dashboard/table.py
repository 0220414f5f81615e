"""The card table as HTML: seats around an oval, cards as cards, hearts and diamonds red."""

from __future__ import annotations

import html
import math

from dashboard.replay import HIDDEN, TableState

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
.kroeg-now { font-size: 16px; margin: 4px 0 0; }
.kroeg-events { font-size: 15px; line-height: 1.5; max-height: 560px; overflow-y: auto; }
.kroeg-events ol { margin: 0; padding-left: 2.6em; }
.kroeg-events li.now { font-weight: 700; background: #fff3c4; border-radius: 4px; }
</style>
"""

_SUITS = {"h": "♥", "d": "♦", "c": "♣", "s": "♠"}


def card_html(code: str) -> str:
    """One card: face up with rank and suit symbol, or its back."""
    if code == HIDDEN:
        return '<span class="kroeg-card back">??</span>'
    rank = "10" if code[0] == "T" else code[0]
    red = " red" if code[1] in "hd" else ""
    return f'<span class="kroeg-card{red}">{rank}{_SUITS[code[1]]}</span>'


def table_html(state: TableState, players: tuple[str, ...]) -> str:
    """The table at one step, names escaped."""
    n = len(players)
    parts = ['<div class="kroeg-table"><div class="kroeg-felt"></div>']
    for seat, name in enumerate(players):
        # Seat 0 at the bottom, then clockwise (to the left of the screen, like the table).
        angle = math.pi / 2 + 2 * math.pi * seat / n
        x, y = 50 + 42 * math.cos(angle), 50 + 40 * math.sin(angle)
        classes = "kroeg-name"
        if not state.in_hand[seat]:  # folded, or out of the game
            classes += " out"
        if state.actor == seat:
            classes += " actor"
        dealer = " (dealer)" if seat == state.dealer else ""
        cards = "".join(card_html(c) for c in state.hands[seat])
        parts.append(
            f'<div class="kroeg-seat" style="left:{x:.1f}%;top:{y:.1f}%">'
            f'<div class="{classes}">{html.escape(name)}{dealer}</div>'
            f'<div class="kroeg-score">{html.escape(state.scores[seat])}</div>'
            f"<div>{cards}</div></div>"
        )
    trick = " ".join(f"{card_html(c)}" for _, c in state.trick)
    parts.append(
        f'<div class="kroeg-trick"><div class="kroeg-stake">stake {state.stake}</div>'
        f"<div>trick {max(state.trick_no, 1)}</div><div>{trick}</div></div></div>"
    )
    return "".join(parts)


def events_html(texts: list[str], step: int) -> str:
    """The hand's events as one numbered list from 0, the current step highlighted."""
    items = "".join(
        f'<li class="now">▶ {html.escape(t)}</li>' if i == step else f"<li>{html.escape(t)}</li>"
        for i, t in enumerate(texts)
    )
    return f'<div class="kroeg-events"><ol start="0">{items}</ol></div>'
