"""Helpers for Troefcall scenario tests: a table, deals by hand, tricks played out."""

from __future__ import annotations

from kroeg.recorder.cards import Card, Suit
from kroeg.recorder.events import Event, Score
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.troefcall import Troefcall

NAMES = ("Anna", "Ben", "Carla", "Dan")
S = Suit.SPADES

#: Anna holds every spade: with spades trump she takes every trick she leads.
ALL_SPADES = [
    "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s",
    "Ah Kh Qh Jh Th 9h 8h Ad Kd Qd Jd Td 9d",
    "Ac Kc Qc Jc Tc 9c 8c 7h 6h 5h 4h 3h 2h",
    "7c 6c 5c 4c 3c 2c 8d 7d 6d 5d 4d 3d 2d",
]
#: Anna and Carla take the first seven spade tricks; Ben's hearts beat Anna's after that.
SEVEN_THEN_HEARTS = [
    "As Ks Qs Js Ts 9s 8s 2h 3h 4h 5h 6h 7h",
    "Ah Kh Qh Jh Th 9h 8h Ad Kd Qd Jd Td 9d",
    "7s 6s 5s 4s 3s 2s Ac Kc Qc Jc Tc 9c 8c",
    "7c 6c 5c 4c 3c 2c 8d 7d 6d 5d 4d 3d 2d",
]


def game(*variants: str) -> Troefcall:
    return Troefcall(Ruleset.preset("troefcall").with_variants(*variants), NAMES)


def hand(g: Troefcall, hands: list[str], trump: Suit = S, dealer: int | None = 3) -> None:
    """Start a hand (Dan deals, so Anna calls), deal `hands` by seat in the engine's order."""
    g.start_hand(dealer)
    cards = {s: [Card.parse(c) for c in text.split()] for s, text in enumerate(hands)}
    while g.deal_queue or g.phase == "call":
        if g.phase == "call":
            assert g.caller is not None
            g.call_trump(g.caller, trump)
            continue
        seat = g.deal_queue[0]
        g.deal(seat, cards[seat].pop(0))


def lowest(g: Troefcall, seat: int) -> Card:
    return min(g.legal_cards(seat), key=lambda c: (c.suit is g.trump, g.power[c]))


def highest(g: Troefcall, seat: int) -> Card:
    return max(g.legal_cards(seat), key=lambda c: (c.suit is g.trump, g.power[c]))


def play_tricks(g: Troefcall, count: int) -> None:
    """Play `count` tricks: the leader plays its highest card, everyone else their lowest."""
    for _ in range(count):
        for i in range(4):
            seat = g.to_move
            assert seat is not None
            g.play(seat, (highest if i == 0 else lowest)(g, seat))


def play_out(g: Troefcall) -> None:
    while g.phase in ("play", "announce", "after_kap") and g.to_move is not None:
        seat = g.to_move
        g.play(seat, lowest(g, seat))


def scores(events: list[Event]) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in events if isinstance(e, Score)]


def this_hand(g: Troefcall) -> list[Event]:
    start = max(i for i, e in enumerate(g.log) if e.kind == "hand_start")
    return g.log[start:]


# -- the preset and the table -------------------------------------------------------------------
