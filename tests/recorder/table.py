"""Test helpers: set up a Toepen table by hand and drive it with short steps.

game = table("classic")                      # Anna, Ben, Carla, Dan
deal(game, dealer="Dan", hands=["Jh Jc Td 9s", "Qh Qc Jd 8s", ...])
run(game, "Anna Jh", "Ben knock", "Carla fold", "Dan stay")
"""

from __future__ import annotations

from kroeg.recorder.cards import Card, Rank
from kroeg.recorder.events import Event
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.toepen import Toepen

NAMES = ("Anna", "Ben", "Carla", "Dan", "Eva", "Frits", "Gijs", "Hanna")


def table(rules: str | Ruleset = "classic", players: int = 4, *variants: str) -> Toepen:
    """A new game in external mode (cards come from the test)."""
    ruleset = Ruleset.preset(rules) if isinstance(rules, str) else rules
    return Toepen(ruleset.with_variants(*variants), NAMES[:players])


def seat(game: Toepen, name: str) -> int:
    """The seat of a player, by name."""
    return game.players.index(name)


def deal(game: Toepen, dealer: str | None, hands: list[str]) -> None:
    """Start a hand dealt by `dealer` (None: the rules decide) with these hands by seat.

    A hand is four card codes separated by spaces; `?` is a card nobody saw. Players
    out of the game get an empty string.
    """
    game.start_hand(None if dealer is None else seat(game, dealer))
    feed(game, hands)


def feed(game: Toepen, hands: list[str]) -> None:
    """Deal the queued cards from these hands (by seat), in the engine's dealing order."""
    cards = {
        s: [None if c == "?" else Card.parse(c) for c in text.split()]
        for s, text in enumerate(hands)
    }
    while game.deal_queue:
        s = game.deal_queue[0]
        game.deal(s, cards[s].pop(0))


def run(game: Toepen, *steps: str) -> list[Event]:
    """Apply steps like `Anna Jh`, `Ben knock`, `Carla check Ben 1`; return the events."""
    recorded = []
    for step in steps:
        who, verb, *rest = step.split()
        s = seat(game, who)
        if verb == "knock":
            recorded.append(game.knock(s))
        elif verb == "stay":
            recorded.append(game.stay(s))
        elif verb == "fold":
            recorded.append(game.fold(s))
        elif verb == "laundry":
            recorded.append(game.laundry(s))
        elif verb == "armoede":
            recorded.append(game.armoede(s))
        elif verb == "redeal":
            recorded.append(game.redeal(s))
        elif verb == "check":
            genuine = int(rest[1]) if len(rest) > 1 else None
            recorded.append(game.check(s, seat(game, rest[0]), genuine))
        elif verb == "whistle":
            count = int(rest[1]) if len(rest) > 1 else None
            recorded.append(game.whistle(s, Rank.parse(rest[0]), count))
        else:
            recorded.append(game.play(s, Card.parse(verb)))
    return recorded


def rows(events: list[Event]) -> list[tuple[object, ...]]:
    """Events as (kind, seat, card, amount, target) rows."""
    return [e.to_row() for e in events]


def costs(game: Toepen) -> dict[str, int]:
    """What each player has paid so far, by name."""
    paid = {name: 0 for name in game.players}
    for e in game.log:
        if e.kind == "pay":
            paid[game.players[e.seat]] += e.amount  # type: ignore[attr-defined]
    return paid


#: The worked example of the English seed (003).
# Dan deals; Anna leads. Dan wins tricks 1 and 2, Anna trick 3, Anna the last.
HANDS = ["Jh Jc Td 9s", "Qh Qc Jd 8s", "Kh Kc 7d As", "Ah 7c 8d Qd"]


def play_example() -> Toepen:
    """The seed's worked hand, played to its end."""
    game = table("classic")
    deal(game, "Dan", HANDS)
    run(game, "Anna Jh", "Ben Qh", "Carla Kh", "Dan Ah")  # trick 1: Dan
    run(game, "Dan 7c", "Anna Jc", "Ben Qc", "Carla Kc")  # trick 2: Dan
    # After two tricks Ben knocks: the hand is now worth 2. Carla folds and gets 1.
    run(game, "Ben knock", "Carla fold", "Dan stay", "Anna stay")
    run(game, "Dan 8d", "Anna Td", "Ben Jd")  # trick 3: Anna
    # Before the last trick Anna knocks again: now it's worth 3. Dan folds and gets 2.
    run(game, "Anna knock", "Ben stay", "Dan fold")
    run(game, "Anna 9s", "Ben 8s")  # Anna leads 9♠, Ben has only 8♠: Anna wins
    return game
