"""`Toepen.play_out`, the analyses' fast what-if playout, against the engine playing it card
by card: the same trick rules must give the same winners from every position."""

from __future__ import annotations

import random

import pytest

from kroeg.recorder.bots import reference_card
from kroeg.recorder.cards import Card
from kroeg.recorder.errors import IllegalActionError
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen
from tests.recorder.table import deal, table


def played_by_the_engine(game: Toepen, hands: dict[int, list[Card]]) -> tuple[int, ...]:
    """The hand's winners when the engine referees every card of the reference policy."""
    fork = game.fork()
    for seat, cards in hands.items():
        fork.hands[seat] = list(cards)
    hand_no = fork.hand_no
    while fork.hand_no == hand_no and fork.phase in ("preplay", "play"):
        mover = fork.to_move
        assert mover is not None
        fork.play(mover, reference_card(fork, mover))
    return fork.hand_winners


def positions(rules: str, players: int, seed: int) -> list[tuple[Toepen, int]]:
    """Copies of simulated games at every moment of a hand when a card may be played next
    (before the first lead too), with nothing waiting for an answer."""
    found: list[tuple[Toepen, int]] = []
    for record in simulate(Ruleset.preset(rules), players, 40, seed, ["random", "bluffer"]):
        replay = Replay(record.rules, record.players)
        for event in record.events:
            game = replay.game
            assert isinstance(game, Toepen)
            if (
                game.phase in ("preplay", "play")
                and not game.deal_queue
                and not game.answer_queue
                and game.window is None
            ):
                found.append((game.fork(), len(found)))
            replay.feed(event)
    return found


@pytest.mark.parametrize(("rules", "players", "seed"), [("classic", 4, 1), ("lives", 5, 2)])
def test_play_out_gives_the_engines_winners(rules: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for game, _ in positions(rules, players, seed):
        assert game.play_out() == played_by_the_engine(game, {})
        # Suppose other cards: the cards still held, dealt again among the seats still in.
        live = game.seats_in_hand()
        pool = [c for s in live for c in game.hands[s] if c is not None]
        rng.shuffle(pool)
        supposed: dict[int, list[Card]] = {}
        for seat in live:
            supposed[seat], pool = pool[: len(game.hands[seat])], pool[len(game.hands[seat]) :]
        before = [list(h) for h in game.hands]
        assert game.play_out(supposed) == played_by_the_engine(game, supposed)
        assert game.hands == before  # the game itself is not changed
        checked += 1
    assert checked > 100


def test_play_out_refuses_unknown_cards() -> None:
    game = table("classic")
    deal(game, "Dan", ["? ? ? ?", "Qh Qc Kd 9s", "Kh Kc Ad 8s", "Ah 7c 9d 7s"])
    with pytest.raises(IllegalActionError, match="not known"):
        game.play_out()
