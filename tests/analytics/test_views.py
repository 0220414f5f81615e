"""What a player could see, the ground of every verdict: `Sight`, kept up with a game's
log as the analysis replays it, and `seen_by`, which walks the hand's log, both say what
the definition says, at every position of games of every kind (swaps, redeals, checks
that show a hand, cards face up, team toepen)."""

from __future__ import annotations

import pytest

from kroeg.analytics.verdicts import Sight, seen_by
from kroeg.recorder.cards import Card
from kroeg.recorder.events import CardPlayed, Deal, Reveal
from kroeg.recorder.referee import Replay
from kroeg.recorder.rules import Ruleset
from kroeg.recorder.simulate import simulate
from kroeg.recorder.toepen import Toepen


def _seen_by_the_definition(game: Toepen, seat: int) -> set[Card]:
    """The definition, walked event by event from the hand's last deal: the seat's own
    cards, every card played or shown, every card dealt to the seat."""
    start = max(
        (i for i, e in enumerate(game.log) if e.kind in ("hand_start", "redeal")), default=0
    )
    seen = {c for c in game.hands[seat] if c is not None}
    for event in game.log[start:]:
        if isinstance(event, CardPlayed | Reveal) and event.card is not None:
            seen.add(event.card)
        if isinstance(event, Deal) and event.seat == seat and event.card is not None:
            seen.add(event.card)
    return seen


@pytest.mark.parametrize(
    ("preset", "variants", "players"),
    [
        ("classic", (), 4),
        ("classic", ("dirty-laundry", "check-before-swap"), 4),
        ("lives", ("poverty", "face-up"), 3),
        ("classic", ("team-toepen",), 4),
    ],
)
def test_what_each_player_saw_is_the_definition_s(
    preset: str, variants: tuple[str, ...], players: int
) -> None:
    rules = Ruleset.preset(preset).with_variants(*variants)
    bots = ["bluffer", "sharp", "random", "cautious"][:players]
    positions = 0
    kinds: set[str] = set()
    for record in simulate(rules, players, 30, 5, bots):
        replay = Replay(record.rules, record.players)
        assert isinstance(replay.game, Toepen)
        sight = Sight(replay.game)
        for event in record.events:
            game = replay.game
            assert isinstance(game, Toepen)
            seats = list(range(game.n))
            expected = [_seen_by_the_definition(game, s) for s in seats]
            assert [sight.seen(s) for s in seats] == expected
            assert [seen_by(game, s) for s in seats] == expected
            positions += 1
            kinds.add(event.kind)
            replay.feed(event)
    assert positions > 1000
    if "dirty-laundry" in variants:  # swaps, and checks that show the swapped hand
        assert {"laundry", "reveal"} <= kinds
